"""The state of a batch of Horsepower games: every array has a leading games
axis G. P players, K card kinds, B Playbooks, S Showroom slots, L spaces per lap.

Piles are count matrices (see balance/games/chance.py: a shuffled pile is a bag)
in 8 bits: a card has at most limits.MAX_COPIES copies. Seat 0
always plays first: the random starting player of rulebook 2.6 is the random
assignment of bots to seats, made by whoever sets up the batch. The draft's
Player 1 (2.3) is drawn apart from it, game by game (`first_drafter`).
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np


@dataclass
class State:
    # --- cards (every copy is in exactly one of these) ---
    deck: np.ndarray  # (G, P, K) int8: face-down draw pile
    hand: np.ndarray  # (G, P, K) int8
    play: np.ndarray  # (G, P, K) int8: played this turn (only the active seat's is non-zero)
    lingering: np.ndarray  # (G, P, K) int8: (E) cards from an earlier turn, in play until the owner's next turn
    garage: np.ndarray  # (G, P, K) int8: discard pile
    parts: np.ndarray  # (G, K) int8: the Parts Deck
    showroom: np.ndarray  # (G, S) int16: card in each slot, -1 empty
    showroom_discard: np.ndarray  # (G, K) int8
    scrapyard: np.ndarray  # (G, K) int8: out of the game
    supply: np.ndarray  # (G, K) int8: Debris supply and starters nobody uses
    # --- Playbooks ---
    playbook_deck: np.ndarray  # (G, B) int8
    playbooks: np.ndarray  # (G, P, B) int8: active Playbooks
    # --- the race ---
    coins: np.ndarray  # (G, P) int16: at most limits.COIN_CAP (gains past it are lost)
    lap: np.ndarray  # (G, P) int8: current lap, 1..laps
    pos: np.ndarray  # (G, P) int16: space on the lap, 0..L
    bananas: np.ndarray  # (G, L + 1) int8: Bananas on each space, at most 127 (more are not placed)
    wiped: np.ndarray  # (G, P) bool: Wiped Out marker
    shield: np.ndarray  # (G, P) bool: shielded until own next turn
    slow: np.ndarray  # (G, P, P) int16: [caster, target] Drive lost by target until caster's next turn
    pit_next: np.ndarray  # (G, P) bool: next turn is a Pit Stop
    lap_done: np.ndarray  # (G, P) bool: completed a lap this turn; chooses Pit Stop / Race Through at turn end
    # --- bookkeeping ---
    bots: np.ndarray  # (G, P) int16: profile index of each seat's bot
    round: np.ndarray  # (G,) int16: rounds started
    running: np.ndarray  # (G,) bool: not finished and under the round cap
    winner: np.ndarray  # (G,) int8: winning seat, -1 none (yet)
    first_drafter: np.ndarray  # (G,) int8: the seat that picked first in the draft (2.3's Player 1)
    # --- tallies for the logs ---
    drafted: np.ndarray  # (G, P, K) int8: parts drafted
    draft_pick: np.ndarray  # (G, P, K) int8: pick number (1-based) of the first copy drafted, 0 none
    drafted_playbook: np.ndarray  # (G, P) int16: Playbook drafted
    bought: np.ndarray  # (G, P, K) int16
    played: np.ndarray  # (G, P, K) int16
    scrapped: np.ndarray  # (G, P, K) int16
    auction_won: np.ndarray  # (G, P, K) int16
    auction_paid: np.ndarray  # (G, P) int32: coins paid in auctions (tallies a game long: 32 bits)
    pit_playbooks: np.ndarray  # (G, P, B) int8: Playbooks taken at Pit Stops
    turns: np.ndarray  # (G, P) int16: turns taken (Pit Stop turns included)
    lap_turns: np.ndarray  # (G, P, laps) int16: turns spent on each lap
    pit_stops: np.ndarray  # (G, P) int8: Pit Stops taken (the skipped turn played; chosen ones wait in pit_next)
    wiped_count: np.ndarray  # (G, P) int16: times Wiped Out
    pit_laps: np.ndarray  # (G, P) int16: bit l-1 set = a Pit Stop after completing lap l
    coins_spent: np.ndarray  # (G, P) int32: coins paid for purchases, refreshes and auctions
    debris_short: np.ndarray  # (G,) int32: Debris owed (laps, cards) but not given: the supply was empty

    @property
    def shape(self) -> tuple[int, int, int]:
        return self.deck.shape  # (G, P, K)


def empty_state(G: int, P: int, K: int, B: int, S: int, L: int, laps: int) -> State:
    i16, i8 = np.int16, np.int8
    return State(
        deck=np.zeros((G, P, K), i8),
        hand=np.zeros((G, P, K), i8),
        play=np.zeros((G, P, K), i8),
        lingering=np.zeros((G, P, K), i8),
        garage=np.zeros((G, P, K), i8),
        parts=np.zeros((G, K), i8),
        showroom=np.full((G, S), -1, i16),
        showroom_discard=np.zeros((G, K), i8),
        scrapyard=np.zeros((G, K), i8),
        supply=np.zeros((G, K), i8),
        playbook_deck=np.zeros((G, B), i8),
        playbooks=np.zeros((G, P, B), i8),
        coins=np.zeros((G, P), i16),
        lap=np.ones((G, P), i8),
        pos=np.zeros((G, P), i16),
        bananas=np.zeros((G, L + 1), i8),
        wiped=np.zeros((G, P), bool),
        shield=np.zeros((G, P), bool),
        slow=np.zeros((G, P, P), i16),
        pit_next=np.zeros((G, P), bool),
        lap_done=np.zeros((G, P), bool),
        bots=np.zeros((G, P), i16),
        round=np.zeros(G, i16),
        running=np.ones(G, bool),
        winner=np.full(G, -1, i8),
        first_drafter=np.zeros(G, i8),
        drafted=np.zeros((G, P, K), i8),
        draft_pick=np.zeros((G, P, K), i8),
        drafted_playbook=np.full((G, P), -1, i16),
        bought=np.zeros((G, P, K), i16),
        played=np.zeros((G, P, K), i16),
        scrapped=np.zeros((G, P, K), i16),
        auction_won=np.zeros((G, P, K), i16),
        auction_paid=np.zeros((G, P), np.int32),
        pit_playbooks=np.zeros((G, P, B), i8),
        turns=np.zeros((G, P), i16),
        lap_turns=np.zeros((G, P, laps), i16),
        pit_stops=np.zeros((G, P), i8),
        wiped_count=np.zeros((G, P), i16),
        pit_laps=np.zeros((G, P), i16),
        coins_spent=np.zeros((G, P), np.int32),
        debris_short=np.zeros(G, np.int32),
    )
