"""The `balance` command: parse, call the Python API, print.

Each command is a thin shell; a user's mistake (UserError) becomes one line
on stderr and exit code 2.
"""

from __future__ import annotations

import errno
import sys
import time
from collections.abc import Callable
from functools import wraps
from pathlib import Path
from typing import Annotated, Any, Optional

import typer
from rich.console import Console
from rich.table import Table
from rich.text import Text

from . import __version__
from .analysis.band import FAIR_BAND
from .errors import EXIT_USER_ERROR, Problem, UserError
from .games import GAMES, get_game
from .printable import command_line, printable

try:  # typer 0.2x carries its own copy of click; older releases use click itself
    from typer._click import exceptions as click_errors
except ImportError:  # pragma: no cover - depends on the typer installed
    from click import exceptions as click_errors

app = typer.Typer(
    help="Monte Carlo balance lab for racing card games.",
    no_args_is_help=True,
    add_completion=False,
    pretty_exceptions_enable=False,  # a traceback is a toolkit bug: keep it plain and complete
)
# markup and emoji codes off: every string printed holds user text (names, paths) that may read as rich
# markup ("[/]") or an emoji code (":100:", which also ends a "file:100: field" error line)
out = Console(highlight=False, markup=False, emoji=False)
err = Console(stderr=True, highlight=False, markup=False, emoji=False)


# validate's and cards' --game: which game's database (trace's game of a run is --game-number)
GameOption = Annotated[
    Optional[str],
    typer.Option(
        "--game",
        "-g",
        help=f"Which game's database: {', '.join(GAMES)} (default: the game the file's top-level keys show, "
        "else horsepower).",
        show_default=False,
    ),
]


# where the games are played: the commands that play games take both (the same results on either)
BackendOption = Annotated[str, typer.Option("--backend", help="loky (this machine) or dask (a cluster).")]
SchedulerOption = Annotated[Optional[str], typer.Option("--scheduler", help="Dask scheduler address, tcp://HOST:PORT.")]


def flag(*names: str, **settings: Any) -> Any:
    """A typer option that takes no value: --help shows no <bool> beside it."""
    return typer.Option(*names, metavar="", **settings)


# what every experiment takes (compare, strength, sweep, strong, tune, fit), declared once; the command
# builds experiments.setup.ExperimentOptions from them
def games_option(what: str, default: str = "the scenario's") -> Any:
    return Annotated[Optional[int], typer.Option("--games", "-n", help=f"{what} (default: {default}).")]


def out_option(default: str) -> Any:
    return Annotated[Optional[Path], typer.Option("--out", "-o", help=f"Output folder (default: {default}).")]


def resume_option(help_: str) -> Any:
    return Annotated[bool, flag("--resume", help=help_)]


SeedOption = Annotated[Optional[int], typer.Option("--seed", "-s", help="Root seed (default: the scenario's).")]
JobsOption = Annotated[Optional[int], typer.Option("--jobs", "-j", help="Worker processes (default: all cores).")]
ForceOption = Annotated[bool, flag("--force", help="Replace an earlier result in --out.")]
QuietOption = Annotated[bool, flag("--quiet", "-q", help="No progress bar.")]


def experiment_options(
    games: int | None,
    seed: int | None,
    jobs: int | None,
    out_dir: Path | None,
    force: bool,
    resume: bool,
    backend: str,
    scheduler: str | None,
) -> Any:
    from .experiments.setup import ExperimentOptions

    return ExperimentOptions(games, seed, jobs, out_dir, force, resume, backend, scheduler)


def listed(text: str | None, flag: str, what: str) -> list[str] | None:
    """A comma-separated option: None where it was not given; given but empty (",") is a mistake, not the default."""
    if text is None:
        return None
    names = [name.strip() for name in text.split(",") if name.strip()]
    if not names:
        raise UserError(Problem(flag, None, flag[2:], f"{text!r} names nothing: give {what}"))
    return names


def game_bar(label: str, quiet: bool) -> Any:
    """The progress of every long command: progress.GameBar on stderr."""
    from .progress import GameBar

    return GameBar(err, label, quiet)


WRITE_ERRORS = (errno.ENOSPC, errno.EDQUOT, errno.EROFS, errno.EACCES, errno.EPERM)


def write_failure(exc: OSError) -> str:
    """A file the command could not write, in one line: which, and why."""
    what = "the disk is full" if exc.errno in (errno.ENOSPC, errno.EDQUOT) else (exc.strerror or str(exc)).lower()
    where = exc.filename or "a file"
    return f"{where}: write: {what}; nothing half-written is left (free space or choose another --out, then run again)"


def user_errors(command: Callable[..., Any]) -> Callable[..., Any]:
    """Turn a UserError into one line on stderr and exit code 2."""

    @wraps(command)
    def wrapper(*args: Any, **kwargs: Any) -> Any:
        from .folder_lock import READERS_LOCK, release_folders

        READERS_LOCK[0] = True  # the run directories this command reads are held for its life
        try:
            return command(*args, **kwargs)
        except UserError as exc:
            err.print(f"error: {exc}", markup=False, soft_wrap=True)
            raise typer.Exit(EXIT_USER_ERROR) from None
        except OSError as exc:
            if exc.errno not in WRITE_ERRORS:  # not the machine's disk: a bug, shown as one
                raise
            err.print(f"error: {printable(write_failure(exc))}", markup=False, soft_wrap=True)
            raise typer.Exit(EXIT_USER_ERROR) from None
        finally:
            release_folders()  # the experiment folders the command held, the runs it read
            READERS_LOCK[0] = False

    return wrapper


def _version(value: bool) -> None:
    if value:
        out.print(f"balance {__version__}")
        raise typer.Exit()


@app.callback()
def main_options(
    version: Annotated[
        Optional[bool], flag("--version", callback=_version, is_eager=True, help="Print the version and exit.")
    ] = None,
) -> None:
    """Monte Carlo balance lab for racing card games."""


