"""`balance tune --all`: every distinct bot of a field tuned in turn against
the others as they stand (iterated best response), a tuned profile adopted
only where its held-out confirmation shows a gain; then exploitability: a
fresh tune of each bot against the final field, and how much it still gains.

`random` is the floor by definition and Heat's Legends are the game's own
automata: neither is tuned.
"""

from __future__ import annotations

import json
import time
from collections.abc import Callable
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

import polars as pl
import yaml

from ...errors import Problem, UserError
from ...games import get_game
from ...printable import comment
from ...report.page import render, write_csv
from ...runner import RunOptions, resolve_scenario
from ...scenario import BotPool, Scenario
from ...units import PCT, PP, in_units
from ..experiment import Estimate
from ..setup import round_seed
from . import TuneOptions, TuneResult, tune
from .output import pct, points

NOT_TUNED = ("random",)  # the floor, uniform by definition


@dataclass
class FieldResult:
    out: Path
    bots: list[str]  # the bots tuned, in field order
    rows: list[dict[str, Any]] = field(default_factory=list)  # one per tune: pass, bot, gain, adopted
    profiles: dict[str, Any] = field(default_factory=dict)  # the final field's tuned profiles (bot_profiles)
    exploit: dict[str, Estimate] = field(default_factory=dict)  # bot -> a fresh tune's held-out gain
    strongest: tuple[str, Estimate, dict[str, Any]] | None = None  # (bot, its rate in the final field, profile)
    index: Path | None = None

    @property
    def exploitability(self) -> tuple[str, Estimate] | None:
        """The bot a fresh tune still improves most, and by how much."""
        if not self.exploit:
            return None
        return max(self.exploit.items(), key=lambda kv: kv[1].rate)


def tunable_bots(scenario: Scenario) -> list[str]:
    """The distinct bots of the field a tune may change, in seat order."""
    game = get_game(scenario.model.game)
    profiles = game.profiles(scenario.model.bot_profiles, scenario.doc)
    out = []
    for name in scenario.model.bots:
        profile = profiles.get(name)
        if name in out or name in NOT_TUNED or getattr(profile, "legend", False):
            continue
        out.append(name)
    return out


def tune_field(
    path: str | Path,
    options: TuneOptions,
    passes: int,
    exploitability: bool = True,
    on_progress: Callable[[str, int, int], None] | None = None,
) -> FieldResult:
    """`passes` rounds of tuning each bot in turn, then the exploitability check.
    `on_progress(what, done, total)` of each tune in turn, what beginning with
    the tune's folder and bot ("pass1-racer: round 2/5")."""
    scenario = resolve_scenario(path, RunOptions(seed=options.seed))
    if isinstance(scenario.model.bots, BotPool):
        raise UserError(scenario.doc.problem(("bots",), "balance tune needs one bot per seat, not a pool"))
    if not 1 <= passes <= 20:
        raise UserError(Problem("--rounds", None, "rounds", f"must be between 1 and 20, got {passes}"))
    bots = tunable_bots(scenario)
    if not bots:
        raise UserError(scenario.doc.problem(("bots",), "no bot to tune in this field (random and Legends are not)"))
    out = Path(options.out) if options.out else Path("runs") / f"{scenario.name}-tune-all"
    seed = scenario.model.seed
    result = FieldResult(out, bots)
    current = scenario

    def one(bot: str, folder: str, key: int, start: Scenario) -> TuneResult:
        sub = replace(options, bot=bot, out=out / folder, seed=round_seed(seed, key), command="")
        if on_progress is None:
            return tune(start, sub)
        return tune(start, sub, lambda what, done, total: on_progress(f"{folder}: {what}", done, total))

    for p in range(passes):
        for i, bot in enumerate(bots):
            tuned = one(bot, f"pass{p + 1}-{bot}", 2_000_000 + 100 * p + i, current)
            result.rows.append(_row(p + 1, tuned))
            if tuned.significant:  # adopt only what the held-out games confirm
                current = with_profile(current, bot, tuned.profile)
                result.profiles[bot] = tuned.profile
    if exploitability:
        for i, bot in enumerate(bots):
            fresh = one(bot, f"exploit-{bot}", 3_000_000 + i, current)
            result.exploit[bot] = fresh.gain
            result.rows.append(_row(0, fresh))
    result.strongest = _strongest(result, scenario)
    result.index = _write(result, scenario, passes, options.command)
    return result


