"""`balance strength`: an extra copy in one seat's starting deck, the same
games without it; a buffed card ranks above its old self."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest
from typer.testing import CliRunner

from balance.cli import app
from balance.experiments.setup import ExperimentOptions
from balance.experiments.strength import strength
from balance.seeding import bonus_seat

from .conftest import CARDS, ROOT

SCENARIO = f"""name: str
game: horsepower
cards: {CARDS}
players: 4
bots: [racer, economist, saboteur, balanced]
games: 1200
seed: 4
chunk_size: 600
"""


def test_the_receiving_seat_is_a_fixed_fair_draw():
    seats = bonus_seat(4, np.arange(40000), 4)
    assert np.array_equal(seats, bonus_seat(4, np.arange(40000), 4))
    assert np.abs(np.bincount(seats) / 40000 - 0.25).max() < 0.01


def test_a_buffed_card_ranks_above_its_old_self(tmp_path):
    plain = tmp_path / "plain.yaml"
    plain.write_text(SCENARIO)
    buffed = tmp_path / "buffed.yaml"
    buffed.write_text(SCENARIO + "overrides: {cards.v8_block.effects.0.amount: 9}\n")
    old = strength(plain, ["v8_block", "twin_turbo"], options=ExperimentOptions(out=tmp_path / "a", jobs=1)).table
    new = strength(buffed, ["v8_block"], options=ExperimentOptions(out=tmp_path / "b", jobs=1)).table
    old_v8 = old.filter(old["card"] == "v8_block")["change"].item()
    new_v8 = new["change"].item()
    assert new_v8 > old_v8 + 0.05, (old_v8, new_v8)
    assert old["card"].to_list()[0] == "twin_turbo", "ranked: the planted strong card first"
    assert (tmp_path / "a" / "strength.png").read_bytes()[:4] == b"\x89PNG"
    assert "Strength by experiment" in (tmp_path / "a" / "index.html").read_text()


def test_unknown_cards_are_refused_before_any_game(tmp_path):
    path = tmp_path / "s.yaml"
    path.write_text(SCENARIO)
    result = CliRunner().invoke(app, ["strength", str(path), "--cards", "warp_drive", "--out", str(tmp_path / "o")])
    assert result.exit_code == 2 and "no item with id 'warp_drive'" in result.stderr
    assert not (tmp_path / "o").exists()
    with pytest.raises(Exception, match="bonus_card: no card with id 'nope'"):
        from balance.games.horsepower.chunk import prepare
        from balance.scenario import load_scenario

        path.write_text(SCENARIO + "bonus_card: nope\n")
        prepare(load_scenario(path))


def test_the_report_puts_the_experiment_first_where_one_of_the_same_design_exists(tmp_path):
    """Issue 19: the findings quote `balance strength` (causal) before the
    associations when runs/<name>-strength played the same game, field and
    database; otherwise they point to it. Another design is refused."""
    from balance.runner import RunOptions, run

    path = tmp_path / "s.yaml"
    small = SCENARIO.replace("games: 1200", "games: 160").replace("chunk_size: 600", "chunk_size: 160")
    path.write_text(small)
    runs = tmp_path / "runs"
    run(path, RunOptions(out=runs / "str", jobs=1))
    before = CliRunner().invoke(app, ["report", str(runs / "str"), "--out", str(tmp_path / "a")])
    assert before.exit_code == 0, before.output
    words = " ".join(before.output.split())
    assert "Not measured by experiment yet: " in words and f"-> balance report {runs / 'str'} --measure" in words
    assert "By experiment (causal)" not in before.output and "What to change" not in before.output
    table = strength(
        path, ["twin_turbo", "v8_block"], options=ExperimentOptions(out=runs / "str-strength", jobs=1)
    ).table
    after = CliRunner().invoke(app, ["report", str(runs / "str"), "--out", str(tmp_path / "b")])
    lines = [line for line in after.output.splitlines() if line.startswith("- ")]
    heads = [line for line in after.output.splitlines() if line.endswith(":") and not line.startswith("- ")]
    assert heads[0] == "What to change:" and heads.index("Cards and Playbooks too strong or too weak:") < heads.index(
        "What the bots like to take:"
    )
    causal = [line for line in lines if "points of win rate for the seat given it" in line]
    assert len(causal) == int(table["significant"].sum()), lines
    assert any("By experiment (causal)" in line for line in lines)
    other = tmp_path / "other.yaml"
    other.write_text(
        small.replace("players: 4", "players: 2").replace("[racer, economist, saboteur, balanced]", "[racer, balanced]")
    )
    strength(other, ["twin_turbo"], options=ExperimentOptions(out=tmp_path / "other-strength", jobs=1))
    refused = CliRunner().invoke(
        app, ["report", str(runs / "str"), "--out", str(tmp_path / "c"), "--strength", str(tmp_path / "other-strength")]
    )
    assert refused.exit_code == 2 and "measured another design" in refused.stderr


def test_by_default_strength_measures_each_games_main_items_and_all_of_them_with_all(tmp_path):
    """Issue 19: the default is what a designer tunes first (Horsepower's Parts
    cards, Downforce's powers, Shuffle GP's drivers, Heat's studied cards);
    --all adds the rest (Playbooks, speed cards, ability cards)."""
    from balance.games import GAMES
    from balance.scenario import load_scenario

    extra = {"horsepower": {"Playbook"}, "downforce": {"speed card"}, "shuffle_gp": {"ability card"}, "heat": set()}
    files = {
        "horsepower": "four-player-mixed",
        "downforce": "downforce-four",
        "shuffle_gp": "shuffle-gp-four",
        "heat": "heat-italia-duel",
    }
    for name, game in GAMES.items():
        catalog = game.catalog(game.prepare(load_scenario(ROOT / "scenarios" / f"{files[name]}.yaml")))
        items = game.strength_items(catalog)
        assert {i["kind"] for i in items if i.get("more")} == extra[name], name
        assert any(not i.get("more") for i in items), name
    path = tmp_path / "df.yaml"
    path.write_text(
        f"name: df\ngame: downforce\ncards: {ROOT / 'downforce.yaml'}\nplayers: 2\nbots: [balanced, miser]\n"
        "games: 32\nchunk_size: 32\n"
    )
    seen = []
    table = strength(
        path,
        on_progress=lambda what, done, total: seen.append(done),
        options=ExperimentOptions(out=tmp_path / "o", jobs=1),
    ).table
    assert sorted(table["kind"].unique().to_list()) == ["power"] and table.height == 6
    assert seen[-1] == 32 * 7 and seen == sorted(seen)  # the baseline and six powers, counted in order


def test_a_duel_measures_no_card_the_duel_leaves_out_of_the_parts_deck():
    """Rulebook 1.2: (M) cards leave the Parts Deck below
    rules.multiplayer_min_players. A two-player strength experiment gave a seat
    an extra Rear-Ender anyway and called it too strong (+6.0 points in the
    duel), a card no duel holds; at four players every (M) card is measured."""
    import yaml

    from balance.games import GAMES
    from balance.scenario import load_scenario

    game = GAMES["horsepower"]
    multi = {c["id"] for c in yaml.safe_load((ROOT / "cards.yaml").read_text())["cards"] if "M" in c.get("flags", [])}
    assert {"rear_ender", "slipstream_body", "sticky_fingers"} <= multi

    def measured(name: str) -> set[str]:
        catalog = game.catalog(game.prepare(load_scenario(ROOT / "scenarios" / f"{name}.yaml")))
        return {i["id"] for i in game.strength_items(catalog) if i["kind"] == "card"}

    assert not measured("two-player-duel") & multi
    assert multi <= measured("four-player-mixed")
    assert multi <= measured("three-player-mixed")


def test_the_command_strength_prints_next_runs_as_printed(tmp_path, monkeypatch):
    """It printed `balance report RUN --strength OUT`: RUN a word to replace, not a command that runs. Now it
    names the experiment's own baseline run (the scenario as it is), and the report leads with the findings."""
    import shlex

    from .test_printed_commands import printed

    path = tmp_path / "s.yaml"
    path.write_text(SCENARIO.replace("games: 1200", "games: 128").replace("chunk_size: 600", "chunk_size: 128"))
    monkeypatch.chdir(tmp_path)
    said = CliRunner().invoke(app, ["strength", str(path), "--cards", "v8_block", "--games", "128", "-j", "1"])
    assert said.exit_code == 0, said.output
    [command] = [c for c in printed(console=said.output) if c.startswith("balance report")]
    assert "RUN" not in shlex.split(command)
    ran = CliRunner().invoke(app, shlex.split(command)[1:])
    assert ran.exit_code == 0, ran.output
    page = ran.output.split("report: ")[1].split(" (")[0]
    assert "V8 Block" in Path(page).read_text() and "by experiment" in Path(page).read_text()
