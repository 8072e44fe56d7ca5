"""The report's charts as a designer reads them on the page: an axis that counts
shows whole numbers, text is at least 9 pt at the size the page shows the image
(72rem wide, so a wider PNG is shrunk), the compare forest plot's x label clears
its tick labels, and a measure on which the bots sit close together (Heat's
finish round) is drawn on an axis that does not start at 0.

The charts are built from small hand-made tables shaped like the analysis
tables they are given in a report, so no run is needed."""

from __future__ import annotations

import struct

import matplotlib.text
import numpy as np
import polars as pl
import pytest
from matplotlib.backends.backend_agg import FigureCanvasAgg

from balance.report import charts

PAGE_PX = 1150  # the report pages' 72rem (at 16 px a rem, less a little): the most an image is shown at
SMALLEST_PT = 9
DRIVERS = ["blaze", "ironside", "magpie", "snare", "comet", "mender", "gremlin", "ace"]
HEAT_MEASURES = {  # per bot (aggressive, balanced, cautious, legend): Heat's tallies, as a 1,000-race run gives them
    "heat_paid": [19.4, 13.8, 9.03, 0.0],
    "corner_heat": [11.4, 6.3, 3.19, 0.0],
    "spin_outs": [1.23, 0.38, 0.068, 0.0],
    "boosts": [2.64, 2.33, 1.23, 0.0],
    "slipstreams": [2.83, 3.21, 3.21, 0.0],
    "cooled": [13.7, 9.78, 6.82, 0.0],
    "overheats": [0.109, 0.026, 0.003, 0.0],
    "finish_round": [19.4, 19.3, 19.5, 19.5],
}
BOTS = ["aggressive", "balanced", "cautious", "legend"]


@pytest.fixture
def drawn(monkeypatch):
    """The figures the chart functions save, kept after saving (as drawn: laid out, at the saved size)."""
    figures = []
    save = charts._save

    def keep(fig, path):
        written = save(fig, path)
        figures.append(fig)
        return written

    monkeypatch.setattr(charts, "_save", keep)
    return figures


def shown_scale(path) -> float:
    """How much the page shrinks the PNG: its width in pixels, read from the file's header."""
    width = struct.unpack(">I", path.read_bytes()[16:20])[0]
    return min(1.0, PAGE_PX / width)


def drawn_again(fig):
    """A renderer for a saved figure: closing it left it without one. The layout is the saved one."""
    canvas = FigureCanvasAgg(fig)
    canvas.draw()
    return canvas.get_renderer()


def shown_texts(fig) -> list[matplotlib.text.Text]:
    drawn_again(fig)
    return [
        t
        for t in fig.findobj(matplotlib.text.Text)
        if t.get_visible() and t.get_text().strip() and (t.axes is None or t.axes.get_visible())
    ]


def smallest_shown_pt(fig, path) -> float:
    return min(t.get_fontsize() for t in shown_texts(fig)) * shown_scale(path)


def visible_ticks(axis) -> list[float]:
    low, high = sorted(axis.get_view_interval())
    return [t for t in axis.get_ticklocs() if low <= t <= high]


def drawn_tick_labels(axis) -> list[matplotlib.text.Text]:
    """The tick labels drawn: matplotlib keeps labels for ticks outside the view too."""
    low, high = sorted(axis.get_view_interval())
    return [
        label
        for at, label in zip(axis.get_ticklocs(), axis.get_ticklabels(), strict=True)
        if low <= at <= high and label.get_text()
    ]


def tally_table() -> pl.DataFrame:
    rows = []
    for measure, means in HEAT_MEASURES.items():
        for bot, mean in zip(BOTS, means, strict=True):
            half = 0.03 * mean + 0.02 if mean else 0.0
            rows.append(
                {"bot": bot, "measure": measure, "n": 1000, "mean": mean, "ci_low": mean - half, "ci_high": mean + half}
            )
    return pl.DataFrame(rows)


def driver_cards() -> pl.DataFrame:
    """Nine or ten ability cards a driver (Shuffle Grand Prix's catalog has 8 to 11), as drivers.card_plays gives them."""
    rng = np.random.default_rng(3)
    rows = []
    for d, driver in enumerate(DRIVERS):
        for c in range(9 + d % 2):
            added = float(rng.normal(0.03, 0.08))
            rows.append(
                {
                    "card": f"{driver}_{c}",
                    "name": ["Sugar in the Tank", "Shoulder Charge", "Evasive Line", "Ram", "Bait"][c % 5],
                    "driver": driver,
                    "type": ["action", "equip", "trap", "nerf", "anytime"][c % 5],
                    "count": 1 + c % 3,
                    "n_held": 1000,
                    "plays_per_game": float(rng.uniform(0.1, 2.6)),
                    "added_played": added,
                    "added_low_played": added - 0.06,
                    "added_high_played": added + 0.06,
                    "significant_played": abs(added) > 0.1,
                }
            )
    return pl.DataFrame(rows)


