"""The keyed random numbers of `balance.games.chance`, one game at a time, for
the compiled engines (numba): the very numbers the numpy functions give a
batch, so a game is the same game whichever engine plays it.

A draw's key is (the game's hash, the step, its purpose, the seat, how many
draws of that purpose the seat has made in the step), added up as
`Streams.key` adds them; the functions below turn a key into a number as
`chance.uniform`, `uniform_at`, `roll`, `draw_one`, `draw_many` and
`draw_reshuffling` do for a row of keys. An engine keeps its draw counts in
a table (purposes x seats, int64, one row more whose first entry is the step; `next_step` zeroes it) and asks `key` for
each draw. Every operation on a key is uint64 arithmetic, which wraps as a
hash wants; a number mixed with a signed integer would turn into a float in
numba, so every constant here is a uint64.
"""

from __future__ import annotations

import zlib

import numpy as np
from numba import njit

from ..plain_refcounts import use_plain_refcounts
from . import _COUNT, _GOLDEN, _M1, _M2, _SEAT, _SUB, TABLE, _multipliers

use_plain_refcounts()  # before any compiled code runs in this process (plain_refcounts.py says why)

_S27, _S29, _S30, _S31, _S32, _S40 = (np.uint64(n) for n in (27, 29, 30, 31, 32, 40))
_GOLD = np.uint64(_GOLDEN)
_TO_UNIT = 2.0**-32
_TO_UNIT32 = np.float32(2.0**-24)
MULTIPLIERS = _multipliers(4096)[:4096].copy()  # the noise columns' constants (chance._MULTIPLIERS), one per card
NO_SEAT = TABLE  # the seat column of draws nobody owns (the table's)


def purpose_codes(purposes: tuple[str, ...]) -> np.ndarray:
    """(n,) uint64 each purpose's code, as Streams hashes it (crc32 of its name), shifted into place."""
    return np.array([zlib.crc32(p.encode()) << 32 for p in purposes], dtype=np.uint64)


@njit(cache=True)
def mix(z: np.uint64) -> np.uint64:
    """splitmix64's finaliser (chance._mix)."""
    z = (z ^ (z >> _S30)) * _M1
    z = (z ^ (z >> _S27)) * _M2
    return z ^ (z >> _S31)


@njit(cache=True)
def light(z: np.uint64) -> np.uint64:
    """The one-multiply mix that makes a key a number (chance._light)."""
    z = (z ^ (z >> _S32)) * _M1
    return z ^ (z >> _S29)


@njit(cache=True)
def next_step(draws: np.ndarray) -> None:
    """Streams.next_step: a new step, every count back to zero."""
    step = draws[-1, 0] + 1
    draws[:] = 0
    draws[-1, 0] = step


@njit(cache=True)
def key(game: np.uint64, draws: np.ndarray, codes: np.ndarray, purpose: int, seat: int) -> np.uint64:
    """The key of one draw of `purpose` (an index into `codes`) by `seat`
    (NO_SEAT: the table) in the game whose hash is `game` (Streams.game);
    the seat's count of that purpose goes up by one (Streams.key)."""
    step = np.uint64(draws[-1, 0])
    part = mix(codes[purpose] + step) + _GOLD
    made = np.uint64(draws[purpose, seat])
    draws[purpose, seat] += 1
    return game + part + np.uint64(seat) * _SEAT + made * _COUNT


@njit(cache=True)
def _float32_of(bits: np.uint64) -> np.float32:
    return np.float32(bits >> _S40) * _TO_UNIT32


@njit(cache=True)
def uniform(k: np.uint64) -> np.float32:
    """chance.uniform(keys): one float32 in [0, 1)."""
    return _float32_of(light(k))


@njit(cache=True)
def uniform_at(k: np.uint64, column: int) -> np.float32:
    """Column `column` of chance.uniform_at(keys, ...) (and of chance.uniform(keys, n))."""
    return _float32_of(light(k) * MULTIPLIERS[column])


@njit(cache=True)
def noise_of(hashed: np.uint64, column: int) -> np.float32:
    """uniform_at from the key's hash (light(key)), computed once for many columns."""
    return _float32_of(hashed * MULTIPLIERS[column])


