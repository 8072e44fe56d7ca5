"""`balance report RUN_DIR`: charts, tables and findings into one folder with a
self-contained index.html (inline style, local images, no network)."""

from __future__ import annotations

import re
import time
from collections import Counter
from dataclasses import dataclass
from functools import partial
from pathlib import Path
from typing import Any

import polars as pl
import pyarrow as pa

from .. import __version__
from ..analysis import cards as card_analysis
from ..analysis import cars, drivers, laps, seasons, tallies, winrate
from ..analysis.band import FAIR_BAND
from ..analysis.corners import SHOWN as CORNERS_SHOWN
from ..analysis.corners import corner_lines, corner_table
from ..analysis.supply import debris_supply
from ..errors import Problem, UserError
from ..games.base import studied_cards
from ..logs import find_unreadable_part, load_manifest, load_run, run_parts
from ..printable import command_line
from ..runner import PREVIOUS, previous_of
from ..units import in_units
from ..validation import NAME_PATTERN
from . import causal, charts, headline, track_chart
from .findings import (
    capped_lines,
    car_findings,
    draft_lines,
    driver_findings,
    findings,
    power_lines,
    seat_meaning,
    seat_settings,
    supply_lines,
)
from .labels import Labels, labels_for
from .page import cell, render, write_csv
from .since import HEADING as SINCE
from .since import since_lines
from .status import no_winner_lines, run_status
from .verdict import HEADING as BALANCED
from .verdict import verdict_lines

WHAT_HAPPENED = "What happened"  # the one heading of a page without a winner
DRAFT_RULES = {"horsepower": "rules.draft_coins"}  # the same for the draft's order (1 = the first pick)
SEAT_RULES = {"horsepower": "rules.seat_coins"}  # a game's seat compensation, by seat: what fit turns for the seats


@dataclass
class Report:
    out: Path
    index: Path
    charts: list[Path]
    tables: list[Path]
    findings: list[tuple[str, list[str]]]  # (heading, lines), in the page's order
    status: str | None = None  # the run is not whole: what the page says of it first


CARD_COLUMNS = [
    "card",
    "name",
    "player_games",
    "draft_rate",
    "mean_pick",
    "buy_rate",
    "auction_wins",
    "scrap_rate",
    "plays_per_game",
    "play_rate",
    "n_dealt",
    "win_rate_dealt",
    "added_dealt",
    "significant_dealt",
    "n_drafted",
    "win_rate_drafted",
    "added_drafted",
    "significant_drafted",
    "added_raw_drafted",
    "n_bought",
    "added_bought",
    "significant_bought",
    "n_final",
    "added_final",
    "rarely_taken",
]
PLAYBOOK_COLUMNS = [
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
]


@dataclass
class _Table:
    file: str
    title: str
    data: pl.DataFrame  # written to the CSV
    shown: list[str] | pl.DataFrame | None = None  # the page's columns of data, or another frame; None: all
    limit: int = 60  # rows shown on the page (the CSV has them all)


def _cards_section(card_table: pl.DataFrame, game: str) -> tuple[list[tuple], _Table]:
    """The cards' charts and table: taken against win rate added where the run
    drafts or buys cards, else plays per game (every card dealt, none chosen),
    with the win rate added when dealt where a deck is dealt out (Downforce)."""
    chosen = "n_taken" in card_table.columns and "added_drafted" in card_table.columns
    by = "within" if "added_raw_drafted" in card_table.columns else ""
    within = (
        "Compared within each bot profile (players of the same bot with and without the card, Mantel-Haenszel): "
        "an association, not the card's effect (balance strength measures that). The tables' added_raw_ "
        "columns hold the raw difference over all players, which blames a card for the bots that take it. "
        if by
        else ""
    )
    if chosen:
        bought = "added_bought" in card_table.columns
        chart = (
            "cards_pick_vs_added.png",
            "Cards: taken vs win rate added",
            charts.pick_vs_added
            if bought
            else partial(charts.pick_vs_added, xlabel="draft rate: share of players who drafted it"),
            card_table,
            within
            + "Win rate added when drafted (circles) or when bought (squares, for cards bought more than drafted), "
            "in percentage points with 95% intervals; the findings quote the same figure."
            if bought
            else within + "Win rate added when drafted, in percentage points with 95% intervals.",
        )
        key = pl.col("added_drafted").fill_nan(None)  # a card never drafted (NaN) last, not first
        order = card_table.sort(key, descending=True, nulls_last=True)
        extra = []
    else:
        if "plays_per_game" not in card_table.columns:  # never played: all zeros, which is the news
            card_table = card_table.with_columns(pl.lit(0.0).alias("plays_per_game"))
        chart = (
            "cards_plays.png",
            f"Cards: plays per {game}",
            partial(charts.card_plays, game=game, top=60),
            card_table,
            "Every card here is dealt out at random, none is chosen: how often each is played (play_rate in the "
            "table: the share of the hands dealt it that played it)."
            if "added_dealt" in card_table.columns
            else "Every card here is dealt, none is chosen, so there is no win rate added: how often each is played "
            "is what there is to see.",
        )
        order = card_table.sort("plays_per_game", descending=True, nulls_last=True)
        extra = []
        if "added_dealt" in card_table.columns:
            extra.append(
                (
                    "cards_dealt_added.png",
                    "Cards: win rate added when dealt",
                    charts.dealt_added,
                    card_table,
                    "Win rate of the players dealt each card minus that of the others, with 95% Newcombe intervals "
                    "(orange: significant after a Benjamini-Hochberg correction). The deal is random, so this is "
                    "what holding the card is worth, in these bots' hands.",
                )
            )
            order = card_table.sort(pl.col("added_dealt").fill_nan(None), descending=True, nulls_last=True)
    shown = [c for c in CARD_COLUMNS if c in card_table.columns]
    if "name" in shown and (card_table["name"].cast(pl.String) == card_table["card"].cast(pl.String)).all():
        shown.remove("name")  # cards without names of their own (Downforce's s01...): the id says it all
    return [chart, *extra], _Table("cards.csv", "Cards", order, shown)


