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

from ..analysis.strength import verdict_counts
from ..atomic import write_text
from ..errors import Problem, UserError
from ..overrides import resolve_path, split_path
from ..printable import comment
from ..report.page import render, write_csv
from ..units import in_units
from ..yamlio import load_yaml
from .fit.probe import plain_number
from .rebalance import OUTSIDE, RebalanceResult

NUMBER = r"-?\d+(?:\.\d+)?"


def item_rows(result: RebalanceResult) -> pl.DataFrame:
    """One row per item: its number today and proposed, its strength today and
    with the proposal (held out), in points; the proposal's columns prefixed."""
    numbers = pl.DataFrame(
        {
            "card": list(result.levers),
            "number": list(result.levers.values()),
            "today": [float(result.start[p]) for p in result.levers.values()],
            "proposed": [float(result.proposal.get(p, result.start[p])) for p in result.levers.values()],
        },
        schema={"card": pl.String, "number": pl.String, "today": pl.Float64, "proposed": pl.Float64},
    )
    names = pl.col("card").replace_strict(result.names, default=None).alias("name")
    return (
        _today_and_proposed(result.before, result.after)
        .join(numbers, on="card", how="left")
        .with_columns(names)
        .select("card", "name", "number", "today", "proposed", *_COLUMNS[1:], *(f"proposal_{c}" for c in _COLUMNS[1:]))
    )


_COLUMNS = ["card", "games", "change_pp", "ci_low_pp", "ci_high_pp", "verdict"]


def _today_and_proposed(before: pl.DataFrame, after: pl.DataFrame) -> pl.DataFrame:
    """Each figure's strength today and with the proposal, in points, the proposal's columns prefixed."""
    after = in_units(after).select(_COLUMNS).rename({c: f"proposal_{c}" for c in _COLUMNS if c != "card"})
    return in_units(before).select(_COLUMNS).join(after, on="card")


def _strength(row: dict[str, Any], prefix: str = "") -> str:
    r = {k: row[f"{prefix}{k}"] for k in _COLUMNS[1:]}
    return f"{r['change_pp']:+.1f} ({r['ci_low_pp']:+.1f} to {r['ci_high_pp']:+.1f}), n={r['games']:,}: {r['verdict']}"


def page_rows(rows: pl.DataFrame) -> list[list[str]]:
    """The page's table: item, number, today -> proposed, strength today and with the proposal."""
    out = []
    for r in rows.sort("change_pp", descending=True).iter_rows(named=True):
        moved = r["number"] is not None and r["today"] != r["proposed"]
        value = f"{_n(r['today'])} -> {_n(r['proposed'])}" if moved else (_n(r["today"]) if r["number"] else "-")
        out.append(
            [
                r["name"] or r["card"],
                r["number"] or "(no number to turn)",
                value,
                _strength(r),
                _strength(r, "proposal_"),
            ]
        )
    return out


def _n(x: float | None) -> str:
    return "-" if x is None else plain_number(x)


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
        "undecided": "the items left are undecided within each measure's budget (a larger --budget decides them)",
    }[result.ended]
    return (
        f"{now['fair']} of {n} {_what(result)} fair (inside +-{result.tolerance:g} points) with the proposal, "
        f"{was['fair']} today, on held-out games; {moved} number{'s' if moved != 1 else ''} changed; "
        f"{how} after {len(result.rounds)} round{'s' if len(result.rounds) != 1 else ''}, "
        f"{result.games:,} games in all{_kept(result)}."
    )


def _kept(result: RebalanceResult) -> str:
    """Which round the proposal is, and why: the nearest fair on the search's own games."""
    k = result.kept
    if k is None or len(result.rounds) < 2 or "excess" not in k:
        return ""
    which = "today's values" if k["round"] == 1 else f"round {k['round']}'s values"
    return (
        f"; the proposal is {which}, the nearest fair of the rounds on the search's games "
        f"({k['excess']:.1f} points squared past the band, {k['outside']} figures outside)"
    )


def field_summaries(result: RebalanceResult) -> list[str]:
    """One sentence per other field the proposal was checked in, held out."""
    out = []
    for check in result.checks:
        was, now = verdict_counts(check.before), verdict_counts(check.after)
        flagged = check.after.filter(pl.col("verdict").is_in(OUTSIDE))
        farthest = flagged.sort(pl.col("change").abs(), descending=True).head(FARTHEST)
        listed = ", ".join(
            f"{result.names.get(r['card'], r['card'])} {100 * r['change']:+.1f}" for r in farthest.iter_rows(named=True)
        )
        more = f" and {flagged.height - FARTHEST} more" if flagged.height > FARTHEST else ""
        out.append(
            f"In {check.label}: {now['fair']} of {check.before.height} fair with the proposal, {was['fair']} today "
            f"(too strong {was['too strong']} -> {now['too strong']}, too weak {was['too weak']} -> "
            f"{now['too weak']}), on held-out games"
            + (f"; outside, the farthest first: {listed}{more} points." if listed else ".")
        )
    return out


