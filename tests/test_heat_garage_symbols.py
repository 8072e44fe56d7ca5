"""The Garage symbols the facts left unclear, as BGA's Heat defines and applies
them (its Cards.php and React/Round states; docs/heat.md, docs/rules.md):
Direct Play (Gas Pedal, Front Wing), Refresh (Suspension, Air Intake, Front
Wing), Salvage (Fuel, Air Intake, Front Wing) and Accelerate (Gas Pedal,
4 Wheel Drive), one test a rule, on the compiled engine's phases
(tests/heat.py). USA: corner lines at 11 (limit 7) and 32 (limit 3); the
straight between them is where a move of a few spaces crosses no line."""

from __future__ import annotations

import numpy as np
import pytest

from . import heat
from .heat import car_turn, played
from .test_heat_rules import _cars_on

GARAGE = heat.tables(garage_module=True)  # the Garage pool: BGA's cards are in the race's tables
ROBOT = {"robot": {"noise": 0.0, "boost": 0.0}}  # no noise, no Boost: the moves are the cards'


def _turn(
    hand: dict,
    play: dict,
    gear: int,
    start: int,
    engine: int = 6,
    deck: dict | None = None,
    others: tuple = ((-20, 0),),
    discard: dict | None = None,
    **profile,
):
    """Car 0 (balanced, no noise, no Boost, `profile` on top) on `start` with this hand, deck (twelve
    Speed 1 by default), discard pile (if given) and these cards face down, its turn played; the other cars
    on `others` (one far behind by default)."""
    names = ["robot"] * (1 + len(others))
    race, st = heat.batch(GARAGE, names, races=1, profiles={"robot": ROBOT["robot"] | profile})
    heat.hand_of(GARAGE, st, 0, hand, deck=deck or {"speed_1": 12})
    if discard is not None:
        st.discard[:, 0] = 0
        for cid, n in discard.items():
            st.discard[:, 0, heat.card(GARAGE, cid)] = n
    played(GARAGE, st, 0, play, gear=gear)
    st.engine[:, 0] = engine
    _cars_on(st, 0, {0: (start, 0)} | {car + 1: spot for car, spot in enumerate(others)})
    car_turn(race, st, np.array([0]), np.array([0]), np.array([False]))
    return st


def _at(st, card_id: str, pile: str) -> int:
    return int(getattr(st, pile)[0, 0, heat.card(GARAGE, card_id)])


def test_direct_play_plays_a_card_from_the_hand_in_react_its_speed_and_icons_included():
    """Gas Pedal 3 (Speed 3, Direct Play, Scrap 3) in hand: played in React after a Speed 2, the car moves
    14 -> 16 -> 19; it is a played card (the logs' tally, the discard after the refill); its Scrap 3 takes
    three cards off the deck, the refill one more (the hand of 7 less the card played from it)."""
    st = _turn({"gas_pedal_3": 1, "speed_1": 6}, {"speed_2": 1}, gear=1, start=14)
    assert st.pos[0, 0] == 19
    assert _at(st, "gas_pedal_3", "played") == 1 and _at(st, "gas_pedal_3", "hand") == 0
    assert _at(st, "gas_pedal_3", "discard") == 1
    assert st.deck[0, 0].sum() == 12 - 3 - 1 and st.hand[0, 0].sum() == 7


@pytest.mark.parametrize(("engine", "plays"), [(0, False), (6, True)])
def test_direct_play_counts_at_the_corners_and_a_bot_plays_it_only_where_it_can_pay(engine, plays):
    """From 27 a Speed 2 stops on 29, before the line on 32 (limit 3); the Gas Pedal's 3 more would cross it
    at Speed 5, 2 Heat over: with an empty Engine the bot keeps the card in hand (no spin-out); with 6 Heat it
    plays it and pays the corner at the turn's whole Speed."""
    st = _turn({"gas_pedal_3": 1, "speed_1": 6}, {"speed_2": 1}, gear=1, start=27, engine=engine)
    assert st.spin_outs[0, 0] == 0
    assert st.pos[0, 0] == (32 if plays else 29)
    assert _at(st, "gas_pedal_3", "hand") == (0 if plays else 1)
    assert st.corner_heat[0, 0] == (2 if plays else 0)


def test_direct_play_is_not_made_for_speed_that_moves_the_car_no_space():
    """From 14 a Speed 2 ends on 16; Gas Pedal 1 would take it to 17, where two cars stand (both lanes): it
    would stop on 16 again, its Speed counted at the corners for nothing, so the bot keeps the card (then
    slipstreams past them: 16 -> 18)."""
    st = _turn({"gas_pedal_1": 1, "speed_1": 6}, {"speed_2": 1}, gear=1, start=14, others=((17, 0), (17, 1)))
    assert _at(st, "gas_pedal_1", "hand") == 1 and st.played[0, 0].sum() == 1 and st.pos[0, 0] == 18