@njit(cache=True)
def _u32(k: np.uint64, column: int) -> np.uint64:
    """Column `column` of chance._u32(keys, count): two to a 64-bit column, its low half first."""
    bits = light(light(k) + np.uint64(column // 2 + 1) * _GOLD)
    return bits & np.uint64(0xFFFFFFFF) if column % 2 == 0 else bits >> _S32


@njit(cache=True)
def _unit_of(k: np.uint64) -> float:
    """chance._unit(chance._u32(keys)): one float64 in [0, 1) from a key's top 32 bits."""
    return float(light(k) >> _S32) * _TO_UNIT


@njit(cache=True)
def roll(k: np.uint64, sides: int) -> int:
    """chance.roll(keys, sides): one die."""
    return int(_unit_of(k) * sides) + 1


@njit(cache=True)
def roll_at(k: np.uint64, sides: int, column: int) -> int:
    """Die `column` of chance.roll(keys, sides, D): the same die whatever D is."""
    return int(float(_u32(k, column)) * _TO_UNIT * sides) + 1


@njit(cache=True)
def draw_one(k: np.uint64, counts: np.ndarray) -> int:
    """chance.draw_one: one random copy out of `counts` (K,), in place; -1 if empty."""
    total = 0
    for c in counts:
        total += c
    if total <= 0:
        return -1
    pick = int(_unit_of(k) * total)
    seen = 0
    for card in range(len(counts)):
        seen += counts[card]
        if seen > pick:
            counts[card] -= 1
            return card
    return -1  # unreachable: pick < total


@njit(cache=True)
def draw_many(k: np.uint64, counts: np.ndarray, n: int, out: np.ndarray) -> None:
    """chance.draw_many: min(n, total) copies out of `counts` (K,), without
    replacement, added to `out` (K,); `counts` changes in place. Positions in
    the pile as it was are chosen one by one among those not yet taken (the
    i-th from the key's column i), as the numpy Floyd's method does."""
    draw_many_in(k, counts, n, out, np.empty(max(n, 0), np.int64))


@njit(cache=True)
def draw_many_in(k: np.uint64, counts: np.ndarray, n: int, out: np.ndarray, taken: np.ndarray) -> None:
    """draw_many with the caller's scratch `taken` (n long, or one is made):
    an engine's hot path draws every turn, and an array made per draw costs
    more than the draw."""
    total = 0
    for c in counts:
        total += c
    if n <= 0:
        return
    if n >= total:  # the whole pile: no randomness
        for card in range(len(counts)):
            out[card] += counts[card]
            counts[card] = 0
        return
    if n > len(taken):  # a scratch too short for this draw: one of its own
        taken = np.empty(n, np.int64)
    for i in range(n):
        pos = int(float(_u32(k, i)) * _TO_UNIT * max(total - i, 1))
        for j in range(i):  # skip over taken positions, in ascending order
            if pos >= taken[j]:
                pos += 1
        j = i  # insert pos, keeping `taken` ascending
        while j > 0 and taken[j - 1] > pos:
            taken[j] = taken[j - 1]
            j -= 1
        taken[j] = pos
    # Which card each position holds does not depend on the order they were chosen in: one walk
    # up the pile, the positions ascending, finds them all.
    seen, j = 0, 0
    for card in range(len(counts)):
        seen += counts[card]
        got = 0
        while j < n and taken[j] < seen:
            got += 1
            j += 1
        counts[card] -= got
        out[card] += got


@njit(cache=True)
def draw_reshuffling(k: np.uint64, deck: np.ndarray, discard: np.ndarray, n: int, out: np.ndarray) -> None:
    """chance.draw_reshuffling: n cards from `deck` into `out`; a deck that runs
    short takes its `discard` in (reshuffled) and goes on drawing, from a second
    stream of the same key. Both piles change in place."""
    draw_reshuffling_in(k, deck, discard, n, out, np.empty(max(n, 0), np.int64))


@njit(cache=True)
def draw_reshuffling_in(
    k: np.uint64, deck: np.ndarray, discard: np.ndarray, n: int, out: np.ndarray, taken: np.ndarray
) -> None:
    """draw_reshuffling with the caller's scratch (draw_many_in)."""
    before = 0
    for c in out:
        before += c
    draw_many_in(k, deck, n, out, taken)
    got = -before
    for c in out:
        got += c
    short = n - got
    if short > 0:
        for card in range(len(deck)):
            deck[card] += discard[card]
            discard[card] = 0
        draw_many_in(mix(k ^ _SUB), deck, short, out, taken)
