"""Progress of every long command: what is running, games done of all,
games/s and the ETA, the same way in run, compare, strength, sweep and strong.

Two halves. In a worker, `ChunkProgress` is an engine's `after_turn` hook
that writes how many of its chunk's games have finished to a small file
(`RUN/.progress/chunk-N`) at most twice a second, so the parent's bar moves
within a chunk and the ETA is right from the first seconds, not only when a
chunk ends. In the parent, `GameBar` draws a rich bar in a terminal and, in a
pipe or a CI log, prints a plain line every few seconds instead of one
cut-off line.
"""

from __future__ import annotations

import contextlib
import json
import os
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import numpy as np
from rich.console import Console

FOLDER = ".progress"  # in the run directory, while chunks are being played


class ChunkProgress:
    """An engine's `after_turn(state, ...)`: how many of the chunk's games are
    done, counting each game by how far it has got (`measure(state)`, (G,) in
    0..1: the game's own `Game.progress`; without one, finished games only),
    written at most every `every` seconds."""

    def __init__(self, path: Path, measure: Callable[[Any], np.ndarray] | None = None, every: float = 0.5) -> None:
        self.path = path
        self.measure = measure
        self.every = every
        self.next = time.monotonic() + every
        path.parent.mkdir(exist_ok=True)

    def __call__(self, st: Any, *_: Any) -> None:
        now = time.monotonic()
        if now < self.next:  # the common case: one clock read a turn, nothing else
            return
        self.next = now + self.every
        if self.measure is not None:
            done = int(np.sum(self.measure(st)))
        else:  # every game state has `running`, (G,) bool
            done = int(st.running.size - np.count_nonzero(st.running))
        tmp = self.path.with_name(f".{self.path.name}.tmp")
        try:
            tmp.write_text(str(done))
            tmp.replace(self.path)
        except OSError:  # progress is a courtesy: a full disk must not fail the chunk
            pass

    def close(self) -> None:
        """Gone before the chunk's result is returned, so the parent never counts a game twice."""
        self.path.unlink(missing_ok=True)


def games_in_flight(out: Path) -> int:
    """Games finished in the chunks still being played (their progress files)."""
    total = 0
    for path in (out / FOLDER).glob("chunk-*"):
        try:
            total += int(path.read_text() or 0)
        except (OSError, ValueError):  # being replaced, or just removed
            continue
    return total


def clear(out: Path) -> None:
    """The progress folder, removed once no chunk is being played."""
    folder = out / FOLDER
    for path in folder.glob("*"):
        path.unlink(missing_ok=True)
    with contextlib.suppress(OSError):  # a chunk still writing (a Dask worker elsewhere): left for next time
        folder.rmdir()


RATES = "rates.json"  # in the user's cache: each command's last rate on this machine, for "about how long"


def _rates_path() -> Path:
    return Path(os.environ.get("XDG_CACHE_HOME") or Path.home() / ".cache") / "balance" / RATES


def remembered_rate(kind: str) -> float | None:
    """The games/s of this machine's last `kind` (a command, a run's scenario); None where none is known."""
    try:
        rate = json.loads(_rates_path().read_text()).get(kind)
    except (OSError, ValueError, AttributeError):
        return None
    return float(rate) if isinstance(rate, int | float) and rate > 0 else None


def remember_rate(kind: str, rate: float) -> None:
    """Keep `kind`'s rate for the next plan line; a cache that cannot be written is no failure."""
    path = _rates_path()
    try:
        rates = json.loads(path.read_text()) if path.is_file() else {}
        rates = rates if isinstance(rates, dict) else {}
        rates[kind] = round(rate, 1)
        path.parent.mkdir(parents=True, exist_ok=True)
        tmp = path.with_name(f".{RATES}.{os.getpid()}.tmp")
        tmp.write_text(json.dumps(rates, indent=1, sort_keys=True))
        tmp.replace(path)
    except (OSError, ValueError):
        pass


