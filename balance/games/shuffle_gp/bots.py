"""Shuffle Grand Prix bots: profiles are data (bots.yaml); decisions are
arrays. Each ability card has a few features (what it does, in rough points:
harm to rivals, tire health kept, distance cards gained, cards or plays
gained, harm a trap may do); a profile weighs them into one worth per card
(`card_value`), which picks the play, the card to discard and the drivers in
the draft. Situational parts (a heal is worth only the health missing, a
self-damage that would spin you out is avoided) are added by the rules
(compiled/rules.py: play_worth)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Annotated, Any

import numpy as np
from pydantic import Field

from ...validation import Strict
from ...yamlio import YamlDoc
from .. import profiles
from . import vocabulary as V
from .compile import Tables
from .schema import MAX_TIRE

FEATURES: tuple[str, ...] = ("aggression", "defence", "speed", "cards", "traps")
ASSUMED_RIVALS = 2  # all_rivals effects counted as hitting this many (a 3-player race)
PERMANENT = 3  # a lasting card without a turn symbol counted as staying this many turns
CANCEL_WORTH = 1.5  # tire health an anytime cancel saves (an average attack)


# The largest weight or threshold (the shipped ones are at most 3.5; "high = never" needs
# no more): card worths stay finite in float32, so that no score is inf - inf = nan.
MAX_WEIGHT = 1000
Weight = Annotated[float, Field(ge=0, le=MAX_WEIGHT)]
Chance = Annotated[float, Field(ge=0, le=1)]


class Profile(Strict):
    model_config = Strict.model_config | {"strict": False}  # YAML `1` is a fine float
    noise: Chance
    aggression: Weight
    defence: Weight
    speed: Weight
    cards: Weight
    traps: Weight
    cancel: Chance
    lead: Chance
    pit_stop: Weight
    redraw: Weight
    swap_below: int = Field(ge=0, le=MAX_TIRE)  # a tire health (int8 column)
    extra_play: Weight
    anytime: Weight
    drivers: dict[str, Annotated[float, Field(ge=-MAX_WEIGHT, le=MAX_WEIGHT)]] = Field(default_factory=dict)


def builtin_profiles() -> dict[str, Profile]:
    return profiles.builtin_profiles(__package__, Profile)


def resolve_profiles(overrides: dict[str, Any] | None, doc: YamlDoc | None = None, prefix=("bot_profiles",)):
    """Built-in profiles with a scenario's overrides merged in (field by field);
    an override naming an unknown profile defines a new one from `balanced`."""
    return profiles.resolve_profiles(__package__, Profile, overrides, doc, prefix)


@dataclass(frozen=True)
class BotTable:
    """The profiles playing a batch, as arrays indexed by profile number."""

    names: tuple[str, ...]  # (Q,)
    noise: np.ndarray  # (Q,) float32
    weights: np.ndarray  # (Q, F) float32: FEATURES weights
    defence: np.ndarray  # (Q,) float32: the defence weight alone (heals, self-damage)
    cancel: np.ndarray  # (Q,) float32
    lead: np.ndarray  # (Q,) float32
    pit_stop: np.ndarray  # (Q,) float32
    redraw: np.ndarray  # (Q,) float32
    swap_below: np.ndarray  # (Q,) int8
    extra_play: np.ndarray  # (Q,) float32
    anytime: np.ndarray  # (Q,) float32
    card_value: np.ndarray  # (Q, K) float32: a card's worth, heals not counted (they are situational)
    slot_value: np.ndarray  # (Q, K, M) float32: the worth of each effect of an action or anytime card
    driver_value: np.ndarray  # (Q, D) float32: a driver's worth in the draft


def bot_table(profiles: dict[str, Profile], names: list[str], tables: Tables) -> BotTable:
    chosen = [profiles[n] for n in names]

    def column(field: str, dtype=np.float32) -> np.ndarray:
        return np.array([getattr(p, field) for p in chosen], dtype=dtype)

    weights = np.array([[getattr(p, f) for f in FEATURES] for p in chosen], dtype=np.float32)
    feats = card_features(tables)
    # weighed feature by feature in FEATURES order (not a BLAS product): the same sum on every machine,
    # and a card whose one effect is idle now is worth exactly 0 once that effect's worth is taken off
    card_value = weighed(weights, feats)
    deck = tables.cards.count.astype(np.float32)
    D = len(tables.drivers.ids)
    per_driver = np.zeros((D, len(FEATURES)), np.float32)
    for d in range(D):
        mine = tables.cards.driver == d
        per_driver[d] = (feats[mine] * deck[mine, None]).sum(axis=0) / max(deck[mine].sum(), 1)
        per_driver[d] += specialty_features(tables, d)
    bonus = np.array([[p.drivers.get(i, 0.0) for i in tables.drivers.ids] for p in chosen], np.float32)
    return BotTable(
        names=tuple(names),
        noise=column("noise"),
        weights=weights,
        defence=column("defence"),
        cancel=column("cancel"),
        lead=column("lead"),
        pit_stop=column("pit_stop"),
        redraw=column("redraw"),
        swap_below=column("swap_below", np.int8),
        extra_play=column("extra_play"),
        anytime=column("anytime"),
        card_value=card_value,
        slot_value=weighed(weights, slot_features(tables)),
        driver_value=(weights @ per_driver.T + bonus).astype(np.float32),
    )


def _effect_features(op: str, target: str | None, amount: int, card_type: str, turns: int) -> np.ndarray:
    """What one effect is worth in FEATURES (the trap column is filled by the caller)."""
    f = np.zeros(len(FEATURES), np.float32)
    hits = ASSUMED_RIVALS if target == "all_rivals" else 1
    stay = turns or PERMANENT
    nerf = card_type == "nerf"
    match op:
        case "damage":
            if target == "self":
                f[1] -= amount
            else:
                f[0] += amount * hits
        case "heal":
            pass  # situational: the health missing (compiled/rules.py: play_worth)
        case "steal_card" | "remove_equip":
            f[0] += 0.5 * amount * hits
            f[3] += 0.5 * amount * hits if op == "steal_card" else 0
        case "discard_distance":
            if target == "self":
                f[2] -= amount
            else:
                f[0] += amount * hits
        case "draw_distance":
            f[2] += amount
        case "swap_top_distance":
            f[2] += 0.5
        case "skip_turn":
            f[0] += 1.5 * amount * hits * (-1 if target == "self" else 1)
        case "draw_ability":
            f[3] += 0.5 * amount
        case "extra_play":
            f[3] += amount
        case "remove_nerf":
            f[1] += amount
        case "shield":
            f[1] += amount
        case "distance_bonus":
            f[0 if nerf else 2] += abs(amount) / 50 * stay
        case "damage_bonus":
            f[0 if not nerf else 1] += abs(amount) * 0.5 * stay
        case "damage_reduction":
            f[1 if not nerf else 0] += abs(amount) * 0.5 * stay
        case "no_ability_play":
            f[0] += 1.5 * stay
    return f


def weighed(weights: np.ndarray, features: np.ndarray) -> np.ndarray:
    """(Q, ...) float32: each profile's weights (Q, F) times `features` (..., F),
    summed over F in FEATURES order."""
    w = weights.reshape(weights.shape[:1] + (1,) * (features.ndim - 1) + weights.shape[1:])
    return (w * features[None]).sum(axis=-1, dtype=np.float32)


def slot_features(tables: Tables) -> np.ndarray:
    """(K, M, F) the features of each effect of an action or anytime card (0
    elsewhere: a lasting or a trap card is worth what it may do later): the
    parts card_features sums, so that an effect that would do nothing now
    (compiled/rules.py: affected_any) can be taken off a card's worth."""
    c = tables.cards
    ops, types = list(V.OPS), V.CARD_TYPES
    out = np.zeros(c.op.shape + (len(FEATURES),), np.float32)
    for k in range(len(c.ids)):
        t = types[c.type[k]]
        if t not in ("action", "anytime"):
            continue
        for m in range(c.n_effects[k]):
            target = V.TARGETS[c.target[k, m]] if c.target[k, m] >= 0 else None
            out[k, m] = _effect_features(ops[c.op[k, m]], target, int(c.amount[k, m]), t, int(c.turns[k]))
    return out


