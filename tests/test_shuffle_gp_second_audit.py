"""The second audit of the Shuffle Grand Prix engine (issue 41): each test is
named after the rule or the bot's own value it checks, and failed before the
fix (rulebook: ../shared/seeds/002_1ef1e3a514a1bc24.txt; readings:
docs/rules.md)."""

from __future__ import annotations

from dataclasses import replace

import numpy as np
import pytest

from balance.games.recorder import Recorder

from . import shuffle_gp as sg
from .shuffle_gp import (
    PASS,
    REDRAW,
    SPIN_OUT_DREAD,
    T,
    card,
    deal_damage,
    options,
    pit_stop,
    play_card,
    play_phase,
    play_worth,
    redraw,
    take_turn,
    worst_in_hand,
)

HAND = T.rules.hand_size
K = len(T.cards.ids)


def seat(n: int, p: int) -> np.ndarray:
    return np.full(n, p, np.int64)


def set_trap(st, slot: int, card_id: str, owner: int) -> None:
    st.draw[:, owner, card(card_id)] -= 1
    st.trap[:, slot], st.trap_owner[:, slot], st.trap_left[:, slot] = card(card_id), owner, 0


def hand_of(st, g: int, p: int) -> dict[str, int]:
    return {T.cards.ids[k]: int(n) for k, n in enumerate(st.hand[g, p]) if n}


# --- 1. turn symbols: a one-turn nerf blocks the turn it is meant to block ----------------


def test_play_phase_2_a_one_turn_nerf_blocks_its_victims_next_turn():
    """Butterfingers: "For 1 turn, this car's player cannot play action, equip,
    trap or nerf cards". Its turn symbol is counted on its owner's turn
    tracker (phase 2 of the owner's turns), so it sits on the victim's car
    through the victim's next turn, which plays none of those, and goes home
    on its owner's next turn. Before, the victim's own phase 2 ran it out
    before its play phase read it (579 of 712 such turns in 1,000 games)."""
    G = 12
    m, st = sg.batch(["robot", "robot"], games=G, seed=41)
    sg.set_car(st, 0, "magpie", "ace", {"magpie_butterfingers": 1, "ace_bump_draft": 2})
    sg.set_car(st, 1, "blaze", "comet", {"blaze_ram": 2, "blaze_flamethrower": 1})
    st.current[:] = 0
    g = np.arange(G)
    play_card(m, st, g, seat(G, 0), np.full(G, card("magpie_butterfingers")))
    assert (st.nerf[:, 1] == card("magpie_butterfingers")).any(axis=1).all()
    st.current[:] = 1
    take_turn(m, st, g, seat(G, 1))
    blocked = [card("blaze_ram"), card("blaze_flamethrower")]
    assert (st.played[:, 1, blocked] == 0).all(), "the victim's turn is blocked"
    assert (st.nerf[:, 1] == card("magpie_butterfingers")).any(axis=1).all(), "still there after it"
    st.current[:] = 0
    take_turn(m, st, g, seat(G, 0))
    assert (st.nerf[:, 1] < 0).all(), "gone on its owner's next turn"
    assert (st.discard[:, 0, card("magpie_butterfingers")] == 1).all(), "home to its owner's discard"


# --- 2. play, draw, then the card's own draws, then discard down to three -----------------


@pytest.mark.parametrize(("card_id", "extra"), [("ironside_shoulder_charge", 1), ("snare_set_up", 2)])
def test_play_draw_a_card_then_the_cards_own_draws_then_discard_down_to_three(card_id, extra):
    """ "If you play a card during your turn, draw a card" comes first, so a
    card's own "draw an ability card, then discard down to three" draws on top
    of a full hand and discards as many: Shoulder Charge 1, Set Up 2. Before,
    the hand was refilled only after the card, so its own draw was the draw
    every card gets and nothing was discarded (2,908 of 3,225 such draws)."""
    G = 16
    m, st = sg.batch(["robot", "robot"], games=G, seed=42)
    drv = card_id.split("_")[0]
    co = "comet" if drv != "comet" else "ace"
    sg.set_car(st, 0, drv, co, {card_id: 1, "comet_nudge": 2})
    sg.set_car(st, 1, "mender", "ace", {"ace_bump_draft": 3})
    st.current[:] = 0
    before = st.discard[:, 0].sum(axis=1).copy()
    play_card(m, st, np.arange(G), seat(G, 0), np.full(G, card(card_id)))
    assert (st.hand[:, 0].sum(axis=1) == HAND).all()
    assert (st.discard[:, 0].sum(axis=1) - before == 1 + extra).all(), "the card played, and the cards discarded"


