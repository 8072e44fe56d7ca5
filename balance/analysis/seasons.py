"""Heat Championship seasons (a run of `rules.season`; docs/logs.md): each
bot's points race by race, and the points each final standing takes, from
the players table's `raceN_place`, `raceN_points`, `raceN_out` and `points`.
Means with their 95% intervals (normal, from the spread over cars) and n."""

from __future__ import annotations

from pathlib import Path

import polars as pl

from .stats import Z95
from .winrate import Run, as_run


def season_races(run: Run | str | Path) -> int:
    """The races of a run's seasons (0: a run of single races)."""
    names = as_run(run)["players"].collect_schema().names()
    return sum(1 for c in names if c.startswith("race") and c.endswith("_points") and c[4:-7].isdigit())


def _mean(column: str) -> list[pl.Expr]:
    return [
        pl.col(column).mean().alias("mean_points"),
        (pl.col(column).std() / pl.len().sqrt() * Z95).alias("half"),
    ]


def _interval(table: pl.DataFrame) -> pl.DataFrame:
    return table.with_columns(
        (pl.col("mean_points") - pl.col("half").fill_null(0.0)).alias("ci_low"),
        (pl.col("mean_points") + pl.col("half").fill_null(0.0)).alias("ci_high"),
    ).drop("half")


def points_by_race(run: Run | str | Path) -> pl.DataFrame | None:
    """By bot and race (1..R, then `season`: the whole season): cars, mean points
    and interval, the share of races won (place 1) and of races the car was out
    of (an Event's spin-out); None for a run of single races."""
    players = as_run(run)["players"]
    races = season_races({"players": players, "games": as_run(run)["games"]})
    if not races:
        return None
    parts = []
    for r in range(1, races + 1):
        parts.append(
            players.group_by("bot")
            .agg(
                pl.len().alias("cars"),
                *_mean(f"race{r}_points"),
                (pl.col(f"race{r}_place") == 1).mean().alias("race_win_share"),
                pl.col(f"race{r}_out").mean().alias("out_share"),
            )
            .with_columns(pl.lit(str(r)).alias("race"))
        )
    parts.append(
        players.group_by("bot")
        .agg(
            pl.len().alias("cars"),
            *_mean("points"),
            pl.col("won").mean().alias("race_win_share"),
            pl.lit(None, pl.Float64).alias("out_share"),
        )
        .with_columns(pl.lit("season").alias("race"))
    )
    table = pl.concat([p.collect() for p in parts], how="vertical_relaxed")
    table = _interval(table).select(
        "race", "bot", "cars", "mean_points", "ci_low", "ci_high", "race_win_share", "out_share"
    )
    return table.sort("race", "bot")


def points_by_standing(run: Run | str | Path) -> pl.DataFrame | None:
    """By final standing (1 = champion): cars, mean season points and interval,
    the fewest and the most; None for a run of single races."""
    run = as_run(run)
    if not season_races(run):
        return None
    table = (
        run["players"]
        .group_by("finish_position")
        .agg(
            pl.len().alias("cars"),
            *_mean("points"),
            pl.col("points").min().alias("fewest"),
            pl.col("points").max().alias("most"),
        )
        .sort("finish_position")
        .collect()
    )
    return (
        _interval(table)
        .rename({"finish_position": "standing"})
        .select("standing", "cars", "mean_points", "ci_low", "ci_high", "fewest", "most")
    )
