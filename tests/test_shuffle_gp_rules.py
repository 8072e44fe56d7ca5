"""Shuffle Grand Prix's rules, one test per rule of the rulebook
(../shared/seeds/002_1ef1e3a514a1bc24.txt) and of the readings in
docs/shuffle_gp.md, each named after its section; then whole games under the
rules checker, batched and one at a time, and determinism."""

from __future__ import annotations

from dataclasses import replace

import numpy as np
import pytest

from balance.games.chance import Streams
from balance.games.events import Events
from balance.games.shuffle_gp import compiled
from balance.games.shuffle_gp.bots import bot_table, resolve_profiles
from balance.games.shuffle_gp.log import chunk_tables, finish_order
from balance.games.shuffle_gp.state import total_distance

from . import shuffle_gp as sg
from .shuffle_gp import (
    T,
    card,
    deal_damage,
    discard_down,
    driver,
    options,
    pit_stop,
    play_card,
    play_game,
    remove_equip,
    remove_nerf,
    resolve_card,
    steal,
    take_turn,
)

ALL = np.arange(1)
HAND, TIRE = T.rules.hand_size, T.rules.tire_health


def seat(n: int, p: int) -> np.ndarray:
    return np.full(n, p, dtype=np.int64)


# --- Setup ---------------------------------------------------------------------------


def draft_order(st, g: int) -> list[int]:
    """Game g's seats in pick order (from the picks setup recorded)."""
    seat, _ = np.nonzero(st.draft_pick[g] > 0)
    return seat[np.argsort(st.draft_pick[g][st.draft_pick[g] > 0])].tolist()


def test_setup_driver_selection_order_clockwise_then_back():
    m, st = sg.batch(["robot", "random", "robot", "random"], games=200, seed=1)
    assert draft_order(st, int(np.flatnonzero(st.first == 0)[0])) == [0, 1, 2, 3, 3, 2, 1, 0]
    _, three = sg.batch(["robot", "random", "robot"], games=50, seed=1)
    assert draft_order(three, int(np.flatnonzero(three.first == 1)[0])) == [1, 2, 0, 0, 2, 1]
    G = 200
    for offset, picks in enumerate([(1, 8), (2, 7), (3, 6), (4, 5)]):
        p = (st.first.astype(int) + offset) % 4
        assert (np.sort(st.draft_pick[np.arange(G), p], axis=1) == picks).all()
    both = np.concatenate([st.driver, st.co_pilot], axis=1)
    assert all(len(set(row)) == 8 for row in both), "each driver goes to one player"
    assert len(set(st.first.tolist())) == 4, "the first player is the highest card, anyone"


def test_setup_decks_of_both_drivers_hand_three_tire_health_four():
    m, st = sg.batch(["robot", "robot", "random"], games=50, seed=2)
    assert (st.start.sum(axis=2) == 24).all(), "two drivers' 12 ability cards each"
    for p in range(3):
        expect = np.stack([T.cards.deck([a, b]) for a, b in zip(st.driver[:, p], st.co_pilot[:, p], strict=True)])
        assert (st.start[:, p] == expect).all()
    assert (st.hand.sum(axis=2) == HAND).all() and (st.draw + st.hand == st.start).all()
    assert (st.tire == TIRE).all() and (st.co_tire == TIRE).all()
    assert (st.deck.sum(axis=1) == 50).all() and (st.pool == T.rules.trophies).all()


# --- Play: the four phases --------------------------------------------------------------


