"""`balance compare`: the scenario as written (the baseline) against each of
its variants, on the same seeds, into one table, a forest plot and a page."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field, replace
from pathlib import Path

import numpy as np
import polars as pl

from ..analysis import tallies
from ..analysis.compare import compare_runs, in_units
from ..errors import Problem, UserError, did_you_mean
from ..games import get_game
from ..games.base import studied_cards
from ..limits import MAX_GAMES
from ..logs import load_manifest, load_run
from ..printable import command_line, quoted
from ..report.charts import forest_plot
from ..report.labels import labels_for
from ..report.page import cell, render, write_csv
from ..runner import RunOptions, resolve_scenario, run
from ..scenario import variant_scenarios
from .setup import ExperimentOptions, output_folder


@dataclass
class CompareResult:
    out: Path
    table: pl.DataFrame
    index: Path
    games: int  # games per run in the end
    headline: str  # the metric sequential stopping watched, e.g. "win rate by seat 0"
    headline_width: float  # the widest 95% interval of its difference over the variants
    unpaired: str = ""  # two runs on disk that could not be paired: why (their metrics compared unpaired)
    changed: list[str] = field(default_factory=list)  # two runs on disk: what differs between their databases
    paired: str = ""  # two runs on disk: a line saying whether (and why) they were compared game by game
    causal: list[str] = field(default_factory=list)  # two runs on disk: the changed items' strength before -> after


GROWTH_MARGIN = 1.08  # aim a little past the predicted games: a step that falls just short costs another step
MIN_GROWTH = 1.1  # a step adds at least a tenth, so a width estimated a hair too low still moves on


def games_for_width(n: int, width: float, target: float) -> int:
    """The games that make an interval `width` wide at `n` games about `target`
    wide: a 95% interval narrows as 1 / sqrt(games), so (width / target)^2 times
    as many, plus a margin."""
    if not width > 0 or not target > 0:  # no spread seen yet (nan, 0): grow by the least step
        return int(np.ceil(n * MIN_GROWTH))
    return int(np.ceil(n * max(MIN_GROWTH, GROWTH_MARGIN * (width / target) ** 2)))


def parse_headline(text: str, bots: list[str]) -> tuple[str, str]:
    """'seat:0' or 'bot:racer' -> (metric, key) of the compare table."""
    kind, _, key = text.partition(":")
    if kind == "seat" and key.isdigit():
        return "win rate by seat", key
    if kind == "bot" and key in bots:
        return "win rate by bot", key
    known = ", ".join(f"bot:{b}" for b in bots)
    hint = did_you_mean(text, [f"bot:{b}" for b in bots])
    raise UserError(Problem("--headline", None, "headline", f"{quoted(text)} is not seat:N or one of {known}{hint}"))


def compare(
    path: str | Path,
    options: ExperimentOptions = ExperimentOptions(),
    on_progress: Callable[[str, int, int], None] | None = None,
    until_ci: float | None = None,
    max_games: int | None = None,
    headline: str = "seat:0",
) -> CompareResult:
    """Baseline and variants on the same seeds. With `until_ci` (percentage
    points) the runs grow until the headline difference's 95% interval is
    narrower than `until_ci` in every variant, or `max_games` is reached:
    each step to the games its current width says are needed
    (games_for_width), so the run stops at about the games the answer needs
    instead of overshooting by doubling; a run grows by any number of games,
    its games keep their ids. `on_progress(what, games done, games in all)`."""
    options.check()
    scenario = resolve_scenario(path, options.runs())
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
    metric, key = parse_headline(headline, scenario.bot_names)
    if until_ci is not None and not 0 < until_ci < 100:  # a width in percentage points; nan too
        raise UserError(
            Problem("--until-ci", None, "until_ci", f"must be between 0 and 100 percentage points, got {until_ci}")
        )
    if max_games is not None and not 1 <= max_games <= MAX_GAMES:
        raise UserError(
            Problem("--max-games", None, "max_games", f"must be between 1 and {MAX_GAMES:,}, got {max_games:,}")
        )
    out = output_folder(options, scenario.name, "compare")
    n = scenario.model.games
    if until_ci is not None:
        max_games = max(max_games or 16 * n, n)
    first = True
    while True:
        table = _run_all(scenario, variants, out, options.runs(games=n, force=first, resume=not first), on_progress)
        rows = table.filter((pl.col("metric") == metric) & (pl.col("key") == key))
        width = 100 * float((rows["ci_high"] - rows["ci_low"]).max()) if rows.height else float("nan")
        if until_ci is None or width <= until_ci or n >= max_games:
            break
        n, first = min(max_games, games_for_width(n, width, until_ci)), False
    names = [name for name, _ in variants]
    changed = variant_changes(out, names)
    paired = (
        f"Paired: the same seed ({scenario.model.seed}), games ({n:,}) and field in every run, so game g is the "
        "same deal in each and every difference comes from what changed."
    )
    table, index = _write(
        table, out, scenario.name, scenario.model.game, scenario.model.seed, names, n, changed=changed, paired=paired
    )
    return CompareResult(out, table, index, n, f"{metric} {key}", width, changed=changed, paired=paired)


def variant_changes(out: Path, names: list[str]) -> list[str]:
    """What each variant changed in the database the baseline played ("PATH:
    old -> new", and the variant's name where there are several), read from
    the runs' own manifests as `compare RUN_A RUN_B` reads them."""
    from ..analysis.database_diff import change_lines

    base = load_manifest(out / "baseline")
    lines = []
    for name in names:
        variant = load_manifest(out / name)
        if "database" not in base or "database" not in variant:
            continue
        for line in change_lines(base["database"], variant["database"]):
            lines.append(line if len(names) == 1 else f"{line} ({name})")
    return lines


def _write(
    table: pl.DataFrame,
    out: Path,
    name: str,
    game: str,
    seed: int | None,
    names: list[str],
    games: int,
    note: str = "",
    changed: list[str] | None = None,
    paired: str = "",
    causal: list[str] | None = None,
) -> tuple[pl.DataFrame, Path]:
    """The forest plot, compare.csv and .parquet and the page of a comparison; (the table in units, the page)."""
    forest_plot(table, out / "forest.png")
    table = in_units(table)  # what the user reads, the files and the page, holds percent and points
    write_csv(table, out / "compare.csv")
    table.write_parquet(out / "compare.parquet")
    return table, _page(name, game, seed, table, out, names, games, note, changed, paired, causal)


def _run_all(scenario, variants, out: Path, options: RunOptions, on_progress) -> pl.DataFrame:
    runs = ["baseline", *(name for name, _ in variants)]

    def progress(k: int) -> Callable[[int, int], None] | None:
        if on_progress is None:
            return None
        what = f"{runs[k]} ({k + 1}/{len(runs)})"
        return lambda done, total: on_progress(what, k * total + done, len(runs) * total)

    run(scenario, replace(options, out=out / "baseline"), progress(0))
    for k, (name, each) in enumerate(variants, start=1):
        run(each, replace(options, out=out / name), progress(k))
    return _compare_dirs(out / "baseline", [(name, out / name) for name, _ in variants])


def _compare_dirs(baseline: Path, variants: list[tuple[str, Path]], paired: bool = True) -> pl.DataFrame:
    """Every metric of each variant's run against the baseline's (runs on the same seed: game g is the same deal in each)."""
    base = load_run(baseline)
    catalog = load_manifest(baseline).get("catalog", {})
    parts = studied_cards(catalog)
    only = any("studied" in c for c in catalog.get("cards", []))  # the catalog says which cards to compare
    books = [p["id"] for p in catalog.get("playbooks", [])] or None
    # Heat's tallies (Heat paid, slipstreams...), Downforce's money and Shuffle Grand Prix's distance,
    # trophies and damage by bot; Horsepower's table stays as it was
    race = tallies.compared_columns(base)
    return pl.concat(
        [compare_runs(base, load_run(folder), name, parts, books, only, race, paired) for name, folder in variants]
    )


# what two runs must share for game g of one to be game g of the other (common random numbers; the
# chunk size changes no game: games/chance.py keys every draw by seed, game id and purpose)
PAIRED_ON = ("seed", "games")
PAIRED_SCENARIO = ("players", "bots", "bot_profiles")


def compare_two_runs(before: Path, after: Path, options: ExperimentOptions = ExperimentOptions()) -> CompareResult:
    """`balance compare BEFORE_RUN AFTER_RUN`: two runs already on disk, compared
    as `balance compare` compares a baseline and a variant, without playing a
    game again: paired where they were played on the same seed, games and
    field (game g is the same deal in both), else as independent
    samples, and the result says why (`unpaired`)."""
    from ..logs import read_manifest

    manifests = []
    for folder in (before, after):
        manifest = read_manifest(folder) if Path(folder).is_dir() else None
        if manifest is None:
            raise UserError(Problem(str(folder), None, "run", "is not a run directory (no manifest.json)"))
        if manifest.get("status") != "complete":
            raise UserError(
                Problem(str(folder), None, "run", f"is not a complete run ({manifest.get('status')}): finish it first")
            )
        manifests.append(manifest)
    a, b = manifests
    if a.get("game") != b.get("game"):
        raise UserError(Problem(str(after), None, "run", f"is a {b.get('game')} run, {before} a {a.get('game')} run"))
    differ = [k for k in PAIRED_ON if a.get(k) != b.get(k)] + [
        f"scenario {k}" for k in PAIRED_SCENARIO if a.get("scenario", {}).get(k) != b.get("scenario", {}).get(k)
    ]
    # game g is the same deal in both only on the same seed, games and field: else unpaired
    note = (
        f"Not paired: {', '.join(differ)} {'differs' if len(differ) == 1 else 'differ'}, so game g is not the same deal in both runs; every metric is "
        "compared as two independent samples (wider intervals than a paired comparison)."
        if differ
        else ""
    )
    out = output_folder(options, f"{Path(before).name}-vs-{Path(after).name}", "compare")
    name = Path(after).name
    table = _compare_dirs(Path(before), [(name, Path(after))], paired=not differ)
    games = int(a.get("games") or 0)
    title = f"{Path(before).name} vs {name}"
    changed = database_changes(a, b, before, after)
    paired = (
        note
        or f"Paired: the same seed ({a.get('seed')}), games ({games:,}) and field, so game g is the same deal in "
        "both runs and every difference comes from what changed."
    )
    causal = causal_changes(Path(before), Path(after), a, b, changed)
    table, index = _write(
        table, out, title, a.get("game", ""), a.get("seed"), [name], games, note, changed, paired, causal
    )
    return CompareResult(out, table, index, games, "", float("nan"), note, changed, paired, causal)


def causal_changes(before: Path, after: Path, a: dict, b: dict, changed: list[str]) -> list[str]:
    """The changed items' causal strength before -> after, from each run's own
    strength experiment (balance report RUN --measure), as the report's "Since
    the last run" gives it; where a run was not measured, the command that measures it."""
    from ..report.causal import strength_moves
    from ..report.headline import strength_result

    ids = changed_ids(changed)
    if not ids:
        return []
    measured = [strength_result(before, a), strength_result(after, b)]
    missing = [str(run) for run, m in zip((before, after), measured, strict=True) if m is None]
    if missing:
        commands = " and -> ".join(
            command_line("balance", "report", run, "--measure", "--out", f"reports/{Path(run).name}") for run in missing
        )
        return [f"The changed items' causal strength needs both runs measured -> {commands}"]
    catalog = b.get("catalog") or {}
    names = {
        i["id"]: i["name"]
        for kind in catalog.values()
        if isinstance(kind, list)
        for i in kind
        if "id" in i and "name" in i
    }
    lines = strength_moves(measured[0][0], measured[1][0], ids, names)
    heading = (
        "By experiment (causal): the changed items' strength, and that of every item whose verdict moved, in each run's "
        "own paired experiment, before -> after"
    )
    return [heading + ":", *lines] if lines else []


def database_changes(a: dict, b: dict, before: Path, after: Path) -> list[str]:
    """What differs between the databases two runs played ("PATH: old -> new"),
    and between their scenarios' fields; a run from before the manifest kept
    its database can only say that its hash differs."""
    from ..analysis.database_diff import change_lines

    lines = [
        f"scenario {k}: {a.get('scenario', {}).get(k)} -> {b.get('scenario', {}).get(k)}"
        for k in PAIRED_SCENARIO
        if a.get("scenario", {}).get(k) != b.get("scenario", {}).get(k)
    ]
    if "database" in a and "database" in b:
        return lines + change_lines(a["database"], b["database"])
    if a.get("cards_sha256") != b.get("cards_sha256"):
        old = before if "database" not in a else after
        lines.append(
            f"the card databases differ, but {old} kept no copy of its own (an older run): run it again to see how"
        )
    return lines


def changed_ids(changed: list[str]) -> set[str]:
    """The item ids a change names (cards.twin_turbo.effects.0.amount -> twin_turbo)."""
    return {
        line.split(":")[0].split(".")[1] for line in changed if line.count(".") >= 1 and not line.startswith("scenario")
    }


def reading_order(table: pl.DataFrame, changed: list[str]) -> pl.DataFrame:
    """The rows a designer reads first: those of the items that changed, then
    the win rates, then the rest by |diff| over its standard error."""
    ids = changed_ids(changed)
    return (
        table.with_columns(
            pl.when(pl.col("key").cast(pl.Utf8).is_in(list(ids)))
            .then(0)
            .when(pl.col("metric").str.starts_with("win rate"))
            .then(1)
            .otherwise(2)
            .alias("_first"),
            (pl.col("diff").abs() / ((pl.col("ci_high") - pl.col("ci_low")) / 3.92)).fill_nan(0).alias("z"),
        )
        .sort(["_first", "z"], descending=[False, True], nulls_last=True)
        .drop("_first")
    )


def _page(
    name: str,
    game: str,
    seed: int | None,
    table: pl.DataFrame,
    out: Path,
    names: list[str],
    games: int,
    note: str = "",
    changed: list[str] | None = None,
    paired: str = "",
    causal: list[str] | None = None,
) -> Path:
    labels = labels_for(game)
    tallied = (table["metric"].str.starts_with("mean ") & table["metric"].str.ends_with(" by bot")).any()
    shown = reading_order(table, changed or []).head(80)
    columns = shown.drop("z").columns
    return render(
        "compare.html.j2",
        out / "index.html",
        name=name,
        seat_note=" ".join(
            ([] if labels.seat == "seat" else [f"A seat is a {labels.seat} ({labels.seat_note})."])
            + (['The "mean ... by bot" rows are paired game by game too.'] if tallied else [])
        ),
        seed=seed,
        games=games,
        unpaired=note,
        changed=changed,
        paired=paired if not note else "",
        causal=causal or [],
        variants=names,
        significant=table.filter(pl.col("significant")).height,
        rows=table.height,
        columns=columns,
        data=[[cell(v, c) for v, c in zip(row, columns, strict=True)] for row in shown.drop("z").iter_rows()],
    )
