"""`balance tune SCENARIO --harden`: a `tuned` profile that nobody beats by more
than a tolerance (issue 34). Iterated best response in the all-tuned field:

1. a fresh tune of a `tuned` copy in one seat against `tuned` in every other
   (balance tune --exploit), and each hand counter (a few values of `tuned`
   set by hand: tests/data/counters.yaml) played in that seat, all on
   held-out games paired with `tuned` itself;
2. where the best of them gains more than the tolerance, it becomes `tuned`
   (the whole field moves to it) and step 1 runs again at the same budget;
3. where none does, a check at twice the budget: if it holds and has played
   at least the check floor (`check_budget`: the CLI's --check-budget, by
   default the budget of the exploitability figure the tool ships), that is
   the answer; if it holds below the floor, the check runs again at twice
   its budget (a small search finds small exploits: on the sixth Horsepower
   database a hardening checked at 80,000 games held, and a 320,000-game
   tune then beat it by +3.2 points); if not, its best challenger is adopted
   and the search goes on at the doubled budget.

Why best response and not a mixture of earlier profiles (fictitious play):
what the tool ships is one profile in every seat, and the claim to test is
that no challenger gains against that field; each step tests exactly that
claim and adopts the step that refutes it. Each step's tune keeps its own
state (--resume continues the procedure where it stopped).
"""

from __future__ import annotations

import copy
import json
import math
import time
from collections.abc import Callable
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

import yaml
from pydantic import ValidationError

from ...errors import Problem, UserError, did_you_mean
from ...games import GAMES, get_game
from ...printable import comment, printable
from ...scenario import Scenario
from ...validation import problem_from_error
from ...yamlio import YamlDoc, load_yaml
from ..experiment import Estimate, Task, estimate, paired
from ..setup import held_out_seed, output_folder, round_seed
from . import TuneOptions, collect_wins, field_with, tune
from .field import with_profile
from .output import pct, points

TOLERANCE = 0.03  # a challenger that gains more than this (held out) refutes `tuned`
COUNTER_GAMES = 4096  # held-out games a hand counter plays (paired with tuned itself), unless --confirm-games
MAX_STEPS = 12
CHECK_BUDGET = 320_000  # the check floor's default: the budget of the exploitability figure bots.yaml ships
HARDEN_BUDGET = 160_000  # the first steps' search budget the documented recipe uses (docs/bots.md)
COUNTER = "counter"  # the counter's profile name in the field


@dataclass(frozen=True)
class Challenge:
    """A challenger's held-out figures against the all-tuned field."""

    name: str  # "fresh tune" or the hand counter's name
    gain: Estimate  # its win rate minus tuned's in the same seat, paired
    rate: Estimate  # its win rate
    profile: dict[str, Any]  # what it plays: adopted if it refutes tuned


@dataclass
class HardenResult:
    out: Path
    profile: dict[str, Any]  # the final `tuned`
    steps: list[dict[str, Any]] = field(default_factory=list)  # one per step: budget, best challenger, adopted
    final: Challenge | None = None  # the best challenger of the last check (twice the budget)
    games: int = 0  # every game the procedure played

    checked: bool = False  # the procedure ended on a check at twice the budget that nothing refuted

    @property
    def holds(self) -> bool:
        return self.checked and self.final is not None and self.final.gain.rate <= TOLERANCE


def with_values(profile: dict[str, Any], values: dict[str, Any]) -> dict[str, Any]:
    """`profile` with dotted values set (`weights.thinning: 1.5`, `drivers.comet: 2`)."""
    out = copy.deepcopy(profile)
    for path, value in values.items():
        node = out
        *parents, last = str(path).split(".")
        for key in parents:
            node = node.setdefault(key, {})
        node[last] = value
    return out


COUNTERS_SHAPE = "game -> counter name -> values, e.g. horsepower: {rusher: {weights.drive: 2.0}}"


