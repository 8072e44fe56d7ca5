"""Downforce's win rate by the power card kept: the table behind the chart,
the chart in the report and its findings line (an association, pointing to
balance strength)."""

from __future__ import annotations

import re

import polars as pl
import pytest

from balance.analysis import cars
from balance.report.findings import power_lines


@pytest.fixture
def report(downforce_four):
    return downforce_four


def test_power_win_rate_chart_and_line(report):
    stdout, out, run_dir = report
    page = (out / "index.html").read_text()
    assert "power_win_rates.png" in re.findall(r'<img src="([^"]+)"', page)
    assert (out / "power_win_rates.png").read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    powers = cars.power_win_rates(run_dir)
    players = pl.read_parquet(run_dir / "players")
    kept = players.drop_nulls("power")
    assert powers["kept"].sum() == kept.height and powers["wins"].sum() == kept["won"].sum()
    assert powers["fair"].to_list() == pytest.approx([0.25] * powers.height)
    assert (powers["ci_low"] <= powers["win_rate"]).all() and (powers["win_rate"] <= powers["ci_high"]).all()
    assert powers["win_rate"].to_list() == sorted(powers["win_rate"].to_list(), reverse=True)
    # the same figures as price_by_power.csv's players who kept each power
    by_power = cars.prices(run_dir, "power").select("power", "kept", "win_rate_kept")
    both = powers.join(by_power, on="power", suffix="_csv")
    assert both.height == powers.height and (both["kept"] == both["kept_csv"]).all()
    assert both["win_rate"].to_list() == pytest.approx(both["win_rate_kept"].to_list())
    best, worst = powers.row(0, named=True), powers.row(-1, named=True)
    line = next(line for line in stdout.splitlines() if "Best power kept" in line)
    assert f"Best power kept {best['power']}: its players win {100 * best['win_rate']:.1f}%" in line
    assert f"worst {worst['power']} {100 * worst['win_rate']:.1f}%" in line
    assert f"n={best['kept']:,}" in line and f"n={worst['kept']:,}" in line and "fair share 25.0%" in line
    assert "association" in line and "balance strength" in line
    assert ("do not overlap" in line) == (best["ci_low"] > worst["ci_high"])


def test_power_lines_by_hand():
    powers = pl.DataFrame(
        {
            "power": ["a", "b", "c"],
            "kept": [100, 100, 0],
            "wins": [40, 10, 0],
            "win_rate": [0.4, 0.1, None],
            "ci_low": [0.31, 0.055, None],
            "ci_high": [0.5, 0.17, None],
            "fair": [0.25, 0.25, None],
        }
    )
    (line,) = power_lines(powers)
    assert line.startswith(
        "Best power kept a: its players win 40.0% (31.0-50.0%, n=100); worst b 10.0% (5.5-17.0%, n=100); "
        "fair share 25.0%: their intervals do not overlap."
    )
    assert power_lines(powers.head(1)) == [] and power_lines(None) == []


def test_no_powers_outside_downforce():
    players = pl.DataFrame({"game_id": [0], "seat": [0], "won": [True]}).lazy()
    assert cars.power_win_rates({"players": players, "games": pl.DataFrame({"game_id": [0]}).lazy()}) is None