@app.command()
@user_errors
def validate(
    paths: Annotated[
        Optional[list[Path]],
        typer.Argument(
            help="Card databases to check (default: the game's: cards.yaml, heat.yaml, downforce.yaml or "
            "shuffle_gp.yaml).",
            show_default=False,
        ),
    ] = None,
    game: GameOption = None,
) -> None:
    """Check card databases: print counts by type and flag, and any warnings."""
    from .database_kind import DEFAULT_GAME, choose_game, load_as
    from .stale_text import stale_texts
    from .yamlio import load_yaml

    for path in paths or [Path(get_game(game or DEFAULT_GAME).database_file)]:
        # without --game, each file is read as the game its top-level keys show (a note says so)
        picked = choose_game(path, game, "validate", "validated")
        chosen = picked.game
        if picked.note:
            out.print(picked.note, soft_wrap=True)
        db = load_as(chosen, path, "validate")
        summary = chosen.summary(db)
        table = Table(title=f"{path} ({chosen.title})", title_justify="left")
        table.add_column("type / flag")
        table.add_column("cards", justify="right")
        table.add_column("copies", justify="right")
        for name, (distinct, copies) in summary.by_type.items():
            table.add_row(name, str(distinct), str(copies))
        table.add_section()
        for name, (distinct, copies) in summary.by_flag.items():
            table.add_row(f"{summary.flag_word} {name}", str(distinct), str(copies))
        out.print(table)
        out.print(", ".join(f"{n} {pile}" for pile, n in summary.piles.items()))
        warnings = [*summary.warnings, *stale_texts(load_yaml(path))]  # a text an edit left behind, too
        for warning in warnings:
            out.print(Text.assemble(("warning:", "yellow"), f" {warning}"), soft_wrap=True)
        verdict = "ok" if not warnings else f"ok, {len(warnings)} warning(s)"
        out.print(f"{path}: {verdict}", soft_wrap=True)  # one line, whatever the width: scripts read it


@app.command()
@user_errors
def cards(
    type_: Annotated[Optional[str], typer.Option("--type", "-t", help="Only cards of this type.")] = None,
    flag: Annotated[
        Optional[str],
        typer.Option(
            "--flag",
            "-f",
            help="Only cards with this flag: Horsepower's S, M, E, P, D; Heat's tier; Shuffle GP's driver.",
        ),
    ] = None,
    db_path: Annotated[
        Optional[Path],
        typer.Option(
            "--db", help="The card database (default: the game's, cards.yaml for Horsepower).", show_default=False
        ),
    ] = None,
    game: GameOption = None,
) -> None:
    """List a card database as a table: each card's type, count and text (its cost where cards set cost:)."""
    from .card_listing import listing
    from .database_kind import DEFAULT_GAME, choose_game, load_as, short_title

    path = db_path if db_path is not None else Path(get_game(game or DEFAULT_GAME).database_file)
    picked = choose_game(path, game, "cards --db", "listed")
    if picked.note:
        out.print(picked.note, soft_wrap=True)
    listed = listing(picked.game.name, load_as(picked.game, path, "cards --db"))
    types = sorted({r.type for r in listed.rows})
    if type_ is not None and type_ not in types:
        raise UserError(Problem("--type", None, "type", f"unknown type {type_!r} (known: {', '.join(types)})"))
    if flag is not None and listed.flag_word is None:
        title = short_title(picked.game)
        raise UserError(Problem("--flag", None, "flag", f"{title} cards have no flags (filter with --type)"))
    flags = sorted({f for r in listed.rows for f in r.flags})
    if flag is not None and flag not in flags:
        raise UserError(
            Problem("--flag", None, "flag", f"unknown {listed.flag_word} {flag!r} (known: {', '.join(flags)})")
        )
    shown = [r for r in listed.rows if (type_ is None or r.type == type_) and (flag is None or flag in r.flags)]
    title = Text(printable(f"{path}: {len(shown)} cards, {sum(r.copies for r in shown)} copies"))
    table = Table(title=title, title_justify="left")
    for column in listed.columns:
        table.add_column(column, justify="right" if column in listed.numeric else "left", overflow="fold")
    for row in shown:  # Text: a card's name is shown as written (no rich markup, no terminal escape runs)
        table.add_row(*(Text(printable(row.cells[c])) for c in listed.columns))
    out.print(table)
    if listed.caption:
        out.print(listed.caption, soft_wrap=True)


@app.command()
@user_errors
def trace(
    target: Annotated[
        Path, typer.Argument(metavar="SCENARIO_OR_RUN", help="A scenario file, or a run directory of balance run.")
    ],
    seed: Annotated[Optional[int], typer.Option("--seed", "-s", help="Root seed (default: the scenario's).")] = None,
    game_number: Annotated[
        str, typer.Option("--game-number", "-k", metavar="N", help="Which game of the run, from 0 (its game_id).")
    ] = "0",
    games: Annotated[
        Optional[int], typer.Option("--games", "-n", help="Games in the run (default: the scenario's).")
    ] = None,
    chunk_size: Annotated[
        Optional[int], typer.Option("--chunk-size", help="Games per chunk (default: the scenario's).")
    ] = None,
    # --game names a game in every other command; here the scenario or run names it, so it is refused
    # with what to type instead (it was this command's game number once)
    old_game: Annotated[Optional[str], typer.Option("--game", hidden=True)] = None,
    verbose: Annotated[
        bool,
        flag(
            "--verbose",
            "-v",
            help="Also every hand at each turn (Horsepower, Heat, Downforce) and the cards drawn (by Horsepower's "
            "card effects; Shuffle GP's every draw).",
        ),
    ] = False,
) -> None:
    """Print one game turn by turn: draft, hands, plays, buys, rolls, moves, spaces, laps, winner.

    A run directory: exactly its game --game-number (the run's scenario, seed and chunks).

    A scenario file: game --game-number of balance run with the same --seed, --games and --chunk-size."""
    from .trace_options import game_number as parse_game_number

    game = parse_game_number(game_number, old_game)
    from .runner import RunOptions, resolve_scenario, scenario_of_run

    head = ""
    if target.is_dir():
        given = [
            f"--{name}" for name, v in (("seed", seed), ("games", games), ("chunk-size", chunk_size)) if v is not None
        ]
        if given:
            raise UserError(
                Problem(
                    given[0],
                    None,
                    given[0][2:],
                    f"{target} is a run directory: the run fixes the seed, games and chunks (drop {', '.join(given)})",
                )
            )
        loaded, manifest = scenario_of_run(target)
        m = loaded.model
        status = "" if manifest.get("status") == "complete" else f" ({manifest.get('status')})"
        head = (
            f"run {target}{status}: {m.games} games in {len(loaded.chunks)} chunks of {m.chunk_size}, "
            f"seed {m.seed}, scenario file {manifest.get('scenario_file')}\n"
        )
    else:
        loaded = resolve_scenario(target, RunOptions(games=games, seed=seed, chunk_size=chunk_size))
    chosen = get_game(loaded.model.game, loaded.source, loaded.doc.line_of(("game",)))
    text = head + chosen.trace(loaded, loaded.model.seed, game, verbose)
    sys.stdout.write("\n".join(printable(line) for line in text.split("\n")))  # names as written, no escapes run


