"""`balance strong RUN` (issue 18): the run's scenario with `tuned` in every
seat but Legends, a skill ladder on common random numbers, and the report's
"Under strong play" section beside the run's own figures."""

from __future__ import annotations

import json
import re
import shutil

import polars as pl
import pytest
from typer.testing import CliRunner

from balance.cli import app
from balance.experiments.strong import rungs, strong_field
from balance.report.headline import difference_label
from balance.runner import RunOptions, run
from balance.scenario import load_scenario

from .conftest import ROOT

DUEL = f"""name: strongduel
game: downforce
cards: {ROOT / "downforce.yaml"}
players: 3
bots: [balanced, miser, random]
games: 96
seed: 3
chunk_size: 32
"""


def test_the_strong_field_puts_tuned_in_every_seat_but_legends(tmp_path):
    path = tmp_path / "h.yaml"
    path.write_text(
        f"name: h\ngame: heat\ncards: {ROOT / 'heat.yaml'}\nplayers: 4\nbots: [balanced, legend, cautious, random]\n"
    )
    heat = load_scenario(path)
    assert strong_field(heat) == ["tuned", "legend", "tuned", "tuned"]
    assert strong_field(heat, "cautious") == ["cautious", "legend", "tuned", "tuned"]
    assert rungs(heat)[0] == "random" and "legend" not in rungs(heat) and "tuned" not in rungs(heat)
    path.write_text(DUEL.replace("bots: [balanced, miser, random]", "bots: {pool: [balanced, miser]}"))
    assert strong_field(load_scenario(path)) == ["tuned"] * 3


@pytest.fixture(scope="module")
def strong_run(tmp_path_factory):
    tmp_path = tmp_path_factory.mktemp("strong")
    path = tmp_path / "s.yaml"
    path.write_text(DUEL)
    run(path, RunOptions(out=tmp_path / "run", jobs=1))
    result = CliRunner().invoke(app, ["strong", str(tmp_path / "run"), "--ladder-games", "64", "-j", "1", "-q"])
    assert result.exit_code == 0, result.output
    return tmp_path


def test_strong_plays_the_tuned_field_and_a_ladder_paired_by_deal(strong_run):
    folder = strong_run / "run" / "strong"
    ladder = pl.read_csv(folder / "ladder.csv")
    # issue 34: no tautological `tuned` row (25% by construction); its strength is the best challenger's
    assert ladder["bot"].to_list() == ["random", "balanced", "shark", "miser"]
    assert ladder["games"].to_list() == [64] * 4
    bots = pl.read_parquet(folder / "players").group_by("bot").len()
    assert bots["bot"].to_list() == ["tuned"] and bots["len"].item() == 96 * 3
    # the same ladder whatever the jobs: every rung plays chunk c of the same seed
    again = CliRunner().invoke(
        app, ["strong", str(strong_run / "run"), "--ladder-games", "64", "-j", "2", "-q", "--force"]
    )
    assert again.exit_code == 0, again.output
    assert pl.read_csv(folder / "ladder.csv").equals(ladder)


def test_the_report_sets_the_run_beside_the_tuned_field(strong_run):
    result = CliRunner().invoke(app, ["report", str(strong_run / "run"), "--out", str(strong_run / "rep")])
    assert result.exit_code == 0, result.output
    page = (strong_run / "rep" / "index.html").read_text()
    section = page[page.index("<h2>Under strong play</h2>") : page.index("<h2>Charts")]
    assert "tuned, tuned, tuned" in section and "Win rate by seat" in section and "Skill ladder" in section
    # issue 34: no item figure from associations; the experiment in both fields is what the section needs
    assert "measured by experiment in both fields" in section and "<th>difference</th>" not in section
    assert f"balance report {strong_run / 'run'} --measure and balance strong {strong_run / 'run'} --measure" in section
    assert section.count("<tr>") == (1 + 3) + (1 + 4), "the seats and the ladder, each with its header"
    assert (strong_run / "rep" / "skill_ladder.png").read_bytes()[:4] == b"\x89PNG"
    positions = pl.read_csv(strong_run / "rep" / "strong_play_positions.csv")
    assert positions["seat"].to_list() == [0, 1, 2] and "win_rate_strong_pct" in positions.columns


