"""Heat's corners: where on the track cars spin out and pay Heat.

From the games table's per-corner columns (`corner1_spin_outs` ...
`cornerN_spin_outs`, `corner1_heat` ... `cornerN_heat`: all laps and cars of
a race, corners in driving order from the start line) and, for where each
corner lies and its speed limit, the manifest's `catalog.tracks` (the track
raced; runs made before it was recorded have none, and their corners are
"Corner k" without a place or limit). A run without those columns (every
game but Heat) has no corner table.
"""

from __future__ import annotations

import re
from pathlib import Path

import numpy as np
import polars as pl

from ..logs import load_manifest
from .arguments import check_mapping, check_run, check_table
from .stats import Z95, wilson
from .winrate import Run, as_run

_SPINS = re.compile(r"^corner(\d+)_spin_outs$")

COLUMNS = [
    "track",
    "corner",
    "space",
    "speed_limit",
    "lap_spaces",
    "races",
    "spin_outs_per_race",
    "spin_outs_low",
    "spin_outs_high",
    "spin_out_races_pct",
    "spin_out_races_low_pct",
    "spin_out_races_high_pct",
    "heat_per_race",
    "heat_low",
    "heat_high",
    "spin_outs_total",
    "heat_total",
]

# the report page's columns (the CSV has them all)
SHOWN = [c for c in COLUMNS if c not in ("track", "lap_spaces", "spin_outs_total", "heat_total")]


def corner_numbers(run: Run | str | Path) -> list[int]:
    """The corners (1..N) the games table has both columns of, in order."""
    names = as_run(run)["games"].collect_schema().names()
    found = sorted(int(m[1]) for m in map(_SPINS.match, names) if m)
    return [k for k in found if f"corner{k}_heat" in names]


def track_layouts(catalog: dict) -> dict[str, dict]:
    """Track id -> its layout ({"spaces", "corners": [{"at", "limit"}, ...]}) from a manifest's catalog."""
    return {t["id"]: t for t in catalog.get("tracks", []) if isinstance(t, dict) and "id" in t}


def _layout_frame(layouts: dict[str, dict], tracks: list[str | None], corners: int) -> pl.DataFrame:
    """track, corner, space, speed_limit, lap_spaces for the tracks raced whose
    layout is known and has as many corners as the logs (the sole layout
    stands for a games table without a track column)."""
    rows = []
    for track in tracks:
        layout = layouts.get(track) if track is not None else None
        if layout is None and track is None and len(layouts) == 1:
            layout = next(iter(layouts.values()))
        listed = (layout or {}).get("corners") or []
        if len(listed) != corners:
            continue
        for k, c in enumerate(listed, start=1):
            rows.append((track, k, int(c["at"]), int(c["limit"]), int(layout["spaces"])))
    schema = {
        "track": pl.String,
        "corner": pl.Int64,
        "space": pl.Int64,
        "speed_limit": pl.Int64,
        "lap_spaces": pl.Int64,
    }
    return pl.DataFrame(rows, schema=schema, orient="row")


