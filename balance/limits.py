"""How big a run may be: the bounds on games, chunks and workers, and the
memory a plan needs, checked before any game is played.

Every bound is written once here; the scenario schema and the command line
read the same numbers, and each message says the limit.
"""

from __future__ import annotations

import os
from pathlib import Path

from .errors import Problem, UserError

# A run of a billion games takes days on a cluster; more is a typo (10**12).
MAX_GAMES = 1_000_000_000
# One chunk is one batch in memory and one part file per table.
MAX_CHUNK_SIZE = 1_000_000
# A plan's chunks are listed in its manifest; a million parts is a slow file system.
MAX_CHUNKS = 1_000_000
# Workers beyond this many per core only share the cores, each holding a chunk in memory.
JOBS_PER_CORE = 4

# Memory of one game in a chunk, from peak resident memory at 1,024 and 8,192
# games per chunk of the shipped scenarios (docs/performance.md): 9-20 KB a
# game, of which the state's (players x card kinds) count matrices are the
# part that grows with a design. The estimate is about twice what was measured.
BYTES_PER_GAME = 16 * 1024
BYTES_PER_PLAYER_CARD = 128
# What a worker process holds before its first chunk (Python, numpy, polars, the tables).
BYTES_PER_WORKER = 200 * 2**20


def check_plan(games: int, chunk_size: int, source: str = "--games", raise_what: str = "--chunk-size") -> None:
    """A plan of games in chunks that a run directory can hold (`raise_what`:
    what the message asks to raise, the option or the scenario's field)."""
    chunks = -(-games // chunk_size)
    if chunks > MAX_CHUNKS:
        raise UserError(
            Problem(
                source,
                None,
                "chunk_size",
                f"{games:,} games in chunks of {chunk_size:,} make {chunks:,} chunks; at most {MAX_CHUNKS:,}: "
                f"raise {raise_what}",
            )
        )


def max_jobs() -> int:
    return JOBS_PER_CORE * (os.cpu_count() or 1)


def check_jobs(jobs: int | None) -> None:
    if jobs is not None and not 1 <= jobs <= max_jobs():
        raise UserError(
            Problem(
                "--jobs",
                None,
                "jobs",
                f"must be between 1 and {max_jobs()} ({JOBS_PER_CORE} per core of this machine), got {jobs}",
            )
        )


def chunk_bytes(chunk_size: int, players: int, card_kinds: int) -> int:
    """About the most memory a worker needs to play and log one chunk."""
    return BYTES_PER_WORKER + chunk_size * (BYTES_PER_GAME + BYTES_PER_PLAYER_CARD * players * card_kinds)


def available_bytes() -> int | None:
    """Memory this machine can give now (Linux's MemAvailable), else its total; None if unknown."""
    try:
        for line in Path("/proc/meminfo").read_text().splitlines():
            if line.startswith("MemAvailable:"):
                return int(line.split()[1]) * 1024
    except (OSError, ValueError, IndexError):
        pass
    try:
        return os.sysconf("SC_PAGE_SIZE") * os.sysconf("SC_PHYS_PAGES")
    except (ValueError, OSError, AttributeError):
        return None


def check_memory(chunk_size: int, players: int, card_kinds: int, workers: int, available: int | None = None) -> None:
    """Refuse a plan whose workers, each holding one chunk, would not fit in
    this machine's memory (the out-of-memory killer would end the run
    midway, or the machine would swap for hours)."""
    available = available if available is not None else available_bytes()
    if available is None:
        return
    each = chunk_bytes(chunk_size, players, card_kinds)
    if each * workers <= available:
        return
    per_game = (each - BYTES_PER_WORKER) / chunk_size
    fits = int((available / workers - BYTES_PER_WORKER) / per_game)
    advice = f"--chunk-size {fits:,} or less" if fits >= 1 else "fewer --jobs"
    raise UserError(
        Problem(
            "--chunk-size",
            None,
            "memory",
            f"chunks of {chunk_size:,} games ({players} players, {card_kinds} card kinds) need about "
            f"{_gib(each)} each, {_gib(each * workers)} for {workers} worker(s); this machine has {_gib(available)} "
            f"free: use {advice}",
        )
    )


def _gib(n: float) -> str:
    return f"{n / 2**30:,.1f} GiB"