def test_measured_in_both_fields_each_item_gets_a_label_from_the_difference(tmp_path):
    """Heat's seven studied cards, a small race each: both fields measured by
    experiment, then one row an item with the difference and its label."""
    path = tmp_path / "h.yaml"
    path.write_text(
        f"name: hs\ngame: heat\ncards: {ROOT / 'heat.yaml'}\nplayers: 3\nbots: [balanced, aggressive, cautious]\n"
        "overrides: {rules.track: italia}\ngames: 40\nseed: 2\nchunk_size: 40\n"
    )
    run_dir = tmp_path / "run"
    run(path, RunOptions(out=run_dir, jobs=1))
    # the first pass alone (40 races x 7 items and the baseline's): the labels need both fields, not precision
    for command in (["report", str(run_dir), "--out", str(tmp_path / "r0")], ["strong", str(run_dir), "--force"]):
        extra = ["--ladder-games", "16"] if command[0] == "strong" else []
        result = CliRunner().invoke(app, [*command, *extra, "--measure", "--budget", "320", "-j", "1", "-q"])
        assert result.exit_code == 0, result.output
    assert (run_dir / "strong" / "strength" / "strength.csv").is_file()
    CliRunner().invoke(app, ["report", str(run_dir), "--out", str(tmp_path / "rep")])
    page = (tmp_path / "rep" / "index.html").read_text()
    section = page[page.index("<h2>Under strong play</h2>") : page.index("<h2>Charts")]
    assert "<th>difference</th>" in section and "measured by experiment in both fields" not in section
    labels = re.findall(r"<td>(holds|changes|reverses|too few games|measured in one field only)</td>", section)
    assert len(labels) == 7 and section.count("<tr>") == (1 + 3) + (1 + 4) + (1 + len(labels)), "seats, ladder, items"


def test_the_best_challenger_against_tuned_replaces_the_tautological_row(strong_run, tmp_path):
    """Issue 34: a fresh tune of a tuned copy against tuned everywhere else,
    held out; the same as balance tune --exploit on the scenario."""
    shutil.copytree(strong_run, tmp_path, dirs_exist_ok=True)
    run_dir = tmp_path / "run"
    args = ["strong", str(run_dir), "--force", "--ladder-games", "16", "--exploit-budget", "600", "-j", "1", "-q"]
    assert CliRunner().invoke(app, args).exit_code == 0
    figures = json.loads((run_dir / "strong" / "exploit" / "exploit.json").read_text())
    assert figures["budget"] == 600 and figures["gain_low"] <= figures["gain"] <= figures["gain_high"]
    CliRunner().invoke(app, ["report", str(run_dir), "--out", str(tmp_path / "rep")])
    page = (tmp_path / "rep" / "index.html").read_text()
    assert "Best challenger found against tuned: a fresh tune (600 games) of a tuned copy" in page
    assert f"a gain of {100 * figures['gain']:+.1f} points" in page
    exploit = CliRunner().invoke(
        app,
        ["tune", str(tmp_path / "s.yaml"), "--exploit", "--budget", "600", "--confirm-games", "64"]
        + ["--games-per-eval", "16", "--population", "8", "-j", "1", "-q", "--out", str(tmp_path / "ex")],
    )
    assert exploit.exit_code == 0, exploit.output
    assert "tuned" in (tmp_path / "ex" / "tuned.yaml").read_text()
    refused = CliRunner().invoke(app, ["tune", str(tmp_path / "s.yaml"), "--exploit", "--bot", "miser"])
    assert refused.exit_code == 2 and "--exploit tunes tuned itself" in refused.stderr


