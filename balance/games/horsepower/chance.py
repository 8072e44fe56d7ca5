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


def draw_one(rng: np.random.Generator, counts: np.ndarray, mask: np.ndarray) -> np.ndarray:
    """Take one random copy out of each masked row of `counts` (N, K), in place.

    Returns (N,) the card index drawn, -1 where the row was masked out or empty.
    """
    u = rng.random(counts.shape[0])
    total = counts.sum(axis=1, dtype=np.int32)
    ok = mask & (total > 0)
    pick = (u * total).astype(np.int32)
    card = (counts.cumsum(axis=1, dtype=np.int32) <= pick[:, None]).sum(axis=1)
    card = np.where(ok, card, -1)
    rows = np.flatnonzero(ok)
    counts[rows, card[rows]] -= 1
    return card


def roll(rng: np.random.Generator, shape: tuple[int, ...], sides: int) -> np.ndarray:
    """Dice: integers 1..sides."""
    return rng.integers(1, sides + 1, size=shape, dtype=np.int16)


def uniform(rng: np.random.Generator, shape: tuple[int, ...]) -> np.ndarray:
    """Noise for the random bot's choices and for tie-breaking between equal values."""
    return rng.random(shape, dtype=np.float32)


def permutation_rows(rng: np.random.Generator, n_rows: int, n: int) -> np.ndarray:
    """(n_rows, n) independent random permutations of 0..n-1."""
    return np.argsort(rng.random((n_rows, n)), axis=1)
