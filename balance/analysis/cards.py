"""Which cards get picked and which win: per card (and per Playbook) pick,
buy, auction, scrap and play rates, and the win rate of players who drafted,
bought or ended with it (or, from a deck dealt out, were dealt it) against
those who did not ("win rate added"), with Newcombe intervals and a
Benjamini-Hochberg flag.

These are associations, not causes: a card drafted by the strongest bot looks
strong. So the difference (`added_{how}`, `added_low_{how}`, `added_high_{how}`,
`p_{how}`, `significant_{how}`) is taken within each bot profile and combined
with Mantel-Haenszel weights (stats.mantel_haenszel_diff): a card only the
weakest bot takes no longer looks weak for it. It is the one "win rate added"
every page, table, chart and comparison shows; the pooled difference over all
players stays as raw (`added_raw_{how}`, `added_raw_low_{how}`...). Other confounders
remain (seat, what else the player took); `balance strength` (an experiment)
is the causal measure.
"""

from __future__ import annotations

from pathlib import Path

import numpy as np
import polars as pl

from .arguments import CARD_IDS, PLAYBOOK_IDS, check_ids, check_run, check_set, check_table
from .stats import benjamini_hochberg, mantel_haenszel_diff, newcombe_diff, two_proportion_p, wilson
from .winrate import Run, as_run

ACQUIRE = ("start", "draft", "buy", "auction", "free_auction")
RARELY = 0.01  # taken (drafted, bought or won) by fewer than 1% of players: "almost never taken"


PLAYBOOK_EVENTS = ("playbook_draft", "playbook_pit")


def _player_card_flags(run: Run, playbooks: bool) -> pl.LazyFrame:
    """One row per (game, seat, card) with event counts, or per (game, seat,
    Playbook), with the player's bot and whether they won. Plays, most of the
    events, are left out (counted per card apart)."""
    ev = pl.col("event")
    wanted = ev.is_in(PLAYBOOK_EVENTS) if playbooks else ~ev.is_in([*PLAYBOOK_EVENTS, "play"])
    return (
        run["cards"]
        .filter(wanted)
        .group_by("game_id", "seat", "card")
        .agg(
            (ev == "draft").sum().alias("drafts"),
            pl.col("pick").min().alias("pick"),
            (ev == "buy").sum().alias("buys"),
            ev.is_in(["auction", "free_auction"]).sum().alias("auctions"),
            pl.when(ev == "auction").then(pl.col("price")).sum().alias("auction_coins"),
            (ev == "auction").sum().alias("paid_auctions"),
            ev.is_in(list(ACQUIRE)).sum().alias("acquired"),
            (ev == "scrap").sum().alias("scraps"),
            (ev == "playbook_draft").sum().alias("pb_drafts"),
            (ev == "playbook_pit").sum().alias("pb_pits"),
            (ev == "start").sum().alias("starts"),
        )
        .join(run["players"].select("game_id", "seat", "won", pl.col("bot").cast(pl.String)), on=["game_id", "seat"])
    )


GAMES_PER_SLICE = 50_000  # games aggregated at once in card_stats


def _game_id_end(run: Run) -> int:
    return int(run["games"].select(pl.col("game_id").max()).collect().item()) + 1


def _card_holders(players: pl.LazyFrame) -> pl.LazyFrame:
    """The players who hold cards: all of them, less Heat's Legends (no deck, no draft)."""
    return players.filter(~pl.col("legend")) if "legend" in players.collect_schema().names() else players


def _totals(run: Run) -> tuple[int, int, int]:
    """Player-games (of players holding cards), wins among them, and games in the run."""
    players = _card_holders(run["players"])
    t = players.select(pl.len(), pl.col("won").sum(), pl.col("game_id").n_unique()).collect().row(0)
    return int(t[0]), int(t[1]), int(t[2])


def _bot_totals(run: Run) -> pl.DataFrame:
    """Player-games (of players holding cards) and wins per bot profile: the strata."""
    players = _card_holders(run["players"]).with_columns(pl.col("bot").cast(pl.String))
    return (
        players.group_by("bot").agg(pl.len().alias("players"), pl.col("won").sum().alias("wins")).sort("bot").collect()
    )


