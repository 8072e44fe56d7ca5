"""`balance strength`: for each card, the scenario's games again with one extra
copy in one seat's starting deck; the change in that seat's win rate ranks the
cards by what they do, not by who picks them."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, replace
from pathlib import Path

import polars as pl

from ..analysis.strength import receiving_seat_wins, strength_table
from ..errors import Problem, UserError
from ..games import get_game
from ..logs import load_run
from ..report.charts import strength_chart
from ..report.page import cell, render, write_csv
from ..runner import RunOptions, resolve_scenario, run
from ..scenario import Scenario
from ..units import in_units
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


def paired_strength(
    scenario: Scenario,
    items: list[str],
    out: Path,
    options: RunOptions,
    on_progress: Callable[[str, int, int], None] | None = None,
) -> pl.DataFrame:
    """The experiment: the scenario's games into out/baseline, then once per item
    into out/ITEM with the item in the seeded receiving seat of every game; the
    paired change of that seat's win rate per item (analysis.strength_table)."""
    m = scenario.model
    total = m.games * (1 + len(items))

    def progress(what: str, before: int) -> Callable[[int, int], None] | None:
        if on_progress is None:
            return None
        return lambda done, _total: on_progress(what, before + done, total)

    run(scenario, replace(options, out=out / "baseline", force=True), progress("baseline", 0))
    base = receiving_seat_wins(load_run(out / "baseline"), m.seed, m.players)
    given = {}
    for k, item in enumerate(items, start=1):
        folder = out / item
        run(
            with_item(scenario, item),
            replace(options, out=folder, force=True),
            progress(f"{item} ({k}/{len(items)})", k * m.games),
        )
        given[item] = receiving_seat_wins(load_run(folder), m.seed, m.players)
    return strength_table(base, given)


def strength(
    path: str | Path,
    cards: list[str] | None = None,
    options: ExperimentOptions = ExperimentOptions(),
    all_items: bool = False,
    on_progress: Callable[[str, int, int], None] | None = None,
) -> StrengthResult:
    """`cards`: the items to measure (default: the game's main ones, every item
    with `all_items`); `options.games` per item. `on_progress(what, games
    done, games in all)`."""
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
        raise UserError(Problem("--cards", None, "cards", f"no item with id {unknown[0]!r} (known: {known(parts)})"))
    m = scenario.model
    # the game's own checks of an item (Heat: a field with Legends, who have no deck) before any game
    game.prepare(with_item(scenario, chosen[0]))
    out = output_folder(options, scenario.name, "strength")
    table = paired_strength(scenario, chosen, out, options.runs(), on_progress)
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
        games=m.games,
        seed=m.seed,
        columns=shown.columns,
        data=[[cell(v, c) for v, c in zip(row, shown.columns, strict=True)] for row in shown.iter_rows()],
    )
    return StrengthResult(out, table, index)
