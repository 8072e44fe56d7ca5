"""Compile a validated Downforce database into read-only numpy tables, built
once and passed to the engine beside the state.

Cars are coded by their place in `cars:` (0..5); a wild car is WILD (6).
Cards are indexed 0..C-1: the regular cards in file order, then the Speed-8
cards. A card is a row of car codes and a row of speeds in printed order, so
the engine moves the cars of a batch of played cards by indexing, never by
calling per-card code. Each track is its list of spaces (a grid already
expanded by the schema) with a fixed-width table of the spaces ahead.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from ...errors import Problem, UserError
from ..base import Summary
from . import vocabulary as V
from .schema import Database, SpeedCard, Track

NONE = -1  # padding of car and space columns: no car, no space
WILD = V.N_CARS  # the car code of a wild car on a card (6)


def _frozen(array: np.ndarray) -> np.ndarray:
    array.setflags(write=False)
    return array


@dataclass(frozen=True)
class RuleTable:
    track: int  # index into Tables.tracks: the track raced
    prizes: np.ndarray  # (N_CARS,) int16: $M for finishing 1st..6th
    payouts: np.ndarray  # (BETTING_LINES, BET_PLACES) int16: $M per bet, by line, by the bet car's place
    wild_bids: bool  # a wild bids for a car its card does not show (ours)
    random_ties: bool  # rules.auction_ties: random; else the lower seat wins a tie the tie-breaks leave (ours)
    max_turns: int  # a safety cap on card plays in one race
    min_players: int
    max_players: int


@dataclass(frozen=True)
class CardTable:
    ids: tuple[str, ...]  # (C,)
    car: np.ndarray  # (C, M) int8: car codes in printed order (movement order); WILD; NONE pads
    speed: np.ndarray  # (C, M) int8: spaces each car moves; 0 pads
    n_cars: np.ndarray  # (C,) int8: cars on the card, wilds included (the auction's first tie-break)
    wilds: np.ndarray  # (C,) int8: wild cars on the card (the auction's second tie-break)
    count: np.ndarray  # (C,) int16: copies in the box
    is_speed8: np.ndarray  # (C,) bool: a Speed-8 card, won in the auction rather than dealt
    bid: np.ndarray  # (C, N_CARS) int8: the card's bid for each car: its speed there, with wild_bids the
    # fastest wild's where the card does not show the car, else 0

    def index(self, card_id: str) -> int:
        return self.ids.index(card_id)


@dataclass(frozen=True)
class PowerTable:
    ids: tuple[str, ...]  # (P,)
    kind: np.ndarray  # (P,) int8: index into vocabulary.POWERS (what the engine applies)
    bonus: np.ndarray  # (P,) int8: extra spaces (aggressive, determined); 0 for the others

    def index(self, power_id: str) -> int:
        return self.ids.index(power_id)


@dataclass(frozen=True)
class TrackTable:
    id: str
    name: str
    names: tuple[str, ...]  # (S,): space ids (a grid's are r<row>l<lane>)
    row: np.ndarray  # (S,) int16: how far along the track; moves always go to a higher row
    lane: np.ndarray  # (S,) int8: across the track, 0 = inside
    curve: np.ndarray  # (S,) bool: a curved (not rectangular) space
    next: np.ndarray  # (S, MAX_NEXT) int16: the spaces ahead, straight or diagonal; NONE pads
    start: np.ndarray  # (N_CARS,) int16: starting spaces, pole first
    betting_rows: np.ndarray  # (BETTING_LINES,) int16: a car crosses line k on first entering a row >= it
    finish_row: int  # a car finishes on entering a row >= it

    def index(self, space_id: str) -> int:
        return self.names.index(space_id)


@dataclass(frozen=True)
class Tables:
    rules: RuleTable
    cars: tuple[str, ...]  # (N_CARS,): the colour of each car code
    cards: CardTable
    speed8_card: np.ndarray  # (N_CARS,) int16: the card index of each car's Speed-8 card
    powers: PowerTable
    tracks: tuple[TrackTable, ...]

    def track_index(self, name: str, source: str = "track", line: int | None = None) -> int:
        """A track by id or name (any case); an unknown one lists the known ids."""
        for i, track in enumerate(self.tracks):
            if name.lower() in (track.id, track.name.lower()):
                return i
        known = ", ".join(t.id for t in self.tracks)
        raise UserError(Problem(source, line, "track", f"unknown track {name!r} (known: {known})"))


def compile_database(db: Database) -> Tables:
    cards = _card_table(db)
    first_car = cards.car[:, 0]
    return Tables(
        rules=_rule_table(db),
        cars=db.cars,
        cards=cards,
        # The schema leaves exactly one Speed-8 card per car.
        speed8_card=_frozen(
            np.array([np.flatnonzero(cards.is_speed8 & (first_car == k))[0] for k in range(V.N_CARS)], dtype=np.int16)
        ),
        powers=PowerTable(
            ids=tuple(p.id for p in db.powers),
            kind=_frozen(np.array([list(V.POWERS).index(p.id) for p in db.powers], dtype=np.int8)),
            bonus=_frozen(np.array([p.bonus for p in db.powers], dtype=np.int8)),
        ),
        tracks=tuple(_track_table(t) for t in db.tracks),
    )


def _rule_table(db: Database) -> RuleTable:
    r = db.rules
    return RuleTable(
        track=[t.id for t in db.tracks].index(r.track),
        prizes=_frozen(np.array(r.prizes, dtype=np.int16)),
        payouts=_frozen(np.array(r.bet_payouts, dtype=np.int16)),
        wild_bids=r.wild_bids,
        random_ties=r.auction_ties == "random",
        max_turns=r.max_turns,
        min_players=r.players.min,
        max_players=r.players.max,
    )


def _card_table(db: Database) -> CardTable:
    cards: list[SpeedCard] = [*db.speed_cards, *db.speed8_cards]
    width = max(len(c.moves) for c in cards)
    code = {car: k for k, car in enumerate(db.cars)} | {V.WILD: WILD}
    car = np.full((len(cards), width), NONE, dtype=np.int8)
    speed = np.zeros((len(cards), width), dtype=np.int8)
    for i, card in enumerate(cards):
        car[i, : len(card.moves)] = [code[m.car] for m in card.moves]
        speed[i, : len(card.moves)] = [m.speed for m in card.moves]

    def column(values, dtype) -> np.ndarray:
        return _frozen(np.array(values, dtype=dtype))

    return CardTable(
        ids=tuple(c.id for c in cards),
        car=_frozen(car),
        speed=_frozen(speed),
        n_cars=column([len(c.moves) for c in cards], np.int8),
        wilds=column([c.wilds for c in cards], np.int8),
        count=column([c.count for c in cards], np.int16),
        is_speed8=column([c.speed8 for c in cards], bool),
        bid=_frozen(_bids(car, speed, db.rules.wild_bids)),
    )


def _bids(car: np.ndarray, speed: np.ndarray, wild_bids: bool) -> np.ndarray:
    """(C, N_CARS) int8: what each card bids for each car up for auction."""
    colours = np.arange(V.N_CARS)
    shown = car[:, :, None] == colours  # (C, M, N_CARS): the card shows car k in slot m
    bid = np.where(shown, speed[:, :, None], 0).max(axis=1)
    if wild_bids:
        wild = np.where(car == WILD, speed, 0).max(axis=1)  # (C,): the fastest wild, 0 if none
        bid = np.where(shown.any(axis=1), bid, wild[:, None])
    return bid.astype(np.int8)


def _track_table(track: Track) -> TrackTable:
    index = {s.id: i for i, s in enumerate(track.spaces)}
    ahead = np.full((len(track.spaces), V.MAX_NEXT), NONE, dtype=np.int16)
    for i, space in enumerate(track.spaces):
        ahead[i, : len(space.next)] = [index[n] for n in space.next]

    def column(values, dtype) -> np.ndarray:
        return _frozen(np.array(values, dtype=dtype))

    return TrackTable(
        id=track.id,
        name=track.name,
        names=tuple(index),
        row=column([s.row for s in track.spaces], np.int16),
        lane=column([s.lane for s in track.spaces], np.int8),
        curve=column([s.curve for s in track.spaces], bool),
        next=_frozen(ahead),
        start=column([index[s] for s in track.start], np.int16),
        betting_rows=column(track.betting_lines, np.int16),
        finish_row=track.finish,
    )


def summarize(db: Database) -> Summary:
    """What `balance validate` prints: the two piles, then the cards by how
    many cars and wilds they carry."""
    cards = (*db.speed_cards, *db.speed8_cards)

    def tally(chosen) -> tuple[int, int]:
        chosen = list(chosen)
        return len(chosen), sum(c.count for c in chosen)

    by_type = {"regular": tally(db.speed_cards), "speed8": tally(db.speed8_cards)}
    sizes = sorted({len(c.moves) for c in cards})
    by_shape = {f"{n} car{'s' * (n > 1)}": tally(c for c in cards if len(c.moves) == n) for n in sizes}
    by_shape["a wild"] = tally(c for c in cards if c.wilds == 1)
    by_shape["two wilds"] = tally(c for c in cards if c.wilds == 2)
    return Summary(db.counts(), by_type, by_shape, db.warnings, flag_word="with")
