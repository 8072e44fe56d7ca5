"""The Downforce rules, compiled (numba): one game at a time, each phase a
function in the rulebook's order (Setup and The Auction, then The Race with
The Betting and the Power Cards). It replaced a numpy lockstep engine
(removed after commit 8404040, where both were proven to play the same
games): every random number is keyed as there (chance.compiled) and every
bot value computed in the same float steps (float32 where numpy kept
float32, float64 where it widened), so the recorded games stay the same
games (tests/test_golden_results.py, tests/test_compiled_downforce.py).

Conventions: `T` the tables (tables.Tab), `S` the batch's state (state.State's
arrays), `X` the game's context (its hash, draw counts, event buffer, trace),
`g` the game, `p` a player; each a numba StructRef (structs.py).
"""

from __future__ import annotations

import numpy as np
from numba import njit

from ...chance import SEATS
from ...chance import compiled as chance
from ...chance.compiled import NO_SEAT
from .structs import Game
from .tables import (
    AGGRESSIVE,
    AUCTION_TIE,
    BET_NOISE,
    BID_NOISE,
    CARD_NOISE,
    CUNNING,
    DEAL,
    DETERMINED,
    GRID,
    KEEP_NOISE,
    POWER_PILE,
    SPEED8_PILE,
    STEER,
    STEER_DETERMINED,
    STRATEGIC,
    STRATEGIC_SKIP,
    TRICKY,
    TRICKY_ORDER,
    UNPREDICTABLE,
    WILD_NOISE,
)

jit = njit(cache=True)
inline = njit(cache=True, inline="always")

F0, F1 = np.float32(0.0), np.float32(1.0)
NEG_INF, POS_INF = -np.inf, np.inf
WILD = 6  # compile.WILD: a wild car on a card
FINISHED_ROW = 10_000  # a finished car counts as this far along (ahead of every car on the board)
FAR = 1 << 20  # a finished car's row for "no car moves back": beyond every row
# events (events.EVENTS)
EV_START, EV_AUCTION, EV_PLAY, EV_POWER, EV_BET = 0, 3, 8, 9, 10

# What a traced game says (balance trace): one record of numbers each,
# written as text by trace_text.py.
(
    SAY_AUCTION_HEAD,
    SAY_BONUS_CARD,
    SAY_AUCTION,
    SAY_BONUS_POWER,
    SAY_POWERS,
    SAY_TURN,
    SAY_HANDS,
    SAY_PLAYS,
    SAY_BET,
) = range(9)

# The rules checker: what must hold after every card, whatever the cards and bots.
RULES = (
    "a negative card count",
    "regular cards not conserved (hand + played = the deal)",
    "a Speed-8 card not with its car's buyer",
    "a player without a car",
    "bids paid do not add up to the cars' prices",
    "a car neither on the board nor finished",
    "the board's occupied spaces do not match the cars",
    "two cars on one space",
    "finishing places are not 1, 2, 3... in order",
    "a car moved back",
)


@inline
def event(X, g, seat, card, kind, turn, pick, price):
    """One card event of the logs (events.Events), if the run keeps them."""
    if not X.logging:
        return
    i = X.n_events[0]
    X.n_events[0] = i + 1
    if i < X.events.shape[0]:
        X.events[i, 0], X.events[i, 1], X.events[i, 2], X.events[i, 3] = g, seat, card, kind
        X.events[i, 4], X.events[i, 5], X.events[i, 6] = turn, pick, price


@inline
def record(X, kind):
    """A new record of the traced game (its row in X.trace), -1 when the game is not traced or the room is spent."""
    if not X.tracing:
        return -1
    i = X.trace_n[0]
    X.trace_n[0] = i + 1
    if i >= X.trace.shape[0]:
        return -1
    X.trace[i, 0] = kind
    return i


@inline
def key(X, purpose, seat):
    return chance.key(X.hash[0], X.draws, X.codes, purpose, seat)


@inline
def has_power(T, power, kind):
    """The kept power index (-1: none) is the named kind (Match.has_power)."""
    return T.power_kind[power] == kind


@jit
def shuffled(X, purpose, n, out):
    """out[:n]: a random order of 0..n-1 (a shuffled pile nobody owns: a stable argsort of n uniforms)."""
    k = key(X, purpose, NO_SEAT)
    u = np.empty(n, np.float32)
    for j in range(n):
        u[j] = chance.uniform_at(k, j)
    stable_argsort(u, n, out)


