"""The audit of the Heat engine (issue 15): each test is named after the rule or
bot choice it checks and failed before the fix. Positions count spaces from the
start/finish line; USA: corner lines at 11 (limit 7), 32 (3), 48 (3), 56 (2),
two laps of 69 (the finish at 138)."""

from __future__ import annotations

import numpy as np
import yaml

from balance.games.heat.compile import compile_database
from balance.games.heat.schema import validate_database
from balance.yamlio import parse_yaml

from . import heat
from .heat import car_turn, legend_turn, plan_round, slipstream

T = heat.tables()
HEAT, STRESS = T.heat_card, T.stress_card


def _cars_on(st, g, spots):
    st.pos[g] = -50 - np.arange(st.pos.shape[1])
    for car, (pos, lane) in spots.items():
        st.pos[g, car], st.lane[g, car] = pos, lane


def _play(st, car, cards: dict[str, int], t=T):
    for cid, n in cards.items():
        st.play[:, car, heat.card(t, cid)] += n


# --- Rules ----------------------------------------------------------------------------


def test_check_corner_is_ignored_once_the_car_has_crossed_the_finish_line():
    """ "If you have crossed the finish line, this step is ignored": 124 -> 138
    crosses the limit-2 line at 125 (56 + 69) at speed 14 with no Heat to pay."""
    race, st = heat.batch(T, ["robot", "robot"], races=2, profiles={"robot": {"noise": 0.0, "boost": 0.0}})
    heat.hand_of(T, st, 0, {"speed_1": 7})
    _play(st, 0, {"upgrade_5": 1, "speed_4": 2, "speed_1": 1})  # speed 14
    st.hand[:, 0, heat.card(T, "speed_1")] -= 1
    st.gear[:, 0], st.engine[:, 0], st.target[:, 0] = 4, 0, 40
    _cars_on(st, np.arange(2), {0: (124, 0), 1: (10, 0)})
    car_turn(race, st, np.arange(2), np.zeros(2, int), np.zeros(2, bool))
    assert (st.pos[:, 0] == 138).all() and (st.spin_outs[:, 0] == 0).all() and (st.corner_heat[:, 0] == 0).all()


def test_an_upgrade_whose_heat_cannot_be_paid_is_discarded_for_a_random_speed_card():
    """Facts: a red-flame card "if you cannot [pay], discard it and play a random
    speed card instead". Turbocharger (speed 7, 2 Heat) with 1 Heat in the Engine."""
    t = heat.tables(garage_module=True)
    race, st = heat.batch(t, ["robot", "robot"], races=3, profiles={"robot": {"noise": 0.0, "boost": 0.0}})
    heat.hand_of(t, st, 0, {"heat": 6}, deck={"speed_3": 4})
    turbo = heat.card(t, "turbocharger_1")
    st.play[:, 0, turbo] = 1
    st.gear[:, 0], st.engine[:, 0], st.target[:, 0] = 1, 1, 40
    _cars_on(st, np.arange(3), {0: (60, 0), 1: (-10, 0)})
    car_turn(race, st, np.arange(3), np.zeros(3, int), np.zeros(3, bool))
    assert (st.pos[:, 0] == 63).all(), "the random speed card (a Speed 3) instead of the Turbocharger's 7"
    assert (st.heat_paid[:, 0] == 0).all(), "its 2 Heat were not paid"
    assert (st.overheats[:, 0] == 0).all() and (st.played[:, 0, turbo] == 0).all()


def test_a_car_holding_an_unpayable_upgrade_is_not_overheated():
    """ "Any card except a Heat card can be played": an upgrade it cannot pay is
    still a playable card (played as a random speed card), so no overheat."""
    t = heat.tables(garage_module=True)
    race, st = heat.batch(t, ["robot", "robot"], races=3)
    heat.hand_of(t, st, 0, {"heat": 6, "turbocharger_1": 1})
    st.engine[:, 0], st.gear[:, 0] = 0, 1
    _cars_on(st, np.arange(3), {0: (20, 0), 1: (5, 0)})
    plan_round(race, st)
    assert not st.overheated[:, 0].any()
    assert (st.play[:, 0, heat.card(t, "turbocharger_1")] == 1).all()


