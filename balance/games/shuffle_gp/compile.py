"""Compile a validated Shuffle Grand Prix database into read-only numpy
tables, built once and passed to the engine beside the state.

Ability cards are indexed 0..K-1: every driver's cards, driver by driver in
file order. A card's effects are M fixed slots, resolved in order: `op`,
`target` and `amount`, each (K, M), padded with NONE (op, target) and 0
(amount). We chose padded slots over Horsepower's one-row-per-effect table
and over Heat's one amount column per op because a card here may repeat an op
with different targets (Redline: draw distance, then damage yourself), the
order matters (steal, then damage), and M is tiny (at most 4): the engine
loops over the M slots and, in each, gathers the played cards' codes for a
whole batch of games at once. Drivers' specialties are one op each, so they
are (D,) columns.
"""

from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass

import numpy as np

from ..base import Summary
from . import vocabulary as V
from .schema import Card, Database, Effect

NONE = -1  # code for "not applicable" in categorical columns, and the padding of effect slots


def _frozen(array: np.ndarray) -> np.ndarray:
    array.setflags(write=False)
    return array


def _column(values, dtype) -> np.ndarray:
    return _frozen(np.array(values, dtype=dtype))


def _code(words: tuple[str, ...], word: str | None) -> int:
    return NONE if word is None else words.index(word)


@dataclass(frozen=True)
class RuleTable:
    min_players: int
    max_players: int
    drivers_each: int  # a driver and a co-pilot
    hand_size: int
    tire_health: int
    equip_slots: int
    turn_trackers: int  # per player
    distance_per_turn: int
    plays_per_turn: int
    trophies: int  # in the box
    trophy_swap: int  # trophies spent to swap driver and co-pilot
    trophy_extra_play: int  # trophies spent to play one more ability card
    spin_out_trophy: int  # trophies to each player who caused a spin-out
    spin_out_discard: int  # top distance cards a spun-out player discards
    pit_stop_discard: int  # top distance cards a pit stop costs
    max_turns: int  # a safety cap on turns in one race, all players together
    spin_out_trophies: str  # "final_blow": the dealer of the final blow; "all_damagers": all since the driver took over
    first_player_ties: str  # "redeal": the tied players are dealt again; "lowest_seat": the earliest seat
    bottom_pile: str  # "first_in_first_out": discarded distance cards come back in the order they went under
    anytime_cards: str  # "any_time": outside the turn's play, drawing after; "turn_play": as the turn's ability play
    specialty_of: (
        str  # "event_driver": the driver at the wheel when the event happened; "active_driver": once it is done
    )
    trap_damage_specialties: bool  # damage a trap deals sets off takes_damage and deals_damage specialties
    pit_stop_equips: bool  # a pit stop equips the card it swaps in: it springs plays_equip traps


@dataclass(frozen=True)
class DistanceTable:
    names: tuple[str, ...]  # (V,): Snail, Dog, ...
    value: np.ndarray  # (V,) int16: distance points of each kind
    count: np.ndarray  # (V,) int16: copies in the distance deck

    def deck(self) -> np.ndarray:
        """(N,) int16: the value of every distance card, kind by kind (shuffle before dealing)."""
        return np.repeat(self.value, self.count)


@dataclass(frozen=True)
class DriverTable:
    ids: tuple[str, ...]  # (D,)
    names: tuple[str, ...]  # (D,)
    when: np.ndarray  # (D,) int8: the specialty's condition, index into vocabulary.CONDITIONS
    op: np.ndarray  # (D,) int8: the specialty's op, index into vocabulary.OPS
    target: np.ndarray  # (D,) int8: index into vocabulary.TARGETS; NONE for ops without a target
    amount: np.ndarray  # (D,) int16: 0 for ops without an amount

    def index(self, driver_id: str) -> int:
        return self.ids.index(driver_id)


