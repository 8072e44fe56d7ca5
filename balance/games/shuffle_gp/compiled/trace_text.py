"""What a traced game says, in words: the compiled rules write records of
numbers (rules.say: kind, numbers, a list's row), and these are their
sentences, line for line those of the numpy engine it replaced
(tests/test_golden_traces.py, tests/test_compiled_shuffle_gp.py)."""

from __future__ import annotations

import numpy as np

from ...recorder import cards_text, hands_text
from ..compile import Tables
from . import rules as R

WHY = {R.WHY_PIT: "pit stop", R.WHY_SPIN: "spin-out", R.WHY_DISCARD: "discard_distance"}


def trace_lines(records: np.ndarray, rows: np.ndarray, tables: Tables, players: int) -> list[str]:
    """The trace's lines of one game from its records (n, 7) and list rows."""
    cards, drivers = tables.cards.names, tables.drivers.names
    P = players

    def listed(r: int) -> list[int]:
        return rows[r, 1 : 1 + rows[r, 0]].tolist() if r >= 0 else []

    lines: list[str] = []
    for kind, a, b, c, d, e, row in records.tolist():
        if kind == R.SAY_DEALT:
            dealt = listed(row)
            line = "Setup: distance cards dealt " + ", ".join(f"seat {p}={dealt[p]}" for p in range(P))
        elif kind == R.SAY_TIE:
            line = "Setup: a tie for the highest card: seats " + ", ".join(map(str, listed(row))) + " are dealt again"
        elif kind == R.SAY_DEALT_AGAIN:
            again = listed(row)
            line = "Setup: dealt again " + ", ".join(f"seat {p}={again[p]}" for p in range(P) if again[p] >= 0)
        elif kind == R.SAY_GIVEN:
            line = f"Setup (strength experiment): seat {a} is given {drivers[b]}"
        elif kind == R.SAY_PICK:
            line = f"  pick {a}: seat {b} takes {drivers[c]}"
        elif kind == R.SAY_EXTRA_CARD:
            line = f"Setup (strength experiment): seat {a} gets an extra {cards[b]}"
        elif kind == R.SAY_FIRST:
            cars = listed(row)
            line = f"Seat {a} goes first. Cars: " + "; ".join(
                f"seat {p}: {drivers[cars[2 * p]]} (co-pilot {drivers[cars[2 * p + 1]]})" for p in range(P)
            )
        elif kind == R.SAY_DISTANCE:
            line = f"    seat {a} draws a distance card: {b}" + (f" ({c:+d})" if c else "")
        elif kind == R.SAY_LOSES:
            line = f"    seat {a} loses its top distance card ({b}) under the deck: {WHY[c]}"
        elif kind == R.SAY_DRAWS:
            line = f"    seat {a} draws {cards_text(np.array(listed(row)), cards)}"
        elif kind == R.SAY_WILL_SKIP:
            line = f"    seat {a} will skip {b} turn(s)"
        elif kind == R.SAY_SPENT:
            line = f"    seat {a}'s {cards[b]} is spent"
        elif kind == R.SAY_TAKES:
            line = f"    seat {a} takes {b} damage from seat {c}: tire health {d}"
        elif kind == R.SAY_SPINS:
            line = f"    seat {a} SPINS OUT: {drivers[b]} takes the wheel; trophies to seat(s) " + ", ".join(
                str(w) for w in listed(row)
            )
        elif kind == R.SAY_HEALS:
            line = f"    seat {a} heals {b}: tire health {c}"
        elif kind == R.SAY_STEALS:
            line = f"    seat {a} steals {cards[b]} from seat {c}"
        elif kind == R.SAY_SWAPS:
            line = f"    seat {a} swaps its top distance card with seat {b}'s"
        elif kind == R.SAY_REMOVED:
            line = f"    seat {a}'s {cards[b]} is removed"
        elif kind == R.SAY_SENDS:
            line = f"    seat {a} sends {cards[b]} back to seat {c}"
        elif kind == R.SAY_SPRINGS:
            line = f"    seat {a} springs seat {b}'s trap {cards[c]}"
        elif kind == R.SAY_ACTS:
            line = f"    seat {a}'s specialty ({drivers[b]}) acts"
        elif kind == R.SAY_ANSWERS:
            line = (
                f"    seat {a} answers with {cards[b]}: " + ("replaces" if c else "avoids") + f" seat {d}'s {cards[e]}"
            )
        elif kind == R.SAY_PASSES:
            line = f"  seat {a} passes"
        elif kind == R.SAY_PLAYS:
            when = ", anytime (not a turn's play)" if c else ""
            line = f"  seat {a} plays {cards[b]} ({tables.cards.ids[b]}){when}"
        elif kind == R.SAY_SITS:
            line = f"    {cards[a]} sits on seat {b}'s car"
        elif kind == R.SAY_PITS:
            line = f"  seat {a} pits: {cards[b]} off, {cards[c]} on"
        elif kind == R.SAY_REDRAWS:
            line = f"  seat {a} discards {cards[b]} and draws"
        elif kind == R.SAY_RUNS_OUT:
            line = f"    seat {a}'s {cards[b]} runs out"
        elif kind == R.SAY_NERF_OUT:
            line = f"    {cards[a]} on seat {b}'s car runs out"
        elif kind == R.SAY_DRIVES:
            line = f"  seat {a} spends a trophy: {drivers[b]} drives"
        elif kind == R.SAY_EXTRA_PLAY:
            line = f"  seat {a} spends two trophies on an extra play"
        elif kind == R.SAY_SKIPS:
            line = f"Turn {a}: seat {b} skips its turn"
        elif kind == R.SAY_TURN:
            line = f"Turn {a}: seat {b} ({drivers[c]} driving, tire health {d}, {e} trophies)"
        elif kind == R.SAY_HANDS:
            line = hands_text(np.array(listed(row)).reshape(P, -1), cards)
        elif kind == R.SAY_OVER:
            line = "The distance deck is empty: the race is over."
        elif kind == R.SAY_DOWN:
            line = f"    seat {a} discards {cards[b]} (down to {c})"
        else:
            raise AssertionError(f"an unknown trace record {kind}")
        lines.append(line)
    return lines
