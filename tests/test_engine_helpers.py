"""Small pieces the engines lean on for speed: flat views of state arrays,
the card-event buffer, the allocator setting."""

import numpy as np
import pytest

from balance.allocator import tune_allocator
from balance.games.events import EVENTS, Events
from balance.games.horsepower.state import flat


def test_flat_updates_the_array_itself_and_refuses_a_copy():
    piles = np.zeros((3, 4, 5), np.int16)
    at = (np.array([0, 2]) * 4 + 1) * 5 + np.array([3, 4])  # (game 0, seat 1, card 3), (game 2, seat 1, card 4)
    flat(piles)[at] += 1
    assert piles[0, 1, 3] == 1 and piles[2, 1, 4] == 1 and piles.sum() == 2
    with pytest.raises(AttributeError):
        flat(piles[:, 1])  # a strided view: updating a copy would lose the change


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
