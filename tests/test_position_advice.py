"""Draft position and strong-play seats in the advice (issue 43, item 5): a draft
gap past the tolerance is a What-to-change line with its lever and a ready fit;
a seat gap that widens under strong play is said."""

from __future__ import annotations

import shlex

import polars as pl

from balance.experiments.fit.space import free_params
from balance.report.causal import seat_change_lines, strong_gap_line
from balance.scenario import load_scenario

from .conftest import ROOT


def test_a_draft_gap_is_a_change_line_with_the_draft_coins_fit():
    draft = _rates([0.356, 0.253, 0.212, 0.180])
    equality = pl.DataFrame({"n_players": [4], "p_value": [1e-9], "largest_gap": [0.176]})
    scenario = "examples/first-draft/four-player-mixed.yaml"  # the first draft: its draft gap stays
    (line,) = seat_change_lines(draft, equality, 0.02, scenario, "rules.draft_coins", "draft_position")
    assert line.startswith("Draft positions out of balance (4 players): draft position 1 +10.6 points (+10.0 to +11.2)")
    assert "(17.6 points between the best and worst draft position, chi-square p < 0.001)" in line
    assert "draft position 4 wins least (its lever: rules.draft_coins, extra starting coins by draft position)" in line
    command = shlex.split(line.split(" -> ", 1)[1])
    assert command[:3] == ["balance", "fit", scenario] and command[-2:] == ["--target", "draft-balance<=2"]
    # the printed path is one the database holds: the fit starts from it
    (param,) = free_params(load_scenario(ROOT / scenario), [command[4]])
    assert param.name == "rules.draft_coins.3" and (param.low, param.high, param.start) == (0, 3, 0)


def _rates(rates: list[float], half: float = 0.006) -> pl.DataFrame:
    """Win rates by draft position, each with its interval, as winrate.by_draft_position gives them."""
    return pl.DataFrame(
        {
            "n_players": [4] * 4,
            "draft_position": [1, 2, 3, 4],
            "win_rate": rates,
            "ci_low": [r - half for r in rates],
            "ci_high": [r + half for r in rates],
            "fair": [0.25] * 4,
            "games": [20000] * 4,
        }
    )


def test_positions_each_inside_the_band_of_their_share_are_not_out_of_balance():
    """Rebalance and fit hold each position within the band of its share; the report called the draft positions
    out of balance where the best and worst lay more than the band apart (4.3 points on the sixth database,
    position 1 -2.5 from its share): one reading now, each position by its own share."""
    equality = pl.DataFrame({"n_players": [4], "p_value": [1e-5], "largest_gap": [0.043]})
    inside = _rates([0.225, 0.248, 0.268, 0.259])
    assert seat_change_lines(inside, equality, 0.03, "s.yaml", "rules.draft_coins", "draft_position") == []
    past = _rates([0.21, 0.25, 0.28, 0.26])
    (line,) = seat_change_lines(past, equality, 0.03, "s.yaml", "rules.draft_coins", "draft_position")
    assert line.startswith("Draft positions out of balance (4 players): draft position 1 -4.0 points (-4.6 to -3.4)")


def positions(strong: list[float], here: list[float], half: float = 0.006) -> pl.DataFrame:
    return pl.DataFrame(
        {
            "seat": [0, 1, 2, 3],
            "win_rate": here,
            "ci_low": [x - half for x in here],
            "ci_high": [x + half for x in here],
            "win_rate_strong": strong,
            "ci_low_strong": [x - half for x in strong],
            "ci_high_strong": [x + half for x in strong],
            "n_strong": [20_000] * 4,
        }
    )


def test_a_seat_gap_that_widens_under_strong_play_is_said_and_one_within_the_noise_is_not():
    widened = positions([0.309, 0.251, 0.236, 0.204], [0.284, 0.248, 0.243, 0.225])
    (line,) = strong_gap_line(widened)
    assert line.startswith("Under strong play the seat gap widens: 5.9 points between the best and worst seat")
    assert "10.5 in the tuned field (balance strong, n=20,000 games)" in line
    assert strong_gap_line(positions([0.286, 0.248, 0.243, 0.223], [0.284, 0.248, 0.243, 0.225])) == []


def test_the_printed_draft_fit_raises_the_worst_positions_coins_from_what_it_holds():
    """The shipped database gives draft position 1 four coins; when it won least, the report printed
    `--free rules.draft_coins.0=0..3`, and the fit, run as printed, proposed 4 -> 0: fewer coins for the
    position that wins least. The range now starts at what the position holds and goes up."""
    draft = _rates([0.21, 0.254, 0.28, 0.256])  # position 1 -4.0 points from its share
    equality = pl.DataFrame({"n_players": [4], "p_value": [1e-5], "largest_gap": [0.043]})
    database = {"rules": {"draft_coins": [4, 0, 3, 7]}}
    scenario = "scenarios/four-player-mixed.yaml"
    (line,) = seat_change_lines(draft, equality, 0.03, scenario, "rules.draft_coins", "draft_position", database)
    assert "draft position 1 wins least" in line
    assert shlex.split(line.split(" -> ", 1)[1])[4] == "rules.draft_coins.0=4..7"
    (param,) = free_params(load_scenario(ROOT / scenario), ["rules.draft_coins.0=4..7"])
    assert (param.low, param.high, param.start) == (4, 7, 4), "the fit starts from the database's own value"
