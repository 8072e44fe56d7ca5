"""Before the race (rulebook "Setup", "The Auction"): deal the 42 regular
speed cards, auction the six cars with their power cards, keep one power.

A bot values a car at its profile's `value` plus `hand` $M per fair share of
that colour's speed its hand holds (hand_share), plus the power card's worth to it; it bids `bid` times that,
with the card whose bid for the car comes closest without going over (else
its lowest). Sub-batch convention: every array has the games axis first.
"""

from __future__ import annotations

import numpy as np

from .. import chance
from ..profiles import noise_span
from .match import Match
from .state import Bonus, State


def deal(match: Match, st: State, bonus: Bonus | None = None) -> None:
    """The regular cards dealt out equally; the ones left over (2 with 4 or 5
    players) go back to the box unseen. A strength `bonus` card is one extra
    copy in the receiving seat's hand, added after the deal (not drawn from the
    deck), so every other hand is dealt exactly as without it."""
    cards = match.tables.cards
    G, N, C = st.hand.shape
    deck = np.ascontiguousarray(np.broadcast_to(np.where(cards.is_speed8, 0, cards.count), (G, C)).astype(np.int16))
    each = int(deck[0].sum()) // N
    rows = np.arange(G)
    for p in range(N):  # one after another from the common deck: the table's draws
        st.hand[:, p] = chance.draw_many(match.streams.key(rows, "deal"), deck, np.full(G, each))
    if bonus is not None and bonus.card >= 0:
        st.hand[np.arange(G), bonus.who, bonus.card] += 1
        if match.rec.on:
            match.rec.say(
                np.arange(G),
                lambda j: f"  strength bonus: player {bonus.who[j]} is dealt an extra {cards.ids[bonus.card]}",
            )
    if match.events is not None:
        g, p, k = np.nonzero(st.hand)
        copies = st.hand[g, p, k]
        g, p, k = np.repeat(g, copies), np.repeat(p, copies), np.repeat(k, copies)
        match.events.add("start", g, p, k, 0)


def shuffled(match: Match, G: int, n: int, purpose: str) -> np.ndarray:
    """(G, n) a random order of 0..n-1 in each game (a shuffled face-down pile
    nobody owns, named by `purpose`)."""
    return np.argsort(chance.uniform(match.streams.key(np.arange(G), purpose), n), axis=1, kind="stable")


def seat_noise(match: Match, G: int, N: int, purpose: str, k: int) -> np.ndarray:
    """(G, N, k) uniform noise for every seat of every game, each seat's keyed
    by its seat (one key per game and seat, asked in one call)."""
    rows = np.repeat(np.arange(G), N)
    seat = np.tile(np.arange(N), G)
    return chance.uniform(match.streams.key(rows, purpose, seat), k).reshape(G, N, k)


def hand_share(match: Match, st: State, car: np.ndarray) -> np.ndarray:
    """(G, N) each hand's speed for colour `car` (G,) against a fair share of
    it (all hands' speed for it over the players): 1 for an average hand
    whatever the number of players. Counted in spaces, the worth grew with the
    hand: with two players (21 cards each) every bot wanted the highest bid
    card for every car, and 10,221 of 10,240 early auctions sold at $6M."""
    G, N, _ = st.hand.shape
    speed = st.hand.astype(np.float32) @ match.colour_speed  # (G, N, 6)
    mine = speed[np.arange(G)[:, None], np.arange(N)[None, :], car[:, None]]
    fair = mine.sum(axis=1, keepdims=True) / N
    return mine / np.maximum(fair, 1e-6)


