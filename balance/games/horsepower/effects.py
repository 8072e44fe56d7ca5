"""Which modifier rows the compiled engine evaluates one by one (conditions,
counters, rerolls) for each ask of its phases (compiled/tables.py)."""

from __future__ import annotations

import numpy as np

from . import vocabulary as V
from .context import OP

TRIGGER = {name: i for i, name in enumerate(V.TRIGGERS)}


def slow_modifier_rows(look, when: str, ops: tuple[str, ...] | None) -> np.ndarray:
    """Positions in the modifier rows (context.Lookups) to evaluate one by one
    (conditions, counters, rerolls) for `when` and `ops`; the others are plain
    sums the compiled engine keeps as it goes."""
    is_pb = look.modifier_playbook >= 0
    slow = ~look.modifier_plain & np.where(is_pb, look.modifier_when == TRIGGER[when], when == "always")
    if ops is not None:  # the caller reads only these: skip the other conditional rows
        slow &= np.isin(look.modifier_op, [OP[o] for o in ops])
    return np.flatnonzero(slow)