def test_play_the_four_phases_draw_rotate_play_spend():
    m, st = sg.batch(
        ["spender", "robot"], games=20, seed=3, profiles={"spender": dict(sg.ROBOT, swap_below=4, extra_play=0.0)}
    )
    sg.set_car(st, 0, "ironside", "comet", {"comet_nudge": 3}, equip=[("comet_nitro", 2)], tire=2)
    sg.set_car(st, 1, "magpie", "blaze", {"blaze_swerve": 1, "magpie_slip_away": 1, "blaze_ram": 1})
    st.trophies[:, 0] = 3
    st.pool[:] -= 3
    st.current[:] = 0
    g, p = np.arange(20), seat(20, 0)
    take_turn(m, st, g, p)
    # 1: one distance card, Nitro's +25 on it
    assert (st.distance_drawn[:, 0] >= 1).all() and (st.bonus[:, 0] >= 25).all()
    # 2: Nitro's tracker turned
    assert (st.equip_left[:, 0, 0] == 1).all()
    # 3 and 4: Nudge played, then two trophies for one more play; a trophy swapped the drivers first
    assert (st.played[:, 0, card("comet_nudge")] >= 1).all() and (st.played[:, 0].sum(axis=1) == 2).all()
    assert (st.extra_plays[:, 0] == 1).all() and (st.swaps[:, 0] == 1).all()
    assert (st.trophies[:, 0] == 0).all() and (st.trophies_spent[:, 0] == 3).all() and (st.pool == 16).all()
    # the new driver starts at full health, less what the extra play may have cost it (a self-hurting card)
    assert (st.driver[:, 0] == driver("comet")).all() and (st.co_tire[:, 0] == 2).all()
    assert (st.tire[:, 0] == 4 - st.damage_taken[:, 0]).all()
    assert (st.damage_taken[:, 1] >= 1).all(), "Nudge hit the rival"
    assert (st.hand[:, 0].sum(axis=1) == HAND).all(), "the hand is back to three"


def test_play_hand_always_three_after_a_steal():
    m, st = sg.batch(["robot", "robot"], games=30, seed=4)
    sg.set_car(st, 0, "magpie", "ace", {"magpie_snatch": 3})
    sg.set_car(st, 1, "comet", "mender", {"comet_nudge": 3})
    g = np.arange(30)
    steal(m, st, g, seat(30, 0), seat(30, 1), np.ones(30, np.int32))
    assert (st.hand[:, 1].sum(axis=1) == HAND).all(), "the robbed player draws back up at once"
    discard_down(m, st, g, seat(30, 0))  # the stealer, once the card that stole is done
    assert (st.hand.sum(axis=2) == HAND).all()
    assert (st.stolen_in[:, 0, card("comet_nudge")] == 1).all() and (
        st.stolen_out[:, 1, card("comet_nudge")] == 1
    ).all()
    broken = sg.violations(st, T, m.bots)
    assert broken == [] or all("driver" in v for v in broken)


# --- Post-Setup: equip slots, pit stops ------------------------------------------------


def test_post_setup_two_equip_slots_and_the_pit_stop():
    m, st = sg.batch(["robot", "robot"], games=10, seed=5)
    sg.set_car(
        st, 0, "ironside", "comet", {"ironside_armour_plating": 1, "comet_nudge": 2},
        equip=[("ironside_roll_cage", 0), ("comet_nitro", 2)],
    )  # fmt: skip
    st.shield[:, 0, 0] = 2
    sg.stack(st, 0, [25, 100])
    g, p = np.arange(10), seat(10, 0)
    legal, _, _ = options(m, st, g, p)
    assert not legal[:, card("ironside_armour_plating")].any(), "no empty slot: the equip cannot be played"
    assert legal[:, len(T.cards.ids)].all(), "a pit stop can swap it in"
    pit_stop(m, st, g, p)
    assert (np.sort(st.equip[:, 0], axis=1) >= 0).all()
    assert (st.equip[:, 0] == card("ironside_armour_plating")).any(axis=1).all()
    assert (st.hand[:, 0].sum(axis=1) == HAND).all(), "the equip taken off goes to hand"
    assert (st.height[:, 0] == 1).all() and (st.bottom[:, 3] == 1).all(), "the top distance card (100) under the deck"


# --- Abilities: nerfs, traps, anytime -----------------------------------------------------


def test_abilities_nerf_sits_on_a_rival_car_for_its_turns_counted_on_its_owners_tracker():
    """Phase 2: "rotate a turn tracker if you have any ability cards with a
    turn symbol active": the trackers are the player's who put the card out
    (Setup 1), so a nerf of 2 turns loses one on each of its owner's turns and
    weighs on both of its victim's turns in between."""
    m, st = sg.batch(["robot", "robot"], games=10, seed=6)
    sg.set_car(st, 0, "comet", "ace", {"comet_headwind": 1, "comet_evasive_line": 2})
    sg.set_car(st, 1, "ironside", "gremlin", {"ironside_road_block": 2, "ironside_brace": 1})
    g = np.arange(10)
    take_turn(m, st, g, seat(10, 0))
    assert (st.nerf[:, 1, 0] == card("comet_headwind")).all() and (st.nerf_owner[:, 1, 0] == 0).all()
    assert (st.nerf_left[:, 1, 0] == 2).all()
    take_turn(m, st, g, seat(10, 1))
    assert (st.bonus[:, 1] == -25).all() and (st.nerf_left[:, 1, 0] == 2).all(), "-25 on the draw; the victim's turn"
    take_turn(m, st, g, seat(10, 0))
    assert (st.nerf_left[:, 1, 0] == 1).all(), "its owner's turn: one turn gone"
    take_turn(m, st, g, seat(10, 1))
    assert (st.bonus[:, 1] == -50).all()
    take_turn(m, st, g, seat(10, 0))
    assert (st.nerf[:, 1] < 0).all() and (st.discard[:, 0, card("comet_headwind")] == 1).all(), "home to its owner"
    assert (st.discard[:, 0, card("comet_headwind")] == 1).all(), "back to its owner's discard"


