"""The Heat database: what `heat.yaml` may say, checked with errors that point
at the file and line.

`load_database(path)` is the entry point: YAML → structure (pydantic) →
effects (one model per op) → cross-references and sanity checks → a
`Database` of plain, frozen values plus warnings for counts that differ from
the facts sheet (../shared/facts/heat.md).
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Annotated, Any, Literal

from pydantic import AfterValidator, Field, RootModel, create_model
from pydantic_core import PydanticCustomError

from ...errors import Problem, did_you_mean, raise_first
from ...validation import ID_PATTERN, Strict, duplicate_ids, validate_items, validate_model, validate_top
from ...yamlio import YamlDoc, load_yaml
from . import vocabulary as V

# The facts sheet's numbers: counts that differ are warnings, not errors.
FACT_COUNTS = {"basic speed cards": 12, "starting upgrades": 3, "Legend cards": 10}

ID_LISTS = (
    "cards",
    "tracks",
    "weather",
    "road_conditions",
    "events",
    "seasons",
)  # list sections whose items errors name by id

# --- limits -------------------------------------------------------------------
# Every number has a range a designer could want and the engine can play: the
# compiled tables and the race state are narrow integers (compile.py, state.py),
# and the sums and products of these limits must fit them (checked, with the
# reasoning, in tests/test_limits_heat.py, which also plays a database with every
# field at its largest). docs/heat.md, "Limits", lists them for designers.
MAX_ROUNDS = 200  # round and turn counters are int16; a race that cannot finish stops after this many rounds
MAX_GEARS = 8  # gear is int8; a round plays up to `gears` cards, whose effects add up in int8 fields
MAX_AMOUNT = 10  # an op's amount on one card: 8 cards x 10 (+ 20 from the rules) stays within int8's 127
MAX_RULE = 20  # the rules' Heat costs, Cooldown, Stress, slipstream and Adrenaline numbers (int8 tables)
MAX_SPEED = 20  # printed speeds and choices (int8)
MAX_FLIPS = 10  # "+" symbols on a card (int8)
MAX_HAND = 20  # Heat returns to the Engine only from the hand: 20 a turn keeps Heat paid over a race in int16
MAX_COPIES = 20  # copies of a card in a deck or the Garage pool (int16 piles; the log has a row per copy)
MAX_CARDS = 200  # card kinds: every pile is (races, cars, kinds)
MAX_LAPS = 10  # a race of 10 x 200 spaces plus the longest move (about 2,100) keeps positions in int16
MAX_SPACES = 200  # and below course.FAR (10,000), the corner line nobody reaches
MAX_CORNERS = 30  # corners a lap: next_corner is int8; each corner is two columns of the games log
MAX_LIMIT = 100  # corner limits, Legend speeds and corner bonuses (int8)
MAX_TRACK_CARDS = 30  # Heat in each Engine, Stress in each deck (int16)
MAX_CARS = 8  # the box's 6, Heavy Rain's 7th and Tunnel Vision's 8th
MAX_DRAFT = 15  # Garage upgrades each and extra cards revealed: the pick number is int8 (15 x 8 cars)
MAX_STRESS_SUPPLY = 1_000  # Stress in the box (int16)
MAX_TRACKS = 50
MAX_LEGEND_CARDS = 100
MAX_DIAMONDS = 10  # diamond columns of a Legend card (the published cards have 4)
MAX_COLOURS = 6  # the box's car colours: every Legend card gives each a helmet number
MAX_WEATHER = 50  # Weather tokens, and Road Conditions token kinds (int8 codes)
MAX_EVENTS = 100  # Event cards, and seasons
MAX_SEASON_RACES = 10  # races in a season: the players log has columns for each
MAX_POINTS = 100  # a place's Championship points (int16 totals over a season)

RuleNumber = Annotated[int, Field(ge=0, le=MAX_RULE)]
Gear = Annotated[int, Field(ge=1, le=MAX_GEARS)]
Id = Annotated[str, Field(pattern=ID_PATTERN)]
CardType = Literal[V.CARD_TYPES]  # type: ignore[valid-type]
Tier = Literal[V.TIERS]  # type: ignore[valid-type]


def _speed(value: Any) -> int | tuple[int, ...] | None:
    """A printed speed: a number, a list of numbers to choose from, or null.

    Checked by hand rather than as a pydantic union, so that a wrong value
    gives one message instead of one per member of the union.
    """
    if value is None or _is_speed(value):
        return value
    if _is_int(value):
        _in_range(value, 0, MAX_SPEED)
    if not isinstance(value, list):
        raise PydanticCustomError(
            "speed",
            "expected a speed (0 to {most}), a list of speeds to choose from, or null; got {got}",
            {"most": MAX_SPEED, "got": _describe(value)},
        )
    if not value:
        raise PydanticCustomError("speed", "an empty list offers no speed to choose from", {})
    for item in value:
        if not _is_speed(item):
            raise PydanticCustomError(
                "speed", "{got} in the list is not a speed (0 to {most})", {"got": _describe(item), "most": MAX_SPEED}
            )
    if len(set(value)) < len(value):
        raise PydanticCustomError("speed", "a speed appears twice in the list", {})
    return tuple(value)


def _describe(value: Any) -> str:
    """A wrong value in a message: its repr, or what kind of thing it is."""
    if value is None:
        return "nothing (null)"
    return "a mapping" if isinstance(value, dict) else "a list" if isinstance(value, list) else repr(value)


def _in_range(value: int, low: int, high: int) -> int:
    """`value`, or the error the shared translation words for a pydantic bound."""
    if value < low:
        raise PydanticCustomError("greater_than_equal", "at least", {"ge": low})
    if value > high:
        raise PydanticCustomError("less_than_equal", "at most", {"le": high})
    return value


def _stress_supply(value: Any) -> int | str:
    """A number of Stress cards or the word unlimited, in one message (not one per member of a union)."""
    if value == "unlimited":
        return value
    if not _is_int(value):
        raise PydanticCustomError(
            "stress_supply",
            "expected a number of Stress cards (0 to {most}) or unlimited, got {got}",
            {"most": MAX_STRESS_SUPPLY, "got": _describe(value)},
        )
    return _in_range(value, 0, MAX_STRESS_SUPPLY)


def _is_int(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def _is_speed(value: Any) -> bool:
    return _is_int(value) and 0 <= value <= MAX_SPEED


Speed = Annotated[Any, AfterValidator(_speed)]


# --- rules -------------------------------------------------------------------


class Adrenaline(Strict):
    last_cars_upto_4: Annotated[int, Field(ge=0, le=MAX_CARS)]  # cars that get Adrenaline when 2 to 4 started
    last_cars_5_6: Annotated[int, Field(ge=0, le=MAX_CARS)]  # ... when 5 or 6 started
    last_cars_7_8: Annotated[int, Field(ge=0, le=MAX_CARS)] = 2  # ... 7 or 8 (the expansions' cars; ours)
    speed: RuleNumber
    cooldown: RuleNumber
    mode: Literal[V.ADRENALINE_MODES] = "either"  # type: ignore[valid-type]


class GarageHeat(Strict):
    """Heat cards shuffled into the Garage pool, by tier (BGA's upgrade deck: two among the basic
    upgrades, two among the advanced, its Cards.php types 17 and 48). Drafted, one is the rules' Heat card."""

    basic: Annotated[int, Field(ge=0, le=MAX_COPIES)] = 2
    advanced: Annotated[int, Field(ge=0, le=MAX_COPIES)] = 2

    @property
    def total(self) -> int:
        return self.basic + self.advanced


