"""Helpers for the Shuffle Grand Prix engine tests: the tables, a batch of
games set up with bots that never act at random, and cars arranged by hand
(drivers, hand, equips) with every card still accounted for."""

from __future__ import annotations

from pathlib import Path

import numpy as np

from balance.games.chance import Streams
from balance.games.recorder import Recorder
from balance.games.shuffle_gp.bots import bot_table, resolve_profiles
from balance.games.shuffle_gp.compile import Tables, compile_database
from balance.games.shuffle_gp.match import Match
from balance.games.shuffle_gp.schema import load_database
from balance.games.shuffle_gp.setup import setup
from balance.games.shuffle_gp.state import State

ROOT = Path(__file__).resolve().parents[1]
T: Tables = compile_database(load_database(ROOT / "shuffle_gp.yaml"))

# A bot with no noise that never answers with a cancel, never spends trophies and
# never plays an anytime card outside its turn's play: every choice follows from its weights.
ROBOT = {"noise": 0.0, "cancel": 0.0, "swap_below": 0, "extra_play": 99.0, "anytime": 99.0}


def batch(names: list[str], games: int = 1, seed: int = 0, profiles: dict | None = None) -> tuple[Match, State]:
    """A batch after setup: seat i holds names[i] ('robot' = balanced without noise)."""
    over = {"robot": dict(ROBOT)} | (profiles or {})
    bots = bot_table(resolve_profiles(over), names, T)
    m = Match(T, bots, Streams(seed, 0, games), Recorder(0))
    seats = np.tile(np.arange(len(names), dtype=np.int16), (games, 1))
    return m, setup(m, seats)


def card(card_id: str) -> int:
    return T.cards.index(card_id)


def driver(driver_id: str) -> int:
    return T.drivers.index(driver_id)


def set_car(
    st: State, p: int, drv: str, co: str, hand: dict[str, int], equip: list[tuple[str, int]] = (), tire: int = 4
) -> None:
    """Seat p in every game: these drivers, their deck, exactly this hand and
    these equips (card, turns left); the rest in the draw pile. (Other seats
    keep their drafted drivers: a test arranges every seat it relies on.)"""
    st.driver[:, p], st.co_pilot[:, p] = driver(drv), driver(co)
    st.tire[:, p] = tire
    deck = T.cards.deck([driver(drv), driver(co)])
    st.start[:, p] = deck
    st.hand[:, p] = 0
    for cid, n in hand.items():
        st.hand[:, p, card(cid)] = n
    st.equip[:, p] = -1
    st.equip_left[:, p] = 0
    st.shield[:, p] = 0
    out = st.hand[:, p].copy()
    for e, (cid, left) in enumerate(equip):
        st.equip[:, p, e] = card(cid)
        st.equip_left[:, p, e] = left
        out[:, card(cid)] += 1
    st.draw[:, p] = deck - out
    st.discard[:, p] = 0
    assert (st.draw[:, p] >= 0).all(), "a card the deck does not hold"


def stack(st: State, p: int, values: list[int]) -> None:
    """Put these distance cards (by value, bottom first) on seat p's stack,
    taken from the deck."""
    kinds = [int(np.flatnonzero(T.distance.value == v)[0]) for v in values]
    st.stack[:, p] = -1
    for i, k in enumerate(kinds):
        st.stack[:, p, i] = k
        st.deck[:, k] -= 1
    st.height[:, p] = len(kinds)
