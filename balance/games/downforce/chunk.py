"""One chunk of a Downforce scenario's games: what `balance run` does in a
worker and `balance trace` does for one watched game. A scenario's `players`
is the number of players (2 to 6); the track is `rules.track`. A scenario's
`bonus_card` (balance strength) names a power or a regular speed card that one
seat of each game receives (docs/strength_downforce.md)."""

from __future__ import annotations

from collections.abc import Callable

import numpy as np

from ...errors import UserError, raise_first
from ...seeding import bonus_seat
from ..base import ScenarioView, unknown_bot_problems
from ..chance import Streams
from ..chunks import Prepared, chunk_seats
from ..events import Events
from ..recorder import NULL, Recorder
from . import compiled
from .bots import bot_table, resolve_profiles
from .compile import Tables, compile_database
from .schema import validate_database
from .state import Bonus, State


def prepare(scenario: ScenarioView) -> Prepared:
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
    if m.bonus_card is not None:
        problem = bonus_problem(tables, m.bonus_card)
        if problem:
            raise UserError(scenario.doc.problem(("bonus_card",), problem))
    bots = bot_table(profiles, scenario.bot_names, tables)
    compiled.ensure_compiled(tables, bots, m.players)  # here, before any worker: one compile, said on the console
    return Prepared(db, tables, bots, pool=not isinstance(m.bots, list))


def card_words(card) -> str:
    """A speed card as a designer reads it: its id and what it moves, in printed
    order ("s01 (black 6, orange 3)"), so tables and findings show its content."""
    return f"{card.id} (" + ", ".join(f"{m.car} {m.speed}" for m in card.moves) + ")"


def catalog(prep: Prepared) -> dict[str, list[dict[str, object]]]:
    """The speed cards and power cards of the database; the regular speed
    cards are `studied` (the ones the players are dealt and play)."""
    db = prep.database
    cards = [
        {"id": c.id, "name": card_words(c), "type": kind, "group": kind, "count": c.count, "studied": kind == "speed"}
        for kind, pile in (("speed", db.speed_cards), ("speed8", db.speed8_cards))
        for c in pile
    ]
    powers = [
        {"id": p.id, "name": p.name, "type": "power", "group": "power", "count": 1, "studied": False} for p in db.powers
    ]
    return {"cards": cards + powers}


def bonus_problem(tables: Tables, item: str) -> str | None:
    """What is wrong with a strength item id, in one line (None: nothing)."""
    cards, powers = tables.cards, tables.powers
    regular = [c for c, eight in zip(cards.ids, cards.is_speed8, strict=True) if not eight]
    if item in regular and item in powers.ids:
        return f"{item!r} names both a speed card and a power card: rename the speed card"
    if item in cards.ids and item not in regular:
        return f"{item!r} is a Speed-8 card (won with its car, never dealt): name a regular speed card or a power"
    if item not in regular and item not in powers.ids:
        return f"no speed card or power card with id {item!r}"
    return None


def make_bonus(tables: Tables, item: str, who: np.ndarray) -> Bonus:
    """The engine's form of a valid strength item for the receiving seats `who` (G,)."""
    if item in tables.powers.ids:
        return Bonus(who, power=tables.powers.index(item))
    return Bonus(who, card=tables.cards.index(item))


def strength_items(catalog: dict) -> list[dict[str, str]]:
    """What `balance strength` can give a seat, from a run's catalog: the power
    cards, then the regular speed cards in the box (Speed-8 cards come with
    their car, so a designer tunes them through the cars, not as a hand card)."""
    entries = catalog["cards"]
    powers = [
        {
            "id": c["id"],
            "name": c["name"],
            "kind": "power",
            "how": "races with this power (in place of its own)",
            "replaces": True,
        }
        for c in entries
        if c["type"] == "power"
    ]
    speed = [
        {"id": c["id"], "name": c["name"], "kind": "speed card", "how": "is dealt one extra copy", "more": True}
        for c in entries
        if c["type"] == "speed" and c["count"]
    ]
    return powers + speed


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
    if scenario.model.bonus_card is not None:
        # the receiving seat is a hash of (seed, game id): the same in the baseline run, where the analysis reads it
        who = bonus_seat(scenario.model.seed, np.arange(first, first + size), scenario.model.players)
        bonus = make_bonus(prep.tables, scenario.model.bonus_card, who)
    return seats, compiled.simulate(prep.tables, prep.bots, seats, streams, events, bonus, progress=after_turn, rec=rec)


def progress(prep: Prepared, st: State) -> np.ndarray:
    """(G,) how far each race has got: the cars finished of six (the track is a graph, with no one length); 1
    once over."""
    return np.where(st.running, st.finishers / 6.0, 1.0)
