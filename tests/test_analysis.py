"""The analysis pipelines on a hand-made run whose answers are worked out by
hand (published values for the intervals: Wilson 3/3 = 0.4385-1, 1/5 =
0.0362-0.6245; Newcombe's 56/70 - 48/80 = 0.2, 0.0524 to 0.3339)."""

from __future__ import annotations

import json

import numpy as np
import polars as pl
import pytest

from balance.analysis import cards, laps, winrate
from balance.analysis.stats import benjamini_hochberg, chi2_sf, newcombe_diff, two_proportion_p, wilson

WINNERS = [0, 0, 1, 0]  # 4 two-player games: seat 0 wins three


@pytest.fixture
def run(tmp_path):
    out = tmp_path / "run"
    games = pl.DataFrame(
        {
            "game_id": [0, 1, 2, 3],
            "chunk": [0, 0, 0, 0],
            "n_players": [2] * 4,
            "rounds": [10, 12, 11, 9],
            "finished": [True] * 4,
            "winner_seat": WINNERS,
            "winner_bot": ["racer", "racer", "random", "racer"],
        }
    )
    rows = [(g, s) for g in range(4) for s in range(2)]
    players = pl.DataFrame(
        {
            "game_id": [g for g, _ in rows],
            "seat": [s for _, s in rows],
            "bot": ["racer" if s == 0 else "random" for _, s in rows],
            "won": [WINNERS[g] == s for g, s in rows],
            "lap1_turns": [7, 8, 9, 10, 7, 8, 9, 10],
            "lap2_turns": [6, None, 8, None, 5, None, 9, None],
            "pit_after_lap1": [True, False, False, False, True, False, False, False],
            "playbooks": [["lead_foot"] if (g, s) == (0, 0) else ["haggler"] for g, s in rows],
        }
    )
    events = [  # (game, seat, card, event, pick, price)
        (0, 0, "v8_block", "draft", 1, None),
        (1, 0, "v8_block", "draft", 3, None),
        (2, 1, "v8_block", "draft", 2, None),
        (0, 1, "v8_block", "buy", None, 3),
        (0, 1, "v8_block", "scrap", None, None),
        (1, 1, "oil_baron", "auction", None, 2),
        (3, 0, "oil_baron", "auction", None, 4),
        (0, 0, "v8_block", "play", None, None),
        (0, 0, "v8_block", "play", None, None),
        (0, 0, "lead_foot", "playbook_draft", 2, None),
        (1, 1, "haggler", "playbook_pit", None, None),
    ]
    cards_table = pl.DataFrame(
        {
            "game_id": [e[0] for e in events],
            "seat": [e[1] for e in events],
            "card": [e[2] for e in events],
            "event": [e[3] for e in events],
            "turn": [1] * len(events),
            "pick": [e[4] for e in events],
            "price": [e[5] for e in events],
        },
        schema_overrides={"pick": pl.Int16, "price": pl.Int16},
    )
    for name, table in (("games", games), ("players", players), ("cards", cards_table)):
        (out / name).mkdir(parents=True)
        table.write_parquet(out / name / "part-000000.parquet")
    (out / "manifest.json").write_text(json.dumps({"status": "complete"}))
    return out


def test_intervals_and_tests_match_published_values():
    low, high = wilson(3, 3)
    assert round(float(low), 4) == 0.4385 and float(high) == 1.0
    low, high = wilson(1, 5)
    assert (round(float(low), 4), round(float(high), 4)) == (0.0362, 0.6245)
    diff, low, high = newcombe_diff(56, 70, 48, 80)
    assert (round(float(diff), 4), round(float(low), 4), round(float(high), 4)) == (0.2, 0.0524, 0.3339)
    assert abs(chi2_sf(3.841458820694124, 1) - 0.05) < 1e-12 and abs(chi2_sf(2.0, 2) - np.exp(-1)) < 1e-12
    assert abs(float(two_proportion_p(56, 70, 48, 80)) - 0.008045) < 1e-6
    assert benjamini_hochberg(np.array([0.01, 0.04, 0.03, 0.2])).tolist() == [True, False, False, False]
    assert benjamini_hochberg(np.array([0.01, 0.02, 0.03, 0.04])).tolist() == [True] * 4


