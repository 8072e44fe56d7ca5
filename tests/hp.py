"""Helpers for the Horsepower engine tests: databases edited in memory, a batch
set up with bots that never act at random, and the rules one phase at a time.

The phases are the compiled engine's (balance/games/horsepower/compiled/rules.py),
called on a state a test lays out, game by game, with each game's own keyed
draws (a phase's draws go on counting from one call to the next, as in a game)
and its own turn bookkeeping (the `Game` context's turn, kept from `new_turn`
to the phases after it). `batch(...)` gives a `Phases` and the state after
setup; the functions below take arrays of games as the tests write them
(the numpy lockstep engine's signatures, since removed) and call the
compiled phase for each game."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np
import yaml

from balance.games.chance import SEATS, Streams
from balance.games.chance import compiled as keyed
from balance.games.horsepower import compiled
from balance.games.horsepower.bots import BotTable, bot_table, resolve_profiles
from balance.games.horsepower.compile import Tables, compile_database
from balance.games.horsepower.compiled import rules, structs
from balance.games.horsepower.compiled import tables as compiled_tables
from balance.games.horsepower.compiled.trace_text import trace_lines
from balance.games.horsepower.draft import Bonus
from balance.games.horsepower.schema import validate_database
from balance.games.horsepower.state import State, empty_state
from balance.yamlio import parse_yaml

__all__ = ["CARDS", "ROOT", "bot_table", "parse_yaml", "resolve_profiles", "validate_database"]

ROOT = Path(__file__).resolve().parents[1]
CARDS = ROOT / "examples" / "first-draft" / "cards.yaml"  # as conftest.CARDS: a database that does not move
_BASE = yaml.safe_load(CARDS.read_text())

# A bot with no noise: every choice follows from the weights.
ROBOT = {"noise": 0.0, "buy_min": 0.5, "refreshes": 0, "bid": 1.0, "scrap_below": 0.5, "pit_stop": "never"}
CAUSE = {"drives": 0, "pushed": 1}  # a move's cause, as the trace says it
MOD_NAMES = {"drive": rules.M_DRIVE, "dice_sum": rules.M_DICE_SUM, "dice_best": rules.M_DICE_BEST}


def tables(edit: Callable[[dict[str, Any]], None] | None = None) -> Tables:
    data = yaml.safe_load(yaml.safe_dump(_BASE))
    if edit:
        edit(data)
    return compile_database(validate_database(parse_yaml(yaml.safe_dump(data, sort_keys=False), "test.yaml")))


class _Lines(list):
    """The traced game's lines so far; clear() forgets what it said."""

    def __init__(self, trace: _Trace) -> None:
        super().__init__(trace.said())
        self._trace = trace

    def clear(self) -> None:
        super().clear()
        self._trace.trace_n[0] = self._trace.rows_n[0] = 0


@dataclass
class _Trace:
    """What the watched game says (rules.say's records), in the trace's words."""

    phases: Phases
    watch: int | None
    verbose: bool = False
    trace: np.ndarray = field(default_factory=lambda: np.zeros((20_000, 10), np.int64))
    trace_n: np.ndarray = field(default_factory=lambda: np.zeros(1, np.int64))
    rows_n: np.ndarray = field(default_factory=lambda: np.zeros(1, np.int64))
    rows: np.ndarray | None = None

    def said(self) -> list[str]:
        m = self.phases
        return trace_lines(self.trace[: int(self.trace_n[0])], self.rows, m.tables, m.bots, m.players)

    @property
    def lines(self) -> _Lines:
        return _Lines(self)


