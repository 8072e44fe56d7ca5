"""What `balance fit` leaves in its folder: the proposal as a `variants:`
entry ready to paste into the scenario, every target before and after on
held-out seeds (targets.csv, targets.png and the page), the candidates
(candidates.csv) and the search's progress (progress.png)."""

from __future__ import annotations

from pathlib import Path

import polars as pl
import yaml

from ...report.charts import fit_progress, fit_response, fit_targets
from ...report.page import cell, render, write_csv
from .targets import parse_target


def proposal_yaml(result, name: str = "fit") -> str:
    """The proposal's changed values as a scenario's `variants:` entry."""
    changed = {k: result.proposal[k] for k in result.changes}
    note = "# balance fit: paste under the scenario's variants: (balance compare plays it against today)\n"
    return note + yaml.safe_dump({"variants": [{"name": name, "overrides": changed}]}, sort_keys=False)


def target_rows(result) -> pl.DataFrame:
    """One row per figure of each target: today and the proposal on held-out seeds, in the target's unit."""
    rows = []
    for text, figures in result.after.items():
        target = parse_target(text)
        for key, after in figures.items():
            before = result.before[text].get(key)
            rows.append(
                {
                    "target": text,
                    "figure": key,
                    "unit": "rounds" if target.kind == "rounds" else "points",  # the game's length unit, or points
                    "band_low": target.low,
                    "band_high": target.high,
                    "today": before.value if before else None,
                    "today_low": before.low if before else None,
                    "today_high": before.high if before else None,
                    "today_met": before is not None and target.miss(before.value) == 0,
                    "proposal": after.value,
                    "proposal_low": after.low,
                    "proposal_high": after.high,
                    "proposal_met": target.miss(after.value) == 0,
                    "n": after.n,
                }
            )
    return pl.DataFrame(rows)


CHART_ROWS = 30  # figures drawn in targets.png at most (strength:all has one per item)


def shown_rows(targets: pl.DataFrame, result) -> pl.DataFrame:
    """The figures worth drawing: every figure of a target with one (seat
    balance, spread, length); of strength:all, the items a free value belongs
    to and those outside their band today or at the proposal, the farthest out first."""
    owned = result.owned
    many = targets.filter(pl.col("target").str.starts_with("strength:"))
    worth = many.filter(pl.col("figure").is_in(owned) | ~pl.col("today_met") | ~pl.col("proposal_met")).sort(
        pl.max_horizontal(pl.col("today").abs(), pl.col("proposal").abs()), descending=True
    )
    return pl.concat([targets.filter(~pl.col("target").str.starts_with("strength:")), worth.head(CHART_ROWS)])


def unmovable(targets: pl.DataFrame, result) -> list[str]:
    """Figures of items that miss their band at the proposal though no free value belongs to them."""
    owned = result.owned
    missed = targets.filter(pl.col("target").str.starts_with("strength:") & ~pl.col("proposal_met"))
    return [f for f in dict.fromkeys(missed["figure"].to_list()) if f not in owned]


def console_lines(result) -> list[str]:
    """Each target today -> proposed on the held-out seeds; of strength:all,
    the items outside their band at either."""
    lines = []
    for row in target_rows(result).iter_rows(named=True):
        if row["target"].startswith("strength:all") and row["today_met"] and row["proposal_met"]:
            continue
        name = row["target"] if row["figure"] == row["target"] else f"{row['target']} {row['figure']}"
        shown = (
            f"{_one(row[k])} ({_one(row[k + '_low'])} to {_one(row[k + '_high'])}){'' if row[k + '_met'] else ' missed'}"
            for k in ("today", "proposal")
        )
        lines.append(f"{name}: " + " -> ".join(shown))
    return lines