class GarageDraft(Strict):
    upgrades_each: Annotated[int, Field(ge=0, le=MAX_DRAFT)]
    order: Literal[V.DRAFT_ORDERS] = "snake"  # type: ignore[valid-type]
    # cards revealed each draft round: the players plus this many
    revealed_extra: Annotated[int, Field(ge=0, le=MAX_DRAFT)] = 3
    heat_cards: GarageHeat = GarageHeat()  # Heat cards in the Garage pool (BGA's: 2 basic, 2 advanced)


class Championship(Strict):
    """How a season is played (facts heat-modules 2.1): the rules every season's races share."""

    points: Annotated[list[Annotated[int, Field(ge=0, le=MAX_POINTS)]], Field(max_length=8)] = [9, 6, 4, 3, 2, 1]
    upgrades_per_race: Annotated[int, Field(ge=0, le=MAX_DRAFT)] = 1  # Garage upgrades drafted before each race
    revealed_extra: Annotated[int, Field(ge=0, le=MAX_DRAFT)] = 3  # the draft reveals one per player plus this many
    swap: bool = True  # the first picker may swap an upgrade it owns for one left in the draft
    press_margin: RuleNumber = 2  # pressing a Press Corner: Speed at least its limit plus this many
    weather_module: bool = True  # each race draws Weather and Road Conditions (the facts' season flow)


class Grid(Strict):
    cars_per_space: Annotated[int, Field(ge=1, le=2)]  # a space has two lanes
    # the grid stands behind the start/finish line (and after the last corner: a track check)
    pole_space: Annotated[int, Field(ge=-MAX_SPACES, le=-1)]


def _weather_choice(value: Any) -> str:
    """random, or a Weather token's id (checked against the tokens later)."""
    if not isinstance(value, str):
        raise PydanticCustomError(
            "weather", "expected random or a Weather token's id, got {got}", {"got": _describe(value)}
        )
    return value


def _road_choice(value: Any) -> str | tuple[str, ...]:
    """random, or a list of Road Conditions token ids, one per corner in driving order."""
    if value == "random":
        return value
    if not isinstance(value, list) or not all(isinstance(v, str) for v in value):
        raise PydanticCustomError(
            "road_conditions",
            "expected random or a list of Road Conditions token ids, one per corner, got {got}",
            {"got": _describe(value)},
        )
    return tuple(value)


class Rules(Strict):
    track: Id = "usa"  # the track raced (an id under tracks)
    garage_module: bool = False  # draft Garage upgrades instead of the starting upgrades
    weather_module: bool = False  # Weather and Road Conditions: a Weather token and a Road token per corner
    expansions: list[Literal[V.EXPANSIONS]] = []  # type: ignore[valid-type]  # their Garage upgrades join the pool
    flooded_heat: RuleNumber = 1  # Heavy Rain: Heat per gear down, starting the round on a flooded space
    weather: Annotated[Any, AfterValidator(_weather_choice)] = "random"  # or a token's id: fixed for every race
    road_conditions: Annotated[Any, AfterValidator(_road_choice)] = "random"  # or token ids, one per corner
    hand_size: Annotated[int, Field(ge=1, le=MAX_HAND)]
    gears: Gear
    starting_gear: Gear  # and at most `gears` (cross-checked)
    spin_out_gear: Gear
    shift_two_heat: RuleNumber
    cooldown_by_gear: list[RuleNumber]
    boost_heat: RuleNumber
    boost_gears: list[Gear] = [1, 2, 3, 4]
    adrenaline: Adrenaline
    slipstream: RuleNumber
    spin_out_stress_by_gear: list[RuleNumber]
    max_rounds: Annotated[int, Field(ge=1, le=MAX_ROUNDS)]  # a scenario's max_rounds: lands here too
    max_cars: Annotated[int, Field(ge=2, le=MAX_CARS)]  # a 7th and 8th car only with the expansions (a scenario check)
    # Readings the excerpt leaves open (docs/rules.md); the defaults are ours.
    aggressive_legends: bool = False  # a Legend on a chevron space may cross one more corner line (two: double)
    pro_legends: RuleNumber = 0  # Pro Legends: added to every helmet number
    # the colours the Legend cars take, in grid order (each Legend card gives each its number and column)
    legend_colours: Annotated[list[Id], Field(min_length=1, max_length=MAX_COLOURS)]
    stress_supply: Annotated[Any, AfterValidator(_stress_supply)] = "unlimited"  # in the box (37 published)
    spin_out_heat: Literal["none", "engine"] = "none"  # what a car that spins out pays (engine: all it has, BGA's)
    garage_draft: GarageDraft
    grid: Grid
    season: Id | None = None  # a Championship season (an id under seasons): its races in turn; null: one race
    championship: Championship = Championship()


# --- cards, tracks, Legends ----------------------------------------------------


class CardModel(Strict):
    id: Id
    name: str
    type: CardType
    tier: Tier | None = None
    group: Id | None = None
    count: Annotated[int, Field(ge=0, le=MAX_COPIES)] | None  # null only for Stress: the track sets its copies
    speed: Speed
    flips: Annotated[int, Field(ge=0, le=MAX_FLIPS)] = 0
    effects: list[dict[Any, Any]] = []
    approximate: bool = False
    expansion: Literal[V.EXPANSIONS] | None = None  # type: ignore[valid-type]  # in the pool only with it on


class CornerModel(Strict):
    limit: Annotated[int, Field(ge=1, le=MAX_LIMIT)]
    gap: Annotated[int, Field(ge=1, le=MAX_SPACES)]
    legend_line: Annotated[int, Field(ge=1, le=MAX_SPACES)]  # and less than the previous corner's gap (cross-checked)
    chicane: bool = False  # this line is a chicane's exit, the line before it its entry (one Road token for both)
    chevrons: Annotated[int, Field(ge=0, le=MAX_SPACES)] = 0  # spaces with a chevron right before the corner line
    double_chevrons: Annotated[int, Field(ge=0, le=MAX_SPACES)] = 0  # of those, the last ones double (cross-checked)


SpaceRange = Annotated[list[Annotated[int, Field(ge=0, le=MAX_SPACES - 1)]], Field(min_length=2, max_length=2)]


