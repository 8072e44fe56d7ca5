"""`balance fit` (issue 21) end to end on a tiny scenario: mistakes are one
line before any game; the same seed gives the same proposal; the proposal is
a variants: entry the scenario takes; the page and tables are written."""

from __future__ import annotations

import json

import polars as pl
import pytest
import yaml
from typer.testing import CliRunner

from balance.cli import app
from balance.scenario import load_scenario, variant_scenarios

from .conftest import CARDS

SCENARIO = f"""name: fitme
game: horsepower
cards: {CARDS}
players: 2
bots: [racer, balanced]
games: 60
seed: 3
chunk_size: 60
"""
FIT = ["--free", "cards.twin_turbo.effects.0.amount=0..8", "--target", "strength:twin_turbo=0+-10"]
SMALL = ["--budget", "360", "--population", "2", "--confirm-games", "60", "-j", "1"]


@pytest.mark.parametrize(
    ("args", "words"),
    [
        (["--free", "cards.twin_turbo.effects.0.amount=0..8", "--target", "speed=3"], "is not a target"),
        (["--free", "cards.warp_drive.count=0..2", "--target", "seat-balance<=2"], "no card with id 'warp_drive'"),
        (
            ["--free", "rules.purchase_cost=1..3", "--target", "strength:warp_drive=0+-2"],
            "no item with id 'warp_drive'",
        ),
        ([*FIT, "--max-changes", "0"], "must be at least 1"),
        (["--free", "cards.twin_turbo.count=0..200", "--target", "seat-balance<=2"], "cards.twin_turbo.count: = 200"),
        # issue 35: a range of one value, a budget below one round, a band no estimate can meet
        (
            ["--free", "cards.twin_turbo.effects.0.amount=5..5", "--target", "strength:twin_turbo=0+-3"],
            "a range of one value leaves nothing to search",
        ),
        ([*FIT, "--budget", "0"], "--budget: must hold at least one round: 1,080 games"),
        (
            ["--free", "cards.twin_turbo.effects.0.amount=0..8", "--target", "strength:twin_turbo=0+-0"],
            "is a band of no width",
        ),
    ],
)
def test_mistakes_are_one_line_before_any_game(tmp_path, args, words):
    path = tmp_path / "s.yaml"
    path.write_text(SCENARIO)
    result = CliRunner().invoke(app, ["fit", str(path), *args, "--out", str(tmp_path / "o")])
    assert result.exit_code == 2 and words in result.stderr and result.stderr.count("\n") == 1, result.output
    assert not (tmp_path / "o").exists()


def test_the_same_seed_gives_the_same_proposal_as_a_variant_the_scenario_takes(tmp_path):
    """A fit stopped by its budget and resumed with a larger one gives what
    one fit of that budget gives: the same rounds, candidates and proposal."""
    path = tmp_path / "s.yaml"
    path.write_text(SCENARIO)

    def fit(out: str, budget: str, *more: str):
        free = ["--free", "cards.twin_turbo.effects.0.amount=0..9", "--target", "strength:twin_turbo=0+-10"]
        args = ["fit", str(path), *free, *SMALL, "--budget", budget, "--out", str(tmp_path / out), *more]
        return CliRunner().invoke(app, args)

    # the probes first (fit.probe: twin_turbo at 0 and 9, 120 games each), then rounds of 360 (below the 1,200
    # of the small grid: a search)
    first = fit("a", "600")
    assert first.exit_code == 0, first.output
    runs = [fit("a", "1080", "--resume"), fit("b", "1080")]  # a second round, whether the first played a check (120)
    assert all(r.exit_code == 0 for r in runs), runs[0].output
    a, b = ((tmp_path / k / "proposal.yaml").read_text() for k in "ab")
    assert a == b, "same seed, same proposal"
    assert pl.read_csv(tmp_path / "a" / "candidates.csv").equals(pl.read_csv(tmp_path / "b" / "candidates.csv"))
    state = json.loads((tmp_path / "b" / "fit.json").read_text())
    assert len(state["rounds"]) == 2 and state["ended"] in ("budget", "met"), "the resumed fit played a second round"
    drawn = {c["cards.twin_turbo.effects.0.amount"] for c in state["candidates"]}
    checks = sum("check_miss" in row for row in state["rounds"])
    assert state["games"] == 120 * (len(drawn) + checks), "values drawn again are not played again (60 x 2 runs)"
    assert state["games"] + state["repeats"] == 240 + 2 * 360 + 120 * checks, "but held against the budget"
    assert [c["cards.twin_turbo.effects.0.amount"] for c in state["candidates"] if c["round"] == -1] == [0, 9]
    variants = yaml.safe_load(a)["variants"]
    assert variants[0]["name"] == "fit" and set(variants[0]["overrides"]) <= {"cards.twin_turbo.effects.0.amount"}
    path.write_text(SCENARIO + yaml.safe_dump({"variants": variants}))
    ((_, proposal),) = variant_scenarios(load_scenario(path))
    from balance.games.horsepower import GAME

    GAME.prepare(proposal)  # the database the proposal makes is one the game takes
    targets = pl.read_csv(tmp_path / "a" / "targets.csv")
    assert targets["figure"].to_list() == ["twin_turbo"] and targets["unit"].to_list() == ["points"]
    assert targets["n"].to_list() == [60], "the held-out games"
    page = (tmp_path / "a" / "index.html").read_text()
    assert "held-out seeds" in page and "variants:" in page
    assert all((tmp_path / "a" / png).stat().st_size > 10_000 for png in ("progress.png", "targets.png"))
    assert "proposal: " in runs[0].stdout and "held-out games the search never played" in runs[0].stdout
    assert runs[0].stdout.startswith(
        "balance fit searched cards.twin_turbo.effects.0.amount (2 rounds of search, 60 games a candidate;"
    )
    # issue 35: a budget too small to play each of 0..9 says which values went untried and what would try them
    tried = sorted({c["cards.twin_turbo.effects.0.amount"] for c in state["candidates"]})
    untried = ", ".join(str(v) for v in range(10) if v not in tried)
    assert f"values no candidate tried: cards.twin_turbo.effects.0.amount: {untried}; a --budget of 1,200" in (
        runs[0].stdout
    )
    shown = [line.strip() for line in runs[0].stdout.splitlines() if line.strip().startswith("strength:twin_turbo")]
    assert len(shown) == 1 and " -> " in shown[0], "the target today -> proposed, with intervals"


