"""The tables, the state and a game's context as numba structures (StructRef):
a function of the compiled rules receives each as one reference, not as a
tuple of dozens of arrays unpacked at every call (horsepower/compiled/structs.py)."""

from __future__ import annotations

from collections import namedtuple

from numba import njit, types
from numba.core import config
from numba.experimental import structref

from .tables import Tab


def _plain_fields(self, fields):
    return tuple((name, types.unliteral(typ)) for name, typ in fields)


@structref.register
class TablesType(types.StructRef):
    preprocess_fields = _plain_fields


@structref.register
class StateType(types.StructRef):
    preprocess_fields = _plain_fields


@structref.register
class GameType(types.StructRef):
    preprocess_fields = _plain_fields


class Game(structref.StructRefProxy):
    """A game's context: its hash, draw counts, the event buffer and its count,
    whether events are kept, the rules checker's finding, and the traced race's
    records (made in compiled code; tests make one to call a phase by itself)."""

    def __new__(cls, *values):
        return _make_game(values)


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
)
structref.define_constructor(Game, GameType, GAME_FIELDS)
structref.define_boxing(GameType, Game)


class Tables(structref.StructRefProxy):
    def __new__(cls, *values):
        return _make_tables(values)


class StateArrays(structref.StructRefProxy):
    def __new__(cls, *values):
        return _make_state(values)


structref.define_constructor(Tables, TablesType, Tab._fields)
structref.define_boxing(TablesType, Tables)


def define_state(names: tuple[str, ...]) -> None:
    global StateArrays
    if config.DISABLE_JIT:
        StateArrays = namedtuple("StateArrays", names)
        return
    structref.define_constructor(StateArrays, StateType, names)
    structref.define_boxing(StateType, StateArrays)


@njit(cache=True)
def _make_tables(values):
    return Tables(*values)


@njit(cache=True)
def _make_game(values):
    return Game(*values)


@njit(cache=True)
def _make_state(values):
    return StateArrays(*values)


if config.DISABLE_JIT:  # the rules run as plain Python (NUMBA_DISABLE_JIT=1, for debugging): named tuples
    Tables = namedtuple("Tables", Tab._fields)  # noqa: F811
    Game = namedtuple("Game", GAME_FIELDS)  # noqa: F811
