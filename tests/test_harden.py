"""`balance tune --harden` and hand counters (issue 34): a `tuned` profile is
checked against a fresh tune and the hand counters kept in tests/data, all
held out and paired with `tuned` itself in the same seat."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest
import yaml
from typer.testing import CliRunner

from balance.cli import app
from balance.errors import UserError
from balance.experiments.strong import exploit_field
from balance.experiments.tune import TuneOptions
from balance.experiments.tune.harden import (
    TOLERANCE,
    challenge_counters,
    harden,
    load_counters,
    with_values,
)
from balance.games import GAMES
from balance.scenario import load_scenario

from .conftest import ROOT

COUNTERS = Path(__file__).parent / "data" / "counters.yaml"
DUEL = f"""name: duel
game: downforce
cards: {ROOT / "downforce.yaml"}
players: 2
bots: [tuned, tuned]
"""


def test_dotted_values_set_nested_fields_and_new_keys():
    profile = {"noise": 0.05, "weights": {"drive": 1.0, "coins": 0.5}, "drivers": {}}
    got = with_values(profile, {"weights.coins": 2, "drivers.comet": 3.0, "noise": 0.1})
    assert got == {"noise": 0.1, "weights": {"drive": 1.0, "coins": 2}, "drivers": {"comet": 3.0}}
    assert profile["weights"]["coins"] == 0.5, "the profile itself is left alone"


@pytest.mark.parametrize("game", sorted(GAMES))
def test_every_games_hand_counters_are_valid_profiles(game):
    """Each counter kept in the tests' data is the game's `tuned` with values
    that exist and lie within the schema's bounds."""
    counters, _ = load_counters(COUNTERS, game)
    assert len(counters) >= 3
    model = GAMES[game].profile_model
    tuned = GAMES[game].profiles(None)["tuned"].model_dump(mode="json", by_alias=True)
    for name, values in counters.items():
        changed = with_values(tuned, values)
        model.model_validate(changed)
        assert changed != tuned, f"{name} changes nothing"


def test_a_counter_that_changes_nothing_gains_exactly_nothing_and_a_bad_one_loses(tmp_path):
    """Paired on the same held-out deals: tuned against tuned is 0 game by game;
    a counter that plays at random loses."""
    path = tmp_path / "s.yaml"
    path.write_text(DUEL)
    scenario = exploit_field(load_scenario(path))
    options = TuneOptions(jobs=1, bot="tuned")
    same, blind = challenge_counters(
        scenario, "tuned", {"same": {"noise": 0.05}, "blind": {"noise": 1.0}}, 7, 512, options
    )
    assert same.gain.rate == 0 and same.gain.low == 0 and same.gain.n == 512
    assert blind.gain.high < 0


def test_harden_adopts_a_refuting_challenger_and_stops_when_a_doubled_check_holds(tmp_path):
    """A counter that refutes `tuned` (the bot made to play at random first:
    `tuned` here is that weakened profile) is adopted; the procedure ends with a
    check at twice the budget that no challenger beats by more than 3 points,
    and writes the profile and the steps."""
    path = tmp_path / "s.yaml"
    path.write_text(DUEL + "bot_profiles:\n  tuned: {noise: 1.0}\n")
    scenario = exploit_field(load_scenario(path))
    options = TuneOptions(
        jobs=1, bot="tuned", budget=300, games_per_eval=16, population=4, confirm_games=512, out=tmp_path / "h"
    )
    shipped = GAMES["downforce"].profiles(None)["tuned"].model_dump(mode="json", by_alias=True)
    result = harden(scenario, options, {"sharp": {k: v for k, v in shipped.items() if k != "powers"}})
    first = result.steps[0]
    assert first["adopted"] and first["best"] in ("sharp", "fresh tune")
    last = result.steps[-1]
    assert last["check"] and not last["adopted"] and last["budget"] == 2 * result.steps[-2]["budget"]
    assert result.holds and result.final.gain.rate <= TOLERANCE
    written = yaml.safe_load((result.out / "tuned.yaml").read_text())["tuned"]
    assert written == result.profile and GAMES["downforce"].profile_model.model_validate(written)
    assert json.loads((result.out / "harden.json").read_text())["steps"] == json.loads(json.dumps(result.steps))
    assert "holds: the best challenger" in (result.out / "tuned.yaml").read_text().splitlines()[0]


