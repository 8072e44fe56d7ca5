"""BALANCE_SCALE: the one knob of the test that runs every command a page or
the console prints, exactly as printed (issue 43).

A printed command carries the budgets a designer should spend (`balance report
RUN --measure --budget 400000`, a sweep's `--games 4096`, a ladder of 8,192
games a profile). The test runs them on a tiny scenario with BALANCE_SCALE=0.001,
which multiplies each experiment's own budget of games (never the scenario's
games, never below what the command needs to run at all). Unset, as a designer
runs them, it changes nothing.
"""

from __future__ import annotations

import os

from .errors import Problem, UserError

VARIABLE = "BALANCE_SCALE"


def factor() -> float:
    """The scale in (0, 1]; 1 where the variable is unset."""
    text = os.environ.get(VARIABLE, "").strip()
    if not text:
        return 1.0
    try:
        value = float(text)
    except ValueError:
        value = float("nan")
    if not 0 < value <= 1:
        raise UserError(Problem(VARIABLE, None, "environment", f"must be a number in (0, 1], got {text!r}"))
    return value


def scaled(games: int, floor: int = 1) -> int:
    """An experiment's budget of games under BALANCE_SCALE, at least `floor` (what the command needs to run)."""
    scale = factor()
    return games if scale == 1.0 else max(floor, int(games * scale))
