"""The Championship (rulebook, "Champion" mode; ../shared/facts/heat-modules.md
section 2): a season is its races in turn, each on its track with its Event
card. Each car keeps its Garage upgrades (one drafted before every race, the
last in the standings first) and its unplayed Sponsorship cards from race to
race; a race's places score points (rules.championship.points, plus the
Event's); the first race's grid is the scenario's seating, every later one
the standings, the leader on pole.

A season's races are batches of the one compiled engine (compiled.simulate,
with the cards each car carries); this module only passes each race's
results on to the next, with array operations over the batch: no loop over
games. A season drawn at random (a season's `draw:`, BGA's Random
championship) draws each game's tracks and Event cards with the keyed draws;
each of its races is then a batch for each (track, Event) the games drew,
their results put back in the games' rows. A car is named by its grid slot in
the first race (its `seat` in the logs), whatever slot it starts later races
from.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass

import numpy as np
import pyarrow as pa

from ...errors import UserError
from ..chance import Streams, uniform
from ..events import Events
from ..recorder import Recorder, cards_text
from . import compiled
from . import vocabulary as V
from .bots import BotTable
from .compile import Tables
from .log import finish_order
from .schema import Database, Season, SeasonRace
from .state import State

# a car's tallies of a race, summed over the season in the players log
TALLIES = ("turns", "heat_paid", "corner_heat", "spin_outs", "boosts", "slipstreams", "adrenaline", "cooled")
TALLIES += ("overheats", "stress_added", "presses", "sponsors_gained")
DRAWS = 5000  # a drawn season's draws at most: schema.DRAWN_SHARE keeps a game from needing more but once in 1e21


@dataclass(frozen=True)
class RaceGroup:
    """The seasons of a batch that ran the same race (track and Event card) at the same place of their
    season: all of them in a season of fixed races, those that drew it in a drawn one."""

    race: SeasonRace
    rows: np.ndarray  # (n,) the seasons, rows of the batch
    tables: Tables
    st: State  # by grid slot, the seasons in the order of `rows`


@dataclass(frozen=True)
class SeasonResult:
    """A batch of seasons: each race's groups (their tables and final states, by grid slot) and, by car,
    its grid slot, place and points in every race."""

    season: Season
    groups: tuple[tuple[RaceGroup, ...], ...]  # each race's
    slot: np.ndarray  # (R, G, P) each car's grid slot in each race
    place: np.ndarray  # (R, G, P) each car's place (1 = won the race); a car out of the race is placed last
    points: np.ndarray  # (R, G, P) int16 each car's points in each race

    @property
    def races(self) -> tuple[State, ...]:
        """Each race's state, where every season of the batch ran the same race (a season of fixed races)."""
        return tuple(self._whole(r).st for r in range(len(self.groups)))

    def _whole(self, r: int) -> RaceGroup:
        if len(self.groups[r]) != 1:
            raise ValueError(f"race {r + 1} of these seasons was drawn: {len(self.groups[r])} races ran at once")
        return self.groups[r][0]

    def by_season(self, r: int, of: Callable[[Tables, State], np.ndarray]) -> np.ndarray:
        """(G, ...) race r's `of(tables, state)` (a group's rows), for every season of the batch."""
        return gathered(self.groups[r], of, self.slot.shape[1])

    def by_car(self, r: int, of: Callable[[Tables, State], np.ndarray]) -> np.ndarray:
        """(G, P, ...) race r's `of(tables, state)` (by grid slot) by car, for every season of the batch."""
        return self.by_season(r, of)[np.arange(self.slot.shape[1])[:, None], self.slot[r]]

    def raced(self, what: str) -> np.ndarray:
        """(G,) object: each season's tracks (`what` "track") or Event cards ("event") in order ("usa / italia")."""
        G = self.slot.shape[1]
        names = np.full(G, "", dtype=object)
        for r, groups in enumerate(self.groups):
            for group in groups:
                names[group.rows] += ("" if r == 0 else " / ") + getattr(group.race, what)
        return names

    @property
    def total(self) -> np.ndarray:
        """(G, P) each car's points over the season."""
        return self.points.sum(axis=0)

    @property
    def standing(self) -> np.ndarray:
        """(G, P) each car's place in the final standings (1 = champion)."""
        return standings_rank(self.total, self.points[-1], self.slot[-1])