def test_win_rate_by_seat_bot_and_equality(run):
    seats = winrate.by_seat(run)
    assert seats["win_rate"].to_list() == [0.75, 0.25] and seats["games"].to_list() == [4, 4]
    assert seats["fair"].to_list() == [0.5, 0.5]
    eq = winrate.seat_equality(run).row(0, named=True)
    assert eq["chi2"] == 1.0 and eq["df"] == 1 and round(eq["p_value"], 4) == 0.3173
    assert eq["balance_index"] == 0.5 and eq["largest_gap"] == 0.5
    bots = winrate.by_bot(run)
    assert dict(zip(bots["bot"], bots["wins"], strict=True)) == {"racer": 3, "random": 1}
    books = winrate.by_playbook(run)
    assert dict(zip(books["playbook"], books["games"], strict=True)) == {"haggler": 7, "lead_foot": 1}
    assert books.filter(pl.col("playbook") == "lead_foot")["win_rate"].item() == 1.0


def test_lap_times_and_game_length(run):
    summary = laps.lap_summary(run)
    lap1 = summary.filter(pl.col("lap") == 1).row(0, named=True)
    assert (lap1["n"], lap1["mean"], lap1["median"], lap1["p10"], lap1["p90"]) == (8, 8.5, 8.5, 7, 10)
    after = laps.lap_summary(run, by=("lap", "after")).filter(pl.col("lap") == 2)
    assert dict(zip(after["after"], after["mean"], strict=True)) == {"pit stop": 5.5, "race through": 8.5}
    dist = laps.lap_distribution(run).filter(pl.col("lap") == 1)
    assert dist["laps"].to_list() == [2, 2, 2, 2]
    length = laps.game_length(run).row(0, named=True)
    assert (length["n"], length["mean"], length["median"], length["unfinished_share"]) == (4, 10.5, 10.5, 0.0)


def test_card_picks_and_win_rate_added(run):
    table = cards.card_stats(run, catalog=["oil_baron", "twin_turbo", "v8_block"])
    v8 = table.filter(pl.col("card") == "v8_block").row(0, named=True)
    assert (v8["n_drafted"], v8["wins_drafted"], v8["mean_pick"]) == (3, 3, 2.0)
    assert v8["draft_rate"] == 3 / 8 and v8["buy_rate"] == 1 / 8 and v8["plays_per_game"] == 2 / 4
    assert v8["win_rate_drafted"] == 1.0 and v8["win_rate_not_drafted"] == 1 / 5
    assert round(v8["ci_low_drafted"], 4) == 0.4385
    assert abs(v8["added_raw_drafted"] - 0.8) < 1e-12  # the pooled difference, kept as raw
    # bought then scrapped: not in the final deck; drafted three times: in it
    assert v8["n_final"] == 3 and v8["n_scrapped"] == 1
    oil = table.filter(pl.col("card") == "oil_baron").row(0, named=True)
    assert oil["auction_wins"] == 2 and oil["mean_auction_price"] == 3.0
    never = table.filter(pl.col("card") == "twin_turbo").row(0, named=True)
    assert never["n_taken"] == 0 and never["rarely_taken"] and np.isnan(never["added_drafted"])
    assert table["significant_drafted"].dtype == pl.Boolean


def test_playbook_picks(run):
    table = cards.playbook_stats(run, catalog=["haggler", "lead_foot", "rocket_fuel"])
    lead = table.filter(pl.col("playbook") == "lead_foot").row(0, named=True)
    assert (lead["n_drafted"], lead["wins_drafted"], lead["mean_pick"]) == (1, 1, 2.0)
    haggler = table.filter(pl.col("playbook") == "haggler").row(0, named=True)
    assert (haggler["n_pit"], haggler["wins_pit"], haggler["pit_rate"]) == (1, 0, 1 / 8)
    assert table.filter(pl.col("playbook") == "rocket_fuel")["rarely_taken"].item()
