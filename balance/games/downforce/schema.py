"""The Downforce database: what `downforce.yaml` may say, checked with errors
that point at the file and line.

`load_database(path)` is the entry point: YAML → structure (pydantic) → cars,
cards, powers and tracks against each other → a `Database` of plain, frozen
values plus warnings for counts that differ from the rulebook
(../shared/seeds/003_f4358f3dcf03d531.txt). A track written as a lane `grid`
is expanded here into the same explicit spaces an owner of the real board
would type (`spaces:`), so everything after validation sees one form.
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Annotated, Any, Literal

from pydantic import Field, create_model

from ...errors import Problem, did_you_mean, raise_first
from ...validation import ID_PATTERN, Strict, duplicate_ids, validate_items, validate_model, validate_top
from ...yamlio import YamlDoc, load_yaml
from . import vocabulary as V

# The rulebook's components: counts that differ are warnings, not errors.
# (One Speed-8 card per car is also an error: the auction reveals each car by it.
# With fewer than six power cards the last cars are auctioned without one.)
RULEBOOK_COUNTS = {"regular speed cards": 42, "Speed-8 cards": 6, "power cards": 6}

# --- limits: the most a game can play (docs/downforce.md, "Limits") ----------------------
# Each is generous for a design (the box's own values in brackets) and keeps
# the engine's narrow arrays (compile.py, state.py) from wrapping.
MAX_MONEY = 1000  # $M of one prize or bet payout [12]: a player's money, prizes + bets - bids, is logged int16
MAX_SPEED = 20  # spaces of one car on a card [8]: card speeds and bids are int8; a car's lost spaces int16
MAX_BONUS = 10  # a power's extra spaces [1]: int8; with MAX_SPEED and MAX_DECK the lost-move tally stays int16
MAX_COPIES = 100  # copies of one card [1]: a hand is an int8 count per card
MAX_CARD_KINDS = 200  # speed_cards entries [42]: each turn scores every kind for every game (n, kinds, cars)
MAX_DECK = 250  # regular speed cards in all [42]: the deal draws them one by one, and the race plays each once
MAX_TURNS = 1000  # rules.max_turns [200]: more than any race plays (MAX_DECK + 6 Speed-8 cards); logged int16
MAX_ROWS = 1000  # rows of a track [52]: rows are int16 and stay below race.FINISHED_ROW
MAX_SPACES = 4 * MAX_ROWS  # spaces of an explicit map [162]: the board is a (games, spaces) array
MAX_LANE = 15  # an explicit space's lane [3]: int8, and the inside-lane tie-break (0.01 a lane) stays under 1
MAX_TRACKS = 100  # tracks [2]: every track is compiled

Id = Annotated[str, Field(pattern=ID_PATTERN)]
Money = Annotated[int, Field(ge=0, le=MAX_MONEY)]
Row = Annotated[int, Field(ge=0, le=MAX_ROWS)]
Rows = Annotated[int, Field(ge=1, le=MAX_ROWS)]  # a count of rows, or a row past the first

# List sections whose items are named by their id in messages (speed_cards.s07.moves.2.car).
ID_LISTS = ("speed_cards", "speed8_cards", "powers", "tracks", "spaces")


# --- the file's structure ----------------------------------------------------------


class Players(Strict):
    min: Annotated[int, Field(ge=2, le=V.N_CARS)]  # every player owns at least one of the six cars
    max: Annotated[int, Field(ge=2, le=V.N_CARS)]


class Rules(Strict):
    track: Id  # the track raced (an id under tracks)
    prizes: list[Money]  # $M by finishing place, 1st first
    bet_payouts: list[list[Money]]  # $M by betting line, then by the bet car's place (1st, 2nd, 3rd)
    wild_bids: bool = True  # a wild on a bid card bids for a car the card does not show (ours)
    # a tie the rulebook's tie-breaks leave (same bid, cars and wilds): the lower seat wins, or a random one (ours)
    auction_ties: Literal["lower_seat", "random"] = "lower_seat"
    max_turns: Annotated[int, Field(ge=1, le=MAX_TURNS)]  # a safety cap on card plays in one race
    players: Players


class MoveModel(Strict):
    car: str  # a colour under cars, or wild (checked against the file's cars)
    speed: Annotated[int, Field(ge=1, le=MAX_SPEED)]


class CardModel(Strict):
    id: Id
    count: Annotated[int, Field(ge=0, le=MAX_COPIES)] = 1  # copies in the box
    moves: Annotated[list[MoveModel], Field(min_length=1)]  # printed order, top to bottom


class Speed8Model(Strict):
    id: Id
    moves: Annotated[list[MoveModel], Field(min_length=1)]  # the first car is the one auctioned with it


class SegmentModel(Strict):
    rows: Rows
    lanes: Annotated[int, Field(ge=V.MIN_LANES, le=V.MAX_LANES)]
    curve: bool = False  # curved spaces (not rectangular: the Determined power cares)


class SpaceModel(Strict):
    id: Id
    row: Row  # how far along the track the space's front end lies
    lane: Annotated[int, Field(ge=0, le=MAX_LANE)]  # across the track, 0 = inside (for drawing and traces)
    curve: bool = False
    next: list[Id] = []  # the spaces a car may enter from here


Spaces = Annotated[list[SpaceModel], Field(min_length=1, max_length=MAX_SPACES)]


class TrackModel(Strict):
    id: Id
    name: str
    grid: Annotated[list[SegmentModel], Field(min_length=1)] | None = None  # lane segments in driving order...
    start_rows: Rows | None = None  # ...whose first rows hold the starting spaces
    spaces: Spaces | None = None  # or an explicit map...
    start: list[Id] | None = None  # ...with its starting spaces, pole first
    betting_lines: list[Row]  # rows; a car crosses line k when it first enters a row >= it
    finish: Rows  # row; a car finishes when it enters a row >= it


class DatabaseModel(Strict):
    rules: dict[Any, Any]
    cars: list[Id]
    speed_cards: Annotated[list[Any], Field(max_length=MAX_CARD_KINDS)]
    speed8_cards: list[Any]
    powers: list[dict[Any, Any]]
    tracks: Annotated[list[Any], Field(max_length=MAX_TRACKS)]


def _power_model(spec: V.PowerSpec) -> type[Strict]:
    fields: dict[str, Any] = {"id": (Literal[spec.id], ...), "name": (str, ...), "text": (str, ...)}
    fields |= {param: (Annotated[int, Field(ge=1, le=MAX_BONUS)], ...) for param in spec.params}
    return create_model(f"{spec.id.title()}Power", __base__=Strict, **fields)


POWER_MODELS = {power_id: _power_model(spec) for power_id, spec in V.POWERS.items()}


# --- the validated database ----------------------------------------------------------


@dataclass(frozen=True)
class Move:
    car: str  # a colour, or vocabulary.WILD
    speed: int


@dataclass(frozen=True)
class SpeedCard:
    id: str
    moves: tuple[Move, ...]  # printed order: the order the cars move
    count: int  # copies in the box (Speed-8 cards: 1)
    speed8: bool  # a Speed-8 card, won with its car in the auction

    @property
    def wilds(self) -> int:
        return sum(m.car == V.WILD for m in self.moves)


@dataclass(frozen=True)
class Power:
    id: str  # one of vocabulary.POWERS: the engine applies it by id
    name: str
    text: str
    bonus: int  # extra spaces (aggressive, determined); 0 for powers without one


@dataclass(frozen=True)
class Space:
    id: str
    row: int
    lane: int
    curve: bool
    next: tuple[str, ...]  # ids of the spaces ahead, straight or diagonal


@dataclass(frozen=True)
class Segment:
    rows: int
    lanes: int
    curve: bool


@dataclass(frozen=True)
class Track:
    id: str
    name: str
    grid: tuple[Segment, ...] | None  # the lane grid it was written as; None for an explicit map
    spaces: tuple[Space, ...]  # a grid expanded: row by row, lane 0 first, ids r<row>l<lane>
    start: tuple[str, ...]  # the six starting spaces, pole first
    betting_lines: tuple[int, ...]  # rows, increasing, before the finish
    finish: int  # row


@dataclass(frozen=True)
class Database:
    source: str
    rules: Rules
    cars: tuple[str, ...]  # colours; the position is the car code
    speed_cards: tuple[SpeedCard, ...]  # the regular cards
    speed8_cards: tuple[SpeedCard, ...]
    powers: tuple[Power, ...]
    tracks: tuple[Track, ...]
    warnings: tuple[Problem, ...] = field(default=())

    def card(self, card_id: str) -> SpeedCard:
        return next(c for c in (*self.speed_cards, *self.speed8_cards) if c.id == card_id)

    def track(self, track_id: str) -> Track:
        return next(t for t in self.tracks if t.id == track_id)

    def power(self, power_id: str) -> Power:
        return next(p for p in self.powers if p.id == power_id)

    def counts(self) -> dict[str, int]:
        """Headline counts: copies of each pile, power cards, tracks."""
        return {
            "regular speed cards": sum(c.count for c in self.speed_cards),
            "Speed-8 cards": sum(c.count for c in self.speed8_cards),
            "power cards": len(self.powers),
            "tracks": len(self.tracks),
        }


def load_database(path: str | Path) -> Database:
    """Load and check a Downforce database; raises UserError on the first mistake."""
    return validate_database(load_yaml(path))


def validate_database(doc: YamlDoc) -> Database:
    top, rules, problems, label = validate_top(doc, DatabaseModel, Rules, ID_LISTS, "a Downforce")
    cards, more = validate_items(("speed_cards",), CardModel, top.speed_cards, doc, label)
    problems += more
    eights, more = validate_items(("speed8_cards",), Speed8Model, top.speed8_cards, doc, label)
    problems += more
    powers, more = _powers(top.powers, doc, label)
    problems += more
    tracks, more = validate_items(("tracks",), TrackModel, top.tracks, doc, label)
    problems += more
    raise_first(problems)
    cars = tuple(top.cars)
    problems += _rules_checks(rules, doc)
    problems += _car_checks(cars, doc)
    problems += _card_checks(cards, eights, cars, doc, label)
    problems += _deck_checks(cards, rules, doc)
    problems += duplicate_ids([(("powers", i), p.id) for i, p in powers], doc, label)
    built, more = _tracks(tracks, doc, label)
    problems += more
    problems += _track_choice(rules, [t for _, t in tracks], doc)
    raise_first(problems)
    db = Database(
        source=doc.source,
        rules=rules,
        cars=cars,
        speed_cards=tuple(_card(c, c.count, False) for _, c in cards),
        speed8_cards=tuple(_card(c, 1, True) for _, c in eights),
        powers=tuple(Power(p.id, p.name, p.text, getattr(p, "bonus", 0)) for _, p in powers),
        tracks=tuple(built),
    )
    return replace(db, warnings=tuple(_warnings(db, doc)))


def _card(c: CardModel | Speed8Model, count: int, speed8: bool) -> SpeedCard:
    return SpeedCard(c.id, tuple(Move(m.car, m.speed) for m in c.moves), count, speed8)


def _powers(raws: list[dict[Any, Any]], doc: YamlDoc, label) -> tuple[list[tuple[int, Any]], list[Problem]]:
    """Each power by the model of its id: the parameters differ by power."""
    out, problems = [], []
    for i, raw in enumerate(raws):
        path = ("powers", i, "id")
        power_id = raw.get("id")
        if power_id is None:
            problems.append(doc.problem(path, "required field missing", label(path)))
        elif not isinstance(power_id, str):  # a list or a mapping cannot name a power (nor be looked up)
            problems.append(doc.problem(path, f"expected text, got {_kind(power_id)}", label(path)))
        elif power_id not in POWER_MODELS:
            known = ", ".join(V.POWERS)
            problems.append(
                doc.problem(
                    path,
                    f"unknown power {power_id!r}{did_you_mean(str(power_id), known.split(', '))} (known: {known})",
                    label(path),
                )
            )
        else:
            power, power_problems = validate_model(POWER_MODELS[power_id], raw, doc, ("powers", i), label)
            problems += power_problems
            if power is not None:
                out.append((i, power))
    return out, problems


def _kind(value: Any) -> str:
    """A value of the wrong type in words, as the schema's type errors say it."""
    if isinstance(value, bool):
        return str(value).lower()
    return {dict: "a mapping", list: "a list"}.get(type(value), repr(value))


