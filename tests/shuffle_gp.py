"""Helpers for the Shuffle Grand Prix engine tests: the tables, a batch of
games set up with bots that never act at random, and cars arranged by hand
(drivers, hand, equips) with every card still accounted for.

The rules tests call the compiled engine's phases
(balance/games/shuffle_gp/compiled/rules.py) on a state they lay out, game
by game, each game with its own keyed draws (a phase's draws go on counting
from one call to the next, as in a game): `batch` gives a `Phases` (the
tables, the bots, the recorder, each game's draw counts) and the State after
setup; the functions below take arrays of games and seats as the tests write
them (`g` (n,) games, `p` (n,) the seat acting in each) and call the
compiled phase for each. What the watched game (`Phases.rec`) says goes to
`rec.lines`, in the words of a trace."""

from __future__ import annotations

import copy
from dataclasses import dataclass, field
from pathlib import Path
from typing import NamedTuple

import numpy as np

from balance.games.chance import SEATS, Streams
from balance.games.chance.compiled import next_step
from balance.games.recorder import Recorder
from balance.games.shuffle_gp import compiled
from balance.games.shuffle_gp import vocabulary as V
from balance.games.shuffle_gp.bots import BotTable, bot_table, resolve_profiles
from balance.games.shuffle_gp.compile import Tables, compile_database
from balance.games.shuffle_gp.compiled import Bonus, rules, structs
from balance.games.shuffle_gp.compiled.trace_text import trace_lines
from balance.games.shuffle_gp.schema import load_database
from balance.games.shuffle_gp.state import State, empty_state

ROOT = Path(__file__).resolve().parents[1]
T: Tables = compile_database(load_database(ROOT / "shuffle_gp.yaml"))

# A bot with no noise that never answers with a cancel, never spends trophies and
# never plays an anytime card outside its turn's play: every choice follows from its weights.
ROBOT = {"noise": 0.0, "cancel": 0.0, "swap_below": 0, "extra_play": 99.0, "anytime": 99.0}

OP = {name: i for i, name in enumerate(V.OPS)}
TARGET = {name: i for i, name in enumerate(V.TARGETS)}
TRIGGER = {name: i for i, name in enumerate(V.TRIGGERS)}
SPIN_OUT_DREAD = float(rules.DREAD)  # what a bot (without noise) gives up rather than spin itself out
PIT, REDRAW, PASS = rules.PIT, rules.REDRAW, rules.PASS  # the options after the K cards
TRACE_RECORDS, TRACE_LISTS = 20_000, 2_000


@dataclass
class Phases:
    """What the compiled phases read besides the state (the numpy engine's Match, as the tests use it)."""

    tables: Tables
    bots: BotTable
    streams: Streams
    rec: Recorder = field(default_factory=Recorder)
    draws: dict[int, np.ndarray] = field(default_factory=dict)  # each game's draw counts (chance.compiled.key)
    # each game's traps the last phase called left set off and waiting (X.n; the adapter springs them after it)
    waiting: dict[int, int] = field(default_factory=dict)

    def tab(self, st: State) -> structs.Tables:
        """The compiled tables for the state's players."""
        return compiled.tables_for(self.tables, self.bots, st.tire.shape[1])

    @property
    def values(self) -> np.ndarray:
        """(V,) int32: distance points of each kind."""
        return self.tables.distance.value.astype(np.int32)

    @property
    def mean_value(self) -> float:
        """Distance points of the average card in the deck."""
        count = self.tables.distance.count
        return float((self.values * count).sum() / max(count.sum(), 1))

    @property
    def springing(self) -> bool:
        """A trap set off and left waiting by the last phase called, in some game (X.n: traps a
        card set off wait until it is done; a trap's own effects set none off)."""
        return any(self.waiting.values())

    def call(self, st: State, g: int, phase, *args):
        """phase(T, S, X, g, *args) for game g; what the watched game says goes to rec.lines."""
        draws = self.draws.setdefault(g, np.zeros((len(compiled.CODES) + 1, SEATS), np.int64))
        n = np.zeros(4, np.int64)
        tracing = self.rec.on and self.rec.watch == g
        trace = np.zeros((TRACE_RECORDS if tracing else 1, 7), np.int64)
        P, K = st.hand.shape[1:]
        rows = np.zeros((TRACE_LISTS if tracing else 1, max(P * K, 2 * P) + 1), np.int64)
        rows_n = np.zeros(2, np.int64)
        pend = np.zeros((256, 2), np.int64)
        X = structs.Game(
            g,
            self.streams.game[g : g + 1],
            draws,
            compiled.CODES,
            False,
            np.zeros((1, 7), np.int32),
            n,
            np.zeros(5, np.int64),
            pend,
            tracing,
            bool(self.rec.verbose),
            trace,
            rows,
            rows_n,
        )
        T, S = self.tab(st), arrays(st)
        out = phase(T, S, X, g, *args)
        # a card's traps wait until it is done: a phase called by itself springs them after it
        waiting = self.waiting[g] = int(n[rules.N_PEND])
        assert waiting <= len(pend), "more traps set off than the adapter's room for them"
        if waiting and phase is not rules._resolve_then_spring:
            n[rules.N_PEND] = 0
            for who, trigger in pend[:waiting].tolist():
                rules._spring(T, S, X, g, who, trigger)
        if tracing:
            assert rows_n[1] <= len(trace) and rows_n[0] <= len(rows), "the trace outgrew its room"
            self.rec.lines.extend(trace_lines(trace[: int(rows_n[1])], rows, self.tables, P))
        return out


