"""Cars bought at auction (Downforce): the price paid per car colour and per
power card, where cars finish by auction order (and by starting slot), the
bets placed on them. All from the games table's per-car columns
(`<colour>_owner`, `_price`, `_auction`, `_power`, `_start`, `_place`), the
players table and the cards table's `bet` events; a run without them (Heat,
Horsepower) has no colours and none of these tables."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import polars as pl

from .stats import Z95, wilson
from .winrate import Run, as_run, with_interval

FIELDS = ("owner", "price", "auction", "power", "start", "place")
PLACES = ("1st", "2nd", "3rd", "4th", "5th", "6th")
SPEED8 = "eight_"  # a bet names its car by the car's Speed-8 card, eight_<colour>


def colours(run: Run | str | Path) -> list[str]:
    """The car colours the games table has every per-car column of, in its order."""
    names = as_run(run)["games"].collect_schema().names()
    found = [c.removesuffix("_price") for c in names if c.endswith("_price")]
    return [c for c in found if all(f"{c}_{f}" in names for f in FIELDS)]


def cars(run: Run | str | Path) -> pl.LazyFrame:
    """One row per car and game: game_id, colour and the FIELDS (place null: stalled)."""
    run = as_run(run)
    parts = [
        run["games"].select(
            "game_id",
            pl.lit(c).alias("colour"),
            *(pl.col(f"{c}_{f}").alias(f) for f in FIELDS),
        )
        for c in colours(run)
    ]
    return pl.concat(parts)


def _mean_interval(table: pl.DataFrame) -> pl.DataFrame:
    """Add ci_low and ci_high (normal, mean ± 1.96 sd/√n) to a table of n, mean, sd."""
    with np.errstate(invalid="ignore", divide="ignore"):
        half = Z95 * table["sd"].fill_null(np.nan).to_numpy() / np.sqrt(table["n"].to_numpy())
    mean = table["mean"].to_numpy()
    return table.with_columns(pl.Series("ci_low", mean - half), pl.Series("ci_high", mean + half))


def prices(run: Run | str | Path, by: str = "colour") -> pl.DataFrame:
    """The price paid ($M) by `by` (colour, or power: the power card sold with
    the car), with n, sd and the 95% interval of the mean; by colour also the
    share of races the car won and of those it stalled in; by power the
    players who kept it after the auction and their win rate (Wilson)."""
    run = as_run(run)
    place = pl.col("place")
    extra = (
        [(place == 1).fill_null(False).mean().alias("won_race"), place.is_null().mean().alias("stalled")]
        if by == "colour"
        else []
    )
    table = (
        cars(run)
        .filter(pl.col("owner").is_not_null() & (pl.col("owner") >= 0))
        .group_by(by)
        .agg(
            pl.len().alias("n"),
            pl.col("price").cast(pl.Float64).mean().alias("mean"),
            pl.col("price").cast(pl.Float64).std().alias("sd"),
            *extra,
        )
        .sort(by)
        .collect()
    )
    table = _mean_interval(table).select(by, "n", "mean", "sd", "ci_low", "ci_high", *table.columns[4:])
    if by != "power" or "power" not in run["players"].collect_schema().names():
        return table
    kept = (
        run["players"]
        .drop_nulls("power")
        .group_by("power")
        .agg(pl.len().alias("kept"), pl.col("won").sum().alias("wins"))
        .collect()
    )
    low, high = wilson(kept["wins"].to_numpy(), kept["kept"].to_numpy())
    kept = kept.with_columns(
        (pl.col("wins") / pl.col("kept")).alias("win_rate_kept"),
        pl.Series("ci_low_kept", low),
        pl.Series("ci_high_kept", high),
    ).drop("wins")
    return table.join(kept, on="power", how="left").with_columns(pl.col("kept").fill_null(0))


def power_win_rates(run: Run | str | Path) -> pl.DataFrame | None:
    """Win rate of the players by the power card they kept after the auction:
    power, kept (players), wins, win_rate with its Wilson interval (ci_low,
    ci_high) and fair (the mean of 1/players over them), best first. The bots
    choose which power to keep: an association. None for a run whose players
    keep no power (every game but Downforce)."""
    run = as_run(run)
    if "power" not in run["players"].collect_schema().names():
        return None
    counts = (
        run["players"]
        .drop_nulls("power")
        .join(run["games"].select("game_id", "n_players"), on="game_id")
        .group_by("power")
        .agg(
            pl.len().alias("kept"),
            pl.col("won").sum().alias("wins"),
            (1 / pl.col("n_players")).mean().alias("fair"),
        )
        .collect()
    )
    table = with_interval(counts, games="kept")
    return table.select("power", "kept", "wins", "win_rate", "ci_low", "ci_high", "fair").sort(
        ["win_rate", "power"], descending=[True, False]
    )


def finishing(run: Run | str | Path, by: str = "auction") -> pl.DataFrame:
    """Where cars finish by `by` (auction: the auction round 1..6 that sold
    it; start: its starting slot, 0 = pole): cars, then the share finishing
    1st..6th and the share stalled (each row sums to 1), the mean place of
    those that finished and the mean price."""
    place = pl.col("place")
    return (
        cars(run)
        .group_by(by)
        .agg(
            pl.len().alias("cars"),
            *((place == i + 1).fill_null(False).mean().alias(name) for i, name in enumerate(PLACES)),
            place.is_null().mean().alias("stalled"),
            place.cast(pl.Float64).mean().alias("mean_place"),
            pl.col("price").cast(pl.Float64).mean().alias("mean_price"),
        )
        .sort(by)
        .collect()
    )


def stalled(run: Run | str | Path) -> dict[str, float]:
    """Cars in all, the share that stalled, and the share of games with a stalled car."""
    table = (
        cars(run)
        .group_by("game_id")
        .agg(pl.len().alias("cars"), pl.col("place").is_null().sum().alias("stalled"))
        .select(
            pl.col("cars").sum(),
            (pl.col("stalled").sum() / pl.col("cars").sum()).alias("share"),
            (pl.col("stalled") > 0).mean().alias("games_share"),
            pl.len().alias("games"),
        )
        .collect()
    )
    return table.row(0, named=True)


def _bets(run: Run) -> pl.DataFrame:
    """One row per bet: game_id, seat, line (1..3), turn, colour, the bet car's place and owner."""
    bets = (
        run["cards"]
        .filter(pl.col("event") == "bet")
        .select(
            "game_id",
            "seat",
            pl.col("pick").alias("line"),
            "turn",
            pl.col("card").cast(pl.String).str.strip_prefix(SPEED8).alias("colour"),
        )
    )
    return bets.join(
        cars(run).select("game_id", "colour", "place", "owner"), on=["game_id", "colour"], how="left"
    ).collect()


