"""Heat's corners: the per-corner table (spin-outs and Heat paid per race, the
share of races with a spin-out, their intervals), its findings line, the
track chart in the report, and the layout the manifest records."""

from __future__ import annotations

import json
import math
import re

import polars as pl
import pytest
import yaml

from balance.analysis.corners import corner_lines, corner_table
from balance.analysis.stats import Z95

from .conftest import ROOT

LAYOUT = {
    "tracks": [{"id": "usa", "name": "USA", "spaces": 20, "corners": [{"at": 3, "limit": 4}, {"at": 12, "limit": 2}]}]
}


def _tiny() -> dict[str, pl.LazyFrame]:
    """3 races on a 2-corner track: corner 1 spin-outs 0, 1, 2 and Heat 2, 4, 6; corner 2 spin-outs 0, 0, 3, Heat 1 each."""
    games = pl.DataFrame(
        {
            "game_id": [0, 1, 2],
            "track": ["usa"] * 3,
            "corner1_spin_outs": [0, 1, 2],
            "corner2_spin_outs": [0, 0, 3],
            "corner1_heat": [2, 4, 6],
            "corner2_heat": [1, 1, 1],
        },
        schema_overrides={
            c: pl.Int16 for c in ("corner1_spin_outs", "corner2_spin_outs", "corner1_heat", "corner2_heat")
        },
    )
    return {"games": games.lazy()}


def _wilson(k: int, n: int) -> tuple[float, float]:
    p, z = k / n, Z95
    centre = (p + z * z / (2 * n)) / (1 + z * z / n)
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / (1 + z * z / n)
    return centre - half, centre + half


def test_corner_table_by_hand():
    table = corner_table(_tiny(), LAYOUT)
    assert table["corner"].to_list() == [1, 2] and table["races"].to_list() == [3, 3]
    assert table["space"].to_list() == [3, 12] and table["speed_limit"].to_list() == [4, 2]
    assert table["lap_spaces"].to_list() == [20, 20] and table["track"].to_list() == ["usa", "usa"]
    one, two = table.row(0, named=True), table.row(1, named=True)
    # corner 1: spin-outs mean 1, sd 1; Heat mean 4, sd 2; two races of three with a spin-out
    assert one["spin_outs_per_race"] == pytest.approx(1.0)
    assert one["spin_outs_low"] == 0, "1 - 1.96 / sqrt 3 < 0: a mean of counts stops at 0"
    assert one["spin_outs_high"] == pytest.approx(1 + Z95 / math.sqrt(3))
    assert one["heat_per_race"] == pytest.approx(4.0)
    assert (one["heat_low"], one["heat_high"]) == pytest.approx(
        (4 - 2 * Z95 / math.sqrt(3), 4 + 2 * Z95 / math.sqrt(3))
    )
    assert one["spin_out_races_pct"] == pytest.approx(200 / 3)
    low, high = _wilson(2, 3)
    assert (one["spin_out_races_low_pct"], one["spin_out_races_high_pct"]) == pytest.approx((100 * low, 100 * high))
    # corner 2: spin-outs 0, 0, 3 (mean 1, sd sqrt 3); Heat always 1 (no spread: a point interval)
    assert (two["spin_outs_low"], two["spin_outs_high"]) == pytest.approx((0, 1 + Z95))
    assert (two["heat_per_race"], two["heat_low"], two["heat_high"]) == pytest.approx((1.0, 1.0, 1.0))
    assert two["spin_out_races_pct"] == pytest.approx(100 / 3)
    assert (two["spin_outs_total"], two["heat_total"]) == (3, 3)
    # the units: shares in percent (0-100), per-race means as they are
    assert all(0 <= v <= 100 for c in table.columns if c.endswith("_pct") for v in table[c])
    (line,) = corner_lines(table)
    assert line == (
        "Corner 1 (limit 4, space 3) is where cars spin out most: 1.00 spin-outs a race "
        f"(0.00-{1 + Z95 / math.sqrt(3):.2f}), in 66.7% of races "
        f"({100 * low:.1f}-{100 * high:.1f}%); Corner 1 (limit 4, space 3) costs the most Heat: 4.00 a race "
        f"({4 - 2 * Z95 / math.sqrt(3):.2f}-{4 + 2 * Z95 / math.sqrt(3):.2f}), n=3 races."
    )


