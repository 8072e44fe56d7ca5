"""`balance sweep`: one setting at several values, a metric against it.

`--set PATH=VALUES` takes a dotted path of the card database (as in a
scenario's overrides) and values as `1..6` (integers, inclusive), `1,3,5`, or
`0.5:2.0:0.25` (start:stop:step, inclusive). Each value is a run on the same
seeds; the chosen metric is plotted against the value with its interval, and
`--target T` finds where the metric crosses T (linear between the two values
around the crossing). The table, the chart and T are in the metric's unit:
percent for a win rate, percentage points for a difference of win rates.
A card's (or Playbook's) own path is measured by default
by its strength (balance strength's paired experiment at each value: causal),
where the game can give it to a seat; `--metric card:ID` is the association.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass, replace
from itertools import pairwise
from pathlib import Path

import numpy as np
import polars as pl

from ..analysis import cards as card_analysis
from ..analysis import winrate
from ..errors import Problem, UserError, did_you_mean
from ..games import get_game
from ..logs import load_run
from ..report.charts import sweep_chart
from ..report.page import write_csv
from ..runner import resolve_scenario, run
from ..scale import scaled
from ..scenario import Scenario
from .setup import ExperimentOptions, output_folder
from .strength import known, paired_strength, strength_items


@dataclass
class SweepResult:
    out: Path
    table: pl.DataFrame
    metric: str
    crossing: float | None
    difference: bool = False  # the metric is a difference of win rates (points), not a win rate (percent)


MAX_VALUES = 1000  # values one sweep may take


def parse_values(text: str, option: str = "--set") -> list[float | int]:
    """`1..6`, `1,3,5` or `0.5:2.0:0.25` -> the values, in order; one-line errors (naming `option`)."""

    def bad(why: str) -> UserError:
        return UserError(Problem(option, None, "values", f"{text!r}: {why} (use 1..6, 1,3,5 or 0.5:2.0:0.25)"))

    def number(s: str) -> float | int:
        if not s.strip().isascii():  # Python reads a full-width ５ or an Arabic-Indic digit as a number too
            raise bad(f"{s.strip()!r} is not a number (digits 0-9)")
        try:
            return int(s)
        except ValueError:
            pass
        try:
            value = float(s)
        except ValueError:
            raise bad(f"{s!r} is not a number") from None
        if not math.isfinite(value):
            raise bad(f"{s!r} is not a finite number")
        return value

    def count_ok(count: float) -> int:
        # each value is a whole run of games: a typo (1..10**12, a step of 1e-12) must not plan millions
        if not count <= MAX_VALUES:  # infinite counts too
            raise bad(f"{count:,.0f} values; a sweep takes at most {MAX_VALUES}")
        return int(count)  # floor: a last value past stop is not taken

    text = text.strip()
    if ".." in text:
        lo, hi = (number(p) for p in text.split("..", 1))
        if not (isinstance(lo, int) and isinstance(hi, int)):
            raise bad("a..b takes integers")
        values = list(range(lo, lo + count_ok(hi - lo + 1)))
    elif ":" in text:
        parts = [number(p) for p in text.split(":")]
        if len(parts) != 3 or not parts[2] > 0:
            raise bad("start:stop:step needs a positive step")
        start, stop, step = parts
        count = count_ok(max((stop - start) / step + 1e-9, -1.0) + 1)
        values = [round(start + i * step, 10) for i in range(count)]
    else:
        values = [number(p) for p in text.split(",") if p.strip()]
        count_ok(len(values))
    if not values:
        raise bad("no values")
    return values


def parse_metric(text: str) -> tuple[str, str, str]:
    """`seat:0`, `bot:NAME`, `card:ID` (win rate added when drafted: an
    association) or `strength:ID` (balance strength's paired experiment: causal)
    -> (kind, key, label)."""
    kind, _, key = text.partition(":")
    if kind not in ("seat", "bot", "card", "strength") or not key:
        raise UserError(
            Problem("--metric", None, "metric", f"{text!r} is not seat:N, bot:NAME, card:ID or strength:ID")
        )
    label = {
        "seat": f"win rate of seat {key}",
        "bot": f"win rate of {key}",
        "card": f"{key}: win rate added when drafted (association)",
        "strength": f"{key}: strength, the change in win rate of the seat given one more (causal)",
    }
    return kind, key, label[kind]


def check_metric(kind: str, key: str, items: list[str], drafted: list[str], scenario: Scenario) -> None:
    """A metric that would read NaN at every value is a one-line error before any game."""
    problem = None
    if kind == "strength" and key not in items:
        problem = f"no item with id {key!r}{did_you_mean(key, items)} (known: {known(items)})"
    elif kind == "card" and key not in drafted:
        problem = (
            f"card:{key} is the win rate added when drafted, and no player drafts {key!r} in this game"
            + (f" (draftable: {known(drafted)})" if drafted else "")
            + (f"; strength:{key} measures it by experiment" if key in items else "")
        )
    elif kind == "bot" and key not in scenario.bot_names:
        problem = f"no bot {key!r} in this scenario{did_you_mean(key, scenario.bot_names)} (bots: {', '.join(scenario.bot_names)})"
    elif kind == "seat" and not (key.isdigit() and int(key) < scenario.model.players):
        problem = f"seat {key!r} is not a seat of this scenario (0 to {scenario.model.players - 1})"
    if problem:
        raise UserError(Problem("--metric", None, "metric", problem))


def _measure(run_dir: Path, kind: str, key: str) -> tuple[float, float, float]:
    frames = load_run(run_dir)
    if kind == "card":
        row = card_analysis.card_stats(frames).filter(pl.col("card") == key)
        if row.is_empty():
            return math.nan, math.nan, math.nan
        r = row.row(0, named=True)
        return r["added_drafted"], r["added_low_drafted"], r["added_high_drafted"]
    table = winrate.by_seat(frames) if kind == "seat" else winrate.by_bot(frames)
    column = "seat" if kind == "seat" else "bot"
    row = table.filter(pl.col(column).cast(pl.String) == key)
    if row.is_empty():
        return math.nan, math.nan, math.nan
    r = row.row(0, named=True)
    return r["win_rate"], r["ci_low"], r["ci_high"]


def crossing(values: list[float], metric: list[float], target: float) -> float | None:
    """Where the metric crosses target, interpolated between the two values around it."""
    for (x0, y0), (x1, y1) in pairwise(zip(values, metric, strict=True)):
        if np.isfinite(y0) and np.isfinite(y1) and (y0 - target) * (y1 - target) <= 0 and y0 != y1:
            return float(x0 + (target - y0) * (x1 - x0) / (y1 - y0))
    return None


def sweep(
    path: str | Path,
    setting: str,
    metric: str | None = None,
    target: float | None = None,
    options: ExperimentOptions = ExperimentOptions(),
    on_progress: Callable[[str, int, int], None] | None = None,
) -> SweepResult:
    """`target` in the metric's unit (percent, or points for a difference);
    `options.games` per value. `on_progress(what, games done, games in all)`."""
    options.check()
    if options.games:  # BALANCE_SCALE (the printed-commands test): fewer games a value
        options = replace(options, games=scaled(options.games, 8))
    if "=" not in setting:
        raise UserError(
            Problem(
                "--set", None, "set", f"{setting!r}: expected PATH=VALUES, e.g. cards.v8_block.effects.0.amount=1..6"
            )
        )
    dotted, text = setting.split("=", 1)
    values = parse_values(text)
    scenario = resolve_scenario(path, options.runs())
    game = get_game(scenario.model.game, scenario.source, scenario.doc.line_of(("game",)))
    items = [i["id"] for i in strength_items(game, game.catalog(game.prepare(scenario)))] if game.strength_items else []
    if metric is None:  # a card's own path: its strength by experiment, where the game can give it to a seat
        parts = dotted.split(".")
        card = parts[1] if parts[0] in ("cards", "playbooks") and len(parts) > 1 else None
        metric = f"strength:{card}" if card in items else f"card:{card}" if card else "seat:0"
    kind, key, label = parse_metric(metric)
    scenarios = []
    for value in values:  # every value checked before any game runs
        each = scenario.with_overrides({dotted: value}, f"{scenario.model.name}-{value}")
        try:
            game.prepare(each)
        except UserError as exc:
            raise UserError(Problem("--set", None, dotted, f"= {value}: {exc.problem.message}")) from None
        scenarios.append(each)
    catalog = game.catalog(game.prepare(scenario))
    drafted = game.drafted_items(catalog) if game.drafted_items else []
    check_metric(kind, key, items, drafted, scenario)
    out = output_folder(options, scenario.name, "sweep")
    unit = "points" if kind in ("card", "strength") else "%"  # a difference of win rates, or a win rate
    rows = []
    per_value = scenario.model.games * (2 if kind == "strength" else 1)  # strength: without, then with the item
    for k, (value, each) in enumerate(zip(values, scenarios, strict=True)):
        folder = out / f"value-{value}"
        runs = options.runs(out=folder, force=True)
        what = f"{dotted} = {value:g} ({k + 1}/{len(values)})"
        before, total = k * per_value, len(values) * per_value

        def report(what_: str, done: int, _total: int, what: str = what, before: int = before) -> None:
            if on_progress:
                on_progress(what, before + done, total)

        if kind == "strength":  # balance strength's paired experiment at this value
            r = paired_strength(each, [key], folder, runs, report).row(0, named=True)
            estimate, low, high = r["change"], r["ci_low"], r["ci_high"]
        else:
            run(each, runs, lambda done, t, report=report: report("", done, t))
            estimate, low, high = _measure(folder, kind, key)
        rows.append(
            {
                "setting": dotted,
                "value": float(value),
                "metric": label,
                "unit": unit,
                "estimate": 100 * estimate,
                "ci_low": 100 * low,
                "ci_high": 100 * high,
            }
        )
    table = pl.DataFrame(rows)
    cross = crossing(table["value"].to_list(), table["estimate"].to_list(), target) if target is not None else None
    write_csv(table, out / "sweep.csv")
    sweep_chart(table, out / "sweep.png", target, cross)
    return SweepResult(out, table, label, cross, kind in ("card", "strength"))
