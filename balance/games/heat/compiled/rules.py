"""The Heat rules, compiled (numba): one race at a time, each step of the
rulebook's round a function, in its order ("Gameplay", "Turn Steps",
"Legends", "Winning"). It replaced a numpy lockstep engine (removed after
commit 1c13126, where both were proven to play the same races): every random
number is keyed as there (chance.compiled), every bot value computed in the
same float steps, so the recorded races stay the same races
(tests/test_golden_results.py, tests/test_compiled_heat.py).

Conventions: `T` the tables (tables.Tab), `S` the batch's state (state.State's
arrays), `X` the race's context (its hash, draw counts, event buffer), `g` the
race, `p` the car (its grid slot). numpy keeps a float32 op in float32 and
widens float32 with an integer array or a float64 to float64: here every
float32 result is the float64 op rounded once to float32 (exact for one +, -,
*, /), and every float64 one is computed in float64.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from ...chance import SEATS
from ...chance import compiled as chance
from ...chance.compiled import NO_SEAT
from .structs import Game
from .tables import PURPOSES

jit = njit(cache=True)
inline = njit(cache=True, inline="always")

F32 = np.float32
NEG_INF = -np.inf
OPEN_ROAD = 40  # target speed where no corner is in reach: as fast as possible
UNFILLABLE = 1_000.0  # score penalty per card short of what the gear must play
FAR_BELOW = -(1 << 30)  # turn_order's key of a finished car
REFRESH_SPARE = 3  # Heat beyond the bot's reserve its Engine holds before it refreshes or salvages a card
(
    GARAGE_MARKET,
    NOISE_DRAFT_PICK,
    DRAW_OPENING,
    LEGEND_CARD,
    NOISE_CARD_CHOICE,
    NOISE_GEAR_CHOICE,
    FLIP_PLAYED,
    FLIP_BOOST,
    NOISE_ADRENALINE,
    NOISE_BOOST,
    NOISE_SLIPSTREAM,
    SCRAP,
    DRAW_REPLENISH,
    WEATHER,
    ROAD_CONDITIONS,
    SPONSORS,
    NOISE_DIRECT,
    NOISE_ACCELERATE,
) = range(len(PURPOSES))
# card_effects' columns (tables.build): the ops a played card applies as it is revealed or in React
(
    FX_FLIPS,
    FX_COOLDOWN,
    FX_SLIPSTREAM,
    FX_CORNER,
    FX_SCRAP,
    FX_STRESS,
    FX_SUPER_COOL,
    FX_DRAFT,
    FX_SALVAGE,
    FX_REFRESH,
    FX_DIRECT,
    FX_ACCELERATE,
) = range(12)
# a sector's effect (compile.SECTOR_COLUMNS)
SEC_COOLDOWN, SEC_NO_COOLDOWN, SEC_SLIPSTREAM, SEC_NO_SLIPSTREAM_START, SEC_FREE_BOOST, SEC_WEATHER = range(6)
EV_START, EV_DRAFT, EV_PLAY = 0, 1, 8  # events.EVENTS
# What a traced race says (balance trace): records of numbers (kind, up to 8
# numbers, the index of a row of card counts or -1), written as text by
# trace_text.py.
(
    SAY_BONUS,
    SAY_DRAFT,
    SAY_PICK,
    SAY_ROUND,
    SAY_HANDS,
    SAY_PLAN,
    SAY_LEGEND,
    SAY_OVERHEATED,
    SAY_CANNOT_PAY,
    SAY_SPEED,
    SAY_ADRENALINE,
    SAY_COOLDOWN,
    SAY_BOOST,
    SAY_SLIPSTREAM,
    SAY_CORNER,
    SAY_FINISHED,
    SAY_WEATHER,
    SAY_SUPER_COOL,
    SAY_DRAFTING,
    SAY_SPONSORS,
    SAY_SWAP,
    SAY_OUT,
    SAY_HEAT_OUT,
    SAY_DIRECT,
    SAY_ACCELERATE,
    SAY_SALVAGE,
    SAY_REFRESH,
) = range(27)


@inline
def key(X, purpose, seat):
    return chance.key(X.hash[0], X.draws, X.codes, purpose, seat)


@inline
def event(X, g, seat, card, kind, turn, pick):
    """One card event of the logs (events.Events), if the run keeps them; a
    full buffer is counted past its end (the caller plays the race again with more room)."""
    if not X.logging:
        return
    i = X.n_events[0]
    X.n_events[0] = i + 1
    if i < X.events.shape[0]:
        X.events[i, 0], X.events[i, 1], X.events[i, 2], X.events[i, 3] = g, seat, card, kind
        X.events[i, 4], X.events[i, 5], X.events[i, 6] = turn, pick, -1


@inline
def say(X, kind, a, b, c, d, e, f, h, i, row):
    """One record of what the traced race does (if it is traced); counted past
    the end of a full table (the caller plays the race again with more room)."""
    if not X.tracing:
        return
    n = X.trace_n[0]
    if n < X.trace.shape[0]:
        rec = X.trace[n]
        rec[0], rec[1], rec[2], rec[3], rec[4], rec[5] = kind, a, b, c, d, e
        rec[6], rec[7], rec[8], rec[9] = f, h, i, row
    X.trace_n[0] = n + 1


@inline
def new_row(X):
    """A row for a record's card counts: its index (-1 when not tracing)."""
    if not X.tracing:
        return -1
    n = X.rows_n[0]
    X.rows_n[0] = n + 1
    return n


@inline
def put(X, row, at, value):
    if 0 <= row < X.rows.shape[0]:
        X.rows[row, at] = value


@inline
def f32(x):
    return np.float32(x)


# --- the course (course.py) -------------------------------------------------


@inline
def next_corner(corner_at, pos):
    """The first corner line ahead of `pos` (searchsorted side right): T.corners if
    none. (Arrays are read out of the structures once a function: each read of a
    field takes and drops a reference.)"""
    i = 0
    while corner_at[i] <= pos:  # the pad (FAR) stops it
        i += 1
    return i


@inline
def heat_due(T, S, g, start, end, speed, mod):
    """Course.heat_due: Heat owed for the corners checked moving start -> end at `speed`."""
    if not T.weather_module:  # the track's own limits, no Overheat: no slices of the race's arrays to take
        return owed(T.corner_at, T.limit, T.no_overheat, T.finish, start, end, speed, mod)
    return owed(T.corner_at, S.limit[g], S.overheat[g], T.finish, start, end, speed, mod)


@inline
def owed(corner_at, limit, overheat, finish, start, end, speed, mod):
    """heat_due on the race's arrays: each corner line's limit and Overheat (Road Conditions)."""
    if end >= finish:  # crossing the finish line: its corners are not checked
        return 0
    first = next_corner(corner_at, start)
    count = next_corner(corner_at, end) - first
    due = 0
    for j in range(count):
        over = speed - (limit[first + j] + mod)
        if over > 0:
            due += over + overheat[first + j]
    return due


@inline
def presses(corner_at, limit, press, finish, start, end, speed, margin, below, slip_from):
    """The Press Corners a move from start to end at `speed` presses (the Championship): each crossed at
    its limit plus `margin`, or past `slip_from` (in the slipstream; `end` for a move without one);
    `below`: only under its limit, however crossed; none over the finish line."""
    if end >= finish:
        return 0
    first = next_corner(corner_at, start)
    count = next_corner(corner_at, end) - first
    n = 0
    for j in range(count):
        at = first + j
        slipped = slip_from < corner_at[at]
        if press[at] and (speed < limit[at] if below else slipped or speed >= limit[at] + margin):
            n += 1
    return n


@inline
def sector_of(T, pos):
    """The sector a car on `pos` is in: the one from the last corner line behind it (before the first
    line of the race, the track's last sector, which runs over the start/finish line)."""
    lap_corners = T.lap_corners
    return (next_corner(T.corner_at, pos) - 1 + lap_corners) % lap_corners


# --- moving cars and cards ---------------------------------------------------


@inline
def free_space(T, S, g, p, target):
    """`target`, or the first space behind it where car p finds a free spot."""
    at, finished = S.pos[g], S.finished[g]
    P = at.shape[0]
    lanes = T.lanes
    y = np.int16(target)
    for _ in range(P):
        n = 0
        for o in range(P):
            if o != p and not finished[o] and at[o] == y:
                n += 1
        if n < lanes:
            break
        y -= np.int16(1)
    return y


@inline
def place(T, S, g, p, target):
    """Car p on `target`, or the first space behind it with a free spot; on the
    race line if that spot is free, else beside it."""
    at, finished, lane = S.pos[g], S.finished[g], S.lane[g]
    P = at.shape[0]
    y = free_space(T, S, g, p, target)
    taken = False
    for o in range(P):
        if o != p and not finished[o] and at[o] == y and lane[o] == 0:
            taken = True
    at[p] = y
    lane[p] = 1 if taken else 0


