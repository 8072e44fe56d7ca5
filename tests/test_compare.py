"""`balance compare`: common random numbers make an A/A comparison exactly
zero and flag nothing; a clearly stronger card shows its win rate added rising."""

from __future__ import annotations

import polars as pl
import pytest
from typer.testing import CliRunner

from balance.cli import app
from balance.errors import UserError
from balance.experiments.setup import ExperimentOptions
from balance.scenario import load_scenario, variant_scenarios

from .conftest import CARDS

SCENARIO = f"""name: cmp
game: horsepower
cards: {CARDS}
players: 4
bots: [racer, economist, saboteur, balanced]
games: 1600
seed: 2
chunk_size: 800
variants:
  - name: same
  - name: strong-v8
    overrides: {{cards.v8_block.effects.0.amount: 12}}
"""


@pytest.fixture(scope="module")
def compared(tmp_path_factory):
    tmp = tmp_path_factory.mktemp("compare")
    (tmp / "s.yaml").write_text(SCENARIO)
    result = CliRunner().invoke(app, ["compare", str(tmp / "s.yaml"), "--out", str(tmp / "out"), "--jobs", "1"])
    assert result.exit_code == 0, result.output
    return tmp / "out", result.stdout


def test_compare_writes_the_table_page_and_plot(compared):
    out, stdout = compared
    table = pl.read_parquet(out / "compare.parquet")
    for column in ("variant", "metric", "key", "baseline", "value", "diff", "ci_low", "ci_high", "significant"):
        assert column in table.columns
    assert set(table["variant"]) == {"same", "strong-v8"}
    assert {
        "win rate by seat",
        "win rate by bot",
        "win rate by draft position",
        "mean turns per lap",
        "card draft rate",
        "card win rate added when drafted",
        "Playbook win rate added when held",
    } <= set(table["metric"])
    assert (out / "forest.png").read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    assert "Comparison: cmp" in (out / "index.html").read_text()
    assert "differences significant" in stdout


def test_an_a_a_comparison_is_exactly_zero_and_flags_nothing(compared):
    out, _ = compared
    same = pl.read_parquet(out / "compare.parquet").filter(pl.col("variant") == "same")
    assert not same["significant"].any()
    finite = same.filter(pl.col("diff").is_not_nan())
    assert (finite["diff"] == 0).all(), "common random numbers: the same games"
    seats = same.filter(pl.col("metric") == "win rate by seat")
    assert (seats["ci_low"] == 0).all() and (seats["ci_high"] == 0).all()


def test_a_stronger_card_shows_its_win_rate_added_rising(compared):
    out, _ = compared
    v8 = pl.read_parquet(out / "compare.parquet").filter(
        (pl.col("variant") == "strong-v8") & (pl.col("key") == "v8_block") & pl.col("metric").str.contains("added")
    )
    drafted = v8.filter(pl.col("metric") == "card win rate added when drafted").row(0, named=True)
    assert drafted["diff"] > 5 and drafted["ci_low"] > 0 and drafted["significant"]  # percentage points
    assert drafted["unit"] == "points"
    seat = pl.read_csv(out / "compare.csv").filter(pl.col("metric") == "win rate by seat").row(0, named=True)
    assert seat["unit"] == "%" and 10 < seat["baseline"] < 50, "rates in percent, as the unit column says"


def test_bad_variants_are_one_line_errors_before_any_game(tmp_path):
    path = tmp_path / "s.yaml"
    path.write_text(SCENARIO.replace("cards.v8_block.effects.0.amount: 12", "cards.v9_block.count: 2"))
    scenario = load_scenario(path)
    (_, same), (_, bad) = variant_scenarios(scenario)
    from balance.games.horsepower import GAME

    with pytest.raises(UserError, match=r"s.yaml:12: overrides.cards.v9_block.count: no card with id 'v9_block'"):
        GAME.prepare(bad)
    path.write_text(SCENARIO.split("variants:")[0])
    result = CliRunner().invoke(app, ["compare", str(path), "--out", str(tmp_path / "o")])
    assert result.exit_code == 2 and "no variants to compare" in result.stderr