def test_abilities_traps_spring_on_anyone_including_the_owner():
    m, st = sg.batch(["robot", "robot"], games=10, seed=7)
    sg.set_car(st, 0, "comet", "snare", {"comet_evasive_line": 2, "snare_hold_fast": 1})
    sg.set_car(st, 1, "ace", "blaze", {"ace_bump_draft": 3})
    st.draw[:, 0, card("snare_spike_strip")] -= 1
    st.trap[:, 0], st.trap_owner[:, 0] = card("snare_spike_strip"), 0
    st.draw[:, 0, card("comet_exhaust_cloud")] -= 1
    st.trap[:, 1], st.trap_owner[:, 1] = card("comet_exhaust_cloud"), 0
    st.draw[:, 1, card("blaze_oil_fire")] -= 1
    st.trap[:, 2], st.trap_owner[:, 2] = card("blaze_oil_fire"), 1
    no_turbo(st, 1)  # Ace's turn-start draw could bring Turbo, played before the action
    oil_left = st.draw[:, 1, card("blaze_oil_fire")].copy()  # the other copy waits in the discard: no draw brings it
    st.draw[:, 1, card("blaze_oil_fire")] -= oil_left
    st.discard[:, 1, card("blaze_oil_fire")] += oil_left
    g = np.arange(10)
    take_turn(m, st, g, seat(10, 0))
    assert (st.tire[:, 0] == 1).all(), "its own draws_distance traps: Spike Strip 2 and Exhaust Cloud 1"
    assert (st.trap[:, :2] < 0).all() and (st.discard[:, 0, card("snare_spike_strip")] == 1).all()
    assert (st.traps_sprung[:, 0] == 2).all()
    take_turn(m, st, g, seat(10, 1))
    assert (st.tire[:, 1] == 1).all(), "its own Oil Fire (3) when it plays an action"
    assert (st.trap < 0).all() and (st.discard[:, 1, card("blaze_oil_fire")] == 1 + oil_left).all()


@pytest.mark.parametrize(("reading", "spite"), [("event_driver", True), ("active_driver", False)])
def test_specialty_of_the_driver_at_the_event_or_the_one_active_after_it(reading, spite):
    """Issue 36: Gremlin drives seat 1 with tire health 1; seat 0 deals it 1
    damage and spins it out, Magpie takes the wheel. rules.specialty_of:
    event_driver (default): Gremlin's Spite answers the damage (seat 0's top
    distance card goes under the deck); active_driver (the rulebook's "active
    as long as that driver is also active"): Gremlin is no longer active, and
    Magpie's specialty answers dealing damage, not taking it: nothing."""
    m, st = sg.batch(["robot", "robot"], games=4, seed=3)
    m.tables = replace(T, rules=replace(T.rules, specialty_of=reading))
    sg.set_car(st, 0, "comet", "ace", {"comet_nudge": 3})
    sg.set_car(st, 1, "gremlin", "magpie", {"gremlin_sabotage": 3}, tire=1)
    sg.stack(st, 0, [25, 100])
    deal_damage(m, st, np.arange(4), seat(4, 0), seat(4, 1), np.full(4, 1), 0)
    assert (st.driver[:, 1] == driver("magpie")).all(), "spun out: the co-pilot drives"
    assert (st.height[:, 0] == (1 if spite else 2)).all()


