"""The state of a batch of Heat races: every array has a leading races axis G.
P cars (players and Legends), K card kinds, N Legend cards (in `legend_deck`),
`laps` laps, `corners` corners a lap.

Piles are count matrices, as in Horsepower (a shuffled face-down pile is a
bag: see balance/games/chance.py). A car's position counts spaces from the
start/finish line along the whole race: the grid is negative, lap l runs over
[l * spaces, (l + 1) * spaces), and the race is done at laps * spaces. Seat i
is the car that started on grid slot i (0 = pole).
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np


@dataclass
class State:
    # --- cards (each car's own copies are in exactly one of these, or Heat in the Engine) ---
    deck: np.ndarray  # (G, P, K) int16: face-down draw pile
    hand: np.ndarray  # (G, P, K) int16
    play: np.ndarray  # (G, P, K) int16: chosen this round, revealed on the car's turn
    discard: np.ndarray  # (G, P, K) int16
    engine: np.ndarray  # (G, P) int16: Heat cards in the Engine
    # --- the race ---
    gear: np.ndarray  # (G, P) int8: 1..gears (Legends keep the starting gear)
    pos: np.ndarray  # (G, P) int16: spaces from the start/finish line (grid negative)
    lane: np.ndarray  # (G, P) int8: 0 = the race line (ahead of lane 1 on the same space)
    finished: np.ndarray  # (G, P) bool: crossed the finish line after the last lap
    finish_round: np.ndarray  # (G, P) int16: the round it finished, 0 not (yet)
    legend_deck: np.ndarray  # (G, N) int8: Legend cards left to draw (reshuffled when empty)
    # --- this round (reset at its start) ---
    overheated: np.ndarray  # (G, P) bool: too few playable cards: plays Heat, does not move
    corner_mod: np.ndarray  # (G, P) int8: this round's change to corner limits (upgrade cards)
    slip_bonus: np.ndarray  # (G, P) int8: extra slipstream spaces this round (upgrade cards)
    cooldown_bonus: np.ndarray  # (G, P) int8: Cooldown from cards played this round
    super_cool: np.ndarray  # (G, P) int8: Super Cool from cards played this round (Heavy Rain)
    draft: np.ndarray  # (G, P) int8: Draft from cards played this round (Tunnel Vision)
    stress_out: np.ndarray  # (G, P) int8: Stress the cards played discard from hand, in React (not in a tunnel)
    salvage: np.ndarray  # (G, P) int8: Salvage from cards played this round (cards from the discard into the deck)
    accelerate: np.ndarray  # (G, P) int8: Accelerate icons on cards played this round
    flipped: np.ndarray  # (G, P) int8: cards flipped this round (what Accelerate adds; kept where a card accelerates)
    target: np.ndarray  # (G, P) int16: the speed the car's bot aimed at when it chose its cards
    # --- bookkeeping ---
    bots: np.ndarray  # (G, P) int16: profile index of each car's bot
    is_legend: np.ndarray  # (G, P) bool
    colour: np.ndarray  # (G, P) int8: a Legend car's colour (index into rules.legend_colours), -1 a player's car
    round: np.ndarray  # (G,) int16: rounds started
    running: np.ndarray  # (G,) bool: some car still racing and under the round cap
    # --- tallies for the logs and the checker ---
    lap_round: np.ndarray  # (G, P, laps) int16: the round each lap was completed, 0 not
    heat_paid: np.ndarray  # (G, P) int16: Heat from the Engine (corners, Boost, shifting, cards)
    corner_heat: np.ndarray  # (G, P) int16: of which for corners
    spin_outs: np.ndarray  # (G, P) int16
    boosts: np.ndarray  # (G, P) int16
    slipstreams: np.ndarray  # (G, P) int16
    adrenaline: np.ndarray  # (G, P) int16: Adrenaline taken (speed or Cooldown)
    cooled: np.ndarray  # (G, P) int16: Heat cards moved from hand back to the Engine
    overheats: np.ndarray  # (G, P) int16: turns with too few playable cards
    stress_added: np.ndarray  # (G, P) int16: Stress taken on spin-outs (new cards for the car)
    drafted: np.ndarray  # (G, P, K) int8: Garage upgrades drafted
    draft_pick: np.ndarray  # (G, P, K) int8: pick number of the first copy drafted, 0 none
    bonus: np.ndarray  # (G, P, K) int8: extra starting copies from balance strength (scenario bonus_card)
    played: np.ndarray  # (G, P, K) int16: cards played (revealed), flips not included
    turns: np.ndarray  # (G, P) int16: turns taken
    corner_spins: np.ndarray  # (G, corners) int16: spin-outs at each corner of the track, all laps and cars
    corner_paid: np.ndarray  # (G, corners) int16: Heat paid at each corner, all laps and cars
    stress_supply: np.ndarray  # (G,) int16: Stress left in the box (rules.stress_supply); -1 unlimited
    stress_short: np.ndarray  # (G,) int16: Stress a spin-out owed that the empty box could not give
    # --- the race's course after Weather and Road Conditions (the track's own without the module) ---
    limit: np.ndarray  # (G, laps * corners + 1) int64: each corner line's speed limit over the race, then the pad
    overheat: np.ndarray  # (G, laps * corners + 1) int64: Heat paid on top of the excess at each line (Overheat)
    sector: np.ndarray  # (G, corners, len(compile.SECTOR_COLUMNS)) int8: each sector's effect (from its corner line)
    weather: np.ndarray  # (G,) int8: the race's Weather token, -1 none
    road: np.ndarray  # (G, corners) int8: each corner's Road Conditions token, -1 none
    weather_stress: np.ndarray  # (G,) int8: Stress the Weather added to each deck (negative: took out)
    weather_heat: np.ndarray  # (G,) int8: Heat the Weather added to each car's cards (negative: took out)
    # --- the Championship (a season's race; all zero otherwise) ---
    sponsors: np.ndarray  # (G, K) int16: the sponsor pile (Sponsorship cards not held by a car)
    received: np.ndarray  # (G, P, K) int16: cards into (or out of) the car's own beside its deck, draft and
    # bonus: carried from earlier races, Sponsorship cards dealt and gained less those played, a swap, Heat out
    presses: np.ndarray  # (G, P) int16: Press Corners pressed (each gains Sponsorship cards)
    sponsors_gained: np.ndarray  # (G, P) int16: Sponsorship cards gained in the race (presses and Events)
    out: np.ndarray  # (G, P) bool: out of the race (an Event's spin-out); off the track as if finished, no place

    @property
    def shape(self) -> tuple[int, int, int]:
        return self.deck.shape  # (G, P, K)


def empty_state(G: int, P: int, K: int, N: int, laps: int, corners: int = 1, sector_columns: int = 6) -> State:
    i16, i8 = np.int16, np.int8
    z16 = lambda *shape: np.zeros(shape, i16)  # noqa: E731
    return State(
        deck=z16(G, P, K),
        hand=z16(G, P, K),
        play=z16(G, P, K),
        discard=z16(G, P, K),
        engine=z16(G, P),
        gear=np.ones((G, P), i8),
        pos=z16(G, P),
        lane=np.zeros((G, P), i8),
        finished=np.zeros((G, P), bool),
        finish_round=z16(G, P),
        legend_deck=np.zeros((G, N), i8),
        overheated=np.zeros((G, P), bool),
        corner_mod=np.zeros((G, P), i8),
        slip_bonus=np.zeros((G, P), i8),
        cooldown_bonus=np.zeros((G, P), i8),
        super_cool=np.zeros((G, P), i8),
        draft=np.zeros((G, P), i8),
        stress_out=np.zeros((G, P), i8),
        salvage=np.zeros((G, P), i8),
        accelerate=np.zeros((G, P), i8),
        flipped=np.zeros((G, P), i8),
        target=z16(G, P),
        bots=z16(G, P),
        is_legend=np.zeros((G, P), bool),
        colour=np.full((G, P), -1, i8),
        round=np.zeros(G, i16),
        running=np.ones(G, bool),
        lap_round=z16(G, P, laps),
        heat_paid=z16(G, P),
        corner_heat=z16(G, P),
        spin_outs=z16(G, P),
        boosts=z16(G, P),
        slipstreams=z16(G, P),
        adrenaline=z16(G, P),
        cooled=z16(G, P),
        overheats=z16(G, P),
        stress_added=z16(G, P),
        drafted=np.zeros((G, P, K), i8),
        draft_pick=np.zeros((G, P, K), i8),
        bonus=np.zeros((G, P, K), i8),
        played=z16(G, P, K),
        turns=z16(G, P),
        corner_spins=z16(G, corners),
        corner_paid=z16(G, corners),
        stress_supply=np.full(G, -1, i16),
        stress_short=z16(G),
        limit=np.zeros((G, laps * corners + 1), np.int64),  # int64, as the tables' limits: one type for the rules
        overheat=np.zeros((G, laps * corners + 1), np.int64),
        sector=np.zeros((G, corners, sector_columns), i8),
        weather=np.full(G, -1, i8),
        road=np.full((G, corners), -1, i8),
        weather_stress=np.zeros(G, i8),
        weather_heat=np.zeros(G, i8),
        sponsors=z16(G, K),
        received=z16(G, P, K),
        presses=z16(G, P),
        sponsors_gained=z16(G, P),
        out=np.zeros((G, P), bool),
    )
