"""The compiled Heat engine: `simulate` plays a batch of races with the rules
of `rules.py` (numba), one race at a time, into a `State` (state.py) that
logs and reports read. It replaced a numpy lockstep engine (removed after
commit 1c13126, where both were proven to play the same races:
tests/test_compiled_heat.py, the golden results).

The first use on a machine compiles the rules (said once on the console) and
caches the machine code beside the sources (numba's cache); later processes
load it in a fraction of a second.
"""

from __future__ import annotations

from collections.abc import Callable

import numpy as np

from ...chance import Streams
from ...chance.compiled import purpose_codes
from ...compiled_engine import (
    PROGRESS_FIRST,
    Checker,
    CompiledRules,
    Room,
    TablesCache,
    fresh_rows,
    play_in_slices,
    watched,
)
from ...events import Events
from ...recorder import Recorder
from ..bots import BotTable
from ..compile import SECTOR_COLUMNS, Tables
from ..state import State, empty_state
from . import structs
from . import tables as compiled_tables

STATE_FIELDS = structs.STATE_FIELDS
CODES = purpose_codes(compiled_tables.PURPOSES)
EVENTS_PER_GAME = 1024  # room for a six-car race's card events; a longer race makes room as it goes
TRACE_RECORDS, TRACE_ROWS = 4_000, 400  # a traced race's room for what it says (made larger when a race needs it)
RULES = CompiledRules(__name__, "Heat", "about 30 s")
TABLES = TablesCache(structs.Tables, compiled_tables.build)
__all__ = ["PROGRESS_FIRST", "simulate", "tables_for", "ensure_compiled"]


tables_for = TABLES.get  # the compiled tables of (tables, bots, players), built once per process


def new_state(tables: Tables, G: int, P: int) -> State:
    track = tables.tracks[tables.rules.track]
    return empty_state(
        G, P, len(tables.cards.ids), len(tables.legends.helmet), track.laps, len(track.limit), len(SECTOR_COLUMNS)
    )


def simulate(
    tables: Tables,
    bots: BotTable,
    seats: np.ndarray,
    streams: Streams,
    events: Events | None = None,
    bonus: tuple[int, np.ndarray] | None = None,
    progress: Callable[[State], None] | None = None,
    broken: list[str] | None = None,
    rec: Recorder | None = None,
    carry: np.ndarray | None = None,
    named: Callable[[int], str] | None = None,
) -> State:
    """Race len(seats) races: seats (G, P) gives the bot (an index into `bots`)
    of the car on each grid slot, slot 0 on pole; the draws are keyed by the
    streams' seed and race ids (a race is the same race in any batch).
    `bonus` = (card, (G,) grid slot): balance strength's extra starting copy.
    `progress(state)`, if given, is called about every PROGRESS_SECONDS and at
    the end. `broken`, if given, gets the first rule of the rules checker
    (rules.RULES) a race's state breaks after a turn, naming race, round and car.
    `rec`, watching a race, gets what it does in words (balance trace).
    `carry` (G, P, K), a Championship race's (tables.event): the cards each
    grid slot's car brings from the season's races before (championship.py).
    `named(race)` says which race a finding of the checker is in (a season's race: its season and place)."""
    rules = RULES.load()
    seats = np.asarray(seats, dtype=np.int16)
    G, P = seats.shape
    st = new_state(tables, G, P)
    st.bots[:] = seats
    arrays = structs.StateArrays(*(getattr(st, name) for name in STATE_FIELDS))
    card, who = -1, np.zeros(G, np.int64)
    if bonus is not None:
        card, who = int(bonus[0]), np.asarray(bonus[1], np.int64)
        if bots.legend[seats[np.arange(G), who]].any():
            raise ValueError("a strength bonus for a Legend car: Legends have no deck")
    tab = tables_for(tables, bots, P, None if card < 0 else card)
    K = len(tables.cards.ids)
    carry = np.zeros((0, P, K), np.int16) if carry is None else np.ascontiguousarray(carry, dtype=np.int16)
    checker = Checker(broken)
    watch, verbose = watched(rec)  # the traced game, -1 none
    width = max(P * len(tables.cards.ids), 64)
    shapes = [(TRACE_RECORDS, 10), (TRACE_ROWS, width)] if watch >= 0 else [(1, 10), (1, width)]
    room = Room.make(G, EVENTS_PER_GAME, events is not None, shapes)

    def play(room: Room, start: int, stop: int) -> int:
        (trace, rows), (trace_n, rows_n) = room.traces, room.counts
        return rules.play_games(
            tab, arrays, streams.game, CODES, room.events, room.written, events is not None, checker.finding, watch,
            verbose, trace, trace_n, rows, rows_n, start, stop, card, who, carry,
        )  # fmt: skip

    def fresh(g: int) -> None:
        fresh_rows(st, g, new_state(tables, 1, P), STATE_FIELDS)
        st.bots[g] = seats[g]

    play_in_slices(play, G, room, fresh, None if progress is None else lambda: progress(st))
    if watch >= 0:
        from .trace_text import trace_lines

        (trace, rows), (trace_n, _) = room.traces, room.counts
        rec.lines.extend(trace_lines(trace[: int(trace_n[0])], rows, tables, bots, P))
    name = named or (lambda g: f"race {g}")
    checker.tell(rules.RULES, lambda g, r, s: f"{name(g)}, round {r}, after car {s}'s turn")
    room.hand_over(events)
    return st


is_compiled = RULES.is_compiled


def ensure_compiled(tables: Tables, bots: BotTable, players: int) -> None:
    """Compile the rules now, in this process, if no cache holds them: called
    where a scenario is prepared, before any worker starts."""
    drivers = np.flatnonzero(~bots.legend)
    if not RULES.is_compiled() and len(drivers):  # (a pool of Legends only is refused when its races are seated)
        simulate(tables, bots, np.full((1, players), drivers[0], np.int16), Streams(0, 0, 1))
