"""`balance report` and `balance compare` on Shuffle Grand Prix runs: what a
user sees (the title, win rate by driver and by driver pair drafted, who goes
first, distance and trophies, how each bot plays, the ability cards) and what
must not be there (laps, Playbooks: the game has none)."""

from __future__ import annotations

import re

import polars as pl
import pytest
from typer.testing import CliRunner

from balance.analysis import tallies
from balance.cli import app
from balance.runner import RunOptions, run

from .conftest import ROOT

GAMES, PLAYERS = 300, 4
FOUR = f"""name: shuffle-gp-tiny
game: shuffle_gp
cards: {ROOT / "shuffle_gp.yaml"}
players: {PLAYERS}
bots: [balanced, aggressive, defensive, random]
games: {GAMES}
seed: 5
chunk_size: 128
"""
DRIVERS = {"blaze", "ironside", "magpie", "snare", "comet", "mender", "gremlin", "ace"}
PLAYS = [
    "distance",
    "trophies",
    "damage_dealt",
    "damage_taken",
    "spin_outs",
    "spin_outs_caused",
    "cancels",
    "pit_stops",
    "traps_sprung",
    "distance_lost",
]


@pytest.fixture(scope="module")
def report(tmp_path_factory):
    tmp = tmp_path_factory.mktemp("shuffle-gp")
    (tmp / "s.yaml").write_text(FOUR)
    run(tmp / "s.yaml", RunOptions(out=tmp / "run", jobs=1))
    out = tmp / "report"
    result = CliRunner().invoke(app, ["report", str(tmp / "run"), "--out", str(out)])
    assert result.exit_code == 0, result.output
    return result.stdout, out, tmp / "run"


def _table(page: str, title: str) -> tuple[list[str], list[list[str]]]:
    """The header and rows of the page's table whose heading starts with `title`."""
    start = page.index(f"<h3>{title}")
    body = page[start : page.index("</table>", start)]
    header = re.findall(r"<th>([^<]*)</th>", body)
    rows = [re.findall(r"<td>([^<]*)</td>", row) for row in re.findall(r"<tr>(.*?)</tr>", body)[1:]]
    return header, rows


def test_shuffle_gp_report_page(report):
    stdout, out, _ = report
    page = (out / "index.html").read_text()
    assert "<h1>Shuffle Grand Prix balance report: shuffle-gp-tiny</h1>" in page
    images = re.findall(r'<img src="([^"]+)"', page)
    for image in images:
        assert (out / image).read_bytes()[:8] == b"\x89PNG\r\n\x1a\n", image
    assert {
        "seat_win_rates.png",
        "bot_win_rates.png",
        "bot_tallies.png",
        "turn_order_win_rates.png",
        "driver_win_rates.png",
        "driver_pair_win_rates.png",
        "distance_trophies.png",
        "cards_plays.png",
        "cards_played_added.png",
    } <= set(images)
    assert not re.search(r"\blaps?\b", page, re.IGNORECASE), "Shuffle Grand Prix has no laps"
    assert "Playbook" not in page
    assert not any(f.startswith("lap_times") for f in (p.name for p in out.iterdir()))
    assert not re.search(r"<td>(nan|NaN|inf)</td>", page)
    header, rows = _table(page, "How each bot plays ")
    assert header == ["bot", "n", *PLAYS] and {r[0] for r in rows} == {"balanced", "aggressive", "defensive", "random"}
    for words in ("Best bot", "The first player", "Strongest driver", "Best pair drafted", "Games last"):
        assert words in stdout, words
    # issue 34: the first player's figure names what it holds and the tie rule the default uses
    line = next(line for line in stdout.splitlines() if "The first player" in line)
    assert "a tie settled by rules.first_player_ties, a redeal by default" in line and "lower seat" not in line
    assert re.search(r"the first player holds \w+ in \d+\.\d% of games", line), line


def test_the_first_player_holds_is_counted_from_the_logs(report):
    from balance.analysis.drivers import first_player_holds
    from balance.logs import load_run

    _, _, run_dir = report
    held = first_player_holds(run_dir)
    tables = load_run(run_dir)
    games = tables["games"].collect()
    players = tables["players"].collect().join(games.select("game_id", "first_seat"), on="game_id")
    first = players.filter(pl.col("seat").cast(pl.Int16) == pl.col("first_seat").cast(pl.Int16))
    top = held.row(0, named=True)
    holding = ((first["driver"] == top["driver"]) | (first["co_pilot"] == top["driver"])).mean()
    assert top["share"] == pytest.approx(holding) and held["share"].is_sorted(descending=True)