def payout_schedule(run: Run | str | Path, bets: pl.DataFrame | None = None) -> dict[tuple[int, int], float] | None:
    """The $M a bet pays by (line, place of its car), recovered from the logs:
    each player's `bets_won` is the sum of their bets' payouts, so the schedule
    solves a linear system with one equation per player. None where the
    system does not pin every (line, place) the bets hit, or its solution does
    not account for every player's bets_won exactly (the logs say nothing else
    about payouts; the rules are not in the run)."""
    run = as_run(run)
    bets = _bets(run) if bets is None else bets
    paying = bets.filter(pl.col("place").is_not_null()).with_columns(
        pl.concat_str([pl.col("line"), pl.col("place")], separator="/").alias("cell")
    )
    cells = sorted(set(paying["cell"].to_list()))
    if not cells or "bets_won" not in run["players"].collect_schema().names():
        return None
    counts = paying.group_by("game_id", "seat").agg((pl.col("cell") == c).sum().alias(c) for c in cells)
    players = run["players"].select("game_id", "seat", "bets_won").collect()
    joined = players.join(counts, on=["game_id", "seat"], how="left").fill_null(0)
    x = joined.select(cells).to_numpy().astype(float)
    y = joined["bets_won"].to_numpy().astype(float)
    solution, _, rank, _ = np.linalg.lstsq(x, y, rcond=None)
    if rank < len(cells) or np.abs(x @ solution - y).max() > 1e-6:
        return None
    return {tuple(int(v) for v in c.split("/")): float(np.round(solution[i], 6)) for i, c in enumerate(cells)}


def bets(run: Run | str | Path) -> pl.DataFrame:
    """Per betting line: bets, when placed (mean card number in the race), the
    share on the car that won the race, on a car finishing in the first
    three, on a car of the bettor's own, and the mean payout ($M, from
    payout_schedule; null where it cannot be recovered) with the schedule
    for 1st/2nd/3rd."""
    run = as_run(run)
    table = _bets(run)
    schedule = payout_schedule(run, table)
    place = pl.col("place")
    if schedule is not None:
        paid = pl.DataFrame(
            [(line, at, pay) for (line, at), pay in schedule.items()],
            schema={"line": table.schema["line"], "place": table.schema["place"], "payout": pl.Float64},
            orient="row",
        )
        table = table.join(paid, on=["line", "place"], how="left").with_columns(pl.col("payout").fill_null(0.0))
    else:
        table = table.with_columns(pl.lit(None, pl.Float64).alias("payout"))
    out = (
        table.group_by("line")
        .agg(
            pl.len().alias("bets"),
            pl.col("turn").cast(pl.Float64).mean().alias("mean_turn"),
            (place == 1).fill_null(False).mean().alias("on_race_winner"),
            (place <= 3).fill_null(False).mean().alias("on_first_three"),
            (pl.col("owner") == pl.col("seat")).fill_null(False).mean().alias("on_own_car"),
            pl.col("payout").mean().alias("mean_payout"),
        )
        .sort("line")
    )
    if schedule is None:
        return out.with_columns(pl.lit(None, pl.String).alias("payouts"))
    text = {
        line: "/".join(f"{schedule[(line, p)]:g}" if (line, p) in schedule else "?" for p in (1, 2, 3))
        for line in out["line"].to_list()
    }
    return out.with_columns(pl.col("line").replace_strict(text, return_dtype=pl.String).alias("payouts"))
