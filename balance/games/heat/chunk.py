"""One chunk of a Heat scenario's races: what `balance run` does in a worker
and `balance trace` does for one watched race.

A scenario's `players` is the number of cars (players and Legends together);
`bots` names a profile per grid slot, `legend` for a Legend car. The track
and the Garage module are rules of the database (`rules.track`,
`rules.garage_module`), so a scenario picks them with `overrides`.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field

import numpy as np

from ...errors import UserError, raise_first
from ...seeding import bonus_seat
from ..base import ScenarioView, unknown_bot_problems
from ..chance import Streams
from ..chunks import Prepared
from ..chunks import chunk_seats as shared_seats
from ..events import Events
from ..recorder import NULL, Recorder
from . import championship, compiled
from . import vocabulary as V
from .bots import bot_table, resolve_profiles
from .compile import Tables, compile_database, compile_race, in_pool, raced_cards
from .schema import Database, SeasonRace, race_fits, validate_database
from .state import State

BOX_CARS = 6  # the base game's cars; each expansion in rules.expansions brings one more


@dataclass(frozen=True)
class SeasonPrepared(Prepared):
    """A Championship season's scenario (rules.season): the tables of every race it may run (its races, or
    every track and Event its draw pairs that leaves a race to run; `tables`: the first's)."""

    races: dict[SeasonRace, Tables] = field(default_factory=dict)


def prepare(scenario: ScenarioView) -> Prepared:
    m = scenario.model
    db = validate_database(scenario.database_doc())
    may_run = championship.season_of(db).candidates() if db.rules.season else ()
    races = {race: compile_race(db, race) for race in may_run if race_fits(db, race)}
    tables = next(iter(races.values())) if races else compile_database(db)
    if m.players > tables.rules.max_cars:
        raise UserError(
            scenario.doc.problem(("players",), f"{m.players} cars, but the track holds {tables.rules.max_cars}")
        )
    boxed = BOX_CARS + len(db.rules.expansions)  # Heavy Rain brings a 7th car, Tunnel Vision an 8th
    if m.players > boxed:
        raise UserError(
            scenario.doc.problem(
                ("players",),
                f"{m.players} cars, but the box holds {boxed}: a 7th car comes with rules.expansions heavy_rain, "
                "an 8th with tunnel_vision as well",
            )
        )
    profiles = resolve_profiles(m.bot_profiles, scenario.doc)
    raise_first(unknown_bot_problems(scenario, list(profiles)))
    names = scenario.bot_names
    bots = bot_table(profiles, names, tables)
    if isinstance(m.bots, list) and bots.legend.all():
        raise UserError(scenario.doc.problem(("bots",), "every car is a Legend: at least one player car is needed"))
    bonus_problem(scenario, db, tables, bots.legend)
    legend_problem(scenario, tables, bots.legend)
    compiled.ensure_compiled(tables, bots, m.players)  # here, before any worker: one compile, said on the console
    if races:
        return SeasonPrepared(db, tables, bots, pool=not isinstance(m.bots, list), races=races)
    return Prepared(db, tables, bots, pool=not isinstance(m.bots, list))


def legend_problem(scenario: ScenarioView, tables: Tables, legend: np.ndarray) -> None:
    """Legend cars take the colours of rules.legend_colours in grid order (a Legend card gives each colour
    its number): a scenario may seat at most that many Legends (a pool with a Legend: one car at least a
    player's)."""
    colours, cars = len(tables.rules.legend_colours), scenario.model.players
    most = int(legend.sum()) if isinstance(scenario.model.bots, list) else (cars - 1 if legend.any() else 0)
    if most > colours:
        raise UserError(
            scenario.doc.problem(
                ("bots",),
                f"up to {most} Legend cars, but the Legend cards number {colours} colours (rules.legend_colours)",
            )
        )


def bonus_problem(scenario: ScenarioView, database: Database, tables: Tables, legend: np.ndarray) -> None:
    """A scenario's bonus_card (balance strength) must name a card. The receiving
    car is drawn among the cars with a deck, not the Legends (seeding.bonus_seat
    with the grid's eligible slots, which the analysis reads from the logs too)."""
    card = scenario.model.bonus_card
    if card is not None and card not in tables.cards.ids:
        raise UserError(scenario.doc.problem(("bonus_card",), f"no card with id {card!r}{_left_out(card, database)}"))


def _left_out(card: str, database: Database) -> str:
    """Why a card of the database is not in the race: its expansion is not in rules.expansions."""
    left = [c for c in database.cards if c.id == card and c.expansion is not None]
    if not left:
        return ""
    return f": it is a {left[0].expansion} card, in races only with rules.expansions: [{left[0].expansion}]"


