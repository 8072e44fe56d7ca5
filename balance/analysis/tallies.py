"""How each bot races: per-bot means of per-player counts from the players
table (Heat's Heat paid, spin-outs, slipstreams...; Horsepower's Pit Stops,
coins, purchases...; Downforce's money and where it came from; Shuffle Grand
Prix's distance, trophies and tire damage) with their 95%
intervals and n. Generic over the columns:
any numeric players column can be tallied."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import polars as pl

from .arguments import check_names, check_run
from .stats import Z95
from .winrate import Run, as_run

# The columns the report tallies, by game, in the order shown. Heat's Legends
# are included: their zeros (no Heat, no slipstream) are part of the picture.
HEAT = ("heat_paid", "corner_heat", "spin_outs", "boosts", "slipstreams", "cooled", "overheats", "finish_round")
HORSEPOWER = ("pit_stops", "wiped_out", "coins_spent", "cards_bought", "cards_scrapped")
# Downforce: money ($M) = prizes + bets_won - bids_paid; the cars bought; speed cards played
DOWNFORCE = ("money", "prizes", "bets_won", "bids_paid", "n_cars", "cards_played")
MONEY = ("prizes", "bets_won", "bids_paid", "money")  # Downforce's money breakdown (money_breakdown)
DOWNFORCE_COMPARED = ("money", "prizes", "bets_won", "bids_paid")  # balance compare's paired rows by bot
# Shuffle Grand Prix: distance (the score), trophies (the tie-break), tire damage and what it leads to
SHUFFLE_GP = (
    "distance",
    "trophies",
    "damage_dealt",
    "damage_taken",
    "spin_outs",
    "spin_outs_caused",
    "cancels",
    "pit_stops",
    "traps_sprung",
    "distance_lost",
)
SHUFFLE_GP_COMPARED = ("distance", "trophies", "damage_dealt", "damage_taken", "spin_outs")
GAMES = (HEAT, HORSEPOWER, DOWNFORCE, SHUFFLE_GP)


def race_columns(run: Run | str | Path) -> list[str]:
    """The columns of HEAT, HORSEPOWER, DOWNFORCE or SHUFFLE_GP this run's
    players table has, in order: those of the game with the most of its columns
    there (whichever game wrote it; the report never asks the engines). The
    games share a few names (Shuffle Grand Prix's spin_outs and pit_stops), so
    the first game with any would not do."""
    names = set(as_run(run)["players"].collect_schema().names())
    best: list[str] = []
    for columns in GAMES:
        present = [c for c in columns if c in names]
        if len(present) > len(best):
            best = present
    return best


def compared_columns(run: Run | str | Path) -> list[str]:
    """The tallies `balance compare` pairs by bot: Heat's and Downforce's money
    as before, Shuffle Grand Prix's SHUFFLE_GP_COMPARED where its columns are
    there (Heat's spin_outs is one of its names too); Horsepower's none."""
    names = set(as_run(run)["players"].collect_schema().names())
    if set(SHUFFLE_GP) <= names:
        return [c for c in SHUFFLE_GP_COMPARED if c in names]
    return [c for c in (*HEAT, *DOWNFORCE_COMPARED) if c in names]


def means(run: Run | str | Path, columns: list[str] | tuple[str, ...], by: str = "bot") -> pl.DataFrame:
    """One row per `by` value and column ("measure"): n (non-null values), mean,
    sd and the normal 95% interval of the mean (mean ± 1.96 sd/√n; NaN when n < 2;
    exactly the mean when every value is the same, as for a Legend's zeros).
    The interval's low end stops at 0 where no value of the measure is below 0
    (a count, a price: a mean of them cannot be negative, whereas Downforce's
    money can), so a rare event's interval does not read "-0.0002 to 0.01".
    Rows by `by`, then in the order of `columns`."""
    check_run(run, "means")
    check_names(columns, "means", "columns", "players columns")
    players = as_run(run)["players"]
    # which measures never go below 0, over the whole run (not per group: a
    # group of zeros is no evidence that the measure cannot be negative)
    floors = players.select(pl.col(c).cast(pl.Float64).min() for c in columns).collect().row(0)
    aggs = []
    for i, column in enumerate(columns):
        v = pl.col(column).cast(pl.Float64)
        aggs += [v.count().alias(f"n{i}"), v.mean().alias(f"mean{i}"), v.std().alias(f"sd{i}")]
    wide = players.group_by(by).agg(aggs).sort(by).collect()
    parts = [
        wide.select(
            by,
            pl.lit(column).alias("measure"),
            pl.lit(i).alias("order"),
            pl.col(f"n{i}").cast(pl.Int64).alias("n"),
            pl.col(f"mean{i}").alias("mean"),
            pl.col(f"sd{i}").alias("sd"),
            pl.lit(floors[i] is not None and floors[i] >= 0).alias("nonnegative"),
        )
        for i, column in enumerate(columns)
    ]
    table = pl.concat(parts).sort(by, "order").drop("order")
    with np.errstate(invalid="ignore", divide="ignore"):
        half = Z95 * table["sd"].fill_null(np.nan).to_numpy() / np.sqrt(table["n"].to_numpy())
    mean = table["mean"].fill_null(np.nan).to_numpy()
    low = np.where(table["nonnegative"].to_numpy(), np.maximum(mean - half, 0), mean - half)
    return table.drop("nonnegative").with_columns(pl.Series("ci_low", low), pl.Series("ci_high", mean + half))


def number(x: float) -> str:
    """Three significant figures, but whole numbers from 1,000 on (Shuffle Grand Prix's distance: 1,600, not 1.6e+03)."""
    return f"{x:,.0f}" if abs(x) >= 1000 else f"{x:.3g}"


def wide(table: pl.DataFrame, by: str = "bot") -> pl.DataFrame:
    """`means` as text, one row per `by` value: its players (n) and, per measure,
    "mean (low-high)" (with "n=" where that measure has fewer values)."""
    measures = list(dict.fromkeys(table["measure"].to_list()))
    rows = []
    for (key,), group in table.group_by([by], maintain_order=True):
        n = int(group["n"].max())
        cells = {}
        for r in group.iter_rows(named=True):
            if r["mean"] is None or not np.isfinite(r["mean"]):
                cells[r["measure"]] = ""
                continue
            text = number(r["mean"])
            if np.isfinite(r["ci_low"]) and r["ci_high"] > r["ci_low"]:
                text += f" ({number(r['ci_low'])}-{number(r['ci_high'])})"
            cells[r["measure"]] = text + (f", n={r['n']:,}" if r["n"] < n else "")
        rows.append([str(key), n, *(cells.get(m, "") for m in measures)])
    schema = {by: pl.String, "n": pl.Int64} | {m: pl.String for m in measures}
    return pl.DataFrame(rows, schema=schema, orient="row")


def money_breakdown(table: pl.DataFrame, by: str = "bot") -> pl.DataFrame | None:
    """From `means` over MONEY: one row per `by` value with its players (n) and
    the mean prizes, bets_won, bids_paid and money (= prizes + bets_won -
    bids_paid, per player and so in the means too). None without those measures."""
    if not set(MONEY) <= set(table["measure"].to_list()):
        return None
    return (
        table.filter(pl.col("measure").is_in(MONEY))
        .pivot(on="measure", index=by, values="mean")
        .join(table.group_by(by).agg(pl.col("n").max()), on=by)
        .select(by, "n", *MONEY)
        .sort(by)
    )
