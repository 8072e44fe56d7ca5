"""The tables, the batch's state and a game's context as numba structures
(StructRef): a function of the compiled rules receives each as one
reference, not as a tuple of dozens of arrays unpacked at every call (which
makes compiling take minutes). As in horsepower/compiled/structs.py."""

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
    """A game's context (made in compiled code): its index and hash, its draw
    counts, the event buffer, the traps a resolving card set off (sprung once
    it is done), and the trace's records (rules.py)."""


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
structref.define_constructor(Game, GameType, GAME_FIELDS)


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
def _make_state(values):
    return StateArrays(*values)


if config.DISABLE_JIT:  # the rules run as plain Python (NUMBA_DISABLE_JIT=1, for debugging): named tuples
    from types import SimpleNamespace

    Tables = namedtuple("Tables", Tab._fields)  # noqa: F811

    def Game(*values):  # noqa: F811, N802 - a game's context changes as it is played (X.g, X.events)
        return SimpleNamespace(**dict(zip(GAME_FIELDS, values, strict=True)))
