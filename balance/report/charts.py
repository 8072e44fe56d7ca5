"""The report's charts: one PNG each, titled, axes labelled, intervals drawn.

Every function takes analysis tables (polars DataFrames) and a path, and
returns the path written. matplotlib runs headless (Agg)."""

from __future__ import annotations

import textwrap
from pathlib import Path

import matplotlib

matplotlib.use("Agg")  # headless: no display needed, the same PNGs everywhere

import matplotlib.pyplot as plt  # noqa: E402
import numpy as np  # noqa: E402
import polars as pl  # noqa: E402
import seaborn as sns  # noqa: E402

from ..atomic import write_with  # noqa: E402

sns.set_theme(style="whitegrid", context="notebook")
PALETTE = sns.color_palette("colorblind")
DPI = 110
# The report pages are 72rem wide (about 1,150 px) and shrink a wider PNG to fit, its text with it.
# So a figure is at most PAGE_WIDTH inches wide (shown at its own size) and no text is smaller than
# SMALL points: readable on the page without zooming (a new user found 7 px tick labels).
PAGE_PX = 1150
PAGE_WIDTH = PAGE_PX / DPI
SMALL = 9


def _save(fig: plt.Figure, path: Path) -> Path:
    fig.tight_layout()
    try:
        write_with(path, lambda tmp: fig.savefig(tmp, dpi=DPI, format="png"))  # a chart whole or not at all
    finally:
        plt.close(fig)
    return path


def _integer_ticks(axis: matplotlib.axis.Axis, values: np.ndarray | None = None) -> None:
    """Whole-number ticks on an axis that counts (rounds, turns, trophies): a tick at 0.5
    reads as a half round that cannot happen. Given `values`, only where all are whole."""
    finite = None if values is None else np.asarray(values, float)
    if finite is not None:
        finite = finite[np.isfinite(finite)]
        if not np.array_equal(finite, np.round(finite)):
            return
    axis.set_major_locator(matplotlib.ticker.MaxNLocator(integer=True, steps=[1, 2, 2.5, 5, 10]))  # 10s, not 8s


def _apart(fig: plt.Figure, texts: list[matplotlib.text.Annotation]) -> None:
    """Move each label down a line at a time, highest first, until it clears those placed
    before it: outliers close together (two cards at the same rates) printed over each other."""
    renderer = fig.canvas.get_renderer()
    placed: list = []
    for text in sorted(texts, key=lambda t: -t.get_window_extent(renderer).y0):
        for _ in range(8):  # a few lines at most: further down it would leave its point
            box = text.get_window_extent(renderer)
            if not any(box.overlaps(other) for other in placed):
                break
            dx, dy = text.xyann
            text.xyann = (dx, dy - box.height * 72 / fig.dpi - 1)  # offset points, from pixels
        placed.append(text.get_window_extent(renderer))


def _rate_bars(ax, labels, rates, low, high, colour) -> None:
    y = np.arange(len(labels))
    ax.barh(y, rates, color=colour, alpha=0.85)
    below, above = np.nan_to_num(np.maximum(rates - low, 0)), np.nan_to_num(np.maximum(high - rates, 0))
    ax.errorbar(rates, y, xerr=[below, above], fmt="none", ecolor="black", capsize=4, lw=1.2)
    ax.set_yticks(y, labels)
    ax.invert_yaxis()
    ax.xaxis.set_major_formatter(matplotlib.ticker.PercentFormatter(1.0, decimals=0))
    for yi, r, h in zip(y, rates, high, strict=True):
        ax.text(h, yi, f"  {r:.1%}", va="center", ha="left", fontsize=SMALL)
    ax.set_xlim(0, max(float(np.nanmax(high)) * 1.15, 0.05))


def seat_win_rates(
    seats: pl.DataFrame,
    path: Path,
    seat: str = "seat",
    first: str = "plays first",
    note: str = "seat 0 plays first",
    games: str = "games",
) -> Path:
    """Win rate by seat with 95% intervals and the fair share. `seat` names a
    seat ("grid slot" in Heat), `first` tags seat 0, `note` explains the order."""
    fig, ax = plt.subplots(figsize=(7, 0.6 * len(seats) + 1.8))
    labels = [f"{seat} {s}" + (f" ({first})" if s == 0 and first else "") for s in seats["seat"].to_list()]
    _rate_bars(
        ax, labels, seats["win_rate"].to_numpy(), seats["ci_low"].to_numpy(), seats["ci_high"].to_numpy(), PALETTE[0]
    )
    fair = float(seats["fair"][0])
    ax.axvline(fair, color=PALETTE[3], ls="--", lw=1.5, label=f"fair share {fair:.0%}")
    ax.legend(loc="lower right")
    ax.set_xlabel("win rate (bars: 95% interval)")
    title = f"Win rate by {seat} ({note}), n = {int(seats['games'][0]):,} {games} per {seat}"
    if len(title) > 70:  # a long note (Shuffle Grand Prix's): n on a line of its own, not cut off
        title = title.replace("), n = ", ")\nn = ", 1)
    ax.set_title(title)
    return _save(fig, path)


def bot_win_rates(bots: pl.DataFrame, path: Path) -> Path:
    fig, ax = plt.subplots(figsize=(7, 0.6 * len(bots) + 1.8))
    order = bots.sort("win_rate", descending=True)
    labels = [f"{b} (n={n:,})" for b, n in zip(order["bot"], order["games"], strict=True)]
    _rate_bars(
        ax, labels, order["win_rate"].to_numpy(), order["ci_low"].to_numpy(), order["ci_high"].to_numpy(), PALETTE[2]
    )
    ax.set_xlabel("win rate (bars: 95% interval)")
    ax.set_title("Win rate by bot profile")
    return _save(fig, path)


def skill_ladder(ladder: pl.DataFrame, path: Path) -> Path:
    """One seat of each profile against `tuned` (balance strong), strongest on top."""
    fig, ax = plt.subplots(figsize=(7, 0.6 * len(ladder) + 1.8))
    order = ladder.sort("win_rate", descending=True)
    labels = [f"{b} (n={n:,})" for b, n in zip(order["bot"], order["games"], strict=True)]
    colours = [PALETTE[0] if k == "tuned" else PALETTE[3] if k == "floor" else PALETTE[2] for k in order["kind"]]
    _rate_bars(
        ax, labels, order["win_rate"].to_numpy(), order["ci_low"].to_numpy(), order["ci_high"].to_numpy(), colours
    )
    ax.set_xlabel("win rate, one seat against tuned (bars: 95% interval)")
    ax.set_title("Skill ladder")
    return _save(fig, path)


