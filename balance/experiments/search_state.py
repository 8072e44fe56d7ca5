"""The state file of a resumable search (`balance tune`, `balance fit`): written
whole after each round, atomically, so an interrupted search continues from
its last finished round with `--resume`, and a folder holding another
search's state is never mixed into this one."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from ..atomic import write_text
from ..errors import Problem, UserError


def open_state(out: Path, name: str, what: str, settings: dict[str, Any], resume: bool) -> dict[str, Any]:
    """The state to continue from in `out/name` (empty: a new search of kind
    `what`), refusing to resume a search with other `settings`. The folder was
    opened by setup.output_folder (which refuses to start over without
    --force)."""
    path = out / name
    if not resume or not path.exists():
        path.unlink(missing_ok=True)
        return {}
    try:
        state = json.loads(path.read_text())
    except (OSError, json.JSONDecodeError) as exc:
        raise UserError(Problem(str(path), None, what, f"is not a {what}'s state ({exc})")) from None
    if not isinstance(state, dict) or state.get("settings") != settings:
        asked = ", ".join(settings)
        raise UserError(Problem(str(path), None, "--resume", f"the {what} here has other settings ({asked})"))
    return state


def save_state(out: Path, name: str, state: dict[str, Any]) -> None:
    """Write the state whole, or leave the last one (a crash mid-write loses nothing)."""
    write_text(out / name, json.dumps(state))