def arrays(st: State) -> structs.StateArrays:
    """The compiled phases' view of a state (the same arrays: what a phase changes, the state shows)."""
    return structs.StateArrays(*(getattr(st, name) for name in compiled.STATE_FIELDS))


def phases(tables: Tables, bots: BotTable, streams: Streams, rec: Recorder | None = None) -> Phases:
    compiled.RULES.load()  # (says so on the console if it compiles)
    return Phases(tables, bots, streams, Recorder() if rec is None else rec)


def setup(m: Phases, seats: np.ndarray, bonus: Bonus | None = None) -> State:
    """Games after setup (rules.setup, game by game): seats (G, P) the bot of each seat."""
    seats = np.asarray(seats, dtype=np.int16)
    G, P = seats.shape
    K, Vn = len(m.tables.cards.ids), len(m.tables.distance.value)
    S = int(m.tables.distance.count.sum())
    st = empty_state(G, P, K, Vn, S, m.tables.rules.equip_slots)
    st.bots[:] = seats
    driver, card_, who = -1, -1, np.zeros(G, np.int64)
    if bonus is not None:
        driver, card_, who = bonus.driver, bonus.card, np.asarray(bonus.who, np.int64)
    for g in range(G):
        m.call(st, g, rules.setup, driver, card_, int(who[g]))
    return st


def batch(names: list[str], games: int = 1, seed: int = 0, profiles: dict | None = None) -> tuple[Phases, State]:
    """A batch after setup: seat i holds names[i] ('robot' = balanced without noise)."""
    over = {"robot": dict(ROBOT)} | (profiles or {})
    bots = bot_table(resolve_profiles(over), names, T)
    m = phases(T, bots, Streams(seed, 0, games), Recorder(0))
    seats = np.tile(np.arange(len(names), dtype=np.int16), (games, 1))
    return m, setup(m, seats)


def card(card_id: str) -> int:
    return T.cards.index(card_id)


def driver(driver_id: str) -> int:
    return T.drivers.index(driver_id)


def set_car(
    st: State, p: int, drv: str, co: str, hand: dict[str, int], equip: list[tuple[str, int]] = (), tire: int = 4
) -> None:
    """Seat p in every game: these drivers, their deck, exactly this hand and
    these equips (card, turns left); the rest in the draw pile. (Other seats
    keep their drafted drivers: a test arranges every seat it relies on.)"""
    st.driver[:, p], st.co_pilot[:, p] = driver(drv), driver(co)
    st.tire[:, p] = tire
    deck = T.cards.deck([driver(drv), driver(co)])
    st.start[:, p] = deck
    st.hand[:, p] = 0
    for cid, n in hand.items():
        st.hand[:, p, card(cid)] = n
    st.equip[:, p] = -1
    st.equip_left[:, p] = 0
    st.shield[:, p] = 0
    out = st.hand[:, p].copy()
    for e, (cid, left) in enumerate(equip):
        st.equip[:, p, e] = card(cid)
        st.equip_left[:, p, e] = left
        out[:, card(cid)] += 1
    st.draw[:, p] = deck - out
    st.discard[:, p] = 0
    assert (st.draw[:, p] >= 0).all(), "a card the deck does not hold"


def stack(st: State, p: int, values: list[int]) -> None:
    """Put these distance cards (by value, bottom first) on seat p's stack,
    taken from the deck."""
    kinds = [int(np.flatnonzero(T.distance.value == v)[0]) for v in values]
    st.stack[:, p] = -1
    for i, k in enumerate(kinds):
        st.stack[:, p, i] = k
        st.deck[:, k] -= 1
    st.height[:, p] = len(kinds)


