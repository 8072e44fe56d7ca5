"""`balance fit --free` (issue 21): sweep's paths and ranges as the search's
numbers, today's value read from the database the scenario plays; mistakes
are one line before any game."""

from __future__ import annotations

import pytest

from balance.errors import UserError
from balance.experiments.fit.objective import change_size
from balance.experiments.fit.space import at_range_ends, free_params
from balance.scenario import load_scenario

from .conftest import CARDS


def _scenario(tmp_path, overrides: str = ""):
    path = tmp_path / "s.yaml"
    path.write_text(
        f"name: fit\ngame: horsepower\ncards: {CARDS}\nplayers: 4\n"
        f"bots: [racer, economist, saboteur, balanced]\ngames: 100\n{overrides}"
    )
    return load_scenario(path)


def test_ranges_become_bounded_numbers_starting_from_todays_values(tmp_path):
    scenario = _scenario(tmp_path, "overrides: {rules.purchase_cost: 4}\n")
    twin, coins, cost = free_params(
        scenario,
        ["cards.twin_turbo.effects.0.amount=2..8", "rules.seat_coins.3=0,1,2,3", "rules.purchase_cost=2.5:3.5:0.5"],
    )
    assert (twin.name, twin.kind, twin.start, twin.low, twin.high) == (
        "cards.twin_turbo.effects.0.amount",
        "int",
        6,
        2,
        8,
    )
    assert (coins.kind, coins.start, coins.low, coins.high) == ("int", 0, 0, 3)
    assert (cost.kind, cost.start, cost.low, cost.high) == ("real", 4, 2.5, 3.5), "as the scenario plays it"


def test_a_word_becomes_a_choice_among_the_words_given_and_todays(tmp_path):
    (keep,) = free_params(_scenario(tmp_path), ["cards.mag_wheels.effects.1.keep=best"])
    assert (keep.kind, keep.start, keep.choices) == ("choice", "sum", ("sum", "best"))
    today, best = {keep.name: "sum"}, {keep.name: "best"}
    assert (change_size(today, [keep]), change_size(best, [keep])) == (0.0, 1.0), "another word is one change"


@pytest.mark.parametrize(
    ("free", "words"),
    [
        ("cards.warp_drive.count=1..2", "no card with id 'warp_drive'"),
        ("cards.twin_turbo.name=1..2", "is 'Twin Turbo', a name, not a value to search"),
        ("cards.mag_wheels.effects.1.keep=1..2", "is 'sum': give the words to choose from, e.g. sum,best"),
        ("cards.twin_turbo.count", "expected PATH=RANGE"),
        ("cards.twin_turbo.count=3..1", "no values"),
    ],
)
def test_a_wrong_free_value_is_one_line(tmp_path, free, words):
    with pytest.raises(UserError, match=words):
        free_params(_scenario(tmp_path), [free])
    with pytest.raises(UserError, match="is given twice"):
        free_params(_scenario(tmp_path), ["rules.purchase_cost=1..3", "rules.purchase_cost=2..4"])


def test_the_numbers_at_an_end_of_their_range_are_named_with_the_range():
    from balance.experiments.tune.space import Param

    fuel = Param(("playbooks", "rocket_fuel", "effects", "0", "amount"), "int", 3, 1, 3)
    cost = Param(("rules", "purchase_cost"), "real", 3.0, 1.5, 4.5)
    keep = Param(("cards", "mag_wheels", "effects", "1", "keep"), "choice", "sum", choices=("sum", "best"))
    values = {fuel.name: 1, cost.name: 4.5, keep.name: "best"}
    assert at_range_ends(values, [fuel, cost, keep]) == [
        "playbooks.rocket_fuel.effects.0.amount = 1 (range 1..3)",
        "rules.purchase_cost = 4.5 (range 1.5..4.5)",
    ]
    assert at_range_ends(values | {fuel.name: 2, cost.name: 2.0}, [fuel, cost, keep]) == []
