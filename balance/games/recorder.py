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
    def __init__(self, watch: int | None = None) -> None:
        self.watch = watch  # game index in the batch, or None
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


NULL = Recorder()
