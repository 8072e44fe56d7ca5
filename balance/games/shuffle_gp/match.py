"""What every step of a Shuffle Grand Prix game reads besides the state: the
compiled tables, the bots, the random numbers (keyed: chance.Streams), the recorder, the event log,
and lookup columns derived once per batch."""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np

from ..chance import Streams
from ..events import Events
from ..recorder import Recorder
from . import vocabulary as V
from .bots import BotTable, heal_amount, self_damage, trap_damage, trap_triggers
from .compile import Tables

OP = {name: i for i, name in enumerate(V.OPS)}
TYPE = {name: i for i, name in enumerate(V.CARD_TYPES)}
TARGET = {name: i for i, name in enumerate(V.TARGETS)}
TRIGGER = {name: i for i, name in enumerate(V.TRIGGERS)}
WHEN = {name: i for i, name in enumerate(V.CONDITIONS)}
LASTING: tuple[str, ...] = tuple(name for name, spec in V.OPS.items() if spec.kind == "lasting")
LOP = {name: i for i, name in enumerate(LASTING)}
# Ops that may change nothing now: a hit into armour, a discard from an empty stack, a swap with no
# gain, a skip or any of these for an immune player, a removal with nothing to remove. (A steal or a
# distance draw always finds a card in play: a hand holds three, and the race ends with the deck.)
MAY_IDLE: tuple[str, ...] = (
    "damage",
    "discard_distance",
    "swap_top_distance",
    "skip_turn",
    "remove_equip",
    "remove_nerf",
)
# Ops that hurt the players they target: a target of one may answer with an anytime cancel.
HARMFUL: tuple[str, ...] = (
    "damage",
    "steal_card",
    "discard_distance",
    "skip_turn",
    "remove_equip",
    "swap_top_distance",
)
REPLACE = V.CANCELS.index("replace")


@dataclass
class Match:
    tables: Tables
    bots: BotTable
    streams: Streams
    rec: Recorder
    events: Events | None = None
    values: np.ndarray = field(init=False)  # (V,) int32: distance points of each kind
    mean_value: float = field(init=False)  # distance points of the average card in the deck
    # (K + 1, L) int16: each card's lasting amounts (no_ability_play: 1); the last row zeros, so an empty
    # slot (-1) reads nothing without a mask
    lasting: np.ndarray = field(init=False)
    always: np.ndarray = field(init=False)  # (D, L) int16: each driver's `always` specialty, as lasting amounts
    timed: np.ndarray = field(init=False)  # (K,) bool: has a turn symbol (uses a turn tracker)
    on_turn: np.ndarray = field(init=False)  # (K,) bool: may be played as the turn's play
    anytime_cols: np.ndarray = field(init=False)  # (C,) int64: anytime cards with effects, played outside the play
    swaps: np.ndarray = field(init=False)  # (K,) bool: swaps top distance cards (worth something only with a gain)
    harmful: np.ndarray = field(init=False)  # (K, M) bool: the effect slot may hurt the players it targets
    heals: np.ndarray = field(init=False)  # (K,) int16
    hurts_self: np.ndarray = field(init=False)  # (K,) int16
    sets_off: np.ndarray = field(init=False)  # (K, T) bool: the trap triggers playing the card sets off
    trap_hurt: np.ndarray = field(init=False)  # (K,) int16: damage a trap deals whoever sets it off
    # the (op, target, amount) of the action and anytime cards' effects that may change nothing now
    # (MAY_IDLE), the cards holding each (U, K) bool, and what each is worth on them (Q, U, K) float32
    idle_kinds: tuple[tuple[int, int, int], ...] = field(init=False)
    idle_cards: np.ndarray = field(init=False)
    idle_worth: np.ndarray = field(init=False)
    # traps set off while a card resolves, sprung once it has (g, who, trigger); None: no card resolving
    deferred: list | None = field(init=False, default=None)
    springing: bool = field(init=False, default=False)  # a trap's effects are resolving (rules.trap_damage_specialties)

    def __post_init__(self) -> None:
        c, d = self.tables.cards, self.tables.drivers
        K = len(c.ids)
        self.values = self.tables.distance.value.astype(np.int32)
        count = self.tables.distance.count
        self.mean_value = float((self.values * count).sum() / max(count.sum(), 1))
        self.lasting = np.zeros((K + 1, len(LASTING)), np.int16)
        for i, name in enumerate(LASTING):
            amount = np.where(name == "no_ability_play", 1, c.amount)
            self.lasting[:K, i] = np.where(c.op == OP[name], amount, 0).sum(axis=1)
        self.always = np.zeros((len(d.ids), len(LASTING)), np.int16)
        for i, name in enumerate(LASTING):
            hit = (d.when == WHEN["always"]) & (d.op == OP[name])
            self.always[:, i] = np.where(hit, np.where(name == "no_ability_play", 1, d.amount), 0)
        self.timed = c.turns > 0
        anytime = c.type == TYPE["anytime"]
        # rules.anytime_cards "any_time": "played at any time" (turn.anytime_window), not as the turn's play;
        # a bare cancel only ever answers a card (effects.answer)
        outside = anytime & (c.n_effects > 0) & (self.tables.rules.anytime_cards == "any_time")
        self.on_turn = ~((anytime & (c.n_effects == 0)) | outside)
        self.anytime_cols = np.flatnonzero(outside)
        self.swaps = (c.op == OP["swap_top_distance"]).any(axis=1)
        self.harmful = np.isin(c.op, [OP[n] for n in HARMFUL]) & (c.target != TARGET["self"])
        self.heals = heal_amount(self.tables)
        self.hurts_self = self_damage(self.tables)
        self.sets_off = trap_triggers(self.tables)
        self.trap_hurt = trap_damage(self.tables)
        self._idle_kinds()

    def _idle_kinds(self) -> None:
        c = self.tables.cards
        instant = np.isin(c.type, [TYPE["action"], TYPE["anytime"]])
        may = np.isin(c.op, [OP[name] for name in MAY_IDLE]) & instant[:, None]
        kinds = sorted({(int(c.op[k, s]), int(c.target[k, s]), int(c.amount[k, s])) for k, s in np.argwhere(may)})
        K, Q = len(c.ids), len(self.bots.names)
        self.idle_kinds = tuple(kinds)
        self.idle_cards = np.zeros((len(kinds), K), bool)
        self.idle_worth = np.zeros((Q, len(kinds), K), np.float32)
        for u, (op, target, amount) in enumerate(kinds):
            slots = may & (c.op == op) & (c.target == target) & (c.amount == amount)  # (K, M)
            self.idle_cards[u] = slots.any(axis=1)
            self.idle_worth[:, u] = np.where(slots[None], self.bots.slot_value, 0).sum(axis=2, dtype=np.float32)

    def say(self, g: np.ndarray, text) -> None:
        if self.rec.on:
            self.rec.say(g, text)

    def detail(self, g: np.ndarray, text) -> None:
        """balance trace --verbose only: hands and draws."""
        if self.rec.on:
            self.rec.detail(g, text)

    def card_name(self, k: int) -> str:
        return self.tables.cards.names[int(k)]
