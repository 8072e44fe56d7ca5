"""`balance report` and `balance compare` on Heat runs: what a user sees (the
Heat title, grid slots, how each bot races, the cards studied) and what must
not be there (Playbooks, Pit Stops, columns of events Heat never logs)."""

from __future__ import annotations

import json
import re

import polars as pl
import pytest
from typer.testing import CliRunner

from balance.analysis import cards as card_analysis
from balance.analysis import laps
from balance.cli import app

from .conftest import HEAT_USA, ROOT, run_and_report

USA = HEAT_USA
GARAGE = f"""name: heat-tiny-garage
game: heat
cards: {ROOT / "heat.yaml"}
players: 3
bots: [balanced, aggressive, cautious]
overrides:
  rules.track: france
  rules.garage_module: true
games: 512
seed: 6
chunk_size: 256
"""
TALLIES = ["heat_paid", "corner_heat", "spin_outs", "boosts", "slipstreams", "cooled", "overheats", "finish_round"]


@pytest.fixture
def usa(heat_usa):
    return heat_usa[:2]


@pytest.fixture(scope="module")
def garage(tmp_path_factory):
    return run_and_report(tmp_path_factory.mktemp("heat-garage"), GARAGE)[:2]


def _table(page: str, title: str) -> tuple[list[str], list[list[str]]]:
    """The header and rows of the page's table under the heading `title`."""
    start = page.index(f"<h3>{title} ")
    body = page[start : page.index("</table>", start)]
    header = re.findall(r"<th>([^<]*)</th>", body)
    rows = [re.findall(r"<td>([^<]*)</td>", row) for row in re.findall(r"<tr>(.*?)</tr>", body)[1:]]
    return header, rows


def test_report_titles_match_the_games():
    from balance.games import GAMES
    from balance.report.labels import labels_for

    for name, game in GAMES.items():
        assert labels_for(name).title == game.title


def test_heat_report_page(usa):
    stdout, out = usa
    page = (out / "index.html").read_text()
    assert "<h1>Heat: Pedal to the Metal balance report: heat-tiny</h1>" in page
    assert "4 cars (1 Legend)" in page
    for image in re.findall(r'<img src="([^"]+)"', page):
        assert (out / image).read_bytes()[:8] == b"\x89PNG\r\n\x1a\n", image
    assert {"seat_win_rates.png", "bot_tallies.png", "cards_plays.png"} <= set(re.findall(r'<img src="([^"]+)"', page))
    header, rows = _table(page, "Win rate by grid slot (0 = pole)")
    assert "grid_slot" in header and [r[header.index("grid_slot")] for r in rows] == ["0", "1", "2", "3"]
    assert "Grid slot" in stdout and "The winner crosses the finish line after" in stdout and "Best bot" in stdout
    assert "the last car home after" in stdout and re.search(r"(of races|no race) cut by the round cap", stdout)
    header, rows = _table(page, "How each bot races")
    assert header == ["bot", "n", *TALLIES]
    legend = next(r for r in rows if r[0] == "legend")
    assert legend[2:-1] == ["0"] * 7, "a Legend pays no Heat, never spins out, never slipstreams"
    assert re.fullmatch(r"[\d.]+ \([\d.]+-[\d.]+\)", legend[-1]), "finish_round with its interval"
    tallies = pl.read_csv(out / "bot_tallies.csv")
    assert set(tallies["measure"]) == set(TALLIES) and (tallies["n"] == 512).all()
    # without the Garage module every deck card is dealt: plays per game, no win rate added
    header, rows = _table(page, "Cards")
    assert header == ["card", "name", "player_games", "plays_per_game"]
    assert {r[0] for r in rows} == {"speed_1", "speed_2", "speed_3", "speed_4", "stress", "upgrade_0", "upgrade_5"}
    assert all(r[2] == "1,536" for r in rows), "3 cars hold cards in each race, the Legend none"
    assert "Playbook" not in page and "pit stop" not in page.lower()
    assert not re.search(r"<td>(nan|NaN|inf)</td>", page)
    lap = pl.read_csv(out / "lap_times.csv")
    assert lap.columns[0] == "lap" and "after" not in lap.columns
    after = laps.lap_times(out.parent / "run").group_by("lap").agg(pl.col("after").unique()).sort("lap").collect()
    assert after["after"].to_list() == [["start"], [laps.NO_PIT]], "no Pit Stop or Race Through in Heat"


