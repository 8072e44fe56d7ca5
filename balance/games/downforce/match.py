"""What every step of a Downforce game reads besides the state: the compiled
tables, the track raced, the bots, the random numbers, the recorder, and
card figures derived once per batch."""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np

from ..chance import Streams
from ..events import Events
from ..recorder import Recorder
from . import vocabulary as V
from .bots import BotTable
from .compile import WILD, Tables, TrackTable


@dataclass
class Match:
    tables: Tables
    bots: BotTable
    streams: Streams
    rec: Recorder
    events: Events | None = None
    track: TrackTable = field(init=False)
    colour_speed: np.ndarray = field(init=False)  # (C, 6) float32: how far each card moves each colour
    deck_speed: np.ndarray = field(init=False)  # (6,) float32: spaces of each colour on all the box's speed cards
    # A power index of -1 (none kept, or a car sold without one) reads the last entry of these:
    power_kind: np.ndarray = field(init=False)  # (P + 1,) int8: vocabulary.POWERS index of each power card; -1
    power_bonus: np.ndarray = field(init=False)  # (P + 1,) int8: each power card's bonus; 0
    power_worth: np.ndarray = field(init=False)  # (Q, P + 1) float32: each bot's worth of each power card; 0

    def __post_init__(self) -> None:
        cards = self.tables.cards
        self.track = self.tables.tracks[self.tables.rules.track]
        speed = np.zeros((len(cards.ids), V.N_CARS), np.float32)
        for m in range(cards.car.shape[1]):
            named = (cards.car[:, m] >= 0) & (cards.car[:, m] < WILD)
            speed[np.flatnonzero(named), cards.car[named, m]] += cards.speed[named, m]
        self.colour_speed = speed
        self.deck_speed = cards.count.astype(np.float32) @ speed
        powers = self.tables.powers
        self.power_kind = np.append(powers.kind, -1).astype(np.int8)
        self.power_bonus = np.append(powers.bonus, 0).astype(np.int8)
        self.power_worth = np.pad(self.bots.power_value, ((0, 0), (0, 1)))

    def has_power(self, power: np.ndarray, name: str) -> np.ndarray:
        """(shape of power) bool: the kept power index is the named kind (-1: none)."""
        kind = list(V.POWERS).index(name)
        return self.power_kind[power] == kind

    def bonus(self, power: np.ndarray) -> np.ndarray:
        """The kept power card's bonus (0 for none or a power without one)."""
        return self.power_bonus[power]
