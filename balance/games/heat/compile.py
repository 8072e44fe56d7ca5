"""Compile a validated Heat database into read-only numpy tables, built once
and passed to the engine beside the state.

Cards are indexed 0..K-1 in file order. Each effect op is one column of
`CardTable.ops`, so the engine applies an op to a batch of games by indexing
with the played cards, never by calling per-card code. Tracks are compiled
one by one (they differ in corner count); each gives positions on the lap
counted from the start/finish line: space 0 is the first space after it, and
a line "at p" lies just before space p, so a car crosses it by moving from
below p to p or beyond.
"""

from __future__ import annotations

from dataclasses import dataclass, replace

import numpy as np

from ...errors import Problem, UserError
from ..base import Summary
from . import vocabulary as V
from .schema import Card, Database, Event, GarageDraft, SeasonRace, Sector, Track, press_corner

NONE = -1  # code for "not applicable" in categorical columns, and the padding of `choices`


def _frozen(array: np.ndarray) -> np.ndarray:
    array.setflags(write=False)
    return array


def _by_gear(values: list[int], dtype) -> np.ndarray:
    """(gears + 1,): a leading 0 so that the gear (1..gears) indexes it directly."""
    return _frozen(np.array([0, *values], dtype=dtype))


@dataclass(frozen=True)
class RuleTable:
    track: int  # index into Tables.tracks: the track raced
    garage_module: bool  # Garage upgrades drafted instead of the starting upgrades
    hand_size: int
    gears: int
    starting_gear: int
    spin_out_gear: int  # also the gear after an overheated turn
    shift_two_heat: int
    cooldown: np.ndarray  # (gears + 1,) int8: Cooldown granted by gear; [0] unused
    boost_heat: int
    boost_allowed: np.ndarray  # (gears + 1,) bool: Boost allowed in this gear; [0] False
    adrenaline_cars: np.ndarray  # (max_cars + 1,) int8: last cars that get Adrenaline, by cars that started
    adrenaline_speed: int
    adrenaline_cooldown: int
    adrenaline_mode: int  # index into vocabulary.ADRENALINE_MODES
    slipstream: int
    spin_out_stress: np.ndarray  # (gears + 1,) int8: Stress into hand on a spin-out, by gear; [0] unused
    max_rounds: int
    max_cars: int
    aggressive_legends: bool  # a Legend on a chevron space may cross one (double: two) more corner lines
    flooded_heat: int  # Heat per gear down, starting a round on a flooded space
    pro_legends: int  # added to every helmet number
    legend_colours: tuple[str, ...]  # the colours of the Legend cars, in grid order
    stress_supply: int  # Stress cards in the box (decks included); -1: unlimited
    spin_out_pays_engine: bool  # a car that spins out pays all the Heat in its Engine (rules.spin_out_heat)
    upgrades_each: int  # Garage upgrades drafted per player
    draft_order: int  # index into vocabulary.DRAFT_ORDERS
    revealed_extra: int  # a draft round reveals one card per player plus this many
    lanes: int  # spots per space (two lanes; the grid holds as many cars per row)
    grid_space: np.ndarray  # (max_cars,) int16: starting space of the i-th car on the grid (negative: behind the line)
    grid_lane: np.ndarray  # (max_cars,) int8: its lane, 0 = the race line (ahead of lane 1)
    weather_module: bool = False  # Weather and Road Conditions
    weather: int = NONE  # the Weather token of every race (index into Tables.weather); NONE: drawn per race
    road: tuple[int, ...] = ()  # the Road token of each corner (indexes into Tables.road); (): drawn per race


