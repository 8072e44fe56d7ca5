"""The independent audit of the Horsepower engine (issue 14): each test is named
after the card or rule it checks and failed before the fix (the compiled
engine's phases, game by game: tests/hp.py)."""

from __future__ import annotations

import numpy as np
import pytest

from balance.games.chance import Streams
from balance.games.horsepower.compile import compile_database
from balance.games.horsepower.compiled import simulate

from . import hp
from .hp import fire_card, give_debris, lap_decisions, move, new_turn, play_phase, play_turn

T = hp.tables()


def give_playbook(t, st, seat: int, playbook_id: str) -> None:
    b = t.playbooks.ids.index(playbook_id)
    st.playbooks[:, seat, b] += 1
    st.playbook_deck[:, b] -= 1


def only_in_hand(t, st, seat: int, cards: dict[str, int]) -> None:
    hp.clear_hands(st)
    hp.deal(t, st, seat, cards)


# --- 1. several rerolls: the highest threshold, once --------------------------


def test_lucky_break_and_racing_slicks_reroll_below_the_higher_threshold_once():
    """Lucky Break ("3 or less") with Racing Slicks ("1 or 2") in play rerolls a
    die below 4 once: the final face is 6 with chance 1/6 + 3/6 x 1/6 = 1/4 and 1
    with chance 3/6 x 1/6 = 1/12. Adding the thresholds (below 7) rerolled every face."""
    G = 20000
    ctx, st = hp.batch(T, 2, games=G, seed=5)
    hp.no_playbooks(st)
    give_playbook(T, st, 0, "lucky_break")
    st.pos[:, 1] = 30  # the leader is 15 or more spaces ahead: Lucky Break's condition holds
    st.coins[:] = 0  # nothing to buy
    only_in_hand(T, st, 0, {"racing_slicks": 1})
    play_turn(ctx, st, 0)
    face = st.pos[:, 0] - 1  # Racing Slicks is +1 Drive
    assert face.min() == 1 and face.max() == 6
    se = np.sqrt(0.25 * 0.75 / G)
    assert abs((face == 6).mean() - 1 / 4) < 4.5 * se
    assert abs((face == 1).mean() - 1 / 12) < 4.5 * np.sqrt(1 / 12 * 11 / 12 / G)


# --- 2. a card's effects resolve in order -------------------------------------


@pytest.mark.parametrize(("coins", "after"), [(4, 7), (3, 4), (5, 8)])
def test_interest_account_reads_its_condition_after_its_first_coin(coins, after):
    """ "Gain 1 coin. Then, if you hold 5 or more coins, gain 2 more coins.\""""
    ctx, st = hp.batch(T, 2, games=4)
    hp.no_playbooks(st)
    only_in_hand(T, st, 0, {"interest_account": 1})
    st.coins[:, 0] = coins
    play_phase(ctx, st, new_turn(ctx, st, 0), np.arange(4))
    assert (st.play[:, 0, hp.card(T, "interest_account")] == 1).all()
    assert (st.coins[:, 0] == after).all()


def test_a_condition_reads_the_state_left_by_the_rows_before_it():
    """Every card whose text says "then": a later row's condition sees the earlier
    rows' effects (here an edited card: +3 coins, then if 6 or more, +10)."""

    def edit(d):
        card = next(c for c in d["cards"] if c["id"] == "penny_jar")
        card["effects"] = [{"op": "coins", "amount": 3}, {"op": "coins", "amount": 10, "if": {"min_coins": 6}}]

    t = hp.tables(edit)
    ctx, st = hp.batch(t, 2, games=2)
    st.coins[:, 0] = [3, 2]
    fire_card(ctx, st, new_turn(ctx, st, 0), np.arange(2), np.full(2, hp.card(t, "penny_jar")))
    assert st.coins[:, 0].tolist() == [16, 5]


# --- 3. triggers fire where their text can act --------------------------------


