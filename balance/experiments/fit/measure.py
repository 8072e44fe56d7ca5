"""The figures `balance fit`'s targets are about, measured on a run (and a
strength table), each with its 95% interval, in the targets' units: points
for win rates and their differences, the game's own unit for its length."""

from __future__ import annotations

import math
from dataclasses import dataclass
from pathlib import Path

import polars as pl

from ...analysis import laps, winrate
from .targets import Target


@dataclass(frozen=True)
class Figure:
    value: float  # in the target's unit
    low: float  # its 95% interval
    high: float
    n: int  # games behind it


def seat_balance(run: Path, by: str = "seat") -> dict[str, Figure]:
    """Each seat's win rate minus its fair share, in points, with its 95%
    interval (at the run's largest player count), keyed "seat N" (0 plays
    first); with `by="draft_position"`, each draft position's, keyed "draft
    position N" (1 picks first)."""
    seats = winrate.by_seat(run) if by == "seat" else winrate.by_draft_position(run)
    if seats is None:  # a game without a draft
        return {}
    seats = seats.filter(pl.col("n_players") == seats["n_players"].max())
    word = by.replace("_", " ")
    return {
        f"{word} {f['position']}": Figure(100 * f["change"], 100 * f["ci_low"], 100 * f["ci_high"], f["games"])
        for f in winrate.from_share(seats, by)
    }


def bot_spread(run: Path) -> Figure:
    """The best bot's win rate minus the worst's, in points (interval: the two
    Wilson half-widths added in quadrature: the bots' win rates share games)."""
    bots = winrate.by_bot(run).sort("win_rate")
    lo, hi = bots.row(0, named=True), bots.row(-1, named=True)
    value = 100 * (hi["win_rate"] - lo["win_rate"])
    half = 100 * ((hi["ci_high"] - hi["ci_low"]) ** 2 + (lo["ci_high"] - lo["ci_low"]) ** 2) ** 0.5 / 2
    return Figure(value, value - half, value + half, int(min(hi["games"], lo["games"])))


def game_length(run: Path) -> Figure:
    """The mean game length with its 95% interval, over the games laps.game_length
    counts (rounds of finished games; Heat: the winner's round; Downforce:
    speed cards played). The mean, not the median: a median of whole rounds
    moves in steps, which a search cannot follow."""
    games = laps.as_run(run)["games"]
    column = "winner_round" if laps.has_winner_round({"games": games}) else "rounds"
    kept = pl.col(column).is_not_null() if column == "winner_round" else pl.col("finished")
    row = games.filter(kept).select(pl.col(column).mean().alias("mean"), pl.col(column).std().alias("sd"), pl.len())
    row = row.collect().row(0, named=True)
    n = int(row["len"])
    if n == 0:
        return Figure(math.nan, math.nan, math.nan, 0)
    half = 1.96 * float(row["sd"] or 0.0) / math.sqrt(n)
    return Figure(float(row["mean"]), float(row["mean"]) - half, float(row["mean"]) + half, n)


def strength_figures(table: pl.DataFrame) -> dict[str, Figure]:
    """Each item's causal strength (analysis.strength.strength_table), in points."""
    return {
        r["card"]: Figure(100 * r["change"], 100 * r["ci_low"], 100 * r["ci_high"], int(r["games"]))
        for r in table.iter_rows(named=True)
    }


def measure(target: Target, run: Path, strengths: dict[str, Figure] | None = None) -> dict[str, Figure]:
    """The figures a target is about: one per seat (seat balance), one (bot
    spread, length), or one per item for strength targets (every item
    measured, for strength:all)."""
    if target.kind == "seat-balance":
        return seat_balance(run)
    if target.kind == "draft-balance":
        return seat_balance(run, "draft_position")
    if target.kind == "bot-spread":
        return {target.text: bot_spread(run)}
    if target.kind == "rounds":
        return {target.text: game_length(run)}
    strengths = strengths or {}
    if target.key == "all":
        return dict(strengths)
    return {target.key: strengths[target.key]} if target.key in strengths else {}