def card_features(tables: Tables) -> np.ndarray:
    """(K, F) each card's features in FEATURES order: a trap's whole worth goes to `traps`."""
    c = tables.cards
    ops, types = list(V.OPS), V.CARD_TYPES
    out = np.zeros((len(c.ids), len(FEATURES)), np.float32)
    for k in range(len(c.ids)):
        t = types[c.type[k]]
        for m in range(c.n_effects[k]):
            target = V.TARGETS[c.target[k, m]] if c.target[k, m] >= 0 else None
            out[k] += _effect_features(ops[c.op[k, m]], target, int(c.amount[k, m]), t, int(c.turns[k]))
        if c.cancels[k] >= 0:
            out[k, 1] += CANCEL_WORTH
        if t == "trap":
            out[k, 4] = out[k, 0] + abs(out[k, 2]) + out[k, 3]
            out[k, :4] = 0
    return out


def specialty_features(tables: Tables, d: int) -> np.ndarray:
    """(F,) a specialty's worth per turn, very roughly: an `always` modifier as
    an equip that stays one turn, an event's op as one effect every other turn."""
    dr = tables.drivers
    op = list(V.OPS)[dr.op[d]]
    target = V.TARGETS[dr.target[d]] if dr.target[d] >= 0 else None
    always = V.CONDITIONS[dr.when[d]] == "always"
    f = _effect_features(op, target, int(dr.amount[d]), "equip", 1)
    if op == "heal":
        f[1] += 0.5 * dr.amount[d]
    return f if always else 0.5 * f