@app.command()
@user_errors
def run(
    scenario: Annotated[Path, typer.Argument(help="The scenario file.")],
    games: Annotated[
        Optional[int], typer.Option("--games", "-n", help="Games to play (default: the scenario's).")
    ] = None,
    seed: Annotated[Optional[int], typer.Option("--seed", "-s", help="Root seed (default: the scenario's).")] = None,
    jobs: Annotated[Optional[int], typer.Option("--jobs", "-j", help="Worker processes (default: all cores).")] = None,
    chunk_size: Annotated[
        Optional[int], typer.Option("--chunk-size", help="Games per chunk (one batch, one part file).")
    ] = None,
    out_dir: Annotated[
        Optional[Path], typer.Option("--out", "-o", help="Run directory (default: runs/<scenario name>).")
    ] = None,
    backend: BackendOption = "loky",
    scheduler: SchedulerOption = None,
    resume: Annotated[bool, flag("--resume", help="Finish an interrupted run: only the missing chunks.")] = False,
    force: Annotated[
        bool,
        flag(
            "--force",
            help="Start over an unfinished run in --out (a finished one is replaced without it, and kept as "
            "OUT.previous when its inputs differ).",
        ),
    ] = False,
    quiet: Annotated[bool, flag("--quiet", "-q", help="No progress bar.")] = False,
    only_chunk: Annotated[
        Optional[int], typer.Option("--only-chunk", help="Run one chunk in this process (to reproduce a failure).")
    ] = None,
    sets: SetOption = None,
) -> None:
    """Simulate a scenario's games in parallel chunks into Parquet logs, then summarise win rates."""
    from .logs import load_run, win_rates
    from .progress import GameBar
    from .runner import ChunkFailed, RunInterrupted, RunOptions
    from .runner import run as run_scenario

    options = RunOptions(
        games, seed, chunk_size, jobs, out_dir, backend, scheduler, resume, force, only_chunk, keep_previous=True
    )
    label = str(scenario)
    if sets:
        scenario = with_sets(scenario, sets, "set")
    try:
        with GameBar(err, label, quiet, kind=f"run {label}") as bar:
            result = run_scenario(scenario, options, lambda done, total: bar("", done, total))
    except ChunkFailed as exc:
        err.print(f"error: {exc}", markup=False, soft_wrap=True)
        raise typer.Exit(1) from None
    except RunInterrupted as exc:
        err.print(str(exc), markup=False, soft_wrap=True)
        raise typer.Exit(130) from None
    m = result.manifest
    if only_chunk is not None:
        out.print(f"chunk {only_chunk} done; logs in {result.out}")
        return
    tables = load_run(result.out)
    for by in ("seat", "bot"):
        rates = win_rates(tables["players"], by)
        table = Table(title=f"win rate by {by}", title_justify="left")
        for column in (by, "games", "wins", "win rate", "95% interval"):
            table.add_column(column, justify="left" if column == by else "right")
        for row in rates.iter_rows(named=True):
            table.add_row(
                str(row[by]),
                f"{row['games']:,}",
                f"{row['wins']:,}",
                f"{row['win_rate']:.1%}",
                f"{row['ci_low']:.1%} - {row['ci_high']:.1%}",
            )
        out.print(table)
    ran = sum(m["chunks"][c][1] for c in result.ran_chunks)
    speed = f", {ran / result.seconds:,.0f} games/s" if result.seconds > 0 and ran else ""
    out.print(
        f"{m['games']:,} games ({m['unfinished_games']} unfinished), seed {m['seed']}, "
        f"{len(result.ran_chunks)} chunk(s) run in {result.seconds:.1f} s{speed}"
    )
    if result.replaced_chunks:
        listed = ", ".join(str(c) for c in result.replaced_chunks[:10]) + (
            ", ..." if len(result.replaced_chunks) > 10 else ""
        )
        out.print(
            f"played again {len(result.replaced_chunks)} chunk(s) whose parts were unreadable, short or another "
            f"run's: {listed}"
        )
    out.print(f"logs: {result.out}/ (games/, players/, cards/, manifest.json)", soft_wrap=True)
    if result.previous is not None:
        out.print(
            f"the run it replaced: {result.previous}/ (balance report opens with what changed since)",
            soft_wrap=True,
            markup=False,
        )
    out.print(f"next: {command_line('balance', 'report', result.out)}", soft_wrap=True, markup=False)


@app.command()
@user_errors
def report(
    run_dir: Annotated[Path, typer.Argument(help="A run directory written by balance run.")],
    out_dir: Annotated[
        Optional[Path], typer.Option("--out", "-o", help="Report folder (default: reports/<scenario name>).")
    ] = None,
    strength_dir: Annotated[
        Optional[Path],
        typer.Option(
            "--strength",
            help="A balance strength folder (default: RUN/strength/, else runs/<name>-strength beside the run).",
        ),
    ] = None,
    measure: Annotated[
        bool,
        flag(
            "--measure",
            help="First measure every item's causal strength for the run's scenario (balance strength --all, "
            "adaptive) into RUN/strength/, replacing an earlier one there.",
        ),
    ] = False,
    budget: Annotated[
        Optional[int],
        typer.Option(
            "--budget",
            help="With --measure: games in all, spent until every item is decided (default: 5,200 an item, at "
            "least 50,000, stopping once 95% of the items are decided).",
        ),
    ] = None,
    tolerance: Annotated[
        float, typer.Option("--tolerance", help="The fair band, +- this many points: what to change lies beyond it.")
    ] = FAIR_BAND,
    jobs: JobsOption = None,
    quiet: QuietOption = False,
) -> None:
    """Build the report of a run: index.html, one PNG per chart, each table as CSV."""
    from .report.headline import MEASURED
    from .report.html import build_report

    started = time.perf_counter()
    if strength_dir is not None and not (strength_dir / "strength.csv").is_file():
        raise UserError(Problem("--strength", None, "strength", f"{strength_dir} holds no strength.csv"))
    if not 0 < tolerance < 50:
        raise UserError(
            Problem("--tolerance", None, "tolerance", f"must be between 0 and 50 points, got {tolerance:g}")
        )
    if measure:
        from .experiments.strength import measure_budget
        from .experiments.strength import strength as run_strength
        from .runner import scenario_of_run

        if strength_dir is not None:
            raise UserError(Problem("--measure", None, "measure", "--measure writes RUN/strength/: drop --strength"))
        scenario, _ = scenario_of_run(run_dir)
        from dataclasses import replace

        options = replace(
            experiment_options(None, None, jobs, run_dir / MEASURED, True, False, "loky", None), fixed_out=True
        )
        games, decided = measure_budget(scenario, budget)
        with game_bar("strength", quiet) as bar:
            measured = run_strength(scenario, None, options, True, bar, games, tolerance, decided)
        out.print(
            f"strength: {int(measured.table['games'].sum()):,} paired games over {measured.table.height} items; "
            f"table {measured.out / 'strength.csv'}",
            soft_wrap=True,
        )
    built = build_report(run_dir, out_dir, strength_dir, tolerance)
    if built.status:
        out.print(Text.assemble(("warning:", "yellow"), f" {built.status}"), soft_wrap=True)
    for heading, lines in built.findings:
        out.print(heading if heading.endswith("?") else f"{heading}:", soft_wrap=True)
        for line in lines:
            out.print(f"- {line}", soft_wrap=True)
    out.print(
        f"report: {built.index} ({len(built.charts)} charts, {len(built.tables)} tables, "
        f"{time.perf_counter() - started:.1f} s)",
        soft_wrap=True,  # one line, whatever the path's length: scripts read it
    )


