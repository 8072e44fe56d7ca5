"""Downforce's rules one phase at a time, for the rules tests: the compiled
engine's phases (balance/games/downforce/compiled/rules.py) called on a state
a test lays out, game by game, with each game's own keyed draws (a phase's
draws go on counting from one call to the next, as in a game).

`phases(tables, players, games, names, profiles, seed)` gives a `Phases` (the
tables, the bots, the track, each game's draw counts) and an empty State; the
functions below take arrays of games as the tests write them and call the
compiled phase for each."""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np

from balance.games.chance import SEATS, Streams
from balance.games.downforce import compiled
from balance.games.downforce.bots import BotTable, bot_table, resolve_profiles
from balance.games.downforce.compile import Tables, TrackTable
from balance.games.downforce.compiled import rules, structs
from balance.games.downforce.compiled import tables as compiled_tables
from balance.games.downforce.state import Bonus, State, empty_state

PURPOSE = {name: i for i, name in enumerate(compiled_tables.PURPOSES)}


@dataclass
class Phases:
    tables: Tables
    bots: BotTable
    streams: Streams
    track: TrackTable = field(init=False)
    draws: dict[int, np.ndarray] = field(default_factory=dict)  # each game's draw counts (chance.compiled.key)

    def __post_init__(self) -> None:
        self.track = self.tables.tracks[self.tables.rules.track]

    def T(self, players: int) -> structs.Tables:
        return compiled.tables_for(self.tables, self.bots, players)

    def S(self, st: State) -> structs.StateArrays:
        return structs.StateArrays(*(getattr(st, name) for name in compiled.STATE_FIELDS))

    def X(self, g: int) -> structs.Game:
        """Game g's context: its hash and its draw counts so far (no events, no trace)."""
        draws = self.draws.setdefault(g, np.zeros((len(compiled.CODES) + 1, SEATS), np.int64))
        return structs.Game(
            self.streams.game[g : g + 1],
            draws,
            compiled.CODES,
            np.zeros((1, 7), np.int32),
            np.zeros(1, np.int64),
            False,
            np.zeros(5, np.int64),
            False,
            False,
            np.zeros((1, 1), np.int64),
            np.zeros(1, np.int64),
        )


def phases(tables: Tables, players: int, games: int = 1, names=None, profiles=None, seed: int = 0):
    """The phases of `games` games of `players` players, player p's bot names[p] (default: a
    noiseless `robot`), and their empty state."""
    names = names or ["robot"] * players
    bots = bot_table(resolve_profiles({"robot": {"noise": 0.0}} | (profiles or {})), names, tables)
    st = empty_state(games, players, len(tables.cards.ids), len(tables.tracks[tables.rules.track].row))
    st.bots[:] = np.arange(players)[None, :]
    return Phases(tables, bots, Streams(seed, 0, games)), st


def _who(bonus: Bonus | None, g: int) -> int:
    return int(bonus.who[g]) if bonus is not None else 0


def deal(m: Phases, st: State, bonus: Bonus | None = None) -> None:
    T, S = m.T(st.players), m.S(st)
    for g in range(len(st.bots)):
        rules.deal(T, S, m.X(g), g, bonus.card if bonus is not None else -1, _who(bonus, g))


def run_auction(m: Phases, st: State, car_order: np.ndarray | None = None, bonus: Bonus | None = None) -> None:
    """The six rounds and the powers kept; `car_order` (G, 6) stacks the Speed-8 pile."""
    T, S = m.T(st.players), m.S(st)
    for g in range(len(st.bots)):
        X = m.X(g)
        stacked = np.empty(0, np.int64) if car_order is None else np.asarray(car_order[g], np.int64)
        won = rules.run_auction(T, S, X, g, stacked)
        rules.keep_power(T, S, X, g, won, bonus.power if bonus is not None else -1, _who(bonus, g))


def keep_power(m: Phases, st: State, won: np.ndarray, bonus: Bonus | None = None) -> None:
    """`won` (G, N, P): the power cards each player won."""
    T, S = m.T(st.players), m.S(st)
    for g in range(len(st.bots)):
        padded = np.pad(won[g], ((0, 0), (0, 1)))
        rules.keep_power(T, S, m.X(g), g, padded, bonus.power if bonus is not None else -1, _who(bonus, g))


def grid_cars(m: Phases, st: State) -> None:
    T, S = m.T(st.players), m.S(st)
    for g in range(len(st.bots)):
        rules.grid_cars(T, S, m.X(g), g)


def hand_share(m: Phases, st: State, car: np.ndarray) -> np.ndarray:
    """(G, N) each hand's speed for colour car[g] against a fair share of it."""
    T, S = m.T(st.players), m.S(st)
    out = np.zeros(st.bots.shape, np.float32)
    for g in range(len(st.bots)):
        rules.hand_share(T, S, g, int(car[g]), out[g])
    return out


def move_car(m, st, g, car, steps, steer, steerer, purpose: str, uniform=None) -> np.ndarray:
    """Each row's car moved (rules.move_car); returns (n,) whether it entered only rectangular spaces."""
    T, S = m.T(st.players), m.S(st)
    out = np.zeros(len(g), bool)
    for j, game in enumerate(g):
        random = bool(uniform[j]) if uniform is not None else False
        args = (int(car[j]), int(steps[j]), float(steer[j]), int(steerer[j]), PURPOSE[purpose], random)
        out[j] = rules.move_car(T, S, m.X(int(game)), int(game), *args)
    return out


def _worth(T, S, game: int, player: int) -> np.ndarray:
    worth = np.zeros(6, np.float32)
    rules.stance(T, S, game, player, worth)
    return worth


def wild_colours(m, st, g, player, card) -> np.ndarray:
    """(n, M) the car each entry of each row's card moves (a wild: the colour its player picks)."""
    T, S = m.T(st.players), m.S(st)
    out = np.zeros((len(g), m.tables.cards.car.shape[1]), np.int64)
    for j, game in enumerate(g):
        worth = _worth(T, S, int(game), int(player[j]))
        rules.wild_colours(T, S, m.X(int(game)), int(game), int(player[j]), int(card[j]), worth, out[j])
    return out


def resolve_card(m, st, g, player, card) -> None:
    T, S = m.T(st.players), m.S(st)
    for j, game in enumerate(g):
        worth = _worth(T, S, int(game), int(player[j]))
        rules.resolve_card(T, S, m.X(int(game)), int(game), int(player[j]), int(card[j]), worth)


def betting(m, st, g) -> None:
    T, S = m.T(st.players), m.S(st)
    for game in g:
        rules.betting(T, S, m.X(int(game)), int(game))


def next_player(m, st) -> np.ndarray:
    T, S = m.T(st.players), m.S(st)
    return np.array([rules.next_player(T, S, g) for g in range(len(st.bots))])


def simulate(tables, bots, seats, streams, bonus=None) -> tuple[State, list[str]]:
    """Whole games on the compiled engine, with the rules checker after every card: (state, rules broken)."""
    broken: list[str] = []
    st = compiled.simulate(tables, bots, seats, streams, bonus=bonus, broken=broken)
    return st, broken
