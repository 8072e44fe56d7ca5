"""The audit of the Shuffle Grand Prix engine (issue 16, its rule items 2-5):
each test is named after the rule it checks and failed before the fix."""

from __future__ import annotations

import numpy as np

from balance.games.shuffle_gp.effects import spring
from balance.games.shuffle_gp.turn import play_card, spend_trophies

from . import shuffle_gp as sg
from .shuffle_gp import T, card


def seat(n: int, p: int) -> np.ndarray:
    return np.full(n, p, np.int64)


def set_trap(st, slot: int, card_id: str, owner: int) -> None:
    st.draw[:, owner, card(card_id)] -= 1
    st.trap[:, slot], st.trap_owner[:, slot], st.trap_left[:, slot] = card(card_id), owner, 0


def test_two_trophies_buy_an_extra_ability_card_not_a_pass_or_a_pit_stop():
    """ "Two trophies will allow you to play an extra ability card": even the
    random bot, which may pass or pit as its turn's play, plays a card with it."""
    G = 300
    m, st = sg.batch(["random", "robot"], games=G, seed=3)
    sg.set_car(st, 0, "ace", "blaze", {"blaze_flamethrower": 2, "blaze_swerve": 1})
    st.trophies[:, 0] = 2
    before = st.played[:, 0].sum(axis=1)
    spend_trophies(m, st, np.arange(G), seat(G, 0))
    extra = st.extra_plays[:, 0] == 1
    assert 50 < extra.sum() < 250, "the random bot spends them about half the time"
    assert (st.played[:, 0].sum(axis=1) - before == extra).all(), "each extra play is an ability card"


def test_a_trap_springs_after_the_card_that_set_it_off_has_resolved():
    """Full Throttle: "draw 1 distance card; the next player takes 1 damage" (2
    with Blaze driving). The draw sets off seat 1's Spike Strip, which springs
    only after the damage."""
    m, st = sg.batch(["robot", "robot"], games=1, seed=4)
    sg.set_car(st, 0, "blaze", "ace", {"blaze_full_throttle": 1, "blaze_flamethrower": 2})
    sg.set_car(st, 1, "comet", "snare", {"comet_nudge": 3})
    set_trap(st, 0, "snare_spike_strip", owner=1)
    m.rec.lines.clear()
    play_card(m, st, np.arange(1), seat(1, 0), np.array([card("blaze_full_throttle")]))
    text = "\n".join(m.rec.lines)
    assert "seat 1 takes 2 damage from seat 0" in text and "springs seat 1's trap" in text
    assert text.index("seat 1 takes 2 damage from seat 0") < text.index("springs seat 1's trap"), text
    assert st.tire[0, 0] == 2 and st.tire[0, 1] == 2


def test_a_specialty_is_the_drivers_at_the_moment_of_the_event():
    """Seat 1 (Comet driving, Snare co-pilot) springs its own Spike Strip with 2
    tire health: it spins out and Snare takes the wheel. The trap went off while
    Comet drove, so Snare's trap_sprung specialty does not act."""
    m, st = sg.batch(["robot", "robot"], games=1, seed=5)
    sg.set_car(st, 1, "comet", "snare", {"comet_nudge": 3}, tire=2)
    set_trap(st, 0, "snare_spike_strip", owner=1)
    m.rec.lines.clear()
    spring(m, st, np.arange(1), seat(1, 1), "draws_distance")
    assert st.driver[0, 1] == sg.driver("snare"), "spun out: the co-pilot drives now"
    assert not any("specialty (Snare)" in line for line in m.rec.lines), m.rec.lines


def test_a_replaced_action_springs_no_trap_and_fires_no_specialty():
    """ "If you 'replace' the card being played, then it won't affect anyone": seat
    2's Tar Pit (waits for an action) stays set when seat 1 replaces seat 0's action."""
    G = 10
    m, st = sg.batch(["robot"] * 3, games=G, seed=8, profiles={"robot": dict(sg.ROBOT, cancel=1.0)})
    sg.set_car(st, 0, "ace", "blaze", {"blaze_flamethrower": 2, "blaze_swerve": 1})
    sg.set_car(st, 1, "comet", "ironside", {"ironside_road_block": 1, "comet_nudge": 2})
    sg.set_car(st, 2, "gremlin", "snare", {"gremlin_jinx": 2, "gremlin_sabotage": 1})
    set_trap(st, 0, "snare_tar_pit", owner=2)
    play_card(m, st, np.arange(G), seat(G, 0), np.full(G, card("blaze_flamethrower")))
    assert (st.played[:, 1, card("ironside_road_block")] == 1).all(), "replaced"
    assert (st.trap[:, 0] == card("snare_tar_pit")).all() and (st.skip[:, 0] == 0).all()