FARTHEST = 5  # figures a field's sentence names outside the band


def field_rows(result: RebalanceResult) -> pl.DataFrame:
    """fields.csv: every other field's figures, today and with the proposal, one row a field and item."""
    frames = []
    for check in result.checks:
        frames.append(_today_and_proposed(check.before, check.after).with_columns(pl.lit(check.label).alias("field")))
    if not frames:
        return pl.DataFrame()
    names = pl.col("card").replace_strict(result.names, default=None).alias("name")
    return pl.concat(frames).with_columns(names).select("field", "card", "name", pl.exclude("field", "card", "name"))


def _what(result: RebalanceResult) -> str:
    positions = sum(1 for k in result.before["card"] if k.startswith(("seat ", "draft position ")))
    return "items, seats and draft positions" if positions else "items"


def hardened_line(result: RebalanceResult) -> str:
    """--harden: how often `tuned` was hardened, what it held at the proposal, and where its profile is."""
    runs = [h for h in result.hardened.values() if h["games"]]
    at = _proposals_hardening(result)
    return (
        f"tuned hardened at each round's values ({len(runs)} hardening{'s' if len(runs) != 1 else ''}, "
        f"{sum(h['games'] for h in runs):,} games); at the proposal's it {at['summary']}; its profile: "
        f"{result.out / 'tuned.yaml'} (under tuned: in the game's bots.yaml, or a scenario's bot_profiles)"
    )


def _proposals_hardening(result: RebalanceResult) -> dict:
    """The hardening whose profile plays the proposal (the last of the rounds that held it)."""
    return next(h for h in reversed(result.hardened.values()) if h["profile"] == result.tuned_profile)


def tuned_yaml(result: RebalanceResult) -> str:
    at = _proposals_hardening(result)
    note = comment(f"balance rebalance --harden: tuned hardened at the proposal's values; {at['summary']}")
    return note + yaml.safe_dump({"tuned": result.tuned_profile}, sort_keys=False, default_flow_style=None)


def write_outputs(result: RebalanceResult, scenario_name: str) -> Path:
    rows = item_rows(result)
    write_csv(rows, result.out / "items.csv")
    if result.tuned_profile is not None:
        write_text(result.out / "tuned.yaml", tuned_yaml(result))
    others = field_rows(result)
    if not others.is_empty():
        write_csv(others, result.out / "fields.csv")
    write_text(result.out / "proposal.yaml", proposal_yaml(result))
    return render(
        "rebalance.html.j2",
        result.out / "index.html",
        name=scenario_name,
        summary=summary(result),
        field_lines=field_summaries(result),
        hardened=hardened_line(result) if result.tuned_profile is not None else "",
        fields=[
            {
                "label": check.label,
                "data": [
                    [r["name"] or r["card"], _strength(r), _strength(r, "proposal_")]
                    for r in others.filter(pl.col("field") == check.label)
                    .sort("proposal_change_pp", descending=True)
                    .iter_rows(named=True)
                ],
            }
            for check in result.checks
        ],
        why_not=result.why_not,
        proposal=proposal_yaml(result),
        columns=["item", "its number", "today -> proposed", "strength today", "with the proposal"],
        data=page_rows(rows),
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
        search=result.search,
        tolerance=result.tolerance,
        seed_note="held-out seeds: games no round played",
    )


def applied_scenario(scenario_path: Path, copy: Path, result: RebalanceResult) -> Path:
    """OUT/applied.yaml: the scenario playing the --apply copy (its name with -rebalanced), for the next steps
    (the tuned profile's exploit check against the new database, a run, a report). The scenario's own
    overrides stay, and the proposal's follow them: they set what the copy holds, and win over the scenario's."""
    data = dict(load_yaml(scenario_path).data)
    data |= {"name": f"{data.get('name', 'scenario')}-rebalanced", "cards": str(copy.resolve())}
    if data.get("overrides"):
        data["overrides"] = dict(data["overrides"]) | result.proposal
    if result.tuned_profile is not None:  # --harden: tuned as hardened at the proposal's values plays the new database
        data["bot_profiles"] = dict(data.get("bot_profiles") or {}) | {"tuned": result.tuned_profile}
    note = "# balance rebalance: the scenario with the proposal applied (its cards: the --apply copy)\n"
    return write_text(result.out / "applied.yaml", note + yaml.safe_dump(data, sort_keys=False))


