"""`balance run`: a scenario's games in chunks, in parallel, into a run directory.

A run directory holds manifest.json and three tables (games/, players/,
cards/), each a folder of Parquet part files, one per chunk. A part is written
under a temporary name and renamed, so an interrupted run leaves only whole
parts and `--resume` runs just the chunks that are missing. Every random
number of game g is keyed by (seed, g, its purpose) (games/chance.py), so the
tables do not depend on --jobs, the backend or the chunk size.

With the local (loky) backend each worker writes its own parts. With Dask the
workers may not share a disk with the client, so they return their tables and
the client writes them.
"""

from __future__ import annotations

import contextlib
import errno
import hashlib
import json
import os
import shutil
import time
import traceback
import uuid
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field, replace
from functools import partial
from pathlib import Path
from typing import Any

import pyarrow as pa
import pyarrow.parquet as pq

from . import __version__, progress
from .allocator import tune_allocator
from .atomic import write_with
from .errors import Problem, UserError
from .folder_lock import LOCK, RunLock, parts_guard, take_for_writing
from .games import get_game
from .games.chance import Streams
from .limits import check_jobs, check_memory, check_plan
from .logs import RUN_ID_KEY, read_manifest, resume_command
from .progress import ChunkProgress
from .scenario import Scenario, ScenarioModel, check_scenario, load_scenario, scenario_model
from .seeding import chunk_plan
from .validation import field_bounds
from .yamlio import YamlDoc, file_problem, load_yaml

TABLES = ("games", "players", "cards")


@dataclass
class RunOptions:
    games: int | None = None
    seed: int | None = None
    chunk_size: int | None = None
    jobs: int | None = None  # None: all cores
    out: Path | None = None
    backend: str = "loky"
    scheduler: str | None = None
    resume: bool = False
    force: bool = False
    only_chunk: int | None = None  # run just this chunk, in this process (to reproduce a failure)
    # the command that finishes this run after a failure, where a command other than balance run plays it
    # (balance strong RUN --resume): said by the failure's message and kept in the manifest
    finish: str | None = None
    # balance run's own: a finished run of other inputs in `out` is kept beside it (OUT.previous) and replaced,
    # one of the same inputs played again in place (its games are the same): no --force in a designer's loop
    keep_previous: bool = False


@dataclass
class RunResult:
    out: Path
    manifest: dict[str, Any]
    ran_chunks: list[int] = field(default_factory=list)
    seconds: float = 0.0
    replaced_chunks: list[int] = field(default_factory=list)  # kept parts that were unreadable, short or foreign
    previous: Path | None = None  # where the run this one replaced is kept (keep_previous)


class ChunkFailed(Exception):
    """A bug inside a chunk: names the chunk, its seed and how to reproduce it."""


def part_path(out: Path, table: str, chunk: int) -> Path:
    return out / table / f"part-{chunk:06d}.parquet"


def write_part(out: Path, table: str, chunk: int, data: pa.Table, run_id: str | None = None) -> None:
    """Atomically: a temporary name in the same folder, then a rename; stamped
    with the run's identity (a dead run's orphaned worker must not pass its
    parts off as a later run's)."""
    final = part_path(out, table, chunk)
    final.parent.mkdir(parents=True, exist_ok=True)
    if run_id is not None:
        data = data.replace_schema_metadata({**(data.schema.metadata or {}), RUN_ID_KEY: run_id.encode()})
    # a full disk mid-write leaves no half part behind; page checksums: a part whose data is damaged while
    # its footer is sound is found on --resume
    write_with(final, lambda tmp: pq.write_table(data, tmp, compression="zstd", write_page_checksum=True))


def part_ok(path: Path, run_id: str | None, rows: int | None = None, deep: bool = False) -> bool:
    """A part a run may keep: readable, written by run `run_id` (None: a run
    from before parts were stamped), and with `rows` rows where given; `deep`:
    every page read and its checksum checked (on --resume, where parts may
    have been damaged since they were written), not only the footer."""
    try:
        meta = pq.read_metadata(path)
        if deep:
            pq.read_table(path, page_checksum_verification=True)
    except (OSError, pa.ArrowException):
        return False
    if rows is not None and meta.num_rows != rows:
        return False
    return run_id is None or (meta.metadata or {}).get(RUN_ID_KEY) == run_id.encode()


