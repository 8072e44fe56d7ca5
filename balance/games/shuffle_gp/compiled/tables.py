"""What the compiled Shuffle Grand Prix engine reads besides the state: the
database's compiled tables, the bots' profiles and the lookups derived from
them (`Lookups`), laid out as numbers and arrays (`Tab`). No Python object
reaches the per-game code. `Bonus`: a strength experiment's item.

Built once per (tables, bots, players) in a process and kept: the runner's
workers play many chunks of one scenario.
"""

from __future__ import annotations

from collections import namedtuple
from dataclasses import dataclass

import numpy as np

from .. import vocabulary as V
from ..bots import FEATURES, BotTable, heal_amount, self_damage, trap_damage, trap_triggers
from ..compile import Tables

OP = {name: i for i, name in enumerate(V.OPS)}
TYPE = {name: i for i, name in enumerate(V.CARD_TYPES)}
TARGET = {name: i for i, name in enumerate(V.TARGETS)}
WHEN = {name: i for i, name in enumerate(V.CONDITIONS)}
LASTING: tuple[str, ...] = tuple(name for name, spec in V.OPS.items() if spec.kind == "lasting")
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


@dataclass(frozen=True)
class Bonus:
    """A strength experiment's item for one seat of each game: `who` (G,) the
    receiving seat; `driver` a driver index it is given before the draft (-1:
    none), `card` an ability card index it gets one extra copy of (-1: none;
    docs/strength_shuffle_gp.md)."""

    who: np.ndarray
    driver: int = -1
    card: int = -1


class Lookups:
    """The columns the rules look up, derived once per (tables, bots)."""

    def __init__(self, tables: Tables, bots: BotTable) -> None:
        c, d = tables.cards, tables.drivers
        K = len(c.ids)
        self.values = tables.distance.value.astype(np.int32)  # (V,) distance points of each kind
        count = tables.distance.count
        self.mean_value = float((self.values * count).sum() / max(count.sum(), 1))  # of the average card
        # (K + 1, L) int16: each card's lasting amounts (no_ability_play: 1); the last row zeros, so an empty
        # slot (-1) reads nothing without a mask
        self.lasting = np.zeros((K + 1, len(LASTING)), np.int16)
        for i, name in enumerate(LASTING):
            amount = np.where(name == "no_ability_play", 1, c.amount)
            self.lasting[:K, i] = np.where(c.op == OP[name], amount, 0).sum(axis=1)
        self.always = np.zeros((len(d.ids), len(LASTING)), np.int16)  # (D, L): each driver's `always` specialty
        for i, name in enumerate(LASTING):
            hit = (d.when == WHEN["always"]) & (d.op == OP[name])
            self.always[:, i] = np.where(hit, np.where(name == "no_ability_play", 1, d.amount), 0)
        self.timed = c.turns > 0  # (K,) has a turn symbol (uses a turn tracker)
        anytime = c.type == TYPE["anytime"]
        # rules.anytime_cards "any_time": "played at any time" (rules.anytime_window), not as the turn's play;
        # a bare cancel only ever answers a card (rules.answer)
        outside = anytime & (c.n_effects > 0) & (tables.rules.anytime_cards == "any_time")
        self.on_turn = ~((anytime & (c.n_effects == 0)) | outside)  # (K,) may be played as the turn's play
        self.anytime_cols = np.flatnonzero(outside)  # (C,) anytime cards with effects, played outside the play
        self.swaps = (c.op == OP["swap_top_distance"]).any(axis=1)  # (K,) worth something only with a gain
        self.harmful = np.isin(c.op, [OP[n] for n in HARMFUL]) & (c.target != TARGET["self"])  # (K, M)
        self.heals = heal_amount(tables)
        self.hurts_self = self_damage(tables)
        self.sets_off = trap_triggers(tables)  # (K, T) the trap triggers playing the card sets off
        self.trap_hurt = trap_damage(tables)  # (K,) damage a trap deals whoever sets it off
        # the (op, target, amount) of the action and anytime cards' effects that may change nothing now
        # (MAY_IDLE), the cards holding each (U, K) bool, and what each is worth on them (Q, U, K) float32
        instant = np.isin(c.type, [TYPE["action"], TYPE["anytime"]])
        may = np.isin(c.op, [OP[name] for name in MAY_IDLE]) & instant[:, None]
        kinds = sorted({(int(c.op[k, s]), int(c.target[k, s]), int(c.amount[k, s])) for k, s in np.argwhere(may)})
        Q = len(bots.names)
        self.idle_kinds = tuple(kinds)
        self.idle_cards = np.zeros((len(kinds), K), bool)
        self.idle_worth = np.zeros((Q, len(kinds), K), np.float32)
        for u, (op, target, amount) in enumerate(kinds):
            slots = may & (c.op == op) & (c.target == target) & (c.amount == amount)  # (K, M)
            self.idle_cards[u] = slots.any(axis=1)
            self.idle_worth[:, u] = np.where(slots[None], bots.slot_value, 0).sum(axis=2, dtype=np.float32)


