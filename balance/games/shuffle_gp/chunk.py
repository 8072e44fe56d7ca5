"""One chunk of a Shuffle Grand Prix scenario's games: what `balance run`
does in a worker and `balance trace` does for one watched game. A
scenario's `players` is the number of cars (rules.players bounds it); `bots`
names a profile per seat, clockwise. A scenario's `bonus_card` (`balance
strength`) names a driver or an ability card one seat a game receives
(compiled.Bonus; docs/strength_shuffle_gp.md)."""

from __future__ import annotations

from collections.abc import Callable

import numpy as np

from ...errors import Problem, UserError, raise_first
from ...seeding import bonus_seat
from ..base import ScenarioView, unknown_bot_problems
from ..chance import Streams
from ..chunks import Prepared, chunk_seats
from ..events import Events
from ..recorder import NULL, Recorder
from . import compiled
from .bots import bot_table, resolve_profiles
from .compile import Tables, compile_database
from .compiled import Bonus
from .schema import validate_database
from .state import State


def prepare(scenario: ScenarioView) -> Prepared:
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
    why = None if m.bonus_card is None else _bonus_problem(tables, m.bonus_card)
    if why is not None:
        raise UserError(scenario.doc.problem(("bonus_card",), why))
    compiled.ensure_compiled(tables, bots, m.players)  # here, before any worker: one compile, said on the console
    return Prepared(db, tables, bots, pool=not isinstance(m.bots, list))


def _bonus_problem(tables: Tables, item: str) -> str | None:
    """Why `item` cannot be a strength experiment's bonus: no driver or ability
    card has that id, or both do (the experiment names either by its id alone)."""
    is_driver, is_card = item in tables.drivers.ids, item in tables.cards.ids
    if is_driver and is_card:
        return f"{item!r} is both a driver and an ability card; rename one to measure it"
    if not (is_driver or is_card):
        return f"no driver or ability card with id {item!r}"
    return None


def catalog(prep: Prepared) -> dict[str, list[dict[str, object]]]:
    """Every ability card of the database, grouped by its driver; all studied.
    The drivers too (id, name), for `balance strength`'s items."""
    return {
        "cards": [
            {"id": c.id, "name": c.name, "type": c.type, "group": c.driver, "count": c.count, "studied": True}
            for c in prep.database.cards
        ],
        "drivers": [{"id": d.id, "name": d.name} for d in prep.database.drivers],
    }


def strength_items(catalog: dict) -> list[dict[str, str]]:
    """What `balance strength` gives the receiving seat, drivers first, then
    ability cards (each driver's in file order). A catalog without `drivers`
    (a run from before they were listed) takes them from the cards' groups."""
    drivers = catalog.get("drivers") or [
        {"id": g, "name": g} for g in dict.fromkeys(str(c["group"]) for c in catalog["cards"])
    ]
    items = [
        {"id": d["id"], "name": d["name"], "kind": "driver", "how": "is given this driver", "replaces": True}
        for d in drivers
    ]
    items += [
        {"id": c["id"], "name": c["name"], "kind": "ability card", "how": "starts with one extra copy in its deck"}
        | {"more": True}  # with --all: 80 cards
        for c in catalog["cards"]
        if c["count"]
    ]
    ids = [i["id"] for i in items]
    shared = next((i for i in ids if ids.count(i) > 1), None)
    if shared is not None:
        raise UserError(
            Problem("--cards", None, "cards", f"{shared!r} is both a driver and an ability card; rename one")
        )
    return items


def play_chunk(
    prep: Prepared,
    scenario: ScenarioView,
    first: int,
    size: int,
    streams: Streams,
    rec: Recorder = NULL,
    events: Events | None = None,
    after_turn: Callable[..., None] | None = None,
) -> tuple[np.ndarray, State]:
    seats = chunk_seats(prep.pool, len(prep.bots.names), scenario, first, size, streams)
    bonus = None
    item = scenario.model.bonus_card
    if item is not None:
        who = bonus_seat(scenario.model.seed, np.arange(first, first + size), scenario.model.players)
        t = prep.tables
        bonus = (
            Bonus(who, driver=t.drivers.index(item)) if item in t.drivers.ids else Bonus(who, card=t.cards.index(item))
        )
    # the compiled engine (runs and traces); `after_turn` is the runner's progress (progress(state))
    return seats, compiled.simulate(
        prep.tables, prep.bots, seats, streams, events, bonus, progress=after_turn, rec=rec if rec.on else None
    )


def progress(prep: Prepared, st: State) -> np.ndarray:
    """(G,) how far each game has got: the distance cards drawn of all (the game ends when none is left); 1
    once over."""
    left = st.deck.sum(axis=1) + st.bottom.sum(axis=1)
    total = max(int(prep.tables.distance.count.sum()), 1)
    return np.where(st.running, np.clip(1.0 - left / total, 0.0, 1.0), 1.0)