def _season_section(run) -> tuple[list[tuple], list[_Table], dict[str, list[str]]]:
    """Heat Championship seasons: each bot's points race by race, and the points
    each final standing takes; their chart, tables and findings. Nothing for a
    run of single races."""
    by_race, by_standing = seasons.points_by_race(run), seasons.points_by_standing(run)
    if by_race is None or by_standing is None:
        return [], [], {}
    chart = (
        "season_points.png",
        "Points race by race",
        charts.season_points,
        by_race,
        "Each bot's mean points per car in each race of the season (9-6-4-3-2-1 by place, plus an Event's), "
        "with 95% intervals (normal, from the spread over cars).",
    )
    tables = [
        _Table("season_points_by_race.csv", "Points, race wins and cars out, by race and bot", by_race),
        _Table("season_points_by_standing.csv", "Season points by final standing (1 = champion)", by_standing),
    ]
    champion = by_standing.filter(pl.col("standing") == 1).row(0, named=True)
    line = (
        f"The champion takes {champion['mean_points']:.1f} points on average ({champion['ci_low']:.1f} to "
        f"{champion['ci_high']:.1f}; from {champion['fewest']} to {champion['most']}), n={champion['cars']:,} "
        "seasons."
    )
    return [chart], tables, {"position": [line]}


def _auction_section(run, labels: Labels) -> tuple[list[tuple], list[_Table], dict[str, list[str]]]:
    """Downforce's cars (the games table's per-car columns): price per colour
    and per power card, where cars finish by auction round and by starting
    slot, the bets; their charts, tables and findings. Nothing for a run
    without those columns."""
    if not cars.colours(run):
        return [], [], {}
    by_colour, by_power = cars.prices(run, "colour"), cars.prices(run, "power")
    by_auction, by_start = cars.finishing(run, "auction"), cars.finishing(run, "start")
    chart_specs = [
        (
            "prices.png",
            "Price paid at the auction",
            lambda data, path: charts.prices(*data, path),
            (by_colour, by_power),
            "Mean price ($M) paid for each car colour and for each power card (the price of the car it was sold "
            "with), with 95% intervals (normal).",
        ),
        (
            "finishing_places.png",
            "Where cars finish",
            charts.finishing_heatmap,
            [("auction round", by_auction), ("starting slot (0 = pole)", by_start)],
            "Share of cars finishing 1st to 6th, or stalling, by the auction round that sold them (1 = first car "
            "up for bid) and by starting slot. Each row sums to 100%.",
        ),
    ]
    table_specs = [
        _Table("price_by_colour.csv", "Price paid by car colour ($M)", by_colour),
        _Table("price_by_power.csv", "Price paid by power card ($M), and the players who kept it", by_power),
        _Table("finishing_by_auction.csv", "Where cars finish by auction round", by_auction),
        _Table("finishing_by_start.csv", "Where cars finish by starting slot (0 = pole)", by_start),
    ]
    if "bet" in card_analysis.logged_events(run):
        table_specs.append(
            _Table("bets.csv", "Bets by betting line (payouts: $M for a bet car finishing 1st/2nd/3rd)", cars.bets(run))
        )
    lines = car_findings(by_colour, by_auction, cars.stalled(run), games=labels.games)
    powers = cars.power_win_rates(run)
    if powers is not None and powers.height:
        chart_specs.insert(
            1, ("power_win_rates.png", "Win rate by power card kept", charts.power_win_rates, powers, POWER_NOTE)
        )
        lines["items"] = lines.get("items", []) + power_lines(powers)  # the powers kept: an item's findings
    return chart_specs, table_specs, lines