@inline
def stable_argsort(values, n, out):
    """out[:n] the indices of values[:n] in ascending order, equal values in index order (np.argsort stable)."""
    for j in range(n):
        i = j
        while i > 0 and values[out[i - 1]] > values[j]:
            out[i] = out[i - 1]
            i -= 1
        out[i] = j


# --- Setup and The Auction ---------------------------------------------------


@jit
def deal(T, S, X, g, bonus_card, who):
    """The regular cards dealt out equally, one player after another from the
    common deck; the ones left over go back to the box unseen. A strength
    bonus card is one extra copy in the receiving seat's hand, after the deal."""
    N, C = T.players, T.deck.shape[0]
    deck = T.deck.copy()
    each = deck.sum() // N
    got = np.zeros(C, np.int64)
    for p in range(N):
        got[:] = 0
        chance.draw_many(key(X, DEAL, NO_SEAT), deck, each, got)
        for k in range(C):
            S.hand[g, p, k] = got[k]
    if bonus_card >= 0:
        S.hand[g, who, bonus_card] += 1
        i = record(X, SAY_BONUS_CARD)
        if i >= 0:
            X.trace[i, 1], X.trace[i, 2] = who, bonus_card
    if X.logging:
        for p in range(N):
            for k in range(C):
                for _ in range(S.hand[g, p, k]):
                    event(X, g, p, k, EV_START, 0, -1, -1)


@jit
def hand_share(T, S, g, car, share):
    """share[p]: each hand's speed for colour `car` against a fair share of it
    (integer-valued float32 sums, exact in any order). Counted in spaces, the worth
    grew with the hand: with two players every bot wanted its highest bid card for
    every car."""
    N, C = T.players, T.deck.shape[0]
    fair = F0
    for p in range(N):
        mine = 0.0
        for k in range(C):
            mine += S.hand[g, p, k] * np.float64(T.colour_speed[k, car])
        share[p] = np.float32(mine)
        fair += share[p]
    fair = np.float32(fair / np.float32(N))
    fair = max(fair, np.float32(1e-6))
    for p in range(N):
        share[p] = np.float32(share[p] / fair)


@jit
def run_auction(T, S, X, g, stacked):
    """Six rounds, a car and a power card up in each (the Speed-8 pile and the
    power pile shuffled): every eligible player bids one card face down, the
    highest bid buys the car and its power card. Returns (N, P + 1) the power
    cards each player won (the last column: a car sold without one).
    `stacked` (6,), unless empty, is the Speed-8 pile in its order (tests)."""
    N, C, P = T.players, T.deck.shape[0], T.power_value.shape[1]
    car_order = np.empty(6, np.int64)
    shuffled(X, SPEED8_PILE, 6, car_order)
    if len(stacked):
        car_order[:] = stacked
    power_order = np.empty(P, np.int64)
    shuffled(X, POWER_PILE, P, power_order)
    won = np.zeros((N, P + 1), np.bool_)
    share = np.empty(N, np.float32)
    card = np.empty(N, np.int64)
    amount = np.empty(N, np.int64)
    eligible = np.empty(N, np.bool_)
    carless = np.empty(N, np.bool_)
    for r in range(6):
        car = car_order[r]
        power = power_order[r] if r < P else -1
        left = 0
        for p in range(N):
            carless[p] = True
            for c in range(6):
                if S.owner[g, c] == p:
                    carless[p] = False
            left += carless[p]
        # Every player must end with a car: once the cars left equal the players without one, only they bid.
        only_carless = left == 6 - r
        hand_share(T, S, g, car, share)
        for p in range(N):
            eligible[p] = carless[p] if only_carless else True
            q = S.bots[g, p]
            worth = T.value[q] + T.hand[q] * share[p] + T.power_worth[q, power]
            want = T.bid_share[q] * worth  # $M it is willing to pay
            spread = T.noise_span[q] * np.float32(20)
            h = chance.light(key(X, BID_NOISE, p))
            best, pick = NEG_INF, 0
            lowest, low_pick = 10**6, 0
            for k in range(C):
                if S.hand[g, p, k] <= 0:
                    continue
                b = T.bid[k, car]
                # the card whose bid comes closest to what it would pay without going over, else its lowest
                score = np.float64(b) if b <= want else np.float64(want) - 2.0 * (b - np.float64(want)) - 100
                score += spread * chance.noise_of(h, k)
                if score > best:
                    best, pick = score, k
                if b < lowest:
                    lowest, low_pick = b, k
            # The last car, with a player still without one: that player bids its lowest card for it.
            card[p] = low_pick if r == 5 and carless[p] and eligible[p] else pick
            amount[p] = T.bid[card[p], car]
        # Highest bid; ties: more cars on the card, then no wild; then (rules.auction_ties) the lower seat,
        # or a seat drawn at random (a fraction below 1 breaks only what the whole keys leave tied)
        best, winner = NEG_INF, 0
        for p in range(N):
            k = card[p]
            tie = np.float64(amount[p] * 100 + T.n_cars[k] * 10 + (2 - T.wilds[k]))
            if T.random_ties:
                tie += chance.uniform_at(key(X, AUCTION_TIE, p), 0)
            if not eligible[p]:
                tie = -1.0
            if tie > best:
                best, winner = tie, p
        pay = amount[winner]
        S.owner[g, car] = winner
        S.price[g, car] = pay
        S.sold[g, car] = r + 1
        S.car_power[g, car] = power
        S.paid[g, winner] += pay
        S.hand[g, winner, T.speed8_card[car]] += 1
        won[winner, power] = True  # power -1 (none): the last column
        event(X, g, winner, T.speed8_card[car], EV_AUCTION, 0, r + 1, pay)
        i = record(X, SAY_AUCTION)
        if i >= 0:
            X.trace[i, 1], X.trace[i, 2], X.trace[i, 3], X.trace[i, 4], X.trace[i, 5] = r, car, power, winner, pay
            for p in range(N):
                X.trace[i, 6 + p], X.trace[i, 6 + N + p], X.trace[i, 6 + 2 * N + p] = amount[p], card[p], eligible[p]
    return won


