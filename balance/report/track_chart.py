"""Heat's track chart: spin-outs and Heat paid at each corner, drawn where the
corners lie on the lap (analysis.corners.corner_table). Like the charts in
charts.py it takes the table and a path and returns the path written."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import polars as pl

from .charts import PAGE_WIDTH, PALETTE, SMALL, _integer_ticks, _save, plt

MEASURES = (
    ("spin_outs_per_race", "spin_outs_low", "spin_outs_high", "spin-outs per race", 3),
    ("heat_per_race", "heat_low", "heat_high", "Heat paid per race", 0),
)


def _positions(part: pl.DataFrame) -> tuple[np.ndarray, float, bool]:
    """Each corner's x (its space on the lap, or evenly spaced without a layout), the lap's length, laid out or not."""
    spaces = part["space"].to_numpy()
    laid_out = part["space"].null_count() == 0 and part["lap_spaces"].null_count() == 0
    if laid_out:
        return spaces.astype(float), float(part["lap_spaces"][0]), True
    return np.arange(1, part.height + 1, dtype=float), float(part.height + 1), False


def _bars(ax, x, width, mean, low, high, colour) -> None:
    ax.bar(x, mean, width=width, color=colour, alpha=0.85)
    below, above = np.nan_to_num(np.maximum(mean - low, 0)), np.nan_to_num(np.maximum(high - mean, 0))
    ax.errorbar(x, mean, yerr=[below, above], fmt="none", ecolor="black", capsize=3, lw=1)
    for xi, m, h in zip(x, mean, high, strict=True):
        ax.annotate(
            f"{m:.2f}", (xi, np.nanmax([m, h])), textcoords="offset points", xytext=(0, 2), ha="center", fontsize=SMALL
        )
    top = np.nanmax(np.concatenate([high, mean])) if len(mean) else 1.0
    ax.set_ylim(0, max(float(top) * 1.2, 0.1))


def track_corners(table: pl.DataFrame, path: Path) -> Path:
    """For each track of the table (one column of panels each): the mean
    spin-outs and Heat paid per race at each corner, bars with 95% intervals,
    above the lap drawn from the start/finish line (space 0) to its length,
    each corner at its place labelled with its speed limit. Without a layout
    the corners are spaced evenly."""
    tracks = table["track"].unique(maintain_order=True).to_list()
    fig, axes = plt.subplots(
        3,
        len(tracks),
        figsize=(max(8.5, min(PAGE_WIDTH, 5.2 * len(tracks))), 6.8),
        squeeze=False,
        gridspec_kw={"height_ratios": [3, 3, 1.3]},
    )
    for j, track in enumerate(tracks):
        part = table.filter(pl.col("track").eq_missing(track)).sort("corner")
        x, lap, laid_out = _positions(part)
        gaps = np.diff(np.sort(x))
        width = 0.6 * min(float(gaps.min()) if len(gaps) else lap, lap / 12)
        for i, (mean, low, high, label, colour) in enumerate(MEASURES):
            ax = axes[i][j]
            _bars(ax, x, width, *(part[c].fill_null(np.nan).to_numpy() for c in (mean, low, high)), PALETTE[colour])
            ax.set_xlim(-0.03 * lap, 1.03 * lap)
            ax.set_xticks(x, [f"C{k}" for k in part["corner"].to_list()])
            ax.set_ylabel(label, fontsize=9)
        where = f"{track}: " if track is not None else ""
        races = int(part["races"].max())
        axes[0][j].set_title(f"{where}n = {races:,} races, all laps and cars (bars: 95% intervals)", fontsize=10)
        _lap(axes[2][j], part, x, lap, laid_out)
    fig.suptitle("Spin-outs and Heat paid at each corner, per race")
    return _save(fig, path)


def _lap(ax, part: pl.DataFrame, x: np.ndarray, lap: float, laid_out: bool) -> None:
    """The lap as a line from the start/finish line to its length, the corners on it."""
    ax.plot([0, lap], [0, 0], color="#555555", lw=3, solid_capstyle="butt", zorder=1)
    for end in (0, lap):
        ax.plot([end, end], [-0.35, 0.35], color="black", lw=2, zorder=2)
    ax.text(0, 0.5, "start/finish", ha="left", va="bottom", fontsize=SMALL)
    ax.scatter(x, np.zeros_like(x), marker="v", s=70, color=PALETTE[3], zorder=3)
    limits = part["speed_limit"].to_list()
    last = -np.inf  # the previous label on the upper row: a corner close behind it takes the lower row
    for xi, k, limit in zip(x, part["corner"].to_list(), limits, strict=True):
        text = f"C{k}" + (f" (limit {limit})" if limit is not None else "")
        upper = xi - last > 0.125 * lap  # a label at SMALL spans about an eighth of a one-track lap
        last = xi if upper else last
        ax.text(xi, -0.45 if upper else -1.2, text, ha="center", va="top", fontsize=SMALL)
    ax.set_ylim(-2.0, 1.2)
    ax.set_yticks([])
    ax.set_xlim(-0.03 * lap, 1.03 * lap)
    ax.grid(False)
    for side in ("left", "right", "top"):
        ax.spines[side].set_visible(False)
    if laid_out:
        _integer_ticks(ax.xaxis)  # spaces on the track are whole
        ax.set_xlabel("position on the lap (spaces from the start/finish line)", fontsize=9)
    else:
        ax.set_xticks([])
        ax.set_xlabel("corners in driving order (the run did not record where they lie)", fontsize=9)
