"""What every compiled engine shares (docs/engine.md): the rules module
compiled once per machine (and said so on the console), the compiled tables
built once per process, and the batch played in slices, one game at a time
inside the compiled code, with room for card events and a watched game's
words that grows when a game needs more (the game is played again from its
setup: a game is a function of its id, so it plays the same again).

Each game's package (`balance/games/GAME/compiled/`) keeps its own rules,
tables, structures and trace text; its `simulate` lays out the state and asks
`play_in_slices` to play it."""

from __future__ import annotations

import importlib
import importlib.util
import os
import sys
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np

from .events import Events

# Progress is told after the first few games, then after slices twice as long each time, up to about
# PROGRESS_SECONDS of games at the rate so far: a small chunk's bar still moves within it, a large one's
# engine is entered a few times a second, not once every few games.
PROGRESS_FIRST, PROGRESS_SECONDS = 8, 0.1


class CompiledRules:
    """A game's compiled rules module (`PACKAGE.rules`, whose entry is
    `play_games`): numba compiles it, or loads it from its cache, on first use,
    not on import, and the first use on a machine says so on the console."""

    def __init__(self, package: str, game: str, about: str) -> None:
        self.package, self.game, self.about = package, game, about
        self._said = False

    def load(self) -> Any:
        if not self._said:
            if not self.is_compiled():
                print(
                    f"compiling the {self.game} engine, once on this machine: {self.about}", file=sys.stderr, flush=True
                )
            self._said = True
        return importlib.import_module(f"{self.package}.rules")

    def is_compiled(self) -> bool:
        """Whether numba's cache holds the rules as they are now: an index no
        older than rules.py, beside the sources (a file test, numba not
        imported), or where numba keeps it when the sources' folder is not
        writable (an installed package) or NUMBA_CACHE_DIR says. An edited
        rules.py (or a pull that changed it) reads as not compiled, so the
        compile happens once, up front, not in every worker."""
        if os.environ.get("NUMBA_DISABLE_JIT", "0") not in ("", "0"):
            return True  # the rules as plain Python (debugging): nothing to compile
        source = Path(importlib.util.find_spec(f"{self.package}.rules").origin)
        beside = source.parent / "__pycache__"
        if not os.environ.get("NUMBA_CACHE_DIR") and _fresh_index(beside, source):
            return True
        rules = importlib.import_module(f"{self.package}.rules")
        return _fresh_index(Path(rules.play_games._cache._cache_path), source)


def _fresh_index(folder: Path, source: Path) -> bool:
    modified = source.stat().st_mtime
    return any(index.stat().st_mtime >= modified for index in folder.glob("rules.play_games-*.nbi"))


class TablesCache:
    """The compiled tables of (tables, bots, players), built once per process:
    the runner's workers play many chunks of one scenario. A few are kept.
    `build(tables, bots, players)` gives the arrays of the engine's `struct` (its Tables structure)."""

    def __init__(self, struct: Any, build: Callable[[Any, Any, int], tuple], keep: int = 8) -> None:
        self.struct, self.build, self.keep = struct, build, keep
        self._kept: dict[tuple[int, int, int, Any], tuple[Any, Any, Any]] = {}

    def get(self, tables: Any, bots: Any, players: int, variant: Any = None) -> Any:
        """`variant`, where given, is passed on to build (and kept apart): Heat's card a strength bonus adds."""
        key = (id(tables), id(bots), players, variant)
        hit = self._kept.get(key)
        if hit is None or hit[0] is not tables or hit[1] is not bots:
            if len(self._kept) >= self.keep:
                self._kept.clear()
            extra = () if variant is None else (variant,)
            hit = self._kept[key] = (tables, bots, self.struct(*self.build(tables, bots, players, *extra)))
        return hit[2]