def corner_table(run: Run | str | Path, catalog: dict | None = None) -> pl.DataFrame | None:
    """One row per corner (and track, should a run mix tracks): its place on
    the lap (`space`, the corner line's position counted from the start/finish
    line) and `speed_limit` where the catalog records the layout (else null),
    the lap length, the races, the mean spin-outs per race with a 95% normal
    interval (from the spread over races), the share of races with at least
    one spin-out there in percent with its Wilson interval, the mean Heat paid
    per race with its interval (both normal intervals stop at 0: counts), and
    the totals. `catalog`: the manifest's
    (read from the run directory when `run` is a path). None for a run
    without corner columns."""
    check_run(run, "corner_table")
    check_mapping(catalog, "corner_table", "catalog", 'the manifest\'s catalog (manifest["catalog"])')
    if catalog is None and not isinstance(run, dict):
        catalog = load_manifest(run).get("catalog", {})
    run = as_run(run)
    numbers = corner_numbers(run)
    if not numbers:
        return None
    has_track = "track" in run["games"].collect_schema().names()
    track = pl.col("track").cast(pl.String) if has_track else pl.lit(None, pl.String).alias("track")
    long = pl.concat(
        [
            run["games"].select(
                track,
                pl.lit(k, pl.Int64).alias("corner"),
                pl.col(f"corner{k}_spin_outs").cast(pl.Int64).alias("spins"),
                pl.col(f"corner{k}_heat").cast(pl.Int64).alias("heat"),
            )
            for k in numbers
        ]
    )
    spins, heat = pl.col("spins"), pl.col("heat")
    table = (
        long.filter(spins.is_not_null() & heat.is_not_null())  # a corner the track raced does not have
        .group_by("track", "corner")
        .agg(
            pl.len().alias("races"),
            spins.cast(pl.Float64).mean().alias("spin_outs_per_race"),
            spins.cast(pl.Float64).std().alias("spins_sd"),
            (spins > 0).sum().alias("spin_out_races"),
            heat.cast(pl.Float64).mean().alias("heat_per_race"),
            heat.cast(pl.Float64).std().alias("heat_sd"),
            spins.sum().alias("spin_outs_total"),
            heat.sum().alias("heat_total"),
        )
        .sort("track", "corner", nulls_last=True)
        .collect()
    )
    n = table["races"].to_numpy().astype(float)
    with np.errstate(invalid="ignore", divide="ignore"):
        half_spins = Z95 * table["spins_sd"].fill_null(np.nan).to_numpy() / np.sqrt(n)
        half_heat = Z95 * table["heat_sd"].fill_null(np.nan).to_numpy() / np.sqrt(n)
    low, high = wilson(table["spin_out_races"].to_numpy(), table["races"].to_numpy())
    table = table.with_columns(
        (pl.col("spin_outs_per_race") - pl.Series(half_spins)).clip(lower_bound=0).alias("spin_outs_low"),
        (pl.col("spin_outs_per_race") + pl.Series(half_spins)).alias("spin_outs_high"),
        (100 * pl.col("spin_out_races") / pl.col("races")).alias("spin_out_races_pct"),
        pl.Series("spin_out_races_low_pct", 100 * low),
        pl.Series("spin_out_races_high_pct", 100 * high),
        (pl.col("heat_per_race") - pl.Series(half_heat)).clip(lower_bound=0).alias("heat_low"),
        (pl.col("heat_per_race") + pl.Series(half_heat)).alias("heat_high"),
    )
    layout = _layout_frame(track_layouts(catalog or {}), table["track"].unique().to_list(), len(numbers))
    table = table.join(layout, on=["track", "corner"], how="left", nulls_equal=True)
    return table.select(COLUMNS)


def _corner_name(row: dict) -> str:
    where = []
    if row["speed_limit"] is not None:
        where.append(f"limit {row['speed_limit']}")
    if row["space"] is not None:
        where.append(f"space {row['space']}")
    return f"Corner {row['corner']}" + (f" ({', '.join(where)})" if where else "")


def corner_lines(table: pl.DataFrame | None) -> list[str]:
    """The findings in words, one line per track: the corner where cars spin
    out most (per race, with the share of races) and the one that costs the
    most Heat, with their intervals and n."""
    check_table(table, "corner_lines", "table", "a corner_table", optional=True)
    if table is None or table.is_empty():
        return []
    out = []
    tracks = table["track"].unique(maintain_order=True).to_list()
    for track in tracks:
        part = table.filter(pl.col("track").eq_missing(track))
        spins = part.sort(["spin_outs_per_race", "corner"], descending=[True, False]).row(0, named=True)
        heat = part.sort(["heat_per_race", "corner"], descending=[True, False]).row(0, named=True)
        on = f"On {track}, " if len(tracks) > 1 and track is not None else ""
        name = _corner_name(spins)
        if spins["spin_outs_per_race"] > 0:
            first = (
                f"{on}{name[0].lower() + name[1:] if on else name} is where cars spin out most: "
                f"{spins['spin_outs_per_race']:.2f} spin-outs a race "
                f"({spins['spin_outs_low']:.2f}-{spins['spin_outs_high']:.2f}), in "
                f"{spins['spin_out_races_pct']:.1f}% of races "
                f"({spins['spin_out_races_low_pct']:.1f}-{spins['spin_out_races_high_pct']:.1f}%)"
            )
        else:
            first = f"{on}{'c' if on else 'C'}ars never spin out at any corner"
        out.append(
            f"{first}; {_corner_name(heat)} costs the most Heat: {heat['heat_per_race']:.2f} a race "
            f"({heat['heat_low']:.2f}-{heat['heat_high']:.2f}), n={int(spins['races']):,} races."
        )
    return out