# --- rules, cars, cards ---------------------------------------------------------------


def _rules_checks(rules: Rules, doc: YamlDoc) -> list[Problem]:
    problems = []
    if len(rules.prizes) != V.N_CARS:
        problems.append(
            doc.problem(("rules", "prizes"), f"{len(rules.prizes)} prizes for {V.N_CARS} finishing places (1st first)")
        )
    payouts = rules.bet_payouts
    if len(payouts) != V.BETTING_LINES:
        problems.append(
            doc.problem(
                ("rules", "bet_payouts"),
                f"{len(payouts)} rows for {V.BETTING_LINES} betting lines (one row per line)",
            )
        )
    for k, row in enumerate(payouts):
        if len(row) != V.BET_PLACES:
            problems.append(
                doc.problem(
                    ("rules", "bet_payouts", k),
                    f"{len(row)} payouts for line {k + 1}; give {V.BET_PLACES}: the bet car finishing 1st, 2nd, 3rd",
                )
            )
    if rules.players.min > rules.players.max:
        problems.append(
            doc.problem(("rules", "players", "min"), f"{rules.players.min} is more than max ({rules.players.max})")
        )
    return problems


def _car_checks(cars: tuple[str, ...], doc: YamlDoc) -> list[Problem]:
    problems = []
    if len(cars) != V.N_CARS:
        problems.append(doc.problem(("cars",), f"{len(cars)} colours; Downforce races {V.N_CARS} cars"))
    first_seen: dict[str, int | None] = {}
    for k, car in enumerate(cars):
        if car == V.WILD:
            problems.append(doc.problem(("cars", k), f"{V.WILD!r} is reserved for a wild car on a card"))
        elif car in first_seen:
            problems.append(doc.problem(("cars", k), f"{car!r} is listed twice (first at line {first_seen[car]})"))
        else:
            first_seen[car] = doc.line_of(("cars", k))
    return problems