def gathered(groups, of: Callable[[Tables, State], np.ndarray], G: int) -> np.ndarray:
    """(G, ...) each group's `of(tables, state)` put back in its rows of the batch."""
    out = None
    for group in groups:
        part = np.asarray(of(group.tables, group.st))
        if out is None:
            out = np.zeros((G, *part.shape[1:]), part.dtype)
        out[group.rows] = part
    return out


def drawn_races(season: Season, fits: Callable[[SeasonRace], bool], streams: Streams) -> list[np.ndarray]:
    """Each race's (G,) index into season.candidates() for every season of the batch: a season of fixed
    races runs race r at place r; a drawn one draws its tracks (a random order, no track twice) and its
    Event cards (the same, paired in turn) with the keyed draws, a game's own whatever its batch, and
    draws again where a pair leaves no race to run (as BGA's Random championship: Espana and the Drivers'
    strike), so each game's season is uniform over the draws that run."""
    G = streams.games
    if season.draw is None:
        return [np.full(G, r, np.int64) for r in range(len(season.races))]
    d = season.draw
    T, E, R = len(d.tracks), len(d.events), d.races
    ok = np.array([[fits(SeasonRace(t, e)) for e in d.events] for t in d.tracks])
    track = np.zeros((G, R), np.int64)
    event = np.zeros((G, R), np.int64)
    left = np.arange(G)
    for _ in range(DRAWS):
        tracks, events = draw_orders(streams, left, T, E, R)
        runs = ok[tracks, events].all(axis=1)
        track[left[runs]], event[left[runs]] = tracks[runs], events[runs]
        left = left[~runs]
        if not len(left):
            return [track[:, r] * E + event[:, r] for r in range(R)]  # candidates(): tracks by events
    raise UserError(  # (balance validate refuses a draw this rare: schema.DRAWN_SHARE)
        f"season {season.id}: {DRAWS:,} draws of game {streams.first + int(left[0])} found no season whose every "
        "race has a race to run: list tracks and Event cards that fit each other more often"
    )


def draw_orders(streams: Streams, rows: np.ndarray, tracks: int, events: int, races: int) -> tuple[np.ndarray, ...]:
    """(n, races) each row's drawn tracks and Event cards (indices): each a random order of all, its first
    `races` (BGA shuffles both and pairs them in turn); each row's next draw on every call."""
    t = np.argsort(uniform(streams.key(rows, "season tracks"), tracks), axis=1, kind="stable")[:, :races]
    e = np.argsort(uniform(streams.key(rows, "season events"), events), axis=1, kind="stable")[:, :races]
    return t, e


def race_points(tables: Tables, st: State, championship_points: tuple[int, ...]) -> tuple[np.ndarray, np.ndarray]:
    """(place, points), each (G, P) by grid slot: the places of finish_order, and
    the points each place scores (rules.championship.points plus the Event's
    place_points); a car out of the race or still racing at the round cap scores 0."""
    place = finish_order(st)
    P = place.shape[1]
    table = np.zeros(P + 1, np.int16)
    base = list(championship_points)[:P]
    table[1 : 1 + len(base)] = base
    bonus = list(tables.event.place_points if tables.event is not None else ())[:P]
    table[1 : 1 + len(bonus)] += np.array(bonus, np.int16)
    scored = st.finished & ~st.out
    return place, np.where(scored, table[place], 0).astype(np.int16)


def standings_rank(total: np.ndarray, last: np.ndarray, slot: np.ndarray) -> np.ndarray:
    """(G, P) each car's rank in the standings (1 = first): the most points,
    ties by the points of the last race (BGA's), then by the last race's grid."""
    order = np.lexsort((slot, -last.astype(np.int64), -total.astype(np.int64)), axis=-1)
    return np.argsort(order, axis=1) + 1


def kept_cards(tables: Tables, st: State) -> np.ndarray:
    """(G, P, K) by grid slot: what a car takes to the next race, its Garage
    upgrades and the Sponsorship cards it still holds (Heat, Stress and the
    speed cards are the race's), and the Heat cards it drafted from the
    Garage pool (drafted_heat)."""
    c = tables.cards
    heat = c.type == V.CARD_TYPES.index("heat")
    kept = ((c.pool > 0) & ~heat) | (c.type == V.CARD_TYPES.index("sponsor"))
    out = np.where(kept[None, None, :], owned_cards(st), 0)
    out[:, :, tables.heat_card] = drafted_heat(tables, st)
    return out.astype(np.int16)