def lap_time_distributions(
    distribution: pl.DataFrame, path: Path, xlabel: str = "turns to complete the lap (the player's own turns)"
) -> Path:
    """Turns per lap, one histogram line per lap."""
    fig, ax = plt.subplots(figsize=(7, 4))
    for i, lap in enumerate(sorted(distribution["lap"].unique().to_list())):
        part = distribution.filter(pl.col("lap") == lap).sort("turns")
        share = part["laps"].to_numpy() / part["laps"].sum()
        ax.plot(
            part["turns"].to_numpy(),
            share,
            marker="o",
            ms=3,
            color=PALETTE[i % len(PALETTE)],  # more laps than colours (up to 16): colours repeat dashed
            ls="-" if i < len(PALETTE) else "--",
            label=f"lap {lap} (n={part['laps'].sum():,})",
        )
    ax.yaxis.set_major_formatter(matplotlib.ticker.PercentFormatter(1.0, decimals=0))
    _integer_ticks(ax.xaxis)
    ax.set_xlabel(xlabel)
    ax.set_ylabel("share of completed laps")
    ax.set_title("Lap times by lap")
    ax.legend()
    return _save(fig, path)


def game_length_histogram(
    lengths: pl.DataFrame,
    path: Path,
    xlabel: str = "rounds until someone completes the last lap",
    counted: str = "finished games",
    last_label: str = "last player home",
    bars_label: str = "",
    title: str = "Game length",
) -> Path:
    """Bars: the share of games by `rounds`; where the table has `last_home`
    (Heat: the round the last car came home), that share as outlined bars over them."""
    fig, ax = plt.subplots(figsize=(7, 4))
    total = lengths["games"].sum()
    shares = lengths["games"].to_numpy() / max(total, 1)
    ax.bar(
        lengths["rounds"].to_numpy(),
        shares,
        width=0.9,
        color=PALETTE[4],
        label=f"{bars_label or counted}, n = {total:,}",
    )
    heading = f"{title}, n = {total:,} {counted}"
    if "last_home" in lengths.columns:
        last = lengths["last_home"].sum()
        last_shares = lengths["last_home"].to_numpy() / max(last, 1)
        ax.bar(
            lengths["rounds"].to_numpy(),
            last_shares,
            width=0.9,
            fill=False,
            edgecolor=PALETTE[0],
            linewidth=1.2,
            label=f"{last_label}, n = {last:,}",
        )
        ax.set_ylim(0, 1.35 * max(shares.max(initial=0), last_shares.max(initial=0), 0.01))
        ax.legend(loc="upper right", fontsize=SMALL + 1)
        heading = title  # each series has its own n
    ax.yaxis.set_major_formatter(matplotlib.ticker.PercentFormatter(1.0, decimals=0))
    _integer_ticks(ax.xaxis)
    ax.set_xlabel(xlabel)
    ax.set_ylabel(f"share of {counted}")
    ax.set_title(heading)
    return _save(fig, path)


