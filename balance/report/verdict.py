"""The page's first answer: is the game balanced? By experiment (the items'
causal strength, in each field measured) and by the seats' and draft
positions' win rates, against the one fair band (analysis/band.py). It adds no
figure of its own: every count is the findings' (What to change lists the
items, Who wins from where the positions), so the answer agrees with them."""

from __future__ import annotations

import polars as pl

from ..analysis.strength import FAIR, STRONGER, UNDECIDED, WEAKER, verdict_counts
from .causal import position_figures, position_out, position_phrase

HEADING = "Is the game balanced?"


def verdict_lines(
    fields: list[tuple[str, pl.DataFrame | None, str]],
    positions: list[tuple[str, pl.DataFrame | None, pl.DataFrame | None, str]],
    tolerance: float,
) -> list[str]:
    """`fields`: (name, its strength table or None, the command that measures it); `positions`: (the word,
    its equality table: seat_equality's, its win rates: by_seat's or by_draft_position's, their key column)
    for the seats and draft positions. A position is out of balance as What to change, rebalance and fit read
    it: too strong or too weak by its own share (position_out); an undecided one is not yet shown balanced."""
    band = f"{100 * tolerance:g}"
    lines, outside, undecided, unsettled, missing = [], [], 0, 0, []
    for name, table, command in fields:
        if table is None:
            missing.append(f"{name} (measured by {command})")
            continue
        counts = verdict_counts(table)
        strong, weak, fair, open_ = (counts[v] for v in (STRONGER, WEAKER, FAIR, UNDECIDED))
        if strong + weak:
            outside.append(f"{strong + weak} {'item' if strong + weak == 1 else 'items'} in {name}")
        undecided += open_
        lines.append(
            f"In {name}: {fair} of {table.height} items fair, {strong} too strong, {weak} too weak, {open_} "
            f"undecided ({int(table['games'].sum()):,} paired games; causal: each item given to one seat, the same "
            "games without it)."
        )
    for word, equality, rates, key in positions:
        if equality is None or rates is None:
            continue
        figures = position_figures(rates, key, tolerance)
        for row in equality.iter_rows(named=True):
            mine = figures.get(row["n_players"], [])
            out = position_out(mine)
            open_ = [f for f in mine if f["verdict"] == UNDECIDED]
            if out:
                outside.append(f"the {word}s with {row['n_players']} players")
            unsettled += len(open_) if not out else 0
            said = "; ".join(position_phrase(word, f) for f in mine if f["verdict"] != FAIR)
            lines.append(
                f"{word.capitalize()}s ({row['n_players']} players): the best and worst {100 * row['largest_gap']:.1f} "
                f"points apart (n={row['games']:,} games; chi-square p = {row['p_value']:.3f}): "
                + (
                    f"outside the band: {said}."
                    if out
                    else f"not yet shown inside: {said}."
                    if open_
                    else "each inside the band of its share."
                )
            )
    if missing:
        lines.append("Not measured: " + "; ".join(missing) + ".")
    if outside:
        head = f"Not yet, by experiment at the fair band of +-{band} points: outside it, " + ", ".join(outside)
        head += (
            " (What to change lists the scenario's field's and the positions, with the one command that moves them "
            "all together; Under strong play shows each item in both fields)."
        )
    elif undecided or unsettled or missing:
        are = f"{undecided} item is" if undecided == 1 else f"{undecided} items are"
        if unsettled:  # a seat or draft position whose interval reaches past the band: more games tell
            are = (f"{undecided} {'item' if undecided == 1 else 'items'} and " if undecided else "") + (
                f"{unsettled} {'position' if unsettled == 1 else 'positions'} "
                + ("is" if undecided + unsettled == 1 else "are")
            )
        head = f"No figure is outside the fair band of +-{band} points by experiment, but {are} undecided"
        head += (" and a field is not measured" if missing else "") + ": not yet shown balanced."
    else:
        head = "Yes, by experiment: every item fair in every field measured, and every seat and draft position "
        head += f"inside the fair band of +-{band} points."
    return [head, *lines]
