"""Digests of the games the compiled engines play (tests/test_compiled_*.py):
recorded where each engine was proven equal to the numpy engine it replaced,
they hold the games in place afterwards."""

from __future__ import annotations

import hashlib

import numpy as np


def digest(st, names: tuple[str, ...], events: dict[str, np.ndarray] | None = None) -> str:
    """sha256 (32 hex digits) of the state arrays `names` of `st` and the card events' columns."""
    h = hashlib.sha256()
    for name in names:
        h.update(name.encode())
        h.update(np.ascontiguousarray(getattr(st, name)).tobytes())
    for name, column in (events or {}).items():
        h.update(name.encode())
        h.update(np.ascontiguousarray(column).tobytes())
    return h.hexdigest()[:32]
