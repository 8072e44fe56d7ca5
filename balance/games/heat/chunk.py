"""One chunk of a Heat scenario's races: what `balance run` does in a worker
and `balance trace` does for one watched race.

A scenario's `players` is the number of cars (players and Legends together);
`bots` names a profile per grid slot, `legend` for a Legend car. The track
and the Garage module are rules of the database (`rules.track`,
`rules.garage_module`), so a scenario picks them with `overrides`.
"""

from __future__ import annotations

import numpy as np

from ...errors import UserError, raise_first
from ...scenario import Scenario, unknown_bot_problems
from ..chunks import Prepared
from ..chunks import chunk_seats as shared_seats
from ..events import Events
from ..recorder import NULL, Recorder
from . import vocabulary as V
from .bots import bot_table, resolve_profiles
from .compile import compile_database
from .engine import simulate
from .schema import validate_database
from .state import State


def prepare(scenario: Scenario) -> Prepared:
    m = scenario.model
    db = validate_database(scenario.database_doc())
    tables = compile_database(db)
    if m.players > tables.rules.max_cars:
        raise UserError(
            scenario.doc.problem(("players",), f"{m.players} cars, but the track holds {tables.rules.max_cars}")
        )
    profiles = resolve_profiles(m.bot_profiles, scenario.doc)
    raise_first(unknown_bot_problems(scenario, list(profiles)))
    names = scenario.bot_names
    bots = bot_table(profiles, names, tables)
    if isinstance(m.bots, list) and bots.legend.all():
        raise UserError(scenario.doc.problem(("bots",), "every car is a Legend: at least one player car is needed"))
    return Prepared(db, tables, bots, pool=not isinstance(m.bots, list))


def catalog(prep: Prepared) -> dict[str, list[dict[str, object]]]:
    """Every card of the database as raced; `studied` marks the ones the
    reports tabulate: the Garage upgrades with the Garage module, else every
    card a deck holds."""
    garage = prep.tables.rules.garage_module
    cards = []
    for c in prep.database.cards:
        in_garage = c.tier in V.GARAGE_TIERS
        studied = in_garage if garage else not in_garage and c.type != "heat"
        cards.append(
            {
                "id": c.id,
                "name": c.name,
                "type": c.type,
                "group": c.group or c.tier,
                "count": c.count,
                "studied": studied,
            }
        )
    return {"cards": cards}


def chunk_seats(prep: Prepared, scenario: Scenario, first: int, size: int, rng: np.random.Generator) -> np.ndarray:
    """(size, P) the bot (index into prep.bots) on each grid slot of each race, pole first."""
    seats = shared_seats(prep.pool, len(prep.bots.names), scenario, first, size, rng)
    if prep.pool:
        # a race of Legends only has nobody to study: its pole car becomes a player's
        players = np.flatnonzero(~prep.bots.legend)
        if len(players) == 0:
            raise UserError(scenario.doc.problem(("bots",), "the pool holds only Legends"))
        alone = prep.bots.legend[seats].all(axis=1)
        seats[alone, 0] = players[0]
    return seats


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
