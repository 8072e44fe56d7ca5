"""The report's advice from the experiment (balance strength's table): which
items are too strong or too weak, by cause, one line an item; where the bots'
associations say otherwise, the line says so; and "what to change", with a
ready `balance fit` command for each item and for the seats.

Associations (players who took an item won more) are kept for what they are,
the bots' taste, in their own section (findings.taste_lines).
"""

from __future__ import annotations

import math
from collections.abc import Callable
from pathlib import Path
from typing import Any

import polars as pl

from ..analysis.band import FAIR_BAND
from ..analysis.stats import Z95
from ..analysis.strength import (
    FAIR,
    STRONGER,
    UNDECIDED,
    WEAKER,
    games_in_rounds,
    next_z,
    on_the_edge,
    read_verdict,
    verdict,
)
from ..analysis.strength import games_to_decide as item_games_to_decide
from ..analysis.winrate import from_share
from ..overrides import resolve_path, split_path, value_at
from ..printable import command_line

SHOWN = 8  # items a side (too strong, too weak) named in the findings; the rest: "and N more"


def points(x: float) -> str:
    return f"{100 * x:+.1f}"


def associations(cards: pl.DataFrame | None, books: pl.DataFrame | None) -> dict[str, dict[str, Any]]:
    """Each item's association with winning, as the report's tables hold it:
    within each bot profile (analysis.cards' one win rate added; drafted,
    else bought, else held for a Playbook, else dealt), with its interval and BH flag."""
    out: dict[str, dict[str, Any]] = {}
    for table, key, hows in ((cards, "card", ("drafted", "bought", "dealt")), (books, "playbook", ("held",))):
        if table is None or table.is_empty():
            continue
        for how in hows:
            within = f"added_raw_{how}" in table.columns  # the plain figure is the one within bot profiles
            added, low, high = f"added_{how}", f"added_low_{how}", f"added_high_{how}"
            if added not in table.columns:
                continue
            for row in table.iter_rows(named=True):
                item = row[key]
                if item in out or row[added] is None or low not in row:
                    continue
                out[item] = {
                    "added": row[added],
                    "low": row[low],
                    "high": row[high],
                    "significant": bool(row.get(f"significant_{how}")),
                    "how": how,
                    "within": within,
                }
    return out


def _contradiction(row: dict[str, Any], seen: dict[str, Any] | None) -> str:
    """Where the bots' association points another way than the experiment: other
    sign while both are significant, or significant where the experiment is not."""
    if seen is None or not seen["significant"]:
        return ""
    other_sign = (seen["added"] > 0) != (row["change"] > 0)
    if row["significant"] and not other_sign:
        return ""
    words = "the other way" if row["significant"] else "where the experiment finds no effect"
    within = ", within each bot profile" if seen["within"] else ""
    return (
        f" (the bots' association, {points(seen['added'])} points when {seen['how']}{within}, points {words}: "
        "it reflects who takes it, not what it does)"
    )


# The most paired games an item is asked to play for a verdict: past it, an item sits so near the band's edge
# (within a few tenths of a point) that a budget to place it would take hours; a step toward 0 settles it
# (What to change names it on the band's edge). 2^20: about 4 minutes on 2 cores, with its baseline.
BUDGET_REACH = 1_048_576