@pytest.mark.parametrize(("reading", "spite"), [(False, False), (True, True)])
def test_trap_damage_sets_off_damage_specialties_only_where_the_setting_says(reading, spite):
    """Issue 36: seat 0's Oil Fire (3 damage to whoever plays an action) springs
    on seat 1, Gremlin driving. rules.trap_damage_specialties: false (default,
    ours: a trap's effects set nothing off) leaves seat 0's stack; true: Spite
    answers the damage ("whoever damages you"): seat 0, the trap's owner, puts
    its top distance card under the deck. No trap springs from a trap either way."""
    m, st = sg.batch(["robot", "robot"], games=4, seed=3)
    m.tables = replace(T, rules=replace(T.rules, trap_damage_specialties=reading))
    sg.set_car(st, 0, "comet", "blaze", {"comet_nudge": 1})  # Comet drives: no Blaze damage bonus
    sg.set_car(st, 1, "gremlin", "magpie", {"gremlin_sabotage": 3})
    st.draw[:, 0, card("blaze_oil_fire")] -= 1
    st.trap[:, 0], st.trap_owner[:, 0] = card("blaze_oil_fire"), 0
    sg.stack(st, 0, [25, 100])
    sg.spring(m, st, np.arange(4), seat(4, 1), "plays_action")
    assert (st.tire[:, 1] == TIRE - 3).all() and (st.trap < 0).all()
    assert (st.height[:, 0] == (1 if spite else 2)).all()
    assert not m.springing


def no_turbo(st, seat: int = 0) -> None:
    """Ace's Racecraft draws its seat a card at the start of its turn: Turbo, the one
    card of its deck the robot would play before an action, waits in the discard."""
    st.draw[:, seat, card("ace_turbo")] -= 1
    st.discard[:, seat, card("ace_turbo")] += 1


@pytest.mark.parametrize("cancel", ["ironside_brace", "ironside_road_block"])
def test_abilities_anytime_replace_stops_it_for_everyone_avoid_only_for_you(cancel):
    m, st = sg.batch(["robot"] * 3, games=10, seed=10, profiles={"robot": dict(sg.ROBOT, cancel=1.0)})
    sg.set_car(st, 0, "ace", "blaze", {"blaze_flamethrower": 2, "blaze_swerve": 1})
    no_turbo(st)
    sg.set_car(st, 1, "comet", "ironside", {cancel: 1, "comet_nudge": 2})
    sg.set_car(st, 2, "mender", "gremlin", {"mender_patch": 2, "mender_bump": 1})
    take_turn(m, st, np.arange(10), seat(10, 0))
    assert (st.played[:, 0, card("blaze_flamethrower")] == 1).all()
    assert (st.played[:, 1, card(cancel)] == 1).all() and (st.hand[:, 1].sum(axis=1) == HAND).all()
    assert (st.tire[:, 1] == 4).all(), "the player of the cancel is safe either way"
    expect = 4 if cancel == "ironside_road_block" else 2
    assert (st.tire[:, 2] == expect).all(), "replace: nobody is hit; avoid: the others are"


# --- Spin-Out ------------------------------------------------------------------------


