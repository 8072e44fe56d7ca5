"""Helpers for the Heat engine tests: the database edited in memory, and a
batch of races set up with bots that never act at random.

The rules tests call the compiled engine's phases
(balance/games/heat/compiled/rules.py) on a state they lay out, race by race,
each race with its own keyed draws (a phase's draws go on counting from one
call to the next, as in a race): `batch` gives a `Phases` (the tables, the
bots, each race's draw counts) and the State after setup; the functions below
take arrays of races and cars as the tests write them (`g` (n,) races, `p`
(n,) the car acting in each) and call the compiled phase for each."""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np
import yaml

from balance.games.chance import SEATS, Streams
from balance.games.chance.compiled import next_step
from balance.games.events import Events
from balance.games.heat import compiled
from balance.games.heat.bots import BotTable, bot_table, resolve_profiles
from balance.games.heat.compile import Tables, compile_database, compile_race
from balance.games.heat.compiled import rules, structs
from balance.games.heat.compiled import tables as compiled_tables
from balance.games.heat.schema import validate_database
from balance.games.heat.state import State
from balance.yamlio import parse_yaml

ROOT = Path(__file__).resolve().parents[1]
_BASE = yaml.safe_load((ROOT / "heat.yaml").read_text())

# A bot with no noise: every choice follows from its weights.
ROBOT = {"noise": 0.0}
PURPOSE = {name: i for i, name in enumerate(compiled_tables.PURPOSES)}


def tables(**rules: Any) -> Tables:
    """heat.yaml with some `rules:` changed (e.g. track="italia", garage_module=True)."""
    data = yaml.safe_load(yaml.safe_dump(_BASE))
    data["rules"].update(rules)
    return compile_database(validate_database(parse_yaml(yaml.safe_dump(data, sort_keys=False), "test.yaml")))


def season_race(season: str, race: int, weather: bool = False, **rules: Any) -> Tables:
    """The tables of race `race` (0-based) of a Championship season of heat.yaml, some `rules:` changed;
    without Weather and Road Conditions unless `weather` (the tracks' own limits: what the rules tests read)."""
    data = yaml.safe_load(yaml.safe_dump(_BASE))
    data["rules"].update(rules, season=season)
    data["rules"]["championship"]["weather_module"] = weather
    db = validate_database(parse_yaml(yaml.safe_dump(data, sort_keys=False), "test.yaml"))
    return compile_race(db, db.season(season).races[race])


@dataclass
class Phases:
    """What the compiled phases read besides the state, for races of `players` cars."""

    tables: Tables
    bots: BotTable
    streams: Streams
    players: int
    draws: dict[int, np.ndarray] = field(default_factory=dict)  # each race's draw counts (chance.compiled.key)

    @property
    def T(self) -> structs.Tables:
        return compiled.tables_for(self.tables, self.bots, self.players)

    def X(self, g: int, broken: np.ndarray | None = None) -> structs.Game:
        """Race g's context: its hash and its draw counts so far (no events, no trace); `broken`
        (5,): the rules checker's [check?, rule, race, round, car] (none if not given)."""
        draws = self.draws.setdefault(g, np.zeros((len(compiled.CODES) + 1, SEATS), np.int64))
        return structs.Game(
            self.streams.game[g : g + 1],
            draws,
            compiled.CODES,
            np.zeros((1, 7), np.int32),
            np.zeros(1, np.int64),
            False,
            np.zeros(5, np.int64) if broken is None else broken,
            False,
            False,
            np.zeros((1, 10), np.int64),
            np.zeros(1, np.int64),
            np.zeros((1, 1), np.int64),
            np.zeros(1, np.int64),
            *self.scratch(),
        )

    def scratch(self) -> tuple[np.ndarray, ...]:
        """The phases' scratch (rules.scratch_for), fresh for each phase called."""
        return rules.scratch_for(len(self.tables.cards.ids), self.tables.rules.gears)


def arrays(st: State) -> structs.StateArrays:
    """The compiled phases' view of a state (the same arrays: what a phase changes, the state shows)."""
    return structs.StateArrays(*(getattr(st, name) for name in compiled.STATE_FIELDS))


def phases(t: Tables, bots: BotTable, streams: Streams, players: int) -> Phases:
    compiled.RULES.load()  # (says so on the console if it compiles)
    return Phases(t, bots, streams, players)


def setup(
    m: Phases, seats: np.ndarray, bonus: tuple[int, np.ndarray] | None = None, carry: np.ndarray | None = None
) -> State:
    """Races after setup (rules.setup, race by race): seats (G, P) the bot of each grid slot;
    `bonus` = (card, (G,) grid slot): balance strength's extra starting copy; `carry` (G, P, K): a
    Championship race's cards from the season's races before."""
    seats = np.asarray(seats, dtype=np.int16)
    G, P = seats.shape
    st = compiled.new_state(m.tables, G, P)
    st.bots[:] = seats
    card, who = -1, np.zeros(G, np.int64)
    if bonus is not None:
        card, who = int(bonus[0]), np.asarray(bonus[1], np.int64)
    T, S = m.T, arrays(st)
    K = len(m.tables.cards.ids)
    carry = np.zeros((0, P, K), np.int16) if carry is None else np.asarray(carry, np.int16)
    for g in range(G):
        rules.setup(T, S, m.X(g), g, card, who, carry)
    return st


def batch(t: Tables, names: list[str], races: int = 1, seed: int = 0, profiles: dict | None = None):
    """(Phases, State) of a batch after setup: grid slot i holds names[i] ('robot' = balanced without noise)."""
    over = {"robot": dict(ROBOT)} | (profiles or {})
    bots = bot_table(resolve_profiles(over), names, t)
    m = phases(t, bots, Streams(seed, 0, races), len(names))
    seats = np.tile(np.arange(len(names), dtype=np.int16), (races, 1))
    return m, setup(m, seats)


