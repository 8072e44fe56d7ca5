"""The compiled Heat engine's structures (compiled_structs): the tables, the
batch's state and a race's context, each one reference."""

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
    "broken",
    "tracing",
    "verbose",
    "trace",
    "trace_n",
    "rows",
    "rows_n",
    # scratch the phases reuse race after race (an array made per turn costs more than the turn's arithmetic):
    "taken",  # a draw's positions (chance.draw_many_in)
    "play",  # (K,) the cards being revealed
    "jitter",  # (K,) the planning's noise per card
    "prefer",  # (K,)
    "plans",  # (3 * gears, K) each plan's cards (plain, corner-limit cards first, crawling)
    "targets",  # (3 * gears,)
    "scores",  # (3 * gears,)
    "hand",  # (K,) the hand planned from
    "held",  # (K,) the playable cards held
    "left",  # (K,) copies left to choose
)

Tables = struct(__name__, "Tables", Tab._fields, "The compiled tables (tables.Tab).")
StateArrays = struct(__name__, "StateArrays", STATE_FIELDS, "The batch's state: state.State's arrays.")
Game = struct(
    __name__,
    "Game",
    GAME_FIELDS,
    """A race's context: its hash, draw counts, the event buffer and its count,
    whether events are kept, the rules checker's finding, the traced race's
    records, and the phases' scratch (scratch_for; made in compiled code;
    tests make one to call a phase by itself).""",
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
