"""Heat's rules, one test per rule of the rulebook excerpt
(../shared/seeds/004_80b909b33d7a634b.txt) and the facts sheet, each named
after its section, on the compiled engine's phases (tests/heat.py calls them
race by race). Positions count spaces from the start/finish line."""

from __future__ import annotations

import numpy as np
import pytest

from balance.games import get_game
from balance.games.heat.bots import DRAFT_FEATURES
from balance.games.heat.compiled.tables import draft_order
from balance.games.heat.course import course
from balance.games.heat.log import finish_order
from balance.scenario import load_scenario

from . import heat
from .heat import car_turn, flip, legend_turn, place, plan_round, play_race, target_speed, turn_order

T = heat.tables()  # USA: corner lines at 11 (limit 7), 32 (3), 48 (3), 56 (2); 2 laps of 69
HEAT, STRESS = T.heat_card, T.stress_card
NO_BOOST = {"robot": {"noise": 0.0, "boost": 0.0}}


def _cars_on(st, g, spots):
    """Put cars at (pos, lane) spots; cars not named go far back."""
    st.pos[g] = -50 - np.arange(st.pos.shape[1])
    for car, (pos, lane) in spots.items():
        st.pos[g, car], st.lane[g, car] = pos, lane


# --- Setup -------------------------------------------------------------------


def test_setup_decks_engine_gear_grid_and_opening_hand():
    race, st = heat.batch(T, ["robot", "robot", "robot", "legend"], races=5)
    cards = st.deck + st.hand
    for car in range(3):
        assert (cards[:, car, [heat.card(T, f"speed_{v}") for v in (1, 2, 3, 4)]] == 3).all()
        assert (cards[:, car, heat.card(T, "upgrade_0")] == 1).all() and (
            cards[:, car, heat.card(T, "upgrade_5")] == 1
        ).all()
        assert (cards[:, car, HEAT] == 1).all() and (cards[:, car, STRESS] == 3).all()  # USA: 3 Stress
        assert (cards[:, car].sum(axis=1) == 18).all() and (st.hand[:, car].sum(axis=1) == 7).all()
    assert (st.engine[:, :3] == 6).all() and (st.gear == 1).all()
    assert st.pos[0].tolist() == [-1, -1, -2, -2] and st.lane[0].tolist() == [0, 1, 0, 1]
    assert (cards[:, 3] == 0).all() and (st.engine[:, 3] == 0).all(), "a Legend has no cards and no Heat"


def test_garage_module_each_player_drafts_three_upgrades_instead_of_the_starting_ones():
    t = heat.tables(garage_module=True)
    race, st = heat.batch(t, ["robot", "aggressive", "cautious"], races=200, seed=4)
    garage = np.isin(t.cards.tier, [2, 3])  # garage_basic, garage_advanced
    assert (st.drafted[:, :, garage].sum(axis=2) == 3).all() and (st.drafted[:, :, ~garage] == 0).all()
    cards = st.deck + st.hand
    assert (cards[:, :, heat.card(t, "upgrade_5")] == 0).all() and (cards[:, :, HEAT] == 0).all()
    assert (st.drafted.sum(axis=1) <= t.cards.pool[None, :]).all(), "one copy of a Garage card goes to one player"
    assert draft_order(3, 3, "snake") == [[2, 1, 0], [0, 1, 2], [2, 1, 0]]
    assert draft_order(3, 2, "round_robin") == [[2, 1, 0], [2, 1, 0]]
    first = st.draft_pick[:, 2][st.draft_pick[:, 2] > 0].min()
    assert first == 1, "the back of the grid picks first"


# A bot whose draft values every card alike (every weight 0, no noise) takes the first card of the market in the
# database's order: the Heat card (it comes before every upgrade), whenever the market shows one.
HOARDER = {"hoarder": {"noise": 0.0, "draft": dict.fromkeys(DRAFT_FEATURES, 0.0)}}