@inline
def flip(T, S, X, g, p, count, purpose):
    """Per flip: cards from the deck (the discard reshuffled in when it runs out)
    until a basic speed card shows, which joins the play area; the others go to
    the discard. Returns the speed added; a car with no basic card left stops."""
    added = 0
    left = count
    if left <= 0:
        return added
    deck, discard, play = S.deck[g, p], S.discard[g, p], S.play[g, p]
    is_basic, speed = T.is_basic, T.speed
    K = deck.shape[0]
    while left > 0:
        empty = True
        for k in range(K):
            if deck[k] > 0:
                empty = False
                break
        if empty:
            for k in range(K):
                deck[k] += discard[k]
                discard[k] = 0
        basics = 0
        for k in range(K):
            if is_basic[k]:
                basics += deck[k] + discard[k]
        if basics == 0:  # dry: no key drawn
            break
        card = chance.draw_one(key(X, purpose, p), deck)
        if is_basic[card]:
            added += speed[card]
            play[card] += 1
            left -= 1
        else:
            discard[card] += 1
    return added


@inline
def draw(S, X, g, p, n, purpose):
    """n cards into the hand (the discard reshuffled in when the deck runs out)."""
    if n <= 0:
        return
    chance.draw_reshuffling_in(key(X, purpose, p), S.deck[g, p], S.discard[g, p], n, S.hand[g, p], X.taken)


@inline
def scrap(S, X, g, p, n):
    """n cards from the top of the draw deck to the discard pile, the discard
    pile shuffled in as a new deck when the deck runs out (BGA's Cards::scrap:
    one card at a time, reshuffling; the cards scrapped so far go with it)."""
    discard = S.discard[g, p]
    chance.draw_reshuffling_in(key(X, SCRAP, p), S.deck[g, p], discard, n, discard, X.taken)


@inline
def pay_heat(T, S, g, p, amount):
    """Heat from the Engine to the discard pile (the caller has checked it is there)."""
    S.engine[g, p] -= amount
    S.discard[g, p, T.heat_card] += amount
    S.heat_paid[g, p] += amount


# --- setup -------------------------------------------------------------------


@jit
def setup(T, S, X, g, bonus_card, bonus_who, carry):
    """Weather and Road Conditions (the module: before the Garage draft);
    decks of speed cards, starting upgrades (or a Garage draft), the track's
    Stress; Heat in the Engine; the starting gear; the grid; hands of 7.
    A Championship race: each car's cards from the races before (`carry`:
    its upgrades and unplayed Sponsorship cards) join its deck, the rest of
    the Sponsorship cards make the sponsor pile, and the Event's Sponsorship
    cards are dealt into the opening hands."""
    P, K = S.deck.shape[1], S.deck.shape[2]
    lay_course(T, S, X, g)
    stress_card, heat_card = T.stress_card, T.heat_card
    stress = max(T.starting_deck[stress_card] + S.weather_stress[g], 0)
    S.weather_stress[g] = stress - T.starting_deck[stress_card]  # what the decks hold less the track's
    players, legends = 0, 0
    for p in range(P):
        q = S.bots[g, p]
        S.is_legend[g, p] = T.legend[q]
        if T.legend[q]:  # the Legend cars take the colours in grid order
            S.colour[g, p] = legends
            legends += 1
        S.pos[g, p] = T.grid_space[p]
        S.lane[g, p] = T.grid_lane[p]
        S.gear[g, p] = T.starting_gear
        if not T.legend[q]:
            players += 1
            for k in range(K):
                S.deck[g, p, k] = T.starting_deck[k]
            S.deck[g, p, stress_card] = stress
            S.engine[g, p] = T.track_heat
    S.legend_deck[g, :] = 1
    if T.stress_supply >= 0:  # the box's Stress less what the decks took
        S.stress_supply[g] = max(T.stress_supply - players * stress, 0)
    for k in range(K):  # the starting cards' events: card by card, copy by copy, car by car
        for _ in range(stress if k == stress_card else T.starting_deck[k]):
            for p in range(P):
                if not S.is_legend[g, p]:
                    event(X, g, p, k, EV_START, 0, -1)
    w = S.weather[g]
    if w >= 0:  # the Weather's Heat: more or less in the Engine; some of it into the deck or onto the discard
        for p in range(P):
            if S.is_legend[g, p]:
                continue
            S.engine[g, p] = max(np.int64(S.engine[g, p]) + T.w_heat[w], 0)
            into_deck = min(T.w_to_deck[w], np.int64(S.engine[g, p]))
            S.engine[g, p] -= into_deck
            S.deck[g, p, heat_card] += into_deck
            onto_discard = min(T.w_to_discard[w], np.int64(S.engine[g, p]))
            S.engine[g, p] -= onto_discard
            S.discard[g, p, heat_card] += onto_discard
        S.weather_heat[g] = max(T.track_heat + T.w_heat[w], 0) - T.track_heat
    if T.championship:
        carried(T, S, X, g, carry)
    if bonus_card >= 0:  # balance strength: an extra starting copy
        who = bonus_who[g]
        S.deck[g, who, bonus_card] += 1
        S.bonus[g, who, bonus_card] += 1
        event(X, g, who, bonus_card, EV_START, 0, -1)
        say(X, SAY_BONUS, who, bonus_card, 0, 0, 0, 0, 0, 0, -1)
    if T.garage:
        say(X, SAY_DRAFT, 0, 0, 0, 0, 0, 0, 0, 0, -1)
        garage_draft(T, S, X, g, players)
    for p in range(P):
        if not S.is_legend[g, p]:
            dealt = gain_sponsors(S, X, g, p, T.deal) if T.deal else 0
            draw(S, X, g, p, T.hand_size - dealt, DRAW_OPENING)


@jit
def carried(T, S, X, g, carry):
    """A Championship race's cards from the races before: each player car's
    upgrades and unplayed Sponsorship cards into its deck; the sponsor pile
    holds the Sponsorship cards no car holds."""
    P, K = S.deck.shape[1], S.deck.shape[2]
    for k in range(K):
        S.sponsors[g, k] = T.sponsor_pile[k]
    for p in range(P):
        if S.is_legend[g, p] or carry.shape[0] == 0:  # (no carry: the season's first race)
            continue
        for k in range(K):
            n = carry[g, p, k]
            if n:
                S.deck[g, p, k] += n
                S.received[g, p, k] += n
                S.sponsors[g, k] = max(S.sponsors[g, k] - n, 0)
                for _ in range(n):
                    event(X, g, p, k, EV_START, 0, -1)


@inline
def gain_sponsors(S, X, g, p, n, gained=False, pressed=0, record=0, lap_one=0, passing=0):
    """n Sponsorship cards from the sponsor pile into the car's hand (fewer
    if the pile runs short): dealt, or `gained` in the race; returns how many."""
    pile, hand, before = S.sponsors[g], S.hand[g, p], X.held  # (`held`: the planning's scratch, free here)
    for k in range(pile.shape[0]):
        before[k] = pile[k]
    chance.draw_many_in(key(X, SPONSORS, p), pile, n, hand, X.taken)
    got = 0
    for k in range(pile.shape[0]):
        took = before[k] - pile[k]
        if took:
            S.received[g, p, k] += took
            got += took
    if gained:
        S.sponsors_gained[g, p] += got
    say(X, SAY_SPONSORS, p, got, n, gained, pressed, record, lap_one, passing, -1)
    return got


@jit
def lay_course(T, S, X, g):
    """The race's corner limits, Overheat and sectors: the track's, and with
    the Weather module a Weather token (its setup change noted for the decks)
    and, corner by corner in driving order, a Road Conditions token drawn from
    the shuffled box: a corner token changes its corner line, a sector token
    every space from that line to the next (a Weather token: the Weather's
    sector effect)."""
    limit = S.limit[g]
    for i in range(limit.shape[0]):
        limit[i] = T.limit[i]
    S.overheat[g, :] = 0
    S.sector[g, :, :] = 0
    if not T.weather_module:
        return
    if T.weather_fixed >= 0:
        w = T.weather_fixed
    else:
        w = chance.draw_one(key(X, WEATHER, NO_SEAT), np.ones(T.w_stress.shape[0], np.int64))
    S.weather[g] = w
    S.weather_stress[g] = T.w_stress[w]
    box = T.r_count.copy()
    LC = T.lap_corners
    row = new_row(X) if X.tracing else -1
    drawn = 0
    for c in range(LC):
        if T.chicane[c]:  # a chicane's exit takes its entry's token: a sector one lies after the exit only
            t = S.road[g, c - 1]
            if T.r_is_sector[t]:
                for e in range(S.sector.shape[2]):
                    S.sector[g, c, e] = S.sector[g, c - 1, e]
                    S.sector[g, c - 1, e] = 0
        elif T.road_fixed.shape[0] > 0:
            t = T.road_fixed[drawn]
            drawn += 1
        else:
            t = chance.draw_one(key(X, ROAD_CONDITIONS, NO_SEAT), box)
        S.road[g, c] = t
        if row >= 0:
            put(X, row, c, t)
        if T.r_is_sector[t]:
            if not T.chicane[c]:
                for e in range(T.r_sector.shape[1]):
                    S.sector[g, c, e] = T.r_sector[t, e]
                if T.r_sector[t, SEC_WEATHER]:
                    for e in range(T.w_sector.shape[1]):
                        S.sector[g, c, e] += T.w_sector[w, e]
        else:
            for lap in range(T.laps):
                at = lap * LC + c
                limit[at] = max(np.int64(limit[at]) + T.r_limit[t], 0)
                S.overheat[g, at] = T.r_overheat[t]
    say(X, SAY_WEATHER, w, LC, 0, 0, 0, 0, 0, 0, row)


