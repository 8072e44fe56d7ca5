"""The figures of `balance fit`'s targets (issue 21), by hand on a tiny run
whose answer is known, and in the targets' units (points)."""

from __future__ import annotations

import polars as pl
import pytest

from balance.experiments.fit.measure import bot_spread, game_length, measure, seat_balance, strength_figures
from balance.experiments.fit.targets import parse_target


def _run() -> dict[str, pl.LazyFrame]:
    """Four two-player games: seat 0 (bot a) wins three, seat 1 (bot b) one."""
    games = pl.DataFrame({"game_id": [0, 1, 2, 3], "n_players": [2, 2, 2, 2]})
    players = pl.DataFrame(
        {
            "game_id": [0, 0, 1, 1, 2, 2, 3, 3],
            "seat": [0, 1] * 4,
            "bot": ["a", "b"] * 4,
            "won": [True, False, True, False, True, False, False, True],
        }
    )
    return {"games": games.lazy(), "players": players.lazy()}


def test_seat_balance_is_each_seats_distance_from_fair_in_points():
    seats = seat_balance(_run())
    assert list(seats) == ["seat 0", "seat 1"]  # 75% and 25% against 50% fair
    assert seats["seat 0"].value == pytest.approx(25.0) and seats["seat 1"].value == pytest.approx(-25.0)
    assert seats["seat 0"].n == 4 and seats["seat 0"].low < 25 < seats["seat 0"].high
    t = parse_target("seat-balance<=2")
    assert [t.miss(f.value) for f in seats.values()] == [23.0, 23.0], "each seat misses its band on its own"


def test_bot_spread_is_best_minus_worst_in_points():
    figure = bot_spread(_run())
    assert figure.value == pytest.approx(50.0) and figure.low < 50 < figure.high


def test_strength_figures_are_in_points_and_a_target_picks_its_items():
    table = pl.DataFrame(
        {
            "card": ["a", "b"],
            "games": [100, 100],
            "change": [0.05, -0.01],
            "ci_low": [0.02, -0.04],
            "ci_high": [0.08, 0.02],
        }
    )
    figures = strength_figures(table)
    assert figures["a"].value == pytest.approx(5.0) and figures["b"].high == pytest.approx(2.0)
    assert measure(parse_target("strength:all+-3"), None, figures) == figures
    assert list(measure(parse_target("strength:b=0+-2"), None, figures)) == ["b"]
    seat = measure(parse_target("seat-balance<=2"), _run())
    assert seat["seat 1"].value == pytest.approx(-25.0)


def test_game_length_is_the_mean_with_its_95_percent_interval(tmp_path, scenario):
    from balance.runner import RunOptions, run

    run(scenario, RunOptions(out=tmp_path / "run", jobs=1))
    figure = game_length(tmp_path / "run")
    rounds = pl.read_parquet(tmp_path / "run" / "games").filter(pl.col("finished"))["rounds"]
    assert figure.value == pytest.approx(float(rounds.mean())) and figure.n == 30
    half = 1.96 * float(rounds.std()) / 30**0.5
    assert (figure.low, figure.high) == pytest.approx((figure.value - half, figure.value + half))
