"""Heat's Weather and Road Conditions module (issue 46; rulebook 004 "Weather
and Road Conditions"; ../shared/facts/heat-modules.md section 1), one test a
rule, on the compiled engine's phases (tests/heat.py). USA: corner lines at
11 (limit 7), 32 (3), 48 (3) and 56 (2), 2 laps of 69; sector k runs from
corner k's line to the next one's (the last over the start/finish line)."""

from __future__ import annotations

import numpy as np
import pytest
from typer.testing import CliRunner

from balance.cli import app
from balance.errors import UserError

from . import heat
from .conftest import ROOT
from .heat import car_turn, legend_turn, played
from .test_heat_rules import _cars_on

PLAIN = ["fast_corner", "slow_corner", "fast_corner", "slow_corner"]  # no sector token: only limits change


def weather(name: str = "cloudy", road: list[str] | None = None):
    return heat.tables(weather_module=True, weather=name, road_conditions=road or PLAIN)


def test_weather_and_road_tokens_are_drawn_per_race_one_per_corner_from_the_twelve():
    """One of 6 Weather tokens a race, each as likely; one Road token per corner drawn without replacement from
    2 of each of the 6 kinds (so never 3 of a kind on a track); a race is the same race in any batch."""
    T = heat.tables(weather_module=True)
    _, st = heat.batch(T, ["robot", "robot"], races=1200, seed=3)
    counts = np.bincount(st.weather, minlength=6)
    assert counts.sum() == 1200 and (abs(counts - 200) < 4 * np.sqrt(200 * 5 / 6)).all(), counts
    assert ((st.road >= 0) & (st.road < 6)).all()
    per_kind = np.stack([(st.road == k).sum(axis=1) for k in range(6)], axis=1)
    assert per_kind.max() == 2 and (per_kind.sum(axis=1) == 4).all()
    _, again = heat.batch(T, ["robot", "robot"], races=5, seed=3)
    assert (again.weather == st.weather[:5]).all() and (again.road == st.road[:5]).all()


@pytest.mark.parametrize(
    ("name", "stress", "engine", "heat_in_cards", "heat_on_discard"),
    [
        ("cloudy", 2, 6, 1, 0),  # 1 fewer Stress in the deck
        ("fog", 3, 7, 1, 0),  # 1 extra Heat in the Engine
        ("storm", 4, 6, 1, 0),  # 1 extra Stress
        ("snow", 3, 5, 1, 0),  # 1 fewer Heat in the Engine
        ("rain", 3, 3, 4, 0),  # 3 Engine Heat shuffled into the deck (the starting Heat card makes 4)
        ("sun", 3, 3, 1, 3),  # 3 Engine Heat onto the discard pile
    ],
)
def test_a_weather_setup_changes_every_players_deck_and_engine(name, stress, engine, heat_in_cards, heat_on_discard):
    T = weather(name)
    _, st = heat.batch(T, ["robot", "robot", "legend"], races=3)
    players = st.deck[:, :2] + st.hand[:, :2]
    assert (players[..., T.stress_card] == stress).all()
    assert (st.engine[:, :2] == engine).all() and (st.engine[:, 2] == 0).all(), "a Legend has no Engine"
    assert (players[..., T.heat_card] == heat_in_cards).all()
    assert (st.discard[:, :2, T.heat_card] == heat_on_discard).all()
    assert heat.play_race(*heat.batch(T, ["robot", "robot", "legend"], races=8)) == [], "cards are conserved"


def test_a_speed_limit_token_changes_its_corner_on_every_lap_and_for_legends():
    """+1 on the 7 at 11 and the 3 at 48, -1 on the 3 at 32 and the 2 at 56, both laps; a Legend within the
    Legend line of the 32 drives at the lowered limit."""
    T = weather()
    race, st = heat.batch(T, ["legend", "robot"], races=1)
    assert st.limit[0, :8].tolist() == [8, 2, 4, 1, 8, 2, 4, 1]
    _cars_on(st, 0, {0: (29, 0), 1: (-30, 0)})
    legend_turn(race, st, np.array([0]), np.array([0]), np.array([9]))  # card 10: black's column 0, +0 at corners
    assert st.pos[0, 0] == 29 + 2