SetOption = Annotated[
    Optional[list[str]],
    typer.Option(
        "--set",
        help="PATH=VALUE: a change tried without editing a file, a path as in overrides:, sweep and fit "
        "(cards.ID.effects.0.amount=4); repeat for more.",
    ),
]


def with_sets(path: Path, sets: list[str], name: str, variant: bool = False):
    """The scenario at `path` with --set values: as its own database (run), or
    as one more variant named after them (compare). Checked before any game."""
    from dataclasses import replace

    from .overrides import parse_sets
    from .scenario import load_scenario

    if path.is_dir():
        raise UserError(Problem("--set", None, "set", "--set changes a scenario, not two runs on disk"))
    loaded = load_scenario(path)
    values = parse_sets(sets, loaded.database_doc().data)
    if not variant:
        return loaded.with_overrides(values, f"{loaded.model.name}-{name}")
    from .scenario import Variant

    taken = {v.name for v in loaded.model.variants}
    name = next(n for n in (name, *(f"{name}-{i}" for i in range(2, 100))) if n not in taken)
    out.print(f"variant {name}: " + ", ".join(f"{k}={v}" for k, v in values.items()), soft_wrap=True, markup=False)
    model = loaded.model.model_copy(update={"variants": [*loaded.model.variants, Variant(name=name, overrides=values)]})
    doc = replace(loaded.doc, given=loaded.doc.given | dict.fromkeys(values, "--set"))  # its mistakes are --set's
    return type(loaded)(loaded.source, model, loaded.cards_path, doc, loaded.cards_doc)


MAX_CHANGES_SHOWN = 20  # database changes printed by compare RUN_A RUN_B (the page has them all)


@app.command()
@user_errors
def compare(
    scenario: Annotated[
        Path, typer.Argument(help="A scenario with variants:, or a run directory (BEFORE) to compare with AFTER.")
    ],
    after: Annotated[
        Optional[Path],
        typer.Argument(help="A second run directory: compare two runs on disk (same seed, games, chunks, field)."),
    ] = None,
    games: games_option("Games per run") = None,
    seed: SeedOption = None,
    jobs: JobsOption = None,
    out_dir: out_option("runs/<name>-compare") = None,
    until_ci: Annotated[
        Optional[float],
        typer.Option(
            "--until-ci",
            help="Add games until the headline difference's 95% interval is narrower, in percentage points (e.g. 2).",
        ),
    ] = None,
    max_games: Annotated[
        Optional[int], typer.Option("--max-games", help="With --until-ci: at most this many games per run.")
    ] = None,
    headline: Annotated[
        str, typer.Option("--headline", help="The win rate --until-ci watches: seat:N or bot:NAME.")
    ] = "seat:0",
    backend: BackendOption = "loky",
    scheduler: SchedulerOption = None,
    force: ForceOption = False,
    quiet: QuietOption = False,
    sets: SetOption = None,
) -> None:
    """Run the baseline and each variant on the same seeds and compare every metric."""
    import polars as pl

    from .analysis.compare import compared_text
    from .experiments.compare import changed_ids, reading_order
    from .experiments.compare import compare as run_compare

    options = experiment_options(games, seed, jobs, out_dir, force, False, backend, scheduler)
    if scenario.is_dir() or after is not None:  # two runs already on disk: no game is played again
        from .experiments.compare import compare_two_runs

        if after is None:
            raise UserError(Problem(str(scenario), None, "run", "is a run directory: give a second run to compare"))
        if sets:  # two runs on disk are compared as they were played: nothing to set
            raise UserError(Problem("--set", None, "set", "--set changes a scenario, not two runs on disk"))
        result = compare_two_runs(scenario, after, options)
        out.print("what changed:" + ("" if result.changed else " nothing (the same database and field)"))
        for line in result.changed[:MAX_CHANGES_SHOWN]:
            out.print(f"  {line}", soft_wrap=True, markup=False)
        if len(result.changed) > MAX_CHANGES_SHOWN:
            out.print(f"  ... and {len(result.changed) - MAX_CHANGES_SHOWN} more (the page lists them all)")
        if result.unpaired:
            out.print(Text.assemble(("note:", "yellow"), f" {result.unpaired}"), soft_wrap=True)
        else:
            out.print(result.paired, soft_wrap=True)
        for k, line in enumerate(result.causal):
            out.print(line if k == 0 else f"  {line}", soft_wrap=True, markup=False)
    else:
        if sets:  # one more variant: the scenario with these values, against the baseline
            scenario = with_sets(scenario, sets, "set", variant=True)
        with game_bar("compare", quiet) as bar:
            result = run_compare(scenario, options, bar, until_ci, max_games, headline)
        out.print(
            "what changed:" + ("" if result.changed else " nothing in the database (the variants change the field)")
        )
        for line in result.changed[:MAX_CHANGES_SHOWN]:
            out.print(f"  {printable(line)}", soft_wrap=True, markup=False)
        if len(result.changed) > MAX_CHANGES_SHOWN:
            out.print(f"  ... and {len(result.changed) - MAX_CHANGES_SHOWN} more (the page lists them all)")
    if until_ci is not None:
        out.print(
            f"stopped at {result.games:,} games per run: {result.headline} difference interval "
            f"{result.headline_width:.2f} points wide (target {until_ci:g})"
        )
    t = result.table
    out.print(f"{t.filter(t['significant']).height} of {t.height} differences significant (Benjamini-Hochberg, 5%)")
    # the changed items' rows and the win rates by seat and bot first, significant or not; then the significant rest
    first = pl.col("key").cast(pl.Utf8).is_in(list(changed_ids(result.changed))) | pl.col("metric").is_in(
        ["win rate by seat", "win rate by bot"]
    )
    for row in reading_order(t.filter(first | pl.col("significant")), result.changed).head(12).iter_rows(named=True):
        mark = "" if row["significant"] else " (not significant)"
        out.print(
            f"  {row['variant']}: {row['metric']} {row['key']}: {compared_text(row)}{mark}",
            soft_wrap=True,
            markup=False,
        )
    out.print(f"table: {result.out / 'compare.csv'}; page: {result.index}")
    if after is None:
        out.print(
            f"next: open {command_line(result.index)}, or {command_line('balance', 'report', result.out / 'baseline')}",
            soft_wrap=True,
            markup=False,
        )