OPS = tuple(V.OPS)
TARGETS = V.TARGETS
TRIGGERS = V.TRIGGERS
CONDITIONS = V.CONDITIONS
CARD_TYPES = V.CARD_TYPES
# the draws the engine makes, one count each (chance.compiled.key)
PURPOSES = (
    "deal for first player",
    "redeal for first player",
    "noise: driver draft",
    "draw ability cards",
    "distance card",
    "noise: card worth",
    "noise: pit, redraw or pass",
    "noise: rival choice",
    "noise: spend trophies",
    "noise: swap top cards",
    "noise: answer or not",
    "noise: which cancel",
    "noise: anytime play",
    "steal: card taken",
)

Tab = namedtuple(
    "Tab",
    [
        # rules
        "players",
        "hand_size",
        "tire_health",
        "equip_slots",
        "turn_trackers",
        "distance_per_turn",
        "plays_per_turn",
        "trophies",
        "trophy_swap",
        "trophy_extra_play",
        "spin_out_trophy",
        "spin_out_discard",
        "pit_stop_discard",
        "max_turns",
        "final_blow",  # spin_out_trophies == "final_blow"
        "redeal",  # first_player_ties == "redeal"
        "bottom_random",  # bottom_pile == "random"
        "event_driver",  # specialty_of == "event_driver"
        "trap_damage_specialties",
        "pit_stop_equips",
        # distance cards
        "values",  # (V,) int32
        "distance_count",  # (V,) int16
        "mean_value",  # float32 (a Python float beside a float32 array acts as a float32)
        # ability cards
        "card_type",  # (K,) int8
        "card_driver",  # (K,) int8
        "card_count",  # (K,) int16
        "turns",  # (K,) int8
        "trigger",  # (K,) int8
        "cancels",  # (K,) int8
        "op",  # (K, M) int8
        "target",  # (K, M) int8
        "amount",  # (K, M) int16
        "n_effects",  # (K,) int8
        # drivers
        "d_when",  # (D,) int8
        "d_op",  # (D,) int8
        "d_target",  # (D,) int8
        "d_amount",  # (D,) int16
        "first_card",  # (D,) int64: a driver's first card (the draft event's card)
        # the lookups (Lookups)
        "lasting",  # (K + 1, L) int16
        "always",  # (D, L) int16
        "timed",  # (K,) bool
        "on_turn",  # (K,) bool
        "anytime_cols",  # (C,) int64
        "swaps",  # (K,) bool
        "harmful",  # (K, M) bool
        "heals",  # (K,) int16
        "hurts_self",  # (K,) int16
        "sets_off",  # (K, T) bool
        "sets_off_any",  # (T,) bool
        "trap_hurt",  # (K,) int16
        "idle_kinds",  # (U, 3) int64: (op, target, amount)
        "idle_cards",  # (U, K) bool
        "idle_worth",  # (Q, U, K) float32
        # bots
        "noise",  # (Q,) float32
        "speed",  # (Q,) float32: the speed weight
        "defence",
        "cancel",
        "lead",
        "pit_stop",
        "redraw",
        "swap_below",  # (Q,) int8
        "extra_play",
        "anytime",
        "card_value",  # (Q, K) float32
        "driver_value",  # (Q, D) float32
    ],
)


