"""A round of Heat for a batch of races (rulebook "Gameplay", "Turn Steps",
"Legends", "Winning"), and the loop of rounds around it.

All cars choose at once (plan.py); then the cars take their turns in order of
position, frontmost first and the race line ahead on a shared space. Slot i
of that order is one car per race: every step below works on `g` (n,) races
and `p` (n,) the car whose turn it is there.
"""

from __future__ import annotations

from collections.abc import Callable

import numpy as np

from .. import chance
from ..recorder import hands_text
from . import vocabulary as V
from .moves import draw, flip, pay_heat, place
from .plan import plan_round
from .race import Race
from .state import State


def turn_order(st: State) -> np.ndarray:
    """(G, P) cars by position: frontmost first, the race line before lane 1;
    cars that have finished last (they no longer take turns)."""
    key = st.pos.astype(np.int32) * 2 + (st.lane == 0)
    key = np.where(st.finished, -(1 << 30), key)  # not int32's minimum: its negation overflows
    return np.argsort(-key, axis=1, kind="stable")


def draw_legend_cards(race: Race, st: State) -> np.ndarray:
    """(G,) the Legend card of this round in each running race (one for all its
    Legends), the deck reshuffled when empty; -1 where a race has no Legend."""
    g = np.flatnonzero(st.running & (st.is_legend & ~st.finished).any(axis=1))
    card = np.full(st.running.shape[0], -1)
    if len(g):
        deck = st.legend_deck[g]
        empty = deck.sum(axis=1) == 0
        deck[empty] = 1
        card[g] = chance.draw_one(race.streams.key(g, "legend card"), deck, np.ones(len(g), bool))
        st.legend_deck[g] = deck
    return card


def legend_turn(race: Race, st: State, g: np.ndarray, p: np.ndarray, card: np.ndarray) -> None:
    """A Legend moves by the round's Legend card, using no Heat: between a
    corner's Legend line and the corner, at the corner's limit plus the card's
    bonus (it may fall short of the corner); before that line, the card's
    straight speed but no further than the space before the corner; with the
    finish closer than any corner, the straight speed."""
    if len(g) == 0:
        return
    c, legends = race.course, race.tables.legends
    pos = st.pos[g, p].astype(np.int32)
    nxt = c.next_corner(pos)
    to_line = c.corner_at[nxt] - pos
    near = pos >= c.legend_at[nxt]
    straight = legends.speed[card].astype(np.int32)
    move = np.where(near, c.limit[nxt] + legends.corner_bonus[card], np.minimum(straight, to_line - 1))
    move = np.where(c.finish - pos <= to_line, straight, move)
    # A Legend crosses at most one corner line a move (Aggressive Legends: one more):
    # it stops before the line after the next one.
    extra = 1 if race.tables.rules.aggressive_legends else 0
    stop = c.corner_at[np.minimum(nxt + 1 + extra, c.corners)] - 1
    move = np.minimum(move, stop - pos)
    st.turns[g, p] += 1
    place(race, st, g, p, pos + move)
    laps_done(race, st, g, p)
    if race.rec.on:
        race.rec.say(
            g,
            lambda j: (
                f"  car {p[j]} (Legend; its card: straight {straight[j]}, corners +{legends.corner_bonus[card[j]]}): "
                f"speed {move[j]}, {pos[j]} -> {st.pos[g[j], p[j]]}"
            ),
        )


