"""The report's first answer (issue 45): is the game balanced? From the same
figures as the findings (the items' verdicts by experiment in each field, the
positions' test and gap), against the one fair band."""

from __future__ import annotations

import polars as pl

from balance.report.verdict import verdict_lines


def _items(*verdicts: str) -> pl.DataFrame:
    return pl.DataFrame({"card": [f"i{k}" for k in range(len(verdicts))], "verdict": list(verdicts)}).with_columns(
        pl.lit(1024).alias("games")
    )


def _positions(word: str, rates: list[float], p: float, half: float = 0.006) -> tuple:
    """A seat_equality row and its win rates (n=20,000 games, each rate +- `half`), as the report passes them."""
    key = "seat" if word == "seat" else "draft_position"
    equality = pl.DataFrame(
        {"n_players": [4], "games": [20000], "p_value": [p], "largest_gap": [max(rates) - min(rates)]}
    )
    table = pl.DataFrame(
        {
            "n_players": [4] * 4,
            key: [0, 1, 2, 3] if key == "seat" else [1, 2, 3, 4],
            "win_rate": rates,
            "ci_low": [r - half for r in rates],
            "ci_high": [r + half for r in rates],
            "fair": [0.25] * 4,
            "games": [20000] * 4,
        }
    )
    return word, equality, table, key


def test_balanced_only_where_every_item_is_fair_in_every_field_and_every_position_inside_the_band():
    fair = _items("fair", "fair", "fair")
    lines = verdict_lines(
        [("the scenario's field", fair, "m"), ("the tuned field", fair, "s")],
        [
            _positions("seat", [0.256, 0.250, 0.250, 0.244], 0.03),
            _positions("draft position", [0.275, 0.25, 0.25, 0.225], 0.2, 0.004),  # each 2.5 points from its share
        ],
        0.03,
    )
    assert lines[0].startswith("Yes, by experiment: every item fair in every field measured")
    assert lines[1] == (
        "In the scenario's field: 3 of 3 items fair, 0 too strong, 0 too weak, 0 undecided (3,072 paired games; "
        "causal: each item given to one seat, the same games without it)."
    )
    assert lines[3] == (
        "Seats (4 players): the best and worst 1.2 points apart (n=20,000 games; chi-square p = 0.030): "
        "each inside the band of its share."
    )
    # 5 points between the best and the worst, each 2.5 from its share: inside, as rebalance and fit read it
    assert lines[4].endswith(
        "5.0 points apart (n=20,000 games; chi-square p = 0.200): each inside the band of its share."
    )


def test_not_yet_names_what_is_outside_in_each_field_and_the_positions():
    lines = verdict_lines(
        [("the scenario's field", _items("too strong", "fair", "too weak"), "m"), ("the tuned field", None, "CMD")],
        [_positions("seat", [0.29, 0.25, 0.24, 0.22], 0.001)],  # seat 0 +4 points from its share
        0.03,
    )
    assert lines[0].startswith(
        "Not yet, by experiment at the fair band of +-3 points: outside it, 2 items in the scenario's field, "
        "the seats with 4 players (What to change"
    )
    assert lines[-1] == "Not measured: the tuned field (measured by CMD)."


def test_undecided_items_are_not_shown_balanced():
    lines = verdict_lines([("the scenario's field", _items("fair", "undecided"), "m")], [], 0.03)
    assert lines[0] == (
        "No figure is outside the fair band of +-3 points by experiment, but 1 item is undecided: "
        "not yet shown balanced."
    )


def test_since_the_last_run_reads_both_runs_verdicts_at_one_band():
    """The last run was measured at +-2 and stored its verdicts so; read at +-3 (this report's band) an item
    whose figures hardly moved is no 'verdict moved' (Spike Strip, +2.6 -> +0.9, was 'too strong' at +-2)."""
    from balance.report.causal import strength_moves

    def table(change: float, half: float, stored: str) -> pl.DataFrame:
        return pl.DataFrame(
            {"card": ["spike_strip"], "change": [change], "ci_low": [change - half], "ci_high": [change + half]}
            | {"games": [4096], "verdict": [stored]}
        )

    before, after = table(0.026, 0.005, "too strong"), table(0.009, 0.017, "fair")
    (line,) = strength_moves(before, after, set(), {}, 0.03)
    assert (
        line
        == "Between fair and undecided only (an interval at the band's edge): spike_strip (undecided -> fair, +0.9)."
    )
    (line,) = strength_moves(before, after, set(), {}, 0.02)  # at +-2 its verdict moved, within noise
    assert line.startswith("Verdicts that moved though the item did not change, its two reads within each other's")
    assert line.endswith(
        "spike_strip (too strong -> undecided: +2.6, n=4,096 -> +0.9, n=4,096; the difference -1.7, -3.5 to +0.1)."
    )


