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
games. A car is named by its grid slot in the first race (its `seat` in the
logs), whatever slot it starts later races from.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import pyarrow as pa

from ..chance import Streams
from ..events import Events
from ..recorder import cards_text
from . import compiled
from . import vocabulary as V
from .bots import BotTable
from .compile import Tables
from .log import finish_order
from .schema import Database, Season
from .state import State

# a car's tallies of a race, summed over the season in the players log
TALLIES = ("turns", "heat_paid", "corner_heat", "spin_outs", "boosts", "slipstreams", "adrenaline", "cooled")
TALLIES += ("overheats", "stress_added", "presses", "sponsors_gained")


@dataclass(frozen=True)
class SeasonResult:
    """A batch of seasons: each race's final state (by grid slot) and, by car,
    its grid slot, place and points in every race."""

    season: Season
    tables: tuple[Tables, ...]  # each race's
    races: tuple[State, ...]
    slot: np.ndarray  # (R, G, P) each car's grid slot in each race
    place: np.ndarray  # (R, G, P) each car's place (1 = won the race); a car out of the race is placed last
    points: np.ndarray  # (R, G, P) int16 each car's points in each race

    @property
    def total(self) -> np.ndarray:
        """(G, P) each car's points over the season."""
        return self.points.sum(axis=0)

    @property
    def standing(self) -> np.ndarray:
        """(G, P) each car's place in the final standings (1 = champion)."""
        return standings_rank(self.total, self.points[-1], self.slot[-1])


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
    races: tuple[Tables, ...],
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
    slot. Race r's random numbers are the streams' part r (Streams.part).
    `broken`, if given, gets the first rule a race's state breaks (the rules checker).
    `bonus` = (card, (G,) car): balance strength's extra copy, in the car's
    deck in every race of the season (given again each race, not carried)."""
    G, P = seats.shape
    rows = np.arange(G)[:, None]
    car_at = np.tile(np.arange(P), (G, 1))  # (G, P) the car on each grid slot
    carry = np.zeros((G, P, len(races[0].cards.ids)), np.int16)  # by car
    states, slots, places, scores = [], [], [], []
    total = np.zeros((G, P), np.int64)
    names = bots.names
    for r, tables in enumerate(races):
        race_events = Events() if events is not None else None
        if rec is not None:
            grid = [(int(c), names[seats[rec.watch, c]]) for c in car_at[rec.watch]]
            rec.lines.extend(race_header(season, r, tables, grid, carry[rec.watch] if r else None))
        slot = np.argsort(car_at, axis=1)  # (G, P) each car's slot
        given = None if bonus is None else (bonus[0], slot[np.arange(G), bonus[1]])
        st = compiled.simulate(
            tables, bots, seats[rows, car_at], streams.part(r), race_events, bonus=given, progress=progress,
            rec=rec, carry=carry[rows, car_at] if r else None, broken=broken,
        )  # fmt: skip
        place, pts = race_points(tables, st, points)
        states.append(st)
        slots.append(slot)
        places.append(place[rows, slot])
        scores.append(pts[rows, slot])
        if race_events is not None:
            _pass_on(race_events, events, car_at, first_race=r == 0)
        total += scores[-1]
        # (the bonus copy is given again, not carried; a swap may have given it away)
        carry = np.maximum(kept_cards(tables, st) - st.bonus, 0)[rows, slot]
        rank = standings_rank(total, scores[-1], slot)
        if rec is not None:
            rec.lines.extend(race_result(st, rec.watch, car_at[rec.watch], places[-1], scores[-1], total, rank))
        car_at = np.argsort(rank, axis=1)  # the leader on pole
    return SeasonResult(season, races, tuple(states), np.stack(slots), np.stack(places), np.stack(scores))


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
        f"=== Race {r + 1} of {len(season.races)} ({season.name}): {track.name}, {track.laps} "
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


def race_result(st, g, car_at, place, points, total, rank) -> list[str]:
    """A traced season's race, after it: each car's place and points, then the standings."""
    lines = ["Race result (a car named by its slot in the first race, then this race's):"]
    for car in np.argsort(place[g]):
        slot = int(np.flatnonzero(car_at == car)[0])
        how = "out of the race" if st.out[g, slot] else "finished" if st.finished[g, slot] else "still racing"
        lines.append(f"  {place[g, car]}. car {car} (slot {slot}): {how}, {points[g, car]} points")
    lines.append(
        "Standings: " + ", ".join(f"{rank[g, c]}. car {c} ({total[g, c]} points)" for c in np.argsort(rank[g]))
    )
    return lines


def _pass_on(race: Events, season: Events, car_at: np.ndarray, first_race: bool) -> None:
    """A race's card events into the season's, each seat the car's (its first
    grid slot); a later race's start events (the cards carried) left out."""
    ev = race.arrays()
    keep = np.ones(len(ev["game"]), bool) if first_race else ev["event"] != 0
    games = ev["game"][keep]
    seats = car_at[games, ev["seat"][keep]]
    season.add_coded(games, seats, ev["card"][keep], ev["event"][keep], ev["turn"][keep], ev["pick"][keep],
                     ev["price"][keep])  # fmt: skip