def pick_vs_added(
    cards: pl.DataFrame,
    path: Path,
    label_top: int = 8,
    xlabel: str = "taken rate: share of players who drafted, bought or won it",
) -> Path:
    """Each card: how often it is taken (x) against the win rate added when drafted
    or bought, whichever more players did (y, marked by shape), with its interval;
    the outliers labelled. The figure compared within each bot profile where the
    table has it (the findings' figure), else the pooled one. A table without the
    bought columns (a game without purchases) plots the draft alone."""
    missing = {
        "n_bought": 0,
        "added_bought": np.nan,
        "added_low_bought": np.nan,
        "added_high_bought": np.nan,
        "significant_bought": False,
    }
    cards = cards.with_columns(pl.lit(v).alias(c) for c, v in missing.items() if c not in cards.columns)
    data = cards.filter(pl.col("n_taken") > 0).with_columns(
        pl.when(pl.col("n_drafted") >= pl.col("n_bought"))
        .then(pl.lit("drafted"))
        .otherwise(pl.lit("bought"))
        .alias("how")
    )
    drafted = (data["how"] == "drafted").to_numpy()

    def pick(stem: str) -> np.ndarray:
        return np.where(drafted, data[f"{stem}drafted"].to_numpy(), data[f"{stem}bought"].to_numpy())

    x = data["taken_rate"].to_numpy()
    added, low, high = pick("added_"), pick("added_low_"), pick("added_high_")
    significant = pick("significant_").astype(bool)
    fig, ax = plt.subplots(figsize=(8, 5.5))
    ax.axhline(0, color="grey", lw=1)
    ok = np.isfinite(added)
    below, above = np.maximum(added[ok] - low[ok], 0), np.maximum(high[ok] - added[ok], 0)
    ax.errorbar(
        x[ok],
        added[ok],
        yerr=[np.nan_to_num(below), np.nan_to_num(above)],
        fmt="none",
        ecolor="#bbbbbb",
        lw=0.8,
        zorder=1,
    )
    for how, marker, chosen in (("drafted", "o", drafted), ("bought", "s", ~drafted)):
        for flag, colour, size, words in (
            (False, PALETTE[0], 28, "not significant"),
            (True, PALETTE[3], 36, "significant"),
        ):
            where = ok & chosen & (significant == flag)
            if where.any():
                ax.scatter(
                    x[where],
                    added[where],
                    color=colour,
                    marker=marker,
                    s=size,
                    zorder=2 + flag,
                    label=f"when {how}, {words}",
                )
    # label the strongest both ways: the cards a designer should look at first
    ranked = np.argsort(np.where(ok, added, 0))
    names = [
        ax.annotate(data["card"][int(i)], (x[i], added[i]), textcoords="offset points", xytext=(5, 4), fontsize=SMALL)
        for i in np.unique(np.concatenate([ranked[: label_top // 2], ranked[::-1][: label_top // 2]]))
        if ok[i]
    ]
    ax.xaxis.set_major_formatter(matplotlib.ticker.PercentFormatter(1.0, decimals=0))
    ax.yaxis.set_major_formatter(
        matplotlib.ticker.FuncFormatter(lambda v, _: f"{round(100 * v, 1):+g}" if round(100 * v, 1) else "0")
    )
    ax.set_xlabel(xlabel)
    within = "added_raw_drafted" in cards.columns  # analysis.cards' one figure: within bot profiles, raw beside it
    ax.set_ylabel("win rate added, points" + (" (within each bot profile)" if within else " (with it minus without)"))
    ax.set_title("Cards: how often taken vs how much winning they go with")
    ax.legend(loc="best", fontsize=SMALL)
    fig.tight_layout()  # the page's layout first: the labels are kept apart where they will be drawn
    _apart(fig, names)
    return _save(fig, path)


def card_plays(cards: pl.DataFrame, path: Path, top: int = 40, game: str = "game") -> Path:
    """Plays per game of each card, most played first: for a game whose cards
    are all dealt (no draft, no purchase), how much each card is used."""
    data = cards.sort("plays_per_game", descending=True).head(top)
    fig, ax = plt.subplots(figsize=(7, 0.35 * max(len(data), 1) + 1.8))
    y = np.arange(len(data))
    values = data["plays_per_game"].to_numpy()
    ax.barh(y, values, color=PALETTE[0], alpha=0.85)
    labels = data["card"].to_list()
    if "name" in data.columns:
        labels = [f"{n} ({c})" if n and n != c else c for c, n in zip(labels, data["name"].to_list(), strict=True)]
    ax.set_yticks(y, labels, fontsize=SMALL)
    ax.margins(y=0.01)
    ax.invert_yaxis()
    for yi, v in zip(y, values, strict=True):
        ax.text(v, yi, f"  {v:.2f}", va="center", ha="left", fontsize=SMALL)
    ax.set_xlim(0, max(float(np.nanmax(values)) * 1.15, 0.1) if len(values) else 1)
    ax.set_xlabel(f"plays per {game} (all players together)")
    ax.set_title(f"Cards: plays per {game}")
    return _save(fig, path)


def dealt_added(cards: pl.DataFrame, path: Path) -> Path:
    """Each card's win rate added when dealt (a deck dealt out at random), ranked,
    with its 95% interval; orange where significant."""
    data = cards.filter(pl.col("added_dealt").is_not_nan()).sort("added_dealt")
    label = pl.col("name").fill_null(pl.col("card")) if "name" in data.columns else pl.col("card")
    data = data.select(
        label.cast(pl.String).alias("card"),  # the card's content where the catalog names it (Downforce's moves)
        pl.col("added_dealt").alias("added"),
        pl.col("added_low_dealt").alias("ci_low"),
        pl.col("added_high_dealt").alias("ci_high"),
        pl.col("significant_dealt").alias("significant"),
    )
    fig, ax = plt.subplots(figsize=(9, 0.27 * max(len(data), 1) + 1.8))
    y = _interval_dots(ax, data, "added")
    ax.set_yticks(y, data["card"].to_list(), fontsize=SMALL)
    ax.set_ylim(-0.8, len(data) - 0.2)
    ax.set_xlabel("win rate added when dealt, points\n(95% interval; orange: significant)", fontsize=SMALL + 1)
    ax.set_title("Cards: win rate added when dealt")
    return _save(fig, path)


# A measure whose bots all sit near the same value (Heat's finish round: about 19 rounds for every
# bot) shows as equal bars from 0, however the bots differ. The rule: where every bot's mean is
# positive and the smallest is more than ZOOM_RATIO of the largest, bars from 0 differ by less than
# a fifth of their length, too little to see; such a measure is drawn as dots with their intervals
# on an axis zoomed to the values (not from 0), and the panel says so.
ZOOM_RATIO = 0.8


def _zoomed(mean: np.ndarray) -> bool:
    finite = mean[np.isfinite(mean)]
    return bool(finite.size) and float(finite.min()) > 0 and float(finite.min()) > ZOOM_RATIO * float(finite.max())


def tallies(
    table: pl.DataFrame,
    path: Path,
    by: str = "bot",
    per: str = "per player and game",
    columns: int = 3,
    title: str | None = None,
) -> Path:
    """One panel per measure (analysis.tallies.means): each bot's mean (`per`
    says of what: a player and game, a car and race), with its 95% interval;
    `title` replaces "How each bot races" (Downforce: "How each bot plays").
    Bars from 0, or dots on a zoomed axis where the bots' means are close (_zoomed)."""
    measures = list(dict.fromkeys(table["measure"].to_list()))
    keys = list(dict.fromkeys(table[by].to_list()))
    ncols = min(columns, max(len(measures), 1))
    nrows = -(-len(measures) // ncols)
    # three panels a row fill the page's width with labels at SMALL; four squeezed them to 7 px
    fig, axes = plt.subplots(
        nrows,
        ncols,
        figsize=(min(PAGE_WIDTH, 3.45 * ncols + 0.4), (0.34 * len(keys) + 1.5) * nrows + 0.7),
        squeeze=False,
        sharey=True,
    )
    y = np.arange(len(keys))
    for i, measure in enumerate(measures):
        ax = axes[i // ncols][i % ncols]
        part = table.filter(pl.col("measure") == measure)
        row = {k: r for k, r in zip(part[by].to_list(), part.iter_rows(named=True), strict=True)}
        mean = np.array([row[k]["mean"] if k in row and row[k]["mean"] is not None else np.nan for k in keys])
        low = np.array([row[k]["ci_low"] if k in row else np.nan for k in keys], float)
        high = np.array([row[k]["ci_high"] if k in row else np.nan for k in keys], float)
        colour = PALETTE[i % len(PALETTE)]
        below, above = np.nan_to_num(np.maximum(mean - low, 0)), np.nan_to_num(np.maximum(high - mean, 0))
        zoomed = _zoomed(mean)
        if zoomed:
            ax.errorbar(mean, y, xerr=[below, above], fmt="o", color=colour, ecolor="black", capsize=3, lw=1, ms=7)
        else:
            ax.barh(y, np.nan_to_num(mean), color=colour, alpha=0.85)
            ax.errorbar(np.nan_to_num(mean), y, xerr=[below, above], fmt="none", ecolor="black", capsize=3, lw=1)
        ends = np.concatenate([low, high, mean])
        ends = ends[np.isfinite(ends)]
        if zoomed:
            lo, hi = float(ends.min()), float(ends.max())
            span = max(hi - lo, 0.02 * hi)
            ax.set_xlim(lo - 0.2 * span, hi + 0.6 * span)  # the right margin holds the value labels
            ax.set_xlabel("dots: axis not from 0", fontsize=SMALL, color="dimgrey")
        else:
            top = float(ends.max()) if ends.size else 1.0
            ax.set_xlim(0, max(top * 1.3, 0.1))
        for yi, m, h in zip(y, mean, high, strict=True):
            # beside the interval, not over it; a bot without a mean says so at the axis' start
            at = np.nanmax([m, h]) if np.isfinite([m, h]).any() else ax.get_xlim()[0]
            ax.text(
                at,
                yi,
                f" {m:,.0f}" if abs(m) >= 1000 else f" {m:.3g}" if np.isfinite(m) else " n/a",
                va="center",
                fontsize=SMALL,
            )
        # few ticks, each with room at SMALL, at round steps (not 0, 8, 16)
        ax.xaxis.set_major_locator(matplotlib.ticker.MaxNLocator(nbins=4, steps=[1, 2, 2.5, 5, 10]))
        ax.set_title(measure.replace("_", " "), fontsize=SMALL + 2)
        ax.tick_params(axis="x", labelsize=SMALL)
        ax.set_yticks(y, keys)
    axes[0][0].invert_yaxis()  # shared: the first bot on top in every panel
    for j in range(len(measures), nrows * ncols):
        axes[j // ncols][j % ncols].set_visible(False)
    fig.suptitle(f"{title or f'How each {by} races'}: mean {per} (lines: 95% interval)")
    return _save(fig, path)


def money_breakdown(table: pl.DataFrame, path: Path, by: str = "bot", unit: str = "$M") -> Path:
    """Where each bot's money comes from (analysis.tallies.money_breakdown):
    prizes and bets won stacked to the right, bids paid to the left, and the
    net (money = prizes + bets won - bids paid) as a diamond."""
    data = table.sort("money", descending=True)
    keys = [f"{k} (n={n:,})" for k, n in zip(data[by].to_list(), data["n"].to_list(), strict=True)]
    prizes, bets, bids, net = (data[c].to_numpy() for c in ("prizes", "bets_won", "bids_paid", "money"))
    fig, ax = plt.subplots(figsize=(7.5, 0.7 * len(keys) + 2.2))
    y = np.arange(len(keys))
    bar = dict(height=0.5, alpha=0.85)
    ax.barh(y, prizes, color=PALETTE[2], label="prizes", **bar)
    ax.barh(y, bets, left=prizes, color=PALETTE[0], label="bets won", **bar)
    ax.barh(y, -bids, color=PALETTE[3], label="bids paid", **bar)
    ax.scatter(net, y, marker="D", s=45, color="black", zorder=3, label="net money")
    for yi, n in zip(y, net, strict=True):  # in the gap above the bar
        ax.annotate(
            f"net {n:.1f}",
            (n, yi),
            textcoords="offset points",
            xytext=(0, 15),
            ha="center",
            va="bottom",
            fontsize=SMALL,
        )
    for yi, p_, b_, d_ in zip(y, prizes, bets, bids, strict=True):
        ax.text(p_ + b_, yi, f" +{p_ + b_:.1f}", va="center", ha="left", fontsize=SMALL)
        ax.text(-d_, yi, f"-{d_:.1f} ", va="center", ha="right", fontsize=SMALL)
    ax.axvline(0, color="grey", lw=1)
    ax.set_yticks(y, keys)
    ax.invert_yaxis()
    low, high = float(np.min(-bids, initial=0)), float(np.max(prizes + bets, initial=1))
    pad = 0.15 * (high - low)
    ax.set_xlim(low - pad, high + pad)
    ax.set_xlabel(f"{unit} per player and game (mean)")
    ax.set_title(f"Where each {by}'s money comes from")
    ax.legend(loc="upper center", bbox_to_anchor=(0.5, -0.18 if len(keys) > 3 else -0.25), ncol=4, fontsize=SMALL)
    return _save(fig, path)


# Downforce's cars drawn in their own colours (black a dark grey, to show its interval)
CAR_COLOURS = {
    "red": "#d62728",
    "blue": "#1f77b4",
    "green": "#2ca02c",
    "yellow": "#e6c700",
    "black": "#444444",
    "orange": "#ff7f0e",
}


def _mean_bars(ax, labels, mean, low, high, colours, unit: str) -> None:
    y = np.arange(len(labels))
    ax.barh(y, mean, color=colours, alpha=0.85)
    below, above = np.nan_to_num(np.maximum(mean - low, 0)), np.nan_to_num(np.maximum(high - mean, 0))
    ax.errorbar(mean, y, xerr=[below, above], fmt="none", ecolor="black", capsize=3, lw=1)
    for yi, m, h in zip(y, mean, high, strict=True):
        ax.text(np.nanmax([m, h]), yi, f"  {m:.2f}", va="center", ha="left", fontsize=SMALL)
    ax.set_yticks(y, labels)
    ax.invert_yaxis()
    ax.set_xlim(0, max(float(np.nanmax(high)) * 1.2, 0.1) if len(labels) else 1)
    ax.set_xlabel(f"mean price ({unit}; bars: 95% interval)")


def prices(by_colour: pl.DataFrame, by_power: pl.DataFrame, path: Path, unit: str = "$M") -> Path:
    """The mean price paid per car colour (each bar in its car's colour) and per
    power card (the price of the car it was sold with), with 95% intervals."""
    fig, axes = plt.subplots(1, 2, figsize=(10, 0.42 * max(len(by_colour), len(by_power), 1) + 2))
    for ax, data, key, title in (
        (axes[0], by_colour, "colour", "by car colour"),
        (axes[1], by_power, "power", "by power card sold with the car"),
    ):
        data = data.sort("mean", descending=True)
        keys = data[key].to_list()
        colours = [CAR_COLOURS.get(k, PALETTE[0]) for k in keys] if key == "colour" else PALETTE[4]
        labels = [f"{k} (n={n:,})" for k, n in zip(keys, data["n"].to_list(), strict=True)]
        _mean_bars(
            ax, labels, data["mean"].to_numpy(), data["ci_low"].to_numpy(), data["ci_high"].to_numpy(), colours, unit
        )
        ax.set_title(title, fontsize=10)
    fig.suptitle("Price paid at the auction")
    return _save(fig, path)


def finishing_heatmap(tables: list[tuple[str, pl.DataFrame]], path: Path) -> Path:
    """Share of cars finishing 1st..6th or stalling (columns) by a row key:
    one heatmap panel per (title, table) of analysis.cars.finishing."""
    places = ["1st", "2nd", "3rd", "4th", "5th", "6th", "stalled"]
    fig, axes = plt.subplots(1, len(tables), figsize=(min(PAGE_WIDTH, 5.6 * len(tables)), 4.2), squeeze=False)
    top = max(float(t.select(places).max_horizontal().max()) for _, t in tables)
    for ax, (title, table) in zip(axes[0], tables, strict=True):
        key = table.columns[0]
        shares = table.select(places).to_numpy()
        rows = [f"{v}" for v in table[key].to_list()]
        sns.heatmap(
            shares,
            ax=ax,
            annot=True,
            fmt=".0%",
            cmap="Blues",
            vmin=0,
            vmax=top,
            cbar=False,
            xticklabels=places,
            yticklabels=rows,
            annot_kws={"fontsize": SMALL},
            linewidths=0.5,
            linecolor="white",
        )
        ax.set_xlabel("finishing place")
        ax.set_ylabel(title)
        ax.tick_params(axis="y", rotation=0)
        n = int(table["cars"].min()) if "cars" in table.columns else 0
        ax.set_title(f"by {title} (n = {n:,} cars a row)", fontsize=10)
    fig.suptitle("Where cars finish: share of each row's cars (each row sums to 100%)")
    return _save(fig, path)


def playbook_win_rates(books: pl.DataFrame, path: Path, top: int = 32) -> Path:
    data = books.filter(pl.col("n_held") > 0).sort("win_rate_held", descending=True).head(top)
    fig, ax = plt.subplots(figsize=(7.5, 0.3 * len(data) + 1.8))
    labels = [f"{b} (n={n:,})" for b, n in zip(data["playbook"], data["n_held"], strict=True)]
    _rate_bars(
        ax,
        labels,
        data["win_rate_held"].to_numpy(),
        data["ci_low_held"].to_numpy(),
        data["ci_high_held"].to_numpy(),
        PALETTE[1],
    )
    ax.tick_params(axis="y", labelsize=SMALL + 1)
    ax.set_xlabel("win rate of players holding it at the end (bars: 95% interval)")
    ax.set_title("Playbooks")
    return _save(fig, path)


def _interval_dots(ax, data: pl.DataFrame, column: str) -> np.ndarray:
    """One dot per row at `column` (a rate difference, drawn in points) with its
    95% interval; orange where `significant`. Returns the rows' y positions."""
    y = np.arange(len(data))
    value = data[column].to_numpy() * 100
    low, high = data["ci_low"].to_numpy() * 100, data["ci_high"].to_numpy() * 100
    colours = [PALETTE[3] if s else PALETTE[0] for s in data["significant"].to_list()]
    ax.axvline(0, color="grey", lw=1)
    below, above = np.nan_to_num(np.maximum(value - low, 0)), np.nan_to_num(np.maximum(high - value, 0))
    ax.errorbar(value, y, xerr=[below, above], fmt="none", ecolor="#999999", capsize=3)
    ax.scatter(value, y, c=colours, zorder=3, s=30)
    return y


def _forest_label(variant: str, what: str, width: int = 62) -> str:
    """One line where it fits, else the variant on a line of its own: a variant's name is the
    user's, of any length, and unwrapped a long one pushed the axes and the x label off the figure."""
    if len(variant) + len(what) + 2 <= width:
        return f"{variant}: {what}"
    return "\n".join(textwrap.fill(part, width) for part in (f"{variant}:", what))


def _z(frame: pl.DataFrame) -> pl.DataFrame:
    """`frame` with `z`: the difference over its standard error (from the 95% interval)."""
    se = (frame["ci_high"] - frame["ci_low"]).to_numpy() / 3.92
    return frame.with_columns(pl.Series("z", frame["diff"].to_numpy() / np.where(se > 0, se, np.inf)))


def forest_rows(table: pl.DataFrame, top: int = 25) -> tuple[pl.DataFrame, pl.DataFrame]:
    """What the forest plot draws: the win-rate differences (the `top` largest
    by |diff| over its standard error, and every significant one), and every
    significant difference of another measure (its own unit: drawn as z)."""
    finite = table.filter(pl.col("diff").is_finite())
    rates = _z(finite.filter(pl.col("metric").str.contains("win rate")))
    rates = rates.with_columns(pl.col("z").abs().alias("size")).sort("size", descending=True)
    rates = rates.with_row_index("rank").filter((pl.col("rank") < top) | pl.col("significant")).drop("rank", "size")
    others = _z(finite.filter(~pl.col("metric").str.contains("win rate") & pl.col("significant")))
    return rates.reverse(), others.sort(pl.col("z").abs())


def forest_plot(table: pl.DataFrame, path: Path, top: int = 25) -> Path:
    """The largest differences in win-rate metrics (percentage points), with their
    intervals; below them every significant difference of another measure (a
    compare of any change charts each row it calls significant)."""
    data, others = forest_rows(table, top)
    labels = [
        _forest_label(v, f"{m.replace('win rate', 'wr')} {k}")
        for v, m, k in zip(data["variant"], data["metric"], data["key"], strict=True)
    ]
    other_labels = [
        _forest_label(v, f"{m} {k} ({d:+.3g})")
        for v, m, k, d in zip(others["variant"], others["metric"], others["key"], others["diff"], strict=True)
    ]
    lines = max((label.count("\n") + 1 for label in labels + other_labels), default=1)
    row = 0.14 + 0.17 * lines
    heights = [max(len(data), 1)] + ([len(others)] if len(others) else [])
    fig, axes = plt.subplots(
        len(heights), 1, figsize=(PAGE_WIDTH, row * sum(heights) + 2.0 * len(heights)),
        gridspec_kw={"height_ratios": heights}, squeeze=False,
    )  # fmt: skip
    ax = axes[0, 0]
    y = _interval_dots(ax, data, "diff")
    ax.set_yticks(y, labels, fontsize=SMALL)
    ax.set_xlabel(
        "variant minus baseline, points of win rate\n(95% interval; orange: significant)",
        fontsize=SMALL + 1,
        labelpad=6,
    )
    ax.set_title("Largest differences")
    if len(others):
        ax = axes[1, 0]
        y = np.arange(len(others))
        z = others["z"].to_numpy()
        ax.axvline(0, color="grey", lw=1)
        ax.errorbar(z, y, xerr=1.96, fmt="none", ecolor="#999999", capsize=3)
        ax.scatter(z, y, color=PALETTE[3], zorder=3, s=30)
        ax.set_yticks(y, other_labels, fontsize=SMALL)
        ax.set_xlabel(
            "the other significant differences, each in its own unit (in brackets):\n"
            "difference over its standard error (z; 95% interval +-1.96)",
            fontsize=SMALL + 1,
            labelpad=6,
        )
    return _save(fig, path)


def strength_chart(table: pl.DataFrame, path: Path) -> Path:
    """Each item's change in the receiving seat's win rate, ranked, with intervals."""
    data = table.sort("change")
    fig, ax = plt.subplots(figsize=(7.5, 0.3 * max(len(data), 1) + 1.8))
    y = _interval_dots(ax, data, "change")
    ax.set_yticks(y, data["card"].to_list(), fontsize=SMALL)
    ax.set_xlabel(
        "change in the receiving seat's win rate, points\n(95% interval; orange: significant)", fontsize=SMALL + 1
    )
    ax.set_title("Strength: each item given to one seat (the page says how)")
    return _save(fig, path)


def sweep_chart(table: pl.DataFrame, path: Path, target: float | None, crossing: float | None) -> Path:
    """The metric against the swept value, with intervals (and the target crossing), in
    the table's unit: percent, or percentage points for a difference."""
    fig, ax = plt.subplots(figsize=(7, 4.2))
    x, y = table["value"].to_numpy(), table["estimate"].to_numpy()
    low, high = table["ci_low"].to_numpy(), table["ci_high"].to_numpy()
    ax.fill_between(x, low, high, color=PALETTE[0], alpha=0.2, label="95% interval")
    ax.plot(x, y, marker="o", color=PALETTE[0], label=table["metric"][0])
    label = table["metric"][0]
    difference = table["unit"][0] == "points"  # a difference of win rates, else a win rate (in percent)
    if target is not None:
        shown = (f"{target:+g} points" if target else "0 points") if difference else f"{target:g}%"
        ax.axhline(target, color="grey", ls="--", lw=1, label=f"target {shown}")
    if crossing is not None:
        ax.axvline(crossing, color=PALETTE[3], ls=":", lw=1.5, label=f"crosses at {crossing:.3g}")
    ax.set_xlabel(table["setting"][0])
    _integer_ticks(ax.xaxis, x)  # a swept count (copies of a card, a hand size) has no half steps
    if difference:  # differences of win rates, in percentage points with their sign
        ax.yaxis.set_major_formatter(
            matplotlib.ticker.FuncFormatter(lambda v, _: f"{round(v, 1):+g}" if round(v, 1) else "0")
        )
        ax.set_ylabel("change in win rate (points)" if label.endswith("(causal)") else "win rate added (points)")
    else:
        ax.yaxis.set_major_formatter(matplotlib.ticker.PercentFormatter(100.0, decimals=0))
        ax.set_ylabel(label)
    ax.set_title(f"Sweep of {table['setting'][0]}")
    ax.legend(fontsize=SMALL)
    return _save(fig, path)


def driver_win_rates(drivers: pl.DataFrame, path: Path, players: str = "players") -> Path:
    """Shuffle Grand Prix: the win rate of the players who drafted each driver
    (as driver or co-pilot), best first, with 95% intervals and the fair share."""
    data = drivers.filter(pl.col("n") > 0).sort("win_rate", descending=True)
    fig, ax = plt.subplots(figsize=(7, 0.45 * max(len(data), 1) + 1.8))
    labels = [f"{d} (n={n:,})" for d, n in zip(data["driver"], data["n"], strict=True)]
    _rate_bars(
        ax, labels, data["win_rate"].to_numpy(), data["ci_low"].to_numpy(), data["ci_high"].to_numpy(), PALETTE[1]
    )
    fair = float(data["fair"][0]) if len(data) else float("nan")
    if np.isfinite(fair):
        ax.axvline(fair, color=PALETTE[3], ls="--", lw=1.5, label=f"fair share {fair:.0%}")
        ax.legend(loc="lower right")
    ax.set_xlabel(f"win rate of the {players} who drafted it (bars: 95% interval)")
    ax.set_title("Win rate by driver drafted (as driver or co-pilot)")
    return _save(fig, path)


def pair_heatmap(pairs: pl.DataFrame, path: Path, drivers: list[str] | None = None, fair: float = float("nan")) -> Path:
    """Shuffle Grand Prix: the win rate of each pair of drivers drafted together
    (an unordered pair, so the map is symmetric), annotated with its n; blank
    where no player drafted the pair. White is the fair share (or the median pair)."""
    names = drivers or sorted(set(pairs["first"].to_list()) | set(pairs["second"].to_list()))
    at = {d: i for i, d in enumerate(names)}
    rate = np.full((len(names), len(names)), np.nan)
    n = np.zeros((len(names), len(names)), np.int64)
    for row in pairs.iter_rows(named=True):
        i, j = at.get(row["first"]), at.get(row["second"])
        if i is None or j is None:
            continue
        for a, b in ((i, j), (j, i)):
            rate[a, b], n[a, b] = row["win_rate"], row["n"]
    text = [
        [f"{r:.0%}\nn={k:,}" if k else "" for r, k in zip(rr, kk, strict=True)] for rr, kk in zip(rate, n, strict=True)
    ]
    size = min(0.95 * len(names) + 2.2, PAGE_WIDTH - 1.2)  # the colour bar beside it, within the page
    fig, ax = plt.subplots(figsize=(size + 1.2, size))
    finite = rate[np.isfinite(rate)]
    top = max(float(finite.max()) if finite.size else 0.5, fair * 1.5 if np.isfinite(fair) else 0.5)
    centre = fair if np.isfinite(fair) else float(np.median(finite)) if finite.size else 0.25
    sns.heatmap(
        rate,
        ax=ax,
        annot=text,
        fmt="",
        cmap="RdBu",
        norm=matplotlib.colors.TwoSlopeNorm(vcenter=min(max(centre, 1e-6), top - 1e-6), vmin=0, vmax=top),
        xticklabels=names,
        yticklabels=names,
        annot_kws={"fontsize": SMALL},
        linewidths=0.5,
        linecolor="white",
        cbar_kws={"label": "win rate", "format": matplotlib.ticker.PercentFormatter(1.0, decimals=0)},
        mask=~np.isfinite(rate),
    )
    ax.grid(False)
    ax.tick_params(axis="y", rotation=0)
    ax.tick_params(axis="x", rotation=45)
    ax.set_title(
        f"Win rate by driver pair drafted (white: {'the fair share' if np.isfinite(fair) else 'the median'}, "
        f"{centre:.0%}; blue above, red below)",
        fontsize=10,
    )
    return _save(fig, path)


def bot_distributions(values: pl.DataFrame, path: Path, columns: tuple[str, ...] = ("distance", "trophies")) -> Path:
    """Per bot, one panel per column: a box plot (box: quartiles; whiskers: the
    10th and 90th percentiles; diamond: the mean) of each player's final value."""
    bots = sorted(set(values["bot"].to_list()))
    fig, axes = plt.subplots(
        1, len(columns), figsize=(min(PAGE_WIDTH, 5.2 * len(columns)), 0.55 * len(bots) + 1.9), squeeze=False
    )
    for k, (ax, column) in enumerate(zip(axes[0], columns, strict=True)):
        data = [values.filter(pl.col("bot") == b)[column].drop_nulls().to_numpy() for b in bots]
        ax.boxplot(
            data,
            orientation="horizontal",
            whis=(10, 90),
            showfliers=False,
            showmeans=True,
            widths=0.55,
            patch_artist=True,
            boxprops={"facecolor": PALETTE[k], "alpha": 0.6},
            medianprops={"color": "black"},
            meanprops={"marker": "D", "markerfacecolor": "white", "markeredgecolor": "black", "markersize": 5},
        )
        ax.set_yticks(np.arange(1, len(bots) + 1), [f"{b} (n={len(d):,})" for b, d in zip(bots, data, strict=True)])
        ax.invert_yaxis()
        _integer_ticks(ax.xaxis, np.concatenate(data) if data else None)  # trophies are won whole
        ax.set_xlabel(column.replace("_", " ") + " at the end (per player)")
        ax.set_title(column.replace("_", " "), fontsize=10)
        if k:
            ax.tick_params(axis="y", labelleft=False)
    fig.suptitle("Distance and trophies by bot (box: quartiles; whiskers: 10th-90th percentile; diamond: mean)")
    return _save(fig, path)


def _driver_panels(cards: pl.DataFrame, ncols: int = 2):
    """One panel per driver (the catalog's order), their cards in the table's order."""
    drivers = list(dict.fromkeys(cards["driver"].to_list()))
    nrows = -(-len(drivers) // ncols)
    most = max((cards.filter(pl.col("driver") == d).height for d in drivers), default=1)
    # two panels a row across the page's width: its cards' names at SMALL still fit beside the bars
    fig, axes = plt.subplots(
        nrows, ncols, figsize=(min(PAGE_WIDTH, 5.2 * ncols), (0.3 * most + 1.0) * nrows + 0.7), squeeze=False
    )
    for j in range(len(drivers), nrows * ncols):
        axes[j // ncols][j % ncols].set_visible(False)
    return fig, [(axes[i // ncols][i % ncols], d, cards.filter(pl.col("driver") == d)) for i, d in enumerate(drivers)]


def _never_held(ax, data: pl.DataFrame) -> None:
    """Say so in a driver's panel when no player drafted it (its cards have no numbers)."""
    if "n_held" in data.columns and int(data["n_held"].sum()) == 0:
        ax.text(0.5, 0.5, "never drafted", transform=ax.transAxes, ha="center", va="center", color="grey")


def _card_label(row: dict) -> str:
    return f"{row['name']} ({row['type']}{', x' + str(row['count']) if row['count'] > 1 else ''})"


def driver_card_plays(cards: pl.DataFrame, path: Path) -> Path:
    """Shuffle Grand Prix: plays per game of each ability card, one panel per driver."""
    fig, panels = _driver_panels(cards)
    top = float(np.nanmax(cards["plays_per_game"].to_numpy())) if cards.height else 1.0
    for ax, driver, data in panels:
        y = np.arange(data.height)
        values = data["plays_per_game"].to_numpy()
        ax.barh(y, values, color=PALETTE[0], alpha=0.85)
        for yi, v in zip(y, values, strict=True):
            ax.text(v, yi, f" {v:.2f}", va="center", ha="left", fontsize=SMALL)
        ax.set_yticks(y, [_card_label(r) for r in data.iter_rows(named=True)], fontsize=SMALL)
        ax.set_ylim(data.height - 0.5, -0.5)
        ax.set_xlim(0, max(top * 1.22, 0.1))
        ax.tick_params(axis="x", labelsize=SMALL)
        ax.set_title(driver, fontsize=SMALL + 2)
        _never_held(ax, data)
    fig.suptitle("Ability cards: plays per game (all players together)")
    return _save(fig, path)


def driver_card_added(cards: pl.DataFrame, path: Path) -> Path:
    """Shuffle Grand Prix: each ability card's win rate added when played, among
    the players who held it, in points with 95% intervals; one panel per driver."""
    fig, panels = _driver_panels(cards)
    low = np.nanmin(cards["added_low_played"].to_numpy()) * 100 if cards.height else -10
    high = np.nanmax(cards["added_high_played"].to_numpy()) * 100 if cards.height else 10
    for ax, driver, data in panels:
        part = data.select(
            pl.col("added_played").alias("added"),
            pl.col("added_low_played").alias("ci_low"),
            pl.col("added_high_played").alias("ci_high"),
            pl.col("significant_played").alias("significant"),
        )
        y = _interval_dots(ax, part, "added")
        ax.set_yticks(y, [_card_label(r) for r in data.iter_rows(named=True)], fontsize=SMALL)
        ax.set_ylim(data.height - 0.5, -0.5)
        if np.isfinite(low) and np.isfinite(high):
            ax.set_xlim(low - 2, high + 2)
        ax.tick_params(axis="x", labelsize=SMALL)
        ax.set_title(driver, fontsize=SMALL + 2)
        _never_held(ax, data)
    fig.supxlabel(
        "win rate of its holders who played it minus those who did not, points (95%; orange: significant)",
        fontsize=SMALL + 2,
    )
    fig.suptitle("Ability cards: win rate added when played, among the players who held it")
    return _save(fig, path)


def learning_curve(curve: pl.DataFrame, path: Path, bot: str, start: float | None = None) -> Path:
    """A tune's rounds: the search's centre (all of each round's games: the
    honest curve), the round's best survivor (picked on those games: biased
    up) and the median candidate on the round's first chunk, with intervals."""
    fig, ax = plt.subplots(figsize=(7.5, 4.2))
    x = curve["round"].to_numpy() + 1
    ax.fill_between(x, curve["centre_low"].to_numpy(), curve["centre_high"].to_numpy(), color=PALETTE[0], alpha=0.2)
    ax.plot(x, curve["centre"].to_numpy(), marker="o", ms=3, color=PALETTE[0], label="centre of the search (95%)")
    ax.plot(x, curve["best"].to_numpy(), ls="--", color=PALETTE[2], label="round's best survivor (picked: biased up)")
    ax.plot(x, curve["median"].to_numpy(), ls=":", color=PALETTE[7], label="median candidate, first chunk")
    if start is not None:
        ax.axhline(start, color=PALETTE[3], lw=1.2, label=f"starting profile, held out ({start:.1%})")
    ax.yaxis.set_major_formatter(matplotlib.ticker.PercentFormatter(1.0, decimals=0))
    ax.xaxis.set_major_locator(matplotlib.ticker.MaxNLocator(integer=True))
    ax.set_xlabel("round")
    ax.set_ylabel(f"win rate of {bot}'s seat")
    ax.set_title(f"Tuning {bot}: win rate by round")
    ax.legend(fontsize=SMALL, loc="lower right")
    return _save(fig, path)


def power_win_rates(powers: pl.DataFrame, path: Path) -> Path:
    """Downforce: win rate of the players by the power card they kept
    (analysis.cars.power_win_rates), with 95% Wilson intervals and the fair share."""
    fig, ax = plt.subplots(figsize=(7, 0.6 * len(powers) + 1.8))
    order = powers.sort("win_rate", descending=True)
    labels = [f"{p} (n={n:,})" for p, n in zip(order["power"], order["kept"], strict=True)]
    _rate_bars(
        ax, labels, order["win_rate"].to_numpy(), order["ci_low"].to_numpy(), order["ci_high"].to_numpy(), PALETTE[4]
    )
    fair = float(order["fair"].mean()) if len(order) else float("nan")
    if np.isfinite(fair):
        ax.axvline(fair, color=PALETTE[3], ls="--", lw=1.5, label=f"fair share {fair:.0%}")
        ax.legend(loc="lower right")
    ax.set_xlabel("win rate of the players who kept it (bars: 95% interval)")
    ax.set_title("Win rate by power card kept")
    return _save(fig, path)


def fit_progress(rounds: list[dict], path: Path) -> Path:
    """balance fit: the centre's objective and how far it misses the aim, per round, against the games spent."""
    fig, ax = plt.subplots(figsize=(7, 4))
    games = [r["games"] for r in rounds]
    ax.plot(games, [r["centre_cost"] for r in rounds], marker="o", label="objective (aim missed + change penalty)")
    ax.plot(games, [r["centre_miss"] for r in rounds], marker="s", ls="--", label="aim missed by (points)")
    checked = [(r["games"], r["check_miss"]) for r in rounds if "check_miss" in r]
    if checked:
        ax.plot(
            *zip(*checked, strict=True), ls="", marker="D", color=PALETTE[3], label="targets missed on a fresh seed"
        )
    ax.set_xlabel("games played by the search")
    ax.xaxis.set_major_formatter(matplotlib.ticker.FuncFormatter(lambda v, _: f"{v:,.0f}"))
    ax.set_ylabel("points")
    ax.set_title("balance fit: the search's centre, round by round")
    ax.legend(fontsize=SMALL)
    return _save(fig, path)


def fit_targets(rows: pl.DataFrame, path: Path) -> Path:
    """balance fit: each figure today and at the proposal (held-out seeds, 95%
    intervals) against its target's band, one panel per unit; `rows` as
    fit.output.target_rows gives them (the figures worth showing)."""
    units = list(dict.fromkeys(rows["unit"].to_list()))
    heights = [rows.filter(pl.col("unit") == u).height for u in units]
    fig, axes = plt.subplots(
        len(units),
        1,
        figsize=(7.5, 0.42 * sum(heights) + 1.6 * len(units)),
        squeeze=False,
        gridspec_kw={"height_ratios": heights},
    )
    for ax, unit in zip(axes[:, 0], units, strict=True):
        data = rows.filter(pl.col("unit") == unit)
        y = np.arange(data.height)[::-1]
        for i, row in zip(y, data.iter_rows(named=True), strict=True):
            ax.fill_betweenx([i - 0.4, i + 0.4], row["band_low"], row["band_high"], color="0.9", lw=0)
        for shift, (who, colour, marker) in zip(
            (0.15, -0.15), (("today", "0.45", "o"), ("proposal", PALETTE[0], "D")), strict=True
        ):
            value = data[who].to_numpy()
            err = [value - data[f"{who}_low"].to_numpy(), data[f"{who}_high"].to_numpy() - value]
            ax.errorbar(value, y + shift, xerr=err, ls="", marker=marker, color=colour, capsize=2, label=who)
        labels = [f if f == t else f"{f} ({t})" for f, t in zip(data["figure"], data["target"], strict=True)]
        ax.set_yticks(y, labels, fontsize=SMALL)
        ax.set_ylim(-0.7, data.height - 0.3)
        ax.set_xlabel(
            "points (grey band: the target)" if unit == "points" else f"{unit} (grey band: the target)",
            fontsize=SMALL + 1,
        )
    # once, outside the panel: inside, "best" may still sit on a target's band
    axes[0, 0].legend(fontsize=SMALL, loc="upper left", bbox_to_anchor=(1.01, 1.0), borderaxespad=0)
    axes[0, 0].set_title("Targets today and at the proposal\n(held-out seeds, 95% intervals)", fontsize=SMALL + 2)
    return _save(fig, path)


def fit_response(responses: list[dict], path: Path) -> Path:
    """balance fit: an item's strength against the value of its free number, one
    panel a number: the probes (the search's games, 95% intervals), today's
    and the proposal's figures on the held-out games, and the target's band."""
    fig, axes = plt.subplots(1, len(responses), figsize=(6.2 * len(responses), 4.2), squeeze=False)
    for ax, r in zip(axes[0], responses, strict=True):
        low, high = r["band"]
        ax.axhspan(low, high, color="0.88", lw=0, label=f"target band ({low:+g} to {high:+g})")
        values = [v for v, _ in r["probes"]]
        figures = [f for _, f in r["probes"]]
        y = np.array([f.value for f in figures])
        err = [y - [f.low for f in figures], [f.high for f in figures] - y]
        ax.errorbar(values, y, yerr=err, marker="o", color="0.35", capsize=3, label="probed (search games)")
        for (who, (value, f)), (colour, marker, shift) in zip(
            r["held"].items(), ((PALETTE[1], "s", -0.06), (PALETTE[0], "D", 0.06)), strict=False
        ):
            span = (max(values) - min(values)) or 1
            ax.errorbar(
                [value + shift * span],
                [f.value],
                yerr=[[f.value - f.low], [f.high - f.value]],
                ls="",
                marker=marker,
                color=colour,
                capsize=3,
                label=f"{who}, held out ({value:g}: {f.value:+.1f})",
            )
        if all(float(v).is_integer() for v in values):
            ax.xaxis.set_major_locator(matplotlib.ticker.MaxNLocator(integer=True))
        ax.set_xlabel(r["path"], fontsize=SMALL + 1)
        ax.set_ylabel(f"{r['item']}: strength (points of win rate)")
        ax.axhline(0, color="0.6", lw=0.8)
        ax.legend(fontsize=SMALL)
        ax.set_title(f"{r['item']}: strength by value", fontsize=SMALL + 2)
    return _save(fig, path)


def season_points(table: pl.DataFrame, path: Path) -> Path:
    """Heat Championship seasons: each bot's mean points race by race (analysis.seasons.points_by_race)."""
    races = table.filter(pl.col("race") != "season").with_columns(pl.col("race").cast(pl.Int32)).sort("race")
    fig, ax = plt.subplots(figsize=(7, 4))
    for i, bot in enumerate(sorted(races["bot"].unique().to_list())):
        part = races.filter(pl.col("bot") == bot)
        x, mean = part["race"].to_numpy(), part["mean_points"].to_numpy()
        err = np.vstack([mean - part["ci_low"].to_numpy(), part["ci_high"].to_numpy() - mean])
        ax.errorbar(x, mean, yerr=err, marker="o", ms=4, capsize=3, color=PALETTE[i % len(PALETTE)], label=bot)
    ax.set_xticks(sorted(races["race"].unique().to_list()))
    ax.set_xlabel("race of the season")
    ax.set_ylabel("mean points per car (bars: 95% interval)")
    ax.set_title("Points race by race, by bot")
    ax.legend(fontsize=8)
    return _save(fig, path)
