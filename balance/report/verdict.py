"""The page's first answer: is the game balanced? By experiment (the items'
causal strength, in each field measured) and by the seats' and draft
positions' win rates, against the one fair band (analysis/band.py). It adds no
figure of its own: every count is the findings' (What to change lists the
items, Who wins from where the positions), so the answer agrees with them."""

from __future__ import annotations

import polars as pl

from ..analysis.strength import FAIR, STRONGER, UNDECIDED, WEAKER, verdict_counts
from .causal import position_out

HEADING = "Is the game balanced?"


def verdict_lines(
    fields: list[tuple[str, pl.DataFrame | None, str]],
    positions: list[tuple[str, pl.DataFrame | None]],
    tolerance: float,
) -> list[str]:
    """`fields`: (name, its strength table or None, the command that measures it); `positions`: (the word,
    its equality table: seat_equality's) for the seats and draft positions. A position is out of balance as
    What to change reads it: equal shares rejected (p < 0.05) and the best and worst more than the band
    apart."""
    band = f"{100 * tolerance:g}"
    lines, outside, undecided, missing = [], [], 0, []
    for name, table, command in fields:
        if table is None:
            missing.append(f"{name} (measured by {command})")
            continue
        counts = verdict_counts(table)
        strong, weak, fair, open_ = (counts[v] for v in (STRONGER, WEAKER, FAIR, UNDECIDED))
        if strong + weak:
            outside.append(f"{strong + weak} items in {name}")
        undecided += open_
        lines.append(
            f"In {name}: {fair} of {table.height} items fair, {strong} too strong, {weak} too weak, {open_} "
            f"undecided ({int(table['games'].sum()):,} paired games; causal: each item given to one seat, the same "
            "games without it)."
        )
    for word, equality in positions:
        if equality is None:
            continue
        for row in equality.iter_rows(named=True):
            out = position_out(row, tolerance)
            if out:
                outside.append(f"the {word}s with {row['n_players']} players")
            lines.append(
                f"{word.capitalize()}s ({row['n_players']} players): the best and worst {100 * row['largest_gap']:.1f} "
                f"points apart (n={row['games']:,} games; chi-square p = {row['p_value']:.3f}): "
                + ("outside the band." if out else "inside the band.")
            )
    if missing:
        lines.append("Not measured: " + "; ".join(missing) + ".")
    if outside:
        head = f"Not yet, by experiment at the fair band of +-{band} points: outside it, " + ", ".join(outside)
        head += (
            " (What to change lists the scenario's field's and the positions, with the one command that moves them "
            "all together; Under strong play shows each item in both fields)."
        )
    elif undecided or missing:
        are = f"{undecided} item is" if undecided == 1 else f"{undecided} items are"
        head = f"No figure is outside the fair band of +-{band} points by experiment, but {are} undecided"
        head += (" and a field is not measured" if missing else "") + ": not yet shown balanced."
    else:
        head = "Yes, by experiment: every item fair in every field measured, and every seat and draft position "
        head += f"inside the fair band of +-{band} points."
    return [head, *lines]
