"""What the compiled Downforce engine reads besides the state: the database's
compiled tables (the track raced, the cards, the powers), the bots' table and
the card figures the bots read (each card's speed per colour, the box's),
laid out as one named tuple of numbers and arrays (no Python object reaches
the per-game code).
"""

from __future__ import annotations

from collections import namedtuple

import numpy as np

from ...profiles import noise_span
from .. import vocabulary as V
from ..bots import BotTable
from ..compile import NONE, WILD, Tables

# the draws the engine makes, one count each (chance.compiled.key), named as the numpy engine named them
PURPOSES = (
    "deal",
    "speed-8 pile",
    "power pile",
    "noise: bid card",
    "draw: auction tie",
    "noise: keep power",
    "starting grid",
    "noise: card choice",
    "noise: wild colour",
    "random: strategic skip",
    "random: tricky order",
    "steer",
    "steer: determined",
    "noise: bet",
)
(
    DEAL,
    SPEED8_PILE,
    POWER_PILE,
    BID_NOISE,
    AUCTION_TIE,
    KEEP_NOISE,
    GRID,
    CARD_NOISE,
    WILD_NOISE,
    STRATEGIC_SKIP,
    TRICKY_ORDER,
    STEER,
    STEER_DETERMINED,
    BET_NOISE,
) = range(len(PURPOSES))

# the powers by their vocabulary code
AGGRESSIVE, CUNNING, DETERMINED, STRATEGIC, TRICKY, UNPREDICTABLE = range(len(V.POWERS))
assert tuple(V.POWERS) == ("aggressive", "cunning", "determined", "strategic", "tricky", "unpredictable")
assert NONE == -1 and WILD == V.N_CARS == 6

Tab = namedtuple(
    "Tab",
    [
        # rules
        "players",
        "random_ties",
        "max_turns",
        # cards
        "card_car",
        "card_speed",
        "n_cars",
        "wilds",
        "deck",
        "regular",
        "bid",
        "speed8_card",
        "colour_speed",
        "deck_speed",
        # powers: a power index of -1 (none kept, or a car sold without one) reads the last entry
        "power_kind",
        "power_bonus",
        # the track
        "row",
        "lane",
        "curve",
        "ahead",
        "start",
        "betting_rows",
        "finish_row",
        # bots
        "noise",
        "noise_span",
        "value",
        "hand",
        "bid_share",
        "rival",
        "jam",
        "loyalty",
        "foresight",
        "power_value",
        "power_worth",
    ],
)


def build(tables: Tables, bots: BotTable, players: int) -> Tab:
    """The compiled engine's tables for `players` players."""
    cards, powers, track = tables.cards, tables.powers, tables.tracks[tables.rules.track]
    colour_speed = np.zeros((len(cards.ids), V.N_CARS), np.float32)  # how far each card moves each colour
    for m in range(cards.car.shape[1]):
        named = (cards.car[:, m] >= 0) & (cards.car[:, m] < WILD)
        colour_speed[np.flatnonzero(named), cards.car[named, m]] += cards.speed[named, m]

    def c(array, dtype) -> np.ndarray:
        return np.ascontiguousarray(array, dtype)

    return Tab(
        players=players,
        random_ties=bool(tables.rules.random_ties),
        max_turns=int(tables.rules.max_turns),
        card_car=c(cards.car, np.int64),
        card_speed=c(cards.speed, np.int64),
        n_cars=c(cards.n_cars, np.int64),
        wilds=c(cards.wilds, np.int64),
        deck=c(np.where(cards.is_speed8, 0, cards.count), np.int64),
        regular=c(~cards.is_speed8, np.bool_),
        bid=c(cards.bid, np.int64),
        speed8_card=c(tables.speed8_card, np.int64),
        colour_speed=colour_speed,
        deck_speed=c(cards.count.astype(np.float32) @ colour_speed, np.float32),  # integer sums: exact
        power_kind=c(np.append(powers.kind, -1), np.int64),
        power_bonus=c(np.append(powers.bonus, 0), np.int64),
        row=c(track.row, np.int64),
        lane=c(track.lane, np.int64),
        curve=c(track.curve, np.bool_),
        ahead=c(track.next, np.int64),
        start=c(track.start, np.int64),
        betting_rows=c(track.betting_rows, np.int64),
        finish_row=int(track.finish_row),
        noise=c(bots.noise, np.float32),
        noise_span=c(noise_span(bots.noise), np.float32),
        value=c(bots.value, np.float32),
        hand=c(bots.hand, np.float32),
        bid_share=c(bots.bid, np.float32),
        rival=c(bots.rival, np.float32),
        jam=c(bots.jam, np.float32),
        loyalty=c(bots.loyalty, np.float32),
        foresight=c(bots.foresight, np.float32),
        power_value=c(bots.power_value.reshape(len(bots.names), -1), np.float32),
        power_worth=c(np.pad(bots.power_value, ((0, 0), (0, 1))), np.float32),
    )
