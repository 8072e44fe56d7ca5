"""Simulate a batch of Horsepower games: set up, then rounds until done."""

from __future__ import annotations

from collections.abc import Callable

import numpy as np

from ..chance import Streams
from ..events import Events
from ..recorder import NULL, Recorder
from .bots import BotTable
from .compile import Tables
from .context import Ctx
from .draft import Bonus, setup
from .state import State
from .turn import play_rounds


def simulate(
    tables: Tables,
    bots: BotTable,
    seats: np.ndarray,
    streams: Streams,
    rec: Recorder = NULL,
    after_turn: Callable[[State, int], None] | None = None,
    events: Events | None = None,
    bonus: Bonus | None = None,
) -> State:
    """Play len(seats) games; seats (G, P) gives each seat's bot (an index into
    `bots`), seat 0 playing first. Returns the final state: `winner` -1 marks a
    game stopped by rules.max_rounds. `events`, if given, collects the card
    events of the logs."""
    ctx = Ctx(tables, bots, streams, rec, events)
    st = setup(ctx, np.asarray(seats, dtype=np.int16), bonus)
    return play_rounds(ctx, st, after_turn)
