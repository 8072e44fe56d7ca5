"""`balance compare`: the scenario as written (the baseline) against each of
its variants, on the same seeds, into one table, a forest plot and a page."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

import jinja2
import polars as pl

from .analysis.compare import compare_runs
from .errors import UserError
from .games import get_game
from .logs import load_manifest, load_run
from .report.charts import forest_plot
from .runner import RunOptions, resolve_scenario, run
from .scenario import variant_scenarios

TEMPLATES = Path(__file__).parent / "report" / "templates"


@dataclass
class CompareResult:
    out: Path
    table: pl.DataFrame
    index: Path


def compare(
    path: str | Path,
    games: int | None = None,
    out: Path | None = None,
    jobs: int | None = None,
    seed: int | None = None,
    on_progress=None,
) -> CompareResult:
    scenario = resolve_scenario(path, RunOptions(games=games, seed=seed))
    if not scenario.model.variants:
        raise UserError(
            scenario.doc.problem(
                ("name",), "no variants to compare: add variants: [{name: ..., overrides: {...}}]", "variants"
            )
        )
    variants = variant_scenarios(scenario)
    game = get_game(scenario.model.game, scenario.source, scenario.doc.line_of(("game",)))
    for _, each in [("baseline", scenario), *variants]:  # every variant checked before any game runs
        game.prepare(resolve_scenario(each, RunOptions()))
    out = Path(out) if out else Path("runs") / f"{scenario.name}-compare"
    options = dict(games=games, seed=seed, jobs=jobs, force=True)
    run(scenario, RunOptions(out=out / "baseline", **options), on_progress)
    base = load_run(out / "baseline")
    catalog = load_manifest(out / "baseline").get("catalog", {})
    parts = [c["id"] for c in catalog.get("cards", []) if c.get("group") == "parts"] or None
    books = [p["id"] for p in catalog.get("playbooks", [])] or None
    tables = []
    for name, each in variants:
        run(each, RunOptions(out=out / name, **options), on_progress)
        tables.append(compare_runs(base, load_run(out / name), name, parts, books))
    table = pl.concat(tables)
    table.write_csv(out / "compare.csv")
    table.write_parquet(out / "compare.parquet")
    forest_plot(table, out / "forest.png")
    index = _page(scenario, table, out, [n for n, _ in variants])
    return CompareResult(out, table, index)


def _page(scenario, table: pl.DataFrame, out: Path, names: list[str]) -> Path:
    ranked = table.with_columns(
        (pl.col("diff").abs() / ((pl.col("ci_high") - pl.col("ci_low")) / 3.92)).fill_nan(0).alias("z")
    ).sort("z", descending=True, nulls_last=True)
    shown = ranked.head(80)
    fmt = lambda v: "" if v is None else (f"{v:.4g}" if isinstance(v, float) else str(v))  # noqa: E731
    env = jinja2.Environment(
        loader=jinja2.FileSystemLoader(TEMPLATES), autoescape=True, undefined=jinja2.StrictUndefined
    )
    page = env.get_template("compare.html.j2").render(
        name=scenario.name,
        seed=scenario.model.seed,
        games=scenario.model.games,
        variants=names,
        significant=table.filter(pl.col("significant")).height,
        rows=table.height,
        columns=list(shown.drop("z").columns),
        data=[[fmt(v) for v in row] for row in shown.drop("z").iter_rows()],
    )
    index = out / "index.html"
    index.write_text(page, encoding="utf-8")
    return index