def _card_checks(cards, eights, cars: tuple[str, ...], doc: YamlDoc, label) -> list[Problem]:
    ids = [(("speed_cards", i), c.id) for i, c in cards] + [(("speed8_cards", i), c.id) for i, c in eights]
    problems = duplicate_ids(ids, doc, label)
    for section, items in (("speed_cards", cards), ("speed8_cards", eights)):
        for i, card in items:
            for where, message in _card_shape(card, cars):
                path = (section, i, *where)
                problems.append(doc.problem(path, message, label(path)))
    return problems + _speed8_checks(eights, cars, doc, label)


def _card_shape(card: CardModel | Speed8Model, cars: tuple[str, ...]) -> list[tuple[tuple[Any, ...], str]]:
    """(path below the card, message) for each car that cannot be on it."""
    out = []
    seen: dict[str, int] = {}
    wilds = 0
    for k, move in enumerate(card.moves):
        where = ("moves", k, "car")
        if move.car == V.WILD:
            wilds += 1
            if wilds > V.MAX_WILDS:
                out.append((where, f"a wild beyond the {V.MAX_WILDS} a card may carry"))
        elif move.car not in cars:
            out.append((where, f"unknown car {move.car!r} (known: {', '.join(cars)}, {V.WILD})"))
        elif move.car in seen:
            out.append((where, f"{move.car!r} is already on this card (move {seen[move.car]})"))
        else:
            seen[move.car] = k
    if len(card.moves) > V.N_CARS:
        # A wild picks a colour not on the card, so a card moves each car at most once.
        out.append((("moves",), f"{len(card.moves)} cars on one card; there are {V.N_CARS}"))
    return out


