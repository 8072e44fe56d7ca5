"""The Horsepower rulebook, section by section (../shared/seeds/000_9a8499f91b0ba2fc.txt).

Each test sets up a batch, scripts the situation a section describes, runs the
phase (the compiled engine's, game by game: tests/hp.py), and checks what the
rulebook says must happen, in every game of the batch.
"""

from __future__ import annotations

import numpy as np
import pytest

from balance.games.chance import Streams
from balance.games.horsepower.draft import snake_order
from balance.seeding import seat_order

from . import hp
from .hp import (
    complete_lap,
    drive_phase,
    end_phase,
    give_debris,
    lap_decisions,
    move,
    new_turn,
    place_bananas,
    play_phase,
    play_rounds,
    play_turn,
    roll_drive,
    run_auction,
    shop_phase,
    violations,
    wipe_out,
)

T = hp.tables()


def one_hot_seat(G: int, P: int, seat: int) -> np.ndarray:
    out = np.zeros((G, P), bool)
    out[:, seat] = True
    return out


# --- 2 Setup -----------------------------------------------------------------


@pytest.mark.parametrize("players", [2, 3, 4])
def test_2_2_to_2_4_draft_pool_snake_draft_and_starting_decks(players):
    ctx, st = hp.batch(T, players, games=64, seed=players)
    G = 64
    assert (st.playbooks.sum(axis=2) == 1).all(), "exactly one Playbook each (2.3)"
    assert (st.drafted.sum(axis=2) == 5).all(), "exactly five parts each (2.3)"
    assert ((st.deck + st.hand).sum(axis=2) == 10).all(), "starting decks of 10 (2.4)"
    assert (st.hand.sum(axis=2) == 5).all(), "opening hand of 5 (2.4)"
    starters = T.rules.starting_deck
    assert ((st.deck + st.hand) >= starters[None, None, :]).all()
    pool = {2: 3, 3: 4, 4: 5}[players]
    assert (st.playbook_deck.sum(axis=1) == 32 - players).all(), "leftover Playbooks back in the deck (2.3)"
    assert pool - players == 1
    parts = T.parts_deck(players).sum()
    assert (st.parts.sum(axis=1) == parts - 5 * players - 4).all(), "draft pool and Showroom come off the Parts Deck"
    multi = T.cards.has_flag("M")
    in_play = (st.deck + st.hand).sum(axis=1) + st.parts + st.showroom_discard
    if players == 2:
        assert (in_play[:, multi] == 0).all() and (st.showroom < 0).sum() == 0
        assert not multi[st.showroom].any(), "(M) cards are out of the Parts Deck with 2 players (1.2)"
    else:
        assert in_play[:, multi].sum() > 0
    assert violations(ctx, st) == []
    assert st.deck.shape[0] == G


def test_2_3_snake_order():
    assert snake_order(4, 3) == [0, 1, 2, 3, 3, 2, 1, 0, 0, 1, 2, 3]
    ctx, st = hp.batch(T, 4, games=64, seed=9)
    # picks by place in the draft order: Player 1 (the first drafter), then clockwise
    picks = {0: {1, 8, 9, 16, 17, 24}, 1: {2, 7, 10, 15, 18, 23}, 3: {4, 5, 12, 13, 20, 21}}
    for place, allowed in picks.items():
        for g in range(64):
            seat = (st.first_drafter[g] + place) % 4
            taken = set(np.unique(st.draft_pick[g, seat][st.draft_pick[g, seat] > 0]).tolist())
            assert taken <= allowed, (g, place)


def test_2_3_2_6_the_first_drafter_is_drawn_apart_from_the_first_player():
    """2.3 drafts from "Player 1"; only afterwards 2.6 draws the starting player
    (seat 0). Player 1 is drawn per game, so seat 0 does not also get pick 1."""
    ctx, st = hp.batch(T, 4, games=4000, seed=3)
    counts = np.bincount(st.first_drafter, minlength=4)
    assert (np.abs(counts / 4000 - 0.25) < 0.03).all(), counts
    parts_pick1 = st.draft_pick == 1  # (G, P, K): who took a part with pick 1
    took = parts_pick1.any(axis=2)
    assert (took.sum(axis=1) <= 1).all()
    rows = np.flatnonzero(took.any(axis=1))
    assert (took[rows].argmax(axis=1) == st.first_drafter[rows]).all(), "pick 1 is Player 1's"
    assert len(rows) > 3000
    old = hp.tables(lambda d: d["rules"].update(first_drafter="first_player"))
    ctx, st = hp.batch(old, 4, games=64, seed=3)
    assert (st.first_drafter == 0).all(), "rules.first_drafter: first_player keeps seat 0 as Player 1"
    assert (st.draft_pick[:, 0].max(axis=1) >= 1).all()