def fits(
    race: Race, st: State, g, p, start, speed, to: np.ndarray, new_speed: np.ndarray, cost=0, gain=None
) -> np.ndarray:
    """(n,) bool: the bot may go on to space `to` at `new_speed` (paying `cost`
    Heat first): the Heat then owed for this turn's corners is payable, and
    what it adds stays within the bot's allowance (`risk` of the Engine's Heat
    above `reserve`). With `gain` (n,) spaces: also worth it, the spaces beating
    `heat_value` times the Heat it adds (the bots' price of an optional move)."""
    c, bots = race.course, race.bots
    q = st.bots[g, p]
    engine = st.engine[g, p].astype(np.int32) - cost
    mod = st.corner_mod[g, p]
    owed = c.heat_due(start, st.pos[g, p], speed, mod)
    owed_then = c.heat_due(start, to, new_speed, mod)
    allowance = np.floor(bots.risk[q] * np.maximum(engine - owed - bots.reserve[q], 0))
    ok = (owed_then <= engine) & (owed_then - owed <= allowance)
    return ok if gain is None else ok & (gain > bots.heat_value[q] * (owed_then - owed))


def car_turn(race: Race, st: State, g: np.ndarray, p: np.ndarray, last: np.ndarray) -> None:
    """A player car's turn: reveal and move, Adrenaline (the last cars), React
    (Cooldown, Boost), Slipstream, corner checks, discard, replenish."""
    if len(g) == 0:
        return
    rules = race.tables.rules
    st.turns[g, p] += 1
    start = st.pos[g, p].astype(np.int32)
    stuck = st.overheated[g, p]
    go, gs, ps = ~stuck, g[~stuck], p[~stuck]
    if race.rec.on:
        race.rec.say(g[stuck], lambda j: f"  car {p[stuck][j]}: overheated, does not move; back to gear 1")

    speed = reveal(race, st, gs, ps)
    place(race, st, gs, ps, start[go] + speed)
    if race.rec.on:
        race.rec.say(gs, lambda j: f"  car {ps[j]}: speed {speed[j]}, {start[go][j]} -> {st.pos[gs[j], ps[j]]}")

    # Adrenaline: +1 speed (one more space) or Cooldown 1, or both
    adrenaline = last[go]
    cool_more = np.zeros(len(gs), np.int16)
    if adrenaline.any():
        both = V.ADRENALINE_MODES[rules.adrenaline_mode] == "both"
        now = st.pos[gs, ps]
        step = rules.adrenaline_speed
        # "You may": +1 only where it is worth it by the bot's own values (its corners
        # stay payable within its allowance, and the space beats the Heat it adds);
        # else (or also, with mode both) Cooldown 1. The random bot picks at random.
        a = np.flatnonzero(adrenaline)  # only the last cars choose
        worth = np.zeros(len(gs), bool)
        worth[a] = fits(race, st, gs[a], ps[a], start[go][a], speed[a], now[a] + step, speed[a] + step, gain=step)
        coin = np.zeros(len(gs), bool)
        coin[a] = chance.uniform(race.streams.key(gs[a], "noise: adrenaline", ps[a])) < 0.5
        faster = adrenaline & np.where(race.bots.noise[st.bots[gs, ps]] >= 1, coin, worth)
        cooler = adrenaline & (both | ~faster)
        speed = speed + faster * rules.adrenaline_speed
        cool_more += cooler * rules.adrenaline_cooldown
        st.adrenaline[gs[adrenaline], ps[adrenaline]] += 1
        f = np.flatnonzero(faster)
        place(race, st, gs[f], ps[f], st.pos[gs[f], ps[f]] + rules.adrenaline_speed)
        if race.rec.on:
            race.rec.say(
                gs[adrenaline],
                lambda j: (
                    f"  car {ps[adrenaline][j]}: Adrenaline, "
                    + ("+1 speed" if faster[adrenaline][j] else "")
                    + (" and " if faster[adrenaline][j] and cooler[adrenaline][j] else "")
                    + ("Cooldown 1" if cooler[adrenaline][j] else "")
                ),
            )

    speed = react(race, st, gs, ps, start[go], speed, cool_more)
    slipstream(race, st, gs, ps, start[go], speed)
    check_corners(race, st, gs, ps, start[go], speed)
    discard_step(race, st, gs, ps)

    # Overheated cars: no move, back to gear 1, the played cards (Heat among them) discarded.
    st.gear[g[stuck], p[stuck]] = rules.spin_out_gear
    st.overheats[g[stuck], p[stuck]] += 1
    replenish(race, st, g, p)
    laps_done(race, st, g, p)


