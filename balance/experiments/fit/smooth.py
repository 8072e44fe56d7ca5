"""A round's candidates ranked by smoothed figures, not by their own luck.

A figure measured on a few thousand games moves by noise about as much as one
step of a free value moves it (a seat's win rate: about half a point per
starting coin, against a standard error of half a point at 8,000 games). Ranked
by their own figures, candidates are ranked by their luck, and a search that
keeps the luckiest (its elites, and at the end its best candidate) proposes
values whose figures fall back on fresh seeds: a winner's curse. The first
seat-compensation fit did exactly that (search seed 2.5 points, held out 3.1).

Every candidate of the last WINDOW rounds also tells how each figure moves with
the values. A least-squares plane through them (per figure, over the values
that move it) pools all their games, so a candidate's figure read from the
plane carries the noise of the many rather than of its own games. Near the
search's centre, where recent rounds draw, the figures of cards and rules move
smoothly with a value (a seat's win rate with its coins, a card's strength with
its Drive), so a plane fits there; the window keeps it local as the search
narrows. While fewer candidates than twice the plane's coefficients, or no
more distinct ones than its coefficients, have been played, the raw figures
rank (a card's value of range 1..3 has its line from three distinct values).
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any

import numpy as np

from ..tune.space import Param

WINDOW = 3  # rounds of candidates a plane is fitted to

Measured = dict[tuple[str, str], float]  # (target text, figure key) -> the figure's value


def features(values: list[dict[str, Any]], params: list[Param]) -> np.ndarray:
    """(candidates, 1 + coefficients) float64: a constant, each number, and one
    indicator per word of a choice other than today's."""
    columns = [np.ones(len(values))]
    for p in params:
        if p.kind == "choice":
            columns += [np.array([v[p.name] == word for v in values], float) for word in p.choices if word != p.start]
        else:
            columns.append(np.array([float(v[p.name]) for v in values]))
    return np.column_stack(columns)


@dataclass
class Plane:
    """Figures as least-squares planes over some free values."""

    params: list[Param]  # the values the figures are read over
    keys: list[tuple[str, str]]  # the figures
    beta: np.ndarray  # (coefficients, figures) float64: as features() orders the coefficients

    def read(self, values: list[dict[str, Any]]) -> list[Measured]:
        """The figures of candidates `values` read from the planes (none of them played, perhaps)."""
        return [dict(zip(self.keys, map(float, row), strict=True)) for row in features(values, self.params) @ self.beta]


def plane(values: list[dict[str, Any]], measured: list[Measured], params: list[Param]) -> Plane | None:
    """The least-squares plane over `params` of each figure measured for every
    candidate played (`values`); None while fewer candidates than twice its
    coefficients were played, or no more distinct ones than its coefficients
    (a plane through as many points as it has coefficients fits their noise
    exactly), or no figure was measured everywhere."""
    x = features(values, params)
    if not measured or len(measured) < 2 * x.shape[1] or len({tuple(row) for row in x}) <= x.shape[1]:
        return None
    keys = [k for k in measured[0] if all(math.isfinite(m.get(k, math.nan)) for m in measured)]
    if not keys:
        return None
    beta, *_ = np.linalg.lstsq(x, np.array([[m[k] for k in keys] for m in measured]), rcond=None)
    return Plane(params, keys, beta)


def read(planes: list[Plane], values: list[dict[str, Any]], measured: list[Measured]) -> list[Measured]:
    """Each candidate's `measured` figures, those with a plane read from it
    (`values` need not have been played: give empty `measured` for those)."""
    out = [dict(m) for m in measured]
    for fitted in planes:
        for row, figures in zip(out, fitted.read(values), strict=True):
            row.update(figures)
    return out