def plan_line(label: str, total: int, rate: float | None) -> str:
    """What a command says before its first game: how many games, and about how long at its last rate here."""
    if rate is None:
        return f"planned: {label}, {total:,} games (its time: the ETA below, from its own rate)"
    return (
        f"planned: {label}, {total:,} games, about {_clock(total / rate)} (at {rate:,.0f} games/s, its last rate here)"
    )


class GameBar:
    """`bar(what, done, total)`: the progress callback of a long command. Drawn at
    the first call, so a mistake found before any game is one line with no bar
    above it; `with GameBar(...) as bar:` stops it however the command ends."""

    def __init__(
        self, console: Console, label: str, quiet: bool = False, every: float = 5.0, kind: str | None = None
    ) -> None:
        from rich.progress import BarColumn, Progress, TextColumn, TimeElapsedColumn, TimeRemainingColumn

        self.console = console
        self.label = label
        self.quiet = quiet
        self.every = every  # seconds between two plain lines where the console is not a terminal
        self.terminal = console.is_terminal
        self.progress = Progress(
            TextColumn("{task.description}", markup=False),
            BarColumn(),
            TextColumn("{task.completed:,.0f}/{task.total:,.0f} games"),
            TextColumn("{task.fields[rate]}"),
            TimeElapsedColumn(),
            TextColumn("ETA"),
            TimeRemainingColumn(),
            console=console,
        )
        self.task = self.progress.add_task(label, total=None, rate="")
        self.kind = kind or label  # whose last rate says "about how long" (progress.RATES)
        self.started: float | None = None
        self.first = 0  # games already done at the first call (a resumed run's): not part of the rate
        self.printed = -float("inf")  # the first call prints: a log shows at once what started
        self.last: tuple[str, int, int] | None = None
        self.shown: tuple[str, int, int] | None = None  # the last one printed, where a log gets lines

    def __call__(self, what: str, done: int, total: int) -> None:
        if self.quiet:
            return
        now = time.perf_counter()
        if self.started is None:
            self.started, self.first = now, done
            if total > done:  # before the first game: how many, about how long
                self.console.print(plan_line(self.label, total - done, remembered_rate(self.kind)), soft_wrap=True)
            if self.terminal:
                self.progress.start()
        elif self.last is not None and done < self.last[1]:  # a new phase counted from 0 (strong: the ladder)
            self.started, self.first = now, done
        rate = (done - self.first) / max(now - self.started, 1e-9)
        description = f"{self.label}: {what}" if what else self.label
        self.last = (description, done, total)
        if self.terminal:
            self.progress.update(
                self.task, description=description, completed=done, total=total, rate=f"{rate:,.0f} games/s"
            )
        elif now - self.printed >= self.every:
            self.printed, self.shown = now, self.last
            self.console.print(self.line(description, done, total, rate, now - self.started), soft_wrap=True)

    @staticmethod
    def line(description: str, done: int, total: int, rate: float, elapsed: float) -> str:
        """One readable line for a log: what, games done of all (share), games/s, elapsed and ETA."""
        share = f" ({100 * done / total:.0f}%)" if total else ""
        left = (total - done) / rate if rate > 0 and total >= done else None
        eta = f", ETA {_clock(left)}" if left is not None else ""
        return f"{description}: {done:,}/{total:,} games{share}, {rate:,.0f} games/s, {_clock(elapsed)} elapsed{eta}"

    def __enter__(self) -> GameBar:
        return self

    def __exit__(self, *exc: object) -> None:
        if self.started is None or self.quiet:
            return
        elapsed = time.perf_counter() - self.started
        if exc[0] is None and self.last is not None and elapsed > 1 and self.last[1] > self.first:
            remember_rate(self.kind, (self.last[1] - self.first) / elapsed)
        if self.terminal:
            self.progress.stop()
        elif self.last is not None and self.last != self.shown and exc[0] is None:  # the last figure, once
            description, done, total = self.last
            rate = (done - self.first) / max(time.perf_counter() - self.started, 1e-9)
            self.console.print(
                self.line(description, done, total, rate, time.perf_counter() - self.started), soft_wrap=True
            )


def _clock(seconds: float) -> str:
    seconds = int(round(seconds))
    return f"{seconds // 3600}:{seconds // 60 % 60:02d}:{seconds % 60:02d}"
