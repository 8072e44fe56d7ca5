"""One set of units (issue 19): what a user reads holds rates in percent and
differences of rates in percentage points, and each column's name says which."""

from __future__ import annotations

import polars as pl
import pytest
from polars.testing import assert_frame_equal

from balance.units import from_units, in_units, unit_of


def test_rates_become_percent_and_differences_points_by_name():
    table = pl.DataFrame(
        {
            "card": ["a"],
            "n_drafted": [40],
            "win_rate_drafted": [0.25],
            "ci_low_drafted": [0.2],
            "ci_high_drafted": [0.3],
            "added_drafted": [-0.052],
            "added_low_drafted": [-0.1],
            "draft_rate": [0.5],
            "plays_per_game": [1.5],
            "p_drafted": [0.04],
        }
    )
    shown = in_units(table)
    assert shown.columns == [
        "card",
        "n_drafted",
        "win_rate_drafted_pct",
        "ci_low_drafted_pct",
        "ci_high_drafted_pct",
        "added_drafted_pp",
        "added_low_drafted_pp",
        "draft_rate_pct",
        "plays_per_game",
        "p_drafted",
    ]
    row = shown.row(0, named=True)
    assert row["win_rate_drafted_pct"] == pytest.approx(25.0) and row["added_drafted_pp"] == pytest.approx(-5.2)
    assert row["plays_per_game"] == 1.5 and row["p_drafted"] == 0.04 and row["n_drafted"] == 40
    assert_frame_equal(from_units(shown), table)  # read back from a CSV: the analysis frame again


def test_an_interval_takes_the_unit_of_what_it_bounds():
    tallies = ["bot", "measure", "n", "mean", "sd", "ci_low", "ci_high"]
    assert unit_of("ci_low", tallies) is None, "the interval of a mean of Heat paid is in Heat"
    assert unit_of("ci_low", ["seat", "win_rate", "ci_low", "ci_high"]) == "_pct"
    assert unit_of("ran_out_ci_high", ["ran_out_share", "ran_out_ci_high"]) == "_pct"
    assert unit_of("ci_high", ["card", "change", "ci_low", "ci_high"]) == "_pp", "balance strength's change"
    assert unit_of("ci_low_strong", ["win_rate_strong", "ci_low_strong"]) == "_pct"
    assert unit_of("largest_gap", []) == "_pp" and unit_of("balance_index", []) is None
    assert unit_of("win_rate_pct", ["win_rate_pct"]) is None, "converted once"


def test_named_units_for_a_table_the_rules_cannot_read():
    curve = pl.DataFrame({"round": [0], "centre": [0.4], "value.noise_rate": [0.05]})
    shown = in_units(curve, {"centre": "_pct"})
    assert shown.columns == ["round", "centre_pct", "value.noise_rate"] and shown["centre_pct"][0] == pytest.approx(40)
