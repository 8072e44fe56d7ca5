"""The Horsepower rules, compiled (numba): one game at a time, each phase a
function, in the rulebook's order. It replaced a numpy lockstep engine
(removed after commit 9118d96, where both were proven to play the same
games): every random number is keyed as there (chance.compiled), every bot
value computed in the same float32 steps, so the recorded games stay the
same games (tests/test_golden_results.py, tests/test_compiled_horsepower.py).

Conventions: `T` the tables (tables.Tab), `S` the batch's state (state.State's
arrays), `X` the game's context (its hash, draw counts, event buffer, pending
effects, and the active seat's turn: `X.turn` its
numbers, `X.scrap_at_end`, `X.start_mods`, `X.plain`), `g` the game, `s` the
active seat; each a numba StructRef (structs.py). Bots' values are float32
(as the numpy engine kept them): a Python float beside a float32 would widen
it, so constants are float32.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from ...chance import SEATS
from ...chance import compiled as chance
from ...chance.compiled import NO_SEAT
from .. import vocabulary as V
from ..compile import SPACE_AUCTION, SPACE_INCINERATOR
from ..limits import COIN_CAP
from .structs import Game
from .tables import AIM_KINDS, MODIFIER_ASKS, OPS, PER, PURPOSES, TARGETS, TRIGGERS

jit = njit(cache=True)
inline = njit(cache=True, inline="always")  # small helpers: no call, no reference counts across one

F0, F05, F1 = np.float32(0.0), np.float32(0.5), np.float32(1.0)
NEG_INF, POS_INF = np.float32(-np.inf), np.float32(np.inf)
# purposes of the draws (tables.PURPOSES), by name
(
    DRAFT_PARTS,
    DRAFT_PLAYBOOKS,
    FIRST_DRAFTER,
    NOISE_DRAFT_CARDS,
    NOISE_DRAFT_PLAYBOOKS,
    DRAW_EFFECT,
    REVEAL,
    NOISE_VALUES,
    NOISE_REFRESH,
    DICE,
    REROLL,
    DRAW_HAND,
    PIT_PLAYBOOKS,
    NOISE_PIT,
    NOISE_PIT_OR_RACE,
    NOISE_AUCTION,
) = range(len(PURPOSES))
OP_COINS, OP_STEAL, OP_DRAW, OP_SCRAP = (OPS.index(o) for o in ("coins", "steal_coins", "draw", "scrap"))
OP_WIPE, OP_BANANA, OP_PUSH, OP_DEBRIS = (OPS.index(o) for o in ("wipe_out", "banana", "push", "give_debris"))
OP_SHIELD, OP_SLOW = OPS.index("shield"), OPS.index("slow")
SELF, LEADER, NEXT, AHEAD, BEHIND, ALL_OTHERS = (
    TARGETS.index(t) for t in ("self", "leader", "next", "nearest_ahead", "nearest_behind", "all_others")
)
ON_TURN_START, ON_LAP, ON_AUCTION, ON_INCINERATOR, ON_WIPED, ON_BUY, ON_PIT, ON_RACE_THROUGH = (
    TRIGGERS.index(t)
    for t in ("turn_start", "lap_complete", "auction", "incinerator", "wiped_out", "buy", "pit_stop", "race_through")
)
PER_PUZZLE, PER_LAP, PER_AHEAD, PER_PLAYBOOKS = range(len(PER))
AIM_ANY, AIM_NOT_WIPED, AIM_SUPPLY, AIM_BACK, AIM_COINS, AIM_OFF_PATH = range(len(AIM_KINDS))
FROM_HAND, FROM_GARAGE, FROM_EITHER = (V.SCRAP_FROM.index(z) for z in ("hand", "garage", "hand_or_garage"))
# modifier totals (context.MOD_COLUMNS, then the reroll threshold)
M_DRIVE, M_DICE_SUM, M_DICE_BEST, M_DISCOUNT, M_FREE_REFRESH, M_HAND_SIZE, M_EXTRA = 0, 1, 2, 3, 4, 5, 6
M_REROLL = 11
MODS = 12
ASK_SHOP, ASK_DRIVE, ASK_HAND, ASK_EXTRA, ASK_TURN_START = range(len(MODIFIER_ASKS))
PLAY_ORDER = np.array([V.PLAYABLE_TYPES.index(t) for t in ("investment", "utility", "engine", "frame", "wheels")])
OWN_PATH = 12  # bots.OWN_PATH
# events (events.EVENTS)
EV_START, EV_DRAFT, EV_BUY, EV_AUCTION, EV_FREE_AUCTION, EV_SCRAP, EV_PB_DRAFT, EV_PB_PIT, EV_PLAY = range(9)
# the turn's numbers (X.turn)
U_SEAT, U_REFRESHES, U_PUZZLES, U_TYPES, U_WIPED_AT_START, U_BANANA_AT = range(6)
# the working rows (X.ints, X.floats, X.flags): a phase's small arrays, one row each, kept in the game's
# context (an allocation at every turn cost more than the phase's arithmetic). No row serves two calls
# alive at once: no phase calls itself, and an effect's consequences wait on the pending stack.
I_DRAWN, I_PLAYED, I_MODS_PLAY, I_MODS_SHOP, I_MODS_DRIVE, I_MODS_END, I_SHOWN, I_PRICE, I_DICE, I_KEPT = range(10)
I_TOOK, I_LIMIT, I_TAKEN, I_HELD, INT_ROWS = 10, 11, 12, 13, 14
F_PLAY, F_SHOP, F_AUCTION, F_SCRAP, FLOAT_ROWS = range(5)
B_VICTIMS, B_HIT, B_NEW, B_PASSED, B_AIMLESS, B_AIM_VICTIMS, FLAG_ROWS = range(7)

# --- keys, values and decisions ---------------------------------------------


@inline
def ints(X, row, n):
    """Working row `row` as n int64 zeros (a new array where n is past the rows' width)."""
    if n > X.ints.shape[1]:
        return np.zeros(n, np.int64)
    out = X.ints[row, :n]
    out[:] = 0
    return out


@inline
def floats(X, row, n):
    """Working row `row` as n float32 to be written (a new array where n is past the rows' width)."""
    if n > X.floats.shape[1]:
        return np.empty(n, np.float32)
    return X.floats[row, :n]


@inline
def flags(X, row, n):
    """Working row `row` as n False (a new array where n is past the rows' width)."""
    if n > X.flags.shape[1]:
        return np.zeros(n, np.bool_)
    out = X.flags[row, :n]
    out[:] = False
    return out


@inline
def key(X, purpose, seat):
    return chance.key(X.hash[0], X.draws, X.codes, purpose, seat)


@inline
def event(X, g, seat, card, kind, turn, pick, price):
    """One card event of the logs (events.Events), if the run keeps them; a
    full buffer is counted past its end (the caller plays the batch again with more room)."""
    if not X.logging:
        return
    i = X.n_events[0]
    X.n_events[0] = i + 1
    if i < X.events.shape[0]:
        X.events[i, 0], X.events[i, 1], X.events[i, 2], X.events[i, 3] = g, seat, card, kind
        X.events[i, 4], X.events[i, 5], X.events[i, 6] = turn, pick, price


# What a traced game says (balance trace): records of numbers, written as
# text by trace_text.py. Lists (a hand, dice, the
# Playbooks named) go to a row of their own, the record holding its index.
(
    SAY_FIRST_DRAFTER,
    SAY_PICK,
    SAY_BONUS,
    SAY_TURN,
    SAY_HANDS,
    SAY_PLAYS,
    SAY_BUYS,
    SAY_REFRESH,
    SAY_NO_DRIVE,
    SAY_DRIVE,
    SAY_PIT,
    SAY_CHOOSES,
    SAY_PLAYBOOKS,
    SAY_GAINS,
    SAY_DRAWS,
    SAY_SHIELD,
    SAY_NOBODY,
    SAY_TAKES,
    SAY_SLOW,
    SAY_DEBRIS,
    SAY_ALREADY_WIPED,
    SAY_WIPED,
    SAY_BANANA,
    SAY_MOVES,
    SAY_HITS,
    SAY_WINS,
    SAY_LAP,
    SAY_RESHUFFLE,
    SAY_LANDS,
    SAY_DRAWS_CARDS,
    SAY_SCRAPS,
    SAY_AUCTION,
) = range(32)


@inline
def say(X, kind, a, b, c, d, e, f, row):
    """One record of what the traced game does (if it is traced)."""
    if not X.tracing:
        return
    i = X.trace_n[0]
    if i < X.trace.shape[0]:
        rec = X.trace[i]
        rec[0], rec[1], rec[2], rec[3], rec[4], rec[5], rec[6], rec[7] = kind, a, b, c, d, e, f, row
    X.trace_n[0] = i + 1


@inline
def row_of(X, values, n):
    """A list of n numbers for a record: its row's index (-1 when not tracing)."""
    if not X.tracing:
        return -1
    i = X.rows_n[0]
    X.rows_n[0] = i + 1
    if i >= X.rows.shape[0]:
        return -1
    X.rows[i, 0] = n
    for j in range(n):
        X.rows[i, j + 1] = values[j]
    return i


@inline
def progress_of(T, lap, pos, p):
    """Race progress of seat p: laps done times the lap's spaces plus the space
    (effects.Situation.prog); `lap`, `pos` a game's rows of the state's, read once by the caller."""
    return (lap[p] - 1) * T.track_length + pos[p]


@inline
def variant_of(T, S, g, p):
    """Seat p's situation, for its bot's weights: behind, leading or level, and rich or not."""
    if not T.situational:
        return 0
    lap, pos = S.lap[g], S.pos[g]
    mine = progress_of(T, lap, pos, p)
    best_other = -(10**9)
    for o in range(T.players):
        if o != p:
            best_other = max(best_other, progress_of(T, lap, pos, o))
    q = S.bots[g, p]
    situation = 1 if best_other - mine >= T.behind_gap[q] else (2 if mine > best_other else 0)
    return 2 * situation + (1 if S.coins[g, p] >= T.rich_at[q] else 0)


@inline
def value_row(T, S, g, p):
    """The row of the bots' value tables for seat p now (context.CardValues.row)."""
    return (S.bots[g, p] * T.per_profile + S.lap[g, p]) * 6 + variant_of(T, S, g, p)


@inline
def card_values(T, S, X, g, p, acquire, cards, n, purpose, out):
    """What cards[:n] are worth to seat p's bot now, with
    its noise (one key for the decision, each card's noise keyed by the card)."""
    row = value_row(T, S, g, p)
    values = T.acquire_value[row] if acquire else T.own_value[row]
    k = key(X, purpose, p)
    noise = T.noise[S.bots[g, p]]
    h = chance.light(k)
    for j in range(n):
        out[j] = chance.noise_of(h, cards[j]) * noise + values[cards[j]]


@inline
def threshold(T, S, g, p, base):
    """A yes/no decision's bar: the profile's base plus half its noise."""
    return np.float32(base) + F05 * T.noise[S.bots[g, p]]


@inline
def first_max(values, n):
    """The first index of the largest of values[:n] (numpy's argmax)."""
    best = 0
    for j in range(1, n):
        if values[j] > values[best]:
            best = j
    return best


# --- who effects reach (effects.targets, conditions, per_counts) -------------


@inline
def rank(T, actor, p):
    """Seats clockwise from the actor: 0 the actor."""
    return (p - actor) % T.players


@inline
def targets(T, S, g, actor, code, shields, out):
    """effects.targets: out[p] the players an effect aimed at `code` reaches."""
    P = T.players
    for p in range(P):
        out[p] = False
    if code == SELF:
        out[actor] = True
        return
    if code == NEXT:
        out[(actor + 1) % P] = True
    elif code == ALL_OTHERS:
        for p in range(P):
            out[p] = p != actor
    else:
        lap, pos = S.lap[g], S.pos[g]
        mine = progress_of(T, lap, pos, actor)
        best, chosen = np.iinfo(np.int64).min, -1
        for p in range(P):
            if p == actor:
                continue
            prog = progress_of(T, lap, pos, p)
            if code == AHEAD and prog <= mine or code == BEHIND and prog >= mine:
                continue
            order = -prog * P if code == AHEAD else prog * P
            order += P - rank(T, actor, p)
            if order > best:
                best, chosen = order, p
        if chosen >= 0:
            out[chosen] = True
    if shields:
        shield = S.shield[g]
        for p in range(P):
            out[p] = out[p] and not shield[p]


@inline
def tallies(T, S, X, g, actor):
    """(puzzle cards, bit mask of card types) in the actor's play area: the turn's, for the active seat."""
    if actor == X.turn[U_SEAT]:
        return X.turn[U_PUZZLES], X.turn[U_TYPES]
    return 0, 0


@inline
def leads(T, S, g, actor, ahead):
    """No opponent ahead (ahead=True) or behind (False) of the actor."""
    lap, pos = S.lap[g], S.pos[g]
    mine = progress_of(T, lap, pos, actor)
    for p in range(T.players):
        if p != actor:
            prog = progress_of(T, lap, pos, p)
            if (prog > mine) if ahead else (prog < mine):
                return False
    return True


@inline
def condition_holds(T, S, X, g, actor, r):
    """effects.conditions for effect row r."""
    puzzles, types = tallies(T, S, X, g, actor)
    played = T.if_played[r]
    if played and (types & played) != played:
        return False
    if T.if_leading[r] != -1 and leads(T, S, g, actor, True) != (T.if_leading[r] == 1):
        return False
    if T.if_last[r] != -1 and leads(T, S, g, actor, False) != (T.if_last[r] == 1):
        return False
    laps = T.if_laps[r]
    if laps and not ((1 << (S.lap[g, actor] - 1)) & laps):
        return False
    if T.if_min_coins[r] and S.coins[g, actor] < T.if_min_coins[r]:
        return False
    if T.if_min_puzzle[r] and puzzles < T.if_min_puzzle[r]:
        return False
    behind = T.if_behind_leader[r]
    if behind:
        lap, pos = S.lap[g], S.pos[g]
        lead = -(10**6)
        for p in range(T.players):
            if p != actor:
                lead = max(lead, progress_of(T, lap, pos, p))
        if lead - progress_of(T, lap, pos, actor) < behind:
            return False
    return True


@inline
def per_count(T, S, X, g, actor, r):
    """effects.per_counts for effect row r: what its amount is multiplied by."""
    per = T.effect_per[r]
    if per == -1:
        return 1
    if per == PER_PUZZLE:
        puzzles, _ = tallies(T, S, X, g, actor)
        own = 0 if T.effect_is_playbook[r] else T.is_puzzle[T.effect_owner[r]]
        return max(puzzles - own, 0)
    if per == PER_LAP:
        return S.lap[g, actor]
    if per == PER_AHEAD:
        lap, pos = S.lap[g], S.pos[g]
        mine, count = progress_of(T, lap, pos, actor), 0
        for p in range(T.players):
            if p != actor and progress_of(T, lap, pos, p) > mine:
                count += 1
        return count
    total = 0
    for b in range(S.playbooks.shape[2]):
        total += S.playbooks[g, actor, b]
    return total


@jit
def modifier_totals(T, S, X, g, actor, ask, out):
    """The modifiers in force for `actor`, with this turn's turn_start ones:
    out[M_...] the totals in force for the asked ops, out[M_REROLL] the best reroll."""
    for i in range(MODS):
        out[i] = 0
    turn_start = ask == ASK_TURN_START
    books, play = S.playbooks[g, actor], S.play[g, actor]
    if turn_start:
        mods = T.playbook_mod_turn_start
        for b in range(len(books)):
            if books[b]:
                for c in range(M_REROLL):
                    out[c] += books[b] * mods[b, c]
    else:
        plain = X.plain
        for c in range(M_REROLL):
            out[c] = plain[c]
    reroll = 0
    slow, owner_of, of_playbook = T.slow_rows[ask], T.modifier_owner, T.modifier_is_playbook
    rows, columns, values = T.modifier_rows, T.modifier_column, T.effect_value
    for i in range(T.slow_count[ask]):
        m = slow[i]
        owner = owner_of[m]
        if of_playbook[m]:
            copies = books[owner]
        elif turn_start:
            copies = 0
        else:
            copies = play[owner]
        if copies == 0:
            continue
        r = rows[m]
        amount = copies * condition_holds(T, S, X, g, actor, r) * per_count(T, S, X, g, actor, r)
        column = columns[m]
        if column >= 0:
            out[column] += amount * values[r]
        elif amount > 0:
            reroll = max(reroll, values[r])
    out[M_REROLL] = reroll
    if not turn_start:  # this turn's turn_start totals join the standing ones: rerolls take the highest
        start = X.start_mods
        for c in range(M_REROLL):
            out[c] += start[c]
        out[M_REROLL] = max(out[M_REROLL], start[M_REROLL])


# --- moving cards ----------------------------------------------------------------


@inline
def draw_cards(T, S, X, g, p, n, purpose):
    """Seat p draws n cards into hand; an empty Deck takes the Garage reshuffled (3.4, 7.2)."""
    if n <= 0:
        return
    K = S.hand.shape[2]
    drawn = ints(X, I_DRAWN, K)
    taken = X.ints[I_TAKEN]  # the draw's own working row: no array made
    chance.draw_reshuffling_in(key(X, purpose, p), S.deck[g, p], S.garage[g, p], n, drawn, taken)
    if X.verbose and purpose == DRAW_EFFECT:
        say(X, SAY_DRAWS_CARDS, p, 0, 0, 0, 0, 0, row_of(X, drawn, len(drawn)))
    for k in range(len(drawn)):
        S.hand[g, p, k] += drawn[k]


@inline
def reveal_part(T, S, X, g, seat):
    """The top card of the Parts Deck, -1 if none; an empty Parts Deck takes
    the Showroom discard reshuffled (3.1.1). Keyed by the seat whose action reveals it."""
    parts = S.parts[g]
    empty = True
    for c in parts:
        if c:
            empty = False
            break
    if empty:
        for k in range(len(parts)):
            parts[k] += S.showroom_discard[g, k]
            S.showroom_discard[g, k] = 0
    return chance.draw_one(key(X, REVEAL, seat), parts)


@inline
def give_debris(T, S, g, p, count):
    """Debris from the supply into p's Garage, as far as the supply lasts (6.1)."""
    debris = T.debris_card
    given = min(S.supply[g, debris], count)
    S.garage[g, p, debris] += given
    S.supply[g, debris] -= given
    S.debris_short[g] += count - given
    return given


@jit
def scrap_choice(T, S, X, g, p, zone, count):
    """The actor may scrap up to `count` cards from hand, Garage or either: its
    bot scraps its least valued cards while they are below its `scrap_below`."""
    K = S.hand.shape[2]
    below = T.scrap_below[S.bots[g, p]]
    cards = np.arange(K)
    value = floats(X, F_SCRAP, K)
    hand, garage = S.hand[g, p], S.garage[g, p]
    for _ in range(count):
        some = False
        for k in range(K):
            if pool_count(hand, garage, zone, k) > 0:
                some = True
                break
        if not some:
            return
        card_values(T, S, X, g, p, False, cards, K, NOISE_VALUES, value)
        card, best = -1, POS_INF
        for k in range(K):
            if pool_count(hand, garage, zone, k) > 0 and value[k] < best:
                card, best = k, value[k]
        if card < 0 or not best < threshold(T, S, g, p, below):
            return
        from_hand = zone != FROM_GARAGE and hand[card] > 0
        if from_hand:
            hand[card] -= 1
        else:
            garage[card] -= 1
        say(X, SAY_SCRAPS, p, card, from_hand, 0, 0, 0, -1)
        S.scrapyard[g, card] += 1
        S.scrapped[g, p, card] += 1
        event(X, g, p, card, EV_SCRAP, S.turns[g, p], -1, -1)


@inline
def pool_count(hand, garage, zone, k):
    """Copies of card k in the zone a scrap takes from."""
    if zone == FROM_HAND:
        return hand[k]
    if zone == FROM_GARAGE:
        return garage[k]
    return hand[k] + garage[k]


# --- effects -----------------------------------------------------------------------
#
# Effects call each other: a push lands on an Auction, a Wipe Out fires a
# Playbook whose effect pushes again. Recursion (as the numpy engine had it)
# cannot be cached by numba (its machine code would not load), so what a
# rule would call next is pushed on a stack of pending steps, the rest of the
# rule below it: popping them runs the rules in the very order the recursion
# runs them. A phase pushes a step and runs the stack to its end
# (`fire_trigger`, `fire_card`, `move`); a pending step only pushes.

FIRE, RESOLVE, MOVE, AFTER_MOVE, RESHUFFLE, SPACE, WIPED = range(7)  # pending steps: (kind, a, b, step, group, rows)
PENDING = 512  # the deepest chain of effects a game may set off


@inline
def push(X, kind, a, b):
    """A pending step on top of the stack; returns its slot."""
    i = X.top[0]
    if i >= X.pending.shape[0]:
        raise RuntimeError("a chain of effects more than 512 steps deep: effects that keep setting each other off")
    X.pending[i, 0], X.pending[i, 1], X.pending[i, 2], X.pending[i, 3], X.pending[i, 4] = kind, a, b, 0, 0
    X.pending[i, 5], X.pending[i, 6] = 0, -1
    X.top[0] = i + 1
    return i


@jit
def run_pending(T, S, X, g):
    """Pending steps, the top first, until none is left."""
    top, pending = X.top, X.pending  # held once: each attribute read of a structure costs a reference count
    while top[0] > 0:
        i = top[0] - 1
        kind, a, b = pending[i, 0], pending[i, 1], pending[i, 2]
        if kind == RESOLVE:  # stays while rows are left: it pops itself
            resolve_next(T, S, X, g, i)
            continue
        top[0] = i
        if kind == FIRE:
            trigger_now(T, S, X, g, a, b)
        elif kind == WIPED:  # a new Wiped Out marker: said, then its `wiped_out` Playbooks
            if S.running[g]:
                say(X, SAY_WIPED, a, 0, 0, 0, 0, 0, -1)
                trigger_now(T, S, X, g, a, b)
        elif kind == MOVE:
            move_one(T, S, X, g, a, b, pending[i, 3])
        elif kind == AFTER_MOVE:
            after_move(T, S, X, g, a, b)
        elif kind == RESHUFFLE:  # Deck and Garage shuffled together (6.1)
            deck, garage = S.deck[g, a], S.garage[g, a]
            for k in range(len(deck)):
                deck[k] += garage[k]
                garage[k] = 0
            say(X, SAY_RESHUFFLE, a, 0, 0, 0, 0, 0, -1)
        elif kind == SPACE:
            space_action(T, S, X, g, a, b)


@inline
def fire_card(T, S, X, g, card):
    """The instant effects of the card the active seat just played."""
    if not T.card_fires_any[card] or not S.running[g]:
        return
    i = push(X, RESOLVE, X.turn[U_SEAT], -1)
    for j in range(T.card_row_count[card]):
        add_row(T, X, i, T.card_rows[card, j], 1)
    run_pending(T, S, X, g)


@inline
def fire_trigger(T, S, X, g, actor, trigger):
    """The actor's Playbook effects with this trigger, and all they set off
    (nothing to run where the actor holds no Playbook with rows on it: most turns)."""
    books = S.playbooks[g, actor]
    for j in range(T.trigger_book_count[trigger]):
        if books[T.trigger_books[trigger, j]]:
            push(X, FIRE, actor, trigger)
            run_pending(T, S, X, g)
            return


@inline
def trigger_now(T, S, X, g, actor, trigger):
    """A pending trigger: the actor's Playbooks' rows on it, to resolve (its slot is free again)."""
    if not S.running[g]:
        return
    i = push(X, RESOLVE, actor, -1)
    X.pending[i, 6] = trigger
    if X.tracing:
        X.named[i, :] = False
    for j in range(T.trigger_book_count[trigger]):
        b = T.trigger_books[trigger, j]
        copies = S.playbooks[g, actor, b]
        if copies:
            for r in range(T.book_row_count[trigger, b]):
                c = T.book_rows[trigger, b, r]
                add_row(T, X, i, c, copies * T.trigger_fires[trigger, b, c])
    if X.pending[i, 5] == 0:
        X.top[0] = i


@inline
def add_row(T, X, i, c, times):
    """Instant row c fires `times` more times in pending step i (rows kept in column order, each once)."""
    frame, cols, fire = X.pending[i], X.cols[i], X.fire[i]
    n = frame[5]
    at = n
    for j in range(n):
        if cols[j] == c:
            fire[j] += times
            return
        if cols[j] > c:
            at = j
            break
    for j in range(n, at, -1):
        cols[j], fire[j] = cols[j - 1], fire[j - 1]
    cols[at], fire[at] = c, times
    frame[5] = n + 1
    frame[2] = max(frame[2], T.instant_step[c])


@inline
def resolve_next(T, S, X, g, i):
    """Instant rows in their written order: step by step,
    each step's conditions and counters read first, then its groups (one op
    and target each) applied in group order, rows of one group summed. Goes
    on until an applied group leaves pending steps above it (they run first)."""
    frame, top = X.pending[i], X.top
    actor, last, n = frame[1], frame[2], frame[5]
    cols, fire, fired, amount = X.cols[i], X.fire[i], X.fired[i], X.amount[i]
    group_of, steps, groups = T.group_of, T.instant_step, len(T.group_op)
    while True:
        step, group = frame[3], frame[4]
        if step > last:
            top[0] = i
            return
        if group == 0:
            for j in range(n):
                fired[j] = 0
                c = cols[j]
                if fire[j] and steps[c] == step:
                    r = T.instant_rows[c]
                    fired[j] = fire[j] * condition_holds(T, S, X, g, actor, r)
                    amount[j] = fired[j] * T.effect_value[r] * per_count(T, S, X, g, actor, r)
            if X.tracing and frame[6] >= 0 and S.running[g]:
                name_playbooks(T, X, i, cols, fired, n, frame[6], actor)
        found = groups
        for j in range(n):
            if fired[j] > 0 and group_of[cols[j]] >= group:
                found = min(found, group_of[cols[j]])
        if found == groups:
            frame[3], frame[4] = step + 1, 0
            continue
        total = 0
        for j in range(n):
            if fired[j] > 0 and group_of[cols[j]] == found:
                total += amount[j]
        frame[4] = found + 1
        if S.running[g]:
            apply(T, S, X, g, actor, found, total)
            if top[0] > i + 1:
                return


@jit
def name_playbooks(T, X, i, cols, fired, n, trigger, actor):
    """The trace's header of a trigger's rows: the Playbooks whose rows fire now, each named once."""
    new = np.empty(n, np.int64)
    m = 0
    for j in range(n):
        if fired[j] > 0:
            b = T.effect_owner[T.instant_rows[cols[j]]]
            if not X.named[i, b]:
                X.named[i, b] = True
                new[m] = b
                m += 1
    if m:
        say(X, SAY_PLAYBOOKS, trigger, actor, 0, 0, 0, 0, row_of(X, new, m))


@inline
def apply(T, S, X, g, actor, group, a):
    """One group's op, amount a, to its targets."""
    op, target = T.group_op[group], T.group_target[group]
    P = T.players
    if op == OP_COINS:
        S.coins[g, actor] = min(S.coins[g, actor] + a, COIN_CAP)
        say(X, SAY_GAINS, actor, a, 0, 0, 0, 0, -1)
        return
    if op == OP_DRAW:
        draw_cards(T, S, X, g, actor, a, DRAW_EFFECT)
        say(X, SAY_DRAWS, actor, a, 0, 0, 0, 0, -1)
        return
    if op == OP_SCRAP:
        scrap_choice(T, S, X, g, actor, T.group_zone[group], a)
        return
    if op == OP_SHIELD:
        S.shield[g, actor] = True
        say(X, SAY_SHIELD, actor, 0, 0, 0, 0, 0, -1)
        return
    victims = flags(X, B_VICTIMS, P)
    targets(T, S, g, actor, target, True, victims)
    if not victims.any():
        if X.tracing:  # who was chosen, shielded: or nobody to target
            targets(T, S, g, actor, target, False, victims)
            shielded = np.flatnonzero(victims)
            say(X, SAY_NOBODY, op, target, 0, 0, 0, 0, row_of(X, shielded, len(shielded)))
        return
    if op == OP_STEAL:
        taken = 0
        took = ints(X, I_TOOK, P)
        for p in range(P):
            if victims[p]:
                took[p] = min(S.coins[g, p], a)
                S.coins[g, p] -= took[p]
                taken += took[p]
        S.coins[g, actor] = min(S.coins[g, actor] + taken, COIN_CAP)
        say(X, SAY_TAKES, actor, 0, 0, 0, 0, 0, row_of(X, took, P))
    elif op == OP_SLOW:
        for p in range(P):
            if victims[p]:
                S.slow[g, actor, p] += a
        if X.tracing:
            hit = np.flatnonzero(victims)
            say(X, SAY_SLOW, actor, a, 0, 0, 0, 0, row_of(X, hit, len(hit)))
    elif op == OP_DEBRIS:
        for off in range(P):  # a short supply serves the victims in turn order from the actor (7.3)
            p = (actor + off) % P
            if victims[p]:
                say(X, SAY_DEBRIS, p, give_debris(T, S, g, p, a), 0, 0, 0, 0, -1)
    elif op == OP_WIPE:
        wipe_out(T, S, X, g, victims)
    elif op == OP_BANANA:
        place_bananas(T, S, X, g, victims, a)
    elif op == OP_PUSH:
        for off in range(P - 1, -1, -1):  # pushed last in turn order first: the first moves first
            p = (X.turn[U_SEAT] + off) % P
            if victims[p] and a != 0:
                X.pending[push(X, MOVE, p, a), 3] = 1  # the trace's cause: pushed


@inline
def wipe_out(T, S, X, g, victims):
    """Wipe Out the victims; an already Wiped Out player is not wiped again
    (5.3); each new one's `wiped_out` Playbooks fire in turn order."""
    P = T.players
    new = flags(X, B_NEW, P)
    for p in range(P):
        new[p] = victims[p] and not S.wiped[g, p]
        if victims[p] and not new[p]:
            say(X, SAY_ALREADY_WIPED, p, 0, 0, 0, 0, 0, -1)
    for p in range(P):
        if new[p]:
            S.wiped[g, p] = True
            S.wiped_count[g, p] += 1
    for off in range(P - 1, -1, -1):
        p = (X.turn[U_SEAT] + off) % P
        if new[p]:
            push(X, WIPED, p, ON_WIPED)


@inline
def place_bananas(T, S, X, g, victims, distance):
    """A Banana `distance` spaces ahead of each victim (5.4), in turn order:
    never on an occupied space; past the lap's end it is lost."""
    L, P = T.track_length, T.players
    for off in range(P):
        p = (X.turn[U_SEAT] + off) % P
        if not victims[p]:
            continue
        want = S.pos[g, p] + distance
        where = -1
        if T.banana_next_free:
            for space in range(max(want, 0), L):
                if not occupied(T, S.pos[g], space):
                    where = space
                    break
        elif want < L and not occupied(T, S.pos[g], min(want, L)):
            where = want
        placed = where >= 0 and S.bananas[g, where] < 127
        if placed:
            S.bananas[g, where] += 1
        say(X, SAY_BANANA, p, where if placed else -1, 0, 0, 0, 0, -1)


@inline
def occupied(T, pos, space):
    for p in range(T.players):  # noqa: SIM110 - numba compiles no generator into any()
        if pos[p] == space:
            return True
    return False


@inline
def move(T, S, X, g, p, d):
    """A marker moved d spaces, and all it sets off."""
    push(X, MOVE, p, d)
    run_pending(T, S, X, g)


@inline
def move_one(T, S, X, g, p, d, cause):
    """Bananas landed on or passed through wipe out and are removed; then
    reaching the lap's end or the space landed on (after_move)."""
    if not S.running[g]:
        return
    L = T.track_length
    old = S.pos[g, p]
    new = min(max(old + d, 0), L)
    hits, bananas = 0, S.bananas[g]
    for space in range(min(old, new), max(old, new) + 1):
        if space != old and bananas[space]:
            hits += bananas[space]
            bananas[space] = 0
    S.pos[g, p] = new
    say(X, SAY_MOVES, p, cause, old, new, S.lap[g, p] if new < L else -1, 0, -1)
    push(X, AFTER_MOVE, p, new)
    if hits > 0:
        say(X, SAY_HITS, p, hits, 0, 0, 0, 0, -1)
        victims = flags(X, B_HIT, T.players)
        victims[p] = True
        wipe_out(T, S, X, g, victims)


@inline
def after_move(T, S, X, g, p, new):
    """Reaching the lap's end stops there and completes the lap (6.1); short
    of it, the space landed on takes effect (3.3)."""
    if not S.running[g]:
        return
    if new == T.track_length:
        complete_lap(T, S, X, g, p)
    else:
        land(T, S, X, g, p)


@inline
def complete_lap(T, S, X, g, p):
    """6.1, 6.3: the last lap wins at once; otherwise Debris, the next lap from
    space 0, "whenever you complete a lap", then Deck and Garage reshuffled."""
    if S.lap[g, p] >= T.laps:
        if S.winner[g] < 0:
            S.winner[g] = p
        S.running[g] = False
        say(X, SAY_WINS, p, T.laps, 0, 0, 0, 0, -1)
        return
    given = give_debris(T, S, g, p, T.debris_per_lap)
    S.lap[g, p] += 1
    S.pos[g, p] = 0
    S.lap_done[g, p] = True
    say(X, SAY_LAP, p, S.lap[g, p] - 1, given, 0, 0, 0, -1)
    push(X, RESHUFFLE, p, 0)
    push(X, FIRE, p, ON_LAP)


@inline
def land(T, S, X, g, p):
    """The space landed on takes effect (3.3, 5.1, 5.2): the lander's Playbooks first, then the space."""
    kind = T.space_kind[S.pos[g, p]]
    if kind != 0:
        say(X, SAY_LANDS, p, kind, 0, 0, 0, 0, -1)
    if kind == SPACE_AUCTION:
        push(X, SPACE, p, kind)
        push(X, FIRE, p, ON_AUCTION)
    elif kind == SPACE_INCINERATOR:
        push(X, SPACE, p, kind)
        push(X, FIRE, p, ON_INCINERATOR)


@inline
def space_action(T, S, X, g, p, kind):
    """An Auction (5.1), or an Incinerator: the lander may scrap one card from hand or Garage (5.2)."""
    if not S.running[g]:
        return
    if kind == SPACE_AUCTION:
        auction(T, S, X, g, p)
    else:
        scrap_choice(T, S, X, g, p, FROM_EITHER, 1)


@jit
def auction(T, S, X, g, lander):
    """5.1 (auction.run_auction): a part revealed; minimum raises in bidding
    order from the lander while the high bid is below a bidder's limit; if
    nobody bids, the first in order whose value clears its bar takes it free."""
    card = reveal_part(T, S, X, g, lander)
    if card < 0:
        return
    P = T.players
    value = floats(X, F_AUCTION, P)
    limit = ints(X, I_LIMIT, P)
    for p in range(P):
        k = key(X, NOISE_AUCTION, p)
        q = S.bots[g, p]
        noise = T.noise[q]
        value[p] = T.acquire_value[value_row(T, S, g, p), card] + noise * chance.uniform_at(k, 0)
        coins = S.coins[g, p]
        wish = float((F1 - noise) * T.bid[q] * value[p]) + float(noise * chance.uniform_at(k, 1)) * (coins + 1)
        limit[p] = int(min(max(np.floor(wish), 0.0), coins))
    high, top, live, n_passed, step = 0, -1, True, 0, 0
    passed = flags(X, B_PASSED, P)
    while live:
        i = step % P
        if not passed[i] and top != i:
            if limit[(lander + i) % P] > high:
                high += 1
                top = i
            else:
                passed[i] = True
                n_passed += 1
        live = P - n_passed - (1 if top >= 0 else 0) > 0
        step += 1
    if top >= 0:
        w = (lander + top) % P
        S.coins[g, w] -= high
        S.garage[g, w, card] += 1
        S.auction_won[g, w, card] += 1
        S.auction_paid[g, w] += high
        S.coins_spent[g, w] += high
        event(X, g, w, card, EV_AUCTION, S.turns[g, w], -1, high)
        say(X, SAY_AUCTION, card, 0, w, high, 0, 0, row_of(X, limit, P))
        return
    for i in range(P):
        p = (lander + i) % P
        if value[p] > F05 * T.noise[S.bots[g, p]]:
            S.garage[g, p, card] += 1
            S.auction_won[g, p, card] += 1
            event(X, g, p, card, EV_FREE_AUCTION, S.turns[g, p], -1, 0)
            say(X, SAY_AUCTION, card, 1, p, 0, 0, 0, -1)
            return
    S.showroom_discard[g, card] += 1
    say(X, SAY_AUCTION, card, 2, 0, 0, 0, 0, -1)


# --- the turn ------------------------------------------------------------------------


@jit
def play_turn(T, S, X, g, s):
    """3: one seat's turn: expiry, then a Pit Stop or the four phases, then lap decisions."""
    if not S.running[g]:
        return
    K = S.hand.shape[2]
    # Start of turn: this seat's (E) cards expire, its shield and slows end (3.4, 7.2).
    garage, lingering = S.garage[g, s], S.lingering[g, s]
    for k in range(K):
        garage[k] += lingering[k]
        lingering[k] = 0
    S.shield[g, s] = False
    for p in range(T.players):
        S.slow[g, s, p] = 0
    S.turns[g, s] += 1
    S.lap_turns[g, s, min(max(S.lap[g, s] - 1, 0), T.laps - 1)] += 1
    new_turn(T, S, X, g, s)
    if S.pit_next[g, s]:
        pit_stop(T, S, X, g)
    else:
        has_start = False
        for b in T.turn_start_books:
            if S.playbooks[g, s, b]:
                has_start = True
        if X.tracing:
            say(X, SAY_TURN, S.round[g], s, S.bots[g, s], S.lap[g, s], S.pos[g, s], S.coins[g, s], -1)
            X.trace[X.trace_n[0] - 1, 8] = S.wiped[g, s]
            X.trace[X.trace_n[0] - 1, 7] = row_of(X, S.hand[g, s], K)
            if X.verbose:
                say(X, SAY_HANDS, 0, 0, 0, 0, 0, 0, row_of(X, S.hand[g].ravel(), T.players * K))
        if has_start:
            modifier_totals(T, S, X, g, s, ASK_TURN_START, X.start_mods)
        fire_trigger(T, S, X, g, s, ON_TURN_START)
        play_phase(T, S, X, g)
        shop_phase(T, S, X, g)
        drive_phase(T, S, X, g)
        end_phase(T, S, X, g)
    lap_decisions(T, S, X, g)


@jit
def new_turn(T, S, X, g, s):
    """The turn's bookkeeping; its plain modifiers start from the seat's `always` Playbooks."""
    X.turn[:] = 0
    X.turn[U_SEAT] = s
    X.turn[U_WIPED_AT_START] = S.wiped[g, s]
    X.turn[U_BANANA_AT] = -1
    X.scrap_at_end[:] = 0
    X.start_mods[:] = 0
    X.plain[:] = 0
    books, plain = S.playbooks[g, s], X.plain
    for b in range(len(books)):
        if books[b]:
            mod = T.playbook_mod_always[b]
            for c in range(M_REROLL):
                plain[c] += books[b] * mod[c]


@jit
def play_phase(T, S, X, g):
    """3.1: at most type_limits cards of each type, one at a time (investments
    first, so cards they draw can still be played), then the extra plays."""
    played_n = ints(X, I_PLAYED, 5)
    X.turn[U_BANANA_AT] = nearest_banana_ahead(T, S, g, X.turn[U_SEAT])
    for t in PLAY_ORDER:
        if played_n[t] < T.type_limits[t]:
            play_one(T, S, X, g, played_n, t)
    mods = ints(X, I_MODS_PLAY, MODS)
    for _ in range(T.extra_play_rounds):
        if T.conditional_extra_play:
            modifier_totals(T, S, X, g, X.turn[U_SEAT], ASK_EXTRA, mods)
        else:
            for t in range(5):
                mods[M_EXTRA + t] = X.plain[M_EXTRA + t] + X.start_mods[M_EXTRA + t]
        more = False
        for t in range(5):
            extra = mods[M_EXTRA + t]
            if extra > 0 and played_n[t] < T.type_limits[t] + extra:
                more = True
        if not more:
            break
        for t in PLAY_ORDER:  # only types with an extra play are offered again
            extra = mods[M_EXTRA + t]
            if extra > 0 and played_n[t] < T.type_limits[t] + extra:
                play_one(T, S, X, g, played_n, t)


@jit
def nearest_banana_ahead(T, S, g, s):
    """The nearest Banana ahead of seat s within a turn's reach (bots.OWN_PATH), -1 none."""
    pos, bananas = S.pos[g, s], S.bananas[g]
    for space in range(pos + 1, min(pos + OWN_PATH, T.track_length) + 1):
        if bananas[space]:
            return space
    return -1


@inline
def play_one(T, S, X, g, played_n, t):
    """The active seat plays its best card of type t, if it is worth playing."""
    if not S.running[g]:
        return
    s = X.turn[U_SEAT]
    n = T.type_count[t]
    cols = T.cards_of_type[t, :n]
    hand, aimed, moving = S.hand[g, s], T.aimed_cards, T.moving
    # Only the cards in hand are valued, in the type's order: the first best of them is the first best
    # of the type with the others at -inf, and each card's noise is keyed by the card, not its place.
    held = ints(X, I_HELD, n)
    m = 0
    holds_aimed = holds_moving = False
    for j in range(n):
        k = cols[j]
        if hand[k] > 0:
            held[m] = k
            m += 1
            holds_aimed |= aimed[k]
            holds_moving |= moving[k]
    if m == 0:
        return
    value = floats(X, F_PLAY, m)
    card_values(T, S, X, g, s, False, held, m, NOISE_VALUES, value)
    if holds_aimed:
        aimless_loss(T, S, X, g, s, held, m, value)
    if X.turn[U_BANANA_AT] >= 0 and holds_moving:
        banana_cost(T, S, X, g, s, held, m, value)
    pick = first_max(value, m)
    if not value[pick] > threshold(T, S, g, s, F0):
        return
    k = held[pick]
    hand[k] -= 1
    S.play[g, s, k] += 1
    S.played[g, s, k] += 1
    played_n[t] += 1
    event(X, g, s, k, EV_PLAY, S.turns[g, s], -1, -1)
    say(X, SAY_PLAYS, k, 0, 0, 0, 0, 0, -1)
    if T.scrap_this[k]:
        X.scrap_at_end[k] += 1
    X.turn[U_PUZZLES] += T.is_puzzle[k]
    X.turn[U_TYPES] |= T.type_bit[k]
    plain, mod = X.plain, T.card_mod[k]
    for c in range(M_REROLL):
        plain[c] += mod[c]
    fire_card(T, S, X, g, k)


@jit
def aimless_loss(T, S, X, g, s, cols, n, value):
    """An attack with nobody to hit (or a hit that changes
    nothing) loses that part of its value; a card left worth nothing is not played."""
    P = T.players
    aim_target, aim_kind, aim_distance = T.aim_target, T.aim_kind, T.aim_distance
    A = len(aim_target)
    row = value_row(T, S, g, s)
    q, variant = S.bots[g, s], row % 6
    aimed, own = T.aimed_cards, T.own_value[row]
    # Only the aims a card here is worth something against are looked at: the others add 0 to every loss.
    aimless = flags(X, B_AIMLESS, A)
    for j in range(n):
        k = cols[j]
        if aimed[k]:
            parts = T.card_aimed[q, variant, k]
            for a in range(A):
                if parts[a] != F0:
                    aimless[a] = True
    victims = flags(X, B_AIM_VICTIMS, P)
    wiped, pos, coins = S.wiped[g], S.pos[g], S.coins[g]
    no_debris = S.supply[g, T.debris_card] <= 0
    lap_end = T.track_length
    for a in range(A):
        if not aimless[a]:
            continue
        targets(T, S, g, s, aim_target[a], True, victims)
        kind = aim_kind[a]
        nobody = True
        for p in range(P):
            if not victims[p]:
                continue
            if kind == AIM_NOT_WIPED and wiped[p]:
                continue
            if kind == AIM_SUPPLY and no_debris:
                continue
            if kind == AIM_BACK and pos[p] <= 0:
                continue
            if kind == AIM_COINS and coins[p] <= 0:
                continue
            if kind == AIM_OFF_PATH:
                land_at = pos[p] + aim_distance[a]
                mine = pos[s]
                if land_at > mine and land_at <= mine + OWN_PATH and land_at < lap_end:
                    continue
            nobody = False
        aimless[a] = nobody
    for j in range(n):
        k = cols[j]
        if not aimed[k]:
            continue
        parts = T.card_aimed[q, variant, k]
        total = 0.0  # summed in float64 (exact for a few float32 terms), rounded once: as the numpy engine
        for a in range(A):
            if aimless[a]:
                total += float(parts[a])
        loss = np.float32(total)
        if loss > F0 and own[k] - loss <= F0:
            value[j] = NEG_INF
        else:
            value[j] = value[j] - loss


@jit
def banana_cost(T, S, X, g, s, cols, n, value):
    """A card that takes its player into a Banana it can
    see is worth the Drive it expects to lose to the Wipe Out, less without it."""
    reach = T.roll_at_least
    top = len(reach) - 1
    slowed = 0
    for p in range(T.players):
        slowed += S.slow[g, p, s]
    d = X.plain[M_DRIVE] + X.start_mods[M_DRIVE] - slowed
    near = X.turn[U_BANANA_AT] - S.pos[g, s]
    live = near > 0 and not S.wiped[g, s] and not S.lap_done[g, s]
    turn = (max(d, 0) + T.mean_roll) * (1.0 if live else 0.0) * float(T.weight_drive[S.bots[g, s]])
    without = reach[min(max(near - d, 0), top)]
    moving, moves = T.moving, T.moves
    for j in range(n):
        k = cols[j]
        if not moving[k]:
            continue
        add, push = moves[k, 0], moves[k, 1]
        after = min(max(near - d - int(add + push), 0), top)
        hit = F1 if push >= near else reach[after]
        value[j] = value[j] - np.float32(turn * float(hit - without))


@jit
def shop_phase(T, S, X, g):
    """3.1.1: buy from the Showroom and refresh it, as often as coins allow."""
    if not S.running[g]:
        return
    s = X.turn[U_SEAT]
    mods = ints(X, I_MODS_SHOP, MODS)
    modifier_totals(T, S, X, g, s, ASK_SHOP, mods)
    discount, free_left = mods[M_DISCOUNT], mods[M_FREE_REFRESH]
    slots = T.showroom_size
    shown, value, price = ints(X, I_SHOWN, slots), floats(X, F_SHOP, slots), ints(X, I_PRICE, slots)
    showroom, cost = S.showroom[g], T.cost
    for _ in range(T.shop_steps):
        q = S.bots[g, s]
        coins = S.coins[g, s]
        cheapest, can_any = 10**6, False
        for i in range(slots):
            shown[i] = max(showroom[i], 0)
            price[i] = max(cost[shown[i]] - discount, 0)
            if showroom[i] >= 0:
                cheapest = min(cheapest, price[i])
        card_values(T, S, X, g, s, True, shown, slots, NOISE_VALUES, value)
        for i in range(slots):
            if showroom[i] >= 0 and price[i] <= coins:
                can_any = True
            else:
                value[i] = NEG_INF
        slot = first_max(value, slots)
        buy = can_any and value[slot] > threshold(T, S, g, s, T.buy_min[q])
        pay = 0 if free_left > 0 else T.refresh_cost
        room = not buy and X.turn[U_REFRESHES] < T.refreshes[q] and coins >= pay
        if room:
            room = S.parts[g].any() or S.showroom_discard[g].any()
        noise = T.noise[q]
        afford = F1 if coins - pay >= min(cheapest, T.purchase_cost) else F0
        u = chance.uniform(key(X, NOISE_REFRESH, s))
        refresh = room and (F1 - noise) * afford + noise * u > F05
        if buy:
            card, paid = S.showroom[g, slot], price[slot]
            S.coins[g, s] -= paid
            S.garage[g, s, card] += 1
            S.bought[g, s, card] += 1
            S.coins_spent[g, s] += paid
            event(X, g, s, card, EV_BUY, S.turns[g, s], -1, paid)
            say(X, SAY_BUYS, card, paid, 0, 0, 0, 0, -1)
            S.showroom[g, slot] = reveal_part(T, S, X, g, s)
            fire_trigger(T, S, X, g, s, ON_BUY)
        if refresh:
            S.coins[g, s] -= pay
            S.coins_spent[g, s] += pay
            if pay == 0:
                free_left -= 1
            X.turn[U_REFRESHES] += 1
            for i in range(slots):
                if S.showroom[g, i] >= 0:
                    S.showroom_discard[g, S.showroom[g, i]] += 1
            for i in range(slots):
                S.showroom[g, i] = reveal_part(T, S, X, g, s)
            say(X, SAY_REFRESH, pay, 0, 0, 0, 0, 0, -1)
        if not (buy or refresh) or not S.running[g]:
            return


@jit
def drive_phase(T, S, X, g):
    """3.2: Drive = played Drive + the roll, less Slow; a Wiped Out player
    skips it and loses the marker (5.3); a lap completed in the Play Phase
    stops the marker for this turn (6.1)."""
    s = X.turn[U_SEAT]
    if not S.running[g] or S.lap_done[g, s]:
        return
    if S.wiped[g, s] and (not T.wiped_next_turn or X.turn[U_WIPED_AT_START]):
        S.wiped[g, s] = False
        say(X, SAY_NO_DRIVE, s, 0, 0, 0, 0, 0, -1)
        return
    mods = ints(X, I_MODS_DRIVE, MODS)
    modifier_totals(T, S, X, g, s, ASK_DRIVE, mods)
    dice = ints(X, I_DICE, max(T.dice_per_drive + mods[M_DICE_BEST] + mods[M_DICE_SUM], 0))
    rolled = roll_drive(T, X, s, mods, dice)
    slowed = 0
    for p in range(T.players):
        slowed += S.slow[g, p, s]
    total = mods[M_DRIVE] + rolled - slowed
    say(X, SAY_DRIVE, mods[M_DRIVE], rolled, slowed, total, 0, 0, row_of(X, dice, len(dice)))
    moved = max(total, T.min_drive)
    if moved != 0:
        move(T, S, X, g, s, moved)


@jit
def roll_drive(T, X, s, mods, dice):
    """3.2.2: the best `dice_per_drive` of the base dice plus `keep: best`
    extras, plus every `keep: sum` extra; a die below the reroll threshold rolled once more."""
    base, best, extra = T.dice_per_drive, mods[M_DICE_BEST], mods[M_DICE_SUM]
    D = base + best + extra
    dice_key, again_key = key(X, DICE, s), key(X, REROLL, s)
    for j in range(D):
        dice[j] = chance.roll_at(dice_key, T.die_sides, j)
        again = chance.roll_at(again_key, T.die_sides, j)
        if dice[j] < mods[M_REROLL]:
            dice[j] = again
    pool = dice[: base + best]
    kept = ints(X, I_KEPT, len(pool))
    kept[:] = pool
    kept.sort()
    total = 0
    for j in range(min(base, len(kept))):  # the `base` best of the pool
        total += kept[len(kept) - 1 - j]
    return total + dice[base + best :].sum()


@jit
def end_phase(T, S, X, g):
    """3.4: play area and hand to the Garage ((E) cards stay in play), a new hand."""
    if not S.running[g]:
        return
    s = X.turn[U_SEAT]
    K = S.hand.shape[2]
    mods = ints(X, I_MODS_END, MODS)
    modifier_totals(T, S, X, g, s, ASK_HAND, mods)
    play, hand, garage, lingering = S.play[g, s], S.hand[g, s], S.garage[g, s], S.lingering[g, s]
    scrap_at_end, expires = X.scrap_at_end, T.is_expires
    for k in range(K):
        scrap = min(scrap_at_end[k], play[k])
        if scrap:
            play[k] -= scrap
            S.scrapyard[g, k] += scrap
            S.scrapped[g, s, k] += scrap
            for _ in range(scrap):
                event(X, g, s, k, EV_SCRAP, S.turns[g, s], -1, -1)
    for k in range(K):
        if expires[k]:
            lingering[k] += play[k]
            play[k] = 0
        garage[k] += play[k] + hand[k]
        play[k] = 0
        hand[k] = 0
    draw_cards(T, S, X, g, s, max(T.hand_size + mods[M_HAND_SIZE], 0), DRAW_HAND)


@jit
def pit_stop(T, S, X, g):
    """6.2 Option A: the skipped turn draws Playbooks and keeps the best."""
    s = X.turn[U_SEAT]
    n = T.pit_stop_draw
    drawn = np.empty(n, np.int64)
    for i in range(n):
        drawn[i] = chance.draw_one(key(X, PIT_PLAYBOOKS, s), S.playbook_deck[g])
    q = S.bots[g, s]
    k = key(X, NOISE_PIT, s)
    value = np.empty(n, np.float32)
    for i in range(n):
        b = max(drawn[i], 0)
        value[i] = T.playbook_value[q, b] + T.noise[q] * chance.uniform_at(k, i) if drawn[i] >= 0 else NEG_INF
    order = np.argsort(-value, kind="mergesort")  # stable: equal values, the first drawn first
    for i in range(n):
        b = drawn[order[i]]
        if b < 0:
            continue
        if i < T.pit_stop_keep:
            S.playbooks[g, s, b] += 1
            S.pit_playbooks[g, s, b] += 1
            event(X, g, s, b, EV_PB_PIT, S.turns[g, s], -1, -1)
        else:
            S.playbook_deck[g, b] += 1
    S.pit_next[g, s] = False
    S.pit_stops[g, s] += 1
    S.pit_laps[g, s] |= 1 << (S.lap[g, s] - 2)  # the lap just completed is lap - 1
    if X.tracing:
        shown = np.array([b for b in drawn if b >= 0], np.int64)
        say(X, SAY_PIT, S.round[g], s, drawn[order[0]], 0, 0, 0, row_of(X, shown, len(shown)))
    fire_trigger(T, S, X, g, s, ON_PIT)


@jit
def lap_decisions(T, S, X, g):
    """6.2: each player who completed a lap this turn chooses Pit Stop or Race
    Through, in turn order from the active player."""
    P = T.players
    for off in range(P):
        p = (X.turn[U_SEAT] + off) % P
        if not (S.lap_done[g, p] and S.running[g]):
            continue
        q = S.bots[g, p]
        noise = T.noise[q]
        laps_left = T.laps - S.lap[g, p] + 1
        wants = F1 if laps_left >= T.pit_laps_left[q] else F0
        auto = (F1 - noise) * wants + noise * chance.uniform(key(X, NOISE_PIT_OR_RACE, p)) > F05
        rule = T.pit_rule[q]
        pit = (True if rule == 1 else False if rule == 2 else auto) and S.playbook_deck[g].any()
        S.pit_next[g, p] = pit
        S.lap_done[g, p] = False
        say(X, SAY_CHOOSES, p, pit, 0, 0, 0, 0, -1)
        if not pit:
            fire_trigger(T, S, X, g, p, ON_RACE_THROUGH)


# --- setup (the draft) and the game -------------------------------------------------


@jit
def setup(T, S, X, g, bonus_card, bonus_playbook, bonus_who, bonus_instead):
    """2.1-2.6: Parts Deck, the draft pool, the snake draft, starting decks,
    opening hands, Showroom and coins."""
    P, K, B = T.players, S.deck.shape[2], S.playbooks.shape[2]
    for k in range(K):
        S.parts[g, k] = T.parts_deck[k]
        S.supply[g, k] = T.supply[k]
    for b in range(B):
        S.playbook_deck[g, b] = T.playbook_count[b]
    pool = np.zeros(K, np.int64)
    for _ in range(T.draft_parts):  # 2.2
        card = chance.draw_one(key(X, DRAFT_PARTS, NO_SEAT), S.parts[g])
        if card >= 0:
            pool[card] += 1
    pb_pool = np.zeros(B, np.int64)
    for _ in range(T.draft_playbooks):
        b = chance.draw_one(key(X, DRAFT_PLAYBOOKS, NO_SEAT), S.playbook_deck[g])
        if b >= 0:
            pb_pool[b] += 1
    if T.first_drafter_random:  # 2.3's Player 1, drawn apart from who plays first (2.6)
        S.first_drafter[g] = chance.roll(key(X, FIRST_DRAFTER, NO_SEAT), P) - 1
    say(X, SAY_FIRST_DRAFTER, S.first_drafter[g], 0, 0, 0, 0, 0, -1)
    parts_taken = np.zeros(P, np.int64)
    books_taken = np.zeros(P, np.int64)
    cards = np.arange(K)
    card_v = np.empty(K, np.float32)
    for i in range(len(T.snake)):
        pick = i + 1
        p = (S.first_drafter[g] + T.snake[i]) % P
        q = S.bots[g, p]
        card_values(T, S, X, g, p, True, cards, K, NOISE_DRAFT_CARDS, card_v)
        best_card, k = NEG_INF, 0
        for c in range(K):
            if pool[c] > 0 and parts_taken[p] < T.parts_drafted and card_v[c] > best_card:
                best_card, k = card_v[c], c
        pk = key(X, NOISE_DRAFT_PLAYBOOKS, p)
        best_pb, b = NEG_INF, 0
        for c in range(B):
            v = T.playbook_value[q, c] + T.noise[q] * chance.uniform_at(pk, c)
            if pb_pool[c] > 0 and books_taken[p] < T.playbooks_drafted and v > best_pb:
                best_pb, b = v, c
        if best_pb > best_card:
            pb_pool[b] -= 1
            S.playbooks[g, p, b] += 1
            S.drafted_playbook[g, p] = b
            books_taken[p] += 1
            event(X, g, p, b, EV_PB_DRAFT, 0, pick, -1)
            say(X, SAY_PICK, pick, p, 0, b, 0, 0, -1)
        elif best_card > NEG_INF:  # a Parts Deck smaller than the draft leaves nothing: the seat passes
            pool[k] -= 1
            S.deck[g, p, k] += 1
            S.drafted[g, p, k] += 1
            if S.draft_pick[g, p, k] == 0:
                S.draft_pick[g, p, k] = pick
            parts_taken[p] += 1
            event(X, g, p, k, EV_DRAFT, 0, pick, -1)
            say(X, SAY_PICK, pick, p, 1, k, 0, 0, -1)
        else:
            say(X, SAY_PICK, pick, p, 2, 0, 0, 0, -1)
    for c in range(B):
        S.playbook_deck[g, c] += pb_pool[c]  # leftover Playbooks back into the Playbook Deck (2.3)
    who = bonus_who[g]
    if bonus_playbook >= 0:  # a strength experiment's Playbook: after the draft, from outside the Deck
        drafted = S.drafted_playbook[g, who]
        if bonus_instead and drafted >= 0:
            S.playbooks[g, who, drafted] -= 1
        S.playbooks[g, who, bonus_playbook] += 1
        say(X, SAY_BONUS, who, bonus_playbook, drafted if bonus_instead else -1, 0, 0, 0, -1)
    for p in range(P):  # 2.4
        for k in range(K):
            S.deck[g, p, k] += T.starting_deck[k]
    if bonus_card >= 0:
        S.deck[g, who, bonus_card] += 1
        event(X, g, who, bonus_card, EV_START, 0, -1, -1)
    for k in range(K):
        for p in range(P):
            for _ in range(T.starting_deck[k]):
                event(X, g, p, k, EV_START, 0, -1, -1)
    for p in range(P):  # 2.5
        draw_cards(T, S, X, g, p, T.hand_size, DRAW_EFFECT)
    for slot in range(T.showroom_size):
        S.showroom[g, slot] = reveal_part(T, S, X, g, NO_SEAT)
    for p in range(P):  # 2.6, with the seat and draft-position compensations (0 by default)
        S.coins[g, p] = T.starting_coins + T.seat_coins[p] + T.draft_coins[(p - S.first_drafter[g]) % P]


@jit
def play_game(T, S, X, g, bonus_card, bonus_playbook, bonus_who, bonus_instead):
    """Setup, then rounds until a player wins or rules.max_rounds; with the
    rules checker on (X.broken[0]), every turn's state checked."""
    setup(T, S, X, g, bonus_card, bonus_playbook, bonus_who, bonus_instead)
    broken = X.broken
    for _ in range(T.max_rounds):
        if not S.running[g]:
            break
        S.round[g] += 1
        chance.next_step(X.draws)  # draws are keyed by the round
        for s in range(T.players):
            play_turn(T, S, X, g, s)
            if broken[0] and broken[1] == 0:
                code = rule_broken(T, S, g, s)
                if code:
                    broken[1], broken[2], broken[3], broken[4] = code, g, S.round[g], s
    S.running[g] = False


# What must hold in every game after every turn, whatever the cards and bots
# (the rules checker): rule_broken returns
# the number (from 1) of the first one a game's state breaks.
RULES = (
    "negative count in a zone",
    "cards not conserved across zones",
    "Playbooks not conserved",
    "a player without a Playbook",
    "negative coins",
    "position off the track",
    "lap out of range",
    "cards left in a play area after a turn",
    "Banana on a lap end",
    "a player stands on a Banana",
    "a finished game still running",
    "the winner has not completed the last lap",
    "an absurd hand",
)


@jit
def rule_broken(T, S, g, seat):
    """The first rule of RULES that game g's state breaks after `seat`'s turn (its number from 1), 0 none."""
    P, K, L = T.players, S.deck.shape[2], T.track_length
    for k in range(K):
        total = 0
        for pile in (S.parts[g], S.showroom_discard[g], S.scrapyard[g], S.supply[g]):
            if pile[k] < 0:
                return 1
            total += pile[k]
        for p in range(P):
            for pile in (S.deck[g, p], S.hand[g, p], S.play[g, p], S.lingering[g, p], S.garage[g, p]):
                if pile[k] < 0:
                    return 1
                total += pile[k]
        for slot in range(S.showroom.shape[1]):
            total += S.showroom[g, slot] == k
        if total != T.card_count[k]:
            return 2
    for b in range(S.playbook_deck.shape[1]):
        total = S.playbook_deck[g, b]
        for p in range(P):
            total += S.playbooks[g, p, b]
        if total != T.playbook_count[b]:
            return 3
    for p in range(P):
        if S.playbooks[g, p].sum() < 1:
            return 4
    for p in range(P):
        if S.coins[g, p] < 0:
            return 5
    for p in range(P):
        if S.pos[g, p] < 0 or S.pos[g, p] > L:
            return 6
    for p in range(P):
        if S.lap[g, p] < 1 or S.lap[g, p] > T.laps:
            return 7
    if S.running[g]:
        for p in range(P):
            if S.play[g, p].sum() != 0:
                return 8
    bananas = S.bananas[g]
    if bananas.min() < 0 or bananas[0] != 0 or bananas[L] != 0:
        return 9
    for p in range(P):
        if bananas[S.pos[g, p]] > 0:
            return 10
    w = S.winner[g]
    if w >= 0 and S.running[g]:
        return 11
    if w >= 0 and (S.lap[g, w] != T.laps or S.pos[g, w] != L):
        return 12
    if S.running[g] and S.hand[g, seat].sum() > 40:
        return 13
    return 0


@jit
def working_rows(T, K):
    """The phases' working rows (X.ints, X.floats, X.flags), each as wide as
    the most cards, seats, modifiers, Showroom slots or aims a phase holds."""
    width = max(K, MODS, SEATS, T.showroom_size, T.type_count.max(), len(T.aim_target))
    return (
        np.zeros((INT_ROWS, width), np.int64),
        np.zeros((FLOAT_ROWS, width), np.float32),
        np.zeros((FLAG_ROWS, width), np.bool_),
    )


@jit
def play_games(
    T,
    S,
    hashes,
    codes,
    events,
    written,
    logging,
    broken,
    watch,
    verbose,
    trace,
    trace_n,
    rows,
    rows_n,
    start,
    stop,
    bonus_card,
    bonus_playbook,
    bonus_who,
    bonus_instead,
):
    """Games start..stop-1 of the batch, one after another; returns the game
    whose card events did not fit in `events` (stop: every game played), its
    events unwritten. `broken`: [check?, rule, game, round, seat] of the first
    rule broken; game `watch` (-1 none) says what it does into `trace` and `rows`
    (`verbose`: hands and draws too), counted past their ends when they are short."""
    K = S.deck.shape[2]
    turn, scrap_at_end = np.zeros(6, np.int64), np.zeros(K, np.int64)
    start_mods, plain = np.zeros(MODS, np.int64), np.zeros(MODS, np.int64)
    R = T.card_fires.shape[1]
    pending, top = np.zeros((PENDING, 7), np.int64), np.zeros(1, np.int64)
    named = np.zeros((PENDING, S.playbooks.shape[2]), np.bool_)
    cols, fire = np.zeros((PENDING, R), np.int64), np.zeros((PENDING, R), np.int64)
    fired, amount = np.zeros((PENDING, R), np.int64), np.zeros((PENDING, R), np.int64)
    int_rows, float_rows, flag_rows = working_rows(T, K)
    for g in range(start, stop):
        before = written[0]
        draws = np.zeros((len(codes) + 1, SEATS), np.int64)
        X = Game(
            hashes[g : g + 1],
            draws,
            codes,
            events,
            written,
            logging,
            pending,
            top,
            cols,
            fire,
            fired,
            amount,
            broken,
            g == watch,
            verbose,
            trace,
            trace_n,
            rows,
            rows_n,
            named,
            turn,
            scrap_at_end,
            start_mods,
            plain,
            int_rows,
            float_rows,
            flag_rows,
        )
        play_game(T, S, X, g, bonus_card, bonus_playbook, bonus_who, bonus_instead)
        if written[0] > events.shape[0]:
            written[0] = before
            return g
    return stop