def test_2_5_2_6_showroom_coins_and_starting_player():
    ctx, st = hp.batch(T, 4, games=16)
    assert (st.showroom >= 0).all() and st.showroom.shape[1] == 4
    assert (st.coins == 3).all()
    order = seat_order(4, first_game=0, games=8, rotate=True)
    assert (np.bincount(order[:, 0], minlength=4) == 2).all(), "each bot starts equally often"
    assert sorted(order[5].tolist()) == [0, 1, 2, 3]


# --- 3.1 Play Phase ----------------------------------------------------------


def test_3_1_at_most_one_card_of_each_type():
    t = hp.tables(lambda d: [c.update(count=8) for c in d["cards"] if c["id"] == "v8_block"])
    ctx, st = hp.batch(t, 2, games=8)
    hp.clear_hands(st)
    hp.no_playbooks(st)
    hp.deal(t, st, 0, {"v8_block": 5})
    play_phase(ctx, st, new_turn(ctx, st, 0), np.arange(8))
    assert (st.play[:, 0, hp.card(t, "v8_block")] == 1).all()
    assert (st.hand[:, 0, hp.card(t, "v8_block")] == 4).all()


def test_3_1_extra_play_allows_a_second_engine():
    t = hp.tables(lambda d: [c.update(count=8) for c in d["cards"] if c["id"] == "v8_block"])
    ctx, st = hp.batch(t, 2, games=8)
    hp.clear_hands(st)
    hp.no_playbooks(st)
    hp.deal(t, st, 0, {"v8_block": 3, "dual_mount_frame": 1})
    play_phase(ctx, st, new_turn(ctx, st, 0), np.arange(8))
    assert (st.play[:, 0, hp.card(t, "v8_block")] == 2).all()


def test_3_1_1_purchases_cost_3_go_to_the_garage_and_are_replaced():
    ctx, st = hp.batch(T, 2, games=8)
    hp.no_playbooks(st)
    v8 = hp.card(T, "v8_block")
    st.showroom[:] = v8
    st.coins[:, 0] = 7
    garage_before = st.garage[:, 0].sum(axis=1)
    shop_phase(ctx, st, new_turn(ctx, st, 0), np.arange(8))
    assert (st.bought[:, 0].sum(axis=1) == 2).all() and (st.bought[:, 0, v8] >= 1).all(), "as many as coins allow"
    assert (st.coins[:, 0] == 1).all()
    assert (st.garage[:, 0].sum(axis=1) == garage_before + 2).all()
    assert (st.showroom >= 0).all(), "each bought slot is refilled at once"


def test_3_1_1_refresh_costs_one_coin_and_discards_all_four():
    ctx, st = hp.batch(T, 2, games=8, profiles={"robot": {**hp.ROBOT, "buy_min": 100.0, "refreshes": 1}})
    st.coins[:, 0] = 4
    old = st.showroom.copy()
    discard_before = st.showroom_discard.sum(axis=1)
    shop_phase(ctx, st, new_turn(ctx, st, 0), np.arange(8))
    assert (st.coins[:, 0] == 3).all()
    assert (st.showroom_discard.sum(axis=1) == discard_before + 4).all()
    for g in range(8):
        assert sorted(np.repeat(np.arange(len(T.cards.ids)), st.showroom_discard[g]).tolist()) == sorted(
            old[g].tolist()
        )