@pytest.mark.parametrize(("reading", "trophies"), [("final_blow", [0, 1, 0]), ("all_damagers", [0, 1, 1])])
def test_spin_out_its_six_consequences_and_a_trophy_to_every_causer_self_included(reading, trophies):
    """ "The player dealing the final blow will earn a trophy ... If a player
    manages to spin themselves out, they'll get a trophy for that, too." Seat 2
    hurts seat 1, then seat 1 deals itself the final blow: by default only seat 1
    gets a trophy; rules.spin_out_trophies: all_damagers gives seat 2 one too."""
    m, st = sg.batch(["robot"] * 3, games=5, seed=9)
    m.tables = replace(T, rules=replace(T.rules, spin_out_trophies=reading))
    sg.set_car(st, 0, "gremlin", "ace", {"gremlin_jinx": 2, "ace_dodge": 1})
    sg.set_car(st, 1, "comet", "mender", {"comet_nudge": 3}, equip=[("comet_nitro", 2)], tire=3)
    sg.set_car(st, 2, "blaze", "snare", {"blaze_swerve": 1, "snare_hold_fast": 1, "blaze_ram": 1})
    st.draw[:, 0, card("gremlin_sugar_tank")] -= 1
    st.nerf[:, 1, 0], st.nerf_owner[:, 1, 0], st.nerf_left[:, 1, 0] = card("gremlin_sugar_tank"), 0, 3
    sg.stack(st, 1, [25, 100])
    g = np.arange(5)
    deal_damage(m, st, g, seat(5, 2), seat(5, 1), np.full(5, 1), 0)  # Blaze: 1 + 1
    assert (st.tire[:, 1] == 1).all()
    deal_damage(m, st, g, seat(5, 1), seat(5, 1), np.full(5, 2), 0)  # then it hurts itself
    assert (st.equip[:, 1] < 0).all() and (st.discard[:, 1, card("comet_nitro")] >= 1).all(), "1 equips discarded"
    assert (st.discard[:, 1, card("comet_nudge")] == 3).all(), "2 the hand discarded"
    assert (st.nerf[:, 1] < 0).all() and (st.discard[:, 0, card("gremlin_sugar_tank")] == 1).all(), "3 nerfs home"
    assert (st.height[:, 1] == 1).all() and (st.bottom[:, 3] == 1).all(), "4 the top distance card under the deck"
    assert (st.driver[:, 1] == driver("mender")).all() and (st.co_pilot[:, 1] == driver("comet")).all(), "5 swap"
    assert (st.tire[:, 1] == TIRE).all(), "ours: the new driver at full tire health"
    assert st.immune[:, 1].all(), "6 immune until its next turn"
    assert (st.trophies[:, [0, 1, 2]] == trophies).all(), reading
    assert (st.hand[:, 1].sum(axis=1) == HAND).all(), "ours: the hand refilled at once"
    broken = sg.violations(st, T, m.bots)
    assert broken == [] or all("driver" in v for v in broken)
    take_turn(m, st, g, seat(5, 1))
    assert not st.immune[:, 1].any()


def test_immune_players_are_not_affected_by_actions():
    m, st = sg.batch(["robot"] * 2, games=5, seed=10)
    sg.set_car(st, 0, "ace", "blaze", {"blaze_flamethrower": 2, "blaze_swerve": 1})
    no_turbo(st)
    sg.set_car(st, 1, "comet", "mender", {"comet_nudge": 3})
    st.immune[:, 1] = True
    play_card(m, st, np.arange(5), seat(5, 0), np.full(5, card("blaze_flamethrower")))
    assert (st.played[:, 0, card("blaze_flamethrower")] == 1).all() and (st.tire[:, 1] == TIRE).all()
    # and the bot knows it: a hit on nobody is worth nothing, so it plays no Flamethrower
    take_turn(m, st, np.arange(5), seat(5, 0))
    assert (st.played[:, 0, card("blaze_flamethrower")] == 1).all()


# --- The effect vocabulary: ops not met above --------------------------------------------


def test_faq_a_shield_absorbs_its_value_then_tire_health_takes_the_rest():
    m, st = sg.batch(["robot"] * 2, games=3, seed=20)
    sg.set_car(st, 0, "ace", "comet", {"comet_nudge": 1})  # no damage bonus on the dealer's side
    sg.set_car(st, 1, "mender", "ace", {"ace_dodge": 1}, equip=[("mender_spare_tire", 0)])
    st.shield[:, 1, 0] = 2  # Spare Tire: shield 2
    g = np.arange(3)
    deal_damage(m, st, g, seat(3, 0), seat(3, 1), np.array([1, 2, 3]), 0)
    assert st.absorbed[:, 1].tolist() == [1, 2, 2] and st.tire[:, 1].tolist() == [TIRE, TIRE, TIRE - 1]
    assert st.equip[:, 1, 0].tolist() == [card("mender_spare_tire"), -1, -1], "a spent shield is discarded"
    assert (st.discard[1:, 1, card("mender_spare_tire")] == 1).all()


def test_skip_turn_skips_all_four_phases_of_the_next_turn():
    m, st = sg.batch(["robot"] * 2, games=2, seed=21)
    sg.set_car(st, 0, "gremlin", "ace", {"gremlin_detour": 1})
    sg.set_car(st, 1, "comet", "mender", {"comet_nudge": 3})
    sg.stack(st, 1, [100])  # seat 1 leads: Detour skips the leader's next turn
    g = np.arange(2)
    k = np.full(2, card("gremlin_detour"))
    resolve_card(m, st, g, seat(2, 0), k, seat(2, 1), seat(2, -1), 0)
    assert (st.skip[:, 1] == 1).all()
    drawn, hand = st.distance_drawn[:, 1].copy(), st.hand[:, 1].copy()
    take_turn(m, st, g, seat(2, 1))
    assert (st.distance_drawn[:, 1] == drawn).all() and (st.hand[:, 1] == hand).all(), "no draw, no play"
    assert (st.turns_skipped[:, 1] == 1).all() and (st.skip[:, 1] == 0).all()