@jit
def keep_power(T, S, X, g, won, bonus_power, who):
    """A player with several power cards keeps the one it values most. A
    strength bonus power replaces the receiving seat's kept one."""
    N, P = T.players, T.power_value.shape[1]
    if P == 0:  # a database without power cards: nobody keeps one
        for p in range(N):
            S.power[g, p] = -1
        return
    for p in range(N):
        q = S.bots[g, p]
        h = chance.light(key(X, KEEP_NOISE, p))
        best, pick, any_won = NEG_INF, 0, False
        for j in range(P):
            value = T.power_value[q, j] + T.noise_span[q] * chance.noise_of(h, j)
            if won[p, j]:
                any_won = True
                if value > best:
                    best, pick = value, j
        S.power[g, p] = pick if any_won else -1
    if bonus_power >= 0:
        i = record(X, SAY_BONUS_POWER)
        if i >= 0:
            X.trace[i, 1], X.trace[i, 2], X.trace[i, 3] = who, bonus_power, S.power[g, who]
        S.power[g, who] = bonus_power
    for p in range(N):
        if S.power[g, p] >= 0:
            event(X, g, p, S.power[g, p], EV_POWER, 0, -1, -1)
    i = record(X, SAY_POWERS)
    if i >= 0:
        for p in range(N):
            X.trace[i, 1 + p] = S.power[g, p]


@jit
def grid_cars(T, S, X, g):
    """The six cars on the starting spaces at random; the player of the car on pole plays first."""
    slot_car = np.empty(6, np.int64)
    shuffled(X, GRID, 6, slot_car)
    for s in range(6):
        car = slot_car[s]
        S.start[g, car] = s
        S.pos[g, car] = T.start[s]
        S.occupied[g, T.start[s]] = True
    S.current[g] = S.owner[g, slot_car[0]]


# --- The Race ------------------------------------------------------------------


@jit
def stance(T, S, g, player, worth):
    """worth[c]: what moving car c one space is worth to `player`: +1 its own,
    -rival for another player's, 0 a finished car or one boxed in right now."""
    q = S.bots[g, player]
    for c in range(6):
        here = max(S.pos[g, c], 0)
        mobile = False
        for j in range(T.ahead.shape[1]):
            to = T.ahead[here, j]
            if to >= 0 and not S.occupied[g, to]:
                mobile = True
        if S.place[g, c] > 0 or not mobile:
            worth[c] = F0
        elif S.owner[g, c] == player:
            worth[c] = F1
        else:
            worth[c] = -T.rival[q]