def test_3_1_1_parts_deck_depletion_reshuffles_the_showroom_discard():
    ctx, st = hp.batch(T, 2, games=8, profiles={"robot": {**hp.ROBOT, "buy_min": -100.0}})
    st.showroom_discard += st.parts
    st.parts[:] = 0
    st.coins[:, 0] = 3
    shop_phase(ctx, st, new_turn(ctx, st, 0), np.arange(8))
    assert (st.bought[:, 0].sum(axis=1) >= 1).all()
    assert (st.showroom[:, 0] >= 0).all()
    assert (st.showroom_discard.sum(axis=1) == 0).all(), "the discard became the new Parts Deck"
    assert violations(ctx, st) == []


# --- 3.2 Drive Phase ---------------------------------------------------------


def test_3_2_drive_is_played_drive_plus_one_die():
    G = 3000
    ctx, st = hp.batch(T, 2, games=G)
    hp.clear_hands(st)
    st.play[:, 0, hp.card(T, "stock_engine")] = 1  # +2 Drive
    st.deck[:, 0, hp.card(T, "stock_engine")] -= 1
    hp.no_playbooks(st)
    drive_phase(ctx, st, new_turn(ctx, st, 0), np.arange(G))
    counts = np.bincount(st.pos[:, 0], minlength=9)
    assert counts[:3].sum() == 0 and counts[3:9].sum() == G
    assert np.abs(counts[3:9] / G - 1 / 6).max() < 4.5 * np.sqrt(1 / 6 * 5 / 6 / G)


def test_3_2_3_a_negative_total_does_not_move():
    ctx, st = hp.batch(T, 2, games=16)
    hp.no_playbooks(st)
    st.slow[:, 1, 0] = 10  # seat 1's Road Block: seat 0 loses 10 Drive
    drive_phase(ctx, st, new_turn(ctx, st, 0), np.arange(16))
    assert (st.pos[:, 0] == 0).all()


def test_3_2_3_wiped_out_skips_the_drive_and_loses_the_marker():
    ctx, st = hp.batch(T, 2, games=16)
    st.wiped[:, 0] = True
    drive_phase(ctx, st, new_turn(ctx, st, 0), np.arange(16))
    assert (st.pos[:, 0] == 0).all() and not st.wiped[:, 0].any()


def test_3_2_2_extra_dice_and_rerolls_have_their_exact_odds():
    ctx, st = hp.batch(T, 2, games=1)
    n = 60000
    ctx.streams = Streams(0, 0, n)  # the dice of n games: keyed draws, as the engine rolls them
    g = np.arange(n)
    zeros = np.zeros(n, np.int32)
    mods = {"drive": zeros, "dice_sum": zeros, "dice_best": zeros + 1, "reroll": zeros}
    _, best = roll_drive(ctx, g, 0, mods)
    assert abs((best == 6).mean() - 11 / 36) < 4.5 * np.sqrt(11 / 36 * 25 / 36 / n)
    mods = {"drive": zeros, "dice_sum": zeros, "dice_best": zeros, "reroll": zeros + 3}
    _, rerolled = roll_drive(ctx, g, 0, mods)
    assert abs((rerolled == 1).mean() - 2 / 36) < 4.5 * np.sqrt(2 / 36 * 34 / 36 / n)
    assert abs((rerolled == 6).mean() - 8 / 36) < 4.5 * np.sqrt(8 / 36 * 28 / 36 / n)
    mods = {"drive": zeros, "dice_sum": zeros + 1, "dice_best": zeros, "reroll": zeros}
    _, summed = roll_drive(ctx, g, 0, mods)
    assert summed.min() == 2 and summed.max() == 12 and abs(summed.mean() - 7) < 0.05


# --- 3.3 and 5: spaces ---------------------------------------------------------


def auction_batch(bids: list[float], coins: list[int], G: int = 4):
    """Every Parts Deck holds only V8 Blocks (+3 Drive, worth 3 to a robot); seat p bids up to bids[p] x 3."""
    profiles = {f"b{p}": {**hp.ROBOT, "bid": b} for p, b in enumerate(bids)}
    ctx, st = hp.batch(T, len(bids), games=G, profiles=profiles, names=list(profiles))
    v8 = hp.card(T, "v8_block")
    st.supply += st.parts
    st.parts[:] = 0
    st.parts[:, v8] = 5
    st.supply[:, v8] -= 5
    st.coins[:] = np.array(coins, np.int16)[None, :]
    return ctx, st, v8


