"""A run's headline figures, computed the same way for the run and for its
strong-play twin (RUN/strong/, `balance strong`): the win rate by seat (or
grid slot, or turn order) and the cards (or drivers) that add the most and the
least win rate. The report sets the two side by side: "Under strong play"."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import polars as pl

from ..analysis import cards as card_analysis
from ..analysis import drivers, winrate
from ..experiments.strong import FOLDER, read_strong
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


def driver_table(run: dict, catalog: dict) -> pl.DataFrame:
    """Shuffle Grand Prix: the win rate of the players who drafted each driver."""
    groups = {c["id"]: c["group"] for c in catalog.get("cards", []) if c.get("group")}
    ids = list(dict.fromkeys(groups.values()))
    return drivers.by_driver(run, ids).join(drivers.mean_pick(run, groups), on="driver", how="left")


def position(run: dict, driven: bool) -> pl.DataFrame:
    """(seat, win_rate, ci_low, ci_high, n) at the run's largest player count:
    by turn order where the first player is drawn (Shuffle GP), else by seat."""
    table = drivers.by_turn_order(run) if driven else None
    table = winrate.by_seat(run) if table is None else table.rename({"order": "seat"})
    table = table.filter(pl.col("n_players") == table["n_players"].max())
    return table.select("seat", "win_rate", "ci_low", "ci_high", pl.col("games").alias("n"))


def items(run: dict, driven: bool, catalog: dict, card_ids, only, names) -> tuple[str, pl.DataFrame] | None:
    """(what is measured, (item, value, low, high, n, significant)): drivers
    against their fair share, or cards by the win rate they add when drafted
    (else when dealt); None where no card is chosen or dealt apart (nothing
    adds win rate: Heat without its Garage draft)."""
    if driven:
        t = driver_table(run, catalog).filter(pl.col("n") > 0)
        fair = pl.col("fair")
        out = t.select(
            pl.col("driver").replace_strict(names, default=None).fill_null(pl.col("driver")).alias("item"),
            (pl.col("win_rate") - fair).alias("value"),
            (pl.col("ci_low") - fair).alias("low"),
            (pl.col("ci_high") - fair).alias("high"),
            "n",
        )
        out = out.with_columns(((pl.col("low") > 0) | (pl.col("high") < 0)).alias("significant"))
        return "win rate of the players who drafted the driver, against the fair share", out
    t = card_table(run, card_ids, only, names)
    for how in ("drafted", "dealt", "bought"):
        if f"added_{how}" in t.columns:
            # within each bot profile where the table has it (a dealt card is dealt at random: no need)
            by = ""  # the one win rate added: within each bot profile (analysis.cards)
            out = t.filter(pl.col(f"n_{how}") > 0).select(
                pl.col("name").fill_null(pl.col("card")).alias("item"),
                pl.col(f"added_{by}{how}").alias("value"),
                pl.col(f"added_{by}low_{how}").alias("low"),
                pl.col(f"added_{by}high_{how}").alias("high"),
                pl.col(f"n_{how}").alias("n"),
                pl.col(f"significant_{by}{how}").alias("significant"),
            )
            within = ", compared within each bot profile" if by else ""
            return f"win rate added when {how}{within} (significant: after a Benjamini-Hochberg correction)", out
    return None


def _figure(value: float | None, low: float | None, high: float | None, n: int | None, points: bool) -> str:
    if value is None:
        return "not seen"
    if points:
        return f"{100 * value:+.1f} points ({100 * low:+.1f} to {100 * high:+.1f}), n={n:,}"
    return f"{100 * value:.1f}% ({100 * low:.1f} to {100 * high:.1f}), n={n:,}"


def _verdict(a: dict | None, b: dict | None) -> str:
    if a is None or b is None:
        return "not in both"
    sa, sb = bool(a["significant"]), bool(b["significant"])
    if sa and sb:
        return "holds" if (a["value"] > 0) == (b["value"] > 0) else "reversed"
    if sa:
        return "gone under strong play"
    if sb:
        return "appears under strong play"
    return "significant in neither"


def compare_items(main: pl.DataFrame, strong: pl.DataFrame) -> list[dict[str, Any]]:
    """The strongest and weakest TOP items of each field, with both fields' figures."""
    chosen: list[str] = []
    for t in (main, strong):
        order = t.sort("value", descending=True, nulls_last=True)["item"].to_list()
        for item in order[:TOP] + order[::-1][:TOP]:
            if item not in chosen:
                chosen.append(item)
    by_main = {r["item"]: r for r in main.iter_rows(named=True)}
    by_strong = {r["item"]: r for r in strong.iter_rows(named=True)}
    rows = []
    for item in chosen:
        a, b = by_main.get(item), by_strong.get(item)
        rows.append({"item": item, "main": a, "strong": b, "verdict": _verdict(a, b)})
    return sorted(rows, key=lambda r: -(r["main"] or r["strong"])["value"])


def strong_section(
    run: dict,
    run_dir: Path,
    manifest: dict,
    labels: Labels,
    driven: bool,
    card_ids,
    only: bool,
    names: dict[str, str],
) -> dict[str, Any]:
    """What the page's "Under strong play" section shows, and the tables it writes."""
    from ..logs import load_manifest, load_run

    command = f"balance strong {run_dir}"
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
    catalog = manifest.get("catalog", {})
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
    measured = items(run, driven, catalog, card_ids, only, names)
    item_rows, item_title = [], ""
    if measured is not None:
        item_title = measured[0]
        other = items(strong, driven, catalog, card_ids, only, names)
        for r in compare_items(measured[1], other[1]):
            item_rows.append(
                [
                    r["item"],
                    *(
                        _figure(*(x[k] for k in ("value", "low", "high", "n")), True) if x else "not seen"
                        for x in (r["main"], r["strong"])
                    ),
                    r["verdict"],
                ]
            )
    shown = ladder.sort("win_rate", descending=True)
    ladder_rows = [
        [r["bot"], r["kind"], f"{r['games']:,}", _figure(r["win_rate"], r["ci_low"], r["ci_high"], r["games"], False)]
        for r in shown.iter_rows(named=True)
    ]
    strong_manifest = load_manifest(folder)
    return {
        "missing": "",
        "games": strong_manifest.get("games"),
        "field": ", ".join(strong_manifest.get("scenario", {}).get("bots", [])),
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
        "item_word": "driver" if driven else "card",
        "item_rows": item_rows,
        "ladder_rows": ladder_rows,
        "ladder": shown,
        "positions": joined,
    }


def strength_result(
    run_dir: Path, manifest: dict, folder: Path | None = None
) -> tuple[pl.DataFrame, dict, Path] | None:
    """A `balance strength` table of the same design as the run: `folder`, else
    RUN/strength/ (balance report --measure), else runs/<name>-strength beside
    the run; used only where its baseline played the same game, field and card
    database (sha256). (table, its baseline manifest, its folder)."""
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
            if "verdict" not in table.columns:  # a table from before verdicts: read as significant or not
                table = table.with_columns(pl.lit("undecided").alias("verdict"))
            return table, base, where
    return None


MEASURED = "strength"  # RUN/strength/: the experiment balance report --measure plays for the run