def test_scrap_reshuffles_the_discard_pile_when_the_deck_runs_out():
    """Gas Pedal 5 (Direct Play, Scrap 5) with 2 cards in the deck: those 2, then the discard pile (six Speed 2
    and the 2 scrapped) shuffled in as a new deck, 3 more (BGA's scrap); the refill draws one: 8 - 3 - 1 left."""
    st = _turn(
        {"gas_pedal_5": 1, "speed_1": 6}, {"speed_2": 1}, gear=1, start=14, deck={"speed_1": 2}, discard={"speed_2": 6}
    )
    assert _at(st, "gas_pedal_5", "played") == 1 and st.deck[0, 0].sum() == 8 - 3 - 1


def test_direct_play_pays_the_cards_heat_and_applies_its_cooldown():
    """Gas Pedal 4 (Speed 4, Direct Play, 1 Heat, Cooldown 1) with a Heat card in hand, in gear 4 (no
    Cooldown of its own): 1 Heat from the Engine, and the card's Cooldown returns the Heat card from the hand."""
    st = _turn({"gas_pedal_4": 1, "heat": 1, "speed_1": 5}, {"speed_1": 4}, gear=4, start=14, engine=3)
    assert st.pos[0, 0] == 14 + 4 + 4
    assert st.heat_paid[0, 0] == 1 and st.cooled[0, 0] == 1 and st.engine[0, 0] == 3 - 1 + 1


def test_refresh_puts_a_played_card_on_top_of_the_deck_and_the_refill_draws_it_first():
    """Suspension 4 (Speed 4, Refresh) played: back in the hand at the refill, not on the discard pile; the
    hand of 6 is full again with it, so nothing is drawn."""
    st = _turn({"speed_1": 6}, {"suspension_4": 1}, gear=1, start=14)
    assert st.pos[0, 0] == 18
    assert _at(st, "suspension_4", "hand") == 1 and _at(st, "suspension_4", "discard") == 0
    assert st.deck[0, 0].sum() == 12


def test_refresh_waits_for_heat_to_spare_in_the_engine():
    """A refreshed card is a card not drawn, and the draws bring Heat back to the hand: with 3 Heat (the
    robot's reserve of 1 plus 2) the Suspension goes to the discard pile; with 4 it is refreshed."""
    low = _turn({"speed_1": 6}, {"suspension_4": 1}, gear=1, start=14, engine=3)
    spare = _turn({"speed_1": 6}, {"suspension_4": 1}, gear=1, start=14, engine=4)
    assert _at(low, "suspension_4", "discard") == 1 and _at(low, "suspension_4", "hand") == 0
    assert _at(spare, "suspension_4", "hand") == 1


def test_refresh_is_taken_only_for_a_card_the_bot_would_keep_in_hand():
    """Suspension 1 (Speed 1, Refresh, slipstream +1): a bot that discards cards worth less than 2 spaces
    lets it go to the discard pile; one that keeps them (below 1) refreshes it."""
    keeps = _turn({"speed_1": 6}, {"suspension_1": 1}, gear=1, start=14, discard_below=1.0)
    drops = _turn({"speed_4": 6}, {"suspension_1": 1}, gear=1, start=14, discard_below=2.0)
    assert _at(keeps, "suspension_1", "hand") == 1
    assert _at(drops, "suspension_1", "hand") == 0 and _at(drops, "suspension_1", "discard") == 1


def test_a_refreshed_card_the_refill_has_no_room_for_stays_in_the_deck():
    """A full hand of 7 before the refill (the card played came from elsewhere): the refreshed Suspension
    goes to the deck (our deck has no top: the next draws find it at random), not the hand nor the discard."""
    st = _turn({"speed_1": 7}, {"suspension_4": 1}, gear=1, start=14)
    assert _at(st, "suspension_4", "hand") == 0 and _at(st, "suspension_4", "discard") == 0
    assert _at(st, "suspension_4", "deck") == 1 and st.hand[0, 0].sum() == 7


def _salvage(discard: dict, engine: int = 6):
    """Car 0 plays Fuel 1 (Speed 2, Salvage 2) with this discard pile and Engine."""
    race, st = heat.batch(GARAGE, ["robot", "robot"], races=1, profiles=ROBOT)
    heat.hand_of(GARAGE, st, 0, {"speed_1": 6}, deck={"speed_1": 12})
    st.discard[:, 0] = 0
    for cid, n in discard.items():
        st.discard[:, 0, heat.card(GARAGE, cid)] = n
    st.engine[:, 0] = engine
    played(GARAGE, st, 0, {"fuel_1": 1}, gear=1)
    _cars_on(st, 0, {0: (14, 0), 1: (-20, 0)})
    car_turn(race, st, np.array([0]), np.array([0]), np.array([False]))
    return st


def test_salvage_shuffles_the_best_cards_of_the_discard_into_the_deck_never_stress():
    """Two Speed 4, three Speed 1 and a Stress on the discard pile: the two Speed 4 go into the draw deck
    (the refill may draw one of them); the Speed 1 and the Stress stay."""
    st = _salvage({"speed_4": 2, "speed_1": 3, "stress": 1})
    assert _at(st, "speed_4", "discard") == 0 and _at(st, "speed_4", "deck") + _at(st, "speed_4", "hand") == 2
    assert _at(st, "stress", "discard") == 1 and _at(st, "speed_1", "discard") == 3