@dataclass(frozen=True)
class CardTable:
    ids: tuple[str, ...]  # (K,)
    names: tuple[str, ...]  # (K,)
    driver: np.ndarray  # (K,) int8: index into Tables.drivers of the deck that holds the card
    type: np.ndarray  # (K,) int8: index into vocabulary.CARD_TYPES
    count: np.ndarray  # (K,) int16: copies in its driver's deck
    turns: np.ndarray  # (K,) int8: turn symbols; 0 = stays until removed (or never stays out)
    trigger: np.ndarray  # (K,) int8: traps: index into vocabulary.TRIGGERS; NONE otherwise
    cancels: np.ndarray  # (K,) int8: anytime cards: index into vocabulary.CANCELS; NONE otherwise
    op: np.ndarray  # (K, M) int8: each effect slot's op, index into vocabulary.OPS; NONE pads
    target: np.ndarray  # (K, M) int8: index into vocabulary.TARGETS; NONE for no target and padding
    amount: np.ndarray  # (K, M) int16: 0 for ops without an amount and padding
    n_effects: np.ndarray  # (K,) int8: slots in use

    def index(self, card_id: str) -> int:
        return self.ids.index(card_id)

    def has_op(self, name: str) -> np.ndarray:
        """(K,) bool: cards with at least one effect of this op."""
        return (self.op == list(V.OPS).index(name)).any(axis=1)

    def deck(self, drivers: list[int]) -> np.ndarray:
        """(K,) int16: copies in the ability deck of a player with these drivers
        (driver and co-pilot are shuffled together, rulebook Setup 5)."""
        return np.where(np.isin(self.driver, drivers), self.count, 0).astype(np.int16)


@dataclass(frozen=True)
class Tables:
    rules: RuleTable
    distance: DistanceTable
    drivers: DriverTable
    cards: CardTable


def compile_database(db: Database) -> Tables:
    return Tables(
        rules=_rule_table(db),
        distance=DistanceTable(
            names=tuple(d.name for d in db.distance),
            value=_column([d.value for d in db.distance], np.int16),
            count=_column([d.count for d in db.distance], np.int16),
        ),
        drivers=_driver_table(db),
        cards=_card_table(db),
    )


def _rule_table(db: Database) -> RuleTable:
    r = db.rules
    # Every other rule keeps its name from the file: copied by name.
    plain = {name: getattr(r, name) for name in RuleTable.__dataclass_fields__ if name in type(r).model_fields}
    return RuleTable(min_players=r.players.min, max_players=r.players.max, **plain)


def _driver_table(db: Database) -> DriverTable:
    effects = [d.specialty.effect for d in db.drivers]
    return DriverTable(
        ids=tuple(d.id for d in db.drivers),
        names=tuple(d.name for d in db.drivers),
        when=_column([V.CONDITIONS.index(d.specialty.when) for d in db.drivers], np.int8),
        op=_column([list(V.OPS).index(e.op) for e in effects], np.int8),
        target=_column([_code(V.TARGETS, e.target) for e in effects], np.int8),
        amount=_column([e.amount for e in effects], np.int16),
    )


def _card_table(db: Database) -> CardTable:
    cards = db.cards
    driver_index = {d.id: i for i, d in enumerate(db.drivers)}
    width = max(1, max(len(c.effects) for c in cards))
    op = np.full((len(cards), width), NONE, dtype=np.int8)
    target = np.full((len(cards), width), NONE, dtype=np.int8)
    amount = np.zeros((len(cards), width), dtype=np.int16)
    op_codes = {name: i for i, name in enumerate(V.OPS)}
    for i, card in enumerate(cards):
        for m, effect in enumerate(card.effects):
            op[i, m] = op_codes[effect.op]
            target[i, m] = _code(V.TARGETS, effect.target)
            amount[i, m] = effect.amount
    return CardTable(
        ids=tuple(c.id for c in cards),
        names=tuple(c.name for c in cards),
        driver=_column([driver_index[c.driver] for c in cards], np.int8),
        type=_column([V.CARD_TYPES.index(c.type) for c in cards], np.int8),
        count=_column([c.count for c in cards], np.int16),
        turns=_column([c.turns for c in cards], np.int8),
        trigger=_column([_code(V.TRIGGERS, c.trigger) for c in cards], np.int8),
        cancels=_column([_code(V.CANCELS, c.cancels) for c in cards], np.int8),
        op=_frozen(op),
        target=_frozen(target),
        amount=_frozen(amount),
        n_effects=_column([len(c.effects) for c in cards], np.int8),
    )


def summarize(db: Database) -> Summary:
    """What `balance validate` would print: cards by type, then by driver."""

    def tally(chosen) -> tuple[int, int]:
        chosen = list(chosen)
        return len(chosen), sum(c.count for c in chosen)

    by_type = {t: tally(c for c in db.cards if c.type == t) for t in V.CARD_TYPES}
    by_driver = {d.id: tally(d.cards) for d in db.drivers}
    return Summary(db.counts(), by_type, by_driver, db.warnings, flag_word="driver")


# --- paper balance: what a deck is worth before any race is run -----------------------
#
# Ours, a designer's yardstick and not a rule. Each effect is counted in one of
# four buckets; `value` turns them into distance points of your lead over the
# average rival in a 3-player race (the middle of 2 to 4): what you gain counts
# in full, what a rival loses counts 1/RIVALS (all_rivals: RIVALS rivals, so in
# full). tests/test_shuffle_gp_data.py holds the shipped decks within 15% of
# each other; the engine, once it races them, is the real judge.

