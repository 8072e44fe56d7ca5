"""The Shuffle Grand Prix database: what `shuffle_gp.yaml` may say, checked
with errors that point at the file and line.

`load_database(path)` is the entry point: YAML → structure (pydantic) →
effects and specialties (one model per op) → cards, decks and rules against
each other → a `Database` of plain, frozen values plus warnings for counts
that differ from the rulebook (../shared/seeds/002_1ef1e3a514a1bc24.txt).
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Annotated, Any, Literal

from pydantic import AfterValidator, Field, create_model
from pydantic_core import PydanticCustomError

from ...errors import Problem, did_you_mean, raise_first
from ...validation import ID_PATTERN, Strict, duplicate_ids, validate_items, validate_model, validate_top
from ...yamlio import YamlDoc, load_yaml
from . import vocabulary as V

# The rulebook's components: counts that differ are warnings, not errors.
RULEBOOK_DRIVERS = 8
RULEBOOK_DECK = 12  # ability cards per driver
RULEBOOK_DISTANCE = 50


# --- limits: what a designer may want and the engine can play (docs/shuffle_gp.md, "Limits") ---
# Each bounds an array's dtype, an allocation or a loop; the message says the limit.
MAX_PLAYERS = 8  # a scenario's own limit on `players`
MAX_DRIVERS = 24  # driver codes are int8; every player's zones are (games, players, card kinds)
MAX_DECK_ENTRIES = 20  # card entries in one driver's deck: card kinds K = drivers x entries
MAX_COPIES = 20  # copies of one card in its driver's deck
MAX_EFFECTS = 4  # the M effect slots of the (K, M) effect columns
MAX_TURN_SYMBOLS = 20  # equip, nerf and trap countdowns are int8
MAX_HAND = 10  # the anytime window loops over a hand once per player and turn
MAX_TIRE = V.HEALTH  # tire health, the co-pilot's and each shield slot are int8
MAX_EQUIP_SLOTS = 8  # (games, players, slots) equips, looped over at every hit
MAX_TRACKERS = 20  # more than the cards with a turn symbol that can be out at once changes nothing
MAX_PER_TURN = 10  # distance cards drawn and ability plays in a turn (a play phase plays at most 16)
MAX_TROPHIES = 100  # trophies and their costs: the finish order ranks trophies under distance
MAX_DISCARD = 10  # top distance cards lost at a spin-out or a pit stop: one step each
MAX_TURNS = 1000  # the turn cap: a race that cannot end stops within seconds (logged as int16)
MAX_DISTANCE_KINDS = 100  # distance stacks hold kind codes as int8
MAX_DISTANCE_VALUE = V.POINTS
MAX_DISTANCE_CARDS = 200  # stacks are (games, players, distance cards in the box)


def _range(low: int, high: int) -> Any:
    return Annotated[int, Field(ge=low, le=high)]


Id = Annotated[str, Field(pattern=ID_PATTERN)]
CardType = Literal[V.CARD_TYPES]  # type: ignore[valid-type]
Trigger = Literal[V.TRIGGERS]  # type: ignore[valid-type]

# List sections whose items are named by their id in messages (drivers.blaze.cards.blaze_ram.effects.0.op).
ID_LISTS = ("drivers", "cards")


# --- the file's structure ----------------------------------------------------------


class Players(Strict):
    min: _range(2, MAX_PLAYERS)
    max: _range(2, MAX_PLAYERS)


class Rules(Strict):
    players: Players
    drivers_each: Annotated[int, Field(ge=2)]  # a driver and a co-pilot: 2 (more is a cross check)
    hand_size: _range(1, MAX_HAND)
    tire_health: _range(1, MAX_TIRE)
    equip_slots: _range(1, MAX_EQUIP_SLOTS)  # every deck holds an equip card: it needs a slot
    turn_trackers: _range(0, MAX_TRACKERS)  # per player
    distance_per_turn: _range(1, MAX_PER_TURN)
    plays_per_turn: _range(1, MAX_PER_TURN)
    trophies: _range(0, MAX_TROPHIES)  # in the box
    trophy_swap: _range(1, MAX_TROPHIES)  # trophies spent to swap driver and co-pilot
    trophy_extra_play: _range(1, MAX_TROPHIES)  # trophies spent to play one more ability card
    spin_out_trophy: _range(1, MAX_TROPHIES)  # trophies to each player who caused a spin-out
    spin_out_discard: _range(0, MAX_DISCARD)  # top distance cards a spun-out player discards
    pit_stop_discard: _range(0, MAX_DISCARD)  # top distance cards a pit stop costs
    max_turns: _range(1, MAX_TURNS)  # a safety cap on turns in one race, all players together
    # Readings the rulebook leaves open (docs/rules.md); the defaults follow its words.
    spin_out_trophies: Literal["final_blow", "all_damagers"] = "final_blow"  # who gets a spin-out's trophy
    first_player_ties: Literal["redeal", "lowest_seat"] = "redeal"  # equal highest distance cards at setup
    bottom_pile: Literal["first_in_first_out", "random"] = "first_in_first_out"  # order cards come back from under
    anytime_cards: Literal["any_time", "turn_play"] = "any_time"  # anytime cards with effects: when they are played
    specialty_of: Literal["event_driver", "active_driver"] = "event_driver"  # whose specialty answers an event
    trap_damage_specialties: bool = False  # damage a trap deals sets off takes/deals_damage specialties
    pit_stop_equips: bool = True  # a pit stop's card is equipped: it springs plays_equip traps


class DistanceModel(Strict):
    value: _range(1, MAX_DISTANCE_VALUE)
    count: _range(0, MAX_DISTANCE_CARDS)  # the whole deck too (a cross check)
    name: str


class CardModel(Strict):
    id: Id
    name: str
    type: CardType
    count: _range(1, MAX_COPIES)  # copies in the driver's deck
    turns: _range(0, MAX_TURN_SYMBOLS) = 0  # turn symbols: equips, nerfs, traps expire after this many; 0: never
    trigger: Trigger | None = None  # traps only
    cancels: str | None = None  # anytime only (checked against vocabulary.CANCELS with a plain message)
    effects: Annotated[list[dict[Any, Any]], Field(max_length=MAX_EFFECTS)] = []
    text: str


class DriverModel(Strict):
    id: Id
    name: str
    specialty: dict[Any, Any]
    cards: Annotated[list[Any], Field(min_length=1, max_length=MAX_DECK_ENTRIES)]


class DatabaseModel(Strict):
    rules: dict[Any, Any]
    distance: Annotated[list[Any], Field(min_length=1, max_length=MAX_DISTANCE_KINDS)]
    drivers: Annotated[list[Any], Field(min_length=1, max_length=MAX_DRIVERS)]


def _nonzero(value: int) -> int:
    if value == 0:
        raise PydanticCustomError("nonzero", "must not be 0 (a signed amount: + helps the car, - hurts it)", {})
    return value


def _amount_type(op: V.OpSpec) -> Any:
    """A count: 1 to the op's largest; signed: not 0, within the largest either way."""
    if op.amount == "count":
        return _range(1, op.most)
    return Annotated[int, Field(ge=-op.most, le=op.most), AfterValidator(_nonzero)]