class TrackModel(Strict):
    id: Id
    name: str
    laps: Annotated[int, Field(ge=1, le=MAX_LAPS)]
    spaces: Annotated[int, Field(ge=2, le=MAX_SPACES)]
    heat: Annotated[int, Field(ge=0, le=MAX_TRACK_CARDS)]
    stress: Annotated[int, Field(ge=0, le=MAX_TRACK_CARDS)]
    finish_line: Annotated[int, Field(ge=1, le=MAX_SPACES)]  # and before the last corner (cross-checked)
    corners: Annotated[list[CornerModel], Field(min_length=1, max_length=MAX_CORNERS)]
    flooded: list[SpaceRange] = []  # Heavy Rain: [first, last] spaces where a downshift costs Heat
    tunnels: list[SpaceRange] = []  # Tunnel Vision: [first, last] spaces where no card may be discarded
    # the Championship: the corners (1 = the first from the start line) Press letters name, A first;
    # [] every corner but a chicane's entry (España's board names five of its eleven lines)
    press_corners: Annotated[list[Annotated[int, Field(ge=1, le=MAX_CORNERS)]], Field(max_length=MAX_CORNERS)] = []


class SectorModel(Strict):
    """What a sector (from a corner line to the next) does to a car in it, in the React and Slipstream steps."""

    cooldown: Annotated[int, Field(ge=-MAX_RULE, le=MAX_RULE)] = 0  # added to the React step's Cooldown
    no_cooldown: bool = False  # no Cooldown at all in React (gear, cards, Adrenaline)
    slipstream: Annotated[int, Field(ge=0, le=MAX_RULE)] = 0  # spaces added to a slipstream started here
    no_slipstream_start: bool = False  # a slipstream may not start here (it may end here)
    free_boost: bool = False  # Boost costs no Heat here (still once a turn)
    weather: bool = False  # Road tokens only: the race's Weather token's sector effect applies here


class CornerEffectModel(Strict):
    """What a corner Road token does to its corner line."""

    limit: Annotated[int, Field(ge=-MAX_RULE, le=MAX_RULE)] = 0  # added to the speed limit (for Legends too)
    overheat: Annotated[int, Field(ge=0, le=MAX_RULE)] = 0  # Heat paid on top of the excess, when over the limit


class WeatherModel(Strict):
    id: Id
    name: str
    stress: Annotated[int, Field(ge=-MAX_TRACK_CARDS, le=MAX_TRACK_CARDS)] = 0  # Stress in each deck, + or -
    heat: Annotated[int, Field(ge=-MAX_TRACK_CARDS, le=MAX_TRACK_CARDS)] = 0  # Heat in each Engine, + or -
    heat_to_deck: Annotated[int, Field(ge=0, le=MAX_TRACK_CARDS)] = 0  # Engine Heat shuffled into the deck
    heat_to_discard: Annotated[int, Field(ge=0, le=MAX_TRACK_CARDS)] = 0  # Engine Heat put on the discard pile
    sector: SectorModel  # in the sectors that hold a Weather Road token


class RoadModel(Strict):
    id: Id
    name: str
    count: Annotated[int, Field(ge=0, le=MAX_CORNERS)]  # tokens of this kind in the box
    corner: CornerEffectModel | None = None  # a corner token: its corner line
    sector: SectorModel | None = None  # a sector token: every space from its corner line to the next


Helmet = Annotated[int, Field(ge=1, le=MAX_LIMIT)]


PressLetter = Annotated[str, Field(pattern="^[A-Z]$")]


class EventModel(Strict):
    """An Event card of the Championship (facts heat-modules 2.3): its Sponsorship cards dealt, its Press
    Corners, and the rule it changes for its race (every field left out changes nothing)."""

    id: Id
    name: str
    sponsors: Annotated[int, Field(ge=0, le=MAX_RULE)] = 0  # Sponsorship cards into each opening hand
    press: Annotated[list[PressLetter], Field(max_length=len(V.PRESS_LETTERS))] = []  # Press Corners, by letter
    laps: Annotated[int, Field(ge=-MAX_LAPS, le=MAX_LAPS)] = 0  # laps added to the track's (negative: fewer)
    hand_size: Annotated[int, Field(ge=1, le=MAX_HAND)] | None = None  # the hand drawn up to, instead of rules'
    engine_heat: Annotated[int, Field(ge=-MAX_TRACK_CARDS, le=MAX_TRACK_CARDS)] = 0  # Heat added to each Engine
    deck_stress: Annotated[int, Field(ge=-MAX_TRACK_CARDS, le=MAX_TRACK_CARDS)] = 0  # Stress added to each deck
    adrenaline: bool = True  # false: no Adrenaline in this race
    place_points: Annotated[list[Annotated[int, Field(ge=0, le=MAX_POINTS)]], Field(max_length=8)] = []  # added
    press_cards: Annotated[int, Field(ge=1, le=MAX_RULE)] = 1  # Sponsorship cards a press gains
    press_below_limit: bool = False  # a press gains only with Speed below the corner's limit (not over it)
    record_speed: Annotated[int, Field(ge=0, le=MAX_LIMIT)] = 0  # a turn at this Speed or more gains a card
    first_to_lap: Annotated[int, Field(ge=0, le=6)] = 0  # the first this many cars to complete lap 1 gain a card
    pass_cars: Annotated[int, Field(ge=0, le=6)] = 0  # passing this many cars or more in a turn gains a card
    spin_out_eliminates: bool = False  # a car that spins out is out of the race (no points)
    slipstream_gears: list[Gear] = []  # the gears a car may slipstream in ([]: every gear)
    discard_heat: bool = False  # Heat cards may be discarded in the discard step
    discard_stress: bool = False  # Stress cards may be discarded in the discard step
    discards_max: Annotated[int, Field(ge=0, le=MAX_HAND)] | None = None  # cards discarded a turn at most
    heat_out_per_lap: Annotated[int, Field(ge=0, le=MAX_RULE)] = 0  # Heat out of the game after each lap but the last


class SeasonRaceModel(Strict):
    track: Id
    event: Id


class SeasonDrawModel(Strict):
    """A season drawn at random for every game (BGA's Random championship: four of the tracks in a random
    order, each with an Event card of its own drawn at random)."""

    races: Annotated[int, Field(ge=1, le=MAX_SEASON_RACES)]
    tracks: Annotated[list[Id], Field(min_length=1, max_length=MAX_TRACKS)]
    events: Annotated[list[Id], Field(min_length=1, max_length=MAX_EVENTS)] | None = None  # None: every Event


class SeasonModel(Strict):
    id: Id
    name: str
    races: Annotated[list[SeasonRaceModel], Field(min_length=1, max_length=MAX_SEASON_RACES)] | None = None
    draw: SeasonDrawModel | None = None  # instead of races: each game's races drawn (championship.drawn_races)


class LegendModel(RootModel[Annotated[list[dict[Id, Helmet]], Field(min_length=1, max_length=MAX_DIAMONDS)]]):
    """A Legend card as printed: its diamond columns left to right (column d = its index), each holding the
    helmet numbers of some colours ({yellow: 11}); every colour appears once on a card (cross-checked)."""