def reveal(race: Race, st: State, g: np.ndarray, p: np.ndarray) -> np.ndarray:
    """The played cards turned face up: (n,) Speed, with choice cards set, flips
    made, card Heat paid and the cards' other effects noted for later steps."""
    cards = race.tables.cards
    play = st.play[g, p].astype(np.int32)  # (n, K), before flips add their basic cards
    swapped = pay_card_heat(race, st, g, p, play)  # an unpaid card leaves play for a random speed card
    speed = play @ cards.speed.astype(np.int32)
    if len(race.choice_cards):  # each copy of a choice card: the largest choice that keeps to the target
        target = st.target[g, p].astype(np.int32)
        for k in race.choice_cards:
            options = cards.choices[k][cards.choices[k] >= 0].astype(np.int32)
            for copy in range(int(play[:, k].max(initial=0))):
                has = play[:, k] > copy
                room = target - speed
                fits = np.where(options[None, :] <= room[:, None], options[None, :], -1).max(axis=1)
                speed += np.where(has, np.where(fits >= 0, fits, options.min()), 0)
    speed = speed + flip(race, st, g, p, play @ cards.flips.astype(np.int32) + swapped, "flip: played cards")
    st.cooldown_bonus[g, p] = play @ race.op("cooldown")
    st.slip_bonus[g, p] = play @ race.op("slipstream")
    st.corner_mod[g, p] = play @ race.op("corner_limit")
    scrap(race, st, g, p, play @ race.op("scrap"))
    drop_stress(race, st, g, p, play @ race.op("discard_stress"))
    st.played[g, p] += play.astype(np.int16)
    if race.events is not None:
        rows, kinds = np.nonzero(play)
        copies = play[rows, kinds]
        rows, kinds = np.repeat(rows, copies), np.repeat(kinds, copies)
        race.events.add("play", g[rows], p[rows], kinds, st.round[g[rows]])
    return speed.astype(np.int16)


def pay_card_heat(race: Race, st: State, g: np.ndarray, p: np.ndarray, play: np.ndarray) -> np.ndarray:
    """The Heat of the played cards, copy by copy from the Engine. A card whose
    Heat the Engine cannot pay is discarded and a random speed card played
    instead (facts: "if you cannot, discard it and play a random speed card
    instead"; a flip). `play` (n, K) is updated with st.play; returns (n,)
    the flips owed for the cards discarded."""
    swapped = np.zeros(len(g), np.int32)
    costly = np.flatnonzero(race.heat_cost > 0)
    if len(costly) == 0 or not play[:, costly].any():
        return swapped
    heat = race.tables.heat_card
    for k in costly:
        cost = int(race.heat_cost[k])
        for copy in range(int(play[:, k].max(initial=0))):
            has = play[:, k] > copy
            can = has & (st.engine[g, p] >= cost)
            i = np.flatnonzero(can)
            pay_heat(st, g[i], p[i], np.full(len(i), cost), heat)
            out = np.flatnonzero(has & ~can)
            play[out, k] -= 1
            st.play[g[out], p[out], k] -= 1
            st.discard[g[out], p[out], k] += 1
            swapped[out] += 1
            if race.rec.on:
                race.rec.say(
                    g[out],
                    lambda j, k=k, out=out: (
                        f"  car {p[out][j]}: cannot pay {cost} Heat for {race.tables.cards.names[k]}: "
                        "discards it, plays a random speed card"
                    ),
                )
    return swapped


def scrap(race: Race, st: State, g: np.ndarray, p: np.ndarray, n: np.ndarray) -> None:
    """Cards from the top of the draw deck to the discard (as many as the deck holds)."""
    some = np.flatnonzero(n > 0)
    if len(some):
        gs, ps = g[some], p[some]
        deck = st.deck[gs, ps]
        st.discard[gs, ps] += chance.draw_many(race.streams.key(gs, "scrap", ps), deck, n[some])
        st.deck[gs, ps] = deck