@dataclass
class Room:
    """Where the compiled rules write: the card events (game, seat, card,
    event, turn, pick, price; `written` counts them, past the end when a game
    runs out of room) and, for a watched game, its trace tables (each with its
    count, counted past the end the same way)."""

    events: np.ndarray
    written: np.ndarray = field(default_factory=lambda: np.zeros(1, np.int64))
    traces: list[np.ndarray] = field(default_factory=list)
    counts: list[np.ndarray] = field(default_factory=list)

    @classmethod
    def make(cls, games: int, per_game: int, logging: bool, traces: list[tuple[int, int]]) -> Room:
        """Room for `games` games of about `per_game` events each (none when not logging), and one trace
        table of (records, width) each (1 x width when no game is watched: pass records 1)."""
        return cls(
            np.zeros((games * per_game if logging else 1, 7), np.int32),
            traces=[np.zeros(shape, np.int64) for shape in traces],
            counts=[np.zeros(1, np.int64) for _ in traces],
        )

    def trace_overflowed(self) -> bool:
        """A watched game said more than its trace tables hold: make them larger (the game is played again)."""
        if all(int(n[0]) <= len(t) for t, n in zip(self.traces, self.counts, strict=True)):
            return False
        for i, (t, n) in enumerate(zip(self.traces, self.counts, strict=True)):
            self.traces[i] = np.zeros((2 * max(len(t), int(n[0])), t.shape[1]), np.int64)
            n[:] = 0
        return True

    def hand_over(self, events: Events | None) -> None:
        """The card events written, to the run's log."""
        if events is not None:
            cols = self.events[: int(self.written[0])]
            events.add_coded(cols[:, 0], cols[:, 1], cols[:, 2], cols[:, 3], cols[:, 4], cols[:, 5], cols[:, 6])


def watched(rec: Any) -> tuple[int, bool]:
    """(the game a `balance trace` Recorder watches, -1 none; whether it says hands and draws too)."""
    watch = rec.watch if rec is not None and rec.on else -1
    return watch, watch >= 0 and bool(rec.verbose)


class Checker:
    """The rules checker's finding, as the compiled rules keep it (`finding`:
    [check after every turn?, the first rule broken (1-based, 0 none), game,
    and two numbers the game names, e.g. round and seat]), told to `broken` as
    a sentence."""

    def __init__(self, broken: list[str] | None) -> None:
        self.broken = broken
        self.finding = np.zeros(5, np.int64)
        self.finding[0] = broken is not None

    def tell(self, rules: tuple[str, ...], where: Callable[[int, int, int], str]) -> None:
        """`where(game, a, b)` names the place: "game 3, round 12, after seat 1's turn"."""
        if self.finding[1]:
            rule, game, a, b = (int(v) for v in self.finding[1:])
            self.broken.append(f"{rules[rule - 1]} ({where(game, a, b)})")


def play_in_slices(
    play: Callable[[Room, int, int], int],
    games: int,
    room: Room,
    fresh: Callable[[int], None],
    progress: Callable[[], None] | None = None,
) -> None:
    """Play games 0..games-1: `play(room, start, stop)` plays start..stop-1 in
    compiled code and returns the first game whose events did not fit (stop
    when all did), its events unwritten; `fresh(g)` puts game g's rows back as
    an empty state has them. `progress()`, if given, is called after each
    slice (PROGRESS_FIRST games, then slices twice as long each time, up to
    about PROGRESS_SECONDS of games) and at the end."""
    game, slice_games = 0, PROGRESS_FIRST
    while game < games:
        stop = games if progress is None else min(games, game + slice_games)
        started = time.perf_counter()
        before = int(room.written[0])
        done = play(room, game, stop)
        if room.trace_overflowed():  # a long watched game: again, with room for its words
            room.written[:] = before
            for g in range(game, stop):
                fresh(g)
            continue
        if done < stop:  # the event buffer ran out in this game: more room, and the game again from its setup
            room.events = np.concatenate([room.events, np.zeros_like(room.events)])
            fresh(done)
        elif progress is not None:
            progress()
            rate = (stop - game) / max(time.perf_counter() - started, 1e-6)
            slice_games = min(2 * slice_games, max(PROGRESS_FIRST, int(rate * PROGRESS_SECONDS)))
        game = done


def fresh_rows(st: Any, g: int, empty: Any, names: tuple[str, ...]) -> None:
    """Game g's rows of every state array as `empty` (a one-game state as the engine makes it) has them."""
    for name in names:
        getattr(st, name)[g] = getattr(empty, name)[0]
