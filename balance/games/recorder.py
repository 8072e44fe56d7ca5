"""Events of one watched game, for `balance trace`.

The engine calls `rec.say(games, text_fn)` where something happens; when no
game is watched (every simulation run) `rec.on` is False and the engine skips
the call, so tracing costs nothing. `text_fn(i)` formats the event for row
`i` of the arrays the engine passed (the game index for a mask, the
position in the index array otherwise), only when the watched game is involved.
"""

from __future__ import annotations

from collections.abc import Callable

import numpy as np


class Recorder:
    def __init__(self, watch: int | None = None, verbose: bool = False) -> None:
        self.watch = watch  # game index in the batch, or None
        self.verbose = verbose  # balance trace --verbose: every hand and every draw too (`detail`)
        self.lines: list[str] = []

    @property
    def on(self) -> bool:
        return self.watch is not None

    def say(self, games: np.ndarray, text: Callable[[int], str | None]) -> None:
        """`games`: (G,) bool mask or an index array of the games the event is
        about. A text of None says nothing (there was nothing new to say)."""
        if self.watch is None:
            return
        games = np.asarray(games)
        rows = (
            ([self.watch] if games[self.watch] else []) if games.dtype == bool else np.flatnonzero(games == self.watch)
        )
        for j in rows:
            line = text(int(j))
            if line is not None:
                self.lines.append(line)

    def detail(self, games: np.ndarray, text: Callable[[int], str | None]) -> None:
        """What `balance trace --verbose` adds (hands, draws): said only then."""
        if self.verbose:
            self.say(games, text)


def cards_text(counts: np.ndarray, names, empty: str = "empty") -> str:
    """(K,) card counts in words: `Speed 1 x2, Stress` (a hand, the cards drawn)."""
    listed = [f"{names[k]}" + (f" x{counts[k]}" if counts[k] > 1 else "") for k in np.flatnonzero(counts > 0)]
    return ", ".join(listed) or empty


def hands_text(hand: np.ndarray, names) -> str:
    """Every seat's hand, (P, K) counts, in words: `seat 0: Speed 1 x2, Stress; seat 1: ...`."""
    return "    hands: " + "; ".join(f"seat {p}: {cards_text(row, names)}" for p, row in enumerate(hand))


NULL = Recorder()
