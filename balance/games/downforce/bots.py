"""Downforce bots: profiles are data (bots.yaml), decisions are arrays
(auction.py, race.py)."""

from __future__ import annotations

from dataclasses import dataclass
from importlib import resources
from typing import Any

import numpy as np
from pydantic import Field

from ...errors import UserError
from ...validation import Strict, validate_model
from ...yamlio import YamlDoc, parse_yaml
from . import vocabulary as V
from .compile import Tables


class PowerWeights(Strict):
    aggressive: float
    cunning: float
    determined: float
    strategic: float
    tricky: float
    unpredictable: float


class Profile(Strict):
    model_config = Strict.model_config | {"strict": False}  # YAML `1` is a fine float
    noise: float = Field(ge=0, le=1)
    value: float = Field(ge=0)
    hand: float = Field(ge=0)
    bid: float = Field(ge=0)
    rival: float = Field(ge=0)
    jam: float = Field(ge=0, le=1)
    loyalty: float = Field(ge=0)
    powers: PowerWeights


def builtin_profiles() -> dict[str, Profile]:
    text = resources.files(__package__).joinpath("bots.yaml").read_text()
    doc = parse_yaml(text, "bots.yaml")
    return {name: Profile.model_validate(raw) for name, raw in doc.data.items()}


def resolve_profiles(overrides: dict[str, Any] | None, doc: YamlDoc | None = None, prefix=("bot_profiles",)):
    """Built-in profiles with a scenario's overrides merged in (field by field);
    an override naming an unknown profile defines a new one from `balanced`."""
    profiles = builtin_profiles()
    for name, fields in (overrides or {}).items():
        base = profiles.get(name, profiles["balanced"]).model_dump()
        merged = {**base, **(fields if isinstance(fields, dict) else {})}
        if isinstance(fields, dict) and isinstance(fields.get("powers"), dict):
            merged["powers"] = {**base["powers"], **fields["powers"]}
        model, problems = validate_model(Profile, merged, doc or YamlDoc("bot_profiles", merged), (*prefix, name))
        if problems:
            raise UserError(problems[0], len(problems) - 1)
        profiles[name] = model
    return profiles


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
        power_value=by_kind[:, tables.powers.kind],
    )


def noise_spread(noise: np.ndarray) -> np.ndarray:
    """Units of uniform random preference a profile's noise adds to a score:
    noise / (1 - noise) (0.05 breaks near-ties; 1 swamps every score)."""
    return (noise / np.maximum(1 - noise, 1e-6)).astype(np.float32)
