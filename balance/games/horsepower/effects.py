"""Effects: who they target, whether their conditions hold, and what each op
does, for a set of games at once.

Functions here work on a sub-batch: `idx` (n,) game indices and `actor` (n,)
the seat whose card or Playbook acts in each of those games. The effect rows
that fire are given as a matrix `fire` (n, R) over Lookups.instant_rows.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cached_property

import numpy as np

from ..rows import row_any, row_count, row_max, row_sum, take_rows
from . import vocabulary as V
from .compile import NONE
from .context import MOD_COLUMNS, OP, Ctx
from .state import State, flat

_NO_KEY = np.iinfo(np.int32).min  # below every target key
TARGET = {name: i for i, name in enumerate(V.TARGETS)}
TRIGGER = {name: i for i, name in enumerate(V.TRIGGERS)}
PER = {name: i for i, name in enumerate(V.PER_COUNTERS)}


@dataclass
class Turn:
    """Per-turn bookkeeping of the active seat, over the whole batch."""

    seat: int
    scrap_at_end: np.ndarray  # (G, K) int16: played cards that scrap themselves at the End Phase
    start_mods: dict[str, np.ndarray]  # modifier -> (G,) turn_start Playbook totals this turn ((G, 5) for extra_play)
    refreshes: np.ndarray  # (G,) int16: Showroom refreshes made this turn
    plain: np.ndarray  # (G, C) float32: plain modifiers of the active seat (its always-Playbooks and cards in play)
    puzzles: np.ndarray  # (G,) int16: puzzle cards in the active seat's play area
    types: np.ndarray  # (G,) int32: bit mask of the card types in the active seat's play area
    wiped_at_start: np.ndarray | None = None  # (G,) bool: Wiped Out when the turn began (rules.wiped_next_turn)
    banana_at: np.ndarray | None = (
        None  # (G,) int32: the nearest Banana ahead of the active seat as its Play Phase began (-1: none)
    )


# P -> (P, P): [actor, seat] = how many seats clockwise from the actor (0 = the actor)
_CLOCKWISE = {P: (np.arange(P)[None, :] - np.arange(P)[:, None]) % P for P in range(1, 9)}


class Situation:
    """What conditions and counters read, for (idx, actor). The play-area
    figures come from the turn's tallies when a turn is given (only the active
    seat has cards in play during a turn), else from the play areas, gathered
    only when a row asks for them (read them before the state changes)."""

    def __init__(self, ctx: Ctx, st: State, idx: np.ndarray, actor: np.ndarray, turn: Turn | None = None):
        self._ctx, self._st, self._idx, self._actor, self._turn = ctx, st, idx, actor, turn
        self._play: np.ndarray | None = None

    @cached_property
    def prog(self) -> np.ndarray:
        """(n, P) race progress: laps done times L plus the space."""
        st = self._st
        lap, pos = take_rows(st.lap, self._idx), take_rows(st.pos, self._idx)
        return (lap.astype(np.int32) - 1) * self._ctx.tables.rules.track_length + pos

    @cached_property
    def mine(self) -> np.ndarray:
        """(n,) the actor's progress."""
        return self.prog[np.arange(len(self._idx)), self._actor]

    @cached_property
    def rank(self) -> np.ndarray:
        """(n, P) seats clockwise from the actor: 0 = the actor."""
        return _CLOCKWISE[self._st.lap.shape[1]][self._actor]

    @property
    def play(self) -> np.ndarray:
        """(n, K) the actor's play area this turn."""
        if self._play is None:
            self._play = take_rows(self._st.play, (self._idx, self._actor))
        return self._play

    @cached_property
    def _tallies(self) -> tuple[np.ndarray, np.ndarray]:
        if self._turn is not None:
            active = self._actor == self._turn.seat
            return (
                np.where(active, self._turn.puzzles[self._idx], 0),
                np.where(active, self._turn.types[self._idx], 0),
            )
        return play_tallies(self._ctx, self.play)

    @property
    def puzzles(self) -> np.ndarray:
        """(n,) puzzle cards in the actor's play area."""
        return self._tallies[0]

    @property
    def types_played(self) -> np.ndarray:
        """(n,) bit mask of the card types in the actor's play area."""
        return self._tallies[1]