def test_until_ci_steps_to_the_games_the_width_asks_for():
    """An interval narrows as 1 / sqrt(games): twice too wide asks for four times
    the games (and a margin of 8%); a step adds at least a tenth."""
    from balance.experiments.compare import games_for_width

    assert games_for_width(1000, 2.0, 1.0) == 4320
    assert games_for_width(1000, 1.02, 1.0) == 1124
    assert games_for_width(1000, 0.9, 1.0) == 1100
    assert games_for_width(1000, float("nan"), 1.0) == 1100


def test_until_ci_adds_games_until_the_headline_interval_is_narrow(tmp_path):
    from balance.experiments.compare import compare

    path = tmp_path / "s.yaml"
    small = SCENARIO.replace("games: 1600", "games: 200").replace("chunk_size: 800", "chunk_size: 100")
    path.write_text(small.replace("  - name: same\n", ""))  # the changed variant alone: it is the one that varies
    result = compare(path, until_ci=16, headline="bot:racer", options=ExperimentOptions(out=tmp_path / "out", jobs=1))
    assert result.headline == "win rate by bot racer"
    assert result.headline_width <= 16 and result.games > 200
    assert f"{result.games:,} games each" in result.index.read_text(), "the page states the games actually run"
    capped = compare(path, until_ci=0.1, max_games=400, options=ExperimentOptions(out=tmp_path / "capped", jobs=1))
    assert capped.games == 400 and capped.headline_width > 0.1
    with pytest.raises(UserError, match="is not seat:N or one of bot:racer"):
        compare(path, headline="bot:nobody", options=ExperimentOptions(out=tmp_path / "x"))


def test_the_forest_plot_draws_every_significant_row():
    """Issue 43: a `--set` compare's one significant row (not a win rate) was
    missing from its chart, and significant win rates past the 25 largest too."""
    from balance.report.charts import forest_rows

    rows = [  # forty large differences (flagged or not: the flag is the table's), then a smaller significant one
        {"variant": "v", "metric": "win rate by seat", "key": str(k), "diff": 0.1 + 0.001 * k,
         "ci_low": 0.09 + 0.001 * k, "ci_high": 0.11 + 0.001 * k, "significant": False}
        for k in range(40)
    ]  # fmt: skip
    rows.append({"variant": "v", "metric": "win rate by bot", "key": "quiet", "diff": 0.01, "ci_low": 0.002,
                 "ci_high": 0.018, "significant": True})  # fmt: skip
    rows.append({"variant": "v", "metric": "mean rounds", "key": "all", "diff": 1.5, "ci_low": 0.5, "ci_high": 2.5,
                 "significant": True})  # fmt: skip
    rates, others = forest_rows(pl.DataFrame(rows))
    assert "quiet" in rates["key"].to_list() and len(rates) == 26
    assert others["metric"].to_list() == ["mean rounds"]


def test_a_compare_says_what_its_variants_changed(compared):
    """Issue 43: a scenario's compare (and `--set`'s, a variant named `set`)
    had no "What changed": it lists each variant's change, as compare RUN_A
    RUN_B does, in the console and on the page."""
    out, stdout = compared
    assert "what changed:\n  cards.v8_block.effects.0.amount: 3 -> 12 (strong-v8)" in stdout
    page = (out / "index.html").read_text()
    assert "What changed" in page and "cards.v8_block.effects.0.amount: 3 -&gt; 12 (strong-v8)" in page


def test_the_table_is_the_same_to_the_last_digit_whatever_order_the_parts_are_read_in(compared):
    """A resumed run lays out its parts differently from one never stopped; the
    intervals must not move in their last digit (a float sum depends on its order)."""
    from balance.analysis.compare import compare_runs
    from balance.logs import load_run

    out, _ = compared
    base, variant = load_run(out / "baseline"), load_run(out / "strong-v8")
    shuffled = {
        name: {t: frame.collect().sample(fraction=1.0, shuffle=True, seed=5).lazy() for t, frame in run.items()}
        for name, run in (("base", base), ("variant", variant))
    }
    as_read = compare_runs(base, variant, "v")
    reordered = compare_runs(shuffled["base"], shuffled["variant"], "v")
    assert as_read.height > 20
    assert as_read.equals(reordered)
    unpaired = compare_runs(base, variant, "v", paired=False)
    assert unpaired.equals(compare_runs(shuffled["base"], shuffled["variant"], "v", paired=False))


