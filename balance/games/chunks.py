"""What every game's chunk module shares: what `prepare` hands a chunk, who
sits where in a chunk of games, a chunk played and turned into its log
tables, and the chunk of one traced game."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import numpy as np
import pyarrow as pa

from ..errors import UserError
from ..seeding import seat_order
from .base import ScenarioView
from .chance import Streams, uniform
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
    players: int = 0  # the scenario's player count, where the game's catalog depends on it


def chunk_seats(pool: bool, n_bots: int, scenario: ScenarioView, first: int, size: int, streams: Streams) -> np.ndarray:
    """(size, P) the bot (an index into the scenario's bots) in each seat of each
    game: drawn from the pool, or the scenario's list rotated game by game."""
    P = scenario.model.players
    if pool:
        u = uniform(streams.key(np.arange(size), "bots in seats"), P)
        return np.minimum(u * n_bots, n_bots - 1).astype(np.int16)
    return seat_order(P, first, size, scenario.model.seat_rotation)


def logged_chunk(
    play: Callable[..., tuple[np.ndarray, Any]],
    log: Callable[..., dict[str, pa.Table]],
    prep: Any,
    scenario: ScenarioView,
    chunk: int,
    first: int,
    size: int,
    streams: Streams,
    after_turn: Callable[..., None] | None = None,
    cards: bool = True,
) -> dict[str, pa.Table]:
    """A chunk played with `play(prep, scenario, first, size, streams, events=...)` and
    turned into its tables by `log(state, events, seats, tables, bots, first, chunk)`.
    `after_turn(state, ...)`: the engine's hook (the runner's progress within the chunk).
    `cards` False: no card events (an experiment's chunk, which reads who won: the engine keeps none, about
    a tenth of its time, and the cards table comes back empty)."""
    events = Events()
    seats, st = play(prep, scenario, first, size, streams, events=events if cards else None, after_turn=after_turn)
    return log(st, events, seats, prep.tables, prep.bots, first, chunk)


@dataclass(frozen=True)
class Traced:
    """One traced game, played alone with the recorder on it."""

    prep: Any
    seats: np.ndarray  # (1, P) the game's bots by seat
    st: Any  # the game's final state (a batch of one)
    names: list[str]  # the traced game's bot by seat
    lines: list[str]  # what the recorder said


def traced_game(
    scenario: ScenarioView,
    seed: int,
    game: int,
    prepare: Callable[[ScenarioView], Any],
    play: Callable[..., tuple[np.ndarray, Any]],
    noun: str = "game",
    verbose: bool = False,
) -> Traced:
    """Game `game` of `balance run` with the same seed: a game is a function of
    (scenario, seed, game id) alone (games/chance.py), so it is played by itself
    with `play(prep, scenario, first, size, streams, rec)`, whatever the run's chunks."""
    games = sum(scenario.chunks[-1]) if scenario.chunks else 0
    if not 0 <= game < games:
        raise UserError(
            scenario.doc.problem(("games",), f"{noun} {game} is not in the run (0 to {games - 1})", "--game-number")
        )
    prep = prepare(scenario)
    rec = Recorder(watch=0, verbose=verbose)
    seats, st = play(prep, scenario, game, 1, Streams(seed, game, 1), rec)
    return Traced(prep, seats, st, [prep.bots.names[q] for q in seats[0]], rec.lines)
