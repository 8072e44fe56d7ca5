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
from ..state import State, empty_state
from . import structs
from . import tables as compiled_tables

STATE_FIELDS = tuple(f.name for f in fields(State))
structs.define_state(STATE_FIELDS)
CODES = purpose_codes(compiled_tables.PURPOSES)
EVENTS_PER_GAME = 1024  # room for a six-car race's card events; a longer race makes room as it goes

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


def new_state(tables: Tables, G: int, P: int) -> State:
    track = tables.tracks[tables.rules.track]
    return empty_state(G, P, len(tables.cards.ids), len(tables.legends.speed), track.laps, len(track.limit))


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
) -> State:
    """Race len(seats) races: seats (G, P) gives the bot (an index into `bots`)
    of the car on each grid slot, slot 0 on pole; the draws are keyed by the
    streams' seed and race ids (a race is the same race in any batch).
    `bonus` = (card, (G,) grid slot): balance strength's extra starting copy.
    `progress(state)`, if given, is called about every PROGRESS_SECONDS and at
    the end. `broken`, if given, gets the first rule of the rules checker
    (rules.RULES) a race's state breaks after a turn, naming race, round and car.
    `rec`, watching a race, gets what it does in words (balance trace)."""
    rules = compiled_rules()
    seats = np.asarray(seats, dtype=np.int16)
    G, P = seats.shape
    tab = tables_for(tables, bots, P)
    st = new_state(tables, G, P)
    st.bots[:] = seats
    arrays = structs.StateArrays(*(getattr(st, name) for name in STATE_FIELDS))
    card, who = -1, np.zeros(G, np.int64)
    if bonus is not None:
        card, who = int(bonus[0]), np.asarray(bonus[1], np.int64)
        if bots.legend[seats[np.arange(G), who]].any():
            raise ValueError("a strength bonus for a Legend car: Legends have no deck")
    logging = events is not None
    buffer = np.zeros((G * EVENTS_PER_GAME if logging else 1, 7), np.int32)
    written = np.zeros(1, np.int64)
    finding = np.zeros(5, np.int64)
    finding[0] = broken is not None
    watch = rec.watch if rec is not None and rec.on else -1  # the traced race, -1 none
    verbose = watch >= 0 and rec.verbose
    K = len(tables.cards.ids)
    width = max(P * K, 64)
    trace = np.zeros((TRACE_RECORDS if watch >= 0 else 1, 10), np.int64)
    rows = np.zeros((TRACE_ROWS if watch >= 0 else 1, width), np.int64)
    trace_n, rows_n = np.zeros(1, np.int64), np.zeros(1, np.int64)
    game, slice_games = 0, PROGRESS_FIRST
    while game < G:
        stop = G if progress is None else min(G, game + slice_games)
        started = time.perf_counter()
        before = int(written[0])
        done = rules.play_games(
            tab,
            arrays,
            streams.game,
            CODES,
            buffer,
            written,
            logging,
            finding,
            watch,
            verbose,
            trace,
            trace_n,
            rows,
            rows_n,
            game,
            stop,
            card,
            who,
        )
        if trace_n[0] > len(trace) or rows_n[0] > len(rows):  # a long traced race: again, with room for its words
            trace = np.zeros((2 * max(len(trace), int(trace_n[0])), 10), np.int64)
            rows = np.zeros((2 * max(len(rows), int(rows_n[0])), width), np.int64)
            trace_n[:], rows_n[:], written[:] = 0, 0, before
            for g in range(game, stop):
                _fresh_game(tables, st, g, seats)
            continue
        if done < stop:  # the buffer ran out in this race: more room, and the race again from its setup
            buffer = np.concatenate([buffer, np.zeros_like(buffer)])
            _fresh_game(tables, st, done, seats)
        elif progress is not None:
            progress(st)
            rate = (stop - game) / max(time.perf_counter() - started, 1e-6)
            slice_games = min(2 * slice_games, max(PROGRESS_FIRST, int(rate * PROGRESS_SECONDS)))
        game = done
    if watch >= 0:
        from .trace_text import trace_lines

        rec.lines.extend(trace_lines(trace[: int(trace_n[0])], rows, tables, bots, P))
    if finding[1]:
        rule, g, r, s = (int(v) for v in finding[1:])
        broken.append(f"{rules.RULES[rule - 1]} (race {g}, round {r}, after car {s}'s turn)")
    if logging:
        cols = buffer[: int(written[0])]
        events.add_coded(cols[:, 0], cols[:, 1], cols[:, 2], cols[:, 3], cols[:, 4], cols[:, 5], cols[:, 6])
    return st


# Progress is told after the first few races, then after slices twice as long each time, up to about
# PROGRESS_SECONDS of races at the rate so far.
PROGRESS_FIRST, PROGRESS_SECONDS = 8, 0.1
TRACE_RECORDS, TRACE_ROWS = 4_000, 400  # a traced race's room for what it says (made larger when a race needs it)


def compiled_rules():
    """The rules module, compiled: numba compiles (or loads from its cache) on
    first use, not on import, and says so on the console when it compiles."""
    from . import rules

    if not _COMPILED:
        if not is_compiled():
            print("compiling the Heat engine, once on this machine: about 30 s", file=sys.stderr, flush=True)
        _COMPILED.append(True)
    return rules


def is_compiled() -> bool:
    """Whether numba's cache holds the compiled rules: beside the sources, or
    where numba keeps it when the sources' folder is not writable or NUMBA_CACHE_DIR says."""
    beside = Path(__file__).parent / "__pycache__"
    if not os.environ.get("NUMBA_CACHE_DIR") and any(beside.glob("rules.play_games-*.nbi")):
        return True
    from . import rules

    return any(Path(rules.play_games._cache._cache_path).glob("rules.play_games-*.nbi"))


def ensure_compiled(tables: Tables, bots: BotTable, players: int) -> None:
    """Compile the rules now, in this process, if no cache holds them: called
    where a scenario is prepared, before any worker starts."""
    drivers = np.flatnonzero(~bots.legend)
    if not is_compiled() and len(drivers):  # (a pool of Legends only is refused when its races are seated)
        simulate(tables, bots, np.full((1, players), drivers[0], np.int16), Streams(0, 0, 1))


_COMPILED: list[bool] = []


def _fresh_game(tables: Tables, st: State, g: int, seats: np.ndarray) -> None:
    """Race g's rows as empty_state makes them: the race is played again from its setup."""
    fresh = new_state(tables, 1, st.pos.shape[1])
    for name in STATE_FIELDS:
        getattr(st, name)[g] = getattr(fresh, name)[0]
    st.bots[g] = seats[g]