def test_a_base_game_legend_crosses_one_corner_line_a_move_aggressive_ones_two():
    """Great Britain: lines at 29 (limit 6) and 36 (limit 5). A Legend on 28, past the 29's Legend line, with
    black's diamond column 3 (card 2) would move 6 + 3 = 9, to 37, over both lines: it stops before the 36,
    on 35. An Aggressive one on 28, the chevron right before the 29 ("above the diamond"), crosses both; on
    27, no chevron, it stops on 35 as well."""
    for aggressive, start, end in ((False, 28, 35), (True, 28, 37), (True, 27, 35)):
        t = heat.tables(track="great_britain", aggressive_legends=aggressive)
        race, st = heat.batch(t, ["legend", "robot"], races=1)
        _cars_on(st, 0, {0: (start, 0), 1: (-30, 0)})
        legend_turn(race, st, np.arange(1), np.zeros(1, int), np.array([1]))
        assert st.pos[0, 0] == end, (aggressive, start, st.pos[0, 0])


def test_a_chevron_legend_crosses_two_corner_lines_a_double_chevron_three():
    """Great Britain's chevrons stand right before its 29, 36 and 42 lines (28, 35, 41). With the 36's limit
    made 10, a Legend on 35 with black's column 3 (card 2) would move 10 + 3 = 13, to 48, over the 36, 42 and
    47: plain, it stops before the 42 (41); from the chevron before the 47 (46); from a double chevron it
    crosses all three (48). Before its Legend line a chevron changes nothing: from 24 black's helmet 18 would
    cross the 29, so it stops 3 short of the space before it (25), Aggressive or not."""
    for aggressive, double, end in ((False, 0, 41), (True, 0, 46), (True, 1, 48)):
        data = yaml.safe_load(yaml.safe_dump(heat._BASE))
        data["rules"] |= {"track": "great_britain", "aggressive_legends": aggressive}
        gb = next(track for track in data["tracks"] if track["id"] == "great_britain")
        gb["corners"][2] |= {"limit": 10, "double_chevrons": double}
        t = compile_database(validate_database(parse_yaml(yaml.safe_dump(data, sort_keys=False), "gb.yaml")))
        assert t.tracks[t.rules.track].chevron[[28, 35, 41]].tolist() == [1, 1 + double, 1]
        race, st = heat.batch(t, ["legend", "robot"], races=2)
        _cars_on(st, 0, {0: (35, 0), 1: (-30, 0)})
        _cars_on(st, 1, {0: (24, 0), 1: (-30, 0)})
        legend_turn(race, st, np.arange(2), np.zeros(2, int), np.array([1, 1]))
        assert st.pos[:, 0].tolist() == [end, 25], (aggressive, double, st.pos[:, 0])


def test_stress_from_a_spin_out_comes_from_the_box_while_it_lasts():
    """rules.stress_supply: 13 in the box, 3 cars with 3 Stress each in their decks:
    4 left. A spin-out in gear 3 owes 2; the third one gets what is left."""
    t = heat.tables(stress_supply=13)
    race, st = heat.batch(t, ["robot", "robot", "robot"], races=1)
    assert st.stress_supply.tolist() == [4]
    for _ in range(3):
        heat.hand_of(t, st, 0, {"speed_1": 2})
        st.gear[:, 0] = 3
        _play(st, 0, {"upgrade_5": 1, "speed_4": 1}, t)  # speed 9 at the limit-3 corner of space 32
        st.engine[:, 0], st.target[:, 0] = 0, 9
        _cars_on(st, np.arange(1), {0: (26, 0), 1: (-5, 0), 2: (-6, 0)})
        car_turn(race, st, np.arange(1), np.zeros(1, int), np.zeros(1, bool))
    assert st.spin_outs[0, 0] == 3 and st.stress_added[0, 0] == 4
    assert st.stress_supply.tolist() == [0] and st.stress_short.tolist() == [2]
    unlimited = heat.batch(T, ["robot", "robot"], races=1)[1]
    assert unlimited.stress_supply.tolist() == [-1], "the default: unlimited"


# --- Bots ---------------------------------------------------------------------------------


def test_adrenaline_plus_one_is_not_taken_when_it_would_spin_the_car_out():
    """At the limit-3 corner of 32 at speed 3 with an empty Engine: +1 would owe
    1 Heat it cannot pay. The bot takes Cooldown 1 instead and does not spin."""
    race, st = heat.batch(T, ["robot", "robot"], races=4, profiles={"robot": {"noise": 0.05, "boost": 0.0}})
    heat.hand_of(T, st, 0, {"speed_1": 7})
    _play(st, 0, {"speed_3": 1})
    st.gear[:, 0], st.engine[:, 0], st.target[:, 0] = 1, 0, 3
    _cars_on(st, np.arange(4), {0: (29, 0), 1: (60, 0)})
    car_turn(race, st, np.arange(4), np.zeros(4, int), np.ones(4, bool))
    assert (st.adrenaline[:, 0] == 1).all() and (st.spin_outs[:, 0] == 0).all()
    assert (st.pos[:, 0] == 32).all()


