"""Every random number of the engines, each keyed by what it is for.

A random number is a hash of (root seed, game id, the engine's step, the seat
it belongs to, its purpose, and how many draws of that purpose the seat has
made in this step), computed for a batch of games at once over uint64 arrays
(each game's key a full splitmix64 hash, each number one lighter mix of it).
So a game is a function of its seed and its id alone,
whatever chunk it is played in, and a change that alters one player's choices
leaves the other players' cards, dice and noise where they were: the two arms
of a paired experiment stay paired past the first difference, not only
through setup.

An engine asks `Streams.key(rows, purpose, seat)` for the keys of a draw (one
per game row; asking advances those rows' count of that purpose), then hands
them to the functions below, which turn keys into numbers: `uniform`,
`uniform_at` (noise keyed by the choice it is for), `roll`, `draw_one`,
`draw_many`, `draw_reshuffling`. Nothing else in the engines makes
random numbers.

Piles are multisets: a shuffled face-down pile that nobody looks into is, for
every purpose of the rules, a bag of counts, and drawing its top card is
drawing uniformly from the bag. So "shuffle" is adding counts together and
"draw" picks one copy at random.

The rows asked for must be the games that make the draw by their own state
(never "every game, because one of them needed it"): a row's count of a
purpose is part of its keys, so counting a draw a game did not make would tie
that game to its chunk. The chunk-size test in the suite checks this for
every game.
"""

from __future__ import annotations

import sys
import zlib

import numpy as np

from ..rows import put_rows, row_sum, take_rows

_PAST_END = np.iinfo(np.int32).max  # a position after every real one
_U64 = 0xFFFFFFFFFFFFFFFF
_GOLDEN = 0x9E3779B97F4A7C15  # splitmix64's increment: column j of a draw is the splitmix stream's j-th number
_M1, _M2 = np.uint64(0xBF58476D1CE4E5B9), np.uint64(0x94D049BB133111EB)
_S30, _S27, _S31, _S32, _S29 = np.uint64(30), np.uint64(27), np.uint64(31), np.uint64(32), np.uint64(29)
_SEAT_INT = 0xD1B54A32D192ED03  # odd multipliers that spread a seat and a count over the key
_SEAT = np.uint64(_SEAT_INT)
_COUNT = np.uint64(0xAEF17502108EF2D9)
_SUB = np.uint64(0x8CB92BA72F3D8DD7)  # a second stream from the same keys (a reshuffle's draws)
_TO_UNIT = 2.0**-32  # 32 random bits to a float64 in [0, 1)
_TO_UNIT32 = np.float32(2.0**-24)
assert sys.byteorder == "little", "_u32 reads a 64-bit column's halves as two uint32s, low first"
SEATS = 16  # seat columns of the counts: seats 0..14, and the table (draws nobody owns) in the last
TABLE = SEATS - 1


def _mix(z: np.ndarray) -> np.ndarray:
    """splitmix64's finaliser, in place on a uint64 array (a fresh one: it is changed)."""
    z ^= z >> _S30
    z *= _M1
    z ^= z >> _S27
    z *= _M2
    z ^= z >> _S31
    return z


def _light(z: np.ndarray) -> np.ndarray:
    """A one-multiply mix, in place: what a draw hashes, its state already holds
    a full hash (its game's) plus offsets, so one multiply between two
    xorshifts is enough (at 10^6 rows: column correlations within 0.002, pair
    chi-square of neighbouring columns within chance), at 5 array passes
    instead of splitmix64's 8."""
    z ^= z >> _S32
    z *= _M1
    z ^= z >> _S29
    return z


def _light_copy(z: np.ndarray) -> np.ndarray:
    """_light of z into a new array (z unchanged): a draw's keys may be read again (a reshuffle's)."""
    t = z >> _S32
    t ^= z
    t *= _M1
    t ^= t >> _S29
    return t


def _mix_int(z: int) -> int:
    """The same finaliser on a Python int (for the keys' scalar parts)."""
    z &= _U64
    z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & _U64
    z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & _U64
    return z ^ (z >> 31)


_PURPOSE: dict[str, int] = {}


def _purpose(name: str) -> int:
    code = _PURPOSE.get(name)
    if code is None:
        code = _PURPOSE[name] = zlib.crc32(name.encode())
    return code