def test_lap_cleanup_scraps_from_the_garage_before_the_deck_reset():
    """ "Whenever you complete a lap, you may scrap 1 card from your Garage": the
    trigger fires before the Garage is shuffled into the Deck, so the Debris just
    gained (a dead card, below the bot's scrap bar) can be scrapped."""
    G = 8
    ctx, st = hp.batch(T, 2, games=G)
    hp.no_playbooks(st)
    give_playbook(T, st, 0, "lap_cleanup")
    debris = T.rules.debris_card
    supply = st.supply[:, debris].copy()
    st.pos[:, 0] = 45
    movers = np.zeros((G, 2), bool)
    movers[:, 0] = True
    move(ctx, st, new_turn(ctx, st, 0), np.arange(G), movers, np.full((G, 2), 9), "drives")
    assert (st.lap[:, 0] == 2).all() and (st.garage[:, 0].sum(axis=1) == 0).all()
    assert (st.supply[:, debris] == supply - 1).all(), "the lap's Debris was given"
    assert (st.scrapped[:, 0, debris] == 1).all() and (st.scrapyard[:, debris] == 1).all()
    assert (st.deck[:, 0, debris] == 0).all()


# --- 5. Wiped Out during one's own turn ----------------------------------------


def _self_wipe_at_turn_start(reading: str):
    """A Playbook that Wipes Out its owner at the start of the turn, before the Drive Phase."""

    def edit(d):
        d["rules"]["wiped_during_own_turn"] = reading
        book = next(p for p in d["playbooks"] if p["id"] == "lucky_break")
        book["effects"] = [{"when": "turn_start", "op": "wipe_out", "target": "self"}]

    t = hp.tables(edit)
    ctx, st = hp.batch(t, 2, games=16)
    hp.no_playbooks(st)
    give_playbook(t, st, 0, "lucky_break")
    only_in_hand(t, st, 0, {"stock_engine": 1})
    st.coins[:] = 0
    return ctx, st


def test_wiped_out_in_ones_own_turn_skips_this_drive_by_default():
    """3.2.3 reads the marker at the Drive Phase: a marker gained earlier in the
    turn skips this turn's Drive (rules.wiped_during_own_turn: this_turn)."""
    ctx, st = _self_wipe_at_turn_start("this_turn")
    play_turn(ctx, st, 0)
    assert (st.pos[:, 0] == 0).all() and not st.wiped[:, 0].any()


def test_wiped_out_in_ones_own_turn_waits_for_the_next_turn_when_set():
    """5.3 "on that player's next turn" (rules.wiped_during_own_turn: next_turn):
    this turn drives, the marker stays, the next turn's Drive is skipped."""
    ctx, st = _self_wipe_at_turn_start("next_turn")
    play_turn(ctx, st, 0)
    assert (st.pos[:, 0] >= 3).all() and st.wiped[:, 0].all()
    before = st.pos[:, 0].copy()
    only_in_hand(ctx.tables, st, 0, {"stock_engine": 1})  # no card that moves outside the Drive (Draft Pass)
    play_turn(ctx, st, 0)
    assert (st.pos[:, 0] == before).all(), "the next turn's Drive is skipped"


# --- 6. Pit Stops counted when taken -------------------------------------------


def test_pit_stops_count_the_pit_stop_taken_not_the_choice():
    ctx, st = hp.batch(T, 2, games=4, profiles={"robot": {**hp.ROBOT, "pit_stop": "always"}})
    st.lap[:, 0], st.lap_done[:, 0] = 2, True
    lap_decisions(ctx, st, new_turn(ctx, st, 0), np.arange(4))
    assert st.pit_next[:, 0].all() and (st.pit_stops[:, 0] == 0).all(), "chosen, not taken yet"
    play_turn(ctx, st, 0)
    assert (st.pit_stops[:, 0] == 1).all() and (st.pit_laps[:, 0] == 1).all(), "taken after lap 1"


def test_every_player_has_one_playbook_per_pit_stop_taken_plus_the_drafted_one():
    seats = np.tile(np.arange(4, dtype=np.int16), (300, 1))
    bots = hp.bot_table(hp.resolve_profiles({"pitter": {**hp.ROBOT, "pit_stop": "always"}}), ["pitter"] * 4, T, 4)
    st = simulate(T, bots, seats, Streams(2, 0, len(seats)))
    assert (st.playbooks.sum(axis=2) == 1 + st.pit_stops).all()
    assert st.pit_next.any(), "some games end before a chosen Pit Stop (logged as pit_stop_pending)"


# --- 9. the Debris supply -------------------------------------------------------