def test_a_small_grid_is_played_whole_each_value_once(tmp_path):
    """Issue 35: one whole-number range of 3 values, a budget that holds them
    (3 x 2 runs x 60 games): every value is played exactly once, the proposal
    is the one of least cost among them, and nothing is left untried."""
    path = tmp_path / "s.yaml"
    path.write_text(SCENARIO)
    args = [
        "fit",
        str(path),
        "--free",
        "cards.twin_turbo.effects.0.amount=2..4",
        "--target",
        "strength:twin_turbo=0+-3",
    ]
    result = CliRunner().invoke(app, [*args, *SMALL, "--budget", "720", "--out", str(tmp_path / "g")])
    assert result.exit_code == 0, result.output
    state = json.loads((tmp_path / "g" / "fit.json").read_text())
    played = [c["cards.twin_turbo.effects.0.amount"] for c in state["candidates"]]
    assert sorted(played) == [2, 3, 4] and state["ended"] == "grid" and state["grid"]
    best = min(state["candidates"], key=lambda c: c["cost"])
    assert (
        yaml.safe_load((tmp_path / "g" / "proposal.yaml").read_text())["variants"][0]["overrides"].get(
            "cards.twin_turbo.effects.0.amount", 3
        )
        == best["cards.twin_turbo.effects.0.amount"]
    )
    assert "(each of its 3 combinations played once, 60 games a candidate; " in result.stdout
    assert "values no candidate tried" not in result.stdout
    page = (tmp_path / "g" / "index.html").read_text()
    assert page.index("balance fit searched") < page.index("How it was found")


def test_a_folder_holding_a_fit_is_continued_only_with_resume_and_the_same_settings(tmp_path):
    path = tmp_path / "s.yaml"
    path.write_text(SCENARIO)
    out = tmp_path / "o"
    out.mkdir()
    (out / "fit.json").write_text('{"settings": {}}')
    for more, words in [
        ([], "holds a fit: --resume to continue it, --force to start over"),
        (["--resume"], "the fit here has other settings"),
    ]:
        result = CliRunner().invoke(app, ["fit", str(path), *FIT, *SMALL, "--out", str(out), *more])
        assert result.exit_code == 2 and words in result.stderr and result.stderr.count("\n") == 1, result.output
    assert (out / "fit.json").read_text() == '{"settings": {}}', "the earlier state is left as it was"


def test_a_fit_is_the_same_whatever_the_jobs(tmp_path):
    """Issue 35: -j 1 and -j 2 play the same games (each keyed by seed and id): the same candidates and proposal."""
    path = tmp_path / "s.yaml"
    path.write_text(SCENARIO)
    for jobs in ("1", "2"):
        args = ["fit", str(path), *FIT, *SMALL, "-j", jobs, "--out", str(tmp_path / f"j{jobs}")]
        assert CliRunner().invoke(app, args).exit_code == 0
    assert (tmp_path / "j1" / "proposal.yaml").read_text() == (tmp_path / "j2" / "proposal.yaml").read_text()
    assert (tmp_path / "j1" / "candidates.csv").read_text() == (tmp_path / "j2" / "candidates.csv").read_text()
    assert (tmp_path / "j1" / "targets.csv").read_text() == (tmp_path / "j2" / "targets.csv").read_text()


def test_without_games_the_budget_sets_a_candidates_games_so_a_printed_fit_runs():
    """Issue 43: every `balance fit` line the report printed stopped at once
    (`--budget: must hold at least one round: 360,000 games (9 candidates x 2
    run(s) x 20,000 games), got 100,000`): without --games a candidate now
    plays what the budget holds in four rounds, never more than the scenario's
    games, never fewer than 512 (a budget too small for that is still refused)."""
    from balance.experiments.fit import MIN_ROUNDS, candidate_games

    per = candidate_games(100_000, 2, 9, 20_000)
    assert per == 1388 and MIN_ROUNDS * per * 2 * 9 <= 100_000
    assert candidate_games(100_000, 2, 9, 30) == 30, "a small scenario keeps its own games"
    assert candidate_games(1_000, 2, 9, 20_000) == 512