@jit
def choose_card(T, S, X, g, player, worth):
    """The card the player plays: the most valued in hand (its spaces weighed
    by the stance; a wild at its best colour), with its profile's noise."""
    C, M = T.deck.shape[0], T.card_car.shape[1]
    q = S.bots[g, player]
    most = worth[0]
    for c in range(1, 6):
        most = max(most, worth[c])
    spread = T.noise_span[q] * np.float32(20)
    h = chance.light(key(X, CARD_NOISE, player))
    best, pick = NEG_INF, 0
    for k in range(C):
        if S.hand[g, player, k] <= 0:
            continue
        value = F0
        for m in range(M):
            car = T.card_car[k, m]
            entry = worth[min(max(car, 0), 5)] if 0 <= car < WILD else F0
            wild = most if car == WILD else F0
            value += (entry + wild) * np.float32(T.card_speed[k, m])
        value = value + spread * chance.noise_of(h, k)
        if value > best:
            best, pick = value, k
    return pick


@jit
def wild_colours(T, S, X, g, player, card, worth, cars):
    """cars[m]: the car each entry of the card moves: its colour, or for a wild
    the colour the player picks (most valued; not one on the card unless
    Unpredictable; two wilds, two colours)."""
    M = T.card_car.shape[1]
    q = S.bots[g, player]
    free_pick = has_power(T, S.power[g, player], UNPREDICTABLE)
    on_card = np.zeros(6, np.bool_)
    taken = np.zeros(6, np.bool_)
    for m in range(M):
        cars[m] = T.card_car[card, m]
        if 0 <= cars[m] < 6:
            on_card[cars[m]] = True
    for m in range(M):
        if cars[m] != WILD:
            continue
        h = chance.light(key(X, WILD_NOISE, player))
        best, pick = NEG_INF, 0
        for c in range(6):
            score = worth[c] + T.noise_span[q] * chance.noise_of(h, c)
            if not taken[c] and (free_pick or not on_card[c]) and score > best:
                best, pick = score, c
        cars[m] = pick
        taken[pick] = True


@jit
def move_car(T, S, X, g, car, steps, steer, steerer, purpose, uniform):
    """Move `car` up to `steps` spaces, each into a free space ahead (straight
    or diagonal); blocked, it loses the rest. `steer` +1 seeks open road, -1
    jams; `steerer` the seat that steers (its draws, named `purpose`, break
    ties); `uniform`: the steering player is the random bot, which picks
    uniformly among the free spaces. Returns whether the car entered only
    rectangular spaces (and entered at least one)."""
    W = T.ahead.shape[1]
    straight, entered = True, False
    if steps <= 0 or S.pos[g, car] < 0:
        return False
    free = np.empty(W, np.bool_)
    for step in range(steps):
        here = S.pos[g, car]
        blocked = True
        for j in range(W):
            to = T.ahead[here, j]
            free[j] = to >= 0 and not S.occupied[g, to]
            blocked &= not free[j]
        k = key(X, purpose, steerer)  # a blocked car's steerer has asked for its draw too
        if blocked:
            S.lost[g, car] += steps - step
            break
        h = chance.light(k)
        best, pick = NEG_INF, 0
        for j in range(W):
            to = max(T.ahead[here, j], 0)
            # how open the road is beyond this choice: free spaces among its own next ones
            open_road = 0
            for i in range(W):
                beyond = T.ahead[to, i]
                if beyond >= 0 and not S.occupied[g, beyond]:
                    open_road += 1
            u = chance.noise_of(h, j)
            if uniform:
                score = np.float64(u)
            else:
                score = steer * open_road - 0.01 * T.lane[to] + np.float64(np.float32(0.001) * u)
            if free[j] and score > best:
                best, pick = score, j
        to = T.ahead[here, pick]
        S.occupied[g, here] = False
        S.occupied[g, to] = True
        S.pos[g, car] = to
        S.moved[g, car] += 1
        entered = True
        straight &= not T.curve[to]
        if T.row[to] >= T.finish_row:  # over the finish line: its place, off the board
            S.finishers[g] += 1
            S.place[g, car] = S.finishers[g]
            S.occupied[g, to] = False
            S.pos[g, car] = -1
            break
    return straight and entered