def run_auction(match: Match, st: State, car_order: np.ndarray | None = None, bonus: Bonus | None = None) -> None:
    """Six rounds; `car_order` (G, 6), if given, stacks the Speed-8 pile (tests).
    A strength `bonus` power changes only the power kept (keep_power): the
    bids are the baseline's."""
    tables, bots = match.tables, match.bots
    cards = tables.cards
    G, N, C = st.hand.shape
    rows = np.arange(G)
    shuffled_cars = shuffled(match, G, 6, "speed-8 pile")  # the Speed-8 pile: which car is up in each round
    car_order = shuffled_cars if car_order is None else car_order
    P = len(tables.powers.ids)
    # the power pile: fewer than six cards leave the last cars without one
    power_order = shuffled(match, G, P, "power pile")
    won_power = np.zeros((G, N, P + 1), bool)  # the last column: a car sold without a power card
    q = st.bots  # (G, N)
    for r in range(6):
        car = car_order[:, r]
        power = power_order[:, r] if r < P else np.full(G, -1, np.int64)
        has_car = (st.owner[:, :, None] == np.arange(N)[None, None, :]).any(axis=1)  # (G, N)
        carless = ~has_car
        # Every player must end with a car: once the cars left equal the players
        # without one, only those may bid.
        only_carless = carless.sum(axis=1) == 6 - r
        eligible = np.where(only_carless[:, None], carless, True)
        bid_of = cards.bid[:, car].T.astype(np.int32)  # (G, C): each card's bid for this car
        holds = st.hand > 0  # (G, N, C)
        worth = bots.value[q] + bots.hand[q] * hand_share(match, st, car) + match.power_worth[q, power[:, None]]
        want = bots.bid[q] * worth  # (G, N) $M it is willing to pay
        b = np.broadcast_to(bid_of[:, None, :], (G, N, C))
        under = b <= want[:, :, None]
        score = np.where(under, b, want[:, :, None] - 2.0 * (b - want[:, :, None]) - 100)
        score = score + noise_span(bots.noise[q])[:, :, None] * 20 * seat_noise(match, G, N, "noise: bid card", C)
        card = np.where(holds, score, -np.inf).argmax(axis=2)  # (G, N)
        # The last car, with a player still without one: that player bids its lowest card for it.
        forced = (r == 5) & carless & eligible
        lowest = np.where(holds, b, 10**6).argmin(axis=2)
        card = np.where(forced, lowest, card)
        amount = np.take_along_axis(b, card[:, :, None], axis=2)[:, :, 0]
        # Highest bid; ties: more cars on the card, then no wild; then (ours, rules.auction_ties) the lower
        # seat, or a seat drawn at random (a fraction below 1 breaks only what the whole keys leave tied)
        key = (amount * 100 + cards.n_cars[card] * 10 + (2 - cards.wilds[card])).astype(np.float64)
        if tables.rules.random_ties:
            key = key + seat_noise(match, G, N, "draw: auction tie", 1)[:, :, 0]
        key = np.where(eligible, key, -1)
        winner = key.argmax(axis=1)
        pay = amount[rows, winner]
        st.owner[rows, car] = winner
        st.price[rows, car] = pay
        st.sold[rows, car] = r + 1
        st.car_power[rows, car] = power
        st.paid[rows, winner] += pay.astype(np.int16)
        st.hand[rows, winner, tables.speed8_card[car]] += 1
        won_power[rows, winner, power] = True  # power -1 (none) marks the last column
        if match.events is not None:
            match.events.add("auction", rows, winner, tables.speed8_card[car], 0, pick=r + 1, price=pay)
        if match.rec.on:
            names = tables.cars

            def text(
                j: int, r=r, car=car, power=power, winner=winner, amount=amount, eligible=eligible, card=card
            ) -> str:
                # each bid with its card: equal bids are broken by the cars on the card, then no wild
                bids = ", ".join(
                    f"player {n} {amount[j, n]} ({cards.ids[card[j, n]]})" if eligible[j, n] else f"player {n} -"
                    for n in range(N)
                )
                power_card = f"with {tables.powers.ids[power[j]]}" if power[j] >= 0 else "without a power card"
                return (
                    f"  auction {r + 1}: the {names[car[j]]} car {power_card}; bids {bids}; "
                    f"player {winner[j]} buys it for ${pay[j]}M"
                )

            match.rec.say(rows, text)
    keep_power(match, st, won_power[:, :, :P], bonus)


def keep_power(match: Match, st: State, won: np.ndarray, bonus: Bonus | None = None) -> None:
    """A player with several power cards keeps the one it values most. A
    strength `bonus` power replaces the receiving seat's kept one (a player
    holds one power card, rulebook "Power Cards"); the others keep theirs, even
    the same power (the bonus is a copy added to the game, like a bonus card)."""
    if won.shape[2] == 0:  # a database without power cards: nobody keeps one
        st.power[:] = -1
        return
    q = st.bots
    G, N, P = won.shape
    value = match.bots.power_value[q] + noise_span(match.bots.noise[q])[:, :, None] * seat_noise(
        match, G, N, "noise: keep power", P
    )
    best = np.where(won, value, -np.inf).argmax(axis=2)
    st.power[:] = np.where(won.any(axis=2), best, -1)
    if bonus is not None and bonus.power >= 0:
        rows = np.arange(st.power.shape[0])
        kept = st.power[rows, bonus.who].copy()
        st.power[rows, bonus.who] = bonus.power
        if match.rec.on:
            ids = match.tables.powers.ids

            def told(j: int) -> str:
                instead = f"in place of {ids[kept[j]]}" if kept[j] >= 0 else "(it had won none)"
                return f"  strength bonus: player {bonus.who[j]} holds {ids[bonus.power]} {instead}"

            match.rec.say(rows, told)
    if match.events is not None:
        g, n = np.nonzero(st.power >= 0)
        match.events.add("power", g, n, st.power[g, n], 0)
    if match.rec.on:
        ids = match.tables.powers.ids
        match.rec.say(
            np.arange(st.power.shape[0]),
            lambda j: (
                "  powers kept: " + ", ".join(f"player {n} {ids[p]}" for n, p in enumerate(st.power[j]) if p >= 0)
            ),
        )