def strength_items(catalog: dict) -> list[dict[str, str]]:
    """What `balance strength` gives a car, from a run's catalog: the studied
    cards (the Garage upgrades with the Garage module, else the deck's cards
    but Heat), one extra copy in the starting deck; in a Championship season
    (its catalog lists the Sponsorship cards) every race's deck, and the
    Sponsorship cards too, whose extra copy leaves the game when played."""
    season = any(c["type"] == "sponsor" for c in catalog["cards"])
    upgrades = [
        {
            "id": c["id"],
            "name": c["name"],
            "kind": "upgrade" if c["type"] == "upgrade" else "card",
            "how": "starts every race of the season with one extra copy in its deck"
            if season
            else "starts with one extra copy in its deck",
        }
        for c in catalog["cards"]
        if c.get("studied")
    ]
    sponsors = [
        {
            "id": c["id"],
            "name": c["name"],
            "kind": "Sponsorship card",
            "how": "starts every race of the season with one extra copy in its deck (gone once played)",
        }
        for c in catalog["cards"]
        if c["type"] == "sponsor"
    ]
    return upgrades + sponsors


def catalog(prep: Prepared) -> dict[str, list[dict[str, object]]]:
    """Every card of the database as raced; `studied` marks the ones the
    reports tabulate: the Garage upgrades in the pool with the Garage module
    (an expansion's only with rules.expansions), else every card a deck
    holds. `tracks`: the track raced, with each corner's line as a
    position on the lap (compile.TrackTable.corner_at) and its speed limit, in
    driving order: what the report's track chart draws."""
    garage = prep.tables.rules.garage_module
    cards = []
    for c in raced_cards(prep.database):
        in_garage = c.tier in V.GARAGE_TIERS
        studied = in_pool(c, prep.database.rules.expansions) if garage else not in_garage and c.type != "heat"
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
    # every track a season may race, each length once (an Event may change its laps)
    raced = {(t.id, t.laps): t for t in (r.tracks[r.rules.track] for r in getattr(prep, "races", {}).values())}
    raced = list(raced.values()) or [prep.tables.tracks[prep.tables.rules.track]]
    layouts = [
        {
            "id": track.id,
            "name": track.name,
            "laps": track.laps,
            "spaces": track.spaces,
            "corners": [{"at": int(a), "limit": int(v)} for a, v in zip(track.corner_at, track.limit, strict=True)],
        }
        for track in raced
    ]
    return {"cards": cards, "tracks": layouts}


def chunk_seats(prep: Prepared, scenario: ScenarioView, first: int, size: int, streams: Streams) -> np.ndarray:
    """(size, P) the bot (index into prep.bots) on each grid slot of each race, pole first."""
    seats = shared_seats(prep.pool, len(prep.bots.names), scenario, first, size, streams)
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
    scenario: ScenarioView,
    first: int,
    size: int,
    streams: Streams,
    rec: Recorder = NULL,
    events: Events | None = None,
    after_turn: Callable[..., None] | None = None,
) -> tuple[np.ndarray, State]:
    seats = chunk_seats(prep, scenario, first, size, streams)
    bonus = None
    if scenario.model.bonus_card is not None:  # balance strength: the same grid slot as the analysis reads
        eligible = ~prep.bots.legend[seats]  # (G, cars): a Legend has no deck to take the card
        who = bonus_seat(scenario.model.seed, np.arange(first, first + size), scenario.model.players, eligible)
        bonus = (prep.tables.cards.index(scenario.model.bonus_card), who)
    if isinstance(prep, SeasonPrepared):  # a batch of seasons: each car's seat is its first race's grid slot
        season = championship.season_of(prep.database)
        points = tuple(prep.database.rules.championship.points)
        on = rec if rec.on else None
        return seats, championship.play_season(
            season, prep.races, points, prep.bots, seats, streams, events, rec=on, bonus=bonus
        )
    # the compiled engine (compiled/): the numpy engine's races, one at a time; `after_turn` is the
    # runner's progress (told the state every few races)
    return seats, compiled.simulate(
        prep.tables, prep.bots, seats, streams, events, bonus, progress=after_turn, rec=rec if rec.on else None
    )


def progress(prep: Prepared, st: State) -> np.ndarray:
    """(G,) how far each race has got: its last car's spaces of the race (the race runs until every car is
    home); 1 once over."""
    length = prep.tables.tracks[prep.tables.rules.track].length
    last = np.where(st.finished, length, st.pos).min(axis=1)
    return np.where(st.running, np.clip(last / length, 0.0, 1.0), 1.0)


def drafted_items(catalog: dict) -> list[str]:
    """What a player drafts: the Garage upgrades (the studied cards that are neither basic speed nor starting
    cards; only the Garage module studies them)."""
    return [
        c["id"]
        for c in catalog.get("cards", [])
        if c.get("studied") and c.get("group") not in ("basic_speed", "starting", None)
    ]
