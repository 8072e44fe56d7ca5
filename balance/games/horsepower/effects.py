"""Effects: who they target, whether their conditions hold, and what each op
does, for a set of games at once.

Functions here work on a sub-batch: `idx` (n,) game indices and `actor` (n,)
the seat whose card or Playbook acts in each of those games. The effect rows
that fire are given as a matrix `fire` (n, R) over Lookups.instant_rows.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from . import vocabulary as V
from .compile import NONE
from .context import OP, Ctx
from .state import State

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


def progress(st: State, L: int) -> np.ndarray:
    """(G, P) race progress: laps done times L plus the space."""
    return (st.lap.astype(np.int32) - 1) * L + st.pos


@dataclass
class Situation:
    """What conditions and counters read, for (idx, actor)."""

    prog: np.ndarray  # (n, P)
    mine: np.ndarray  # (n,)
    rank: np.ndarray  # (n, P) seats clockwise from the actor: 0 = actor, 1 = next...
    play: np.ndarray  # (n, K) the actor's play area this turn


def situation(ctx: Ctx, st: State, idx: np.ndarray, actor: np.ndarray) -> Situation:
    P = st.lap.shape[1]
    prog = progress(st, ctx.tables.rules.track_length)[idx]
    n = len(idx)
    return Situation(
        prog=prog,
        mine=prog[np.arange(n), actor],
        rank=(np.arange(P)[None, :] - actor[:, None]) % P,
        play=st.play[idx, actor],
    )


def targets(ctx: Ctx, st: State, idx: np.ndarray, actor: np.ndarray, code: int, sit: Situation) -> np.ndarray:
    """(n, P) bool: the players an effect with target `code` reaches (shields applied)."""
    n, P = sit.prog.shape
    rank, prog = sit.rank, sit.prog
    others = rank > 0
    name = V.TARGETS[code]
    if name == "self":
        return rank == 0
    if name == "next":
        out = rank == 1
    elif name == "all_others":
        out = others
    else:
        if name == "leader":
            cand, key = others, prog * P + (P - rank)
        elif name == "nearest_ahead":
            cand, key = others & (prog > sit.mine[:, None]), -prog * P + (P - rank)
        else:  # nearest_behind
            cand, key = others & (prog < sit.mine[:, None]), prog * P + (P - rank)
        key = np.where(cand, key, np.iinfo(np.int32).min)
        choice = key.argmax(axis=1)
        out = np.zeros((n, P), bool)
        out[np.arange(n), choice] = cand.any(axis=1)
    return out & ~st.shield[idx]


def conditions(ctx: Ctx, st: State, idx: np.ndarray, actor: np.ndarray, rows: np.ndarray, sit: Situation) -> np.ndarray:
    """(n, len(rows)) bool: the `if:` of each effect row holds."""
    e, look = ctx.tables.effects, ctx.look
    n = len(idx)
    ok = np.ones((n, len(rows)), bool)
    played = e.if_played[rows]
    if played.any():
        present = np.zeros(n, np.int32)
        for t in range(len(V.PLAYABLE_TYPES)):
            present |= ((sit.play * (look.type_of == t)).sum(axis=1) > 0).astype(np.int32) << t
        ok &= (present[:, None] & played[None, :]) == played[None, :]
    others = sit.rank > 0
    for column, test in ((e.if_leading, "leading"), (e.if_last, "last")):
        want = column[rows]
        if (want != NONE).any():
            if test == "leading":
                holds = ~(others & (sit.prog > sit.mine[:, None])).any(axis=1)
            else:
                holds = ~(others & (sit.prog < sit.mine[:, None])).any(axis=1)
            ok &= (want[None, :] == NONE) | (holds[:, None] == (want[None, :] == 1))
    laps = e.if_laps[rows]
    if laps.any():
        bit = 1 << (st.lap[idx, actor].astype(np.int32) - 1)
        ok &= (laps[None, :] == 0) | ((bit[:, None] & laps[None, :]) != 0)
    coins = e.if_min_coins[rows]
    if coins.any():
        ok &= st.coins[idx, actor][:, None] >= coins[None, :]
    puzzle = e.if_min_puzzle[rows]
    if puzzle.any():
        ok &= (sit.play * look.is_puzzle).sum(axis=1)[:, None] >= puzzle[None, :]
    behind = e.if_behind_leader[rows]
    if behind.any():
        lead = np.where(others, sit.prog, -(10**6)).max(axis=1)
        ok &= (lead - sit.mine)[:, None] >= behind[None, :]
    return ok


def per_counts(ctx: Ctx, st: State, idx: np.ndarray, actor: np.ndarray, rows: np.ndarray, sit: Situation) -> np.ndarray:
    """(n, len(rows)) multiplier of each row's value (1 where it has no `per:`)."""
    e, look = ctx.tables.effects, ctx.look
    per = e.per[rows]
    out = np.ones((len(idx), len(rows)), np.int32)
    if (per == NONE).all():
        return out
    puzzles = (sit.play * look.is_puzzle).sum(axis=1)
    self_puzzle = np.where(e.owner_is_playbook[rows], 0, look.is_puzzle[e.owner[rows]])
    counters = {
        PER["puzzle_in_play"]: np.maximum(puzzles[:, None] - self_puzzle[None, :], 0),
        PER["lap"]: st.lap[idx, actor].astype(np.int32)[:, None],
        PER["opponents_ahead"]: ((sit.rank > 0) & (sit.prog > sit.mine[:, None])).sum(axis=1)[:, None],
        PER["playbooks"]: st.playbooks[idx, actor].sum(axis=1, dtype=np.int32)[:, None],
    }
    for code, count in counters.items():
        cols = per == code
        if cols.any():
            out[:, cols] = np.broadcast_to(count, (len(idx), len(rows)))[:, cols]
    return out