def drop_stress(race: Race, st: State, g: np.ndarray, p: np.ndarray, n: np.ndarray) -> None:
    """Up to n Stress cards from hand to the discard."""
    stress = race.tables.stress_card
    out = np.minimum(n, st.hand[g, p, stress]).astype(np.int16)
    st.hand[g, p, stress] -= out
    st.discard[g, p, stress] += out


def react(race: Race, st: State, g, p, start: np.ndarray, speed: np.ndarray, cool_more: np.ndarray) -> np.ndarray:
    """Cooldown (the gear's, the cards', Adrenaline's) moves Heat from hand to
    the Engine; then Boost, once: pay Heat, flip, add the value to Speed and
    move. A bot boosts (with its `boost` keenness) when even the highest flip
    would keep its corners payable within its allowance."""
    rules, bots, heat = race.tables.rules, race.bots, race.tables.heat_card
    gear = st.gear[g, p]
    cool = np.minimum(rules.cooldown[gear] + st.cooldown_bonus[g, p] + cool_more, st.hand[g, p, heat]).astype(np.int16)
    st.hand[g, p, heat] -= cool
    st.engine[g, p] += cool
    st.cooled[g, p] += cool
    if race.rec.on:  # said as it happens: before a Boost, which may pay with the Heat just cooled
        c = np.flatnonzero(cool)
        race.rec.say(g[c], lambda j: f"  car {p[c][j]}: Cooldown {cool[c][j]}")

    q = st.bots[g, p]
    engine = st.engine[g, p]
    may = rules.boost_allowed[gear] & (engine >= rules.boost_heat)
    top = int(race.tables.cards.speed[race.tables.cards.is_basic].max(initial=0))
    safe = fits(race, st, g, p, start, speed, st.pos[g, p] + top, speed + top, rules.boost_heat)
    # Noise breaks ties between safe choices; it never makes a bot Boost into a corner
    # it cannot pay. The random bot (noise 1) stays a coin flip over the legal moves.
    keen = np.where(bots.noise[q] >= 1, 0.5, safe * ((1 - bots.noise[q]) * bots.boost[q] + bots.noise[q] * 0.5))
    boost = may & (chance.uniform(race.streams.key(g, "noise: boost", p)) < keen)
    b = np.flatnonzero(boost)
    if len(b):
        gb, pb = g[b], p[b]
        pay_heat(st, gb, pb, np.full(len(b), rules.boost_heat), heat)
        st.boosts[gb, pb] += 1
        more = flip(race, st, gb, pb, np.ones(len(b), np.int32), "flip: boost")
        speed = speed.copy()
        speed[b] += more
        place(race, st, gb, pb, st.pos[gb, pb] + more)
        if race.rec.on:
            race.rec.say(gb, lambda j: f"  car {pb[j]}: Boost +{more[j]} -> {st.pos[gb[j], pb[j]]}")
    return speed