def test_play_a_snatch_on_ones_own_turn_makes_four_cards_and_discards_down_to_three():
    """ "If you steal a card from another player resulting in four cards in
    your hand, discard down to three": Snatch played on one's own turn draws
    first, then steals the fourth card, then discards one. Before, the hand
    stood at two when the steal came and never reached four."""
    G = 16
    m, st = sg.batch(["robot", "robot"], games=G, seed=43)
    # Ace drives: Magpie's Sticky Fingers would steal a second card on the hit
    sg.set_car(st, 0, "ace", "magpie", {"magpie_snatch": 1, "ace_bump_draft": 2})
    sg.set_car(st, 1, "mender", "comet", {"comet_nudge": 3})
    st.current[:] = 0
    play_card(m, st, np.arange(G), seat(G, 0), np.full(G, card("magpie_snatch")))
    assert (st.stolen_in[:, 0].sum(axis=1) == 1).all()
    assert (st.hand[:, 0].sum(axis=1) == HAND).all()
    assert (st.discard[:, 0].sum(axis=1) == 2).all(), "Snatch itself and the card discarded down to three"


def test_a_trace_shows_each_card_discarded_down_to_three():
    m, st = sg.batch(["robot", "robot"], games=1, seed=44)
    m.rec = Recorder(0)
    sg.set_car(st, 0, "snare", "comet", {"snare_set_up": 1, "comet_nudge": 2})
    st.current[:] = 0
    play_card(m, st, np.arange(1), seat(1, 0), np.full(1, card("snare_set_up")))
    assert sum("seat 0 discards" in line and "(down to 3)" in line for line in m.rec.lines) == 2


# --- 3. Second Wind's extra play is an ability card ----------------------------------------


def test_second_wind_plays_one_more_ability_card_not_a_discard_and_draw():
    """Second Wind: "you may play one more ability card this turn". A bot that
    would rather discard and draw (its `redraw` worth 50) must still play a
    card with it, as with the two trophies' extra play. Before, the extra play
    went to a discard-and-draw."""
    G = 8
    m, st = sg.batch(["redrawer", "robot"], games=G, seed=45, profiles={"redrawer": dict(sg.ROBOT, redraw=50.0)})
    sg.set_car(st, 0, "ace", "comet", {"ace_second_wind": 1, "comet_nudge": 2})
    sg.set_car(st, 1, "mender", "ironside", {"ironside_shoulder_charge": 3})
    st.current[:] = 0
    g, p = np.arange(G), seat(G, 0)
    assert (options(m, st, g, p).score.argmax(axis=1) == K + REDRAW).all(), "alone, it would redraw"
    play_card(m, st, g, p, np.full(G, card("ace_second_wind")))
    assert (st.card_plays == 1).all()
    play_phase(m, st, g, p)
    assert (st.played[:, 0].sum(axis=1) == 2).all(), "Second Wind and one more ability card"


# --- 4. a pit stop equips a card: it springs "the next player to equip" --------------------


@pytest.mark.parametrize("reading", [True, False])
def test_a_pit_stop_equips_a_card_and_springs_bait_where_the_setting_says(reading):
    """Bait: "The next player to equip a card loses an equip and a card from
    their hand to you". A pit stop swaps an equip in: rules.pit_stop_equips
    true (default) springs Bait, false (the old reading) does not."""
    G = 6
    m, st = sg.batch(["robot", "robot"], games=G, seed=46)
    m.tables = replace(T, rules=replace(T.rules, pit_stop_equips=reading))
    sg.set_car(
        st, 0, "ironside", "comet", {"ironside_armour_plating": 1, "comet_nudge": 2},
        equip=[("ironside_roll_cage", 0), ("comet_nitro", 2)],
    )  # fmt: skip
    sg.set_car(st, 1, "magpie", "ace", {"ace_bump_draft": 3})
    set_trap(st, 0, "magpie_bait", owner=1)
    sg.stack(st, 0, [25, 100])
    st.current[:] = 0
    pit_stop(m, st, np.arange(G), seat(G, 0))
    assert (st.traps_sprung[:, 0] == (1 if reading else 0)).all()
    assert (st.stolen_in[:, 1].sum(axis=1) == (1 if reading else 0)).all()