def test_debris_owed_when_the_supply_is_empty_is_counted():
    ctx, st = hp.batch(T, 3, games=1)
    debris = T.rules.debris_card
    st.scrapyard[:, debris] += st.supply[:, debris] - 1
    st.supply[:, debris] = 1
    give_debris(ctx, st, np.array([0, 0]), np.array([0, 2]), np.array([1, 2]))
    assert st.debris_short.tolist() == [2]
    give_debris(ctx, st, np.array([0]), np.array([1]), np.array([1]))
    assert st.debris_short.tolist() == [3]


@pytest.mark.parametrize(("setting", "supply"), [(None, 18), (40, 40), ("unlimited", 100), (0, 0)])
def test_rules_debris_supply_sets_the_supply(setting, supply):
    def edit(d):
        if setting is not None:
            d["rules"]["debris_supply"] = setting

    t = hp.tables(edit)
    ctx, st = hp.batch(t, 4, games=2)
    assert (st.supply[:, t.rules.debris_card] == supply).all()


def test_rules_debris_supply_rejects_a_supply_the_piles_cannot_hold():
    from balance.errors import UserError

    with pytest.raises(UserError, match="debris_supply"):
        hp.tables(lambda d: d["rules"].update(debris_supply=101))


# --- 10. bots do not waste attacks ----------------------------------------------


