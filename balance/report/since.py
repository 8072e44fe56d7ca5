"""Since the last run (issue 43): what a designer's edit did, by experiment.

`balance run` keeps the run it replaces beside the new one (RUN.previous, one
generation; runner.keep_previous). The report opens with what changed in the
database and, where both runs were measured (balance report --measure:
RUN/strength/), each changed item's causal strength before -> after with its
verdict, then every other item whose verdict moved; then each seat's and draft
position's win rate before -> after. The figures are the two strength
experiments' own (the same seed, so the same keyed games where the databases
agree): no second experiment is played, and the numbers are the ones each
run's page shows.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import polars as pl

from ..analysis import winrate
from ..analysis.band import FAIR_BAND
from ..experiments.compare import changed_ids, database_changes
from ..logs import read_manifest
from ..printable import command_line, printable
from ..runner import PREVIOUS, previous_of
from .causal import strength_moves
from .headline import strength_result

SHOWN_CHANGES = 8  # database changes named in the section's first line; the rest counted
HEADING = "Since the last run"


def rate_lines(before: pl.DataFrame | None, after: pl.DataFrame | None, key: str, word: str) -> list[str]:
    """Each seat's (or draft position's) win rate before -> after at the largest player count, and the gap."""
    if before is None or after is None or before.is_empty() or after.is_empty():
        return []
    players = int(after["n_players"].max())
    if players not in before["n_players"].to_list():
        return []
    rows = []
    gaps = []
    for table in (before, after):
        group = table.filter(pl.col("n_players") == players).sort(key)
        rows.append({r[key]: r for r in group.iter_rows(named=True)})
        gaps.append(100 * (group["win_rate"].max() - group["win_rate"].min()))
    parts = []
    for position, b in rows[1].items():
        a = rows[0].get(position)
        if a is None:
            continue
        parts.append(
            f"{word} {position}: {100 * a['win_rate']:.1f}% ({100 * a['ci_low']:.1f} to {100 * a['ci_high']:.1f}) -> "
            f"{100 * b['win_rate']:.1f}% ({100 * b['ci_low']:.1f} to {100 * b['ci_high']:.1f})"
        )
    n = int(next(iter(rows[1].values()))["games"]) if rows[1] else 0
    return [
        f"Win rate by {word} ({players} players, n={n:,} games a run): " + "; ".join(parts) + f"; the gap between "
        f"the best and the worst {gaps[0]:.1f} -> {gaps[1]:.1f} points (positions are assigned at random, so each "
        "run's gap is caused by the position)."
    ]


def since_lines(
    run_dir: Path, manifest: dict[str, Any], names: dict[str, str], shown_run: str, tolerance: float = FAIR_BAND / 100
) -> list[str]:
    """The section's lines; none where no earlier run of this scenario is kept. Both runs' verdicts at the
    report's band (`tolerance`)."""
    previous = previous_of(run_dir)
    old = read_manifest(previous) if previous.is_dir() else None
    if not old or old.get("status") != "complete":
        return []
    shown_previous = printable(str(Path(shown_run).with_name(Path(shown_run).name + PREVIOUS)))
    changed = database_changes(old, manifest, previous, run_dir)
    if not changed:
        return [f"Nothing changed since the last run ({shown_previous}): the same card database and field."]
    more = f"; and {len(changed) - SHOWN_CHANGES} more" if len(changed) > SHOWN_CHANGES else ""
    said = "; ".join(changed[:SHOWN_CHANGES]) + more
    lines = [
        f"{len(changed)} change{'s' if len(changed) > 1 else ''} since the last run ({shown_previous}): "
        + said
        + ("" if said.endswith(".") else ".")  # a changed text: "... into your Garage." ends the sentence already
    ]
    now, then = strength_result(run_dir, manifest), strength_result(previous, old)
    if now and then:
        lines.append(
            "By experiment (causal): each item's strength in each run's own paired experiment (the same seed: the "
            "same games wherever the databases agree), before -> after, with the verdict:"
        )
        moves = strength_moves(then[0], now[0], changed_ids(changed), names, tolerance)
        lines += moves or ["No changed item was measured and no verdict moved."]
    elif now or then:
        which = shown_previous if now else shown_run
        lines.append(
            f"The causal before -> after needs both runs measured; {which} was not -> "
            + command_line("balance", "report", which, "--measure", "--out", f"reports/{Path(which).name}")
        )
    for key, word, table in (
        ("seat", "seat", winrate.by_seat),
        ("draft_position", "draft position", winrate.by_draft_position),
    ):
        lines += rate_lines(table(previous), table(run_dir), key, word)
    return lines
