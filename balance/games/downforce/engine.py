"""Simulate a batch of Downforce games: deal, auction, race."""

from __future__ import annotations

from collections.abc import Callable

import numpy as np

from ..chance import Streams
from ..events import Events
from ..recorder import NULL, Recorder
from .auction import deal, run_auction
from .bots import BotTable
from .compile import Tables
from .match import Match
from .race import grid_cars, play_race
from .state import Bonus, State, empty_state


def simulate(
    tables: Tables,
    bots: BotTable,
    seats: np.ndarray,
    streams: Streams,
    rec: Recorder = NULL,
    after_turn: Callable[[State, np.ndarray], None] | None = None,
    events: Events | None = None,
    bonus: Bonus | None = None,
) -> State:
    """Play len(seats) games; seats (G, N) gives each player's bot (an index
    into `bots`), player 0 first in the auction's seat order. `after_turn(state,
    g)`, if given, runs after every card played (the rules checker). `bonus`:
    a strength experiment's item for one seat of each game (None: the game as
    the rules deal it; the deal and the auction draw the same random numbers
    either way)."""
    match = Match(tables, bots, streams, rec, events)
    seats = np.asarray(seats, dtype=np.int16)
    G, N = seats.shape
    st = empty_state(G, N, len(tables.cards.ids), len(match.track.row))
    st.bots[:] = seats
    if rec.on:
        rec.say(np.arange(G), lambda j: "Auction:")
    deal(match, st, bonus)
    run_auction(match, st, bonus=bonus)
    grid_cars(match, st)
    return play_race(match, st, after_turn)