class Streams:
    """The random numbers of a batch of games `first .. first + games - 1` of a
    run with root `seed`. The engine calls `next_step()` once per step of its
    loop (a round, or a turn, taken by every game of the batch together), so a
    draw is keyed by the step it happens in: a game whose draws of a purpose
    went differently in one step is back in line at the next."""

    def __init__(self, seed: int, first: int, games: int) -> None:
        self.seed, self.first, self.games = seed, first, games
        root = _mix_int(_mix_int(seed % 2**64) + 0x632BE59BD9B4E019)  # apart from seeding.bonus_seat's hash
        with np.errstate(over="ignore"):
            ids = np.arange(first, first + games, dtype=np.uint64)
            self.game = _mix(ids * np.uint64(_GOLDEN) + np.uint64(root))  # (G,) uint64 each game's key
        self.step = 0
        # purpose -> (SEATS * G,) uint64 draws made times _COUNT, seat-major (a seat's counts are a slice),
        # kept pre-multiplied so that a key adds them as they are; a seat's slice holds this step's counts
        # only once its stamp says this step (it is zeroed on its first draw of the step, not every step)
        self._counts: dict[str, np.ndarray] = {}
        self._stamps: dict[str, np.ndarray] = {}  # purpose -> (SEATS,) int64 the step each slice was zeroed
        # (purpose, seat) -> the key's part that is the same for every row of that seat, this step
        self._scalar: dict[tuple[str, int], np.uint64] = {}
        self._fresh: dict[str, int] = {}  # purpose -> the step in which all its slices were last zeroed

    def next_step(self) -> None:
        self.step += 1
        self._scalar.clear()

    def part(self, index: int) -> Streams:
        """The streams of part `index` (0, 1, ...) of each of these games, e.g. a
        Championship season's races: the same games, keys of their own per part,
        so a part is a function of (seed, game id, index) as a game is."""
        other = Streams(self.seed, self.first, self.games)
        with np.errstate(over="ignore"):
            other.game = _mix(self.game + np.uint64(index + 1) * _SUB)
        return other

    def rows(self, rows: np.ndarray) -> Streams:
        """The streams of some of these games (`rows` of the batch), as their own batch: each game's keys
        its own, so a game plays alike in any batch (a drawn season's race, run with the games that drew
        the same track and Event)."""
        other = Streams(self.seed, self.first, len(rows))
        other.game = self.game[rows]
        return other

    def key(self, rows: np.ndarray, purpose: str, seat: int | np.ndarray | None = None) -> np.ndarray:
        """(n,) uint64 the keys of one draw of `purpose` by `seat` (a seat, a seat
        per row, or None for the table) in each game row of `rows` (indices into
        the batch). Each row's count of this purpose goes up by one.

        A key is the draw's identity (the game's hash plus odd multiples of the
        seat and count and a hash of purpose and step), not yet hashed: the
        functions that turn keys into numbers hash each number from it (a
        column j: splitmix64's j-th number from the key as its state), so a draw
        of many numbers hashes each once, not the key first as well."""
        G, step = self.games, self.step
        counts = self._counts.get(purpose)
        if counts is None:
            counts = self._counts[purpose] = np.zeros(SEATS * G, np.uint64)
            self._stamps[purpose] = np.full(SEATS, step, np.int64)
        stamps = self._stamps[purpose]
        col = TABLE if seat is None else seat
        # uint64 array arithmetic wraps silently, as a hash wants (only scalar-scalar overflow warns)
        if isinstance(col, (int, np.integer)):  # one seat for every row (the usual case): one slice
            c = int(col)
            line = counts[c * G : (c + 1) * G]
            part = self._scalar.get((purpose, c))
            if part is None:
                part = self._scalar[(purpose, c)] = np.uint64((self._part(purpose) + c * _SEAT_INT) & _U64)
            z = self.game[rows] + part
            if stamps[c] != step:  # the seat's first draw of this purpose in the step: no counts to read
                stamps[c] = step
                line.fill(0)
                line[rows] = _COUNT
            else:
                made = line[rows]
                line[rows] = made + _COUNT
                z += made
        else:
            if self._fresh.get(purpose) != step:  # the first draw of the step with a seat per row
                stale = np.flatnonzero(stamps != step)
                for c in stale.tolist():  # a few seats at most
                    counts[c * G : (c + 1) * G] = 0
                stamps[stale] = step
                self._fresh[purpose] = step
            col = np.asarray(col)
            at = col * G + rows
            made = counts[at]
            counts[at] = made + _COUNT
            z = self.game[rows] + made
            z += col.astype(np.uint64) * _SEAT
            z += np.uint64(self._part(purpose))
        return z

    def _part(self, purpose: str) -> int:
        """The key's part that is the same for every row: a hash of purpose and
        step, plus the first Weyl step of the numbers hashed from it (_bits)."""
        return (_mix_int((_purpose(purpose) << 32) + self.step) + _GOLDEN) & _U64


