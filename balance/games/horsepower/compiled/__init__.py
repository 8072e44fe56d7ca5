"""The compiled Horsepower engine: `simulate` plays a batch of games with the
rules of `rules.py` (numba), one game at a time, into a `State` that logs and
reports read; the games are those the numpy lockstep engine played before its
removal (tests/test_compiled_horsepower.py's digests, the golden results).

The first use on a machine compiles the rules (about a minute, said once on
the console) and caches the machine code beside the sources (numba's cache);
later processes load it in a fraction of a second. `make test` compiles it
before the suite (`python -m balance.games.horsepower.compiled cards.yaml`).
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
from ..draft import Bonus
from ..state import State, empty_state
from . import structs
from . import tables as compiled_tables

STATE_FIELDS = structs.STATE_FIELDS
CODES = purpose_codes(compiled_tables.PURPOSES)
EVENTS_PER_GAME = 512  # room for a four-player game's card events; a longer game makes room as it goes
TRACE_RECORDS, TRACE_LISTS = 20_000, 2_000  # a traced game's room for what it says (made larger when a game needs it)
RULES = CompiledRules(__name__, "Horsepower", "about a minute")
TABLES = TablesCache(structs.Tables, compiled_tables.build)
__all__ = ["PROGRESS_FIRST", "simulate", "tables_for", "ensure_compiled"]


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
    """Play len(seats) games; seats (G, P) gives each seat's bot (an index into
    `bots`), seat 0 playing first; draws are keyed by the streams' seed and
    game ids. Returns the final state (`winner` -1 marks a game stopped by
    rules.max_rounds); `events`, if given, collects the card events of the
    logs. `progress(state)`, if given, is called about every PROGRESS_SECONDS
    and at the end (the runner's progress within a chunk). `broken`, if
    given, gets the first rule of the rules checker (rules.RULES) a game's
    state breaks after a turn, as a sentence naming the game, round and seat.
    `rec`, watching a game, gets what it does in words (balance trace)."""
    rules = RULES.load()
    seats = np.asarray(seats, dtype=np.int16)
    G, P = seats.shape
    tab = tables_for(tables, bots, P)
    r = tables.rules
    K, B = len(tables.cards.ids), len(tables.playbooks.ids)
    st = empty_state(G, P, K, B, r.showroom_size, r.track_length, r.laps)
    st.bots[:] = seats
    arrays = structs.StateArrays(*(getattr(st, name) for name in STATE_FIELDS))
    card, book, who, instead = -1, -1, np.zeros(G, np.int64), True
    if bonus is not None:
        card, book, who, instead = bonus.card, bonus.playbook, np.asarray(bonus.who, np.int64), bonus.instead
    checker = Checker(broken)
    watch, verbose = watched(rec)  # the traced game, -1 none
    width = max(P * K, B, 64) + 1
    shapes = [(TRACE_RECORDS, 10), (TRACE_LISTS, width)] if watch >= 0 else [(1, 10), (1, width)]
    room = Room.make(G, EVENTS_PER_GAME, events is not None, shapes)

    def play(room: Room, start: int, stop: int) -> int:
        (trace, rows), (trace_n, rows_n) = room.traces, room.counts
        return rules.play_games(
            tab, arrays, streams.game, CODES, room.events, room.written, events is not None, checker.finding, watch,
            verbose, trace, trace_n, rows, rows_n, start, stop, card, book, who, instead,
        )  # fmt: skip

    def fresh(g: int) -> None:
        laps = st.lap_turns.shape[2]
        empty = empty_state(1, P, K, B, st.showroom.shape[1], st.bananas.shape[1] - 1, laps)
        fresh_rows(st, g, empty, STATE_FIELDS)
        st.bots[g] = seats[g]

    play_in_slices(play, G, room, fresh, None if progress is None else lambda: progress(st))
    if watch >= 0:
        from .trace_text import trace_lines

        (trace, rows), (trace_n, _) = room.traces, room.counts
        rec.lines.extend(trace_lines(trace[: int(trace_n[0])], rows, tables, bots, P))
    checker.tell(rules.RULES, lambda g, r, s: f"game {g}, round {r}, after seat {s}'s turn")
    room.hand_over(events)
    return st


is_compiled = RULES.is_compiled


def ensure_compiled(tables: Tables, bots: BotTable, players: int) -> None:
    """Compile the rules now, in this process, if no cache holds them: called
    where a scenario is prepared, before any worker starts, so that the
    workers load one compiled engine instead of each compiling its own."""
    if not RULES.is_compiled():
        simulate(tables, bots, np.zeros((1, players), np.int16), Streams(0, 0, 1))
