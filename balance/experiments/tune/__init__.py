"""`balance tune`: a bot profile's values searched for that bot's win rate in
a scenario's field, on common random numbers, then confirmed on fresh seeds.

Each round samples a population of profiles around the search's centre
(search.Distribution: the cross-entropy method), races them by successive
halving on the same games (every candidate of a round plays the same chunks:
pairs of candidates differ only by their values), moves the distribution
towards the survivors, and records the centre's win rate (which plays every
chunk of the round, never eliminated: the learning curve). At the end the
final centre plays the starting profile on games no round has seen, paired,
and the tune reports a gain only where that difference's interval is above 0.
"""

from __future__ import annotations

import json
import math
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np

from ...errors import Problem, UserError, did_you_mean
from ...games import get_game
from ...runner import RunOptions, resolve_scenario
from ...scenario import BotPool, Scenario, check_scenario
from ..experiment import Estimate, Task, estimate, paired, play
from ..search_state import open_state, save_state
from ..setup import ExperimentOptions, held_out_seed, output_folder, round_seed
from .output import write_outputs
from .search import Distribution
from .space import check_bot, profile_values, search_space, start_values

STATE = "tune.json"  # the tune's state after each round: what --resume continues from


@dataclass(frozen=True)
class TuneOptions(ExperimentOptions):
    """A tune's own settings besides what every experiment takes (games is unused: games_per_eval)."""

    bot: str = ""
    games_per_eval: int = 256  # games in one chunk: what every candidate of a round plays first
    budget: int = 200_000  # games the search may spend (the confirmation comes on top)
    population: int = 16  # candidates a round
    confirm_games: int | None = None  # the held-out confirmation's games (default: a tenth of the budget, >= 4,096)
    command: str = ""  # how the tune was asked for, written beside the tuned profile
    fixed: tuple[str, ...] = ()  # values held at the start's (names as in candidates.csv, e.g. weights.drive)


@dataclass
class TuneResult:
    out: Path
    bot: str
    start: dict[str, Any]  # the starting values (param name -> value)
    tuned: dict[str, Any]  # the final centre's values
    profile: dict[str, Any]  # the tuned profile, whole (for bot_profiles)
    gain: Estimate  # held-out: tuned minus start, paired
    tuned_rate: Estimate  # held-out win rates
    start_rate: Estimate
    rounds: int
    population: int
    games: int  # games the search spent
    confirm_games: int
    curve: list[dict[str, Any]] = field(default_factory=list)  # one row per round
    candidates: list[dict[str, Any]] = field(default_factory=list)  # every candidate evaluated
    index: Path | None = None  # the page

    @property
    def significant(self) -> bool:
        return self.gain.low > 0


# --- the field the tuned bot plays in -------------------------------------------------------


def candidate_name(bot: str, known: list[str]) -> str:
    name = f"{bot}_tuned"
    while name in known:
        name += "_"
    return name


def field_with(scenario: Scenario, bot: str, name: str, profile: dict[str, Any]) -> Scenario:
    """The scenario's field with the first seat of `bot` given to `name`, a
    profile of these values (the other seats, `bot`'s too, as they were;
    with seat rotation the seat moves round the table game by game)."""
    m = scenario.model
    bots = list(m.bots)
    bots[bots.index(bot)] = name
    model = m.model_copy(update={"bots": bots, "bot_profiles": {**m.bot_profiles, name: profile}})
    return Scenario(scenario.source, model, scenario.cards_path, scenario.doc, scenario.cards_doc)


# --- the tune ---------------------------------------------------------------------------------


