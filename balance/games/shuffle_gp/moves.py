"""Moving cards: distance cards onto and off stacks, ability cards between
draw pile, hand and discard, and the lasting modifiers a car carries.
Sub-batch convention: `g` (n,) distinct games, `p` (n,) the player acting in each."""

from __future__ import annotations

import numpy as np

from .. import chance
from ..recorder import cards_text
from .match import LOP, Match
from .state import State


def modifier(m: Match, st: State, g: np.ndarray, p: np.ndarray, name: str) -> np.ndarray:
    """(n,) int32: a lasting op's total on player p's car: its equips, the
    nerfs on it, and its driver's `always` specialty."""
    i = LOP[name]
    eq = st.equip[g, p]
    ne = st.nerf[g, p]
    column = m.lasting[:, i]  # an empty slot (-1) reads its last entry, 0
    total = column[eq].sum(axis=1, dtype=np.int32)
    total += column[ne].sum(axis=1, dtype=np.int32)
    return total + m.always[st.driver[g, p], i]


def modifiers(m: Match, st: State, g: np.ndarray, name: str) -> np.ndarray:
    """(n, P) int32: `modifier` for every car of the games `g`."""
    i = LOP[name]
    column = m.lasting[:, i]
    total = column[st.equip[g]].sum(axis=2, dtype=np.int32)
    total += column[st.nerf[g]].sum(axis=2, dtype=np.int32)
    return total + m.always[st.driver[g], i]


def top_values(m: Match, st: State, g: np.ndarray) -> np.ndarray:
    """(n, P) int32: the value of each player's top distance card (0: an empty stack)."""
    P = st.height.shape[1]
    height = st.height[g]
    top = m.values[np.maximum(st.stack[g[:, None], np.arange(P)[None, :], np.maximum(height - 1, 0)], 0)]
    return np.where(height > 0, top, 0)


def best_swap(m: Match, st: State, g: np.ndarray, p: np.ndarray) -> np.ndarray:
    """(n,) the rival whose top distance card beats player p's by most (-1:
    none does, or p's stack is empty): where a swap of top cards gains."""
    P = st.height.shape[1]
    top = top_values(m, st, g)
    gain = top - top[np.arange(len(g)), p][:, None]
    ok = (np.arange(P)[None, :] != p[:, None]) & ~st.immune[g] & (st.height[g] > 0) & (gain > 0)
    ok &= (st.height[g, p] > 0)[:, None]
    return np.where(ok.any(axis=1), np.where(ok, gain, -1).argmax(axis=1), -1)


def draw_distance_cards(m: Match, st: State, g: np.ndarray, p: np.ndarray) -> np.ndarray:
    """One distance card onto each player's stack, from the deck, or from the
    bottom pile once the deck is empty; it scores its value plus the car's
    distance_bonus (never below 0). Returns (n,) bool: a card was drawn."""
    deck, bottom = st.deck[g], st.bottom[g]
    from_deck = deck.sum(axis=1) > 0
    if m.tables.rules.bottom_pile == "random":
        pile = np.where(from_deck[:, None], deck, bottom)
        some = pile.sum(axis=1) > 0
        keys = np.zeros(len(g), np.uint64)  # rows with nothing left draw nothing (masked out)
        keys[some] = m.streams.key(g[some], "distance card", p[some])
        kind = chance.draw_one(keys, pile, some)
        st.deck[g] = np.where(from_deck[:, None], pile, deck)
        st.bottom[g] = np.where(from_deck[:, None], bottom, pile)
    else:  # "into the bottom of the draw pile": the first card put under is the first drawn
        keys = np.zeros(len(g), np.uint64)  # rows that take the bottom pile's oldest draw nothing (masked out)
        keys[from_deck] = m.streams.key(g[from_deck], "distance card", p[from_deck])
        kind = chance.draw_one(keys, deck, from_deck)
        st.deck[g] = deck
        under = np.flatnonzero(~from_deck & (bottom.sum(axis=1) > 0))
        if len(under):
            gu = g[under]
            head = st.bottom_head[gu].astype(np.int64)
            oldest = st.bottom_order[gu, head].astype(np.int64)
            st.bottom_order[gu, head] = -1
            st.bottom_head[gu] = (head + 1) % st.bottom_order.shape[1]
            st.bottom[gu, oldest] -= 1
            kind[under] = oldest
    got = kind >= 0
    g, p, kind = g[got], p[got], kind[got]
    h = st.height[g, p]
    st.stack[g, p, h] = kind
    st.height[g, p] = h + 1
    value = m.values[kind]
    bonus = np.maximum(modifier(m, st, g, p, "distance_bonus"), -value)
    st.bonus[g, p] += bonus
    st.distance_drawn[g, p] += 1
    m.say(g, lambda j: f"    seat {p[j]} draws a distance card: {value[j]}" + (f" ({bonus[j]:+d})" if bonus[j] else ""))
    return got


def discard_top(m: Match, st: State, g: np.ndarray, p: np.ndarray, n: int | np.ndarray, why: str) -> None:
    """Player p's top n distance cards go face down under the distance deck (FAQ)."""
    n = np.broadcast_to(np.asarray(n), g.shape)
    for i in range(int(n.max(initial=0))):
        rows = (i < n) & (st.height[g, p] > 0)
        gg, pp = g[rows], p[rows]
        h = st.height[gg, pp] - 1
        kind = st.stack[gg, pp, h].astype(np.int64)
        st.stack[gg, pp, h] = -1
        st.height[gg, pp] = h
        at = (st.bottom_head[gg].astype(np.int64) + st.bottom[gg].sum(axis=1)) % st.bottom_order.shape[1]
        st.bottom_order[gg, at] = kind  # the ring's tail: after every card already under
        st.bottom[gg, kind] += 1
        st.distance_lost[gg, pp] += m.values[kind]
        m.say(gg, lambda j: f"    seat {pp[j]} loses its top distance card ({m.values[kind[j]]}) under the deck: {why}")


def refill(m: Match, st: State, g: np.ndarray, p: np.ndarray) -> None:
    """Draw up to the hand size (the discard reshuffled in when the draw pile runs out)."""
    short = m.tables.rules.hand_size - st.hand[g, p].sum(axis=1)
    draw_cards(m, st, g, p, np.maximum(short, 0))


def draw_cards(m: Match, st: State, g: np.ndarray, p: np.ndarray, n: np.ndarray) -> None:
    n = np.broadcast_to(np.asarray(n), g.shape)
    rows = n > 0
    if not rows.any():
        return
    g, p, n = g[rows], p[rows], n[rows]
    deck, disc = st.draw[g, p], st.discard[g, p]
    drawn = chance.draw_reshuffling(m.streams.key(g, "draw ability cards", p), deck, disc, n)
    st.draw[g, p], st.discard[g, p] = deck, disc
    st.hand[g, p] += drawn
    m.detail(g, lambda j: f"    seat {p[j]} draws {cards_text(drawn[j], m.tables.cards.names)}")