POWER_NOTE = (
    "Win rate of the players by the power card they kept after the auction, with 95% Wilson intervals; dashed: "
    "the fair share. The bots choose which power to keep: an association (balance strength measures each power "
    "by experiment). price_by_power.csv has the same figures beside the price paid."
)
CORNERS_TITLE = "Spin-outs and Heat paid at each corner"
CORNERS_NOTE = (
    "Mean spin-outs and Heat paid per race at each corner, all laps and cars together, with 95% intervals (normal, "
    "from the spread over races). Below: the lap from the start/finish line, each corner at its line with its "
    "speed limit. The table adds the share of races with a spin-out there (Wilson interval)."
)


DRIVER_CARD_COLUMNS = [
    "card",
    "name",
    "driver",
    "type",
    "count",
    "plays_per_game",
    "n_held",
    "play_rate",
    "n_played",
    "win_rate_played",
    "n_held_not_played",
    "win_rate_not_played",
    "added_played",
    "added_low_played",
    "added_high_played",
    "significant_played",
]
DRIVERS_NOTE = (
    "Every figure comes from these bots playing each other: results between bots measure the bots too. The bots "
    "choose their drivers, so a driver's or a pair's win rate is that of the players who drafted it: an association, "
    'not proof that the driver causes it. A card\'s win rate "added" compares, among the players who held it, those '
    'who played it with those who did not: an association too. Intervals are 95%; "significant" means after a '
    "Benjamini-Hochberg correction over all the cards tested. n is the number of players or games behind a number."
)


def _drivers_section(run, catalog: dict, labels: Labels, names: dict[str, str]):
    """Shuffle Grand Prix (players who draft a driver and a co-pilot): win rate
    by turn order, by driver and by pair drafted, distance and trophies by bot,
    and the ability cards (plays per game; win rate added when played, among
    their holders). Returns (chart specs, table specs, findings, card table, the
    cards' chart specs, the cards' table)."""
    cards = catalog.get("cards", [])
    groups = {c["id"]: c["group"] for c in cards if c.get("group")}
    ids = list(dict.fromkeys(groups.values()))
    by_driver = drivers.by_driver(run, ids).join(drivers.mean_pick(run, groups), on="driver", how="left")
    by_driver = by_driver.select(
        "driver", "n", "wins", "win_rate", "ci_low", "ci_high", "fair", "drafted_share", "mean_pick"
    )
    pairs = drivers.by_pair(run)
    order = drivers.by_turn_order(run)
    spread = drivers.distributions(run)
    card_table = drivers.card_plays(run, cards)
    everyone = bool((by_driver["drafted_share"] == 1).all())
    drafted = set(by_driver.filter(pl.col("n") > 0)["driver"].to_list())  # the heatmap leaves out the others
    fair = float(by_driver["fair"][0])
    chart_specs, table_specs = [], []
    if order is not None:
        n_players = int(order["n_players"].max())
        chart_specs.append(
            (
                "turn_order_win_rates.png",
                "Win rate by turn order",
                partial(
                    charts.seat_win_rates,
                    seat="turn order",
                    first="first player",
                    note="0 = the first player",
                    games=labels.games,
                ),
                order.filter(pl.col("n_players") == n_players).rename({"order": "seat"}),
                "Win rate by place in the turn order: 0 is the first player (the highest distance card dealt at "
                "setup; a tie settled by rules.first_player_ties, a redeal by default), then clockwise. Bars: 95% Wilson intervals; dashed: the fair "
                "share.",
            )
        )
        table_specs.append(
            _Table(
                "win_rate_by_turn_order.csv",
                "Win rate by turn order (0 = the first player; seat_first: the share of games the seat of that "
                "number went first)",
                order,
            )
        )
    chart_specs += [
        (
            "driver_win_rates.png",
            "Win rate by driver drafted",
            partial(charts.driver_win_rates, players=labels.players),
            by_driver,
            "Win rate of the players who drafted each driver, as driver or co-pilot (a trophy can swap the two), "
            "with 95% Wilson intervals; dashed: the fair share."
            + (" With this many players every driver is drafted in every game." if everyone else ""),
        ),
        (
            "driver_pair_win_rates.png",
            "Win rate by driver pair drafted",
            partial(charts.pair_heatmap, drivers=[d for d in ids if d in drafted] or None, fair=fair),
            pairs,
            "Win rate of the players who drafted each pair of drivers (either one as driver), with n; blank: never "
            "drafted together; drivers never drafted are left out. Blue: above the fair share, red: below. Pairs with a small n are noisy: the table "
            "gives their 95% intervals.",
        ),
        (
            "distance_trophies.png",
            "Distance and trophies by bot",
            charts.bot_distributions,
            drivers.values(run),
            "Each player's distance (the score) and trophies (the tie-break) at the end of the game, by bot; the "
            "table gives the mean, median, 10th and 90th percentiles.",
        ),
    ]
    table_specs += [
        _Table(
            "win_rate_by_driver.csv",
            "Win rate by driver drafted (as driver or co-pilot)",
            by_driver.sort("win_rate", descending=True, nulls_last=True),
        ),
        _Table(
            "win_rate_by_driver_pair.csv",
            "Win rate by driver pair drafted (unordered)",
            pairs.sort("win_rate", descending=True),
        ),
        _Table("distance_trophies_by_bot.csv", "Distance and trophies by bot (per player)", spread),
    ]
    card_charts = [
        (
            "cards_plays.png",
            f"Ability cards: plays per {labels.games.removesuffix('s')}",
            charts.driver_card_plays,
            card_table,
            "How often each ability card is played, per game and all players together (cards stolen from a rival "
            "included), one panel per driver; x2, x3: copies in the deck.",
        ),
        (
            "cards_played_added.png",
            "Ability cards: win rate added when played",
            charts.driver_card_added,
            card_table,
            "Win rate of the players who held each card (drafted its driver) and played it, minus that of the "
            "holders who never played it, in points with 95% Newcombe intervals (orange: significant after a "
            "Benjamini-Hochberg correction). Why among the holders: a player holds a card exactly when it drafted "
            "the card's driver, so the win rate when held would give every card its driver's number (the driver "
            "table has it), and the players who played a card against all the others would credit each card with "
            "its driver's strength. Comparing holders with holders takes the driver out; what is left is still an "
            "association: a card is played more often in longer games and by players who drew it, and some cards "
            "are played when things go badly.",
        ),
    ]
    if not card_table.height:  # a catalog without ability cards: nothing to draw
        card_charts = []
    card_entry = _Table(
        "cards.csv",
        "Ability cards (held: drafted its driver)",
        card_table,
        [c for c in DRIVER_CARD_COLUMNS if c in card_table.columns],
        limit=max(60, card_table.height),
    )
    lines = driver_findings(by_driver, pairs, order, card_table, names, held=drivers.first_player_holds(run))
    return chart_specs, table_specs, lines, card_table, card_charts, card_entry