def season_tables(
    result: SeasonResult, events: Events, seats: np.ndarray, bots: BotTable, first_game: int, chunk: int
) -> dict[str, pa.Table]:
    """A chunk of seasons as the run's log tables: games one row per season
    (the champion is its winner), players one per season and car (its final
    standing as its finish position, its points, and each race's place and
    points; the tallies summed over the races), cards the races' card events."""
    G, P = seats.shape
    season, races = result.season, result.tables
    R = len(races)
    game_id = np.arange(first_game, first_game + G, dtype=np.int64)
    standing = result.standing
    champion = np.argmin(standing, axis=1)
    names = np.array(bots.names, dtype=object)
    by_car = [_by_car(st, result.slot[r]) for r, st in enumerate(result.races)]
    rounds = sum(st.round.astype(np.int32) for st in result.races)
    finished = np.all([st.finished.all(axis=1) for st in result.races], axis=0)
    games = pa.table(
        {
            "game_id": game_id,
            "chunk": np.full(G, chunk, np.int32),
            "n_players": np.full(G, P, np.int8),
            "rounds": rounds.astype(np.int16),
            "finished": finished,
            "winner_seat": champion.astype(np.int8),
            "winner_bot": names[seats[np.arange(G), champion]],
            "season": np.full(G, season.id, dtype=object),
            "track": np.full(G, " / ".join(t.tracks[t.rules.track].id for t in races), dtype=object),
            "legends": result.races[0].is_legend.sum(axis=1).astype(np.int8),
        }
    )
    summed = {name: sum(c[name] for c in by_car).astype(np.int16).ravel() for name in TALLIES}
    per_race = {}
    for r in range(R):
        per_race[f"race{r + 1}_place"] = result.place[r].astype(np.int8).ravel()
        per_race[f"race{r + 1}_points"] = result.points[r].ravel()
        per_race[f"race{r + 1}_out"] = by_car[r]["out"].ravel()
    players = pa.table(
        {
            "game_id": np.repeat(game_id, P),
            "seat": np.tile(np.arange(P, dtype=np.int8), G),
            "bot": names[seats].ravel(),
            "legend": result.races[0].is_legend[np.arange(G)[:, None], result.slot[0]].ravel(),
            "won": (standing == 1).ravel(),
            "finished": np.all([c["finished"] for c in by_car], axis=0).ravel(),
            "finish_position": standing.astype(np.int8).ravel(),
            "points": result.total.astype(np.int16).ravel(),
            **per_race,
            **summed,
            "sponsors_held": _sponsors_held(races[-1], result.races[-1], result.slot[-1]).ravel(),
        }
    )
    cards = events.table(first_game, races[0].cards.ids)
    return {"games": games, "players": players, "cards": cards}


def _by_car(st: State, slot: np.ndarray) -> dict[str, np.ndarray]:
    """A race's per-car tallies, reordered from grid slots to cars."""
    rows = np.arange(slot.shape[0])[:, None]
    out = {name: getattr(st, name)[rows, slot].astype(np.int64) for name in TALLIES}
    out |= {name: getattr(st, name)[rows, slot] for name in ("finished", "out")}
    return out


def _sponsors_held(tables: Tables, st: State, slot: np.ndarray) -> np.ndarray:
    """(G, P) by car: the Sponsorship cards each holds at the season's end."""
    sponsor = tables.cards.type == V.CARD_TYPES.index("sponsor")
    held = owned_cards(st)[..., sponsor].sum(axis=2)
    return held[np.arange(slot.shape[0])[:, None], slot].astype(np.int16)


def season_of(db: Database) -> Season:
    return db.season(db.rules.season)
