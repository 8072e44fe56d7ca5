"""Lookups derived once from the effect table (which rows each card fires,
grouped by op; the modifiers) and the bots' card values, which the compiled
engine's tables lay out (compiled/tables.py)."""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from . import vocabulary as V
from .bots import VARIANTS, BotTable, card_moves
from .compile import NONE, Tables

OP = {name: i for i, name in enumerate(V.OPS)}
INSTANT_KINDS = ("instant", "duration")

# What modifier ops add up to: one column each (extra plays by type). Rerolls
# take the highest threshold, not a sum, so they have no column.
MOD_COLUMNS: tuple[str, ...] = (
    "drive",
    "dice_sum",
    "dice_best",
    "discount",
    "free_refresh",
    "hand_size",
    *(f"extra_{t}" for t in V.PLAYABLE_TYPES),
)


@dataclass(frozen=True)
class RowGroup:
    """Effect rows that act the same way: one op, one target, one zone."""

    op: str
    target: int  # TARGETS code or NONE
    scrap_from: int  # SCRAP_FROM code or NONE
    cols: np.ndarray  # columns of the fire matrix (positions in Lookups.instant_rows)


@dataclass(frozen=True)
class Lookups:
    instant_rows: np.ndarray  # (R,) effect rows of instant and duration ops (cards and Playbooks)
    instant_if: np.ndarray  # (R,) bool: the instant row has a condition
    instant_per: np.ndarray  # (R,) bool: the instant row has a counter
    instant_step: np.ndarray  # (R,) int: when the row resolves among its owner's rows (_instant_steps): 0 first
    card_fires: np.ndarray  # (K + 1, R) int8: card k played fires these instant rows; row K (= card -1) fires none
    card_fires_any: np.ndarray  # (K + 1,) bool: the card fires some instant row
    trigger_fires: np.ndarray  # (T, B, R) int8: Playbook b fires these instant rows on trigger t
    trigger_playbooks: tuple[np.ndarray, ...]  # per trigger t: the Playbooks with instant effects on it
    groups: tuple[RowGroup, ...]
    group_of: np.ndarray  # (R,) the group of each instant row
    modifier_rows: np.ndarray  # (M,) effect rows of modifier ops
    modifier_card: np.ndarray  # (M,) card index, -1 for a Playbook row
    modifier_playbook: np.ndarray  # (M,) Playbook index, -1 for a card row
    modifier_when: np.ndarray  # (M,) TRIGGERS code, NONE for a card row
    modifier_op: np.ndarray  # (M,) op code
    modifier_column: np.ndarray  # (M,) index into MOD_COLUMNS, -1 for a reroll
    modifier_plain: np.ndarray  # (M,) bool: no condition, no counter, not a reroll: a fixed amount per copy
    card_mod: np.ndarray  # (K, C) float32: plain card modifiers per copy in play, by MOD_COLUMNS
    card_has_mod: np.ndarray  # (K,) bool: the card has some plain modifier
    playbook_mod: dict[str, np.ndarray]  # trigger -> (B, C) float32: plain Playbook modifiers
    always_modifier_playbooks: np.ndarray  # the Playbooks with some plain `always` modifier
    conditional_extra_play: bool  # some extra_play effect has a condition or counter
    turn_start_modifiers: np.ndarray  # Playbooks with turn_start modifier effects
    scrap_this: np.ndarray  # (K,) bool: the card scraps itself when played
    is_expires: np.ndarray  # (K,) bool
    is_puzzle: np.ndarray  # (K,) bool
    playable: np.ndarray  # (K,) bool
    type_of: np.ndarray  # (K,) int8
    type_bit: np.ndarray  # (K,) int32: 1 << type for playable cards, 0 for Debris
    type_matrix: np.ndarray  # (K, T) float32: one-hot playable type of each card (Debris none)
    cards_of_type: tuple[np.ndarray, ...]  # per playable type: indices of its cards
    # (K, 2) float32: what a play adds to this turn's Drive, and moves its player at once (bots.card_moves)
    moves: np.ndarray
    moving_of_type: tuple[np.ndarray, ...]  # per playable type: which of cards_of_type move their player