class Phases:
    """The compiled tables, the bots, each game's keyed draws and turn
    bookkeeping, and the traced game (`rec.lines`)."""

    def __init__(self, t: Tables, bots: BotTable, streams: Streams, players: int, watch: int | None = None) -> None:
        self.tables, self.bots, self.players = t, bots, players
        K, B = len(t.cards.ids), len(t.playbooks.ids)
        self.tab = compiled_tables.build(t, bots, players)  # the compiled tables' arrays, for the tests to read
        self.T = structs.Tables(*self.tab)
        N, R = rules.PENDING, self.tab.card_fires.shape[1]
        # the pending-effects stack and its scratch rows: empty between phases, shared by the games
        self.pending, self.top = np.zeros((N, 7), np.int64), np.zeros(1, np.int64)
        self.named = np.zeros((N, B), np.bool_)
        self.cols, self.fire = np.zeros((N, R), np.int64), np.zeros((N, R), np.int64)
        self.fired, self.amount = np.zeros((N, R), np.int64), np.zeros((N, R), np.int64)
        self.working = rules.working_rows(self.T, K)
        self.rec = _Trace(self, watch)
        self.rec.rows = np.zeros((2_000, max(players * K, B, 64) + 1), np.int64)
        self._K = K
        self.streams = streams

    @property
    def streams(self) -> Streams:
        return self._streams

    @streams.setter
    def streams(self, streams: Streams) -> None:
        """New streams: each game's draws start afresh (from step 0)."""
        self._streams = streams
        self.draws: dict[int, np.ndarray] = {}
        self._turns: dict[int, tuple[np.ndarray, ...]] = {}
        self._games: dict[int, structs.Game] = {}

    def S(self, st: State) -> structs.StateArrays:
        return structs.StateArrays(*(getattr(st, name) for name in compiled.STATE_FIELDS))

    def turn_of(self, g: int) -> tuple[np.ndarray, ...]:
        """Game g's turn bookkeeping: (turn numbers, scrap at end, turn_start totals, plain totals)."""
        hit = self._turns.get(g)
        if hit is None:
            hit = self._turns[g] = (
                np.zeros(6, np.int64),
                np.zeros(self._K, np.int64),
                np.zeros(rules.MODS, np.int64),
                np.zeros(rules.MODS, np.int64),
            )
        return hit

    def X(self, g: int) -> structs.Game:
        """Game g's context: its hash, its draw counts so far, its turn (no events; traced if watched)."""
        X = self._games.get(g)
        if X is None:
            draws = self.draws.setdefault(g, np.zeros((len(compiled.CODES) + 1, SEATS), np.int64))
            X = self._games[g] = self.game(g, self.streams.game[g : g + 1], draws)
        return X

    def game(self, g: int, hash_: np.ndarray, draws: np.ndarray) -> structs.Game:
        """A context for game g's turn with this hash and these draw counts."""
        turn, scrap_at_end, start_mods, plain = self.turn_of(g)
        rec = self.rec
        return structs.Game(
            hash_,
            draws,
            compiled.CODES,
            np.zeros((1, 7), np.int32),
            np.zeros(1, np.int64),
            False,
            self.pending,
            self.top,
            self.cols,
            self.fire,
            self.fired,
            self.amount,
            np.zeros(5, np.int64),
            g == rec.watch,
            rec.verbose,
            rec.trace,
            rec.trace_n,
            rec.rows,
            rec.rows_n,
            self.named,
            turn,
            scrap_at_end,
            start_mods,
            plain,
            *self.working,
        )


def batch(
    t: Tables,
    players: int,
    games: int,
    seed: int = 0,
    profiles: dict[str, dict] | None = None,
    names: list[str] | None = None,
    watch: int | None = None,
    bots: BotTable | None = None,
) -> tuple[Phases, State]:
    """A batch after setup (draft done, hands drawn). Seat p is played by names[p]
    (default: 'robot' everywhere), or by `bots` row p where given."""
    if bots is None:
        over = {"robot": dict(ROBOT)} | (profiles or {})
        bots = bot_table(resolve_profiles(over), names or ["robot"] * players, t, players)
    m = Phases(t, bots, Streams(seed, 0, games), players, watch)
    return m, setup(m, np.tile(np.arange(players, dtype=np.int16), (games, 1)))