def games_to_decide(table: pl.DataFrame, tolerance: float) -> tuple[int, dict[str, int], list[str]]:
    """(more paired games, each undecided item's games it would need, the items past BUDGET_REACH) for the
    undecided items: each needs analysis.strength.games_to_decide at its
    change (inside the band where it is estimated inside, else clear of the band and significant after the
    correction),
    played in the design's rounds (its games doubled until they reach the need: a budget for fewer
    stops the rounds short), and the baseline grows to the largest item's games. An item that would need
    more than BUDGET_REACH is left out of the games (with an estimate on the edge itself it needed 10^11)."""
    undecided = table.filter(pl.col("verdict") == UNDECIDED) if "verdict" in table.columns else table.clear()
    if undecided.is_empty():
        return 0, {}, []
    z = next_z(table["significant"].to_numpy()) if "significant" in table.columns else Z95
    base = largest = int(table["games"].max())
    more, needs, beyond = 0, {}, []
    for r in undecided.iter_rows(named=True):
        cells = (r["ci_low"], r["ci_high"], r["change"])
        if any(c is None or not math.isfinite(c) for c in cells):  # an empty or NaN cell: nothing to price
            continue
        half = (r["ci_high"] - r["ci_low"]) / 2
        needed = item_games_to_decide(r["games"], half, r["change"], tolerance, z)
        if needed > BUDGET_REACH:
            beyond.append(r["card"])
            continue
        needs[r["card"]] = needed
        played = games_in_rounds(r["games"], needed)
        more += played - r["games"]
        largest = max(largest, played)
    return more + largest - base, dict(sorted(needs.items(), key=lambda kv: kv[1])), beyond


def causal_lines(
    table: pl.DataFrame,
    names: dict[str, str],
    seen: dict[str, dict[str, Any]],
    where: str,
    shown: int = SHOWN,
    tolerance: float = FAIR_BAND / 100,
    measure: tuple[str, ...] = (),
) -> list[str]:
    """The findings of the experiment: every item whose change is significant,
    strongest first, then weakest first, each with its interval and games;
    past `shown` a side, "and N more" names the file (`where`)."""
    kinds = dict(zip(table["card"], table["kind"], strict=True)) if "kind" in table.columns else {}
    versus = dict(zip(table["card"], table["versus"], strict=True)) if "versus" in table.columns else {}
    total = int(table["games"].sum())
    lines = [
        f"By experiment (causal): each item given to one seat, against the same games without it or, for an item "
        f"given in place of the seat's own pick, against the average item of its kind; {total:,} paired games over "
        f"{table.height} items (each item's games on its line). Too strong or too weak: significant after a "
        "Benjamini-Hochberg correction, with the whole interval past the fair band's edge."
    ]

    def line(r: dict[str, Any]) -> str:
        kind = f" ({kinds[r['card']]})" if kinds.get(r["card"]) else ""
        against = versus.get(r["card"], "without it")
        against = "" if against == "without it" else f" against {against}"
        return (
            f"{names.get(r['card'], r['card'])}{kind}: {points(r['change'])} points of win rate for the seat given "
            f"it{against} ({points(r['ci_low'])} to {points(r['ci_high'])}), n={r['games']:,} games"
            f"{_contradiction(r, seen.get(r['card']))}."
        )

    flagged = table.filter(pl.col("verdict").is_in([STRONGER, WEAKER]))
    strong = flagged.filter(pl.col("change") > 0).sort("change", descending=True)
    weak = flagged.filter(pl.col("change") < 0).sort("change")
    for side, rows in (("too strong", strong), ("too weak", weak)):
        lines += [line(r) for r in rows.head(shown).iter_rows(named=True)]
        if rows.height > shown:
            lines.append(f"... and {rows.height - shown} more {side}: every item is in {where}.")
    if flagged.is_empty():
        lines.append(
            "No item is too strong or too weak: none is significant after the Benjamini-Hochberg correction "
            "with its interval past the fair band."
        )
    verdicts = dict(table["verdict"].value_counts().iter_rows()) if "verdict" in table.columns else {}
    if verdicts.get("fair") or verdicts.get("undecided"):
        line = (
            f"Fair (the whole interval inside the fair band): {verdicts.get('fair', 0)}; undecided within the "
            f"budget: {verdicts.get('undecided', 0)}."
        )
        more, needs, beyond = games_to_decide(table, tolerance)
        if beyond:
            line += (
                f" {len(beyond)} of them so near the band's edge that no budget places them (more than "
                f"{BUDGET_REACH:,} games each): " + ", ".join(names.get(i, i) for i in beyond) + "; a step "
                "toward 0 settles each (What to change)."
            )
        if needs:
            spent = int(table["games"].sum() + table["games"].max())
            budget = _round_up(spent + more)
            named = ", ".join(f"{names.get(i, i)} ({_round_up(n):,})" for i, n in list(needs.items())[:shown])
            rest = f" and {len(needs) - shown} more (every item is in {where})" if len(needs) > shown else ""
            line += (
                f" Each undecided item, with the paired games it would need to decide (inside the band, or past "
                f"it, clear of the band): {named}{rest}. About {more:,} more paired games would decide them all"
                + (f" -> {command_line(*measure, '--budget', budget)}" if measure else ".")
            )
        lines.append(line)
    return lines