def test_a_check_that_holds_below_the_check_floor_checks_again_at_twice_its_budget(tmp_path):
    """A small search finds small exploits (on the sixth Horsepower database a
    hardening checked at 80,000 games held, and a 320,000-game tune then beat
    it by +3.2 points): the procedure ends only on a check that holds with at
    least the floor's budget, doubling the check until it gets there."""
    path = tmp_path / "s.yaml"
    path.write_text(DUEL)
    scenario = exploit_field(load_scenario(path))
    options = TuneOptions(
        jobs=1, bot="tuned", budget=300, games_per_eval=16, population=4, confirm_games=512, out=tmp_path / "h"
    )
    result = harden(scenario, options, {}, check_budget=1200)
    *_, before, last = [(s["budget"], s["check"], s["adopted"]) for s in result.steps]
    assert before == (600, True, False), "a check that held below the floor"
    assert last == (1200, True, False), "...and the check again at twice its budget, which ends it"
    assert result.holds
    runner = CliRunner()
    alone = runner.invoke(app, ["tune", str(path), "--bot", "tuned", "--check-budget", "1000"])
    assert alone.exit_code == 2 and "--check-budget goes with --harden" in alone.stderr


def test_counters_file_mistakes_are_one_line(tmp_path):
    bad = tmp_path / "c.yaml"
    bad.write_text("downforce: [1, 2]\n")
    with pytest.raises(UserError, match="no counters under downforce"):
        load_counters(bad, "downforce")
    path = tmp_path / "s.yaml"
    path.write_text(DUEL)
    runner = CliRunner()
    alone = runner.invoke(app, ["tune", str(path), "--bot", "tuned", "--counters", str(COUNTERS)])
    assert alone.exit_code == 2 and "--counters goes with --exploit or --harden" in alone.stderr
    missing = runner.invoke(app, ["tune", str(path), "--harden", "--counters", str(tmp_path / "none.yaml")])
    assert missing.exit_code == 2 and "no such file" in missing.stderr
    unknown = tmp_path / "u.yaml"
    unknown.write_text("downforce:\n  odd: {no_such_value: 1}\n")
    wrong = runner.invoke(app, ["tune", str(path), "--exploit", "--counters", str(unknown), "--budget", "300"])
    assert wrong.exit_code == 2 and "no_such_value" in wrong.stderr
    assert np.all([len(line) < 300 for line in wrong.stderr.splitlines()])


SCENARIOS = {
    "horsepower": "four-player-mixed",
    "heat": "heat-usa",
    "downforce": "downforce-four",
    "shuffle_gp": "shuffle-gp-four",
}


@pytest.mark.statistical
@pytest.mark.parametrize("game", sorted(SCENARIOS))
def test_no_hand_counter_beats_the_shipped_tuned_by_more_than_three_points(game):
    """Issue 34: the shipped `tuned` against the hand counters kept here, in its
    game's main scenario, on held-out games paired with `tuned` itself (the
    harden procedure's own check at 4,096 games each; CI plays a quarter,
    BALANCE_STAT_SCALE scales it)."""
    import os

    scale = float(os.environ.get("BALANCE_STAT_SCALE", "1"))
    games = max(256, int(1024 * scale))
    scenario = exploit_field(load_scenario(ROOT / "scenarios" / f"{SCENARIOS[game]}.yaml"))
    counters, _ = load_counters(COUNTERS, game)
    options = TuneOptions(jobs=2, bot="tuned")
    for c in challenge_counters(scenario, "tuned", counters, 11, games, options):
        assert c.gain.rate <= TOLERANCE, f"{c.name}: {c.gain.rate:+.3f} ({c.gain.low:+.3f} to {c.gain.high:+.3f})"