def test_remove_equip_and_remove_nerf_send_cards_to_their_owners_discard():
    m, st = sg.batch(["robot"] * 2, games=2, seed=22)
    sg.set_car(st, 0, "magpie", "mender", {"magpie_bait": 1})
    sg.set_car(st, 1, "comet", "ironside", {"comet_nudge": 3}, equip=[("comet_nitro", 2), ("ironside_roll_cage", 0)])
    g = np.arange(2)
    remove_equip(m, st, g, seat(2, 0), seat(2, 1), np.array([1, 2]))
    assert (st.equip[0, 1] >= 0).sum() == 1 and (st.equip[1, 1] < 0).all(), "up to `amount` equips"
    assert st.discard[1, 1, [card("comet_nitro"), card("ironside_roll_cage")]].tolist() == [1, 1]
    # a nerf of seat 1's on seat 0's car goes home to seat 1
    st.nerf[:, 0, 0], st.nerf_owner[:, 0, 0], st.nerf_left[:, 0, 0] = card("ironside_roll_cage"), 1, 2
    remove_nerf(m, st, g, seat(2, 0), np.ones(2, np.int32))
    assert (st.nerf[:, 0] < 0).all() and (st.discard[:, 1, card("ironside_roll_cage")] >= 1).all()


# --- Winning --------------------------------------------------------------------------


def test_winning_the_race_ends_when_the_distance_deck_is_empty_after_the_drawers_turn():
    m, st = sg.batch(["robot", "robot"], games=4, seed=11)
    sg.set_car(st, 0, "ironside", "ace", {"ironside_road_block": 2, "ironside_brace": 1})
    sg.set_car(st, 1, "gremlin", "ace", {"gremlin_jinx": 2, "ace_dodge": 1})
    st.current[:] = 0
    st.deck[:] = 0
    st.deck[:, 0] = [1, 1, 0, 0]  # one card left in games 0-1 ...
    st.bottom[:, 0] = [0, 1, 1, 0]  # ... and one under the deck in games 1-2; game 3 draws nothing
    st.bottom_order[:, 0] = np.where(st.bottom[:, 0] > 0, 0, -1)  # the bottom pile's order: that one card
    st.deck[3, 1] = 1
    play_game(m, st)
    assert st.turn.tolist() == [1, 2, 1, 1] and not st.running.any()
    assert st.height.sum(axis=1).tolist() == [1, 2, 1, 1], "the drawer finishes its turn; the bottom pile counts"


def test_winning_ranking_by_distance_then_trophies():
    m, st = sg.batch(["robot"] * 3, games=1, seed=12)
    sg.stack(st, 0, [100])
    sg.stack(st, 1, [75])
    sg.stack(st, 2, [50, 25])
    st.bonus[0, 1] = 25
    st.trophies[0] = [0, 1, 3]
    assert total_distance(st, m.values)[0].tolist() == [100, 100, 75]
    assert finish_order(st, T)[0].tolist() == [2, 1, 3], "a tie on distance goes to the most trophies"


# --- Specialties -----------------------------------------------------------------------


def test_specialties_act_only_while_their_driver_drives():
    m, st = sg.batch(["robot"] * 2, games=5, seed=13)
    sg.set_car(st, 0, "comet", "gremlin", {"gremlin_jinx": 2, "comet_evasive_line": 1})
    sg.set_car(st, 1, "gremlin", "comet", {"gremlin_sabotage": 3})
    g = np.arange(5)
    take_turn(m, st, g, seat(5, 0))
    assert (st.bonus[:, 0] == 10).all(), "Comet drives: +10 a distance card"
    take_turn(m, st, g, seat(5, 1))
    assert (st.bonus[:, 1] == 0).all(), "Comet as co-pilot adds nothing"
    sg.stack(st, 0, [50])
    deal_damage(m, st, g, seat(5, 0), seat(5, 1), np.full(5, 1), 0)
    assert (st.distance_lost[:, 0] > 0).all(), "Gremlin's Spite: whoever hurts it loses its top card"


