"""Downforce's rules, one test per rule of the rulebook
(../shared/seeds/003_f4358f3dcf03d531.txt), each named after its section,
on the compiled engine's phases (tests/downforce.py calls them game by game).
The board is downforce.yaml's Harbour Loop: three lanes from row 0, space ids
r<row>l<lane>, the finish at row 50."""

from __future__ import annotations

import numpy as np
import pytest

from balance.games.chance import Streams
from balance.games.downforce.bots import bot_table, resolve_profiles
from balance.games.downforce.compile import WILD, compile_database
from balance.games.downforce.log import money, standings
from balance.games.downforce.schema import load_database

from .conftest import ROOT
from .downforce import (
    betting,
    deal,
    keep_power,
    move_car,
    next_player,
    phases,
    resolve_card,
    run_auction,
    simulate,
    wild_colours,
)

T = compile_database(load_database(ROOT / "downforce.yaml"))
TRACK = T.tracks[T.rules.track]
RED, BLUE, GREEN, YELLOW, BLACK, ORANGE = range(6)


def space(row: int, lane: int) -> int:
    return TRACK.index(f"r{row}l{lane}")


def match(players: int, games: int = 1, names=None, profiles=None, seed: int = 0):
    """The compiled phases of `games` games on the shipped database, player p's bot names[p] (default: a
    noiseless robot), and their empty state."""
    return phases(T, players, games, names, profiles, seed)


def board(st, g: int, cars: dict[int, tuple[int, int]], owner: dict[int, int] | None = None) -> None:
    """Cars on spaces (row, lane); the others finished (place 6). Owners as
    given, the rest player 1's."""
    st.pos[g] = -1
    st.occupied[g] = False
    for car, (row, lane) in cars.items():
        st.pos[g, car] = space(row, lane)
        st.occupied[g, space(row, lane)] = True
    st.place[g] = [0 if c in cars else 6 for c in range(6)]
    st.owner[g] = [(owner or {}).get(c, 1) for c in range(6)]


def card_with(*moves: tuple[int, int]) -> int:
    """The index of a regular card whose printed moves start with these (car, speed)."""
    for k in range(len(T.cards.ids)):
        listed = [(int(c), int(s)) for c, s in zip(T.cards.car[k], T.cards.speed[k], strict=True) if c >= 0]
        if listed[: len(moves)] == list(moves):
            return k
    raise AssertionError(f"no card starts with {moves}")


# --- Setup ----------------------------------------------------------------------


@pytest.mark.parametrize("players,each", [(2, 21), (3, 14), (4, 10), (5, 8), (6, 7)])
def test_setup_deals_the_42_regular_cards_equally_leaving_two_out_with_4_or_5(players, each):
    m, st = match(players, games=50)
    deal(m, st)
    assert (st.hand.sum(axis=2) == each).all()
    assert (st.hand[:, :, T.cards.is_speed8] == 0).all()
    left = 42 - players * each
    assert left == (2 if players in (4, 5) else 0)
    assert (st.hand.sum(axis=1) <= T.cards.count[None, :]).all()


# --- The Auction ---------------------------------------------------------------------


def test_auction_every_player_gets_a_car_pays_its_bid_and_takes_the_speed8_card():
    m, st = match(4, games=300, names=["balanced", "shark", "miser", "random"])
    deal(m, st)
    run_auction(m, st)
    owns = st.owner[:, None, :] == np.arange(4)[None, :, None]
    assert (owns.sum(axis=2) >= 1).all(), "every player must have at least one car"
    assert (st.paid.sum(axis=1) == st.price.sum(axis=1)).all()
    assert (st.hand[:, :, T.speed8_card] == owns).all(), "the buyer takes the car's Speed-8 card"
    assert (np.sort(st.sold, axis=1) == np.arange(1, 7)).all(), "one car per auction round"
    assert ((st.power >= 0) == owns.any(axis=2)).all() and (st.power >= 0).all(), "each keeps one power"


