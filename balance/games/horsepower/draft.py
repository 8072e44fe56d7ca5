"""The draft's snake order (rulebook 2.3), laid out in the compiled engine's
tables, and a strength experiment's bonus (compiled.simulate's `bonus`)."""

from __future__ import annotations

from typing import NamedTuple

import numpy as np


def snake_order(players: int, rounds: int) -> list[int]:
    """1 → P, P → 1, 1 → P... (2.3), as offsets clockwise from Player 1."""
    forward = list(range(players))
    return [p for r in range(rounds) for p in (forward if r % 2 == 0 else forward[::-1])]


class Bonus(NamedTuple):
    """A strength experiment's item for one seat of each game (`who`, (G,)):
    an extra copy of card `card` in its starting deck, or Playbook `playbook`
    held instead of the seat's drafted one (`instead`) or beside it; -1 for
    the kind not given."""

    card: int
    playbook: int
    who: np.ndarray
    instead: bool = True
