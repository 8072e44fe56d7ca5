"""What `balance fit` minimises: how far the targets are missed, then how much
the design was changed. A proposal that meets every target with fewer and
smaller changes is preferred (a designer keeps what works), and one that
changes more values than `--max-changes` is not a proposal at all.

The search itself is `balance tune`'s cross-entropy method (tune.search
Distribution over tune.space Params): the free values of a card database
are numbers with bounds, as a bot profile's are.
"""

from __future__ import annotations

import math
from typing import Any

from ..tune.space import Param

PENALTY = 0.1  # points of target miss that one start-scale of change costs: misses come first


def changed(values: dict[str, Any], params: list[Param]) -> list[str]:
    """The free values a candidate moves away from today's."""
    return [p.name for p in params if values[p.name] != p.start]


def change_size(values: dict[str, Any], params: list[Param]) -> float:
    """How far a candidate moves, each value in units of its search scale (a step of an integer counts 1,
    another word of a choice 1)."""
    return sum(
        float(values[p.name] != p.start)
        if p.kind == "choice"
        else abs(float(values[p.name]) - float(p.start)) / p.scale
        for p in params
    )


def cost(
    misses: list[float],
    values: dict[str, Any],
    params: list[Param],
    penalty: float = PENALTY,
    max_changes: int | None = None,
) -> float:
    """The objective of one candidate: the targets' misses (points, summed), plus
    `penalty` per start-scale of change; infinite past `max_changes`."""
    if max_changes is not None and len(changed(values, params)) > max_changes:
        return math.inf
    return sum(misses) + penalty * change_size(values, params)