def chunk_done(out: Path, chunk: int, run_id: str | None = None, size: int | None = None, deep: bool = False) -> bool:
    """Every table's part of the chunk is there and sound (the games part holds
    the chunk's `size` games)."""
    return all(part_ok(part_path(out, t, chunk), run_id, size if t == "games" else None, deep) for t in TABLES)


def current_run(out: Path) -> str | None:
    """The run id in the run directory's manifest (None: none readable)."""
    try:
        manifest = read_manifest(out)
    except UserError:
        return None
    return manifest.get("run_id") if manifest else None


# --- the work of one chunk (runs in a worker process) ------------------------------

_PREPARED: dict[str, Any] = {}  # per worker process: the scenario prepared once


def _prepared(scenario: Scenario) -> Any:
    # the database's content is part of the key: a file edited between two runs in one
    # process (a notebook, the mutator) is prepared again. Not the name nor the strength
    # experiment's item (bonus_card, read when a chunk is played): its tasks alternate items,
    # and each prepared the same tables again (a 16-game task spent most of its time there)
    model = scenario.model.model_dump(mode="json", exclude={"name", "bonus_card"})
    key = scenario.source + json.dumps(model, sort_keys=True) + database_hash(scenario)
    if key not in _PREPARED:
        _PREPARED.clear()
        _PREPARED[key] = get_game(scenario.model.game).prepare(scenario)
    return _PREPARED[key]


def run_chunk(
    scenario: Scenario, chunk: int, n_chunks: int, first: int, size: int, out: Path | None, run_id: str | None = None
) -> dict[str, Any]:
    """Play one chunk; write its parts (out given) or return them (out None).
    A worker whose run is no longer the directory's (its parent was killed and
    a --force run took over) writes nothing."""
    seed = scenario.model.seed
    tune_allocator()  # once per worker process
    # the games finished so far, for the parent's bar (a Dask worker elsewhere has no such folder: chunk by chunk)
    game = get_game(scenario.model.game)
    tracker = None
    if out is not None and out.is_dir():
        measure = partial(game.progress, _prepared(scenario)) if game.progress else None
        tracker = ChunkProgress(out / progress.FOLDER / f"chunk-{chunk}", measure)
    try:
        streams = Streams(seed, first, size)
        tables = game.play_chunk(_prepared(scenario), scenario, chunk, first, size, streams, tracker)
    except Exception as exc:  # a bug in the toolkit: say exactly how to get it back
        where = "".join(traceback.format_exception_only(type(exc), exc)).strip()
        last = traceback.extract_tb(exc.__traceback__)[-1]
        raise ChunkFailed(
            f"chunk {chunk} (games {first}-{first + size - 1}, seed {seed}) failed: {where} "
            f"at {Path(last.filename).name}:{last.lineno}; reproduce with: balance run {scenario.source} "
            f"--seed {seed} --chunk-size {scenario.model.chunk_size} --games {scenario.model.games} --only-chunk {chunk}"
        ) from exc
    finally:
        if tracker is not None:
            tracker.close()
    if out is not None:
        with parts_guard(out):  # the check and the writes, never split by a run taking the directory over
            if run_id is not None and current_run(out) != run_id:
                return {"chunk": chunk, "games": 0, "orphaned": True}
            for name in TABLES:
                write_part(out, name, chunk, tables[name], run_id)
        return {"chunk": chunk, "games": size}
    return {"chunk": chunk, "games": size, "tables": tables}


# --- the run directory -----------------------------------------------------------------


def database_hash(scenario: Scenario) -> str:
    """sha256 of the card database as the scenario plays it (overrides applied)."""
    data = scenario.database_doc().data
    return hashlib.sha256(json.dumps(data, sort_keys=True, default=str).encode()).hexdigest()