@jit
def resolve_card(T, S, X, g, player, card, worth):
    """Every car on the card moves its speed, top to bottom, with the powers of
    the player who played it (Aggressive, Strategic, Tricky, Unpredictable) and
    of the cars' owners (Cunning, Determined)."""
    M = T.card_car.shape[1]
    cars = np.empty(M, np.int64)
    wild_colours(T, S, X, g, player, card, worth, cars)
    speed = np.empty(M, np.int64)
    present = np.empty(M, np.bool_)
    entry_worth = np.empty(M, np.float32)
    n_present = 0
    for m in range(M):
        speed[m] = T.card_speed[card, m]
        present[m] = cars[m] >= 0
        n_present += present[m]
        entry_worth[m] = worth[max(cars[m], 0)] * np.float32(speed[m]) if present[m] else F0
    own_power = S.power[g, player]
    q = S.bots[g, player]
    # Aggressive: your car first on the card moves the bonus more (not when a wild is first).
    first = T.card_car[card, 0]
    if has_power(T, own_power, AGGRESSIVE) and first < WILD and S.owner[g, min(max(first, 0), 5)] == player:
        speed[0] += T.power_bonus[own_power]
    # The random bot (noise 1) makes these choices uniformly among the legal ones.
    rnd = T.noise[q] >= 1
    # Strategic: skip the car whose move helps rivals most, if any does (random: none or any one, each as likely).
    if has_power(T, own_power, STRATEGIC):
        skip = -1
        if rnd:
            u = chance.uniform(key(X, STRATEGIC_SKIP, player))
            nth = int(np.floor(np.float64(u) * (n_present + 1)))
            seen = 0
            for m in range(M):
                if present[m]:
                    if seen == nth:
                        skip = m
                    seen += 1
        else:
            lowest, low_at, least = POS_INF, 0, 0.0
            for m in range(M):
                least = min(least, entry_worth[m] if present[m] else F0)
                if present[m] and entry_worth[m] < lowest:
                    lowest, low_at = entry_worth[m], m
            if least < 0:
                skip = low_at
        if skip >= 0:
            present[skip] = False
    # Tricky: own cars first, the others after, each group in printed order (random: any order).
    order = np.arange(M)
    if has_power(T, own_power, TRICKY):
        sort_key = np.empty(M, np.float32)
        if rnd:
            k = key(X, TRICKY_ORDER, player)
            for m in range(M):
                sort_key[m] = chance.uniform_at(k, m) * np.float32(1000)
        else:
            for m in range(M):
                mine = S.owner[g, max(cars[m], 0)] == player
                sort_key[m] = np.float32((0 if mine else 100) + m)
        stable_argsort(sort_key, M, order)
    i = record(X, SAY_PLAYS)
    jam = F1 - np.float32(2.0) * T.jam[q]  # steering of rivals' cars
    for m in range(M):
        slot = order[m]
        car = max(cars[slot], 0)
        here = present[slot]
        steps = speed[slot] if here else 0
        owner = S.owner[g, car]
        cunning = has_power(T, S.power[g, owner], CUNNING)
        steer = np.float64(F1 if owner == player or cunning else jam)
        steerer = owner if cunning else player  # a Cunning owner steers its own cars
        lost_before = S.lost[g, car]
        random_steerer = T.noise[S.bots[g, steerer]] >= 1
        straight = move_car(T, S, X, g, car, steps, steer, steerer, STEER, random_steerer)
        # Determined: a car that entered only rectangular spaces moves its bonus more, at once.
        if here and straight and has_power(T, S.power[g, owner], DETERMINED):
            bonus = T.power_bonus[S.power[g, owner]]
            move_car(T, S, X, g, car, bonus, 1.0, steerer, STEER_DETERMINED, False)
        if i >= 0:
            at = 4 + 6 * slot
            X.trace[i, at], X.trace[i, at + 1], X.trace[i, at + 2] = cars[slot], speed[slot], present[slot]
            X.trace[i, at + 3], X.trace[i, at + 4] = S.pos[g, car], S.place[g, car]
            X.trace[i, at + 5] = S.lost[g, car] - lost_before
    if i >= 0:
        X.trace[i, 1], X.trace[i, 2], X.trace[i, 3] = player, card, M


@jit
def car_row(T, S, g, row):
    """row[c]: how far along each car is (finished cars: FINISHED_ROW minus their place)."""
    for c in range(6):
        row[c] = T.row[S.pos[g, c]] if S.pos[g, c] >= 0 else FINISHED_ROW - np.int64(S.place[g, c])


