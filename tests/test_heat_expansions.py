"""Heat's Heavy Rain and Tunnel Vision expansions (issue 46; rulebook 004
"Heavy Rain", "Tunnel Vision", "Features on Expansion Maps";
../shared/facts/heat-modules.md sections 4 and 5), one test a rule, on the
compiled engine's phases (tests/heat.py). Our spaces are BGA's less one.
Japan: corner lines at 9 and 11 (a 4/4 chicane), 17 (2), 44 (5), 52 (3);
flooded 4-9, 37-43, 48-53. Espana: tunnels 15-22, 36-40, 44-47, 60-69, 78-86."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest
from typer.testing import CliRunner

from balance.cli import app
from balance.games.heat.compiled import rules
from balance.games.heat.compiled import tables as compiled_tables
from balance.games.heat.course import course

from . import heat
from .conftest import ROOT
from .heat import car_turn, plan_round, played
from .test_heat_rules import _cars_on

JAPAN = heat.tables(track="japan", expansions=["heavy_rain"])
ESPANA = heat.tables(track="espana", expansions=["tunnel_vision", "heavy_rain"])  # Air Intake 2's discard
ROBOT = {"robot": {"noise": 0.0, "boost": 0.0}}


def _through_japans_chicane(engine: int):
    """A car on 5 at speed 8 (two Speed 4) with this much Heat in its Engine, its turn played."""
    race, st = heat.batch(JAPAN, ["robot", "robot"], races=1, profiles=ROBOT)
    heat.hand_of(JAPAN, st, 0, {"speed_1": 5})
    played(JAPAN, st, 0, {"speed_4": 2}, gear=2, target=8)
    st.engine[:, 0] = engine
    _cars_on(st, 0, {0: (5, 0), 1: (-20, 0)})
    car_turn(race, st, np.array([0]), np.array([0]), np.array([False]))
    return st


def test_a_chicane_is_two_corner_lines_each_checked_and_paid():
    """Speed 8 through Japan's 4/4 chicane (lines 9 and 11) costs 4 + 4 Heat."""
    c = course(JAPAN.tracks[JAPAN.rules.track])
    assert c.corner_at[:5].tolist() == [9, 11, 17, 44, 52] and c.limit[:2].tolist() == [4, 4]
    assert c.heat_due(np.array([5]), np.array([13]), np.array([8])).tolist() == [4 + 4]
    st = _through_japans_chicane(engine=9)
    assert st.corner_heat[0, 0] == 8 and st.spin_outs[0, 0] == 0


def test_a_spin_out_at_a_chicanes_exit_stops_before_the_exit_line():
    """Engine 5: the entry's 4 is paid, the exit's 4 is not: back before the exit line (11), on 10."""
    st = _through_japans_chicane(engine=5)
    assert st.spin_outs[0, 0] == 1 and st.pos[0, 0] == 10 and st.corner_heat[0, 0] == 4


def test_a_chicane_takes_one_road_token_a_corner_one_for_both_lines_a_sector_one_after_the_exit():
    fast = heat.tables(track="japan", weather_module=True, road_conditions=["fast_corner", *["slow_corner"] * 3])
    _, st = heat.batch(fast, ["robot", "robot"], races=1)
    assert st.limit[0, :5].tolist() == [5, 5, 1, 4, 2] and st.road[0, :2].tolist() == [0, 0]
    slip = heat.tables(track="japan", weather_module=True, road_conditions=["slipstream_sector", *["slow_corner"] * 3])
    _, st = heat.batch(slip, ["robot", "robot"], races=1)
    assert st.sector[0, :, 2].tolist() == [0, 1, 0, 0, 0], "Slipstream +1 from the exit (11) to the 17 only"


