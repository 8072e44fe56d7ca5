"""Reading a run directory: the contract every report and check relies on
(docs/logs.md)."""

from __future__ import annotations

import fcntl
import json
import os
from pathlib import Path
from typing import Any

import polars as pl
import pyarrow as pa
import pyarrow.parquet as pq

from .errors import Problem, UserError

TABLES = ("games", "players", "cards")


def load_run(path: str | Path) -> dict[str, pl.LazyFrame]:
    """The run's tables as polars LazyFrames: {"games": ..., "players": ..., "cards": ...}."""
    out = Path(path)
    if not (out / "manifest.json").exists():
        raise UserError(
            Problem(str(out), None, "run", "not a run directory (no manifest.json); make one with balance run")
        )
    frames = {}
    for table in TABLES:
        parts = sorted((out / table).glob("part-*.parquet"))
        if not parts:
            raise UserError(Problem(str(out), None, table, "no Parquet parts: the run has not finished a chunk yet"))
        for part in parts:  # a truncated or empty part names itself, before any table is read
            try:
                pq.read_metadata(part)
            except (OSError, pa.ArrowException) as exc:
                raise UserError(
                    Problem(str(part), None, table, f"is not a readable part ({exc}); balance run --resume replays it")
                ) from None
        # the listed files, not a glob pattern: a folder named with [ ] * ? is not a pattern
        frames[table] = pl.scan_parquet(parts, glob=False)
    return frames


def read_manifest(out: str | Path) -> dict[str, Any] | None:
    """The run's manifest; None when there is none. A file that is not a JSON
    mapping is an error that names it (never a traceback)."""
    if Path(out).exists() and not Path(out).is_dir():
        raise UserError(Problem(str(out), None, "run", "is a file, not a run directory (the folder balance run wrote)"))
    path = Path(out) / "manifest.json"
    try:
        data = json.loads(path.read_text())
    except FileNotFoundError:
        return None
    except (OSError, UnicodeDecodeError, json.JSONDecodeError) as exc:
        raise UserError(Problem(str(path), None, "manifest", f"is not a run manifest ({exc})")) from None
    if not isinstance(data, dict):
        raise UserError(Problem(str(path), None, "manifest", "is not a run manifest (not a JSON mapping)"))
    return data


def lock_held(out: str | Path) -> bool:
    """Whether a live `balance run` holds the run directory (its OS lock on
    .lock, which the kernel drops when that process dies however it dies).
    Asked with a shared lock, released at once."""
    try:
        fd = os.open(Path(out) / ".lock", os.O_RDONLY)
    except OSError:
        return False
    try:
        fcntl.flock(fd, fcntl.LOCK_SH | fcntl.LOCK_NB)
    except BlockingIOError:
        return True
    except OSError:
        return False
    finally:
        os.close(fd)  # closing drops the shared lock if we took it
    return False


def load_manifest(path: str | Path) -> dict[str, Any]:
    manifest = read_manifest(path)
    if manifest is None:
        raise UserError(Problem(str(path), None, "run", "not a run directory (no manifest.json)"))
    return manifest


def studied_cards(catalog: dict[str, Any]) -> list[str] | None:
    """The card ids a report tabulates, from a manifest's `catalog`: those marked
    `studied` (Heat: the Garage upgrades, or every deck card without the Garage
    module), or for manifests without the flag (Horsepower) the Parts Deck
    (`group == "parts"`). None when there are none (every card seen counts)."""
    cards = catalog.get("cards", [])
    if any("studied" in c for c in cards):
        ids = [c["id"] for c in cards if c.get("studied")]
    else:
        ids = [c["id"] for c in cards if c.get("group") == "parts"]
    return ids or None


def win_rates(players: pl.LazyFrame, by: str) -> pl.DataFrame:
    """Win rate by a players column (seat, bot) with its Wilson 95% interval and n."""
    from .analysis.stats import wilson

    table = players.group_by(by).agg(pl.len().alias("games"), pl.col("won").sum().alias("wins")).sort(by).collect()
    low, high = wilson(table["wins"].to_numpy(), table["games"].to_numpy())
    return table.with_columns(
        (pl.col("wins") / pl.col("games")).alias("win_rate"), pl.Series("ci_low", low), pl.Series("ci_high", high)
    )