def _with_and_won(condition: pl.Expr, name: str) -> tuple[pl.Expr, pl.Expr]:
    """Player-games where the condition holds, and how many of them won."""
    return condition.sum().alias(f"n_{name}"), (condition & pl.col("won")).sum().alias(f"wins_{name}")


def _by_bot_counts(
    table: pl.DataFrame, key: str, per_bot: pl.DataFrame, bots: pl.DataFrame, name: str
) -> tuple[np.ndarray, ...]:
    """(wins with, players with, wins without, players without) a condition,
    shaped (rows of table, bot profiles): from the counts per (key, bot) and the
    totals per bot (_bot_totals). A card no player of a bot took has zeros there."""
    rows = table.select(pl.col(key).cast(pl.String)).with_row_index("row")
    strata = bots.select("bot").with_row_index("stratum")
    cells = (
        per_bot.select(pl.col(key).cast(pl.String), "bot", f"n_{name}", f"wins_{name}")
        .join(rows, on=key)
        .join(strata, on="bot")
    )
    at = cells["row"].to_numpy(), cells["stratum"].to_numpy()
    n, k = np.zeros((len(rows), len(strata))), np.zeros((len(rows), len(strata)))
    n[at], k[at] = cells[f"n_{name}"].to_numpy(), cells[f"wins_{name}"].to_numpy()
    total, total_wins = bots["players"].to_numpy().astype(float), bots["wins"].to_numpy().astype(float)
    return k, n, total_wins - k, total - n


def _by_bot_tests(
    table: pl.DataFrame, conditions: dict[str, str], key: str, per_bot: pl.DataFrame, bots: pl.DataFrame
) -> dict[str, np.ndarray]:
    """The by-bot columns of each condition: the Mantel-Haenszel difference over
    bot profiles, its interval and p-value, and a Benjamini-Hochberg flag over
    all these tests (a family apart from the pooled ones)."""
    columns, p_values = {}, []
    for name in conditions:
        diff, low, high, p = mantel_haenszel_diff(*_by_bot_counts(table, key, per_bot, bots, name))
        columns |= {
            f"added_by_bot_{name}": diff,
            f"added_by_bot_low_{name}": low,
            f"added_by_bot_high_{name}": high,
            f"p_by_bot_{name}": p,
        }
        p_values.append(p)
    flags = benjamini_hochberg(np.concatenate(p_values)).reshape(len(conditions), -1)
    for i, name in enumerate(conditions):
        columns[f"significant_by_bot_{name}"] = flags[i]
    return columns


def _with_tests(
    table: pl.DataFrame,
    conditions: dict[str, str],
    total: int,
    total_wins: int,
    by_bot: tuple[str, pl.DataFrame, pl.DataFrame] | None = None,
) -> pl.DataFrame:
    """For each condition column of counts: win rate with and without, the
    difference and its test; with `by_bot` (the key column, the counts per
    (key, bot) and _bot_totals), the difference within bot profiles as well."""
    columns = {}
    p_values = []
    for name in conditions:
        n = table[f"n_{name}"].to_numpy().astype(float)
        k = table[f"wins_{name}"].to_numpy().astype(float)
        n_not, k_not = total - n, total_wins - k
        low, high = wilson(k, n)
        diff, dlow, dhigh = newcombe_diff(k, n, k_not, n_not)
        p = two_proportion_p(k, n, k_not, n_not)
        with np.errstate(invalid="ignore", divide="ignore"):
            columns |= {
                f"win_rate_{name}": k / n,
                f"ci_low_{name}": low,
                f"ci_high_{name}": high,
                f"n_not_{name}": n_not,
                f"win_rate_not_{name}": k_not / n_not,
                f"added_{name}": diff,
                f"added_low_{name}": dlow,
                f"added_high_{name}": dhigh,
                f"p_{name}": p,
            }
        p_values.append(p)
    flags = benjamini_hochberg(np.concatenate(p_values)).reshape(len(conditions), -1)
    for i, name in enumerate(conditions):
        columns[f"significant_{name}"] = flags[i]
    if by_bot is not None:
        # one "win rate added" everywhere a user reads it: the figure within bot profiles takes the plain
        # names (added_drafted...), the pooled one is kept as raw (added_raw_drafted...)
        columns = {_raw_name(name, conditions): values for name, values in columns.items()}
        columns |= {
            name.replace("by_bot_", ""): values for name, values in _by_bot_tests(table, conditions, *by_bot).items()
        }
    return table.with_columns(pl.Series(name, values) for name, values in columns.items())


