"""What a traced game says, in words: the compiled rules write records of
numbers (rules.say: kind, numbers, a list's row), and these are the numpy
engine's sentences for them, line for line (tests/test_golden_traces.py)."""

from __future__ import annotations

import numpy as np

from ...recorder import cards_text, hands_text
from .. import vocabulary as V
from ..bots import BotTable
from ..compile import SPACE_AUCTION, Tables
from . import rules as R


def trace_lines(records: np.ndarray, rows: np.ndarray, tables: Tables, bots: BotTable, players: int) -> list[str]:
    """The trace's lines of one game from its records (n, 10) and list rows."""
    cards, books = tables.cards.names, tables.playbooks.names
    ops = list(V.OPS)

    def listed(r: int) -> list[int]:
        return rows[r, 1 : 1 + rows[r, 0]].tolist() if r >= 0 else []

    lines: list[str] = []
    for rec in records.tolist():
        kind, a, b, c, d, e, f, row, extra = rec[:9]
        if kind == R.SAY_FIRST_DRAFTER:
            line = f"  the draft starts with seat {a} (the rulebook's Player 1, section 2.3)"
        elif kind == R.SAY_PICK:
            took = (
                f"drafts Playbook {books[d]}"
                if c == 0
                else f"drafts {cards[d]}"
                if c == 1
                else "passes: nothing left to draft"
            )
            line = f"  pick {a}: seat {b} {took}"
        elif kind == R.SAY_BONUS:
            how = f"instead of {books[c]}" if c >= 0 else "beside what it drafted"
            line = f"  strength bonus: seat {a} holds Playbook {books[b]} {how}"
        elif kind == R.SAY_TURN:
            hand = cards_text(np.array(listed(row)), cards, "-")
            wiped = ", Wiped Out" if extra else ""
            line = f"Round {a}, seat {b} ({bots.names[c]}): lap {d} space {e}, {f} coins{wiped}; hand: {hand}"
        elif kind == R.SAY_HANDS:
            line = hands_text(np.array(listed(row)).reshape(players, -1), cards)
        elif kind == R.SAY_PLAYS:
            line = f"  plays {cards[a]}"
        elif kind == R.SAY_BUYS:
            line = f"  buys {cards[a]} for {b} coin(s)"
        elif kind == R.SAY_REFRESH:
            line = f"  refreshes the Showroom ({'free' if a == 0 else f'{a} coin'})"
        elif kind == R.SAY_NO_DRIVE:
            line = f"  seat {a} is Wiped Out: no Drive this turn, marker removed"
        elif kind == R.SAY_DRIVE:
            dice = [v for v in listed(row) if v > 0]
            line = f"  Drive: cards {a:+d}, dice {dice} -> {b}" + (f", slowed -{c}" if c else "") + f" = {d}"
        elif kind == R.SAY_PIT:
            drawn = ", ".join(books[x] for x in listed(row))
            line = f"Round {a}, seat {b}: Pit Stop, draws {drawn}; keeps {books[c] if c >= 0 else 'nothing'}"
        elif kind == R.SAY_CHOOSES:
            line = f"  seat {a} chooses {'a Pit Stop' if b else 'to Race Through'}"
        elif kind == R.SAY_PLAYBOOKS:
            named = ", ".join(books[x] for x in listed(row))
            line = f"  Playbook {named} ({V.TRIGGERS[a].replace('_', ' ')}) for seat {b}:"
        elif kind == R.SAY_GAINS:
            line = f"  seat {a} gains {b} coin(s)"
        elif kind == R.SAY_DRAWS:
            line = f"  seat {a} draws {b} card(s)"
        elif kind == R.SAY_SHIELD:
            line = f"  seat {a} is shielded until its next turn"
        elif kind == R.SAY_NOBODY:
            shielded = listed(row)
            who = f"seat {', '.join(map(str, shielded))} shielded" if shielded else "nobody to target"
            line = f"  {ops[a]} ({V.TARGETS[b]}): {who}"
        elif kind == R.SAY_TAKES:
            line = f"  seat {a} takes {listed(row)} coins by seat"
        elif kind == R.SAY_SLOW:
            line = f"  seats {listed(row)} lose {b} Drive until seat {a}'s next turn"
        elif kind == R.SAY_DEBRIS:
            line = f"  seat {a} gets {b} Debris"
        elif kind == R.SAY_ALREADY_WIPED:
            line = f"  seat {a} is already Wiped Out: no effect"
        elif kind == R.SAY_WIPED:
            line = f"  seat {a} is Wiped Out"
        elif kind == R.SAY_BANANA:
            line = f"  Banana ahead of seat {a}: " + (f"placed on space {b}" if b >= 0 else "no free space, not placed")
        elif kind == R.SAY_MOVES:
            line = f"  seat {a} {'pushed' if b else 'drives'} {c} -> {d}" + (f" (lap {e})" if e >= 0 else "")
        elif kind == R.SAY_HITS:
            line = f"  seat {a} hits {b} Banana(s)"
        elif kind == R.SAY_WINS:
            line = f"  seat {a} completes lap {b} and WINS"
        elif kind == R.SAY_LAP:
            line = f"  seat {a} completes lap {b}: {c} Debris"
        elif kind == R.SAY_RESHUFFLE:
            line = f"  seat {a}'s Deck and Garage are shuffled together"
        elif kind == R.SAY_LANDS:
            line = f"  seat {a} lands on {'an Auction space' if b == SPACE_AUCTION else 'an Incinerator'}"
        elif kind == R.SAY_DRAWS_CARDS:
            line = f"  seat {a} draws {cards_text(np.array(listed(row)), cards)}"
        elif kind == R.SAY_SCRAPS:
            line = f"  seat {a} scraps {cards[b]} from {'hand' if c else 'Garage'}"
        elif kind == R.SAY_AUCTION:
            head = f"  Auction: {cards[a]} revealed; "
            if b == 0:
                line = head + f"seat {c} wins it for {d} coin(s) (limits {listed(row)} by seat)"
            elif b == 1:
                line = head + f"nobody bids; seat {c} takes it free"
            else:
                line = head + "nobody bids or takes it; it goes to the Showroom discard"
        else:  # pragma: no cover - every kind the rules write is written here
            raise ValueError(f"unknown trace record {kind}")
        lines.append(line)
    return lines