def setup(m: Phases, seats: np.ndarray, bonus: Bonus | None = None) -> State:
    """2.1-2.6 for each game of `seats` (G, P), with a strength experiment's `bonus` if given."""
    t, r = m.tables, m.tables.rules
    G, P = seats.shape
    st = empty_state(G, P, len(t.cards.ids), len(t.playbooks.ids), r.showroom_size, r.track_length, r.laps)
    st.bots[:] = seats
    card, book, who, instead = -1, -1, np.zeros(G, np.int64), True
    if bonus is not None:
        card, book, who, instead = bonus.card, bonus.playbook, np.asarray(bonus.who, np.int64), bonus.instead
    T, S = m.T, m.S(st)
    for g in range(G):
        rules.setup(T, S, m.X(g), g, card, book, who, instead)
    return st


def card(t: Tables, card_id: str) -> int:
    return t.cards.index(card_id)


def only(t: Tables, cards: dict[str, int]) -> np.ndarray:
    """(K,) counts with just these cards."""
    out = np.zeros(len(t.cards.ids), np.int16)
    for card_id, n in cards.items():
        out[card(t, card_id)] = n
    return out


def clear_hands(st: State) -> None:
    """Move every hand into its Deck, so a test can deal exact hands (cards stay conserved)."""
    st.deck += st.hand
    st.hand[:] = 0


def deal(t: Tables, st: State, seat: int, cards: dict[str, int]) -> None:
    """Give seat exact cards in hand, taken from its Deck or, failing that, the supply's
    stand-in (the Parts Deck), keeping every copy accounted for."""
    for card_id, n in cards.items():
        k = card(t, card_id)
        for _ in range(n):
            from_deck = st.deck[:, seat, k] > 0
            st.deck[from_deck, seat, k] -= 1
            from_parts = ~from_deck & (st.parts[:, k] > 0)
            st.parts[from_parts, k] -= 1
            from_supply = ~from_deck & ~from_parts
            st.supply[from_supply, k] -= 1
            st.hand[:, seat, k] += 1


def no_playbooks(st: State) -> None:
    """Return every active Playbook to the Playbook Deck (no Playbook effects in play)."""
    st.playbook_deck += st.playbooks.sum(axis=1).astype(st.playbook_deck.dtype)
    st.playbooks[:] = 0


# --- the phases, game by game ---------------------------------------------------


@dataclass
class Turn:
    """A turn begun by new_turn: its seat (the rest is kept in each game's context)."""

    seat: int


def new_turn(m: Phases, st: State, seat: int) -> Turn:
    """The turn's bookkeeping in every game (rules.new_turn); what the seat has in
    play already counts, as if played this turn (its modifiers and tallies)."""
    T, S = m.T, m.S(st)
    card_mod, is_puzzle, type_bit = m.tab.card_mod[:, : rules.M_REROLL], m.tab.is_puzzle, m.tab.type_bit
    for g in range(len(st.bots)):
        rules.new_turn(T, S, m.X(g), g, seat)
        play = st.play[g, seat].astype(np.int64)
        if play.any():
            turn, _, _, plain = m.turn_of(g)
            plain[: rules.M_REROLL] += play @ card_mod
            turn[rules.U_PUZZLES] += int(play @ is_puzzle)
            turn[rules.U_TYPES] |= int(np.bitwise_or.reduce(type_bit[play > 0]))
    return Turn(seat)


def _each(phase, m: Phases, st: State, idx) -> None:
    T, S = m.T, m.S(st)
    for g in np.asarray(idx).tolist():
        phase(T, S, m.X(g), g)


def play_phase(m: Phases, st: State, turn: Turn, idx) -> None:
    _each(rules.play_phase, m, st, idx)


def shop_phase(m: Phases, st: State, turn: Turn, idx) -> None:
    _each(rules.shop_phase, m, st, idx)


def drive_phase(m: Phases, st: State, turn: Turn, idx) -> None:
    _each(rules.drive_phase, m, st, idx)


def end_phase(m: Phases, st: State, turn: Turn, idx) -> None:
    _each(rules.end_phase, m, st, idx)


def lap_decisions(m: Phases, st: State, turn: Turn, idx) -> None:
    _each(rules.lap_decisions, m, st, idx)


