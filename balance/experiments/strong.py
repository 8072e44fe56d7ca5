"""Strong play (issue 18): every figure of a run is a statement about its bots,
so `balance strong RUN` plays the same scenario again with the game's `tuned`
profile in every seat (Legends, the game's own automata, stay), into
RUN/strong/, and measures a skill ladder: one seat of each profile against
`tuned` in all the others, seats rotated, on common random numbers.

The report reads both and shows the headline figures side by side, so a
designer sees which findings survive better play.
"""

from __future__ import annotations

import json
import math
from collections.abc import Callable
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

import numpy as np
import polars as pl

from ..errors import Problem, UserError
from ..games import get_game
from ..printable import command_line
from ..report.page import write_csv
from ..runner import RunResult, scenario_of_run
from ..runner import run as run_scenario
from ..scale import scaled
from ..scenario import BotPool, Scenario
from ..units import from_units, in_units
from .experiment import Task, estimate, legend_bots, play
from .setup import ExperimentOptions

TUNED = "tuned"
FOLDER = "strong"  # RUN/strong/: a run of its own, beside the run's tables
LADDER = "ladder.csv"  # in RUN/strong/
MAX_LADDER_GAMES = 10**7  # per profile; held in memory as one bool a game
EXPLOIT = "exploit.json"  # in RUN/strong/exploit/: the best challenger a fresh tune found against tuned
ORIGIN = "origin.json"  # in RUN/strong/: the run it belongs to (run_id), the profile used


@dataclass
class StrongResult:
    out: Path
    run: RunResult
    ladder: pl.DataFrame  # one row per profile: bot, kind, games, wins, win_rate, ci_low, ci_high


def strong_field(scenario: Scenario, first: str = TUNED) -> list[str]:
    """The scenario's seats with `tuned` in each that is not a Legend; the first
    such seat gets `first` (a rung of the ladder)."""
    legends = legend_bots(scenario)
    m = scenario.model
    seats = [TUNED] * m.players if isinstance(m.bots, BotPool) else list(m.bots)
    out, placed = [], False
    for bot in seats:
        if bot in legends:
            out.append(bot)
        else:
            out.append(first if not placed else TUNED)
            placed = True
    return out


def _with_bots(scenario: Scenario, bots: list[str], name: str, rotate: bool | None = None) -> Scenario:
    update: dict[str, Any] = {"bots": bots, "name": name}
    if rotate is not None:
        update["seat_rotation"] = rotate
    model = scenario.model.model_copy(update=update)
    return Scenario(scenario.source, model, scenario.cards_path, scenario.doc, scenario.cards_doc)


def rungs(scenario: Scenario) -> list[str]:
    """Every profile the game and the scenario know, but `tuned` and Legends:
    `random` (the floor) first, then the hand profiles in the order defined."""
    game = get_game(scenario.model.game)
    names = list(game.profiles(scenario.model.bot_profiles, scenario.doc))
    legends = legend_bots(scenario)
    return sorted((n for n in names if n != TUNED and n not in legends), key=lambda n: n != "random")


def check_tuned(scenario: Scenario) -> None:
    game = get_game(scenario.model.game)
    if TUNED not in game.profiles(scenario.model.bot_profiles, scenario.doc):
        raise UserError(
            scenario.doc.problem(
                ("bot_profiles",),
                f"{scenario.model.game} has no `tuned` profile: add one under bot_profiles (balance tune makes it)",
            )
        )


def ladder(
    scenario: Scenario,
    games: int,
    seed: int,
    jobs: int | None,
    on_task: Callable[[Task], None] | None = None,
    scheduler: str | None = None,
) -> pl.DataFrame:
    """One seat of each rung against `tuned` everywhere else, seats rotated;
    every rung plays the same deals (chunk c of seed), so rungs pair game by game
    (on the Dask cluster at `scheduler`, if given)."""
    size = min(scenario.model.chunk_size, games)
    chunks = math.ceil(games / size)
    names = rungs(scenario)
    variants = [
        _with_bots(scenario, strong_field(scenario, name), f"{scenario.name}-ladder-{i}", rotate=True)
        for i, name in enumerate(names)
    ]
    tasks = [Task(i, v, names[i], seed, c, size) for i, v in enumerate(variants) for c in range(chunks)]
    won: dict[int, dict[int, np.ndarray]] = {i: {} for i in range(len(names))}
    for key, chunk, w in play(tasks, jobs, on_task, scheduler):
        won[key][chunk] = w
    rows = []
    for i, name in enumerate(names):
        e = estimate(np.concatenate([won[i][c] for c in range(chunks)]))
        kind = "floor" if name == "random" else "hand"
        rows.append(
            {"bot": name, "kind": kind, "games": e.n, "wins": round(e.rate * e.n), "win_rate": e.rate}
            | {"ci_low": e.low, "ci_high": e.high}
        )
    return pl.DataFrame(rows)


