"""The compiled Shuffle Grand Prix engine: `simulate` plays a batch of games
with the rules of `rules.py` (numba), one game at a time, into the same
`State` the numpy engine fills, so logs and reports read either the same way,
and the games are the same games (tests/test_compiled_shuffle_gp.py, the
golden results).

The first use on a machine compiles the rules (said once on the console) and
caches the machine code beside the sources (numba's cache); later processes
load it in a fraction of a second.
"""

from __future__ import annotations

import os
import sys
import time
from collections.abc import Callable
from dataclasses import fields
from pathlib import Path

import numpy as np

from ...chance import Streams
from ...chance.compiled import purpose_codes
from ...events import Events
from ...recorder import Recorder
from ..bots import BotTable
from ..compile import Tables
from ..setup import Bonus
from ..state import State, empty_state
from . import structs
from . import tables as compiled_tables

STATE_FIELDS = tuple(f.name for f in fields(State))
structs.define_state(STATE_FIELDS)
CODES = purpose_codes(compiled_tables.PURPOSES)
EVENTS_PER_GAME = 64  # room for a game's card events to start with; the buffer doubles as it fills

_TABLES: dict[tuple[int, int, int], tuple[Tables, BotTable, structs.Tables]] = {}


def tables_for(tables: Tables, bots: BotTable, players: int) -> structs.Tables:
    """The compiled tables of (tables, bots, players), built once per process (a few kept)."""
    key = (id(tables), id(bots), players)
    hit = _TABLES.get(key)
    if hit is None or hit[0] is not tables or hit[1] is not bots:
        if len(_TABLES) >= 8:
            _TABLES.clear()
        hit = _TABLES[key] = (tables, bots, structs.Tables(*compiled_tables.build(tables, bots, players)))
    return hit[2]


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
    """engine.simulate's games, compiled: the same (G, P) seats, the same keyed
    draws (streams' seed and first game), the same final state and card
    events. `progress(state)`, if given, is called about every
    PROGRESS_SECONDS and at the end (the runner's progress within a chunk).
    `broken`, if given, gets the first rule of the rules checker (rules.RULES,
    invariants.py's) a game's state breaks after a turn, as a sentence naming
    the game, turn and seat. `rec`, watching a game, gets what it does in
    words (balance trace), as the numpy engine says it."""
    rules = compiled_rules()
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
    logging = events is not None
    buffer = np.zeros((max(G * EVENTS_PER_GAME, 16) if logging else 1, 7), np.int32)
    written = np.zeros(1, np.int64)
    finding = np.zeros(5, np.int64)
    finding[0] = broken is not None
    watch = rec.watch if rec is not None and rec.on else -1  # the traced game, -1 none
    verbose = watch >= 0 and bool(rec.verbose)
    width = max(P * K, 2 * P) + 1
    trace = np.zeros((TRACE_RECORDS if watch >= 0 else 1, 7), np.int64)
    rows = np.zeros((TRACE_LISTS if watch >= 0 else 1, width), np.int64)
    counts = np.zeros(2, np.int64)  # rows, records written
    game, slice_games = 0, PROGRESS_FIRST
    while game < G:
        stop = G if progress is None else min(G, game + slice_games)
        started = time.perf_counter()
        before = int(written[0])
        buffer = rules.play_games(
            tab, arrays, streams.game, CODES, buffer, written, logging, finding, game, stop, driver, card, who,
            watch, verbose, trace, rows, counts,
        )  # fmt: skip
        if counts[1] > len(trace) or counts[0] > len(rows):  # a long traced game: again, with room for its words
            trace = np.zeros((2 * max(len(trace), int(counts[1])), 7), np.int64)
            rows = np.zeros((2 * max(len(rows), int(counts[0])), width), np.int64)
            counts[:], written[:] = 0, before
            for g in range(game, stop):
                _fresh_game(st, g, seats)
            continue
        if progress is not None:
            progress(st)
            rate = (stop - game) / max(time.perf_counter() - started, 1e-6)
            slice_games = min(2 * slice_games, max(PROGRESS_FIRST, int(rate * PROGRESS_SECONDS)))
        game = stop
    if watch >= 0:
        from .trace_text import trace_lines

        rec.lines.extend(trace_lines(trace[: int(counts[1])], rows, tables, P))
    if finding[1]:
        rule, g, turn, seat = (int(v) for v in finding[1:])
        broken.append(f"{rules.RULES[rule - 1]} (game {g}, turn {turn + 1}, after seat {seat}'s turn)")
    if logging:
        cols = buffer[: int(written[0])]
        events.add_coded(cols[:, 0], cols[:, 1], cols[:, 2], cols[:, 3], cols[:, 4], cols[:, 5], cols[:, 6])
    return st


TRACE_RECORDS, TRACE_LISTS = 20_000, 2_000  # a traced game's room for what it says (larger when a game needs it)
# Progress is told after the first few games, then after slices twice as long each time, up to about
# PROGRESS_SECONDS of games at the rate so far.
PROGRESS_FIRST, PROGRESS_SECONDS = 8, 0.1


def compiled_rules():
    """The rules module, compiled: numba compiles (or loads from its cache) on
    first use, not on import, and says so on the console when it compiles."""
    from . import rules

    if not _COMPILED:
        if not is_compiled():
            print(
                "compiling the Shuffle Grand Prix engine, once on this machine: about two minutes",
                file=sys.stderr,
                flush=True,
            )
        _COMPILED.append(True)
    return rules


def is_compiled() -> bool:
    """Whether numba's cache holds the compiled rules: beside the sources (a
    file test, numba not imported), or where numba keeps it when the sources'
    folder is not writable (an installed package) or NUMBA_CACHE_DIR says."""
    beside = Path(__file__).parent / "__pycache__"
    if not os.environ.get("NUMBA_CACHE_DIR") and any(beside.glob("rules.play_games-*.nbi")):
        return True
    from . import rules

    return any(Path(rules.play_games._cache._cache_path).glob("rules.play_games-*.nbi"))


def ensure_compiled(tables: Tables, bots: BotTable, players: int) -> None:
    """Compile the rules now, in this process, if no cache holds them: called
    where a scenario is prepared, before any worker starts, so that the
    workers load one compiled engine instead of each compiling its own."""
    if not is_compiled():
        simulate(tables, bots, np.zeros((1, players), np.int16), Streams(0, 0, 1))


_COMPILED: list[bool] = []


def _fresh_game(st: State, g: int, seats: np.ndarray) -> None:
    """Game g's rows as empty_state makes them: the game is played again from its setup."""
    G, P, K = st.shape
    fresh = empty_state(1, P, K, st.deck.shape[1], st.bottom_order.shape[1], st.equip.shape[2])
    for name in STATE_FIELDS:
        getattr(st, name)[g] = getattr(fresh, name)[0]
    st.bots[g] = seats[g]
