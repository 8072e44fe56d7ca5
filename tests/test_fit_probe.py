"""fit.probe (issue 43): an item's response to its own number, probed before the
search, widens a range that cannot reach fair, narrows the search to the values
that bracket it, and says in one sentence when no value can."""

from __future__ import annotations

from balance.experiments.fit.measure import Figure
from balance.experiments.fit.probe import levers, narrowed, probe, why_not
from balance.experiments.fit.targets import parse_target
from balance.experiments.tune.space import Param

TARGET = parse_target("strength:rocket_fuel=0+-2")
AMOUNT = Param(("playbooks", "rocket_fuel", "effects", "0", "amount"), "int", 3, 1, 3)


def line(slope: float, at_zero: float, half: float = 1.0):
    """A response strength = at_zero + slope x value, with an interval of +-half; the values asked, in order."""
    asked: list = []

    def strength_at(value):
        asked.append(value)
        v = at_zero + slope * value
        return Figure(v, v - half, v + half, 1000)

    return strength_at, asked


def test_a_range_that_brackets_fair_is_searched_between_its_bracketing_probes():
    strength_at, asked = line(10.0, -15.0)  # fair at 1.5: 1 reads -5, 3 reads +15
    r = probe(AMOUNT, TARGET, "rocket_fuel", strength_at, lambda v: True)
    assert asked == [1, 3] and r.reach == "band" and (r.low, r.high) == (1, 3)


def test_a_range_short_of_fair_is_widened_along_the_line_to_a_value_that_reaches_it():
    strength_at, asked = line(10.0, 1.0)  # the printed 1..3 reads +11 and +31; fair near 0 (reads +1)
    r = probe(AMOUNT, TARGET, "rocket_fuel", strength_at, lambda v: True)
    assert asked == [1, 3, 0], "one widening, to the whole value the line points at"
    assert r.reach == "band" and (r.low, r.high) == (0, 1)
    assert why_not(r, [], "Rocket Fuel") == ""
    (p,) = narrowed([AMOUNT], [r])
    assert (p.low, p.high, p.start) == (0, 1, 3), "the search runs between the bracket; today's value stays today's"


def test_fair_between_two_whole_values_that_both_miss_says_so_with_the_other_levers():
    strength_at, _ = line(16.0, -4.0)  # Rocket Fuel's measured shape: 0 reads -4, 1 reads +12
    r = probe(AMOUNT, TARGET, "rocket_fuel", strength_at, lambda v: True)
    assert r.reach == "between" and (r.low, r.high) == (0, 1)
    entry = {"id": "rocket_fuel", "name": "Rocket Fuel", "effects": [{"when": "always", "op": "drive", "amount": 3}]}
    others = levers(entry, AMOUNT.name, "playbooks.rocket_fuel")
    assert others == ["playbooks.rocket_fuel.effects.0.when (always)"]
    sentence = why_not(r, others, "Rocket Fuel")
    assert sentence.startswith("No whole value of playbooks.rocket_fuel.effects.0.amount brings Rocket Fuel into")
    assert "between 0 and 1" in sentence and "effects.0.when (always)" in sentence and sentence.count(".") >= 1
    assert "\n" not in sentence


def test_a_value_the_database_refuses_is_never_played_and_the_nearest_legal_one_is_named():
    strength_at, asked = line(10.0, 1.0)
    r = probe(AMOUNT, TARGET, "rocket_fuel", strength_at, lambda v: v >= 1)  # the schema's floor at 1
    assert asked == [1, 3] and r.reach == "beyond"
    value, figure = r.nearest
    assert value == 1 and figure.value == 11.0
    sentence = why_not(r, [], "Rocket Fuel")
    assert "No value of playbooks.rocket_fuel.effects.0.amount the database allows" in sentence
    assert "the nearest, 1, reads +11.0 points" in sentence


def test_a_number_that_barely_moves_its_item_is_not_extrapolated():
    strength_at, asked = line(0.1, 10.0, half=3.0)  # +10.1 and +10.3: within the noise
    r = probe(AMOUNT, TARGET, "rocket_fuel", strength_at, lambda v: True)
    assert asked == [1, 3] and r.reach == "beyond"


def test_widening_stops_after_its_limit_and_goes_at_most_three_widths_a_step():
    strength_at, asked = line(1.0, 100.0, half=0.1)  # fair at -100: far beyond any widening
    r = probe(AMOUNT, TARGET, "rocket_fuel", strength_at, lambda v: True)
    assert asked == [1, 3, -5, -29, -100] and r.reach == "band", "1..3, then at most 3 widths of 2, of 8, of 32"


def test_a_why_not_sentence_says_when_the_held_out_games_read_the_item_inside_the_band():
    """The ninth database's printed fit of Dual-Mount Frame said "meets every target" (-2.8 held out, n=2,776)
    and, a line later, that no value brings it into its band (-4.4 and -5.2 probed, n=1,388): the sentence now
    says the two reads disagree within their noise."""
    from balance.experiments.fit.probe import held_inside

    band = (-3.0, 3.0)
    clause = held_inside(Figure(-2.8, -4.3, -1.2, 2776), band, "Dual-Mount Frame")
    assert clause.startswith(" The held-out games read the proposal's Dual-Mount Frame inside it (-2.8 points")
    assert "n=2,776" in clause and clause.endswith("more games decide which holds.")
    assert held_inside(Figure(-4.1, -5.6, -2.6, 2776), band, "Dual-Mount Frame") == "", "both read it outside"
    assert held_inside(None, band, "Dual-Mount Frame") == ""


def test_a_proposal_that_misses_by_more_than_todays_values_held_out_is_not_proposed():
    """The tenth database's printed fit of Sponsorship Deal proposed 9 -> 11 coins: held out it read -3.2 points,
    missing the band, where today's 9 read -2.2, inside it. On the games the search never played, the values
    nearer the targets are proposed; a proposal no farther from them than today's stands."""
    from balance.experiments.fit import held_out_choice

    target = parse_target("strength:sponsorship_deal=0+-3")
    path = "cards.sponsorship_deal.effects.0.amount"
    today, eleven = {path: 9}, {path: 11}

    def read(value: float) -> dict[str, dict[str, Figure]]:
        return {target.text: {"sponsorship_deal": Figure(value, value - 1.5, value + 1.5, 2776)}}

    assert held_out_choice([target], today, eleven, read(-2.2), read(-3.2)) == (today, read(-2.2))
    assert held_out_choice([target], today, eleven, read(-4.0), read(-3.2)) == (eleven, read(-3.2))
    assert held_out_choice([target], today, eleven, read(-2.2), read(-1.0)) == (eleven, read(-1.0))
    assert held_out_choice([target], today, today, read(-4.0), read(-4.0)) == (today, read(-4.0))