def drafted_heat(tables: Tables, st: State) -> np.ndarray:
    """(G, P) the Heat cards of the Garage pool a car owns after a race: the
    ones it drafted, this race and before (a swap's given away), which are the
    car's as its upgrades are (BGA moves a drafted card into the player's
    deck, Heat or not, and clears only the race's Heat). Our Heat cards are
    alike, so they are counted: an Event's Heat out of the game comes from the
    race's Heat first (BGA takes the Engine's first), from the drafted ones
    only when the race's is gone."""
    h = tables.heat_card
    whole = st.engine.astype(np.int64) + owned_cards(st)[..., h]  # every Heat card the car holds
    out_per_lap = tables.event.heat_out_per_lap if tables.event is not None else 0
    laps = st.lap_round.shape[2]
    taken_out = out_per_lap * (st.lap_round[:, :, : laps - 1] > 0).sum(axis=2)  # (as rules.laps_done)
    own = st.drafted[..., h].astype(np.int64) + st.received[..., h] + np.where(st.is_legend, 0, taken_out)
    return np.clip(own, 0, whole)


def owned_cards(st: State) -> np.ndarray:
    """(G, P, K) each car's own cards, wherever they are (Heat in the Engine aside)."""
    return st.deck.astype(np.int32) + st.hand + st.play + st.discard


def play_season(
    season: Season,
    races: Mapping[SeasonRace, Tables],
    points: tuple[int, ...],
    bots: BotTable,
    seats: np.ndarray,
    streams: Streams,
    events: Events | None = None,
    progress=None,
    rec=None,
    broken: list[str] | None = None,
    bonus: tuple[int, np.ndarray] | None = None,
) -> SeasonResult:
    """A batch of seasons: seats (G, P) the bot of each car, by its first grid
    slot; `races` the tables of every race the season may run (its own, or its
    draw's: season.candidates()). Race r's random numbers are the streams' part r
    (Streams.part). `broken`, if given, gets the first rule a race's state breaks
    (the rules checker). `bonus` = (card, (G,) car): balance strength's extra
    copy, in the car's deck in every race of the season (given again each race,
    not carried)."""
    G, P = seats.shape
    rows = np.arange(G)[:, None]
    car_at = np.tile(np.arange(P), (G, 1))  # (G, P) the car on each grid slot
    first = next(iter(races.values()))
    carry = np.zeros((G, P, len(first.cards.ids)), np.int16)  # by car
    groups, slots, places, scores = [], [], [], []
    total = np.zeros((G, P), np.int64)
    candidates = season.candidates()
    drawn = drawn_races(season, lambda race: race in races, streams)
    for r, chosen in enumerate(drawn):
        slot = np.argsort(car_at, axis=1)  # (G, P) each car's slot
        grid = seats[rows, car_at]
        part = streams.part(r)  # the race's keys, each group's games taken from them
        race = []
        for k in np.unique(chosen):
            at = np.flatnonzero(chosen == k)
            race.append(_race(candidates[k], at, races[candidates[k]], r, season, car_at, carry, slot, grid,
                              bots, part, events, progress, rec, broken, bonus))  # fmt: skip
        place, pts = np.moveaxis(gathered(race, lambda t, st: np.stack(race_points(t, st, points), axis=1), G), 1, 0)
        pts = pts.astype(np.int16)  # (stacked with the places, int64)
        groups.append(tuple(race))
        slots.append(slot)
        places.append(place[rows, slot])
        scores.append(pts[rows, slot])
        total += scores[-1]
        # (the bonus copy is given again, not carried; a swap may have given it away)
        carry = gathered(race, lambda t, st: np.maximum(kept_cards(t, st) - st.bonus, 0), G)[rows, slot]
        rank = standings_rank(total, scores[-1], slot)
        if rec is not None:
            group = next(g for g in race if rec.watch in g.rows)
            row = int(np.flatnonzero(group.rows == rec.watch)[0])
            rec.lines.extend(
                race_result(group.st, row, rec.watch, car_at[rec.watch], places[-1], scores[-1], total, rank)
            )
        car_at = np.argsort(rank, axis=1)  # the leader on pole
    return SeasonResult(season, tuple(groups), np.stack(slots), np.stack(places), np.stack(scores))