def modifier_totals(
    ctx: Ctx, st: State, idx: np.ndarray, actor: np.ndarray, when: str = "always"
) -> dict[str, np.ndarray]:
    """Totals of modifier ops for the actor: its cards in play plus its Playbooks'
    `always` effects, or (when='turn_start') only its Playbooks' turn_start ones."""
    look, e = ctx.look, ctx.tables.effects
    n = len(idx)
    rows = look.modifier_rows
    trig = TRIGGER[when]
    fire = np.zeros((n, len(rows)), np.int32)
    pb = st.playbooks[idx, actor]
    is_pb = look.modifier_playbook >= 0
    pb_rows = is_pb & (look.modifier_when == trig)
    if pb_rows.any():
        fire[:, pb_rows] = pb[:, look.modifier_playbook[pb_rows]]
    if when == "always":
        card_rows = ~is_pb
        if card_rows.any():
            fire[:, card_rows] = st.play[idx, actor][:, look.modifier_card[card_rows]]
    out = {
        name: np.zeros(n, np.int32)
        for name in ("drive", "dice_sum", "dice_best", "reroll", "discount", "free_refresh", "hand_size")
    }
    out["extra_play"] = np.zeros((n, len(V.PLAYABLE_TYPES)), np.int32)
    active = fire.any(axis=0)
    if not active.any():
        return out
    rows, fire = rows[active], fire[:, active]
    sit = situation(ctx, st, idx, actor)
    amount = fire * conditions(ctx, st, idx, actor, rows, sit) * per_counts(ctx, st, idx, actor, rows, sit)
    value = e.value[rows].astype(np.int32)
    ops = e.op[rows]
    total = amount * value[None, :]
    out["drive"] = total[:, ops == OP["drive"]].sum(axis=1)
    dice = ops == OP["dice"]
    best = e.keep[rows] == V.DICE_KEEP.index("best")
    out["dice_sum"] = total[:, dice & ~best].sum(axis=1)
    out["dice_best"] = total[:, dice & best].sum(axis=1)
    reroll = ops == OP["reroll"]
    if reroll.any():
        out["reroll"] = np.where(amount[:, reroll] > 0, value[reroll][None, :], 0).max(axis=1)
    for name in ("discount", "free_refresh", "hand_size"):
        out[name] = total[:, ops == OP[name]].sum(axis=1)
    extra = ops == OP["extra_play"]
    for col in np.flatnonzero(extra):
        out["extra_play"][:, e.card_type[rows[col]]] += total[:, col]
    return out
