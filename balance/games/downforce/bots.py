"""Downforce bots: profiles are data (bots.yaml), decisions are arrays
(auction.py, race.py)."""

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

# The most a weight may be: every score a bot adds up (a car's worth in $M, a
# card's value in spaces, a bet's rows) stays a few thousand at most, finite in
# float32 and far below the noise the random bot (noise 1) adds (about 10**6
# a unit of score), which is what makes its choices uniform. Values in $M and
# rows match the database's limits (schema.MAX_MONEY, schema.MAX_ROWS).
MAX_WEIGHT = 1000.0
MAX_BID_SHARE = 10.0  # `bid`: the share of a car's worth a bot bids (0.45 to 0.9 in bots.yaml)
MAX_RIVAL = 100.0  # `rival`: how much a rival's space counts against a card (own: 1)

Weight = Annotated[float, Field(ge=-MAX_WEIGHT, le=MAX_WEIGHT)]


class PowerWeights(Strict):
    aggressive: Weight  # $M a power card adds to a car's worth (negative: a card it would rather not have)
    cunning: Weight
    determined: Weight
    strategic: Weight
    tricky: Weight
    unpredictable: Weight


class Profile(Strict):
    model_config = Strict.model_config | {"strict": False}  # YAML `1` is a fine float
    noise: float = Field(ge=0, le=1)
    value: float = Field(ge=0, le=MAX_WEIGHT)
    hand: float = Field(ge=0, le=MAX_WEIGHT)
    bid: float = Field(ge=0, le=MAX_BID_SHARE)
    rival: float = Field(ge=0, le=MAX_RIVAL)
    jam: float = Field(ge=0, le=1)
    loyalty: float = Field(ge=0, le=MAX_WEIGHT)
    foresight: float = Field(ge=0, le=1)
    powers: PowerWeights


def builtin_profiles() -> dict[str, Profile]:
    return profiles.builtin_profiles(__package__, Profile)


def resolve_profiles(overrides: dict[str, Any] | None, doc: YamlDoc | None = None, prefix=("bot_profiles",)):
    """Built-in profiles with a scenario's overrides merged in (field by field);
    an override naming an unknown profile defines a new one from `balanced`."""
    return profiles.resolve_profiles(__package__, Profile, overrides, doc, prefix)


@dataclass(frozen=True)
class BotTable:
    names: tuple[str, ...]  # (Q,)
    noise: np.ndarray  # (Q,) float32
    value: np.ndarray  # (Q,) float32
    hand: np.ndarray  # (Q,) float32
    bid: np.ndarray  # (Q,) float32
    rival: np.ndarray  # (Q,) float32
    jam: np.ndarray  # (Q,) float32
    loyalty: np.ndarray  # (Q,) float32
    foresight: np.ndarray  # (Q,) float32
    power_value: np.ndarray  # (Q, P) float32: worth of each power card of the database, by its kind


def bot_table(profiles: dict[str, Profile], names: list[str], tables: Tables) -> BotTable:
    chosen = [profiles[n] for n in names]

    def column(field: str) -> np.ndarray:
        return np.array([getattr(p, field) for p in chosen], dtype=np.float32)

    kinds = list(V.POWERS)
    by_kind = np.array([[getattr(p.powers, k) for k in kinds] for p in chosen], dtype=np.float32)
    return BotTable(
        names=tuple(names),
        noise=column("noise"),
        value=column("value"),
        hand=column("hand"),
        bid=column("bid"),
        rival=column("rival"),
        jam=column("jam"),
        loyalty=column("loyalty"),
        foresight=column("foresight"),
        power_value=by_kind[:, tables.powers.kind],
    )
