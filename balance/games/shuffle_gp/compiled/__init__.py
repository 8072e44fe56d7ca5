"""The compiled Shuffle Grand Prix engine: `simulate` plays a batch of games
with the rules of `rules.py` (numba), one game at a time, into a `State`
(state.py) that logs and reports read; the games are those the numpy
lockstep engine played before its removal (tests/test_compiled_shuffle_gp.py,
the golden results).

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
from ..compile import Tables
from ..state import State, empty_state
from . import structs
from . import tables as compiled_tables
from .tables import Bonus

STATE_FIELDS = structs.STATE_FIELDS
CODES = purpose_codes(compiled_tables.PURPOSES)
EVENTS_PER_GAME = 64  # room for a game's card events to start with; the buffer doubles as it fills
TRACE_RECORDS, TRACE_LISTS = 20_000, 2_000  # a traced game's room for what it says (larger when a game needs it)
RULES = CompiledRules(__name__, "Shuffle Grand Prix", "about two minutes")
TABLES = TablesCache(structs.Tables, compiled_tables.build)
__all__ = ["PROGRESS_FIRST", "Bonus", "simulate", "tables_for", "ensure_compiled"]


tables_for = TABLES.get  # the compiled tables of (tables, bots, players), built once per process


def simulate(
    tables: Tables,
    bots: BotTable,
    seats: np.ndarray,
    streams: Streams,
    events: Events | None = None,
    bonus: Bonus | None = None,
    progress: Callable[[State], None] | None = None,
    broken: list[str] | None = None,
    rec: Recorder | None = None,
) -> State:
    """Play len(seats) games; seats (G, P) gives the bot (an index into `bots`)
    in each seat, clockwise; the draws are keyed by the streams' seed and game
    ids. Returns the final state; `events`, if given, collects the card events.
    `progress(state)`, if given, is called a few times a second and at the end
    (the runner's progress within a chunk).
    `broken`, if given, gets the first rule of the rules checker (rules.RULES)
    a game's state breaks after a turn, as a sentence naming the game, turn
    and seat. `rec`, watching a game, gets what it does in words (balance
    trace)."""
    rules = RULES.load()
    seats = np.asarray(seats, dtype=np.int16)
    G, P = seats.shape
    tab = tables_for(tables, bots, P)
    r = tables.rules
    K, V = len(tables.cards.ids), len(tables.distance.value)
    S = int(tables.distance.count.sum())
    st = empty_state(G, P, K, V, S, r.equip_slots)
    st.bots[:] = seats
    arrays = structs.StateArrays(*(getattr(st, name) for name in STATE_FIELDS))
    driver, card, who = -1, -1, np.zeros(G, np.int64)
    if bonus is not None:
        driver, card, who = bonus.driver, bonus.card, np.asarray(bonus.who, np.int64)
    checker = Checker(broken)
    watch, verbose = watched(rec)  # the traced game, -1 none
    width = max(P * K, 2 * P) + 1
    shapes = [(TRACE_RECORDS, 7), (TRACE_LISTS, width)] if watch >= 0 else [(1, 7), (1, width)]
    room = Room.make(max(G, 16), EVENTS_PER_GAME, events is not None, shapes)
    counts = np.zeros(2, np.int64)  # rows, records written: the rules' one array, seen by the room as two
    room.counts = [counts[1:2], counts[0:1]]

    def play(room: Room, start: int, stop: int) -> int:
        # the rules grow the event buffer themselves as it fills (and hand back the larger one)
        (trace, rows) = room.traces
        room.events = rules.play_games(
            tab, arrays, streams.game, CODES, room.events, room.written, events is not None, checker.finding, start, stop,
            driver, card, who, watch, verbose, trace, rows, counts,
        )  # fmt: skip
        return stop

    def fresh(g: int) -> None:
        empty = empty_state(1, P, K, st.deck.shape[1], st.bottom_order.shape[1], st.equip.shape[2])
        fresh_rows(st, g, empty, STATE_FIELDS)
        st.bots[g] = seats[g]

    play_in_slices(play, G, room, fresh, None if progress is None else lambda: progress(st))
    if watch >= 0:
        from .trace_text import trace_lines

        (trace, rows) = room.traces
        rec.lines.extend(trace_lines(trace[: int(counts[1])], rows, tables, P))
    checker.tell(rules.RULES, lambda g, turn, s: f"game {g}, turn {turn + 1}, after seat {s}'s turn")
    room.hand_over(events)
    return st


is_compiled = RULES.is_compiled


def ensure_compiled(tables: Tables, bots: BotTable, players: int) -> None:
    """Compile the rules now, in this process, if no cache holds them: called
    where a scenario is prepared, before any worker starts, so that the
    workers load one compiled engine instead of each compiling its own."""
    if not RULES.is_compiled():
        simulate(tables, bots, np.zeros((1, players), np.int16), Streams(0, 0, 1))