def tuned_field(scenario: Scenario, name: str) -> Scenario:
    """The scenario with `tuned` in every seat but Legends (the tuned field), named `name`."""
    return _with_bots(scenario, strong_field(scenario), name)


def exploit_field(scenario: Scenario) -> Scenario:
    """The tuned field a fresh tune of `tuned` (its first seat) tries to beat (balance tune --exploit)."""
    return tuned_field(scenario, f"{scenario.name}-exploit")


def exploit(scenario: Scenario, options: ExperimentOptions, budget: int, out: Path, on_progress=None) -> dict:
    """Exploitability: a fresh tune of a `tuned` copy in the all-tuned field,
    with `budget` games, confirmed on held-out games against `tuned` itself;
    its held-out gain (and interval) is how much a challenger found beats
    `tuned` by. Written to out/exploit.json for the report."""
    from .tune import TuneOptions, tune

    tuned = tune(
        exploit_field(scenario),
        TuneOptions(
            jobs=options.jobs,
            out=out,
            force=True,
            backend=options.backend,
            scheduler=options.scheduler,
            bot=TUNED,
            budget=budget,
            command=f"balance tune --exploit (budget {budget:,})",
        ),
        on_progress,
    )
    figures = {
        "budget": budget,
        "gain": tuned.gain.rate,
        "gain_low": tuned.gain.low,
        "gain_high": tuned.gain.high,
        "challenger": tuned.tuned_rate.rate,
        "challenger_low": tuned.tuned_rate.low,
        "challenger_high": tuned.tuned_rate.high,
        "games": tuned.confirm_games,
        "search_games": tuned.games,
    }
    (out / EXPLOIT).write_text(json.dumps(figures, indent=1))
    return figures


def _check_folder(out: Path, options: ExperimentOptions) -> None:
    """RUN/strong/ (the command's own folder: no --out to choose) refused in
    one line that names what finishes or replaces what it holds."""
    if options.force or options.resume or not (out / "manifest.json").exists():
        return
    if (out / LADDER).is_file():
        raise UserError(Problem(str(out), None, "strong", "already holds a strong result: add --force to replace it"))
    raise UserError(
        Problem(
            str(out), None, "strong", "holds an unfinished strong run: --resume to finish it, --force to start over"
        )
    )


