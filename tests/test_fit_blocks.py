"""`balance fit`'s blocks (issue 21): each item's own free values are ranked
by that item's own figures, the rest by every figure; strength:all measures
only the items whose values are free unless a free value belongs to none."""

from __future__ import annotations

import math

import numpy as np
import pytest

from balance.experiments.fit.blocks import RANGE_SPREAD, STEP_SPREAD, BlockSearch, block_cost, owner, watched_items
from balance.experiments.fit.targets import parse_target
from balance.experiments.tune.space import Param

TWIN = Param(("cards", "twin_turbo", "effects", "0", "amount"), "int", 6, 1, 8)
PENNY = Param(("cards", "penny_jar", "effects", "0", "amount"), "int", 1, 1, 5)
KEEP = Param(("cards", "mag_wheels", "effects", "1", "keep"), "choice", "sum", choices=("sum", "best"))
COST = Param(("rules", "purchase_cost"), "int", 3, 1, 5)
ITEMS = ["twin_turbo", "penny_jar", "mag_wheels", "oil_baron"]
EXACT = "strength:all+-0"  # a figure's miss is its distance from 0
TARGETS = {EXACT: parse_target(EXACT)}
RNG = np.random.default_rng(0)


def _measured(*figures: dict[str, float]) -> list[dict[tuple[str, str], float]]:
    return [{(EXACT, key): value for key, value in f.items()} for f in figures]


def test_a_free_value_belongs_to_the_item_it_sits_under():
    assert [owner(p, ITEMS) for p in (TWIN, PENNY, KEEP, COST)] == ["twin_turbo", "penny_jar", "mag_wheels", None]
    assert owner(Param(("tracks", "usa", "corners", "1", "limit"), "int", 3, 1, 5), ITEMS) is None


def test_strength_all_watches_the_items_whose_values_are_free_unless_a_rule_is():
    assert watched_items([TWIN, PENNY], ITEMS, ITEMS, everything=True) == ["twin_turbo", "penny_jar"]
    assert watched_items([TWIN, COST], ITEMS, ITEMS, everything=True) == ITEMS, "a rule moves every item"
    assert watched_items([TWIN], ITEMS, ["oil_baron"], everything=False) == ["oil_baron"], "named items are named"


def test_each_block_moves_towards_the_candidates_best_for_its_own_item():
    """Twin Turbo's best candidate is not the best in sum: a joint ranking
    would keep Twin Turbo at 6; its block moves it towards 2."""
    search = BlockSearch.start([TWIN, PENNY, COST], ITEMS, ["twin_turbo", "penny_jar"])
    assert [b.owner for b in search.blocks] == ["twin_turbo", "penny_jar", None]
    assert search.centre() == {TWIN.name: 6, PENNY.name: 1, COST.name: 3}
    pool = [
        {TWIN.name: 6, PENNY.name: 1, COST.name: 3},
        {TWIN.name: 2, PENNY.name: 1, COST.name: 3},
        {TWIN.name: 6, PENNY.name: 3, COST.name: 2},
    ]
    measured = _measured(
        {"twin_turbo": 8.0, "penny_jar": 8.0},
        {"twin_turbo": 0.0, "penny_jar": 10.0},
        {"twin_turbo": 5.0, "penny_jar": 0.0},
    )
    search.update(pool, measured, TARGETS, 3, [TWIN, PENNY, COST], 0.1, None, 1, np.random.default_rng(0))
    # 0.4 x today + 0.6 x the block's elite (tune.search's smoothing)
    assert search.centre() == {TWIN.name: 4, PENNY.name: 2, COST.name: 2}, "the rest block: the least miss in all"


def test_the_first_draws_cover_the_designers_range_from_a_value_at_its_edge():
    coins = Param(("rules", "seat_coins", "3"), "int", 0, 0, 6)  # today 0: tune's own start spread is one coin
    search = BlockSearch.start([coins, TWIN], ITEMS, [])
    assert search.blocks[0].dist.spread.tolist() == [RANGE_SPREAD * 6, TWIN.scale], "the wider of the two"
    drawn = [c[coins.name] for c in search.sample(np.random.default_rng(5), 400)]
    assert max(drawn) >= 5 and sum(d >= 3 for d in drawn) > 20, "four coins and more are tried in the first rounds"


def test_an_integer_keeps_its_neighbours_in_reach_when_the_elites_agree():
    search = BlockSearch.start([TWIN], ITEMS, ["twin_turbo"])
    for _ in range(10):
        search.update(
            [{TWIN.name: 3}] * 2, _measured(*[{"twin_turbo": 0.0}] * 2), TARGETS, 2, [TWIN], 0.1, None, 2, RNG
        )
    assert search.centre() == {TWIN.name: 3} and search.blocks[0].dist.spread[0] == STEP_SPREAD
    drawn = [c[TWIN.name] for c in search.sample(np.random.default_rng(2), 300)]
    assert {2, 4} <= set(drawn) and 60 < sum(d != 3 for d in drawn) < 140, "a neighbour about one time in three"