class DatabaseModel(Strict):
    rules: dict[Any, Any]
    cards: Annotated[list[Any], Field(max_length=MAX_CARDS)]
    tracks: Annotated[list[Any], Field(max_length=MAX_TRACKS)]
    legends: Annotated[list[Any], Field(max_length=MAX_LEGEND_CARDS)]  # not empty (cross-checked)
    weather: Annotated[list[Any], Field(max_length=MAX_WEATHER)] = []  # Weather tokens (the module)
    road_conditions: Annotated[list[Any], Field(max_length=MAX_WEATHER)] = []  # Road Conditions token kinds
    events: Annotated[list[Any], Field(max_length=MAX_EVENTS)] = []  # the Championship's Event cards
    seasons: Annotated[list[Any], Field(max_length=MAX_EVENTS)] = []  # the Championship's seasons


def _op_model(op: V.OpSpec) -> type[Strict]:
    amount = Annotated[int, Field(ge=-MAX_AMOUNT if op.signed else 1, le=MAX_AMOUNT)]
    if op.signed:
        amount = Annotated[amount, AfterValidator(_nonzero)]
    fields: dict[str, Any] = {"op": (Literal[op.name], ...), "amount": (amount, ...)}
    return create_model(f"{op.name.title().replace('_', '')}Effect", __base__=Strict, **fields)


def _nonzero(value: int) -> int:
    if value == 0:
        raise PydanticCustomError("nonzero", "must not be 0 (a signed amount: + raises, - lowers)", {})
    return value


OP_MODELS = {name: _op_model(op) for name, op in V.OPS.items()}


# --- the validated database ----------------------------------------------------


@dataclass(frozen=True)
class Effect:
    op: str  # one of vocabulary.OPS
    amount: int


@dataclass(frozen=True)
class Card:
    id: str
    name: str
    type: str
    tier: str | None  # None only for Stress
    group: str | None  # Garage upgrades: brakes, tires, ...
    count: int | None  # copies per player deck (Garage: in the pool); None: Stress, set by the track
    speed: int | tuple[int, ...] | None  # a number, the choices offered when revealed, or none
    flips: int  # "+" symbols: draw until a basic speed card, add its value
    effects: tuple[Effect, ...]
    approximate: bool  # effects unclear in the facts; only the speed is trusted
    expansion: str | None = None  # heavy_rain, tunnel_vision: in the Garage pool only with rules.expansions


@dataclass(frozen=True)
class Corner:
    limit: int
    gap: int  # spaces to the next corner's line
    legend_line: int  # spaces before this corner's line where Legends slow down
    chevrons: int = 0  # spaces with a chevron right before the corner line (Aggressive Legends)
    double_chevrons: int = 0  # of those, the last ones (nearest the line) double
    chicane: bool = False  # a chicane's exit line (its entry: the line before)


@dataclass(frozen=True)
class Track:
    id: str
    name: str
    laps: int
    spaces: int  # per lap
    heat: int  # Heat cards in each Engine
    stress: int  # Stress cards in each deck
    finish_line: int  # spaces from the start/finish line to the first corner's line
    corners: tuple[Corner, ...]
    flooded: tuple[tuple[int, int], ...] = ()  # [first, last] spaces, Heavy Rain
    tunnels: tuple[tuple[int, int], ...] = ()  # [first, last] spaces, Tunnel Vision
    press_corners: tuple[int, ...] = ()  # corner indices (0-based) Press letters name, A first; () the usual ones


@dataclass(frozen=True)
class Sector:
    cooldown: int = 0
    no_cooldown: bool = False
    slipstream: int = 0
    no_slipstream_start: bool = False
    free_boost: bool = False
    weather: bool = False


@dataclass(frozen=True)
class Weather:
    id: str
    name: str
    stress: int  # Stress in each deck, + or -
    heat: int  # Heat in each Engine, + or -
    heat_to_deck: int  # Engine Heat shuffled into the draw deck
    heat_to_discard: int  # Engine Heat put on the discard pile
    sector: Sector  # in the sectors that hold a Weather Road token


@dataclass(frozen=True)
class Road:
    id: str
    name: str
    count: int
    limit: int  # corner tokens: added to the corner's limit
    overheat: int  # corner tokens: Heat on top of the excess
    sector: Sector | None  # sector tokens: the sector's effect; None for a corner token


@dataclass(frozen=True)
class LegendCard:
    helmet: dict[str, int]  # each colour's helmet number: spaces on a straight
    diamond: dict[str, int]  # each colour's diamond column: added to a corner's limit past its Legend line


@dataclass(frozen=True)
class Event:
    """An Event card (EventModel's fields): what its race deals, which corners it presses, what it changes."""

    id: str
    name: str
    sponsors: int = 0
    press: tuple[str, ...] = ()
    laps: int = 0
    hand_size: int | None = None
    engine_heat: int = 0
    deck_stress: int = 0
    adrenaline: bool = True
    place_points: tuple[int, ...] = ()
    press_cards: int = 1
    press_below_limit: bool = False
    record_speed: int = 0
    first_to_lap: int = 0
    pass_cars: int = 0
    spin_out_eliminates: bool = False
    slipstream_gears: tuple[int, ...] = ()
    discard_heat: bool = False
    discard_stress: bool = False
    discards_max: int | None = None
    heat_out_per_lap: int = 0


@dataclass(frozen=True)
class SeasonRace:
    track: str  # a track's id
    event: str  # an Event card's id


@dataclass(frozen=True)
class SeasonDraw:
    """How a season drawn at random draws its races: `races` of `tracks` in a random order, no track twice,
    each with an Event card of `events` drawn at random, no card twice, and no pair whose Event leaves its
    track no race (drawn again, as BGA draws a whole season again for Espana and the Drivers' strike)."""

    races: int
    tracks: tuple[str, ...]
    events: tuple[str, ...]


@dataclass(frozen=True)
class Season:
    id: str
    name: str
    races: tuple[SeasonRace, ...]  # a season of fixed races, in order (empty where drawn)
    draw: SeasonDraw | None = None  # a season drawn at random for every game

    @property
    def length(self) -> int:
        """How many races the season has."""
        return self.draw.races if self.draw is not None else len(self.races)

    def candidates(self) -> tuple[SeasonRace, ...]:
        """Every race the season may run: its own, or every track with every Event of its draw."""
        if self.draw is None:
            return self.races
        return tuple(SeasonRace(t, e) for t in self.draw.tracks for e in self.draw.events)


@dataclass(frozen=True)
class Database:
    source: str
    rules: Rules
    cards: tuple[Card, ...]
    tracks: tuple[Track, ...]
    legends: tuple[LegendCard, ...]
    warnings: tuple[Problem, ...] = field(default=())
    weather: tuple[Weather, ...] = ()
    road_conditions: tuple[Road, ...] = ()
    events: tuple[Event, ...] = ()
    seasons: tuple[Season, ...] = ()

    def event(self, event_id: str) -> Event:
        return next(e for e in self.events if e.id == event_id)

    def season(self, season_id: str) -> Season:
        return next(s for s in self.seasons if s.id == season_id)

    def card(self, card_id: str) -> Card:
        return next(c for c in self.cards if c.id == card_id)

    def track(self, track_id: str) -> Track:
        return next(t for t in self.tracks if t.id == track_id)

    def counts(self) -> dict[str, int]:
        """Headline counts: copies per pile, tracks, Legend cards."""

        def copies(*tiers: str) -> int:
            return sum(c.count or 0 for c in self.cards if c.tier in tiers)

        return {
            "basic speed cards": copies("basic_speed"),
            "starting upgrades": copies("starting"),
            "garage upgrades": copies(*V.GARAGE_TIERS),
            "sponsorship cards": copies("sponsor"),
            "tracks": len(self.tracks),
            "Legend cards": len(self.legends),
        }