def _strongest(result: FieldResult, scenario: Scenario) -> tuple[str, Estimate, dict[str, Any]] | None:
    """The bot of the final field that wins most in it (the exploitability
    tunes' held-out starting rate: each bot's final profile against the final
    field), its rate and its profile: what a game ships as `tuned`."""
    rates = {r["bot"]: r for r in result.rows if r["pass"] == "exploitability"}
    if not rates:
        return None
    bot = max(rates, key=lambda b: rates[b]["start_rate"])
    row = rates[bot]
    rate = Estimate(row["start_rate"], row["start_low"], row["start_high"], row["confirm_games"])
    profile = result.profiles.get(bot)
    if profile is None:  # never adopted: the field's own profile
        game = get_game(scenario.model.game)
        profile = game.profiles(scenario.model.bot_profiles, scenario.doc)[bot].model_dump(mode="json")
    return bot, rate, profile


def with_profile(scenario: Scenario, bot: str, profile: dict[str, Any]) -> Scenario:
    m = scenario.model
    model = m.model_copy(update={"bot_profiles": {**m.bot_profiles, bot: profile}})
    return Scenario(scenario.source, model, scenario.cards_path, scenario.doc, scenario.cards_doc)


def _row(pass_: int, tuned: TuneResult) -> dict[str, Any]:
    return {
        "pass": pass_ or "exploitability",
        "bot": tuned.bot,
        "start_rate": tuned.start_rate.rate,
        "start_low": tuned.start_rate.low,
        "start_high": tuned.start_rate.high,
        "tuned_rate": tuned.tuned_rate.rate,
        "gain": tuned.gain.rate,
        "gain_low": tuned.gain.low,
        "gain_high": tuned.gain.high,
        "confirm_games": tuned.confirm_games,
        "search_games": tuned.games,
        "adopted": bool(pass_) and tuned.significant,
        "folder": tuned.out.name,
    }


def _write(result: FieldResult, scenario: Scenario, passes: int, command: str) -> Path:
    out = result.out
    strongest = ""
    if result.strongest:
        bot, rate, profile = result.strongest
        strongest = (
            comment(
                f"balance tune --all, {time.strftime('%Y-%m-%d')}: "
                f"{command or f'balance tune {scenario.source} --all --rounds {passes}'}"
            )
            + comment(
                f"the strongest bot of the final field: {bot}, winning {pct(rate.rate)} ({pct(rate.low)} to "
                f"{pct(rate.high)}, n={rate.n:,}) in it; ready to paste into the game's bots.yaml as `tuned`"
            )
            + yaml.safe_dump({"tuned": profile}, sort_keys=False, default_flow_style=None)
        )
        (out / "tuned.yaml").write_text(strongest)
    rates = dict.fromkeys(("start_rate", "start_low", "start_high", "tuned_rate"), PCT)
    write_csv(
        in_units(pl.DataFrame(result.rows), rates | dict.fromkeys(("gain", "gain_low", "gain_high"), PP)),
        out / "field.csv",
    )
    (out / "field.yaml").write_text(
        "# balance tune --all: the final field's tuned profiles, ready to paste under bot_profiles:\n"
        + (yaml.safe_dump(result.profiles, sort_keys=False, default_flow_style=None) if result.profiles else "{}\n")
    )
    (out / "field.json").write_text(json.dumps({"rows": result.rows, "profiles": result.profiles}, indent=1))
    worst = result.exploitability
    summary = (
        f"A fresh tune still gains most for {worst[0]}: {points(worst[1].rate)} points ({points(worst[1].low)} to "
        f"{points(worst[1].high)}, n={worst[1].n:,}): "
        + ("the field is not yet a best response to itself." if worst[1].low > 0 else "not significant.")
        if worst
        else "Exploitability was not measured."
    )
    shown = [
        [
            str(r["pass"]),
            r["bot"],
            pct(r["start_rate"]),
            pct(r["tuned_rate"]),
            f"{points(r['gain'])} ({points(r['gain_low'])} to {points(r['gain_high'])})",
            f"{r['search_games'] + 2 * r['confirm_games']:,}",
            "yes" if r["adopted"] else "",
            r["folder"],
        ]
        for r in result.rows
    ]
    return render(
        "tune_field.html.j2",
        out / "index.html",
        name=scenario.model.name,
        game=scenario.model.game,
        field=", ".join(scenario.model.bots),
        bots=", ".join(result.bots),
        passes=passes,
        summary=summary,
        rows=shown,
        yaml=(out / "field.yaml").read_text(),
        strongest=strongest,
        games=sum(r["search_games"] + 2 * r["confirm_games"] for r in result.rows),
    )