def test_a_tie_for_the_first_player_is_redealt_among_the_tied_players():
    """ "The highest value card will go first": with four card values, two players
    tie often (about 30% of duels); the tied players are dealt again, so each seat
    starts half the duels. rules.first_player_ties: lowest_seat gives ties to seat 0."""
    from dataclasses import replace

    from balance.games.recorder import Recorder
    from balance.games.shuffle_gp.bots import bot_table, resolve_profiles
    from balance.games.shuffle_gp.match import Match
    from balance.games.shuffle_gp.setup import setup

    G = 4000
    seats = np.zeros((G, 2), np.int16)
    bots = bot_table(resolve_profiles({"robot": dict(sg.ROBOT)}), ["robot"], T)
    for reading, low, high in (("redeal", 0.5 - 0.035, 0.5 + 0.035), ("lowest_seat", 0.6, 0.7)):
        tables = replace(T, rules=replace(T.rules, first_player_ties=reading))
        st = setup(Match(tables, bots, np.random.default_rng(11), Recorder()), seats)
        share = (st.first == 0).mean()
        assert low < share < high, (reading, share)
        assert (st.deck == T.distance.count).all(), "the dealt cards go back into the deck"


def test_distance_cards_put_under_the_deck_come_back_first_in_first_out():
    """FAQ: a discarded distance card goes "face down into the bottom of the draw
    pile": once the deck is empty, the first card put under is the first drawn
    (rules.bottom_pile: random keeps the old reading)."""
    from balance.games.shuffle_gp.moves import discard_top, draw_distance_cards

    G = 20
    m, st = sg.batch(["robot", "robot"], games=G, seed=6)
    g = np.arange(G)
    sg.stack(st, 0, [25, 100, 50])  # 50 on top
    discard_top(m, st, g, seat(G, 0), 2, "test")  # the 50 goes under, then the 100
    st.deck[:] = 0  # the deck proper is empty (a test state: cards need not be conserved)
    st.stack[:, 1], st.height[:, 1] = -1, 0
    drawn = []
    for _ in range(2):
        draw_distance_cards(m, st, g, seat(G, 1))
        drawn.append(m.values[st.stack[g, 1, st.height[:, 1] - 1]].tolist())
    assert drawn == [[50] * G, [100] * G]
    assert (st.bottom == 0).all() and (st.bottom_order == -1).all()


# --- bots (issue 16, item 7) ---------------------------------------------------


def test_a_bot_does_not_redline_itself_out_with_blaze_driving():
    """Redline: "draw two distance cards; take 2 damage". With Blaze driving
    (+1 to the damage its player deals) it costs 3: at tire health 3 it would
    spin the bot out, so the bot dreads it and plays Nudge; at 4 it does not."""
    from balance.games.shuffle_gp.turn import SPIN_OUT_DREAD, options

    redline, nudge = card("comet_redline"), card("comet_nudge")
    scores = {}
    for tire in (3, 4):
        m, st = sg.batch(["robot", "robot"], games=4, seed=2)
        sg.set_car(st, 0, "blaze", "comet", {"comet_redline": 1, "blaze_swerve": 1, "comet_nudge": 1}, tire=tire)
        legal, score = options(m, st, np.arange(4), seat(4, 0))
        assert legal[:, redline].all()
        scores[tire] = score
    assert (scores[3][:, redline] < scores[3][:, nudge]).all()
    assert (scores[4][:, redline] - scores[3][:, redline] > SPIN_OUT_DREAD - 1).all(), "dreaded only at 3"


def test_a_bot_does_not_draw_into_a_waiting_trap_that_would_spin_it_out():
    """A Spike Strip (2 damage to whoever draws a distance card) waits and the bot
    has 3 tire health: Redline (draws, then 2 to itself) would spin it out with
    the trap, so it is worse than Nudge."""
    from balance.games.shuffle_gp.turn import options

    m, st = sg.batch(["robot", "robot"], games=4, seed=2)
    sg.set_car(st, 0, "ace", "comet", {"comet_redline": 1, "comet_nudge": 2}, tire=4)
    set_trap(st, 0, "snare_spike_strip", owner=1)
    st.tire[:, 0] = 3  # Redline's own 2 + the trap's 2 would spin it out; each alone would not
    _, score = options(m, st, np.arange(4), seat(4, 0))
    assert (score[:, card("comet_redline")] < score[:, card("comet_nudge")]).all()