@dataclass(frozen=True)
class CardTable:
    ids: tuple[str, ...]  # (K,)
    names: tuple[str, ...]  # (K,)
    groups: tuple[str | None, ...]  # (K,): Garage group, None outside the Garage
    type: np.ndarray  # (K,) int8: index into vocabulary.CARD_TYPES
    tier: np.ndarray  # (K,) int8: index into vocabulary.TIERS; NONE for Stress
    speed: np.ndarray  # (K,) int8: printed speed; 0 for none (Stress, Heat, flip-only) and for choice cards
    choices: np.ndarray  # (K, C) int8: speeds offered when revealed, padded NONE; all NONE if no choice
    flips: np.ndarray  # (K,) int8: "+" symbols: draw until a basic speed card, add its value
    ops: np.ndarray  # (K, len(vocabulary.OPS)) int8: amount of each op (summed if a card repeats one)
    is_basic: np.ndarray  # (K,) bool: a basic speed card, where flips stop
    approximate: np.ndarray  # (K,) bool: effects unclear in the facts
    deck: np.ndarray  # (K,) int16: copies per player deck, basic and starting tiers; Stress 0 (the track's)
    pool: np.ndarray  # (K,) int16: copies in the Garage pool (the Heat card's: rules.garage_draft.heat_cards)
    sponsors: np.ndarray  # (K,) int16: copies in the Championship's sponsor pile (Sponsorship cards)

    def index(self, card_id: str) -> int:
        return self.ids.index(card_id)

    def op(self, name: str) -> np.ndarray:
        """(K,) int8: the amount of one op on each card."""
        return self.ops[:, list(V.OPS).index(name)]


@dataclass(frozen=True)
class TrackTable:
    id: str
    name: str
    laps: int
    spaces: int  # per lap
    heat: int  # Heat cards in each Engine
    stress: int  # Stress cards in each deck
    corner_at: np.ndarray  # (N,) int16: corner lines, in driving order, as positions on the lap
    limit: np.ndarray  # (N,) int8: speed limit of each corner
    legend_at: np.ndarray  # (N,) int16: each corner's Legend line as a position on the lap
    chevron: np.ndarray  # (spaces,) int8: more corner lines an Aggressive Legend may cross from each space (1, 2)
    flooded: np.ndarray  # (spaces,) bool: a downshift from here costs Heat (Heavy Rain)
    tunnel: np.ndarray  # (spaces,) bool: no card may be discarded here (Tunnel Vision)
    chicane: np.ndarray  # (N,) bool: the line is a chicane's exit (its entry the line before)
    next_corner: np.ndarray  # (spaces,) int8: from each space, the next corner line ahead
    to_corner: np.ndarray  # (spaces,) int16: from each space, spaces to that line (moving this many crosses it)

    @property
    def length(self) -> int:
        """Spaces from the start/finish line round every lap back to it."""
        return self.laps * self.spaces


@dataclass(frozen=True)
class LegendTable:
    helmet: np.ndarray  # (L, colours) int8: each colour's helmet number (spaces on a straight), rules.legend_colours
    diamond: np.ndarray  # (L, colours) int8: its diamond column (added to a corner's limit past its Legend line)


SECTOR_COLUMNS = ("cooldown", "no_cooldown", "slipstream", "no_slipstream_start", "free_boost", "weather")


def sector_row(sector: Sector | None) -> list[int]:
    """A sector effect as one row of numbers, in SECTOR_COLUMNS order (a corner token: all 0)."""
    return [0] * len(SECTOR_COLUMNS) if sector is None else [int(getattr(sector, c)) for c in SECTOR_COLUMNS]


@dataclass(frozen=True)
class WeatherTable:
    ids: tuple[str, ...]  # (W,)
    names: tuple[str, ...]
    stress: np.ndarray  # (W,) int8: Stress in each deck, + or -
    heat: np.ndarray  # (W,) int8: Heat in each Engine, + or -
    heat_to_deck: np.ndarray  # (W,) int8: Engine Heat shuffled into the draw deck
    heat_to_discard: np.ndarray  # (W,) int8: Engine Heat put on the discard pile
    sector: np.ndarray  # (W, len(SECTOR_COLUMNS)) int8: the sector effect where a Weather Road token lies


@dataclass(frozen=True)
class RoadTable:
    ids: tuple[str, ...]  # (R,)
    names: tuple[str, ...]
    count: np.ndarray  # (R,) int8: tokens of each kind in the box
    limit: np.ndarray  # (R,) int8: corner tokens: added to the corner's limit
    overheat: np.ndarray  # (R,) int8: corner tokens: Heat on top of the excess
    is_sector: np.ndarray  # (R,) bool
    sector: np.ndarray  # (R, len(SECTOR_COLUMNS)) int8: sector tokens: the sector's effect


