"""One chunk of a scenario's games: what `balance run` does in a worker and
`balance trace` does for one watched game.

`prepare` validates everything once (card database with the scenario's
overrides, bot profiles); `play_chunk` simulates a chunk from its own seed.
"""

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
from .compile import compile_database
from .draft import Bonus
from .schema import validate_database
from .state import State


def prepare(scenario: ScenarioView) -> Prepared:
    m = scenario.model
    db = validate_database(scenario.database_doc())
    tables = compile_database(db)
    if m.players not in tables.rules.player_counts:
        raise UserError(
            scenario.doc.problem(
                ("players",),
                f"{m.players} players is not in the draft_pool of {scenario.cards_path} "
                f"({', '.join(map(str, tables.rules.player_counts))})",
            )
        )
    profiles = resolve_profiles(m.bot_profiles, scenario.doc)
    raise_first(unknown_bot_problems(scenario, list(profiles)))
    names = scenario.bot_names
    # card and Playbook ids never clash: the database refuses a duplicate id across both lists
    if m.bonus_card is not None and m.bonus_card not in tables.cards.ids + tables.playbooks.ids:
        raise UserError(scenario.doc.problem(("bonus_card",), f"no card with id {m.bonus_card!r}, nor a Playbook"))
    bots = bot_table(profiles, names, tables, m.players)
    compiled.ensure_compiled(tables, bots, m.players)  # here, before any worker: one compile, said on the console
    return Prepared(db, tables, bots, pool=not isinstance(m.bots, list), players=m.players)


def catalog(prep: Prepared) -> dict[str, list[dict[str, object]]]:
    """Every card and Playbook of the database as played, so reports can list
    the ones that never appear in the logs. A card's count is its copies at the
    scenario's player count: an (M) card left out of the Parts Deck below
    rules.multiplayer_min_players (1.2) counts 0, so no experiment measures a
    card the game does not hold."""
    db = prep.database
    left_out = prep.players < db.rules.multiplayer_min_players
    return {
        "cards": [
            {
                "id": c.id,
                "name": c.name,
                "type": c.type,
                "group": c.group,
                "count": 0 if left_out and "M" in c.flags else c.count,
            }
            for c in db.cards
        ],
        "playbooks": [{"id": p.id, "name": p.name, "count": p.count} for p in db.playbooks],
    }


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
        cards, books = prep.tables.cards.ids, prep.tables.playbooks.ids
        instead = scenario.model.bonus_playbook == "instead"
        bonus = Bonus(
            cards.index(item) if item in cards else -1, books.index(item) if item in books else -1, who, instead
        )
    return seats, compiled.simulate(prep.tables, prep.bots, seats, streams, events, bonus, progress=after_turn, rec=rec)


def progress(prep: Prepared, st: State) -> np.ndarray:
    """(G,) how far each game has got: its leader's spaces of the whole race (laps x spaces); 1 once over."""
    spaces, laps = st.bananas.shape[1] - 1, st.lap_turns.shape[2]
    lead = ((st.lap.astype(np.int32) - 1) * spaces + np.minimum(st.pos, spaces)).max(axis=1)
    return np.where(st.running, np.clip(lead / (laps * spaces), 0.0, 1.0), 1.0)


def drafted_items(catalog: dict) -> list[str]:
    """What a player drafts: the Parts Deck cards and the Playbooks."""
    parts = [c["id"] for c in catalog.get("cards", []) if c.get("group") == "parts"]
    return parts + [p["id"] for p in catalog.get("playbooks", [])]