@app.command()
@user_errors
def strength(
    scenario: Annotated[Path, typer.Argument(help="The scenario file.")],
    cards: Annotated[
        Optional[str],
        typer.Option("--cards", help="Item ids, comma-separated (default: every item the game can give a seat)."),
    ] = None,
    games: games_option(
        "Games per item; with --budget, the first pass's", "the scenario's; 1,024 with --budget"
    ) = None,
    budget: Annotated[
        Optional[int],
        typer.Option(
            "--budget",
            help="Games in all: after a first pass, more games go to the items whose interval straddles the "
            "decision (inside the fair band, or past it), until each is classified or the budget is spent.",
        ),
    ] = None,
    tolerance: Annotated[
        float, typer.Option("--tolerance", help="The fair band, +- this many points: an item inside it is fair.")
    ] = FAIR_BAND,
    seed: SeedOption = None,
    jobs: JobsOption = None,
    out_dir: out_option("runs/<name>-strength") = None,
    all_items: Annotated[
        bool,
        flag(
            "--all",
            help="Every item (also Horsepower's Playbooks, Downforce's speed cards, Shuffle GP's ability cards).",
        ),
    ] = False,
    backend: BackendOption = "loky",
    scheduler: SchedulerOption = None,
    force: ForceOption = False,
    quiet: QuietOption = False,
) -> None:
    """Rank cards (powers, drivers) by experiment: one seat gets the item, against the same games without."""
    from .experiments.strength import strength as run_strength

    chosen = listed(cards, "--cards", "item ids, e.g. --cards twin_turbo,v8_block")
    options = experiment_options(games, seed, jobs, out_dir, force, False, backend, scheduler)
    with game_bar("strength", quiet) as bar:
        result = run_strength(scenario, chosen, options, all_items, bar, budget, tolerance)
    table = result.table  # strongest first: the top and the bottom, so a weak item always shows
    shown = table if table.height <= 12 else table.head(6).vstack(table.tail(6))
    for i, row in enumerate(shown.iter_rows(named=True)):
        if i == 6 and table.height > 12:
            out.print(f"  ... {table.height - 12} more between (strength.csv has every item)")
        out.print(
            f"  {row['card']}: {100 * row['change']:+.1f} points ({100 * row['ci_low']:+.1f} to "
            f"{100 * row['ci_high']:+.1f}), n={row['games']:,}, {row['verdict']}"
        )
    out.print(f"table: {result.out / 'strength.csv'}; page: {result.index}")
    out.print(  # the experiment's baseline is a run of the scenario as it is: a report of it runs as printed
        f"the report of the experiment's baseline games ({scenario} as it is) leads with these findings, as a "
        "report of any run of the same game, field and cards does with --strength:",
        soft_wrap=True,
    )
    out.print(f"next: balance report {result.out / 'baseline'} --strength {result.out}", soft_wrap=True)


@app.command()
@user_errors
def sweep(
    scenario: Annotated[Path, typer.Argument(help="The scenario file.")],
    setting: Annotated[str, typer.Option("--set", help="PATH=VALUES: 1..6, 1,3,5 or 0.5:2.0:0.25.")],
    metric: Annotated[
        Optional[str],
        typer.Option(
            "--metric",
            help="seat:N, bot:NAME, card:ID (association) or strength:ID (causal; default for the swept card, "
            "else seat:0).",
        ),
    ] = None,
    target: Annotated[
        Optional[float],
        typer.Option(
            "--target",
            help="Find where the metric crosses this value, in its unit: percent for a win rate (e.g. 25), "
            "points for a difference (e.g. 0).",
        ),
    ] = None,
    games: games_option("Games per value") = None,
    seed: SeedOption = None,
    jobs: JobsOption = None,
    out_dir: out_option("runs/<name>-sweep") = None,
    backend: BackendOption = "loky",
    scheduler: SchedulerOption = None,
    force: ForceOption = False,
    quiet: QuietOption = False,
) -> None:
    """Run one setting at several values and plot a metric against it."""
    from .experiments.sweep import sweep as run_sweep

    options = experiment_options(games, seed, jobs, out_dir, force, False, backend, scheduler)
    with game_bar("sweep", quiet) as bar:
        result = run_sweep(scenario, setting, metric, target, options, bar)
    out.print(f"metric: {result.metric}", soft_wrap=True)
    for row in result.table.iter_rows(named=True):
        e, lo, hi = (row[k] for k in ("estimate", "ci_low", "ci_high"))
        figure = (
            f"{e:+.1f} points ({lo:+.1f} to {hi:+.1f})" if result.difference else f"{e:.1f}% ({lo:.1f} to {hi:.1f}%)"
        )
        out.print(f"  {row['setting']} = {row['value']:g}: {figure}")
    if target is not None:
        shown = (
            f"{target:+g} points"
            if result.difference and target
            else "0 points"
            if result.difference
            else f"{target:g}%"
        )
        if result.crossing is not None:
            out.print(f"{result.metric} crosses {shown} at {result.crossing:.4g}")
        else:
            values = result.table["value"]
            out.print(
                f"{result.metric} does not cross {shown} between {values.min():g} and {values.max():g}: "
                "sweep a wider range to find where it does",
                soft_wrap=True,
            )
    out.print(f"table: {result.out / 'sweep.csv'}; chart: {result.out / 'sweep.png'}")


@app.command()
@user_errors
def strong(
    run_dir: Annotated[Path, typer.Argument(help="A run directory (balance run).")],
    games: games_option("Games of the tuned field", "the run's") = None,
    ladder_games: Annotated[
        int, typer.Option("--ladder-games", help="Games for each profile of the skill ladder.")
    ] = 8192,
    jobs: JobsOption = None,
    backend: BackendOption = "loky",
    scheduler: SchedulerOption = None,
    resume: resume_option("Finish an interrupted strong run.") = False,
    force: Annotated[bool, flag("--force", help="Replace the strong run in RUN/strong/.")] = False,
    measure: Annotated[
        bool,
        flag(
            "--measure",
            help="Also measure every item's causal strength in the tuned field (RUN/strong/strength/): the report "
            "then labels each item from the test of the difference between the fields.",
        ),
    ] = False,
    budget: Annotated[
        Optional[int], typer.Option("--budget", help="With --measure: games in all (default: as report --measure).")
    ] = None,
    exploit_budget: Annotated[
        int,
        typer.Option(
            "--exploit-budget",
            help="Games for a fresh tune of a tuned copy against the tuned field: the best challenger found, "
            "held out (0: none).",
        ),
    ] = 0,
    quiet: QuietOption = False,
) -> None:
    """Play the run's scenario again with the game's `tuned` profile in every seat (RUN/strong/), and a skill
    ladder: one seat of each profile against `tuned`. The report shows both beside the run's figures."""
    from .experiments.strong import play_strong

    options = experiment_options(games, None, jobs, None, force, resume, backend, scheduler)
    with game_bar("strong", quiet) as bar:
        measured, decided = None, 1.0
        if measure:
            from .experiments.strength import measure_budget
            from .runner import scenario_of_run

            measured, decided = measure_budget(scenario_of_run(run_dir)[0], budget)
        result = play_strong(run_dir, options, ladder_games, bar, measured, exploit_budget, decided)
    table = Table(title="skill ladder: one seat against tuned", title_justify="left")
    for column in ("bot", "games", "win rate", "95% interval"):
        table.add_column(column, justify="left" if column == "bot" else "right")
    for row in result.ladder.iter_rows(named=True):
        table.add_row(
            row["bot"], f"{row['games']:,}", f"{row['win_rate']:.1%}", f"{row['ci_low']:.1%} - {row['ci_high']:.1%}"
        )
    out.print(table)
    out.print(
        f"tuned field: {printable(result.out)}/; ladder: {printable(result.out / 'ladder.csv')}; "
        f"{command_line('balance', 'report', run_dir)}",
        markup=False,
    )