def test_5_1_bids_go_clockwise_from_the_landing_player_and_must_rise():
    ctx, st, v8 = auction_batch([2.0, 1.0, 0.0, 0.0], [9, 9, 9, 9])  # limits 6, 3, 0, 0
    run_auction(ctx, st, np.arange(2), np.array([0, 1]))
    # lander 0: 0 bids 1, 1 bids 2, 2 and 3 pass, 0 bids 3, 1 cannot beat 3 → seat 0 pays 3
    assert st.auction_won[0, 0, v8] == 1 and st.coins[0, 0] == 6 and st.coins[0, 1] == 9
    # lander 1: 1 bids 1, 2 and 3 pass, 0 bids 2, 1 bids 3, 0 bids 4, 1 passes → seat 0 pays 4
    assert st.auction_won[1, 0, v8] == 1 and st.coins[1, 0] == 5
    assert st.garage[0, 0, v8] == 1 and st.auction_paid[1, 0] == 4


def test_5_1_nobody_bids_so_the_landing_player_may_take_it_free():
    ctx, st, v8 = auction_batch([0.0, 0.0], [5, 5])
    run_auction(ctx, st, np.arange(4), np.zeros(4, int))
    assert (st.auction_won[:, 0, v8] == 1).all() and (st.coins == 5).all()


def test_5_1_free_round_passes_clockwise_and_all_may_decline():
    no_value = {
        "weights": {
            "drive": 0.0,
            "coins": 0.0,
            "draw": 0.0,
            "thinning": 0.0,
            "attack": 0.0,
            "defense": 0.0,
            "tempo": 0.0,
        }
    }
    profiles = {"b0": {**hp.ROBOT, **no_value, "bid": 0.0}, "b1": {**hp.ROBOT, "bid": 0.0}}
    ctx, st = hp.batch(T, 2, games=2, profiles=profiles, names=["b0", "b1"])
    run_auction(ctx, st, np.arange(2), np.zeros(2, int))
    assert (st.auction_won[:, 1].sum(axis=1) == 1).all(), "seat 0 declines, seat 1 takes it"
    profiles["b1"] = {**hp.ROBOT, **no_value, "bid": 0.0}
    ctx, st = hp.batch(T, 2, games=2, profiles=profiles, names=["b0", "b1"])
    before = st.showroom_discard.sum()
    run_auction(ctx, st, np.arange(2), np.zeros(2, int))
    assert st.auction_won.sum() == 0 and st.showroom_discard.sum() == before + 2


def test_5_1_a_bid_never_exceeds_the_bidders_coins():
    ctx, st, v8 = auction_batch([3.0, 1.0], [2, 9])  # seat 0 would pay 9 but holds 2
    run_auction(ctx, st, np.arange(4), np.zeros(4, int))
    # 0 bids 1, 1 bids 2, 0 cannot go to 3 → seat 1 pays 2
    assert (st.auction_won[:, 1, v8] == 1).all() and (st.coins[:, 1] == 7).all() and (st.coins[:, 0] == 2).all()


def test_3_3_landing_on_an_auction_space_by_a_push_runs_the_auction():
    ctx, st = hp.batch(T, 2, games=8)
    st.pos[:, 1] = 7
    parts_before, discard_before = st.parts.sum(axis=1), st.showroom_discard.sum(axis=1)
    move(ctx, st, new_turn(ctx, st, 0), np.arange(8), one_hot_seat(8, 2, 1), np.full((8, 2), 3), "pushed")
    assert (st.pos[:, 1] == 10).all()
    assert (st.parts.sum(axis=1) == parts_before - 1).all(), "one card revealed"
    won = st.auction_won.sum(axis=(1, 2))
    assert (won + st.showroom_discard.sum(axis=1) - discard_before == 1).all(), "taken by someone or discarded"
    assert violations(ctx, st) == []


