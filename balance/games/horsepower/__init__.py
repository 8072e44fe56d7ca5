"""Horsepower, the deckbuilding racer under design (rulebook:
../shared/seeds/000_9a8499f91b0ba2fc.txt)."""

from __future__ import annotations

from functools import partial
from typing import Any

from ..base import Game, Summary, studied_cards
from ..chunks import logged_chunk
from . import vocabulary as V
from .bots import Profile, resolve_profiles
from .chunk import catalog, drafted_items, play_chunk, prepare, progress
from .compile import compile_database
from .log import chunk_tables
from .schema import Database, load_database
from .trace import trace_game


def summarize(db: Database) -> Summary:
    by_type = {t: (0, 0) for t in V.CARD_TYPES}
    by_flag = {f: (0, 0) for f in V.FLAGS}
    for card in db.cards:
        distinct, copies = by_type[card.type]
        by_type[card.type] = (distinct + 1, copies + card.count)
        for flag in card.flags:
            distinct, copies = by_flag[flag]
            by_flag[flag] = (distinct + 1, copies + card.count)
    return Summary(db.counts(), by_type, by_flag, db.warnings)


def strength_items(catalog: dict[str, Any]) -> list[dict[str, str]]:
    """What `balance strength` can give a seat: the Parts Deck cards a deck can
    hold (those in the game), then every Playbook, a removed one (count 0)
    included, since holding it from the start needs no copy in the Playbook Deck
    (held instead of the seat's drafted one unless the scenario's bonus_playbook is extra)."""
    cards = {c["id"]: c for c in catalog["cards"]}
    how = "starts with one extra copy in its deck"
    items = [
        {"id": c, "name": cards[c]["name"], "kind": "card", "how": how}
        for c in studied_cards(catalog) or []
        if cards[c]["count"]
    ]
    how = "holds this Playbook instead of the one it drafted"
    return items + [
        {"id": p["id"], "name": p["name"], "kind": "Playbook", "how": how, "more": True, "replaces": True}  # with --all
        for p in catalog.get("playbooks", [])
    ]


GAME = Game(
    name="horsepower",
    title="Horsepower",
    load_database=load_database,
    compile=compile_database,
    summary=summarize,
    trace=trace_game,
    prepare=prepare,
    play_chunk=partial(logged_chunk, play_chunk, chunk_tables),
    progress=progress,
    drafted_items=drafted_items,
    catalog=catalog,
    profile_model=Profile,
    profiles=resolve_profiles,
    strength_items=strength_items,
)
