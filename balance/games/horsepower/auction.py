"""Auctions (rulebook 5.1), for every game in a sub-batch at once.

Bots bid the minimum raise (one coin over the highest bid) while the highest
bid is below the most they will pay: `bid` times the card's value, never more
than their coins. Noise spreads that limit; the random bot's limit is uniform
between 0 and its coins.
"""

from __future__ import annotations

import numpy as np

from .. import chance
from .actions import reveal_part, situation_variants
from .context import Ctx
from .state import State


def run_auction(ctx: Ctx, st: State, idx: np.ndarray, lander: np.ndarray) -> None:
    card = reveal_part(ctx, st, idx, lander)
    has = card >= 0
    idx, lander, card = idx[has], lander[has], card[has]
    n = len(idx)
    if n == 0:
        return
    P = st.coins.shape[1]
    rows = np.arange(n)
    seat_at = (lander[:, None] + np.arange(P)[None, :]) % P  # (n, P): bidding order, lander first
    # Every seat's value of the card and the most it will pay, all seats at once;
    # noise drawn seat by seat (value noise, then bid noise), as one call.
    q = st.bots[idx]  # (n, P)
    # each seat's two numbers keyed by its seat: one key per (game, seat), all seats in one call
    keys = ctx.streams.key(np.repeat(idx, P), "noise: auction", np.tile(np.arange(P), n))
    u = chance.uniform(keys, 2).reshape(n, P, 2).transpose(1, 0, 2)  # (P, n, 2)
    noise = ctx.bots.noise[q]
    variant = situation_variants(ctx, st, idx) if ctx.bots.situational else 0
    value = ctx.values.acquire[ctx.values.row(q, st.lap[idx], variant), card[:, None]] + noise * u[:, :, 0].T
    coins = st.coins[idx].astype(np.int32)
    wish = (1 - noise) * ctx.bots.bid[q] * value + noise * u[:, :, 1].T * (coins + 1)
    limit = np.clip(np.floor(wish), 0, coins).astype(np.int32)

    # Min raises in bidding order. Positions, not seats: position i is column i
    # of every row, so each step reads one column.
    limit_o = np.take_along_axis(limit, seat_at, axis=1)
    high = np.zeros(n, np.int32)
    top = np.full(n, -1)  # position of the highest bidder, -1 none
    passed = np.zeros((n, P), bool)
    n_passed = np.zeros(n, np.int32)
    live = np.ones(n, bool)
    step = 0
    while np.count_nonzero(live):
        i = step % P
        turn = live & ~passed[:, i] & (top != i)
        raises = turn & (limit_o[:, i] > high)
        high += raises
        top = np.where(raises, i, top)
        folds = turn & ~raises
        passed[:, i] |= folds
        n_passed += folds
        # over when nobody but the highest bidder is still in (who never passes)
        live &= P - n_passed - (top >= 0) > 0
        step += 1
    bidder = np.where(top >= 0, seat_at[rows, np.maximum(top, 0)], -1)

    won = bidder >= 0
    g, w, k = idx[won], bidder[won], card[won]
    st.coins[g, w] -= high[won].astype(np.int16)
    st.garage[g, w, k] += 1
    st.auction_won[g, w, k] += 1
    st.auction_paid[g, w] += high[won]
    st.coins_spent[g, w] += high[won]
    if ctx.events is not None:
        ctx.events.add("auction", g, w, k, st.turns[g, w], price=high[won])

    # Nobody bid: the free round, landing player first; players who passed may take it.
    free = ~won
    # the first in bidding order whose value clears its bar (a yes/no decision: actions.threshold)
    wants = np.take_along_axis(value > 0.5 * noise, seat_at, axis=1)
    first = wants.argmax(axis=1)
    took = free & wants[rows, first]
    taker = np.where(took, seat_at[rows, first], -1)
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