def heal_amount(tables: Tables) -> np.ndarray:
    """(K,) int16: tire health a card heals (its heal effects summed)."""
    c = tables.cards
    return np.where(c.op == list(V.OPS).index("heal"), c.amount, 0).sum(axis=1).astype(np.int16)


def _damage_to(tables: Tables, target: str) -> np.ndarray:
    """(K,) int16: damage each card deals to `target` (a vocabulary.TARGETS word)."""
    c = tables.cards
    hit = (c.op == list(V.OPS).index("damage")) & (c.target == V.TARGETS.index(target))
    return np.where(hit, c.amount, 0).sum(axis=1).astype(np.int16)


def self_damage(tables: Tables) -> np.ndarray:
    """(K,) int16: damage a card deals its own player."""
    return _damage_to(tables, "self")


def trap_triggers(tables: Tables) -> np.ndarray:
    """(K, T) bool: the trap triggers playing each card sets off on its player
    (vocabulary.TRIGGERS): an action plays_action, an equip plays_equip, a card
    that draws its player a distance card draws_distance, one that heals it heals."""
    c = tables.cards
    out = np.zeros((len(c.ids), len(V.TRIGGERS)), bool)
    own = (c.target == V.TARGETS.index("self")) | (c.target < 0)
    out[:, V.TRIGGERS.index("plays_action")] = c.type == V.CARD_TYPES.index("action")
    out[:, V.TRIGGERS.index("plays_equip")] = c.type == V.CARD_TYPES.index("equip")
    out[:, V.TRIGGERS.index("draws_distance")] = ((c.op == list(V.OPS).index("draw_distance")) & own).any(axis=1)
    out[:, V.TRIGGERS.index("heals")] = ((c.op == list(V.OPS).index("heal")) & own).any(axis=1)
    return out


def trap_damage(tables: Tables) -> np.ndarray:
    """(K,) int16: damage a trap deals whoever sets it off (0 for other cards)."""
    return _damage_to(tables, "triggerer")
