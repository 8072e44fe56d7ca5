"""What a traced Downforce game says, in words: the records of numbers the
compiled rules write for the watched game (rules.SAY_*), written as lines of
`balance trace` (the auction, the powers kept, each card and each bet)."""

from __future__ import annotations

import numpy as np

from ...recorder import hands_text
from ..compile import Tables
from . import rules as R


def trace_lines(records: np.ndarray, tables: Tables, players: int) -> list[str]:
    N, cars, cards, powers = players, tables.cars, tables.cards, tables.powers.ids
    track = tables.tracks[tables.rules.track]
    C = len(cards.ids)
    lines: list[str] = []
    for rec in records.tolist():
        kind = rec[0]
        if kind == R.SAY_AUCTION_HEAD:
            lines.append("Auction:")
        elif kind == R.SAY_BONUS_CARD:
            lines.append(f"  strength bonus: player {rec[1]} is dealt an extra {cards.ids[rec[2]]}")
        elif kind == R.SAY_AUCTION:
            r, car, power, winner, pay = rec[1:6]
            amount, card, eligible = rec[6 : 6 + N], rec[6 + N : 6 + 2 * N], rec[6 + 2 * N : 6 + 3 * N]
            # each bid with its card: equal bids are broken by the cars on the card, then no wild
            bids = ", ".join(
                f"player {n} {amount[n]} ({cards.ids[card[n]]})" if eligible[n] else f"player {n} -" for n in range(N)
            )
            power_card = f"with {powers[power]}" if power >= 0 else "without a power card"
            lines.append(
                f"  auction {r + 1}: the {cars[car]} car {power_card}; bids {bids}; player {winner} buys it for ${pay}M"
            )
        elif kind == R.SAY_BONUS_POWER:
            who, power, kept = rec[1:4]
            instead = f"in place of {powers[kept]}" if kept >= 0 else "(it had won none)"
            lines.append(f"  strength bonus: player {who} holds {powers[power]} {instead}")
        elif kind == R.SAY_POWERS:
            lines.append(
                "  powers kept: " + ", ".join(f"player {n} {powers[p]}" for n, p in enumerate(rec[1 : 1 + N]) if p >= 0)
            )
        elif kind == R.SAY_TURN:
            lines.append(f"Turn {rec[1]}:")
        elif kind == R.SAY_HANDS:
            lines.append(hands_text(np.array(rec[1 : 1 + N * C]).reshape(N, C), cards.ids))
        elif kind == R.SAY_PLAYS:
            lines.append(_plays(rec, cards, cars, track))
        elif kind == R.SAY_BET:
            k, bets = rec[1], rec[2 : 2 + N]
            lines.append(f"  betting line {k + 1}: " + ", ".join(f"player {p} on {cars[bets[p]]}" for p in range(N)))
    return lines


def _plays(rec: list[int], cards, cars, track) -> str:
    """A card played: each car's move where it ended (row, blocked, home), and the cars skipped."""
    player, card, M = rec[1:4]
    slots = [rec[4 + 6 * m : 10 + 6 * m] for m in range(M)]  # car, speed, present, pos, place, lost

    def where(pos: int, place: int, lost: int) -> str:
        if pos < 0:
            return f"home, place {place}"
        return f"row {track.row[pos]}" + (f", blocked ({lost} lost)" if lost else "")

    moved = "; ".join(f"{cars[c]} {s} ({where(pos, place, lost)})" for c, s, here, pos, place, lost in slots if here)
    skipped = [cars[c] for c, _, here, *_ in slots if c >= 0 and not here]
    return f"  player {player} plays {cards.ids[card]}: {moved}" + (f"; skips {', '.join(skipped)}" if skipped else "")