def _raw_name(column: str, conditions: dict[str, str]) -> str:
    """The pooled test's column as raw: added_drafted -> added_raw_drafted, p_drafted -> p_raw_drafted."""
    for head in ("added_low_", "added_high_", "added_", "p_", "significant_"):
        rest = column.removeprefix(head)
        if column.startswith(head) and rest in conditions:
            return f"{head.rstrip('_')}_raw_{rest}".replace("added_low_raw", "added_raw_low").replace(
                "added_high_raw", "added_raw_high"
            )
    return column


def _add_absent(table: pl.DataFrame, key: str, ids: list[str] | None) -> pl.DataFrame:
    """Rows of zeros for catalogue entries no event mentions (never taken, never played)."""
    if not ids:
        return table
    # the logs' ids are categorical: strings either way, so two runs' tables join whether or not one lacks an id
    table = table.with_columns(pl.col(key).cast(pl.String))
    absent = [i for i in ids if i not in set(table[key].to_list())]
    if not absent:
        return table
    zeros = pl.DataFrame({key: absent}).join(table.head(0), on=key, how="left")
    counts = [c for c, t in table.schema.items() if c != key and t.is_integer()]
    zeros = zeros.with_columns(pl.lit(0, table.schema[c]).alias(c) for c in counts)
    return pl.concat([table, zeros.select(table.columns)]).sort(key)