def test_5_2_incinerator_scraps_a_card_from_hand_or_garage():
    ctx, st = hp.batch(T, 2, games=8)
    debris = T.rules.debris_card
    st.garage[:, 0, debris] += 1
    st.supply[:, debris] -= 1
    st.pos[:, 0] = 12
    move(ctx, st, new_turn(ctx, st, 0), np.arange(8), one_hot_seat(8, 2, 0), np.full((8, 2), 3), "drives")
    assert (st.scrapyard[:, debris] == 1).all() and (st.garage[:, 0, debris] == 0).all()


def test_5_3_a_wiped_out_player_cannot_be_wiped_out_again():
    def second_wind(d):
        for pb in d["playbooks"]:
            pb["effects"] = [{"when": "wiped_out", "op": "coins", "amount": 1}]

    t = hp.tables(second_wind)
    ctx, st = hp.batch(t, 2, games=4)
    victims = one_hot_seat(4, 2, 1)
    wipe_out(ctx, st, new_turn(ctx, st, 0), np.arange(4), victims)
    wipe_out(ctx, st, new_turn(ctx, st, 0), np.arange(4), victims)
    assert st.wiped[:, 1].all() and (st.coins[:, 1] == 4).all(), "the trigger fired once"


def test_5_4_bananas_passed_through_wipe_out_and_are_removed_even_stacked():
    ctx, st = hp.batch(T, 2, games=4)
    st.bananas[:, 3] = 1
    st.bananas[:, 5] = 2
    move(ctx, st, new_turn(ctx, st, 0), np.arange(4), one_hot_seat(4, 2, 0), np.full((4, 2), 6), "drives")
    assert st.wiped[:, 0].all() and (st.bananas.sum(axis=1) == 0).all() and (st.pos[:, 0] == 6).all()


def test_5_4_bananas_are_never_placed_on_an_occupied_space():
    ctx, st = hp.batch(T, 2, games=2)
    st.pos[:, 0], st.pos[:, 1] = 4, 6
    victims = one_hot_seat(2, 2, 0)
    place_bananas(ctx, st, np.arange(2), victims, np.array([2, 1]), seat=1)
    assert st.bananas[0, 6] == 0 and st.bananas[0, 7] == 1, "next free space (rules.banana_blocked: next_free)"
    assert st.bananas[1, 5] == 1
    lost = hp.tables(lambda d: d["rules"].update(banana_blocked="lost"))
    ctx, st = hp.batch(lost, 2, games=1)
    st.pos[:, 0], st.pos[:, 1] = 4, 6
    place_bananas(ctx, st, np.arange(1), one_hot_seat(1, 2, 0), np.array([2]), seat=1)
    assert st.bananas.sum() == 0
    st.pos[:, 0] = 48
    place_bananas(ctx, st, np.arange(1), one_hot_seat(1, 2, 0), np.array([3]), seat=1)
    assert st.bananas.sum() == 0, "past the end of the lap a Banana is lost"


def test_3_3_simultaneous_moves_resolve_in_turn_order_from_the_active_player():
    ctx, st = hp.batch(T, 4, games=1, watch=0)
    movers = np.ones((1, 4), bool)
    movers[0, 1] = False
    move(ctx, st, new_turn(ctx, st, 1), np.arange(1), movers, np.full((1, 4), 2), "pushed")
    order = [int(line.split()[1]) for line in ctx.rec.lines if "pushed" in line]
    assert order == [2, 3, 0]


# --- 3.4 End Phase -------------------------------------------------------------


def test_3_4_end_phase_discards_and_draws_five_reshuffling_the_garage():
    ctx, st = hp.batch(T, 2, games=8)
    st.garage[:, 0] += st.deck[:, 0]
    st.deck[:, 0] = 0
    st.deck[:, 0, hp.card(T, "stock_engine")] += 0
    end_phase(ctx, st, new_turn(ctx, st, 0), np.arange(8))
    assert (st.hand[:, 0].sum(axis=1) == 5).all()
    assert ((st.deck[:, 0] + st.garage[:, 0]).sum(axis=1) == 5).all()
    assert violations(ctx, st) == []


