"""Which game a card database belongs to, from its top-level keys.

`balance validate FILE` and `balance cards --db FILE` default to Horsepower;
given another game's file without `--game`, the Horsepower schema used to
answer with "unknown field 'tracks'", which names the symptom and not the
cause. Each game's database has its own top-level keys (its schema's
DatabaseModel), so the keys say which game a file is meant for.
"""

from __future__ import annotations

import shlex
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from .errors import Problem, UserError
from .games import GAMES, get_game
from .games.base import Game
from .games.downforce.schema import DatabaseModel as DownforceDatabase
from .games.heat.schema import DatabaseModel as HeatDatabase
from .games.horsepower.schema import DatabaseModel as HorsepowerDatabase
from .games.shuffle_gp.schema import DatabaseModel as ShuffleGpDatabase
from .yamlio import load_yaml

DEFAULT_GAME = "horsepower"  # what --game has always defaulted to

# Taken from the schemas, so a key added to a game's database is recognised here without a second list.
TOP_KEYS: dict[str, frozenset[str]] = {
    name: frozenset(f.alias or key for key, f in model.model_fields.items())
    for name, model in (
        ("horsepower", HorsepowerDatabase),
        ("heat", HeatDatabase),
        ("downforce", DownforceDatabase),
        ("shuffle_gp", ShuffleGpDatabase),
    )
}

SHARED_KEYS = frozenset.intersection(*TOP_KEYS.values())  # rules: says nothing about which game


@dataclass(frozen=True)
class Chosen:
    """The game a command reads a database as, and the note that says why, when it was detected."""

    game: Game
    note: str | None = None


def short_title(game: Game) -> str:
    """The name a designer calls a game by: Heat, not "Heat: Pedal to the Metal"."""
    return game.title.split(":")[0]


def top_keys(path: str | Path) -> set[str] | None:
    """The file's top-level keys; None when it cannot be read as a mapping. The
    game's own loader reads it again and reports what is wrong with it, so no
    problem is raised here."""
    try:
        data = load_yaml(path).data
    except UserError:
        return None
    if not isinstance(data, dict):
        return None
    return {str(key) for key in data}


def matching_games(keys: set[str]) -> list[str]:
    """The games whose databases share the most top-level keys with `keys`, in
    registry order; empty when no game shares any. A file with a typo in one
    key still matches its game by the others."""
    shared = {name: len(keys & TOP_KEYS[name]) for name in GAMES if name in TOP_KEYS}
    best = max(shared.values(), default=0)
    return [name for name, n in shared.items() if n == best] if best else []


def _retype(command: str, path: str | Path) -> str:
    """The command line a user retypes: "balance validate x.yaml", the path quoted where a shell needs it."""
    return f"balance {command} {shlex.quote(str(path))}"


def choose_game(path: str | Path, game: str | None, command: str, verb: str) -> Chosen:
    """The game to read `path` as. `game`: --game as given (None: not given).
    Without --game, a file that looks like another game's database is read as
    that game with a note; one that looks like several games' is refused in one
    line naming the --game to give. `command`: the command's words before the
    path ("validate", "cards --db"); `verb` says what was done ("validated")."""
    if game is not None:
        return Chosen(get_game(game))
    keys = top_keys(path)
    matches = matching_games(keys) if keys is not None else []
    # Horsepower among the best matches (or nothing matched): the default stands and its schema speaks
    if keys is None or not matches or DEFAULT_GAME in matches:
        return Chosen(GAMES[DEFAULT_GAME])
    titles = " or ".join(f"a {short_title(GAMES[m])}" for m in matches)
    # the keys that matched, not all of them: a file may hold any number of keys, and these are the evidence
    # (rules is every game's, so it is none)
    shown = ", ".join(sorted(keys & frozenset().union(*(TOP_KEYS[m] for m in matches)) - SHARED_KEYS))
    if len(matches) > 1:
        options = " or ".join(f"--game {m}" for m in matches)
        raise UserError(
            Problem(
                str(path),
                None,
                "--game",
                f"looks like {titles} database (top-level keys {shown}): run {_retype(command, path)} {options}",
            )
        )
    chosen = GAMES[matches[0]]
    return Chosen(
        chosen, f"note: {path} looks like {titles} database (top-level keys {shown}): {verb} with --game {chosen.name}"
    )


def load_as(chosen: Game, path: str | Path, command: str) -> Any:
    """`chosen`'s database at `path`. Where --game named one game and the file is
    plainly another's, the schema's error (which names only the first key the
    given game does not know) says which game it looks like and what to run;
    `command` as for choose_game."""
    try:
        return chosen.load_database(path)
    except UserError as exc:
        keys = top_keys(path)
        matches = matching_games(keys) if keys is not None else []
        if len(matches) != 1 or matches[0] == chosen.name:
            raise
        other = GAMES[matches[0]]
        hint = f"{path} looks like a {short_title(other)} database: run {_retype(command, path)} --game {other.name}"
        p = exc.problem
        raise UserError(Problem(p.source, p.line, p.field, f"{p.message}; {hint}"), exc.more) from None