@pytest.mark.parametrize(("discard", "engine"), [({"heat": 1}, 6), ({}, 3)])
def test_salvage_waits_while_heat_lies_on_the_discard_pile_or_the_engine_runs_low(discard, engine):
    """Cards salvaged into the deck put off the reshuffle that brings the discard pile's Heat back: a bot
    salvages nothing while Heat lies there, nor with only its reserve (1) and 2 more in the Engine."""
    st = _salvage({"speed_4": 2} | discard, engine)
    assert _at(st, "speed_4", "discard") == 2


def test_accelerate_adds_a_space_for_each_card_flipped_this_turn():
    """4 Wheel Drive 4 ("+", Accelerate) with a Speed 2: its flip turns a Speed 1 (the deck holds only
    those), and Accelerate adds 1 for that flip: 14 -> 17 -> 18. With a Stress card played too, two flips:
    Speed 4, then +2."""
    one = _turn({"speed_1": 6}, {"four_wheel_drive_4": 1, "speed_2": 1}, gear=2, start=14)
    two = _turn({"speed_1": 5}, {"four_wheel_drive_4": 1, "stress": 1, "speed_2": 1}, gear=3, start=14)
    assert one.pos[0, 0] == 14 + 3 + 1
    assert two.pos[0, 0] == 14 + 4 + 2


def test_accelerate_does_not_count_the_flip_of_a_card_whose_heat_was_not_paid():
    """Wings 3 (6, 2 Heat) with an empty Engine is discarded and a random speed card played instead: a flip,
    but no Boost symbol, which BGA's Accelerate counts (RoundTrait's flipped cards): 4 Wheel Drive 4's own "+"
    is the one flip it counts (14 -> 16, +1)."""
    st = _turn({"speed_1": 5}, {"four_wheel_drive_4": 1, "wings_3": 1}, gear=2, start=14, engine=0)
    assert st.pos[0, 0] == 14 + 1 + 1 + 1


def test_bgas_garage_cards_are_the_pool_and_none_is_approximate():
    """The Garage pool holds BGA's base cards (Cards.php 1-16 and 18-47: 46 designs, two copies each), each
    modelled: Fuel (Salvage), Gas Pedal (Direct Play, Scrap; the fifth Accelerate), Suspension (Refresh), the
    fourth 4 Wheel Drive; and its types 17 and 48, Heat cards, as the Heat card (test_heat_data)."""
    c = GARAGE.cards
    pool = {cid: int(n) for cid, n in zip(c.ids, c.pool, strict=True) if n}
    assert pool.pop("heat") == 4
    assert len(pool) == 46 and set(pool.values()) == {2}
    assert {"fuel_1", "gas_pedal_5", "suspension_3", "four_wheel_drive_4"} <= set(pool)
    assert not [cid for cid in pool if c.approximate[heat.card(GARAGE, cid)]]


def test_the_draft_values_each_symbol_in_the_unit_of_the_feature_it_is_nearest():
    """Accelerate: a space for each of the card's own flips (a Boost's are the turn's choice); Super Cool as
    Cooldown; Draft as slipstream's extra spaces; Direct Play a basic card's mean Speed (the gear slot it does
    not take), weighed 0 by the built-in profiles (measured: it lost them the France Garage, docs/bots.md)."""
    from balance.games.heat.bots import DRAFT_FEATURES, bot_table, expected_flip, resolve_profiles, upgrade_features

    both = heat.tables(garage_module=True, expansions=["heavy_rain", "tunnel_vision"])
    features, ids = upgrade_features(both), list(both.cards.ids)

    def feature(card: str, name: str) -> float:
        return float(features[ids.index(card), DRAFT_FEATURES.index(name)])

    assert feature("four_wheel_drive_4", "accelerate") == 1 and feature("gas_pedal_5", "accelerate") == 0
    assert feature("gas_pedal_5", "direct_play") == pytest.approx(expected_flip(both)) and expected_flip(both) > 0
    assert feature("gas_pedal_4", "direct_play") == feature("gas_pedal_5", "direct_play")
    assert feature("air_intake_3", "super_cool") == 1 and feature("front_wing_1", "draft") == 3
    assert feature("front_wing_1", "slipstream") == 0 and feature("air_intake_3", "cooldown") == 1
    profiles = resolve_profiles(None)
    value = bot_table(profiles, ["balanced"], both).upgrade_value[0]
    balanced = profiles["balanced"].draft
    assert balanced.direct_play == 0 and balanced.accelerate == balanced.speed and balanced.draft == balanced.slipstream
    # 4 Wheel Drive 4 (a flip, Accelerate) is worth a space more than the flip alone, Air Intake 3 a Cooldown more
    flip = balanced.speed * expected_flip(both)
    assert value[ids.index("four_wheel_drive_4")] == pytest.approx(flip + balanced.accelerate)
