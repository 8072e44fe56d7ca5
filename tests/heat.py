"""Helpers for the Heat engine tests: the database edited in memory, and a
batch of races set up with bots that never act at random."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import numpy as np
import yaml

from balance.games.chance import Streams
from balance.games.heat.bots import bot_table, resolve_profiles
from balance.games.heat.compile import Tables, compile_database
from balance.games.heat.race import Race
from balance.games.heat.schema import validate_database
from balance.games.heat.setup import setup
from balance.games.heat.state import State
from balance.games.recorder import Recorder
from balance.yamlio import parse_yaml

ROOT = Path(__file__).resolve().parents[1]
_BASE = yaml.safe_load((ROOT / "heat.yaml").read_text())

# A bot with no noise: every choice follows from its weights.
ROBOT = {"noise": 0.0}


def tables(**rules: Any) -> Tables:
    """heat.yaml with some `rules:` changed (e.g. track="italia", garage_module=True)."""
    data = yaml.safe_load(yaml.safe_dump(_BASE))
    data["rules"].update(rules)
    return compile_database(validate_database(parse_yaml(yaml.safe_dump(data, sort_keys=False), "test.yaml")))


def batch(
    t: Tables, names: list[str], races: int = 1, seed: int = 0, profiles: dict | None = None, watch: int | None = None
) -> tuple[Race, State]:
    """A batch after setup: grid slot i holds names[i] ('robot' = balanced without noise)."""
    over = {"robot": dict(ROBOT)} | (profiles or {})
    bots = bot_table(resolve_profiles(over), names, t)
    race = Race(t, bots, Streams(seed, 0, races), Recorder(watch))
    seats = np.tile(np.arange(len(names), dtype=np.int16), (races, 1))
    return race, setup(race, seats)


def card(t: Tables, card_id: str) -> int:
    return t.cards.index(card_id)


def hand_of(t: Tables, st: State, car: int, cards: dict[str, int], deck: dict[str, int] | None = None) -> None:
    """Give car `car` in every race exactly this hand (and deck, if given); the
    rest of its cards go to the discard, so nothing is lost."""
    owned = st.deck[:, car] + st.hand[:, car] + st.discard[:, car] + st.play[:, car]
    hand = np.zeros_like(owned)
    for cid, n in cards.items():
        hand[:, card(t, cid)] = n
    deck_counts = np.zeros_like(owned)
    for cid, n in (deck or {}).items():
        deck_counts[:, card(t, cid)] = n
    st.hand[:, car] = hand
    st.deck[:, car] = deck_counts
    st.play[:, car] = 0
    st.discard[:, car] = np.maximum(owned - hand - deck_counts, 0)