def test_specialties_sticky_fingers_and_field_repairs():
    m, st = sg.batch(["robot"] * 2, games=4, seed=23)
    g = np.arange(4)
    # Magpie drives: dealing damage also takes a card from the victim's hand
    sg.set_car(st, 0, "magpie", "comet", {"comet_nudge": 1})
    sg.set_car(st, 1, "comet", "ironside", {"comet_nudge": 2})
    deal_damage(m, st, g, seat(4, 0), seat(4, 1), np.ones(4, np.int32), 0)
    assert (st.stolen_in[:, 0].sum(axis=1) == 1).all() and (st.tire[:, 1] == TIRE - 1).all()
    # Mender drives: every action it plays heals it 1
    sg.set_car(st, 0, "mender", "comet", {"comet_nudge": 3}, tire=2)
    take_turn(m, st, g, seat(4, 0))
    assert (st.played[:, 0, card("comet_nudge")] >= 1).all() and (st.tire[:, 0] == 3).all()


# --- whole games: the rules checker, batched and one at a time; determinism -----------------

MIX = ["random", "balanced", "aggressive", "defensive"]


def run_checked(players: int, games: int, seed: int):
    bots = bot_table(resolve_profiles(None), MIX[:players], T)
    seats = (np.arange(players)[None, :] + np.arange(games)[:, None]) % players
    broken: list[str] = []  # the rules checker (compiled rules.rule_broken) after every turn
    events = Events()
    st = compiled.simulate(T, bots, seats, Streams(seed, 0, games), events=events, broken=broken)
    return st, broken, events, seats, bots


@pytest.mark.parametrize("players", [2, 3, 4])
def test_invariants_hold_in_a_batch(players):
    st, broken, events, seats, bots = run_checked(players, games=60, seed=players)
    assert broken == []
    assert not st.running.any() and (st.deck.sum(axis=1) + st.bottom.sum(axis=1) == 0).all()
    assert (st.turn < T.rules.max_turns).all(), "every game ends by running out of distance cards"
    tables = chunk_tables(st, events, seats, T, bots, 0, 0)
    assert tables["games"].num_rows == 60 and tables["players"].num_rows == 60 * players
    assert sum(tables["players"].column("won").to_pylist()) == 60, "one winner a game"
    ev = tables["cards"].column("event").to_pylist()
    assert ev.count("draft") == 60 * players * 2 and ev.count("play") > 0
    assert (st.spin_outs.sum() > 0) and (st.trophies_won.sum() == st.spins_caused.sum())


def test_invariants_hold_one_game_at_a_time():
    for seed in range(6):
        st, broken, *_ = run_checked(2 + seed % 3, games=1, seed=40 + seed)
        assert broken == [] and not st.running[0]


def test_same_seed_same_games():
    bots = bot_table(resolve_profiles(None), MIX, T)
    seats = np.tile(np.arange(4), (24, 1))
    a = compiled.simulate(T, bots, seats, Streams(7, 0, 24))
    b = compiled.simulate(T, bots, seats, Streams(7, 0, 24))
    for name in ("stack", "bonus", "trophies", "played", "driver", "damage_dealt", "turn"):
        assert np.array_equal(getattr(a, name), getattr(b, name)), name
    c = compiled.simulate(T, bots, seats, Streams(8, 0, 24))
    assert not np.array_equal(a.played, c.played)


def test_a_scenario_runs_a_chunk_and_traces_a_game(tmp_path):
    from balance.games.shuffle_gp import GAME
    from balance.scenario import load_scenario

    path = tmp_path / "s.yaml"
    path.write_text(
        f"name: sgp\ngame: shuffle_gp\ncards: {sg.ROOT / 'shuffle_gp.yaml'}\nplayers: 3\n"
        "bots: [balanced, aggressive, defensive]\ngames: 8\nchunk_size: 8\n"
    )
    scenario = load_scenario(path)
    prep = GAME.prepare(scenario)
    tables = GAME.play_chunk(prep, scenario, 0, 0, 8, Streams(1, 0, 8))
    assert tables["games"].num_rows == 8 and tables["players"].num_rows == 24
    text = GAME.trace(scenario, 1, 2)
    for phrase in ("pick 6:", "goes first", "Turn 1:", "plays", "draws a distance card", "race is over", "1. seat"):
        assert phrase in text, phrase
