"""What a watched game says, for `balance trace`: the game to watch (its
index in the batch), whether to say every hand and draw too (--verbose), and
the lines. A compiled engine's rules write records of numbers for the watched
game only (so tracing costs nothing in a run), and its trace_text.py turns
them into these lines with the helpers below.
"""

from __future__ import annotations

import numpy as np


class Recorder:
    def __init__(self, watch: int | None = None, verbose: bool = False) -> None:
        self.watch = watch  # game index in the batch, or None
        self.verbose = verbose  # balance trace --verbose: every hand and every draw too
        self.lines: list[str] = []

    @property
    def on(self) -> bool:
        return self.watch is not None


def cards_text(counts: np.ndarray, names, empty: str = "empty") -> str:
    """(K,) card counts in words: `Speed 1 x2, Stress` (a hand, the cards drawn)."""
    listed = [f"{names[k]}" + (f" x{counts[k]}" if counts[k] > 1 else "") for k in np.flatnonzero(counts > 0)]
    return ", ".join(listed) or empty


def hands_text(hand: np.ndarray, names) -> str:
    """Every seat's hand, (P, K) counts, in words: `seat 0: Speed 1 x2, Stress; seat 1: ...`."""
    return "    hands: " + "; ".join(f"seat {p}: {cards_text(row, names)}" for p, row in enumerate(hand))


NULL = Recorder()
