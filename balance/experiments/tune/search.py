"""The search distribution of `balance tune`: the cross-entropy method over a
profile's values (a Gaussian per number, a categorical per choice).

Why the cross-entropy method: the win rate is a noisy black box of a dozen
mixed values (reals, integers, choices such as `pit_stop`); the method needs
no gradient, handles all three kinds alike, tolerates noise because it moves
towards the average of several elites rather than one lucky winner, and its
whole state is a mean, a spread and choice probabilities, so a round is
resumable from a few numbers in JSON. It pairs naturally with successive
halving (tune.race): a round's population is raced on common random numbers
and the survivors are the elites. CMA-ES would also learn correlations, but
needs mixed-integer extensions for the choices and more evaluations per
round than our budgets (tens of thousands of games) afford.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

import numpy as np

from .space import Param

SMOOTHING = 0.6  # how far a round moves the distribution towards its elites
FLOOR = 0.05  # the spread never shrinks below this share of the first one; choices keep this probability


@dataclass
class Distribution:
    """The search's state: where it looks and how widely."""

    params: list[Param]
    mean: np.ndarray  # (numbers,) float64: the centre, in each value's units
    spread: np.ndarray  # (numbers,) float64: the standard deviation of each
    probs: list[np.ndarray] = field(default_factory=list)  # per choice param: (choices,) probabilities

    @classmethod
    def start(cls, params: list[Param]) -> Distribution:
        numbers = [p for p in params if p.kind != "choice"]
        probs = []
        for p in params:
            if p.kind == "choice":  # the start's choice likelier than the others, none ruled out
                prob = np.full(len(p.choices), FLOOR)
                prob[p.choices.index(p.start)] = 1.0
                probs.append(prob / prob.sum())
        return cls(
            params,
            np.array([float(p.start) for p in numbers]),
            np.array([p.scale for p in numbers]),
            probs,
        )

    @property
    def numbers(self) -> list[Param]:
        return [p for p in self.params if p.kind != "choice"]

    @property
    def choices(self) -> list[Param]:
        return [p for p in self.params if p.kind == "choice"]

    def centre(self) -> dict[str, Any]:
        """The distribution's own candidate: the mean, the likeliest choices."""
        values = {p.name: _fit(p, x) for p, x in zip(self.numbers, self.mean, strict=True)}
        for p, prob in zip(self.choices, self.probs, strict=True):
            values[p.name] = p.choices[int(np.argmax(prob))]
        return values

    def sample(self, rng: np.random.Generator, k: int) -> list[dict[str, Any]]:
        out = []
        for _ in range(k):
            x = self.mean + self.spread * rng.standard_normal(len(self.mean))
            values = {p.name: _fit(p, v) for p, v in zip(self.numbers, x, strict=True)}
            for p, prob in zip(self.choices, self.probs, strict=True):
                values[p.name] = p.choices[int(rng.choice(len(prob), p=prob))]
            out.append(values)
        return out

    def update(self, elites: list[dict[str, Any]]) -> None:
        """Move towards the elites' mean and spread (smoothed, with floors)."""
        x = np.array([[float(e[p.name]) for p in self.numbers] for e in elites]).reshape(len(elites), -1)
        first = np.array([p.scale for p in self.numbers])
        self.mean = (1 - SMOOTHING) * self.mean + SMOOTHING * x.mean(axis=0)
        self.spread = np.maximum((1 - SMOOTHING) * self.spread + SMOOTHING * x.std(axis=0), FLOOR * first)
        for i, p in enumerate(self.choices):
            seen = np.array([sum(e[p.name] == c for e in elites) for c in p.choices], float) / len(elites)
            prob = (1 - SMOOTHING) * self.probs[i] + SMOOTHING * seen
            prob = np.maximum(prob, FLOOR / len(p.choices))
            self.probs[i] = prob / prob.sum()

    def to_json(self) -> dict[str, Any]:
        return {
            "mean": self.mean.tolist(),
            "spread": self.spread.tolist(),
            "probs": [p.tolist() for p in self.probs],
        }

    def load(self, data: dict[str, Any]) -> None:
        self.mean = np.array(data["mean"], float)
        self.spread = np.array(data["spread"], float)
        self.probs = [np.array(p, float) for p in data["probs"]]


def _fit(param: Param, value: float) -> float | int:
    """A sampled number inside the schema's bounds, an integer where it must be."""
    value = float(np.clip(value, param.low, param.high))
    if param.kind == "int":
        return int(np.clip(round(value), param.low, param.high))
    return round(value, 4)