def _bits(keys: np.ndarray, columns: int | None = None) -> np.ndarray:
    """(n,) or (n, columns) uint64 random bits: one number a row is the key's
    hash (the key holds the Weyl step already: Streams._part); column j is
    _light of that hash plus j + 1 Weyl steps. A key is its
    game's full hash (Streams.game) plus the draw's offsets, so one light mix
    makes it a number (at 10^6 games, five draws of one game: correlations
    within 0.002, the worst pair chi-square 310 of df 255, 99.9% point 330)."""
    row = _light_copy(keys)
    if columns is None:
        return row
    return _light(row[:, None] + _steps(columns)[None, :])


_STEPS: dict[int, np.ndarray] = {}


def _steps(columns: int) -> np.ndarray:
    """(columns,) uint64 the offsets of a key's columns 0..columns-1 (made once per width)."""
    steps = _STEPS.get(columns)
    if steps is None:
        with np.errstate(over="ignore"):
            steps = _STEPS[columns] = np.arange(1, columns + 1, dtype=np.uint64) * np.uint64(_GOLDEN)
    return steps


def _u32(keys: np.ndarray, count: int | None = None) -> np.ndarray:
    """(n,) or (n, count) uint32 random numbers, two to a 64-bit column (its low
    half first): half the hashing of one number a column, and 32 bits are more
    than a die, a pile position or a bot's noise can tell apart."""
    if count is None:
        return (_bits(keys) >> _S32).astype(np.uint32)
    return _bits(keys, (count + 1) // 2).view(np.uint32)[:, :count]


def _unit(u32: np.ndarray) -> np.ndarray:
    """Uniform float64 in [0, 1) from 32 random bits."""
    return u32 * _TO_UNIT


def substream(keys: np.ndarray) -> np.ndarray:
    """Keys of a second, unrelated draw by the same rows (no count is used up)."""
    return _mix(keys ^ _SUB)


def uniform(keys: np.ndarray, *shape: int) -> np.ndarray:
    """(n, *shape) float32 uniform in [0, 1): noise for the bots' choices and for
    tie-breaking between equal values."""
    if not shape:  # one number a row: the top 24 bits of its hash
        return _float32_of(_bits(keys))
    columns = int(np.prod(shape))
    return _noise(_bits(keys), _multipliers(columns)[:columns]).reshape(len(keys), *shape)


def uniform_at(keys: np.ndarray, columns: np.ndarray) -> np.ndarray:
    """(n, J) float32 uniform, one number for each of the given columns (J,) or
    (n, J) of each key, hashed alone: noise over some of K choices (the cards
    in a hand, the Showroom's) keyed by the choice, so a choice's noise does
    not depend on which others the batch asks about."""
    try:
        multipliers = _MULTIPLIERS[columns]
    except IndexError:  # a column past the table (more than 4,096 choices): grow it once
        multipliers = _multipliers(int(np.max(columns)) + 1)[columns]
    return _noise(_bits(keys), multipliers)


# Noise columns: the top bits of a row's full hash times an odd constant per column (multiplicative
# hashing: one multiply a number where a full mix takes eight passes). Bots' noise and tie-breaks only;
# dice and pile draws hash each number (_bits). Measured at 10^6 rows, 64 columns: correlations within
# 0.004 (bound 0.0045), the worst of 126 neighbouring-pair chi-squares 305 (df 255, 99.9% point 330).
_MULTIPLIERS = np.zeros(0, np.uint64)


def _multipliers(columns: int) -> np.ndarray:
    """(>= columns,) uint64 the odd constants of noise columns 0.. (grown on demand, the same forever)."""
    global _MULTIPLIERS
    if len(_MULTIPLIERS) < columns:
        c = np.arange(len(_MULTIPLIERS), max(columns, 64), dtype=np.uint64)
        _MULTIPLIERS = np.concatenate([_MULTIPLIERS, _mix(c + np.uint64(0x5851F42D4C957F2D)) | np.uint64(1)])
    return _MULTIPLIERS


_multipliers(4096)  # enough for every deck here: uniform_at indexes the table without a bounds pass


def _noise(row: np.ndarray, multipliers: np.ndarray) -> np.ndarray:
    """(n, J) float32 uniform: row hashes (n,) times the columns' multipliers ((J,) or (n, J))."""
    return _float32_of(row[:, None] * multipliers)


def _float32_of(bits: np.ndarray) -> np.ndarray:
    """Uniform float32 in [0, 1) from the top 24 of 64 random bits."""
    return (bits >> np.uint64(40)).astype(np.float32) * _TO_UNIT32


def roll(keys: np.ndarray, sides: int, *shape: int) -> np.ndarray:
    """(n, *shape) int16 dice: integers 1..sides."""
    u = _u32(keys) if not shape else _u32(keys, int(np.prod(shape))).reshape(len(keys), *shape)
    return (_unit(u) * sides).astype(np.int16) + np.int16(1)


def draw_one(keys: np.ndarray, counts: np.ndarray, mask: np.ndarray) -> np.ndarray:
    """Take one random copy out of each masked row of `counts` (N, K), in place.

    Returns (N,) the card index drawn, -1 where the row was masked out or empty.
    """
    u = _unit(_u32(keys))
    cum = counts.cumsum(axis=1, dtype=np.int32)
    total = cum[:, -1]
    ok = mask & (total > 0)
    pick = (u * total).astype(np.int32)
    card = np.where(ok, _card_at(_narrow(cum, total), pick), -1)
    rows = np.flatnonzero(ok)
    counts[rows, card[rows]] -= 1
    return card


def draw_many(keys: np.ndarray, counts: np.ndarray, n: np.ndarray) -> np.ndarray:
    """Take min(n, total) random copies out of each row of `counts` (N, K), in
    place, without replacement. Returns (N, K) the counts drawn.

    Positions in the implicit sorted pile are chosen one by one among those not
    yet taken (a vectorised Floyd's method), so one cumulative sum serves all draws.
    """
    total = row_sum(counts)
    every = n >= total  # these rows draw their whole pile: no randomness needed
    some = ~every & (n > 0)
    if some.all():  # the usual case (a hand from a deck that holds more): no gathers
        drawn = _draw_some(keys, counts, n)
    else:
        drawn = np.zeros_like(counts)
        all_rows = np.flatnonzero(every)
        put_rows(drawn, all_rows, take_rows(counts, all_rows))
        rows = np.flatnonzero(some)
        if len(rows):
            put_rows(drawn, rows, _draw_some(keys[rows], take_rows(counts, rows), n[rows]))
    counts -= drawn
    return drawn


def draw_reshuffling(keys: np.ndarray, deck: np.ndarray, discard: np.ndarray, n: np.ndarray) -> np.ndarray:
    """Draw n cards from each row of `deck` (N, K); a row that runs short takes its
    `discard` pile in (reshuffled: counts added) and goes on drawing. Both piles
    change in place; returns (N, K) the cards drawn."""
    drawn = draw_many(keys, deck, n)
    short = n - row_sum(drawn)
    refill = np.flatnonzero(short > 0)
    if len(refill):
        more = take_rows(deck, refill) + take_rows(discard, refill)
        put_rows(discard, refill, np.zeros_like(more))
        got = draw_many(substream(keys[refill]), more, short[refill])
        put_rows(drawn, refill, take_rows(drawn, refill) + got)
        put_rows(deck, refill, more)
    return drawn


def _draw_some(keys: np.ndarray, counts: np.ndarray, take: np.ndarray) -> np.ndarray:
    """draw_many for rows with more cards than they draw (counts not changed).
    The i-th card of a row comes from column i of its key."""
    N, K = counts.shape
    cum = counts.cumsum(axis=1, dtype=np.int32)
    total = cum[:, -1]
    narrow = _narrow(cum, total)
    chosen: list[np.ndarray] = []  # ascending per row: positions already taken
    drawn = np.zeros(counts.shape, counts.dtype)  # C order whatever the input's (a broadcast copy is F order)
    flat = drawn.reshape(-1)  # a view: drawn is new and C-contiguous
    rows = np.arange(N)
    steps = int(take.max(initial=0))
    units = _unit(_u32(keys, steps)) if steps else None  # (N, steps)
    for i in range(steps):
        live = i < take
        pos = (units[:, i] * np.maximum(total - i, 1)).astype(np.int32)
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