@pytest.mark.parametrize(("engine", "gears"), [(0, {3, 4}), (1, {2, 3, 4}), (2, {1, 2, 3, 4})])
def test_a_flooded_downshift_costs_one_extra_heat(engine, gears):
    """From gear 3 on a flooded space: down one costs 1 Heat, down two 2 (the rulebook: "1 extra Heat. This
    means that to shift down two gears costs 2 Heat"); no Heat, no downshift. Off the flooded spaces a gear
    down is free."""
    T = compiled_tables.build(JAPAN, heat.batch(JAPAN, ["robot"])[0].bots, 2)
    cost = {new: rules.shift_cost(T.shift_two_heat, T.flooded_heat, 3, new, True) for new in (1, 2, 3, 4)}
    assert cost == {1: 2, 2: 1, 3: 0, 4: 0}
    assert rules.shift_cost(T.shift_two_heat, T.flooded_heat, 3, 2, False) == 0
    race, st = heat.batch(JAPAN, ["robot", "robot"], races=40, seed=2, profiles={"robot": {"noise": 1.0}})
    heat.hand_of(JAPAN, st, 0, {"speed_1": 3, "speed_2": 4})
    st.gear[:, 0], st.engine[:, 0] = 3, engine
    _cars_on(st, np.arange(40), {0: (6, 0), 1: (-20, 0)})  # space 6 is flooded
    plan_round(race, st)
    assert set(st.gear[:, 0].tolist()) <= gears and (st.engine[:, 0] >= 0).all()
    assert (engine - st.engine[:, 0] == [cost.get(int(g), 0) for g in st.gear[:, 0]]).all(), "paid as it shifted"


def test_a_tunnel_forbids_the_discard_step_and_discarding_stress():
    """Espana's tunnel 15-22, where the car stands after its move (React, then the discard step): ending on
    18 (from 17) or on 15 (from 14, entering) it keeps its low cards and its Stress; ending on 12 (from 11)
    or on 23 (from 22, leaving) it drops the cards balanced values below 1 space (Speed 0) and discards
    Stress with a card's discard_stress."""
    race, st = heat.batch(ESPANA, ["robot", "robot"], races=4, profiles=ROBOT)
    heat.hand_of(ESPANA, st, 0, {"upgrade_0": 2, "stress": 1, "speed_3": 3}, deck={"speed_1": 12})  # no reshuffle
    played(ESPANA, st, 0, {"speed_1": 1, "air_intake_2": 1}, gear=2)  # Air Intake 2: speed 0, discard 1 Stress
    for g, start in enumerate((17, 11, 14, 22)):
        _cars_on(st, g, {0: (start, 0), 1: (-20, 0)})
    car_turn(race, st, np.arange(4), np.zeros(4, int), np.zeros(4, bool))
    upgrade_0 = heat.card(ESPANA, "upgrade_0")
    assert st.pos[:, 0].tolist() == [18, 12, 15, 23]
    assert st.hand[:, 0, upgrade_0].tolist() == [2, 0, 2, 0]
    assert st.hand[:, 0, ESPANA.stress_card].tolist() == [1, 0, 1, 0]


def test_a_draft_lands_right_behind_the_next_car_when_it_reaches():
    """Front Wing 1 (Draft 3, a flip of a Speed 1): 64 -> 65; the next car ahead on 68 is reached (land on
    67, 2 spaces); one on 70 is not (69 is 4 away). (No slipstream here, so that the Draft is seen alone.)"""
    # no slipstream after the Draft; the Garage module: the Front Wing's Draft is looked at only where such a
    # card can be in the race (drafted, or a strength bonus)
    T = heat.tables(track="usa", expansions=["tunnel_vision"], slipstream=0, garage_module=True)
    race, st = heat.batch(T, ["robot", "robot"], races=2, profiles=ROBOT)
    heat.hand_of(T, st, 0, {"speed_1": 7}, deck={"speed_1": 3})
    played(T, st, 0, {"front_wing_1": 1}, gear=1)
    _cars_on(st, np.arange(2), {0: (64, 0), 1: (68, 0)})
    _cars_on(st, 1, {0: (64, 0), 1: (70, 0)})
    car_turn(race, st, np.arange(2), np.zeros(2, int), np.zeros(2, bool))
    assert st.pos[:, 0].tolist() == [67, 65]


def test_super_cool_returns_heat_from_the_discard_to_the_engine():
    japan = heat.tables(track="japan", expansions=["heavy_rain"], garage_module=True)  # Air Intake can be drafted
    race, st = heat.batch(japan, ["robot", "robot"], races=1, profiles=ROBOT)
    heat.hand_of(japan, st, 0, {"speed_1": 7})
    st.discard[:, 0, japan.heat_card] += 3
    st.engine[:, 0] = 1
    played(japan, st, 0, {"air_intake_4": 1}, gear=3)  # speed 3, Super Cool 1, scrap 3
    _cars_on(st, 0, {0: (20, 0), 1: (-20, 0)})
    before = st.discard[0, 0, japan.heat_card]
    car_turn(race, st, np.array([0]), np.array([0]), np.array([False]))
    assert st.engine[0, 0] == 1 + 1 and st.cooled[0, 0] == 1
    assert st.discard[0, 0, japan.heat_card] <= before - 1 + 3, "one back to the Engine (the scrap may add more)"


