"""One chunk of a Downforce scenario's games: what `balance run` does in a
worker and `balance trace` does for one watched game. A scenario's `players`
is the number of players (2 to 6); the track is `rules.track`."""

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
    bots: BotTable
    pool: bool


def prepare(scenario: Scenario) -> Prepared:
    m = scenario.model
    db = validate_database(scenario.database_doc())
    tables = compile_database(db)
    rules = tables.rules
    if not rules.min_players <= m.players <= rules.max_players:
        raise UserError(
            scenario.doc.problem(
                ("players",), f"{m.players} players (Downforce takes {rules.min_players} to {rules.max_players})"
            )
        )
    if m.bonus_card is not None:
        raise UserError(scenario.doc.problem(("bonus_card",), "balance strength is not available for Downforce yet"))
    profiles = resolve_profiles(m.bot_profiles, scenario.doc)
    raise_first(unknown_bot_problems(scenario, list(profiles)))
    return Prepared(db, tables, bot_table(profiles, scenario.bot_names, tables), pool=not isinstance(m.bots, list))


def catalog(prep: Prepared) -> dict[str, list[dict[str, object]]]:
    """The speed cards and power cards of the database; the regular speed
    cards are `studied` (the ones the players are dealt and play)."""
    db = prep.database
    cards = [
        {"id": c.id, "name": c.id, "type": kind, "group": kind, "count": c.count, "studied": kind == "speed"}
        for kind, pile in (("speed", db.speed_cards), ("speed8", db.speed8_cards))
        for c in pile
    ]
    powers = [
        {"id": p.id, "name": p.name, "type": "power", "group": "power", "count": 1, "studied": False} for p in db.powers
    ]
    return {"cards": cards + powers}


def chunk_seats(prep: Prepared, scenario: Scenario, first: int, size: int, rng: np.random.Generator) -> np.ndarray:
    """(size, P) the bot (index into prep.bots) in each seat of each game, seat 0 first."""
    return shared_seats(prep.pool, len(prep.bots.names), scenario, first, size, rng)


def play_chunk(
    prep: Prepared,
    scenario: Scenario,
    first: int,
    size: int,
    rng: np.random.Generator,
    rec: Recorder = NULL,
    events: Events | None = None,
) -> tuple[np.ndarray, State]:
    seats = chunk_seats(prep, scenario, first, size, rng)
    return seats, simulate(prep.tables, prep.bots, seats, rng, rec, events=events)


def chunk_tables_for(
    prep: Prepared, scenario: Scenario, chunk: int, first: int, size: int, rng: np.random.Generator
) -> dict[str, pa.Table]:
    """A chunk played and turned into its three log tables."""
    return logged_chunk(play_chunk, chunk_tables, prep, scenario, chunk, first, size, rng)
