"""The compiled Shuffle Grand Prix engine's structures (compiled_structs):
the tables, the batch's state and a game's context, each one reference."""

from __future__ import annotations

from dataclasses import fields

from numba import njit

from ...compiled_structs import struct
from ..state import State
from .tables import Tab

STATE_FIELDS = tuple(f.name for f in fields(State))
GAME_FIELDS = (
    "g",  # the game's row in the batch
    "hash",  # (1,) uint64: Streams.game of the game
    "draws",  # (purposes + 1, SEATS) int64: draw counts (chance.compiled.key)
    "codes",  # (purposes,) uint64
    "logging",  # bool: card events kept
    "events",  # (n, 7) int32: the batch's event buffer (grown as it fills)
    "n",  # (4,) int64: [events written, a card resolving (traps wait), traps waiting, trace records]
    "finding",  # (5,) int64: [check the rules after every turn, the first rule broken (1..), game, turn, seat]
    "pend",  # (W, 2) int64: the traps a resolving card set off, in order: (who, trigger)
    "tracing",  # bool: the watched game (balance trace)
    "verbose",
    "trace",  # (R, 7) int64: what the traced game says, as records of numbers (trace_text.py)
    "rows",  # (L, width) int64: the lists records name
    "rows_n",  # (2,) int64: rows written, records written
)

Tables = struct(__name__, "Tables", Tab._fields, "The compiled tables (tables.Tab).")
StateArrays = struct(__name__, "StateArrays", STATE_FIELDS, "The batch's state: state.State's arrays.")
Game = struct(
    __name__,
    "Game",
    GAME_FIELDS,
    """A game's context: its index and hash, its draw counts, the event buffer,
    the traps a resolving card set off (sprung once it is done), and the
    trace's records (rules.py; made in compiled code; tests make one to call a
    phase by itself).""",
)


@njit(cache=True)
def _make_tables(values):
    return Tables(*values)


@njit(cache=True)
def _make_state(values):
    return StateArrays(*values)


@njit(cache=True)
def _make_game(values):
    return Game(*values)


Tables.make, StateArrays.make, Game.make = _make_tables, _make_state, _make_game