# --- 5. a bot does not spin itself out on its own trap ------------------------------------


def test_a_bot_does_not_play_an_action_into_its_own_oil_fire_with_blaze_driving():
    """Oil Fire (3 damage to the next player to play an action), laid by the
    bot itself, Blaze driving (+1 to each damage it deals): the trap's damage
    is its owner's, so it does 4 and spins the bot out at full tire health.
    The self-harm estimate counts the owner's bonus now: the action is dreaded
    and not played. Before, 111 of 196 own-trap spin-outs in 1,000 games were
    this case."""
    G = 8
    m, st = sg.batch(["robot", "robot"], games=G, seed=47)
    sg.set_car(st, 0, "blaze", "comet", {"blaze_ram": 1, "comet_nudge": 1, "blaze_spiked_hubcaps": 1})
    sg.set_car(st, 1, "mender", "ace", {"ace_bump_draft": 3})
    set_trap(st, 0, "blaze_oil_fire", owner=0)
    st.current[:] = 0
    g, p = np.arange(G), seat(G, 0)
    worth = play_worth(m, st, g, p)
    for action in ("blaze_ram", "comet_nudge"):
        assert (worth[:, card(action)] <= m.bots.card_value[0, card(action)] - SPIN_OUT_DREAD + 1e-5).all()
    choice = options(m, st, g, p).score.argmax(axis=1)
    assert not np.isin(choice, [card("blaze_ram"), card("comet_nudge")]).any()


def test_a_bot_counts_snares_jaws_on_a_trap_it_would_spring():
    """Snare driving the trap's owner adds 1 to a sprung trap's damage (Jaws):
    a Spike Strip (2 on a distance draw) does 3 to a bot at tire health 3, so
    Slipstream (draw a distance card) would spin it out. (The harm, 3, read
    from the dread of a spin-out in the card's worth: there at tire health 3,
    not at 4.)"""
    G = 4
    m, st = sg.batch(["robot", "robot"], games=G, seed=48)
    sg.set_car(st, 0, "comet", "ace", {"comet_nudge": 3}, tire=3)
    sg.set_car(st, 1, "snare", "mender", {"mender_patch": 2, "mender_bump": 1})
    set_trap(st, 0, "snare_spike_strip", owner=1)
    slip = card("snare_slipstream")
    st.hand[:, 0, slip] = 1  # Snare's card, as if stolen (a hand of four: worth only)
    value = m.bots.card_value[0, slip]
    harm = {}
    for tire in (3, 4):
        st.tire[:, 0] = tire
        worth = play_worth(m, st, np.arange(G), seat(G, 0), now=False)[:, slip]
        assert np.allclose(worth, value - SPIN_OUT_DREAD) or np.allclose(worth, value)
        harm[tire] = np.isclose(worth, value - SPIN_OUT_DREAD)  # harm >= tire health
    assert harm[3].all() and not harm[4].any(), "harm 3: at least 3, less than 4"


# --- 6. a discard-and-draw throws away the card it was priced on --------------------------


def test_a_discard_and_draw_throws_away_the_card_its_worth_was_priced_on():
    """At tire health 2 Redline (2 damage to oneself) would spin the bot out:
    the discard-and-draw is worth `redraw` less Redline's dreaded worth, and it
    throws Redline away. Before, it was priced on Redline and then threw away
    the card worth least without the dread (6,167 of 11,182 such redraws in
    1,000 duels)."""
    G = 8
    m, st = sg.batch(["robot", "robot"], games=G, seed=49)
    sg.set_car(st, 0, "comet", "ace", {"comet_redline": 1, "comet_nudge": 1, "ace_bump_draft": 1}, tire=2)
    sg.set_car(st, 1, "mender", "ironside", {"ironside_shoulder_charge": 3})
    st.current[:] = 0
    g, p = np.arange(G), seat(G, 0)
    opt = options(m, st, g, p)
    assert (worst_in_hand(st, g, p, opt.worth) == card("comet_redline")).all()
    priced = m.bots.redraw[0] - opt.worth[:, card("comet_redline")]
    assert np.allclose(opt.score[:, K + REDRAW], priced)
    redraw(m, st, g, p, opt.worth)
    assert (st.discard[:, 0, card("comet_redline")] == 1).all()