def check_copy(cards_path: Path, dest: Path, force: bool) -> None:
    """--apply's copy, before any game: never the database itself, nor a file there already without --force."""
    if dest.resolve() == Path(cards_path).resolve():
        raise UserError(Problem("--apply", None, str(dest), "is the card database itself: give a copy's path"))
    if dest.exists() and not force:
        raise UserError(Problem("--apply", None, str(dest), "exists: add --force to replace it"))


def apply_to_copy(cards_path: Path, values: dict[str, Any], dest: Path) -> tuple[Path, list[str]]:
    """A copy of the database at `dest` (check_copy said it may be written) with each value written in place
    of today's on its own line, comments and layout kept, and each changed effect's text said anew; the
    entries whose text is left to rewrite by hand."""
    texts: list[str] = []
    return write_text(dest, written(cards_path, values, texts)), texts


def written(cards_path: Path, values: dict[str, Any], texts: list[str] | None = None) -> str:
    """The database's text with each value in place of today's: `key: number` on its line, or an element of a
    one-line list (`seat_coins: [0, 0, 0, 4]`); a one-line error for a number written otherwise. An effect's
    number that its entry's `text:` says once is said anew there too ("+6 Drive." -> "+2 Drive."); where the
    text says it more than once, or not at all, the entry's name goes to `texts` (to rewrite by hand)."""
    doc = load_yaml(cards_path)
    lines = Path(cards_path).read_text(encoding="utf-8").split("\n")
    for path, value in values.items():
        where = resolve_path(doc.data, split_path(path))
        if texts is not None and not isinstance(where, str):
            _say_anew(doc, lines, where, value, texts)
        line = doc.lines.get(tuple(where)) if not isinstance(where, str) else None
        text = lines[line - 1] if line else ""
        if line and isinstance(where[-1], int) and len(where) > 1:  # an element of a flow list on its key's line
            flow = re.compile(rf"(\b{re.escape(str(where[-2]))}\s*:\s*\[)([^\]]*)(\])")
            found = flow.search(text)
            parts = found.group(2).split(",") if found else []
            if found and where[-1] < len(parts) and re.fullmatch(rf"\s*{NUMBER}\s*", parts[where[-1]]):
                old = parts[where[-1]]
                parts[where[-1]] = old.replace(old.strip(), str(value))
                lines[line - 1] = text[: found.start(2)] + ",".join(parts) + text[found.end(2) :]
                continue
        key = re.escape(str(where[-1])) if not isinstance(where, str) else ""
        pattern = re.compile(rf"(\b{key}\s*:\s*){NUMBER}(?![\w.])")
        if not line or not pattern.search(text):
            raise UserError(Problem("--apply", None, path, "is not written as `key: number` on one line"))
        lines[line - 1] = pattern.sub(lambda m, v=value: f"{m.group(1)}{v}", text, count=1)
    return "\n".join(lines)


PLURALS = {"coin": "coins", "card": "cards", "space": "spaces", "die": "dice", "turn": "turns", "lap": "laps"}


def _say_anew(doc, lines: list[str], where: tuple[Any, ...], value: Any, texts: list[str]) -> None:
    """An entry's effect number (an amount, a count, a condition's number) said anew in its `text:` line
    (see written)."""
    if "effects" not in where:
        return  # a count, a cost or a rule: the text does not say it
    at = where.index("effects")
    entry, old = doc.data, doc.data
    for key in where[:at]:
        entry = entry[key]
    for key in where:
        old = old[key]
    line = doc.lines.get((*where[:at], "text"))
    text = entry.get("text") if isinstance(entry, dict) else None
    if not text or not line or not isinstance(old, int) or not isinstance(value, int):
        return
    said = reworded(text, old, value)
    src = lines[line - 1]
    if said is None or src.count(text) != 1:
        texts.append(str(entry.get("name", entry.get("id"))))
        return
    lines[line - 1] = src.replace(text, said)


def reworded(text: str, old: int, new: int) -> str | None:
    """`text` with the one number `old` said as `new` (its sign kept, "1 coin" <-> "2 coins", "1 extra die" <->
    "2 extra dice"); None where the text says `old` more than once or not at all (which of them the effect
    is, only its designer knows)."""
    number = re.compile(rf"(?<![\w.])([+-]?){abs(old)}(?![\w.])((?:\s+(?:extra|more|fewer|additional))?\s+)?(\w+)?")
    found = list(number.finditer(text))
    if len(found) != 1:
        return None
    sign, gap, word = found[0].groups()
    if word and gap:
        singular = {v: k for k, v in PLURALS.items()}.get(word, word)
        if singular in PLURALS:
            word = singular if abs(new) == 1 else PLURALS[singular]
    said = f"{sign}{abs(new)}{gap or ''}{word or ''}"
    return text[: found[0].start()] + said + text[found[0].end() :]