@app.command()
@user_errors
def tune(
    scenario: Annotated[Path, typer.Argument(help="The scenario: its field of bots, one per seat.")],
    bot: Annotated[
        Optional[str], typer.Option("--bot", help="The profile to tune (it takes its first seat in the field).")
    ] = None,
    all_bots: Annotated[
        bool, flag("--all", help="Tune every bot of the field in turn (iterated best response).")
    ] = False,
    exploit: Annotated[
        bool,
        flag(
            "--exploit",
            help="Measure how exploitable `tuned` is: tune a tuned copy against tuned in every other seat "
            "(the scenario's players; Legends stay); the held-out gain is the best challenger found.",
        ),
    ] = False,
    harden: Annotated[
        bool,
        flag(
            "--harden",
            help="Make `tuned` unexploitable: adopt the best challenger (a fresh tune or a hand counter) "
            "until none gains more than 3 points held out, checked at twice the budget and at least --check-budget.",
        ),
    ] = False,
    check_budget: Annotated[
        Optional[int],
        typer.Option(
            "--check-budget",
            help="With --harden: the least search budget of the check that ends it (a smaller search finds "
            "smaller exploits; default 320,000: the budget of the exploitability figure bots.yaml ships).",
        ),
    ] = None,
    counters: Annotated[
        Optional[Path],
        typer.Option(
            "--counters", help="With --exploit or --harden: hand counters to try too (YAML: game -> name -> values)."
        ),
    ] = None,
    rounds: Annotated[int, typer.Option("--rounds", help="With --all: passes over the field.")] = 1,
    games_per_eval: Annotated[
        int, typer.Option("--games-per-eval", help="Games every candidate of a round plays first (one chunk).")
    ] = 256,
    budget: Annotated[int, typer.Option("--budget", help="Games the search may spend.")] = 200_000,
    population: Annotated[int, typer.Option("--population", help="Candidates a round.")] = 16,
    confirm_games: Annotated[
        Optional[int],
        typer.Option("--confirm-games", help="Held-out games, tuned against the start (default: budget/10)."),
    ] = None,
    seed: SeedOption = None,
    jobs: JobsOption = None,
    out_dir: out_option("runs/<name>-tune-<bot>") = None,
    fix: Annotated[
        Optional[str], typer.Option("--fix", help="Values held at the start's, comma-separated (e.g. weights.drive).")
    ] = None,
    backend: BackendOption = "loky",
    scheduler: SchedulerOption = None,
    resume: resume_option("Continue an interrupted tune.") = False,
    force: ForceOption = False,
    quiet: QuietOption = False,
) -> None:
    """Search a bot profile's values for its win rate in the scenario's field, then confirm on fresh games."""
    from .experiments.tune import TuneOptions
    from .experiments.tune import tune as run_tune
    from .experiments.tune.output import points

    if check_budget is not None and not harden:
        raise UserError(Problem("--check-budget", None, "check-budget", "--check-budget goes with --harden"))
    if counters is not None and not (exploit or harden):
        raise UserError(Problem("--counters", None, "counters", "--counters goes with --exploit or --harden"))
    if exploit or harden:
        flag_name = "--harden" if harden else "--exploit"
        if bot is not None or all_bots or (exploit and harden):
            raise UserError(
                Problem(flag_name, None, flag_name[2:], f"{flag_name} tunes tuned itself: drop --bot and --all")
            )
        from .experiments.strong import TUNED, check_tuned, exploit_field
        from .scenario import load_scenario

        loaded = load_scenario(scenario)
        check_tuned(loaded)
        scenario, bot = exploit_field(loaded), TUNED
        hand = {}
        if counters is not None:
            from .experiments.tune.harden import check_counters, load_counters

            hand, counters_doc = load_counters(counters, loaded.model.game)
            check_counters(scenario, bot, hand, counters_doc)
    if (bot is None) == (not all_bots):
        raise UserError(Problem("--bot", None, "bot", "give --bot NAME, or --all to tune every bot of the field"))
    command = " ".join(["balance", "tune", *sys.argv[2:]]) if sys.argv[1:2] == ["tune"] else ""
    fixed = tuple(listed(fix, "--fix", "value names, e.g. --fix weights.drive") or ())
    common = experiment_options(None, seed, jobs, out_dir, force, resume, backend, scheduler)
    options = TuneOptions(
        **vars(common),
        bot=bot or "",
        games_per_eval=games_per_eval,
        budget=budget,
        population=population,
        confirm_games=confirm_games,
        command=command,
        fixed=fixed,
    )
    if all_bots:
        from .experiments.tune.field import tune_field

        with game_bar("tune", quiet) as bar:
            field = tune_field(scenario, options, rounds, on_progress=bar)
        for row in field.rows:
            out.print(
                f"  {row['pass']}: {row['bot']} {points(row['gain'])} points ({points(row['gain_low'])} to "
                f"{points(row['gain_high'])}){' adopted' if row['adopted'] else ''}",
                soft_wrap=True,
            )
        out.print(f"profiles: {field.out / 'field.yaml'}; page: {field.index}")
        return
    if harden:
        from .experiments.tune.harden import CHECK_BUDGET, summary
        from .experiments.tune.harden import harden as run_harden

        with game_bar("harden tuned", quiet) as bar:
            hardened = run_harden(scenario, options, hand, bar, CHECK_BUDGET if check_budget is None else check_budget)
        for step in hardened.steps:
            best = max(step["challengers"], key=lambda c: c["gain"])
            out.print(
                f"  step {step['step']} ({'check, ' if step['check'] else ''}budget {step['budget']:,}): best "
                f"{best['name']} {points(best['gain'])} points ({points(best['gain_low'])} to "
                f"{points(best['gain_high'])}){' adopted' if step['adopted'] else ''}",
                soft_wrap=True,
            )
        out.print(f"tuned {summary(hardened)}", soft_wrap=True)
        out.print(f"profile: {hardened.out / 'tuned.yaml'}; steps: {hardened.out / 'harden.json'}")
        return
    with game_bar(f"tune {bot}", quiet) as bar:
        result = run_tune(scenario, options, bar)
    if exploit and hand:
        from .experiments.tune.harden import challenge_counters, counter_games, counter_seed

        seed_used = scenario.model.seed if options.seed is None else options.seed
        for c in challenge_counters(scenario, bot, hand, counter_seed(seed_used, 0), counter_games(options), options):
            out.print(
                f"  counter {c.name}: {points(c.gain.rate)} points ({points(c.gain.low)} to {points(c.gain.high)}, "
                f"n={c.gain.n:,}) over tuned",
                soft_wrap=True,
            )
    from .experiments.tune.output import verdict

    out.print(
        f"{result.rounds} round(s), {result.games:,} games in the search, {result.confirm_games:,} held out",
        soft_wrap=True,
    )
    out.print(verdict(result), soft_wrap=True)
    out.print(f"profile: {result.out / 'tuned.yaml'}; page: {result.index}")


