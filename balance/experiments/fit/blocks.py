"""The free values of `balance fit` searched in blocks, side by side.

A free value that belongs to an item (`cards.twin_turbo.effects.0.amount`,
`playbooks.rocket_fuel.effects.0.amount`, a Heat upgrade's) moves that item's
own strength far more than anything else. So the values of each item whose
strength a target measures form a block with its own cross-entropy
distribution (tune.search), and a block's elites are the candidates whose
figures for that item (read from planes through the recent rounds'
candidates: fit.smooth) miss least, plus the change penalty on the block's
own values; the values that belong to no such item (rules, tracks) form one
block ranked by the whole objective. Every candidate is one draw from every block,
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
from .smooth import Measured, Plane, plane, read
from .targets import Target

# An integer's spread never falls below this (in steps): elites that agree would
# otherwise shrink it to a few hundredths, and the values one step away, which
# the noise of one round may have hidden, would never be played again. At half a
# step a neighbour is drawn about one time in three.
STEP_SPREAD = 0.5

# A number's first spread covers at least this share of the designer's range:
# tune's start (Param.scale, half of today's value) stays near today, and from
# a value at 0 (no seat coins) it drew one coin either side, so a seat that
# needs four was not reached within the budget. The range is where the
# designer said to look.
RANGE_SPREAD = 1 / 3

VIRTUAL = 256  # draws per block a round ranks on the planes alone (no games): where the planes say to go


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
        that owns free values, one for the rest; in the order of the --free values;
        each number's spread at least RANGE_SPREAD of its range."""
        groups: dict[str | None, list[Param]] = {}
        for p in params:
            key = owner(p, items)
            groups.setdefault(key if key in ranked else None, []).append(p)
        blocks = [Block(key, Distribution.start(ps)) for key, ps in groups.items()]
        for block in blocks:
            span = np.array([p.high - p.low for p in block.dist.numbers], float)
            block.dist.spread = np.maximum(block.dist.spread, RANGE_SPREAD * span)
            # today's value may lie outside the range (a probe narrowed it to the values that bracket fair)
            lows, highs = ([getattr(p, end) for p in block.dist.numbers] for end in ("low", "high"))
            block.dist.mean = np.clip(block.dist.mean, np.array(lows, float), np.array(highs, float))
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

    def planes(self, played: list[dict[str, Any]], measured: list[Measured], params: list[Param]) -> list[Plane]:
        """The figures' planes (fit.smooth) through the candidates `played`: an
        item's figures over its own block's values (the values that move them),
        any other figure over every free value; none where too few were played."""
        blocks = {b.owner: b for b in self.blocks if b.owner is not None}
        groups: dict[str | None, list[tuple[str, str]]] = {}
        for key in measured[0] if measured else {}:
            groups.setdefault(key[1] if key[1] in blocks else None, []).append(key)
        found = []
        for item, keys in groups.items():
            over = blocks[item].dist.params if item is not None else params
            if (fitted := plane(played, [{k: m[k] for k in keys} for m in measured], over)) is not None:
                found.append(fitted)
        return found

    def smoothed(self, played: list[dict[str, Any]], measured: list[Measured], params: list[Param]) -> list[Measured]:
        """The `measured` figures of the candidates `played`, each read from its plane where it has one."""
        return read(self.planes(played, measured, params), played, measured)

    def update(
        self,
        played: list[dict[str, Any]],
        measured: list[Measured],
        targets: dict[str, Target],
        pool: int,
        params: list[Param],
        penalty: float,
        max_changes: int | None,
        elites: int,
        rng: np.random.Generator,
    ) -> None:
        """Move each block towards its `elites` best candidates of the round
        (the last `pool` of `played`, the candidates of the last smooth.WINDOW
        rounds, whose figures are `measured`), ranked by the block's own cost
        on the figures read from their planes through all of `played`; and
        where every figure the block counts has a plane, also of VIRTUAL
        draws from the block (the other values at the centre) read from the
        planes alone, so the block moves to where the planes say its values
        are best, within its distribution's reach, not only to the best of the
        few candidates played."""
        planes = self.planes(played, measured, params)
        covered = {k for p in planes for k in p.keys}
        fitted = read(planes, played[-pool:], measured[-pool:])
        centre = self.centre()
        for block in self.blocks:
            values, figures = list(played[-pool:]), list(fitted)
            counted = [k for k in measured[-1] if block.owner is None or k[1] == block.owner]
            if counted and covered.issuperset(counted):
                virtual = [centre | draw for draw in block.dist.sample(rng, VIRTUAL)]
                values += virtual
                figures += read(planes, virtual, [{} for _ in virtual])
            scores = [
                block_cost(block, v, aimed_misses(f, targets), params, penalty, max_changes)
                for v, f in zip(values, figures, strict=True)
            ]
            order = np.argsort(scores, kind="stable")
            block.dist.update([values[i] for i in order[:elites]])
            whole = np.array([p.kind == "int" for p in block.dist.numbers], bool)
            block.dist.spread[whole] = np.maximum(block.dist.spread[whole], STEP_SPREAD)

    def prune(
        self,
        proposal: dict[str, Any],
        start: dict[str, Any],
        played: list[dict[str, Any]],
        measured: list[Measured],
        targets: dict[str, Target],
        params: list[Param],
        penalty: float,
    ) -> dict[str, Any]:
        """The proposal with an item's values put back to today's where that
        costs its item no more: its figures at today's values and at the
        proposal's, each the mean over the candidates `played` with those
        values of the block, with the change penalty on the block's values.
        `played`: the last rounds' candidates, whose other values are near the
        proposal's (over every round, the first ones' strong cards made a weak
        card look better than it is beside the proposal: measured, Bald Tyres
        put back read -3.05 points held out). So the proposal changes no more
        items than the targets need. The rest block (rules, tracks) is left as found."""
        best = dict(proposal)
        for block in self.blocks:
            names = [p.name for p in block.dist.params]
            if block.owner is None or all(best[n] == start[n] for n in names):
                continue
            costs = []
            for at in (start, best):
                rows = [m for v, m in zip(played, measured, strict=True) if all(v[n] == at[n] for n in names)]
                misses = [sum(x for k, x in aimed_misses(m, targets) if k == block.owner) for m in rows]
                miss = float(np.mean(misses)) if rows else math.inf
                costs.append(block_cost(block, at, [(block.owner, miss)], params, penalty, None))
            if costs[0] <= costs[1]:
                best |= {n: start[n] for n in names}
        return best

    def to_json(self) -> list[dict[str, Any]]:
        return [{"owner": b.owner, **b.dist.to_json()} for b in self.blocks]

    def load(self, data: list[dict[str, Any]]) -> None:
        for block, saved in zip(self.blocks, data, strict=True):
            block.dist.load(saved)


def aimed_misses(measured: Measured, targets: dict[str, Target]) -> list[tuple[str, float]]:
    """(figure key, how far it misses the part of its target's band the search aims at) for each figure."""
    return [(key, targets[text].miss(value, aim=True)) for (text, key), value in measured.items()]


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
