"""The game registry: name → Game. Explicit, so importing it registers nothing
behind anyone's back; an unknown name lists the known ones. A game's modules
(its engine, and through its logs polars) are imported when the game is first
asked for, so `balance --help` or a command about one game loads no other."""

from __future__ import annotations

import importlib
from collections.abc import Iterator, MutableMapping

from ..errors import Problem, UserError, did_you_mean
from ..printable import quoted
from .base import Game

_MODULES = {"horsepower": ".horsepower", "heat": ".heat", "downforce": ".downforce", "shuffle_gp": ".shuffle_gp"}


class Registry(MutableMapping[str, Game]):
    """The four games by name, each imported on first use (a test may replace one)."""

    def __init__(self) -> None:
        self._loaded: dict[str, Game] = {}

    def __getitem__(self, name: str) -> Game:
        if name not in self._loaded:
            if name not in _MODULES:
                raise KeyError(name)
            self._loaded[name] = importlib.import_module(_MODULES[name], __name__).GAME
        return self._loaded[name]

    def __setitem__(self, name: str, game: Game) -> None:
        if name not in _MODULES:
            raise KeyError(name)
        self._loaded[name] = game

    def __delitem__(self, name: str) -> None:
        self._loaded.pop(name, None)

    def __contains__(self, name: object) -> bool:
        return name in _MODULES

    def __iter__(self) -> Iterator[str]:
        return iter(_MODULES)

    def __len__(self) -> int:
        return len(_MODULES)


GAMES = Registry()


def get_game(name: str, source: str = "--game", line: int | None = None) -> Game:
    try:
        return GAMES[name]
    except KeyError:
        known = ", ".join(GAMES)
        hint = did_you_mean(name, list(GAMES))
        raise UserError(Problem(source, line, "game", f"unknown game {quoted(name)}{hint} (known: {known})")) from None