def test_since_the_last_run_tells_a_verdict_moved_by_a_reads_luck_from_one_moved_by_the_change():
    """The tenth database's report: Roll Cage, untouched, "now too strong (was fair)": +2.4 (+1.9 to +2.9) on
    32,768 games -> +4.3 (+2.4 to +6.2) on 2,048, two reads within each other's noise. A flag now asks the whole
    interval past the band, so fair -> too strong is never noise; undecided -> too strong can be. An untouched
    item whose reads differ beyond their noise keeps its own line: the change moved it."""
    from balance.report.causal import strength_moves

    def table(rows: list[tuple[str, float, float, float, int]]) -> pl.DataFrame:
        return pl.DataFrame(rows, schema=["card", "change", "ci_low", "ci_high", "games"], orient="row")

    before = table([("roll_cage", 0.030, 0.024, 0.036, 32768), ("oil_slick", -0.055, -0.078, -0.032, 1024)])
    after = table([("roll_cage", 0.049, 0.0305, 0.0675, 2048), ("oil_slick", 0.000, -0.013, 0.013, 4096)])
    moved, noisy = strength_moves(before, after, set(), {"roll_cage": "Roll Cage", "oil_slick": "Oil Slick"}, 0.03)
    assert moved.startswith("Oil Slick (verdict moved): -5.5 (-7.8 to -3.2, n=1,024) -> +0.0")
    assert moved.endswith("now fair (was too weak)")
    assert noisy.endswith(
        "Roll Cage (undecided -> too strong: +3.0, n=32,768 -> +4.9, n=2,048; the difference +1.9, -0.0 to +3.8)."
    )


def test_a_position_whose_interval_reaches_past_the_band_is_not_yet_shown_balanced():
    fair = _items("fair", "fair")
    lines = verdict_lines(
        [("the scenario's field", fair, "m")], [_positions("draft position", [0.225, 0.25, 0.268, 0.257], 0.001)], 0.03
    )
    assert lines[0] == (
        "No figure is outside the fair band of +-3 points by experiment, but 1 position is undecided: "
        "not yet shown balanced."
    )
    assert lines[-1].endswith(
        "not yet shown inside: draft position 1 -2.5 points (-3.1 to -1.9) from its share, undecided."
    )


def test_a_strength_table_stored_by_an_earlier_rule_reads_as_todays_rule_at_the_pages_band(tmp_path):
    """A run measured before the flag asked the whole interval past the band stored Roll Cage +4.4 (+3.1 to +5.8)
    and Hybrid Motor +3.1 (+2.2 to +4.1) both "too strong"; the page reads each verdict again from its interval
    (analysis.strength.with_verdicts), so it says what a fresh measure would, at the page's band."""
    import json

    from balance.report.headline import strength_result

    folder = tmp_path / "run" / "strength"
    (folder / "baseline").mkdir(parents=True)
    manifest = {"cards_sha256": "abc", "game": "horsepower", "scenario": {"players": 4, "bots": ["racer"] * 4}}
    (folder / "baseline" / "manifest.json").write_text(json.dumps(manifest))
    pl.DataFrame(
        {
            "card": ["roll_cage", "hybrid_motor", "drift_tyres"],
            "games": [4096, 8192, 8192],
            "change_pp": [4.4, 3.1, 1.0],
            "ci_low_pp": [3.1, 2.2, 0.1],
            "ci_high_pp": [5.8, 4.1, 1.9],
            "significant": [True, True, False],
            "verdict": ["too strong", "too strong", "fair"],
        }
    ).write_csv(folder / "strength.csv")
    table, _, _ = strength_result(tmp_path / "run", manifest)
    assert dict(zip(table["card"], table["verdict"], strict=True)) == {
        "roll_cage": "too strong",
        "hybrid_motor": "undecided",
        "drift_tyres": "fair",
    }
    table, _, _ = strength_result(tmp_path / "run", manifest, tolerance=0.02)  # the page's --tolerance 2
    assert dict(zip(table["card"], table["verdict"], strict=True)) == {
        "roll_cage": "too strong",
        "hybrid_motor": "too strong",
        "drift_tyres": "fair",  # +1.0, +0.1 to +1.9: inside +-2
    }


def test_one_item_outside_is_one_item():
    (head, *_) = verdict_lines([("the scenario's field", _items("too strong", "fair"), "m")], [], 0.03)
    assert head.startswith(
        "Not yet, by experiment at the fair band of +-3 points: outside it, 1 item in the scenario's"
    )


def test_a_stored_row_with_an_empty_interval_reads_undecided():
    from balance.analysis.strength import with_verdicts

    table = pl.DataFrame(
        {"card": ["a", "b"], "change": [0.05, None], "ci_low": [0.04, None], "ci_high": [0.06, None]}
        | {"significant": [True, False]}
    )
    read = with_verdicts(table, 0.03)
    assert read["verdict"].to_list() == ["too strong", "undecided"]
    # the page's findings over it: the empty row is counted undecided, priced at no games, and nothing raises
    from balance.report.causal import at_band, causal_lines

    lines = causal_lines(read.with_columns(pl.lit(2048).alias("games")), {}, {}, "s.csv", tolerance=0.03)
    assert lines[-1] == "Fair (the whole interval inside the fair band): 0; undecided within the budget: 1."
    # Since the last run reads a stored row as the page does: a flag stands only where it is significant
    row = {"change": 0.05, "ci_low": 0.04, "ci_high": 0.06}
    assert at_band(row, 0.03) == "too strong"
    assert at_band(row | {"significant": False}, 0.03) == "undecided"
    assert at_band({"change": None, "ci_low": None, "ci_high": None}, 0.03) == "undecided"
