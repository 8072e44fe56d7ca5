"""Simulate a batch of Shuffle Grand Prix games: set up, then turns until the
distance cards run out."""

from __future__ import annotations

from collections.abc import Callable

import numpy as np

from ..chance import Streams
from ..events import Events
from ..recorder import NULL, Recorder
from .bots import BotTable
from .compile import Tables
from .match import Match
from .setup import Bonus, setup
from .state import State
from .turn import play_game


def simulate(
    tables: Tables,
    bots: BotTable,
    seats: np.ndarray,
    streams: Streams,
    rec: Recorder = NULL,
    after_turn: Callable[[State, np.ndarray, np.ndarray], None] | None = None,
    events: Events | None = None,
    bonus: Bonus | None = None,
) -> State:
    """Play len(seats) games; seats (G, P) gives the bot (an index into `bots`)
    in each seat, clockwise. `after_turn(state, g, p)`, if given, runs after
    every turn (g the games that played one, p the seat there): the rules checker.
    `bonus`: a strength experiment's item for one seat a game (setup.Bonus)."""
    m = Match(tables, bots, streams, rec, events)
    st = setup(m, np.asarray(seats, dtype=np.int16), bonus)
    return play_game(m, st, after_turn)
