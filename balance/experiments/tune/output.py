"""What a tune leaves in its folder: the tuned profile as YAML, every
candidate and every round as CSV, the learning curve as PNG, and a page."""

from __future__ import annotations

import time
from pathlib import Path
from typing import Any

import polars as pl
import yaml

from ...printable import comment
from ...report.charts import learning_curve
from ...report.page import render, write_csv
from ...units import PCT, in_units


def pct(x: float) -> str:
    return f"{100 * x:.1f}%"


def points(x: float) -> str:
    return f"{100 * x:+.1f}"


def verdict(result) -> str:
    """What the confirmation says, in one sentence a designer can act on."""
    g = result.gain
    gain = f"{points(g.rate)} points ({points(g.low)} to {points(g.high)}, n={g.n:,} paired games)"
    if result.significant:
        return f"The tuned profile wins more than the starting one: {gain}."
    return (
        f"No gain confirmed: {gain}, an interval that includes 0 or lies below it. Keep the starting profile; "
        "the search did not find a stronger one in this budget (or there is none)."
    )


def profile_yaml(result, command: str) -> str:
    """The tuned profile under its bot's name, with how it was made."""
    header = comment(f"balance tune, {time.strftime('%Y-%m-%d')}: {command}") + comment(f"held out: {verdict(result)}")
    return header + yaml.safe_dump({result.bot: result.profile}, sort_keys=False, default_flow_style=None)


CANDIDATE_RATES = ("win_rate", "ci_low", "ci_high")  # the other columns are the candidate's values


def write_outputs(result, scenario, command: str) -> Path:
    """Every file of the tune's folder; returns its page."""
    out = result.out
    curve = pl.DataFrame(result.curve)
    rates = ("centre", "centre_low", "centre_high", "best", "best_low", "best_high", "median")
    write_csv(in_units(curve, dict.fromkeys(rates, PCT)), out / "curve.csv")
    write_csv(in_units(pl.DataFrame(result.candidates), dict.fromkeys(CANDIDATE_RATES, PCT)), out / "candidates.csv")
    text = profile_yaml(result, command)
    (out / "tuned.yaml").write_text(text)
    learning_curve(curve, out / "learning.png", result.bot, result.start_rate.rate)
    values = [[name, _show(result.start[name]), _show(result.tuned[name])] for name in result.start]
    m = scenario.model
    return render(
        "tune.html.j2",
        out / "index.html",
        bot=result.bot,
        name=m.name,
        game=m.game,
        seed=m.seed,
        field=", ".join(m.bots),
        rounds=result.rounds,
        population=result.population,
        games=result.games,
        confirm_games=result.confirm_games,
        verdict=verdict(result),
        tuned_rate=pct(result.tuned_rate.rate),
        tuned_ci=f"{pct(result.tuned_rate.low)} to {pct(result.tuned_rate.high)}",
        start_rate=pct(result.start_rate.rate),
        start_ci=f"{pct(result.start_rate.low)} to {pct(result.start_rate.high)}",
        gain=f"{points(result.gain.rate)} points",
        gain_ci=f"{points(result.gain.low)} to {points(result.gain.high)} points",
        yaml=text,
        values=values,
    )


def _show(value: Any) -> str:
    return f"{value:g}" if isinstance(value, float) else str(value)