def test_auction_ties_go_to_more_cars_on_the_card_then_to_no_wild():
    cards = T.cards
    regular = np.flatnonzero(~cards.is_speed8)
    same_bid = [(i, j) for i in regular for j in regular if i != j and cards.bid[i, RED] == cards.bid[j, RED] > 0]
    fewer, more = next((i, j) for i, j in same_bid if cards.n_cars[i] < cards.n_cars[j])
    wild, plain = next(
        (i, j) for i, j in same_bid if cards.n_cars[i] == cards.n_cars[j] and cards.wilds[i] > cards.wilds[j]
    )
    for loser, winner in ((fewer, more), (wild, plain)):
        m, st = match(2, games=1)
        st.hand[0, 0, loser] = 1
        st.hand[0, 1, winner] = 1
        run_auction(m, st, car_order=np.array([[RED, BLUE, GREEN, YELLOW, BLACK, ORANGE]]))
        assert st.owner[0, RED] == 1 and st.price[0, RED] == cards.bid[winner, RED]


def test_a_tie_the_rulebook_leaves_goes_to_the_lower_seat_or_to_a_random_one():
    """Issue 36: the same card in both hands bids the same for every car; the
    rulebook's tie-breaks leave it tied. rules.auction_ties: lower_seat (the
    default, ours) gives it to player 0; random to either, half the time each."""
    import dataclasses

    cards = T.cards
    card = next(k for k in np.flatnonzero(~cards.is_speed8) if cards.bid[k, RED] > 0)
    order = np.tile([[RED, BLUE, GREEN, YELLOW, BLACK, ORANGE]], (400, 1))
    winners = {}
    for ties in ("lower_seat", "random"):
        tables = dataclasses.replace(T, rules=dataclasses.replace(T.rules, random_ties=ties == "random"))
        m, st = phases(tables, 2, games=400, seed=5)
        st.hand[:, :, card] = 1
        run_auction(m, st, car_order=order)
        winners[ties] = st.owner[:, RED]
    assert (winners["lower_seat"] == 0).all()
    share = (winners["random"] == 1).mean()
    assert 0.4 < share < 0.6, share


def test_only_players_without_a_car_bid_when_the_cars_left_equal_them_and_the_last_bid_is_forced():
    m, st = match(3, games=400, names=["shark", "shark", "miser"], seed=3)
    deal(m, st)
    run_auction(m, st)
    owns = st.owner[:, None, :] == np.arange(3)[None, :, None]
    assert (owns.sum(axis=2) >= 1).all()
    # In games where one player bought nothing in the first five rounds, the sixth car is theirs.
    last_car = st.sold.argmax(axis=1)
    before = (owns & (st.sold[:, None, :] < 6)).any(axis=2)  # (G, N): had a car before round 6
    lonely = ~before
    g = np.flatnonzero(lonely.any(axis=1))
    assert len(g) > 0
    who = lonely[g].argmax(axis=1)
    assert (st.owner[g, last_car[g]] == who).all()
    # ...at the price of its lowest card for that colour (its hand is still the deal: it won nothing)
    bids = np.where(st.hand[g, who] > 0, T.cards.bid[:, last_car[g]].T, 10**6)
    assert (st.price[g, last_car[g]] == bids.min(axis=1)).all()


