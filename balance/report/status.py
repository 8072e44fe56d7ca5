"""What a report says before any figure: whether its run is whole, and, when
no game has a winner, why there is nothing to rank."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import polars as pl

from ..folder_lock import lock_held
from ..logs import resume_command
from .labels import Labels

# What each status in a manifest means to whoever reads the page.
_STATUS_WORDS = {
    "interrupted": "was interrupted (Ctrl-C)",
    "failed": "failed",
    "partial": "ended with chunks missing",
}


def run_status(
    manifest: dict[str, Any], present: int, run_dir: Path, labels: Labels, left_out: list[str] | None = None
) -> str | None:
    """One sentence for the top of the page when the run is not whole (None when
    it is): its status, the games its logs hold of those planned, the chunks
    found on disk but not read (`left_out`: half written, another run's) and
    the command that finishes it."""
    status = manifest.get("status")
    planned = int(manifest.get("games") or 0)
    left_out = left_out or []
    if status == "complete" and present == planned and not left_out:
        return None
    if status == "running":
        state = "is still being written by another process" if lock_held(run_dir) else "stopped before it finished"
    elif status == "complete":
        state = "is missing parts it once had"
    else:
        state = _STATUS_WORDS.get(status, f"has status {status!r}")
    reason = manifest.get("error")
    because = f" ({str(reason)[:160]})" if reason and status == "failed" else ""
    skipped = ""
    if left_out:
        listed = "; ".join(left_out[:3]) + ("; ..." if len(left_out) > 3 else "")
        skipped = f" Parts of {len(left_out)} more chunk(s) are on disk but not read ({listed})."
    return (
        f"This run {state}{because}: its logs hold {present:,} of the {planned:,} {labels.games} planned, and "
        f"every figure on this page is about those {present:,}.{skipped} Finish it with: "
        f"{resume_command(manifest, run_dir)}"
    )


def no_winner_lines(games: pl.LazyFrame, present: int, labels: Labels, run_dir: Path) -> list[str]:
    """The findings of a run in which no game has a winner: win rates would all
    be 0, so there is nothing to rank; say so, and what may cause it."""
    longest = games.select(pl.col("rounds").max()).collect().item()
    unfinished = games.select((~pl.col("finished")).sum()).collect().item()
    return [
        f"No {labels.games.removesuffix('s')} of the {present:,} in this run has a winner: {unfinished:,} were cut "
        f"by {labels.cap} (the longest ran {longest:,} {labels.length_unit}), so there are no win rates to compare.",
        f"The cap may be set too low for this design, or the {labels.players} cannot reach the finish (a track "
        "too long for the cards' speeds, moves of 0, costs nobody can pay). Look at one: balance trace "
        f"{run_dir} --game-number 0",
    ]
