"""Bot profiles as data, for every game: a package's built-in `bots.yaml`
read into its pydantic Profile model, and a scenario's `bot_profiles`
merged in field by field (nested mappings too)."""

from __future__ import annotations

from importlib import resources
from typing import Any

import numpy as np
from pydantic import BaseModel

from ..errors import UserError
from ..validation import validate_model
from ..yamlio import YamlDoc, parse_yaml


def builtin_profiles(package: str, model: type[BaseModel]) -> dict[str, Any]:
    """The profiles of `package`'s bots.yaml, validated (a broken built-in file is a bug)."""
    text = resources.files(package).joinpath("bots.yaml").read_text()
    doc = parse_yaml(text, "bots.yaml")
    return {name: model.model_validate(raw) for name, raw in doc.data.items()}


def resolve_profiles(
    package: str,
    model: type[BaseModel],
    overrides: dict[str, Any] | None,
    doc: YamlDoc | None = None,
    prefix: tuple[Any, ...] = ("bot_profiles",),
) -> dict[str, Any]:
    """Built-in profiles with a scenario's overrides merged in; an override
    naming an unknown profile defines a new one from `balanced`. A bad value is
    reported at the scenario line that set it."""
    profiles = builtin_profiles(package, model)
    for name, fields in (overrides or {}).items():
        base = profiles.get(name, profiles["balanced"]).model_dump()
        merged = merge(base, fields if isinstance(fields, dict) else {})
        checked, problems = validate_model(model, merged, doc or YamlDoc("bot_profiles", merged), (*prefix, name))
        if problems:
            raise UserError(problems[0], len(problems) - 1)
        profiles[name] = checked
    return profiles


def merge(base: dict[str, Any], over: dict[str, Any]) -> dict[str, Any]:
    """`base` with `over`'s values, nested mappings merged key by key."""
    out = dict(base)
    for key, value in over.items():
        out[key] = merge(base[key], value) if isinstance(value, dict) and isinstance(base.get(key), dict) else value
    return out


def noise_span(noise: np.ndarray) -> np.ndarray:
    """How much uniform random preference a profile's `noise` adds to a score,
    in the score's own units: noise / (1 - noise). 0.05 breaks near-ties, 0.5
    is worth one unit, 1 swamps every score (uniform among the legal choices)."""
    return (noise / np.maximum(1 - noise, 1e-6)).astype(np.float32)
