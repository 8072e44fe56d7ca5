"""`balance sweep`: value ranges, the crossing of a target, errors before any game."""

from __future__ import annotations

import polars as pl
import pytest
from typer.testing import CliRunner

from balance.cli import app
from balance.errors import UserError
from balance.experiments.setup import ExperimentOptions
from balance.experiments.sweep import crossing, parse_values

from .conftest import CARDS

SCENARIO = f"""name: sw
game: horsepower
cards: {CARDS}
players: 3
bots: [racer, economist, balanced]
games: 200
seed: 4
chunk_size: 200
"""


def test_values_in_three_forms():
    assert parse_values("1..6") == [1, 2, 3, 4, 5, 6]
    assert parse_values("1,3,5") == [1, 3, 5]
    assert parse_values("0.5:2.0:0.25") == [0.5, 0.75, 1.0, 1.25, 1.5, 1.75, 2.0]
    for bad, why in (
        ("6..1", "no values"),
        ("1:2:0", "positive step"),
        ("a,b", "not a number"),
        ("0.5..2", "integers"),
    ):
        with pytest.raises(UserError, match=why):
            parse_values(bad)


def test_crossing_is_interpolated_between_the_two_values_around_it():
    assert crossing([1, 2, 3, 4], [-0.3, -0.1, 0.1, 0.3], 0.0) == pytest.approx(2.5)
    assert crossing([0, 10], [1.0, 3.0], 2.5) == pytest.approx(7.5)
    assert crossing([1, 2], [0.1, 0.2], 0.0) is None


def test_a_small_sweep_runs_and_bad_settings_fail_first(tmp_path):
    path = tmp_path / "s.yaml"
    path.write_text(SCENARIO)
    out = tmp_path / "out"
    args = ["sweep", str(path), "--set", "rules.purchase_cost=2,4", "--metric", "bot:racer", "--jobs", "1"]
    first = CliRunner().invoke(app, [*args, "--out", str(tmp_path / "first")])
    assert first.exit_code == 0, first.output
    figures = pl.read_csv(tmp_path / "first" / "sweep.csv")["estimate"].to_list()
    middle = round(sum(figures) / 2, 1)  # between the two values' figures: the line crosses it
    result = CliRunner().invoke(app, [*args, "--target", str(middle), "--out", str(out)])
    assert result.exit_code == 0, result.output
    assert "rules.purchase_cost = 2:" in result.stdout and f"crosses {middle:g}% at" in result.stdout
    assert (out / "sweep.png").read_bytes()[:4] == b"\x89PNG" and (out / "sweep.csv").exists()
    # issue 35: a target outside the swept values is said in words, with what to do
    far = CliRunner().invoke(
        app,
        ["sweep", str(path), "--set", "rules.purchase_cost=2,4", "--metric", "bot:racer", "--target", "99"]
        + ["--out", str(tmp_path / "far"), "--jobs", "1"],
    )
    words = " ".join(far.stdout.split())
    assert "does not cross 99% between 2 and 4: sweep a wider range" in words, far.stdout
    assert "not within the values swept" not in words
    for setting, message in (
        ("cards.warp_drive.count=1..2", "no card with id 'warp_drive'"),
        ("cards.v8_block.count=-1,1", "must be at least 0"),
        ("rules.purchase_cost", "expected PATH=VALUES"),
    ):
        result = CliRunner().invoke(app, ["sweep", str(path), "--set", setting, "--out", str(tmp_path / "x")])
        assert result.exit_code == 2 and message in result.stderr, result.stderr
        assert not (tmp_path / "x").exists()


def test_a_card_path_sweeps_the_cards_strength_by_experiment(tmp_path):
    """Issue 19: with a card's own path and no --metric, each value is the
    paired experiment of balance strength (causal), printed in points and named;
    the association stays --metric card:ID; an unknown item fails first."""
    from balance.experiments.sweep import sweep

    path = tmp_path / "s.yaml"
    path.write_text(SCENARIO.replace("games: 200", "games: 300").replace("chunk_size: 200", "chunk_size: 150"))
    result = sweep(path, "cards.twin_turbo.effects.0.amount=0,8", options=ExperimentOptions(out=tmp_path / "o", jobs=1))
    assert result.metric.startswith("twin_turbo: strength") and "(causal)" in result.metric and result.difference
    weak, strong = result.table["estimate"].to_list()
    # in points: +8 Drive a turn reads +24.6 at 1,200 games (about +-3.5 at 300), 0 Drive -4.3
    assert strong > weak and strong > 15
    assert (tmp_path / "o" / "value-8" / "baseline" / "manifest.json").exists()  # balance strength's layout
    shown = CliRunner().invoke(
        app,
        ["sweep", str(path), "--set", "cards.twin_turbo.effects.0.amount=1", "--out", str(tmp_path / "p"), "-j", "1"],
    )
    assert shown.exit_code == 0 and "metric: twin_turbo: strength" in shown.stdout
    assert "cards.twin_turbo.effects.0.amount = 1: +" in shown.stdout or " = 1: -" in shown.stdout
    with pytest.raises(UserError, match="no item with id 'warp_drive'"):
        sweep(
            path,
            "rules.purchase_cost=2",
            metric="strength:warp_drive",
            options=ExperimentOptions(out=tmp_path / "q", jobs=1),
        )
    assert not (tmp_path / "q").exists()