def card_stats(run: Run | str | Path, catalog: list[str] | None = None, dealt: bool = False) -> pl.DataFrame:
    """One row per card that appeared in the run, plus those of `catalog` (card
    ids: the cards studied, those players choose) that never did (see the module
    doc for the columns). Given a catalog, `rarely_taken` is null for the cards
    outside it, which no player chooses (Horsepower's starters and Debris:
    given, not taken), where "taken by under 1%" would flag them. `dealt`, for a
    deck dealt out among the players (see dealt_out): the win rate of the
    players dealt the card against the others (`n_dealt`, `added_dealt`...) and
    the share of them who played it (`play_rate`), in place of the final deck's
    (the dealt hand: the same test twice would weaken the correction)."""
    check_run(run, "card_stats")
    check_ids(catalog, "card_stats", "catalog", "card ids", CARD_IDS)
    run = as_run(run)
    total, total_wins, games = _totals(run)
    drafted, bought = pl.col("drafts") > 0, pl.col("buys") > 0
    final = pl.col("acquired") > pl.col("scraps")
    flags = _player_card_flags(run, playbooks=False)
    by_deal = _with_and_won(pl.col("starts") > 0, "dealt") if dealt else ()
    # Every column is a sum over player-games, so the run can be summed a slice
    # of games at a time: memory stays that of one slice, whatever the run's size.
    # Per (card, bot): the bots' rows are the strata of the by-bot differences.
    partials = [
        flags.filter(pl.col("game_id").is_between(lo, lo + GAMES_PER_SLICE, closed="left"))
        .group_by("card", "bot")
        .agg(
            *_with_and_won(drafted, "drafted"),
            pl.col("pick").sum().alias("pick_sum"),
            pl.col("pick").count().alias("picks"),
            *_with_and_won(bought, "bought"),
            pl.col("buys").sum().alias("buys"),
            pl.col("auctions").sum().alias("auction_wins"),
            pl.col("auction_coins").sum().alias("auction_coins"),
            pl.col("paid_auctions").sum().alias("paid_auctions"),
            (pl.col("scraps") > 0).sum().alias("n_scrapped"),
            *_with_and_won(final, "final"),
            ((pl.col("drafts") + pl.col("buys") + pl.col("auctions")) > 0).sum().alias("n_taken"),
            *by_deal,
        )
        .collect(engine="streaming")
        for lo in range(0, _game_id_end(run), GAMES_PER_SLICE)
    ]
    per_bot = pl.concat(partials).group_by("card", "bot").sum()
    table = (
        per_bot.drop("bot")
        .group_by("card")
        .sum()
        .with_columns(
            (pl.col("pick_sum") / pl.col("picks")).alias("mean_pick"),
            (pl.col("auction_coins") / pl.col("paid_auctions")).alias("mean_auction_price"),
        )
        .drop("pick_sum", "picks", "auction_coins", "paid_auctions")
        .sort("card")
    )
    plays = (
        run["cards"]
        .filter(pl.col("event") == "play")
        .group_by("card")
        .agg(pl.len().cast(pl.UInt32).alias("plays"))
        .collect(engine="streaming")
    )
    table = table.join(plays, on="card", how="left").with_columns(pl.col("plays").fill_null(0))
    table = (
        _add_absent(table, "card", catalog)
        .with_columns(
            pl.lit(total).alias("player_games"),
            (pl.col("n_drafted") / total).alias("draft_rate"),
            (pl.col("n_bought") / total).alias("buy_rate"),
            (pl.col("n_scrapped") / total).alias("scrap_rate"),
            (pl.col("plays") / games).alias("plays_per_game"),
            (pl.col("n_taken") / total).alias("taken_rate"),
        )
        .with_columns(
            # null, not True, for the cards given rather than taken (Horsepower's
            # starters and Debris: outside `catalog`, the cards players choose)
            pl.when(pl.lit(catalog is None) | pl.col("card").cast(pl.String).is_in(catalog or []))
            .then(pl.col("taken_rate") < RARELY)
            .alias("rarely_taken")
        )
    )
    if dealt:
        table = table.with_columns((pl.col("plays") / pl.col("n_dealt")).alias("play_rate"))
        conditions = {"drafted": "drafted", "bought": "bought", "dealt": "dealt"}
    else:
        conditions = {"drafted": "drafted", "bought": "bought", "final": "in the final deck"}
    return _with_tests(table, conditions, total, total_wins, ("card", per_bot, _bot_totals(run)))


def dealt_out(run: Run | str | Path, cards: list[str] | None = None) -> bool:
    """Whether the cards (all, or those listed) are dealt out of one shared deck:
    `start` events, and no card dealt to two players of a game (Downforce's
    speed cards). The deal is random, so the win rate of the players dealt a
    card against the others measures the card in these bots' hands; where each
    player has a deck of their own (Heat) every player holds every card."""
    check_ids(cards, "dealt_out", "cards", "card ids")
    start = as_run(run)["cards"].filter(pl.col("event") == "start")
    if cards is not None:
        start = start.filter(pl.col("card").cast(pl.String).is_in(cards))
    most = start.group_by("game_id", "card").agg(pl.col("seat").n_unique().alias("holders"))
    most = most.select(pl.col("holders").max()).collect().item()
    return most == 1


def logged_events(run: Run | str | Path, cards: list[str] | None = None) -> set[str]:
    """The card events the run's log holds (Heat: start, play and, with the
    Garage module, draft), or those naming one of `cards` (Downforce's speed
    cards: start and play; the auction is of the cars' Speed-8 cards)."""
    check_ids(cards, "logged_events", "cards", "card ids")
    log = as_run(run)["cards"]
    if cards is not None:
        log = log.filter(pl.col("card").cast(pl.String).is_in(cards))
    return set(log.select(pl.col("event").cast(pl.String).unique()).collect()["event"].drop_nulls().to_list())


def _condition_columns(name: str) -> list[str]:
    """The columns _with_tests and card_stats make for one condition (drafted, bought, final), by-bot ones too."""
    return [
        f"{c}_{name}"
        for c in ("n", "wins", "win_rate", "ci_low", "ci_high", "n_not", "win_rate_not", "added")
        + ("added_low", "added_high", "p", "significant")
        + ("added_raw", "added_raw_low", "added_raw_high", "p_raw", "significant_raw")
    ]