# --- the phases, game by game ---------------------------------------------------------------


def _each(*columns):
    n = np.shape(columns[0])
    return zip(*(np.broadcast_to(np.asarray(c), n).tolist() for c in columns), strict=True)


class Options(NamedTuple):
    """A player's choices of its ability play: each card kind, then pit stop,
    discard-and-draw, pass; and the card worths they were priced with."""

    legal: np.ndarray  # (n, K + 3) bool
    score: np.ndarray  # (n, K + 3) float32, -inf where illegal
    worth: np.ndarray  # (n, K) float32: the bot's hand worth (noise mixed in)


def options(m: Phases, st: State, g, p) -> Options:
    """Seat p[j]'s legal choices of its ability play in game g[j] and their scores (rules.options)."""
    K = st.hand.shape[2]
    n = len(np.atleast_1d(g))
    legal, score, worth = np.zeros((n, K + 3), np.bool_), np.zeros((n, K + 3), np.float32), np.zeros((n, K), np.float32)
    for j, (game, seat) in enumerate(_each(g, p)):
        m.call(st, game, rules._options, seat, legal[j], score[j], worth[j])
    return Options(legal, score, worth)


def take_turn(m: Phases, st: State, g, p) -> None:
    for game, seat in _each(g, p):
        m.call(st, game, rules._take_turn, seat)


def play_card(m: Phases, st: State, g, p, k, aside: bool = False) -> None:
    for game, seat, c in _each(g, p, k):
        m.call(st, game, rules._play_card, seat, c, bool(aside))


def play_phase(m: Phases, st: State, g, p, bought: bool = False) -> None:
    for game, seat in _each(g, p):
        m.call(st, game, rules._play_phase, seat, bool(bought))


def spend_trophies(m: Phases, st: State, g, p) -> None:
    for game, seat in _each(g, p):
        m.call(st, game, rules._spend_trophies, seat)


def pit_stop(m: Phases, st: State, g, p, worth: np.ndarray | None = None) -> None:
    """The pit stop priced on `worth` (n, K) (default: the bot's hand worth now, as options prices it)."""
    if worth is None:
        worth = options(m, st, g, p).worth
    for j, (game, seat) in enumerate(_each(g, p)):
        m.call(st, game, rules._pit_stop, seat, np.ascontiguousarray(worth[j], np.float32))


def redraw(m: Phases, st: State, g, p, worth: np.ndarray | None = None) -> None:
    if worth is None:
        worth = options(m, st, g, p).worth
    for j, (game, seat) in enumerate(_each(g, p)):
        m.call(st, game, rules._redraw, seat, np.ascontiguousarray(worth[j], np.float32))


def play_worth(m: Phases, st: State, g, p, now: bool = True) -> np.ndarray:
    """(n, K) float32: what playing each card is worth to seat p[j]'s bot, before noise (rules.play_worth)."""
    out = np.zeros((len(np.atleast_1d(g)), st.hand.shape[2]), np.float32)
    T, S = m.tab(st), arrays(st)
    for j, (game, seat) in enumerate(_each(g, p)):
        rules._play_worth(T, S, game, seat, bool(now), out[j])
    return out


def worst_in_hand(st: State, g, p, worth: np.ndarray) -> np.ndarray:
    S = arrays(st)
    return np.array(
        [rules._worst_in_hand(S, game, seat, np.ascontiguousarray(worth[j], np.float32))
         for j, (game, seat) in enumerate(_each(g, p))]
    )  # fmt: skip


def discard_down(m: Phases, st: State, g, p) -> None:
    for game, seat in _each(g, p):
        m.call(st, game, rules._discard_down, seat)


def deal_damage(m: Phases, st: State, g, dealer, t, amount, depth: int) -> None:
    """`dealer` deals `amount` to t (depth 0: a card's, its traps and specialties after it; 1: a trap's)."""
    mode = rules.CARD if depth == 0 else rules.TRAP_MODE
    for game, d, target, a in _each(g, dealer, t, amount):
        m.call(st, game, rules._deal_damage, d, target, a, mode)


def steal(m: Phases, st: State, g, p, t, amount) -> None:
    for game, seat, target, a in _each(g, p, t, amount):
        m.call(st, game, rules._steal, seat, target, a)


def remove_equip(m: Phases, st: State, g, p, t, amount) -> None:
    for game, seat, target, a in _each(g, p, t, amount):
        m.call(st, game, rules._remove_equip, seat, target, a)


