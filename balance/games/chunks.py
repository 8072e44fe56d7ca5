"""What every game's chunk module shares: who sits where in a chunk of games,
and a chunk played and turned into its log tables."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np
import pyarrow as pa

from ..scenario import Scenario
from ..seeding import seat_order
from .events import Events


def chunk_seats(
    pool: bool, n_bots: int, scenario: Scenario, first: int, size: int, rng: np.random.Generator
) -> np.ndarray:
    """(size, P) the bot (an index into the scenario's bots) in each seat of each
    game: drawn from the pool, or the scenario's list rotated game by game."""
    P = scenario.model.players
    if pool:
        return rng.integers(0, n_bots, size=(size, P)).astype(np.int16)
    return seat_order(P, first, size, scenario.model.seat_rotation)


def logged_chunk(
    play: Callable[..., tuple[np.ndarray, Any]],
    log: Callable[..., dict[str, pa.Table]],
    prep: Any,
    scenario: Scenario,
    chunk: int,
    first: int,
    size: int,
    rng: np.random.Generator,
) -> dict[str, pa.Table]:
    """A chunk played with `play(prep, scenario, first, size, rng, events=...)` and
    turned into its tables by `log(state, events, seats, tables, bots, first, chunk)`."""
    events = Events()
    seats, st = play(prep, scenario, first, size, rng, events=events)
    return log(st, events, seats, prep.tables, prep.bots, first, chunk)