TAKEN = ("draft", "buy", "auction", "free_auction")
# card_stats columns and the events without which they say nothing (zeros, NaN, or a copy of another column)
EVENT_COLUMNS: tuple[tuple[tuple[str, ...], list[str]], ...] = (
    (("draft",), ["draft_rate", "mean_pick", *_condition_columns("drafted")]),
    (("buy",), ["buy_rate", "buys", *_condition_columns("bought")]),
    (("auction", "free_auction"), ["auction_wins"]),
    (("auction",), ["mean_auction_price"]),
    (("scrap",), ["scrap_rate", "n_scrapped"]),
    (TAKEN, ["n_taken", "taken_rate", "rarely_taken"]),
    # without buys, auctions or scraps the final deck is the starting deck plus the draft
    (("buy", "auction", "free_auction", "scrap"), _condition_columns("final")),
    (("start",), ["play_rate", *_condition_columns("dealt")]),
)


def informative(table: pl.DataFrame, events: set[str]) -> pl.DataFrame:
    """card_stats without the columns that say nothing for this run: those of
    events it never logged (EVENT_COLUMNS; Heat has no buys, auctions or scraps,
    and no draft without the Garage module), and numbers that are all null,
    NaN or zero."""
    check_table(table, "informative", "table", "a card_stats table")
    check_set(events, "informative", "events", "event names", ", e.g. logged_events(run)")
    drop = {c for needs, columns in EVENT_COLUMNS if not events & set(needs) for c in columns}
    for column, dtype in table.schema.items():
        values = table[column]
        if dtype.is_float():
            values = values.fill_nan(None)
        if dtype.is_numeric() and (values.null_count() == len(values) or (values.fill_null(0) == 0).all()):
            drop.add(column)
    return table.drop([c for c in table.columns if c in drop])


def playbook_stats(run: Run | str | Path, catalog: list[str] | None = None) -> pl.DataFrame:
    """One row per Playbook: drafted, taken at a Pit Stop, held at the end, and
    the win rates; `catalog` (Playbook ids) adds the ones never taken."""
    check_run(run, "playbook_stats")
    check_ids(catalog, "playbook_stats", "catalog", "Playbook ids", PLAYBOOK_IDS)
    run = as_run(run)
    total, total_wins, _ = _totals(run)
    drafted, pit = pl.col("pb_drafts") > 0, pl.col("pb_pits") > 0
    per_bot = (
        _player_card_flags(run, playbooks=True)
        .group_by("card", "bot")
        .agg(
            *_with_and_won(drafted, "drafted"),
            pl.col("pick").sum().alias("pick_sum"),
            pl.col("pick").count().alias("picks"),
            *_with_and_won(pit, "pit"),
            *_with_and_won(drafted | pit, "held"),
        )
        .rename({"card": "playbook"})
        .collect(engine="streaming")
    )
    table = (
        per_bot.drop("bot")
        .group_by("playbook")
        .sum()
        .select(
            "playbook",
            "n_drafted",
            "wins_drafted",
            # null, as a mean of no picks, where the Playbook was never drafted
            pl.when(pl.col("picks") > 0).then(pl.col("pick_sum") / pl.col("picks")).alias("mean_pick"),
            "n_pit",
            "wins_pit",
            "n_held",
            "wins_held",
        )
        .sort("playbook")
    )
    table = _add_absent(table, "playbook", catalog).with_columns(
        pl.lit(total).alias("player_games"),
        (pl.col("n_drafted") / total).alias("draft_rate"),
        (pl.col("n_pit") / total).alias("pit_rate"),
        ((pl.col("n_held") / total) < RARELY).alias("rarely_taken"),
    )
    conditions = {"drafted": "drafted", "pit": "taken at a Pit Stop", "held": "held"}
    return _with_tests(table, conditions, total, total_wins, ("playbook", per_bot, _bot_totals(run)))