@jit
def garage_draft(T, S, X, g, players):
    """Each draft round reveals a card per player plus `revealed_extra`; the
    players pick one each in draft order (the back of the grid first); the
    rest are set aside."""
    K, P = S.deck.shape[2], S.deck.shape[1]
    pool = T.pool.copy()
    if T.championship:  # the upgrades the cars kept from the races before are not in the pool
        for p in range(P):
            for k in range(K):
                pool[k] = max(pool[k] - S.received[g, p, k], 0)
    market = np.zeros(K, np.int64)
    pick = 0
    for r in range(T.draft_seats.shape[0]):
        market[:] = 0
        chance.draw_many(key(X, GARAGE_MARKET, NO_SEAT), pool, players + T.revealed_extra, market)
        for i in range(T.draft_seats.shape[1]):
            p = T.draft_seats[r, i]
            q = S.bots[g, p]
            hashed = chance.light(key(X, NOISE_DRAFT_PICK, p))  # drawn for every slot, Legend or not
            pick += 1
            if S.is_legend[g, p] or market.sum() == 0:
                continue
            span = np.float64(T.noise_span[q])
            best, k = NEG_INF, 0
            for c in range(K):
                if market[c] > 0:
                    v = f32(np.float64(T.upgrade_value[q, c]) + np.float64(f32(span * chance.noise_of(hashed, c))))
                    if v > best:
                        best, k = v, c
            market[k] -= 1
            S.deck[g, p, k] += 1
            S.drafted[g, p, k] += 1
            if S.draft_pick[g, p, k] == 0:
                S.draft_pick[g, p, k] = pick
            event(X, g, p, k, EV_DRAFT, 0, pick)
            say(X, SAY_PICK, pick, p, k, 0, 0, 0, 0, 0, -1)
    if T.swap:
        swap_upgrade(T, S, X, g, market, pick + 1)


@inline
def swap_upgrade(T, S, X, g, market, pick):
    """The Championship's draft ends with the first picker's swap: one upgrade
    it owns for one left in the draft, when its bot values the one left more
    (its draft values, no noise: a swap is a plain comparison); it owns what it
    drafted and what it carried, a Heat card of the pool among them (not the
    race's Heat a Weather token put in its deck). An upgrade drafted in this
    draft is as if never drafted (its draft event names the one taken
    instead); one carried from a race before leaves (the one taken is logged
    as drafted, `pick` after the draft's last); a strength bonus copy is
    never given."""
    first = -1
    for i in range(T.draft_seats.shape[1]):
        p = T.draft_seats[0, i]
        if first < 0 and not S.is_legend[g, p]:
            first = p
    if first < 0:
        return
    q = S.bots[g, first]
    K = S.deck.shape[2]
    take, best = -1, NEG_INF
    give, worst = -1, np.inf
    for k in range(K):
        v = np.float64(T.upgrade_value[q, k])
        if market[k] > 0 and v > best:
            take, best = k, v
        owned = np.int64(S.drafted[g, first, k]) + S.received[g, first, k]  # (not the Weather's Heat in the deck)
        if T.pool[k] > 0 and owned > 0 and v < worst:
            give, worst = k, v
    if take < 0 or give < 0 or best <= worst:
        return
    S.deck[g, first, give] -= 1
    S.deck[g, first, take] += 1
    S.drafted[g, first, take] += 1
    if S.drafted[g, first, give] > 0:  # drafted just now: the draft's event names the upgrade taken instead
        S.drafted[g, first, give] -= 1
        pick = np.int64(S.draft_pick[g, first, give])
        if S.drafted[g, first, give] == 0:
            S.draft_pick[g, first, give] = 0
        renamed = False
        for i in range(min(np.int64(X.n_events[0]), X.events.shape[0]) - 1, -1, -1):
            row = X.events[i]
            if row[0] != g:
                break
            if not renamed and row[1] == first and row[2] == give and row[3] == EV_DRAFT:
                row[2] = take
                renamed = True
    else:  # carried from a race before
        S.received[g, first, give] -= 1
        event(X, g, first, take, EV_DRAFT, 0, pick)
    if S.draft_pick[g, first, take] == 0:
        S.draft_pick[g, first, take] = pick
    say(X, SAY_SWAP, first, give, take, 0, 0, 0, 0, 0, -1)


# --- steps 1 and 2: shift and choose the cards ---------------------------------


@inline
def target_speed(corner_at, limit, corners, finish, pos, engine, reserve, risk, mod):
    """The speed the bot aims at: across the next corner no faster than its
    limit plus the Heat it will pay (`risk` of the Engine's Heat above
    `reserve`), never into the corner after it."""
    nxt = next_corner(corner_at, pos)
    to_line = corner_at[nxt] - pos
    after = corner_at[min(nxt + 1, corners)] - pos
    spare = max(engine - reserve, 0)
    allowance = np.int64(np.floor(np.float64(risk) * spare))
    cross = min(limit[nxt] + mod + allowance, after - 1)
    target = cross if cross >= to_line else to_line - 1
    if nxt >= corners or finish - pos <= to_line:  # no corner before the finish
        return OPEN_ROAD
    return target


@inline
def choose_cards(cards, hand, held, n_held, left, gear, target, budget, span, jitter, prefer, chosen):
    """One car's cards: `gear` cards picked greedily, each the
    closest to the speed still needed per card left (noise mixed in by the
    jitter), into `chosen` (K,). `held[:n_held]`: the playable cards in hand, in
    card order (the first of equal scores wins, as the numpy engine's argmax
    did); `left` (K,) scratch. Returns (expected speed (float32), cards chosen)."""
    values, is_choice, choices, heat_cost, flips_f32, flip_mean, spread_near = cards
    for i in range(n_held):
        k = held[i]
        left[k] = hand[k]
        chosen[k] = 0
    total = f32(0.0)
    counted = f32(0.0)
    count = 0
    near = target < OPEN_ROAD
    spread = spread_near if near else 0.0  # a flip counts at the highest basic speed near a corner
    for step in range(gear):
        slots = gear - step
        ideal = np.float64(f32(np.float64(target) - np.float64(counted))) / np.float64(max(slots, 1))
        best, pick, pick_value, pick_counts = NEG_INF, -1, f32(0.0), 0.0
        for i in range(n_held):
            k = held[i]
            if left[k] <= 0:
                continue
            value = values[k]
            if is_choice[k]:  # a choice card counts as its choice nearest the ideal
                gap = np.inf
                for o in range(choices.shape[1]):
                    option = choices[k, o]
                    if option >= 0 and abs(np.float64(option) - ideal) < gap:
                        gap = abs(np.float64(option) - ideal)
                        value = f32(option)
            unpaid = heat_cost[k] > budget
            if unpaid:  # played as a random speed card (a flip)
                value = flip_mean
                counts_as = np.float64(value) + spread
            else:
                counts_as = np.float64(value) + spread * np.float64(flips_f32[k])
            score = np.float64(f32(np.float64(span) * np.float64(jitter[k]))) - abs(counts_as - ideal)
            score = score + prefer[k]
            if score > best:
                best, pick, pick_value, pick_counts = score, k, value, counts_as
        if pick < 0:
            break
        left[pick] -= 1
        chosen[pick] += 1
        total = f32(np.float64(total) + np.float64(pick_value))
        counted = f32(np.float64(counted) + pick_counts)
        if heat_cost[pick] <= budget:
            budget -= heat_cost[pick]
        count += 1
    return total, count


@inline
def shift_cost(two_heat, flood_heat, gear, new, flooded):
    """Heat to shift from `gear` to `new`: two gears at once cost `two_heat` (rules.shift_two_heat); on a
    flooded space a downshift, of one gear or two, costs `flood_heat` more (Heavy Rain). (The rules' numbers are passed in:
    a field read of the tables in the planning's inner loop costs.)"""
    shift = abs(new - gear)
    cost = two_heat if shift == 2 else 0
    if flooded and new < gear:  # "1 extra Heat": two gears down then cost 2, not one a gear
        cost += flood_heat
    return cost


