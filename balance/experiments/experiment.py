"""Games played in memory for experiments that compare many variants of a
scenario on common random numbers (`balance tune`): each task is one chunk of
one variant, and what comes back is one seat's result in each of its games,
not a run directory.

Chunk c of an experiment plays the games c x size .. (c + 1) x size - 1 of
the seed, each keyed by its id (games/chance.py; so the seat rotation too):
every variant that plays chunk c plays the very same deals, and two variants'
results pair game by game.
"""

from __future__ import annotations

import math
import os
from collections.abc import Callable, Iterable
from dataclasses import dataclass

import numpy as np
import polars as pl
import pyarrow as pa
import pyarrow.compute as pc

from ..analysis.strength import eligible_seats
from ..games import get_game
from ..games.chance import Streams
from ..runner import _prepared, connect_dask
from ..scenario import Scenario
from ..seeding import bonus_seat

BONUS_SEAT = None  # Task.who: the seat a strength experiment gives its item (seeding.bonus_seat), whoever sits there


@dataclass(frozen=True)
class Task:
    """One chunk of one variant: `who` is the bot whose seat is measured, or
    BONUS_SEAT: the seat the strength experiment gives its item in each game."""

    key: int  # the caller's name for the variant
    scenario: Scenario
    who: str | None
    seed: int
    chunk: int
    size: int
    start: int | None = None  # the first game's id, where tasks are not whole chunks of one size (strength's)

    @property
    def first(self) -> int:
        return self.chunk * self.size if self.start is None else self.start


def play_task(task: Task) -> tuple[int, int, np.ndarray]:
    """(key, chunk, (size,) bool: did `who` win each game, in game order). In a worker."""
    scenario = task.scenario
    game = get_game(scenario.model.game)
    first = task.first
    streams = Streams(task.seed, first, task.size)  # keyed by the games' ids: runs extend
    # (who won is all a task reads: no card events, logged_chunk's `cards`)
    tables = game.play_chunk(_prepared(scenario), scenario, task.chunk, first, task.size, streams, cards=False)
    players = tables["players"]
    if task.who is BONUS_SEAT:
        ids = np.arange(first, first + task.size)
        legends = legend_bots(scenario)
        frame = pl.from_arrow(players.select(["game_id", "seat", "bot"])) if legends else None
        eligible = eligible_seats(frame, ids, scenario.model.players, legends) if legends else None
        seat = bonus_seat(task.seed, ids, scenario.model.players, eligible)
        game_ids = players["game_id"].to_numpy()
        wanted = seat[game_ids - first]
        mine = players.filter(pa.array(players["seat"].to_numpy() == wanted))
    else:
        mine = players.filter(pc.equal(players["bot"], task.who))
    order = np.argsort(mine["game_id"].to_numpy(), kind="stable")
    won = mine["won"].to_numpy(zero_copy_only=False)[order]
    if len(won) != task.size:  # the measured bot sits in exactly one seat of every game
        raise ValueError(f"{task.who!r} sits in {len(won)} seats of {task.size} games")
    return task.key, task.chunk, won.astype(bool)


def legend_bots(scenario: Scenario) -> frozenset[str]:
    """The field's bots that are a game's own automata (Heat's Legends): no deck, never given an item."""
    return legend_names(scenario.model.game, scenario.model.bot_profiles, scenario.doc)


def legend_names(game_name: str, bot_profiles: dict | None, doc=None) -> frozenset[str]:
    """The profiles of a game (with a scenario's `bot_profiles`) that are Legends."""
    game = get_game(game_name)
    if game.profiles is None:
        return frozenset()
    profiles = game.profiles(bot_profiles or {}, doc)
    return frozenset(name for name, p in profiles.items() if getattr(p, "legend", False))


def play(
    tasks: list[Task], jobs: int | None, on_task: Callable[[Task], None] | None = None, scheduler: str | None = None
) -> Iterable:
    """Each task's (key, chunk, wins), in any order, over `jobs` processes, or
    on the Dask cluster at `scheduler` (the same wins: a game is keyed by its
    seed and id, games/chance.py, wherever it is played)."""
    import joblib

    jobs = jobs or os.cpu_count() or 1
    by_id = {(t.key, t.chunk): t for t in tasks}
    client = connect_dask(scheduler) if scheduler else None
    try:
        if client is not None:
            with joblib.parallel_config(backend="dask"):
                results = joblib.Parallel(return_as="generator_unordered")(joblib.delayed(play_task)(t) for t in tasks)
        elif jobs == 1 or len(tasks) == 1:
            results = map(play_task, tasks)
        else:
            results = joblib.Parallel(n_jobs=jobs, backend="loky", return_as="generator_unordered")(
                joblib.delayed(play_task)(t) for t in tasks
            )
        for key, chunk, won in results:
            if on_task is not None:
                on_task(by_id[(key, chunk)])
            yield key, chunk, won
    finally:
        if client is not None:
            client.close()


@dataclass(frozen=True)
class Estimate:
    """A win rate from `n` games, with its 95% Wilson interval."""

    rate: float
    low: float
    high: float
    n: int


def estimate(won: np.ndarray) -> Estimate:
    from ..analysis.stats import wilson

    n = len(won)
    wins = int(won.sum())
    low, high = wilson(np.array([wins]), np.array([n]))
    return Estimate(wins / n if n else math.nan, float(low[0]), float(high[0]), n)


def paired(a: np.ndarray, b: np.ndarray) -> Estimate:
    """The difference of two win rates on the same games (a - b), with the 95%
    normal interval of the mean of the game-by-game differences."""
    d = a.astype(np.float64) - b.astype(np.float64)
    n = len(d)
    mean = float(d.mean())
    half = 1.96 * float(d.std(ddof=1)) / math.sqrt(n) if n > 1 else math.inf
    return Estimate(mean, mean - half, mean + half, n)
