"""`balance cards`: a game's card database as rows of a table.

Each game keeps its cards in its own shape (Horsepower's flags and text,
Heat's tiers and speeds, Downforce's moves and powers, Shuffle GP's drivers
and distance deck); here each becomes the same thing, rows of text cells
with a type and the keys `--flag` filters by, so the command prints them
all alike.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any


@dataclass(frozen=True)
class Row:
    cells: dict[str, str]  # column -> the cell's text
    type: str  # what --type filters by
    flags: frozenset[str] = frozenset()  # what --flag filters by
    copies: int = 0  # copies in the game (for the title's total)


@dataclass(frozen=True)
class Listing:
    columns: tuple[str, ...]
    rows: tuple[Row, ...]
    flag_word: str | None  # what --flag means for this game (None: it has nothing to filter by)
    numeric: frozenset[str] = field(default_factory=frozenset)  # right-justified columns
    caption: str | None = None  # how to read a column, under the table


def _horsepower(db: Any) -> Listing:
    # A cost column only where some card sets `cost:`: the others pay rules.purchase_cost, which the
    # caption gives, so the column says which cards differ instead of repeating one number
    costed = any(c.cost is not None for c in db.cards)
    columns = ("id", "name", "type", "count", "flags", *(("cost",) if costed else ()), "text")
    rows = tuple(
        Row(
            {
                "id": c.id,
                "name": c.name,
                "type": c.type,
                "count": str(c.count),
                "flags": "".join(sorted(c.flags)),
                "cost": "" if c.cost is None else str(c.cost),
                "text": c.text,
            },
            c.type,
            frozenset(c.flags),
            c.count,
        )
        for c in db.cards
    )
    caption = f"blank cost: rules.purchase_cost ({db.rules.purchase_cost})" if costed else None
    return Listing(columns, rows, "flag", frozenset({"count", "cost"}), caption)


def _speed(speed: int | tuple[int, ...] | None) -> str:
    if speed is None:
        return ""
    return "/".join(str(s) for s in speed) if isinstance(speed, tuple) else str(speed)


def _heat(db: Any) -> Listing:
    rows = []
    for c in db.cards:
        effects = ", ".join(f"{e.op} {e.amount}" for e in c.effects)
        if c.approximate:
            effects = f"{effects} (approximate)" if effects else "(approximate)"
        keys = {c.tier} if c.tier else set()
        if c.approximate:
            keys.add("approximate")  # as balance validate counts it, beside the tiers
        cells = {
            "id": c.id,
            "name": c.name,
            "type": c.type,
            "tier": c.tier or "",
            "group": c.group or "",
            # Stress copies are set per track (its `stress`), not by the card
            "count": "by track" if c.count is None else str(c.count),
            "speed": _speed(c.speed),
            "flips": str(c.flips) if c.flips else "",
            "effects": effects,
        }
        rows.append(Row(cells, c.type, frozenset(keys), c.count or 0))
    columns = ("id", "name", "type", "tier", "group", "count", "speed", "flips", "effects")
    caption = (
        "count by track: the track raced sets the copies (its stress), left out of the copies above"
        if any(c.count is None for c in db.cards)
        else None
    )
    return Listing(columns, tuple(rows), "tier", frozenset({"count", "flips"}), caption)


def _downforce(db: Any) -> Listing:
    # the same words as the run's catalog (reports, balance strength): speed, speed8, power
    rows = [
        Row(
            {
                "id": c.id,
                "type": kind,
                "count": str(c.count),
                "moves": ", ".join(f"{m.car} {m.speed}" for m in c.moves),
                "name": "",
                "text": "",
            },
            kind,
            copies=c.count,
        )
        for kind, pile in (("speed", db.speed_cards), ("speed8", db.speed8_cards))
        for c in pile
    ]
    rows += [
        Row({"id": p.id, "type": "power", "count": "1", "moves": "", "name": p.name, "text": p.text}, "power", copies=1)
        for p in db.powers
    ]
    return Listing(("id", "type", "count", "moves", "name", "text"), tuple(rows), None, frozenset({"count"}))


def _shuffle_gp(db: Any) -> Listing:
    rows = [
        # the distance deck has no ids: a card is its value (overrides name it by position, distance.0)
        Row(
            {
                "id": "",
                "name": d.name,
                "driver": "",
                "type": "distance",
                "count": str(d.count),
                "turns": "",
                "text": f"{d.value} distance",
            },
            "distance",
            copies=d.count,
        )
        for d in db.distance
    ]
    for c in db.cards:
        when = c.trigger or c.cancels  # a trap's trigger, an anytime card's cancel
        rows.append(
            Row(
                {
                    "id": c.id,
                    "name": c.name,
                    "driver": c.driver,
                    "type": c.type + (f" ({when})" if when else ""),
                    "count": str(c.count),
                    "turns": str(c.turns) if c.turns else "",
                    "text": c.text,
                },
                c.type,
                frozenset({c.driver}),
                c.count,
            )
        )
    columns = ("id", "name", "driver", "type", "count", "turns", "text")
    return Listing(columns, tuple(rows), "driver", frozenset({"count", "turns"}))


LISTINGS: dict[str, Callable[[Any], Listing]] = {
    "horsepower": _horsepower,
    "heat": _heat,
    "downforce": _downforce,
    "shuffle_gp": _shuffle_gp,
}


def listing(game: str, db: Any) -> Listing:
    """The rows `balance cards` prints for `game`'s loaded database `db`."""
    return LISTINGS[game](db)