def _sweep_item(table: pl.DataFrame, database: dict | None) -> tuple[str, str, float] | None:
    """The item farthest from fair by experiment that has a number to sweep: (id, PATH, today's value)."""
    for row in table.sort(pl.col("change").abs(), descending=True).iter_rows(named=True):
        found = causal.free_value(database, row["card"]) if database else None
        if found:
            return row["card"], found[0], found[1]
    return None


def report_folder_name(name: Any, run_dir: Path) -> str:
    """The default report folder's name, reports/<scenario name>: only a plain
    name (a run made before names were checked may hold "..")."""
    if isinstance(name, str) and re.fullmatch(NAME_PATTERN, name):
        return name
    raise UserError(
        Problem(
            str(run_dir), None, "--out", f"the run's scenario name {name!r:.40} is not a plain folder name; give --out"
        )
    )


def build_report(
    run_dir: str | Path, out: str | Path | None = None, strength_dir: Path | None = None, tolerance: float = FAIR_BAND
) -> Report:
    """The report of the run in `run_dir`, into `out` (default reports/<scenario name>).
    Every part is read whole first, its pages' checksums checked: a damaged
    part is named in one line, never read as other numbers."""
    problem = find_unreadable_part(run_dir) if Path(run_dir).is_dir() else None
    if problem is not None:
        raise UserError(problem)
    try:
        return _build_report(Path(run_dir), out, strength_dir, tolerance / 100)
    except (pl.exceptions.PolarsError, pa.ArrowException, OSError):
        # a part whose footer is sound but whose data is not: name it rather than fail deep in polars
        problem = find_unreadable_part(run_dir)
        if problem is not None:
            raise UserError(problem) from None
        raise


