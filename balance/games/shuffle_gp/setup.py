"""A new batch of games (rulebook "Setup"): one distance card each decides
who goes first (the highest; ours: ties go to the earliest seat among the
tied, then the cards go back and the deck is reshuffled), the driver draft,
each player's two ability decks shuffled together, a hand of three, tire
health 4.

A strength experiment (`balance strength`, scenario `bonus_card`) gives one
seat per game an item: a driver it is given before the draft, or one extra
copy of an ability card in its deck (`Bonus`; docs/strength_shuffle_gp.md)."""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from .. import chance
from .match import Match
from .moves import refill
from .state import State, empty_state


def draft_order(players: int, first: int) -> list[int]:
    """Seats in pick order: clockwise from the first player for the first
    picks, the last player's second pick at once, then counter-clockwise."""
    once = [(first + i) % players for i in range(players)]
    return once + once[::-1]


@dataclass(frozen=True)
class Bonus:
    """A strength experiment's item for one seat of each game: `who` (G,) the
    receiving seat; `driver` a driver index it is given (-1: none), `card` an
    ability card index it gets one extra copy of (-1: none)."""

    who: np.ndarray
    driver: int = -1
    card: int = -1


def setup(m: Match, seats: np.ndarray, bonus: Bonus | None = None) -> State:
    """`seats` (G, P): the bot profile in each seat, clockwise. `bonus`: a
    strength experiment's item (above); None: the plain game."""
    tables, rules = m.tables, m.tables.rules
    G, P = seats.shape
    K, V = len(tables.cards.ids), len(tables.distance.value)
    S = int(tables.distance.count.sum())
    st = empty_state(G, P, K, V, S, rules.equip_slots)
    st.bots[:] = seats
    st.deck[:] = tables.distance.count
    st.pool[:] = rules.trophies
    rows = np.arange(G)

    dealt = np.zeros((G, P), np.int32)
    for p in range(P):
        keys = m.streams.key(rows, "deal for first player", p)
        dealt[:, p] = m.values[chance.draw_one(keys, st.deck, np.ones(G, bool))]
    first_deal = dealt.copy()
    m.say(rows, lambda j: "Setup: distance cards dealt " + ", ".join(f"seat {p}={first_deal[j, p]}" for p in range(P)))
    if rules.first_player_ties == "redeal":
        # equal highest cards: the tied players are dealt again (from what is left), until one is highest
        for _ in range(S):
            top = dealt == dealt.max(axis=1, keepdims=True)
            tied = np.flatnonzero(top.sum(axis=1) > 1)
            if len(tied) == 0:
                break
            m.say(
                tied,
                lambda j, top=top, tied=tied: (
                    "Setup: a tie for the highest card: seats "
                    + ", ".join(str(p) for p in np.flatnonzero(top[tied[j]]))
                    + " are dealt again"
                ),
            )
            for p in range(P):
                redealt = tied[top[tied, p] & (st.deck[tied].sum(axis=1) > 0)]
                deck = st.deck[redealt]
                keys = m.streams.key(redealt, "redeal for first player", p)
                card = chance.draw_one(keys, deck, np.ones(len(redealt), bool))
                dealt[redealt, p] = m.values[card]
                st.deck[redealt] = deck
            dealt[tied] = np.where(top[tied], dealt[tied], -1)  # the others are out of it
            again = dealt.copy()
            m.say(
                tied,
                lambda j, tied=tied, again=again: (
                    "Setup: dealt again "
                    + ", ".join(f"seat {p}={again[tied[j], p]}" for p in range(P) if again[tied[j], p] >= 0)
                ),
            )
    st.deck[:] = tables.distance.count  # the dealt cards go back: the deck is reshuffled (a bag)
    st.first[:] = dealt.argmax(axis=1)  # ties (rules.first_player_ties: lowest_seat): the earliest seat
    st.current[:] = st.first

    D = len(tables.drivers.ids)
    taken = np.zeros((G, D), bool)
    picks = np.full((G, P, 2), -1, np.int64)
    first_card = np.array([int(np.flatnonzero(tables.cards.driver == d)[0]) for d in range(D)])
    given = bonus is not None and bonus.driver >= 0
    if given:
        # the given driver is set aside before the draft (no other seat can draft it) and is the
        # receiving seat's first pick; its second pick, and every other seat's, drafts as usual
        taken[:, bonus.driver] = True
        m.say(
            rows,
            lambda j: f"Setup (strength experiment): seat {bonus.who[j]} is given {tables.drivers.names[bonus.driver]}",
        )
    for pick, slot in enumerate(draft_order(P, 0)):
        which = 0 if pick < P else 1
        p = (st.first.astype(np.int64) + slot) % P
        q = st.bots[rows, p]
        noise = m.bots.noise[q][:, None]
        # drawn for every game even where the pick is given: the same random numbers as the plain game
        u = chance.uniform(m.streams.key(rows, "noise: driver draft", p), D)
        score = (1 - noise) * m.bots.driver_value[q] + noise * u * 4
        d = np.where(taken, -np.inf, score).argmax(axis=1)
        if given and which == 0:
            d = np.where(p == bonus.who, bonus.driver, d)
        taken[rows, d] = True
        picks[rows, p, which] = d
        st.draft_pick[rows, p, which] = pick + 1
        if m.events is not None:
            m.events.add("draft", rows, p, first_card[d], 0, pick=pick + 1)
        m.say(rows, lambda j, p=p, d=d, n=pick + 1: f"  pick {n}: seat {p[j]} takes {tables.drivers.names[d[j]]}")
    # the bot drives the driver it values more; the other is its co-pilot
    value = np.take_along_axis(m.bots.driver_value[st.bots], picks, axis=2)
    lead = value[:, :, 1] > value[:, :, 0]
    if given:  # the given driver (its first pick) drives from the start: its specialty is part of what is measured
        lead[rows, bonus.who] = False
    st.driver[:] = np.where(lead, picks[:, :, 1], picks[:, :, 0])
    st.co_pilot[:] = np.where(lead, picks[:, :, 0], picks[:, :, 1])
    st.draft_pick[:] = np.where(lead[:, :, None], st.draft_pick[:, :, ::-1], st.draft_pick)
    st.tire[:] = rules.tire_health
    st.co_tire[:] = rules.tire_health
    c = tables.cards
    st.start[:] = np.where(
        (c.driver[None, None, :] == st.driver[:, :, None]) | (c.driver[None, None, :] == st.co_pilot[:, :, None]),
        c.count[None, None, :],
        0,
    )
    if bonus is not None and bonus.card >= 0:
        # one extra copy in the receiving seat's deck, whichever drivers it holds: a card of another
        # driver is played like a stolen one ("it's yours now", rulebook FAQ)
        st.start[rows, bonus.who, bonus.card] += 1
        m.say(
            rows,
            lambda j: (
                f"Setup (strength experiment): seat {bonus.who[j]} gets an extra {tables.cards.names[bonus.card]}"
            ),
        )
    st.draw[:] = st.start
    g, p = np.nonzero(np.ones((G, P), bool))
    refill(m, st, g, p)
    names = tables.drivers.names
    m.say(
        rows,
        lambda j: (
            f"Seat {st.first[j]} goes first. Cars: "
            + "; ".join(f"seat {p}: {names[st.driver[j, p]]} (co-pilot {names[st.co_pilot[j, p]]})" for p in range(P))
        ),
    )
    return st