def play_strong(
    run_dir: str | Path,
    options: ExperimentOptions,
    ladder_games: int,
    on_progress: Callable[[str, int, int], None] | None = None,
    measure: int | None = None,
    exploit_budget: int = 0,
    decided: float = 1.0,
) -> StrongResult:
    """RUN/strong/: the scenario of the run in `run_dir` with `tuned` seats
    (`options.games` of them, default the run's; --force and --resume as
    `balance run`'s, the folder being a run), then the ladder; with `measure`
    (a strength budget), every item in the tuned field, until `decided` of them are classified.
    `on_progress(what, games done, games in all)` over both."""

    options.check()
    ladder_games = scaled(ladder_games, 8)  # BALANCE_SCALE (the printed-commands test): a shorter ladder
    run_dir = Path(run_dir)
    scenario, manifest = scenario_of_run(run_dir)
    check_tuned(scenario)
    if not 8 <= ladder_games <= MAX_LADDER_GAMES:
        raise UserError(
            Problem(
                "--ladder-games",
                None,
                "ladder-games",
                f"must be between 8 and {MAX_LADDER_GAMES:,}, got {ladder_games}",
            )
        )
    strong = tuned_field(scenario, f"{scenario.name}-strong")
    out = run_dir / FOLDER
    _check_folder(out, options)
    sub = options.runs(
        seed=options.seed if options.seed is not None else scenario.model.seed,
        out=out,
        resume=options.resume,
        force=options.force,
        finish=command_line("balance", "strong", run_dir, "--resume"),
    )
    size = min(scenario.model.chunk_size, ladder_games)
    on_ladder = len(rungs(scenario)) * math.ceil(ladder_games / size) * size
    field_games = [options.games or scenario.model.games]  # the tuned field's, known once the run has started
    # the phases after the ladder, counted in the bar's total from the start, so that its ETA is the
    # command's, not the phase's (the exploit check: tune's budget and its held-out confirmation)
    exploit_games = [exploit_budget + max(4096, exploit_budget // 10) if exploit_budget else 0]  # then as played
    later = exploit_games[0] + (measure or 0)

    def field_progress(done: int, total: int) -> None:
        field_games[0] = total
        if on_progress:
            on_progress("tuned field", done, total + on_ladder + later)

    result = run_scenario(strong, sub, field_progress)
    seed = result.manifest["seed"]
    played = [0]

    def on_task(task: Task) -> None:
        played[0] += task.size
        if on_progress:
            on_progress("skill ladder", field_games[0] + played[0], field_games[0] + on_ladder + later)

    table = ladder(scenario, ladder_games, seed, options.jobs, on_task, options.cluster)
    write_csv(in_units(table), out / LADDER)
    profile = get_game(scenario.model.game).profiles(scenario.model.bot_profiles, scenario.doc)[TUNED]
    origin = {
        "run_id": manifest.get("run_id"),
        "strong_run_id": result.manifest.get("run_id"),
        "ladder_games": ladder_games,
        "seed": seed,
        "tuned": json.loads(profile.model_dump_json()) if hasattr(profile, "model_dump_json") else None,
    }
    (out / ORIGIN).write_text(json.dumps(origin, indent=1))
    (out / "exploit" / EXPLOIT).unlink(
        missing_ok=True
    )  # a challenger found against another strong run is not this one's
    if exploit_budget:
        start = field_games[0] + on_ladder

        def exploiting(what: str, done: int, total: int) -> None:
            exploit_games[0] = max(exploit_games[0], total)
            if on_progress:
                on_progress(f"best challenger: {what}", start + done, start + exploit_games[0] + (measure or 0))

        exploit(scenario, options, exploit_budget, out / "exploit", exploiting)
    if measure is not None:  # every item's causal strength in the tuned field (RUN/strong/strength/)
        from .strength import strength

        before = field_games[0] + on_ladder + exploit_games[0]

        def measured(what: str, done: int, total: int) -> None:
            if on_progress:
                on_progress(f"strength in the tuned field: {what}", before + done, before + total)

        played = replace(
            strong, model=strong.model.model_copy(update={"seed": seed, "games": result.manifest["games"]})
        )
        strength(
            played,
            None,
            ExperimentOptions(jobs=options.jobs, out=out / "strength", force=True),
            True,
            measured,
            measure,
            decided=decided,
        )
    return StrongResult(out, result, table)


def read_strong(run_dir: str | Path, run_id: str | None) -> tuple[Path | None, pl.DataFrame | None, str]:
    """(the strong run's folder, its ladder, why not) for the report: None and a
    reason where there is none, or it belongs to another run or is not whole."""
    from ..logs import read_manifest

    out = Path(run_dir) / FOLDER
    origin_path = out / ORIGIN
    if not origin_path.is_file():
        return None, None, "missing"
    try:
        origin = json.loads(origin_path.read_text())
        manifest = read_manifest(out)
        ladder_table = from_units(pl.read_csv(out / LADDER))
    except (OSError, ValueError, pl.exceptions.PolarsError):
        return None, None, "unreadable"
    if not isinstance(origin, dict) or origin.get("run_id") != run_id:
        return None, None, "stale"
    if (
        manifest is None
        or manifest.get("run_id") != origin.get("strong_run_id")
        or manifest.get("status") != "complete"
    ):
        return None, None, "incomplete"
    return out, ladder_table, ""