def _deck_checks(cards, rules: Rules, doc: YamlDoc) -> list[Problem]:
    """The regular cards are dealt out equally before the auction: at least one
    to each player (a bid is a card from the hand), at most MAX_DECK in all."""
    total = sum(card.count for _, card in cards)
    players = rules.players.max
    if total > MAX_DECK:
        message = f"{total} regular speed cards in all (counts added up); at most {MAX_DECK}"
        return [doc.problem(("speed_cards",), message)]
    if total < players:
        message = (
            f"{total} regular speed cards in all; the deal gives each of up to {players} players "
            "(rules.players.max) at least one to bid with"
        )
        return [doc.problem(("speed_cards",), message)]
    return []


def _speed8_checks(eights, cars: tuple[str, ...], doc: YamlDoc, label) -> list[Problem]:
    """Each car is auctioned with its own Speed-8 card: the card's first car."""
    problems, first_of = [], {}
    for i, card in eights:
        path = ("speed8_cards", i, "moves", 0, "car")
        car = card.moves[0].car
        if car == V.WILD:
            message = "a Speed-8 card's first car is the car auctioned with it: name a colour, not wild"
            problems.append(doc.problem(path, message, label(path)))
        elif car in first_of:
            first_id, first_line = first_of[car]
            message = (
                f"a second Speed-8 card for {car!r} (the first, {first_id!r}, is at line {first_line}); "
                "each car is auctioned with its own"
            )
            problems.append(doc.problem(path, message, label(path)))
        elif car in cars:
            first_of[car] = (card.id, doc.line_of(("speed8_cards", i)))
    missing = [car for car in cars if car not in first_of]
    if missing and not problems and all(card.moves[0].car in cars for _, card in eights):
        message = f"no Speed-8 card for {', '.join(missing)} (each car is auctioned with its own)"
        problems.append(doc.problem(("speed8_cards",), message))
    return problems


