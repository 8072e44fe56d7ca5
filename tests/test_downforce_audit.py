"""The audit of the Downforce bots (issue 16, item 10): the random bot steers,
uses Strategic and orders a Tricky card uniformly among the legal choices, as
docs/bots.md says; and the trace's gaps of issue 41. Each test failed before
the fix."""

from __future__ import annotations

import re

import numpy as np

from balance.games.downforce.compile import WILD

from .conftest import ROOT
from .downforce import betting, deal, hand_share, move_car, resolve_card, run_auction
from .test_downforce_rules import RED, TRACK, T, board, match, space


def test_the_random_bot_steers_uniformly_among_the_free_spaces_ahead():
    G = 3000
    m, st = match(2, games=G, names=["random", "random"])
    for g in range(G):
        board(st, g, {RED: (2, 1)})
    ahead = TRACK.next[space(2, 1)]
    free = ahead[ahead >= 0]
    assert len(free) >= 2
    move_car(
        m,
        st,
        np.arange(G),
        np.full(G, RED),
        np.ones(G, np.int64),
        np.ones(G),
        np.zeros(G, np.int64),
        "steer",
        np.ones(G, bool),
    )
    share = np.array([(st.pos[:, RED] == s).mean() for s in free])
    assert np.abs(share - 1 / len(free)).max() < 4.5 * np.sqrt(0.25 / G), share


def _card_of_three() -> int:
    """A card moving red first and two other real colours."""
    for k in range(len(T.cards.ids)):
        cars = [int(c) for c in T.cards.car[k] if c >= 0]
        if len(cars) == 3 and cars[0] == RED and all(c < WILD for c in cars):
            return k
    raise AssertionError("no such card")


def _random_plays_three(games: int, power: str, spots) -> tuple:
    """`games` games in which the random player 0 (who owns red) with `power`
    plays a card moving red and two other cars, placed at `spots(others)`
    ({car: (row, lane)}). Returns the state after and the two other cars."""
    k = _card_of_three()
    m, st = match(2, games=games, names=["random", "random"])
    others = [int(c) for c in T.cards.car[k][1:3]]
    for g in range(games):
        board(st, g, spots(others), owner={RED: 0})
    st.power[:, 0] = T.powers.index(power)
    resolve_card(m, st, np.arange(games), np.zeros(games, np.int64), np.full(games, k))
    return st, others


def test_the_random_bot_with_strategic_skips_none_or_any_one_car_alike():
    G = 4000
    st, others = _random_plays_three(G, "strategic", lambda o: {RED: (10, 0), o[0]: (4, 0), o[1]: (4, 2)})
    cars = [RED, *others]
    still = (st.moved[:, cars] == 0) & (st.lost[:, cars] == 0)  # skipped: neither moved nor blocked
    assert (still.sum(axis=1) <= 1).all()
    for share in [*(still[:, i].mean() for i in range(3)), (still.sum(axis=1) == 0).mean()]:
        assert abs(share - 0.25) < 4.5 * np.sqrt(0.25 * 0.75 / G), share


def test_the_random_bot_with_tricky_does_not_always_move_its_own_car_first():
    """Tricky: "you could move the cars [in another order]". Red (its own) is
    printed first and walled in by the card's two other cars just ahead of it:
    moved first it is blocked; moved after them it has open road. The old bot
    always moved its own car first (blocked every time)."""
    st, _ = _random_plays_three(2000, "tricky", lambda o: {RED: (4, 0), o[0]: (5, 0), o[1]: (5, 1)})
    red_blocked = st.lost[:, RED] > 0
    assert 0.05 < red_blocked.mean() < 0.95, red_blocked.mean()


# --- the auction with two players (item 9) and betting (item 11) --------------------


def test_a_cars_worth_counts_the_hands_share_of_its_colour_not_the_hands_size():
    """With two players each hand holds 21 cards, twice a 4-player hand: counted
    in spaces, every bot wanted its highest bid card for every car and 10,221 of
    10,240 early auctions sold at $6M. Against a fair share of the colour, an
    average hand is worth the same whatever the number of players, and two
    `balanced` bots bid like they do with four."""
    for players in (2, 4, 6):
        m, st = match(players, games=400, names=["balanced"] * players, seed=players)
        deal(m, st)
        share = hand_share(m, st, np.zeros(400, np.int64))
        assert np.allclose(share.mean(axis=1), 1.0), "an average hand holds a fair share"
    m, st = match(2, games=1000, names=["balanced", "balanced"], seed=2)
    deal(m, st)
    run_auction(m, st)
    early = st.price[st.sold <= 3]
    assert (early == 6).mean() < 0.2, np.bincount(early)
    assert 2.5 < early.mean() < 5.0, early.mean()


def test_a_bot_with_foresight_bets_on_the_car_with_more_speed_still_to_come():
    """Cards played are public: with every red card played, red (furthest along)
    has nothing left to move it and blue (two rows behind) has all its speed to
    come. A bot with `foresight` 1 bets on blue; with 0 on the leader, red."""
    G = 4
    m, st = match(2, games=G, names=["seer", "leader"], profiles={
        "seer": {"noise": 0.0, "foresight": 1.0, "loyalty": 0.0},
        "leader": {"noise": 0.0, "foresight": 0.0, "loyalty": 0.0},
    })  # fmt: skip
    for g in range(G):
        board(st, g, {RED: (20, 0), 1: (18, 1), 2: (10, 0), 3: (10, 1), 4: (8, 0), 5: (8, 1)}, owner={})
    reds = np.flatnonzero((T.cards.car == RED).any(axis=1))
    st.played[:, 1, reds] = T.cards.count[reds]
    st.hand[:, 0, 0] = 1
    st.lines_done[:] = [False, True, True]
    st.bets[:] = -1
    betting(m, st, np.arange(G))
    assert (st.bets[:, 0, 0] == 1).all() and (st.bets[:, 1, 0] == RED).all(), st.bets[:, :, 0]


# --- the trace (issue 41) ---------------------------------------------------------------


def _traces(games: int) -> list[str]:
    from balance.games import get_game
    from balance.scenario import load_scenario

    scenario = load_scenario(ROOT / "scenarios" / "downforce-four.yaml")
    return [get_game("downforce").trace(scenario, 1, k) for k in range(games)]


def test_a_trace_shows_a_car_moved_twice_by_one_card_at_its_row_after_each_move():
    """A speed card may move one car twice (a wild colour that is also on the
    card): each entry says where the car stood right after that move. Before,
    both entries showed its row after the whole card (seed 1, game 7, Turn 10:
    "yellow 5 (row 26); ... yellow 2 (row 26)")."""
    pairs = []
    for text in _traces(12):
        for line in text.splitlines():
            moves = re.findall(r"(\w+) (\d+) \(row (\d+)", line)
            seen = {}
            for car, speed, row in moves:
                if car in seen and int(speed) > 0 and "blocked" not in line:
                    pairs.append((seen[car], int(row)))
                seen[car] = int(row)
    assert pairs, "some card moved a car twice"
    assert all(first < second for first, second in pairs)


def test_a_trace_names_the_card_of_every_bid():
    """Equal bids are broken by the cars on the bid card, then no wild: the
    trace names each bid's card so that the tie-breaks can be read."""
    auctions = [line for text in _traces(3) for line in text.splitlines() if line.startswith("  auction ")]
    assert len(auctions) == 18
    for line in auctions:
        bids = re.findall(r"player \d+ (\d+ \(s\d+\)|-)", line)
        assert len(bids) == 4 and any(b != "-" for b in bids)