def _manifest(scenario: Scenario, plan: list[tuple[int, int]]) -> dict[str, Any]:
    m = scenario.model
    return {
        "scenario": json.loads(m.model_dump_json()),
        "scenario_file": str(Path(scenario.source).resolve()),
        "cards_file": str(scenario.cards_path),
        "cards_sha256": database_hash(scenario),
        # the database as played (overrides applied): balance compare RUN_A RUN_B says what changed
        "database": json.loads(json.dumps(scenario.database_doc().data, default=str)),
        "game": m.game,
        "seed": m.seed,
        "chunk_size": m.chunk_size,
        "chunks": [list(c) for c in plan],
        "games": m.games,
        "package_version": __version__,
        "run_id": uuid.uuid4().hex,  # stamped on every part (runner.part_ok)
        "status": "running",
        "started": time.strftime("%Y-%m-%dT%H:%M:%S%z"),
        "finished": None,
        "unfinished_games": None,
    }


def write_manifest(out: Path, manifest: dict[str, Any]) -> None:
    tmp = out / f".manifest.{os.getpid()}.tmp"
    try:
        tmp.write_text(json.dumps(manifest, indent=2) + "\n")
        os.replace(tmp, out / "manifest.json")
    except BaseException:
        tmp.unlink(missing_ok=True)
        raise


def is_run_manifest(manifest: Any) -> bool:
    """A manifest.json that `balance run` wrote (not just any JSON file)."""
    return isinstance(manifest, dict) and isinstance(manifest.get("chunks"), list) and "package_version" in manifest


def remove_run(out: Path) -> None:
    """Remove what a run wrote in `out` and nothing else: the part files (and
    temporary ones) of its tables, each table folder once empty, the manifest."""
    for table in TABLES:
        folder = out / table
        if not folder.is_dir():
            continue
        for path in [*folder.glob("part-*.parquet"), *folder.glob(".part-*.tmp")]:
            path.unlink(missing_ok=True)
        with contextlib.suppress(OSError):  # something else lives there: left alone
            folder.rmdir()
    (out / "manifest.json").unlink(missing_ok=True)


def remove_foreign_parts(out: Path, n_chunks: int) -> None:
    """Part files of chunks this run does not plan (a bigger run's, or an
    orphaned worker's of a run killed before): never part of its tables."""
    for table in TABLES:
        for path in (out / table).glob("part-*.parquet"):
            try:
                chunk = int(path.stem.split("-")[1])
            except (IndexError, ValueError):
                chunk = n_chunks
            if chunk >= n_chunks:
                path.unlink(missing_ok=True)


PREVIOUS = ".previous"  # OUT.previous: the finished run balance run replaced, kept beside it (one generation)


def previous_of(out: Path) -> Path:
    """Where the run that `out` replaced is kept (beside it: `--out .` names the folder by its full path)."""
    out = out if out.name else out.resolve()
    return out.with_name(out.name + PREVIOUS)


def same_inputs(old: dict[str, Any], manifest: dict[str, Any]) -> bool:
    """Whether two manifests describe the same games: the same database as played, scenario and chunk plan."""
    keys = ("cards_sha256", "game", "seed", "chunks")
    scenario = json.dumps(old.get("scenario"), sort_keys=True) == json.dumps(manifest.get("scenario"), sort_keys=True)
    return scenario and all(old.get(k) == manifest.get(k) for k in keys)


def keep_previous(out: Path, lock: RunLock) -> RunLock:
    """Move the finished run in `out`, with what was measured of it inside
    (RUN/strength, RUN/strong), to OUT.previous, replacing the one kept there;
    return the lock of the fresh, empty `out`. Each step is one rename, so a
    crash leaves the old run whole in one place or the other; a previous
    folder a reader holds is refused in one line before anything moves."""
    previous = previous_of(out)
    trash = None
    if previous.exists():
        if not previous.is_dir() or not is_run_manifest(read_manifest(previous)):
            raise UserError(
                Problem(
                    str(previous),
                    None,
                    "--out",
                    "is where balance run keeps the run it replaces, but holds something else: move it away",
                )
            )
        held = take_for_writing(previous)
        trash = previous.with_name(f".{previous.name}.{os.getpid()}.old")
        os.rename(previous, trash)
        held.path = trash / LOCK  # its file moved with the folder: released there, never the new one's
        held.release()
    os.rename(out, previous)
    lock.path = previous / LOCK
    try:
        make_run_dir(out)
        fresh = take_for_writing(out)
    finally:
        lock.release()
    if trash is not None:
        shutil.rmtree(trash, ignore_errors=True)
    return fresh