def build(tables: Tables, bots: BotTable, players: int) -> Tab:
    """The compiled engine's tables for (tables, bots, players)."""
    m = Lookups(tables, bots)
    r, c, d = tables.rules, tables.cards, tables.drivers
    D = len(d.ids)
    kinds = np.array(m.idle_kinds, np.int64).reshape(-1, 3)
    return Tab(
        players=players,
        hand_size=r.hand_size,
        tire_health=r.tire_health,
        equip_slots=r.equip_slots,
        turn_trackers=r.turn_trackers,
        distance_per_turn=r.distance_per_turn,
        plays_per_turn=r.plays_per_turn,
        trophies=r.trophies,
        trophy_swap=r.trophy_swap,
        trophy_extra_play=r.trophy_extra_play,
        spin_out_trophy=r.spin_out_trophy,
        spin_out_discard=r.spin_out_discard,
        pit_stop_discard=r.pit_stop_discard,
        max_turns=r.max_turns,
        final_blow=r.spin_out_trophies == "final_blow",
        redeal=r.first_player_ties == "redeal",
        bottom_random=r.bottom_pile == "random",
        event_driver=r.specialty_of == "event_driver",
        trap_damage_specialties=bool(r.trap_damage_specialties),
        pit_stop_equips=bool(r.pit_stop_equips),
        values=m.values.astype(np.int32),
        distance_count=tables.distance.count.astype(np.int16),
        mean_value=np.float32(m.mean_value),
        card_type=c.type.astype(np.int8),
        card_driver=c.driver.astype(np.int8),
        card_count=c.count.astype(np.int16),
        turns=c.turns.astype(np.int8),
        trigger=c.trigger.astype(np.int8),
        cancels=c.cancels.astype(np.int8),
        op=c.op.astype(np.int8),
        target=c.target.astype(np.int8),
        amount=c.amount.astype(np.int16),
        n_effects=c.n_effects.astype(np.int8),
        d_when=d.when.astype(np.int8),
        d_op=d.op.astype(np.int8),
        d_target=d.target.astype(np.int8),
        d_amount=d.amount.astype(np.int16),
        first_card=np.array([int(np.flatnonzero(c.driver == i)[0]) for i in range(D)], np.int64),
        lasting=m.lasting.astype(np.int16),
        always=m.always.astype(np.int16),
        timed=m.timed.astype(np.bool_),
        on_turn=m.on_turn.astype(np.bool_),
        anytime_cols=m.anytime_cols.astype(np.int64),
        swaps=m.swaps.astype(np.bool_),
        harmful=m.harmful.astype(np.bool_),
        heals=m.heals.astype(np.int16),
        hurts_self=m.hurts_self.astype(np.int16),
        sets_off=m.sets_off.astype(np.bool_),
        sets_off_any=m.sets_off.any(axis=0),
        trap_hurt=m.trap_hurt.astype(np.int16),
        idle_kinds=kinds,
        idle_cards=m.idle_cards.astype(np.bool_).reshape(len(kinds), len(c.ids)),
        idle_worth=m.idle_worth.astype(np.float32).reshape(len(bots.names), len(kinds), len(c.ids)),
        noise=bots.noise.astype(np.float32),
        speed=np.ascontiguousarray(bots.weights[:, FEATURES.index("speed")], np.float32),
        defence=bots.defence.astype(np.float32),
        cancel=bots.cancel.astype(np.float32),
        lead=bots.lead.astype(np.float32),
        pit_stop=bots.pit_stop.astype(np.float32),
        redraw=bots.redraw.astype(np.float32),
        swap_below=bots.swap_below.astype(np.int8),
        extra_play=bots.extra_play.astype(np.float32),
        anytime=bots.anytime.astype(np.float32),
        card_value=bots.card_value.astype(np.float32),
        driver_value=bots.driver_value.astype(np.float32),
    )


assert LASTING == ("shield", "distance_bonus", "damage_bonus", "damage_reduction", "no_ability_play"), LASTING
