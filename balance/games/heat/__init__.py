"""Heat: Pedal to the Metal, the published deckbuilding racer (rules excerpt:
../shared/seeds/004_80b909b33d7a634b.txt; facts beyond it: ../shared/facts/heat.md).

heat.yaml is checked by `schema`, compiled by `compile`; `compiled.simulate`
races a batch, one race at a time (numba: setup, the Garage draft, the rounds
and the Legends, in compiled/rules.py); `chunk` and `log` make a run's tables;
`trace` tells one race.
"""

from __future__ import annotations

from functools import partial

from ..base import Game
from ..chunks import logged_chunk
from .bots import Profile, resolve_profiles
from .championship import SeasonResult, season_tables
from .chunk import catalog, drafted_items, play_chunk, prepare, progress, strength_items
from .compile import compile_database, summarize
from .log import chunk_tables as race_tables
from .schema import load_database
from .trace import trace_game


def chunk_tables(st, events, seats, tables, bots, first_game, chunk):
    """The log tables of a chunk: of races, or of Championship seasons (championship.season_tables)."""
    if isinstance(st, SeasonResult):
        return season_tables(st, events, seats, bots, first_game, chunk)
    return race_tables(st, events, seats, tables, bots, first_game, chunk)


GAME = Game(
    name="heat",
    title="Heat: Pedal to the Metal",
    load_database=load_database,
    compile=compile_database,
    summary=summarize,
    trace=trace_game,
    prepare=prepare,
    play_chunk=partial(logged_chunk, play_chunk, chunk_tables),
    progress=progress,
    drafted_items=drafted_items,
    catalog=catalog,
    profile_model=Profile,
    profiles=resolve_profiles,
    database_file="heat.yaml",
    # bonus_card: one player car starts with an extra copy (no Legends: docs/strength_heat.md)
    strength_items=strength_items,
)