def _round_up(games: int) -> int:
    """A budget a designer would type: up to 2 significant figures."""
    step = 10 ** max(0, len(str(games)) - 2)
    return -(-games // step) * step


def contradicted(table: pl.DataFrame, seen: dict[str, dict[str, Any]]) -> set[str]:
    """The items whose association the experiment contradicts (marked on their line, and in the bots' taste)."""
    rows = {r["card"]: r for r in table.iter_rows(named=True)}
    return {item for item, s in seen.items() if item in rows and _contradiction(rows[item], s)}


def free_value(database: dict[str, Any], item: str) -> tuple[str, float] | None:
    """(PATH, value) of the number a designer would turn first for `item`: its
    first effect's amount, else its first number that is not a count, cost or
    pick; None where the database holds none. The item is found in any list of
    items with ids, nested too (Shuffle GP's drivers and their cards), and the
    path names it by id, as fit's --free and the overrides take it."""
    entry = find_entry(database, item)
    return _first_number(entry[0], entry[1]) if entry else None


def find_entry(node: Any, item: str, path: str = "") -> tuple[dict[str, Any], str] | None:
    """(entry, PATH) of the item with id `item` anywhere in the database, its path naming it by id."""
    if isinstance(node, dict):
        for key, value in node.items():
            found = find_entry(value, item, f"{path}.{key}" if path else str(key))
            if found:
                return found
    elif isinstance(node, list):
        for entry in node:
            if isinstance(entry, dict) and "id" in entry:
                if entry["id"] == item:
                    return entry, f"{path}.{item}"
                found = find_entry({k: v for k, v in entry.items() if k != "id"}, item, f"{path}.{entry['id']}")
                if found:
                    return found
    return None


NOT_STRENGTH = {"id", "pick", "order"}
OF_THE_ENTRY = {"count", "cost", "copies"}  # an entry's copies and price, not what it does


def not_a_strength(node: dict[str, Any], key: str) -> bool:
    """Whether `node[key]` is no number a designer turns to make an item stronger or weaker: an id or an
    order, or an entry's (a dict with an id) copies and price. An effect's `count` (scrap 2 cards, put 1
    Debris, 1 extra play) is what the effect does, and is a lever."""
    return key in NOT_STRENGTH or (key in OF_THE_ENTRY and "id" in node)


def _first_number(node: Any, path: str) -> tuple[str, float] | None:
    if isinstance(node, bool):
        return None
    if isinstance(node, int | float):
        return path, node
    if isinstance(node, dict):
        for key in sorted(node, key=lambda k: (k != "effects", k != "amount")):
            if not_a_strength(node, key):
                continue
            found = _first_number(node[key], f"{path}.{key}")
            if found is not None:
                return found
    if isinstance(node, list):
        for i, value in enumerate(node):
            found = _first_number(value, f"{path}.{i}")
            if found is not None:
                return found
    return None


def fit_range(value: float, weaken: bool | None) -> str | None:
    """A range of values around today's, toward the change (`weaken`; None: both ways, for a number whose
    direction the report does not know, such as a condition's threshold): at least 2 steps, half the value
    where larger; the size shrinks toward 0 to weaken, never to 0 nor past it (0 deletes the effect, a
    drive is not a brake: rebalance's rule too). None where no value but today's is left (an amount of 1
    to weaken)."""
    whole = float(value).is_integer()
    size, sign = abs(value), -1 if value < 0 else 1
    step = max(2, int(size) // 2) if whole else max(size / 2, 0.5)
    least = (1 if whole else size / 4) if size else 0  # the smallest size of today's sign
    low, high = (max(least, size - step), size) if weaken is not False else (size, size)
    if weaken is not True:
        high = size + step
    if low == high:
        return None
    ends = sorted((sign * low, sign * high))
    if whole:
        return f"{int(ends[0])}..{int(ends[1])}"
    return f"{ends[0]:g}:{ends[1]:g}:{step / 4:g}"


def fit_lever(
    database: dict[str, Any], item: str, weaken: bool, accepts: Callable[[str, float], bool] | None = None
) -> tuple[str, str] | None:
    """(PATH, RANGE) for the fit the report prints: the item's first number (free_value) toward the
    change (both ways for a negative one), else its next number that has a range, both ways (the printed
    fit for Rocket Fuel's one Drive turned it 0..1, a fit that could only delete the effect; its coins'
    threshold reaches fair). `accepts(PATH, value)` says whether the game takes a value: each end of a
    range is drawn in to what it takes (fit refuses a range whose end the game does not: Dual-Mount
    Frame's extra Engines 1..3, at most 2), and a range with nothing but today's value left gives way to
    the next number."""
    entry = find_entry(database, item)
    first = free_value(database, item)
    if entry is None or first is None:
        return None
    # a positive number makes its item stronger as it grows (a Drive, a die); a negative one may be a
    # drawback (Twin Rollers' -4 cards) or an attack (a push of -5): both ways, the fit finds which
    found = _taken(first[0], first[1], fit_range(first[1], weaken if first[1] > 0 else None), accepts)
    if found is not None:
        return first[0], found
    for path in item_numbers(entry[0], entry[1]):
        if path == first[0]:
            continue
        value = value_at(database, path)
        # a condition's threshold, or a negative number: both ways; a size weakens as it shrinks, a cost as it
        # grows (Drift Tyres' second Drive of 1, turned 1..3 to weaken it, could only make it stronger)
        direction = None if ".if." in path or value < 0 else (not weaken if path.endswith(".cost") else weaken)
        found = _taken(path, value, fit_range(value, direction), accepts)
        if found is not None:
            return path, found
    return None


def _taken(path: str, today: float, found: str | None, accepts: Callable[[str, float], bool] | None) -> str | None:
    """A fit range with each end drawn in toward today's value until the game takes it; None where only
    today's value is left."""
    if found is None or accepts is None:
        return found
    whole = ".." in found
    low, high, step = (*map(float, found.split("..")), 1.0) if whole else map(float, found.split(":"))
    while low < today and not accepts(path, int(low) if whole else low):
        low = min(low + step, today)
    while high > today and not accepts(path, int(high) if whole else high):
        high = max(high - step, today)
    if low == high:
        return None
    return f"{int(low)}..{int(high)}" if whole else f"{low:g}:{high:g}:{step:g}"


def game_accepts(run_dir: str | Path) -> Callable[[str, float], bool] | None:
    """accepts(PATH, value): whether the printed fit could set that value, by fit's own check of a range's
    ends (experiments.fit.refused) on the run's scenario; None where the run's scenario cannot be read as it
    played (its card database edited since: the printed command's paths are then the designer's to check)."""
    from ..errors import UserError
    from ..experiments.fit import refused
    from ..games import get_game
    from ..runner import scenario_of_run

    try:
        scenario = scenario_of_run(run_dir)[0]
        game = get_game(scenario.model.game)
    except UserError:
        return None
    return lambda path, value: refused(game, scenario, path, value) is None


def item_numbers(entry: dict[str, Any], path: str) -> list[str]:
    """The numbers of an item's entry a designer can turn (PATHs naming it by id), its cost first, then its
    effects' in order: rebalance's levers, and the printed fit's when the first cannot move."""
    out: list[str] = []

    def walk(node: Any, at: str) -> None:
        if isinstance(node, dict):
            for key, value in node.items():
                if not not_a_strength(node, key) or key == "cost":  # a cost is a lever of its own
                    walk(value, f"{at}.{key}")
        elif isinstance(node, list):  # an entry with an id is named by it, as overrides and --free name it
            for i, value in enumerate(node):
                walk(value, f"{at}.{value['id'] if isinstance(value, dict) and 'id' in value else i}")
        elif isinstance(node, int | float) and not isinstance(node, bool):
            out.append(at)

    walk(entry, path)
    return sorted(out, key=lambda p: not p.endswith(".cost"))


def sweep_range(value: float) -> str:
    """Five values around today's both ways (a comma list), for a sweep that brackets fair."""
    if float(value).is_integer():
        step = max(1, int(abs(value)) // 2)
        values = [int(value) + k * step for k in range(-2, 3)]
    else:
        step = max(abs(value) / 2, 0.5)
        values = [round(value + k * step, 4) for k in range(-2, 3)]
    return ",".join(f"{v:g}" for v in dict.fromkeys(max(0, v) for v in values))


SWEEP_GAMES = 4096  # games a value in the report's printed sweep: five values, paired, in about half a minute


def change_lines(
    table: pl.DataFrame,
    names: dict[str, str],
    tolerance: float,
    scenario: str,
    database: dict[str, Any] | None,
    seat_lines: list[str],
    shown: int = 5,
    accepts: Callable[[str, float], bool] | None = None,
) -> list[str]:
    """What to change: the items to weaken and to strengthen (`shown` a side,
    then how many more), the seats out of balance, each with a `balance fit`
    command a designer can run as it is. An item is to change where the
    findings call it too strong or too weak (its verdict: one threshold for
    both sections: the whole interval past the band)."""
    lines: list[str] = []
    band = f"{100 * tolerance:g}"
    if "verdict" in table.columns:
        beyond = table.filter(pl.col("verdict").is_in([STRONGER, WEAKER]))
    else:  # a table of an older strength: significant, and the whole interval beyond the tolerance
        beyond = table.filter(
            pl.col("significant") & ((pl.col("ci_low") > tolerance) | (pl.col("ci_high") < -tolerance))
        )
    for weaken, rows in (
        (True, beyond.filter(pl.col("change") > 0).sort("change", descending=True)),
        (False, beyond.filter(pl.col("change") < 0).sort("change")),
    ):
        if rows.height > shown:
            side = "to weaken" if weaken else "to strengthen"
            rest = f"... and {rows.height - shown} more {side} (the findings below and strength.csv list them)"
        for r in rows.head(shown).iter_rows(named=True):
            item = r["card"]
            what = "Weaken" if weaken else "Strengthen"
            free = fit_lever(database, item, weaken, accepts) if database else None
            command = (
                "-> "
                + command_line(
                    "balance",
                    "fit",
                    scenario,
                    "--free",
                    f"{free[0]}={free[1]}",
                    "--target",
                    f"strength:{item}=0+-{band}",
                )
                if free
                else "(its entry holds no number to fit: change its effects, then run and measure it again)"
            )
            lines.append(
                f"{what} {names.get(item, item)}: {points(r['change'])} points ({points(r['ci_low'])} to "
                f"{points(r['ci_high'])}, n={r['games']:,}) {command}"
            )
        if rows.height > shown:
            lines.append(rest)
    if not lines:
        lines.append(
            f"No item is too strong or too weak by experiment (fair band +-{band} points; balance report --tolerance "
            "sets the band)."
        )
    edge = _edge_line(table, names, band) if "verdict" in table.columns else ""
    if edge:
        lines.append(edge)
    if edge or beyond.height > 1 or (beyond.height and seat_lines):
        # each fix moves the others: one change set for all of them
        lines.append(
            "All of them at once (each fix moves the others: every item outside the band or on its edge, and the "
            "seats and draft "
            "positions where the rules give them coins, stepped together and measured again, held out) -> "
            + command_line("balance", "rebalance", scenario, "--tolerance", band)
        )
    return lines + seat_lines


EDGE_SHOWN = 8  # items named on the edge line, then how many more


def _edge_line(table: pl.DataFrame, names: dict[str, str], band: str) -> str:
    """The items on the band's edge (analysis.strength.on_the_edge), farthest from 0 first: not flagged, not
    shown fair, and more games only tell which side of the edge each sits; a step toward 0 settles them."""
    rows = [r for r in table.iter_rows(named=True) if on_the_edge(r["verdict"], r["ci_low"], r["ci_high"])]
    if not rows:
        return ""
    rows.sort(key=lambda r: -abs(r["change"]))
    named = ", ".join(
        f"{names.get(r['card'], r['card'])} {points(r['change'])} ({points(r['ci_low'])} to {points(r['ci_high'])}, "
        f"n={r['games']:,})"
        for r in rows[:EDGE_SHOWN]
    )
    more = f" and {len(rows) - EDGE_SHOWN} more" if len(rows) > EDGE_SHOWN else ""
    return (
        f"On the band's edge, undecided ({len(rows)}: each interval clear of 0 and reaching past +-{band}): "
        f"{named}{more}. More games would tell which side of the edge each sits, the more the nearer it is (the "
        "findings below say how many); a small step toward 0 settles it."
    )


def position_figures(rates: pl.DataFrame, key: str, tolerance: float) -> dict[int, list[dict[str, Any]]]:
    """Each seat's (or draft position's) win rate less its fair share, with its 95% interval and verdict at the
    band, by player count: the figures rebalance steps and fit's seat-balance and draft-balance targets hold."""
    out: dict[int, list[dict[str, Any]]] = {}
    for f in from_share(rates, key):
        out.setdefault(f["n_players"], []).append(
            f | {"verdict": verdict(f["ci_low"], f["ci_high"], tolerance, f["change"])}
        )
    return out


def position_out(figures: list[dict[str, Any]]) -> bool:
    """The seats (or draft positions) of a player count out of balance: one of them is too strong or too weak
    by its own share, as rebalance reads a position and fit's targets hold it (the best and worst more than the
    band apart, which the report read before, called positions out that each lay inside the band)."""
    return any(f["verdict"] in (STRONGER, WEAKER) for f in figures)


def position_phrase(word: str, figure: dict[str, Any]) -> str:
    """A position's figure in words: draft position 1 -3.4 points (-4.0 to -2.8) from its share, too weak."""
    return (
        f"{word} {figure['position']} {100 * figure['change']:+.1f} points ({100 * figure['ci_low']:+.1f} to "
        f"{100 * figure['ci_high']:+.1f}) from its share, {figure['verdict']}"
    )


def seat_change_lines(
    seats: pl.DataFrame,
    equality: pl.DataFrame,
    tolerance: float,
    scenario: str,
    seat_rule: str | None,
    key: str = "seat",
    database: dict[str, Any] | None = None,
) -> list[str]:
    """The seats (or, with `key="draft_position"`, the draft positions, 1 the
    first pick) out of balance (position_out: one too strong or too weak by
    its own share); with a fit over the game's compensation
    rule for them where it has one (rules.seat_coins, rules.draft_coins): the
    worst position's coins raised from what the database gives it (a fixed
    0..3 asked a position holding 4 coins, and winning least, to hold fewer)."""
    today = _rule_list(database, seat_rule)
    word = key.replace("_", " ")
    target = "seat-balance" if key == "seat" else "draft-balance"
    first = 0 if key == "seat" else 1  # a rule's list starts at seat 0, at draft position 1
    lines = []
    figures = position_figures(seats, key, tolerance)
    for row in equality.iter_rows(named=True):
        if not position_out(figures.get(row["n_players"], [])):
            continue
        group = seats.filter(pl.col("n_players") == row["n_players"]).sort("win_rate")
        worst = group.row(0, named=True)
        at = worst[key] - first
        now = int(today[at]) if today is not None and 0 <= at < len(today) else 0
        fix = (
            " -> "
            + command_line(
                "balance",
                "fit",
                scenario,
                "--free",
                f"{seat_rule}.{at}={now}..{now + 3}",
                "--target",
                f"{target}<={100 * tolerance:g}",
            )
            if seat_rule
            else ""
        )
        lever = f" (its lever: {seat_rule}, extra starting coins by {word})" if seat_rule and key != "seat" else ""
        p = row["p_value"]
        beyond = "; ".join(position_phrase(word, f) for f in figures[row["n_players"]] if f["verdict"] != FAIR)
        lines.append(
            f"{word.capitalize()}s out of balance ({row['n_players']} players): {beyond}, past the band of its share "
            f"({100 * row['largest_gap']:.1f} points between the best and worst {word}, chi-square p "
            f"{'< 0.001' if p < 0.001 else f'= {p:.3f}'}); {word} {worst[key]} wins least{lever}{fix}"
        )
    return lines


def _rule_list(database: dict[str, Any] | None, rule: str | None) -> list[Any] | None:
    """A rule's list of numbers by position in the database (rules.draft_coins), or None where it has none."""
    if database is None or rule is None:
        return None
    if isinstance(resolve_path(database, split_path(rule)), str):  # a message: the database has no such rule
        return None
    value = value_at(database, rule)
    return value if isinstance(value, list) and all(isinstance(v, int | float) for v in value) else None


def strong_gap_line(positions: pl.DataFrame | None, word: str = "seat") -> list[str]:
    """Where the gap between the best and worst seat widens in the tuned field
    (balance strong) past what the two intervals allow: one sentence; none otherwise."""
    if positions is None or positions.is_empty() or "win_rate_strong" not in positions.columns:
        return []

    def gap(suffix: str) -> tuple[float, float]:
        """The best seat's win rate minus the worst's, and the squared half widths of their intervals, added."""
        rates = positions[f"win_rate{suffix}"]
        half = (positions[f"ci_high{suffix}"] - positions[f"ci_low{suffix}"]) / 2
        ends = [int(rates.arg_max()), int(rates.arg_min())]
        return float(rates.max() - rates.min()), float((half[ends] ** 2).sum())

    (here, noise), (strong, strong_noise) = gap(""), gap("_strong")
    if strong - here <= (noise + strong_noise) ** 0.5:  # within the four intervals' noise
        return []
    return [
        f"Under strong play the {word} gap widens: {100 * here:.1f} points between the best and worst {word} in this "
        f"field, {100 * strong:.1f} in the tuned field (balance strong, n={int(positions['n_strong'][0]):,} games): "
        f"a compensation fitted here may fall short for strong players."
    ]


def load_database(path: str | Path | None) -> dict[str, Any] | None:
    """The run's card database as data (for fit's paths), or None when it cannot be read."""
    import yaml

    try:
        data = yaml.safe_load(Path(path).read_text()) if path else None
    except (OSError, yaml.YAMLError):
        return None
    return data if isinstance(data, dict) else None


def _verdict_move(before: str, after: str) -> str:
    if after == before:
        return f"still {after}" if after in (STRONGER, WEAKER) else after
    if after == UNDECIDED:
        return f"was {before}, now undecided"
    return f"now {after} (was {before})"


def at_band(row: dict[str, Any], tolerance: float) -> str:
    """An item's verdict from its interval and estimate, at this band, as the page reads a stored table
    (analysis.strength.read_verdict; significant where the row does not say)."""
    return read_verdict(row["ci_low"], row["ci_high"], tolerance, row["change"], row.get("significant", True))


def strength_moves(
    before: pl.DataFrame,
    after: pl.DataFrame,
    changed: set[str],
    names: dict[str, str],
    tolerance: float = FAIR_BAND / 100,
) -> list[str]:
    """Each changed item, then each other item whose verdict moved to or from too
    strong or too weak: its causal strength before -> after, both with their
    intervals and games, and the verdict; the items that only moved between fair
    and undecided (an interval crossing the band's edge by noise) named in one line.
    Both runs' verdicts are read at `tolerance` (a run measured at another band,
    or before the band was one, answers "did it help" in the same measure)."""
    old = {r["card"]: r | {"verdict": at_band(r, tolerance)} for r in before.iter_rows(named=True)}
    new = {r["card"]: r | {"verdict": at_band(r, tolerance)} for r in after.iter_rows(named=True)}
    moved = [i for i in new if i in old and i not in changed and old[i]["verdict"] != new[i]["verdict"]]
    flagged = (STRONGER, WEAKER)
    settled = [i for i in moved if old[i]["verdict"] not in flagged and new[i]["verdict"] not in flagged]
    # an unchanged item whose two reads agree within their noise: its verdict moved with the luck of a read at
    # the band's edge, not with the change (Roll Cage, untouched: +2.4 on 32,768 games, fair -> +4.3 on 2,048,
    # too strong)
    noisy = [i for i in moved if i not in settled and not _reads_differ(old[i], new[i])]
    lines = []
    for item in [i for i in new if i in changed] + [i for i in moved if i not in settled and i not in noisy]:
        a, b = old.get(item), new[item]
        name = names.get(item, item)
        now = f"{points(b['change'])} ({points(b['ci_low'])} to {points(b['ci_high'])}, n={b['games']:,})"
        if a is None:
            lines.append(f"{name}: {now} points, {b['verdict']} (not measured before)")
            continue
        then = f"{points(a['change'])} ({points(a['ci_low'])} to {points(a['ci_high'])}, n={a['games']:,})"
        why = "changed" if item in changed else "verdict moved"
        lines.append(f"{name} ({why}): {then} -> {now} points, {_verdict_move(a['verdict'], b['verdict'])}")
    if settled:
        shown = ", ".join(
            f"{names.get(i, i)} ({old[i]['verdict']} -> {new[i]['verdict']}, {points(new[i]['change'])})"
            for i in settled
        )
        lines.append(f"Between fair and undecided only (an interval at the band's edge): {shown}.")
    if noisy:
        shown = "; ".join(
            f"{names.get(i, i)} ({old[i]['verdict']} -> {new[i]['verdict']}: {points(old[i]['change'])}, "
            f"n={old[i]['games']:,} -> {points(new[i]['change'])}, n={new[i]['games']:,}; the difference "
            f"{_difference(old[i], new[i])})"
            for i in noisy
        )
        lines.append(
            "Verdicts that moved though the item did not change, its two reads within each other's noise (the "
            f"difference not significant; the item sits near the band's edge, and more games decide): {shown}."
        )
    return lines


def _spread(row: dict[str, Any]) -> tuple[float, float]:
    """(estimate, standard error) of a read, from its 95% interval."""
    return row["change"], (row["ci_high"] - row["ci_low"]) / (2 * Z95)


def _change_between(before: dict[str, Any], after: dict[str, Any]) -> tuple[float, float]:
    """(after - before, its 95% half width), the two reads taken as independent (the runs share a seed: the
    true interval is no wider, so a difference called not significant errs on the side of 'within noise')."""
    (a, sa), (b, sb) = _spread(before), _spread(after)
    return b - a, Z95 * (sa * sa + sb * sb) ** 0.5


def _difference(before: dict[str, Any], after: dict[str, Any]) -> str:
    change, half = _change_between(before, after)
    return f"{points(change)}, {points(change - half)} to {points(change + half)}"


def _reads_differ(before: dict[str, Any], after: dict[str, Any]) -> bool:
    change, half = _change_between(before, after)
    return abs(change) > half
