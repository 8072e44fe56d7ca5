"""`balance rebalance` (issue 45): two imbalances planted in a small field are
both removed, held out; an item its number cannot reach is said so in one
sentence and left as it is; the proposal is a variants: entry and, with
--apply, a copy of the database changed on those lines only; mistakes are one
line before any game."""

from __future__ import annotations

import yaml
from typer.testing import CliRunner

from balance.cli import app
from balance.scenario import load_scenario, variant_scenarios

from .conftest import ROOT

# V8 Block's drive raised from 3 to 9 and Racing Slicks' from 1 to 0: one far too strong, one too weak
PLANTED = f"""name: plant
game: horsepower
cards: {ROOT / "cards.yaml"}
players: 2
bots: [racer, balanced]
games: 1024
seed: 5
overrides:
  cards.v8_block.effects.0.amount: 9
  cards.racing_slicks.effects.0.amount: 0
"""
ITEMS = ["--items", "v8_block,racing_slicks,mag_wheels"]


def test_two_planted_imbalances_are_removed_and_an_unreachable_item_is_named(tmp_path):
    path = tmp_path / "plant.yaml"
    path.write_text(PLANTED)
    copy = tmp_path / "cards-rebalanced.yaml"
    args = ["rebalance", str(path), *ITEMS, "--out", str(tmp_path / "o"), "--apply", str(copy), "-q"]
    result = CliRunner().invoke(app, args)
    assert result.exit_code == 0, result.output
    rows = {r["card"]: r for r in _csv(tmp_path / "o" / "items.csv")}
    # today both planted items are outside the +-3 band, held out; with the proposal both are inside it
    assert rows["v8_block"]["verdict"] == "too strong" and rows["racing_slicks"]["verdict"] == "too weak"
    assert rows["v8_block"]["verdict_after"] == "fair" and rows["racing_slicks"]["verdict_after"] == "fair"
    proposal = yaml.safe_load((tmp_path / "o" / "proposal.yaml").read_text())["variants"][0]["overrides"]
    assert 0 <= proposal["cards.v8_block.effects.0.amount"] < 9
    assert proposal["cards.racing_slicks.effects.0.amount"] >= 1
    # Mag Wheels stays too strong in this two-player field at any drive on its side of 0: said, and not moved
    assert "cards.mag_wheels.effects.0.amount" not in proposal
    assert "brings Mag Wheels into the band" in result.output and "needs a new effect" in result.output
    assert rows["mag_wheels"]["verdict_after"] == "too strong"
    # the proposal is a variants: entry the scenario takes, and a database the game takes
    with_variant = tmp_path / "with.yaml"
    with_variant.write_text(PLANTED + (tmp_path / "o" / "proposal.yaml").read_text())
    ((name, rebalanced),) = variant_scenarios(load_scenario(with_variant))
    from balance.games.horsepower import GAME

    GAME.prepare(rebalanced)
    assert name == "rebalanced" and rebalanced.model.overrides["cards.v8_block.effects.0.amount"] < 9
    # --apply: a copy of the database (the planted values are the scenario's, not the file's) with only the
    # proposal's lines changed, comments kept
    before, after = (ROOT / "cards.yaml").read_text().split("\n"), copy.read_text().split("\n")
    changed = [(a, b) for a, b in zip(before, after, strict=True) if a != b]
    assert changed and all("amount:" in a and "amount:" in b for a, b in changed)
    data = yaml.safe_load(copy.read_text())
    for path, value in proposal.items():  # cards.ID.effects.0.amount: the copy holds the proposal
        _, card, _, effect, key = path.split(".")
        assert next(c for c in data["cards"] if c["id"] == card)["effects"][int(effect)][key] == value
    assert sum(line.lstrip().startswith("#") for line in after) == sum(line.lstrip().startswith("#") for line in before)
    page = (tmp_path / "o" / "index.html").read_text()
    assert "Mag Wheels" in page and "held-out" in page


def _csv(path):
    import polars as pl

    return pl.read_csv(path).iter_rows(named=True)


def test_mistakes_are_one_line_before_any_game(tmp_path):
    path = tmp_path / "plant.yaml"
    path.write_text(PLANTED)
    cases = [
        (["--items", "warp_drive"], "warp_drive"),
        (["--tolerance", "0"], "--tolerance"),
        (["--rounds", "0"], "at least 1"),
        (["--free", "cards.v8_block.effects.0.op=drive,coins"], "cards.v8_block.effects.0.op"),
        (["--apply", str(ROOT / "cards.yaml")], "is the card database itself"),
        (["--apply", str(path)], "exists: add --force"),
    ]
    for args, words in cases:
        result = CliRunner().invoke(app, ["rebalance", str(path), *args, "--out", str(tmp_path / "o")])
        assert result.exit_code == 2 and words in result.stderr and result.stderr.count("\n") == 1, (
            args,
            result.output,
        )
        assert not (tmp_path / "o").exists(), args