@jit
def projected_row(T, S, g, row, projected):
    """projected[c]: where each car stands once the race's remaining speed is
    counted, from what every player can see (cards played so far; the two cards
    left in the box with 4 or 5 players count as in play): a car on the board covers
    the rows it has left at its colour's pace against the average unfinished car's
    (integer-valued float32 sums, exact in any order; the pace ratio in float64)."""
    N, C = T.players, T.deck.shape[0]
    pace = np.empty(6, np.float32)
    for c in range(6):
        played = 0.0
        for k in range(C):
            n = 0
            for p in range(N):
                n += S.played[g, p, k]
            played += n * np.float64(T.colour_speed[k, c])
        pace[c] = max(T.deck_speed[c] - np.float32(played), F1)
    total, on_board = F0, 0
    for c in range(6):
        if S.pos[g, c] >= 0:
            total += pace[c]
            on_board += 1
    mean_pace = np.float64(total) / max(on_board, 1)
    finish = T.finish_row
    for c in range(6):
        if S.pos[g, c] >= 0:
            to_go = max(finish - row[c], 0)
            projected[c] = np.float32(finish - to_go * mean_pace / np.float64(pace[c]))
        else:
            projected[c] = np.float32(row[c])


@jit
def betting(T, S, X, g):
    """After a card: for each line a car has now crossed for the first time,
    every player bets on the car it thinks likeliest to win: the furthest along,
    or with `foresight` the furthest once the speed still to come is counted,
    its own cars given `loyalty` rows of head start."""
    N = T.players
    row = np.empty(6, np.int64)
    car_row(T, S, g, row)
    lead = row.max()
    projected = np.empty(6, np.float32)
    for k in range(T.betting_rows.shape[0]):
        if lead < T.betting_rows[k] or S.lines_done[g, k]:
            continue
        S.lines_done[g, k] = True
        projected_row(T, S, g, row, projected)
        for p in range(N):
            q = S.bots[g, p]
            f = T.foresight[q]
            spread = T.noise_span[q] * np.float32(5)
            h = chance.light(key(X, BET_NOISE, p))
            best, pick = NEG_INF, 0
            for c in range(6):
                own = F1 if S.owner[g, c] == p else F0
                score = np.float64(F1 - f) * row[c] + np.float64(f * projected[c])
                score = score + np.float64(T.loyalty[q] * own)
                score = score + np.float64(spread * chance.noise_of(h, c))
                if score > best:
                    best, pick = score, c
            S.bets[g, p, k] = pick
            event(X, g, p, T.speed8_card[pick], EV_BET, S.turns[g], k + 1, -1)
        i = record(X, SAY_BET)
        if i >= 0:
            X.trace[i, 1] = k
            for p in range(N):
                X.trace[i, 2 + p] = S.bets[g, p, k]


@jit
def next_player(T, S, g):
    """The first player from the current one on (clockwise) who can play: holds
    cards and has a car still racing; -1 where nobody can."""
    N, C = T.players, T.deck.shape[0]
    for j in range(N):
        p = (S.current[g] + j) % N
        racing = False
        for c in range(6):
            if S.owner[g, c] == p and S.place[g, c] == 0:
                racing = True
        if not racing:
            continue
        for k in range(C):
            if S.hand[g, p, k] > 0:
                return p
    return -1


@jit
def play_race(T, S, X, g, extra_card, who):
    """Turns until every car has finished or nobody can play, or until
    rules.max_turns cuts the race (`cut`)."""
    N, C = T.players, T.deck.shape[0]
    worth = np.empty(6, np.float32)
    before = np.empty(6, np.int64)
    for _ in range(T.max_turns):
        chance.next_step(X.draws)  # a turn: its draws are keyed by the turn
        player = next_player(T, S, g)
        if player < 0 or S.finishers[g] >= 6:
            S.running[g] = False
            return
        i = record(X, SAY_TURN)
        if i >= 0:
            X.trace[i, 1] = S.turns[g] + 1
        if X.verbose:
            i = record(X, SAY_HANDS)
            if i >= 0:
                for p in range(N):
                    for k in range(C):
                        X.trace[i, 1 + p * C + k] = S.hand[g, p, k]
        if X.broken[0]:
            checked_rows(T, S, g, before)
        stance(T, S, g, player, worth)
        card = choose_card(T, S, X, g, player, worth)
        S.hand[g, player, card] -= 1
        S.played[g, player, card] += 1
        S.turns[g] += 1
        event(X, g, player, card, EV_PLAY, S.turns[g], -1, -1)
        resolve_card(T, S, X, g, player, card, worth)
        betting(T, S, X, g)
        S.current[g] = (player + 1) % N
        if X.broken[0] and X.broken[1] == 0:
            rule = rule_broken(T, S, g, before, extra_card, who)
            if rule:
                X.broken[1], X.broken[2], X.broken[3], X.broken[4] = rule, g, S.turns[g], player
    # The last allowed turn is played: a race with a car still racing and a card to play was cut by the cap.
    S.cut[g] = next_player(T, S, g) >= 0 and S.finishers[g] < 6
    S.running[g] = False