def tune(
    path: str | Path | Scenario, options: TuneOptions, on_progress: Callable[[str, int, int], None] | None = None
) -> TuneResult:
    """Tune `options.bot` in the scenario at `path` (or one already loaded);
    see the module's docstring. A tune whose state holds its result (it ran to
    the end) gives that result again on --resume without playing.
    `on_progress(what, games done, games in all)`: what names the round and
    the centre's win rate so far, or the confirmation."""
    scenario = resolve_scenario(path, RunOptions(seed=options.seed))
    game = get_game(scenario.model.game, scenario.source, scenario.doc.line_of(("game",)))
    if isinstance(scenario.model.bots, BotPool):
        raise UserError(scenario.doc.problem(("bots",), "balance tune needs one bot per seat, not a pool"))
    profiles = game.profiles(scenario.model.bot_profiles, scenario.doc)
    check_bot(options.bot, list(profiles), list(scenario.model.bots), scenario.source)
    _check_numbers(options)
    options.check()
    start_profile = profiles[options.bot]
    params = search_space(game.profile_model, start_profile)
    unknown = [name for name in options.fixed if name not in {p.name for p in params}]
    if unknown:
        known = ", ".join(p.name for p in params)
        raise UserError(
            Problem(
                "--fix",
                None,
                "fix",
                f"{unknown[0]!r} is not a value of {options.bot}"
                f"{did_you_mean(unknown[0], [p.name for p in params])} (known: {known})",
            )
        )
    params = [p for p in params if p.name not in options.fixed]
    if not params:
        raise UserError(Problem("--bot", None, "bot", f"{options.bot!r} has no value to tune"))
    name = candidate_name(options.bot, list(profiles))

    def scenario_of(values: dict[str, Any]) -> Scenario:
        return field_with(scenario, options.bot, name, profile_values(start_profile, params, values))

    start = start_values(params)
    check = scenario_of(start)
    check_scenario(check.model, check.doc)
    game.prepare(check)  # every input error before any game
    seed = scenario.model.seed
    out = output_folder(options, scenario.name, "tune", STATE, folder=f"tune-{options.bot}")
    settings = {
        "scenario": str(Path(scenario.source).resolve()),
        "bot": options.bot,
        "seed": seed,
        "games_per_eval": options.games_per_eval,
        "population": options.population,
        "budget": options.budget,
        "confirm_games": options.confirm_games,
        "params": [p.name for p in params],
        "bot_profiles": json.loads(json.dumps(scenario.model.bot_profiles, default=str)),  # the field's profiles
    }
    dist = Distribution.start(params)
    state = open_state(out, STATE, "tune", settings, options.resume)
    if state:
        dist.load(state["distribution"])
    curve: list[dict[str, Any]] = state.get("curve", [])
    rows: list[dict[str, Any]] = state.get("candidates", [])
    used = int(state.get("games", 0))
    per_round = _round_games(options.population, options.games_per_eval)
    rounds_planned = max(1, options.budget // per_round)
    n_confirm = options.confirm_games or max(4096, options.budget // 10)
    chunks = math.ceil(n_confirm / options.games_per_eval)
    total = max(rounds_planned * per_round, used) + 2 * chunks * options.games_per_eval

    def report(done_games: int, what: str) -> None:
        if on_progress:
            if what == "round":
                centre = f", centre {curve[-1]['centre']:.1%}" if curve else ""
                what = f"round {min(len(curve) + 1, rounds_planned)}/{rounds_planned}{centre}"
            on_progress(what, done_games, total)

    report(used, "round")
    r = len(curve)
    while "result" not in state and (r == 0 or used + per_round <= options.budget):
        rng = np.random.default_rng(np.random.SeedSequence([seed, r, 1]))
        candidates = [dist.centre(), *dist.sample(rng, options.population - 1)]
        results = _race(
            [scenario_of(c) for c in candidates],
            name,
            round_seed(seed, r),
            options,
            lambda g: report(used + g, "round"),
        )
        used += sum(len(w) for w in results.values())
        ranked = sorted(range(len(candidates)), key=lambda i: (-_rate(results[i]), i))
        longest = max(len(w) for w in results.values())
        alive = [i for i in ranked if len(results[i]) == longest][: max(2, options.population // 4)]
        dist.update([candidates[i] for i in alive])
        centre = estimate(results[0])
        first_stage = [float(results[i][: options.games_per_eval].mean()) for i in range(len(candidates))]
        best = estimate(results[alive[0]])
        curve.append(
            {
                "round": r,
                "games": used,
                "centre": centre.rate,
                "centre_low": centre.low,
                "centre_high": centre.high,
                "centre_n": centre.n,
                "best": best.rate,
                "best_low": best.low,
                "best_high": best.high,
                "median": float(np.median(first_stage)),
                "median_n": options.games_per_eval,
            }
        )
        for i, values in enumerate(candidates):
            e = estimate(results[i])
            rows.append(
                {"round": r, "candidate": i, "centre": i == 0, "elite": i in alive, "games": e.n, "win_rate": e.rate}
                | {"ci_low": e.low, "ci_high": e.high}
                | {f"value.{k}": v for k, v in values.items()}
            )
        r += 1
        _save(out, settings, dist, curve, rows, used)
        report(used, "round")

    tuned = dist.centre()
    if "result" in state:
        held = {k: Estimate(**v) for k, v in state["result"].items()}
    else:
        report(used, "confirmation")
        holdout = held_out_seed(seed)
        tasks = [
            Task(key, scenario_of(values), name, holdout, c, options.games_per_eval)
            for key, values in ((0, tuned), (1, start))
            for c in range(chunks)
        ]
        won = collect_wins(tasks, options, lambda g: report(used + g, "confirmation"))
        held = {"gain": paired(won[0], won[1]), "tuned": estimate(won[0]), "start": estimate(won[1])}
        _save(out, settings, dist, curve, rows, used, {k: vars(v) for k, v in held.items()})
    profile = profile_values(start_profile, params, tuned)
    result = TuneResult(
        out,
        options.bot,
        start,
        tuned,
        profile,
        held["gain"],
        held["tuned"],
        held["start"],
        len(curve),
        options.population,
        used,
        held["tuned"].n,
        curve,
        rows,
    )
    asked = options.command or f"balance tune {scenario.source} --bot {options.bot}"
    result.index = write_outputs(result, scenario, asked)
    return result


def _check_numbers(options: TuneOptions) -> None:
    from ...limits import MAX_CHUNK_SIZE, MAX_GAMES

    for flag, value, low, high in (
        ("--games-per-eval", options.games_per_eval, 8, MAX_CHUNK_SIZE),
        ("--budget", options.budget, 1, MAX_GAMES),
        ("--population", options.population, 4, 256),
        ("--confirm-games", options.confirm_games, 1, MAX_GAMES),
    ):
        if value is not None and not low <= value <= high:
            raise UserError(Problem(flag, None, flag[2:], f"must be between {low:,} and {high:,}, got {value:,}"))


def _round_games(population: int, size: int) -> int:
    """The games one round of successive halving plays (see _race)."""
    total, others, played = 0, population - 1, 0
    elites = max(2, population // 4)
    while True:
        new = max(1, played)
        total += (others + 1) * new * size
        played += new
        if others <= elites:
            return total
        others = max(elites, others // 2)


def _race(scenarios: list[Scenario], who: str, seed: int, options: TuneOptions, progress) -> dict[int, np.ndarray]:
    """Successive halving on common random numbers: every candidate plays the
    round's first chunk; the better half of the sampled candidates plays the
    next, and so on, each stage doubling the chunks played, until a quarter of
    the population is left. The centre (candidate 0) plays every stage: its
    win rate over the whole round is the learning curve's honest point.
    Returns each candidate's wins, game by game, over the chunks it played."""
    size = options.games_per_eval
    elites = max(2, len(scenarios) // 4)
    won: dict[int, np.ndarray] = {i: np.zeros(0, bool) for i in range(len(scenarios))}
    others, played, spent = list(range(1, len(scenarios))), 0, 0
    while True:
        new = max(1, played)
        alive = [0, *others]
        tasks = [Task(i, scenarios[i], who, seed, c, size) for i in alive for c in range(played, played + new)]
        got = collect_wins(tasks, options, lambda g, spent=spent: progress(spent + g))
        spent += len(tasks) * size
        for i in alive:
            won[i] = np.concatenate([won[i], got[i]])
        played += new
        if len(others) <= elites:
            return won
        others = sorted(sorted(others, key=lambda i: (-_rate(won[i]), i))[: max(elites, len(others) // 2)])


def collect_wins(
    tasks: list[Task], options: ExperimentOptions, progress: Callable[[int], None] | None = None
) -> dict[int, np.ndarray]:
    """Play the tasks; each key's wins over its chunks, in chunk order (`progress(games done)`)."""
    parts: dict[int, dict[int, np.ndarray]] = {}
    done = [0]

    def on_task(task: Task) -> None:
        done[0] += task.size
        if progress is not None:
            progress(done[0])

    for key, chunk, won in play(tasks, options.jobs, on_task, options.cluster):
        parts.setdefault(key, {})[chunk] = won
    return {key: np.concatenate([by[c] for c in sorted(by)]) for key, by in parts.items()}


def _rate(won: np.ndarray) -> float:
    return float(won.mean()) if len(won) else 0.0


# --- the tune's folder: state for --resume ------------------------------------------------------


def _save(out: Path, settings, dist: Distribution, curve, rows, used: int, result: dict | None = None) -> None:
    state = {"settings": settings, "distribution": dist.to_json(), "curve": curve, "candidates": rows, "games": used}
    if result is not None:  # the confirmation's figures: the tune ran to the end
        state["result"] = result
    save_state(out, STATE, state)
