"""The compiled Horsepower engine's structures (compiled_structs): the
tables, the batch's state and a game's context, each one reference."""

from __future__ import annotations

from dataclasses import fields

from numba import njit

from ...compiled_structs import struct
from ..state import State
from .tables import Tab

STATE_FIELDS = tuple(f.name for f in fields(State))
GAME_FIELDS = (
    "hash",
    "draws",
    "codes",
    "events",
    "n_events",
    "logging",
    "pending",
    "top",
    "cols",
    "fire",
    "fired",
    "amount",
    "broken",
    "tracing",
    "verbose",
    "trace",
    "trace_n",
    "rows",
    "rows_n",
    "named",
    "turn",
    "scrap_at_end",
    "start_mods",
    "plain",
    "ints",
    "floats",
    "flags",
)

Tables = struct(__name__, "Tables", Tab._fields, "The compiled tables (tables.Tab).")
StateArrays = struct(__name__, "StateArrays", STATE_FIELDS, "The batch's state: state.State's arrays.")
Game = struct(
    __name__,
    "Game",
    GAME_FIELDS,
    """A game's context: its hash, draw counts, event buffer, the stack of
    pending effects, the rules checker's finding, the trace's records, the
    active seat's turn and the phases' working rows (rules.py); made in compiled code (tests make one to
    call a phase by itself).""",
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
