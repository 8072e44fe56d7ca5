"""`balance fit`: search card and rule values toward a designer's targets (issue 21).

`balance fit SCENARIO --free PATH=RANGE ... --target SPEC ...`: the free
values (fit.space) are searched by `balance tune`'s cross-entropy method
(tune.search), every candidate played on the scenario's seed (common random
numbers: the same deals, so candidates differ by their values, not their luck)
and scored by fit.objective (the targets' misses, then fewer and smaller
changes). The search stops when its budget of games is spent, or as soon as
its centre has met every target two rounds running. The proposal (the last
centre) and today's values are then played on held-out seeds with more games,
and every target is shown before and after with its interval.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np

from ..errors import Problem, UserError
from ..games import get_game
from ..runner import RunOptions, refuse_overwrite, resolve_scenario
from ..strength import strength_items
from ..tune import round_seed
from ..tune.search import Distribution
from .evaluate import evaluate, strength_keys
from .measure import Figure
from .objective import PENALTY, changed, cost
from .space import free_params
from .targets import check_items, parse_target

HELD_OUT = 10_000  # round_seed's stream of the held-out confirmation, past any search round


@dataclass
class FitOptions:
    frees: list[str]
    targets: list[str]
    max_changes: int | None = None
    budget: int = 100_000  # games the search may spend
    games: int | None = None  # games per candidate (default: the scenario's)
    population: int = 8  # candidates a round, besides the centre
    confirm_games: int | None = None  # held-out games for today's values and the proposal (default: 2 x games)
    penalty: float = PENALTY
    seed: int | None = None
    jobs: int | None = None
    out: Path | None = None
    force: bool = False


@dataclass
class FitResult:
    out: Path
    start: dict[str, Any]  # today's values
    proposal: dict[str, Any]  # the fitted values (every free value)
    changes: list[str]  # the free values the proposal moves
    before: dict[str, dict[str, Figure]]  # target -> figures, today's values on held-out seeds
    after: dict[str, dict[str, Figure]]  # the same for the proposal
    met: bool  # the proposal meets every target on the held-out seeds
    rounds: list[dict[str, Any]]  # per round: games used, centre's cost and misses
    candidates: list[dict[str, Any]]  # every candidate: round, values, cost
    games: int  # games played in all (search and confirmation)


def fit(path: str | Path, options: FitOptions, on_progress: Callable[[str, int, int], None] | None = None) -> FitResult:
    scenario = resolve_scenario(path, RunOptions(games=options.games, seed=options.seed))
    game = get_game(scenario.model.game, scenario.source, scenario.doc.line_of(("game",)))
    if not options.targets:
        raise UserError(Problem("--target", None, "target", "give at least one --target, e.g. strength:all+-3"))
    targets = [parse_target(t) for t in options.targets]
    items = [i["id"] for i in strength_items(game, game.catalog(game.prepare(scenario)))]
    check_items(targets, items)
    if any(t.kind == "strength" for t in targets) and not items:
        raise UserError(Problem("--target", None, "target", f"{game.title} has no strength experiment"))
    params = free_params(scenario, options.frees)
    for p in params:  # both ends of every range are a database the game takes, before any game
        for value in (p.low, p.high):
            value = int(value) if p.kind == "int" else value
            try:
                game.prepare(scenario.with_overrides({p.name: value}, scenario.model.name))
            except UserError as exc:
                raise UserError(Problem("--free", None, p.name, f"= {value}: {exc.problem.message}")) from None
    if options.max_changes is not None and options.max_changes < 1:
        raise UserError(Problem("--max-changes", None, "max_changes", "must be at least 1"))
    out = Path(options.out) if options.out else Path("runs") / f"{scenario.name}-fit"
    refuse_overwrite(out, options.force, "fit")
    m = scenario.model
    runs = 1 + len(strength_keys(targets, items))  # a candidate's runs: its baseline, then one per item's strength
    round_games = m.games * runs * (options.population + 1)
    confirm = options.confirm_games or 2 * m.games
    # a round is played whole (the first even past the budget): the bar's total is what will be played
    total = max(options.budget // round_games, 1) * round_games + 2 * confirm * runs
    used = 0

    def play(values: dict[str, Any], folder: Path, seed: int, games: int, what: str):
        nonlocal used
        run_options = RunOptions(games=games, seed=seed, jobs=options.jobs, out=folder)
        before = used

        def report(done: int, _total: int) -> None:
            if on_progress:
                on_progress(what, min(before + done, total), total)

        result = evaluate(scenario, values, targets, items, folder, run_options, report)
        used += games * runs
        return result

    start = {p.name: p.start for p in params}
    dist = Distribution.start(params)
    rng = np.random.default_rng([m.seed, 2024])  # the search's own draws, apart from the games'
    rounds: list[dict[str, Any]] = []
    candidates: list[dict[str, Any]] = []
    met_in_a_row = 0
    r = 0
    while used + round_games <= options.budget or r == 0:
        pool = [dist.centre(), *dist.sample(rng, options.population)]
        scores = []
        for k, values in enumerate(pool):
            _, misses = play(
                values, out / "search" / f"r{r}-c{k}", m.seed, m.games, f"round {r + 1}, {k + 1}/{len(pool)}"
            )
            score = cost(misses, values, params, options.penalty, options.max_changes)
            scores.append(score)
            candidates.append(
                {"round": r, "candidate": k, "centre": k == 0, **values, "cost": score, "miss": sum(misses)}
            )
        centre_miss = candidates[-len(pool)]["miss"]  # the pool's first candidate is the centre
        rounds.append({"round": r, "games": used, "centre_cost": scores[0], "centre_miss": centre_miss})
        met_in_a_row = met_in_a_row + 1 if centre_miss == 0 else 0
        order = np.argsort(scores, kind="stable")
        dist.update([pool[i] for i in order[: max(2, len(pool) // 4)]])
        r += 1
        if met_in_a_row >= 2:  # the answer is clear: the centre met every target twice running
            break
    proposal = dist.centre()
    held = round_seed(m.seed, HELD_OUT)
    before, _ = play(start, out / "confirm" / "today", held, confirm, "held out: today's values")
    after, misses = play(proposal, out / "confirm" / "proposal", held, confirm, "held out: the proposal")
    return FitResult(
        out, start, proposal, changed(proposal, params), before, after, sum(misses) == 0, rounds, candidates, used
    )