def test_garage_report_studies_the_drafted_upgrades(garage):
    stdout, out = garage
    page = (out / "index.html").read_text()
    cards = pl.read_csv(out / "cards.csv")
    catalog = json.loads((out.parent / "run" / "manifest.json").read_text())["catalog"]["cards"]
    upgrades = {c["id"] for c in catalog if c["studied"]}  # the pool: no expansion upgrades without rules.expansions
    assert set(cards["card"]) == upgrades and len(upgrades) == 46, "every Garage upgrade, nothing else"
    # each player drafts exactly 3 upgrades (a design's two copies may go to one player: a little less)
    assert 280 <= cards["draft_rate_pct"].sum() <= 300, "in percent, as named"
    assert cards["mean_pick"].drop_nulls().is_between(1, 9).all(), "3 players x 3 picks"
    for absent in ("buy_rate", "auction_wins", "scrap_rate", "n_bought", "added_final"):
        assert not any(c.removesuffix("_pct").removesuffix("_pp") == absent for c in cards.columns), absent
    header, rows = _table(page, "Cards")
    assert {"draft_rate_pct", "mean_pick", "added_drafted_pp", "significant_drafted"} <= set(header)
    assert "brakes_1" in {r[0] for r in rows}
    assert "cards_pick_vs_added.png" in page and "Playbook" not in page
    assert "drafted" in stdout or "No card's win rate added is significant" in stdout
    # a catalogue card no event names gets its row of zeros (the logs' ids are categorical)
    table = card_analysis.card_stats(out.parent / "run", ["brakes_1", "never_drafted"])
    assert table.filter(pl.col("card") == "never_drafted")["n_drafted"].to_list() == [0]


def test_heat_compare_writes_its_page(tmp_path):
    path = tmp_path / "s.yaml"
    path.write_text(USA + "variants:\n  - name: slip3\n    overrides: {rules.slipstream: 3}\n")
    result = CliRunner().invoke(app, ["compare", str(path), "--out", str(tmp_path / "out"), "--jobs", "1"])
    assert result.exit_code == 0, result.output
    table = pl.read_parquet(tmp_path / "out" / "compare.parquet")
    metrics = set(table["metric"])
    assert {"win rate by seat", "win rate by bot", "mean turns per lap", "mean slipstreams by bot"} <= metrics
    assert not any("Playbook" in m or "card" in m for m in metrics), "no draft, no purchase, no Playbooks"
    legend = table.filter((pl.col("metric") == "mean heat_paid by bot") & (pl.col("key") == "legend"))
    assert legend["diff"].to_list() == [0.0] and not legend["significant"].any()
    page = (tmp_path / "out" / "index.html").read_text()
    assert "Comparison: heat-tiny" in page and "grid slot (0 = pole)" in page
    assert (tmp_path / "out" / "forest.png").read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"


def test_studied_cards_falls_back_to_the_parts_deck():
    from balance.games.base import studied_cards

    horsepower = {"cards": [{"id": "v8", "group": "parts"}, {"id": "junk", "group": "debris"}]}
    heat = {"cards": [{"id": "speed_1", "group": "basic_speed", "studied": False}, {"id": "brakes_1", "studied": True}]}
    assert studied_cards(horsepower) == ["v8"]
    assert studied_cards(heat) == ["brakes_1"]
    assert studied_cards({}) is None


def test_strength_gives_the_item_to_a_car_with_a_deck_in_a_field_with_legends(tmp_path):
    """Issue 33: heat-usa's field has Legends; balance strength runs, each race
    giving the item to a car with a deck (tests/test_strength_heat.py checks which)."""
    scenario = tmp_path / "usa.yaml"
    scenario.write_text(USA)
    args = ["strength", str(scenario), "--cards", "speed_1", "-n", "32", "-j", "1", "--out", str(tmp_path / "s")]
    result = CliRunner().invoke(app, args)
    assert result.exit_code == 0, result.output
    assert "speed_1:" in result.output and (tmp_path / "s" / "strength.csv").is_file()


def test_the_report_says_whose_cars_the_round_cap_stopped():
    """Issue 36: the capped races are the random bot's; the report says so, per bot."""
    import polars as pl

    from balance.report.findings import capped_lines
    from balance.report.labels import HEAT

    games = pl.LazyFrame({"game_id": [0, 1, 2], "finished": [True, False, False]})
    players = pl.LazyFrame(
        {
            "game_id": [0, 0, 1, 1, 2, 2],
            "bot": ["random", "balanced"] * 3,
            "finished": [True, True, False, True, False, True],
        }
    )
    assert capped_lines({"games": games, "players": players}, HEAT) == [
        "The cars the round cap stopped, by bot: random 2 of its 3 races (66.7%) (random is the floor by "
        "definition: uniform over legal moves, it may Boost into a corner it cannot pay)."
    ]
    none = pl.LazyFrame({"game_id": [0], "finished": [True]})
    assert capped_lines({"games": none, "players": players}, HEAT) == []
