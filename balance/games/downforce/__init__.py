"""Downforce, the published racer of car auctions, shared speed cards and bets
(rulebook: ../shared/seeds/003_f4358f3dcf03d531.txt).

downforce.yaml is checked by `schema`, compiled by `compile`; `compiled.simulate`
plays a batch, one game at a time (numba: deal, auction, race, betting, in
compiled/rules.py); `chunk` and `log` make a run's
tables; `trace` tells one game; `balance strength` gives one seat a power or
an extra speed card (docs/strength_downforce.md).
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
    name="downforce",
    title="Downforce",
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
    round_cap="rules.max_turns",  # card plays in a race, not rounds
    database_file="downforce.yaml",
    # balance strength: one seat of each game races with a power card or is dealt an extra speed card
    # (docs/strength_downforce.md); powers first, then the regular speed cards
    strength_items=strength_items,
)
