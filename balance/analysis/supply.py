"""Shared supplies that can run out: Horsepower's Debris (rulebook 6.1). When
the supply is empty a lap completion or card that owes Debris gives none, so
Debris-giving effects lose their bite late in a game; a designer needs to
know how often that happened."""

from __future__ import annotations

from pathlib import Path

import polars as pl

from .winrate import Run, as_run, with_interval


def debris_supply(run: Run | str | Path) -> pl.DataFrame | None:
    """One row per player count: games, games where the supply ran out (0 left at
    the end) with its share and 95% interval (`win_rate` columns renamed
    `ran_out_*`), games with Debris owed but not given, and the Debris owed but
    not given per game. None where the logs do not track the supply."""
    games = as_run(run)["games"]
    if "debris_left" not in games.collect_schema().names():
        return None
    counts = (
        games.group_by("n_players")
        .agg(
            pl.len().alias("games"),
            (pl.col("debris_left") == 0).sum().alias("ran_out"),
            (pl.col("debris_short") > 0).sum().alias("games_short"),
            pl.col("debris_short").sum().alias("debris_not_given"),
        )
        .sort("n_players")
        .collect()
    )
    table = with_interval(counts, wins="ran_out", prefix="ran_out_")
    table = table.rename({"ran_out_win_rate": "ran_out_share"})
    return table.with_columns((pl.col("debris_not_given") / pl.col("games")).alias("not_given_per_game"))
