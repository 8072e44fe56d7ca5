"""What a traced race said (records of numbers from rules.py) in words:
`balance trace` reads the lines the numpy engine (removed after commit
1c13126) said of the same race (tests/test_compiled_heat.py)."""

from __future__ import annotations

import numpy as np

from ...recorder import cards_text, hands_text
from ..bots import BotTable
from ..compile import Tables
from . import rules as R


def trace_lines(trace: np.ndarray, rows: np.ndarray, tables: Tables, bots: BotTable, P: int) -> list[str]:
    names, ids = tables.cards.names, tables.cards.ids
    legends = tables.legends
    K = len(names)
    lines = []
    for kind, a, b, c, d, e, f, h, i, row in trace.tolist():
        if kind == R.SAY_BONUS:
            lines.append(f"balance strength: car {a} starts with an extra {names[b]} ({ids[b]})")
        elif kind == R.SAY_DRAFT:
            lines.append("Garage draft:")
        elif kind == R.SAY_PICK:
            lines.append(f"  pick {a}: car {b} takes {names[c]} ({ids[c]})")
        elif kind == R.SAY_ROUND:
            lines.append(f"Round {a}:")
        elif kind == R.SAY_HANDS:
            lines.append(hands_text(rows[row, : a * K].reshape(a, K), names))
        elif kind == R.SAY_PLAN:  # car, bot, gear, new gear, Heat paid, Engine, target, overheats
            chosen = rows[row, :K]
            cards = cards_text(chosen, names, empty="-")
            shifted = f"gear {c} -> {d}" + (f" (pays {e} Heat)" if e else "")
            head = f"  car {a} ({bots.names[b]}): {shifted}, Engine {f} Heat, aims at speed {h}, plays {cards}"
            lines.append(head + (" (too few playable cards: overheats)" if i else ""))
        elif kind == R.SAY_LEGEND:  # car, straight, card, move, from, to
            lines.append(
                f"  car {a} (Legend; its card: straight {b}, corners +{legends.corner_bonus[c]}): speed {d}, {e} -> {f}"
            )
        elif kind == R.SAY_OVERHEATED:
            lines.append(f"  car {a}: overheated, does not move; back to gear 1")
        elif kind == R.SAY_CANNOT_PAY:
            lines.append(f"  car {a}: cannot pay {b} Heat for {names[c]}: discards it, plays a random speed card")
        elif kind == R.SAY_SPEED:
            lines.append(f"  car {a}: speed {b}, {c} -> {d}")
        elif kind == R.SAY_ADRENALINE:
            text = ("+1 speed" if b else "") + (" and " if b and c else "") + ("Cooldown 1" if c else "")
            lines.append(f"  car {a}: Adrenaline, " + text)
        elif kind == R.SAY_COOLDOWN:
            lines.append(f"  car {a}: Cooldown {b}")
        elif kind == R.SAY_BOOST:
            lines.append(f"  car {a}: Boost +{b} -> {c}")
        elif kind == R.SAY_SLIPSTREAM:
            lines.append(f"  car {a}: slipstreams to {b}")
        elif kind == R.SAY_CORNER:  # car, limit, speed, Heat over, paid
            result = f"pays {d} Heat" if e else f"cannot pay {d} Heat: SPINS OUT"
            lines.append(f"  car {a}: corner (limit {b}) at speed {c}: " + result)
        elif kind == R.SAY_FINISHED:
            lines.append("  finished: " + ", ".join(f"car {int(x)}" for x in rows[row, :a]))
    return lines
