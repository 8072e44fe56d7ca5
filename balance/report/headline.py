"""A run's headline figures, computed the same way for the run and for its
strong-play twin (RUN/strong/, `balance strong`): the win rate by seat (or
grid slot, or turn order) and the cards (or drivers) that add the most and the
least win rate. The report sets the two side by side: "Under strong play"."""

from __future__ import annotations

import math
from pathlib import Path
from typing import Any

import polars as pl

from ..analysis import cards as card_analysis
from ..analysis import drivers, winrate
from ..analysis.band import FAIR_BAND
from ..analysis.stats import Z95
from ..analysis.strength import STRONGER, UNDECIDED, WEAKER, with_verdicts
from ..experiments.strong import EXPLOIT, FOLDER, read_strong
from ..printable import command_line
from ..units import from_units
from .labels import Labels

TOP = 3  # items shown from each end of each field's ranking


def card_table(run: dict, card_ids: list[str] | None, only: bool, names: dict[str, str]) -> pl.DataFrame:
    """The cards tabulated: win rate added where drafted or bought, or when
    dealt where a deck is dealt out (Downforce); plays per game always."""
    table = card_analysis.card_stats(run, card_ids, dealt=card_analysis.dealt_out(run, card_ids))
    if only:
        table = table.filter(pl.col("card").is_in(card_ids or []))
    # the events of the cards tabulated: Downforce's auction sells cars (their Speed-8 cards), not speed cards
    events = card_analysis.logged_events(run, card_ids if only else None)
    table = card_analysis.informative(table, events)
    return table.with_columns(pl.col("card").replace_strict(names, default=None).alias("name"))


def position(run: dict, driven: bool) -> pl.DataFrame:
    """(seat, win_rate, ci_low, ci_high, n) at the run's largest player count:
    by turn order where the first player is drawn (Shuffle GP), else by seat."""
    table = drivers.by_turn_order(run) if driven else None
    table = winrate.by_seat(run) if table is None else table.rename({"order": "seat"})
    table = table.filter(pl.col("n_players") == table["n_players"].max())
    return table.select("seat", "win_rate", "ci_low", "ci_high", pl.col("games").alias("n"))


def _figure(value: float | None, low: float | None, high: float | None, n: int | None, points: bool) -> str:
    if value is None:
        return "not seen"
    if points:
        return f"{100 * value:+.1f} points ({100 * low:+.1f} to {100 * high:+.1f}), n={n:,}"
    return f"{100 * value:.1f}% ({100 * low:.1f} to {100 * high:.1f}), n={n:,}"


def difference_label(main: dict[str, Any] | None, strong: dict[str, Any] | None) -> tuple[str, str]:
    """(the difference tuned minus this field with its 95% interval, the label
    it earns) for one item's causal strength in the two fields. The fields
    play other bots, so the two estimates are independent: the difference's
    standard error is the root of the sum of their squares. holds: no
    significant difference; changes: a significant one; reverses: a
    significant one and both fields significant with opposite signs; too few
    games: an interval in either field still undecided, or the item measured
    in one field only."""
    if main is None or strong is None:
        return "", "measured in one field only"
    se = [(r["ci_high"] - r["ci_low"]) / (2 * Z95) for r in (main, strong)]
    d = strong["change"] - main["change"]
    half = Z95 * math.sqrt(se[0] ** 2 + se[1] ** 2)
    text = f"{100 * d:+.1f} points ({100 * (d - half):+.1f} to {100 * (d + half):+.1f})"
    if UNDECIDED in (main.get("verdict"), strong.get("verdict")):
        return text, "too few games"
    if abs(d) <= half:
        return text, "holds"
    flagged = all(r.get("verdict") in (STRONGER, WEAKER) for r in (main, strong))
    if flagged and (main["change"] > 0) != (strong["change"] > 0):
        return text, "reverses"
    return text, "changes"


