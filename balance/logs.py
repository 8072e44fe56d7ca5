"""Reading a run directory: the contract every report and check relies on
(docs/logs.md)."""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import polars as pl
import pyarrow as pa
import pyarrow.parquet as pq

from .errors import Problem, UserError
from .folder_lock import hold_for_reading
from .printable import command_line

TABLES = ("games", "players", "cards")


RUN_ID_KEY = b"balance_run_id"  # each part's Parquet metadata: the run that wrote it


@dataclass(frozen=True)
class RunParts:
    """The part files a run's tables are read from, chunk by chunk."""

    chunks: list[int]  # chunks read: a part in every table, each stamped with the run's id, in its plan
    left_out: list[str]  # why each other chunk found on disk is not read
    paths: dict[str, list[Path]]  # table -> the part files of `chunks`


def run_parts(out: str | Path, manifest: dict[str, Any]) -> RunParts:
    """A chunk's parts are read only together: when every table has its part
    and each carries the run's id (`run_id`; runs from before stamps: any) and
    the chunk is in the run's plan. A chunk half written (a full disk, a run
    still going), an orphaned worker's part or a part removed by hand would
    otherwise mix tables of different games. An unreadable part is an error
    that names it, as `--resume` replays it."""
    out = Path(out)
    found: dict[str, dict[int, Path]] = {}
    for table in TABLES:
        found[table] = {}
        for part in (out / table).glob("part-*.parquet"):
            try:
                found[table][int(part.stem.removeprefix("part-"))] = part
            except ValueError:
                continue
    planned = manifest.get("chunks")
    run_id = manifest.get("run_id")
    chunks, left_out = [], []
    for chunk in sorted(set().union(*(f.keys() for f in found.values()))):
        missing = [t for t in TABLES if chunk not in found[t]]
        if isinstance(planned, list) and chunk >= len(planned):
            left_out.append(f"chunk {chunk}: not in the run's plan")
        elif missing:
            left_out.append(f"chunk {chunk}: no {' or '.join(missing)} part")
        elif run_id is not None and any(_stamp(found[t][chunk], t) != run_id.encode() for t in TABLES):
            left_out.append(f"chunk {chunk}: another run's part")
        else:
            chunks.append(chunk)
    return RunParts(chunks, left_out, {t: [found[t][c] for c in chunks] for t in TABLES})


def _stamp(part: Path, table: str) -> bytes | None:
    """The run id a part carries; an unreadable part is named in one line."""
    try:
        meta = pq.read_metadata(part)
    except (OSError, pa.ArrowException) as exc:
        raise UserError(unreadable(part, table, exc)) from None
    return (meta.metadata or {}).get(RUN_ID_KEY)


def unreadable(part: Path, table: str, exc: BaseException) -> Problem:
    reason = " ".join(str(exc).split())  # Parquet's messages may hold line breaks
    return Problem(str(part), None, table, f"is not a readable part ({reason[:200]}); balance run --resume replays it")


def load_run(path: str | Path) -> dict[str, pl.LazyFrame]:
    """The run's tables as polars LazyFrames: {"games": ..., "players": ..., "cards": ...},
    read from the chunks whose parts are all there and the run's own (run_parts)."""
    out = Path(path)
    manifest = read_manifest(out)
    if manifest is None:
        raise UserError(
            Problem(str(out), None, "run", "not a run directory (no manifest.json); make one with balance run")
        )
    hold_for_reading(out)  # before the parts are listed: a run replacing them meanwhile is refused, or we are
    parts = run_parts(out, manifest)
    if not parts.chunks:
        raise UserError(Problem(str(out), None, "games", "no Parquet parts: the run has not finished a chunk yet"))
    # the listed files, not a glob pattern: a folder named with [ ] * ? is not a pattern
    return {table: pl.scan_parquet(parts.paths[table], glob=False) for table in TABLES}