def _op_model(op: V.OpSpec, specialty: bool) -> type[Strict]:
    """One model per op: its amount as the op says; `target` is checked by hand
    (a message per way it can be wrong), a specialty adds its name, condition, text."""
    fields: dict[str, Any] = {"name": (str, ...), "when": (str, ...)} if specialty else {}
    fields |= {"op": (Literal[op.name], ...), "target": (str | None, None)}
    if op.amount != "none":
        fields["amount"] = (_amount_type(op), ... if op.default is None else op.default)
    if specialty:
        fields["text"] = (str, ...)
    suffix = "Specialty" if specialty else "Effect"
    return create_model(f"{op.name.title().replace('_', '')}{suffix}", __base__=Strict, **fields)


EFFECT_MODELS = {name: _op_model(op, False) for name, op in V.OPS.items()}
SPECIALTY_MODELS = {name: _op_model(op, True) for name, op in V.OPS.items()}


# --- the validated database ----------------------------------------------------------


@dataclass(frozen=True)
class Effect:
    op: str  # one of vocabulary.OPS
    target: str | None  # one of vocabulary.TARGETS; None for ops that take none
    amount: int  # 0 for ops without an amount


@dataclass(frozen=True)
class Specialty:
    name: str
    when: str  # one of vocabulary.CONDITIONS
    effect: Effect
    text: str


@dataclass(frozen=True)
class Card:
    id: str
    name: str
    driver: str  # the id of the driver whose deck holds it
    type: str  # one of vocabulary.CARD_TYPES
    count: int  # copies in the driver's deck
    turns: int  # turn symbols; 0 = until removed (and for cards that never stay out)
    trigger: str | None  # traps: one of vocabulary.TRIGGERS
    cancels: str | None  # anytime cards: one of vocabulary.CANCELS, or None
    effects: tuple[Effect, ...]  # resolved top to bottom
    text: str