RIVALS = 2  # rivals in a 3-player race
PERMANENT_TURNS = 3  # a card that stays until removed is counted as staying 3 turns
HIT_RATE = 0.5  # damage effects a car deals, or takes, per turn
HEAL_USE = 0.75  # healing partly wasted: no over-healing (FAQ)
CANCEL_WORTH = 1.5  # tire damage an anytime cancel saves: an average attack card
DAMAGE_POINTS = 20  # a point of tire damage in distance points: 4 spin a car out, which costs its top
# distance card (58 on average), its hand and equips, and gives a trophy; less heals and overkill
PLAY_POINTS = 25  # an ability play in distance points
# Ops aimed at a rival whose worth is counted as your gain: the card or distance card you take.
GAINS = ("steal_card", "swap_top_distance")
RATES = {"damage": DAMAGE_POINTS, "defence": DAMAGE_POINTS, "distance": 1, "plays": PLAY_POINTS}


@dataclass(frozen=True)
class Paper:
    """One driver's deck on paper, per ability card (copies counted)."""

    damage: float  # tire damage dealt to rivals (all_rivals: RIVALS of them)
    defence: float  # tire damage prevented or healed for yourself (self-damage counts against it)
    distance: float  # distance points gained, or taken from rivals
    plays: float  # ability plays gained, or taken from rivals (steals, skips, extra plays)
    value: float  # your lead over the average rival, in distance points


def paper_profile(db: Database) -> dict[str, Paper]:
    """Driver id -> the paper worth of its deck; specialties are left out."""
    mean = sum(d.value * d.count for d in db.distance) / max(1, sum(d.count for d in db.distance))
    out = {}
    for driver in db.drivers:
        buckets: dict[str, float] = defaultdict(float)
        value = 0.0
        for card in driver.cards:
            for bucket, worth, on_rivals in _card_worth(card, mean):
                buckets[bucket] += card.count * worth
                value += card.count * worth * RATES[bucket] / (RIVALS if on_rivals else 1)
        size = max(1, driver.deck_size)
        out[driver.id] = Paper(**{name: buckets[name] / size for name in RATES}, value=value / size)
    return out


def _card_worth(card: Card, mean: float) -> list[tuple[str, float, bool]]:
    """(bucket, worth, lands on rivals) of one copy of the card."""
    worth = []
    for e in card.effects:
        on_rivals = card.type == "nerf" or e.op == "damage_bonus" or (e.target in V.RIVAL_TARGETS and e.op not in GAINS)
        worth += [(bucket, amount, on_rivals) for bucket, amount in _effect_worth(e, card, mean)]
    if card.cancels is not None:
        worth.append(("defence", CANCEL_WORTH, False))
    return worth


def _effect_worth(e: Effect, card: Card, mean: float) -> list[tuple[str, float]]:
    """(bucket, worth) of one copy of one effect, counting all_rivals as RIVALS rivals."""
    hits = RIVALS if e.target == "all_rivals" else -1 if e.target == "self" else 1
    lasting = (card.turns or PERMANENT_TURNS) * (-1 if card.type == "nerf" else 1)  # a nerf's minus helps you
    match e.op:
        case "damage":
            return [("defence", -e.amount)] if e.target == "self" else [("damage", e.amount * hits)]
        case "heal":
            return [("defence", e.amount * HEAL_USE)]
        case "shield":
            return [("defence", e.amount)]
        case "damage_reduction":
            return [("defence" if lasting > 0 else "damage", e.amount * lasting * HIT_RATE)]
        case "damage_bonus":
            return [("damage" if lasting > 0 else "defence", e.amount * lasting * HIT_RATE)]
        case "distance_bonus":
            return [("distance", e.amount * lasting)]
        case "discard_distance":
            return [("distance", mean * e.amount * hits)]
        case "draw_distance":
            return [("distance", mean * e.amount)]
        case "swap_top_distance":
            return [("distance", mean / 2)]  # you swap when it pays
        case "skip_turn":
            return [("distance", mean * e.amount * hits), ("plays", e.amount * hits)]
        case "no_ability_play":
            return [("plays", abs(lasting))]
        case "steal_card" | "draw_ability":
            return [("plays", 0.5 * e.amount * max(hits, 1))]  # a choice of cards, not a play: the hand refills
        case "extra_play" | "remove_nerf":
            return [("plays", e.amount)]
        case "remove_equip":
            return [("plays", e.amount * hits)]
    raise AssertionError(f"no paper worth for op {e.op!r}")
