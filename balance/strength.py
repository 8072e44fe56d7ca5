"""`balance strength`: for each card, the scenario's games again with one extra
copy in one seat's starting deck; the change in that seat's win rate ranks the
cards by what they do, not by who picks them."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

import polars as pl

from .analysis.strength import receiving_seat_wins, strength_table
from .errors import Problem, UserError
from .games import get_game
from .logs import load_manifest, load_run, studied_cards
from .report.charts import strength_chart
from .report.page import render, short, write_csv
from .runner import RunOptions, resolve_scenario, run
from .scenario import Scenario


@dataclass
class StrengthResult:
    out: Path
    table: pl.DataFrame
    index: Path


def strength(
    path: str | Path,
    cards: list[str] | None = None,
    games: int | None = None,
    out: Path | None = None,
    jobs: int | None = None,
    seed: int | None = None,
) -> StrengthResult:
    scenario = resolve_scenario(path, RunOptions(games=games, seed=seed))
    game = get_game(scenario.model.game, scenario.source, scenario.doc.line_of(("game",)))
    if not game.strength:
        raise UserError(
            scenario.doc.problem(("game",), f"balance strength is not available for {game.title} yet (only Horsepower)")
        )
    prepared = game.prepare(scenario)
    catalog = game.catalog(prepared)
    counts = {c["id"]: c["count"] for c in catalog["cards"]}
    parts = [c for c in studied_cards(catalog) or [] if counts[c]]  # the studied cards a deck can hold
    chosen = cards or parts
    unknown = [c for c in chosen if c not in {x["id"] for x in catalog["cards"]}]
    if unknown:
        raise UserError(
            Problem("--cards", None, "cards", f"no card with id {unknown[0]!r} (known: {', '.join(parts)})")
        )
    out = Path(out) if out else Path("runs") / f"{scenario.name}-strength"
    options = dict(games=games, seed=seed, jobs=jobs, force=True)
    run(scenario, RunOptions(out=out / "baseline", **options))
    m = scenario.model
    base = receiving_seat_wins(load_run(out / "baseline"), m.seed, m.players)
    with_card = {}
    for card in chosen:
        variant = Scenario(
            scenario.source,
            m.model_copy(update={"bonus_card": card, "name": f"{m.name}-{card}"}),
            scenario.cards_path,
            scenario.doc,
            scenario.cards_doc,
        )
        run(variant, RunOptions(out=out / card, **options))
        with_card[card] = receiving_seat_wins(load_run(out / card), m.seed, m.players)
    table = strength_table(base, with_card)
    names = {c["id"]: c["name"] for c in load_manifest(out / "baseline")["catalog"]["cards"]}
    table = table.with_columns(pl.col("card").replace_strict(names, default=None).alias("name"))
    write_csv(table, out / "strength.csv")
    strength_chart(table, out / "strength.png")
    index = render(
        "strength.html.j2",
        out / "index.html",
        name=m.name,
        games=m.games,
        seed=m.seed,
        columns=table.columns,
        data=[[short(v) for v in row] for row in table.iter_rows()],
    )
    return StrengthResult(out, table, index)