def build_lookups(tables: Tables) -> Lookups:
    e = tables.effects
    moves = card_moves(tables)
    K, B = len(tables.cards.ids), len(tables.playbooks.ids)
    kinds = np.array([V.OPS[name].kind for name in V.OPS])
    row_kind = kinds[e.op]
    scrap_this_code = (OP["scrap"], V.SCRAP_FROM.index("this"))
    is_scrap_this = (e.op == scrap_this_code[0]) & (e.scrap_from == scrap_this_code[1])
    instant = np.flatnonzero(np.isin(row_kind, INSTANT_KINDS) & ~is_scrap_this)
    card_fires = np.zeros((K + 1, len(instant)), np.int8)
    trigger_fires = np.zeros((len(V.TRIGGERS), B, len(instant)), np.int8)
    for col, r in enumerate(instant):
        if e.owner_is_playbook[r]:
            trigger_fires[e.trigger[r], e.owner[r], col] = 1
        else:
            card_fires[e.owner[r], col] = 1
    keys: dict[tuple[int, int, int], list[int]] = {}
    for col, r in enumerate(instant):
        keys.setdefault((int(e.op[r]), int(e.target[r]), int(e.scrap_from[r])), []).append(col)
    groups = tuple(
        RowGroup(list(V.OPS)[op], target, zone, np.array(cols)) for (op, target, zone), cols in sorted(keys.items())
    )
    group_of = np.zeros(len(instant), np.int32)
    for i, group in enumerate(groups):
        group_of[group.cols] = i
    instant_step = _instant_steps(e, instant, group_of)
    modifier = np.flatnonzero(row_kind == "modifier")
    column = np.full(len(modifier), -1)
    for i, r in enumerate(modifier):
        op = list(V.OPS)[e.op[r]]
        if op == "dice":
            column[i] = MOD_COLUMNS.index("dice_best" if V.DICE_KEEP[e.keep[r]] == "best" else "dice_sum")
        elif op == "extra_play":
            column[i] = MOD_COLUMNS.index(f"extra_{V.PLAYABLE_TYPES[e.card_type[r]]}")
        elif op != "reroll":
            column[i] = MOD_COLUMNS.index(op)
    conditional = (e.has_condition() | (e.per != NONE))[modifier]
    plain = ~conditional & (column >= 0)
    card_mod = np.zeros((K, len(MOD_COLUMNS)), np.float32)
    playbook_mod = {t: np.zeros((B, len(MOD_COLUMNS)), np.float32) for t in ("always", "turn_start")}
    for i in np.flatnonzero(plain):
        r = modifier[i]
        if e.owner_is_playbook[r]:
            playbook_mod[V.TRIGGERS[e.trigger[r]]][e.owner[r], column[i]] += e.value[r]
        else:
            card_mod[e.owner[r], column[i]] += e.value[r]
    scrap_this = np.zeros(K, bool)
    scrap_this[e.owner[is_scrap_this & ~e.owner_is_playbook]] = True
    return Lookups(
        instant_rows=instant,
        instant_if=e.has_condition()[instant],
        instant_per=e.per[instant] != NONE,
        instant_step=instant_step,
        card_fires=card_fires,
        card_fires_any=card_fires.any(axis=1),
        trigger_fires=trigger_fires,
        trigger_playbooks=tuple(np.flatnonzero(trigger_fires[t].any(axis=1)) for t in range(len(V.TRIGGERS))),
        groups=groups,
        group_of=group_of,
        modifier_rows=modifier,
        modifier_card=np.where(e.owner_is_playbook[modifier], -1, e.owner[modifier]),
        modifier_playbook=np.where(e.owner_is_playbook[modifier], e.owner[modifier], -1),
        modifier_when=e.trigger[modifier],
        modifier_op=e.op[modifier],
        modifier_column=column,
        modifier_plain=plain,
        card_mod=card_mod,
        card_has_mod=card_mod.any(axis=1),
        playbook_mod=playbook_mod,
        always_modifier_playbooks=np.flatnonzero(playbook_mod["always"].any(axis=1)),
        conditional_extra_play=bool(((e.op[modifier] == OP["extra_play"]) & ~plain).any()),
        turn_start_modifiers=np.unique(
            e.owner[modifier][e.owner_is_playbook[modifier] & (e.trigger[modifier] == V.TRIGGERS.index("turn_start"))]
        ),
        scrap_this=scrap_this,
        is_expires=tables.cards.has_flag("E"),
        is_puzzle=tables.cards.has_flag("P"),
        playable=tables.cards.type != V.CARD_TYPES.index("debris"),
        type_of=tables.cards.type,
        type_bit=np.where(tables.cards.type < len(V.PLAYABLE_TYPES), 1 << tables.cards.type.astype(np.int32), 0),
        type_matrix=(tables.cards.type[:, None] == np.arange(len(V.PLAYABLE_TYPES))[None, :]).astype(np.float32),
        cards_of_type=tuple(np.flatnonzero(tables.cards.type == t) for t in range(len(V.PLAYABLE_TYPES))),
        moves=moves,
        moving_of_type=tuple(
            np.flatnonzero(moves[tables.cards.type == t].any(axis=1)) for t in range(len(V.PLAYABLE_TYPES))
        ),
    )


