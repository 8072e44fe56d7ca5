"""Moving cars and cards: placing a car on the two-lane track (blocked cars
take the first free spot behind), flipping cards until a basic speed card
shows, drawing with the discard reshuffled in. Sub-batch convention: `g`
(n,) races, `p` (n,) the car acting in each."""

from __future__ import annotations

import numpy as np

from .. import chance
from .race import Race
from .state import State


def place(race: Race, st: State, g: np.ndarray, p: np.ndarray, target: np.ndarray) -> None:
    """Put car p of race g on space `target`, or on the first space behind it
    with a free spot (cars pass through each other but never share a spot);
    on the race line if that spot is free, else beside it."""
    if len(g) == 0:
        return
    per_space = race.tables.rules.lanes
    P = st.pos.shape[1]
    others = (np.arange(P)[None, :] != p[:, None]) & ~st.finished[g]  # finished cars have left the track
    pos = st.pos[g]
    y = np.asarray(target, dtype=np.int16).copy()
    for _ in range(P):  # at most P // per_space full spaces in a row
        full = ((pos == y[:, None]) & others).sum(axis=1) >= per_space
        if not full.any():
            break
        y -= full.astype(np.int16)
    race_line_taken = ((pos == y[:, None]) & others & (st.lane[g] == 0)).any(axis=1)
    st.pos[g, p] = y
    st.lane[g, p] = race_line_taken.astype(np.int8)


def flip(race: Race, st: State, g: np.ndarray, p: np.ndarray, count: np.ndarray, purpose: str) -> np.ndarray:
    """For each of `count` flips: draw from the deck (the discard reshuffled in
    when it runs out) until a basic speed card shows; it joins the play area,
    the others go to the discard. Returns (n,) the speed added. A car with no
    basic card left anywhere stops flipping. `purpose`: the caller's name for
    the draws (each card turned is one draw of car p's)."""
    cards = race.tables.cards
    n = len(g)
    added = np.zeros(n, np.int16)
    left = np.asarray(count, dtype=np.int32).copy()
    if n == 0 or not (left > 0).any():
        return added
    deck, discard, play = st.deck[g, p], st.discard[g, p], st.play[g, p]
    # Work on the card kinds these cars own only, and each step on the cars still flipping.
    cols = np.flatnonzero((deck + discard).any(axis=0))
    if len(cols) == 0:  # every card of these cars is in hand or in play: nothing to flip
        return added
    basic = cards.is_basic[cols]
    speed = cards.speed[cols]
    d, x, y = deck[:, cols], discard[:, cols], play[:, cols]
    while True:
        rows = np.flatnonzero(left > 0)
        if len(rows) == 0:
            break
        dr, xr = d[rows], x[rows]
        empty = dr.sum(axis=1) == 0
        dr[empty] += xr[empty]
        xr[empty] = 0
        dry = (dr[:, basic].sum(axis=1) + xr[:, basic].sum(axis=1)) == 0
        left[rows[dry]] = 0
        turn = np.flatnonzero(~dry)  # the cars that turn a card now (a dry car draws nothing)
        keys = np.zeros(len(rows), np.uint64)
        keys[turn] = race.streams.key(g[rows[turn]], purpose, p[rows[turn]])
        card = chance.draw_one(keys, dr, ~dry)
        hit = ~dry & basic[np.maximum(card, 0)]
        miss = ~dry & ~hit
        added[rows[hit]] += speed[card[hit]]
        y[rows[hit], card[hit]] += 1
        xr[np.flatnonzero(miss), card[miss]] += 1
        left[rows[hit]] -= 1
        d[rows], x[rows] = dr, xr
    deck[:, cols], discard[:, cols], play[:, cols] = d, x, y
    st.deck[g, p], st.discard[g, p], st.play[g, p] = deck, discard, play
    return added


def draw(race: Race, st: State, g: np.ndarray, p: np.ndarray, n: np.ndarray, purpose: str) -> None:
    """Each car draws n cards into its hand (the discard reshuffled in when the
    deck runs out); `purpose`: the caller's name for the draw (one per car)."""
    some = np.flatnonzero(n > 0)  # only the cars that draw use up a draw
    if len(some) == 0:
        return
    g, p, n = g[some], p[some], n[some]
    deck, discard = st.deck[g, p], st.discard[g, p]
    drawn = chance.draw_reshuffling(race.streams.key(g, purpose, p), deck, discard, n)
    st.deck[g, p], st.discard[g, p] = deck, discard
    st.hand[g, p] += drawn


def pay_heat(st: State, g: np.ndarray, p: np.ndarray, amount: np.ndarray, heat_card: int) -> None:
    """Heat from the Engine to the discard pile (the caller has checked it is there)."""
    amount = np.asarray(amount, dtype=np.int16)
    st.engine[g, p] -= amount
    st.discard[g, p, heat_card] += amount
    st.heat_paid[g, p] += amount