@dataclass(frozen=True)
class Tables:
    rules: RuleTable
    cards: CardTable
    tracks: tuple[TrackTable, ...]
    legends: LegendTable
    heat_card: int  # card index of Heat
    stress_card: int  # card index of Stress
    weather: WeatherTable | None = None
    road: RoadTable | None = None
    event: Event | None = None  # a Championship race's Event card (compile_race); None: a race on its own
    press: tuple[int, ...] = ()  # the race's Press Corners: corner indices on the lap (TrackTable order)
    press_margin: int = 2  # rules.championship.press_margin
    swap: bool = False  # rules.championship.swap: the first picker may swap an upgrade (a season's race)

    def track_index(self, name: str, source: str = "track", line: int | None = None) -> int:
        """A track by id or printed name (any case); an unknown one lists the known ids."""
        for i, track in enumerate(self.tracks):
            if name.lower() in (track.id, track.name.lower()):
                return i
        known = ", ".join(t.id for t in self.tracks)
        raise UserError(Problem(source, line, "track", f"unknown track {name!r} (known: {known})"))

    def starting_deck(self, track: int, garage: bool = False) -> np.ndarray:
        """(K,) int16: one player's deck before the race on this track; with
        the Garage module the starting upgrades stay out (drafted cards join later)."""
        deck = self.cards.deck.copy()
        if garage:
            deck[self.cards.tier == V.TIERS.index("starting")] = 0
        deck[self.stress_card] = self.tracks[track].stress
        return deck


def compile_race(db: Database, race: SeasonRace) -> Tables:
    """The tables of one race of a Championship season: its track, with the Event card's changes (laps,
    Heat, Stress, hand size) and Press Corners, and the season's Garage draft before it (one round of
    rules.championship.upgrades_per_race, no starting upgrades). The Event's other rules are read by the
    engine from `Tables.event`."""
    event = db.event(race.event)
    track = db.track(race.track)
    raced = replace(
        track,
        laps=track.laps + event.laps,
        heat=track.heat + event.engine_heat,
        stress=track.stress + event.deck_stress,
    )
    champ = db.rules.championship
    rules = db.rules.model_copy(
        update={
            "track": race.track,
            "garage_module": True,
            "weather_module": champ.weather_module,
            "hand_size": event.hand_size or db.rules.hand_size,
            "garage_draft": GarageDraft(  # the single races' pool: the same Heat cards in it
                upgrades_each=champ.upgrades_per_race,
                order="round_robin",
                revealed_extra=champ.revealed_extra,
                heat_cards=db.rules.garage_draft.heat_cards,
            ),
        }
    )
    tracks = tuple(raced if t.id == race.track else t for t in db.tracks)
    tables = compile_database(replace(db, rules=rules, tracks=tracks))
    press = tuple(press_corner(track, letter) for letter in event.press)
    return replace(tables, event=event, press=press, press_margin=champ.press_margin, swap=champ.swap)


def compile_database(db: Database) -> Tables:
    cards = _card_table(db)
    return Tables(
        rules=_rule_table(db),
        cards=cards,
        tracks=tuple(_track_table(t) for t in db.tracks),
        legends=LegendTable(
            helmet=_frozen(np.array([[g.helmet[c] for c in db.rules.legend_colours] for g in db.legends], np.int8)),
            diamond=_frozen(np.array([[g.diamond[c] for c in db.rules.legend_colours] for g in db.legends], np.int8)),
        ),
        heat_card=int(np.flatnonzero(cards.type == V.CARD_TYPES.index("heat"))[0]),
        stress_card=int(np.flatnonzero(cards.type == V.CARD_TYPES.index("stress"))[0]),
        weather=_weather_table(db),
        road=_road_table(db),
    )


def _weather_table(db: Database) -> WeatherTable:
    w = db.weather
    i8 = lambda values: _frozen(np.array(values, dtype=np.int8))  # noqa: E731
    return WeatherTable(
        ids=tuple(x.id for x in w),
        names=tuple(x.name for x in w),
        stress=i8([x.stress for x in w]),
        heat=i8([x.heat for x in w]),
        heat_to_deck=i8([x.heat_to_deck for x in w]),
        heat_to_discard=i8([x.heat_to_discard for x in w]),
        sector=_frozen(np.array([sector_row(x.sector) for x in w], dtype=np.int8).reshape(len(w), len(SECTOR_COLUMNS))),
    )


def _road_table(db: Database) -> RoadTable:
    r = db.road_conditions
    return RoadTable(
        ids=tuple(x.id for x in r),
        names=tuple(x.name for x in r),
        count=_frozen(np.array([x.count for x in r], dtype=np.int8)),
        limit=_frozen(np.array([x.limit for x in r], dtype=np.int8)),
        overheat=_frozen(np.array([x.overheat for x in r], dtype=np.int8)),
        is_sector=_frozen(np.array([x.sector is not None for x in r], dtype=bool)),
        sector=_frozen(np.array([sector_row(x.sector) for x in r], dtype=np.int8).reshape(len(r), len(SECTOR_COLUMNS))),
    )