def test_noise_never_makes_a_bot_boost_into_a_corner_it_cannot_pay():
    """A keen, noisy bot (noise 0.4, boost 1) at speed 3 just before the limit-3
    line with 1 Heat: any Boost flip would owe Heat after paying for the Boost.
    The random bot (noise 1) still boosts half the time: it is the floor."""
    G = 400
    for name, noise, expect in (("keen", 0.4, 0.0), ("random", 1.0, 0.5)):
        race, st = heat.batch(T, [name, "robot"], races=G, profiles={name: {"noise": noise, "boost": 1.0}})
        heat.hand_of(T, st, 0, {"speed_1": 7}, deck={"speed_2": 6})
        _play(st, 0, {"speed_3": 1})
        st.gear[:, 0], st.engine[:, 0], st.target[:, 0] = 3, 1, 3
        _cars_on(st, np.arange(G), {0: (28, 0), 1: (90, 0)})
        car_turn(race, st, np.arange(G), np.zeros(G, int), np.zeros(G, bool))
        rate = (st.boosts[:, 0] > 0).mean()
        assert abs(rate - expect) < 4.5 * np.sqrt(0.25 / G), (name, rate)


def test_slipstream_across_a_corner_is_taken_only_when_two_spaces_beat_its_heat():
    """Beside a car on 31 at speed 7 (the limit-3 line at 32): slipstreaming 30 -> 32
    owes 4 Heat, which an aggressive bot (0.6 spaces a Heat) does not pay for 2
    spaces; at speed 4 it owes 1 and the bot takes it."""
    for speed, taken in ((7, False), (4, True)):
        race, st = heat.batch(T, ["aggressive", "robot"], races=1, profiles={"aggressive": {"noise": 0.0}})
        st.engine[:, 0] = 6
        _cars_on(st, 0, {0: (30, 0), 1: (31, 0)})
        slipstream(race, st, np.arange(1), np.zeros(1, int), np.array([30 - speed]), np.array([speed]))
        assert bool(st.slipstreams[0, 0]) == taken, speed


def test_the_plan_counts_a_corner_limit_card_it_plays():
    """Tires (tires_3: speed 2, corner limit +1) raises the limit-3 corner of 32 to
    4: from 28 with an empty Engine the bot plays it and crosses at speed 4
    instead of stopping before the line at speed 3."""
    t = heat.tables(garage_module=True)
    card = heat.card(t, "tires_3")
    race, st = heat.batch(t, ["robot", "robot"], races=1)
    heat.hand_of(t, st, 0, {"speed_2": 3, "speed_1": 3})
    st.hand[:, 0, card] = 1
    st.engine[:, 0], st.gear[:, 0] = 0, 2
    _cars_on(st, 0, {0: (28, 0), 1: (5, 0)})
    plan_round(race, st)
    assert st.play[0, 0, card] == 1, "the corner-limit card is played"
    assert st.target[0, 0] == 4 and st.gear[0, 0] == 2


def test_a_trace_says_cooldown_before_the_boost_it_may_pay_for():
    """Issue 36: the Boost line came before the Cooldown line though Cooldown is
    applied first, so a Boost read as paid from an empty Engine."""
    import re

    from balance.games.heat import GAME
    from balance.scenario import load_scenario

    from .conftest import ROOT

    scenario = load_scenario(ROOT / "scenarios" / "heat-usa.yaml")
    pairs = 0
    for race_number in range(6):
        text = GAME.trace(scenario, 1, race_number)
        for block in text.split("\nRound ")[1:]:
            lines = block.splitlines()
            for i, line in enumerate(lines):
                boost = re.match(r"  car (\d+): Boost", line)
                if boost:
                    cooled = [j for j, other in enumerate(lines) if other.startswith(f"  car {boost[1]}: Cooldown")]
                    assert all(j < i for j in cooled), block
                    pairs += bool(cooled)
    assert pairs, "some car cooled down and boosted in one turn"