def _check_existing(out: Path, manifest: dict[str, Any], options: RunOptions) -> None:
    old = read_manifest(out)
    has_parts = any((out / t).exists() and any((out / t).glob("part-*.parquet")) for t in TABLES)
    if old is None and not has_parts:
        return
    if options.force:
        if not is_run_manifest(old):
            raise UserError(
                Problem(
                    str(out),
                    None,
                    "--out",
                    "holds files but no manifest.json of a balance run: --force only replaces a run of ours; "
                    "choose another --out (or remove them yourself)",
                )
            )
        remove_run(out)
        return
    if old is not None and old.get("status") == "complete" and not options.resume:
        raise UserError(
            Problem(str(out), None, "--out", "holds a finished run; use --force to overwrite it or another --out")
        )
    if not options.resume:
        raise UserError(
            Problem(str(out), None, "--out", "holds an unfinished run: --resume to finish it, --force to start over")
        )
    if old is None:
        raise UserError(
            Problem(str(out), None, "--resume", "no manifest.json here to resume; use --force to start over")
        )
    # More games in the same chunks extend a run: a game is keyed by its seed and id
    # (games/chance.py), so the old chunks stand, and a short last chunk grown to a
    # whole one is played again (the same games, and the new ones after them).
    old_chunks, new_chunks = old.get("chunks") or [], manifest["chunks"]
    whole, last = old_chunks[:-1], old_chunks[-1:]
    extends = new_chunks[: len(whole)] == whole and all(
        len(new_chunks) > len(whole) and new_chunks[len(whole)][0] == first and new_chunks[len(whole)][1] >= size
        for first, size in last
    )
    for key in ("cards_sha256", "seed", "chunk_size", "game"):
        if old.get(key) != manifest.get(key):
            raise UserError(
                Problem(
                    str(out),
                    None,
                    "--resume",
                    f"the run here has a different {key} ({old.get(key)!r:.60}); use --force",
                )
            )
    if not extends:
        raise UserError(
            Problem(
                str(out), None, "--resume", "the run here has a different chunk plan (games or chunk size); use --force"
            )
        )
    same = {k: v for k, v in (old.get("scenario") or {}).items() if k != "games"}
    if json.dumps(same, sort_keys=True) != json.dumps(
        {k: v for k, v in manifest["scenario"].items() if k != "games"}, sort_keys=True
    ):
        raise UserError(
            Problem(str(out), None, "--resume", "the run here was made from a different scenario; use --force")
        )


def resolve_scenario(path: str | Path | Scenario, options: RunOptions) -> Scenario:
    scenario = path if isinstance(path, Scenario) else load_scenario(path)
    update = {
        k: v
        for k, v in (("games", options.games), ("seed", options.seed), ("chunk_size", options.chunk_size))
        if v is not None
    }
    for name, value in update.items():
        low, high = field_bounds(ScenarioModel, name)
        if (low is not None and value < low) or (high is not None and value > high):
            flag = f"--{name.replace('_', '-')}"
            words = f"must be at least {low}" if low is not None and value < low else f"must be at most {high:,}"
            raise UserError(Problem(flag, None, name, f"{words}, got {value:,}"))
    if "games" in update or "chunk_size" in update:
        check_plan(update.get("games", scenario.model.games), update.get("chunk_size", scenario.model.chunk_size))
    model = scenario.model.model_copy(update=update) if update else scenario.model
    # The card database travels with the scenario, so workers never read the client's files.
    cards_doc = scenario.cards_doc if scenario.cards_doc is not None else load_yaml(scenario.cards_path)
    return Scenario(scenario.source, model, scenario.cards_path, scenario.doc, cards_doc)


