"""`balance report RUN_DIR`: charts, tables and findings into one folder with a
self-contained index.html (inline style, local images, no network)."""

from __future__ import annotations

import math
import time
from dataclasses import dataclass
from pathlib import Path

import polars as pl

from .. import __version__
from ..analysis import cards as card_analysis
from ..analysis import laps, winrate
from ..logs import load_manifest, load_run
from . import charts
from .findings import findings
from .page import render


@dataclass
class Report:
    out: Path
    index: Path
    charts: list[Path]
    tables: list[Path]
    findings: list[str]


def _cell(value: object) -> str:
    if value is None:
        return ""
    if isinstance(value, float):
        return "" if math.isnan(value) else f"{value:.3g}" if abs(value) < 1000 else f"{value:,.0f}"
    if isinstance(value, int) and not isinstance(value, bool):
        return f"{value:,}"
    if isinstance(value, list):
        return ", ".join(map(str, value))
    return str(value)


def build_report(run_dir: str | Path, out: str | Path | None = None) -> Report:
    run_dir = Path(run_dir)
    manifest = load_manifest(run_dir)
    run = load_run(run_dir)
    scenario = manifest.get("scenario", {})
    out = Path(out) if out else Path("reports") / scenario.get("name", run_dir.name)
    out.mkdir(parents=True, exist_ok=True)
    catalog = manifest.get("catalog", {})
    card_ids = [c["id"] for c in catalog.get("cards", []) if c.get("group") == "parts"] or None
    names = {c["id"]: c["name"] for c in catalog.get("cards", []) + catalog.get("playbooks", [])}

    seats = winrate.by_seat(run)
    equality = winrate.seat_equality(run)
    bots = winrate.by_bot(run)
    books_held = winrate.by_playbook(run)
    card_table = card_analysis.card_stats(run, card_ids)
    book_table = card_analysis.playbook_stats(run, [p["id"] for p in catalog.get("playbooks", [])] or None)
    card_table = card_table.with_columns(pl.col("card").replace_strict(names, default=None).alias("name"))
    book_table = book_table.with_columns(pl.col("playbook").replace_strict(names, default=None).alias("name"))
    lap_table = laps.lap_summary(run, by=("lap", "after"))
    lap_seat = laps.lap_summary(run, by=("lap", "seat"))
    lap_bot = laps.lap_summary(run, by=("lap", "bot"))
    distribution = laps.lap_distribution(run)
    length = laps.game_length(run)
    lengths = laps.length_distribution(run)

    n_players = int(seats["n_players"][0])
    chart_specs = [
        (
            "seat_win_rates.png",
            "Win rate by seat",
            charts.seat_win_rates,
            seats.filter(pl.col("n_players") == n_players),
            "Bars: 95% Wilson intervals; dashed: the fair share.",
        ),
        (
            "bot_win_rates.png",
            "Win rate by bot",
            charts.bot_win_rates,
            bots,
            "Each bot's games count once per seat it held. Results between bots measure the bots too.",
        ),
        (
            "lap_times.png",
            "Lap times",
            charts.lap_time_distributions,
            distribution,
            "Turns to complete each lap; the Pit Stop turn counts towards the next lap. Only the winner completes "
            "the last lap, so its times are the fast ones (a selection effect, not a shorter lap).",
        ),
        ("game_length.png", "Game length", charts.game_length_histogram, lengths, "Rounds in finished games."),
        (
            "cards_pick_vs_added.png",
            "Cards: taken vs win rate added",
            charts.pick_vs_added,
            card_table,
            "Win rate added when drafted (or when bought, for cards bought more than drafted), with 95% Newcombe intervals.",
        ),
        (
            "playbook_win_rates.png",
            "Playbooks",
            charts.playbook_win_rates,
            book_table,
            "Win rate of players holding each Playbook at the end, with 95% intervals.",
        ),
    ]
    chart_paths, chart_entries = [], []
    for file, title, draw, data, caption in chart_specs:
        chart_paths.append(draw(data, out / file))
        chart_entries.append({"file": file, "title": title, "caption": caption})

    table_specs = [
        ("win_rate_by_seat.csv", "Win rate by seat", seats),
        ("seat_equality.csv", "Do all seats win equally?", equality),
        ("win_rate_by_bot.csv", "Win rate by bot", bots),
        ("win_rate_by_playbook_held.csv", "Win rate by Playbook held", books_held),
        ("lap_times.csv", "Lap times by lap and what came before", lap_table),
        ("lap_times_by_seat.csv", "Lap times by seat", lap_seat),
        ("lap_times_by_bot.csv", "Lap times by bot", lap_bot),
        ("game_length.csv", "Game length", length),
        ("cards.csv", "Cards", card_table.sort("added_drafted", descending=True, nulls_last=True)),
        ("playbooks.csv", "Playbooks", book_table.sort("added_held", descending=True, nulls_last=True)),
    ]
    shown_columns = {
        "cards.csv": [
            "card",
            "name",
            "player_games",
            "draft_rate",
            "mean_pick",
            "buy_rate",
            "auction_wins",
            "scrap_rate",
            "plays_per_game",
            "n_drafted",
            "win_rate_drafted",
            "added_drafted",
            "significant_drafted",
            "n_bought",
            "added_bought",
            "significant_bought",
            "n_final",
            "added_final",
            "rarely_taken",
        ],
        "playbooks.csv": [
            "playbook",
            "name",
            "player_games",
            "draft_rate",
            "mean_pick",
            "pit_rate",
            "n_held",
            "win_rate_held",
            "added_held",
            "added_low_held",
            "added_high_held",
            "significant_held",
            "rarely_taken",
        ],
    }
    table_paths, table_entries = [], []
    for file, title, data in table_specs:
        data.write_csv(out / file)
        table_paths.append(out / file)
        view = data.select(shown_columns.get(file, data.columns))
        shown = view.head(60)
        table_entries.append(
            {
                "file": file,
                "title": title,
                "columns": view.columns,
                "rows": view.height,
                "shown": shown.height,
                "data": [[_cell(v) for v in row] for row in shown.iter_rows()],
            }
        )

    lines = findings(seats, equality, bots, card_table, book_table, length, names, set(card_ids or []) or None)
    bots_text = (
        ", ".join(scenario.get("bots") or [])
        if isinstance(scenario.get("bots"), list)
        else f"pool {', '.join(scenario.get('bots', {}).get('pool', []))}"
    )
    index = render(
        "report.html.j2",
        out / "index.html",
        title=f"Horsepower balance report: {scenario.get('name', run_dir.name)}",
        scenario={"name": scenario.get("name", ""), "game": manifest.get("game", "")},
        games=int(manifest.get("games") or 0),
        players=n_players,
        bots=bots_text,
        seed=manifest.get("seed"),
        cards_file=Path(manifest.get("cards_file", "")).name,
        cards_hash=manifest.get("cards_sha256", ""),
        made=time.strftime("%Y-%m-%d %H:%M"),
        version=__version__,
        findings=lines,
        charts=chart_entries,
        tables=table_entries,
    )
    return Report(out, index, chart_paths, table_paths, lines)