@inline
def plan_car(T, S, X, g, p):
    """One car shifts and chooses its cards face down: every gear within reach
    scored (and, with cards that raise corner limits in hand, plans built
    around them), the best kept."""
    jitter, prefer, plans, targets, scores, hand, held, left = (
        X.jitter,
        X.prefer,
        X.plans,
        X.targets,
        X.scores,
        X.hand,
        X.held,
        X.left,
    )  # the race's scratch (scratch_for)
    K = S.deck.shape[2]
    G4 = T.gears
    q = S.bots[g, p]
    span = T.noise_span[q]
    in_hand = S.hand[g, p]
    for k in range(K):
        hand[k] = in_hand[k]
    engine = np.int64(S.engine[g, p])
    gear = np.int64(S.gear[g, p])
    heat_in_hand = hand[T.heat_card]
    pos = np.int64(S.pos[g, p])
    hashed = chance.light(key(X, NOISE_CARD_CHOICE, p))
    heat_cost, op_corner, flips_f32, playable = T.heat_cost, T.op_corner, T.flips_f32, T.playable
    cards = (T.value, T.is_choice, T.choices, heat_cost, flips_f32, f32(T.flip_mean), T.spread)
    corner_at, corners, finish = T.corner_at, T.corners, T.finish
    limit, overheat = (S.limit[g], S.overheat[g]) if T.weather_module else (T.limit, T.no_overheat)
    reserve, risk, heat_value, cooldown_value = T.reserve[q], T.risk[q], T.heat_value[q], T.cooldown_value[q]
    if T.championship:  # an Event whose spin-out puts the car out: the Heat kept back against a forced one
        reserve += T.out_reserve
    cooldown, spread = T.cooldown, T.spread
    to_line = corner_at[next_corner(corner_at, pos)] - pos
    flooded = T.any_flooded and T.flooded[pos % T.spaces]  # the round started on a flooded space: downshifts cost
    two_heat, flood_heat = T.shift_two_heat, T.flooded_heat
    raised, n_held = 0, 0
    for k in range(K):
        if hand[k] > 0 and playable[k]:
            held[n_held] = k
            n_held += 1
            jitter[k] = chance.noise_of(hashed, k)  # noise keyed by the card (chance.uniform_at)
            if op_corner[k] > raised:
                raised = op_corner[k]
    variants = 2 if raised > 0 else 1
    if T.eliminate:  # an Event's spin-out ends the race: a plan per gear that crawls too (its slowest cards)
        variants += 1
    for v in range(variants):
        raising = v == 1 and raised > 0
        crawl = T.eliminate and v == variants - 1
        raise_by = raised if raising else 0
        for h in range(n_held):
            k = held[h]
            prefer[k] = 100.0 if raising and op_corner[k] > 0 else 0.0
        for i in range(G4):
            new = i + 1
            cost = shift_cost(two_heat, flood_heat, gear, new, flooded)
            budget = engine - cost
            aim = target_speed(corner_at, limit, corners, finish, pos, budget, reserve, risk, raise_by)
            if crawl:
                aim = 0
            j = v * G4 + i
            targets[j] = aim
            plan = plans[j]
            plan[:] = 0
            total, count = choose_cards(cards, hand, held, n_held, left, new, aim, budget, span, jitter, prefer, plan)
            spare, mod, flips = budget, 0, 0.0
            for h in range(n_held):
                k = held[h]
                c = plan[k]
                if c > 0:
                    if heat_cost[k] <= budget:  # a card it cannot pay is swapped, not paid
                        spare -= c * heat_cost[k]
                        mod += c * op_corner[k]
                    flips += c * np.float64(flips_f32[k])
            left_heat = max(spare, 0)  # the Engine's Heat after the cards' own
            speed = np.int64(np.rint(np.float64(total)))
            worst = np.int64(np.rint(np.float64(total) + spread * flips))
            spins = owed(corner_at, limit, overheat, finish, pos, pos + worst, worst, mod) > left_heat
            if spins:
                value = np.float64(to_line) - 1.0 - T.spin_cost
                if T.eliminate:  # of plans that may spin out of the race, the slowest (the least sure to)
                    value -= np.float64(worst)
            else:
                due = owed(corner_at, limit, overheat, finish, pos, pos + speed, speed, mod)
                value = np.float64(total) - np.float64(heat_value) * due
                if T.championship:  # a Sponsorship card gained is worth what it adds over a card it displaces
                    end = pos + speed  # (its own move: no slipstream)
                    pressed = presses(
                        corner_at, limit, T.press, finish, pos, end, speed, T.press_margin, T.press_below, end
                    )
                    value += T.press_worth * pressed
            cooled = min(cooldown[new], heat_in_hand)
            score = value + np.float64(cooldown_value) * cooled
            score = score - np.float64(heat_value) * cost
            score = score - UNFILLABLE * (new - count)  # a shortfall overheats the car
            scores[j] = f32(score)
    # a number per plan, the plain gears then the raised ones, drawn whether or not they are scored
    hashed = chance.light(key(X, NOISE_GEAR_CHOICE, p))
    best, b = NEG_INF, 0
    for j in range(variants * G4):
        new = j % G4 + 1
        shift = abs(new - gear)
        cost = shift_cost(two_heat, flood_heat, gear, new, flooded)
        legal = shift <= 1 and cost == 0 or shift <= 2 and engine >= cost
        if not legal:
            continue
        s = f32(np.float64(scores[j]) + np.float64(f32(np.float64(span) * np.float64(chance.noise_of(hashed, j)))))
        if s > best:
            best, b = s, j
    new_gear = b % G4 + 1
    paid = shift_cost(two_heat, flood_heat, gear, new_gear, flooded)
    pay_heat(T, S, g, p, paid)
    chosen = plans[b]
    played = 0
    for k in range(K):
        played += chosen[k]
    short = new_gear - played
    over = short > 0
    if over:  # too few playable cards: play them all, and Heat to make up the number
        chosen[T.heat_card] += min(short, heat_in_hand)
    in_play = S.play[g, p]
    for k in range(K):
        in_hand[k] = hand[k] - chosen[k]
        in_play[k] = chosen[k]
    S.gear[g, p] = new_gear
    S.overheated[g, p] = over
    S.target[g, p] = targets[b]
    if X.tracing:
        row = new_row(X)
        for k in range(K):
            put(X, row, k, chosen[k])
        say(X, SAY_PLAN, p, q, gear, new_gear, paid, S.engine[g, p], targets[b], over, row)


@jit
def plan_round(T, S, X, g):
    """Steps 1 and 2 for every player car still racing (not the Legends)."""
    P = S.deck.shape[1]
    for p in range(P):
        if not S.finished[g, p] and not S.is_legend[g, p]:
            plan_car(T, S, X, g, p)


# --- the turns -------------------------------------------------------------------


@inline
def legend_card(S, X, g):
    """The round's Legend card (one for all the race's Legends), the deck
    reshuffled when empty; -1 where no Legend races."""
    P = S.pos.shape[1]
    some = False
    for p in range(P):
        if S.is_legend[g, p] and not S.finished[g, p]:
            some = True
    if not some:
        return -1
    deck = S.legend_deck[g]
    if deck.sum() == 0:
        deck[:] = 1
    return chance.draw_one(key(X, LEGEND_CARD, NO_SEAT), deck)


@inline
def laps_done(T, S, X, g, p):
    """The round of every lap the car has now completed for the first time."""
    for lap in range(T.laps):
        if S.pos[g, p] >= T.spaces * (lap + 1) and S.lap_round[g, p, lap] == 0:
            S.lap_round[g, p, lap] = S.round[g]
            if T.heat_out_per_lap and lap + 1 < T.laps and not S.is_legend[g, p]:
                heat_out(T, S, X, g, p, T.heat_out_per_lap)


@jit
def heat_out(T, S, X, g, p, n):
    """An Event's Heat out of the game: from the Engine, else the hand, else
    the discard pile, else the deck."""
    heat, left = T.heat_card, n
    take = min(left, np.int64(S.engine[g, p]))
    S.engine[g, p] -= take
    left -= take
    for pile in (S.hand, S.discard, S.deck):
        take = min(left, np.int64(pile[g, p, heat]))
        pile[g, p, heat] -= take
        left -= take
    S.received[g, p, heat] -= n - left
    say(X, SAY_HEAT_OUT, p, n - left, 0, 0, 0, 0, 0, 0, -1)


@inline
def legend_turn(T, S, X, g, p, card):
    """A Legend moves by the round's Legend card, its colour's helmet number
    and diamond column d, using no Heat: past the next corner's Legend line,
    the corner's limit plus d; before it, the helmet number (Pro Legends: plus
    N), unless that crosses the corner line: then to d spaces short of the
    space before the line. At most one corner line a move; Aggressive Legends:
    from a chevron space (right before a corner line) one more, a double
    chevron two more."""
    pos = np.int64(S.pos[g, p])
    nxt = next_corner(T.corner_at, pos)
    line = T.corner_at[nxt]
    colour = S.colour[g, p]
    helmet = T.legend_helmet[card, colour] + T.pro_legends
    d = T.legend_diamond[card, colour]
    extra = T.chevron[pos % T.spaces] if T.aggressive_legends else 0
    if T.finish - pos <= line - pos:  # no corner before the finish
        move = helmet
    elif pos >= T.legend_at[nxt]:  # within the corner's Legend line
        move = np.int64(S.limit[g, nxt]) + d
    elif pos + helmet < line:
        move = helmet
    else:
        move = max(line - 1 - d - pos, 0)
    stop = T.corner_at[min(nxt + 1 + extra, T.corners)] - 1
    move = min(move, stop - pos)
    S.turns[g, p] += 1
    place(T, S, g, p, pos + move)
    laps_done(T, S, X, g, p)
    say(X, SAY_LEGEND, p, helmet, card, move, pos, S.pos[g, p], d, colour, -1)


@inline
def fits(T, S, g, p, start, speed, to, new_speed, cost, gain, has_gain):
    """Going on to `to` at `new_speed` (paying `cost` first) keeps the
    corners' Heat payable and within the bot's allowance; with a gain, the
    spaces also beat the Heat it adds."""
    q = S.bots[g, p]
    engine = np.int64(S.engine[g, p]) - cost
    mod = np.int64(S.corner_mod[g, p])
    owed = heat_due(T, S, g, start, np.int64(S.pos[g, p]), speed, mod)
    owed_then = heat_due(T, S, g, start, to, new_speed, mod)
    allowance = np.floor(np.float64(T.risk[q]) * max(engine - owed - T.reserve[q], 0))
    ok = owed_then <= engine and owed_then - owed <= allowance
    if has_gain:
        ok = ok and gain > np.float64(T.heat_value[q]) * (owed_then - owed)
    return ok