def _build_report(
    run_dir: Path, out: str | Path | None, strength_dir: Path | None = None, tolerance: float = FAIR_BAND / 100
) -> Report:
    manifest = load_manifest(run_dir)
    run = load_run(run_dir)
    scenario = manifest.get("scenario", {})
    season = (manifest.get("database") or {}).get("rules", {}).get("season")
    labels = labels_for(manifest.get("game", ""), season)
    out = Path(out) if out else Path("reports") / report_folder_name(scenario.get("name"), run_dir)
    make_report_dir(out)
    present = int(run["games"].select(pl.len()).collect().item())
    status = run_status(manifest, present, run_dir, labels, run_parts(run_dir, manifest).left_out)
    header = _header(manifest, run_dir, labels, present)
    if not run["players"].select(pl.col("won").any()).collect().item():
        return _no_winner_report(run, out, header, labels, present, status, run_dir)
    catalog = manifest.get("catalog", {})
    card_ids = studied_cards(catalog)
    names = {c["id"]: c["name"] for c in catalog.get("cards", []) + catalog.get("playbooks", [])}
    columns = run["players"].collect_schema().names()
    has_books = "playbooks" in columns  # Horsepower's Playbooks; Heat has none
    pits = laps.has_pit_stops(run)  # Pit Stop or Race Through before a lap (Horsepower)
    has_laps = bool(laps.lap_numbers(run))  # Downforce has no laps
    legends = "legend" in columns and bool(run["players"].select(pl.col("legend").any()).collect().item())
    driven = drivers.has_drivers(run)  # Shuffle Grand Prix: each player drafts a driver and a co-pilot
    shared = Counter(names.values())  # Heat's upgrades share names (Brakes 1 to 4): say which one
    unique = {i: f"{n} ({i})" if shared[n] > 1 else n for i, n in names.items()}

    seats = winrate.by_seat(run)
    equality = winrate.seat_equality(run)
    draft = winrate.by_draft_position(run)  # Horsepower: the draft's order, drawn apart from the turn order
    draft_equality = None if draft is None else winrate.seat_equality(run, draft.rename({"draft_position": "seat"}))
    supply = debris_supply(run)
    bots = winrate.by_bot(run)
    race_columns = tallies.race_columns(run)
    tally = tallies.means(run, race_columns) if race_columns else None
    only = any("studied" in c for c in catalog.get("cards", []))  # the catalog says which cards to tabulate
    driver_charts, driver_tables, driver_lines = [], [], {}
    if driven:  # its `draft` events draft drivers, not cards: the cards have a section of their own
        driver_charts, driver_tables, driver_lines, card_table, card_charts, card_entry = _drivers_section(
            run, catalog, labels, unique
        )
    else:
        card_table = headline.card_table(run, card_ids, only, names)
        card_charts, card_entry = _cards_section(card_table, labels.games.removesuffix("s"))
    lap_table = laps.lap_summary(run, by=("lap", "after") if pits else ("lap",))
    lap_seat = laps.lap_summary(run, by=("lap", "seat"))
    lap_bot = laps.lap_summary(run, by=("lap", "bot"))
    distribution = laps.lap_distribution(run)
    length = laps.game_length(run)
    if not labels.length_unfinished:  # a game whose games always end (none today): no unfinished share
        length = length.drop("unfinished_share")
    lengths = laps.length_distribution(run)
    auction_charts, auction_tables, auction_lines = _auction_section(run, labels)
    season_charts, season_tables, season_lines = _season_section(run)
    auction_charts += season_charts
    auction_tables += season_tables
    for key, lines in season_lines.items():
        auction_lines[key] = auction_lines.get(key, []) + lines
    corners = corner_table(run, catalog)  # Heat: spin-outs and Heat paid at each corner; None elsewhere
    if corners is not None:
        auction_charts.append(("track_corners.png", CORNERS_TITLE, track_chart.track_corners, corners, CORNERS_NOTE))
        auction_tables.append(_Table("corners.csv", CORNERS_TITLE, corners, CORNERS_SHOWN))
    money = tallies.money_breakdown(tally) if tally is not None else None

    n_players = int(seats["n_players"][0])
    seat_title = f"Win rate by {labels.seat}" + (f" ({labels.seat_note})" if labels.seat != "seat" else "")
    chart_specs = [
        (
            "seat_win_rates.png",
            seat_title,
            partial(
                charts.seat_win_rates,
                seat=labels.seat,
                first=labels.seat_first,
                note=labels.seat_note,
                games=labels.games,
            ),
            seats.filter(pl.col("n_players") == n_players),
            "Bars: 95% Wilson intervals; dashed: the fair share.",
        ),
        ("bot_win_rates.png", "Win rate by bot", charts.bot_win_rates, bots, labels.bot_caption),
    ]
    if draft is not None:
        chart_specs.insert(
            1,
            (
                "draft_position_win_rates.png",
                "Win rate by draft position (1 = first pick)",
                partial(charts.seat_win_rates, seat="draft position", first="", note="1 = first pick"),
                draft.filter(pl.col("n_players") == n_players).rename({"draft_position": "seat"}),
                "Bars: 95% Wilson intervals; dashed: the fair share. The draft's first picker is drawn per game, "
                "apart from the turn order (rules.first_drafter), so this is the draft's own advantage.",
            ),
        )
    if tally is not None:
        chart_specs.append(
            (
                "bot_tallies.png",
                labels.tallies_title,
                partial(charts.tallies, per=labels.per, title=labels.tallies_title),
                tally,
                f"Mean {labels.per}, with 95% intervals (normal, from the spread over {labels.players})"
                + (": Legends too, whose zeros are part of the picture." if legends else "."),
            )
        )
    if money is not None:
        chart_specs.append(
            (
                "money_breakdown.png",
                "Where the money comes from",
                charts.money_breakdown,
                money,
                "Mean $M per player and game: prizes and bets won, less bids paid, make the money that decides "
                "the winner (the diamond).",
            )
        )
    chart_specs += auction_charts + driver_charts
    if has_laps:
        chart_specs.append(
            (
                "lap_times.png",
                "Lap times",
                partial(charts.lap_time_distributions, xlabel=labels.lap_xlabel),
                distribution,
                labels.lap_caption,
            )
        )
    chart_specs += [
        (
            "game_length.png",
            labels.length_title,
            partial(
                charts.game_length_histogram,
                title=labels.length_title,
                xlabel=labels.length_xlabel,
                counted=labels.length_counted,
                last_label=labels.length_last_label,
                bars_label=labels.length_bars_label,
            ),
            lengths,
            labels.length_caption,
        ),
        *card_charts,
    ]
    book_table = None
    if has_books:
        book_table = card_analysis.playbook_stats(run, [p["id"] for p in catalog.get("playbooks", [])] or None)
        book_table = book_table.with_columns(pl.col("playbook").replace_strict(names, default=None).alias("name"))
        chart_specs.append(
            (
                "playbook_win_rates.png",
                "Playbooks",
                charts.playbook_win_rates,
                book_table,
                "Win rate of players holding each Playbook at the end, with 95% intervals.",
            )
        )
    strong = headline.strong_section(run, run_dir, manifest, labels, driven, card_ids, only, unique, tolerance)
    if not strong["missing"]:
        chart_specs.append(
            (
                "skill_ladder.png",
                "Skill ladder",
                charts.skill_ladder,
                strong["ladder"],
                "One seat of each profile against tuned in every other seat, seats rotated, on the same deals; "
                "tuned: a seat of the all-tuned field. Bars: 95% Wilson intervals.",
            )
        )
    chart_paths, chart_entries = [], []
    for file, title, draw, data, caption in chart_specs:
        chart_paths.append(draw(data, out / file))
        chart_entries.append({"file": file, "title": title, "caption": caption})

    table_specs = [
        _Table("win_rate_by_seat.csv", seat_title, seats),
        _Table("seat_equality.csv", f"Do all {labels.seats} win equally?", equality),
        _Table("win_rate_by_bot.csv", "Win rate by bot", bots),
    ]
    if draft is not None:
        table_specs += [
            _Table("win_rate_by_draft_position.csv", "Win rate by draft position (1 = first pick)", draft),
            _Table("draft_position_equality.csv", "Do all draft positions win equally?", draft_equality),
        ]
    if supply is not None:
        table_specs.append(_Table("debris_supply.csv", "The Debris supply: how often it ran out", supply))
    if tally is not None:
        table_specs.append(_Table("bot_tallies.csv", labels.tallies_title, tally, tallies.wide(tally)))
    if money is not None:
        table_specs.append(_Table("money_by_bot.csv", "Where the money comes from: mean $M per player and game", money))
    table_specs += auction_tables + driver_tables
    if has_books:
        table_specs.append(
            _Table("win_rate_by_playbook_held.csv", "Win rate by Playbook held", winrate.by_playbook(run))
        )
    if has_laps:
        table_specs += [
            _Table("lap_times.csv", "Lap times by lap and what came before" if pits else "Lap times by lap", lap_table),
            _Table("lap_times_by_seat.csv", f"Lap times by {labels.seat}", lap_seat),
            _Table("lap_times_by_bot.csv", "Lap times by bot", lap_bot),
        ]
    table_specs += [_Table("game_length.csv", labels.length_title, length), card_entry]
    if not strong["missing"]:
        table_specs += [
            _Table("skill_ladder.csv", "Skill ladder: one seat against tuned", strong["ladder"]),
            _Table(
                "strong_play_positions.csv",
                f"Win rate by {strong['seat_word']}: this field and the tuned field",
                strong["positions"],
            ),
        ]
    if book_table is not None:
        table_specs.append(
            _Table(
                "playbooks.csv",
                "Playbooks",
                book_table.sort("added_held", descending=True, nulls_last=True),
                PLAYBOOK_COLUMNS,
            )
        )
    headers = {"seat": labels.seat.replace(" ", "_")}  # the CSVs keep the logs' column names
    table_paths, table_entries = [], []
    for spec in table_specs:  # rates in percent, differences in points, as the column names say (units.py)
        write_csv(in_units(spec.data), out / spec.file)
        table_paths.append(out / spec.file)
        view = in_units(
            spec.shown if isinstance(spec.shown, pl.DataFrame) else spec.data.select(spec.shown or spec.data.columns)
        )
        shown = view.head(spec.limit)
        table_entries.append(
            {
                "file": spec.file,
                "title": spec.title,
                "columns": [headers.get(c, c) for c in view.columns],
                "rows": view.height,
                "shown": shown.height,
                "data": [[cell(v, c) for v, c in zip(row, view.columns, strict=True)] for row in shown.iter_rows()],
            }
        )

    measured = headline.strength_result(run_dir, manifest, strength_dir, tolerance)
    if strength_dir is not None and measured is None:
        raise UserError(
            Problem(
                "--strength", None, "strength", f"{strength_dir} measured another design (game, field or card database)"
            )
        )
    scenario_path = _shown_path(manifest.get("scenario_file") or "SCENARIO")
    seen = causal.associations(card_table, book_table)
    lines = change = database = None
    contradicted: set[str] = set()
    if measured:
        where = _shown_path(str(measured[2] / "strength.csv"))
        measure = ("balance", "report", _shown_path(str(run_dir)), "--measure")
        lines = causal.causal_lines(measured[0], unique, seen, where, tolerance=tolerance, measure=measure)
        contradicted = causal.contradicted(measured[0], seen)
        game = manifest.get("game", "")
        # the database as the run played it (its manifest keeps it): the file may have been edited since
        database = manifest.get("database") or causal.load_database(manifest.get("cards_file"))
        seat_lines = causal.seat_change_lines(
            seats, equality, tolerance, scenario_path, SEAT_RULES.get(game), database=database
        )
        if draft is not None and draft_equality is not None:  # the draft's order, drawn apart from the seats
            seat_lines += causal.seat_change_lines(
                draft, draft_equality, tolerance, scenario_path, DRAFT_RULES.get(game), "draft_position", database
            )
        if not strong["missing"]:
            seat_lines += causal.strong_gap_line(strong["positions"], strong["seat_word"])
        accepts = causal.game_accepts(run_dir) if database else None  # a printed fit runs as printed
        change = causal.change_lines(
            measured[0], unique, tolerance, scenario_path, database, seat_lines, accepts=accepts
        )
    own = {k: auction_lines.get(k, []) + driver_lines.get(k, []) for k in ("position", "items", "strategies", "supply")}
    sections = findings(
        seats,
        equality,
        bots,
        card_table,
        book_table,
        length,
        unique,
        set(card_ids or []) or None,
        labels=labels,
        position=draft_lines(draft, draft_equality) + own.get("position", []),
        items=own.get("items", []),
        strategies=own.get("strategies", []),
        supply=supply_lines(supply) + own.get("supply", []) + corner_lines(corners) + capped_lines(run, labels),
        seat_meaning=seat_meaning(
            draft,
            seat_settings(
                manifest.get("database") or causal.load_database(manifest.get("cards_file")), scenario.get("overrides")
            ),
        ),
        causal=lines,
        strength_command=command_line("balance", "report", _shown_path(str(run_dir)), "--measure"),
        change=change,
        contradicted=contradicted,
    )
    shown_run = _shown_path(str(run_dir))
    since = since_lines(run_dir, manifest, unique, shown_run, tolerance)
    if since:  # what a designer's edit did opens the page
        sections.insert(0, (SINCE, since))
    if measured:  # the answer first, from the same figures as the findings below
        fields = [
            ("the scenario's field", measured[0], command_line("balance", "report", shown_run, "--measure")),
            (
                "the tuned field",
                None if strong["missing"] else strong.get("tuned_table"),
                command_line("balance", "strong", shown_run, "--measure"),
            ),
        ]
        places = [(labels.seat, equality, seats, "seat"), ("draft position", draft_equality, draft, "draft_position")]
        sections.insert(0, (BALANCED, verdict_lines(fields, places, tolerance)))
    deeper = [  # what a designer runs next, from this page
        (
            command_line("balance", "report", shown_run, "--measure", "--budget", 400000),
            "every item's causal strength again, with more games for the undecided ones",
        ),
        (command_line("balance", "strong", shown_run), "the same figures with tuned bots in every seat"),
    ]
    if previous_of(run_dir).is_dir():  # the run this one replaced (balance run keeps it)
        deeper.insert(
            1,
            (
                command_line("balance", "compare", f"{shown_run}{PREVIOUS}", shown_run),
                "this run against the one it replaced, paired, with the changed items' causal line",
            ),
        )
    if measured and (swept := _sweep_item(measured[0], database)):
        item, path, value = swept
        deeper.insert(
            -1,
            (
                command_line(
                    "balance",
                    "sweep",
                    scenario_path,
                    "--set",
                    f"{path}={causal.sweep_range(value)}",
                    "--metric",
                    f"strength:{item}",
                    "--target",
                    0,
                    "--games",
                    causal.SWEEP_GAMES,
                ),
                f"{unique.get(item, item)}'s strength (points, by experiment) at each value, and where it crosses 0",
            ),
        )
    n_legends = int(run["games"].select(pl.col("legends").max()).collect().item()) if legends else 0
    header["players"] = f"{n_players} {labels.players}" + (
        f" ({n_legends} Legend{'s' if n_legends > 1 else ''})" if n_legends else ""
    )
    index = render(
        "report.html.j2",
        out / "index.html",
        **header,
        status=status,
        findings=sections,
        associations="added_drafted" in card_table.columns or "added_bought" in card_table.columns,
        dealt="added_dealt" in card_table.columns,
        note=DRIVERS_NOTE if driven else "",
        charts=chart_entries,
        tables=table_entries,
        strong=strong,
        deeper=deeper,
    )
    return Report(out, index, chart_paths, table_paths, sections, status)


