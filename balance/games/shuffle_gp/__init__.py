"""Shuffle Grand Prix, the card racer of drivers, co-pilots and tire health
(rulebook: ../shared/seeds/002_1ef1e3a514a1bc24.txt).

shuffle_gp.yaml is checked by `schema`, compiled by `compile`;
`compiled.simulate` plays a batch, one game at a time (numba: setup, the
turns, effects and the rules checker, compiled/rules.py); `chunk` and `log`
make a run's tables; `trace` tells one game. docs/shuffle_gp.md explains the
file; `GAME` is its entry in the registry (balance/games/__init__.py).
"""

from __future__ import annotations

from functools import partial

from ..base import Game
from ..chunks import logged_chunk
from .bots import Profile, resolve_profiles
from .chunk import catalog, play_chunk, prepare, progress, strength_items
from .compile import compile_database, summarize
from .log import chunk_tables
from .schema import load_database
from .trace import trace_game

GAME = Game(
    name="shuffle_gp",
    title="Shuffle Grand Prix",
    load_database=load_database,
    compile=compile_database,
    summary=summarize,
    trace=trace_game,
    prepare=prepare,
    play_chunk=partial(logged_chunk, play_chunk, chunk_tables),
    progress=progress,
    catalog=catalog,
    profile_model=Profile,
    profiles=resolve_profiles,
    round_cap="rules.max_turns",  # turns of all players together, not rounds
    database_file="shuffle_gp.yaml",
    # balance strength: one seat a game is given a driver, or an extra ability card (docs/strength_shuffle_gp.md)
    strength_items=strength_items,
)