@inline
def pay_card_heat(T, S, X, g, p, play):
    """The played cards' Heat, copy by copy; a card the Engine cannot pay is
    discarded and a random speed card played instead. As in the numpy engine,
    copy i of a card is looked at only while more than i copies are still in play."""
    swapped = 0
    K = play.shape[0]
    heat_cost = T.heat_cost
    for k in range(K):
        cost = heat_cost[k]
        if cost <= 0 or play[k] == 0:
            continue
        for copy in range(play[k]):
            if play[k] <= copy:
                continue
            if S.engine[g, p] >= cost:
                pay_heat(T, S, g, p, cost)
            else:
                play[k] -= 1
                S.play[g, p, k] -= 1
                S.discard[g, p, k] += 1
                swapped += 1
                say(X, SAY_CANNOT_PAY, p, cost, k, 0, 0, 0, 0, 0, -1)
    return swapped


@inline
def reveal(T, S, X, g, p):
    """The played cards face up: their Heat paid, choice cards set, flips made,
    their other effects noted; returns the Speed."""
    K = S.deck.shape[2]
    in_play = S.play[g, p]
    play = X.play
    for k in range(K):
        play[k] = in_play[k]
    swapped = pay_card_heat(T, S, X, g, p, play)
    speeds, is_choice, choices = T.speed, T.is_choice, T.choices
    speed = 0
    for k in range(K):
        speed += play[k] * speeds[k]
    target = np.int64(S.target[g, p])
    for k in range(K):  # each copy of a choice card: the largest choice that keeps to the target
        if not is_choice[k]:
            continue
        for _ in range(play[k]):
            room = target - speed
            fit, low = -1, 1 << 30
            for o in range(choices.shape[1]):
                option = choices[k, o]
                if option >= 0:
                    low = min(low, option)
                    if option <= room:
                        fit = max(fit, option)
            speed += fit if fit >= 0 else low
    flips, cool, slip, corner, scrap_n, stress, super_cool, draft_n = swapped, 0, 0, 0, 0, 0, 0, 0
    effects = T.card_effects  # (K, 12): the FX_ columns
    for k in range(K):
        c = play[k]
        if c:
            flips += c * effects[k, FX_FLIPS]
            cool += c * effects[k, FX_COOLDOWN]
            slip += c * effects[k, FX_SLIPSTREAM]
            corner += c * effects[k, FX_CORNER]
            scrap_n += c * effects[k, FX_SCRAP]
            stress += c * effects[k, FX_STRESS]
            super_cool += c * effects[k, FX_SUPER_COOL]
            draft_n += c * effects[k, FX_DRAFT]
    speed += flip(T, S, X, g, p, flips, FLIP_PLAYED)
    S.cooldown_bonus[g, p] = cool
    S.slip_bonus[g, p] = slip
    S.corner_mod[g, p] = corner
    S.super_cool[g, p] = super_cool
    S.draft[g, p] = draft_n
    S.stress_out[g, p] = stress  # discarded in React, where the car then stands (a tunnel forbids it)
    if T.any_react_ops:  # (looked at only where a card in the race has them: the hot path)
        salvage, accelerate = 0, 0
        for k in range(K):
            salvage += play[k] * effects[k, FX_SALVAGE]
            accelerate += play[k] * effects[k, FX_ACCELERATE]
        S.salvage[g, p] = salvage
        S.accelerate[g, p] = accelerate
        S.flipped[g, p] = flips - swapped  # (a card swapped for an unpaid Heat flips too, but BGA counts no Boost)
    played = S.played[g, p]
    if scrap_n > 0:
        scrap(S, X, g, p, scrap_n)
    turn = S.round[g]
    for k in range(K):
        if play[k]:
            played[k] += play[k]
            for _ in range(play[k]):
                event(X, g, p, k, EV_PLAY, turn, -1)
    return np.int64(np.int16(speed))


@inline
def discard_stress(T, S, g, p):
    """The played cards' Stress discard (a React symbol): Stress from hand to the discard pile, none
    while the car stands on a tunnel space (Tunnel Vision: no discarding there, whatever allows it)."""
    stress = np.int64(S.stress_out[g, p])
    if stress <= 0 or T.any_tunnel and T.tunnel[np.int64(S.pos[g, p]) % T.spaces]:
        return
    hand, stress_card = S.hand[g, p], T.stress_card
    out = min(stress, np.int64(hand[stress_card]))
    hand[stress_card] -= out
    S.discard[g, p, stress_card] += out


@inline
def react(T, S, X, g, p, start, speed, cool_more):
    """The React step: the played cards' Stress discard, Cooldown (gear,
    cards, Adrenaline) moves Heat from hand to the Engine, then Boost, once,
    when even the highest flip keeps the corners payable; a race where some
    card has another React symbol plays react_with_symbols instead. Returns
    the Speed."""
    if T.any_react_ops:  # (apart: the symbols' calls cost the hot path, scripts/bench_heat.py, even unmade)
        return react_with_symbols(T, S, X, g, p, start, speed, cool_more)
    discard_stress(T, S, g, p)
    return cool_and_boost(T, S, X, g, p, start, speed, cool_more)


@jit
def react_with_symbols(T, S, X, g, p, start, speed, cool_more):
    """React with the expansions' and BGA's symbols, in our order (docs/rules.md): Direct Play (its icons
    join the step's), the Stress discard, Cooldown and Boost, Accelerate, Super Cool, Salvage, Draft."""
    if T.direct_cards.shape[0]:
        speed = direct_play(T, S, X, g, p, start, speed)
    discard_stress(T, S, g, p)
    boosts = S.boosts[g, p]
    speed = cool_and_boost(T, S, X, g, p, start, speed, cool_more)
    S.flipped[g, p] += S.boosts[g, p] - boosts  # a Boost flips a card
    if S.accelerate[g, p] > 0:
        speed = accelerating(T, S, X, g, p, start, speed)
    heat = T.heat_card
    back = min(np.int64(S.super_cool[g, p]), np.int64(S.discard[g, p, heat]))
    if back > 0:  # Super Cool: from the discard
        S.discard[g, p, heat] -= back
        S.engine[g, p] += back
        S.cooled[g, p] += back
        say(X, SAY_SUPER_COOL, p, back, 0, 0, 0, 0, 0, 0, -1)
    if S.salvage[g, p] > 0:
        salvaging(T, S, X, g, p)
    drafting(T, S, X, g, p, start, speed)
    return speed


@inline
def cool_and_boost(T, S, X, g, p, start, speed, cool_more):
    """Cooldown (gear, cards, Adrenaline, a Weather sector) moves Heat from
    hand to the Engine; then Boost, once, when even the highest flip keeps
    the corners payable. Returns the Speed."""
    gear = S.gear[g, p]
    heat = T.heat_card
    more_cool, no_cool, free_boost = 0, False, False
    if T.weather_module:  # the sector the car is in after its move
        here = sector_of(T, np.int64(S.pos[g, p]))
        more_cool = np.int64(S.sector[g, here, SEC_COOLDOWN])
        no_cool = S.sector[g, here, SEC_NO_COOLDOWN] != 0
        free_boost = S.sector[g, here, SEC_FREE_BOOST] != 0
    cool = T.cooldown[gear] + S.cooldown_bonus[g, p] + cool_more + more_cool
    if no_cool:  # no Cooldown at all, from any source
        cool = 0
    cool = min(max(cool, 0), np.int64(S.hand[g, p, heat]))
    S.hand[g, p, heat] -= cool
    S.engine[g, p] += cool
    S.cooled[g, p] += cool
    if cool:  # said as it happens: before a Boost, which may pay with the Heat just cooled
        say(X, SAY_COOLDOWN, p, cool, 0, 0, 0, 0, 0, 0, -1)
    q = S.bots[g, p]
    cost = 0 if free_boost else T.boost_heat  # a free-boost sector: Boost pays no Heat
    may = T.boost_allowed[gear] and S.engine[g, p] >= cost
    noise = T.noise[q]
    if noise >= 1:
        keen = f32(0.5)
    elif may and fits(T, S, g, p, start, speed, np.int64(S.pos[g, p]) + T.top, speed + T.top, cost, 0, False):
        # (asked only where the answer counts: a car that may not Boost draws its coin all the same)
        a = f32(1.0 - np.float64(noise))
        keen = f32(np.float64(f32(np.float64(a) * np.float64(T.boost[q]))) + np.float64(f32(np.float64(noise) * 0.5)))
    else:
        keen = f32(0.0)
    coin = chance.uniform(key(X, NOISE_BOOST, p))  # drawn whether or not the car may Boost
    boost = may and coin < keen
    if boost:
        pay_heat(T, S, g, p, cost)
        S.boosts[g, p] += 1
        more = flip(T, S, X, g, p, 1, FLIP_BOOST)
        speed += more
        place(T, S, g, p, np.int64(S.pos[g, p]) + more)
        say(X, SAY_BOOST, p, more, S.pos[g, p], 0, 0, 0, 0, 0, -1)
    return speed


