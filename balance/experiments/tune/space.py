"""What `balance tune` may change in a bot profile: every number and every
choice of the game's Profile model, read from the model itself (its bounds
from the schema), so the four games need nothing written twice.

`noise` is held at a small value (noise is not a strength knob: it breaks
near-ties); flags such as Heat's `legend` are not tuned.
"""

from __future__ import annotations

import typing
from dataclasses import dataclass
from typing import Any

import numpy as np
from pydantic import BaseModel

from ...errors import Problem, UserError, did_you_mean

FIXED = ("noise",)  # never tuned
TUNED_NOISE = 0.05  # the noise a tuned profile plays with (at most the starting profile's)


@dataclass(frozen=True)
class Param:
    """One tunable value of a profile."""

    path: tuple[str, ...]  # where it sits in the profile, e.g. ("weights", "drive")
    kind: str  # "real", "int" or "choice"
    start: Any  # the starting profile's value
    low: float = -np.inf  # the schema's bounds (real, int)
    high: float = np.inf
    choices: tuple[str, ...] = ()  # the words a choice may take

    @property
    def name(self) -> str:
        return ".".join(self.path)

    @property
    def scale(self) -> float:
        """The first spread of the search around the start, in the value's own
        units: a fifth of a narrow range ([0, 1]), half the starting value
        (at least 0.5) elsewhere, at least one step for an integer."""
        span = self.high - self.low
        if span <= 1:
            return 0.2 * span
        spread = max(0.5 * abs(float(self.start)), 0.5)
        return max(spread, 1.0) if self.kind == "int" else spread


def _bounds(metadata: list[Any]) -> tuple[float, float]:
    low, high = -np.inf, np.inf
    for meta in metadata:
        low = getattr(meta, "ge", low)
        high = getattr(meta, "le", high)
    return float(low), float(high)


def search_space(model: type[BaseModel], start: BaseModel) -> list[Param]:
    """Every tunable value of `start` (a profile of `model`), in field order."""
    params: list[Param] = []

    def walk(model: type[BaseModel], values: dict[str, Any], prefix: tuple[str, ...]) -> None:
        for name, field in model.model_fields.items():
            key = field.alias or name
            path, value, kind = (*prefix, key), values[key], field.annotation
            if key in FIXED and not prefix:
                continue
            if isinstance(kind, type) and issubclass(kind, BaseModel):
                walk(kind, value, path)
            elif typing.get_origin(kind) is dict:  # e.g. Shuffle GP's per-driver bonuses: the keys it has
                inner = typing.get_args(kind)[1]
                low, high = _bounds(getattr(inner, "__metadata__", ()))
                for sub, number in value.items():
                    params.append(Param((*path, sub), "real", float(number), low, high))
            elif typing.get_origin(kind) is typing.Literal:
                params.append(Param(path, "choice", value, choices=tuple(typing.get_args(kind))))
            elif kind is bool:
                continue
            elif kind in (int, float):
                low, high = _bounds(field.metadata)
                params.append(Param(path, "int" if kind is int else "real", value, low, high))

    walk(model, start.model_dump(by_alias=True), ())
    return params


def profile_values(start: BaseModel, params: list[Param], values: dict[str, Any]) -> dict[str, Any]:
    """The whole profile as a mapping (ready for a scenario's bot_profiles):
    the start with `values` (param name -> value) put in and noise held low."""
    out = start.model_dump(by_alias=True)
    if "noise" in out:
        out["noise"] = min(float(out["noise"]), TUNED_NOISE)
    for param in params:
        node = out
        for key in param.path[:-1]:
            node = node[key]
        node[param.path[-1]] = values[param.name]
    return out


def start_values(params: list[Param]) -> dict[str, Any]:
    return {p.name: p.start for p in params}


def check_bot(bot: str, known: list[str], field: list[str], where: str) -> None:
    """The bot to tune is a profile of the game and sits in the scenario's field."""
    if bot not in known:
        raise UserError(
            Problem("--bot", None, "bot", f"unknown bot {bot!r}{did_you_mean(bot, known)} (known: {', '.join(known)})")
        )
    if bot not in field:
        raise UserError(Problem("--bot", None, "bot", f"{bot!r} has no seat in {where} (its bots: {', '.join(field)})"))