def _instant_steps(e, instant: np.ndarray, group_of: np.ndarray) -> np.ndarray:
    """(R,) the step at which each instant row resolves among its owner's (card,
    or Playbook and trigger) rows, so that they act in their written order.
    Within a step conditions and counters are read once, first, and the groups
    act in group order; so a row starts a new step when it has a condition or
    counter (it must read what the rows before it did) or when its group would
    act before an earlier row's. Most owners have one step."""
    reads = e.has_condition()[instant] | (e.per[instant] != NONE)
    steps = np.zeros(len(instant), np.int32)
    last: dict[tuple[bool, int, int], tuple[int, int]] = {}  # owner -> (step, group) of its previous row
    for col, r in enumerate(instant):
        owner = (bool(e.owner_is_playbook[r]), int(e.owner[r]), int(e.trigger[r]))
        if owner in last:
            step, group = last[owner]
            steps[col] = step + 1 if reads[col] or group_of[col] < group else step
        last[owner] = (int(steps[col]), int(group_of[col]))
    return steps


@dataclass(frozen=True)
class CardValues:
    """The bots' card values before noise, by (profile, lap, variant):
    the compiled engine's card_values reads one row instead of recomputing the lap fade and
    the situation's scaling every call."""

    own: np.ndarray  # (Q * (laps + 1) * V, K) float32: row (q * (laps + 1) + lap) * V + variant
    acquire: np.ndarray  # (Q * (laps + 1) * V, K) float32: the same, one-shot cards discounted
    per_profile: int  # laps + 1: laps per profile (lap 0 unused)

    def row(self, q: np.ndarray, lap: np.ndarray, variant: np.ndarray | int = 0) -> np.ndarray:
        return (q.astype(np.intp) * self.per_profile + lap) * VARIANTS + variant


def build_card_values(bots: BotTable, laps: int) -> CardValues:
    """Coins fade lap by lap towards each profile's `late_coins` (lap 0 is unused),
    in each variant (bots.VARIANTS) of the profile's weights."""
    Q, per_profile = len(bots.noise), laps + 1
    q = np.repeat(np.arange(Q), per_profile * VARIANTS)
    lap = np.tile(np.repeat(np.arange(per_profile, dtype=np.int8), VARIANTS), Q)
    variant = np.tile(np.arange(VARIANTS), Q * per_profile)
    late = (lap.astype(np.float32) - 1) / max(laps - 1, 1)
    fade = (1 - (1 - bots.late_coins[q]) * late)[:, None]
    own = bots.card_value[q, variant] - bots.card_coins[q, variant] * (1 - fade)
    return CardValues(own=own, acquire=own * bots.one_shot[None, :], per_profile=per_profile)