def _race(race, at, tables, r, season, car_at, carry, slot, grid, bots, part, events, progress, rec, broken, bonus):
    """Race r of the seasons `at` (rows of the batch), who all run `race`: one batch of the compiled engine
    (`part` the race's streams, Streams.part), its card events and trace put back under the batch's rows."""
    race_events = Events() if events is not None else None
    watch = None
    if rec is not None and rec.watch in at:
        watch = Recorder(int(np.flatnonzero(at == rec.watch)[0]), rec.verbose)
        cars = [(int(c), bots.names[grid[rec.watch, i]]) for i, c in enumerate(car_at[rec.watch])]
        rec.lines.extend(race_header(season, r, tables, cars, carry[rec.watch] if r else None))
    given = None if bonus is None else (bonus[0], slot[at, bonus[1][at]])
    st = compiled.simulate(
        tables, bots, grid[at], part.rows(at), race_events, bonus=given, progress=progress, rec=watch,
        carry=carry[at[:, None], car_at[at]] if r else None, broken=broken,
        named=lambda g: f"season {at[g]} of the batch, race {r + 1}",
    )  # fmt: skip
    if watch is not None:
        rec.lines.extend(watch.lines)
    if race_events is not None:
        _pass_on(race_events, events, car_at, at, first_race=r == 0)
    return RaceGroup(race, at, tables, st)


def race_header(
    season: Season, r: int, tables: Tables, grid: list[tuple[int, str]], carry: np.ndarray | None
) -> list[str]:
    """A traced season's race, before it starts: its track, its Event card and what it changes, the grid,
    and what each car brings from the races before (`carry` (P, K) by car)."""
    track, e = tables.tracks[tables.rules.track], tables.event
    letters = ", ".join(f"{x} (corner {c + 1})" for x, c in zip(e.press, tables.press, strict=True)) or "none"
    brought = []
    if carry is not None:
        names = tables.cards.names
        slot_of = {car: i for i, (car, _) in enumerate(grid)}
        for car in range(len(carry)):
            if carry[car].any():
                brought.append(f"  car {car} (slot {slot_of[car]}) brings {cards_text(carry[car], names)}")
    return [
        f"=== Race {r + 1} of {season.length} ({season.name}): {track.name}, {track.laps} "
        f"lap{'s' if track.laps != 1 else ''}; "
        f"Event: {e.name} ({event_text(e)}); Press Corners: {letters}",
        "grid (slot 0 on pole; this race's lines name a car by its slot): "
        + ", ".join(f"slot {i} = car {car} ({n})" for i, (car, n) in enumerate(grid)),
        *brought,
    ]


def event_text(e) -> str:
    """What an Event card deals and changes, in words."""
    said = [f"{e.sponsors} Sponsorship card{'s' if e.sponsors != 1 else ''} dealt"]
    for amount, what in (
        (e.laps, "laps"),
        (e.engine_heat, "Heat in each Engine"),
        (e.deck_stress, "Stress in each deck"),
    ):
        if amount:
            said.append(f"{amount:+d} {what}")
    if e.hand_size:
        said.append(f"hand size {e.hand_size}")
    if not e.adrenaline:
        said.append("no Adrenaline")
    if e.place_points:
        said.append("points +" + "/+".join(str(x) for x in e.place_points) + " for the first places")
    if e.press_cards > 1:
        said.append(f"a press gains {e.press_cards} cards")
    if e.press_below_limit:
        said.append("a press gains only below the limit")
    if e.record_speed:
        said.append(f"Speed {e.record_speed}+ gains a card")
    if e.first_to_lap:
        said.append(f"the first {e.first_to_lap} cars to complete lap 1 gain a card")
    if e.pass_cars:
        said.append(f"passing {e.pass_cars}+ cars in a turn gains a card")
    if e.spin_out_eliminates:
        said.append("a spin-out eliminates")
    if e.slipstream_gears:
        said.append("slipstream only in gear " + " or ".join(str(x) for x in e.slipstream_gears))
    if e.discard_heat:
        said.append("Heat may be discarded")
    if e.discard_stress:
        said.append("Stress may be discarded")
    if e.discards_max is not None:
        said.append(f"at most {e.discards_max} discarded a turn")
    if e.heat_out_per_lap:
        said.append(f"{e.heat_out_per_lap} Heat out of the game after each lap but the last")
    return "; ".join(said)