def test_cars_move_top_to_bottom_unless_tricky_and_cunning_owners_steer_their_own_cars():
    k = next(
        k for k in np.flatnonzero(~T.cards.is_speed8) if 0 <= T.cards.car[k, 0] < WILD and 0 <= T.cards.car[k, 1] < WILD
    )
    first, second = int(T.cards.car[k, 0]), int(T.cards.car[k, 1])
    walls = [c for c in range(6) if c not in (first, second)][:2]
    m, st = match(2, games=2)
    for g in range(2):
        # `first` sits right behind `second`, boxed in by two walls beside it
        board(st, g, {first: (2, 1), second: (3, 1), walls[0]: (3, 0), walls[1]: (3, 2)}, owner={second: 0})
    st.power[:, 0] = [-1, T.powers.index("tricky")]
    resolve_card(m, st, np.arange(2), np.zeros(2, int), np.full(2, k))
    assert st.lost[0, first] == T.cards.speed[k, 0] and st.moved[0, first] == 0, "printed order: the first is boxed in"
    assert st.moved[1, first] > 0, "Tricky: the player's own car (printed second) goes first and frees the way"

    red = next(k for k in np.flatnonzero(~T.cards.is_speed8) if T.cards.car[k, 0] == RED and T.cards.speed[k, 0] >= 3)
    m, st = match(2, games=2, names=["shark", "robot"])  # the shark steers rivals into jams (jam 1)
    for g in range(2):
        board(st, g, {RED: (2, 1), BLUE: (4, 0), GREEN: (4, 1)}, owner={RED: 1})
    st.power[:, 1] = [-1, T.powers.index("cunning")]
    resolve_card(m, st, np.arange(2), np.zeros(2, int), np.full(2, red))
    rows = TRACK.row[st.pos[:, RED]]
    assert rows[0] == 3, "jammed by the shark"
    assert rows[1] == 2 + T.cards.speed[red, 0], "Cunning: its owner steers it to open road"


def test_a_player_with_several_powers_keeps_one():
    m, st = match(2, games=1)
    won = np.zeros((1, 2, 6), bool)
    won[0, 0, [1, 3, 4]] = True
    won[0, 1, 2] = True
    keep_power(m, st, won)
    assert st.power[0, 0] in (1, 3, 4) and st.power[0, 1] == 2


# --- The Race: moving cars ---------------------------------------------------------------


def test_cars_move_forward_or_diagonally_the_full_amount_when_they_can():
    m, st = match(2)
    board(st, 0, {RED: (2, 1)})
    move_car(m, st, np.array([0]), np.array([RED]), np.array([5]), np.array([1.0]), np.array([1]), "steer")
    assert TRACK.row[st.pos[0, RED]] == 7 and st.moved[0, RED] == 5


def test_no_passing_through_cars_a_blocked_car_loses_the_rest():
    m, st = match(2)
    board(st, 0, {RED: (2, 1), BLUE: (3, 0), GREEN: (3, 1), YELLOW: (3, 2)})
    move_car(m, st, np.array([0]), np.array([RED]), np.array([4]), np.array([1.0]), np.array([1]), "steer")
    assert st.pos[0, RED] == space(2, 1) and st.lost[0, RED] == 4


def test_a_car_squeezes_diagonally_between_two_diagonally_adjacent_cars():
    m, st = match(2)
    board(st, 0, {RED: (2, 0), BLUE: (3, 0), GREEN: (2, 1), BLACK: (3, 2)})
    move_car(m, st, np.array([0]), np.array([RED]), np.array([1]), np.array([1.0]), np.array([1]), "steer")
    assert st.pos[0, RED] == space(3, 1), "between blue (ahead) and green (beside): the diagonal is free"


def test_a_rival_may_be_steered_into_a_jam_on_purpose():
    m, st = match(2)
    # Red at row 2 lane 1; blue and green wall off lanes 0 and 1 of row 4: only lane 2 stays open.
    board(st, 0, {RED: (2, 1), BLUE: (4, 0), GREEN: (4, 1)})
    move_car(m, st, np.array([0]), np.array([RED]), np.array([3]), np.array([-1.0]), np.array([1]), "steer")
    jammed = st.pos[0, RED]
    board(st, 0, {RED: (2, 1), BLUE: (4, 0), GREEN: (4, 1)})
    move_car(m, st, np.array([0]), np.array([RED]), np.array([3]), np.array([1.0]), np.array([1]), "steer")
    assert TRACK.row[st.pos[0, RED]] == 5, "steered to open road it moves all 3"
    assert TRACK.row[jammed] == 3, "steered into the wall it stops after 1"