def test_an_effect_list_that_changed_shape_is_one_line_old_list_to_new():
    """The tenth database's Since the last run read Extended Wheelbase's rewrite position by position:
    effects.0.op: drive -> hand_size, effects.1.op: hand_size -> (none), effects.1.amount: 1 -> (none), ...
    An effect list whose shape changed is now one line, old list -> new list as the database writes them; a
    number changed in place keeps its own path, the one fit and sweep take."""
    from balance.analysis.database_diff import change_lines

    def card(effects: list[dict], text: str) -> dict:
        return {"cards": [{"id": "extended_wheelbase", "effects": effects, "text": text}, {"id": "v8", "effects": []}]}

    before = card(
        [{"op": "drive", "amount": 1}, {"op": "hand_size", "amount": 1, "if": {"min_coins": 5}}], "+1 Drive. If ..."
    )
    after = card([{"op": "hand_size", "amount": 1, "if": {"min_coins": 3}}], "If you hold 3 ...")
    assert change_lines(before, after) == [
        "cards.extended_wheelbase.effects: [{op: drive, amount: 1}, {op: hand_size, amount: 1, if: {min_coins: 5}}] "
        "-> [{op: hand_size, amount: 1, if: {min_coins: 3}}]",
        "cards.extended_wheelbase.text: +1 Drive. If ... -> If you hold 3 ...",
    ]
    same_shape = card([{"op": "drive", "amount": 2}, {"op": "hand_size", "amount": 1, "if": {"min_coins": 5}}], "x")
    assert change_lines(before, same_shape)[0] == "cards.extended_wheelbase.effects.0.amount: 1 -> 2"


def test_an_effect_added_to_a_card_is_told_with_the_cards_other_changes_before_the_next_card():
    """The eleventh database's Since the last run: Sponsorship Deal gained `draw 1`; the path only the new
    database holds came after every path of the old one, so its line fell past the page's first eight changes
    while the card's text said "Draw 1 card"."""
    from balance.analysis.database_diff import change_lines

    before = {
        "cards": [
            {"id": "sponsorship_deal", "effects": [{"op": "coins", "amount": 9}], "text": "Gain 9 coins."},
            {"id": "bulk_discount", "effects": [{"op": "coins", "amount": 5}], "text": "Gain 5 coins."},
        ]
    }
    after = {
        "cards": [
            {
                "id": "sponsorship_deal",
                "effects": [{"op": "coins", "amount": 9}, {"op": "draw", "count": 1}],
                "text": "Gain 9 coins. Draw 1 card.",
            },
            {"id": "bulk_discount", "effects": [{"op": "coins", "amount": 6}], "text": "Gain 6 coins."},
        ]
    }
    assert change_lines(before, after) == [
        "cards.sponsorship_deal.effects: [{op: coins, amount: 9}] -> [{op: coins, amount: 9}, {op: draw, count: 1}]",
        "cards.sponsorship_deal.text: Gain 9 coins. -> Gain 9 coins. Draw 1 card.",
        "cards.bulk_discount.effects.0.amount: 5 -> 6",
        "cards.bulk_discount.text: Gain 5 coins. -> Gain 6 coins.",
    ]
    # and an effect taken away, where the old database had it
    assert change_lines(after, before)[0].startswith(
        "cards.sponsorship_deal.effects: [{op: coins, amount: 9}, {op: draw"
    )


def test_an_empty_effect_list_given_an_effect_is_one_line():
    from balance.analysis.database_diff import change_lines

    before = {"cards": [{"id": "a", "effects": []}]}
    after = {"cards": [{"id": "a", "effects": [{"op": "draw", "count": 1}]}]}
    assert change_lines(before, after) == ["cards.a.effects: [] -> [{op: draw, count: 1}]"]
    assert change_lines(after, before) == ["cards.a.effects: [{op: draw, count: 1}] -> []"]