def play_turn(m: Phases, st: State, seat: int) -> None:
    """Seat's turn in every running game (rules.play_turn)."""
    T, S = m.T, m.S(st)
    for g in range(len(st.bots)):
        rules.play_turn(T, S, m.X(g), g, seat)


def play_rounds(m: Phases, st: State) -> State:
    """Rounds until every game has a winner or reached rules.max_rounds (rules.play_game after its setup)."""
    T, S = m.T, m.S(st)
    for g in range(len(st.bots)):
        X = m.X(g)
        for _ in range(m.tables.rules.max_rounds):
            if not st.running[g]:
                break
            st.round[g] += 1
            keyed.next_step(m.draws[g])  # draws are keyed by the round
            for s in range(m.players):
                rules.play_turn(T, S, X, g, s)
    st.running[:] = False
    return st


def roll_drive(m: Phases, g, seat: int, mods: dict[str, np.ndarray]) -> tuple[np.ndarray, np.ndarray]:
    """Each game's Drive roll by seat (rules.roll_drive), with the modifier totals
    `mods` (drive, dice_sum, dice_best, reroll: (n,) each): (dice, total) per game."""
    T = m.T
    n = len(g)
    base = m.tables.rules.dice_per_drive
    D = base + int(np.max(mods["dice_best"])) + int(np.max(mods["dice_sum"]))
    dice, total = np.zeros((n, max(D, 0)), np.int64), np.zeros(n, np.int64)
    # one context, its hash and draw counts set to each game's in turn (many games: one context is faster)
    hash_, draws = np.zeros(1, np.uint64), np.zeros((len(compiled.CODES) + 1, SEATS), np.int64)
    X = m.game(0, hash_, draws)
    row = np.zeros(rules.MODS, np.int64)
    for j, game in enumerate(np.asarray(g).tolist()):
        hash_[0] = m.streams.game[game]
        mine = m.draws.setdefault(game, np.zeros_like(draws))
        draws[:] = mine
        row[:] = 0
        for name, c in MOD_NAMES.items():
            row[c] = mods[name][j]
        row[rules.M_REROLL] = mods["reroll"][j]
        used = base + row[rules.M_DICE_BEST] + row[rules.M_DICE_SUM]
        total[j] = rules.roll_drive(T, X, seat, row, dice[j, :used])
        mine[:] = draws
    return dice, total


def _run(m: Phases, st: State, g: int) -> None:
    rules.run_pending(m.T, m.S(st), m.X(g), g)


def move(m: Phases, st: State, turn: Turn, idx, movers: np.ndarray, delta: np.ndarray, cause: str) -> None:
    """Markers moved (movers (n, P), delta (n, P) spaces), one player at a time in
    turn order from the active seat, each move and all it sets off before the next."""
    T, S = m.T, m.S(st)
    P = movers.shape[1]
    for j, g in enumerate(np.asarray(idx).tolist()):
        X = m.X(g)
        for off in range(P - 1, -1, -1):  # the last in turn order first onto the stack: the first moves first
            p = (turn.seat + off) % P
            if movers[j, p] and delta[j, p] != 0:
                i = int(m.top[0])
                m.pending[i] = (rules.MOVE, p, int(delta[j, p]), CAUSE[cause], 0, 0, -1)
                m.top[0] = i + 1
        rules.run_pending(T, S, X, g)


def wipe_out(m: Phases, st: State, turn: Turn, idx, victims: np.ndarray) -> None:
    T, S = m.T, m.S(st)
    for j, g in enumerate(np.asarray(idx).tolist()):
        X = m.X(g)
        rules.wipe_out(T, S, X, g, np.ascontiguousarray(victims[j], np.bool_))
        rules.run_pending(T, S, X, g)


def place_bananas(m: Phases, st: State, idx, victims: np.ndarray, distance: np.ndarray, seat: int) -> None:
    """A Banana `distance` ahead of each victim, in turn order from `seat`."""
    T, S = m.T, m.S(st)
    for j, g in enumerate(np.asarray(idx).tolist()):
        m.turn_of(g)[0][rules.U_SEAT] = seat
        rules.place_bananas(T, S, m.X(g), g, np.ascontiguousarray(victims[j], np.bool_), int(distance[j]))