def scenario_of_run(out: str | Path) -> tuple[Scenario, dict[str, Any]]:
    """The scenario exactly as the run in `out` played it, and the run's manifest:
    the scenario the manifest holds (the run's games, seed and chunk size), its
    plan of chunks and the card database it names, refused (UserError) when that
    database is no longer the one the run played."""
    from .logs import load_manifest

    out = Path(out)
    manifest = load_manifest(out)
    source = str(out / "manifest.json")
    try:
        plan = tuple((int(first), int(size)) for first, size in manifest["chunks"])
        cards = Path(manifest["cards_file"])
        doc = YamlDoc(source, manifest["scenario"])
    except (KeyError, TypeError, ValueError) as exc:
        raise UserError(Problem(source, None, "manifest", f"not a manifest balance run writes ({exc!r:.60})")) from None
    model = scenario_model(doc)
    check_scenario(model, doc)
    problem = file_problem(cards)
    if problem is not None:
        gone = "is gone" if problem == "no such file" else problem
        raise UserError(Problem(source, None, "cards_file", f"the run's card database {cards} {gone}"))
    scenario = Scenario(source, model, cards, doc, load_yaml(cards), plan)
    try:
        now = database_hash(scenario)
    except UserError:  # the scenario's overrides no longer fit the database
        now = None
    if now != manifest.get("cards_sha256"):
        raise UserError(
            Problem(
                str(cards),
                None,
                "cards_sha256",
                f"the card database changed since the run in {out} (as played, with the scenario's overrides): "
                "a trace would not be that game",
            )
        )
    return scenario, manifest


def run(
    path: str | Path | Scenario, options: RunOptions, on_progress: Callable[[int, int], None] | None = None
) -> RunResult:
    """Run a scenario (a file, or one already loaded) into its run directory.
    `on_progress(games_done, games_total)`."""
    scenario = resolve_scenario(path, options)
    game = get_game(scenario.model.game, scenario.source, scenario.doc.line_of(("game",)))
    prepared = game.prepare(scenario)  # every input error surfaces here, before any game runs
    plan = chunk_plan(scenario.model.games, scenario.model.chunk_size)
    out = Path(options.out) if options.out else Path("runs") / scenario.name
    check_backend(options, len(plan))
    if options.only_chunk is not None and not 0 <= options.only_chunk < len(plan):
        raise UserError(
            Problem(
                "--only-chunk", None, "chunk", f"chunk {options.only_chunk} is not in the plan (0 to {len(plan) - 1})"
            )
        )
    manifest = _manifest(scenario, plan)
    manifest["catalog"] = game.catalog(prepared)
    if options.finish:
        manifest["finish_command"] = options.finish
    if options.backend == "loky":
        kinds = sum(len(v) for v in manifest["catalog"].values() if isinstance(v, list))
        workers = 1 if options.only_chunk is not None else min(options.jobs or os.cpu_count() or 1, len(plan))
        check_memory(scenario.model.chunk_size, scenario.model.players, kinds, workers)
    # the scheduler first: an address nobody answers at leaves no run directory behind
    client = connect_dask(options.scheduler) if options.backend == "dask" and options.only_chunk is None else None
    try:
        make_run_dir(out)
        lock = take_for_writing(out)
    except BaseException:
        if client is not None:
            client.close()
        raise
    start = time.perf_counter()
    kept = None
    try:
        old = read_manifest(out)
        if options.keep_previous and options.only_chunk is None and not options.resume and is_run_manifest(old):
            if old.get("status") == "complete" and not same_inputs(old, manifest):
                lock = keep_previous(out, lock)
                kept = previous_of(out)
            elif old.get("status") == "complete":  # the same games: played again in place, the kept one stays
                options = replace(options, force=True)
        with parts_guard(out, takeover=True):  # an orphaned worker of a run before finishes its write first
            _check_existing(out, manifest, options)
            old = read_manifest(out)
            if old is not None and options.resume:
                manifest["started"] = old.get("started", manifest["started"])
                manifest["run_id"] = old.get("run_id")  # its parts are stamped with it (None: a run from before)
            run_id = manifest["run_id"]
            _write_or_explain(out, manifest, plan)
        todo = [c for c in range(len(plan)) if not chunk_done(out, c, run_id, plan[c][1], deep=options.resume)]
        # parts there but unreadable, short or another run's: played again
        bad = [c for c in todo if any(part_path(out, t, c).exists() for t in TABLES)]
        if options.only_chunk is not None:
            todo = [options.only_chunk]
        done_games = sum(plan[c][1] for c in range(len(plan)) if c not in todo)
        if on_progress:
            on_progress(done_games, scenario.model.games)
        ran: list[int] = []
        progress.clear(out)  # a killed run's files would count games nobody is playing
        finished = [done_games]  # chunks written; the watcher adds the games of the chunks in flight
        watcher = _watch(out, finished, scenario.model.games, on_progress) if on_progress else None
        try:
            for result in _dispatch(scenario, plan, todo, out, options, run_id, client):
                if "tables" in result:  # returned by a Dask worker: the client writes
                    for name in TABLES:
                        write_part(out, name, result["chunk"], result["tables"][name], run_id)
                ran.append(result["chunk"])
                finished[0] += result["games"]
                if on_progress:
                    on_progress(finished[0] + progress.games_in_flight(out), scenario.model.games)
        except KeyboardInterrupt:
            _record_failure(out, manifest, "interrupted", "interrupted (Ctrl-C)")
            saved = sum(chunk_done(out, c, run_id, plan[c][1]) for c in range(len(plan)))
            raise RunInterrupted(
                f"interrupted: {saved} of {len(plan)} chunks saved in {out}; finish the run with: "
                f"{resume_command(manifest, out)}"
            ) from None
        except ChunkFailed as exc:
            _record_failure(out, manifest, "failed", str(exc))
            raise
        except OSError as exc:  # the disk filled, the folder went away or read-only
            _record_failure(out, manifest, "failed", f"{exc.strerror or exc}")
            raise UserError(_write_problem(out, exc, plan, manifest)) from None
        except BaseException as exc:
            _record_failure(out, manifest, "failed", f"{type(exc).__name__}: {exc}")
            raise
        finally:
            if watcher is not None:
                watcher.set()
            progress.clear(out)
        remove_foreign_parts(out, len(plan))
        complete = all(chunk_done(out, c, run_id, plan[c][1]) for c in range(len(plan)))
        manifest["status"] = "complete" if complete else "partial"
        manifest["finished"] = time.strftime("%Y-%m-%dT%H:%M:%S%z")
        if complete:
            import polars as pl

            games = pl.scan_parquet(sorted((out / "games").glob("part-*.parquet")), glob=False)
            manifest["unfinished_games"] = int(games.filter(~pl.col("finished")).select(pl.len()).collect().item())
        _write_or_explain(out, manifest, plan)
    finally:
        if client is not None:
            client.close()
        lock.release()
    return RunResult(out, manifest, ran, time.perf_counter() - start, bad, kept)