def slipstream(race: Race, st: State, g: np.ndarray, p: np.ndarray, start: np.ndarray, speed: np.ndarray) -> None:
    """Beside or right behind another car: may move the slipstream spaces on
    (not added to Speed; never over the finish line). The bot takes it unless
    a corner it would cross at its Speed owes Heat beyond its allowance."""
    c, rules, bots = race.course, race.tables.rules, race.bots
    P = st.pos.shape[1]
    pos = st.pos[g, p].astype(np.int32)
    others = (np.arange(P)[None, :] != p[:, None]) & ~st.finished[g]
    their = st.pos[g].astype(np.int32)
    beside = (others & ((their == pos[:, None]) | (their == pos[:, None] + 1))).any(axis=1)
    distance = rules.slipstream + st.slip_bonus[g, p].astype(np.int32)
    m = np.flatnonzero(beside & (pos + distance < c.finish) & (distance > 0))
    if len(m) == 0:
        return
    g, p, pos, distance, q = g[m], p[m], pos[m], distance[m], st.bots[g[m], p[m]]
    # optional: taken when the corners stay payable and the spaces beat the Heat they add
    safe = fits(race, st, g, p, start[m], speed[m], pos + distance, speed[m], gain=distance)
    want = (1 - bots.noise[q]) * safe + bots.noise[q] * chance.uniform(
        race.streams.key(g, "noise: slipstream", p)
    ) > 0.5
    go = np.flatnonzero(want)
    place(race, st, g[go], p[go], pos[go] + distance[go])
    st.slipstreams[g[go], p[go]] += 1
    if race.rec.on:
        race.rec.say(g[go], lambda j: f"  car {p[go][j]}: slipstreams to {st.pos[g[go][j], p[go][j]]}")


def check_corners(race: Race, st: State, g: np.ndarray, p: np.ndarray, start: np.ndarray, speed: np.ndarray) -> None:
    """Each corner line crossed this turn, in order: Heat for every point of
    Speed over the limit; unable to pay, the car spins out (back before that
    corner, Stress into hand by gear, gear 1) and checks no further corner."""
    c, rules, tables = race.course, race.tables.rules, race.tables
    first, count = c.checked(start, st.pos[g, p].astype(np.int32))
    spun = np.zeros(len(g), bool)
    for j in range(int(count.max(initial=0))):
        at = np.minimum(first + j, c.corners)  # rows past their last crossed corner read the pad
        now = (j < count) & ~spun
        over = np.where(now, speed - (c.limit[at] + st.corner_mod[g, p]), 0)
        engine = st.engine[g, p]
        pay = (over > 0) & (engine >= over)
        crash = (over > 0) & ~pay
        corner = at % c.track.limit.shape[0]  # which corner of the lap
        i = np.flatnonzero(pay)
        pay_heat(st, g[i], p[i], over[i], tables.heat_card)
        st.corner_heat[g[i], p[i]] += over[i].astype(np.int16)
        np.add.at(st.corner_paid, (g[i], corner[i]), over[i].astype(np.int16))
        i = np.flatnonzero(crash)
        if len(i):
            gi, pi = g[i], p[i]
            np.add.at(st.corner_spins, (gi, corner[i]), 1)
            stress = take_stress(st, gi, rules.spin_out_stress[st.gear[gi, pi]].astype(np.int16))
            st.hand[gi, pi, tables.stress_card] += stress
            st.stress_added[gi, pi] += stress
            st.gear[gi, pi] = rules.spin_out_gear
            st.spin_outs[gi, pi] += 1
            place(race, st, gi, pi, c.corner_at[at[i]] - 1)
            spun[i] = True
        if race.rec.on:
            race.rec.say(
                g[now & (over > 0)],
                lambda k, at=at, over=over, pay=pay, now=now: (
                    f"  car {p[now & (over > 0)][k]}: corner (limit {c.limit[at[now & (over > 0)][k]]}) at speed "
                    f"{speed[now & (over > 0)][k]}: "
                    + (
                        f"pays {over[now & (over > 0)][k]} Heat"
                        if pay[now & (over > 0)][k]
                        else f"cannot pay {over[now & (over > 0)][k]} Heat: SPINS OUT"
                    )
                ),
            )


def take_stress(st: State, g: np.ndarray, owed: np.ndarray) -> np.ndarray:
    """(n,) Stress cards given from the box to one car in each of the races `g`
    (distinct): all that is owed, or what is left of rules.stress_supply."""
    limited = st.stress_supply[g] >= 0
    given = np.where(limited, np.minimum(owed, np.maximum(st.stress_supply[g], 0)), owed).astype(np.int16)
    st.stress_supply[g[limited]] -= given[limited]
    st.stress_short[g] += (owed - given).astype(np.int16)
    return given


