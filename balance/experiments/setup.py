"""What every experiment declares the same way: the options it shares with the
others (games, seed, jobs, output folder, --force, --resume, backend), its
output folder and the seeds of its search rounds and of its held-out
confirmation.

An experiment is built on runs: compare, strength, sweep and fit play runs
with the runner; tune and strong's ladder play chunks in memory
(experiment.py). Each takes an `ExperimentOptions` for what they share and
its own arguments for what is its own, reports progress as
`on_progress(what, games done, games in all)` (progress.GameBar draws it),
and opens its output folder with `output_folder`.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

import numpy as np

from ..errors import Problem, UserError
from ..folder_lock import LOCK, hold_folder
from ..logs import read_manifest
from ..runner import RunOptions, check_backend, is_run_manifest, make_run_dir

HELD_OUT = 10**9  # round_seed's stream of every held-out confirmation: past any search round


@dataclass(frozen=True)
class ExperimentOptions:
    """The options every experiment takes (the CLI declares them once: cli.py's
    GamesOption ... ResumeOption)."""

    games: int | None = None  # games per run, candidate or item (default: the scenario's)
    seed: int | None = None  # the root seed (default: the scenario's)
    jobs: int | None = None  # worker processes (default: all cores)
    out: Path | None = None  # the output folder (default: runs/<scenario>-<command>)
    force: bool = False  # replace what the folder holds
    resume: bool = False  # continue what the folder holds, where the experiment keeps a state
    backend: str = "loky"  # "dask": the games on the cluster at `scheduler`, with the same results
    scheduler: str | None = None
    fixed_out: bool = False  # the folder is the command's own (RUN/strength/): no --out to choose another

    def runs(self, **changes: Any) -> RunOptions:
        """The runner's options for a run this experiment plays."""
        base = RunOptions(
            games=self.games, seed=self.seed, jobs=self.jobs, backend=self.backend, scheduler=self.scheduler
        )
        return replace(base, **changes)

    @property
    def cluster(self) -> str | None:
        """The Dask scheduler that in-memory chunks go to (experiment.play), if any."""
        return self.scheduler if self.backend == "dask" else None

    def check(self) -> None:
        """Jobs, backend and scheduler, before any game."""
        check_backend(self.runs(), 1)


def output_folder(
    options: ExperimentOptions,
    name: str,
    command: str,
    state: str | None = None,
    folder: str | None = None,
    result: str | None = None,
) -> Path:
    """The experiment's folder (options.out, default runs/<name>-<folder or command>),
    made, after refusing to mix or lose a result: a folder that holds
    something is replaced only with --force; one that holds the `state` file
    of a search is continued with --resume (search_state.open_state reads
    it); `result`: the file a finished one holds (a folder without it holds an
    unfinished one, said so). A run of balance run is never replaced by
    another command's --force. Checked before any game."""
    out = Path(options.out) if options.out else Path("runs") / f"{name}-{folder or command}"
    if out.exists() and not out.is_dir():
        remove = "remove it" if options.fixed_out else "choose another --out"
        raise UserError(Problem(str(out), None, "--out", f"is a file, not a folder; {remove}"))
    if options.resume and state is None:
        raise UserError(Problem("--resume", None, "resume", f"balance {command} keeps no state to resume"))
    make_run_dir(out)
    hold_folder(out)  # before anything in it is judged or replaced: another process may be writing it
    holds = any(p.name != LOCK for p in out.iterdir())
    resumable = state is not None and (out / state).is_file()
    if options.resume and not resumable and holds:
        raise UserError(Problem(str(out), None, "--resume", f"holds no {command} to resume; use --force to start over"))
    if holds and is_run_manifest(read_manifest(out)):
        # a run of balance run (the --out of another command, or a mistyped path): --force would delete it
        raise UserError(
            Problem(str(out), None, "--out", f"holds a run of balance run, not a {command}; choose another --out")
        )
    if holds and not options.force and not options.resume:
        # its own games, but not its result: an unfinished one (other files are just "a result" to keep)
        unfinished = result is not None and not (out / result).is_file() and (out / "baseline").is_dir()
        elsewhere = "" if options.fixed_out else ", or choose another --out"
        if resumable:
            words = f"holds a {command}: --resume to continue it, --force to start over"
        elif unfinished:
            words = f"holds an unfinished {command} (no {result}): add --force to start it over{elsewhere}"
        else:
            words = f"already holds a {command} result: add --force to replace it{elsewhere}"
        raise UserError(Problem(str(out), None, "--out", words))
    return out


def database_takes(game: Any, scenario: Any, values: dict[str, Any]) -> bool:
    """Whether the game takes the scenario's database with these values set (a search never plays one it refuses)."""
    try:
        game.prepare(scenario.with_overrides(values, scenario.model.name))
    except UserError:
        return False
    return True


def round_seed(seed: int, round_: int) -> int:
    """The seed of a search round's games (tune's and fit's rounds; the
    confirmation is round HELD_OUT): rounds never share a game."""
    return int(np.random.SeedSequence([seed, round_]).generate_state(1, np.uint64)[0])


def held_out_seed(seed: int) -> int:
    """The seed of the held-out confirmation: games no search round played."""
    return round_seed(seed, HELD_OUT)
