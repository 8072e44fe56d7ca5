"""One chunk of a Shuffle Grand Prix scenario's games: what `balance run`
does in a worker and `balance trace` does for one watched game. A
scenario's `players` is the number of cars (rules.players bounds it); `bots`
names a profile per seat, clockwise."""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import pyarrow as pa

from ...errors import UserError, raise_first
from ...scenario import Scenario, unknown_bot_problems
from ..chunks import chunk_seats as shared_seats
from ..chunks import logged_chunk
from ..events import Events
from ..recorder import NULL, Recorder
from .bots import BotTable, bot_table, resolve_profiles
from .compile import Tables, compile_database
from .engine import simulate
from .log import chunk_tables
from .schema import Database, validate_database
from .state import State


@dataclass(frozen=True)
class Prepared:
    database: Database
    tables: Tables
    bots: BotTable  # one entry per name in scenario.bot_names
    pool: bool  # True: seats draw their bots from the pool at random


def prepare(scenario: Scenario) -> Prepared:
    m = scenario.model
    db = validate_database(scenario.database_doc())
    tables = compile_database(db)
    r = tables.rules
    if not r.min_players <= m.players <= r.max_players:
        raise UserError(
            scenario.doc.problem(
                ("players",), f"{m.players} players; the game takes {r.min_players} to {r.max_players}"
            )
        )
    if m.bonus_card is not None:
        raise UserError(
            scenario.doc.problem(("bonus_card",), "balance strength is not available for Shuffle Grand Prix")
        )
    profiles = resolve_profiles(m.bot_profiles, scenario.doc)
    raise_first(unknown_bot_problems(scenario, list(profiles)))
    bots = bot_table(profiles, scenario.bot_names, tables)
    return Prepared(db, tables, bots, pool=not isinstance(m.bots, list))


def catalog(prep: Prepared) -> dict[str, list[dict[str, object]]]:
    """Every ability card of the database, grouped by its driver; all studied."""
    return {
        "cards": [
            {"id": c.id, "name": c.name, "type": c.type, "group": c.driver, "count": c.count, "studied": True}
            for c in prep.database.cards
        ]
    }


def play_chunk(
    prep: Prepared,
    scenario: Scenario,
    first: int,
    size: int,
    rng: np.random.Generator,
    rec: Recorder = NULL,
    events: Events | None = None,
) -> tuple[np.ndarray, State]:
    seats = shared_seats(prep.pool, len(prep.bots.names), scenario, first, size, rng)
    return seats, simulate(prep.tables, prep.bots, seats, rng, rec, events=events)


def chunk_tables_for(
    prep: Prepared, scenario: Scenario, chunk: int, first: int, size: int, rng: np.random.Generator
) -> dict[str, pa.Table]:
    """A chunk played and turned into its three log tables."""
    return logged_chunk(play_chunk, chunk_tables, prep, scenario, chunk, first, size, rng)
