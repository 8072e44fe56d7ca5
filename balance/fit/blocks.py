"""The free values of `balance fit` searched in blocks, side by side.

A free value that belongs to an item (`cards.twin_turbo.effects.0.amount`,
`playbooks.rocket_fuel.effects.0.amount`, a Heat upgrade's) moves that item's
own strength far more than anything else. So the values of each item whose
strength a target measures form a block with its own cross-entropy
distribution (tune.search), and a block's elites are the candidates whose
figures for that item miss least (plus the change penalty on the block's own
values); the values that belong to no such item (rules, tracks) form one block
ranked by the whole objective. Every candidate is one draw from every block,
played once: its games rank every block at the same time, where one joint
ranking would let Twin Turbo's luck decide Penny Jar's next centre. What the
blocks miss, the interactions between items, is what the centre (played whole
every round) and the held-out confirmation measure.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any

import numpy as np

from ..tune.search import Distribution
from ..tune.space import Param
from .objective import changed, cost

# An integer's spread never falls below this (in steps): elites that agree would
# otherwise shrink it to a few hundredths, and the values one step away, which
# the noise of one round may have hidden, would never be played again. At half a
# step a neighbour is drawn about one time in three.
STEP_SPREAD = 0.5


def owner(param: Param, items: list[str]) -> str | None:
    """The item a free value belongs to (its path's second part, e.g. cards.ID...), if the game can give it."""
    return param.path[1] if len(param.path) > 2 and param.path[1] in items else None


def watched_items(params: list[Param], items: list[str], keys: list[str], everything: bool) -> list[str]:
    """The items whose strength the search measures for each candidate. `keys`:
    those the targets name (every item, for strength:all: `everything`). For
    strength:all, only the items a free value belongs to (and those named
    apart): another item's strength moves little when they change, and is
    measured for today's values and the proposal on held-out seeds. A free
    value that belongs to no item (a rule, a track) moves every item: then
    every item is measured."""
    if not everything or any(owner(p, items) is None for p in params):
        return list(keys)
    owned = {owner(p, items) for p in params}
    return [k for k in keys if k in owned]


@dataclass
class Block:
    owner: str | None  # the item whose figures rank this block's candidates; None: the whole objective
    dist: Distribution  # over the block's own free values


@dataclass
class BlockSearch:
    blocks: list[Block]

    @classmethod
    def start(cls, params: list[Param], items: list[str], ranked: list[str]) -> BlockSearch:
        """One block per item of `ranked` (items with their own strength figures)
        that owns free values, one for the rest; in the order of the --free values."""
        groups: dict[str | None, list[Param]] = {}
        for p in params:
            key = owner(p, items)
            groups.setdefault(key if key in ranked else None, []).append(p)
        blocks = [Block(key, Distribution.start(ps)) for key, ps in groups.items()]
        for block in blocks:  # a designer who names other words wants them tried: half the weight on today's
            for prob, p in zip(block.dist.probs, block.dist.choices, strict=True):
                prob[:] = 0.5 / (len(p.choices) - 1) if len(p.choices) > 1 else 1.0
                prob[p.choices.index(p.start)] = 0.5 if len(p.choices) > 1 else 1.0
        return cls(blocks)

    def centre(self) -> dict[str, Any]:
        return {k: v for b in self.blocks for k, v in b.dist.centre().items()}

    def sample(self, rng: np.random.Generator, k: int) -> list[dict[str, Any]]:
        """k candidates, each one draw from every block."""
        draws = [b.dist.sample(rng, k) for b in self.blocks]
        return [{name: v for d in draws for name, v in d[i].items()} for i in range(k)]

    def update(
        self,
        pool: list[dict[str, Any]],
        misses: list[list[tuple[str, float]]],
        params: list[Param],
        penalty: float,
        max_changes: int | None,
        elites: int,
    ) -> None:
        """Move each block towards its `elites` best candidates of the round's
        `pool`, ranked by the block's own cost; `misses`: per candidate, (figure
        key, miss) as evaluate.figure_misses gives them."""
        for block in self.blocks:
            scores = [
                block_cost(block, values, miss, params, penalty, max_changes)
                for values, miss in zip(pool, misses, strict=True)
            ]
            order = np.argsort(scores, kind="stable")
            block.dist.update([pool[i] for i in order[:elites]])
            whole = np.array([p.kind == "int" for p in block.dist.numbers], bool)
            block.dist.spread[whole] = np.maximum(block.dist.spread[whole], STEP_SPREAD)

    def to_json(self) -> list[dict[str, Any]]:
        return [{"owner": b.owner, **b.dist.to_json()} for b in self.blocks]

    def load(self, data: list[dict[str, Any]]) -> None:
        for block, saved in zip(self.blocks, data, strict=True):
            block.dist.load(saved)


def block_cost(
    block: Block,
    values: dict[str, Any],
    misses: list[tuple[str, float]],
    params: list[Param],
    penalty: float,
    max_changes: int | None,
) -> float:
    """A candidate's cost to one block: its item's misses (every miss, for the
    rest block) and the change of the block's own values;
    infinite for a candidate that changes more values than `max_changes`."""
    if max_changes is not None and len(changed(values, params)) > max_changes:
        return math.inf
    counted = [m for key, m in misses if block.owner is None or key == block.owner]
    return cost(counted, values, block.dist.params, penalty)