def load_database(path: str | Path) -> Database:
    """Load and check a Heat database; raises UserError on the first mistake."""
    return validate_database(load_yaml(path))


def validate_database(doc: YamlDoc) -> Database:
    top, rules, problems, label = validate_top(doc, DatabaseModel, Rules, ID_LISTS, "a Heat")
    checked, more = validate_items(("cards",), CardModel, top.cards, doc, label)
    problems += more
    cards = []
    for i, card in checked:
        effects, effect_problems = _effects(card, doc, ("cards", i), label)
        problems += effect_problems
        cards.append((i, card, effects))
    tracks, more = validate_items(("tracks",), TrackModel, top.tracks, doc, label)
    problems += more
    legends, more = validate_items(("legends",), LegendModel, top.legends, doc, label)
    problems += more
    weather, more = validate_items(("weather",), WeatherModel, top.weather, doc, label)
    problems += more
    roads, more = validate_items(("road_conditions",), RoadModel, top.road_conditions, doc, label)
    problems += more
    events, more = validate_items(("events",), EventModel, top.events, doc, label)
    problems += more
    seasons, more = validate_items(("seasons",), SeasonModel, top.seasons, doc, label)
    problems += more
    raise_first(problems)
    problems += _rules_checks(rules, doc)
    problems += _weather_checks(weather, roads, rules, tracks, doc, label)
    problems += _card_checks(cards, doc, label)
    problems += _track_checks(tracks, rules, doc, label)
    problems += _garage_checks(cards, rules, doc)
    if not legends:  # what the Legend cars draw from, one card a round
        problems.append(doc.problem(("legends",), "no Legend cards: a Legend car draws one every round"))
    problems += _legend_checks(legends, rules, doc)
    problems += _legend_line_checks(legends, tracks, doc, label)
    problems += _season_checks(events, seasons, rules, tracks, cards, doc, label)
    raise_first(problems)
    db = Database(
        source=doc.source,
        rules=rules,
        cards=tuple(_card(c, effects) for _, c, effects in cards),
        tracks=tuple(_track(t) for _, t in tracks),
        legends=tuple(_legend(g) for _, g in legends),
        weather=tuple(_weather(w) for _, w in weather),
        road_conditions=tuple(_road(r) for _, r in roads),
        events=tuple(_event(e) for _, e in events),
        seasons=tuple(_season(s, events) for _, s in seasons),
    )
    return replace(db, warnings=tuple(_warnings(db, doc)))


def _season(s: SeasonModel, events) -> Season:
    if s.draw is None:
        return Season(s.id, s.name, tuple(SeasonRace(r.track, r.event) for r in s.races or ()))
    drawn = s.draw.events if s.draw.events is not None else [e.id for _, e in events]
    return Season(s.id, s.name, (), SeasonDraw(s.draw.races, tuple(s.draw.tracks), tuple(drawn)))


def _event(e: EventModel) -> Event:
    listed = {"press", "place_points", "slipstream_gears"}
    return Event(**{k: tuple(v) if k in listed else v for k, v in e.model_dump().items()})


def press_corners(track: Track) -> list[int]:
    """The corner lines (0-based) Press letters name, in order (A first): the track's own list, or every
    line from the start but a chicane's entry (a chicane is pressed at its exit line; the rulebook,
    Features on Expansion Maps)."""
    if track.press_corners:
        return list(track.press_corners)
    corners = track.corners
    return [k for k in range(len(corners)) if not (k + 1 < len(corners) and corners[k + 1].chicane)]


def press_corner(track: Track, letter: str) -> int:
    """The corner line (0-based) a Press letter names on this track: letters past its last corner count on
    from A again (BGA's reading: Italia's three corners make an E its B)."""
    named = press_corners(track)
    return named[V.PRESS_LETTERS.index(letter) % len(named)]


def _legend(card: LegendModel) -> LegendCard:
    columns = card.root
    helmet = {colour: number for column in columns for colour, number in column.items()}
    diamond = {colour: d for d, column in enumerate(columns) for colour in column}
    return LegendCard(helmet, diamond)


def _legend_checks(legends, rules: Rules, doc: YamlDoc) -> list[Problem]:
    """Every Legend card gives each of rules.legend_colours exactly one helmet number; no colour is listed
    twice. (How many Legend cars the colours allow is a scenario's check: chunk.legend_problem.)"""
    problems = []
    colours = rules.legend_colours
    if len(set(colours)) < len(colours):
        problems.append(doc.problem(("rules", "legend_colours"), "a colour is listed twice"))
    for i, card in legends:
        seen = [colour for column in card.root for colour in column]
        missing = [c for c in colours if c not in seen]
        twice = sorted({c for c in seen if seen.count(c) > 1})
        unknown = [c for c in seen if c not in colours]
        for what, names in (
            ("has no number for", missing),
            ("gives twice", twice),
            ("names no colour of rules.legend_colours:", unknown),
        ):
            if names:
                problems.append(doc.problem(("legends", i), f"this Legend card {what} {', '.join(names)}"))
    return problems


def _legend_line_checks(legends, tracks, doc: YamlDoc, label) -> list[Problem]:
    """A Legend stopped short of a corner stands d spaces before the space before its line (d its diamond
    column): past the Legend line, where it drives at the limit next round, only if every Legend line is at
    least the widest column's d + 1 spaces from its corner (4 with the published cards); else it stalls."""
    widest = max((d for _, card in legends for d, column in enumerate(card.root) if column), default=0)
    problems = []
    for i, track in tracks:
        for k, corner in enumerate(track.corners):
            previous = track.corners[k - 1].gap  # a Legend line at or behind the previous corner's line: the zone
            # starts there, and a Legend with this corner next always stands in it
            if corner.legend_line < widest + 1 and corner.legend_line < previous:
                path = ("tracks", i, "corners", k, "legend_line")
                message = (
                    f"{corner.legend_line} spaces: a Legend stopped short of this corner (diamond column {widest}) "
                    f"would stand before its Legend line; at least {widest + 1}"
                )
                problems.append(doc.problem(path, message, label(path)))
    return problems


def _sector(m: SectorModel) -> Sector:
    return Sector(m.cooldown, m.no_cooldown, m.slipstream, m.no_slipstream_start, m.free_boost, m.weather)


def _weather(w: WeatherModel) -> Weather:
    return Weather(w.id, w.name, w.stress, w.heat, w.heat_to_deck, w.heat_to_discard, _sector(w.sector))