@jit
def direct_play(T, S, X, g, p, start, speed):
    """Direct Play: a card in hand that may be played from there, copy by copy,
    as if played: its Heat paid first (only from an Engine that holds it), its
    Speed on the turn's (the car moves on, the corners check the whole), its
    icons with the turn's (scrap now, the rest in their steps), not one of the
    gear's cards. A bot plays it where the move keeps the corners payable and
    the spaces are worth the Heat it costs and adds (its `fits`; a card of no
    Speed and no Heat, for its icons, always); the random bot tosses a coin.
    Returns the Speed."""
    hand, effects = S.hand[g, p], T.card_effects
    q = S.bots[g, p]
    for i in range(T.direct_cards.shape[0]):
        k = T.direct_cards[i]
        while hand[k] > 0:
            cost = T.heat_cost[k]
            if S.engine[g, p] < cost:
                break
            gain = T.speed[k]
            if T.is_choice[k]:  # (no published card: a designer's) its lowest choice
                gain = 1 << 30
                for o in range(T.choices.shape[1]):
                    if T.choices[k, o] >= 0:
                        gain = min(gain, T.choices[k, o])
            now = np.int64(S.pos[g, p])
            land = np.int64(free_space(T, S, g, p, now + gain))  # (a full space: it stops behind, its Speed whole)
            if T.noise[q] >= 1:
                want = chance.uniform(key(X, NOISE_DIRECT, p)) < 0.5
            elif gain > 0 and land <= now:  # Speed for no space: Heat at the corners for nothing
                want = False
            else:  # the spaces gained less the card's own Heat, at the bot's price of a Heat
                worth = np.float64(land - now) - np.float64(T.heat_value[q]) * cost
                want = fits(T, S, g, p, start, speed, land, speed + gain, cost, worth, gain > 0 or cost > 0)
            if not want:
                break
            hand[k] -= 1
            S.play[g, p, k] += 1
            S.played[g, p, k] += 1
            event(X, g, p, k, EV_PLAY, S.round[g], -1)
            if cost:
                pay_heat(T, S, g, p, cost)
            flips = effects[k, FX_FLIPS]
            gain += flip(T, S, X, g, p, flips, FLIP_PLAYED)
            S.flipped[g, p] += flips
            S.cooldown_bonus[g, p] += effects[k, FX_COOLDOWN]
            S.slip_bonus[g, p] += effects[k, FX_SLIPSTREAM]
            S.corner_mod[g, p] += effects[k, FX_CORNER]
            S.stress_out[g, p] += effects[k, FX_STRESS]
            S.super_cool[g, p] += effects[k, FX_SUPER_COOL]
            S.draft[g, p] += effects[k, FX_DRAFT]
            S.salvage[g, p] += effects[k, FX_SALVAGE]
            S.accelerate[g, p] += effects[k, FX_ACCELERATE]
            if effects[k, FX_SCRAP] > 0:
                scrap(S, X, g, p, effects[k, FX_SCRAP])
            speed += gain
            place(T, S, g, p, now + gain)
            say(X, SAY_DIRECT, p, k, gain, S.pos[g, p], cost, 0, 0, 0, -1)
    return speed


@jit
def accelerating(T, S, X, g, p, start, speed):
    """Accelerate: +1 Speed (and a space) for each card flipped this turn, for
    each Accelerate icon played; taken where the spaces it lands ahead keep the
    corners payable and beat the Heat they add, as Adrenaline's +1 (the random
    bot: a coin). Returns the Speed."""
    n = np.int64(S.accelerate[g, p]) * np.int64(S.flipped[g, p])
    if n <= 0:
        return speed
    now = np.int64(S.pos[g, p])
    land = np.int64(free_space(T, S, g, p, now + n))
    if T.noise[S.bots[g, p]] >= 1:
        want = chance.uniform(key(X, NOISE_ACCELERATE, p)) < 0.5
    else:  # the spaces it lands ahead, its Speed whole at the corners (as Adrenaline's +1, a slipstream)
        want = land > now and fits(T, S, g, p, start, speed, land, speed + n, 0, land - now, True)
    if want:
        place(T, S, g, p, now + n)
        say(X, SAY_ACCELERATE, p, n, S.pos[g, p], 0, 0, 0, 0, 0, -1)
        speed += n
    return speed


@jit
def salvaging(T, S, X, g, p):
    """Salvage: up to N cards from the discard pile shuffled into the draw deck
    (a bag: their counts join it), the bot's best first, only cards it would
    keep in hand (worth its `discard_below` or more; never Heat or Stress),
    and only with Heat to spare and none on the discard pile."""
    q = S.bots[g, p]
    below = T.discard_below[q]
    discard, deck = S.discard[g, p], S.deck[g, p]
    # cards salvaged into the deck put off the reshuffle that brings the discard pile's Heat back: only with
    # Heat to spare in the Engine and none waiting there (docs/bots.md: salvaging at will cost a Fuel's holder
    # 3.7 points in France)
    spare = S.engine[g, p] >= T.reserve[q] + REFRESH_SPARE and discard[T.heat_card] == 0
    left = np.int64(S.salvage[g, p]) if spare else 0
    moved = 0
    row = new_row(X)  # (a fresh row: zeros)
    while left > 0:
        pick, best = -1, NEG_INF
        for k in range(discard.shape[0]):
            keeps = discard[k] > 0 and T.playable[k] and k != T.stress_card and T.value[k] >= below
            if keeps and T.value[k] > best:
                pick, best = k, np.float64(T.value[k])
        if pick < 0:
            break
        discard[pick] -= 1
        deck[pick] += 1
        left -= 1
        moved += 1
        if 0 <= row < X.rows.shape[0]:
            X.rows[row, pick] += 1
    declined = 0 if spare else (1 if discard[T.heat_card] > 0 else 2)  # (the trace's reason for no card)
    say(X, SAY_SALVAGE, p, moved, S.salvage[g, p], declined, 0, 0, 0, 0, row)


@inline
def drafting(T, S, X, g, p, start, speed):
    """Draft: onto the space right behind the next car ahead, every space on the
    way empty (the next car ahead is the nearest, so they are), when the Draft
    reaches it and the corners stay payable; allowed over the finish line."""
    reach = np.int64(S.draft[g, p])
    if reach <= 0:
        return
    P = S.pos.shape[1]
    pos = np.int64(S.pos[g, p])
    ahead = np.int64(1 << 30)
    for o in range(P):
        if o != p and not S.finished[g, o] and S.pos[g, o] > pos:
            ahead = min(ahead, np.int64(S.pos[g, o]))
    land = ahead - 1
    if ahead == 1 << 30 or land <= pos or land - pos > reach:
        return
    if fits(T, S, g, p, start, speed, land, speed, 0, land - pos, True):
        place(T, S, g, p, land)
        say(X, SAY_DRAFTING, p, land - pos, S.pos[g, p], 0, 0, 0, 0, 0, -1)


@inline
def slipstream(T, S, X, g, p, start, speed):
    """Beside or right behind another car: may move the slipstream spaces on
    (never over the finish line), when the corners stay payable and worth it."""
    P = S.pos.shape[1]
    pos = np.int64(S.pos[g, p])
    beside = False
    at, finished = S.pos[g], S.finished[g]
    for o in range(P):
        if o != p and not finished[o] and (at[o] == pos or at[o] == pos + 1):
            beside = True
    distance = T.slipstream + np.int64(S.slip_bonus[g, p])
    if T.weather_module:  # a slipstream's sector: where it starts
        here = sector_of(T, pos)
        if S.sector[g, here, SEC_NO_SLIPSTREAM_START]:
            return
        distance += S.sector[g, here, SEC_SLIPSTREAM]
    if not (beside and pos + distance < T.finish and distance > 0):
        return
    if T.championship and not T.slip_gear[S.gear[g, p]]:  # an Event may allow slipstreaming only in some gears
        return
    q = S.bots[g, p]
    safe = fits(T, S, g, p, start, speed, pos + distance, speed, 0, distance, True)
    noise = np.float64(T.noise[q])
    a = f32(1.0 - noise) if safe else f32(0.0)
    b = f32(noise * np.float64(chance.uniform(key(X, NOISE_SLIPSTREAM, p))))
    if f32(np.float64(a) + np.float64(b)) > 0.5:
        place(T, S, g, p, pos + distance)
        if S.pos[g, p] > pos:  # (every spot up to the car's own taken: no slipstream after all)
            S.slipstreams[g, p] += 1
            say(X, SAY_SLIPSTREAM, p, S.pos[g, p], 0, 0, 0, 0, 0, 0, -1)


@inline
def take_stress(S, g, owed):
    """Stress from the box: all that is owed, or what is left of it."""
    if S.stress_supply[g] >= 0:
        given = min(owed, max(np.int64(S.stress_supply[g]), 0))
        S.stress_supply[g] -= given
    else:
        given = owed
    S.stress_short[g] += owed - given
    return given