# --- tracks ---------------------------------------------------------------------------


def _track_choice(rules: Rules, tracks: list[TrackModel], doc: YamlDoc) -> list[Problem]:
    known = [t.id for t in tracks]
    if rules.track in known:
        return []
    return [
        doc.problem(
            ("rules", "track"),
            f"unknown track {rules.track!r}{did_you_mean(rules.track, known)} (known: {', '.join(known)})",
        )
    ]


def _tracks(tracks, doc: YamlDoc, label) -> tuple[list[Track], list[Problem]]:
    """Each track checked and expanded to spaces; problems carry paths below the track."""
    built, problems = [], duplicate_ids([(("tracks", i), t.id) for i, t in tracks], doc, label)
    for i, model in tracks:
        track, where_messages = _track(model, lambda where, i=i: doc.line_of(("tracks", i, *where)))
        for where, message in where_messages:
            path = ("tracks", i, *where)
            problems.append(doc.problem(path, message, label(path)))
        if track is not None:
            built.append(track)
    return built, problems


def _track(t: TrackModel, line_of) -> tuple[Track | None, list[tuple[tuple[Any, ...], str]]]:
    """The track expanded to spaces, or None and (path below the track, message)
    for each problem; `line_of(path below the track)` names earlier lines."""
    layout = _layout_problems(t)
    if layout:
        return None, layout
    if t.grid is not None:
        spaces, start, out = _grid(t)
    else:
        spaces, out = _explicit(t, line_of)
        start = tuple(t.start or ())
    if out:
        return None, out
    out = _line_problems(t, spaces, start)
    if out:
        return None, out
    grid = tuple(Segment(s.rows, s.lanes, s.curve) for s in t.grid) if t.grid is not None else None
    return Track(t.id, t.name, grid, tuple(spaces), start, tuple(t.betting_lines), t.finish), []


