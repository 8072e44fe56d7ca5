"""Who wins: by seat, bot, Playbook and player count, with Wilson intervals."""

from __future__ import annotations

from pathlib import Path

import polars as pl

from ..logs import load_run
from .arguments import check_run
from .stats import equal_shares_test, wilson

Run = dict[str, pl.LazyFrame]


def as_run(run: Run | str | Path) -> Run:
    check_run(run)  # once per call, at the start of every function that takes a run
    return run if isinstance(run, dict) else load_run(run)


def with_interval(table: pl.DataFrame, wins: str = "wins", games: str = "games", prefix: str = "") -> pl.DataFrame:
    """Add rate and its 95% Wilson interval columns to a table of counts."""
    low, high = wilson(table[wins].to_numpy(), table[games].to_numpy())
    return table.with_columns(
        (pl.col(wins) / pl.col(games)).alias(f"{prefix}win_rate"),
        pl.Series(f"{prefix}ci_low", low),
        pl.Series(f"{prefix}ci_high", high),
    )


def _rates(players: pl.LazyFrame, keys: list[str]) -> pl.DataFrame:
    counts = players.group_by(keys).agg(pl.len().alias("games"), pl.col("won").sum().alias("wins")).sort(keys)
    return with_interval(counts.collect())


def by_seat(run: Run | str | Path) -> pl.DataFrame:
    """Win rate of each seat (0 plays first), per player count, with the fair share 1/P."""
    run = as_run(run)
    players = run["players"].join(run["games"].select("game_id", "n_players"), on="game_id")
    table = _rates(players, ["n_players", "seat"])
    return table.with_columns((1 / pl.col("n_players")).alias("fair"))


def by_draft_position(run: Run | str | Path) -> pl.DataFrame | None:
    """Win rate by place in the draft's snake order (1 = first pick), per player
    count, with the fair share and `with_first_player`: the share of games whose
    first drafter was also the first player (seat 0). None where the logs have
    no draft order (games without a draft)."""
    run = as_run(run)
    if "draft_position" not in run["players"].collect_schema().names():
        return None
    games = run["games"].select("game_id", "n_players", "first_drafter")
    players = run["players"].select("game_id", "draft_position", "won").join(games, on="game_id")
    table = _rates(players, ["n_players", "draft_position"])
    same = games.group_by("n_players").agg((pl.col("first_drafter") == 0).mean().alias("with_first_player")).collect()
    return table.join(same, on="n_players").with_columns((1 / pl.col("n_players")).alias("fair"))


def by_bot(run: Run | str | Path) -> pl.DataFrame:
    """Win rate of each bot profile (a bot's games count once per seat it held)."""
    return _rates(as_run(run)["players"], ["bot"])


def by_player_count(run: Run | str | Path) -> pl.DataFrame:
    """Games, finished share and mean rounds by player count."""
    games = as_run(run)["games"]
    return (
        games.group_by("n_players")
        .agg(
            pl.len().alias("games"),
            pl.col("finished").mean().alias("finished_share"),
            pl.col("rounds").mean().alias("mean_rounds"),
        )
        .sort("n_players")
        .collect()
    )


def by_playbook(run: Run | str | Path) -> pl.DataFrame:
    """Win rate of players holding each Playbook at the end (drafted or from a Pit Stop)."""
    players = as_run(run)["players"].select("game_id", "seat", "won", "playbooks").explode("playbooks")
    players = players.rename({"playbooks": "playbook"}).drop_nulls("playbook")
    return _rates(players, ["playbook"])


def from_share(rates: pl.DataFrame, key: str) -> list[dict]:
    """Each seat's (or draft position's, `key`) win rate less its fair share, with its 95% interval and games,
    per row of by_seat's (or by_draft_position's) table, in order: the one figure fit's seat-balance and
    draft-balance targets, rebalance and the report read a position by."""
    out = []
    for r in rates.sort(["n_players", key]).iter_rows(named=True):
        fair = r.get("fair") or 1 / r["n_players"]
        out.append(
            {"n_players": r["n_players"], "position": r[key], "games": int(r["games"])}
            | {"change": r["win_rate"] - fair, "ci_low": r["ci_low"] - fair, "ci_high": r["ci_high"] - fair}
        )
    return out


def seat_equality(run: Run | str | Path, seats: pl.DataFrame | None = None) -> pl.DataFrame:
    """Per player count: the chi-square test that every seat wins equally often
    (finished games only), and the balance index 1 - (largest minus smallest
    seat win rate). `seats`: another table of the same shape to test (the
    win rate by draft position, say); default by_seat(run)."""
    seats = by_seat(run) if seats is None else seats
    rows = []
    for (n_players,), group in seats.group_by(["n_players"], maintain_order=True):
        stat, df, p = equal_shares_test(group["wins"].to_numpy())
        rates = group["win_rate"]
        rows.append(
            {
                "n_players": n_players,
                "games": int(group["games"].max()),
                "chi2": stat,
                "df": df,
                "p_value": p,
                "largest_gap": float(rates.max() - rates.min()),
                "balance_index": float(1 - (rates.max() - rates.min())),
            }
        )
    return pl.DataFrame(rows)
