"""`balance fit`'s targets (issue 21): the forms a designer writes, their bands
in points, how far a figure misses, and one-line errors."""

from __future__ import annotations

import math

import pytest

from balance.errors import UserError
from balance.experiments.fit.targets import check_items, parse_target


@pytest.mark.parametrize(
    ("text", "kind", "key", "low", "high"),
    [
        ("seat-balance<=2", "seat-balance", "", -2.0, 2.0),  # each seat's win rate minus fair
        ("bot-spread <= 10", "bot-spread", "", 0.0, 10.0),
        ("strength:twin_turbo=0+-2", "strength", "twin_turbo", -2.0, 2.0),
        ("strength:v8_block=+3+-1.5", "strength", "v8_block", 1.5, 4.5),
        ("strength:all+-3", "strength", "all", -3.0, 3.0),
        ("rounds=18..24", "rounds", "", 18.0, 24.0),
    ],
)
def test_each_form_is_a_band_in_points(text, kind, key, low, high):
    t = parse_target(text)
    assert (t.kind, t.key, t.low, t.high, t.text) == (kind, key, low, high, text)


def test_a_miss_is_the_distance_outside_the_band():
    t = parse_target("strength:twin_turbo=0+-2")
    assert [t.miss(v) for v in (0.0, 2.0, -2.0, 5.5, -3.0)] == [0.0, 0.0, 0.0, 3.5, 1.0]
    assert math.isinf(t.miss(float("nan")))


def test_the_search_aims_inside_the_band_so_that_fresh_seeds_keep_it_there():
    band = parse_target("strength:twin_turbo=0+-2")
    assert band.aim == (-1.0, 1.0) and [band.miss(v, aim=True) for v in (0.5, 1.5, -2.0)] == [0.0, 0.5, 1.0]
    assert parse_target("bot-spread<=10").aim == (0.0, 5.0), "an upper limit: its lower half"
    assert parse_target("seat-balance<=2").aim == (-1.0, 1.0), "a seat: within half the limit of fair"
    assert parse_target("rounds=18..24").aim == (19.5, 22.5)


@pytest.mark.parametrize(
    "text", ["seat-balance<2", "seat-balance<=-1", "strength:x=0+--1", "rounds=24..18", "speed=3", "strength:+-3", ""]
)
def test_what_is_not_a_target_is_one_line(text):
    with pytest.raises(UserError, match=r"is not a target \(forms: seat-balance<=2"):
        parse_target(text)


def test_an_unknown_item_is_refused_before_any_game():
    check_items([parse_target("strength:all+-3"), parse_target("strength:twin_turbo=0+-2")], ["twin_turbo"])
    with pytest.raises(UserError, match="no item with id 'warp_drive'"):
        check_items([parse_target("strength:warp_drive=0+-2")], ["twin_turbo"])