def test_3_4_expiring_cards_stay_in_play_until_the_owners_next_turn():
    ctx, st = hp.batch(T, 2, games=4)
    road_block = hp.card(T, "road_block")
    st.play[:, 0, road_block] = 1
    st.parts[:, road_block] -= 1
    st.slow[:, 0, 1] = 2
    end_phase(ctx, st, new_turn(ctx, st, 0), np.arange(4))
    assert (st.lingering[:, 0, road_block] == 1).all() and (st.garage[:, 0, road_block] == 0).all()
    play_turn(ctx, st, 1)  # the slow is still on during seat 1's turn
    assert (st.slow[:, 0, 1] == 2).all()
    play_turn(ctx, st, 0)
    assert (st.lingering[:, 0, road_block] == 0).all() and (st.slow[:, 0] == 0).all()
    assert ((st.garage[:, 0, road_block] + st.hand[:, 0, road_block] + st.deck[:, 0, road_block]) >= 1).all()


def test_7_2_scrap_this_card_goes_to_the_scrapyard():
    ctx, st = hp.batch(T, 2, games=4)
    hp.clear_hands(st)
    hp.deal(T, st, 0, {"nitrous_tank": 1})
    turn = new_turn(ctx, st, 0)
    play_phase(ctx, st, turn, np.arange(4))
    end_phase(ctx, st, turn, np.arange(4))
    k = hp.card(T, "nitrous_tank")
    assert (st.scrapyard[:, k] == 1).all() and (st.scrapped[:, 0, k] == 1).all()
    assert ((st.garage + st.hand + st.deck)[:, 0, k] == 0).all()


# --- 6 Laps, Pit Stops, winning -----------------------------------------------------


def test_6_1_reaching_50_stops_there_adds_debris_and_reshuffles():
    ctx, st = hp.batch(T, 2, games=4)
    hp.no_playbooks(st)  # a drafted "complete a lap" Playbook would draw or scrap on top of the rule
    st.pos[:, 0] = 45
    st.garage[:, 0] += st.hand[:, 0]
    st.hand[:, 0] = 0
    cards_before = (st.deck + st.garage)[:, 0].sum(axis=1)
    move(ctx, st, new_turn(ctx, st, 0), np.arange(4), one_hot_seat(4, 2, 0), np.full((4, 2), 9), "drives")
    assert (st.lap[:, 0] == 2).all() and (st.pos[:, 0] == 0).all()
    assert (st.garage[:, 0].sum(axis=1) == 0).all()
    assert (st.deck[:, 0].sum(axis=1) == cards_before + 1).all()
    assert (st.deck[:, 0, T.rules.debris_card] >= 1).all()
    assert st.lap_done[:, 0].all()


def test_6_1_debris_lasts_as_far_as_the_supply_goes():
    # game 0: 3 Debris left for three players owed 2 each, served in the order given;
    # game 1: one player, plenty left
    ctx, st = hp.batch(T, 3, games=2)
    debris = T.rules.debris_card
    left = np.array([3, 9], np.int8)
    assert (st.supply[:, debris] >= left).all()
    st.scrapyard[:, debris] += st.supply[:, debris] - left  # the rest out of the game: cards stay conserved
    st.supply[:, debris] = left
    garage = st.garage[:, :, debris].copy()
    given = give_debris(ctx, st, np.array([0, 1, 0, 0]), np.array([0, 2, 1, 2]), np.full(4, 2))
    assert given.tolist() == [2, 2, 1, 0]
    assert st.supply[:, debris].tolist() == [0, 7]
    assert (st.garage[:, :, debris] - garage).tolist() == [[2, 1, 0], [0, 0, 2]]
    assert violations(ctx, st) == []


@pytest.mark.parametrize("choice", ["always", "never"])
def test_6_2_pit_stop_skips_a_turn_and_gains_a_playbook_or_race_through(choice):
    ctx, st = hp.batch(T, 2, games=4, profiles={"robot": {**hp.ROBOT, "pit_stop": choice}})
    st.lap[:, 0], st.lap_done[:, 0] = 2, True
    lap_decisions(ctx, st, new_turn(ctx, st, 0), np.arange(4))
    assert st.pit_next[:, 0].all() == (choice == "always")
    deck_before = st.playbook_deck.sum(axis=1)
    play_turn(ctx, st, 0)
    if choice == "always":
        assert (st.pos[:, 0] == 0).all(), "the Pit Stop turn is skipped"
        assert (st.playbooks[:, 0].sum(axis=1) == 2).all() and (st.playbook_deck.sum(axis=1) == deck_before - 1).all()
        assert not st.pit_next[:, 0].any()
    else:
        assert (st.pos[:, 0] > 0).all() | st.wiped[:, 0].any()
        assert (st.playbooks[:, 0].sum(axis=1) == 1).all()