def test_spin_out_is_not_played_with_nobody_ahead_but_is_with_a_target():
    """Spin Out: "The nearest player ahead of you becomes Wiped Out. Put 1 Debris
    into your Garage." With nobody ahead only the Debris is left: not worth a play."""
    G = 400
    ctx, st = hp.batch(T, 3, games=G, names=["balanced"] * 3)
    hp.no_playbooks(st)
    only_in_hand(T, st, 0, {"spin_out": 1})
    spin = hp.card(T, "spin_out")
    st.pos[: G // 2, 1] = 12  # the first half has someone ahead
    play_phase(ctx, st, new_turn(ctx, st, 0), np.arange(G))
    played = st.play[:, 0, spin] == 1
    assert played[: G // 2].all() and not played[G // 2 :].any()


def test_an_attack_on_a_player_already_wiped_out_is_not_played():
    G = 200
    ctx, st = hp.batch(T, 2, games=G, names=["balanced"] * 2)
    hp.no_playbooks(st)
    only_in_hand(T, st, 0, {"spin_out": 1})
    st.pos[:, 1] = 12
    st.wiped[:, 1] = True
    play_phase(ctx, st, new_turn(ctx, st, 0), np.arange(G))
    assert (st.play[:, 0, hp.card(T, "spin_out")] == 0).all()


def test_oil_slick_is_not_played_into_the_players_own_path():
    """Issue 36: "Place a Banana 2 spaces ahead of the nearest player behind
    you." With that player one space behind, the Banana lands one space ahead of
    the actor, who drives into it: the hit is its own, not the rival's. With
    the rival far behind, the Banana lands behind the actor: played."""
    G = 400
    ctx, st = hp.batch(T, 2, games=G, names=["saboteur"] * 2)
    hp.no_playbooks(st)
    only_in_hand(T, st, 0, {"oil_slick": 1})
    st.pos[:, 0] = 23
    st.pos[: G // 2, 1] = 22  # the first half: the Banana would land on 24, in seat 0's path
    st.pos[G // 2 :, 1] = 5  # the second half: on 7, far behind seat 0
    play_phase(ctx, st, new_turn(ctx, st, 0), np.arange(G))
    played = st.play[:, 0, hp.card(T, "oil_slick")] == 1
    assert not played[: G // 2].any() and played[G // 2 :].all()


def test_banana_cost_is_the_drive_a_card_adds_to_the_odds_of_a_hit():
    """Issue 36: a bot values a move past a Banana it can see by what it costs.
    One die of 6, a turn's Drive taken as 3.5 (the mean roll, nothing played).
    Stock Engine (+2 Drive), a Banana 5 ahead: the roll alone reaches it 2/6,
    with the card 4/6; it costs w_drive x 3.5 x 2/6. Draft Pass (move 2 at
    once) onto a Banana 2 ahead: a sure hit now, where the roll would hit it
    5/6: w_drive x 3.5 x 1/6. A Banana behind, or none: nothing."""
    from .hp import banana_cost

    ctx, st = hp.batch(T, 2, games=4, names=["balanced"] * 2)
    assert (T.rules.dice_per_drive, T.rules.die_sides) == (1, 6)
    st.pos[:, 0] = 10
    at = np.array([15, 12, 4, -1])  # game 2: behind; game 3: none
    cards = np.array([hp.card(T, "stock_engine"), hp.card(T, "draft_pass")])
    cost = banana_cost(ctx, st, np.arange(4), 0, cards, np.zeros(4, np.int32), at)
    w = ctx.bots.weights[st.bots[0, 0], 0]
    assert cost[0] == pytest.approx([w * 3.5 * 2 / 6, w * 3.5 * (4 / 6 - 2 / 6)], rel=1e-5)
    assert cost[1] == pytest.approx([w * 3.5 * (1 - 5 / 6), w * 3.5 * (1 - 5 / 6)], rel=1e-5)
    assert (cost[2:] == 0).all()


def test_a_player_wiped_out_already_pays_nothing_for_a_banana_ahead():
    """A hit on a player already Wiped Out has no effect (5.3) and clears the Banana."""
    from .hp import banana_cost

    ctx, st = hp.batch(T, 2, games=1, names=["balanced"] * 2)
    st.pos[0, 0], st.wiped[0, 0] = 10, True
    cards = np.array([hp.card(T, "stock_engine"), hp.card(T, "draft_pass")])
    assert (banana_cost(ctx, st, np.arange(1), 0, cards, np.zeros(1, np.int32), np.array([12])) == 0).all()


def test_the_random_bot_still_plays_attacks_at_random():
    """`random` stays uniform over legal moves: the floor, not a player."""
    G = 2000
    ctx, st = hp.batch(T, 2, games=G, names=["random"] * 2)
    hp.no_playbooks(st)
    only_in_hand(T, st, 0, {"spin_out": 1})
    play_phase(ctx, st, new_turn(ctx, st, 0), np.arange(G))
    rate = (st.play[:, 0, hp.card(T, "spin_out")] == 1).mean()
    assert abs(rate - 0.5) < 4.5 * np.sqrt(0.25 / G)


def test_rules_defaults_compile():
    t = compile_database(hp.validate_database(hp.parse_yaml(hp.CARDS.read_text(), "cards.yaml")))
    assert t.rules.first_drafter == "random" and not t.rules.wiped_next_turn
    assert t.cards.count[t.rules.debris_card] == 18, "the Debris supply is the Debris card's count"


# --- 8. trace lines say what happened in the traced game -------------------------


def test_trace_says_nobody_to_target_in_the_traced_game_whatever_the_others():
    """Cut-Off in two games: game 0 has a player ahead, the traced game 1 has none."""
    ctx, st = hp.batch(T, 2, games=2, watch=1)
    st.pos[0, 1] = 5
    ctx.rec.lines.clear()
    fire_card(ctx, st, new_turn(ctx, st, 0), np.arange(2), np.full(2, hp.card(T, "cut_off")))
    assert st.pos[0, 1] == 3, "game 0's Cut-Off hit"
    assert ctx.rec.lines == ["  push (nearest_ahead): nobody to target"]


def test_trace_of_an_untargetable_leader_names_no_empty_seat_list():
    """Spike Strip (slow the leader) while the leader is shielded in the traced game."""
    ctx, st = hp.batch(T, 3, games=2, watch=1)
    st.pos[:, 1] = 9
    st.shield[1, 1] = True
    ctx.rec.lines.clear()
    fire_card(ctx, st, new_turn(ctx, st, 0), np.arange(2), np.full(2, hp.card(T, "spike_strip")))
    assert st.slow[0, 0, 1] == 3 and st.slow[1, 0].sum() == 0
    assert ctx.rec.lines == ["  slow (leader): seat 1 shielded"]
    assert not any("[]" in line for line in ctx.rec.lines)


def test_trace_playbook_header_names_only_the_playbooks_whose_condition_holds():
    """Compound Interest (6 or more coins) and Comeback Kid (last) at turn start,
    with 3 coins and nobody behind: only Comeback Kid fires and is named."""
    from .hp import fire_trigger

    ctx, st = hp.batch(T, 2, games=1, watch=0)
    hp.no_playbooks(st)
    give_playbook(T, st, 0, "compound_interest")
    give_playbook(T, st, 0, "comeback_kid")
    st.pos[:, 1], st.coins[:, 0] = 10, 3
    ctx.rec.lines.clear()
    fire_trigger(ctx, st, new_turn(ctx, st, 0), np.arange(1), np.zeros(1, np.int64), "turn_start")
    assert ctx.rec.lines == ["  Playbook Comeback Kid (turn start) for seat 0:", "  seat 0 gains 2 coin(s)"]
    assert st.coins[0, 0] == 5


def _play_only(t, card_id: str, G: int, players: int = 3):
    ctx, st = hp.batch(t, players, games=G, names=["balanced"] * players)
    hp.no_playbooks(st)
    only_in_hand(t, st, 0, {card_id: 1})
    return ctx, st, hp.card(t, card_id)


def test_junk_toss_is_not_played_when_the_debris_supply_is_empty():
    G = 200
    ctx, st, junk = _play_only(T, "junk_toss", G)
    debris = T.rules.debris_card
    empty = np.arange(G) >= G // 2
    st.scrapyard[empty, debris] += st.supply[empty, debris]
    st.supply[empty, debris] = 0
    play_phase(ctx, st, new_turn(ctx, st, 0), np.arange(G))
    played = st.play[:, 0, junk] == 1
    assert played[~empty].all() and not played[empty].any()


def test_cut_off_is_not_played_on_a_player_who_cannot_go_back():
    """The nearest player ahead is at space 0 of a later lap: a push back moves nothing."""
    G = 200
    ctx, st, cut = _play_only(T, "cut_off", G, players=2)
    st.pos[:, 0] = 30
    st.lap[:, 1], st.pos[:, 1] = 2, np.where(np.arange(G) < G // 2, 4, 0)
    play_phase(ctx, st, new_turn(ctx, st, 0), np.arange(G))
    played = st.play[:, 0, cut] == 1
    assert played[: G // 2].all() and not played[G // 2 :].any()


def test_sticky_fingers_is_not_played_when_nobody_has_coins():
    G = 200
    ctx, st, sticky = _play_only(T, "sticky_fingers", G)
    st.coins[:, 1:] = np.where(np.arange(G) < G // 2, 2, 0)[:, None]
    play_phase(ctx, st, new_turn(ctx, st, 0), np.arange(G))
    played = st.play[:, 0, sticky] == 1
    assert played[: G // 2].all() and not played[G // 2 :].any()


def test_a_short_debris_supply_serves_all_others_in_turn_order_from_the_actor():
    """Junk Toss by seat 2 of 4 with 2 Debris left: seats 3 and 0 get them (7.3), not 0 and 1."""
    ctx, st = hp.batch(T, 4, games=1, watch=0)
    debris = T.rules.debris_card
    st.scrapyard[:, debris] += st.supply[:, debris] - 2
    st.supply[:, debris] = 2
    before = st.garage[0, :, debris].copy()
    turn = new_turn(ctx, st, 2)
    fire_card(ctx, st, turn, np.arange(1), np.full(1, hp.card(T, "junk_toss")))
    assert (st.garage[0, :, debris] - before).tolist() == [1, 0, 0, 1]
    assert st.debris_short.tolist() == [1]


def test_trace_names_a_shielded_target_and_a_wipe_out_with_no_effect():
    ctx, st = hp.batch(T, 3, games=1, watch=0)
    st.pos[0, 1], st.pos[0, 2] = 5, 9
    st.shield[0, 1] = True
    ctx.rec.lines.clear()
    fire_card(ctx, st, new_turn(ctx, st, 0), np.arange(1), np.full(1, hp.card(T, "cut_off")))
    assert ctx.rec.lines == ["  push (nearest_ahead): seat 1 shielded"], "the nearest is shielded: nobody else is hit"
    st.wiped[0, 2] = True
    ctx.rec.lines.clear()
    fire_card(ctx, st, new_turn(ctx, st, 0), np.arange(1), np.full(1, hp.card(T, "blue_shell")))
    assert ctx.rec.lines == ["  seat 2 is already Wiped Out: no effect"]