@dataclass(frozen=True)
class Driver:
    id: str
    name: str
    specialty: Specialty
    cards: tuple[Card, ...]

    @property
    def deck_size(self) -> int:
        return sum(c.count for c in self.cards)


@dataclass(frozen=True)
class DistanceCard:
    value: int
    count: int
    name: str


@dataclass(frozen=True)
class Database:
    source: str
    rules: Rules
    distance: tuple[DistanceCard, ...]
    drivers: tuple[Driver, ...]
    warnings: tuple[Problem, ...] = field(default=())

    @property
    def cards(self) -> tuple[Card, ...]:
        """Every driver's cards, driver by driver in file order."""
        return tuple(c for d in self.drivers for c in d.cards)

    def card(self, card_id: str) -> Card:
        return next(c for c in self.cards if c.id == card_id)

    def driver(self, driver_id: str) -> Driver:
        return next(d for d in self.drivers if d.id == driver_id)

    def counts(self) -> dict[str, int]:
        """Headline counts: drivers, ability cards (copies), distance cards."""
        return {
            "drivers": len(self.drivers),
            "ability cards": sum(d.deck_size for d in self.drivers),
            "distance cards": sum(c.count for c in self.distance),
        }


def load_database(path: str | Path) -> Database:
    """Load and check a Shuffle Grand Prix database; raises UserError on the first mistake."""
    return validate_database(load_yaml(path))


def validate_database(doc: YamlDoc) -> Database:
    top, rules, problems, label = validate_top(doc, DatabaseModel, Rules, ID_LISTS, "a Shuffle Grand Prix")
    distance, more = validate_items(("distance",), DistanceModel, top.distance, doc, label)
    problems += more
    drivers, more = _drivers(top.drivers, doc, label)
    problems += more
    raise_first(problems)
    problems += _rules_checks(rules, len(top.drivers), doc)
    problems += _distance_checks(distance, rules, doc)
    problems += _driver_checks(drivers, doc, label)
    raise_first(problems)
    db = Database(
        source=doc.source,
        rules=rules,
        distance=tuple(DistanceCard(d.value, d.count, d.name) for _, d in distance),
        drivers=tuple(_driver(model, specialty, cards) for _, model, specialty, cards in drivers),
    )
    return replace(db, warnings=tuple(_warnings(db, doc, label)))


# --- drivers, specialties, cards, effects ---------------------------------------------


def _drivers(raws: list[Any], doc: YamlDoc, label):
    """(index, model, Specialty, [(index, CardModel, effects)]) per driver, and the problems."""
    models, problems = validate_items(("drivers",), DriverModel, raws, doc, label)
    out = []
    for i, model in models:
        where = ("drivers", i)
        specialty, more = _specialty(model.specialty, (*where, "specialty"), doc, label)
        problems += more
        cards, more = _cards(model, where, doc, label)
        problems += more
        if specialty is not None:
            out.append((i, model, specialty, cards))
    return out, problems


def _cards(model: DriverModel, where, doc: YamlDoc, label):
    """(index, CardModel, effects) per card of one driver, and the problems."""
    items, problems = validate_items((*where, "cards"), CardModel, model.cards, doc, label)
    cards = []
    for j, card in items:
        effects, more = _effects(card, (*where, "cards", j), doc, label)
        problems += more
        cards.append((j, card, effects))
    return cards, problems


def _driver(model: DriverModel, specialty: Specialty, cards) -> Driver:
    built = tuple(
        Card(c.id, c.name, model.id, c.type, c.count, c.turns, c.trigger, c.cancels, effects, c.text)
        for _, c, effects in cards
    )
    return Driver(model.id, model.name, specialty, built)


def _effects(card: CardModel, where, doc: YamlDoc, label) -> tuple[tuple[Effect, ...], list[Problem]]:
    effects, problems = [], []
    for k, raw in enumerate(card.effects):
        effect, more = _effect(raw, (*where, "effects", k), EFFECT_MODELS, card.type, None, doc, label)
        problems += more
        if effect is not None:
            effects.append(effect[0])
    return tuple(effects), problems


def _specialty(raw: dict[Any, Any], where, doc: YamlDoc, label) -> tuple[Specialty | None, list[Problem]]:
    when = raw.get("when")
    if isinstance(when, str) and when not in V.CONDITIONS:
        path = (*where, "when")
        known = ", ".join(V.CONDITIONS)
        return None, [doc.problem(path, f"{when!r} is not a known condition (known: {known})", label(path))]
    built, problems = _effect(raw, where, SPECIALTY_MODELS, None, when, doc, label)
    if built is None:
        return None, problems
    effect, model = built
    message = _condition_problem(V.OPS[effect.op], model.when)
    if message:
        path = (*where, "when")
        return None, [doc.problem(path, message, label(path))]
    return Specialty(model.name, model.when, effect, model.text), []


