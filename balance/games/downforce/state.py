"""The state of a batch of Downforce games: every array has a leading games
axis G. N players, 6 cars (colour codes), C speed-card kinds, S track spaces,
3 betting lines.

Hands are count matrices over the card kinds. A car stands on a space id
(-1 once it has finished); `occupied` mirrors the cars on the board so a move
can test a space in one lookup.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np


@dataclass
class State:
    # --- cards ---
    hand: np.ndarray  # (G, N, C) int8: speed cards in each hand (Speed-8 cards join when their car is won)
    played: np.ndarray  # (G, N, C) int8: cards each player has played (the discard pile, by player)
    # --- the auction ---
    owner: np.ndarray  # (G, 6) int8: the player who bought each car, -1 not (yet)
    price: np.ndarray  # (G, 6) int16: what the car cost ($M)
    sold: np.ndarray  # (G, 6) int8: the auction round (1..6) that sold each car
    car_power: np.ndarray  # (G, 6) int8: the power card sold with each car
    power: np.ndarray  # (G, N) int8: the power card each player kept, -1 none
    paid: np.ndarray  # (G, N) int16: $M paid in the auction
    # --- the race ---
    pos: np.ndarray  # (G, 6) int16: each car's space, -1 once finished
    start: np.ndarray  # (G, 6) int8: each car's starting slot (0 = pole)
    occupied: np.ndarray  # (G, S) bool
    place: np.ndarray  # (G, 6) int8: finishing place (1 = first over the line), 0 not finished
    finishers: np.ndarray  # (G,) int8: cars finished so far
    lines_done: np.ndarray  # (G, 3) bool: a car has crossed betting line k
    bets: np.ndarray  # (G, N, 3) int8: the car each player bet on at line k, -1 not yet
    current: np.ndarray  # (G,) int8: the player whose turn it is
    turns: np.ndarray  # (G,) int16: cards played in the race
    running: np.ndarray  # (G,) bool
    cut: np.ndarray  # (G,) bool: rules.max_turns stopped the race with a car still racing and a card to play
    # --- bookkeeping ---
    bots: np.ndarray  # (G, N) int16: profile index of each player's bot
    moved: np.ndarray  # (G, 6) int16: spaces each car moved in the race (tally)
    lost: np.ndarray  # (G, 6) int16: movement each car lost to blocking (tally)

    @property
    def players(self) -> int:
        return self.hand.shape[1]


@dataclass(frozen=True)
class Bonus:
    """A `balance strength` item for one seat of each game (docs/strength_downforce.md):
    exactly one of `card` and `power` is set (>= 0)."""

    who: np.ndarray  # (G,) the receiving seat of each game (seeding.bonus_seat)
    card: int = -1  # a regular speed card's index: that seat is dealt one extra copy, on top of its hand
    power: int = -1  # a power card's index: that seat races with it, in place of the power it kept


def empty_state(G: int, N: int, C: int, S: int, P: int = 6) -> State:
    i8, i16 = np.int8, np.int16
    return State(
        hand=np.zeros((G, N, C), i8),
        played=np.zeros((G, N, C), i8),
        owner=np.full((G, 6), -1, i8),
        price=np.zeros((G, 6), i16),
        sold=np.zeros((G, 6), i8),
        car_power=np.full((G, 6), -1, i8),
        power=np.full((G, N), -1, i8),
        paid=np.zeros((G, N), i16),
        pos=np.full((G, 6), -1, i16),
        start=np.zeros((G, 6), i8),
        occupied=np.zeros((G, S), bool),
        place=np.zeros((G, 6), i8),
        finishers=np.zeros(G, i8),
        lines_done=np.zeros((G, 3), bool),
        bets=np.full((G, N, 3), -1, i8),
        current=np.zeros(G, i8),
        turns=np.zeros(G, i16),
        running=np.ones(G, bool),
        cut=np.zeros(G, bool),
        bots=np.zeros((G, N), i16),
        moved=np.zeros((G, 6), i16),
        lost=np.zeros((G, 6), i16),
    )