def test_a_block_cost_is_its_own_items_miss_and_change_and_max_changes_is_hard():
    search = BlockSearch.start([TWIN, PENNY], ITEMS, ["twin_turbo", "penny_jar"])
    twin = search.blocks[0]
    values = {TWIN.name: 4, PENNY.name: 3}
    misses = [("twin_turbo", 1.5), ("penny_jar", 7.0)]
    assert block_cost(twin, values, misses, [TWIN, PENNY], 0.1, None) == 1.5 + 0.1 * 2 / TWIN.scale
    assert math.isinf(block_cost(twin, values, misses, [TWIN, PENNY], 0.1, 1)), "two values changed, at most one"


def test_a_word_the_designer_names_is_tried_half_the_time_and_the_search_resumes_from_json():
    search = BlockSearch.start([KEEP], ITEMS, ["mag_wheels"])
    np.testing.assert_allclose(search.blocks[0].dist.probs[0], [0.5, 0.5])
    words = [c[KEEP.name] for c in search.sample(np.random.default_rng(1), 400)]
    assert 150 < words.count("best") < 250
    again = BlockSearch.start([KEEP], ITEMS, ["mag_wheels"])
    search.update([{KEEP.name: "best"}], _measured({"mag_wheels": 0.0}), TARGETS, 1, [KEEP], 0.1, None, 1, RNG)
    again.load(search.to_json())
    assert again.centre() == search.centre() == {KEEP.name: "best"}


def test_an_items_figure_is_smoothed_over_its_own_values_alone():
    """Twin Turbo's strength read from a line over Twin Turbo's Drive: two
    candidates with the same Twin Turbo get the same figure, whatever Penny
    Jar's value and luck; a rule's figure is smoothed over every value."""
    search = BlockSearch.start([TWIN, PENNY, COST], ITEMS, ["twin_turbo"])
    rng = np.random.default_rng(3)
    played = [{TWIN.name: t, PENNY.name: p, COST.name: c} for t in (2, 3, 4, 5, 6) for p in (1, 3) for c in (2, 3)]
    measured = _measured(*({"twin_turbo": 2.0 * v[TWIN.name] + rng.normal(0, 1)} for v in played))
    for row, m in zip(measured, played, strict=True):
        row[("seat-balance<=2", "seat 0")] = 0.5 * m[COST.name] + rng.normal(0, 1)
    fitted = search.smoothed(played, measured, [TWIN, PENNY, COST])
    twins = {}
    for v, f in zip(played, fitted, strict=True):
        twins.setdefault(v[TWIN.name], set()).add(round(f[(EXACT, "twin_turbo")], 9))
    assert all(len(seen) == 1 for seen in twins.values()), twins
    seats = {round(f[("seat-balance<=2", "seat 0")], 9) for f in fitted}
    assert len(seats) > 3, "a figure no item owns moves with every value"


def test_a_block_moves_to_where_its_plane_says_its_item_meets_the_target_though_no_candidate_played_there():
    """Twin Turbo's strength is 3 points per Drive above 4; only 5 to 8 were
    played. The best two of those (5, 6) would move the centre from 6 to 5.7 (0.4 x 6 +
    0.6 x 5.5); draws read from the line put both elites at 4."""
    search = BlockSearch.start([TWIN], ITEMS, ["twin_turbo"])
    played = [{TWIN.name: t} for t in (5, 6, 7, 8)]
    measured = _measured(*({"twin_turbo": 3.0 * (v[TWIN.name] - 4)} for v in played))
    search.update(played, measured, TARGETS, 4, [TWIN], 0.0, None, 2, np.random.default_rng(1))
    assert search.blocks[0].dist.mean[0] == pytest.approx(0.4 * 6 + 0.6 * 4)


def test_the_proposal_puts_back_todays_values_of_an_item_its_targets_do_not_need_changed():
    """Twin Turbo must move (6 Drive: 6 points out); Penny Jar is inside its
    aim today (1 point a coin above 1, measured at each value played), so its
    change is undone; a block never played at today's values is left alone."""
    search = BlockSearch.start([TWIN, PENNY], ITEMS, ["twin_turbo", "penny_jar"])
    played = [{TWIN.name: t, PENNY.name: p} for t in (4, 6) for p in (1, 3)]
    measured = _measured(*({"twin_turbo": 3.0 * (v[TWIN.name] - 4), "penny_jar": v[PENNY.name] - 1.0} for v in played))
    today = {TWIN.name: 6, PENNY.name: 1}
    pruned = search.prune({TWIN.name: 4, PENNY.name: 3}, today, played, measured, TARGETS, [TWIN, PENNY], 0.1)
    assert pruned == {TWIN.name: 4, PENNY.name: 1}
    threes = [i for i, v in enumerate(played) if v[PENNY.name] == 3]
    kept = search.prune(
        {TWIN.name: 4, PENNY.name: 3},
        today,
        [played[i] for i in threes],
        [measured[i] for i in threes],
        TARGETS,
        [TWIN, PENNY],
        0.1,
    )
    assert kept == {TWIN.name: 4, PENNY.name: 3}, "Penny Jar never played at 1: nothing to compare with"