def experiment_rows(main: pl.DataFrame, strong: pl.DataFrame, names: dict[str, str]) -> list[list[str]]:
    """The items under strong play by experiment: the strongest and weakest TOP
    of each field and every item whose label is not "holds", each with both
    fields' causal figures, the difference and its label."""
    by_main = {r["card"]: r for r in main.iter_rows(named=True)}
    by_strong = {r["card"]: r for r in strong.iter_rows(named=True)}
    chosen: list[str] = []
    for t in (main, strong):
        order = t.sort("change", descending=True)["card"].to_list()
        chosen += [c for c in order[:TOP] + order[::-1][:TOP] if c not in chosen]
    labelled = {c: difference_label(by_main.get(c), by_strong.get(c)) for c in {*by_main, *by_strong}}
    chosen += [c for c, (_, label) in labelled.items() if label in ("changes", "reverses") and c not in chosen]
    chosen.sort(key=lambda c: -(by_main.get(c) or by_strong[c])["change"])

    def figure(r: dict[str, Any] | None) -> str:
        if r is None:
            return "not measured"
        return _figure(r["change"], r["ci_low"], r["ci_high"], r["games"], True) + f", {r.get('verdict', '')}"

    return [[names.get(c, c), figure(by_main.get(c)), figure(by_strong.get(c)), *labelled[c]] for c in chosen]


def strong_section(
    run: dict,
    run_dir: Path,
    manifest: dict,
    labels: Labels,
    driven: bool,
    card_ids,
    only: bool,
    names: dict[str, str],
    tolerance: float = FAIR_BAND / 100,
) -> dict[str, Any]:
    """What the page's "Under strong play" section shows, and the tables it writes (the items' verdicts at
    `tolerance`, the page's band)."""
    from ..logs import load_manifest, load_run

    command = command_line("balance", "strong", run_dir)
    folder, ladder, why = read_strong(run_dir, manifest.get("run_id"))
    if folder is None:
        reasons = {
            "missing": "not measured for this run yet",
            "unreadable": f"the strong-play run in {FOLDER}/ cannot be read",
            "stale": f"the strong-play run in {FOLDER}/ belongs to an earlier run of this folder",
            "incomplete": f"the strong-play run in {FOLDER}/ is not whole",
        }
        fix = command if why == "missing" else f"{command} --force"
        return {"missing": f"Under strong play: {reasons[why]}.", "command": fix}
    strong = load_run(folder)
    seat_word = "turn order" if driven and drivers.by_turn_order(run) is not None else labels.seat
    a, b = position(run, driven), position(strong, driven)
    joined = a.join(b, on="seat", how="full", suffix="_strong", coalesce=True).sort("seat")
    seat_rows = [
        [
            str(r["seat"]),
            _figure(r["win_rate"], r["ci_low"], r["ci_high"], r["n"], False),
            _figure(r["win_rate_strong"], r["ci_low_strong"], r["ci_high_strong"], r["n_strong"], False),
        ]
        for r in joined.iter_rows(named=True)
    ]
    # the items by experiment in both fields (balance report --measure, balance strong --measure): labels
    # from a test of the difference, never from whether each field alone is significant
    strong_manifest_now = load_manifest(folder)
    mine = strength_result(run_dir, manifest, tolerance=tolerance)
    theirs = strength_result(folder, strong_manifest_now, folder / MEASURED, tolerance)
    item_rows, item_title, item_missing = [], "", ""
    if mine and theirs:
        item_title = "causal strength (balance strength) in each field, and the difference tuned minus this field"
        item_rows = experiment_rows(mine[0], theirs[0], names)
    else:
        item_missing = (
            "The items under strong play are measured by experiment in both fields: "
            + " and ".join(
                c
                for c, done in (
                    (command_line("balance", "report", run_dir, "--measure"), mine),
                    (command_line("balance", "strong", run_dir, "--measure"), theirs),
                )
                if not done
            )
            + " measures them; each item then shows both fields' causal figures, their difference and a label "
            "from the test of that difference."
        )
    shown = ladder.sort("win_rate", descending=True)
    ladder_rows = [
        [r["bot"], r["kind"], f"{r['games']:,}", _figure(r["win_rate"], r["ci_low"], r["ci_high"], r["games"], False)]
        for r in shown.iter_rows(named=True)
    ]
    strong_manifest = load_manifest(folder)
    exploit = _exploit_line(folder, run_dir, labels)
    return {
        "missing": "",
        "games": strong_manifest.get("games"),
        "field": ", ".join(strong_manifest.get("scenario", {}).get("bots", [])),
        # "every seat but the Legends" only where Legends (Heat's automata) sit in the field
        "where": "in every seat but the Legends" if _has_legends(strong_manifest) else "in every seat",
        "seat_word": seat_word,
        # what a position figure is: Shuffle GP's first player is whoever is dealt the highest distance card
        "position_note": (
            "The first player is the one dealt the highest distance card at setup, so a turn-order figure mixes "
            "going first with holding that card."
            if seat_word == "turn order"
            else f"Bots are rotated over the {labels.seats}, so a {seat_word} figure is caused by the {seat_word}."
        ),
        "seat_rows": seat_rows,
        "item_title": item_title,
        "item_word": "item",
        "item_rows": item_rows,
        "item_missing": item_missing,
        "ladder_rows": ladder_rows,
        "exploit": exploit,
        "ladder": shown,
        "positions": joined,
        "tuned_table": theirs[0] if theirs else None,  # the items by experiment in the tuned field
    }


