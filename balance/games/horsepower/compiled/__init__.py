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
from ..draft import Bonus
from ..state import State, empty_state
from . import structs
from . import tables as compiled_tables

STATE_FIELDS = tuple(f.name for f in fields(State))
structs.define_state(STATE_FIELDS)
CODES = purpose_codes(compiled_tables.PURPOSES)
EVENTS_PER_GAME = 512  # room for a four-player game's card events; a longer game makes room as it goes

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
    """Play len(seats) games; seats (G, P) gives each seat's bot (an index into
    `bots`), seat 0 playing first; draws are keyed by the streams' seed and
    game ids. Returns the final state (`winner` -1 marks a game stopped by
    rules.max_rounds); `events`, if given, collects the card events of the
    logs. `progress(state)`, if given, is called about every PROGRESS_SECONDS
    and at the end (the runner's progress within a chunk). `broken`, if
    given, gets the first rule of the rules checker (rules.RULES) a game's
    state breaks after a turn, as a sentence naming the game, round and seat.
    `rec`, watching a game, gets what it does in words (balance trace)."""
    rules = compiled_rules()
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
    logging = events is not None
    buffer = np.zeros((G * EVENTS_PER_GAME if logging else 1, 7), np.int32)
    written = np.zeros(1, np.int64)
    finding = np.zeros(5, np.int64)
    finding[0] = broken is not None
    watch = rec.watch if rec is not None and rec.on else -1  # the traced game, -1 none
    verbose = watch >= 0 and rec.verbose
    width = max(P * K, B, 64) + 1
    trace = np.zeros((TRACE_RECORDS if watch >= 0 else 1, 10), np.int64)
    rows = np.zeros((TRACE_LISTS if watch >= 0 else 1, width), np.int64)
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
            book,
            who,
            instead,
        )
        if trace_n[0] > len(trace) or rows_n[0] > len(rows):  # a long traced game: again, with room for its words
            trace = np.zeros((2 * max(len(trace), int(trace_n[0])), 10), np.int64)
            rows = np.zeros((2 * max(len(rows), int(rows_n[0])), width), np.int64)
            trace_n[:], rows_n[:], written[:] = 0, 0, before
            for g in range(game, stop):
                _fresh_game(st, g, seats)
            continue
        if done < stop:  # the buffer ran out in this game: more room, and the game again from its setup
            buffer = np.concatenate([buffer, np.zeros_like(buffer)])
            _fresh_game(st, done, seats)
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
        broken.append(f"{rules.RULES[rule - 1]} (game {g}, round {r}, after seat {s}'s turn)")
    if logging:
        cols = buffer[: int(written[0])]
        events.add_coded(cols[:, 0], cols[:, 1], cols[:, 2], cols[:, 3], cols[:, 4], cols[:, 5], cols[:, 6])
    return st


TRACE_RECORDS, TRACE_LISTS = 20_000, 2_000  # a traced game's room for what it says (made larger when a game needs it)
# Progress is told after the first few games, then after slices twice as long each time, up to about
# PROGRESS_SECONDS of games at the rate so far: a small chunk's bar still moves within it, a large one's
# engine is entered a few times a second, not once every few games.
PROGRESS_FIRST, PROGRESS_SECONDS = 8, 0.1


def compiled_rules():
    """The rules module, compiled: numba compiles (or loads from its cache) on
    first use, not on import, and says so on the console when it compiles."""
    from . import rules

    if not _COMPILED:
        if not is_compiled():
            print("compiling the Horsepower engine, once on this machine: about a minute", file=sys.stderr, flush=True)
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
    laps = st.lap_turns.shape[2]
    fresh = empty_state(1, P, K, st.playbooks.shape[2], st.showroom.shape[1], st.bananas.shape[1] - 1, laps)
    for name in STATE_FIELDS:
        getattr(st, name)[g] = getattr(fresh, name)[0]
    st.bots[g] = seats[g]