@inline
def check_corners(T, S, X, g, p, start, speed):
    """Each corner line crossed, in order: Heat for every point of Speed over
    the limit; unable to pay, the car spins out (before that corner, Stress
    into hand by gear, gear 1) and checks no further corner."""
    end = np.int64(S.pos[g, p])
    if end >= T.finish:
        return
    first = next_corner(T.corner_at, start)
    count = next_corner(T.corner_at, end) - first
    mod = np.int64(S.corner_mod[g, p])  # the car's own corner-limit cards this round
    for j in range(count):
        at = min(first + j, T.corners)
        limit = np.int64(S.limit[g, at])
        over = speed - (limit + mod)
        if over <= 0:
            continue
        extra = np.int64(S.overheat[g, at])  # an Overheat corner: more Heat than the excess
        over += extra
        corner = at % T.lap_corners
        paying = S.engine[g, p] >= over
        spent = np.int64(S.engine[g, p]) if not paying and T.spin_out_pays_engine else 0  # rules.spin_out_heat
        say(X, SAY_CORNER, p, limit, speed, over, paying, extra, spent, mod, -1)
        if paying:
            pay_heat(T, S, g, p, over)
            S.corner_heat[g, p] += over
            S.corner_paid[g, corner] += over
        else:
            S.corner_spins[g, corner] += 1
            if spent:  # rules.spin_out_heat: engine (BGA's reading): all it has, and out all the same
                pay_heat(T, S, g, p, spent)
                S.corner_heat[g, p] += spent
                S.corner_paid[g, corner] += spent
            stress = take_stress(S, g, T.spin_out_stress[S.gear[g, p]])
            S.hand[g, p, T.stress_card] += stress
            S.stress_added[g, p] += stress
            S.gear[g, p] = T.spin_out_gear
            S.spin_outs[g, p] += 1
            place(T, S, g, p, T.corner_at[at] - 1)
            if T.eliminate:  # an Event: a spin-out puts the car out of the race, off the track
                S.out[g, p] = True
                S.finished[g, p] = True
                say(X, SAY_OUT, p, 0, 0, 0, 0, 0, 0, 0, -1)
            return


@jit
def sponsorship(T, S, X, g, p, start, slip_from, speed):
    """The Sponsorship cards a turn gains, none in a turn it spun out (the
    caller's check): each Press Corner crossed in the slipstream, or at a
    Speed of its limit (Road Conditions included, the car's own card
    modifiers not) plus press_margin, gains press_cards (an Event may ask for
    a Speed below the limit instead); an Event may add a card for a record
    Speed, for completing lap 1 among the first cars, or for passing cars."""
    end = np.int64(S.pos[g, p])
    pressed = presses(
        T.corner_at, S.limit[g], T.press, T.finish, start, end, speed, T.press_margin, T.press_below, slip_from
    )
    S.presses[g, p] += pressed
    n = pressed * T.press_cards
    P = S.pos.shape[1]
    record, lap_one, passing = 0, 0, 0
    if T.record_speed and speed >= T.record_speed:
        record = 1
    if T.first_to_lap and start < T.spaces <= end:
        before = 0
        for o in range(P):
            if o != p and not S.out[g, o] and S.pos[g, o] >= T.spaces:
                before += 1
        if before < T.first_to_lap:
            lap_one = 1
    if T.pass_cars:
        passed = 0
        for o in range(P):
            if o != p and not S.finished[g, o] and start < S.pos[g, o] < end:
                passed += 1
        if passed >= T.pass_cars:
            passing = 1
    n += record + lap_one + passing
    if n:
        gain_sponsors(S, X, g, p, n, True, pressed, record, lap_one, passing)


@inline
def discard_step(T, S, g, p):
    """Optional discard: playable cards worth less than the bot's `discard_below`
    (never Stress or Heat)."""
    if T.any_tunnel and T.tunnel[np.int64(S.pos[g, p]) % T.spaces]:  # no discarding in a tunnel
        return
    if T.championship and (T.discards_max >= 0 or T.discard_heat or T.discard_stress):
        event_discards(T, S, g, p)
        return
    below = T.discard_below[S.bots[g, p]]
    playable, value, stress_card = T.playable, T.value, T.stress_card
    hand, discard = S.hand[g, p], S.discard[g, p]
    for k in range(hand.shape[0]):
        if playable[k] and k != stress_card and value[k] < below:
            discard[k] += hand[k]
            hand[k] = 0


@jit
def event_discards(T, S, g, p):
    """The discard step under an Event that allows Heat or Stress, or caps the
    cards discarded: one card at a time, the least worth first (Heat beyond
    what the gear's Cooldown returns next turn, then Stress, then the
    playable cards below the bot's `discard_below`), up to the cap."""
    below = T.discard_below[S.bots[g, p]]
    playable, value, stress_card, heat_card = T.playable, T.value, T.stress_card, T.heat_card
    hand, discard = S.hand[g, p], S.discard[g, p]
    keep_heat = min(np.int64(hand[heat_card]), np.int64(T.cooldown[S.gear[g, p]]))
    budget = T.discards_max if T.discards_max >= 0 else 1 << 30
    while budget > 0:
        pick, low = -1, np.inf
        for k in range(hand.shape[0]):
            n = np.int64(hand[k]) - (keep_heat if k == heat_card else 0)
            if n <= 0:
                continue
            if k == heat_card:
                ok, v = T.discard_heat, -2.0
            elif k == stress_card:
                ok, v = T.discard_stress, -1.0
            else:
                ok, v = playable[k] and value[k] < below, np.float64(value[k])
            if ok and v < low:
                pick, low = k, v
        if pick < 0:
            break
        hand[pick] -= 1
        discard[pick] += 1
        budget -= 1


@jit
def car_turn(T, S, X, g, p, last):
    """A player car's turn: reveal and move, Adrenaline (the last cars), React
    (Cooldown, Boost), Slipstream, corner checks, discard, replenish."""
    S.turns[g, p] += 1
    start = np.int64(S.pos[g, p])
    if S.overheated[g, p]:  # no move, back to gear 1, the played cards (Heat among them) discarded
        say(X, SAY_OVERHEATED, p, 0, 0, 0, 0, 0, 0, 0, -1)
        S.gear[g, p] = T.spin_out_gear
        S.overheats[g, p] += 1
    else:
        speed = reveal(T, S, X, g, p)
        place(T, S, g, p, start + speed)
        say(X, SAY_SPEED, p, speed, start, S.pos[g, p], 0, 0, 0, 0, -1)
        cool_more = 0
        if last:  # Adrenaline: +1 speed where worth it, else (or also) Cooldown 1
            step = T.adrenaline_speed
            now = np.int64(S.pos[g, p])
            worth = fits(T, S, g, p, start, speed, now + step, speed + step, 0, step, True)
            coin = chance.uniform(key(X, NOISE_ADRENALINE, p)) < 0.5
            faster = coin if T.noise[S.bots[g, p]] >= 1 else worth
            cooler = T.adrenaline_both or not faster
            if faster:
                speed += T.adrenaline_speed
            if cooler:
                cool_more += T.adrenaline_cooldown
            S.adrenaline[g, p] += 1
            if faster:
                place(T, S, g, p, np.int64(S.pos[g, p]) + T.adrenaline_speed)
            say(X, SAY_ADRENALINE, p, faster, cooler, 0, 0, 0, 0, 0, -1)
        speed = react(T, S, X, g, p, start, speed, cool_more)
        champ = T.championship  # (its reads only where it counts: the hot path, scripts/bench_heat.py)
        slip_from = np.int64(S.pos[g, p]) if champ else 0
        spins = np.int64(S.spin_outs[g, p]) if champ else 0
        slipstream(T, S, X, g, p, start, speed)
        check_corners(T, S, X, g, p, start, speed)
        if champ and S.spin_outs[g, p] == spins:
            sponsorship(T, S, X, g, p, start, slip_from, speed)
        discard_step(T, S, g, p)
    laps_done(T, S, X, g, p)  # (before the refill: an Event's Heat out of the hand leaves no gap in it)
    # replenish: the played cards to the discard (a Sponsorship card back to the sponsor pile), draw up to
    # the hand size (Sponsorship cards gained this turn count: the hand may hold more only if they outnumber
    # the cards played)
    hand, play, discard = S.hand[g, p], S.play[g, p], S.discard[g, p]
    if T.championship:
        for k in range(hand.shape[0]):
            if T.is_sponsor[k] and play[k]:
                own = min(np.int64(play[k]), np.int64(S.bonus[g, p, k]))  # strength's extra copy leaves the game
                S.bonus[g, p, k] -= own
                S.sponsors[g, k] += play[k] - own
                S.received[g, p, k] -= play[k] - own
                play[k] = 0
    if T.any_react_ops and not S.overheated[g, p]:  # the discard step's Refresh: onto the deck, drawn first
        refresh(T, S, X, g, p)
    held = 0
    for k in range(hand.shape[0]):
        discard[k] += play[k]
        play[k] = 0
        held += hand[k]
    draw(S, X, g, p, T.hand_size - held, DRAW_REPLENISH)


@jit
def refresh(T, S, X, g, p):
    """Refresh, in the discard step: a played card with the icon goes on top of
    the draw deck instead of the discard pile where the bot would keep it in
    hand (worth its `discard_below` or more) and its Engine holds REFRESH_SPARE
    Heat beyond its reserve, and the refill draws it first
    (here: into the hand at once, the refill drawing the rest). Our deck is a
    bag with no top: a refreshed card the refill has no room for joins the
    deck (docs/rules.md)."""
    hand, play = S.hand[g, p], S.play[g, p]
    q = S.bots[g, p]
    below = T.discard_below[q]
    # a card refreshed is a card not drawn, and the draws bring Heat back to the hand to cool: only with Heat
    # to spare (docs/bots.md: refreshing a Suspension 4 at any Engine cost its holder 3.4 points in France)
    spare = S.engine[g, p] >= T.reserve[q] + REFRESH_SPARE
    room = T.hand_size
    for k in range(hand.shape[0]):
        room -= hand[k]
    for k in range(play.shape[0]):
        n = np.int64(play[k])
        if n <= 0 or T.card_effects[k, FX_REFRESH] <= 0 or T.value[k] < below or not spare:
            continue
        play[k] = 0
        back = min(n, max(room, 0))
        hand[k] += back
        S.deck[g, p, k] += n - back
        room -= back
        say(X, SAY_REFRESH, p, k, n, back, 0, 0, 0, 0, -1)