def _road(r: RoadModel) -> Road:
    corner = r.corner or CornerEffectModel()
    return Road(r.id, r.name, r.count, corner.limit, corner.overheat, None if r.sector is None else _sector(r.sector))


def _card(c: CardModel, effects: tuple[Effect, ...]) -> Card:
    return Card(c.id, c.name, c.type, c.tier, c.group, c.count, c.speed, c.flips, effects, c.approximate, c.expansion)


def _track(t: TrackModel) -> Track:
    corners = tuple(Corner(c.limit, c.gap, c.legend_line, c.chevrons, c.double_chevrons, c.chicane) for c in t.corners)
    flooded = tuple((a, b) for a, b in t.flooded)
    tunnels = tuple((a, b) for a, b in t.tunnels)
    press = tuple(c - 1 for c in t.press_corners)
    return Track(t.id, t.name, t.laps, t.spaces, t.heat, t.stress, t.finish_line, corners, flooded, tunnels, press)


def _effects(card: CardModel, doc: YamlDoc, where, label) -> tuple[tuple[Effect, ...], list[Problem]]:
    effects, problems = [], []
    for j, raw in enumerate(card.effects):
        path = (*where, "effects", j)
        if "op" not in raw:
            problems.append(doc.problem(path, "required field missing", label((*path, "op"))))
            continue
        op_name = raw["op"]
        known = ", ".join(V.OPS)
        if not isinstance(op_name, str):  # a mapping or a list is no word, and cannot be looked up
            problems.append(
                doc.problem(
                    (*path, "op"), f"expected an op (known: {known}), got {_describe(op_name)}", label((*path, "op"))
                )
            )
            continue
        if op_name not in V.OPS:
            problems.append(
                doc.problem(
                    (*path, "op"),
                    f"unknown op {op_name!r}{did_you_mean(op_name, list(V.OPS))} (known: {known})",
                    label((*path, "op")),
                )
            )
            continue
        model, model_problems = validate_model(OP_MODELS[op_name], raw, doc, path, label)
        problems += model_problems
        if model is not None:
            effects.append(Effect(op_name, model.amount))
    return tuple(effects), problems


# --- cross-references and sanity checks ------------------------------------------


def _rules_checks(rules: Rules, doc: YamlDoc) -> list[Problem]:
    problems = []
    for name in ("cooldown_by_gear", "spin_out_stress_by_gear"):
        values = getattr(rules, name)
        if len(values) != rules.gears:
            problems.append(doc.problem(("rules", name), f"{len(values)} values for {rules.gears} gears"))
    for name in ("starting_gear", "spin_out_gear"):
        if getattr(rules, name) > rules.gears:
            problems.append(
                doc.problem(("rules", name), f"gear {getattr(rules, name)} does not exist (1 to {rules.gears})")
            )
    seen: set[int] = set()
    for k, gear in enumerate(rules.boost_gears):
        if gear > rules.gears:
            problems.append(
                doc.problem(("rules", "boost_gears", k), f"gear {gear} does not exist (1 to {rules.gears})")
            )
        elif gear in seen:
            problems.append(doc.problem(("rules", "boost_gears", k), f"gear {gear} is listed twice"))
        seen.add(gear)
    return problems


def _card_checks(cards, doc: YamlDoc, label) -> list[Problem]:
    problems = duplicate_ids([(("cards", i), c.id) for i, c, _ in cards], doc, label)
    for i, card, effects in cards:
        for name, message in [*_card_shape(card), *_op_totals(card, effects)]:
            path = ("cards", i, name)
            problems.append(doc.problem(path, message, label(path)))
    for card_type in ("heat", "stress"):
        problems += _exactly_one(card_type, cards, doc, label)
    return problems


def _card_shape(card: CardModel) -> list[tuple[str, str]]:
    """(field, message) for each way the card does not fit its type."""
    out = []
    allowed = V.TIERS_BY_TYPE[card.type]
    if allowed and card.tier not in allowed:
        choices = " or ".join([", ".join(allowed[:-1]), allowed[-1]] if len(allowed) > 1 else allowed)
        out.append(("tier", f"{_a(card.type)} card takes tier {choices}"))
    elif not allowed and card.tier is not None:
        out.append(("tier", f"{_a(card.type)} card has no tier: leave tier out"))
    if card.type == "stress" and card.count is not None:
        out.append(("count", "Stress copies come from the track (tracks.*.stress): write count: null"))
    if card.type != "stress" and card.count is None:
        out.append(("count", f"{_a(card.type)} card needs a count (only Stress takes it from the track)"))
    if card.type == "speed" and not isinstance(card.speed, int):
        out.append(("speed", "a speed card has one speed, a number"))
    if card.type in ("stress", "heat") and card.speed is not None:
        out.append(("speed", f"{_a(card.type)} card has no printed speed: write speed: null"))
    if card.type == "heat" and (card.flips or card.effects):
        out.append(("effects" if card.effects else "flips", "a Heat card has no flips and no effects"))
    if card.tier in V.GARAGE_TIERS and card.group is None:
        out.append(("group", "a Garage upgrade needs a group (e.g. brakes, tires)"))
    return out


def _op_totals(card: CardModel, effects: tuple[Effect, ...]) -> list[tuple[str, str]]:
    """A card that repeats an op plays the sum of its amounts, which must stay
    within one amount's range (compiled as one int8 column per op)."""
    totals: dict[str, int] = {}
    for effect in effects:
        totals[effect.op] = totals.get(effect.op, 0) + effect.amount
    low = {op: -MAX_AMOUNT if V.OPS[op].signed else 1 for op in totals}
    return [
        ("effects", f"the {op} amounts add up to {total} ({low[op]} to {MAX_AMOUNT} on one card)")
        for op, total in totals.items()
        if abs(total) > MAX_AMOUNT
    ]


def _a(word: str) -> str:
    return ("an " if word[0] in "aeiou" else "a ") + word


def _exactly_one(card_type: str, cards, doc: YamlDoc, label) -> list[Problem]:
    found = [(i, c) for i, c, _ in cards if c.type == card_type]
    if not found:
        return [doc.problem(("cards",), f"no card of type {card_type!r}: the database needs exactly one", "cards")]
    first = doc.line_of(("cards", found[0][0]))
    return [
        doc.problem(
            ("cards", i, "type"),
            f"a second card of type {card_type!r} (the first, {found[0][1].id!r}, is at line {first}); "
            "the database needs exactly one",
            label(("cards", i, "type")),
        )
        for i, _ in found[1:]
    ]


def _track_checks(tracks, rules: Rules, doc: YamlDoc, label) -> list[Problem]:
    problems = duplicate_ids([(("tracks", i), t.id) for i, t in tracks], doc, label)
    known = [t.id for _, t in tracks]
    if rules.track not in known:
        problems.append(
            doc.problem(
                ("rules", "track"),
                f"unknown track {rules.track!r}{did_you_mean(rules.track, known)} (known: {', '.join(known)})",
            )
        )
    # The grid's last row, counted like corner positions (space -1 = last before the line).
    back = rules.grid.pole_space - (rules.max_cars - 1) // rules.grid.cars_per_space
    for i, track in tracks:
        for name, message in _track_shape(track, back):
            path = ("tracks", i, *name)
            problems.append(doc.problem(path, message, label(path)))
    return problems