def card(t: Tables, card_id: str) -> int:
    return t.cards.index(card_id)


def hand_of(t: Tables, st: State, car: int, cards: dict[str, int], deck: dict[str, int] | None = None) -> None:
    """Give car `car` in every race exactly this hand (and deck, if given); the
    rest of its cards go to the discard, so nothing is lost."""
    owned = st.deck[:, car] + st.hand[:, car] + st.discard[:, car] + st.play[:, car]
    hand = np.zeros_like(owned)
    for cid, n in cards.items():
        hand[:, card(t, cid)] = n
    deck_counts = np.zeros_like(owned)
    for cid, n in (deck or {}).items():
        deck_counts[:, card(t, cid)] = n
    st.hand[:, car] = hand
    st.deck[:, car] = deck_counts
    st.play[:, car] = 0
    st.discard[:, car] = np.maximum(owned - hand - deck_counts, 0)


def played(t: Tables, st: State, car: int, cards: dict[str, int], gear: int, target: int = 40) -> None:
    """Car `car` has these cards face down in its play area in every race, in `gear`, aiming at `target`."""
    for cid, n in cards.items():
        st.play[:, car, card(t, cid)] = n
    st.gear[:, car] = gear
    st.target[:, car] = target


# --- the phases, race by race ---------------------------------------------------------------


def _each(*columns):
    return zip(*(np.broadcast_to(np.asarray(c), np.shape(columns[0])).tolist() for c in columns), strict=True)


def place(m: Phases, st: State, g, p, target) -> None:
    """Car p[j] of race g[j] on space target[j], or the first free spot behind it (rules.place)."""
    T, S = m.T, arrays(st)
    for game, car, to in _each(g, p, target):
        rules.place(T, S, game, car, to)


def flip(m: Phases, st: State, g, p, count, purpose: str) -> np.ndarray:
    """(n,) the speed each car's `count` flips added (rules.flip)."""
    T, S = m.T, arrays(st)
    return np.array(
        [rules.flip(T, S, m.X(game), game, car, n, PURPOSE[purpose]) for game, car, n in _each(g, p, count)]
    )


def plan_round(m: Phases, st: State) -> None:
    """Steps 1 and 2 for every player car still racing, in every running race."""
    T, S = m.T, arrays(st)
    for g in np.flatnonzero(st.running).tolist():
        rules.plan_round(T, S, m.X(g), g)


def car_turn(m: Phases, st: State, g, p, last) -> None:
    """A player car's turn (`last`: it takes Adrenaline)."""
    T, S = m.T, arrays(st)
    for game, car, adrenaline in _each(g, p, last):
        rules.car_turn(T, S, m.X(game), game, car, bool(adrenaline))


def legend_turn(m: Phases, st: State, g, p, card) -> None:
    """A Legend's move by the round's Legend card card[j]."""
    T, S = m.T, arrays(st)
    for game, car, c in _each(g, p, card):
        rules.legend_turn(T, S, m.X(game), game, car, c)


def slipstream(m: Phases, st: State, g, p, start, speed) -> None:
    """The Slipstream step of car p[j] of race g[j], which started its turn on start[j] at speed[j]."""
    T, S = m.T, arrays(st)
    for game, car, at, v in _each(g, p, start, speed):
        rules.slipstream(T, S, m.X(game), game, car, at, v)


def turn_order(st: State) -> np.ndarray:
    """(G, P) the cars of each race in turn order."""
    S = arrays(st)
    out = np.zeros(st.pos.shape, np.int64)
    for g in range(len(out)):
        rules.turn_order(S, g, out[g])
    return out


def target_speed(m: Phases, pos, engine, q, mod=0) -> np.ndarray:
    """(n,) the speed the bots q[j] aim at from pos[j] with engine[j] Heat (`mod`: corner limits raised)."""
    T = compiled_tables.build(m.tables, m.bots, m.players)  # the tables' fields (the compiled Tables hides them)
    at = (T.corner_at, T.limit, T.corners, T.finish)
    return np.array(
        [rules.target_speed(*at, x, e, T.reserve[b], T.risk[b], d) for x, e, b, d in _each(pos, engine, q, mod)]
    )


def play_race(m: Phases, st: State) -> list[str]:
    """Rounds until every car has finished or the round cap, race by race, the rules checker
    (rules.rule_broken) after every turn: each race's first rule broken, in words."""
    T, S = m.T, arrays(st)
    order = np.zeros(st.pos.shape[1], np.int64)
    broken = []
    for g in range(len(st.pos)):
        finding = np.array([1, 0, 0, 0, 0], np.int64)
        X = m.X(g, finding)
        for _ in range(m.tables.rules.max_rounds):
            if not st.running[g]:
                break
            next_step(m.draws[g])  # a round is a step
            rules.play_round(T, S, X, g, order)
        st.running[g] = False
        rule, race, at, car = finding[1:].tolist()
        if rule:
            broken.append(f"{rules.RULES[rule - 1]} (race {race}, round {at}, after car {car}'s turn)")
    return broken


def simulate(t: Tables, bots: BotTable, seats, streams: Streams, events: Events | None = None, bonus=None):
    """Whole races on the compiled engine, the rules checker after every turn: (state, rules broken)."""
    broken: list[str] = []
    st = compiled.simulate(t, bots, seats, streams, events=events, bonus=bonus, broken=broken)
    return st, broken