@app.command(
    epilog="Example: balance fit scenarios/four-player-mixed.yaml "
    "--free cards.twin_turbo.effects.0.amount=2..8 --target strength:twin_turbo=0+-2"
)
@user_errors
def fit(
    scenario: Annotated[Path, typer.Argument(help="The scenario: its field, players, seed and card database.")],
    free: Annotated[
        list[str],
        typer.Option("--free", help="A value to search, PATH=RANGE as in sweep (see the example below)."),
    ],
    target: Annotated[
        list[str],
        typer.Option(
            "--target",
            help="What balanced means, in points: seat-balance<=2, draft-balance<=2, bot-spread<=10, strength:ID=0+-2, "
            "strength:all+-3, rounds=18..24.",
        ),
    ],
    max_changes: Annotated[
        Optional[int], typer.Option("--max-changes", help="Change at most this many values.")
    ] = None,
    budget: Annotated[int, typer.Option("--budget", help="Games the search may spend.")] = 100_000,
    games: games_option("Games per candidate", "the scenario's, or fewer: what --budget holds in 4 rounds") = None,
    population: Annotated[int, typer.Option("--population", help="Candidates a round, besides the centre.")] = 8,
    confirm_games: Annotated[
        Optional[int],
        typer.Option("--confirm-games", help="Held-out games for today and the proposal (default: 2 x games)."),
    ] = None,
    seed: SeedOption = None,
    jobs: JobsOption = None,
    out_dir: out_option("runs/<name>-fit-<the first --free's item or rule>") = None,
    backend: BackendOption = "loky",
    scheduler: SchedulerOption = None,
    force: ForceOption = False,
    resume: resume_option("Continue the fit in --out from its last round (a larger --budget too).") = False,
    quiet: QuietOption = False,
) -> None:
    """Search card and rule values toward targets; propose the change as a variants: entry, confirmed on held-out seeds."""
    from .experiments.fit import FitOptions
    from .experiments.fit import fit as run_fit
    from .experiments.fit.output import console_lines, plain_summary, response_lines, untried_line, write_outputs

    common = experiment_options(games, seed, jobs, out_dir, force, resume, backend, scheduler)
    options = FitOptions(
        **vars(common),
        frees=free,
        targets=target,
        max_changes=max_changes,
        budget=budget,
        population=population,
        confirm_games=confirm_games,
    )
    with game_bar("fit", quiet) as bar:
        result = run_fit(scenario, options, bar)
    index = write_outputs(result, scenario.stem)
    out.print(plain_summary(result), soft_wrap=True, markup=False)
    for line in result.why_not:
        out.print(line, soft_wrap=True, markup=False)
    for line in response_lines(result) + console_lines(result):
        out.print(f"  {line}", soft_wrap=True, markup=False)
    if result.edges:
        out.print(
            f"  at an end of its range (a wider one may reach further): {'; '.join(result.edges)}",
            soft_wrap=True,
            markup=False,
        )
    if result.untried:
        out.print(f"  {untried_line(result)}", soft_wrap=True, markup=False)
    out.print(f"proposal: {result.out / 'proposal.yaml'}; page: {index}", soft_wrap=True)