def load_counters(path: str | Path, game: str) -> tuple[dict[str, dict[str, Any]], YamlDoc]:
    """The hand counters of `game` in a counters file ({game: {name: {dotted
    value: number}}}), read as every other input is (one-line errors with the
    file and line; no FIFO, device or file over 16 MiB), and the document."""
    doc = load_yaml(path)
    data = doc.data
    if not isinstance(data, dict) or not data:
        raise UserError(Problem(doc.source, None, "counters", f"holds no counters: expected {COUNTERS_SHAPE}"))
    for key in data:
        if key not in GAMES:
            hint = did_you_mean(str(key), list(GAMES)) or f" (known games: {', '.join(GAMES)})"
            raise UserError(doc.problem((key,), f"{printable(key)!r} is not a game{hint}", "counters"))
    if game not in data:
        held = ", ".join(str(k) for k in data)
        raise UserError(Problem(doc.source, None, "counters", f"holds no counters for {game} (only for {held})"))
    counters = data[game]
    if not isinstance(counters, dict) or not counters:
        raise UserError(doc.problem((game,), f"no counters under {game}: expected {COUNTERS_SHAPE}", game))
    for name, values in counters.items():
        if not isinstance(values, dict) or not values:
            raise UserError(
                doc.problem((game, name), "expected values to set, e.g. {weights.drive: 2.0}", f"{game}.{name}")
            )
    return counters, doc


def _line_of_value(
    doc: YamlDoc | None, game: str, name: str, values: dict[str, Any], loc: tuple[Any, ...]
) -> int | None:
    """The line of the counter's value that a profile error's `loc` names (a
    dotted key of the file, weights.drive, or its first part)."""
    if doc is None:
        return None
    for end in range(len(loc), 0, -1):
        key = ".".join(str(p) for p in loc[:end])
        if key in values:
            return doc.line_of((game, name, key))
    return doc.line_of((game, name))


def profile_of(scenario: Scenario, bot: str) -> dict[str, Any]:
    """`bot`'s whole profile as the scenario plays it (its bot_profiles over the game's bots.yaml)."""
    game = get_game(scenario.model.game)
    return game.profiles(scenario.model.bot_profiles, scenario.doc)[bot].model_dump(mode="json", by_alias=True)


def check_counters(
    scenario: Scenario, bot: str, counters: dict[str, dict[str, Any]], doc: YamlDoc | None = None
) -> list[dict[str, Any]]:
    """Each counter's whole profile (`bot`'s with its values set), refused in
    one line (the file's line where `doc` is given) where a value is unknown
    or out of bounds: before any game."""
    game = scenario.model.game
    model = get_game(game).profile_model
    base = profile_of(scenario, bot)
    out = []
    for name, values in counters.items():
        profile = with_values(base, values)
        try:
            model.model_validate(profile)
        except ValidationError as exc:
            source = doc.source if doc is not None else "--counters"
            problem = problem_from_error(YamlDoc(source, {}), exc.errors()[0])  # the first, in plain words
            loc = tuple(problem.field.split(".")) if problem.field else ()
            line = _line_of_value(doc, game, name, values, loc)
            raise UserError(Problem(source, line, f"{game}.{name}.{problem.field}", problem.message)) from None
        out.append(profile)
    return out


def challenge_counters(
    scenario: Scenario, bot: str, counters: dict[str, dict[str, Any]], seed: int, games: int, options: TuneOptions
) -> list[Challenge]:
    """Each counter (values set on `bot`'s profile) in `bot`'s first seat against
    the scenario's field, paired with `bot`'s own profile in that seat on the
    same held-out games. (Every counter and the baseline play the same deals:
    chunk c of `seed`.)"""
    variants = {0: profile_of(scenario, bot)} | {
        i + 1: p for i, p in enumerate(check_counters(scenario, bot, counters))
    }
    size = min(scenario.model.chunk_size, games)
    chunks = math.ceil(games / size)
    tasks = [
        Task(k, field_with(scenario, bot, COUNTER, p), COUNTER, seed, c, size)
        for k, p in variants.items()
        for c in range(chunks)
    ]
    won = collect_wins(tasks, options)
    return [
        Challenge(name, paired(won[i + 1], won[0]), estimate(won[i + 1]), variants[i + 1])
        for i, name in enumerate(counters)
    ]