def _rule_table(db: Database) -> RuleTable:
    r = db.rules
    a = r.adrenaline
    boost = np.zeros(r.gears + 1, dtype=bool)
    boost[r.boost_gears] = True
    cars = np.arange(r.max_cars + 1)
    grid = np.arange(r.max_cars)
    return RuleTable(
        track=[t.id for t in db.tracks].index(r.track),
        garage_module=r.garage_module,
        hand_size=r.hand_size,
        gears=r.gears,
        starting_gear=r.starting_gear,
        spin_out_gear=r.spin_out_gear,
        shift_two_heat=r.shift_two_heat,
        cooldown=_by_gear(r.cooldown_by_gear, np.int8),
        boost_heat=r.boost_heat,
        boost_allowed=_frozen(boost),
        # A race of one car has nobody to be last against.
        adrenaline_cars=_frozen(
            np.select(
                [cars < 2, cars <= 4, cars <= 6], [0, a.last_cars_upto_4, a.last_cars_5_6], a.last_cars_7_8
            ).astype(np.int8)
        ),
        adrenaline_speed=a.speed,
        adrenaline_cooldown=a.cooldown,
        adrenaline_mode=V.ADRENALINE_MODES.index(a.mode),
        slipstream=r.slipstream,
        spin_out_stress=_by_gear(r.spin_out_stress_by_gear, np.int8),
        max_rounds=r.max_rounds,
        max_cars=r.max_cars,
        aggressive_legends=r.aggressive_legends,
        flooded_heat=r.flooded_heat,
        pro_legends=r.pro_legends,
        legend_colours=tuple(r.legend_colours),
        stress_supply=-1 if r.stress_supply == "unlimited" else r.stress_supply,
        spin_out_pays_engine=r.spin_out_heat == "engine",
        upgrades_each=r.garage_draft.upgrades_each,
        draft_order=V.DRAFT_ORDERS.index(r.garage_draft.order),
        revealed_extra=r.garage_draft.revealed_extra,
        lanes=r.grid.cars_per_space,
        grid_space=_frozen((r.grid.pole_space - grid // r.grid.cars_per_space).astype(np.int16)),
        grid_lane=_frozen((grid % r.grid.cars_per_space).astype(np.int8)),
        weather_module=r.weather_module,
        weather=NONE if r.weather == "random" else [w.id for w in db.weather].index(r.weather),
        road=()
        if r.road_conditions == "random"
        else tuple([x.id for x in db.road_conditions].index(t) for t in r.road_conditions),
    )


def raced_cards(db: Database) -> tuple[Card, ...]:
    """The cards a race can hold: all but the upgrades of an expansion the rules
    leave out (rules.expansions), and the Sponsorship cards only in a
    Championship season (rules.season). Only these are compiled: every loop over
    the card kinds in the engine's hot path pays for each kind, used or not (12
    expansion kinds cost base races about 6% of their speed)."""
    season = db.rules.season is not None
    return tuple(c for c in db.cards if in_race(c, db.rules.expansions) and (season or c.type != "sponsor"))


def in_race(card, expansions) -> bool:
    """A card of the base game, or of an expansion the rules put in (rules.expansions)."""
    return card.expansion is None or card.expansion in expansions


def in_pool(card, expansions) -> bool:
    """A Garage upgrade of the races (in_race). (The pool's Heat cards are the Heat card's: pool_copies.)"""
    return card.tier in V.GARAGE_TIERS and in_race(card, expansions)


def pool_copies(card, rules) -> int:
    """A card's copies in the Garage pool: a Garage upgrade's `count` (in_pool), and the Heat card's
    rules.garage_draft.heat_cards (BGA's upgrade deck holds Heat cards, two of each tier); 0 for the rest."""
    if card.type == "heat":
        return rules.garage_draft.heat_cards.total
    return card.count if in_pool(card, rules.expansions) else 0


def _card_table(db: Database) -> CardTable:
    cards = raced_cards(db)
    k = len(cards)
    width = max([len(c.speed) for c in cards if isinstance(c.speed, tuple)], default=1)
    choices = np.full((k, width), NONE, dtype=np.int8)
    ops = np.zeros((k, len(V.OPS)), dtype=np.int8)
    op_codes = {name: i for i, name in enumerate(V.OPS)}
    for i, card in enumerate(cards):
        if isinstance(card.speed, tuple):
            choices[i, : len(card.speed)] = card.speed
        for effect in card.effects:
            ops[i, op_codes[effect.op]] += effect.amount
    in_deck = {"basic_speed", "starting"}

    def column(values, dtype) -> np.ndarray:
        return _frozen(np.array(values, dtype=dtype))

    return CardTable(
        ids=tuple(c.id for c in cards),
        names=tuple(c.name for c in cards),
        groups=tuple(c.group for c in cards),
        type=column([V.CARD_TYPES.index(c.type) for c in cards], np.int8),
        tier=column([NONE if c.tier is None else V.TIERS.index(c.tier) for c in cards], np.int8),
        speed=column([c.speed if isinstance(c.speed, int) else 0 for c in cards], np.int8),
        choices=_frozen(choices),
        flips=column([c.flips for c in cards], np.int8),
        ops=_frozen(ops),
        is_basic=column([c.type == "speed" for c in cards], bool),
        approximate=column([c.approximate for c in cards], bool),
        deck=column([c.count if c.tier in in_deck else 0 for c in cards], np.int16),
        pool=column([pool_copies(c, db.rules) for c in cards], np.int16),
        sponsors=column([c.count if c.type == "sponsor" else 0 for c in cards], np.int16),
    )


def _track_table(track: Track) -> TrackTable:
    gaps = np.array([c.gap for c in track.corners])
    # Corner k's line is finish_line + the gaps before it; validation keeps them all on the lap.
    corner_at = track.finish_line + np.concatenate(([0], np.cumsum(gaps)[:-1]))
    legend_at = (corner_at - [c.legend_line for c in track.corners]) % track.spaces
    spaces = np.arange(track.spaces)
    next_corner = np.searchsorted(corner_at, spaces, side="right") % len(corner_at)
    chevron = np.zeros(track.spaces, np.int8)
    # the spaces right before the corner line, "above the diamond" (the rulebook): where a Legend waits
    for at, corner in zip(corner_at, track.corners, strict=True):
        for j in range(corner.chevrons):
            chevron[(at - 1 - j) % track.spaces] = 2 if j < corner.double_chevrons else 1
    to_corner = (corner_at[next_corner] - spaces - 1) % track.spaces + 1  # 1..spaces, a full lap if on a line
    return TrackTable(
        id=track.id,
        name=track.name,
        laps=track.laps,
        spaces=track.spaces,
        heat=track.heat,
        stress=track.stress,
        corner_at=_frozen(corner_at.astype(np.int16)),
        limit=_frozen(np.array([c.limit for c in track.corners], dtype=np.int8)),
        legend_at=_frozen(legend_at.astype(np.int16)),
        chevron=_frozen(chevron),
        flooded=_frozen(_spaces(track.spaces, track.flooded)),
        tunnel=_frozen(_spaces(track.spaces, track.tunnels)),
        chicane=_frozen(np.array([c.chicane for c in track.corners], dtype=bool)),
        next_corner=_frozen(next_corner.astype(np.int8)),
        to_corner=_frozen(to_corner.astype(np.int16)),
    )


def _spaces(spaces: int, ranges: tuple[tuple[int, int], ...]) -> np.ndarray:
    marked = np.zeros(spaces, dtype=bool)
    for first, last in ranges:
        marked[first : last + 1] = True
    return marked


def summarize(db: Database) -> Summary:
    """What `balance validate` prints. Stress copies are set per track, so they
    count 0 here; the tiers stand in for Horsepower's flags."""
    by_type = {t: (0, 0) for t in V.CARD_TYPES}
    by_tier = {t: (0, 0) for t in (*V.TIERS, "approximate")}
    for card in db.cards:
        copies = card.count or 0
        distinct, total = by_type[card.type]
        by_type[card.type] = (distinct + 1, total + copies)
        keys = [card.tier] if card.tier else []
        if card.approximate:
            keys.append("approximate")
        for key in keys:
            distinct, total = by_tier[key]
            by_tier[key] = (distinct + 1, total + copies)
    return Summary(db.counts(), by_type, by_tier, db.warnings, flag_word="tier")
