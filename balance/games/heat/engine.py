"""Simulate a batch of Heat races: set up, then rounds until every car is home."""

from __future__ import annotations

from collections.abc import Callable

import numpy as np

from ..chance import Streams
from ..events import Events
from ..recorder import NULL, Recorder
from .bots import BotTable
from .compile import Tables
from .race import Race
from .setup import setup
from .state import State
from .turn import play_race


def simulate(
    tables: Tables,
    bots: BotTable,
    seats: np.ndarray,
    streams: Streams,
    rec: Recorder = NULL,
    after_turn: Callable[[State, np.ndarray, np.ndarray], None] | None = None,
    events: Events | None = None,
    bonus: tuple[int, np.ndarray] | None = None,
) -> State:
    """Race len(seats) races; seats (G, P) gives the bot (an index into `bots`)
    of the car on each grid slot, slot 0 on pole. `after_turn(state, g, p)`,
    if given, runs after every slot of every round (the rules checker).
    `bonus` = (card, (G,) grid slot): balance strength's extra starting copy (setup.give_bonus)."""
    race = Race(tables, bots, streams, rec, events)
    st = setup(race, np.asarray(seats, dtype=np.int16), bonus)
    return play_race(race, st, after_turn)
