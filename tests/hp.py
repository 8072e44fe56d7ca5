"""Helpers for the Horsepower engine tests: databases edited in memory, and a
batch set up with bots that never act at random."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

import numpy as np
import yaml

from balance.games.chance import Streams
from balance.games.horsepower.bots import bot_table, resolve_profiles
from balance.games.horsepower.compile import Tables, compile_database
from balance.games.horsepower.context import Ctx
from balance.games.horsepower.draft import setup
from balance.games.horsepower.schema import validate_database
from balance.games.horsepower.state import State
from balance.games.recorder import Recorder
from balance.yamlio import parse_yaml

ROOT = Path(__file__).resolve().parents[1]
_BASE = yaml.safe_load((ROOT / "cards.yaml").read_text())

# A bot with no noise: every choice follows from the weights.
ROBOT = {"noise": 0.0, "buy_min": 0.5, "refreshes": 0, "bid": 1.0, "scrap_below": 0.5, "pit_stop": "never"}


def tables(edit: Callable[[dict[str, Any]], None] | None = None) -> Tables:
    data = yaml.safe_load(yaml.safe_dump(_BASE))
    if edit:
        edit(data)
    return compile_database(validate_database(parse_yaml(yaml.safe_dump(data, sort_keys=False), "test.yaml")))


def batch(
    t: Tables,
    players: int,
    games: int,
    seed: int = 0,
    profiles: dict[str, dict] | None = None,
    names: list[str] | None = None,
    watch: int | None = None,
) -> tuple[Ctx, State]:
    """A batch after setup (draft done, hands drawn). Seat p is played by names[p]
    (default: 'robot' everywhere)."""
    over = {"robot": dict(ROBOT)} | (profiles or {})
    names = names or ["robot"] * players
    bots = bot_table(resolve_profiles(over), names, t, players)
    ctx = Ctx(t, bots, Streams(seed, 0, games), Recorder(watch))
    seats = np.tile(np.arange(players, dtype=np.int16), (games, 1))
    return ctx, setup(ctx, seats)


def card(t: Tables, card_id: str) -> int:
    return t.cards.index(card_id)


def only(t: Tables, cards: dict[str, int]) -> np.ndarray:
    """(K,) counts with just these cards."""
    out = np.zeros(len(t.cards.ids), np.int16)
    for card_id, n in cards.items():
        out[card(t, card_id)] = n
    return out


def clear_hands(st: State) -> None:
    """Move every hand into its Deck, so a test can deal exact hands (cards stay conserved)."""
    st.deck += st.hand
    st.hand[:] = 0


def deal(t: Tables, st: State, seat: int, cards: dict[str, int]) -> None:
    """Give seat exact cards in hand, taken from its Deck or, failing that, the supply's
    stand-in (the Parts Deck), keeping every copy accounted for."""
    for card_id, n in cards.items():
        k = card(t, card_id)
        for _ in range(n):
            from_deck = st.deck[:, seat, k] > 0
            st.deck[from_deck, seat, k] -= 1
            from_parts = ~from_deck & (st.parts[:, k] > 0)
            st.parts[from_parts, k] -= 1
            from_supply = ~from_deck & ~from_parts
            st.supply[from_supply, k] -= 1
            st.hand[:, seat, k] += 1


def no_playbooks(st: State) -> None:
    """Return every active Playbook to the Playbook Deck (no Playbook effects in play)."""
    st.playbook_deck += st.playbooks.sum(axis=1).astype(st.playbook_deck.dtype)
    st.playbooks[:] = 0