class RunInterrupted(KeyboardInterrupt):
    """Ctrl-C during a run: what was saved and the command that finishes it."""


def _watch(out: Path, finished: list[int], total: int, on_progress: Callable[[int, int], None]) -> Any:
    """A thread that reports the games done twice a second while chunks are played:
    the chunks written (`finished[0]`) and the games finished within the others.
    Returns the event that stops it."""
    import threading

    stop = threading.Event()

    def watch() -> None:
        while not stop.wait(0.5):
            on_progress(min(finished[0] + progress.games_in_flight(out), total), total)

    threading.Thread(target=watch, daemon=True, name="balance-progress").start()
    return stop


def make_run_dir(out: Path) -> None:
    """The run directory, made if missing; a path that cannot be one is a one-line error."""
    problem = None
    try:
        out.mkdir(parents=True, exist_ok=True)
    except FileExistsError:
        problem = "is a file, not a folder"
    except NotADirectoryError:
        problem = "lies under a file, not a folder"
    except OSError as exc:
        problem = f"cannot be made ({exc.strerror or exc})"
    if problem is None and not out.is_dir():
        problem = "is a file, not a folder"
    if problem is not None:
        raise UserError(Problem(str(out), None, "--out", f"{problem}; choose another --out"))


def check_backend(options: RunOptions, chunks: int) -> None:
    """The backend, its scheduler address and its package, before any game."""
    check_jobs(options.jobs)
    if options.backend not in ("loky", "dask"):
        raise UserError(
            Problem("--backend", None, "backend", f"unknown backend {options.backend!r} (known: loky, dask)")
        )
    if options.backend == "loky":
        if options.scheduler:
            raise UserError(Problem("--scheduler", None, "scheduler", "--scheduler is for --backend dask"))
        return
    try:
        import dask.distributed  # noqa: F401
    except ImportError:
        raise UserError(
            Problem("--backend", None, "backend", "dask is not installed: pip install 'balance[cluster]'")
        ) from None
    if not options.scheduler:
        raise UserError(Problem("--scheduler", None, "scheduler", "--backend dask needs --scheduler tcp://HOST:PORT"))
    scheme, _, rest = options.scheduler.rpartition("://")
    host, _, port = rest.rpartition(":")
    if scheme not in ("", "tcp", "tls") or not host or not port.isdigit() or not 0 < int(port) < 65536:
        raise UserError(
            Problem(
                "--scheduler",
                None,
                "scheduler",
                f"{options.scheduler!r} is not a Dask scheduler address: tcp://HOST:PORT (or tls://HOST:PORT)",
            )
        )


