"""Every random choice of the engine goes through these few functions, each
taking the `numpy.random.Generator` it is given (never the global one).

Piles are multisets: a shuffled face-down pile that nobody looks into is, for
every purpose of the rules, a bag of counts, and drawing its top card is
drawing uniformly from the bag. So "shuffle" is adding counts together and
"draw" picks one copy at random. Each function draws its random numbers for
every row, masked or not, so how much randomness a step consumes never depends
on the state: the same seed and batch give the same games.
"""

from __future__ import annotations

import numpy as np

from .rows import put_rows, row_sum, take_rows

_PAST_END = np.iinfo(np.int32).max  # a position after every real one


def draw_one(rng: np.random.Generator, counts: np.ndarray, mask: np.ndarray) -> np.ndarray:
    """Take one random copy out of each masked row of `counts` (N, K), in place.

    Returns (N,) the card index drawn, -1 where the row was masked out or empty.
    """
    u = rng.random(counts.shape[0])
    cum = counts.cumsum(axis=1, dtype=np.int32)
    total = cum[:, -1]
    ok = mask & (total > 0)
    pick = (u * total).astype(np.int32)
    card = np.where(ok, _card_at(_narrow(cum, total), pick), -1)
    rows = np.flatnonzero(ok)
    counts[rows, card[rows]] -= 1
    return card


def draw_many(rng: np.random.Generator, counts: np.ndarray, n: np.ndarray) -> np.ndarray:
    """Take min(n, total) random copies out of each row of `counts` (N, K), in
    place, without replacement. Returns (N, K) the counts drawn.

    Positions in the implicit sorted pile are chosen one by one among those not
    yet taken (a vectorised Floyd's method), so one cumulative sum serves all draws.
    """
    total = row_sum(counts)
    every = n >= total  # these rows draw their whole pile: no randomness needed
    some = ~every & (n > 0)
    if some.all():  # the usual case (a hand from a deck that holds more): no gathers
        drawn = _draw_some(rng, counts, n)
    else:
        drawn = np.zeros_like(counts)
        all_rows = np.flatnonzero(every)
        put_rows(drawn, all_rows, take_rows(counts, all_rows))
        rows = np.flatnonzero(some)
        if len(rows):
            put_rows(drawn, rows, _draw_some(rng, take_rows(counts, rows), n[rows]))
    counts -= drawn
    return drawn


def draw_reshuffling(rng: np.random.Generator, deck: np.ndarray, discard: np.ndarray, n: np.ndarray) -> np.ndarray:
    """Draw n cards from each row of `deck` (N, K); a row that runs short takes its
    `discard` pile in (reshuffled: counts added) and goes on drawing. Both piles
    change in place; returns (N, K) the cards drawn."""
    drawn = draw_many(rng, deck, n)
    short = n - row_sum(drawn)
    refill = np.flatnonzero(short > 0)
    if len(refill):
        more = take_rows(deck, refill) + take_rows(discard, refill)
        put_rows(discard, refill, np.zeros_like(more))
        got = draw_many(rng, more, short[refill])
        put_rows(drawn, refill, take_rows(drawn, refill) + got)
        put_rows(deck, refill, more)
    return drawn


def _draw_some(rng: np.random.Generator, counts: np.ndarray, take: np.ndarray) -> np.ndarray:
    """draw_many for rows with more cards than they draw (counts not changed)."""
    N, K = counts.shape
    cum = counts.cumsum(axis=1, dtype=np.int32)
    total = cum[:, -1]
    narrow = _narrow(cum, total)
    chosen: list[np.ndarray] = []  # ascending per row: positions already taken
    drawn = np.zeros(counts.shape, counts.dtype)  # C order whatever the input's (a broadcast copy is F order)
    flat = drawn.reshape(-1)  # a view: drawn is new and C-contiguous
    rows = np.arange(N)
    for i in range(int(take.max(initial=0))):
        u = rng.random(N)
        live = i < take
        pos = (u * np.maximum(total - i, 1)).astype(np.int32)
        for c in chosen:  # skip over taken positions, in ascending order
            pos += pos >= c
        card = _card_at(narrow, pos)
        flat[rows * K + card] += live  # one card per row and step: no repeated index
        chosen = sorted_insert(chosen, np.where(live, pos, _PAST_END))
    return drawn


def _narrow(cum: np.ndarray, total: np.ndarray) -> np.ndarray:
    """The cumulative counts (N, K) in the narrowest integer type that holds
    them: the searches compare every entry, and one-byte compares take half
    the time of four-byte ones (4,096 x 50: 25 us against 51 us)."""
    top = int(total.max(initial=0))
    for dtype in (np.int8, np.int16):
        if top <= np.iinfo(dtype).max:
            return cum.astype(dtype)
    return cum


def _card_at(cum: np.ndarray, pos: np.ndarray) -> np.ndarray:
    """(N,) the card at position pos of each implicit sorted pile: the first
    column whose cumulative count exceeds it. A row whose pos is past its pile
    (a row that draws nothing this step) gets a meaningless column."""
    return (cum > pos.astype(cum.dtype)[:, None]).argmax(axis=1)


def sorted_insert(chosen: list[np.ndarray], new: np.ndarray) -> list[np.ndarray]:
    """Insert `new` into the per-row ascending columns `chosen`."""
    out, carry = [], new
    for c in chosen:
        out.append(np.minimum(c, carry))
        carry = np.maximum(c, carry)
    out.append(carry)
    return out


def roll(rng: np.random.Generator, shape: tuple[int, ...], sides: int) -> np.ndarray:
    """Dice: integers 1..sides."""
    return rng.integers(1, sides + 1, size=shape, dtype=np.int16)


def uniform(rng: np.random.Generator, shape: tuple[int, ...]) -> np.ndarray:
    """Noise for the random bot's choices and for tie-breaking between equal values."""
    return rng.random(shape, dtype=np.float32)