def discard_step(race: Race, st: State, g: np.ndarray, p: np.ndarray) -> None:
    """Optional discard: the bot drops playable cards worth less than its
    `discard_below` (never Stress or Heat, which cannot be discarded)."""
    tables = race.tables
    droppable = race.playable.copy()
    droppable[tables.stress_card] = False
    below = race.bots.discard_below[st.bots[g, p]]
    drop = droppable[None, :] & (race.value[None, :] < below[:, None])
    if not drop.any():
        return
    hand = st.hand[g, p]
    out = np.where(drop, hand, 0)
    st.hand[g, p] = hand - out
    st.discard[g, p] += out


def replenish(race: Race, st: State, g: np.ndarray, p: np.ndarray) -> None:
    """The played cards to the discard; draw up to the hand size."""
    st.discard[g, p] += st.play[g, p]
    st.play[g, p] = 0
    draw(race, st, g, p, race.tables.rules.hand_size - st.hand[g, p].sum(axis=1), "draw: replenish")


def laps_done(race: Race, st: State, g: np.ndarray, p: np.ndarray) -> None:
    """Record the round of every lap the car has now completed for the first time."""
    spaces = race.course.track.spaces
    laps = st.lap_round.shape[2]
    done = st.pos[g, p][:, None] >= spaces * np.arange(1, laps + 1)[None, :]  # (n, laps)
    new = done & (st.lap_round[g, p] == 0)
    rows, lap = np.nonzero(new)
    st.lap_round[g[rows], p[rows], lap] = st.round[g[rows]]


def play_round(race: Race, st: State, after_turn: Callable[[State, np.ndarray, np.ndarray], None] | None) -> None:
    rules = race.tables.rules
    G, P = st.pos.shape
    st.round[st.running] += 1
    for field in (st.corner_mod, st.slip_bonus, st.cooldown_bonus):
        field[st.running] = 0
    st.overheated[:] = False
    legend_card = draw_legend_cards(race, st)
    if race.rec.on:
        race.rec.say(st.running, lambda j: f"Round {st.round[j]}:")
        race.rec.detail(st.running, lambda j: hands_text(st.hand[j], race.tables.cards.names))
    plan_round(race, st)
    order = turn_order(st)
    racing = (~st.finished).sum(axis=1)  # cars that take a turn this round
    adrenaline = rules.adrenaline_cars[P]  # counted from the cars that started
    for i in range(P):
        g = np.flatnonzero(st.running & (i < racing))
        if len(g) == 0:
            continue
        p = order[g, i]
        legend = st.is_legend[g, p]
        legend_turn(race, st, g[legend], p[legend], legend_card[g[legend]])
        last = i >= racing[g] - adrenaline
        car_turn(race, st, g[~legend], p[~legend], last[~legend])
        if after_turn is not None:
            after_turn(st, g, p)
    # Cars that crossed the finish line leave the track at the end of the round.
    crossed = st.running[:, None] & ~st.finished & (st.pos >= race.course.finish)
    st.finished |= crossed
    st.finish_round[crossed] = np.broadcast_to(st.round[:, None], crossed.shape)[crossed]
    if race.rec.on:
        race.rec.say(
            crossed.any(axis=1),
            lambda j: "  finished: " + ", ".join(f"car {c}" for c in np.flatnonzero(crossed[j])),
        )
    st.running &= ~st.finished.all(axis=1)


def play_race(
    race: Race, st: State, after_turn: Callable[[State, np.ndarray, np.ndarray], None] | None = None
) -> State:
    """Rounds until every car has finished or rules.max_rounds."""
    for _ in range(race.tables.rules.max_rounds):
        if not st.running.any():
            break
        race.streams.next_step()  # a round is a step of every race of the batch (setup drew at step 0)
        play_round(race, st, after_turn)
    st.running[:] = False
    return st