def race_result(st, row, g, car_at, place, points, total, rank) -> list[str]:
    """A traced season's race, after it: each car's place and points, then the standings (`st` the watched
    season's race, its row `row` there; g its row in the batch)."""
    lines = ["Race result (a car named by its slot in the first race, then this race's):"]
    for car in np.argsort(place[g]):
        slot = int(np.flatnonzero(car_at == car)[0])
        how = "out of the race" if st.out[row, slot] else "finished" if st.finished[row, slot] else "still racing"
        lines.append(f"  {place[g, car]}. car {car} (slot {slot}): {how}, {points[g, car]} points")
    lines.append(
        "Standings: " + ", ".join(f"{rank[g, c]}. car {c} ({total[g, c]} points)" for c in np.argsort(rank[g]))
    )
    return lines


def _pass_on(race: Events, season: Events, car_at: np.ndarray, at: np.ndarray, first_race: bool) -> None:
    """A race's card events (of the seasons `at`, in their order) into the season's, each seat the car's
    (its first grid slot); a later race's start events (the cards carried) left out."""
    ev = race.arrays()
    keep = np.ones(len(ev["game"]), bool) if first_race else ev["event"] != 0
    games = at[ev["game"][keep]]
    seats = car_at[games, ev["seat"][keep]]
    season.add_coded(games, seats, ev["card"][keep], ev["event"][keep], ev["turn"][keep], ev["pick"][keep],
                     ev["price"][keep])  # fmt: skip


def season_tables(
    result: SeasonResult, events: Events, seats: np.ndarray, bots: BotTable, first_game: int, chunk: int
) -> dict[str, pa.Table]:
    """A chunk of seasons as the run's log tables: games one row per season
    (the champion is its winner; its tracks in order), players one per season
    and car (its final standing as its finish position, its points, and each
    race's place and points; the tallies summed over the races), cards the
    races' card events."""
    G, P = seats.shape
    R = len(result.groups)
    game_id = np.arange(first_game, first_game + G, dtype=np.int64)
    standing = result.standing
    champion = np.argmin(standing, axis=1)
    names = np.array(bots.names, dtype=object)
    by_car = [{name: result.by_car(r, lambda t, st, n=name: getattr(st, n)) for name in (*TALLIES, "finished", "out")}
              for r in range(R)]  # fmt: skip
    rounds = sum(result.by_season(r, lambda t, st: st.round.astype(np.int32)) for r in range(R))
    finished = np.all([result.by_season(r, lambda t, st: st.finished.all(axis=1)) for r in range(R)], axis=0)
    games = pa.table(
        {
            "game_id": game_id,
            "chunk": np.full(G, chunk, np.int32),
            "n_players": np.full(G, P, np.int8),
            "rounds": rounds.astype(np.int16),
            "finished": finished,
            "winner_seat": champion.astype(np.int8),
            "winner_bot": names[seats[np.arange(G), champion]],
            "season": np.full(G, result.season.id, dtype=object),
            "track": result.raced("track"),
            "events": result.raced("event"),
            "legends": result.by_season(0, lambda t, st: st.is_legend.sum(axis=1)).astype(np.int8),
        }
    )
    summed = {name: sum(c[name].astype(np.int64) for c in by_car).astype(np.int16).ravel() for name in TALLIES}
    per_race = {}
    for r in range(R):
        per_race[f"race{r + 1}_place"] = result.place[r].astype(np.int8).ravel()
        per_race[f"race{r + 1}_points"] = result.points[r].ravel()
        per_race[f"race{r + 1}_out"] = by_car[r]["out"].ravel()
    sponsor = result.groups[-1][0].tables.cards.type == V.CARD_TYPES.index("sponsor")
    players = pa.table(
        {
            "game_id": np.repeat(game_id, P),
            "seat": np.tile(np.arange(P, dtype=np.int8), G),
            "bot": names[seats].ravel(),
            "legend": result.by_car(0, lambda t, st: st.is_legend).ravel(),
            "won": (standing == 1).ravel(),
            "finished": np.all([c["finished"] for c in by_car], axis=0).ravel(),
            "finish_position": standing.astype(np.int8).ravel(),
            "points": result.total.astype(np.int16).ravel(),
            **per_race,
            **summed,
            "sponsors_held": result.by_car(R - 1, lambda t, st: owned_cards(st)[..., sponsor].sum(axis=2))
            .astype(np.int16)
            .ravel(),
        }
    )
    cards = events.table(first_game, result.groups[0][0].tables.cards.ids)
    return {"games": games, "players": players, "cards": cards}


def season_of(db: Database) -> Season:
    return db.season(db.rules.season)
