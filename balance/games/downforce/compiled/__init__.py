"""The compiled Downforce engine: `simulate` plays a batch of games with the
rules of `rules.py` (numba), one game at a time, into the same `State` the
numpy engine filled, so logs and reports read it the same way, and the games
are the same games (tests/test_compiled_downforce.py, the golden results).

The first use on a machine compiles the rules (said once on the console) and
caches the machine code beside the sources (numba's cache); later processes
load it in a fraction of a second. `make test` compiles it before the suite
(`python -m balance.games.downforce.compiled`).
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
from ..state import Bonus, State, empty_state
from . import structs
from . import tables as compiled_tables

STATE_FIELDS = structs.STATE_FIELDS
CODES = purpose_codes(compiled_tables.PURPOSES)
EVENTS_PER_GAME = 256  # room for a six-player game's card events; a longer game makes room as it goes
TRACE_RECORDS = 2_000  # a traced game's room for what it says (made larger when a game needs it)
RULES = CompiledRules(__name__, "Downforce", "about 20 s")
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
    """The games of seats (G, N) (each player's bot, player 0 first in the
    auction's seat order) from `streams` (its seed and first game): the final
    state and the card events. `bonus`: a strength item for one seat of each
    game. `progress(state)`, if given, is called a few times a second and at
    the end. `broken`, if given, gets the first rule of the rules checker
    (rules.RULES) a game breaks after a card, as a sentence naming the game,
    turn and player. `rec`, watching a game, gets what it does in words
    (balance trace)."""
    rules = RULES.load()
    seats = np.asarray(seats, dtype=np.int16)
    G, N = seats.shape
    tab = tables_for(tables, bots, N)
    track = tables.tracks[tables.rules.track]
    st = empty_state(G, N, len(tables.cards.ids), len(track.row))
    st.bots[:] = seats
    arrays = structs.StateArrays(*(getattr(st, name) for name in STATE_FIELDS))
    card, power, who = -1, -1, np.zeros(G, np.int64)
    if bonus is not None:
        card, power, who = bonus.card, bonus.power, np.asarray(bonus.who, np.int64)
    checker = Checker(broken)
    watch, verbose = watched(rec)  # the traced game, -1 none
    width = max(6 + 3 * N, 1 + N * len(tables.cards.ids), 4 + 6 * tables.cards.car.shape[1]) + 1
    room = Room.make(G, EVENTS_PER_GAME, events is not None, [(TRACE_RECORDS if watch >= 0 else 1, width)])

    def play(room: Room, start: int, stop: int) -> int:
        trace, trace_n = room.traces[0], room.counts[0]
        return rules.play_games(
            tab, arrays, streams.game, CODES, room.events, room.written, events is not None, checker.finding, watch,
            verbose, trace, trace_n, start, stop, card, power, who,
        )  # fmt: skip

    def fresh(g: int) -> None:
        fresh_rows(st, g, empty_state(1, N, len(tables.cards.ids), len(track.row)), STATE_FIELDS)
        st.bots[g] = seats[g]

    play_in_slices(play, G, room, fresh, None if progress is None else lambda: progress(st))
    if watch >= 0:
        from .trace_text import trace_lines

        rec.lines.extend(trace_lines(room.traces[0][: int(room.counts[0][0])], tables, N))
    checker.tell(rules.RULES, lambda g, turn, p: f"game {g}, card {turn}, played by player {p}")
    room.hand_over(events)
    return st


is_compiled = RULES.is_compiled


def ensure_compiled(tables: Tables, bots: BotTable, players: int) -> None:
    """Compile the rules now, in this process, if no cache holds them: called
    where a scenario is prepared, before any worker starts, so that the
    workers load one compiled engine instead of each compiling its own."""
    if not RULES.is_compiled():
        simulate(tables, bots, np.zeros((1, players), np.int16), Streams(0, 0, 1))