def test_garage_heat_cards_a_drafted_heat_card_is_a_heat_card_in_the_deck_never_played_for_speed():
    """BGA's Garage pool holds Heat cards (Cards.php types 17 and 48, two copies each: heat_cards); one drafted
    goes into the player's deck (RaceTrait.php actChooseUpgrade, stFinishDraft) and is a Heat card as any:
    never played for speed (only where the hand has too few other cards), a Cooldown returns it to the
    Engine, where it pays Heat. The bots value every upgrade above it (draft.heat: one Heat against it)."""
    t = heat.tables(garage_module=True, track="france")
    race, st = heat.batch(t, ["hoarder", "robot", "cautious"], races=100, seed=4, profiles=HOARDER)
    took = st.drafted[:, 0, HEAT]
    assert took.any() and (took <= 3).all(), "the hoarder takes a Heat card whenever the market shows one"
    assert (st.drafted[:, 1:, HEAT] == 0).all(), "balanced and cautious take any upgrade over a Heat card"
    assert ((st.deck + st.hand)[:, 0, HEAT] == took).all() and (st.engine[:, 0] == 6).all(), "in the deck"
    st.hand[:, 0, HEAT] += st.deck[:, 0, HEAT]  # every drafted Heat card in hand
    st.deck[:, 0, HEAT] = 0
    plan_round(race, st)
    assert (st.play[:, 0, HEAT][~st.overheated[:, 0]] == 0).all() and not st.overheated[:, 0].any()
    race, st = heat.batch(t, ["hoarder", "robot", "cautious"], races=100, seed=4, profiles=HOARDER)  # whole races
    assert heat.play_race(race, st) == [], "the checker counts the drafted Heat among the car's Heat cards"
    whole = st.engine + (st.deck + st.hand + st.play + st.discard)[..., HEAT]
    assert (whole[:, 0] == 6 + took).all() and (whole[:, 1:] == 6).all()
    assert (st.cooled[took > 0, 0] > 0).all()


def test_garage_heat_cards_the_trace_names_a_drafted_heat_card(tmp_path):
    scenario = tmp_path / "hoarder.yaml"
    scenario.write_text(
        f"name: hoarder\ngame: heat\ncards: {heat.ROOT / 'heat.yaml'}\nplayers: 3\n"
        "bots: [hoarder, balanced, cautious]\n"
        f"bot_profiles: {{hoarder: {{noise: 0.0, draft: {dict.fromkeys(DRAFT_FEATURES, 0.0)}}}}}\n"
        "overrides: {rules.track: france, rules.garage_module: true}\ngames: 8\nseed: 4\n".replace("'", "")
    )
    traces = [get_game("heat").trace(load_scenario(scenario), 4, game) for game in range(8)]
    picks = [line for trace in traces for line in trace.splitlines() if line.startswith("  pick ")]
    assert len(picks) == 8 * 9
    assert any(line.endswith("takes Heat (heat)") for line in picks), picks


# --- Shift Gears and Play Cards ------------------------------------------------


def test_play_exactly_gear_many_cards_and_shift_by_at_most_two_paying_for_two():
    race, st = heat.batch(T, ["robot", "aggressive", "cautious", "random"], races=400, seed=2)
    before_gear, before_engine = st.gear.copy(), st.engine.copy()
    before_heat = st.discard[:, :, HEAT].copy()
    plan_round(race, st)
    shift = np.abs(st.gear.astype(int) - before_gear)
    assert (shift <= 2).all() and (shift == 2).any()
    paid = before_engine - st.engine
    assert (paid == np.where(shift == 2, 1, 0)).all(), "one gear free, two gears 1 Heat"
    assert (st.discard[:, :, HEAT] - before_heat == paid).all(), "paid Heat goes to the discard pile"
    played = st.play.sum(axis=2)
    assert (played[~st.overheated] == st.gear[~st.overheated]).all()
    assert (st.play[:, :, HEAT][~st.overheated] == 0).all(), "Heat cannot be played"


def test_too_few_playable_cards_play_heat_do_not_move_and_go_back_to_gear_one():
    race, st = heat.batch(T, ["robot", "robot"], races=3)
    heat.hand_of(T, st, 0, {"heat": 6, "speed_2": 1})
    st.engine[:, 0] = 0
    st.gear[:, 0] = 3
    _cars_on(st, np.arange(3), {0: (20, 0), 1: (5, 0)})
    plan_round(race, st)
    assert st.overheated[:, 0].all() and (st.gear[:, 0] >= 2).all()
    assert (st.play[:, 0, heat.card(T, "speed_2")] == 1).all() and (st.play[:, 0, HEAT] == st.gear[:, 0] - 1).all()
    car_turn(race, st, np.arange(3), np.zeros(3, int), np.zeros(3, bool))
    assert (st.pos[:, 0] == 20).all() and (st.gear[:, 0] == 1).all() and (st.overheats[:, 0] == 1).all()
    assert (st.play[:, 0] == 0).all() and (st.hand[:, 0].sum(axis=1) == 7).all(), "discarded, then replenished"


