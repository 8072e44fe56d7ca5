"""One candidate of `balance fit`: the scenario with the candidate's values,
played on the scenario's seed (common random numbers: every candidate plays
the same deals), its targets' figures measured and their misses.

Strength targets run balance strength's paired experiment on the candidate
(its baseline, then each item given to the seeded seat); the baseline run
also gives the seat balance, the bot spread and the game length."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace
from pathlib import Path
from typing import Any

from ...logs import load_run
from ...runner import RunOptions, resolve_scenario, run
from ...scenario import Scenario
from ..strength import paired_strength
from .measure import Figure, measure, strength_figures
from .targets import Target


def strength_keys(targets: list[Target], items: list[str]) -> list[str]:
    """The items whose strength the targets need: every item for strength:all."""
    if any(t.kind == "strength" and t.key == "all" for t in targets):
        return list(items)
    return list(dict.fromkeys(t.key for t in targets if t.kind == "strength"))


def evaluate(
    scenario: Scenario,
    values: dict[str, Any],
    targets: list[Target],
    items: list[str],
    out: Path,
    options: RunOptions,
    on_progress: Callable[[int, int], None] | None = None,
) -> dict[str, dict[str, Figure]]:
    """Each target's figures ({target text: {figure key: Figure}}) for the
    candidate `values` ({dotted path: value}), played into `out`, with the
    strength of `items` where a strength:all target asks. `on_progress(games
    done, games in all)` for the candidate's runs together."""
    # the games and seed into the scenario itself: the strength experiment draws its receiving seat from the
    # scenario's seed, which must be the seed the games are played on
    each = resolve_scenario(scenario.with_overrides(values, f"{scenario.model.name}-fit"), options)
    options = replace(options, games=None, seed=None)
    keys = strength_keys(targets, items)
    if keys:
        report = (lambda what, done, total: on_progress(done, total)) if on_progress else None
        table = paired_strength(each, keys, out, replace(options, force=True), report)
        strengths = strength_figures(table)
    else:
        run(each, replace(options, out=out / "baseline", force=True), on_progress)
        strengths = {}
    baseline = load_run(out / "baseline")
    return {t.text: measure(t, baseline, strengths) for t in targets}


def figure_misses(
    targets: list[Target], figures: dict[str, dict[str, Figure]], aim: bool = False
) -> list[tuple[str, float]]:
    """(figure key, how far it misses its target's band, or with `aim` the part
    of the band the search aims at) for every figure of every target."""
    return [(key, t.miss(f.value, aim)) for t in targets for key, f in figures[t.text].items()]