def connect_dask(address: str) -> Any:
    """A client of the Dask scheduler at `address`, or a one-line error. The
    connection is given a hard limit, in a daemon thread that an exit does not
    wait for: where something other than a Dask scheduler listens (a web
    server), the handshake can stall past the client's own timeout."""
    import threading

    from dask.distributed import Client

    outcome: dict[str, Any] = {}

    def connect() -> None:
        try:
            outcome["client"] = Client(address, timeout="10s")
        except Exception as exc:  # OSError, TimeoutError, a handshake that is not Dask's
            outcome["error"] = exc

    thread = threading.Thread(target=connect, name="dask-connect", daemon=True)
    thread.start()
    thread.join(CONNECT_SECONDS)
    if "client" in outcome:
        return outcome["client"]
    exc = outcome.get("error")
    if exc is None:
        reason = f"no Dask scheduler answered within {CONNECT_SECONDS} s"
    else:
        reason = str(exc).splitlines()[0] if str(exc) else type(exc).__name__
    raise UserError(Problem("--scheduler", None, "scheduler", f"cannot reach {address}: {reason}"))


CONNECT_SECONDS = 20


def _record_failure(out: Path, manifest: dict[str, Any], status: str, reason: str) -> None:
    """Say in the manifest how the run ended, if the disk still lets us."""
    manifest["status"] = status
    manifest["error"] = reason[:500]
    with contextlib.suppress(OSError):
        write_manifest(out, manifest)


def _write_or_explain(out: Path, manifest: dict[str, Any], plan) -> None:
    try:
        write_manifest(out, manifest)
    except OSError as exc:
        raise UserError(_write_problem(out, exc, plan, manifest)) from None


def _write_problem(out: Path, exc: OSError, plan, manifest: dict[str, Any]) -> Problem:
    """A write that failed (a full disk, a folder made read-only): what was
    kept, and the command that finishes the run."""
    for table in TABLES:  # a part cut short by the failure is never left to look whole
        for tmp in (out / table).glob(".part-*.tmp"):
            tmp.unlink(missing_ok=True)
    kept = sum(1 for c in range(len(plan)) if chunk_done(out, c, manifest.get("run_id"), plan[c][1]))
    full = exc.errno == errno.ENOSPC
    what = "the disk is full" if full else f"cannot write here ({exc.strerror or exc})"
    then = "free space, then finish with" if full else "finish with"
    return Problem(
        str(out),
        None,
        "write",
        f"{what}: {kept} of {len(plan)} chunks are saved whole; {then} {resume_command(manifest, out)}",
    )


def _dispatch(
    scenario: Scenario,
    plan,
    todo: list[int],
    out: Path,
    options: RunOptions,
    run_id: str | None = None,
    client: Any = None,
) -> Iterator[dict[str, Any]]:
    import joblib

    n = len(plan)
    local = client is None and (len(todo) <= 1 or options.jobs == 1)
    if options.only_chunk is not None or not todo or local:
        for c in todo:
            yield run_chunk(scenario, c, n, *plan[c], out, run_id)
        return
    if client is not None:
        with joblib.parallel_config(backend="dask"):
            yield from joblib.Parallel(return_as="generator_unordered")(
                joblib.delayed(run_chunk)(scenario, c, n, *plan[c], None) for c in todo
            )
        return
    jobs = options.jobs or os.cpu_count() or 1
    # absolute: loky keeps its workers between calls, each in the folder it started in (a caller that
    # changed folders since, a notebook or a test, would have its parts written under the old one)
    where = out.resolve()
    yield from joblib.Parallel(n_jobs=jobs, backend="loky", return_as="generator_unordered")(
        joblib.delayed(run_chunk)(scenario, c, n, *plan[c], where, run_id) for c in todo
    )