def test_a_run_played_again_makes_its_strong_run_stale(strong_run, tmp_path):
    shutil.copytree(strong_run, tmp_path, dirs_exist_ok=True)
    strong_run = tmp_path
    run(strong_run / "s.yaml", RunOptions(out=strong_run / "run", jobs=1, force=True))
    CliRunner().invoke(app, ["report", str(strong_run / "run"), "--out", str(strong_run / "rep")])
    page = (strong_run / "rep" / "index.html").read_text()
    assert "belongs to an earlier run of this folder" in page
    assert f"balance strong {strong_run / 'run'} --force" in page


def test_a_run_never_played_strong_says_how(tmp_path):
    path = tmp_path / "s.yaml"
    path.write_text(DUEL)
    run(path, RunOptions(out=tmp_path / "run", jobs=1))
    CliRunner().invoke(app, ["report", str(tmp_path / "run"), "--out", str(tmp_path / "rep")])
    assert (
        f"not measured for this run yet. <code>balance strong {tmp_path / 'run'}</code>"
        in (tmp_path / "rep" / "index.html").read_text()
    )


@pytest.mark.parametrize(
    "args, message",
    [
        (["--ladder-games", "2"], "ladder-games: must be between 8 and"),
        (["--games", "0"], "games: must be at least 1"),
    ],
)
def test_strong_mistakes_are_one_line_before_any_game(tmp_path, args, message):
    path = tmp_path / "s.yaml"
    path.write_text(DUEL)
    run(path, RunOptions(out=tmp_path / "run", jobs=1))
    result = CliRunner().invoke(app, ["strong", str(tmp_path / "run"), *args])
    assert result.exit_code == 2 and message in result.stderr, result.stderr
    assert len(result.stderr.strip().splitlines()) == 1 and not (tmp_path / "run" / "strong").exists()


def test_a_label_under_strong_play_comes_from_the_test_of_the_difference():
    """Issue 34: "gone" meant only "no longer significant"; now each label is a
    test of the difference between the two fields' causal figures."""

    def row(change, low, high, verdict):
        return {"change": change, "ci_low": low, "ci_high": high, "games": 512, "verdict": verdict}

    main = row(0.126, 0.09, 0.162, "too strong")
    # significant here, not there, but the intervals overlap widely: no evidence of a change
    text, label = difference_label(main, row(0.048, -0.033, 0.129, "undecided"))
    assert label == "too few games" and text.startswith("-7.8 points")
    assert difference_label(main, row(0.10, 0.05, 0.15, "too strong"))[1] == "holds"
    assert difference_label(main, row(0.30, 0.26, 0.34, "too strong"))[1] == "changes", "same sign, far apart"
    assert difference_label(main, row(-0.10, -0.14, -0.06, "too weak"))[1] == "reverses"
    assert difference_label(main, row(0.0, -0.015, 0.015, "fair"))[1] == "changes"
    assert difference_label(main, None)[1] == "measured in one field only"
    d, _ = difference_label(row(0.1, 0.0804, 0.1196, "too strong"), row(0.2, 0.1804, 0.2196, "too strong"))
    # two standard errors of 0.01: the difference 0.1 with half width 1.96 x sqrt(2) x 0.01
    assert d == "+10.0 points (+7.2 to +12.8)"


@pytest.mark.parametrize("game", ["horsepower", "heat", "downforce", "shuffle_gp"])
def test_every_game_ships_a_tuned_profile_made_by_balance_tune(game):
    """bots.yaml's `tuned`: a whole profile of the game's model, with the
    command that made it (balance tune --harden, issue 34), its date and its
    exploitability in the comment above it (docs/bots.md)."""
    from balance.games import GAMES

    profile = GAMES[game].profiles(None)["tuned"]
    assert not getattr(profile, "legend", False) and profile.noise <= 0.05
    text = (ROOT / "balance" / "games" / game / "bots.yaml").read_text()
    head = text[: text.index("\ntuned:")].rsplit("\n\n", 1)[-1]
    assert "balance tune scenarios/" in head and "--harden" in head and "2026-" in head, head
    assert "Exploitability: the best challenger" in head and " points (" in head, head