def _condition_problem(spec: V.OpSpec, when: str) -> str | None:
    if spec.kind == "lasting" and when != "always":
        return f"op {spec.name!r} lasts: a specialty with it holds while its driver drives (when: always)"
    if spec.kind == "instant" and when == "always":
        events = ", ".join(c for c in V.CONDITIONS if c != "always")
        return f"op {spec.name!r} happens once: give the event it follows ({events}), not always"
    return None


def _effect(raw: dict[Any, Any], path, models, card_type: str | None, when: str | None, doc: YamlDoc, label):
    """((Effect, model) or None, problems) for one effect of a card (card_type) or a specialty (when)."""
    op_name = raw.get("op")
    if op_name is None:
        return None, [doc.problem(path, "required field missing", label((*path, "op")))]
    if isinstance(op_name, dict | list):  # unhashable: not a word to look up
        what = "a mapping" if isinstance(op_name, dict) else "a list"
        message = f"expected one op name, got {what} (known: {', '.join(V.OPS)})"
        return None, [doc.problem((*path, "op"), message, label((*path, "op")))]
    if op_name not in V.OPS:
        known = ", ".join(V.OPS)
        return None, [
            doc.problem(
                (*path, "op"),
                f"unknown op {op_name!r}{did_you_mean(op_name, list(V.OPS))} (known: {known})",
                label((*path, "op")),
            )
        ]
    model, problems = validate_model(models[op_name], raw, doc, path, label)
    if model is None:
        return None, problems
    spec = V.OPS[op_name]
    found = _placement_problem(spec, card_type) if card_type else None
    if found is None:
        triggerer_ok = card_type == "trap" or when in V.TRIGGERER_CONDITIONS
        found = _target_problem(spec, model.target, triggerer_ok)
    if found is not None:
        name, message = found
        return None, [doc.problem((*path, name), message, label((*path, name)))]
    return (Effect(op_name, model.target, getattr(model, "amount", 0)), model), []


def _placement_problem(spec: V.OpSpec, card_type: str) -> tuple[str, str] | None:
    """An op on a card type that cannot carry it: instant ops resolve once, lasting ones sit on a car."""
    if card_type in spec.types:
        return None
    what = "happens once, when its card resolves" if spec.kind == "instant" else "lasts while its card sits on a car"
    return "op", f"op {spec.name!r} {what}: it goes on {_or(spec.types)} cards, not on {_a(card_type)} card"


def _target_problem(spec: V.OpSpec, target: str | None, triggerer_ok: bool) -> tuple[str, str] | None:
    if not spec.targets:
        if target is None:
            return None
        on = "you" if spec.kind == "instant" else "the car its card sits on"
        return "target", f"op {spec.name!r} takes no target: it acts on {on}"
    if target is None:
        return "target", "required field missing"
    if target not in V.TARGETS:
        return "target", f"{target!r} is not a known target (known: {', '.join(V.TARGETS)})"
    if target not in spec.targets:
        return "target", f"op {spec.name!r} cannot target {target!r} (its targets: {', '.join(spec.targets)})"
    if target == "triggerer" and not triggerer_ok:
        conditions = " or ".join(V.TRIGGERER_CONDITIONS)
        return "target", f"only a trap, or a specialty when {conditions}, has a triggerer"
    return None


def _a(word: str) -> str:
    return ("an " if word[0] in "aeiou" else "a ") + word


def _or(words: tuple[str, ...]) -> str:
    return words[0] if len(words) == 1 else f"{', '.join(words[:-1])} or {words[-1]}"


# --- cross-references and sanity checks ----------------------------------------------


def _rules_checks(rules: Rules, n_drivers: int, doc: YamlDoc) -> list[Problem]:
    problems = []
    players = rules.players
    if players.min > players.max:
        problems.append(doc.problem(("rules", "players", "min"), f"{players.min} is more than max ({players.max})"))
    need = players.max * rules.drivers_each
    if need > n_drivers:
        message = f"{players.max} players need {need} drivers ({rules.drivers_each} each); the file has {n_drivers}"
        problems.append(doc.problem(("rules", "players", "max"), message))
    elif rules.drivers_each != 2:  # the draft gives each player exactly two
        message = f"must be at most 2 (a driver and a co-pilot: the draft deals two each), got {rules.drivers_each}"
        problems.append(doc.problem(("rules", "drivers_each"), message))
    for name in ("trophy_swap", "trophy_extra_play"):
        cost = getattr(rules, name)
        if cost > rules.trophies:
            message = f"costs {cost} trophies, more than the {rules.trophies} in the box"
            problems.append(doc.problem(("rules", name), message))
    return problems