# --- Reveal and Move ---------------------------------------------------------------


def test_blocked_cars_take_the_first_free_spot_behind_race_line_first():
    race, st = heat.batch(T, ["robot"] * 5, races=1)
    _cars_on(st, 0, {1: (10, 0), 2: (10, 1), 3: (9, 0)})
    place(race, st, np.array([0]), np.array([0]), np.array([10]))
    assert (st.pos[0, 0], st.lane[0, 0]) == (9, 1), "space 10 is full: the free spot behind, beside car 3"
    place(race, st, np.array([0]), np.array([4]), np.array([10]))
    assert (st.pos[0, 4], st.lane[0, 4]) == (8, 0), "10 and 9 full: space 8, on the race line"
    _cars_on(st, 0, {1: (12, 1)})
    place(race, st, np.array([0]), np.array([0]), np.array([12]))
    assert (st.pos[0, 0], st.lane[0, 0]) == (12, 0), "one car on the space: take the free race line"


def test_turn_order_frontmost_first_race_line_ahead():
    race, st = heat.batch(T, ["robot"] * 4, races=1)
    _cars_on(st, 0, {0: (5, 1), 1: (9, 0), 2: (5, 0), 3: (7, 1)})
    assert turn_order(st)[0].tolist() == [1, 3, 2, 0]


# --- Adrenaline, React ------------------------------------------------------------------


def test_adrenaline_goes_to_the_last_car_and_the_last_two_with_five_or_six():
    assert T.rules.adrenaline_cars[2:].tolist() == [1, 1, 1, 2, 2, 2, 2], "and the last two of 7 or 8 (ours)"
    race, st = heat.batch(T, ["robot", "robot", "robot"], races=1, profiles=NO_BOOST)
    _cars_on(st, 0, {0: (30, 0), 1: (20, 0), 2: (2, 0)})
    st.hand[:, 2, HEAT] = 0
    heat.hand_of(T, st, 2, {"speed_1": 7})
    st.play[0, 2, heat.card(T, "speed_1")] = 1
    st.hand[0, 2, heat.card(T, "speed_1")] -= 1
    st.target[0, 2] = 40
    car_turn(race, st, np.array([0]), np.array([2]), np.array([True]))
    assert st.pos[0, 2] == 4 and st.adrenaline[0, 2] == 1, "speed 1 plus Adrenaline's extra space"


def test_cooldown_by_gear_moves_heat_from_hand_to_the_engine():
    race, st = heat.batch(T, ["robot", "robot"], races=2)
    assert T.rules.cooldown[1:].tolist() == [3, 1, 0, 0]
    heat.hand_of(T, st, 0, {"heat": 4, "speed_1": 3})
    st.engine[:, 0] = 2
    st.gear[:, 0] = [1, 2]
    st.play[:, 0, heat.card(T, "speed_1")] = st.gear[:, 0]
    st.hand[:, 0, heat.card(T, "speed_1")] -= st.gear[:, 0]
    _cars_on(st, np.arange(2), {0: (70, 0), 1: (60, 0)})  # a straight: no corner in reach
    car_turn(race, st, np.arange(2), np.zeros(2, int), np.zeros(2, bool))
    assert st.cooled[:, 0].tolist() == [3, 1]
    assert (st.engine[:, 0] >= np.array([5, 3]) - st.boosts[:, 0]).all()