def play_tallies(ctx: Ctx, play: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """(n,) puzzle cards and (n,) bit mask of the card types in play areas (n, K):
    what Turn keeps card by card for the active seat (float32 products: exact for counts)."""
    look = ctx.look
    puzzles = (play.astype(np.float32) @ look.is_puzzle.astype(np.float32)).astype(np.int16)
    per_type = (play > 0).astype(np.float32) @ look.type_matrix  # (n, T) cards of each type
    return puzzles, (per_type > 0) @ (1 << np.arange(per_type.shape[1], dtype=np.int32))


def situation(ctx: Ctx, st: State, idx: np.ndarray, actor: np.ndarray, turn: Turn | None = None) -> Situation:
    return Situation(ctx, st, idx, actor, turn)


def targets(
    ctx: Ctx, st: State, idx: np.ndarray, actor: np.ndarray, code: int, sit: Situation, shields: bool = True
) -> np.ndarray:
    """(n, P) bool: the players an effect with target `code` reaches (shields
    applied: a shielded player chosen is not hit, nobody else is chosen instead;
    `shields=False`: the players chosen, shielded or not, for the trace)."""
    rank = sit.rank
    n, P = rank.shape
    others = rank > 0
    name = V.TARGETS[code]
    if name == "self":
        return rank == 0
    if name == "next":
        out = rank == 1
    elif name == "all_others":
        out = others
    else:
        prog = sit.prog
        if name == "leader":
            cand, key = others, prog * P + (P - rank)
        elif name == "nearest_ahead":
            cand, key = others & (prog > sit.mine[:, None]), -prog * P + (P - rank)
        else:  # nearest_behind
            cand, key = others & (prog < sit.mine[:, None]), prog * P + (P - rank)
        key = np.where(cand, key, _NO_KEY)
        choice = key.argmax(axis=1)
        out = np.zeros((n, P), bool)
        out[np.arange(n), choice] = row_any(cand)
    return out & ~st.shield[idx] if shields else out


def conditions(ctx: Ctx, st: State, idx: np.ndarray, actor: np.ndarray, rows: np.ndarray, sit: Situation) -> np.ndarray:
    """(n, len(rows)) bool: the `if:` of each effect row holds."""
    e = ctx.tables.effects
    n = len(idx)
    ok = np.ones((n, len(rows)), bool)
    played = e.if_played[rows]
    if np.count_nonzero(played):
        present = sit.types_played
        ok &= (present[:, None] & played[None, :]) == played[None, :]
    others = sit.rank > 0
    for column, test in ((e.if_leading, "leading"), (e.if_last, "last")):
        want = column[rows]
        if np.count_nonzero(want != NONE):
            if test == "leading":
                holds = ~row_any(others & (sit.prog > sit.mine[:, None]))
            else:
                holds = ~row_any(others & (sit.prog < sit.mine[:, None]))
            ok &= (want[None, :] == NONE) | (holds[:, None] == (want[None, :] == 1))
    laps = e.if_laps[rows]
    if np.count_nonzero(laps):
        bit = 1 << (st.lap[idx, actor].astype(np.int32) - 1)
        ok &= (laps[None, :] == 0) | ((bit[:, None] & laps[None, :]) != 0)
    coins = e.if_min_coins[rows]
    if np.count_nonzero(coins):
        ok &= (coins[None, :] == 0) | (st.coins[idx, actor][:, None] >= coins[None, :])
    puzzle = e.if_min_puzzle[rows]
    if np.count_nonzero(puzzle):
        ok &= (puzzle[None, :] == 0) | (sit.puzzles[:, None] >= puzzle[None, :])
    behind = e.if_behind_leader[rows]
    if np.count_nonzero(behind):
        lead = row_max(np.where(others, sit.prog, -(10**6)))
        # 0 means "no condition": a leader is behind by a negative amount
        ok &= (behind[None, :] == 0) | ((lead - sit.mine)[:, None] >= behind[None, :])
    return ok


def per_counts(ctx: Ctx, st: State, idx: np.ndarray, actor: np.ndarray, rows: np.ndarray, sit: Situation) -> np.ndarray:
    """(n, len(rows)) multiplier of each row's value (1 where it has no `per:`)."""
    e, look = ctx.tables.effects, ctx.look
    per = e.per[rows]
    out = np.ones((len(idx), len(rows)), np.int32)
    if (per == NONE).all():
        return out
    # each counter is computed only when some row asks for it, as (n,) or (n, rows)
    counters = {
        PER["puzzle_in_play"]: lambda r: np.maximum(
            sit.puzzles[:, None] - np.where(e.owner_is_playbook[r], 0, look.is_puzzle[e.owner[r]])[None, :], 0
        ),
        PER["lap"]: lambda r: flat(st.lap)[idx * st.lap.shape[1] + actor],
        PER["opponents_ahead"]: lambda r: row_count((sit.rank > 0) & (sit.prog > sit.mine[:, None])),
        PER["playbooks"]: lambda r: row_sum(st.playbooks[idx, actor]),
    }
    for code, count in counters.items():
        cols = np.flatnonzero(per == code)
        if len(cols):
            value = count(rows[cols])
            out[:, cols] = value if value.ndim == 2 else value[:, None]
    return out


def plain_modifiers(ctx: Ctx, st: State, idx: np.ndarray, actor: np.ndarray) -> np.ndarray:
    """(n, C) the plain modifiers of the actor's cards in play and `always` Playbooks."""
    look = ctx.look
    total = st.playbooks[idx, actor].astype(np.float32) @ look.playbook_mod["always"]
    return total + take_rows(st.play, (idx, actor)).astype(np.float32) @ look.card_mod


def slow_modifier_rows(look, when: str, ops: tuple[str, ...] | None) -> np.ndarray:
    """Positions in the modifier rows that modifier_totals evaluates one by one
    (conditions, counters, rerolls) for `when` and `ops` (the compiled engine's table of them too)."""
    is_pb = look.modifier_playbook >= 0
    slow = ~look.modifier_plain & np.where(is_pb, look.modifier_when == TRIGGER[when], when == "always")
    if ops is not None:  # the caller reads only these: skip the other conditional rows
        slow &= np.isin(look.modifier_op, [OP[o] for o in ops])
    return np.flatnonzero(slow)


def _slow_modifiers(ctx: Ctx, when: str, ops: tuple[str, ...] | None) -> np.ndarray:
    """slow_modifier_rows, fixed per batch, so cached."""
    key = ("slow_modifiers", when, ops)
    if key not in ctx.cache:
        ctx.cache[key] = slow_modifier_rows(ctx.look, when, ops)
    return ctx.cache[key]


def modifier_totals(
    ctx: Ctx,
    st: State,
    idx: np.ndarray,
    actor: np.ndarray,
    when: str = "always",
    plain: np.ndarray | None = None,
    ops: tuple[str, ...] | None = None,
    turn: Turn | None = None,
) -> dict[str, np.ndarray]:
    """Totals of modifier ops for the actor: its cards in play plus its Playbooks'
    `always` effects, or (when='turn_start') only its Playbooks' turn_start ones.

    Plain modifiers (a fixed amount per copy) are one matrix product; only the
    rows with conditions, counters or rerolls are evaluated one by one, and only
    in the games where they are in play. The engine passes `plain` (kept up to
    date card by card during the turn) to skip even that product, and `ops`
    when it needs only some totals."""
    look, e = ctx.look, ctx.tables.effects
    n = len(idx)
    always = when == "always"
    slow = _slow_modifiers(ctx, when, ops)
    if always:
        total = plain_modifiers(ctx, st, idx, actor) if plain is None else plain.copy()
    else:
        total = st.playbooks[idx, actor].astype(np.float32) @ look.playbook_mod[when]
    reroll = np.zeros(n, np.int32)
    if len(slow):
        # copies of each slow row's owner (a Playbook held, a card in play), gathered
        # at flat positions for just those columns
        _, P, B = st.playbooks.shape
        K = st.play.shape[2]
        owner_pb, owner_card = look.modifier_playbook[slow], look.modifier_card[slow]
        is_pb = owner_pb >= 0
        at = idx * P + actor
        fire = np.zeros((n, len(slow)), np.int32)
        fire[:, is_pb] = flat(st.playbooks)[at[:, None] * B + owner_pb[is_pb][None, :]]
        if always:
            fire[:, ~is_pb] = flat(st.play)[at[:, None] * K + owner_card[~is_pb][None, :]]
        games = row_any(fire)
        if np.count_nonzero(games):
            sub, who, fire = idx[games], actor[games], fire[games]
            rows = look.modifier_rows[slow]
            sit = situation(ctx, st, sub, who, turn)
            amount = fire * conditions(ctx, st, sub, who, rows, sit) * per_counts(ctx, st, sub, who, rows, sit)
            value = e.value[rows].astype(np.int32)
            column = look.modifier_column[slow]
            summed = column >= 0
            onehot = np.zeros((len(slow), len(MOD_COLUMNS)), np.float32)
            onehot[np.flatnonzero(summed), column[summed]] = 1
            total[games] += (amount * value[None, :]).astype(np.float32) @ onehot
            if np.count_nonzero(~summed):
                reroll[games] = np.where(amount[:, ~summed] > 0, value[~summed][None, :], 0).max(axis=1)
    total = np.rint(total).astype(np.int32)
    out = {name: total[:, i] for i, name in enumerate(MOD_COLUMNS[:6])}
    out["reroll"] = reroll
    out["extra_play"] = total[:, 6:]
    return out
