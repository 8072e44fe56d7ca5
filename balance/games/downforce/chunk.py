"""One chunk of a Downforce scenario's games: what `balance run` does in a
worker and `balance trace` does for one watched game. A scenario's `players`
is the number of players (2 to 6); the track is `rules.track`."""

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
    rules = tables.rules
    if not rules.min_players <= m.players <= rules.max_players:
        raise UserError(
            scenario.doc.problem(
                ("players",), f"{m.players} players (Downforce takes {rules.min_players} to {rules.max_players})"
            )
        )
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