def _track_shape(track: TrackModel, grid_back: int) -> list[tuple[tuple[Any, ...], str]]:
    """(path below the track, message) for each way the track does not close up."""
    gaps = [c.gap for c in track.corners]
    if sum(gaps) != track.spaces:
        return [(("corners",), f"gaps sum to {sum(gaps)}, but spaces is {track.spaces}")]
    out = []
    for j, c in enumerate(track.press_corners):
        if c > len(track.corners):
            out.append((("press_corners", j), f"corner {c}: the track has {len(track.corners)} corners"))
    closing = gaps[-1]  # the straight from the last corner, over the line, to the first
    if track.finish_line >= closing:
        out.append(
            (
                ("finish_line",),
                f"{track.finish_line} spaces puts the line before the last corner "
                f"(at most {closing - 1}: the last corner's gap is {closing})",
            )
        )
    elif grid_back < track.finish_line - closing:
        out.append(
            (
                ("finish_line",),
                f"the starting grid reaches back to space {grid_back}, "
                f"behind the last corner's line (at space {track.finish_line - closing})",
            )
        )
    for k, corner in enumerate(track.corners):
        if corner.legend_line >= track.spaces:
            out.append(
                (("corners", k, "legend_line"), f"{corner.legend_line} spaces is a whole lap or more ({track.spaces})")
            )
        if corner.chicane and (k == 0 or track.corners[k - 1].limit != corner.limit):
            what = (
                "the first corner has no line before it" if k == 0 else "its entry (the line before) has another limit"
            )
            out.append(
                (("corners", k, "chicane"), f"a chicane's exit pairs with the line before it of the same limit: {what}")
            )
        for name in ("flooded", "tunnels"):
            for r, (first, last) in enumerate(getattr(track, name)):
                if first > last or last >= track.spaces:
                    out.append(((name, r), f"[{first}, {last}] is no range of spaces 0 to {track.spaces - 1}"))
        if corner.chevrons > corner.legend_line:
            out.append(
                (
                    ("corners", k, "chevrons"),
                    f"{corner.chevrons} chevron spaces before the corner line, but its Legend line is "
                    f"{corner.legend_line} before it: the chevrons stand between the two",
                )
            )
        if corner.double_chevrons > corner.chevrons:
            out.append(
                (
                    ("corners", k, "double_chevrons"),
                    f"{corner.double_chevrons} double chevrons on {corner.chevrons} chevron spaces",
                )
            )
    return out


def _weather_checks(weather, roads, rules: Rules, tracks, doc: YamlDoc, label) -> list[Problem]:
    """Tokens named once each, a token either a corner or a sector one, a Weather token's sector effect not
    itself 'weather', and the rules' fixed choices among the tokens, one Road token per corner of the track."""
    problems = duplicate_ids([(("weather", i), w.id) for i, w in weather], doc, label)
    problems += duplicate_ids([(("road_conditions", i), r.id) for i, r in roads], doc, label)
    for i, w in weather:
        if w.sector.weather:
            path = ("weather", i, "sector", "weather")
            problems.append(doc.problem(path, "a Weather token's own sector effect cannot be 'weather'", label(path)))
    for i, r in roads:
        if (r.corner is None) == (r.sector is None):
            path = ("road_conditions", i)
            problems.append(
                doc.problem(
                    path, "a Road token is a corner token or a sector token: give one of corner:, sector:", label(path)
                )
            )
    weather_ids, road_ids = [w.id for _, w in weather], [r.id for _, r in roads]
    if rules.weather != "random" and rules.weather not in weather_ids:
        known = ", ".join(weather_ids) or "none: the weather: section is empty"
        problems.append(
            doc.problem(
                ("rules", "weather"),
                f"unknown Weather token {rules.weather!r}{did_you_mean(rules.weather, weather_ids)} (known: random, {known})",
            )
        )
    track = next((t for _, t in tracks if t.id == rules.track), None)
    corners = sum(not c.chicane for c in track.corners) if track is not None else 0  # a chicane takes one token
    if rules.road_conditions != "random":
        for k, token in enumerate(rules.road_conditions):
            if token not in road_ids:
                known = ", ".join(road_ids) or "none: the road_conditions: section is empty"
                problems.append(
                    doc.problem(
                        ("rules", "road_conditions", k),
                        f"unknown Road Conditions token {token!r}{did_you_mean(token, road_ids)} (known: {known})",
                    )
                )
        if track is not None and len(rules.road_conditions) != corners:
            problems.append(
                doc.problem(
                    ("rules", "road_conditions"),
                    f"{len(rules.road_conditions)} tokens for {track.name}'s {corners} corners (one per corner, in driving order; "
                    "a chicane takes one)",
                )
            )
    if rules.weather_module:
        if not weather:
            problems.append(
                doc.problem(
                    ("rules", "weather_module"),
                    "the Weather module needs Weather tokens: the weather: section is empty",
                )
            )
        tokens = sum(r.count for _, r in roads)
        if rules.road_conditions == "random" and track is not None and tokens < corners:
            problems.append(
                doc.problem(
                    ("rules", "weather_module"),
                    f"{tokens} Road Conditions tokens for {track.name}'s {corners} corners (one is drawn per corner)",
                )
            )
    return problems


def _garage_checks(cards, rules: Rules, doc: YamlDoc) -> list[Problem]:
    pool = rules.garage_draft.heat_cards.total + sum(
        c.count or 0 for _, c, _ in cards if c.tier in V.GARAGE_TIERS and c.expansion in (None, *rules.expansions)
    )
    need = rules.garage_draft.upgrades_each * rules.max_cars
    if pool < need:
        return [
            doc.problem(
                ("rules", "garage_draft", "upgrades_each"),
                f"the Garage pool holds {pool} cards (its Heat cards included), too few to give "
                f"{rules.max_cars} players {rules.garage_draft.upgrades_each} each",
            )
        ]
    return []