def complete_lap(m: Phases, st: State, turn: Turn, idx, actor) -> None:
    T, S = m.T, m.S(st)
    for j, g in enumerate(np.asarray(idx).tolist()):
        X = m.X(g)
        rules.complete_lap(T, S, X, g, int(actor[j]))
        rules.run_pending(T, S, X, g)


def give_debris(m: Phases, st: State, g, p, count) -> np.ndarray:
    """Debris to seat p[j] of game g[j], row by row in the order given; (n,) how many each got."""
    T, S = m.T, m.S(st)
    return np.array([rules.give_debris(T, S, int(a), int(b), int(c)) for a, b, c in zip(g, p, count, strict=True)])


def draw_cards(m: Phases, st: State, idx, actor, n) -> None:
    """Each actor draws n cards, as a card's effect does."""
    T, S = m.T, m.S(st)
    for j, g in enumerate(np.asarray(idx).tolist()):
        rules.draw_cards(T, S, m.X(g), g, int(actor[j]), int(n[j]), rules.DRAW_EFFECT)


def fire_card(m: Phases, st: State, turn: Turn, idx, cards) -> None:
    """The instant effects of a card the active seat just played."""
    T, S = m.T, m.S(st)
    for j, g in enumerate(np.asarray(idx).tolist()):
        rules.fire_card(T, S, m.X(g), g, int(cards[j]))


def fire_trigger(m: Phases, st: State, turn: Turn, idx, actor, trigger: str) -> None:
    T, S = m.T, m.S(st)
    code = rules.TRIGGERS.index(trigger)
    for j, g in enumerate(np.asarray(idx).tolist()):
        rules.fire_trigger(T, S, m.X(g), g, int(actor[j]), code)


def run_auction(m: Phases, st: State, idx, lander) -> None:
    """5.1 on the space each lander landed on."""
    T, S = m.T, m.S(st)
    for j, g in enumerate(np.asarray(idx).tolist()):
        rules.auction(T, S, m.X(g), g, int(lander[j]))


def banana_cost(m: Phases, st: State, idx, seat: int, cards, drive, at) -> np.ndarray:
    """(n, cards) what playing each card costs seat (rules.banana_cost), with `drive`
    played so far and the nearest Banana ahead on space at[j] (-1: none)."""
    T, S = m.T, m.S(st)
    cols = np.asarray(cards, np.int64)
    out = np.zeros((len(idx), len(cols)), np.float32)
    for j, g in enumerate(np.asarray(idx).tolist()):
        turn, _, start_mods, plain = m.turn_of(g)
        turn[rules.U_BANANA_AT] = at[j]
        plain[rules.M_DRIVE], start_mods[rules.M_DRIVE] = drive[j], 0
        value = np.zeros(len(cols), np.float32)
        rules.banana_cost(T, S, m.X(g), g, seat, cols, len(cols), value)
        out[j] = -value
    return out


def situation_variants(m: Phases, st: State, idx) -> np.ndarray:
    """(n, P) each seat's situation variant (behind, leading or level; rich or not)."""
    T, S = m.T, m.S(st)
    return np.array([[rules.variant_of(T, S, g, p) for p in range(m.players)] for g in np.asarray(idx).tolist()])


def modifier_totals(m: Phases, st: State, g: int, actor: int, ask: int) -> np.ndarray:
    """(MODS,) the modifier totals in force for actor in game g (rules.modifier_totals, one ask)."""
    out = np.zeros(rules.MODS, np.int64)
    rules.modifier_totals(m.T, m.S(st), m.X(g), g, actor, ask, out)
    return out


def violations(m: Phases, st: State, seat: int = 0) -> list[str]:
    """The rules checker (rules.rule_broken) on every game: the first rule each game breaks."""
    T, S = m.T, m.S(st)
    out = []
    for g in range(len(st.bots)):
        code = rules.rule_broken(T, S, g, seat)
        if code:
            out.append(f"{rules.RULES[code - 1]} (game {g})")
    return out