def test_cooldown_from_cards_and_the_optional_discard_never_takes_stress_or_heat():
    race, st = heat.batch(T, ["robot", "robot"], races=1, profiles=NO_BOOST)
    cooling = heat.card(T, "cooling_system_2")  # speed 1, Cooldown 2
    heat.hand_of(T, st, 0, {"heat": 3, "stress": 1, "upgrade_0": 1, "speed_3": 1}, deck={"speed_1": 3, "speed_2": 3})
    st.play[0, 0, cooling] = 1
    st.gear[0, 0] = 3  # gear 3: no Cooldown of its own
    st.target[0, 0] = 40
    _cars_on(st, 0, {0: (60, 0), 1: (-20, 0)})
    car_turn(race, st, np.array([0]), np.array([0]), np.array([False]))
    assert st.cooled[0, 0] == 2 and st.engine[0, 0] == 6 + 2
    assert st.discard[0, 0, heat.card(T, "upgrade_0")] >= 1, "balanced drops cards worth less than 1 space"
    assert st.hand[0, 0, STRESS] == 1 and st.hand[0, 0, HEAT] == 1, "Stress and Heat stay in hand"


def test_boost_pays_one_heat_flips_to_a_basic_card_and_moves_that_far():
    race, st = heat.batch(T, ["robot", "robot"], races=200, profiles={"robot": {"boost": 1.0, "noise": 0.0}})
    heat.hand_of(T, st, 0, {"speed_2": 7}, deck={"upgrade_0": 1, "speed_3": 2, "stress": 1})
    st.gear[:, 0] = 3  # no Cooldown in gear 3
    st.play[:, 0, heat.card(T, "speed_2")] = 1
    st.hand[:, 0, heat.card(T, "speed_2")] -= 1
    st.target[:, 0] = 40
    _cars_on(st, np.arange(200), {0: (60, 0), 1: (-10, 0)})
    engine = st.engine[:, 0].copy()
    car_turn(race, st, np.arange(200), np.zeros(200, int), np.zeros(200, bool))
    assert (st.boosts[:, 0] == 1).all() and (st.engine[:, 0] == engine - 1).all()
    assert (st.pos[:, 0] == 60 + 2 + 3).all(), "the flip skips Speed 0 and Stress and stops at the Speed 3"


def test_stress_flips_until_a_basic_speed_card_the_others_discarded():
    race, st = heat.batch(T, ["robot"], races=300, seed=5)
    heat.hand_of(T, st, 0, {}, deck={"upgrade_0": 2, "heat": 1, "speed_4": 1})
    g, p = np.arange(300), np.zeros(300, int)
    added = flip(race, st, g, p, np.ones(300, int), "flip: played cards")
    assert (added == 4).all() and (st.play[:, 0, heat.card(T, "speed_4")] == 1).all()
    passed = st.discard[:, 0, heat.card(T, "upgrade_0")] + st.discard[:, 0, HEAT]
    assert (st.deck[:, 0].sum(axis=1) + passed == 3).all(), "the cards flipped past go to the discard"
    assert passed.mean() > 1, "the Speed 4 is anywhere in the deck: on average 1.5 cards come before it"


# --- Slipstream, corners --------------------------------------------------------------------


def test_slipstream_two_spaces_beside_or_behind_a_car_never_over_the_finish():
    race, st = heat.batch(T, ["robot", "robot"], races=3, profiles=NO_BOOST)
    heat.hand_of(T, st, 0, {"speed_1": 7})
    for g, (mine, theirs) in enumerate([(20, 21), (90, 90), (136, 137)]):
        _cars_on(st, g, {0: (mine - 1, 0), 1: (theirs, 0 if theirs != mine else 1)})
    st.play[:, 0, heat.card(T, "speed_1")] = 1
    st.hand[:, 0, heat.card(T, "speed_1")] -= 1
    st.gear[:, 0] = 3
    st.target[:, 0] = 40
    car_turn(race, st, np.arange(3), np.zeros(3, int), np.zeros(3, bool))
    assert st.pos[:, 0].tolist()[:2] == [22, 92], "behind (20 -> 22) and beside (90 -> 92)"
    assert st.pos[2, 0] == 136, "a slipstream from 136 would cross the finish line at 138: not allowed"
    assert st.slipstreams[:, 0].tolist() == [1, 1, 0]


