"""`balance fit`'s blocks (issue 21): each item's own free values are ranked
by that item's own figures, the rest by every figure; strength:all measures
only the items whose values are free unless a free value belongs to none."""

from __future__ import annotations

import math

import numpy as np

from balance.fit.blocks import STEP_SPREAD, BlockSearch, block_cost, owner, watched_items
from balance.tune.space import Param

TWIN = Param(("cards", "twin_turbo", "effects", "0", "amount"), "int", 6, 1, 8)
PENNY = Param(("cards", "penny_jar", "effects", "0", "amount"), "int", 1, 1, 5)
KEEP = Param(("cards", "mag_wheels", "effects", "1", "keep"), "choice", "sum", choices=("sum", "best"))
COST = Param(("rules", "purchase_cost"), "int", 3, 1, 5)
ITEMS = ["twin_turbo", "penny_jar", "mag_wheels", "oil_baron"]


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
    misses = [
        [("twin_turbo", 8.0), ("penny_jar", 8.0)],
        [("twin_turbo", 0.0), ("penny_jar", 10.0)],
        [("twin_turbo", 5.0), ("penny_jar", 0.0)],
    ]
    search.update(pool, misses, [TWIN, PENNY, COST], penalty=0.1, max_changes=None, elites=1)
    # 0.4 x today + 0.6 x the block's elite (tune.search's smoothing)
    assert search.centre() == {TWIN.name: 4, PENNY.name: 2, COST.name: 2}, "the rest block: the least miss in all"


def test_an_integer_keeps_its_neighbours_in_reach_when_the_elites_agree():
    search = BlockSearch.start([TWIN], ITEMS, ["twin_turbo"])
    for _ in range(10):
        search.update([{TWIN.name: 3}] * 2, [[("twin_turbo", 0.0)]] * 2, [TWIN], 0.1, None, elites=2)
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
    search.update([{KEEP.name: "best"}], [[("mag_wheels", 0.0)]], [KEEP], 0.1, None, elites=1)
    again.load(search.to_json())
    assert again.centre() == search.centre() == {KEEP.name: "best"}
