"""What every step of a Heat race reads besides the state: the compiled
tables, the course, the bots, the random numbers (keyed: games/chance.py), the recorder, and card
figures derived once per batch."""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np

from ..chance import Streams
from ..events import Events
from ..recorder import Recorder
from . import vocabulary as V
from .bots import BotTable, expected_flip, expected_speed
from .compile import Tables
from .course import Course, course


@dataclass
class Race:
    tables: Tables
    bots: BotTable
    streams: Streams
    rec: Recorder
    events: Events | None = None
    course: Course = field(init=False)
    playable: np.ndarray = field(init=False)  # (K,) bool: may be chosen to play (everything but Heat)
    value: np.ndarray = field(init=False)  # (K,) float32: expected speed a card adds
    heat_cost: np.ndarray = field(init=False)  # (K,) int16: Heat the card makes its player pay
    choice_cards: np.ndarray = field(init=False)  # (J,) the cards whose speed is chosen when revealed
    flip_mean: float = field(init=False)  # a flip's expected speed

    def __post_init__(self) -> None:
        cards = self.tables.cards
        self.course = course(self.tables.tracks[self.tables.rules.track])
        self.playable = cards.type != V.CARD_TYPES.index("heat")
        self.value = expected_speed(self.tables)
        self.heat_cost = cards.op("heat").astype(np.int16)
        self.choice_cards = np.flatnonzero((cards.choices >= 0).any(axis=1))
        self.flip_mean = expected_flip(self.tables)

    def op(self, name: str) -> np.ndarray:
        """(K,) int16: each card's amount of an effect op."""
        return self.tables.cards.op(name).astype(np.int16)