def _layout_problems(t: TrackModel) -> list[tuple[tuple[Any, ...], str]]:
    """Exactly one of grid (with start_rows) or spaces (with start)."""
    if t.grid is not None and t.spaces is not None:
        return [(("spaces",), "a track is a grid or a list of spaces, not both")]
    if t.grid is None and t.spaces is None:
        return [((), "a track needs grid (lane segments) or spaces (an explicit map)")]
    if t.grid is not None:
        if t.start is not None:
            return [(("start",), "start goes with spaces; a grid's starting spaces come from start_rows")]
        if t.start_rows is None:
            return [(("start_rows",), "required with grid: how many first rows hold the starting spaces")]
    elif t.start_rows is not None:
        return [(("start_rows",), "start_rows goes with grid; with spaces, list start: the starting space ids")]
    elif t.start is None:
        return [(("start",), "required with spaces: the starting space ids, pole first")]
    return []


def grid_id(row: int, lane: int) -> str:
    """The id of a grid space (row and lane from 0; lane 0 is the inside lane)."""
    return f"r{row}l{lane}"


def _grid(t: TrackModel) -> tuple[list[Space], tuple[str, ...], list[tuple[tuple[Any, ...], str]]]:
    """Expand the segments into spaces: each row has its segment's lanes, and a
    space's forward neighbours are the next row's lanes l-1, l, l+1 that exist."""
    grid = t.grid or []
    total = sum(s.rows for s in grid)
    if total > MAX_ROWS:  # checked before the rows are expanded into spaces
        return [], (), [(("grid",), f"{total} rows in all (segment rows added up); at most {MAX_ROWS}")]
    out = []
    for j in range(1, len(grid)):
        before, after = grid[j - 1].lanes, grid[j].lanes
        if abs(after - before) > 1:
            # Narrowing by two leaves the outside lane nothing ahead; widening by two adds a lane nobody reaches.
            message = f"{after} lanes after {before}: change by one lane at a time"
            out.append((("grid", j, "lanes"), message))
    widths = [s.lanes for s in grid for _ in range(s.rows)]
    curves = [s.curve for s in grid for _ in range(s.rows)]
    start_rows = t.start_rows or 0
    held = sum(widths[:start_rows])
    if start_rows >= len(widths):
        out.append((("start_rows",), f"{start_rows} starting rows fill the whole grid ({len(widths)} rows)"))
    elif held < V.N_CARS:
        out.append(
            (("start_rows",), f"the first {start_rows} rows hold {held} spaces; the {V.N_CARS} cars need {V.N_CARS}")
        )
    if t.finish > len(widths) - 1:
        out.append((("finish",), f"row {t.finish} is past the grid's last row ({len(widths) - 1})"))
    if out:
        return [], (), out
    spaces = []
    for row, (width, curve) in enumerate(zip(widths, curves, strict=True)):
        ahead = widths[row + 1] if row + 1 < len(widths) else 0
        for lane in range(width):
            following = tuple(grid_id(row + 1, n) for n in (lane - 1, lane, lane + 1) if 0 <= n < ahead)
            spaces.append(Space(grid_id(row, lane), row, lane, curve, following))
    # Pole first: the front starting row, inside lane first; the six front-most spaces.
    starting = sorted((s for s in spaces if s.row < start_rows), key=lambda s: (-s.row, s.lane))
    return spaces, tuple(s.id for s in starting[: V.N_CARS]), []