def _distance_checks(distance: list[tuple[int, DistanceModel]], rules: Rules, doc: YamlDoc) -> list[Problem]:
    problems, first_seen = [], {}
    for k, card in distance:
        if card.value in first_seen:
            message = f"value {card.value} is listed twice (first at line {first_seen[card.value]})"
            problems.append(doc.problem(("distance", k, "value"), message))
        else:
            first_seen[card.value] = doc.line_of(("distance", k, "value"))
    total = sum(card.count for _, card in distance)
    if total > MAX_DISTANCE_CARDS:
        message = f"{total} distance cards in all; at most {MAX_DISTANCE_CARDS} (each player's stack can hold them all)"
        problems.append(doc.problem(("distance",), message))
    elif total < rules.players.max:  # Setup: one card dealt to each player decides who goes first
        message = (
            f"{total} distance cards in all; {rules.players.max} players need at least {rules.players.max}"
            " (one is dealt to each at setup, and the race draws from them)"
        )
        problems.append(doc.problem(("distance",), message))
    return problems


def _driver_checks(drivers, doc: YamlDoc, label) -> list[Problem]:
    problems = duplicate_ids([(("drivers", i), model.id) for i, model, _, _ in drivers], doc, label)
    card_ids = [(("drivers", i, "cards", j), c.id) for i, _, _, cards in drivers for j, c, _ in cards]
    problems += duplicate_ids(card_ids, doc, label)
    for i, _, _, cards in drivers:
        for j, card, _ in cards:
            for name, message in _card_shape(card):
                path = ("drivers", i, "cards", j, name)
                problems.append(doc.problem(path, message, label(path)))
        problems += _deck_types(i, [c for _, c, _ in cards], doc, label)
    return problems


def _card_shape(card: CardModel) -> list[tuple[str, str]]:
    """(field, message) for each way the card does not fit its type."""
    out = []
    if card.type == "trap" and card.trigger is None:
        out.append(("trigger", f"a trap needs a trigger: what sets it off (known: {', '.join(V.TRIGGERS)})"))
    if card.type != "trap" and card.trigger is not None:
        out.append(("trigger", f"only traps have a trigger; this is {_a(card.type)} card"))
    if card.cancels is not None and card.type != "anytime":
        out.append(("cancels", f"only anytime cards cancel; this is {_a(card.type)} card"))
    elif card.cancels is not None and card.cancels not in V.CANCELS:
        out.append(("cancels", f"{card.cancels!r} is not a known cancel kind (known: {', '.join(V.CANCELS)})"))
    if card.turns and card.type in ("action", "anytime"):
        message = f"{_a(card.type)} card resolves at once: turns must be 0 (only equip, nerf and trap cards expire)"
        out.append(("turns", message))
    if not card.effects and card.cancels is None:
        out.append(("effects", "an anytime card needs effects or cancels" if card.type == "anytime" else "no effects"))
    return out


def _deck_types(i: int, cards: list[CardModel], doc: YamlDoc, label) -> list[Problem]:
    """Every deck holds each of the five types: the driver card counts each (rulebook, Drivers)."""
    present = {c.type for c in cards}
    missing = tuple(t for t in V.CARD_TYPES if t not in present)
    if not missing:
        return []
    path = ("drivers", i, "cards")
    message = f"the deck has no {_or(missing)} card; every deck holds all five types ({', '.join(V.CARD_TYPES)})"
    return [doc.problem(path, message, label(path))]


def _warnings(db: Database, doc: YamlDoc, label) -> list[Problem]:
    warnings = []
    if len(db.drivers) != RULEBOOK_DRIVERS:
        message = f"{len(db.drivers)} drivers (the rulebook has {RULEBOOK_DRIVERS})"
        warnings.append(doc.problem(("drivers",), message, "count of drivers"))
    for i, driver in enumerate(db.drivers):
        if driver.deck_size != RULEBOOK_DECK:
            path = ("drivers", i, "cards")
            message = f"{driver.deck_size} ability cards (the rulebook has {RULEBOOK_DECK} per driver)"
            warnings.append(doc.problem(path, message, label(path)))
    total = db.counts()["distance cards"]
    if total != RULEBOOK_DISTANCE:
        message = f"{total} distance cards (the rulebook has {RULEBOOK_DISTANCE})"
        warnings.append(doc.problem(("distance",), message, "count of distance cards"))
    return warnings
