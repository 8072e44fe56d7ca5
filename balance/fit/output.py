"""What `balance fit` leaves in its folder: the proposal as a `variants:`
entry ready to paste into the scenario, every target before and after on
held-out seeds (targets.csv and the page), the candidates (candidates.csv) and
the search's progress (progress.png)."""

from __future__ import annotations

from pathlib import Path

import polars as pl
import yaml

from ..report.charts import fit_progress
from ..report.page import cell, render, write_csv
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


def write_outputs(result, scenario_name: str) -> Path:
    out = result.out
    (out / "proposal.yaml").write_text(proposal_yaml(result))
    targets = target_rows(result)
    write_csv(targets, out / "targets.csv")
    write_csv(pl.DataFrame(result.candidates), out / "candidates.csv")
    fit_progress(result.rounds, out / "progress.png")
    return render(
        "fit.html.j2",
        out / "index.html",
        name=scenario_name,
        proposal=proposal_yaml(result),
        met=result.met,
        changes=result.changes,
        games=result.games,
        columns=targets.columns,
        data=[[cell(v, c) for v, c in zip(row, targets.columns, strict=True)] for row in targets.iter_rows()],
    )