def remove_nerf(m: Phases, st: State, g, p, amount) -> None:
    for game, seat, a in _each(g, p, amount):
        m.call(st, game, rules._remove_nerf, seat, a)


def spring(m: Phases, st: State, g, who, trigger: str) -> None:
    """Seat who[j] did what `trigger` says: every trap waiting for it springs (rules.spring)."""
    for game, seat in _each(g, who):
        m.call(st, game, rules._spring, seat, TRIGGER[trigger])


def resolve_card(m: Phases, st: State, g, p, k, rival, trig, depth: int) -> None:
    """Card k played by p resolves whole, then the traps it set off spring (rules.resolve_then_spring)."""
    assert depth == 0 and (np.asarray(trig) < 0).all(), "a card played on a turn"
    P = st.tire.shape[1]
    for game, seat, c, r in _each(g, p, k, rival):
        m.call(st, game, rules._resolve_then_spring, seat, c, r, np.zeros(P, np.bool_))


def apply_op(m: Phases, st: State, code: int, g, p, target, amount, rival, trig, depth: int, avoid) -> None:
    """One op of a card (depth 0) or a trap (depth 1) on its targets (rules.apply_op); target None: the player."""
    mode = rules.CARD if depth == 0 else rules.TRAP_MODE
    target = TARGET["self"] if target is None else target
    for j, (game, seat, aim, a, r, tr) in enumerate(_each(g, p, target, amount, rival, trig)):
        m.call(st, game, rules._apply_op, code, seat, aim, a, r, tr, mode, np.ascontiguousarray(avoid[j], np.bool_))


def discard_top(m: Phases, st: State, g, p, n, why: str = "discard_distance") -> None:
    for game, seat, count in _each(g, p, n):
        m.call(st, game, rules._discard_top, seat, count, rules.WHY_DISCARD)


def draw_distance_cards(m: Phases, st: State, g, p) -> None:
    for game, seat in _each(g, p):
        m.call(st, game, rules._draw_distance_cards, seat)


def play_game(m: Phases, st: State, check: list[str] | None = None) -> State:
    """Turns until the distance deck and bottom pile are empty after a turn (or the turn cap),
    game by game (rules.play_game without its setup); `check`: the rules checker after every turn."""
    P = st.tire.shape[1]
    max_turns = m.tables.rules.max_turns
    for g in range(len(st.running)):
        while st.running[g]:
            next_step(m.draws.setdefault(g, np.zeros((len(compiled.CODES) + 1, SEATS), np.int64)))  # a turn
            p = int(st.current[g])
            m.call(st, g, rules._take_turn, p)
            if check is not None:
                check.extend(violations(st, m.tables, m.bots, (g, p)))
            left = st.deck[g].sum() + st.bottom[g].sum()
            st.turn[g] += 1
            st.current[g] = (p + 1) % P
            st.running[g] = left > 0 and st.turn[g] < max_turns
    return st


# --- the rules checker: the compiled rules.rule_broken ---------------------------------------

DRIVERS_DISTINCT = ("driver and co-pilot the same", "a driver picked twice")


def violations(st: State, tables: Tables, bots: BotTable, acted: tuple[int, int] | None = None) -> list[str]:
    """Each game's first broken rule (rules.rule_broken), as a sentence naming the game; `acted` =
    (g, p): game g only, seat p just took its turn. Where a test's cars share a driver (the
    first rules that can break), the rules after them are checked too, the drivers told apart."""
    P = st.tire.shape[1]
    tab = compiled.tables_for(tables, bots, P)
    out = []
    games = range(len(st.tire)) if acted is None else [acted[0]]
    seat = -1 if acted is None else acted[1]
    distinct = None
    for g in games:
        rule = rules.rule_broken(tab, arrays(st), g, seat)
        if rule:
            out.append(f"{rules.RULES[rule - 1]} (game {g})")
        if rule and rules.RULES[rule - 1] in DRIVERS_DISTINCT:
            if distinct is None:
                distinct = copy.deepcopy(st)
                distinct.driver[:] = np.arange(P)
                distinct.co_pilot[:] = np.arange(P, 2 * P)
            more = rules.rule_broken(tab, arrays(distinct), g, seat)
            if more:
                out.append(f"{rules.RULES[more - 1]} (game {g})")
    return out


def simulate(tables: Tables, bots: BotTable, seats, streams: Streams, events=None, bonus: Bonus | None = None):
    """Whole games on the compiled engine, the rules checker after every turn: (state, rules broken)."""
    broken: list[str] = []
    st = compiled.simulate(tables, bots, seats, streams, events=events, bonus=bonus, broken=broken)
    return st, broken
