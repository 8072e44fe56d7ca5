"""What every phase of the engine reads besides the state: the compiled
tables, the bots, the random generator, the recorder, and lookups derived once
per batch from the effect table (which rows each card fires, grouped by op)."""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np

from . import vocabulary as V
from .bots import BotTable
from .compile import NONE, Tables
from .recorder import Recorder

OP = {name: i for i, name in enumerate(V.OPS)}
INSTANT_KINDS = ("instant", "duration")


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
    card_fires: np.ndarray  # (K + 1, R) int8: card k played fires these instant rows; row K (= card -1) fires none
    trigger_fires: np.ndarray  # (T, B, R) int8: Playbook b fires these instant rows on trigger t
    groups: tuple[RowGroup, ...]
    modifier_rows: np.ndarray  # (M,) effect rows of modifier ops
    modifier_card: np.ndarray  # (M,) card index, -1 for a Playbook row
    modifier_playbook: np.ndarray  # (M,) Playbook index, -1 for a card row
    modifier_when: np.ndarray  # (M,) TRIGGERS code, NONE for a card row
    scrap_this: np.ndarray  # (K,) bool: the card scraps itself when played
    is_expires: np.ndarray  # (K,) bool
    is_puzzle: np.ndarray  # (K,) bool
    playable: np.ndarray  # (K,) bool
    type_of: np.ndarray  # (K,) int8


def build_lookups(tables: Tables) -> Lookups:
    e = tables.effects
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
    modifier = np.flatnonzero(row_kind == "modifier")
    scrap_this = np.zeros(K, bool)
    scrap_this[e.owner[is_scrap_this & ~e.owner_is_playbook]] = True
    return Lookups(
        instant_rows=instant,
        card_fires=card_fires,
        trigger_fires=trigger_fires,
        groups=groups,
        modifier_rows=modifier,
        modifier_card=np.where(e.owner_is_playbook[modifier], -1, e.owner[modifier]),
        modifier_playbook=np.where(e.owner_is_playbook[modifier], e.owner[modifier], -1),
        modifier_when=e.trigger[modifier],
        scrap_this=scrap_this,
        is_expires=tables.cards.has_flag("E"),
        is_puzzle=tables.cards.has_flag("P"),
        playable=tables.cards.type != V.CARD_TYPES.index("debris"),
        type_of=tables.cards.type,
    )


@dataclass
class Ctx:
    tables: Tables
    bots: BotTable
    rng: np.random.Generator
    rec: Recorder
    look: Lookups = field(init=False)

    def __post_init__(self) -> None:
        self.look = build_lookups(self.tables)

    @property
    def NONE(self) -> int:
        return NONE
