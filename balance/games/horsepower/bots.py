"""Heuristic bots: profiles are data (bots.yaml), decisions are arrays.

Each card and Playbook gets a feature vector once per batch (what it does,
in spaces of Drive per play); a profile's weights turn features into values;
every decision is a masked argmax over values plus the profile's noise. The
`random` profile has zero weights and noise 1: uniform among legal choices.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Literal

import numpy as np
from pydantic import Field

from ...validation import Strict
from ...yamlio import YamlDoc
from .. import profiles
from . import vocabulary as V
from .compile import NONE, Tables
from .limits import MAX_BAR, MAX_COINS, MAX_LAPS, MAX_TRACK, MAX_WEIGHT

FEATURES: tuple[str, ...] = ("drive", "coins", "draw", "thinning", "attack", "defense", "tempo")
F = {name: i for i, name in enumerate(FEATURES)}
PIT_CHOICES = ("auto", "always", "never")
# Where a player stands when it decides (issue 18): level with the race, at least
# `behind_gap` spaces behind the leader, or leading; each with fewer coins in hand
# than `rich_at`, or as many or more. A profile's situation terms scale its
# weights in each; values are worked out once per (profile, lap, variant).
SITUATIONS = ("level", "behind", "leading")
VARIANTS = 2 * len(SITUATIONS)  # variant = situation * 2 + (coins >= rich_at)
MAX_SCALE = 10.0  # the most a situation term multiplies a weight by


# Values are float32 sums of weight x feature: every number finite (no .inf or
# .nan) and bounded (limits.py), so that no value overflows to infinity.
FINITE = Strict.model_config | {"allow_inf_nan": False}


class Weights(Strict):
    model_config = FINITE
    drive: float = Field(ge=0, le=MAX_WEIGHT)
    coins: float = Field(ge=0, le=MAX_WEIGHT)
    draw: float = Field(ge=0, le=MAX_WEIGHT)
    thinning: float = Field(ge=0, le=MAX_WEIGHT)
    attack: float = Field(ge=0, le=MAX_WEIGHT)
    defense: float = Field(ge=0, le=MAX_WEIGHT)
    tempo: float = Field(ge=0, le=MAX_WEIGHT)


class Profile(Strict):
    model_config = FINITE | {"strict": False}  # YAML `1` is a fine float
    noise: float = Field(ge=0, le=1)  # 1: uniform among the legal choices; (1 - noise) weighs the rule (docs/bots.md)
    weights: Weights
    playbook: float = Field(ge=0, le=MAX_WEIGHT)
    late_coins: float = Field(ge=0, le=MAX_WEIGHT)
    buy_min: float = Field(ge=-MAX_BAR, le=MAX_BAR)
    refreshes: int = Field(ge=0, le=10)
    bid: float = Field(ge=0, le=MAX_WEIGHT)
    scrap_below: float = Field(ge=-MAX_BAR, le=MAX_BAR)
    pit_stop: Literal["auto", "always", "never"]
    pit_laps_left: int = Field(ge=1, le=MAX_LAPS)  # more laps than a race has: never (pit_laps_left is 16-bit)
    # Situation terms: multipliers on a feature's weight where the bot stands (SITUATIONS);
    # 1 (the default, every built-in profile) plays exactly as the fixed weights do.
    behind_gap: int = Field(default=15, ge=1, le=MAX_TRACK * MAX_LAPS)  # spaces behind the leader: "behind"
    behind_drive: float = Field(default=1.0, ge=0, le=MAX_SCALE)  # drive, when behind
    behind_attack: float = Field(default=1.0, ge=0, le=MAX_SCALE)  # attack, when behind
    leading_defense: float = Field(default=1.0, ge=0, le=MAX_SCALE)  # defense, when leading
    rich_at: int = Field(default=12, ge=0, le=MAX_COINS)  # coins in hand from which...
    rich_coins: float = Field(default=1.0, ge=0, le=MAX_SCALE)  # ...coins are weighed by this


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
    weights: np.ndarray  # (Q, F) float32
    playbook: np.ndarray  # (Q,)
    late_coins: np.ndarray  # (Q,)
    buy_min: np.ndarray  # (Q,)
    refreshes: np.ndarray  # (Q,) int
    bid: np.ndarray  # (Q,)
    scrap_below: np.ndarray  # (Q,)
    pit_stop: np.ndarray  # (Q,) int8: index into PIT_CHOICES
    pit_laps_left: np.ndarray  # (Q,) int
    card_value: np.ndarray  # (Q, V, K) float32: value of owning / playing a card, first lap, by variant
    card_coins: np.ndarray  # (Q, V, K) float32: the coins part of card_value (it fades by lap)
    one_shot: np.ndarray  # (K,) float32: 1, or the fraction of value kept by a card that scraps itself
    playbook_value: np.ndarray  # (Q, B) float32
    aims: tuple[tuple[int, str], ...]  # (A,) what a card's attack is aimed at: (TARGETS code, AIM_KINDS value)
    card_aimed: np.ndarray  # (Q, V, K, A) float32: the part of card_value from rows with each aim
    aimed_cards: np.ndarray  # (K,) bool: the card has rows aimed at opponents
    behind_gap: np.ndarray  # (Q,) int32
    rich_at: np.ndarray  # (Q,) int32
    roll_at_least: np.ndarray  # (X,) float32: P(the Drive roll >= x), x = 0 .. the most it can roll
    mean_roll: float  # the plain Drive roll's mean: sum of P(roll >= x), x >= 1
    situational: bool  # some profile's situation terms are not all 1: decisions read the situation


def bot_table(profiles: dict[str, Profile], names: list[str], tables: Tables, players: int) -> BotTable:
    chosen = [profiles[n] for n in names]
    weights = np.array([[getattr(p.weights, f) for f in FEATURES] for p in chosen], dtype=np.float32)
    card_feat, one_shot = card_features(tables, players)
    aims, aimed_feat = aimed_features(tables, players)
    pb_feat = playbook_features(tables, players)
    scale = situation_scales(chosen)  # (Q, V, F)
    scaled = weights[:, None, :] * scale  # (Q, V, F) the weights in each variant
    coin_only = np.zeros_like(scaled)
    coin_only[:, :, F["coins"]] = scaled[:, :, F["coins"]]
    return BotTable(
        names=tuple(names),
        noise=np.array([p.noise for p in chosen], dtype=np.float32),
        weights=weights,
        playbook=np.array([p.playbook for p in chosen], dtype=np.float32),
        late_coins=np.array([p.late_coins for p in chosen], dtype=np.float32),
        buy_min=np.array([p.buy_min for p in chosen], dtype=np.float32),
        refreshes=np.array([p.refreshes for p in chosen], dtype=np.int16),
        bid=np.array([p.bid for p in chosen], dtype=np.float32),
        scrap_below=np.array([p.scrap_below for p in chosen], dtype=np.float32),
        pit_stop=np.array([PIT_CHOICES.index(p.pit_stop) for p in chosen], dtype=np.int8),
        pit_laps_left=np.array([p.pit_laps_left for p in chosen], dtype=np.int16),
        card_value=np.einsum("kf,qvf->qvk", card_feat, scaled).astype(np.float32),
        card_coins=np.einsum("kf,qvf->qvk", card_feat, coin_only).astype(np.float32),
        one_shot=one_shot,
        playbook_value=((pb_feat @ weights.T).T * np.array([p.playbook for p in chosen])[:, None]).astype(np.float32),
        aims=aims,
        card_aimed=np.einsum("kaf,qvf->qvka", aimed_feat, scaled).astype(np.float32),
        aimed_cards=aimed_feat.any(axis=(1, 2)),
        behind_gap=np.array([p.behind_gap for p in chosen], dtype=np.int32),
        rich_at=np.array([p.rich_at for p in chosen], dtype=np.int32),
        roll_at_least=(reach := roll_at_least(tables.rules.dice_per_drive, tables.rules.die_sides)),
        mean_roll=float(reach[1:].sum()),
        situational=bool((scale != 1).any()),
    )


def situation_scales(chosen: list[Profile]) -> np.ndarray:
    """(Q, V, F) float32: each profile's multiplier of each feature's weight in
    each variant (SITUATIONS x coins in hand below or at least rich_at)."""
    scale = np.ones((len(chosen), VARIANTS, len(FEATURES)), np.float32)
    for q, p in enumerate(chosen):
        for sit in range(len(SITUATIONS)):
            for rich in (0, 1):
                v = 2 * sit + rich
                if SITUATIONS[sit] == "behind":
                    scale[q, v, F["drive"]] *= p.behind_drive
                    scale[q, v, F["attack"]] *= p.behind_attack
                if SITUATIONS[sit] == "leading":
                    scale[q, v, F["defense"]] *= p.leading_defense
                if rich:
                    scale[q, v, F["coins"]] *= p.rich_coins
    return scale


# --- what cards do, in spaces per play -------------------------------------

WIPE_OUT_SPACES = 5.0  # a skipped Drive Phase costs about one turn's movement
BANANA_SPACES = 2.5  # a Banana ahead of someone hits often, not always
DEBRIS_SPACES = 0.7  # a dead card in a deck of ~15 costs a little every shuffle
CONDITION_ODDS = 0.5  # a conditional effect is counted at half its value
ONE_SHOT_KEEP = 0.35  # a card that scraps itself is worth about a third of a permanent one

# Triggers as plays of a card: how often a Playbook effect fires compared with
# a card being played (a card in a ~12-card deck is played about every 2.4 turns).
TRIGGER_RATE = {
    "always": 2.4,
    "turn_start": 2.4,
    "buy": 1.0,
    "auction": 0.5,
    "incinerator": 0.3,
    "lap_complete": 0.3,
    "wiped_out": 0.3,
    "pit_stop": 0.2,
    "race_through": 0.2,
}


def _expected_best(n_dice: int, sides: int) -> float:
    faces = np.arange(1, sides + 1)
    cdf = faces / sides
    return float(np.sum(faces * (cdf**n_dice - (cdf - 1 / sides) ** n_dice)))


def _row_features(tables: Tables, r: int, players: int) -> np.ndarray:
    e, rules = tables.effects, tables.rules
    op = list(V.OPS)[e.op[r]]
    value = float(e.value[r])
    target = V.TARGETS[e.target[r]] if e.target[r] != NONE else None
    n_targets = players - 1 if target == "all_others" else 1
    per = V.PER_COUNTERS[e.per[r]] if e.per[r] != NONE else None
    value *= {None: 1.0, "puzzle_in_play": 0.7, "lap": 2.0, "opponents_ahead": (players - 1) / 2, "playbooks": 1.5}[per]
    conditional = bool(e.has_condition()[r])
    f = np.zeros(len(FEATURES))
    mean_die = (rules.die_sides + 1) / 2
    if op == "drive":
        f[F["drive"]] = value
    elif op == "dice":
        best = V.DICE_KEEP[e.keep[r]] == "best"
        gain = _expected_best(1 + int(value), rules.die_sides) - mean_die if best else mean_die * value
        f[F["drive"]] = gain
    elif op == "reroll":
        f[F["drive"]] = sum(mean_die - x for x in range(1, min(int(value), rules.die_sides + 1))) / rules.die_sides
    elif op == "coins":
        f[F["coins"]] = value
    elif op == "discount":
        f[F["coins"]] = 0.7 * value
    elif op == "free_refresh":
        f[F["coins"]] = 0.3 * value
    elif op == "steal_coins":
        f[F["coins"]] = 0.6 * value * n_targets
        f[F["attack"]] = 0.4 * value * n_targets
    elif op == "draw":
        f[F["draw"]] = value
    elif op == "hand_size":
        f[F["tempo"]] = value
    elif op == "extra_play":
        f[F["tempo"]] = 1.5 * value
    elif op == "scrap":
        if V.SCRAP_FROM[e.scrap_from[r]] != "this":
            f[F["thinning"]] = value
    elif op == "wipe_out":
        f[F["attack"] if target != "self" else F["drive"]] = (
            (1 if target != "self" else -1) * WIPE_OUT_SPACES * n_targets
        )
    elif op == "banana":
        f[F["attack"] if target != "self" else F["drive"]] = (1 if target != "self" else -1) * BANANA_SPACES * n_targets
    elif op == "push":
        if target == "self":
            f[F["drive"]] = value
        else:
            f[F["attack"]] = -value * n_targets
    elif op == "give_debris":
        if target == "self":
            f[F["drive"]] = -DEBRIS_SPACES * value
        else:
            f[F["attack"]] = DEBRIS_SPACES * value * n_targets
    elif op == "shield":
        f[F["defense"]] = 2.0
    elif op == "slow":
        f[F["attack"]] = value * n_targets
    return f * (CONDITION_ODDS if conditional else 1.0)


def card_features(tables: Tables, players: int) -> tuple[np.ndarray, np.ndarray]:
    """(K, F) features per play of each card, and (K,) its one-shot factor."""
    K = len(tables.cards.ids)
    feats = np.zeros((K, len(FEATURES)))
    one_shot = np.ones(K, dtype=np.float32)
    e = tables.effects
    scrap_this = list(V.OPS).index("scrap"), V.SCRAP_FROM.index("this")
    for r in np.flatnonzero(~e.owner_is_playbook):
        k = e.owner[r]
        feats[k] += _row_features(tables, r, players)
        if (e.op[r], e.scrap_from[r]) == scrap_this:
            one_shot[k] = ONE_SHOT_KEEP
    unplayable = tables.cards.type == V.CARD_TYPES.index("debris")
    feats[unplayable, F["drive"]] -= 1.0  # a dead card takes a hand slot
    return feats.astype(np.float32), one_shot


def card_moves(tables: Tables) -> np.ndarray:
    """(K, 2): what each card's plain rows (no condition, no `per`) add to this
    turn's Drive, and move its player at once (a push of self): what takes a
    player into a Banana it can see (compiled/rules.py: banana_cost)."""
    e = tables.effects
    out = np.zeros((len(tables.cards.ids), 2), np.float32)
    plain = ~e.owner_is_playbook & ~e.has_condition() & (e.per == NONE)
    self_code = V.TARGETS.index("self")
    for r in np.flatnonzero(plain):
        op = list(V.OPS)[e.op[r]]
        if op == "drive":
            out[e.owner[r], 0] += e.value[r]
        elif op == "push" and e.target[r] == self_code and e.value[r] > 0:
            out[e.owner[r], 1] += e.value[r]
    return out


def roll_at_least(dice: int, sides: int) -> np.ndarray:
    """(dice x sides + 2,) P(a Drive roll of `dice` plain dice >= x) for x = 0 .. dice x sides + 1
    (extra dice and rerolls left out: the estimate errs towards shorter Drives)."""
    pmf = np.ones(1)
    for _ in range(dice):
        pmf = np.convolve(pmf, np.r_[0.0, np.ones(sides) / sides])
    at_least = np.r_[pmf[::-1].cumsum()[::-1], 0.0]
    return at_least.astype(np.float32)


# What must hold of a victim for an attack to change anything, by op (the rest
# always do): not already Wiped Out (5.3), Debris left in the supply, a space
# to be pushed back from, coins to take. A push forward always moves.
# A Banana aimed at a player behind: it must not land where the actor's own Drive
# takes it this turn (ahead of the actor within OWN_PATH spaces), or the actor, not
# the victim, drives into it ("off_my_path:D", D the Banana's distance ahead of the victim).
AIM_KINDS = {"wipe_out": "not_wiped", "give_debris": "supply", "steal_coins": "has_coins"}
OWN_PATH = 12  # spaces ahead that a turn's Drive may reach: about two dice and a card's +4 or +6


def _aim_kind(tables: Tables, r: int) -> str:
    op = list(V.OPS)[tables.effects.op[r]]
    if op == "push":
        return "can_go_back" if tables.effects.value[r] < 0 else "any"
    if op == "banana":
        return f"off_my_path:{int(tables.effects.value[r])}"
    return AIM_KINDS.get(op, "any")


def aimed_features(tables: Tables, players: int) -> tuple[tuple[tuple[int, str], ...], np.ndarray]:
    """The aims of the cards' rows that act on opponents ((target code, what
    the victim needs for the effect to change anything: AIM_KINDS), and
    (K, A, F) the features of each card's rows with each aim: what a play
    loses when nobody it would hit is there, or the hit would change nothing."""
    e = tables.effects
    self_code = V.TARGETS.index("self")
    rows = [r for r in np.flatnonzero(~e.owner_is_playbook) if e.target[r] not in (NONE, self_code)]
    aim_of = {r: (int(e.target[r]), _aim_kind(tables, r)) for r in rows}
    aims = tuple(sorted(set(aim_of.values())))
    feats = np.zeros((len(tables.cards.ids), len(aims), len(FEATURES)))
    for r in rows:
        feats[e.owner[r], aims.index(aim_of[r])] += _row_features(tables, r, players)
    return aims, feats.astype(np.float32)


def playbook_features(tables: Tables, players: int) -> np.ndarray:
    """(B, F) features of each Playbook, scaled to plays of a card."""
    feats = np.zeros((len(tables.playbooks.ids), len(FEATURES)))
    e = tables.effects
    for r in np.flatnonzero(e.owner_is_playbook):
        feats[e.owner[r]] += _row_features(tables, r, players) * TRIGGER_RATE[V.TRIGGERS[e.trigger[r]]]
    return feats.astype(np.float32)
