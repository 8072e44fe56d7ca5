"""`balance strength`: for each card, the scenario's games again with one extra
copy in one seat's starting deck; the change in that seat's win rate ranks the
cards by what they do, not by who picks them."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, replace
from pathlib import Path

import numpy as np
import polars as pl

from ..analysis.band import FAIR_BAND
from ..analysis.strength import UNDECIDED, receiving_seat_wins, strength_table
from ..errors import Problem, UserError, did_you_mean
from ..games import get_game
from ..limits import MAX_GAMES
from ..logs import load_run
from ..report.charts import strength_chart
from ..report.page import cell, render, write_csv
from ..runner import RunOptions, resolve_scenario, run
from ..scale import scaled
from ..scenario import Scenario
from ..units import in_units
from .experiment import BONUS_SEAT, Task, legend_bots, play
from .setup import ExperimentOptions, output_folder


@dataclass
class StrengthResult:
    out: Path
    table: pl.DataFrame
    index: Path


def known(ids: list[str], shown: int = 12) -> str:
    """Ids for an error line: the first `shown`, and how many more."""
    more = f", and {len(ids) - shown} more" if len(ids) > shown else ""
    return ", ".join(ids[:shown]) + more


def with_item(scenario: Scenario, item: str) -> Scenario:
    """The scenario with one seat of each game given `item` (bonus_card)."""
    m = scenario.model
    update = {"bonus_card": item, "name": f"{m.name}-{item}"}
    return Scenario(scenario.source, m.model_copy(update=update), scenario.cards_path, scenario.doc, scenario.cards_doc)


def strength_items(game, catalog: dict) -> list[dict[str, str]]:
    """What the game's strength experiment can give a seat (Game.strength_items):
    id, name, kind, how; `more: True` marks the items measured only with --all."""
    return game.strength_items(catalog) if game.strength_items is not None else []


@dataclass(frozen=True)
class Design:
    """How many games each item gets. One pass: `first` games each (the fixed
    design). With a `budget` (games in all, the baseline's included): after
    the first pass, rounds that double the games of every item whose interval
    still straddles the decision (neither inside the fair band +-tolerance nor
    past it, analysis.strength.verdict), until every item is classified or the next round would pass
    the budget (then as many of the undecided items as fit, those nearest a verdict first), or until
    `decided` of the items are classified: the last few sit near the band's edge, where each round
    doubles their games and the baseline's for a verdict that may never come."""

    first: int
    budget: int | None = None
    tolerance: float = FAIR_BAND / 100  # the fair band's half width, as a share (0.03: 3 points)
    decided: float = 1.0  # the share of the items classified at which the rounds stop
    chunk: int = 4096  # games per task at most: an engine plays a big batch faster per game (4,096: 3x 512)
    baseline: int = 0  # the baseline's games at least: what is read off it beside the items (rebalance's seats)


FIRST_PASS = 1024  # an adaptive design's first games per item, unless --games says
# The default budget stops once this share of the items is classified (issue 44: at least 95%, the rest
# named with the games they would need); a budget given (--budget) is spent on every item.
DEFAULT_DECIDED = 0.95


def default_budget(scenario: Scenario, items: int | None = None) -> int:
    """The games balance report --measure (and balance strong --measure) spend: 5,200 an item and the
    baseline's share (Horsepower's 77 items: about 400,000, a minute on 2 cores, which decides 67 of the 76
    items of the first draft's four-player-mixed; the rest are estimated inside the band, near its edge:
    docs/performance.md), at least 50,000 (Heat's few items).
    `items`: how many are measured (default: every item the game can give a seat)."""
    if items is None:
        game = get_game(scenario.model.game)
        items = len(strength_items(game, game.catalog(game.prepare(scenario)))) if game.strength_items else 0
    return max(50_000, 5_200 * (items + 1))


def measure_budget(scenario: Scenario, budget: int | None) -> tuple[int, float]:
    """(games, the share of items decided at which the rounds stop) of a --measure: a budget given is spent
    on every item; the default budget stops at DEFAULT_DECIDED."""
    return (budget, 1.0) if budget else (default_budget(scenario), DEFAULT_DECIDED)


def _extra_playbook(scenario: Scenario, item: dict) -> bool:
    """A Horsepower Playbook given beside the drafted one (bonus_playbook: extra) replaces nothing."""
    return item["kind"] == "Playbook" and scenario.model.bonus_playbook == "extra"


def paired_strength(
    scenario: Scenario,
    items: list[str],
    out: Path,
    options: RunOptions,
    on_progress: Callable[[str, int, int], None] | None = None,
    design: Design | None = None,
    replaces: dict[str, str] | None = None,
) -> pl.DataFrame:
    """The experiment: the scenario's games into out/baseline (a run on disk,
    grown as items need more games), and each item's games with the item in
    the seeded receiving seat of every game, played in memory over every core
    (experiment.play: the same games, keyed by their ids); the paired change of
    that seat's win rate per item (analysis.strength_table), with each item's
    games. `design`: default one pass of the scenario's games."""
    m = scenario.model
    design = design or Design(m.games)
    tolerance = design.tolerance
    size = max(1, min(design.chunk, design.first))
    given = {item: with_item(scenario, item) for item in items}
    won: dict[str, list[np.ndarray]] = {item: [] for item in items}
    games = dict.fromkeys(items, 0)
    base_games, spent = 0, 0
    target = design.first
    todo = list(items)
    base: pl.DataFrame | None = None
    table: pl.DataFrame | None = None
    while todo:
        plan = round_plan(todo, games, target, design.first)
        cost = sum(plan.values()) + max(0, max(games[i] + plan.get(i, 0) for i in items) - base_games)
        if design.budget is not None and spent and spent + cost > design.budget:
            # as many of the undecided items as fit, those nearest a verdict first: the most half widths of
            # interval between the estimate and the band's edge (doubled games narrow it by sqrt 2); an item on
            # the edge never decides and comes last
            rows = {r["card"]: r for r in table.iter_rows(named=True)}

            def nearness(item: str) -> float:
                r = rows[item]
                return abs(abs(r["change"]) - tolerance) / max((r["ci_high"] - r["ci_low"]) / 2, 1e-12)

            fitting: dict[str, int] = {}
            for item in sorted(todo, key=lambda i: -nearness(i)):
                more = sum(fitting.values()) + plan[item]
                grown = max(base_games, *(games[i] + fitting.get(i, 0) for i in items), games[item] + plan[item])
                if spent + more + grown - base_games <= design.budget:
                    fitting[item] = plan[item]
            if not fitting:
                break
            plan = fitting
        wanted = max(design.baseline, *(games[i] + plan.get(i, 0) for i in items))
        total = design.budget if design.budget is not None else wanted + sum(plan.values())
        step = spent

        def report(what: str, done: int, step: int = step) -> None:
            if on_progress is not None:
                on_progress(what, min(step + done, max(total, step + done)), max(total, step + done))

        if wanted > base_games:
            run(
                scenario,
                replace(options, out=out / "baseline", games=wanted, force=base_games == 0, resume=base_games > 0),
                lambda done, _t: report("baseline", max(0, done - base_games)),
            )
            spent += wanted - base_games
            base_games = wanted
            base = receiving_seat_wins(load_run(out / "baseline"), m.seed, m.players, legend_bots(scenario))
        tasks = [
            Task(k, given[item], BONUS_SEAT, m.seed, games[item] + start, n, games[item] + start)
            for k, item in enumerate(items)
            if item in plan
            for start, n in _spans(plan[item], size)
        ]
        played = [0]
        before = spent

        def on_task(task: Task, before: int = before) -> None:
            played[0] += task.size
            report(f"{len(plan)} item(s) to {target:,} games", before - step + played[0])

        parts: dict[int, list[tuple[int, np.ndarray]]] = {}
        for key, first, w in play(
            tasks, options.jobs, on_task, options.scheduler if options.backend == "dask" else None
        ):
            parts.setdefault(key, []).append((first, w))
        for key, got in parts.items():
            item = items[key]
            won[item] += [w for _, w in sorted(got, key=lambda x: x[0])]
            games[item] += plan[item]
        spent += sum(plan.values())
        frames = {
            item: pl.DataFrame({"game_id": np.arange(games[item]), "won": np.concatenate(won[item])}) for item in items
        }
        table = strength_table(base.filter(pl.col("game_id") < base_games), frames, replaces, tolerance)
        if design.budget is None:
            break
        todo = table.filter(pl.col("verdict") == UNDECIDED)["card"].to_list()
        if len(items) - len(todo) >= design.decided * len(items):
            break
        target *= 2
    return table


def round_plan(todo: list[str], games: dict[str, int], target: int, first: int) -> dict[str, int]:
    """The games each undecided item plays this round: its games doubled, up to the round's target (the first
    pass: `first`). An item behind the target (a Playbook read against the average of its kind, decided fair in
    an early round, reopened when the average moved) doubles too: it asked for the whole target before (Rubber
    Band in the tuned field, 1,024 games -> 8,192), and the last round's budget left it out."""
    return {item: min(target, max(2 * games[item], first)) - games[item] for item in todo}


def _spans(games: int, size: int) -> list[tuple[int, int]]:
    """(offset, games) of the tasks that play `games` more games of an item, `size` at most each."""
    return [(start, min(size, games - start)) for start in range(0, games, size)]


def strength(
    path: str | Path,
    cards: list[str] | None = None,
    options: ExperimentOptions = ExperimentOptions(),
    all_items: bool = False,
    on_progress: Callable[[str, int, int], None] | None = None,
    budget: int | None = None,
    tolerance: float = FAIR_BAND,
    decided: float = 1.0,
) -> StrengthResult:
    """`cards`: the items to measure (default: the game's main ones, every item
    with `all_items`); `options.games` per item (with a `budget`, the first
    pass's games, default 1,024; then the adaptive rounds of Design, until
    `decided` of the items are classified or the budget is spent).
    `tolerance`: the fair band's half width in points. `on_progress(what,
    games done, games in all)`."""
    options.check()
    scenario = resolve_scenario(path, options.runs())
    game = get_game(scenario.model.game, scenario.source, scenario.doc.line_of(("game",)))
    if game.strength_items is None:
        raise UserError(scenario.doc.problem(("game",), f"balance strength is not available for {game.title}"))
    prepared = game.prepare(scenario)
    catalog = game.catalog(prepared)
    items = strength_items(game, catalog)
    parts = [i["id"] for i in items]
    chosen = cards or [i["id"] for i in items if all_items or not i.get("more")]
    unknown = [c for c in chosen if c not in set(parts)]
    if unknown:
        raise UserError(
            Problem(
                "--cards",
                None,
                "cards",
                f"no item with id {unknown[0]!r}{did_you_mean(unknown[0], parts)} (known: {known(parts)})",
            )
        )
    m = scenario.model
    if not 0 < tolerance < 50:
        raise UserError(
            Problem("--tolerance", None, "tolerance", f"must be between 0 and 50 points, got {tolerance:g}")
        )
    first = options.games or (min(m.games, FIRST_PASS) if budget is not None else m.games)
    if budget is not None:  # BALANCE_SCALE (the printed-commands test): a smaller budget, never below the first pass
        budget = scaled(budget, first * (len(chosen) + 1))
    if budget is not None and not first * (len(chosen) + 1) <= budget <= MAX_GAMES:
        raise UserError(
            Problem(
                "--budget",
                None,
                "budget",
                f"must hold the first pass ({first:,} games for the baseline and each of {len(chosen)} items: "
                f"{first * (len(chosen) + 1):,}) and at most {MAX_GAMES:,}, got {budget:,}",
            )
        )
    # the game's own checks of an item (Heat: a field with Legends, who have no deck) before any game
    game.prepare(with_item(scenario, chosen[0]))
    out = output_folder(options, scenario.name, "strength", result="strength.csv")
    design = Design(first, budget, tolerance / 100, decided)
    replacing = {i["id"]: i["kind"] for i in items if i.get("replaces") and not _extra_playbook(scenario, i)}
    # a strength keeps no state: after a failure (a full disk) its own command, again, starts it over
    again = "the same command with --force" if not options.fixed_out else "the same command again"
    table = paired_strength(scenario, chosen, out, options.runs(finish=again), on_progress, design, replacing)
    names = {i["id"]: i["name"] for i in items}
    kinds = {i["id"]: i["kind"] for i in items}
    table = table.with_columns(
        pl.col("card").replace_strict(names, default=None).alias("name"),
        pl.col("card").replace_strict(kinds, default=None).alias("kind"),
    )
    shown = in_units(table)  # the CSV and the page: percent and points
    write_csv(shown, out / "strength.csv")
    strength_chart(table, out / "strength.png")
    index = render(
        "strength.html.j2",
        out / "index.html",
        name=m.name,
        game=game.title,
        hows=list(dict.fromkeys((i["kind"], i["how"]) for i in items if i["id"] in chosen)),
        games=int(table["games"].sum()) + int(table["games"].max()),
        first=first,
        budget=budget,
        tolerance=tolerance,
        averaged=sorted(set(replacing[c] for c in chosen if c in replacing)),
        verdicts=table["verdict"].value_counts().sort("verdict").rows(),
        seed=m.seed,
        columns=shown.columns,
        data=[[cell(v, c) for v, c in zip(row, shown.columns, strict=True)] for row in shown.iter_rows()],
    )
    return StrengthResult(out, table, index)