def strength_result(
    run_dir: Path, manifest: dict, folder: Path | None = None, tolerance: float = FAIR_BAND / 100
) -> tuple[pl.DataFrame, dict, Path] | None:
    """A `balance strength` table of the same design as the run: `folder`, else
    RUN/strength/ (balance report --measure), else runs/<name>-strength beside
    the run; used only where its baseline played the same game, field and card
    database (sha256). (table, its baseline manifest, its folder). Its verdicts
    are read again at `tolerance` (analysis.strength.with_verdicts): a table
    measured at another band, or stored by an earlier rule, says what today's
    rule says at the page's band."""
    import json

    scenario = manifest.get("scenario", {})
    for where in [folder] if folder else [run_dir / MEASURED, run_dir.parent / f"{scenario.get('name')}-strength"]:
        try:
            base = json.loads((where / "baseline" / "manifest.json").read_text())
            table = from_units(pl.read_csv(where / "strength.csv"))
        except (OSError, ValueError, pl.exceptions.PolarsError):
            continue
        theirs = base.get("scenario", {}) if isinstance(base, dict) else {}
        same = (
            base.get("cards_sha256") == manifest.get("cards_sha256")
            and base.get("game") == manifest.get("game")
            and all(theirs.get(k) == scenario.get(k) for k in ("players", "bots", "bot_profiles"))
        )
        needed = {"card", "change", "ci_low", "ci_high", "games", "significant"}
        if same and needed <= set(table.columns):
            return with_verdicts(table, tolerance), base, where
    return None


MEASURED = "strength"  # RUN/strength/: the experiment balance report --measure plays for the run


def _exploit_line(folder: Path, run_dir: Path, labels: Labels) -> str:
    """How strong `tuned` is, as a claim measured: the best challenger a fresh
    tune found against it (balance strong --exploit-budget), held out."""
    import json

    try:
        e = json.loads((folder / "exploit" / EXPLOIT).read_text())
        gain, low, high = (100 * e[k] for k in ("gain", "gain_low", "gain_high"))
        rate, r_low, r_high = (100 * e[k] for k in ("challenger", "challenger_low", "challenger_high"))
        budget, games = int(e["budget"]), int(e["games"])
    except (OSError, ValueError, KeyError, TypeError):
        return (
            "How exploitable tuned is has not been measured for this run: balance strong "
            f"{run_dir} --exploit-budget 20000 tunes a tuned copy against it and shows the best challenger here."
        )
    verdict = (
        "beats tuned"
        if low > 0
        else "does worse than tuned: this search found nothing better"
        if high < 0
        else "does not beat tuned significantly"
    )
    return (
        f"Best challenger found against tuned: a fresh tune ({budget:,} games) of a tuned copy, in one seat against "
        f"tuned in every other, wins {rate:.1f}% ({r_low:.1f} to {r_high:.1f}) on held-out {labels.games}, a gain of "
        f"{gain:+.1f} points ({low:+.1f} to {high:+.1f}) over tuned itself, n={games:,}: it {verdict}. A field is as "
        "strong as the best challenger found against it."
    )


def _has_legends(manifest: dict) -> bool:
    """A Legend (a game's own automaton, never tuned) sits in the run's field."""
    from ..experiments.experiment import legend_names

    scenario = manifest.get("scenario", {})
    legends = legend_names(scenario.get("game"), scenario.get("bot_profiles"))
    return any(b in legends for b in scenario.get("bots", []) if isinstance(b, str))