def test_tallied_columns_are_shuffle_gps(report):
    _, _, run_dir = report
    # Heat's spin_outs and Horsepower's pit_stops are Shuffle Grand Prix's names too: its own set wins
    assert tallies.race_columns(run_dir) == PLAYS
    assert tallies.compared_columns(run_dir) == list(tallies.SHUFFLE_GP_COMPARED)


def test_driver_and_pair_tables(report):
    _, out, _ = report
    drivers = pl.read_csv(out / "win_rate_by_driver.csv")
    assert set(drivers["driver"]) == DRIVERS and drivers.height == 8
    assert drivers["n"].sum() == 2 * PLAYERS * GAMES, "each player drafts two drivers"
    low, rate, high = drivers["ci_low_pct"], drivers["win_rate_pct"], drivers["ci_high_pct"]
    assert ((low <= rate) & (rate <= high)).all()
    assert (drivers["fair_pct"] == 100 / PLAYERS).all() and drivers["mean_pick"].is_between(1, 2 * PLAYERS).all()
    pairs = pl.read_csv(out / "win_rate_by_driver_pair.csv")
    assert pairs["n"].sum() == PLAYERS * GAMES and pairs["wins"].sum() <= GAMES
    assert drivers["wins"].sum() == 2 * pairs["wins"].sum(), "a winner's two drivers both win"
    assert (pairs["first"] < pairs["second"]).all(), "unordered: each pair once"
    page = (out / "index.html").read_text()
    header, rows = _table(page, "Win rate by driver drafted")
    assert header[:2] == ["driver", "n"] and {r[0] for r in rows} == DRIVERS
    order = pl.read_csv(out / "win_rate_by_turn_order.csv")
    assert order["order"].to_list() == [0, 1, 2, 3] and (order["games"] == GAMES).all()
    assert order["wins"].sum() == GAMES and order["seat_first_pct"].sum() == pytest.approx(100.0)


def test_distributions_and_cards(report):
    _, out, run_dir = report
    spread = pl.read_csv(out / "distance_trophies_by_bot.csv")
    assert set(spread["measure"]) == {"distance", "trophies"} and (spread["n"] == GAMES).all()
    assert ((spread["p10"] <= spread["median"]) & (spread["median"] <= spread["p90"])).all()
    cards = pl.read_csv(out / "cards.csv")
    assert cards.height == 71 and set(cards["driver"]) == DRIVERS
    assert (cards["n_held"] == GAMES).all(), "with four players every driver is drafted once a game"
    assert cards["play_rate_pct"].is_between(0, 100).all()
    assert (cards["n_played"] + cards["n_held_not_played"] == cards["n_held"]).all()
    plays = pl.read_parquet(run_dir / "cards").filter(pl.col("event") == "play").height
    assert cards["plays_per_game"].sum() * GAMES == pytest.approx(plays), "every play counted once"


def test_shuffle_gp_compare_writes_its_page(tmp_path):
    # a driver's cards are a nested list: the override names the card by its index (0: blaze_ram), not its id
    path = tmp_path / "s.yaml"
    path.write_text(
        FOUR.replace(f"games: {GAMES}", "games: 256")
        + "variants:\n  - name: ram3\n    overrides: {drivers.blaze.cards.0.effects.0.amount: 3}\n"
    )
    result = CliRunner().invoke(app, ["compare", str(path), "--out", str(tmp_path / "out"), "--jobs", "1"])
    assert result.exit_code == 0, result.output
    table = pl.read_parquet(tmp_path / "out" / "compare.parquet")
    tallied = {f"mean {c} by bot" for c in tallies.SHUFFLE_GP_COMPARED}
    assert set(table["metric"]) == {"win rate by seat", "win rate by bot", "win rate by driver"} | tallied
    drivers = table.filter(pl.col("metric") == "win rate by driver")
    assert set(drivers["key"]) == DRIVERS and (drivers["n"] == 256).all()
    page = (tmp_path / "out" / "index.html").read_text()
    assert "Comparison: shuffle-gp-tiny" in page and "win rate by driver" in page
    assert (tmp_path / "out" / "forest.png").read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
