"""The findings at the top of the report, in words, each with its numbers."""

from __future__ import annotations

import math

import polars as pl


def pct(x: float) -> str:
    return f"{100 * x:.1f}%"


def interval(low: float, high: float) -> str:
    return f"{100 * low:.1f}-{100 * high:.1f}%"


def p_text(p: float) -> str:
    if not math.isfinite(p):
        return "p undefined"
    return "p < 0.001" if p < 0.001 else f"p = {p:.3f}"


def findings(
    seats: pl.DataFrame,
    equality: pl.DataFrame,
    bots: pl.DataFrame,
    cards: pl.DataFrame,
    books: pl.DataFrame,
    length: pl.DataFrame,
    names: dict[str, str],
    parts: set[str] | None = None,
    top: int = 6,
) -> list[str]:
    """`parts`: the Parts Deck cards (only they can be "almost never taken"; None: every card)."""
    out: list[str] = []
    for row in equality.iter_rows(named=True):
        group = seats.filter(pl.col("n_players") == row["n_players"]).sort("win_rate", descending=True)
        best = group.row(0, named=True)
        verdict = "seats differ" if row["p_value"] < 0.05 else "no evidence that seats differ"
        out.append(
            f"Seat {best['seat']} wins {pct(best['win_rate'])} ({interval(best['ci_low'], best['ci_high'])}) "
            f"vs {pct(best['fair'])} fair, n={best['games']:,} games; {verdict} "
            f"(chi-square {p_text(row['p_value'])}); balance index {row['balance_index']:.2f}."
        )
    ordered = bots.sort("win_rate", descending=True)
    if len(ordered) > 1:
        hi, lo = ordered.row(0, named=True), ordered.row(-1, named=True)
        out.append(
            f"Best bot {hi['bot']} wins {pct(hi['win_rate'])} ({interval(hi['ci_low'], hi['ci_high'])}), "
            f"worst {lo['bot']} {pct(lo['win_rate'])} ({interval(lo['ci_low'], lo['ci_high'])}): "
            "card results below are shaped by which bots take which cards."
        )
    rows = []
    for how in ("drafted", "bought"):
        part = cards.filter(pl.col(f"significant_{how}")).select(
            "card",
            pl.lit(how).alias("how"),
            pl.col(f"added_{how}").alias("added"),
            pl.col(f"added_low_{how}").alias("low"),
            pl.col(f"added_high_{how}").alias("high"),
            pl.col(f"n_{how}").alias("n"),
        )
        rows.append(part)
    significant = pl.concat(rows).sort(pl.col("added").abs(), descending=True).head(top)
    for row in significant.iter_rows(named=True):
        name = names.get(row["card"], row["card"])
        out.append(
            f"{name}: {100 * row['added']:+.1f} points of win rate when {row['how']} "
            f"({100 * row['low']:+.1f} to {100 * row['high']:+.1f}), n={row['n']:,}."
        )
    if significant.is_empty():
        out.append("No card's win rate added is significant after the Benjamini-Hochberg correction.")
    rare = [c for c in cards.filter(pl.col("rarely_taken"))["card"].to_list() if parts is None or c in parts]
    if rare:
        out.append(f"Almost never taken (under 1% of players): {', '.join(names.get(c, c) for c in rare)}.")
    strong = books.filter(pl.col("significant_held")).sort("added_held", descending=True)
    for row in strong.head(3).iter_rows(named=True):
        out.append(
            f"Playbook {names.get(row['playbook'], row['playbook'])}: {100 * row['added_held']:+.1f} points when held "
            f"({100 * row['added_low_held']:+.1f} to {100 * row['added_high_held']:+.1f}), n={row['n_held']:,}."
        )
    g = length.row(0, named=True)
    out.append(
        f"Games last {g['median']:.0f} rounds (median; 80% between {g['p10']:.0f} and {g['p90']:.0f}), "
        f"{pct(g['unfinished_share'])} unfinished, n={g['all_games']:,}."
    )
    return out
