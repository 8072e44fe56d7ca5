"""What `balance rebalance` leaves in its folder and says: every item before ->
after on held-out seeds (items.csv and the page), the proposal as a
`variants:` entry (proposal.yaml) and, with `--apply`, a copy of the card
database with the proposal written in place (its comments and layout kept)."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import polars as pl
import yaml

from ..atomic import write_text
from ..errors import Problem, UserError
from ..overrides import resolve_path, split_path
from ..report.page import cell, render, write_csv
from ..units import in_units
from ..yamlio import load_yaml
from .rebalance import RebalanceResult, verdict_counts

NUMBER = r"-?\d+(?:\.\d+)?"


def item_rows(result: RebalanceResult) -> pl.DataFrame:
    """One row per item: its strength today and with the proposal, held out, in points."""
    before, after = (in_units(t).select(_COLUMNS) for t in (result.before, result.after))
    joined = before.join(after, on="card", suffix="_after")
    return joined.with_columns(pl.col("card").replace_strict(result.names, default=None).alias("name")).select(
        "card", "name", *[c for c in joined.columns if c != "card"]
    )


_COLUMNS = ["card", "games", "change_pp", "ci_low_pp", "ci_high_pp", "verdict"]


def proposal_yaml(result: RebalanceResult) -> str:
    note = "# balance rebalance: paste under the scenario's variants: (balance compare plays it against today)\n"
    return note + yaml.safe_dump({"variants": [{"name": "rebalanced", "overrides": result.proposal}]}, sort_keys=False)


def summary(result: RebalanceResult) -> str:
    """The answer in one sentence: how many items are fair now and were, held out."""
    was, now = verdict_counts(result.before), verdict_counts(result.after)
    n = result.before.height
    moved = len(result.proposal)
    how = {
        "fair": "every item reached the band on the search's games",
        "stuck": "no item left outside the band could move further",
        "rounds": "the rounds ran out",
    }[result.ended]
    return (
        f"{now['fair']} of {n} items fair (inside +-{result.tolerance:g} points) with the proposal, "
        f"{was['fair']} today, on held-out games; {moved} number{'s' if moved != 1 else ''} changed; "
        f"{how} after {len(result.rounds)} round{'s' if len(result.rounds) != 1 else ''}, "
        f"{result.games:,} games in all."
    )


def write_outputs(result: RebalanceResult, scenario_name: str) -> Path:
    rows = item_rows(result)
    write_csv(rows, result.out / "items.csv")
    write_text(result.out / "proposal.yaml", proposal_yaml(result))
    return render(
        "rebalance.html.j2",
        result.out / "index.html",
        name=scenario_name,
        summary=summary(result),
        why_not=result.why_not,
        proposal=proposal_yaml(result),
        columns=rows.columns,
        data=[[cell(v, c) for v, c in zip(row, rows.columns, strict=True)] for row in rows.iter_rows()],
        rounds=[
            {
                "round": r["round"],
                "outside": sum(v in ("too strong", "too weak") for v in r["verdicts"].values()),
                "moved": ", ".join(f"{p} -> {v}" for p, v in r.get("moved", {}).items()) or "-",
                "games": r["games"],
            }
            for r in result.rounds
        ],
        games=result.games,
        tolerance=result.tolerance,
        seed_note="held-out seeds: games no round played",
    )


def apply_to_copy(cards_path: Path, values: dict[str, Any], dest: Path, force: bool) -> Path:
    """A copy of the database at `dest` with each value written in place of
    today's on its own line (comments and layout kept); the database itself
    is never written."""
    if dest.resolve() == Path(cards_path).resolve():
        raise UserError(Problem("--apply", None, str(dest), "is the card database itself: give a copy's path"))
    if dest.exists() and not force:
        raise UserError(Problem("--apply", None, str(dest), "exists: add --force to replace it"))
    doc = load_yaml(cards_path)
    lines = Path(cards_path).read_text(encoding="utf-8").split("\n")
    for path, value in values.items():
        where = resolve_path(doc.data, split_path(path))
        line = doc.lines.get(tuple(where)) if not isinstance(where, str) else None
        key = re.escape(str(where[-1])) if not isinstance(where, str) else ""
        pattern = re.compile(rf"(\b{key}\s*:\s*){NUMBER}(?![\w.])")
        if line is None or not pattern.search(lines[line - 1]):
            raise UserError(Problem("--apply", None, path, "is not written as `key: number` on one line"))
        lines[line - 1] = pattern.sub(lambda m, v=value: f"{m.group(1)}{v}", lines[line - 1], count=1)
    return write_text(dest, "\n".join(lines))