def test_finishing_cars_leave_the_board_in_the_order_they_cross():
    m, st = match(2)
    board(st, 0, {RED: (48, 0), BLUE: (49, 1)})
    move_car(m, st, np.array([0]), np.array([BLUE]), np.array([3]), np.array([1.0]), np.array([1]), "steer")
    move_car(m, st, np.array([0]), np.array([RED]), np.array([3]), np.array([1.0]), np.array([1]), "steer")
    assert st.place[0, BLUE] == 1 and st.place[0, RED] == 2 and not st.occupied[0].any()
    assert st.finishers[0] == 2 and (st.pos[0, [RED, BLUE]] == -1).all()


def card_with_any(car: int, at_least: int = 1) -> int:
    """A regular card with `car` first and at least this many cars on it."""
    return int(np.flatnonzero((T.cards.car[:, 0] == car) & ~T.cards.is_speed8 & (T.cards.n_cars >= at_least))[0])


# --- Wilds and powers ---------------------------------------------------------------------------


def test_a_wild_moves_a_colour_not_on_the_card_two_wilds_two_colours_unpredictable_any():
    m, st = match(2, games=200, seed=4)
    board_all = {c: (2 + c // 3, c % 3) for c in range(6)}
    for g in range(200):
        board(st, g, board_all, owner={c: c % 2 for c in range(6)})
    twos = np.flatnonzero((T.cards.car == WILD).sum(axis=1) == 2)
    ones = np.flatnonzero((T.cards.car == WILD).sum(axis=1) == 1)
    for k in (*twos[:1], *ones[:2]):
        card = np.full(200, k)
        cars = wild_colours(m, st, np.arange(200), np.zeros(200, int), card)
        printed = set(T.cards.car[k][(T.cards.car[k] >= 0) & (T.cards.car[k] < WILD)].tolist())
        wild_slots = np.flatnonzero(T.cards.car[k] == WILD)
        picked = cars[:, wild_slots]
        assert not np.isin(picked, list(printed)).any(), "a wild is a colour not on the card"
        if len(wild_slots) == 2:
            assert (picked[:, 0] != picked[:, 1]).all(), "two wilds, two different colours"
    # Player 0 owns only a colour printed on the card: the wild would move it most gladly.
    k = ones[0]
    mine = int(T.cards.car[k][(T.cards.car[k] >= 0) & (T.cards.car[k] < WILD)][0])
    m, st = match(2, games=2)
    spread = {c: (4 * c, 1) for c in range(6)}  # every car with open road
    for g in range(2):
        board(st, g, spread, owner={mine: 0})
    st.power[:, 0] = [T.powers.index("unpredictable"), T.powers.index("cunning")]
    cars = wild_colours(m, st, np.arange(2), np.zeros(2, int), np.full(2, k))
    picked = cars[:, np.flatnonzero(T.cards.car[k] == WILD)[0]]
    assert picked[0] == mine, "Unpredictable: the wild may be a colour already on the card"
    assert picked[1] != mine, "otherwise it may not"


def test_aggressive_moves_its_own_first_car_one_more_and_strategic_skips_a_rival():
    k = card_with_any(RED, at_least=3)
    speed = int(T.cards.speed[k, 0])
    rivals = [int(c) for c in T.cards.car[k, 1:] if 0 <= c < WILD]
    assert rivals
    m, st = match(2, games=2)
    others = {c: (2 + c // 3, c % 3) for c in range(1, 6)}  # behind red, which has open road
    for g in range(2):
        board(st, g, {RED: (10, 0), **others}, owner={RED: 0})
    st.power[:, 0] = [T.powers.index("aggressive"), T.powers.index("strategic")]
    start = st.pos[:, RED].copy()
    resolve_card(m, st, np.arange(2), np.zeros(2, int), np.full(2, k))
    moved = TRACK.row[st.pos[:, RED]] - TRACK.row[start]
    assert moved[0] == speed + 1, "Aggressive: one more space for its own car on top"
    assert moved[1] == speed
    skipped = (st.moved[:, rivals] == 0) & (st.lost[:, rivals] == 0)  # neither moved nor blocked
    assert skipped[1].sum() == 1, "Strategic skips exactly one rival car"
    assert skipped[0].sum() == 0, "without Strategic every car on the card moves (or is blocked)"


def test_determined_cars_on_rectangular_spaces_move_one_more():
    m, st = match(2, games=1)
    board(st, 0, {RED: (2, 0)}, owner={RED: 0})
    st.power[0, 0] = T.powers.index("determined")
    k = card_with_any(RED)
    speed = int(T.cards.speed[k, 0])
    resolve_card(m, st, np.array([0]), np.array([0]), np.array([k]))
    assert TRACK.row[st.pos[0, RED]] == 2 + speed + 1, "rows 0-11 are rectangular: the bonus space"


# --- The Betting, scoring, turns -----------------------------------------------------------------


def test_betting_once_per_line_when_a_car_first_crosses_it_after_the_card():
    m, st = match(3, games=1)
    behind = {c: (2 + c // 3, c % 3) for c in range(1, 6)}
    board(st, 0, {RED: (TRACK.betting_rows[0], 0), **behind}, owner={RED: 1, BLUE: 2})
    betting(m, st, np.array([0]))
    assert st.lines_done[0].tolist() == [True, False, False]
    assert (st.bets[0, :, 0] >= 0).all() and (st.bets[0, :, 1:] == -1).all()
    bets = st.bets.copy()
    betting(m, st, np.array([0]))
    assert (st.bets == bets).all(), "a line is bet on once"


def test_money_is_prizes_plus_bets_minus_bids_ties_to_the_best_car():
    m, st = match(2, games=1)
    st.owner[0] = [0, 0, 0, 1, 1, 1]
    st.place[0] = [1, 4, 6, 2, 3, 5]
    st.paid[0] = [10, 5]
    st.bets[0] = [[0, 3, -1], [3, 3, 3]]
    cash = money(st, T)
    # player 0: prizes 12 + 4 + 0, bets 9 (line 1 on 1st) + 4 (line 2 on 2nd); player 1: 9 + 6 + 2, 6 + 4 + 2
    assert cash["prizes"][0].tolist() == [16, 17] and cash["bets"][0].tolist() == [13, 12]
    assert cash["money"][0].tolist() == [19, 24]
    st.paid[0] = [10, 10]
    assert money(st, T)["money"][0].tolist() == [19, 19]
    assert standings(st, T)[0].tolist() == [1, 2], "equal money: the player whose car finished higher"


def test_turns_go_clockwise_and_skip_players_with_no_car_racing():
    m, st = match(3, games=1)
    st.owner[0] = [0, 1, 2, 0, 1, 2]
    st.place[0] = [1, 2, 0, 3, 4, 0]  # player 0 and 1's cars are home
    st.hand[0, :, 0] = 1
    st.current[0] = 0
    assert next_player(m, st).tolist() == [2]


def test_whole_games_keep_the_rules():
    for players in (2, 4, 6):
        bots = bot_table(
            resolve_profiles(None), ["balanced", "shark", "miser", "random", "balanced", "shark"][:players], T
        )
        seats = (np.arange(players)[None, :] + np.arange(150)[:, None]) % players
        st, broken = simulate(T, bots, seats, Streams(players, 0, len(seats)))
        assert broken == []
        assert (st.place > 0).mean() > 0.8, "most cars finish"


def test_same_seed_same_games_and_one_game_at_a_time():
    bots = bot_table(resolve_profiles(None), ["balanced", "shark", "miser", "random"], T)
    seats = np.tile(np.arange(4), (64, 1))
    (a, _), (b, _) = (simulate(T, bots, seats, Streams(7, 0, len(seats))) for _ in range(2))
    for name in ("owner", "price", "place", "bets", "played", "moved"):
        assert np.array_equal(getattr(a, name), getattr(b, name)), name
    for seed in range(6):
        one, broken = simulate(T, bots, seats[:1], Streams(seed, 0, 1))
        assert broken == []
        alone = simulate(T, bots, seats[:6], Streams(seed, 0, 6))[0]
        assert np.array_equal(one.place[0], alone.place[0]), "game 0 is the same game alone or in a batch"