def _season_checks(events, seasons, rules: Rules, tracks, cards, doc: YamlDoc, label) -> list[Problem]:
    """Events and seasons named once each; rules.season one of the seasons; each race a known track and
    Event card, whose Press letters name corners of that track and whose changes leave a race to run;
    the sponsor pile not empty where a season deals or presses."""
    problems = duplicate_ids([(("events", i), e.id) for i, e in events], doc, label)
    problems += duplicate_ids([(("seasons", i), s.id) for i, s in seasons], doc, label)
    season_ids = [s.id for _, s in seasons]
    track_of = {t.id: t for _, t in tracks}
    event_of = {e.id: e for _, e in events}
    if rules.season is not None and rules.season not in season_ids:
        known = ", ".join(season_ids) or "none: the seasons: section is empty"
        problems.append(
            doc.problem(
                ("rules", "season"),
                f"unknown season {rules.season!r}{did_you_mean(rules.season, season_ids)} (known: {known})",
            )
        )
    for i, e in events:
        for j, gear in enumerate(e.slipstream_gears):
            if gear > rules.gears:
                path = ("events", i, "slipstream_gears", j)
                problems.append(doc.problem(path, f"gear {gear} does not exist (1 to {rules.gears})", label(path)))
    for i, s in seasons:
        raced = rules.season == s.id
        if (s.races is None) == (s.draw is None):
            message = "give a season its races: or a draw:, one of the two"
            problems.append(doc.problem(("seasons", i), message, label(("seasons", i))))
            continue
        if s.draw is not None:
            problems += _draw_checks(i, s.draw, rules, track_of, event_of, raced, doc, label)
            continue
        for j, race in enumerate(s.races):
            where = ("seasons", i, "races", j)
            track, event = track_of.get(race.track), event_of.get(race.event)
            if track is None:
                problems.append(_unknown_track((*where, "track"), race.track, track_of, doc, label))
            if event is None:
                problems.append(_unknown_event((*where, "event"), race.event, event_of, doc, label))
            if track is None or event is None:
                continue
            if raced and (message := _road_misfit(rules, track)):
                problems.append(doc.problem((*where, "track"), message, label((*where, "track"))))
            for message in _race_misfits(track, event):
                problems.append(doc.problem((*where, "event"), message, label((*where, "event"))))
    if rules.season is not None and rules.season in season_ids:
        season = next(s for _, s in seasons if s.id == rules.season)
        dealt = [r.event for r in season.races or ()] if season.draw is None else season.draw.events or list(event_of)
        gains = any(
            (e := event_of.get(x)) is not None and (e.sponsors or e.press or e.record_speed or e.first_to_lap)
            for x in dealt
        )
        pile = sum(c.count or 0 for _, c, _ in cards if c.type == "sponsor")
        if gains and pile == 0:
            problems.append(
                doc.problem(
                    ("rules", "season"),
                    f"season {rules.season!r} deals Sponsorship cards, but no card has type sponsor",
                )
            )
    return problems


def _draw_checks(i, draw: SeasonDrawModel, rules: Rules, track_of, event_of, raced, doc, label) -> list[Problem]:
    """A drawn season: known tracks and Event cards, none listed twice, enough of each for its races, and
    at least DRAWN_SHARE of its draws with a race to run in every race (a pair that leaves none is drawn
    again: a rarer draw could run out of championship.DRAWS in a game)."""
    where = ("seasons", i, "draw")
    problems = []
    for what, ids, known, unknown in (
        ("tracks", draw.tracks, track_of, _unknown_track),
        ("events", draw.events or list(event_of), event_of, _unknown_event),
    ):
        for k, x in enumerate(ids):
            if x not in known:
                problems.append(unknown((*where, what, k), x, known, doc, label))
            elif x in ids[:k]:
                problems.append(doc.problem((*where, what, k), f"{x} is listed twice", label((*where, what, k))))
        if draw.races > len(ids):
            message = f"{draw.races} races drawn from {len(ids)} {what}: a season draws no track or Event twice"
            problems.append(doc.problem((*where, "races"), message, label((*where, "races"))))
    if problems:
        return problems
    tracks, events = [track_of[t] for t in draw.tracks], [event_of[e] for e in draw.events or event_of]
    if raced:
        for k, track in enumerate(tracks):
            if message := _road_misfit(rules, track):
                problems.append(doc.problem((*where, "tracks", k), message, label((*where, "tracks", k))))
    runs = drawn_share([[not _race_misfits(t, e) for e in events] for t in tracks], draw.races)
    if runs < DRAWN_SHARE:
        message = (
            f"{runs:.1%} of the draws of {draw.races} race{'s' if draw.races != 1 else ''} give every race a race to "
            f"run (at least {DRAWN_SHARE:.0%} must, so that every game finds one): too many of its tracks and Events "
            "change laps, Heat or Stress out of range together"
        )
        problems.append(doc.problem(where, message, label(where)))
    return problems


DRAWN_SHARE = 0.01  # the least share of a drawn season's draws that may run (championship.DRAWS tries at most)


def drawn_share(fits: list[list[bool]], races: int, draws: int = 4096) -> float:
    """The share of the draws of `races` races whose every (track, Event) pair fits (fits[track][event]),
    estimated on `draws` keyed draws made as a season's (championship.draw_orders): 0 where none can."""
    import numpy as np

    from ..chance import Streams
    from .championship import draw_orders

    tracks, events = draw_orders(Streams(0, 0, draws), np.arange(draws), len(fits), len(fits[0]), races)
    return float(np.array(fits)[tracks, events].all(axis=1).mean())


def _unknown_track(path, track: str, track_of, doc: YamlDoc, label) -> Problem:
    known = ", ".join(track_of)
    return doc.problem(
        path, f"unknown track {track!r}{did_you_mean(track, list(track_of))} (known: {known})", label(path)
    )


def _unknown_event(path, event: str, event_of, doc: YamlDoc, label) -> Problem:
    known = ", ".join(event_of) or "none: the events: section is empty"
    message = f"unknown Event card {event!r}{did_you_mean(event, list(event_of))} (known: {known})"
    return doc.problem(path, message, label(path))


def _road_misfit(rules: Rules, track) -> str | None:
    """A fixed rules.road_conditions list that does not suit the track (a chicane takes one Road token)."""
    tokens = sum(not c.chicane for c in track.corners)
    if rules.road_conditions != "random" and len(rules.road_conditions) != tokens:
        return (
            f"rules.road_conditions lists {len(rules.road_conditions)} tokens, but this race's "
            f"{track.name} has {tokens} corners (a fixed list must suit every race of the season)"
        )
    return None


def _race_misfits(track, event) -> list[str]:
    """What an Event card's changes leave out of range on a track (laps, Heat, Stress): a race it cannot run."""
    return [
        f"{event.id} on {track.name} gives {value} {what} ({low} to {high})"
        for what, value, low, high in (
            ("laps", track.laps + event.laps, 1, MAX_LAPS),
            ("Heat in each Engine", track.heat + event.engine_heat, 0, MAX_TRACK_CARDS),
            ("Stress in each deck", track.stress + event.deck_stress, 0, MAX_TRACK_CARDS),
        )
        if not low <= value <= high
    ]


def race_fits(db: Database, race: SeasonRace) -> bool:
    """Whether the Event card leaves its track a race to run (a drawn season never draws a pair that does not)."""
    return not _race_misfits(db.track(race.track), db.event(race.event))


def _warnings(db: Database, doc: YamlDoc) -> list[Problem]:
    warnings = []
    counts = db.counts()
    for pile, expected in FACT_COUNTS.items():
        if counts[pile] != expected:
            section = "legends" if pile == "Legend cards" else "cards"
            warnings.append(
                doc.problem((section,), f"{counts[pile]} {pile} (the facts sheet has {expected})", f"count of {pile}")
            )
    return warnings