# --- 7. a play that can do nothing is worth nothing ---------------------------------------


def test_a_play_that_can_change_nothing_is_worth_nothing():
    """Detour on a leader who is immune, Switcheroo with a leader whose top
    card is lower, Full Service at full health with no nerf, Bump (1 damage)
    into Ironside's armour (1 less): each is worth exactly 0 to play, and
    worth something where it does change something. Before, each kept its
    card worth."""
    G = 2
    m, st = sg.batch(["robot", "robot"], games=G, seed=50)
    sg.set_car(st, 0, "gremlin", "magpie", {"gremlin_detour": 1, "magpie_switcheroo": 1})
    sg.set_car(st, 1, "ironside", "comet", {"comet_nudge": 3})
    st.hand[:, 0, card("mender_bump")] = 1  # Mender's cards, as if stolen (a hand of four: worth only)
    st.hand[:, 0, card("mender_full_service")] = 1
    sg.stack(st, 0, [100])
    sg.stack(st, 1, [25, 50])  # seat 1 leads; its top card (50) is lower than seat 0's (100)
    g, p = np.arange(G), seat(G, 0)
    idle = ["gremlin_detour", "magpie_switcheroo", "mender_full_service", "mender_bump"]
    st.immune[0, 1] = True  # game 0: the leader is immune; game 1: it is not
    worth = play_worth(m, st, g, p)
    assert (worth[0, [card(c) for c in idle]] == 0).all()
    assert worth[1, card("gremlin_detour")] > 0, "a leader who can be skipped"
    st.driver[1, 1] = sg.driver("comet")  # no armour: Bump hurts
    sg.stack(st, 0, [25])
    sg.stack(st, 1, [25, 100])  # a top card above seat 0's: the swap gains
    st.tire[1, 0] = 1
    worth = play_worth(m, st, g, p)
    assert worth[1, card("mender_bump")] > 0 and worth[1, card("magpie_switcheroo")] > 0
    assert worth[1, card("mender_full_service")] > 0, "health to heal"


def test_a_bot_passes_over_a_card_that_can_change_nothing():
    """With only Detour and Sabotage, and the one rival immune, no card would
    change anything: the noise-free bot plays none of them."""
    G = 4
    m, st = sg.batch(["robot", "robot"], games=G, seed=51)
    sg.set_car(st, 0, "gremlin", "magpie", {"gremlin_detour": 1, "gremlin_sabotage": 2})
    sg.set_car(st, 1, "comet", "ace", {"comet_nudge": 3})
    sg.stack(st, 1, [100])
    st.immune[:, 1] = True  # the only rival: Detour's skip and Sabotage's discard reach nobody
    choice = options(m, st, np.arange(G), seat(G, 0)).score.argmax(axis=1)
    assert np.isin(choice, [K + REDRAW, K + PASS]).all()


# --- the trace ----------------------------------------------------------------------------


def test_a_specialty_that_hits_nobody_is_not_said_to_act():
    """Gremlin's Spite answers damage by putting the damager's top distance
    card under the deck; damage Gremlin's player deals itself has no damager
    to answer: the trace says nothing of Spite."""
    m, st = sg.batch(["robot", "robot"], games=1, seed=52)
    m.rec = Recorder(0)
    sg.set_car(st, 0, "gremlin", "comet", {"comet_nudge": 3})
    deal_damage(m, st, np.arange(1), seat(1, 0), seat(1, 0), np.full(1, 1), 0)
    assert st.tire[0, 0] == T.rules.tire_health - 1
    assert not any("specialty" in line for line in m.rec.lines)