def test_an_overheat_corner_costs_one_heat_more_than_the_excess_and_nothing_at_the_limit():
    T = weather(road=["overheat", "slow_corner", "fast_corner", "slow_corner"])
    race, st = heat.batch(T, ["robot", "robot"], races=2, profiles={"robot": {"noise": 0.0, "boost": 0.0}})
    heat.hand_of(T, st, 0, {"speed_1": 5})
    played(T, st, 0, {"upgrade_5": 1, "speed_4": 1}, gear=2, target=9)  # speed 9 over the 7 at 11
    played(T, st, 0, {}, gear=2)
    st.play[1, 0] = 0
    st.play[1, 0, heat.card(T, "speed_4")] = 1
    st.play[1, 0, heat.card(T, "speed_3")] = 1  # race 1: speed 7, at the limit
    st.engine[:, 0] = 6
    _cars_on(st, np.arange(2), {0: (8, 0), 1: (-20, 0)})
    car_turn(race, st, np.arange(2), np.zeros(2, int), np.zeros(2, bool))
    assert st.corner_heat[:, 0].tolist() == [2 + 1, 0]


def test_overheat_that_cannot_be_paid_spins_out():
    T = weather(road=["overheat", "slow_corner", "fast_corner", "slow_corner"])
    race, st = heat.batch(T, ["robot", "robot"], races=1, profiles={"robot": {"noise": 0.0, "boost": 0.0}})
    heat.hand_of(T, st, 0, {"speed_1": 5})
    played(T, st, 0, {"upgrade_5": 1, "speed_4": 1}, gear=2, target=9)
    st.engine[:, 0] = 2  # the excess, 2, but not the Overheat's one more
    _cars_on(st, 0, {0: (8, 0), 1: (-20, 0)})
    car_turn(race, st, np.array([0]), np.array([0]), np.array([False]))
    assert st.spin_outs[0, 0] == 1 and st.pos[0, 0] == 10 and st.engine[0, 0] == 2


@pytest.mark.parametrize(("name", "cooled"), [("snow", 1 + 1), ("rain", 1 + 1), ("cloudy", 0), ("sun", 1)])
def test_a_weather_sector_effect_applies_in_a_weather_sector_only(name, cooled):
    """Gear 2 cools 1. In the sector after the 32 (a Weather token): Snow and Rain add Cooldown 1, Cloudy
    allows none at all; Sunny's sector effect is a slipstream one. In the sector after the 11 (a Speed limit
    token) the gear's 1 only."""
    T = weather(name, road=["fast_corner", "weather_sector", "fast_corner", "slow_corner"])
    race, st = heat.batch(T, ["robot", "robot"], races=2, profiles={"robot": {"noise": 0.0, "boost": 0.0}})
    heat.hand_of(T, st, 0, {"heat": 3, "speed_1": 3})
    played(T, st, 0, {"speed_1": 2}, gear=2)
    st.engine[:, 0] = 2
    _cars_on(st, np.arange(2), {0: (35, 0), 1: (-20, 0)})  # race 0: moves 35 -> 37, in the Weather sector
    _cars_on(st, 1, {0: (20, 0), 1: (-20, 0)})  # race 1: 20 -> 22, in the sector after the 11
    car_turn(race, st, np.arange(2), np.zeros(2, int), np.zeros(2, bool))
    assert st.cooled[:, 0].tolist() == [cooled, 1]


