"""Shuffle Grand Prix's drivers and ability cards, from the players table's
`driver` and `co_pilot` columns (the two drivers a player drafted; a trophy
swaps their roles, never the pair) and the cards log's `play` events: win rate
by driver and by driver pair, who goes first, distance and trophies per bot,
and what each ability card is worth when played by a player who held it.

Every player holds the ability cards of its two drivers and no others (but a
card stolen from a rival), so a card is "held" exactly when its driver was
drafted. As everywhere in the report these are associations between what the
bots did and who won, not causes."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import polars as pl

from .arguments import check_ids, check_mapping, check_records, check_run
from .cards import GAMES_PER_SLICE, _game_id_end
from .laps import summarise
from .stats import benjamini_hochberg, newcombe_diff, two_proportion_p
from .winrate import Run, as_run, with_interval


def has_drivers(run: Run | str | Path) -> bool:
    """Whether the players table records the drafted drivers (Shuffle Grand Prix)."""
    names = set(as_run(run)["players"].collect_schema().names())
    return {"driver", "co_pilot"} <= names


def _held(run: Run) -> pl.LazyFrame:
    """One row per player and driver drafted: game_id, seat, bot, won, driver (two rows a player)."""
    players = run["players"].select("game_id", "seat", "bot", "won", "driver", "co_pilot")
    return players.unpivot(
        index=["game_id", "seat", "bot", "won"], on=["driver", "co_pilot"], value_name="held"
    ).select("game_id", "seat", "bot", "won", pl.col("held").cast(pl.String).alias("driver"))


def by_driver(run: Run | str | Path, drivers: list[str] | None = None) -> pl.DataFrame:
    """Win rate of the players who drafted each driver (as driver or co-pilot):
    n (the players who drafted it), wins, win_rate and its Wilson interval, the share of
    games it was drafted in (`drafted_share`: 1 where every driver is drafted, as
    with four players) and the fair share 1/players. `drivers` adds the ones
    never drafted (n = 0)."""
    check_run(run, "by_driver")
    check_ids(drivers, "by_driver", "drivers", "driver ids")
    run = as_run(run)
    games = run["games"].select(pl.len(), pl.col("n_players").mean()).collect().row(0)
    table = _held(run).group_by("driver").agg(pl.len().alias("games"), pl.col("won").sum().alias("wins")).collect()
    absent = [d for d in drivers or [] if d not in set(table["driver"].to_list())]
    if absent:
        table = pl.concat([table, pl.DataFrame({"driver": absent, "games": 0, "wins": 0}, schema=table.schema)])
    table = with_interval(table.sort("driver")).rename({"games": "n"})
    return table.with_columns(
        (pl.col("n") / games[0]).alias("drafted_share"),
        pl.lit(1 / games[1] if games[1] else float("nan")).alias("fair"),
    )


def by_pair(run: Run | str | Path) -> pl.DataFrame:
    """Win rate of each pair of drivers drafted together (unordered: `first` is
    the one earlier in alphabetical order): n (the players who drafted it), wins
    and the win rate with its Wilson interval."""
    players = as_run(run)["players"]
    a, b = pl.col("driver").cast(pl.String), pl.col("co_pilot").cast(pl.String)
    pairs = players.select(pl.min_horizontal(a, b).alias("first"), pl.max_horizontal(a, b).alias("second"), "won")
    counts = pairs.group_by("first", "second").agg(pl.len().alias("games"), pl.col("won").sum().alias("wins"))
    return with_interval(counts.sort("first", "second").collect()).rename({"games": "n"})


def mean_pick(run: Run | str | Path, groups: dict[str, str]) -> pl.DataFrame:
    """The mean draft pick of each driver (1 = the first pick of the game): the
    cards log's `draft` events name a driver by its first ability card, which
    `groups` (card id -> driver id, the catalog's `group`) turns into the driver."""
    check_mapping(groups, "mean_pick", "groups", "card id -> driver id", optional=False)
    drafts = as_run(run)["cards"].filter(pl.col("event") == "draft")
    return (
        drafts.select(pl.col("card").cast(pl.String).replace_strict(groups, default=None).alias("driver"), "pick")
        .drop_nulls("driver")
        .group_by("driver")
        .agg(pl.col("pick").cast(pl.Float64).mean().alias("mean_pick"))
        .collect()
    )


def by_turn_order(run: Run | str | Path) -> pl.DataFrame | None:
    """Win rate by place in the turn order (0 = the first player, who is drawn
    each game, then clockwise), per player count, with the fair share and the
    share of games each seat went first (`seat_first`, for the seat of the same
    number). None where the games table does not say who went first."""
    run = as_run(run)
    if "first_seat" not in run["games"].collect_schema().names():
        return None
    games = run["games"].select("game_id", "n_players", "first_seat")
    players = run["players"].select("game_id", "seat", "won").join(games, on="game_id")
    players = players.with_columns(
        ((pl.col("seat").cast(pl.Int16) - pl.col("first_seat").cast(pl.Int16)) % pl.col("n_players").cast(pl.Int16))
        .cast(pl.Int8)
        .alias("order")
    )
    counts = (
        players.group_by("n_players", "order")
        .agg(pl.len().alias("games"), pl.col("won").sum().alias("wins"))
        .sort("n_players", "order")
        .collect()
    )
    first = (
        games.group_by("n_players", pl.col("first_seat").alias("order"))
        .agg(pl.len().alias("firsts"))
        .collect()
        .with_columns(pl.col("order").cast(pl.Int8))
    )
    table = with_interval(counts).join(first, on=["n_players", "order"], how="left")
    return table.with_columns(
        (1 / pl.col("n_players")).alias("fair"),
        (pl.col("firsts").fill_null(0) / pl.col("games")).alias("seat_first"),
    ).drop("firsts")


def distributions(run: Run | str | Path, columns: tuple[str, ...] = ("distance", "trophies")) -> pl.DataFrame:
    """Per bot and measure: n, mean, median, p10 and p90 of each players column."""
    players = as_run(run)["players"]
    parts = [
        summarise(players.select("bot", pl.col(c).cast(pl.Float64)), ["bot"], c).select(
            "bot", pl.lit(c).alias("measure"), "n", "mean", "median", "p10", "p90"
        )
        for c in columns
    ]
    return pl.concat(parts)


def values(run: Run | str | Path, columns: tuple[str, ...] = ("distance", "trophies")) -> pl.DataFrame:
    """The players' bot and the raw values of `columns` (for the distributions' chart)."""
    return as_run(run)["players"].select("bot", *columns).collect()


def card_plays(run: Run | str | Path, catalog: list[dict]) -> pl.DataFrame:
    """One row per ability card of `catalog` (the manifest's: id, name, type,
    group = its driver, count): plays per game (all plays, stolen copies
    included), the players who held it (drafted its driver: n_held), the share
    of them who played it at least once (play_rate), and the win rate of the
    holders who played it against the holders who did not (`added_played`,
    Newcombe interval, two-proportion p, Benjamini-Hochberg flag over the cards)."""
    check_run(run, "card_plays")
    check_records(catalog, "card_plays", "catalog", "the catalog's cards", ', e.g. manifest["catalog"]["cards"]')
    run = as_run(run)
    cards = pl.DataFrame(
        {
            "card": [c["id"] for c in catalog],
            "name": [c.get("name", c["id"]) for c in catalog],
            "driver": [c.get("group") for c in catalog],
            "type": [c.get("type") for c in catalog],
            "count": [int(c.get("count", 1)) for c in catalog],
        },
        schema={"card": pl.String, "name": pl.String, "driver": pl.String, "type": pl.String, "count": pl.Int64},
    )
    n_games = int(run["games"].select(pl.len()).collect().item())
    held = _held(run).group_by("driver").agg(pl.len().alias("n_held"), pl.col("won").sum().alias("wins_held"))
    held = held.collect()
    players = run["players"].select(
        "game_id", "seat", "won", pl.col("driver").cast(pl.String), pl.col("co_pilot").cast(pl.String)
    )
    groups = cards.lazy().select("card", pl.col("driver").alias("owner"))
    plays = run["cards"].filter(pl.col("event") == "play").select("game_id", "seat", pl.col("card").cast(pl.String))
    # sums over player-games, so a slice of games at a time (memory: one slice's, as in cards.card_stats)
    partials = []
    for lo in range(0, _game_id_end(run), GAMES_PER_SLICE):
        part = plays.filter(pl.col("game_id").is_between(lo, lo + GAMES_PER_SLICE, closed="left"))
        total = part.group_by("card").agg(pl.len().alias("plays"))
        own = (
            part.group_by("game_id", "seat", "card")
            .agg(pl.len().alias("times"))
            .join(groups, on="card")
            .join(players, on=["game_id", "seat"])
            .filter((pl.col("owner") == pl.col("driver")) | (pl.col("owner") == pl.col("co_pilot")))
            .group_by("card")
            .agg(pl.len().alias("n_played"), pl.col("won").sum().alias("wins_played"))
        )
        partials.append(total.join(own, on="card", how="full", coalesce=True).collect(engine="streaming"))
    counts = pl.concat(partials).group_by("card").sum() if partials else None
    table = cards.join(held, on="driver", how="left")
    if counts is not None:
        table = table.join(counts, on="card", how="left")
    else:
        table = table.with_columns(pl.lit(0).alias(c) for c in ("plays", "n_played", "wins_played"))
    table = table.with_columns(
        pl.col(c).fill_null(0).cast(pl.Int64) for c in ("n_held", "wins_held", "plays", "n_played", "wins_played")
    )
    k1, n1 = table["wins_played"].to_numpy().astype(float), table["n_played"].to_numpy().astype(float)
    k2 = (table["wins_held"] - table["wins_played"]).to_numpy().astype(float)
    n2 = (table["n_held"] - table["n_played"]).to_numpy().astype(float)
    diff, low, high = newcombe_diff(k1, n1, k2, n2)
    p = two_proportion_p(k1, n1, k2, n2)
    with np.errstate(invalid="ignore", divide="ignore"):
        table = table.with_columns(
            (pl.col("plays") / max(n_games, 1)).alias("plays_per_game"),
            pl.Series("play_rate", n1 / table["n_held"].to_numpy()),
            pl.Series("win_rate_played", k1 / n1),
            pl.Series("n_held_not_played", n2.astype(np.int64)),
            pl.Series("win_rate_not_played", k2 / n2),
            pl.Series("added_played", diff),
            pl.Series("added_low_played", low),
            pl.Series("added_high_played", high),
            pl.Series("p_played", p),
            pl.Series("significant_played", benjamini_hochberg(p)),
        )
    return table.drop("wins_held")


def first_player_holds(run: Run | str | Path) -> pl.DataFrame | None:
    """(driver, share): how often the first player holds each driver (as driver
    or co-pilot at the end), most often first. The draft runs in turn order, so
    the first player's figure mixes going first with the driver it drafts
    first; None where the games table does not say who went first."""
    run = as_run(run)
    if "first_seat" not in run["games"].collect_schema().names():
        return None
    games = run["games"].select("game_id", "first_seat")
    first = (
        run["players"]
        .join(games, on="game_id")
        .filter(pl.col("seat").cast(pl.Int16) == pl.col("first_seat").cast(pl.Int16))
        .select(
            "game_id",
            pl.concat_list(pl.col("driver").cast(pl.String), pl.col("co_pilot").cast(pl.String)).alias("held"),
        )
        .collect()
    )
    n = first.height
    if not n:
        return None
    held = first.explode("held").unique(["game_id", "held"]).group_by("held").len()
    return held.select(pl.col("held").alias("driver"), (pl.col("len") / n).alias("share")).sort(
        "share", descending=True
    )
