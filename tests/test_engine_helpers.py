"""Small pieces the engines lean on for speed: row reductions and row
gathers, the card-event buffer, the allocator setting."""

import numpy as np
import pytest

from balance.allocator import tune_allocator
from balance.games.events import EVENTS, Events
from balance.games.rows import put_rows, row_sum, take_rows


def test_events_keep_order_and_fill_single_values():
    events = Events()
    events.add("draft", np.array([0, 1]), 2, np.array([5, 6]), 0, pick=3)
    events.add("buy", np.array([1]), np.array([3]), np.array([7]), np.array([9]), price=4)
    events.add("play", np.array([], np.int64), 0, np.array([], np.int64), 0)  # nothing happened
    ev = events.arrays()
    assert ev["game"].tolist() == [0, 1, 1]
    assert ev["seat"].tolist() == [2, 2, 3]
    assert ev["card"].tolist() == [5, 6, 7]
    assert [EVENTS[e] for e in ev["event"]] == ["draft", "draft", "buy"]
    assert ev["turn"].tolist() == [0, 0, 9]
    assert ev["pick"].tolist() == [3, 3, -1] and ev["price"].tolist() == [-1, -1, 4]
    assert ev["seat"].dtype == np.int8 and ev["card"].dtype == np.int16


def test_allocator_is_tuned_once_and_says_whether_it_could():
    first = tune_allocator()
    assert isinstance(first, bool)
    assert tune_allocator() is first


@pytest.mark.parametrize("rows", [0, 3, 300])
@pytest.mark.parametrize("width", [1, 4, 50, 300])
def test_row_sums_agree_with_numpy(rows, width):
    rng = np.random.default_rng(rows * 1000 + width)
    counts = (rng.integers(0, 3, (rows, width)) * (rng.random((rows, width)) < 0.05)).astype(np.int8)
    assert np.array_equal(row_sum(counts), counts.sum(axis=1))
    assert np.array_equal(row_sum(counts.astype(np.int16) * 200), (counts.astype(np.int32) * 200).sum(axis=1))


def test_row_gathers_and_scatters_move_whole_rows():
    rng = np.random.default_rng(5)
    piles = rng.integers(0, 9, (6, 3, 50)).astype(np.int8)
    games, seats = np.array([4, 0, 5]), np.array([2, 1, 1])
    assert np.array_equal(take_rows(piles, (games, seats)), piles[games, seats])
    assert np.array_equal(take_rows(piles[:, 2], games), piles[games, 2])
    new = rng.integers(0, 9, (3, 50)).astype(np.int8)
    expected = piles.copy()
    expected[games, seats] = new
    put_rows(piles, (games, seats), new)
    assert np.array_equal(piles, expected)
    # rows that are not contiguous (every other column) take the plain path
    cols = piles[:, :, ::2]
    assert np.array_equal(take_rows(cols, (games, seats)), cols[games, seats])
    put_rows(cols, (games, seats), np.zeros((3, 25), np.int8))
    assert not piles[games, seats, ::2].any() and np.array_equal(piles[games, seats, 1::2], new[:, 1::2])


def test_the_games_import_nothing_above_them_but_leaf_helpers():
    """Issue 32: no circle between the games and the scenario. A game is handed
    what it reads of a scenario (games/base.ScenarioView); the modules above
    games/ that it may import are the leaves every layer shares."""
    import ast
    from pathlib import Path

    games = Path(__file__).resolve().parents[1] / "balance" / "games"
    above = set()
    for path in games.rglob("*.py"):
        depth = len(path.relative_to(games).parts)  # 1: games/x.py, 2: games/g/x.py
        for node in ast.walk(ast.parse(path.read_text())):
            if isinstance(node, ast.ImportFrom) and node.level > depth:
                above.add((node.module or "").split(".")[0])
            elif isinstance(node, ast.ImportFrom) and node.level == 0 and (node.module or "").startswith("balance"):
                above.add(node.module.split(".")[1])
    assert above == {"errors", "printable", "seeding", "validation", "yamlio"}, above
