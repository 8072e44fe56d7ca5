"""Auctions (rulebook 5.1), for every game in a sub-batch at once.

Bots bid the minimum raise (one coin over the highest bid) while the highest
bid is below the most they will pay: `bid` times the card's value, never more
than their coins. Noise spreads that limit; the random bot's limit is uniform
between 0 and its coins.
"""

from __future__ import annotations

import numpy as np

from .. import chance
from ..rows import row_any
from .actions import card_value_of, reveal_part, threshold
from .context import Ctx
from .state import State


def run_auction(ctx: Ctx, st: State, idx: np.ndarray, lander: np.ndarray) -> None:
    card = reveal_part(ctx, st, idx)
    has = card >= 0
    idx, lander, card = idx[has], lander[has], card[has]
    n = len(idx)
    if n == 0:
        return
    P = st.coins.shape[1]
    rows = np.arange(n)
    seat_at = (lander[:, None] + np.arange(P)[None, :]) % P  # (n, P): bidding order, lander first
    value = np.zeros((n, P), np.float32)
    limit = np.zeros((n, P), np.int32)
    for p in range(P):
        seat = np.full(n, p)
        value[:, p] = card_value_of(ctx, st, idx, seat, card)
        q = st.bots[idx, p]
        noise, coins = ctx.bots.noise[q], st.coins[idx, p].astype(np.int32)
        wish = (1 - noise) * ctx.bots.bid[q] * value[:, p] + noise * chance.uniform(ctx.rng, (n,)) * (coins + 1)
        limit[:, p] = np.clip(np.floor(wish), 0, coins)

    high = np.zeros(n, np.int32)
    bidder = np.full(n, -1)
    passed = np.zeros((n, P), bool)
    live = np.ones(n, bool)
    step = 0
    while np.count_nonzero(live):
        p = seat_at[:, step % P]
        turn = live & ~passed[rows, p] & (bidder != p)
        raises = turn & (limit[rows, p] > high)
        high[raises] += 1
        bidder[raises] = p[raises]
        passed[rows[turn & ~raises], p[turn & ~raises]] = True
        live &= row_any(~passed & (np.arange(P)[None, :] != bidder[:, None]))
        step += 1

    won = bidder >= 0
    g, w, k = idx[won], bidder[won], card[won]
    st.coins[g, w] -= high[won].astype(np.int16)
    st.garage[g, w, k] += 1
    st.auction_won[g, w, k] += 1
    st.auction_paid[g, w] += high[won].astype(np.int16)
    st.coins_spent[g, w] += high[won].astype(np.int16)
    if ctx.events is not None:
        ctx.events.add("auction", g, w, k, st.turns[g, w], price=high[won])

    # Nobody bid: the free round, landing player first; players who passed may take it.
    free = ~won
    taker = np.full(n, -1)
    for i in range(P):
        p = seat_at[:, i]
        q_noise_bar = threshold(ctx, st, idx, p)
        wants = free & (taker < 0) & (value[rows, p] > q_noise_bar)
        taker[wants] = p[wants]
    took = taker >= 0
    st.garage[idx[took], taker[took], card[took]] += 1
    st.auction_won[idx[took], taker[took], card[took]] += 1
    if ctx.events is not None:
        ctx.events.add("free_auction", idx[took], taker[took], card[took], st.turns[idx[took], taker[took]], price=0)
    left = free & ~took
    st.showroom_discard[idx[left], card[left]] += 1

    if ctx.rec.on:
        names = ctx.tables.cards.names

        def text(j: int) -> str:
            head = f"  Auction: {names[card[j]]} revealed; "
            if won[j]:
                return head + f"seat {bidder[j]} wins it for {high[j]} coin(s) (limits {limit[j].tolist()} by seat)"
            if took[j]:
                return head + f"nobody bids; seat {taker[j]} takes it free"
            return head + "nobody bids or takes it; it goes to the Showroom discard"

        ctx.rec.say(idx, text)