def test_expansion_upgrades_join_the_pool_only_with_their_expansion():
    """Without their expansion they are not in the race at all (nor in the engine's tables: every kind there
    costs the hot path); a strength run naming one says which expansion it needs."""
    plain = heat.tables(garage_module=True)
    both = heat.tables(garage_module=True, expansions=["heavy_rain", "tunnel_vision"])
    assert "front_wing_1" not in plain.cards.ids and both.cards.pool[heat.card(both, "front_wing_1")] == 2
    assert both.cards.pool.sum() == plain.cards.pool.sum() + 24
    assert plain.cards.ids == both.cards.ids[: len(plain.cards.ids)], "the base cards keep their places"


@pytest.mark.parametrize("track", ["japan", "mexico", "nederland", "espana"])
def test_whole_races_on_the_expansions_tracks_keep_the_rules(track):
    T = heat.tables(track=track, garage_module=True, weather_module=True, expansions=["heavy_rain", "tunnel_vision"])
    m, st = heat.batch(T, ["balanced", "aggressive", "cautious", "legend"], races=24, seed=11)
    assert heat.play_race(m, st) == [], track
    assert st.finished.mean() > 0.9


# --- the 7th and 8th cars ------------------------------------------------------------------------


def _scenario(tmp_path, cars: int, bots: list[str], expansions: list[str], games: int = 8) -> Path:
    path = tmp_path / f"cars{cars}.yaml"
    path.write_text(
        f"name: cars{cars}\ngame: heat\ncards: {ROOT / 'heat.yaml'}\nplayers: {cars}\nbots: [{', '.join(bots)}]\n"
        f"games: {games}\nseed: 1\noverrides:\n  rules.track: nederland\n  rules.expansions: [{', '.join(expansions)}]\n"
    )
    return path


@pytest.mark.parametrize(
    "cars, expansions, error",
    [
        (7, [], "7 cars, but the box holds 6: a 7th car comes with rules.expansions heavy_rain"),
        (8, ["heavy_rain"], "8 cars, but the box holds 7"),
        (7, ["tunnel_vision"], None),
        (8, ["heavy_rain", "tunnel_vision"], None),
    ],
)
def test_a_seventh_car_comes_with_one_expansion_and_an_eighth_with_both(tmp_path, cars, expansions, error):
    path = _scenario(tmp_path, cars, ["balanced"] * (cars - 1) + ["legend"], expansions)
    result = CliRunner().invoke(app, ["run", str(path), "-o", str(tmp_path / "out"), "-q"])
    if error:
        assert result.exit_code == 2 and error in result.stderr, result.output
    else:
        assert result.exit_code == 0, result.output


def test_legend_cars_at_most_as_many_as_the_legend_cards_colours(tmp_path):
    path = _scenario(tmp_path, 8, ["balanced"] + ["legend"] * 7, ["heavy_rain", "tunnel_vision"])
    result = CliRunner().invoke(app, ["run", str(path), "-o", str(tmp_path / "out"), "-q"])
    assert result.exit_code == 2 and "up to 7 Legend cars, but the Legend cards number 6 colours" in result.stderr


def test_eight_cars_race_by_the_rules_the_last_two_taking_adrenaline():
    """A full grid: four rows of two behind the line; the rules checker holds after every turn."""
    t = heat.tables(track="nederland", expansions=["heavy_rain", "tunnel_vision"], garage_module=True)
    names = ["balanced", "aggressive", "cautious", "balanced", "aggressive", "cautious", "legend", "legend"]
    bots = heat.bot_table(heat.resolve_profiles(None), names, t)
    assert (
        compiled_tables.build(t, bots, 8).adrenaline_cars == 2
        and compiled_tables.build(t, bots, 7).adrenaline_cars == 2
    )
    seats = (np.arange(8)[None, :] + np.arange(48)[:, None]) % 8
    st, broken = heat.simulate(t, bots, seats.astype(np.int16), heat.Streams(2, 0, 48))
    assert broken == [] and st.finished.all()
    assert t.rules.grid_space.tolist() == [-1, -1, -2, -2, -3, -3, -4, -4]
