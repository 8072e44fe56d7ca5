"""One set of units in everything a user reads: rates in percent, differences
of rates in percentage points, and a column name that says which.

The analysis frames hold rates as fractions (0.284), which is what the
statistics want; every file and page converts at the boundary, here: a rate
column `win_rate` becomes `win_rate_pct` (28.4), a difference `added_drafted`
becomes `added_drafted_pp` (+5.2). Counts, means of tallies, prices, turns,
p-values and indices keep their names and values.
"""

from __future__ import annotations

import re

import polars as pl

PCT, PP = "_pct", "_pp"

# shares by name: Downforce's finishing places and bets, Horsepower's draft order
_SHARES = {
    "fair",
    "with_first_player",
    "seat_first",
    "won_race",
    "stalled",
    "1st",
    "2nd",
    "3rd",
    "4th",
    "5th",
    "6th",
    "on_race_winner",
    "on_first_three",
    "on_own_car",
}
_INTERVAL = re.compile(r"^(?P<head>.*?)_?ci_(?:low|high)(?P<tail>.*)$")


def unit_of(column: str, columns: list[str]) -> str | None:
    """`_pct`, `_pp` or None (not a rate) for a float column of a table with
    these columns. An interval bound (`ci_low_drafted`, `ran_out_ci_high`)
    takes the unit of the estimate it bounds (`win_rate_drafted`,
    `ran_out_share`, `change`)."""
    if column.endswith((PCT, PP)):
        return None
    if column.startswith(("added", "change")) or column in ("largest_gap", "diff"):
        return PP
    if column.startswith("win_rate") or column.endswith(("_rate", "_share")) or column in _SHARES:
        return PCT
    bound = _INTERVAL.match(column)
    if bound:
        head, tail = bound["head"], bound["tail"]
        for estimate in (f"win_rate{tail}", f"{head}_share", f"{head}{tail}" if head else ""):
            if estimate in columns and estimate != column:
                return unit_of(estimate, columns)
        if "change" in columns and not head:  # balance strength: the interval of the paired change
            return PP
    return None


def in_units(table: pl.DataFrame, units: dict[str, str] | None = None) -> pl.DataFrame:
    """The table as a user reads it: rate columns x100 with `_pct`, differences
    x100 with `_pp`. `units`: the columns to convert and their unit, for a table
    whose names the rules cannot read (a tune's candidates hold profile values)."""
    if units is None:
        units = {c: unit_of(c, table.columns) for c, t in table.schema.items() if t.is_float()}
        units = {c: u for c, u in units.items() if u}
    return table.with_columns(pl.col(c) * 100 for c in units).rename({c: c + u for c, u in units.items()})


def from_units(table: pl.DataFrame) -> pl.DataFrame:
    """A table read back from a CSV that `in_units` wrote: fractions and the analysis names again."""
    back = {c: c.removesuffix(PCT).removesuffix(PP) for c in table.columns if c.endswith((PCT, PP))}
    return table.with_columns(pl.col(c) / 100 for c in back).rename(back)