def test_axes_that_count_show_whole_numbers(tmp_path, drawn):
    # a duel's short games: two lengths a unit apart, where matplotlib's own ticks fall at halves
    lengths = pl.DataFrame({"rounds": [3, 4], "games": [60, 40]})
    charts.game_length_histogram(lengths, tmp_path / "length.png")
    laps = pl.DataFrame({"lap": [1, 1, 2, 2], "turns": [2, 3, 2, 3], "laps": [30, 70, 50, 50]})
    charts.lap_time_distributions(laps, tmp_path / "laps.png")
    players = pl.DataFrame({"bot": ["a", "a", "a", "b", "b", "b"], "distance": [600, 710, 655, 690, 702, 800]})
    players = players.with_columns(pl.Series("trophies", [0, 1, 0, 2, 1, 0]))
    charts.bot_distributions(players, tmp_path / "distance.png")
    sweep = pl.DataFrame(
        {
            "value": [1, 2],
            "estimate": [25.0, 31.0],
            "ci_low": [22.0, 28.0],
            "ci_high": [28.0, 34.0],
            "metric": ["win rate of seat 0"] * 2,
            "unit": ["%"] * 2,
            "setting": ["copies of v8_block"] * 2,
        }
    )
    charts.sweep_chart(sweep, tmp_path / "sweep.png", None, None)
    length, lap, boxes, swept = drawn
    for name, axis in (
        ("rounds", length.axes[0].xaxis),
        ("turns a lap", lap.axes[0].xaxis),
        ("trophies", boxes.axes[1].xaxis),
        ("distance", boxes.axes[0].xaxis),
        ("copies of a card", swept.axes[0].xaxis),
    ):
        ticks = visible_ticks(axis)
        assert len(ticks) >= 2, name
        assert all(float(t).is_integer() for t in ticks), f"{name}: {ticks}"


def test_a_swept_setting_with_fractional_values_keeps_its_fractions(tmp_path, drawn):
    sweep = pl.DataFrame(
        {
            "value": [0.5, 1.0, 1.5],
            "estimate": [25.0, 31.0, 33.0],
            "ci_low": [22.0, 28.0, 30.0],
            "ci_high": [28.0, 34.0, 36.0],
            "metric": ["win rate of seat 0"] * 3,
            "unit": ["%"] * 3,
            "setting": ["a weight"] * 3,
        }
    )
    charts.sweep_chart(sweep, tmp_path / "sweep.png", None, None)
    assert not all(float(t).is_integer() for t in visible_ticks(drawn[0].axes[0].xaxis))


def test_small_multiples_are_legible_at_the_size_the_page_shows_them(tmp_path, drawn):
    cards = driver_cards()
    paths = [
        charts.tallies(tally_table(), tmp_path / "tallies.png", per="per car and race"),
        charts.driver_card_plays(cards, tmp_path / "plays.png"),
        charts.driver_card_added(cards, tmp_path / "added.png"),
    ]
    assert len(tally_table()["measure"].unique()) == 8 and cards["driver"].n_unique() == 8
    for fig, path in zip(drawn, paths, strict=True):
        assert smallest_shown_pt(fig, path) >= SMALLEST_PT, path.name


def test_other_charts_with_small_labels_are_legible_on_the_page(tmp_path, drawn):
    pairs = pl.DataFrame(
        [
            {"first": a, "second": b, "win_rate": 0.1 + 0.05 * ((i + j) % 8), "n": 100 + 37 * i + j}
            for i, a in enumerate(DRIVERS)
            for j, b in enumerate(DRIVERS)
            if i < j
        ]
    )
    places = ["1st", "2nd", "3rd", "4th", "5th", "6th", "stalled"]
    finishing = pl.DataFrame({"auction round": [1, 2, 3], **{p: [1 / 7] * 3 for p in places}, "cars": [1000] * 3})
    paths = [
        charts.pair_heatmap(pairs, tmp_path / "pairs.png", drivers=DRIVERS, fair=0.25),
        charts.finishing_heatmap(
            [("auction round", finishing), ("starting slot", finishing.rename({"auction round": "slot"}))],
            tmp_path / "finishing.png",
        ),
    ]
    for fig, path in zip(drawn, paths, strict=True):
        assert smallest_shown_pt(fig, path) >= SMALLEST_PT, path.name