# --- The rules checker -------------------------------------------------------------


@jit
def checked_rows(T, S, g, row):
    """row[c]: each car's row now, a finished car's beyond every row (no car moves back)."""
    for c in range(6):
        row[c] = T.row[S.pos[g, c]] if S.pos[g, c] >= 0 else FAR


@jit
def rule_broken(T, S, g, before, extra_card, who):
    """The first rule of RULES (1-based) the game's state breaks after a card; 0 none."""
    N, C = T.players, T.deck.shape[0]
    dealt = T.deck.sum() // N
    for p in range(N):
        for k in range(C):
            if S.hand[g, p, k] < 0 or S.played[g, p, k] < 0:
                return 1
    for p in range(N):
        held = 0
        for k in range(C):
            if T.regular[k]:
                held += S.hand[g, p, k] + S.played[g, p, k]
        if extra_card >= 0 and p == who:
            held -= 1
        if held != dealt:
            return 2
    for p in range(N):
        cars = 0
        for c in range(6):
            owns = S.owner[g, c] == p
            cars += owns
            k = T.speed8_card[c]
            if S.hand[g, p, k] + S.played[g, p, k] != owns:
                return 3
        if cars < 1:
            return 4
    paid, price = 0, 0
    for p in range(N):
        paid += S.paid[g, p]
    for c in range(6):
        price += S.price[g, c]
    if paid != price:
        return 5
    for c in range(6):
        if S.pos[g, c] < 0 and S.place[g, c] <= 0:
            return 6
    for s in range(S.occupied.shape[1]):
        there = False
        for c in range(6):
            there |= S.pos[g, c] == s
        if there != S.occupied[g, s]:
            return 7
    for c in range(6):
        for d in range(c + 1, 6):
            if S.pos[g, c] >= 0 and S.pos[g, c] == S.pos[g, d]:
                return 8
    for n in range(1, S.finishers[g] + 1):
        with_place = 0
        for c in range(6):
            with_place += S.place[g, c] == n
        if with_place != 1:
            return 9
    for c in range(6):
        if S.place[g, c] > S.finishers[g] or S.place[g, c] < 0:
            return 9
    now = np.empty(6, np.int64)
    checked_rows(T, S, g, now)
    for c in range(6):
        if now[c] < before[c]:
            return 10
    return 0


# --- A game, and a batch of them -------------------------------------------------------


@jit
def play_game(T, S, X, g, bonus_card, bonus_power, who):
    """Deal, auction, grid, race (engine.simulate)."""
    record(X, SAY_AUCTION_HEAD)
    deal(T, S, X, g, bonus_card, who)
    won = run_auction(T, S, X, g, np.empty(0, np.int64))
    keep_power(T, S, X, g, won, bonus_power, who)
    grid_cars(T, S, X, g)
    play_race(T, S, X, g, bonus_card, who)


@jit
def play_games(
    T, S, hashes, codes, events, written, logging, broken, watch, verbose, trace, trace_n, start, stop, card, power, who
):
    """Games start..stop-1 of the batch, one after another; returns the game
    whose card events did not fit in `events` (stop: every game played), its
    events unwritten. `broken`: [check?, rule, game, turn, player] of the first
    rule broken; game `watch` (-1 none) says what it does into `trace`
    (`verbose`: the hands too), counted past its end when it is short."""
    for g in range(start, stop):
        before = written[0]
        X = Game(
            hashes[g : g + 1],
            np.zeros((len(codes) + 1, SEATS), np.int64),
            codes,
            events,
            written,
            logging,
            broken,
            g == watch,
            verbose and g == watch,
            trace,
            trace_n,
        )
        play_game(T, S, X, g, card, power, who[g])
        if written[0] > events.shape[0]:
            written[0] = before
            return g
    return stop