def test_6_3_completing_lap_3_wins_at_once():
    ctx, st = hp.batch(T, 2, games=4)
    st.lap[:, 0], st.pos[:, 0] = 3, 49
    st.lap[:, 1], st.pos[:, 1] = 3, 49
    complete_lap(ctx, st, new_turn(ctx, st, 0), np.arange(4), np.zeros(4, int))
    assert (st.winner == 0).all() and not st.running.any()
    play_rounds(ctx, st)
    assert (st.pos[:, 1] == 49).all(), "nobody moves after the game has ended"


def test_6_3_simultaneous_finish_by_an_effect_goes_to_the_first_in_turn_order():
    ctx, st = hp.batch(T, 4, games=2)
    st.lap[:], st.pos[:] = 3, 45
    movers = np.array([[True, True, False, True]] * 2)
    move(ctx, st, new_turn(ctx, st, 2), np.arange(2), movers, np.full((2, 4), 9), "pushed")
    assert (st.winner == 3).all(), "from active seat 2: seat 3 is first clockwise"
    ctx, st = hp.batch(T, 4, games=2)
    st.lap[:], st.pos[:] = 3, 45
    move(ctx, st, new_turn(ctx, st, 2), np.arange(2), np.ones((2, 4), bool), np.full((2, 4), 9), "pushed")
    assert (st.winner == 2).all(), "during the active player's turn, the active player wins"


# --- safety --------------------------------------------------------------------


def test_a_game_nobody_can_finish_stops_at_the_round_cap():
    def nobody_moves(d):
        d["rules"]["max_rounds"] = 12
        for pb in d["playbooks"]:
            pb["effects"] = [{"when": "always", "op": "drive", "amount": -30}]

    t = hp.tables(nobody_moves)
    ctx, st = hp.batch(t, 3, games=16)
    play_rounds(ctx, st)
    assert (st.winner == -1).all() and (st.round == 12).all() and (st.lap == 1).all()


def test_7_2_draw_from_an_empty_deck_reshuffles_the_garage():
    from .hp import draw_cards

    ctx, st = hp.batch(T, 2, games=8)
    st.garage[:, 0] += st.deck[:, 0]
    st.deck[:, 0] = 0
    st.deck[:, 0, hp.card(T, "stock_engine")] += 0
    garage = st.garage[:, 0].sum(axis=1).copy()
    hand = st.hand[:, 0].sum(axis=1).copy()
    draw_cards(ctx, st, np.arange(8), np.zeros(8, int), np.full(8, 2))
    assert (st.hand[:, 0].sum(axis=1) == hand + 2).all()
    assert (st.garage[:, 0].sum(axis=1) == 0).all() and (st.deck[:, 0].sum(axis=1) == garage - 2).all()
    assert violations(ctx, st) == []


def test_8_the_game_ends_the_moment_lap_3_is_completed():
    ctx, st = hp.batch(T, 3, games=4)
    hp.clear_hands(st)  # no attack can hold seat 1 back
    hp.no_playbooks(st)
    st.lap[:, 1], st.pos[:, 1] = 3, 49
    st.lap[:, 2], st.pos[:, 2] = 3, 49
    for seat in (0, 1, 2):
        play_turn(ctx, st, seat)
    assert (st.winner == 1).all(), "seat 1 moves at least 1 space and wins"
    assert (st.pos[:, 2] == 49).all() and (st.turns[:, 2] == 0).all(), "seat 2 never gets its turn"


def test_an_illegal_move_is_caught_by_the_rules_checker():
    ctx, st = hp.batch(T, 2, games=4)
    st.hand[1, 0, 0] -= 6  # as if a bot had played a card it does not hold
    st.coins[2, 1] = -1
    found = violations(ctx, st)
    assert any("negative count in a zone (game 1" in v for v in found)
    assert any("negative coins (game 2" in v for v in found)