def test_a_free_boost_sector_boost_pays_no_heat():
    T = weather(road=["free_boost", "slow_corner", "fast_corner", "slow_corner"])
    race, st = heat.batch(T, ["robot", "robot"], races=2, profiles={"robot": {"boost": 1.0, "noise": 0.0}})
    heat.hand_of(T, st, 0, {"speed_2": 6}, deck={"speed_3": 3})
    played(T, st, 0, {"speed_2": 1}, gear=3)
    _cars_on(st, np.arange(2), {0: (14, 0), 1: (-10, 0)})  # race 0: 14 -> 16, in the free-boost sector
    _cars_on(st, 1, {0: (36, 0), 1: (-10, 0)})  # race 1: 36 -> 38, after the 32: Boost costs its 1 Heat
    engine = st.engine[:, 0].copy()
    car_turn(race, st, np.arange(2), np.zeros(2, int), np.zeros(2, bool))
    assert (st.boosts[:, 0] == 1).all() and (engine - st.engine[:, 0]).tolist() == [0, 1]


@pytest.mark.parametrize(
    ("name", "road", "to"),
    [
        ("fog", "slipstream_sector", 22 + 2 + 1),  # a Slipstream +1 token: 3 spaces
        ("storm", "weather_sector", 22 + 2 + 2),  # Storm's Weather sector: +2
        ("fog", "weather_sector", 22),  # Fog's Weather sector: no slipstream starts here
    ],
)
def test_a_slipstream_sector_lengthens_it_and_fog_forbids_starting_one(name, road, to):
    T = weather(name, road=[road, "slow_corner", "fast_corner", "slow_corner"])
    race, st = heat.batch(T, ["robot", "robot"], races=1, profiles={"robot": {"noise": 0.0, "boost": 0.0}})
    heat.hand_of(T, st, 0, {"speed_1": 7})
    played(T, st, 0, {"speed_1": 1}, gear=3)
    _cars_on(st, 0, {0: (21, 0), 1: (23, 0)})  # 21 -> 22, right behind the car on 23, in the sector after the 11
    car_turn(race, st, np.array([0]), np.array([0]), np.array([False]))
    assert st.pos[0, 0] == to


def test_whole_races_with_the_module_keep_the_rules_on_every_track():
    for track in ("usa", "italia", "france", "great_britain"):
        T = heat.tables(weather_module=True, track=track)
        m, st = heat.batch(T, ["balanced", "aggressive", "cautious", "legend"], races=24, seed=7)
        assert heat.play_race(m, st) == [], track
        assert st.finished.mean() > 0.9


def test_a_fixed_choice_that_does_not_fit_is_one_line_naming_the_rule():
    with pytest.raises(UserError, match=r"unknown Weather token 'hail'"):
        heat.tables(weather_module=True, weather="hail")
    with pytest.raises(UserError, match=r"3 tokens for USA's 4 corners"):
        heat.tables(weather_module=True, road_conditions=["overheat"] * 3)
    with pytest.raises(UserError, match=r"unknown Road Conditions token 'ice'"):
        heat.tables(weather_module=True, road_conditions=["ice", "overheat", "overheat", "overheat"])


def test_the_trace_names_the_weather_and_each_corners_road_token(tmp_path):
    path = tmp_path / "wet.yaml"
    path.write_text(
        f"name: wet\ngame: heat\ncards: {ROOT / 'heat.yaml'}\nplayers: 2\nbots: [balanced, cautious]\ngames: 4\n"
        "seed: 1\noverrides:\n"
        "  rules.weather_module: true\n  rules.weather: rain\n"
        "  rules.road_conditions: [overheat, weather_sector, fast_corner, free_boost]\n"
    )
    result = CliRunner().invoke(app, ["trace", str(path), "--game-number", "0"])
    assert result.exit_code == 0, result.output
    text = result.output
    assert "Weather: Rain (3 Engine Heat shuffled into each deck; in a Weather sector: Cooldown +1 in React)" in text
    assert "corner 1 (limit 7): Overheat: over the limit, 1 Heat more than the excess" in text
    assert "corner 2 (limit 3): Weather: sector to corner 3: Cooldown +1 in React" in text
    assert "corner 3 (limit 3): Speed limit +1: limit 3 -> 4" in text
    assert "corner 4 (limit 2): Free Boost: sector to corner 1: Boost costs no Heat" in text