def test_corner_heat_one_per_point_over_the_limit_and_each_corner_on_its_own():
    race, st = heat.batch(T, ["robot", "robot"], races=2)
    heat.hand_of(T, st, 0, {"speed_1": 2})
    st.gear[:, 0] = 3
    speed5, speed4 = heat.card(T, "upgrade_5"), heat.card(T, "speed_4")
    st.play[:, 0, speed5] = 1
    st.play[:, 0, speed4] = 1  # speed 9
    st.engine[:, 0] = 6
    _cars_on(st, np.arange(2), {0: (8, 0), 1: (-20, 0)})  # race 0: crosses the limit-7 line at 11
    _cars_on(st, 1, {0: (44, 0), 1: (-20, 0)})  # race 1: crosses the 3 at 48 and the 2 at 56? 44 + 9 = 53: one corner
    st.target[:, 0] = 9
    car_turn(race, st, np.arange(2), np.zeros(2, int), np.zeros(2, bool))
    assert st.corner_heat[:, 0].tolist() == [2, 6], "9 - 7 = 2; 9 - 3 = 6"
    assert (st.spin_outs[:, 0] == 0).all()
    c = course(T.tracks[0])
    assert c.heat_due(np.array([40]), np.array([60]), np.array([9])).tolist() == [6 + 7], "48 (3) and 56 (2)"


def test_unable_to_pay_spins_out_before_the_corner_with_stress_and_gear_one():
    race, st = heat.batch(T, ["robot", "robot", "robot"], races=2)
    heat.hand_of(T, st, 0, {"speed_1": 2})
    st.gear[:, 0] = [2, 4]
    st.play[:, 0, heat.card(T, "upgrade_5")] = 1
    st.play[:, 0, heat.card(T, "speed_4")] = 1  # speed 9 at the limit-3 corner of space 32
    st.engine[:, 0] = 2
    st.target[:, 0] = 9
    _cars_on(st, np.arange(2), {0: (26, 0), 1: (31, 0), 2: (31, 1)})  # space 31 is full
    car_turn(race, st, np.arange(2), np.zeros(2, int), np.zeros(2, bool))
    assert (st.spin_outs[:, 0] == 1).all() and (st.pos[:, 0] == 30).all(), "back to the first free space before 32"
    assert st.stress_added[:, 0].tolist() == [1, 2], "1 Stress in gears 1-2, 2 in gears 3-4"
    assert (st.gear[:, 0] == 1).all() and (st.engine[:, 0] == 2).all(), "no Heat paid for the corner it spun at"


def test_with_spin_out_heat_engine_a_car_that_spins_out_pays_all_its_engine_heat_first():
    """rules.spin_out_heat: engine (BGA's reading): the 2 Heat the car holds are paid (to its discard) for the
    corner it still cannot pay (6 owed at the limit-3 corner): it spins out all the same."""
    t = heat.tables(spin_out_heat="engine")
    race, st = heat.batch(t, ["robot", "robot"], races=1)
    heat.hand_of(t, st, 0, {"speed_1": 2})
    st.gear[:, 0] = 2
    st.play[:, 0, heat.card(t, "upgrade_5")] = 1
    st.play[:, 0, heat.card(t, "speed_4")] = 1  # speed 9 at the limit-3 corner of space 32
    st.engine[:, 0], st.target[:, 0] = 2, 9
    _cars_on(st, np.arange(1), {0: (26, 0), 1: (-20, 0)})
    car_turn(race, st, np.arange(1), np.zeros(1, int), np.zeros(1, bool))
    assert st.spin_outs[0, 0] == 1 and st.pos[0, 0] == 31 and st.gear[0, 0] == 1
    assert st.engine[0, 0] == 0 and st.heat_paid[0, 0] == 2 and st.corner_heat[0, 0] == 2, "to the discard"


# --- Legends ------------------------------------------------------------------------------------


def test_legends_move_by_their_colours_helmet_number_and_diamond_column():
    """The first Legend car is black. Card 10 gives black helmet 10 in column 0, card 1 helmet 16 in column 2,
    card 2 helmet 18 in column 3. Before the 11's Legend line (7): the helmet number, unless it would cross the
    line, then d spaces short of the space before it; past the Legend line: the limit (7) plus d; no corner
    before the finish (138): the helmet number."""
    race, st = heat.batch(T, ["legend", "robot"], races=4)
    _cars_on(st, np.arange(4), {0: (0, 0), 1: (-30, 0)})
    st.pos[:, 0] = [0, 0, 8, 130]
    cards = np.array([9, 0, 0, 1])
    legend_turn(race, st, np.arange(4), np.zeros(4, int), cards)
    assert st.pos[:, 0].tolist() == [0 + 10, 11 - 1 - 2, 8 + 7 + 2, 130 + 18]
    assert (st.heat_paid[:, 0] == 0).all()
    assert st.colour[0].tolist() == [0, -1], "a player's car has no Legend colour"


