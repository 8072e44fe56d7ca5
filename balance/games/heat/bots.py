"""Heat bots: profiles are data (bots.yaml), decisions are the compiled rules'
(compiled/rules.py: plan_car, react, slipstream, discard_step, garage_draft
use the weights). `legend: true` marks a Legend car.
"""

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

DRAFT_FEATURES: tuple[str, ...] = (
    *("speed", "heat", "cooldown", "slipstream", "corner_limit", "discard_stress", "scrap"),
    *("direct_play", "accelerate", "super_cool", "draft"),
)

# Weights are float32 columns multiplied into scores: bounded, so that no product
# overflows to inf (and inf x 0 to NaN, which would pick a choice at random).
MAX_WEIGHT = 100
MAX_RESERVE = 100  # Heat kept in the Engine (int16); an Engine holds at most 50

Weight = Annotated[float, Field(ge=0, le=MAX_WEIGHT, allow_inf_nan=False)]
Share = Annotated[float, Field(ge=0, le=1, allow_inf_nan=False)]


class DraftWeights(Strict):
    speed: Weight  # per space of expected speed
    heat: Weight  # per Heat the card costs (subtracted)
    cooldown: Weight
    slipstream: Weight
    corner_limit: Weight
    discard_stress: Weight
    scrap: Weight
    # the expansions' and BGA's symbols, each in the unit of the feature it is nearest (upgrade_features): the
    # built-in profiles weigh each as that feature (direct_play and accelerate as speed, super_cool as cooldown,
    # draft as slipstream); a weight of its own, so that tune may find otherwise
    direct_play: Weight
    accelerate: Weight
    super_cool: Weight
    draft: Weight


class Profile(Strict):
    model_config = Strict.model_config | {"strict": False}  # YAML `1` is a fine float
    legend: bool = False
    noise: Share
    risk: Share
    reserve: int = Field(ge=0, le=MAX_RESERVE)
    heat_value: Weight
    boost: Share
    cooldown: Weight
    discard_below: Annotated[float, Field(ge=-MAX_WEIGHT, le=MAX_WEIGHT, allow_inf_nan=False)]
    draft: DraftWeights


def builtin_profiles() -> dict[str, Profile]:
    return profiles.builtin_profiles(__package__, Profile)


def resolve_profiles(overrides: dict[str, Any] | None, doc: YamlDoc | None = None, prefix=("bot_profiles",)):
    """Built-in profiles with a scenario's overrides merged in (field by field);
    an override naming an unknown profile defines a new one from `balanced`."""
    return profiles.resolve_profiles(__package__, Profile, overrides, doc, prefix)


@dataclass(frozen=True)
class BotTable:
    """The profiles racing a batch, as arrays indexed by profile number."""

    names: tuple[str, ...]  # (Q,)
    legend: np.ndarray  # (Q,) bool
    noise: np.ndarray  # (Q,) float32
    risk: np.ndarray  # (Q,) float32
    reserve: np.ndarray  # (Q,) int16
    heat_value: np.ndarray  # (Q,) float32: spaces of speed one Heat paid is worth giving up
    boost: np.ndarray  # (Q,) float32
    cooldown: np.ndarray  # (Q,) float32
    discard_below: np.ndarray  # (Q,) float32
    upgrade_value: np.ndarray  # (Q, K) float32: a Garage card's worth in the draft


def bot_table(profiles: dict[str, Profile], names: list[str], tables: Tables) -> BotTable:
    chosen = [profiles[n] for n in names]

    def column(field: str, dtype=np.float32) -> np.ndarray:
        return np.array([getattr(p, field) for p in chosen], dtype=dtype)

    weights = np.array([[getattr(p.draft, f) for f in DRAFT_FEATURES] for p in chosen], dtype=np.float32)
    return BotTable(
        names=tuple(names),
        legend=column("legend", bool),
        noise=column("noise"),
        risk=column("risk"),
        reserve=column("reserve", np.int16),
        heat_value=column("heat_value"),
        boost=column("boost"),
        cooldown=column("cooldown"),
        discard_below=column("discard_below"),
        upgrade_value=(weights @ upgrade_features(tables).T).astype(np.float32),
    )


def expected_flip(tables: Tables) -> float:
    """The mean speed a flip ("+", Stress, Boost) adds: the basic speed cards' mean."""
    c = tables.cards
    return float((c.speed * c.deck)[c.is_basic].sum() / max(c.deck[c.is_basic].sum(), 1))


def expected_speed(tables: Tables) -> np.ndarray:
    """(K,) float32: what a card adds to Speed on average (a choice card: its best
    choice; each flip: a basic card's mean; Heat: nothing, it cannot be played)."""
    c = tables.cards
    best_choice = np.where(c.choices >= 0, c.choices, 0).max(axis=1)
    speed = np.maximum(c.speed, best_choice) + c.flips * expected_flip(tables)
    return np.where(c.type == V.CARD_TYPES.index("heat"), 0.0, speed).astype(np.float32)


def upgrade_features(tables: Tables) -> np.ndarray:
    """(K, F) what each card does, in DRAFT_FEATURES order: Heat counts against it, and the Heat card of
    the Garage pool (BGA's, rules.garage_draft.heat_cards) is one Heat against it: a card with no Speed that
    puts one more Heat card in the car's cycle, as a card that costs 1 Heat does. The symbols of the
    expansions and BGA's Garage, in spaces or Heat as the rules give them (docs/bots.md):
    - Direct Play: the card is played beyond the gear's cards, so the slot it would take holds another
      card: a basic card's mean Speed (expected_flip) more than the same card without the symbol;
    - Accelerate N: N spaces for each card flipped this turn; the flips the card itself makes are sure
      (a Boost's or a Stress card's are the turn's), so N x its own flips;
    - Super Cool N: up to N Heat back to the Engine, as Cooldown N (from the discard pile, not the hand);
    - Draft N: up to N spaces onto the car ahead, as slipstream's N extra spaces.
    Salvage and Refresh are not valued: what they give depends on the deck later in the race (Fuel 1 with
    Salvage 2 measured -1.7 points, Suspension 4 with Refresh -3.0: docs/heat.md)."""
    c, op = tables.cards, tables.cards.op
    heat = -op("heat").astype(np.float32) - (c.type == V.CARD_TYPES.index("heat"))
    feats = [expected_speed(tables), heat, op("cooldown"), op("slipstream"), op("corner_limit")]
    feats += [op("discard_stress"), op("scrap")]
    feats += [(op("direct_play") > 0) * expected_flip(tables), op("accelerate") * c.flips, op("super_cool")]
    feats += [op("draft")]
    return np.stack([np.asarray(f, np.float32) for f in feats], axis=1)