def plain_summary(result) -> str:
    """What a designer reads first: what was searched, what is proposed, and
    whether it meets the targets on games the search never saw."""
    searched = ", ".join(result.start)
    if result.changes:
        moves = "; ".join(f"{k} {result.start[k]} -> {result.proposal[k]}" for k in result.changes)
        proposed = f"It proposes {moves}"
    else:
        proposed = "It proposes no change: today's values were the best it found"
    how = (
        f"each of its {len(result.candidates):,} combinations played once"
        if result.ended == "grid"
        else f"{len(result.rounds)} round{'s' if len(result.rounds) != 1 else ''} of search"
    ) + (f", {result.candidate_games:,} games a candidate" if result.candidate_games else "")
    verdict = (
        "which meets every target"
        if result.met
        else "which does not meet every target (the closest found: see the table)"
    )
    return (
        f"balance fit searched {searched} ({how}; {result.games:,} games in all). {proposed}, {verdict} on "
        f"{result.confirm_games:,} held-out games the search never played."
    )


def untried_line(result) -> str:
    """Where the search never played some whole or word values, which, and the budget that would play each."""
    if not result.untried:
        return ""
    grid = (
        f"; a --budget of {result.grid_games:,} games plays every combination once"
        if result.grid_games is not None
        else ""
    )
    return f"values no candidate tried: {'; '.join(result.untried)}{grid}"


def response_lines(result) -> list[str]:
    """Per probed number: the item's strength at each probed value (the search's games) and the range searched."""
    lines = []
    for r in result.responses:
        read = "; ".join(f"{_number(v)}: {f.value:+.1f}" for v, f in r.probes)
        n = r.probes[0][1].n if r.probes else 0
        searched = f"searched {_number(r.low)}..{_number(r.high)}" if r.reach == "band" else "no value reaches the band"
        lines.append(f"{r.item}'s strength by {r.path} ({read} points, n={n:,} games each): {searched}")
    return lines


def _number(x) -> str:
    return str(int(x)) if float(x).is_integer() else f"{x:g}"


def _one(value: float) -> str:
    """One decimal; what rounds to zero has no sign (0.0, not -0.0)."""
    return "0.0" if round(value, 1) == 0 else f"{value:.1f}"


def _response_points(result, response) -> dict:
    """What response.png draws for one probed number: its item's strength at each probed value (the
    search's games, with intervals), the band, and today's and the proposal's on the held-out games."""
    item, path = response.item, response.path
    held = {
        who: (values[path], figures[response.target][item])
        for who, values, figures in (
            ("today", result.start, result.before),
            ("proposal", result.proposal, result.after),
        )
        if item in figures.get(response.target, {})
    }
    return {"path": path, "item": item, "band": response.band, "probes": response.probes, "held": held}


def write_outputs(result, scenario_name: str) -> Path:
    out = result.out
    (out / "proposal.yaml").write_text(proposal_yaml(result))
    targets = target_rows(result)
    write_csv(targets, out / "targets.csv")
    write_csv(pl.DataFrame(result.candidates), out / "candidates.csv")
    (out / "progress.png").unlink(missing_ok=True)  # a fit resolved by its probes has no rounds to draw
    if result.rounds:
        fit_progress(result.rounds, out / "progress.png")
    fit_targets(shown_rows(targets, result), out / "targets.png")
    responses = [_response_points(result, r) for r in result.responses]
    if responses:
        fit_response(responses, out / "response.png")
    return render(
        "fit.html.j2",
        out / "index.html",
        name=scenario_name,
        proposal=proposal_yaml(result),
        met=result.met,
        changes=result.changes,
        games=result.games,
        ended=result.ended,
        rounds=len(result.rounds),
        watched=result.watched,
        confirm_games=result.confirm_games,
        unmovable=unmovable(targets, result),
        edges=result.edges,
        summary=plain_summary(result),
        untried=untried_line(result),
        responses=response_lines(result),
        why_not=result.why_not,
        response_chart=bool(responses),
        columns=targets.columns,
        data=[[cell(v, c) for v, c in zip(row, targets.columns, strict=True)] for row in targets.iter_rows()],
    )
