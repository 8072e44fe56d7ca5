"""`balance fit` (issue 21) end to end on a tiny scenario: mistakes are one
line before any game; the same seed gives the same proposal; the proposal is
a variants: entry the scenario takes; the page and tables are written."""

from __future__ import annotations

import polars as pl
import pytest
import yaml
from typer.testing import CliRunner

from balance.cli import app
from balance.scenario import load_scenario, variant_scenarios

from .conftest import ROOT

SCENARIO = f"""name: fitme
game: horsepower
cards: {ROOT / "cards.yaml"}
players: 2
bots: [racer, balanced]
games: 60
seed: 3
chunk_size: 60
"""
FIT = ["--free", "cards.twin_turbo.effects.0.amount=0..8", "--target", "strength:twin_turbo=0+-10"]
SMALL = ["--budget", "360", "--population", "2", "--confirm-games", "60", "-j", "1"]


@pytest.mark.parametrize(
    ("args", "words"),
    [
        (["--free", "cards.twin_turbo.effects.0.amount=0..8", "--target", "speed=3"], "is not a target"),
        (["--free", "cards.warp_drive.count=0..2", "--target", "seat-balance<=2"], "no card with id 'warp_drive'"),
        (
            ["--free", "rules.purchase_cost=1..3", "--target", "strength:warp_drive=0+-2"],
            "no item with id 'warp_drive'",
        ),
        ([*FIT, "--max-changes", "0"], "must be at least 1"),
        (["--free", "cards.twin_turbo.count=0..200", "--target", "seat-balance<=2"], "cards.twin_turbo.count: = 200"),
    ],
)
def test_mistakes_are_one_line_before_any_game(tmp_path, args, words):
    path = tmp_path / "s.yaml"
    path.write_text(SCENARIO)
    result = CliRunner().invoke(app, ["fit", str(path), *args, "--out", str(tmp_path / "o")])
    assert result.exit_code == 2 and words in result.stderr and result.stderr.count("\n") == 1, result.output
    assert not (tmp_path / "o").exists()


def test_the_same_seed_gives_the_same_proposal_as_a_variant_the_scenario_takes(tmp_path):
    path = tmp_path / "s.yaml"
    path.write_text(SCENARIO)
    runs = [CliRunner().invoke(app, ["fit", str(path), *FIT, *SMALL, "--out", str(tmp_path / k)]) for k in "ab"]
    assert all(r.exit_code == 0 for r in runs), runs[0].output
    a, b = ((tmp_path / k / "proposal.yaml").read_text() for k in "ab")
    assert a == b, "same seed, same proposal"
    assert pl.read_csv(tmp_path / "a" / "candidates.csv").equals(pl.read_csv(tmp_path / "b" / "candidates.csv"))
    variants = yaml.safe_load(a)["variants"]
    assert variants[0]["name"] == "fit" and set(variants[0]["overrides"]) <= {"cards.twin_turbo.effects.0.amount"}
    path.write_text(SCENARIO + yaml.safe_dump({"variants": variants}))
    ((_, proposal),) = variant_scenarios(load_scenario(path))
    from balance.games.horsepower import GAME

    GAME.prepare(proposal)  # the database the proposal makes is one the game takes
    targets = pl.read_csv(tmp_path / "a" / "targets.csv")
    assert targets["figure"].to_list() == ["twin_turbo"] and targets["unit"].to_list() == ["points"]
    assert targets["n"].to_list() == [60], "the held-out games"
    page = (tmp_path / "a" / "index.html").read_text()
    assert "held-out seeds" in page and "variants:" in page and (tmp_path / "a" / "progress.png").exists()
    assert "proposal: " in runs[0].stdout and "games; on held-out seeds the proposal" in runs[0].stdout