@inline
def turn_order(S, g, order):
    """Cars by position, frontmost first, the race line before lane 1; finished
    cars last (a stable sort, as argsort kind="stable" of the negated key)."""
    P = S.pos.shape[1]
    keys = np.zeros(P, np.int64)
    for p in range(P):
        keys[p] = FAR_BELOW if S.finished[g, p] else np.int64(S.pos[g, p]) * 2 + (1 if S.lane[g, p] == 0 else 0)
        order[p] = p
    for i in range(1, P):  # insertion sort, descending, stable
        p = order[i]
        j = i
        while j > 0 and keys[order[j - 1]] < keys[p]:
            order[j] = order[j - 1]
            j -= 1
        order[j] = p


@jit
def play_round(T, S, X, g, order):
    P = S.pos.shape[1]
    S.round[g] += 1
    for p in range(P):
        S.corner_mod[g, p] = 0
        S.slip_bonus[g, p] = 0
        S.cooldown_bonus[g, p] = 0
        S.super_cool[g, p] = 0
        S.stress_out[g, p] = 0
        S.draft[g, p] = 0
        S.salvage[g, p] = 0
        S.accelerate[g, p] = 0
        S.flipped[g, p] = 0
        S.overheated[g, p] = False
    card = legend_card(S, X, g)
    say(X, SAY_ROUND, S.round[g], 0, 0, 0, 0, 0, 0, 0, -1)
    if X.tracing and X.verbose:
        K = S.deck.shape[2]
        row = new_row(X)
        for p in range(P):
            for k in range(K):
                put(X, row, p * K + k, S.hand[g, p, k])
        say(X, SAY_HANDS, P, 0, 0, 0, 0, 0, 0, 0, row)
    plan_round(T, S, X, g)
    turn_order(S, g, order)
    racing = 0
    for p in range(P):
        if not S.finished[g, p]:
            racing += 1
    for i in range(racing):
        p = order[i]
        pos_before, spins_before = S.pos[g, p], S.spin_outs[g, p]
        if S.is_legend[g, p]:
            legend_turn(T, S, X, g, p, card)
        else:
            car_turn(T, S, X, g, p, i >= racing - T.adrenaline_cars)
        if X.broken[0] and X.broken[1] == 0:
            rule = rule_broken(T, S, g, p, pos_before, spins_before)
            if rule:
                X.broken[1], X.broken[2], X.broken[3], X.broken[4] = rule, g, S.round[g], p
    # Cars that crossed the finish line leave the track at the end of the round.
    done = True
    crossed, row = 0, -1
    for p in range(P):
        if not S.finished[g, p] and S.pos[g, p] >= T.finish:
            S.finished[g, p] = True
            S.finish_round[g, p] = S.round[g]
            if X.tracing:
                if crossed == 0:
                    row = new_row(X)
                put(X, row, crossed, p)
            crossed += 1
        done = done and S.finished[g, p]
    if crossed:
        say(X, SAY_FINISHED, crossed, 0, 0, 0, 0, 0, 0, 0, row)
    if done:
        S.running[g] = False


@jit
def play_race(T, S, X, g, bonus_card, bonus_who, carry):
    order = np.zeros(S.pos.shape[1], np.int64)
    setup(T, S, X, g, bonus_card, bonus_who, carry)
    for _ in range(T.max_rounds):
        if not S.running[g]:
            break
        chance.next_step(X.draws)  # a round is a step
        play_round(T, S, X, g, order)
    S.running[g] = False


# --- the rules checker, after every turn -------------------------------------

RULES = (
    "negative count in a pile",
    "negative Heat in an Engine",
    "cards not conserved (deck, hand, play, discard, Engine)",
    "spin-outs by corner do not add up",
    "corner Heat by corner does not add up",
    "gear out of range",
    "lane out of range",
    "a hand above the hand size (Stress from spin-outs aside)",
    "a finished car short of the finish line",
    "two cars on one spot",
    "cards left in a play area after the car's turn",
    "a car moved back without spinning out",
    "Sponsorship cards not conserved (the sponsor pile and the cars')",
)


@jit
def rule_broken(T, S, g, acted, pos_before, spins_before):
    """The first rule of RULES (1-based) race g's state breaks after car `acted`'s
    turn (it stood on `pos_before` with `spins_before` spin-outs); 0 none."""
    P, K = S.deck.shape[1], S.deck.shape[2]
    for p in range(P):
        for k in range(K):
            if S.deck[g, p, k] < 0 or S.hand[g, p, k] < 0 or S.play[g, p, k] < 0 or S.discard[g, p, k] < 0:
                return 1
    for p in range(P):
        if S.engine[g, p] < 0:
            return 2
    for p in range(P):
        for k in range(K):
            owned = np.int64(S.deck[g, p, k]) + S.hand[g, p, k] + S.play[g, p, k] + S.discard[g, p, k]
            expected = 0
            if not S.is_legend[g, p]:
                expected = T.starting_deck[k] + S.drafted[g, p, k] + S.bonus[g, p, k] + S.received[g, p, k]
                if k == T.heat_card:
                    owned += S.engine[g, p]
                    expected += T.track_heat + S.weather_heat[g]
                if k == T.stress_card:
                    expected += S.weather_stress[g]
            elif k == T.heat_card:
                owned += S.engine[g, p]
            if k == T.stress_card:
                expected += S.stress_added[g, p]
            if owned != expected:
                return 3
    spins, paid = 0, 0
    for c in range(S.corner_spins.shape[1]):
        spins += S.corner_spins[g, c]
        paid += S.corner_paid[g, c]
    for p in range(P):
        spins -= S.spin_outs[g, p]
        paid -= S.corner_heat[g, p]
    if spins != 0:
        return 4
    if paid != 0:
        return 5
    for p in range(P):
        if S.gear[g, p] < 1 or S.gear[g, p] > T.gears:
            return 6
    for p in range(P):
        if S.lane[g, p] < 0 or S.lane[g, p] >= T.lanes:
            return 7
    for p in range(P):
        held = 0
        for k in range(K):
            if k != T.stress_card and not T.is_sponsor[k]:  # Sponsorship cards gained come on top
                held += S.hand[g, p, k]
        if held > T.hand_size:
            return 8
    for p in range(P):
        if S.finished[g, p] and S.pos[g, p] < T.finish and not S.out[g, p]:
            return 9
    for p in range(P):
        for o in range(p + 1, P):
            on_track = not S.finished[g, p] and not S.finished[g, o]
            if on_track and S.pos[g, p] == S.pos[g, o] and S.lane[g, p] == S.lane[g, o]:
                return 10
    for k in range(K):
        if S.play[g, acted, k] != 0:
            return 11
    if S.pos[g, acted] < pos_before and S.spin_outs[g, acted] <= spins_before:
        return 12
    if T.championship:
        for k in range(K):
            if not T.is_sponsor[k]:
                continue
            total = np.int64(S.sponsors[g, k])
            for p in range(P):
                total += np.int64(S.deck[g, p, k]) + S.hand[g, p, k] + S.play[g, p, k] + S.discard[g, p, k]
                total -= S.bonus[g, p, k]  # (strength's extra copy is not the pile's)
            if total != T.sponsor_pile[k]:
                return 13
    return 0


@jit
def scratch_for(K, gears):
    """The phases' scratch for K card kinds (structs.GAME_FIELDS from `taken` on), made once for a batch's races:
    a plan per gear and variant (plain; corner-limit cards first; crawling, under an eliminating Event)."""
    plans = 3 * gears
    return (
        np.empty(64, np.int64),
        np.zeros(K, np.int64),
        np.zeros(K, np.float32),
        np.zeros(K, np.float64),
        np.zeros((plans, K), np.int64),
        np.zeros(plans, np.int64),
        np.zeros(plans, np.float32),
        np.zeros(K, np.int64),
        np.zeros(K, np.int64),
        np.zeros(K, np.int64),
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
    bonus_who,
    carry,
):
    """Races start..stop-1 of the batch, one after another; returns the race
    whose card events did not fit in `events` (stop: every race played), its
    events unwritten. `broken`: [check?, rule, race, round, car] of the first
    rule broken; race `watch` (-1 none) says what it does into `trace` and
    `rows` (`verbose`: the hands too), counted past their ends when they are short."""
    scratch = scratch_for(S.deck.shape[2], T.gears)
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
            broken,
            g == watch,
            verbose,
            trace,
            trace_n,
            rows,
            rows_n,
            scratch[0],
            scratch[1],
            scratch[2],
            scratch[3],
            scratch[4],
            scratch[5],
            scratch[6],
            scratch[7],
            scratch[8],
            scratch[9],
        )
        play_race(T, S, X, g, bonus_card, bonus_who, carry)
        if written[0] > events.shape[0]:
            written[0] = before
            return g
    return stop