def _explicit(t: TrackModel, line_of) -> tuple[list[Space], list[tuple[tuple[Any, ...], str]]]:
    """Check an explicit map: ids, places, next (ahead, known), no dead end before the finish."""
    models = t.spaces or []
    out: list[tuple[tuple[Any, ...], str]] = []
    row_of: dict[str, int] = {}
    first_at: dict[str, int] = {}  # space id -> its index in the list
    place_of: dict[tuple[int, int], str] = {}
    for j, s in enumerate(models):
        if s.id in row_of:
            first = line_of(("spaces", first_at[s.id], "id"))
            out.append((("spaces", j, "id"), f"duplicate id {s.id!r} (first defined at line {first})"))
        elif (s.row, s.lane) in place_of:
            taken = place_of[s.row, s.lane]
            out.append((("spaces", j, "lane"), f"row {s.row} lane {s.lane} is already space {taken!r}"))
        row_of.setdefault(s.id, s.row)
        first_at.setdefault(s.id, j)
        place_of.setdefault((s.row, s.lane), s.id)
    for j, s in enumerate(models):
        out += [(("spaces", j, *where), message) for where, message in _next_problems(s, row_of, t.finish)]
    out += _start_problems(t.start or [], row_of)
    last = max(s.row for s in models)
    if t.finish > last:
        out.append((("finish",), f"row {t.finish} is past the last space (row {last})"))
    spaces = [Space(s.id, s.row, s.lane, s.curve, tuple(s.next)) for s in models]
    return spaces, out


def _next_problems(s: SpaceModel, row_of: dict[str, int], finish: int) -> list[tuple[tuple[Any, ...], str]]:
    out: list[tuple[tuple[Any, ...], str]] = []
    if not s.next and s.row < finish:
        out.append((("next",), f"a dead end at row {s.row}, before the finish (row {finish}): list the spaces ahead"))
    if len(s.next) > V.MAX_NEXT:
        out.append((("next",), f"{len(s.next)} spaces ahead; at most {V.MAX_NEXT} (straight or diagonal)"))
    for m, target in enumerate(s.next):
        if target not in row_of:
            out.append((("next", m), f"unknown space {target!r}"))
        elif row_of[target] <= s.row:
            out.append((("next", m), f"{target!r} is at row {row_of[target]}, not ahead of row {s.row}"))
        elif target in s.next[:m]:
            out.append((("next", m), f"{target!r} is listed twice"))
    return out


def _start_problems(start: list[str], row_of: dict[str, int]) -> list[tuple[tuple[Any, ...], str]]:
    out: list[tuple[tuple[Any, ...], str]] = []
    if len(start) != V.N_CARS:
        out.append((("start",), f"{len(start)} starting spaces; the {V.N_CARS} cars need {V.N_CARS}"))
    for k, space in enumerate(start):
        if space not in row_of:
            out.append((("start", k), f"unknown space {space!r}"))
        elif space in start[:k]:
            out.append((("start", k), f"{space!r} is listed twice"))
    return out


def _line_problems(t: TrackModel, spaces: list[Space], start: tuple[str, ...]) -> list[tuple[tuple[Any, ...], str]]:
    """Three betting lines, crossed in order, after the start and before the finish."""
    lines = t.betting_lines
    if len(lines) != V.BETTING_LINES:
        return [
            (
                ("betting_lines",),
                f"{len(lines)} betting lines; a track has {V.BETTING_LINES} (one per row of rules.bet_payouts)",
            )
        ]
    row_of = {s.id: s.row for s in spaces}
    front = max(row_of[s] for s in start)
    out: list[tuple[tuple[Any, ...], str]] = []
    for k, row in enumerate(lines):
        where = ("betting_lines", k)
        if k == 0 and row <= front:
            out.append((where, f"row {row} is not after the starting spaces (the front one is at row {front})"))
        elif k > 0 and row <= lines[k - 1]:
            out.append((where, f"row {row} is not after line {k}'s row {lines[k - 1]} (cars cross them in order)"))
        elif row >= t.finish:
            out.append((where, f"row {row} is not before the finish (row {t.finish})"))
    return out


def _warnings(db: Database, doc: YamlDoc) -> list[Problem]:
    counts = db.counts()
    section = {"regular speed cards": "speed_cards", "Speed-8 cards": "speed8_cards", "power cards": "powers"}
    return [
        doc.problem((section[pile],), f"{counts[pile]} {pile} (the rulebook has {expected})", f"count of {pile}")
        for pile, expected in RULEBOOK_COUNTS.items()
        if counts[pile] != expected
    ]
