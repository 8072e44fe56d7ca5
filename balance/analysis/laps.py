"""How long things take: turns per lap (by lap, seat, bot, Pit Stop or Race
Through before it) and game length in rounds. A run without lap columns
(Downforce has no laps) gets empty lap tables with the usual columns."""

from __future__ import annotations

from pathlib import Path

import polars as pl

from .arguments import check_names
from .winrate import Run, as_run

NO_PIT = "previous lap"  # `after` for laps after the first in a game without Pit Stops (Heat)


def has_pit_stops(run: Run | str | Path) -> bool:
    """Whether the players table records Pit Stops (`pit_after_lap*` columns: Horsepower)."""
    return any(c.startswith("pit_after_lap") for c in as_run(run)["players"].collect_schema().names())


def lap_numbers(run: Run | str | Path) -> list[int]:
    """The laps the players table records (`lap<k>_turns` columns), in order; none in Downforce."""
    names = as_run(run)["players"].collect_schema().names()
    return sorted(int(c[3:-6]) for c in names if c.startswith("lap") and c.endswith("_turns") and c[3:-6].isdigit())


LAP_SCHEMA = {"game_id": pl.Int64, "seat": pl.Int8, "bot": pl.String, "lap": pl.Int8, "turns": pl.Int16}


def lap_times(run: Run | str | Path) -> pl.LazyFrame:
    """One row per completed lap: game_id, seat, bot, lap, turns, and `after`
    (for laps after the first: "pit stop" or "race through" at the end of the
    lap before, or NO_PIT where the game has no Pit Stops; "start" for lap 1).
    No rows (but these columns) where the run has no laps."""
    run = as_run(run)
    players = run["players"]
    laps = lap_numbers(run)
    if not laps:
        return pl.LazyFrame(schema=LAP_SCHEMA | {"after": pl.String})
    pits = has_pit_stops(run)
    parts = []
    for lap in laps:
        after = (
            pl.lit("start")
            if lap == 1
            else pl.when(pl.col(f"pit_after_lap{lap - 1}")).then(pl.lit("pit stop")).otherwise(pl.lit("race through"))
            if pits
            else pl.lit(NO_PIT)
        )
        parts.append(
            players.filter(pl.col(f"lap{lap}_turns").is_not_null()).select(
                "game_id",
                "seat",
                "bot",
                pl.lit(lap, pl.Int8).alias("lap"),
                pl.col(f"lap{lap}_turns").cast(pl.Int16).alias("turns"),
                after.alias("after"),
            )
        )
    return pl.concat(parts)


def summarise(frame: pl.LazyFrame, keys: list[str], value: str = "turns") -> pl.DataFrame:
    """n, mean, median, p10 and p90 of `value` per group."""
    v = pl.col(value)
    return (
        frame.group_by(keys)
        .agg(
            pl.len().alias("n"),
            v.mean().alias("mean"),
            v.median().alias("median"),
            v.quantile(0.1, interpolation="lower").alias("p10"),
            v.quantile(0.9, interpolation="higher").alias("p90"),
        )
        .sort(keys)
        .collect()
    )


def lap_summary(run: Run | str | Path, by: tuple[str, ...] = ("lap",)) -> pl.DataFrame:
    """Turns per lap summarised by `by` (any of lap, seat, bot, after)."""
    check_names(by, "lap_summary", "by", "column names (lap, seat, bot, after)")
    return summarise(lap_times(run), list(by))


def lap_distribution(run: Run | str | Path) -> pl.DataFrame:
    """The full distribution: laps completed in exactly `turns` turns, by lap."""
    return lap_times(run).group_by("lap", "turns").agg(pl.len().alias("laps")).sort("lap", "turns").collect()


def has_winner_round(run: Run | str | Path) -> bool:
    """Whether the games table records the round the winner crossed the line
    (`winner_round`: Heat, whose race goes on after the winner, to the last car
    home or the round cap)."""
    return "winner_round" in as_run(run)["games"].collect_schema().names()


def game_length(run: Run | str | Path) -> pl.DataFrame:
    """Rounds per finished game (n, mean, median, p10, p90) and the share of unfinished games.

    Where the games table has `winner_round` (Heat): n, mean, median, p10 and
    p90 of the round the winner crossed the line (every race with a winner,
    those cut by the round cap too); last_n, last_median, last_p10 and last_p90
    of `rounds` in the races every car finished (the round the last car came
    home); the share and count of races cut by the round cap
    (`unfinished_share`, `unfinished_games`: not `finished`)."""
    games = as_run(run)["games"]
    unfinished = games.select((~pl.col("finished")).mean().alias("unfinished_share"), pl.len().alias("all_games"))
    if has_winner_round({"games": games}):
        won = summarise(
            games.filter(pl.col("winner_round").is_not_null()).with_columns(pl.lit("won").alias("games")),
            ["games"],
            "winner_round",
        )
        won = _one_row(won.drop("games"))
        last = _one_row(
            summarise(
                games.filter(pl.col("finished")).with_columns(pl.lit("finished").alias("games")), ["games"], "rounds"
            )
            .drop("games", "mean")
            .rename(lambda c: f"last_{c}")
        )
        cut = games.select((~pl.col("finished")).sum().cast(pl.Int64).alias("unfinished_games")).collect()
        return pl.concat([won, last, unfinished.collect(), cut], how="horizontal")
    summary = summarise(
        games.filter(pl.col("finished")).with_columns(pl.lit("finished").alias("games")), ["games"], "rounds"
    )
    return _one_row(summary.drop("games")).hstack(unfinished.collect())


def _one_row(summary: pl.DataFrame) -> pl.DataFrame:
    """A summary of one group as one row: nulls (n = 0) where the group is empty."""
    if summary.height:
        return summary
    return pl.DataFrame(
        [pl.Series(c, [0 if c == "n" or c.endswith("_n") else None], summary.schema[c]) for c in summary.columns]
    )


def length_distribution(run: Run | str | Path) -> pl.DataFrame:
    """Finished games by rounds played. Where the games table has
    `winner_round` (Heat): `games` counts the races whose winner crossed the
    line in that round (`rounds`), `last_home` the races every car finished
    whose last car came home in it."""
    games = as_run(run)["games"]
    if not has_winner_round({"games": games}):
        return games.filter(pl.col("finished")).group_by("rounds").agg(pl.len().alias("games")).sort("rounds").collect()
    won = (
        games.filter(pl.col("winner_round").is_not_null())
        .group_by(pl.col("winner_round").cast(pl.Int16).alias("rounds"))
        .agg(pl.len().cast(pl.UInt32).alias("games"))
    )
    last = (
        games.filter(pl.col("finished"))
        .group_by(pl.col("rounds").cast(pl.Int16))
        .agg(pl.len().cast(pl.UInt32).alias("last_home"))
    )
    table = won.join(last, on="rounds", how="full", coalesce=True).sort("rounds").collect()
    return table.with_columns(pl.col("games", "last_home").fill_null(0))