def test_legend_cars_take_the_colours_in_grid_order_and_pro_legends_add_to_every_helmet():
    """The second Legend car is blue: card 10 gives it 15 (column 2). Pro Legends +2: black's 10 becomes 12."""
    t = heat.tables(pro_legends=2)
    race, st = heat.batch(t, ["legend", "robot", "legend"], races=1)
    assert st.colour[0].tolist() == [0, -1, 1]
    _cars_on(st, 0, {0: (-5, 0), 1: (-30, 0), 2: (-20, 0)})
    legend_turn(race, st, np.array([0, 0]), np.array([0, 2]), np.array([9, 9]))
    assert st.pos[0, 0] == -5 + 10 + 2 and st.pos[0, 2] == -20 + 15 + 2


# --- Winning, whole races -------------------------------------------------------------------------


def test_finish_order_by_round_then_distance_then_race_line():
    race, st = heat.batch(T, ["robot"] * 4, races=1)
    st.finished[0] = [True, True, True, False]
    st.finish_round[0] = [12, 11, 11, 0]
    st.pos[0] = [150, 140, 140, 120]
    st.lane[0] = [0, 1, 0, 0]
    assert finish_order(st)[0].tolist() == [3, 2, 1, 4]


def test_whole_races_keep_the_rules_and_finish():
    races = 200
    for track, garage in (("usa", False), ("great_britain", True)):
        t = heat.tables(track=track, garage_module=garage)
        race, st = heat.batch(t, ["robot", "aggressive", "cautious", "random", "legend"], races=races, seed=9)
        broken = play_race(race, st)  # the rules checker (compiled rules.rule_broken) after every turn
        assert broken == []
        assert st.finished[:, [0, 1, 2, 4]].mean() > 0.99
        laps = t.tracks[t.rules.track].laps
        assert ((st.lap_round > 0).sum(axis=2)[st.finished] == laps).all()


def test_target_speed_keeps_below_a_corner_it_cannot_pay_for():
    race, st = heat.batch(T, ["cautious"], races=1)
    q = st.bots[0, :1]
    # 3 spaces before the limit-3 line at 32, no Heat to spare: stop short (2), or cross at 3
    assert target_speed(race, np.array([29]), np.array([0]), q).tolist() == [3]
    # far from the corner at 32 with no Heat: stop before it
    assert target_speed(race, np.array([12]), np.array([0]), q).tolist() == [19]


# --- Theory: a flip's exact law ------------------------------------------------------------------


@pytest.mark.statistical
def test_a_flip_shows_each_basic_card_by_its_share_and_passes_the_others_by_their_exact_law():
    """Drawing until a basic card: the card shown is uniform over the basic
    copies (P(speed 4) = 3/4 here), and the number of other cards passed over
    first is P(J = j) = [n_o! / (n_o - j)!] n_b / [N! / (N - j - 1)!]."""
    from math import perm

    from .test_exact_probability import SCALE, assert_chi_square

    n = int(20_000 * SCALE)
    race, st = heat.batch(T, ["robot"], races=n, seed=11)
    deck = {"speed_1": 1, "speed_4": 3, "upgrade_0": 2, "stress": 2, "heat": 1}
    heat.hand_of(T, st, 0, {}, deck=deck)
    st.discard[:, 0] = 0  # nothing to reshuffle in
    added = flip(race, st, np.arange(n), np.zeros(n, int), np.ones(n, int), "flip: played cards")
    n_b, n_o = 4, 5
    shown = np.array([np.sum(added == 1), np.sum(added == 4)])
    assert_chi_square("speed shown", [(np.array([0.25, 0.75]) * n, shown)])
    passed = st.discard[:, 0].sum(axis=1)
    law = np.array([perm(n_o, j) * n_b / perm(n_o + n_b, j + 1) for j in range(n_o + 1)])
    assert law.sum() == pytest.approx(1.0)
    assert_chi_square("cards passed over", [(law * n, np.bincount(passed, minlength=n_o + 1))])