def _shown_path(path: str) -> str:
    """A path as a command line in the page shows it: relative to here where it lies below
    (not yet quoted for a shell: command_line does that with the rest of the command)."""
    try:
        return str(Path(path).resolve().relative_to(Path.cwd()))
    except ValueError:
        return path


def make_report_dir(out: Path) -> None:
    """The report folder, made if missing; a path that cannot be one is a one-line error."""
    try:
        out.mkdir(parents=True, exist_ok=True)
    except FileExistsError:
        raise UserError(Problem(str(out), None, "--out", "is a file, not a folder; choose another --out")) from None
    except OSError as exc:
        raise UserError(Problem(str(out), None, "--out", f"cannot be made ({exc.strerror or exc})")) from None


def _header(manifest: dict[str, Any], run_dir: Path, labels: Labels, present: int) -> dict[str, Any]:
    """Where the page came from: the template's header fields."""
    scenario = manifest.get("scenario", {})
    bots = scenario.get("bots")
    bots_text = ", ".join(bots or []) if isinstance(bots, list) else f"pool {', '.join((bots or {}).get('pool', []))}"
    return {
        "title": f"{labels.title} balance report: {scenario.get('name', run_dir.name)}",
        "scenario": {"name": scenario.get("name", ""), "game": manifest.get("game", "")},
        "games": present,
        "planned": int(manifest.get("games") or 0),
        "players": f"{scenario.get('players', '?')} {labels.players}",
        "bots": bots_text,
        "seed": manifest.get("seed"),
        "cards_file": Path(manifest.get("cards_file", "")).name,
        "cards_hash": manifest.get("cards_sha256", ""),
        "made": time.strftime("%Y-%m-%d %H:%M"),
        "version": __version__,
        "players_word": labels.players,
        "games_word": labels.games,
    }


def _no_winner_report(
    run: dict[str, pl.LazyFrame],
    out: Path,
    header: dict[str, Any],
    labels: Labels,
    present: int,
    status: str | None,
    run_dir: Path,
) -> Report:
    """The page of a run in which no game has a winner: what happened and why
    it may have, with the game length table (win rates would all be 0)."""
    lines = no_winner_lines(run["games"], present, labels, run_dir)
    length = in_units(laps.game_length(run))
    write_csv(length, out / "game_length.csv")
    table = {
        "file": "game_length.csv",
        "title": labels.length_title,
        "columns": length.columns,
        "rows": length.height,
        "shown": length.height,
        "data": [[cell(v, c) for v, c in zip(row, length.columns, strict=True)] for row in length.iter_rows()],
    }
    index = render(
        "report.html.j2",
        out / "index.html",
        **header,
        status=status,
        findings=[(WHAT_HAPPENED, lines)],
        associations=False,
        dealt=False,
        note="",
        charts=[],
        tables=[table],
    )
    return Report(out, index, [], [out / "game_length.csv"], [(WHAT_HAPPENED, lines)], status)
