"""The Shuffle Grand Prix rules, compiled (numba): one game at a time, each
phase a function, in the rulebook's order ("Setup", then "Play": the turn's
start, 1 draw a distance card, 2 rotate the turn trackers, 3 one ability
play, then the anytime cards, 4 spend trophies). It replaced a numpy
lockstep engine (removed after commit 3b9cffb, where both were proven to
play the same games): every random number is keyed as there
(chance.compiled), every bot value computed in the same float32 steps, so
the recorded games stay the same games (tests/test_golden_results.py,
tests/test_compiled_shuffle_gp.py).

Conventions: `T` the tables (tables.Tab), `S` the batch's state (state.State's
arrays), `X` the game's context (structs.Game: its row `X.g`, hash, draw
counts, event buffer, the traps waiting for a resolving card), `p` the seat
acting. Bots' values are float32 (as the numpy engine kept them): a Python
float beside a float32 would widen it, so constants are float32, and where a
float32 meets a float64 (a division of int8 tire health, a zeros column) the
sum is taken in float64, as numpy took it.

No recursion (numba cannot load a recursive function from its cache):
effects call each other only a few levels deep, and each level is a
function of its own here. A card played on a turn resolves at
depth 0 (`apply_op`, mode CARD): the traps it sets off wait in `X.pend`
until it is done (resolve_then_spring), its damage and draws fire
specialties. A trap resolves at depth 1 (`apply_op`, mode TRAP): its damage
fires specialties only where rules.trap_damage_specialties. What a
specialty or an anytime answer resolves (`apply_leaf`) sets nothing off.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from ...chance import SEATS
from ...chance import compiled as chance
from .. import vocabulary as V
from ..state import PLAYS_MOST, SKIP_MOST
from .structs import Game
from .tables import PURPOSES

jit = njit(cache=True)
inline = njit(cache=True, inline="always")

F0, F1, F4 = np.float32(0.0), np.float32(1.0), np.float32(4.0)  # NOISE_SPREAD is 4.0
F05 = np.float32(0.5)
DREAD = np.float32(10.0)  # what a bot dreads a spin-out at: the worth a card loses for causing one
NEG_INF, POS_INF = np.float32(-np.inf), np.float32(np.inf)

(
    DEAL,
    REDEAL,
    NOISE_DRAFT,
    DRAW_ABILITY,
    DISTANCE,
    NOISE_WORTH,
    NOISE_PIT,
    NOISE_RIVAL,
    NOISE_SPEND,
    NOISE_SWAP,
    NOISE_ANSWER,
    NOISE_WHICH,
    NOISE_ANYTIME,
    STEAL,
) = range(len(PURPOSES))

ACTION, EQUIP, TRAP, NERF, ANYTIME = (V.CARD_TYPES.index(t) for t in ("action", "equip", "trap", "nerf", "anytime"))
SELF, ONE_RIVAL, ALL_RIVALS, LEADER, NEXT, TRIGGERER = (
    V.TARGETS.index(t) for t in ("self", "one_rival", "all_rivals", "leader", "next", "triggerer")
)
ON_DRAW, ON_ACTION, ON_EQUIP, ON_DAMAGE, ON_HEAL, ON_PIT = (
    V.TRIGGERS.index(t) for t in ("draws_distance", "plays_action", "plays_equip", "any_damage", "heals", "pit_stop")
)
W_TURN_START, W_DRAWS, W_ACTION, W_DEALS, W_TAKES, W_TRAP = (
    V.CONDITIONS.index(t)
    for t in ("turn_start", "draws_distance", "plays_action", "deals_damage", "takes_damage", "trap_sprung")
)
_OPS = tuple(V.OPS)
REPLACE = V.CANCELS.index("replace")  # a cancel that replaces the card (nobody is affected)
(
    OP_DAMAGE,
    OP_HEAL,
    OP_STEAL,
    OP_DISCARD,
    OP_DRAW_DISTANCE,
    OP_SWAP,
    OP_SKIP,
    OP_DRAW_ABILITY,
    OP_EXTRA,
    OP_REMOVE_EQUIP,
    OP_REMOVE_NERF,
) = (
    _OPS.index(o)
    for o in (
        "damage",
        "heal",
        "steal_card",
        "discard_distance",
        "draw_distance",
        "swap_top_distance",
        "skip_turn",
        "draw_ability",
        "extra_play",
        "remove_equip",
        "remove_nerf",
    )
)
L_SHIELD, L_DISTANCE, L_BONUS, L_REDUCTION, L_BLOCK = range(5)  # tables.LASTING order
PIT, REDRAW, PASS = 0, 1, 2  # the options after the K cards (options)
CARD, TRAP_MODE = 0, 1  # apply_op's modes: a card's effects (depth 0), a trap's (depth 1)
EV_DRAFT, EV_PLAY = 1, 8  # events.EVENTS
N_EVENTS, N_RESOLVING, N_PEND = 0, 1, 2  # X.n
PLAYS = PLAYS_MOST
SKIPS = SKIP_MOST


# --- keys, events --------------------------------------------------------------------------


@inline
def key(X, purpose, seat):
    return chance.key(X.hash[0], X.draws, X.codes, purpose, int(seat))


@inline
def event(X, seat, card, code, turn, pick):  # one signature for the compiled body: int64 numbers
    return _event(X, int(seat), int(card), int(code), int(turn), int(pick))


@jit
def _event(X, seat, card, code, turn, pick):
    """One card event of the logs (events.Events), if the run keeps them; the buffer doubles when full."""
    if not X.logging:
        return
    i = X.n[N_EVENTS]
    if i >= X.events.shape[0]:
        bigger = np.zeros((2 * X.events.shape[0], 7), np.int32)
        bigger[:i] = X.events[:i]
        X.events = bigger
    e = X.events[i]
    e[0], e[1], e[2], e[3], e[4], e[5], e[6] = X.g, seat, card, code, turn, pick, -1
    X.n[N_EVENTS] = i + 1


# What a traced game says (balance trace): records of numbers, written as text by trace_text.py in
# words. Lists (a hand, the seats dealt again) go to a row of their own.
(
    SAY_DEALT,
    SAY_TIE,
    SAY_DEALT_AGAIN,
    SAY_GIVEN,
    SAY_PICK,
    SAY_EXTRA_CARD,
    SAY_FIRST,
    SAY_DISTANCE,
    SAY_LOSES,
    SAY_DRAWS,
    SAY_WILL_SKIP,
    SAY_SPENT,
    SAY_TAKES,
    SAY_SPINS,
    SAY_HEALS,
    SAY_STEALS,
    SAY_SWAPS,
    SAY_REMOVED,
    SAY_SENDS,
    SAY_SPRINGS,
    SAY_ACTS,
    SAY_ANSWERS,
    SAY_PASSES,
    SAY_PLAYS,
    SAY_SITS,
    SAY_PITS,
    SAY_REDRAWS,
    SAY_RUNS_OUT,
    SAY_NERF_OUT,
    SAY_DRIVES,
    SAY_EXTRA_PLAY,
    SAY_SKIPS,
    SAY_TURN,
    SAY_HANDS,
    SAY_OVER,
    SAY_DOWN,
) = range(36)
WHY_PIT, WHY_SPIN, WHY_DISCARD = range(3)  # why a top distance card goes under the deck


@inline
def say(X, kind, a, b, c, d, e, row):  # one signature for the compiled body: int64 numbers
    if X.tracing:  # no call at all in a game nobody watches
        _say(X, int(kind), int(a), int(b), int(c), int(d), int(e), int(row))


@jit
def _say(X, kind, a, b, c, d, e, row):
    """One record of what the traced game does (if it is traced)."""
    if not X.tracing:
        return
    i = X.rows_n[1]
    if i < X.trace.shape[0]:
        rec = X.trace[i]
        rec[0], rec[1], rec[2], rec[3], rec[4], rec[5], rec[6] = kind, a, b, c, d, e, row
    X.rows_n[1] = i + 1


@inline
def row_of(X, values, n):  # one signature for the compiled body: int64 numbers
    return _row_of(X, values, int(n))


@jit
def _row_of(X, values, n):
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


# --- what the state reads -----------------------------------------------


@inline
def modifier(T, S, g, p, li):  # one signature for the compiled body: int64 numbers
    return _modifier(T, S, int(g), int(p), int(li))


@jit
def _modifier(T, S, g, p, li):
    """A lasting op's total on p's car (equips, nerfs on it, its driver's `always`)."""
    K = T.lasting.shape[0] - 1
    total = 0
    for e in range(S.equip.shape[2]):
        c = S.equip[g, p, e]
        total += T.lasting[c if c >= 0 else K, li]
    for s in range(S.nerf.shape[2]):
        c = S.nerf[g, p, s]
        total += T.lasting[c if c >= 0 else K, li]
    return total + T.always[S.driver[g, p], li]


@inline
def total_distance(T, S, g, p):  # one signature for the compiled body: int64 numbers
    return _total_distance(T, S, int(g), int(p))


@jit
def _total_distance(T, S, g, p):
    """state.total_distance for one seat: its stack's points plus its bonus."""
    pts = 0
    for i in range(S.height[g, p]):
        pts += T.values[S.stack[g, p, i]]
    return pts + S.bonus[g, p]


@inline
def top_value(T, S, g, p):  # one signature for the compiled body: int64 numbers
    return _top_value(T, S, int(g), int(p))


@jit
def _top_value(T, S, g, p):
    h = S.height[g, p]
    return T.values[S.stack[g, p, h - 1]] if h > 0 else 0


@inline
def best_swap(T, S, g, p):  # one signature for the compiled body: int64 numbers
    return _best_swap(T, S, int(g), int(p))


@jit
def _best_swap(T, S, g, p):
    """The rival whose top distance card beats p's by most (-1: none)."""
    P = T.players
    if S.height[g, p] <= 0:
        return -1
    mine = top_value(T, S, g, p)
    best, at = -1, -1
    for j in range(P):
        if j == p or S.immune[g, j] or S.height[g, j] <= 0:
            continue
        gain = top_value(T, S, g, j) - mine
        if gain > 0 and gain > best:
            best, at = gain, j
    return at


@inline
def draw_distance_cards(T, S, X, g, p):  # one signature for the compiled body: int64 numbers
    return _draw_distance_cards(T, S, X, int(g), int(p))


@jit
def _draw_distance_cards(T, S, X, g, p):
    """One distance card onto p's stack, from the deck, or
    from the bottom pile once the deck is empty. True: a card was drawn."""
    from_deck = S.deck[g].sum() > 0
    kind = -1
    if T.bottom_random:
        pile = S.deck[g] if from_deck else S.bottom[g]
        if pile.sum() > 0:
            kind = chance.draw_one(key(X, DISTANCE, p), pile)
    else:  # "into the bottom of the draw pile": the first card put under is the first drawn
        if from_deck:
            kind = chance.draw_one(key(X, DISTANCE, p), S.deck[g])
        elif S.bottom[g].sum() > 0:
            head = S.bottom_head[g]
            kind = S.bottom_order[g, head]
            S.bottom_order[g, head] = -1
            S.bottom_head[g] = (head + 1) % S.bottom_order.shape[1]
            S.bottom[g, kind] -= 1
    if kind < 0:
        return False
    h = S.height[g, p]
    S.stack[g, p, h] = kind
    S.height[g, p] = h + 1
    value = T.values[kind]
    bonus = max(modifier(T, S, g, p, L_DISTANCE), -value)
    S.bonus[g, p] += bonus
    S.distance_drawn[g, p] += 1
    say(X, SAY_DISTANCE, p, value, bonus, 0, 0, -1)
    return True


@inline
def discard_top(T, S, X, g, p, n, why):  # one signature for the compiled body: int64 numbers
    return _discard_top(T, S, X, int(g), int(p), int(n), int(why))


@jit
def _discard_top(T, S, X, g, p, n, why):
    """Seat p's top n distance cards go face down under the deck."""
    for _ in range(n):
        h = S.height[g, p] - 1
        if h < 0:
            return
        kind = S.stack[g, p, h]
        S.stack[g, p, h] = -1
        S.height[g, p] = h
        at = (S.bottom_head[g] + S.bottom[g].sum()) % S.bottom_order.shape[1]
        S.bottom_order[g, at] = kind
        S.bottom[g, kind] += 1
        S.distance_lost[g, p] += T.values[kind]
        say(X, SAY_LOSES, p, T.values[kind], why, 0, 0, -1)


@inline
def draw_cards(T, S, X, g, p, n):  # one signature for the compiled body: int64 numbers
    return _draw_cards(T, S, X, int(g), int(p), int(n))


@jit
def _draw_cards(T, S, X, g, p, n):
    """`n` ability cards (the discard reshuffled in when the draw pile runs out)."""
    if n <= 0:
        return
    if X.tracing and X.verbose:  # balance trace --verbose: the cards drawn
        drawn = np.zeros(S.hand.shape[2], np.int64)
        chance.draw_reshuffling(key(X, DRAW_ABILITY, p), S.draw[g, p], S.discard[g, p], n, drawn)
        for k in range(drawn.shape[0]):
            S.hand[g, p, k] += drawn[k]
        say(X, SAY_DRAWS, p, 0, 0, 0, 0, row_of(X, drawn, drawn.shape[0]))
        return
    chance.draw_reshuffling(key(X, DRAW_ABILITY, p), S.draw[g, p], S.discard[g, p], n, S.hand[g, p])


@inline
def refill(T, S, X, g, p):  # one signature for the compiled body: int64 numbers
    return _refill(T, S, X, int(g), int(p))


@jit
def _refill(T, S, X, g, p):
    """Draw up to the hand size."""
    draw_cards(T, S, X, g, p, T.hand_size - S.hand[g, p].sum())


# --- whom an effect reaches -----------------------------------------------------------


@inline
def choose_rival(T, S, X, g, p, nerf, useful):  # one signature for the compiled body: int64 numbers
    return _choose_rival(T, S, X, int(g), int(p), bool(nerf), useful)


@jit
def _choose_rival(T, S, X, g, p, nerf, useful):
    """The rival p's bot picks (-1: none fits). `useful` (P,) bool:
    the rivals the card would change; where any is, the bot picks among them."""
    P = T.players
    ok = np.zeros(P, np.bool_)
    for j in range(P):
        ok[j] = j != p and not S.immune[g, j]
        if nerf and ok[j]:
            free = False
            for s in range(S.nerf.shape[2]):
                free |= S.nerf[g, j, s] < 0
            ok[j] = free
    some = False
    for j in range(P):
        some |= ok[j] and useful[j]
    if some:
        for j in range(P):
            ok[j] = ok[j] and useful[j]
    q = S.bots[g, p]
    dist = np.empty(P, np.float32)
    for j in range(P):
        dist[j] = np.float32(total_distance(T, S, g, j))
    top = max(dist.max(), F1)
    lead, noise = T.lead[q], T.noise[q]
    k = key(X, NOISE_RIVAL, p)
    at, best = -1, -np.inf
    for j in range(P):
        u = chance.uniform_at(k, j)
        hurt = float(T.tire_health - S.tire[g, j]) / float(T.tire_health)  # float64, as numpy divides int8
        score = float(F1 - noise) * (float(lead * (dist[j] / top)) + float(F1 - lead) * hurt) + float(noise * u)
        if ok[j] and (at < 0 or score > best):
            at, best = j, score
    return at


@inline
def leader_seat(T, S, g, p):  # one signature for the compiled body: int64 numbers
    return _leader_seat(T, S, int(g), int(p))


@jit
def _leader_seat(T, S, g, p):
    """The leader in distance among p's rivals; ties: the first clockwise from p."""
    P = T.players
    at, best = 0, -(2**62)
    for j in range(P):
        v = -1 if j == p else total_distance(T, S, g, j) * P + (P - (j - p) % P)
        if v > best:
            at, best = j, v
    return at


@inline
def targets(T, S, g, p, code, rival, trig, out):  # one signature for the compiled body: int64 numbers
    return _targets(T, S, int(g), int(p), int(code), int(rival), int(trig), out)


@jit
def _targets(T, S, g, p, code, rival, trig, out):
    """Who an effect with target `code` hits (immune rivals left out)."""
    P = T.players
    lead = leader_seat(T, S, g, p) if code == LEADER else -1
    for j in range(P):
        me = j == p
        if code == SELF:
            hit = me
        elif code == ONE_RIVAL:
            hit = j == rival
        elif code == ALL_RIVALS:
            hit = not me
        elif code == LEADER:
            hit = j == lead
        elif code == NEXT:
            hit = j == (p + 1) % P
        elif code == TRIGGERER:
            hit = j == trig
        else:
            hit = False
        out[j] = hit and (me or not S.immune[g, j])


@inline
def changes(T, S, g, p, op, amount, j):  # one signature for the compiled body: int64 numbers
    return _changes(T, S, int(g), int(p), int(op), int(amount), int(j))


@jit
def _changes(T, S, g, p, op, amount, j):
    """Whether the op would change player j if it reached it."""
    if op == OP_DAMAGE:
        bonus = modifier(T, S, g, p, L_BONUS)
        return max(amount + bonus, 0) - modifier(T, S, g, j, L_REDUCTION) > 0
    if op == OP_DISCARD:
        return S.height[g, j] > 0
    if op == OP_SWAP:  # a swap the player gains by
        return j != p and S.height[g, j] > 0 and S.height[g, p] > 0 and top_value(T, S, g, j) > top_value(T, S, g, p)
    if op == OP_REMOVE_EQUIP:
        for e in range(S.equip.shape[2]):  # noqa: SIM110 - numba compiles no generator into any()
            if S.equip[g, j, e] >= 0:
                return True
        return False
    if op == OP_REMOVE_NERF:
        for s in range(S.nerf.shape[2]):  # noqa: SIM110 - numba compiles no generator into any()
            if S.nerf[g, j, s] >= 0:
                return True
        return False
    return True


@inline
def affected_any(T, S, g, p, op, target, amount):  # one signature for the compiled body: int64 numbers
    return _affected_any(T, S, int(g), int(p), int(op), int(target), int(amount))


@jit
def _affected_any(T, S, g, p, op, target, amount):
    """Whether the effect would change anyone now (no rival chosen, no triggerer)."""
    P = T.players
    lead = leader_seat(T, S, g, p) if target == LEADER else -1
    for j in range(P):
        me = j == p
        rival = not me and not S.immune[g, j]
        if target < 0 or target == SELF:
            reach = me
        elif target == ONE_RIVAL or target == ALL_RIVALS:  # noqa: SIM109 - two codes, compared as numpy compared them
            reach = rival
        elif target == LEADER:
            reach = rival and j == lead
        elif target == NEXT:
            reach = rival and j == (p + 1) % P
        else:  # triggerer: none here
            reach = False
        if reach and changes(T, S, g, p, op, amount, j):
            return True
    return False


@inline
def useful_rivals(T, S, g, p, k, out):  # one signature for the compiled body: int64 numbers
    return _useful_rivals(T, S, int(g), int(p), int(k), out)


@jit
def _useful_rivals(T, S, g, p, k, out):
    """The rivals a `one_rival` effect of card k would change now."""
    P = T.players
    out[:] = False
    for u in range(T.idle_kinds.shape[0]):
        if T.idle_kinds[u, 1] != ONE_RIVAL or not T.idle_cards[u, k]:
            continue
        op, amount = T.idle_kinds[u, 0], T.idle_kinds[u, 2]
        for j in range(P):
            if j != p and not S.immune[g, j] and changes(T, S, g, p, op, amount, j):
                out[j] = True


# --- what a card is worth -----------------------------------------------------------


@inline
def hit(amount, bonus, cut):  # one signature for the compiled body: int64 numbers
    return _hit(int(amount), int(bonus), int(cut))


@jit
def _hit(amount, bonus, cut):
    """A hit's damage: the amount with the dealer's bonus, less the target's cut, never below 0."""
    return max(max(amount + bonus, 0) - cut, 0) if amount > 0 else 0


@inline
def play_worth(T, S, g, p, now, out):  # one signature for the compiled body: int64 numbers
    return _play_worth(T, S, int(g), int(p), bool(now), out)


@jit
def _play_worth(T, S, g, p, now, out):
    """What playing each card is worth: card value, a heal for the health missing,
    less (now) the worth of the effects that would change nothing, less the dread
    of spinning itself out."""
    K = T.card_type.shape[0]
    q = S.bots[g, p]
    missing = T.tire_health - S.tire[g, p]
    for k in range(K):
        out[k] = T.card_value[q, k] + T.defence[q] * np.float32(min(T.heals[k], missing))
    if now:  # worth.idle_worth: the kinds held, then those that would change nobody, in order
        U = T.idle_kinds.shape[0]
        loss = np.zeros(K, np.float32)
        for u in range(U):
            holds = False
            for k in range(K):
                holds |= S.hand[g, p, k] > 0 and T.idle_cards[u, k]
            if holds and not affected_any(T, S, g, p, T.idle_kinds[u, 0], T.idle_kinds[u, 1], T.idle_kinds[u, 2]):
                for k in range(K):
                    loss[k] = loss[k] + T.idle_worth[q, u, k]
        for k in range(K):
            out[k] = out[k] - loss[k]  # the losses summed first (float32, in the kinds' order), then taken off
    # worth.spin_out_dread: the self-harm of each card in hand (worth.self_harm)
    cut = modifier(T, S, g, p, L_REDUCTION)
    Tn = T.sets_off.shape[1]
    by_trigger = np.zeros(Tn, np.int64)
    if not S.immune[g, p]:
        for s in range(S.trap.shape[1]):
            c = S.trap[g, s]
            if c < 0 or not T.sets_off_any[T.trigger[c]]:
                continue
            owner = max(S.trap_owner[g, s], 0)
            owner_bonus = modifier(T, S, g, owner, L_BONUS)
            drv = S.driver[g, owner]
            jaws = 0
            if T.d_when[drv] == W_TRAP and T.d_op[drv] == OP_DAMAGE and T.d_target[drv] == TRIGGERER:
                jaws = T.d_amount[drv]
            by_trigger[T.trigger[c]] += hit(T.trap_hurt[c], owner_bonus, cut) + hit(jaws, owner_bonus, cut)
    shields = 0
    for e in range(S.shield.shape[2]):
        shields += S.shield[g, p, e]
    bonus = modifier(T, S, g, p, L_BONUS)
    tire = S.tire[g, p]
    for k in range(K):
        if S.hand[g, p, k] <= 0:
            continue
        total = hit(T.hurts_self[k], bonus, cut)
        for t in range(Tn):
            if T.sets_off[k, t]:
                total += by_trigger[t]
        hurt = max(total - shields, 0)
        if hurt > 0 and hurt >= tire:
            out[k] = out[k] - DREAD


@inline
def hand_worth(T, S, X, g, p, now, out):  # one signature for the compiled body: int64 numbers
    return _hand_worth(T, S, X, int(g), int(p), bool(now), out)


@jit
def _hand_worth(T, S, X, g, p, now, out):
    """play_worth with the bot's noise mixed in (a draw of noise each call)."""
    K = T.card_type.shape[0]
    q = S.bots[g, p]
    k0 = key(X, NOISE_WORTH, p)
    noise = T.noise[q]
    play_worth(T, S, g, p, now, out)
    for k in range(K):
        out[k] = (F1 - noise) * out[k] + noise * chance.uniform_at(k0, k) * F4


@inline
def worst_in_hand(S, g, p, worth):  # one signature for the compiled body: int64 numbers
    return _worst_in_hand(S, int(g), int(p), worth)


@jit
def _worst_in_hand(S, g, p, worth):
    """The card in p's hand worth least (the first of equals)."""
    at, best = 0, POS_INF
    for k in range(worth.shape[0]):
        v = worth[k] if S.hand[g, p, k] > 0 else POS_INF
        if v < best:
            at, best = k, v
    return at


@inline
def discard_down(T, S, X, g, p):  # one signature for the compiled body: int64 numbers
    return _discard_down(T, S, X, int(g), int(p))


@jit
def _discard_down(T, S, X, g, p):
    """The cards worth least (one worth for them all) go to the discard
    until the hand is down to its size."""
    if S.hand[g, p].sum() <= T.hand_size:
        return
    worth = np.empty(T.card_type.shape[0], np.float32)
    hand_worth(T, S, X, g, p, False, worth)
    while S.hand[g, p].sum() > T.hand_size:
        k = worst_in_hand(S, g, p, worth)
        S.hand[g, p, k] -= 1
        S.discard[g, p, k] += 1
        say(X, SAY_DOWN, p, k, T.hand_size, 0, 0, -1)


# --- damage and spin-outs ---------------------------------------------------------


@inline
def spin_out(T, S, X, g, t, causers):  # one signature for the compiled body: int64 numbers
    return _spin_out(T, S, X, int(g), int(t), causers)


@jit
def _spin_out(T, S, X, g, t, causers):
    """Equips and hand discarded, nerfs back to their owners, the top
    distance card under the deck, driver and co-pilot swap (both at full health),
    immune until its next turn, a trophy to each of `causers`; the hand refilled."""
    P = T.players
    for e in range(S.equip.shape[2]):
        c = S.equip[g, t, e]
        if c >= 0:
            S.discard[g, t, c] += 1
        S.equip[g, t, e] = -1
        S.equip_left[g, t, e] = 0
        S.shield[g, t, e] = 0
    for k in range(S.hand.shape[2]):
        S.discard[g, t, k] += S.hand[g, t, k]
        S.hand[g, t, k] = 0
    for s in range(S.nerf.shape[2]):
        c, owner = S.nerf[g, t, s], S.nerf_owner[g, t, s]
        if c >= 0:
            S.discard[g, owner, c] += 1
        S.nerf[g, t, s] = -1
        S.nerf_owner[g, t, s] = -1
        S.nerf_left[g, t, s] = 0
    discard_top(T, S, X, g, t, T.spin_out_discard, WHY_SPIN)
    d, c = S.driver[g, t], S.co_pilot[g, t]
    S.driver[g, t], S.co_pilot[g, t] = c, d
    S.tire[g, t] = T.tire_health
    S.co_tire[g, t] = T.tire_health
    S.immune[g, t] = True
    S.spin_outs[g, t] += 1
    for j in range(P):
        S.hurt_by[g, t, j] = False
    for who in range(P):
        if causers[who]:
            give = min(S.pool[g], T.spin_out_trophy)
            S.trophies[g, who] += give
            S.trophies_won[g, who] += give
            S.pool[g] -= give
            S.spins_caused[g, who] += 1
    if X.tracing:
        seats = np.zeros(P, np.int64)
        n = 0
        for who in range(P):
            if causers[who]:
                seats[n] = who
                n += 1
        say(X, SAY_SPINS, t, c, 0, 0, 0, row_of(X, seats, n))
    refill(T, S, X, g, t)


@inline
def hit_car(T, S, X, g, dealer, t, amount):  # one signature for the compiled body: int64 numbers
    return _hit_car(T, S, X, int(g), int(dealer), int(t), int(amount))


@jit
def _hit_car(T, S, X, g, dealer, t, amount):
    """The damage dealt: the dealer's damage_bonus and t's damage_reduction,
    then t's shields, the rest off tire health; at 0 a spin-out. Returns the health lost."""
    amt = max(amount + modifier(T, S, g, dealer, L_BONUS), 0)
    amt = max(amt - modifier(T, S, g, t, L_REDUCTION), 0)
    for e in range(S.equip.shape[2]):
        take = min(S.shield[g, t, e], amt)
        S.shield[g, t, e] -= take
        S.absorbed[g, t] += take
        amt -= take
        if take > 0 and S.shield[g, t, e] == 0:  # a spent shield is discarded
            card = S.equip[g, t, e]
            S.discard[g, t, card] += 1
            S.equip[g, t, e] = -1
            S.equip_left[g, t, e] = 0
            say(X, SAY_SPENT, t, card, 0, 0, 0, -1)
    loss = min(amt, S.tire[g, t])
    S.tire[g, t] -= loss
    S.damage_taken[g, t] += loss
    if dealer != t:
        S.damage_dealt[g, dealer] += loss
    say(X, SAY_TAKES, t, loss, dealer, S.tire[g, t], 0, -1)
    if loss > 0:
        S.hurt_by[g, t, dealer] = True
        if S.tire[g, t] == 0:
            causers = np.zeros(T.players, np.bool_)
            if T.final_blow:  # "the player dealing the final blow"
                causers[dealer] = True
            else:  # every player who damaged this driver since it took the wheel
                causers[:] = S.hurt_by[g, t]
            spin_out(T, S, X, g, t, causers)
    return loss


@inline
def heal(T, S, X, g, p, amount):  # one signature for the compiled body: int64 numbers
    return _heal(T, S, X, int(g), int(p), int(amount))


@jit
def _heal(T, S, X, g, p, amount):
    """Tire health back, never above full. Returns what was gained."""
    gained = min(amount, T.tire_health - S.tire[g, p])
    S.tire[g, p] += gained
    if gained > 0:
        say(X, SAY_HEALS, p, gained, S.tire[g, p], 0, 0, -1)
    return gained


@inline
def steal(T, S, X, g, p, t, amount):  # one signature for the compiled body: int64 numbers
    return _steal(T, S, X, int(g), int(p), int(t), int(amount))


@jit
def _steal(T, S, X, g, p, t, amount):
    """`amount` random cards from t's hand into p's; t draws back up."""
    for _ in range(amount):
        k = chance.draw_one(key(X, STEAL, t), S.hand[g, t])
        if k >= 0:
            S.hand[g, p, k] += 1
            S.stolen_in[g, p, k] += 1
            S.stolen_out[g, t, k] += 1
            say(X, SAY_STEALS, p, k, t, 0, 0, -1)
    refill(T, S, X, g, t)


@inline
def swap_top(T, S, X, g, p, t):  # one signature for the compiled body: int64 numbers
    return _swap_top(T, S, X, int(g), int(p), int(t))


@jit
def _swap_top(T, S, X, g, p, t):
    """Swap top distance cards, if the bot gains by it (a noisy bot: at random)."""
    hp, ht = S.height[g, p], S.height[g, t]
    mine = S.stack[g, p, max(hp - 1, 0)]
    theirs = S.stack[g, t, max(ht - 1, 0)]
    noise = T.noise[S.bots[g, p]]
    gain = T.values[max(theirs, 0)] - T.values[max(mine, 0)]
    k = key(X, NOISE_SWAP, p)
    want = chance.uniform_at(k, 1) < F05 if chance.uniform_at(k, 0) < noise else gain > 0
    if hp > 0 and ht > 0 and want:
        S.stack[g, p, hp - 1] = theirs
        S.stack[g, t, ht - 1] = mine
        say(X, SAY_SWAPS, p, t, 0, 0, 0, -1)


@inline
def remove_equip(T, S, X, g, p, t, amount):  # one signature for the compiled body: int64 numbers
    return _remove_equip(T, S, X, int(g), int(p), int(t), int(amount))


@jit
def _remove_equip(T, S, X, g, p, t, amount):
    """Up to `amount` equips off t's car, the ones p's bot values most."""
    q = S.bots[g, p]
    for _ in range(amount):
        at, best = -1, NEG_INF
        for e in range(S.equip.shape[2]):
            c = S.equip[g, t, e]
            if c >= 0 and (at < 0 or T.card_value[q, c] > best):
                at, best = e, T.card_value[q, c]
        if at < 0:
            return
        card = S.equip[g, t, at]
        S.discard[g, t, card] += 1
        S.equip[g, t, at] = -1
        S.equip_left[g, t, at] = 0
        S.shield[g, t, at] = 0
        say(X, SAY_REMOVED, t, card, 0, 0, 0, -1)


@inline
def remove_nerf(T, S, X, g, p, amount):  # one signature for the compiled body: int64 numbers
    return _remove_nerf(T, S, X, int(g), int(p), int(amount))


@jit
def _remove_nerf(T, S, X, g, p, amount):
    """Up to `amount` nerfs on p's car back to their owners' discards."""
    for _ in range(amount):
        at = -1
        for s in range(S.nerf.shape[2]):
            if S.nerf[g, p, s] >= 0:
                at = s
                break
        if at < 0:
            return
        card, owner = S.nerf[g, p, at], S.nerf_owner[g, p, at]
        S.discard[g, owner, card] += 1
        S.nerf[g, p, at] = -1
        S.nerf_owner[g, p, at] = -1
        S.nerf_left[g, p, at] = 0
        say(X, SAY_SENDS, p, card, owner, 0, 0, -1)


@inline
def simple_op(T, S, X, g, op, p, amount, hits):  # one signature for the compiled body: int64 numbers
    return _simple_op(T, S, X, int(g), int(op), int(p), int(amount), hits)


@jit
def _simple_op(T, S, X, g, op, p, amount, hits):
    """The ops that set nothing off, for each target in `hits` (P,) in turn order from p.
    Returns False for the three that may (damage, heal, draw_distance: the caller's)."""
    P = T.players
    if op == OP_STEAL:
        for off in range(P):
            t = (p + off) % P
            if hits[t]:
                steal(T, S, X, g, p, t, amount)
    elif op == OP_DISCARD:
        for off in range(P):
            t = (p + off) % P
            if hits[t]:
                discard_top(T, S, X, g, t, amount, WHY_DISCARD)
    elif op == OP_SWAP:
        for off in range(P):
            t = (p + off) % P
            if hits[t]:
                swap_top(T, S, X, g, p, t)
    elif op == OP_SKIP:
        for off in range(P):
            t = (p + off) % P
            if hits[t]:
                S.skip[g, t] = min(S.skip[g, t] + amount, SKIPS)
                say(X, SAY_WILL_SKIP, t, amount, 0, 0, 0, -1)
    elif op == OP_DRAW_ABILITY:  # "...then discard down to three": once the whole card is done
        draw_cards(T, S, X, g, p, amount)
    elif op == OP_EXTRA:  # plays only count on your own turn (a trap's owner gains nothing)
        if S.current[g] == p:
            S.card_plays[g] = min(S.card_plays[g] + amount, PLAYS)
    elif op == OP_REMOVE_EQUIP:
        for off in range(P):
            t = (p + off) % P
            if hits[t]:
                remove_equip(T, S, X, g, p, t, amount)
    elif op == OP_REMOVE_NERF:
        remove_nerf(T, S, X, g, p, amount)
    else:
        return False
    return True


@inline
def apply_leaf(
    T, S, X, g, op, p, target, amount, rival, trig, avoid
):  # one signature for the compiled body: int64 numbers
    return _apply_leaf(T, S, X, int(g), int(op), int(p), int(target), int(amount), int(rival), int(trig), avoid)


@jit
def _apply_leaf(T, S, X, g, op, p, target, amount, rival, trig, avoid):
    """An op at depth 1, outside a trap: what a specialty or an anytime
    answer resolves. It sets off no trap and no specialty."""
    P = T.players
    hits = np.zeros(P, np.bool_)
    targets(T, S, g, p, target, rival, trig, hits)
    for j in range(P):
        hits[j] = hits[j] and not avoid[j]
    if simple_op(T, S, X, g, op, p, amount, hits):
        return
    if op == OP_DAMAGE:
        for off in range(P):
            t = (p + off) % P
            if hits[t]:
                hit_car(T, S, X, g, p, t, amount)
    elif op == OP_HEAL:
        heal(T, S, X, g, p, amount)
    elif op == OP_DRAW_DISTANCE:
        for _ in range(amount):
            draw_distance_cards(T, S, X, g, p)


@inline
def specialty_idle(T, S, g, p, op, target, amount, rival, trig):  # one signature for the compiled body: int64 numbers
    return _specialty_idle(T, S, int(g), int(p), int(op), int(target), int(amount), int(rival), int(trig))


@jit
def _specialty_idle(T, S, g, p, op, target, amount, rival, trig):
    """Whether a specialty would change nothing now (a heal at full tire health, a hit on
    nobody): effects.fire_specialty's `idle`, so the trace says no more than the game does."""
    if op == OP_HEAL:
        return S.tire[g, p] >= T.tire_health
    idle_ops = (OP_DAMAGE, OP_DISCARD, OP_SWAP, OP_SKIP, OP_REMOVE_EQUIP, OP_REMOVE_NERF)  # match.MAY_IDLE
    may_idle = False
    for o in idle_ops:
        may_idle |= op == o
    if not may_idle:
        return False
    P = T.players
    lead = leader_seat(T, S, g, p) if target == LEADER else -1
    for j in range(P):
        me = j == p
        ok = not me and not S.immune[g, j]
        if target < 0 or target == SELF:
            reach = me
        elif target == ONE_RIVAL:
            reach = ok and j == rival
        elif target == ALL_RIVALS:
            reach = ok
        elif target == LEADER:
            reach = ok and j == lead
        elif target == NEXT:
            reach = ok and j == (p + 1) % P
        else:
            reach = (ok or me) and j == trig
        if reach and changes(T, S, g, p, op, amount, j):
            return False
    return True


@inline
def fire_specialty(T, S, X, g, p, when, trig, rival, drv):  # one signature for the compiled body: int64 numbers
    return _fire_specialty(T, S, X, int(g), int(p), int(when), int(trig), int(rival), int(drv))


@jit
def _fire_specialty(T, S, X, g, p, when, trig, rival, drv):
    """P's driver's specialty where its condition is `when`
    (`drv` >= 0: the driver who was active at the event); `rival` < -1: p's bot picks
    one. It resolves at depth 1; what it drew or stole is discarded down after."""
    if drv < 0:
        drv = S.driver[g, p]
    if T.d_when[drv] != when:
        return
    if rival < -1:
        rival = choose_rival(T, S, X, g, p, False, np.zeros(T.players, np.bool_))
    if X.tracing and not specialty_idle(T, S, g, p, T.d_op[drv], T.d_target[drv], T.d_amount[drv], rival, trig):
        say(X, SAY_ACTS, p, drv, 0, 0, 0, -1)
    avoid = np.zeros(T.players, np.bool_)
    apply_leaf(T, S, X, g, T.d_op[drv], p, T.d_target[drv], T.d_amount[drv], rival, trig, avoid)
    discard_down(T, S, X, g, p)


@inline
def push_spring(X, who, trigger):  # one signature for the compiled body: int64 numbers
    return _push_spring(X, int(who), int(trigger))


@jit
def _push_spring(X, who, trigger):
    """A trap trigger while a card resolves: sprung once the card is done (effects.spring's deferred)."""
    i = X.n[N_PEND]
    if i >= X.pend.shape[0]:
        bigger = np.zeros((2 * X.pend.shape[0], 2), np.int64)
        bigger[:i] = X.pend[:i]
        X.pend = bigger
    X.pend[i, 0], X.pend[i, 1] = who, trigger
    X.n[N_PEND] = i + 1


@inline
def deal_damage(T, S, X, g, dealer, t, amount, mode):  # one signature for the compiled body: int64 numbers
    return _deal_damage(T, S, X, int(g), int(dealer), int(t), int(amount), int(mode))


@jit
def _deal_damage(T, S, X, g, dealer, t, amount, mode):
    """Damage from a card's effects (mode CARD: the any_damage traps wait for
    the card) and a trap's (mode TRAP): the damage specialties answer it (a trap's only
    where rules.trap_damage_specialties)."""
    driver = S.driver[g, t]
    loss = hit_car(T, S, X, g, dealer, t, amount)
    if loss <= 0 or not (mode == CARD or T.trap_damage_specialties):
        return
    if mode == CARD:
        push_spring(X, t, ON_DAMAGE)
    drv = driver if T.event_driver else -1
    fire_specialty(T, S, X, g, t, W_TAKES, dealer if dealer != t else -1, -2, drv)
    if dealer != t:
        fire_specialty(T, S, X, g, dealer, W_DEALS, t, t, -1)


@inline
def apply_op(
    T, S, X, g, op, p, target, amount, rival, trig, mode, avoid
):  # one signature for the compiled body: int64 numbers
    return _apply_op(
        T, S, X, int(g), int(op), int(p), int(target), int(amount), int(rival), int(trig), int(mode), avoid
    )


@jit
def _apply_op(T, S, X, g, op, p, target, amount, rival, trig, mode, avoid):
    """An op of a card played on a turn (mode CARD, depth 0) or a trap (mode
    TRAP, depth 1): damage, a heal and a distance card drawn set things off."""
    P = T.players
    hits = np.zeros(P, np.bool_)
    targets(T, S, g, p, target, rival, trig, hits)
    for j in range(P):
        hits[j] = hits[j] and not avoid[j]
    if simple_op(T, S, X, g, op, p, amount, hits):
        return
    if op == OP_DAMAGE:
        for off in range(P):
            t = (p + off) % P
            if hits[t]:
                deal_damage(T, S, X, g, p, t, amount, mode)
    elif op == OP_HEAL:
        if heal(T, S, X, g, p, amount) > 0 and mode == CARD:
            push_spring(X, p, ON_HEAL)
    elif op == OP_DRAW_DISTANCE:
        for _ in range(amount):
            if draw_distance_cards(T, S, X, g, p) and mode == CARD:
                push_spring(X, p, ON_DRAW)
                fire_specialty(T, S, X, g, p, W_DRAWS, -1, -2, -1)


@inline
def spring(T, S, X, g, who, trigger):  # one signature for the compiled body: int64 numbers
    return _spring(T, S, X, int(g), int(who), int(trigger))


@jit
def _spring(T, S, X, g, who, trigger):
    """Every trap waiting for `trigger` springs on `who` (its owner's own
    too), slot by slot: it resolves (depth 1) and is discarded; its owner's `trap_sprung`
    specialty follows. An immune player sets off nothing."""
    avoid = np.zeros(T.players, np.bool_)
    for s in range(S.trap.shape[1]):
        c = S.trap[g, s]
        if c < 0 or T.trigger[c] != trigger or S.immune[g, who]:
            continue
        owner = S.trap_owner[g, s]
        S.trap[g, s] = -1
        S.trap_owner[g, s] = -1
        S.trap_left[g, s] = 0
        S.discard[g, owner, c] += 1
        S.traps_sprung[g, who] += 1
        say(X, SAY_SPRINGS, who, owner, c, 0, 0, -1)
        rival = choose_rival(T, S, X, g, owner, False, avoid)
        driving = S.driver[g, owner]  # the specialty of the driver when the trap went off
        for slot in range(T.op.shape[1]):
            if T.op[c, slot] >= 0:
                apply_op(
                    T, S, X, g, T.op[c, slot], owner, T.target[c, slot], T.amount[c, slot], rival, who, TRAP_MODE, avoid
                )
        fire_specialty(T, S, X, g, owner, W_TRAP, who, -2, driving if T.event_driver else -1)
        discard_down(T, S, X, g, owner)  # what the trap stole


@inline
def resolve_then_spring(T, S, X, g, p, k, rival, avoided):  # one signature for the compiled body: int64 numbers
    return _resolve_then_spring(T, S, X, int(g), int(p), int(k), int(rival), avoided)


@jit
def _resolve_then_spring(T, S, X, g, p, k, rival, avoided):
    """Card k resolves whole (depth 0), then the traps it set
    off spring, in the order they were set off."""
    X.n[N_PEND] = 0
    for slot in range(T.op.shape[1]):
        if T.op[k, slot] >= 0:
            apply_op(T, S, X, g, T.op[k, slot], p, T.target[k, slot], T.amount[k, slot], rival, -1, CARD, avoided)
    n = X.n[N_PEND]
    pend = X.pend[:n].copy()
    X.n[N_PEND] = 0
    for i in range(n):
        spring(T, S, X, g, pend[i, 0], pend[i, 1])


@inline
def victims(T, S, g, p, k, rival, out):  # one signature for the compiled body: int64 numbers
    return _victims(T, S, int(g), int(p), int(k), int(rival), out)


@jit
def _victims(T, S, g, p, k, rival, out):
    """The rivals card k would hurt (a nerf's car, the targets of its harmful effects)."""
    P = T.players
    out[:] = False
    hits = np.zeros(P, np.bool_)
    if T.card_type[k] == NERF:
        for j in range(P):
            out[j] = j == rival
    else:
        for slot in range(T.op.shape[1]):
            if T.harmful[k, slot]:
                targets(T, S, g, p, T.target[k, slot], rival, -1, hits)
                for j in range(P):
                    out[j] = out[j] or hits[j]
    out[p] = False
    for j in range(P):
        out[j] = out[j] and not S.immune[g, j]


@inline
def answer(T, S, X, g, p, k, rival, avoided):  # one signature for the compiled body: int64 numbers
    return _answer(T, S, X, int(g), int(p), int(k), int(rival), avoided)


@jit
def _answer(T, S, X, g, p, k, rival, avoided):
    """The rivals card k would hurt may answer it with an anytime cancel,
    in turn order from the next player: `replace` stops it for everyone (returns True),
    `avoid` for the answering player only (`avoided`)."""
    P = T.players
    K = T.card_type.shape[0]
    avoided[:] = False
    hurt = np.zeros(P, np.bool_)
    victims(T, S, g, p, k, rival, hurt)
    replaced = False
    for off in range(1, P):
        t = (p + off) % P
        holds = False
        for c in range(K):
            holds |= T.cancels[c] >= 0 and S.hand[g, t, c] > 0
        if not (hurt[t] and holds and not replaced):
            continue
        if not chance.uniform(key(X, NOISE_ANSWER, t)) < T.cancel[S.bots[g, t]]:
            continue
        kw = key(X, NOISE_WHICH, t)
        card, best = 0, -np.inf
        for c in range(K):
            pref = (2.0 if T.cancels[c] == REPLACE else 1.0) + float(chance.uniform_at(kw, c))
            if S.hand[g, t, c] > 0 and T.cancels[c] >= 0 and pref > best:
                card, best = c, pref
        S.hand[g, t, card] -= 1
        S.discard[g, t, card] += 1
        S.played[g, t, card] += 1
        S.cancels[g, t] += 1
        event(X, t, card, EV_PLAY, S.turn[g], -1)
        if T.cancels[card] == REPLACE:
            replaced = True
        else:
            avoided[t] = True
        say(X, SAY_ANSWERS, t, card, 1 if T.cancels[card] == REPLACE else 0, p, k, -1)
        refill(T, S, X, g, t)  # "if you play an anytime action, draw a card", before it resolves
        if T.n_effects[card] > 0:
            none = np.zeros(P, np.bool_)
            for slot in range(T.op.shape[1]):
                if T.op[card, slot] >= 0:
                    apply_leaf(T, S, X, g, T.op[card, slot], t, T.target[card, slot], T.amount[card, slot], p, p, none)
            discard_down(T, S, X, g, t)
    return replaced


# --- the turn ------------------------------------------------------------------------


@inline
def trackers_used(S, g, p):  # one signature for the compiled body: int64 numbers
    return _trackers_used(S, int(g), int(p))


@jit
def _trackers_used(S, g, p):
    """Cards with a turn symbol out that p set."""
    used = 0
    for e in range(S.equip.shape[2]):
        used += S.equip_left[g, p, e] > 0
    for j in range(S.nerf.shape[1]):
        for s in range(S.nerf.shape[2]):
            used += S.nerf_owner[g, j, s] == p and S.nerf_left[g, j, s] > 0
    for s in range(S.trap.shape[1]):
        used += S.trap_owner[g, s] == p and S.trap_left[g, s] > 0
    return used


@inline
def options(T, S, X, g, p, legal, score, worth):  # one signature for the compiled body: int64 numbers
    return _options(T, S, X, int(g), int(p), legal, score, worth)


@jit
def _options(T, S, X, g, p, legal, score, worth):
    """P's legal choices of its ability play (each card, then pit stop,
    discard-and-draw, pass), their scores (-inf where illegal) and the card worths."""
    K = T.card_type.shape[0]
    P = T.players
    E = S.equip.shape[2]
    q = S.bots[g, p]
    blocked = modifier(T, S, g, p, L_BLOCK) > 0
    tracker = trackers_used(S, g, p) < T.turn_trackers
    free_equip = False
    for e in range(E):
        free_equip |= S.equip[g, p, e] < 0
    free_trap = False
    for s in range(S.trap.shape[1]):
        free_trap |= S.trap[g, s] < 0
    nerf_room = False
    for j in range(P):
        if j != p and not S.immune[g, j]:
            for s in range(S.nerf.shape[2]):
                nerf_room |= S.nerf[g, j, s] < 0
    hand_worth(T, S, X, g, p, True, worth)
    held_min, best_equip, any_hand = POS_INF, NEG_INF, False
    for k in range(K):
        t = T.card_type[k]
        ok = S.hand[g, p, k] > 0 and T.on_turn[k]
        ok = ok and (t == ANYTIME or not blocked)
        ok = ok and (t != EQUIP or free_equip)
        ok = ok and (t != TRAP or free_trap)
        ok = ok and (t != NERF or nerf_room)
        ok = ok and (not T.timed[k] or tracker)
        legal[k] = ok
        if S.hand[g, p, k] > 0:
            any_hand = True
            held_min = min(held_min, worth[k])
            if t == EQUIP:
                best_equip = max(best_equip, worth[k])
    slot_min, equipped = POS_INF, False
    for e in range(E):
        c = S.equip[g, p, e]
        if c >= 0:
            equipped = True
            slot_min = min(slot_min, worth[c])
    # turn.pit_stop_cost: the top distance cards a pit stop discards, in the bot's card worth
    h = S.height[g, p]
    lost = F0
    for i in range(T.pit_stop_discard):
        at = h - 1 - i
        if at >= 0:
            lost = np.float32(float(lost) + float(T.values[S.stack[g, p, at]]))
    cost = T.speed[q] * lost / T.mean_value
    pit = best_equip - slot_min - T.pit_stop[q] - cost
    redraw = T.redraw[q] - held_min
    legal[K + PIT] = equipped and best_equip > NEG_INF
    legal[K + REDRAW] = any_hand and (S.draw[g, p].sum() + S.discard[g, p].sum()) > 0
    legal[K + PASS] = True
    noise = T.noise[q]
    ku = key(X, NOISE_PIT, p)
    for i in range(3):
        v = float(pit) if i == PIT else (float(redraw) if i == REDRAW else 0.0)
        if not np.isfinite(v):  # illegal anyway (no equip, empty hand)
            v = 0.0
        extra = float(F1 - noise) * v + float(noise * chance.uniform_at(ku, i) * F4)
        score[K + i] = np.float32(extra) if legal[K + i] else NEG_INF
    for k in range(K):
        score[k] = worth[k] if legal[k] else NEG_INF


@inline
def put_equip(T, S, g, p, slot, k):  # one signature for the compiled body: int64 numbers
    return _put_equip(T, S, int(g), int(p), int(slot), int(k))


@jit
def _put_equip(T, S, g, p, slot, k):
    S.equip[g, p, slot] = k
    S.equip_left[g, p, slot] = T.turns[k]
    S.shield[g, p, slot] = T.lasting[k, L_SHIELD]


@inline
def play_card(T, S, X, g, p, k, aside):  # one signature for the compiled body: int64 numbers
    return _play_card(T, S, X, int(g), int(p), int(k), bool(aside))


@jit
def _play_card(T, S, X, g, p, k, aside):
    """Play card k from hand, draw a card, then resolve it; its own draws
    and steals are discarded down to three once it and what it set off are done."""
    P = T.players
    S.hand[g, p, k] -= 1
    S.played[g, p, k] += 1
    event(X, p, k, EV_PLAY, S.turn[g], -1)
    say(X, SAY_PLAYS, p, k, 1 if aside else 0, 0, 0, -1)
    refill(T, S, X, g, p)
    kind = T.card_type[k]
    avoided = np.zeros(P, np.bool_)
    if kind == ACTION or kind == ANYTIME:  # noqa: SIM109 - two codes, compared as numpy compared them
        useful = np.zeros(P, np.bool_)
        useful_rivals(T, S, g, p, k, useful)
        rival = choose_rival(T, S, X, g, p, False, useful)
        # a swap of top distance cards aims where it gains most (the random bot keeps its uniform pick)
        if T.swaps[k] and T.noise[S.bots[g, p]] < F1:
            best = best_swap(T, S, g, p)
            if best >= 0:
                rival = best
        replaced = answer(T, S, X, g, p, k, rival, avoided)
        if not replaced:
            resolve_then_spring(T, S, X, g, p, k, rival, avoided)
        S.discard[g, p, k] += 1
        # a replaced action "won't affect anyone": it springs no trap and fires no specialty
        if kind == ACTION and not replaced:
            spring(T, S, X, g, p, ON_ACTION)
            fire_specialty(T, S, X, g, p, W_ACTION, -1, -2, -1)
    elif kind == EQUIP:
        slot = 0
        for e in range(S.equip.shape[2]):
            if S.equip[g, p, e] < 0:
                slot = e
                break
        put_equip(T, S, g, p, slot, k)
        spring(T, S, X, g, p, ON_EQUIP)
    elif kind == TRAP:
        slot = 0
        for s in range(S.trap.shape[1]):
            if S.trap[g, s] < 0:
                slot = s
                break
        S.trap[g, slot] = k
        S.trap_owner[g, slot] = p
        S.trap_left[g, slot] = T.turns[k]
    elif kind == NERF:
        rival = choose_rival(T, S, X, g, p, True, avoided)
        replaced = answer(T, S, X, g, p, k, rival, avoided)
        if not replaced and rival >= 0 and not avoided[rival]:
            slot = 0
            for s in range(S.nerf.shape[2]):
                if S.nerf[g, rival, s] < 0:
                    slot = s
                    break
            S.nerf[g, rival, slot] = k
            S.nerf_owner[g, rival, slot] = p
            S.nerf_left[g, rival, slot] = T.turns[k]
            say(X, SAY_SITS, k, rival, 0, 0, 0, -1)
        else:
            S.discard[g, p, k] += 1
    discard_down(T, S, X, g, p)
    refill(T, S, X, g, p)  # "you will always have three cards": after a spin-out, say, or a rival's steal


@inline
def pit_stop(T, S, X, g, p, worth):  # one signature for the compiled body: int64 numbers
    return _pit_stop(T, S, X, int(g), int(p), worth)


@jit
def _pit_stop(T, S, X, g, p, worth):
    """The equip worth least on the car for the equip worth most in hand,
    the top distance card discarded; the card swapped in springs plays_equip traps
    (rules.pit_stop_equips), then the pit_stop ones."""
    K = T.card_type.shape[0]
    slot, low = 0, POS_INF
    for e in range(S.equip.shape[2]):
        c = S.equip[g, p, e]
        v = worth[c] if c >= 0 else POS_INF
        if v < low:
            slot, low = e, v
    new, high = 0, NEG_INF
    for k in range(K):
        v = worth[k] if S.hand[g, p, k] > 0 and T.card_type[k] == EQUIP else NEG_INF
        if v > high:
            new, high = k, v
    old = S.equip[g, p, slot]
    S.hand[g, p, new] -= 1
    S.hand[g, p, old] += 1
    put_equip(T, S, g, p, slot, new)
    S.pit_stops[g, p] += 1
    say(X, SAY_PITS, p, old, new, 0, 0, -1)
    discard_top(T, S, X, g, p, T.pit_stop_discard, WHY_PIT)
    if T.pit_stop_equips:
        spring(T, S, X, g, p, ON_EQUIP)
    spring(T, S, X, g, p, ON_PIT)


@inline
def redraw(T, S, X, g, p, worth):  # one signature for the compiled body: int64 numbers
    return _redraw(T, S, X, int(g), int(p), worth)


@jit
def _redraw(T, S, X, g, p, worth):
    """Discard the card worth least and draw one."""
    k = worst_in_hand(S, g, p, worth)
    S.hand[g, p, k] -= 1
    S.discard[g, p, k] += 1
    say(X, SAY_REDRAWS, p, k, 0, 0, 0, -1)
    draw_cards(T, S, X, g, p, 1)


@inline
def play_one(T, S, X, g, p, cards_only, bought):  # one signature for the compiled body: int64 numbers
    return _play_one(T, S, X, int(g), int(p), bool(cards_only), bool(bought))


@jit
def _play_one(T, S, X, g, p, cards_only, bought):
    """One ability play; `cards_only`: an extra play, a card or a pass
    (`bought`: a card, a pass only where none can be played)."""
    K = T.card_type.shape[0]
    legal = np.zeros(K + 3, np.bool_)
    score = np.empty(K + 3, np.float32)
    worth = np.empty(K, np.float32)
    options(T, S, X, g, p, legal, score, worth)
    if cards_only:
        score[K + PIT] = NEG_INF
        score[K + REDRAW] = NEG_INF
        if bought:
            finite = False
            for k in range(K):
                finite |= np.isfinite(score[k])
            score[K + PASS] = NEG_INF if finite else F0
    choice, best = 0, score[0]
    for i in range(1, K + 3):
        if score[i] > best:
            choice, best = i, score[i]
    # a pass wins a tie (a card that would change nothing is worth what a pass is: keep it)
    if score[K + PASS] >= best:
        choice = K + PASS
    if choice < K:
        play_card(T, S, X, g, p, choice, False)
    elif choice == K + PIT:
        pit_stop(T, S, X, g, p, worth)
    elif choice == K + REDRAW:
        redraw(T, S, X, g, p, worth)
    else:
        say(X, SAY_PASSES, p, 0, 0, 0, 0, -1)


@inline
def play_phase(T, S, X, g, p, bought):  # one signature for the compiled body: int64 numbers
    return _play_phase(T, S, X, int(g), int(p), bool(bought))


@jit
def _play_phase(T, S, X, g, p, bought):
    """Plays while plays are left, the turn's own, then those that must
    be ability cards; at most PLAYS_MOST."""
    for _ in range(PLAYS):
        free = S.plays_left[g] > 0
        cards_only = not free and S.card_plays[g] > 0
        if not (free or cards_only):
            break
        if free:
            S.plays_left[g] -= 1
        else:
            S.card_plays[g] -= 1
        play_one(T, S, X, g, p, cards_only, bought)
    S.plays_left[g] = 0
    S.card_plays[g] = 0


@inline
def anytime_window(T, S, X, g, first):  # one signature for the compiled body: int64 numbers
    return _anytime_window(T, S, X, int(g), int(first))


@jit
def _anytime_window(T, S, X, g, first):
    """After the turn's play, every player in turn order from the
    current one may play anytime cards with effects, each while one is worth its bot's
    `anytime` now."""
    cols = T.anytime_cols
    C = cols.shape[0]
    if C == 0:
        return
    P = T.players
    K = T.card_type.shape[0]
    pw = np.empty(K, np.float32)
    for off in range(P):
        t = (first + off) % P
        for _ in range(T.hand_size):
            holds = False
            for c in range(C):
                holds |= S.hand[g, t, cols[c]] > 0
            if not holds:
                break
            q = S.bots[g, t]
            noise = T.noise[q]
            ku = key(X, NOISE_ANYTIME, t)
            play_worth(T, S, g, t, True, pw)
            at, best = -1, NEG_INF
            for c in range(C):
                score = (F1 - noise) * pw[cols[c]] + noise * (chance.uniform_at(ku, c) * F4)
                if S.hand[g, t, cols[c]] <= 0:
                    score = NEG_INF
                if at < 0 or score > best:
                    at, best = c, score
            hold = (F1 - noise) * T.anytime[q] + noise * (chance.uniform_at(ku, C) * F4)
            if not best > hold:
                break
            S.anytime_plays[g, t] += 1
            play_card(T, S, X, g, t, cols[at], True)


@inline
def rotate(T, S, X, g, p):  # one signature for the compiled body: int64 numbers
    return _rotate(T, S, X, int(g), int(p))


@jit
def _rotate(T, S, X, g, p):
    """Phase 2, each timed card p put out loses a turn; at 0 it goes to p's discard."""
    for e in range(S.equip.shape[2]):
        if S.equip_left[g, p, e] > 0:
            S.equip_left[g, p, e] -= 1
            if S.equip_left[g, p, e] == 0:
                card = S.equip[g, p, e]
                S.discard[g, p, card] += 1
                S.equip[g, p, e] = -1
                S.shield[g, p, e] = 0
                say(X, SAY_RUNS_OUT, p, card, 0, 0, 0, -1)
    for j in range(S.nerf.shape[1]):
        for s in range(S.nerf.shape[2]):
            if S.nerf_owner[g, j, s] == p and S.nerf_left[g, j, s] > 0:
                S.nerf_left[g, j, s] -= 1
                if S.nerf_left[g, j, s] == 0:
                    card = S.nerf[g, j, s]
                    S.discard[g, p, card] += 1
                    S.nerf[g, j, s] = -1
                    S.nerf_owner[g, j, s] = -1
                    say(X, SAY_NERF_OUT, card, j, 0, 0, 0, -1)
    for s in range(S.trap.shape[1]):
        if S.trap_owner[g, s] == p and S.trap_left[g, s] > 0:
            S.trap_left[g, s] -= 1
            if S.trap_left[g, s] == 0:
                S.discard[g, p, S.trap[g, s]] += 1
                S.trap[g, s] = -1
                S.trap_owner[g, s] = -1


@inline
def pay(S, g, p, cost):  # one signature for the compiled body: int64 numbers
    return _pay(S, int(g), int(p), int(cost))


@jit
def _pay(S, g, p, cost):
    S.trophies[g, p] -= cost
    S.trophies_spent[g, p] += cost
    S.pool[g] += cost


@inline
def spend_trophies(T, S, X, g, p):  # one signature for the compiled body: int64 numbers
    return _spend_trophies(T, S, X, int(g), int(p))


@jit
def _spend_trophies(T, S, X, g, p):
    """Phase 4, a trophy to swap driver and co-pilot, two for an extra play."""
    K = T.card_type.shape[0]
    q = S.bots[g, p]
    noise = T.noise[q]
    ku = key(X, NOISE_SPEND, p)
    random = chance.uniform_at(ku, 0) < noise
    afford = S.trophies[g, p] >= T.trophy_swap
    wants = S.tire[g, p] <= T.swap_below[q] and S.co_tire[g, p] > S.tire[g, p]
    if afford and ((chance.uniform_at(ku, 1) < F05) if random else wants):
        d, c = S.driver[g, p], S.co_pilot[g, p]
        S.driver[g, p], S.co_pilot[g, p] = c, d
        a, b = S.tire[g, p], S.co_tire[g, p]
        S.tire[g, p], S.co_tire[g, p] = b, a
        for j in range(T.players):
            S.hurt_by[g, p, j] = False
        pay(S, g, p, T.trophy_swap)
        S.swaps[g, p] += 1
        say(X, SAY_DRIVES, p, S.driver[g, p], 0, 0, 0, -1)
    if S.trophies[g, p] < T.trophy_extra_play:
        return
    legal = np.zeros(K + 3, np.bool_)
    score = np.empty(K + 3, np.float32)
    worth = np.empty(K, np.float32)
    options(T, S, X, g, p, legal, score, worth)
    best = NEG_INF
    for k in range(K):
        if legal[k]:
            best = max(best, score[k])
    # only with an ability card to play: the extra play is "an extra ability card"
    if not np.isfinite(best):
        return
    if not ((chance.uniform_at(ku, 2) < F05) if random else best >= T.extra_play[q]):
        return
    pay(S, g, p, T.trophy_extra_play)
    S.extra_plays[g, p] += 1
    S.card_plays[g] += 1
    say(X, SAY_EXTRA_PLAY, p, 0, 0, 0, 0, -1)
    play_phase(T, S, X, g, p, True)


@inline
def take_turn(T, S, X, g, p):  # one signature for the compiled body: int64 numbers
    return _take_turn(T, S, X, int(g), int(p))


@jit
def _take_turn(T, S, X, g, p):
    """The turn's start, 1 a distance card, 2 the trackers, 3 the play and
    the anytime cards, 4 trophies; a hand of three after."""
    S.immune[g, p] = False
    S.turns_taken[g, p] += 1
    if S.skip[g, p] > 0:
        S.skip[g, p] -= 1
        S.turns_skipped[g, p] += 1
        say(X, SAY_SKIPS, S.turn[g] + 1, p, 0, 0, 0, -1)
        return
    say(X, SAY_TURN, S.turn[g] + 1, p, S.driver[g, p], S.tire[g, p], S.trophies[g, p], -1)
    if X.tracing and X.verbose:
        hands = np.zeros(S.hand.shape[1] * S.hand.shape[2], np.int64)
        for i in range(S.hand.shape[1]):
            for k in range(S.hand.shape[2]):
                hands[i * S.hand.shape[2] + k] = S.hand[g, i, k]
        say(X, SAY_HANDS, 0, 0, 0, 0, 0, row_of(X, hands, hands.shape[0]))
    fire_specialty(T, S, X, g, p, W_TURN_START, -1, -2, -1)
    for _ in range(T.distance_per_turn):
        if draw_distance_cards(T, S, X, g, p):
            spring(T, S, X, g, p, ON_DRAW)
            fire_specialty(T, S, X, g, p, W_DRAWS, -1, -2, -1)
    rotate(T, S, X, g, p)
    S.plays_left[g] = T.plays_per_turn
    play_phase(T, S, X, g, p, False)
    anytime_window(T, S, X, g, p)
    play_phase(T, S, X, g, p, False)  # the plays an anytime card's extra_play gave
    spend_trophies(T, S, X, g, p)
    refill(T, S, X, g, p)


# --- setup --------------------------------------------------------------------------


@jit
def setup(T, S, X, g, bonus_driver, bonus_card, who):
    """The setup of one game: who goes first (the highest distance card; ties dealt
    again), the driver draft, the ability decks, a hand of three each."""
    P = T.players
    D = T.d_when.shape[0]
    K = T.card_type.shape[0]
    S.deck[g, :] = T.distance_count
    S.pool[g] = T.trophies
    dealt = np.zeros(P, np.int64)
    for p in range(P):
        dealt[p] = T.values[chance.draw_one(key(X, DEAL, p), S.deck[g])]
    say(X, SAY_DEALT, 0, 0, 0, 0, 0, row_of(X, dealt, P))
    if T.redeal:  # equal highest cards: the tied players are dealt again (from what is left)
        top = np.zeros(P, np.bool_)
        for _ in range(S.bottom_order.shape[1]):
            high = dealt.max()
            tied = 0
            for p in range(P):
                top[p] = dealt[p] == high
                tied += top[p]
            if tied <= 1:
                break
            if X.tracing:
                seats = np.zeros(P, np.int64)
                n = 0
                for p in range(P):
                    if top[p]:
                        seats[n] = p
                        n += 1
                say(X, SAY_TIE, 0, 0, 0, 0, 0, row_of(X, seats, n))
            for p in range(P):
                if top[p] and S.deck[g].sum() > 0:
                    dealt[p] = T.values[chance.draw_one(key(X, REDEAL, p), S.deck[g])]
            for p in range(P):
                if not top[p]:
                    dealt[p] = -1  # the others are out of it
            say(X, SAY_DEALT_AGAIN, 0, 0, 0, 0, 0, row_of(X, dealt, P))
    S.deck[g, :] = T.distance_count  # the dealt cards go back: the deck is reshuffled (a bag)
    first = np.argmax(dealt)
    S.first[g] = first
    S.current[g] = first
    taken = np.zeros(D, np.bool_)
    picks = np.full((P, 2), -1, np.int64)
    given = bonus_driver >= 0
    if given:
        taken[bonus_driver] = True
        say(X, SAY_GIVEN, who, bonus_driver, 0, 0, 0, -1)
    for pick in range(2 * P):
        slot = pick if pick < P else 2 * P - 1 - pick
        which = 0 if pick < P else 1
        p = (first + slot) % P
        q = S.bots[g, p]
        noise = T.noise[q]
        ku = key(X, NOISE_DRAFT, p)  # drawn even where the pick is given: the plain game's numbers
        d, best = 0, NEG_INF
        for i in range(D):
            score = (F1 - noise) * T.driver_value[q, i] + noise * chance.uniform_at(ku, i) * F4
            if taken[i]:
                score = NEG_INF
            if i == 0 or score > best:
                d, best = i, score
        if given and which == 0 and p == who:
            d = bonus_driver
        taken[d] = True
        picks[p, which] = d
        S.draft_pick[g, p, which] = pick + 1
        event(X, p, T.first_card[d], EV_DRAFT, 0, pick + 1)
        say(X, SAY_PICK, pick + 1, p, d, 0, 0, -1)
    # the bot drives the driver it values more; the other is its co-pilot
    for p in range(P):
        q = S.bots[g, p]
        lead = T.driver_value[q, picks[p, 1]] > T.driver_value[q, picks[p, 0]]
        if given and p == who:
            lead = False
        if lead:
            S.driver[g, p], S.co_pilot[g, p] = picks[p, 1], picks[p, 0]
            a, b = S.draft_pick[g, p, 0], S.draft_pick[g, p, 1]
            S.draft_pick[g, p, 0], S.draft_pick[g, p, 1] = b, a
        else:
            S.driver[g, p], S.co_pilot[g, p] = picks[p, 0], picks[p, 1]
        S.tire[g, p] = T.tire_health
        S.co_tire[g, p] = T.tire_health
        for k in range(K):
            mine = T.card_driver[k] == S.driver[g, p] or T.card_driver[k] == S.co_pilot[g, p]
            S.start[g, p, k] = T.card_count[k] if mine else 0
    if bonus_card >= 0:
        S.start[g, who, bonus_card] += 1
        say(X, SAY_EXTRA_CARD, who, bonus_card, 0, 0, 0, -1)
    for p in range(P):
        S.draw[g, p, :] = S.start[g, p]
    for p in range(P):
        refill(T, S, X, g, p)
    if X.tracing:
        cars = np.zeros(2 * P, np.int64)
        for p in range(P):
            cars[2 * p], cars[2 * p + 1] = S.driver[g, p], S.co_pilot[g, p]
        say(X, SAY_FIRST, first, 0, 0, 0, 0, row_of(X, cars, 2 * P))


# --- the rules checker ---------------------------------------------------------

RULES = (
    "negative count in draw",
    "negative count in hand",
    "negative count in discard",
    "negative count in stolen_in",
    "negative count in stolen_out",
    "negative count in the distance deck",
    "distance cards not conserved (deck, bottom, stacks)",
    "the bottom pile's order does not match its cards",
    "a distance stack with a gap",
    "tire health out of 0..tire_health",
    "co-pilot tire health out of range",
    "a driver at 0 tire health that did not spin out",
    "driver and co-pilot the same",
    "a driver picked twice",
    "negative trophies",
    "trophies not conserved",
    "a hand above the hand size",
    "ability cards not conserved (draw, hand, discard, car, nerfs, traps)",
    "a nerf without an owner",
    "a trap without an owner",
    "a nerf on its owner's car",
    "a shield without its equip",
    "a hand not back to three after the turn",
    "plays left over after a turn",
)


@jit
def rule_broken(T, S, g, acted):
    """The rules checker for game g after seat `acted`'s turn (-1: none): the first
    rule its state breaks, as 1 + its index in RULES; 0 when every rule holds."""
    P = T.players
    K = S.hand.shape[2]
    V = S.deck.shape[1]
    piles = (S.draw, S.hand, S.discard)
    for i in range(3):
        if piles[i][g].min() < 0:
            return 1 + i
    if S.stolen_in[g].min() < 0:
        return 4
    if S.stolen_out[g].min() < 0:
        return 5
    if S.deck[g].min() < 0 or S.bottom[g].min() < 0:
        return 6
    for v in range(V):
        n = S.deck[g, v] + S.bottom[g, v]
        for p in range(P):
            for i in range(S.stack.shape[2]):
                n += S.stack[g, p, i] == v
        if n != T.distance_count[v]:
            return 7
    if not T.bottom_random:
        for v in range(V):
            n = 0
            for i in range(S.bottom_order.shape[1]):
                n += S.bottom_order[g, i] == v
            if n != S.bottom[g, v]:
                return 8
    for p in range(P):
        for i in range(S.stack.shape[2]):
            if (S.stack[g, p, i] >= 0) != (i < S.height[g, p]):
                return 9
    for p in range(P):
        if not 0 <= S.tire[g, p] <= T.tire_health:
            return 10
    for p in range(P):
        if not 1 <= S.co_tire[g, p] <= T.tire_health:
            return 11
    for p in range(P):
        if S.tire[g, p] <= 0:
            return 12
    for p in range(P):
        if S.driver[g, p] == S.co_pilot[g, p]:
            return 13
    for p in range(P):
        for o in range(P):
            if o != p and (
                S.driver[g, p] == S.driver[g, o]
                or S.driver[g, p] == S.co_pilot[g, o]
                or S.co_pilot[g, p] == S.co_pilot[g, o]
            ):
                return 14
    held = 0
    for p in range(P):
        if S.trophies[g, p] < 0:
            return 15
        held += S.trophies[g, p]
    if S.pool[g] < 0:
        return 15
    if held + S.pool[g] != T.trophies:
        return 16
    for p in range(P):
        if S.hand[g, p].sum() > T.hand_size:
            return 17
    owned = np.zeros((P, K), np.int64)
    for p in range(P):
        for k in range(K):
            owned[p, k] = S.draw[g, p, k] + S.hand[g, p, k] + S.discard[g, p, k]
    for p in range(P):
        for e in range(S.equip.shape[2]):
            if S.equip[g, p, e] >= 0:
                owned[p, S.equip[g, p, e]] += 1
        for s in range(S.nerf.shape[2]):
            if S.nerf[g, p, s] >= 0 and S.nerf_owner[g, p, s] >= 0:
                owned[S.nerf_owner[g, p, s], S.nerf[g, p, s]] += 1
    for s in range(S.trap.shape[1]):
        if S.trap[g, s] >= 0 and S.trap_owner[g, s] >= 0:
            owned[S.trap_owner[g, s], S.trap[g, s]] += 1
    for p in range(P):
        for k in range(K):
            if owned[p, k] != S.start[g, p, k] + S.stolen_in[g, p, k] - S.stolen_out[g, p, k]:
                return 18
    for p in range(P):
        for s in range(S.nerf.shape[2]):
            if (S.nerf[g, p, s] >= 0) != (S.nerf_owner[g, p, s] >= 0):
                return 19
    for s in range(S.trap.shape[1]):
        if (S.trap[g, s] >= 0) != (S.trap_owner[g, s] >= 0):
            return 20
    for p in range(P):
        for s in range(S.nerf.shape[2]):
            if S.nerf_owner[g, p, s] == p:
                return 21
    for p in range(P):
        for e in range(S.equip.shape[2]):
            if S.equip[g, p, e] < 0 and S.shield[g, p, e] != 0:
                return 22
    if acted >= 0:
        pile = S.draw[g, acted].sum() + S.discard[g, acted].sum()
        if S.hand[g, acted].sum() != T.hand_size and pile != 0:
            return 23
        if S.plays_left[g] != 0:
            return 24
    return 0


# --- the games ---------------------------------------------------------------------------------


@jit
def play_game(T, S, X, g, bonus_driver, bonus_card, who):
    """One game: setup (step 0), then a turn a step until the distance
    deck and the bottom pile are empty after a turn (or the turn cap)."""
    P = T.players
    setup(T, S, X, g, bonus_driver, bonus_card, who)
    while S.running[g]:
        chance.next_step(X.draws)  # a step is a turn
        p = S.current[g]
        take_turn(T, S, X, g, p)
        if X.finding[0] and X.finding[1] == 0:  # the rules checker, after every turn (the first rule broken)
            rule = rule_broken(T, S, g, p)
            if rule:
                X.finding[1], X.finding[2], X.finding[3], X.finding[4] = rule, g, S.turn[g], p
        left = S.deck[g].sum() + S.bottom[g].sum()
        S.turn[g] += 1
        S.current[g] = (p + 1) % P
        S.running[g] = left > 0 and S.turn[g] < T.max_turns
        if left == 0:
            say(X, SAY_OVER, 0, 0, 0, 0, 0, -1)


@jit
def play_games(
    T,
    S,
    hashes,
    codes,
    events,
    n_events,
    logging,
    finding,
    start,
    stop,
    bonus_driver,
    bonus_card,
    who,
    watch,
    verbose,
    trace,
    rows,
    counts,
):
    """Games start..stop-1 of the batch, one at a time. Returns the event buffer (the
    one given, or a larger one it grew into); n_events[0] the events written."""
    draws = np.zeros((codes.shape[0] + 1, SEATS), np.int64)
    X = Game(
        0,
        hashes[:1].copy(),
        draws,
        codes,
        logging,
        events,
        np.zeros(4, np.int64),
        finding,
        np.zeros((16, 2), np.int64),
        False,
        verbose,
        trace,
        rows,
        counts,
    )
    X.n[N_EVENTS] = n_events[0]
    for g in range(start, stop):
        X.g = g
        X.tracing = g == watch
        X.hash[0] = hashes[g]
        X.draws[:] = 0
        play_game(T, S, X, g, bonus_driver, bonus_card, who[g])
    n_events[0] = X.n[N_EVENTS]
    return X.events