@app.command()
@user_errors
def rebalance(
    scenario: Annotated[Path, typer.Argument(help="The scenario: its field, players, seed and card database.")],
    tolerance: Annotated[
        float, typer.Option("--tolerance", help="The fair band, +- this many points: every item is taken inside it.")
    ] = FAIR_BAND,
    items: Annotated[
        Optional[str],
        typer.Option(
            "--items", help="Item ids, comma-separated (default: every item balance strength --all measures)."
        ),
    ] = None,
    fix: Annotated[
        Optional[list[str]], typer.Option("--fix", help="An item id or a PATH that must not move (again for more).")
    ] = None,
    free: Annotated[
        Optional[list[str]],
        typer.Option(
            "--free",
            help="PATH=RANGE: the number to turn for its item, within the range (default: its first effect's amount).",
        ),
    ] = None,
    budget: Annotated[
        Optional[int], typer.Option("--budget", help="Games per whole-field measure (default: as report --measure).")
    ] = None,
    rounds: Annotated[int, typer.Option("--rounds", help="Measure -> step rounds at most.")] = 8,
    no_positions: Annotated[
        bool, flag("--no-positions", help="Leave the seats' and draft positions' starting coins as they are.")
    ] = False,
    apply: Annotated[
        Optional[Path], typer.Option("--apply", help="Write a copy of the card database with the proposal, here.")
    ] = None,
    also: Annotated[
        Optional[list[str]],
        typer.Option(
            "--also",
            help="Another scenario of the same database (another player count, field) to check the proposal in, "
            "held out (again for more).",
        ),
    ] = None,
    search_also: Annotated[
        bool,
        flag(
            "--search-also",
            help="Balance in the --also scenarios too, not only check the proposal there: each figure is its "
            "mean over every field, and a figure outside in any of them is stepped.",
        ),
    ] = False,
    no_tuned: Annotated[
        bool,
        flag(
            "--no-tuned",
            help="Balance in the scenario's field alone (by default each figure is its mean over the scenario's "
            "field and the tuned field, `tuned` in every seat, and the proposal is checked in both).",
        ),
    ] = False,
    harden: Annotated[
        bool,
        flag(
            "--harden",
            help="Harden `tuned` (balance tune --harden) at each round's values before the round reads the "
            "tuned field: a database step moves the best response. Minutes a round.",
        ),
    ] = False,
    harden_budget: Annotated[
        Optional[int],
        typer.Option("--harden-budget", help="With --harden: each hardening's first search budget (default 160,000)."),
    ] = None,
    check_budget: Annotated[
        Optional[int],
        typer.Option(
            "--check-budget",
            help="With --harden: the least search budget of the check that ends a hardening (default 320,000).",
        ),
    ] = None,
    counters: Annotated[
        Optional[Path],
        typer.Option("--counters", help="With --harden: hand counters each hardening tries too (as balance tune's)."),
    ] = None,
    games: games_option("Games per item in a measure's first pass", "1,024") = None,
    seed: SeedOption = None,
    jobs: JobsOption = None,
    out_dir: out_option("runs/<name>-rebalance") = None,
    backend: BackendOption = "loky",
    scheduler: SchedulerOption = None,
    force: ForceOption = False,
    resume: resume_option("Continue the rebalance in --out from its last round.") = False,
    quiet: QuietOption = False,
) -> None:
    """Take the whole database to fair: every item outside the band stepped at once, the field measured again, until fair."""
    from .experiments.rebalance import RebalanceOptions
    from .experiments.rebalance import rebalance as run_rebalance
    from .experiments.rebalance_output import (
        applied_scenario,
        apply_to_copy,
        check_copy,
        field_summaries,
        hardened_line,
        summary,
        write_outputs,
        written,
    )
    from .runner import resolve_scenario

    chosen = listed(items, "--items", "item ids, e.g. --items twin_turbo,rocket_fuel")
    common = experiment_options(games, seed, jobs, out_dir, force, resume, backend, scheduler)
    from .experiments.tune.harden import CHECK_BUDGET, HARDEN_BUDGET

    hardening, hand = None, {}
    given = [
        f
        for f, v in (("--counters", counters), ("--harden-budget", harden_budget), ("--check-budget", check_budget))
        if v is not None
    ]
    if not harden and given:
        raise UserError(Problem(given[0], None, given[0][2:], f"{given[0]} goes with --harden"))
    harden_budget = HARDEN_BUDGET if harden_budget is None else harden_budget
    check_budget = CHECK_BUDGET if check_budget is None else check_budget
    if harden:
        from .experiments.tune import TuneOptions
        from .experiments.tune.harden import load_counters

        for name, value in (("--harden-budget", harden_budget), ("--check-budget", check_budget)):
            if value < 1:
                raise UserError(Problem(name, None, name[2:], f"must be at least 1, got {value:,}"))
        hardening = TuneOptions(budget=harden_budget)
        if counters is not None:
            hand, _ = load_counters(counters, resolve_scenario(scenario, common.runs()).model.game)
    options = RebalanceOptions(
        **vars(common),
        tolerance=tolerance,
        items=chosen,
        fixed=fix or [],
        frees=free or [],
        budget=budget,
        rounds=rounds,
        positions=not no_positions,
        tuned=not no_tuned,
        also=also or [],
        search_also=search_also,
        harden=hardening,
        counters=hand,
        check_budget=check_budget,
    )
    cards_path = resolve_scenario(scenario, common.runs()).cards_path
    if apply is not None:  # before any game
        check_copy(cards_path, apply, force)
    with game_bar("rebalance", quiet) as bar:
        check = (lambda values: written(cards_path, values)) if apply is not None else None
        result = run_rebalance(scenario, options, bar, check)
    index = write_outputs(result, scenario.stem)
    out.print(summary(result), soft_wrap=True, markup=False)
    for line in [*field_summaries(result), *result.why_not]:
        out.print(line, soft_wrap=True, markup=False)
    for path, value in result.proposal.items():
        out.print(f"  {path}: {result.start[path]} -> {value}", soft_wrap=True, markup=False)
    if result.tuned_profile is not None:
        out.print(hardened_line(result), soft_wrap=True, markup=False)
    if apply is not None and result.proposal:
        written_to, by_hand = apply_to_copy(cards_path, result.proposal, apply)
        out.print(f"the proposal written into a copy of the card database: {written_to}", soft_wrap=True, markup=False)
        then = applied_scenario(resolve_scenario(scenario, common.runs()).source, written_to, result)
        if result.tuned_profile is not None:  # checked by a search as large as its hardening's check floor
            check = command_line("balance", "tune", then, "--exploit", "--budget", str(check_budget))
            why = "`tuned` hardened at the proposal's values plays there (applied.yaml's bot_profiles)"
        else:
            check = command_line("balance", "tune", then, "--exploit")
            why = (
                "`tuned` was hardened against today's database: where a challenger gains more than 3 points, "
                "--harden it, then rebalance again"
            )
        out.print(f"next: {check} ({why})", soft_wrap=True, markup=False)
        if by_hand:
            out.print(
                f"rewrite by hand the text of {', '.join(by_hand)}: it says the changed number more than once, "
                "or not at all",
                soft_wrap=True,
                markup=False,
            )
    out.print(f"proposal: {result.out / 'proposal.yaml'}; page: {index}", soft_wrap=True, markup=False)


def main() -> None:
    """The console script: a usage mistake (an unknown option, a value that is
    not a number) is one line too, naming the help to read."""
    try:
        code = app(standalone_mode=False)
    except click_errors.NoArgsIsHelpError as exc:  # typer's rich help printed itself; click's is the message
        if exc.format_message().strip():
            out.print(exc.format_message())
        sys.exit(EXIT_USER_ERROR)
    except click_errors.UsageError as exc:
        where = f" (see {exc.ctx.command_path} --help)" if exc.ctx is not None else ""
        message = " ".join(exc.format_message().split())
        err.print(f"error: {message}{where}", soft_wrap=True)
        sys.exit(EXIT_USER_ERROR)
    except (typer.Abort, KeyboardInterrupt):
        code = 130
    if code == 130 and sys.argv[1:2] != ["run"]:  # Ctrl-C (typer returns 130); balance run says its own line
        err.print(interrupted_line(sys.argv[1:]), soft_wrap=True)
        _stop_workers()
    sys.exit(code if isinstance(code, int) else 0)


RESUMABLE = {  # what an interrupted command kept, and the flag that goes on from it
    "tune": ("the search's state after its last finished round", "--resume"),
    "fit": ("the search's state after its last finished round", "--resume"),
    "strong": ("the tuned field's finished chunks", "--resume"),
}


def interrupted_line(args: list[str]) -> str:
    """One line for Ctrl-C: what was kept and the command that goes on from it
    (balance run says its own, with its chunks)."""
    command = args[0] if args else ""
    again = " ".join(["balance", *(a for a in args if a not in ("--force", "--resume"))])
    if command in RESUMABLE:
        kept, flag = RESUMABLE[command]
        return f"interrupted: kept {kept}; {again} {flag} goes on from there"
    if command in ("strength", "sweep", "compare"):
        return f"interrupted: the output folder holds an unfinished result; {again} --force plays it again"
    if command == "report":
        return f"interrupted: nothing of the report was kept; {again} builds it again"
    return "interrupted"


def _stop_workers() -> None:
    """The worker processes of an interrupted command, stopped now (not at exit, where they printed a traceback)."""
    try:
        from joblib.externals.loky import get_reusable_executor

        get_reusable_executor().shutdown(wait=False, kill_workers=True)
    except Exception:  # noqa: BLE001 - nothing to stop, or already gone: the exit goes on
        pass


if __name__ == "__main__":
    main()
