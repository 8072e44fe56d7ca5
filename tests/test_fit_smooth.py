"""`balance fit` ranks candidates by figures smoothed over the recent rounds
(fit.smooth): a plane through many candidates' noisy figures, so the search
keeps the values that are good, not the candidates that were lucky."""

from __future__ import annotations

import numpy as np
import pytest

from balance.experiments.fit.smooth import features, plane, read
from balance.experiments.tune.space import Param

COINS = Param(("rules", "seat_coins", "3"), "int", 0, 0, 6)
KEEP = Param(("cards", "mag_wheels", "effects", "1", "keep"), "choice", "sum", choices=("sum", "best", "worst"))
SEAT = ("seat-balance<=2", "seat 3")


def test_the_plane_has_a_constant_each_number_and_each_other_word():
    x = features([{COINS.name: 2, KEEP.name: "sum"}, {COINS.name: 5, KEEP.name: "worst"}], [COINS, KEEP])
    assert x.tolist() == [[1, 2, 0, 0], [1, 5, 0, 1]], "today's word is the constant's"


def test_a_noisy_figure_is_read_from_the_plane_and_the_lucky_candidate_loses_its_luck():
    """A seat 3 points short of fair gains half a point per coin (six coins
    make it fair), measured with half a point of noise: the raw figures make a
    lucky four-coin candidate look fair; read from the plane it is 1 point short."""
    rng = np.random.default_rng(4)
    coins = [c for c in range(7) for _ in range(3)]
    values = [{COINS.name: c} for c in coins]
    truth = [-3.0 + 0.5 * c for c in coins]
    raw = [{SEAT: t + rng.normal(0, 0.5)} for t in truth]
    lucky = len(raw)
    values.append({COINS.name: 4})
    raw.append({SEAT: 0.0})  # four coins, lucky by a whole point
    fitted = read([plane(values, raw, [COINS])], values, raw)
    assert fitted[lucky][SEAT] == pytest.approx(-1.0, abs=0.3)
    assert max(abs(f[SEAT] - t) for f, t in zip(fitted, truth, strict=False)) < 0.3
    best_raw = min(range(len(raw)), key=lambda i: abs(raw[i][SEAT]))
    best = min(range(len(fitted)), key=lambda i: abs(fitted[i][SEAT]))
    assert values[best_raw][COINS.name] != 6 and values[best][COINS.name] == 6


def test_too_few_candidates_rank_by_their_own_figures():
    """A line has two coefficients: it needs four candidates, of three
    distinct values at least (through two, it would fit their noise exactly)."""
    raw = [{SEAT: float(v)} for v in (5, 1, 2, 3, 0)]
    two = [{COINS.name: c} for c in (1, 2, 2, 2, 1)]
    assert plane(two, raw, [COINS]) is None
    three = [{COINS.name: c} for c in (1, 2, 2, 2, 3)]
    assert read([plane(three, raw, [COINS])], three, raw) != raw
    assert plane(three[:3], raw[:3], [COINS]) is None, "three candidates: fewer than twice two"
    assert read([], three, raw) == raw, "no plane: the raw figures"