def test_without_a_layout_the_corners_are_numbered():
    for catalog in ({}, {"tracks": [{"id": "usa", "spaces": 20, "corners": [{"at": 3, "limit": 4}]}]}):  # none; 1 of 2
        table = corner_table(_tiny(), catalog)
        assert table["space"].null_count() == 2 and table["speed_limit"].null_count() == 2
        assert corner_lines(table)[0].startswith("Corner 1 is where cars spin out most: 1.00 spin-outs a race")
    other = corner_table(_tiny(), {"tracks": [{**LAYOUT["tracks"][0], "id": "italia"}]})
    assert other["space"].null_count() == 2, "another track's layout is not this one's"


def test_no_corner_columns_no_table():
    games = pl.DataFrame({"game_id": [0, 1], "rounds": [10, 12]}).lazy()
    assert corner_table({"games": games}, {}) is None
    assert corner_lines(None) == []


def test_no_spin_outs_at_all():
    run_ = _tiny()
    run_["games"] = run_["games"].with_columns(
        pl.lit(0, pl.Int16).alias(c) for c in ("corner1_spin_outs", "corner2_spin_outs")
    )
    table = corner_table(run_, LAYOUT)
    assert table["spin_out_races_pct"].to_list() == [0.0, 0.0]
    assert table["spin_out_races_low_pct"].to_list() == pytest.approx([0.0, 0.0])
    (line,) = corner_lines(table)
    assert line.startswith("Cars never spin out at any corner; Corner 1 (limit 4, space 3) costs the most Heat: 4.00")


@pytest.fixture
def heat(heat_usa):
    return heat_usa


def test_manifest_records_the_track_layout(heat):
    _, _, run_dir = heat
    (track,) = json.loads((run_dir / "manifest.json").read_text())["catalog"]["tracks"]
    usa = next(t for t in yaml.safe_load((ROOT / "heat.yaml").read_text())["tracks"] if t["id"] == "usa")
    assert (track["id"], track["laps"], track["spaces"]) == ("usa", usa["laps"], usa["spaces"])
    assert [c["at"] for c in track["corners"]] == [11, 32, 48, 56], "docs/heat.md: USA's corner lines"
    assert [c["limit"] for c in track["corners"]] == [c["limit"] for c in usa["corners"]]


def test_heat_report_has_the_track_chart(heat):
    stdout, out, run_dir = heat
    page = (out / "index.html").read_text()
    assert "track_corners.png" in re.findall(r'<img src="([^"]+)"', page)
    assert (out / "track_corners.png").read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    assert "<h3>Spin-outs and Heat paid at each corner" in page
    assert "power_win_rates.png" not in page, "Heat has no powers"
    table = pl.read_csv(out / "corners.csv")
    assert table["corner"].to_list() == [1, 2, 3, 4] and (table["races"] == 512).all()
    assert table["space"].to_list() == [11, 32, 48, 56] and table["speed_limit"].to_list() == [7, 3, 3, 2]
    worst = table.sort(["spin_outs_per_race", "corner"], descending=[True, False]).row(0, named=True)
    line = next(line for line in stdout.splitlines() if "is where cars spin out most" in line)
    assert f"Corner {worst['corner']} (limit {worst['speed_limit']}, space {worst['space']})" in line
    assert f"{worst['spin_outs_per_race']:.2f} spin-outs a race" in line and "n=512 races." in line
    assert re.search(r"in [\d.]+% of races \([\d.]+-[\d.]+%\)", line)


def test_corners_add_up_to_the_players_tallies(heat):
    _, _, run_dir = heat
    games = pl.read_parquet(run_dir / "games")
    players = pl.read_parquet(run_dir / "players")
    corners = [c for c in games.columns if re.fullmatch(r"corner\d+_spin_outs", c)]
    assert len(corners) == 4
    per_game = games.select(
        "game_id",
        pl.sum_horizontal(corners).alias("corner_spins"),
        pl.sum_horizontal(c.replace("spin_outs", "heat") for c in corners).alias("corner_paid"),
    )
    cars = players.group_by("game_id").agg(pl.col("spin_outs").sum(), pl.col("corner_heat").sum())
    both = per_game.join(cars, on="game_id")
    assert both.height == 512 and both["spin_outs"].sum() > 0
    assert (both["corner_spins"] == both["spin_outs"]).all(), "every spin-out happens at a corner"
    assert (both["corner_paid"] == both["corner_heat"]).all()
    table = corner_table(run_dir)
    assert table["spin_outs_total"].sum() == players["spin_outs"].sum()
    assert table["heat_total"].sum() == players["corner_heat"].sum()