def counter_games(options: TuneOptions) -> int:
    """The held-out games each hand counter plays: as many as the tune's confirmation."""
    return options.confirm_games or COUNTER_GAMES


def counter_seed(seed: int, step: int) -> int:
    """The held-out games the hand counters of a step play (step 0: balance tune --exploit's)."""
    return held_out_seed(round_seed(seed, 4_000_000 + step))


def harden(
    scenario: Scenario,
    options: TuneOptions,
    counters: dict[str, dict[str, Any]],
    on_progress: Callable[[str, int, int], None] | None = None,
    check_budget: int = 0,
) -> HardenResult:
    """Harden `options.bot` (tuned) in `scenario` (its all-tuned field, balance
    tune --exploit's); see the module's docstring. options.budget is the first
    steps' search budget."""
    bot = options.bot
    seed = scenario.model.seed if options.seed is None else options.seed
    out = output_folder(options, scenario.name, "tune --harden", "harden.json", folder="harden")
    check_counters(scenario, bot, counters)
    result = HardenResult(out, profile_of(scenario, bot))
    budget, checking = options.budget, False
    for step in range(1, MAX_STEPS + 1):
        current = with_profile(scenario, bot, result.profile)
        sub = replace(
            options,
            out=out / f"step{step}",
            seed=round_seed(seed, 4_000_000 + step),
            budget=budget,
            force=not options.resume,
            command="",
        )
        label = f"step {step} ({'check at ' if checking else ''}{budget:,} games)"

        def report(what: str, done: int, total: int, label: str = label) -> None:
            if on_progress:
                on_progress(f"{label}: {what}", done, total)

        fresh = tune(current, sub, report)
        hand = challenge_counters(current, bot, counters, counter_seed(seed, step), counter_games(options), options)
        challengers = [Challenge("fresh tune", fresh.gain, fresh.tuned_rate, fresh.profile), *hand]
        best = max(challengers, key=lambda c: c.gain.rate)
        refuted = best.gain.rate > TOLERANCE
        result.games += fresh.games + 2 * fresh.confirm_games + counter_games(options) * (len(hand) + 1)
        result.steps.append(
            {
                "step": step,
                "budget": budget,
                "check": checking,
                "challengers": [_row(c) for c in challengers],
                "best": best.name,
                "adopted": refuted,
            }
        )
        if checking and not refuted and budget >= check_budget:
            result.final, result.checked = best, True
            break
        if refuted:  # adopted; a refuted check's budget (twice the last) is the new steps' budget
            result.profile = best.profile
            checking = False
        else:  # held: check at twice the budget (again, where a check held below the floor)
            budget, checking = budget * 2, True
        result.final = best
        _save(out, result)
    _save(out, result)
    return result


def _row(c: Challenge) -> dict[str, Any]:
    return {
        "name": c.name,
        "gain": c.gain.rate,
        "gain_low": c.gain.low,
        "gain_high": c.gain.high,
        "rate": c.rate.rate,
        "rate_low": c.rate.low,
        "rate_high": c.rate.high,
        "games": c.gain.n,
    }


def summary(result: HardenResult) -> str:
    """One line: the final exploitability, what the comment above `tuned:` says."""
    f = result.final
    if f is None:
        return "not measured"
    word = "holds" if result.holds else f"still refuted after {len(result.steps)} steps"
    return (
        f"{word}: the best challenger, {f.name}, gains {points(f.gain.rate)} points ({points(f.gain.low)} to "
        f"{points(f.gain.high)}, n={f.gain.n:,}), winning {pct(f.rate.rate)} ({pct(f.rate.low)}-{pct(f.rate.high)})"
    )


def _save(out: Path, result: HardenResult) -> None:
    (out / "harden.json").write_text(
        json.dumps(
            {"steps": result.steps, "profile": result.profile, "holds": result.holds, "games": result.games}, indent=1
        )
    )
    (out / "tuned.yaml").write_text(
        comment(f"balance tune --harden, {time.strftime('%Y-%m-%d')}: {summary(result)}")
        + yaml.safe_dump({"tuned": result.profile}, sort_keys=False, default_flow_style=None)
    )
