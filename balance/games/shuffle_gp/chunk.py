"""One chunk of a Shuffle Grand Prix scenario's games: what `balance run`
does in a worker and `balance trace` does for one watched game. A
scenario's `players` is the number of cars (rules.players bounds it); `bots`
names a profile per seat, clockwise."""

from __future__ import annotations

import numpy as np

from ...errors import UserError, raise_first
from ...scenario import Scenario, unknown_bot_problems
from ..chunks import Prepared, chunk_seats
from ..events import Events
from ..recorder import NULL, Recorder
from .bots import bot_table, resolve_profiles
from .compile import compile_database
from .engine import simulate
from .schema import validate_database
from .state import State


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
    seats = chunk_seats(prep.pool, len(prep.bots.names), scenario, first, size, rng)
    return seats, simulate(prep.tables, prep.bots, seats, rng, rec, events=events)
