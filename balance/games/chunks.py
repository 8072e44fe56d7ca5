"""What every game's chunk module shares: what `prepare` hands a chunk, who
sits where in a chunk of games, a chunk played and turned into its log
tables, and the chunk of one traced game."""

from __future__ import annotations

from bisect import bisect_right
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import numpy as np
import pyarrow as pa

from ..errors import UserError
from ..scenario import Scenario
from ..seeding import chunk_rng, seat_order
from .events import Events
from .recorder import Recorder


@dataclass(frozen=True)
class Prepared:
    """A scenario checked once for its chunks: the game's database as loaded,
    its compiled tables, the scenario's bots (one entry per name in
    scenario.bot_names)."""

    database: Any
    tables: Any
    bots: Any
    pool: bool  # True: seats draw their bots from the pool at random


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
    after_turn: Callable[..., None] | None = None,
) -> dict[str, pa.Table]:
    """A chunk played with `play(prep, scenario, first, size, rng, events=...)` and
    turned into its tables by `log(state, events, seats, tables, bots, first, chunk)`.
    `after_turn(state, ...)`: the engine's hook (the runner's progress within the chunk)."""
    events = Events()
    seats, st = play(prep, scenario, first, size, rng, events=events, after_turn=after_turn)
    return log(st, events, seats, prep.tables, prep.bots, first, chunk)


@dataclass(frozen=True)
class Traced:
    """The chunk of one traced game, played with the recorder on its row."""

    prep: Any
    seats: np.ndarray  # (size, P) the chunk's bots by seat
    st: Any  # the chunk's final state
    row: int  # the traced game's row in the chunk
    chunk: int
    chunks: int  # chunks in the run
    names: list[str]  # the traced game's bot by seat
    lines: list[str]  # what the recorder said


def traced_chunk(
    scenario: Scenario,
    seed: int,
    game: int,
    prepare: Callable[[Scenario], Any],
    play: Callable[..., tuple[np.ndarray, Any]],
    noun: str = "game",
) -> Traced:
    """Game `game` of `balance run` with the same seed and chunks (scenario.chunks:
    a run's own plan, or the one games and chunk_size make): its whole chunk is
    played with `play(prep, scenario, first, size, rng, rec)` and the recorder
    watches its row."""
    plan = scenario.chunks
    chunk = bisect_right([first for first, _ in plan], game) - 1
    if game < 0 or chunk < 0 or game >= sum(plan[chunk]):
        end = sum(plan[-1]) if plan else 0
        raise UserError(
            scenario.doc.problem(("games",), f"{noun} {game} is not in the run (0 to {end - 1})", "--game-number")
        )
    prep = prepare(scenario)
    first, size = plan[chunk]
    row = game - first
    rec = Recorder(watch=row)
    seats, st = play(prep, scenario, first, size, chunk_rng(seed, chunk, len(plan)), rec)
    names = [prep.bots.names[q] for q in seats[row]]
    return Traced(prep, seats, st, row, chunk, len(plan), names, rec.lines)