def find_unreadable_part(out: str | Path) -> Problem | None:
    """The first part whose data cannot be read or fails its pages' checksums
    (its footer may be sound while a page inside is not, which polars may
    read as other numbers without a word), by reading each whole; None when
    all read."""
    for table in TABLES:
        for part in sorted((Path(out) / table).glob("part-*.parquet")):
            try:
                pq.read_table(part, page_checksum_verification=True)
            except (OSError, pa.ArrowException) as exc:
                return unreadable(part, table, exc)
    return None


# What each key of a manifest holds, where it has it (older runs lack some).
_MANIFEST_TYPES: dict[str, tuple[type, ...]] = {
    "scenario": (dict,),
    "scenario_file": (str,),
    "cards_file": (str,),
    "cards_sha256": (str,),
    "database": (dict,),
    "game": (str,),
    "seed": (int,),
    "chunk_size": (int,),
    "chunks": (list,),
    "games": (int,),
    "package_version": (str,),
    "run_id": (str, type(None)),
    "status": (str,),
    "started": (str, type(None)),
    "finished": (str, type(None)),
    "unfinished_games": (int, type(None)),
    "catalog": (dict,),
    "error": (str, type(None)),
}


def _manifest_problem(data: dict[str, Any]) -> str | None:
    """What makes a JSON mapping not a manifest balance run writes (None: nothing)."""
    for key, types in _MANIFEST_TYPES.items():
        if key in data and (not isinstance(data[key], types) or isinstance(data[key], bool)):
            return f"{key} is {type(data[key]).__name__}, expected {' or '.join(t.__name__ for t in types)}"
    chunks = data.get("chunks", [])
    if not all(isinstance(c, list) and len(c) == 2 and all(type(v) is int for v in c) for c in chunks):
        return "chunks is not a list of [first game, games]"
    for section, items in data.get("catalog", {}).items():
        if not isinstance(items, list) or not all(isinstance(i, dict) and isinstance(i.get("id"), str) for i in items):
            return f"catalog.{section} is not a list of items with an id"
    return None


def read_manifest(out: str | Path) -> dict[str, Any] | None:
    """The run's manifest; None when there is none. A file that is not a JSON
    mapping with the keys balance run writes, each of its type, is an error
    that names it (never a traceback)."""
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
    problem = _manifest_problem(data)
    if problem is not None:
        raise UserError(Problem(str(path), None, "manifest", f"is not a run manifest ({problem})"))
    return data


def resume_command(manifest: dict[str, Any], out: str | Path) -> str:
    """The command that finishes the run in `out`: its scenario file with the
    games, chunk size and seed it was run with (given on the command line or
    not, they are what --resume checks)."""
    if manifest.get("finish_command"):  # a run an experiment plays: the experiment's own command finishes it
        return str(manifest["finish_command"])
    scenario = manifest.get("scenario_file") or "SCENARIO"
    return command_line(
        "balance", "run", scenario, "--resume", "--out", out, "--games", manifest.get("games"),
        "--chunk-size", manifest.get("chunk_size"), "--seed", manifest.get("seed"),
    )  # fmt: skip


def load_manifest(path: str | Path) -> dict[str, Any]:
    manifest = read_manifest(path)
    if manifest is None:
        raise UserError(Problem(str(path), None, "run", "not a run directory (no manifest.json)"))
    return manifest


def win_rates(players: pl.LazyFrame, by: str) -> pl.DataFrame:
    """Win rate by a players column (seat, bot) with its Wilson 95% interval and n."""
    from .analysis.stats import wilson

    table = players.group_by(by).agg(pl.len().alias("games"), pl.col("won").sum().alias("wins")).sort(by).collect()
    low, high = wilson(table["wins"].to_numpy(), table["games"].to_numpy())
    return table.with_columns(
        (pl.col("wins") / pl.col("games")).alias("win_rate"), pl.Series("ci_low", low), pl.Series("ci_high", high)
    )