def test_the_forest_plot_x_label_clears_its_ticks_with_long_labels(tmp_path, drawn):
    rows = []
    for variant in ("a-rather-long-variant-name-with-a-stronger-v8-block-and-a-longer-suffix", "strong-v8"):
        for k in range(14):
            diff = (-1) ** k * 0.01 * (k + 2)
            rows.append(
                {
                    "variant": variant,
                    "metric": "card win rate added when drafted",
                    "key": f"endurance_tyres_{k}",
                    "diff": diff,
                    "ci_low": diff - 0.05,
                    "ci_high": diff + 0.05,
                    "significant": k < 3,
                }
            )
    path = charts.forest_plot(pl.DataFrame(rows), tmp_path / "forest.png")
    (fig,) = drawn
    renderer = drawn_again(fig)
    ax = fig.axes[0]
    label = ax.xaxis.label.get_window_extent(renderer)
    ticks = [t.get_window_extent(renderer) for t in drawn_tick_labels(ax.xaxis) + drawn_tick_labels(ax.yaxis)]
    assert ticks and not any(label.overlaps(t) for t in ticks)
    whole = fig.bbox
    for box in [label, *ticks]:  # nothing cut off at the figure's edges
        assert whole.x0 <= box.x0 and box.x1 <= whole.x1 and whole.y0 <= box.y0 and box.y1 <= whole.y1
    assert smallest_shown_pt(fig, path) >= SMALLEST_PT


def test_a_measure_where_the_bots_sit_close_is_not_drawn_from_zero(tmp_path, drawn):
    charts.tallies(tally_table(), tmp_path / "tallies.png", per="per car and race")
    (fig,) = drawn
    panels = {ax.get_title(): ax for ax in fig.axes if ax.get_visible()}
    finish = panels["finish round"]
    low, high = finish.get_xlim()
    assert low > 0, "finish round (about 19 rounds for every bot) starts at 0: four equal bars"
    assert all(low < m < high for m in HEAT_MEASURES["finish_round"])
    assert "not from 0" in finish.get_xlabel()
    assert not finish.patches, "dots with intervals, not bars that start off the axis"
    # a measure whose bots differ a lot keeps its bars from 0, where their lengths compare
    assert panels["heat paid"].get_xlim()[0] == 0 and panels["heat paid"].patches


def test_labels_of_cards_at_the_same_place_do_not_overlap(tmp_path, drawn):
    cards = pl.DataFrame(
        {
            "card": ["race_insurance", "trade_magazine", "bulk_discount", "mag_wheels", "penny_jar"],
            "n_taken": [200, 210, 250, 230, 100],
            "n_drafted": [200, 210, 250, 230, 100],
            "taken_rate": [0.180, 0.182, 0.26, 0.23, 0.10],
            "added_drafted": [-0.078, -0.080, -0.070, 0.098, 0.07],
            "added_low_drafted": [-0.12, -0.12, -0.11, 0.05, 0.02],
            "added_high_drafted": [-0.03, -0.03, -0.02, 0.14, 0.12],
            "significant_drafted": [True, True, True, True, False],
        }
    )
    charts.pick_vs_added(cards, tmp_path / "cards.png", label_top=4)
    (fig,) = drawn
    renderer = drawn_again(fig)
    names = [t for t in fig.axes[0].texts if t.get_text() in set(cards["card"])]
    assert len(names) == 4
    boxes = [t.get_window_extent(renderer) for t in names]
    assert not any(a.overlaps(b) for i, a in enumerate(boxes) for b in boxes[i + 1 :])


def test_the_card_chart_says_its_figure_is_within_each_bot_profile(tmp_path, drawn):
    """The one win rate added (analysis.cards) is within bot profiles where a raw one stands beside it."""
    cards = pl.DataFrame(
        {
            "card": ["a", "b"],
            "n_taken": [20, 30],
            "n_drafted": [20, 30],
            "taken_rate": [0.2, 0.3],
            "added_drafted": [0.05, -0.02],
            "added_low_drafted": [0.01, -0.06],
            "added_high_drafted": [0.09, 0.02],
            "significant_drafted": [True, False],
        }
    )
    charts.pick_vs_added(cards.with_columns(added_raw_drafted=pl.lit(0.1)), tmp_path / "a.png")
    charts.pick_vs_added(cards, tmp_path / "b.png")
    within, pooled = (fig.axes[0].get_ylabel() for fig in drawn)
    assert within.endswith("(within each bot profile)") and pooled.endswith("(with it minus without)")
