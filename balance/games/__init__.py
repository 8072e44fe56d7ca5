"""The game registry: name → Game. Explicit, so importing it registers nothing
behind anyone's back; an unknown name lists the known ones."""

from __future__ import annotations

from ..errors import Problem, UserError
from .base import Game
from .downforce import GAME as DOWNFORCE
from .heat import GAME as HEAT
from .horsepower import GAME as HORSEPOWER
from .shuffle_gp import GAME as SHUFFLE_GP

GAMES: dict[str, Game] = {game.name: game for game in (HORSEPOWER, HEAT, DOWNFORCE, SHUFFLE_GP)}


def get_game(name: str, source: str = "game", line: int | None = None) -> Game:
    try:
        return GAMES[name]
    except KeyError:
        known = ", ".join(GAMES)
        raise UserError(Problem(source, line, "game", f"unknown game {name!r} (known: {known})")) from None
