"""The state of a batch of Shuffle Grand Prix games: every array has a
leading games axis G. P players, K ability card kinds (every driver's cards,
compile.CardTable), V distance card kinds (by value), S = the distance cards
in the box (the longest a stack can grow), E equip slots, N nerf slots per
car, T trap slots per game.

Face-down piles that nobody looks into are bags of counts (see
balance/games/chance.py): the distance deck, the "bottom" pile of discarded
distance cards (drawn only once the deck is empty: they were put face down
under it), each player's ability draw pile. A distance stack is ordered: its
cards are kind indices in order, the top card last. Empty slots hold -1.
Seats are in clockwise order; `current` is the seat whose turn it is.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

NERF_SLOTS = 4  # nerfs one car can carry at once (ours: a fixed shape; a full car takes no more nerfs)
TRAP_SLOTS = 12  # traps face up on the table at once (ours: a full table takes no more traps)
PLAYS_MOST = 16  # ability plays a play phase makes at most (rules.play_phase): more left are never played
SKIP_MOST = np.iinfo(np.int8).max  # turns still to skip: skips beyond it are not kept


@dataclass
class State:
    # --- distance ---
    deck: np.ndarray  # (G, V) int16: the distance deck by kind
    bottom: np.ndarray  # (G, V) int16: discarded distance cards under the deck, drawn when it is empty
    bottom_order: np.ndarray  # (G, S) int8: ring of the bottom pile's kinds, in the order they went under
    bottom_head: np.ndarray  # (G,) int16: where the ring's oldest card is (the next drawn, first in first out)
    stack: np.ndarray  # (G, P, S) int8: each player's distance cards by kind, in order; -1 past `height`
    height: np.ndarray  # (G, P) int16: cards in each stack; the top card is stack[height - 1]
    bonus: np.ndarray  # (G, P) int64: distance_bonus points scored as cards were drawn (kept beside the stack;
    # 64 bits: it grows with every card drawn, up to 49 bonuses of 1,000 a card)
    # --- the car ---
    tire: np.ndarray  # (G, P) int8: the driver's tire health, 0..tire_health
    co_tire: np.ndarray  # (G, P) int8: the co-pilot's own tire health (it does not transfer between drivers)
    driver: np.ndarray  # (G, P) int8: the active driver (index into Tables.drivers)
    co_pilot: np.ndarray  # (G, P) int8: the co-pilot
    equip: np.ndarray  # (G, P, E) int16: the card in each equip slot, -1 empty
    equip_left: np.ndarray  # (G, P, E) int8: turns left on a timed equip; 0 = no turn symbol
    shield: np.ndarray  # (G, P, E) int8: what a shield equip can still absorb
    nerf: np.ndarray  # (G, P, N) int16: nerf cards on each car, -1 empty
    nerf_owner: np.ndarray  # (G, P, N) int8: the seat that played it, -1 empty
    nerf_left: np.ndarray  # (G, P, N) int8: turns left (counted on its owner's turns: its tracker); 0 = no turn symbol
    trap: np.ndarray  # (G, T) int16: traps face up on the table, -1 empty
    trap_owner: np.ndarray  # (G, T) int8: the seat that set it, -1 empty
    trap_left: np.ndarray  # (G, T) int8: turns left (counted on the owner's turns); 0 = no turn symbol
    # --- ability cards (a player's own copies, and those stolen, are in exactly one zone) ---
    draw: np.ndarray  # (G, P, K) int16: ability draw pile
    hand: np.ndarray  # (G, P, K) int16
    discard: np.ndarray  # (G, P, K) int16
    # --- players ---
    trophies: np.ndarray  # (G, P) int16: trophies held
    pool: np.ndarray  # (G,) int16: trophies left in the centre
    immune: np.ndarray  # (G, P) bool: spun out, immune to all actions until its next turn begins
    skip: np.ndarray  # (G, P) int8: turns still to skip (at most SKIP_MOST)
    hurt_by: np.ndarray  # (G, P, P) bool: [g, t, d]: d damaged t's current driver (all get a trophy if it spins out)
    # --- the turn ---
    first: np.ndarray  # (G,) int8: the seat that went first (highest distance card at setup)
    current: np.ndarray  # (G,) int8: the seat whose turn it is
    plays_left: np.ndarray  # (G,) int8: ability plays of any kind left this turn (card, pit stop, redraw, pass)
    card_plays: np.ndarray  # (G,) int8: plays left this turn that must be ability cards (at most PLAYS_MOST)
    turn: np.ndarray  # (G,) int16: turns taken, all players together
    running: np.ndarray  # (G,) bool: distance cards left and under the turn cap
    # --- bookkeeping ---
    bots: np.ndarray  # (G, P) int16: profile index of each seat's bot
    start: np.ndarray  # (G, P, K) int16: each player's ability deck at setup (both drivers)
    stolen_in: np.ndarray  # (G, P, K) int32: cards taken from rivals' hands (now theirs)
    stolen_out: np.ndarray  # (G, P, K) int32: cards rivals took from this hand
    draft_pick: np.ndarray  # (G, P, 2) int8: the pick number (1..) of each driver picked: [driver, co-pilot] at setup
    # --- tallies for the logs ---
    # Read by no rule, added to all game long: int32 (int64 for points), so that no
    # database the schema accepts can wrap them, however many plays a turn holds.
    damage_dealt: np.ndarray  # (G, P) int32: tire health taken from others' drivers (self-damage not counted)
    damage_taken: np.ndarray  # (G, P) int32: tire health lost (shields absorbed not counted)
    absorbed: np.ndarray  # (G, P) int32: damage shields absorbed
    spin_outs: np.ndarray  # (G, P) int32: spin-outs suffered
    spins_caused: np.ndarray  # (G, P) int32: spin-outs caused (a trophy each; self spin-outs included)
    played: np.ndarray  # (G, P, K) int32: ability cards played, by kind (anytime answers included)
    cancels: np.ndarray  # (G, P) int32: anytime answers played (replace or avoid)
    anytime_plays: np.ndarray  # (G, P) int32: anytime cards with effects played outside the turn's play
    trophies_won: np.ndarray  # (G, P) int32
    trophies_spent: np.ndarray  # (G, P) int32
    swaps: np.ndarray  # (G, P) int32: driver swaps bought with trophies
    extra_plays: np.ndarray  # (G, P) int32: extra plays bought with trophies
    pit_stops: np.ndarray  # (G, P) int32
    traps_sprung: np.ndarray  # (G, P) int32: traps this player set off (its own included)
    distance_drawn: np.ndarray  # (G, P) int32: distance cards drawn
    distance_lost: np.ndarray  # (G, P) int64: distance points of cards lost from the stack (discarded, swapped away)
    turns_taken: np.ndarray  # (G, P) int32: turns started (skipped ones included)
    turns_skipped: np.ndarray  # (G, P) int32

    @property
    def shape(self) -> tuple[int, int, int]:
        return self.hand.shape  # (G, P, K)


def empty_state(G: int, P: int, K: int, V: int, S: int, E: int) -> State:
    i16, i8 = np.int16, np.int8
    z16 = lambda *shape: np.zeros(shape, i16)  # noqa: E731
    z8 = lambda *shape: np.zeros(shape, i8)  # noqa: E731
    z32 = lambda *shape: np.zeros(shape, np.int32)  # noqa: E731
    N, T = NERF_SLOTS, TRAP_SLOTS
    return State(
        deck=z16(G, V),
        bottom=z16(G, V),
        bottom_order=np.full((G, S), -1, i8),
        bottom_head=z16(G),
        stack=np.full((G, P, S), -1, i8),
        height=z16(G, P),
        bonus=np.zeros((G, P), np.int64),
        tire=z8(G, P),
        co_tire=z8(G, P),
        driver=z8(G, P),
        co_pilot=z8(G, P),
        equip=np.full((G, P, E), -1, i16),
        equip_left=z8(G, P, E),
        shield=z8(G, P, E),
        nerf=np.full((G, P, N), -1, i16),
        nerf_owner=np.full((G, P, N), -1, i8),
        nerf_left=z8(G, P, N),
        trap=np.full((G, T), -1, i16),
        trap_owner=np.full((G, T), -1, i8),
        trap_left=z8(G, T),
        draw=z16(G, P, K),
        hand=z16(G, P, K),
        discard=z16(G, P, K),
        trophies=z16(G, P),
        pool=z16(G),
        immune=np.zeros((G, P), bool),
        skip=z8(G, P),
        hurt_by=np.zeros((G, P, P), bool),
        first=z8(G),
        current=z8(G),
        plays_left=z8(G),
        card_plays=z8(G),
        turn=z16(G),
        running=np.ones(G, bool),
        bots=z16(G, P),
        start=z16(G, P, K),
        stolen_in=z32(G, P, K),
        stolen_out=z32(G, P, K),
        draft_pick=z8(G, P, 2),
        damage_dealt=z32(G, P),
        damage_taken=z32(G, P),
        absorbed=z32(G, P),
        spin_outs=z32(G, P),
        spins_caused=z32(G, P),
        played=z32(G, P, K),
        cancels=z32(G, P),
        anytime_plays=z32(G, P),
        trophies_won=z32(G, P),
        trophies_spent=z32(G, P),
        swaps=z32(G, P),
        extra_plays=z32(G, P),
        pit_stops=z32(G, P),
        traps_sprung=z32(G, P),
        distance_drawn=z32(G, P),
        distance_lost=np.zeros((G, P), np.int64),
        turns_taken=z32(G, P),
        turns_skipped=z32(G, P),
    )


def total_distance(st: State, values: np.ndarray, g: np.ndarray | None = None) -> np.ndarray:
    """(G, P) int64 (or (n, P) for the games `g`): each player's distance: its
    stack's points plus the bonus points kept beside it."""
    height = st.height if g is None else st.height[g]
    deep = int(height.max(initial=0))  # no stack holds a card above this: read no further
    stack = st.stack[:, :, :deep] if g is None else st.stack[g, :, :deep]
    bonus = st.bonus if g is None else st.bonus[g]
    padded = np.append(values, 0)  # an empty place in the stack (-1) reads the appended 0
    pts = padded[stack].sum(axis=2, dtype=np.int32)
    return pts + bonus
