"""The designer's loop (issue 20): progress on every long command, within a
chunk and readable in a log; no silent overwrites; a metric that would read NaN
is refused before any game; Ctrl-C says what was saved and how to finish; each
command ends with the next one."""

from __future__ import annotations

import io
import re

import pytest
from rich.console import Console
from typer.testing import CliRunner

from balance import progress
from balance.cli import app
from balance.experiments.setup import ExperimentOptions
from balance.games.chance import Streams

from .conftest import CARDS, ROOT

SCENARIO = f"""name: loop
game: horsepower
cards: {CARDS}
players: 3
bots: [racer, economist, balanced]
games: 120
seed: 4
chunk_size: 60
variants:
  - name: same
"""
LINE = re.compile(
    r"^(?P<what>.+): (?P<done>[\d,]+)/(?P<total>[\d,]+) games \(\d+%\), [\d,]+ games/s, \d+:\d\d:\d\d elapsed"
)


def _lines(text: str) -> list[re.Match]:
    return [m for m in map(LINE.match, text.splitlines()) if m]


def test_a_log_gets_readable_progress_lines_from_every_long_command(tmp_path):
    """Not a terminal (CI, a pipe): whole lines, what is running, games done of all."""
    path = tmp_path / "s.yaml"
    path.write_text(SCENARIO)
    runner = CliRunner()
    ran = runner.invoke(app, ["run", str(path), "--out", str(tmp_path / "run"), "-j", "1"])
    assert ran.exit_code == 0, ran.output
    last = _lines(ran.stderr)[-1]
    assert (last["done"], last["total"]) == ("120", "120")
    assert ran.stdout.rstrip().endswith(f"next: balance report {tmp_path / 'run'}")
    compared = runner.invoke(app, ["compare", str(path), "--out", str(tmp_path / "cmp"), "-j", "1"])
    assert compared.exit_code == 0, compared.output
    lines = _lines(compared.stderr)
    assert lines[0]["what"].startswith("compare: baseline (1/2)") and lines[-1]["what"] == "compare: same (2/2)"
    assert (lines[-1]["done"], lines[-1]["total"]) == ("240", "240"), "both runs' games, in one bar"
    swept = runner.invoke(
        app,
        ["sweep", str(path), "--set", "rules.purchase_cost=2,3", "--metric", "seat:0", "--out", str(tmp_path / "sw")]
        + ["-j", "1"],
    )
    assert swept.exit_code == 0, swept.output
    last = _lines(swept.stderr)[-1]
    assert last["what"] == "sweep: rules.purchase_cost = 3 (2/2)" and last["done"] == last["total"] == "240"
    strength = runner.invoke(
        app, ["strength", str(path), "--cards", "v8_block", "--out", str(tmp_path / "st"), "-j", "1"]
    )
    assert strength.exit_code == 0, strength.output
    last = _lines(strength.stderr)[-1]
    assert last["what"] == "strength: 1 item(s) to 120 games" and last["done"] == last["total"] == "240"


def test_the_bar_moves_within_a_chunk(tmp_path):
    """A worker writes how far its games have got; the parent adds it to the chunks written."""
    from balance.games import get_game
    from balance.runner import RunOptions, _prepared, resolve_scenario

    path = tmp_path / "s.yaml"
    path.write_text(SCENARIO)
    scenario = resolve_scenario(path, RunOptions())
    game = get_game("horsepower")
    tracker = progress.ChunkProgress(
        tmp_path / progress.FOLDER / "chunk-0", lambda st: game.progress(_prepared(scenario), st), every=0.0
    )
    seen: list[int] = []

    def after_turn(st, *rest):
        tracker(st, *rest)
        seen.append(progress.games_in_flight(tmp_path))

    game.play_chunk(_prepared(scenario), scenario, 0, 0, 60, Streams(1, 0, 60), after_turn)
    assert seen[0] < 10 and seen[-1] == 60, "how far the 60 games have got: little after a turn, all at the end"
    assert 0 < seen[len(seen) // 2] < 60, "half way through the chunk, part of its games' way is counted"
    tracker.close()
    assert progress.games_in_flight(tmp_path) == 0, "closed before the chunk is returned: never counted twice"


def test_an_eta_line_for_a_log():
    line = progress.GameBar.line("strength: v8_block (2/5)", 3000, 12000, 1500.0, 2.0)
    assert line == "strength: v8_block (2/5): 3,000/12,000 games (25%), 1,500 games/s, 0:00:02 elapsed, ETA 0:00:06"
    console = Console(file=io.StringIO(), force_terminal=False, width=40, record=True)
    with progress.GameBar(console, "run", every=3600) as bar:
        for done in (0, 50, 100):
            bar("", done, 100)
    text = console.export_text()
    assert text.startswith("planned: run, 100 games"), "before the first game: how many, about how long"
    assert text.count("\n") == 3 and "run: 0/100" in text and "run: 100/100" in text, "first, then last, no more"


@pytest.mark.parametrize("command", ["compare", "strength", "sweep"])
def test_an_earlier_result_is_not_overwritten_without_force(tmp_path, command):
    path = tmp_path / "s.yaml"
    path.write_text(SCENARIO)
    out = tmp_path / "out"
    out.mkdir()
    (out / "keep.csv").write_text("a good result\n")
    extra = {"compare": [], "strength": ["--cards", "v8_block"], "sweep": ["--set", "rules.purchase_cost=2"]}[command]
    refused = CliRunner().invoke(app, [command, str(path), "--out", str(out), *extra])
    assert refused.exit_code == 2 and "already holds a" in refused.stderr and "--force" in refused.stderr
    assert refused.stderr.count("\n") == 1 and (out / "keep.csv").read_text() == "a good result\n"
    assert not (out / "baseline").exists(), "refused before any game"


@pytest.mark.parametrize(
    ("game", "metric", "words"),
    [
        ("horsepower", "card:nosuchcard", "no player drafts 'nosuchcard'"),
        ("horsepower", "bot:nobody", "no bot 'nobody' in this scenario"),
        ("horsepower", "seat:7", "seat '7' is not a seat of this scenario"),
        ("shuffle_gp", "card:comet_redline", "strength:comet_redline measures it by experiment"),
        ("downforce", "card:s12", "no player drafts 's12' in this game"),
    ],
)
def test_a_metric_that_would_read_nan_is_refused_before_any_game(tmp_path, game, metric, words):
    files = {"horsepower": "cards.yaml", "shuffle_gp": "shuffle_gp.yaml", "downforce": "downforce.yaml"}
    bots = {"horsepower": "[racer, economist, balanced]", "shuffle_gp": "[balanced, aggressive, defensive]"}
    path = tmp_path / "s.yaml"
    path.write_text(
        f"name: nan\ngame: {game}\ncards: {ROOT / files[game]}\nplayers: 3\n"
        f"bots: {bots.get(game, '[balanced, shark, miser]')}\ngames: 60\nseed: 1\n"
    )
    setting = {
        "horsepower": "rules.purchase_cost=2",
        "shuffle_gp": "rules.max_turns=300",
        "downforce": "rules.max_turns=300",
    }
    result = CliRunner().invoke(
        app, ["sweep", str(path), "--set", setting[game], "--metric", metric, "--out", str(tmp_path / "o")]
    )
    assert result.exit_code == 2 and words in result.stderr, result.output
    assert not (tmp_path / "o").exists()


def test_ctrl_c_says_what_was_saved_and_how_to_finish(tmp_path, monkeypatch):
    from balance import runner

    real = runner.run_chunk

    def interrupted(scenario, chunk, *args, **kwargs):
        if chunk == 1:
            raise KeyboardInterrupt
        return real(scenario, chunk, *args, **kwargs)

    monkeypatch.setattr(runner, "run_chunk", interrupted)
    path = tmp_path / "s.yaml"
    path.write_text(SCENARIO)
    result = CliRunner().invoke(app, ["run", str(path), "--out", str(tmp_path / "run"), "-j", "1"])
    assert result.exit_code == 130
    assert f"interrupted: 1 of 2 chunks saved in {tmp_path / 'run'}; finish the run with: balance run" in result.stderr
    assert "--resume" in result.stderr and not (tmp_path / "run" / progress.FOLDER).exists()


def test_a_mistake_before_any_game_is_one_line_without_a_bar(tmp_path):
    path = tmp_path / "s.yaml"
    path.write_text(SCENARIO)
    for args in (["run", str(tmp_path / "missing.yaml")], ["run", str(path), "--games", "0"]):
        result = CliRunner().invoke(app, [*args, "--out", str(tmp_path / "o")])
        assert result.exit_code == 2 and result.stderr.startswith("error: ") and result.stderr.count("\n") == 1


def test_two_runs_on_disk_compare_exactly_as_balance_compare_does(tmp_path):
    """`balance compare BEFORE_RUN AFTER_RUN`: no game played again, the same table
    as a compare of the same change on the same seeds; runs that cannot be paired
    are compared as independent samples, saying which setting differs."""
    import polars as pl

    from balance.experiments.compare import compare

    path = tmp_path / "s.yaml"
    path.write_text(
        SCENARIO.replace("  - name: same\n", "  - name: v9\n    overrides: {cards.v8_block.effects.0.amount: 9}\n")
    )
    whole = compare(path, options=ExperimentOptions(out=tmp_path / "cmp", jobs=1))
    result = CliRunner().invoke(
        app,
        ["compare", str(tmp_path / "cmp" / "baseline"), str(tmp_path / "cmp" / "v9"), "--out", str(tmp_path / "two")],
    )
    assert result.exit_code == 0, result.output
    two = pl.read_csv(tmp_path / "two" / "compare.csv")
    assert two.drop("variant").equals(pl.read_csv(tmp_path / "cmp" / "compare.csv").drop("variant"))
    assert whole.table.height == two.height and (tmp_path / "two" / "index.html").exists()
    # issue 35: an unfinished run is refused in one line, naming it
    import json

    manifest = json.loads((tmp_path / "cmp" / "v9" / "manifest.json").read_text())
    (tmp_path / "half").mkdir()
    (tmp_path / "half" / "manifest.json").write_text(json.dumps(manifest | {"status": "interrupted"}))
    half = CliRunner().invoke(app, ["compare", str(tmp_path / "cmp" / "baseline"), str(tmp_path / "half")])
    assert half.exit_code == 2 and "is not a complete run (interrupted): finish it first" in half.stderr
    assert half.stderr.count("\n") == 1
    # issue 35: what changed between the databases, whether paired, and the changed item's rows first
    lines = [line.strip() for line in result.stdout.splitlines()]
    assert lines[0] == "what changed:" and lines[1] == "cards.v8_block.effects.0.amount: 3 -> 9"
    assert lines[2].startswith("Paired: the same seed (4)")
    shown = [line for line in lines if line.startswith("v9: ")]
    assert shown[0].split(": ")[1].endswith("v8_block") and all("lap" not in line for line in shown[:3])
    page = (tmp_path / "two" / "index.html").read_text()
    assert "<code>cards.v8_block.effects.0.amount: 3 -&gt; 9</code>" in page and "Paired: the same seed" in page
    assert page.index("What changed") < page.index("forest.png")
    other = tmp_path / "other.yaml"
    other.write_text(SCENARIO.split("variants:")[0].replace("seed: 4", "seed: 5"))
    CliRunner().invoke(app, ["run", str(other), "--out", str(tmp_path / "seed5"), "-q"])
    unpaired = CliRunner().invoke(
        app,
        ["compare", str(tmp_path / "cmp" / "baseline"), str(tmp_path / "seed5"), "--out", str(tmp_path / "unpaired")],
    )
    assert unpaired.exit_code == 0 and "Not paired: seed differs" in " ".join(unpaired.stdout.split())
    table = pl.read_csv(tmp_path / "unpaired" / "compare.csv").filter(pl.col("metric") == "win rate by seat")
    assert (table["ci_high"] - table["ci_low"] > 0).all(), "two samples: never the exact zero of the same deals"
    assert "Not paired: seed differs" in (tmp_path / "unpaired" / "index.html").read_text()


def test_set_tries_a_change_without_editing_a_file(tmp_path):
    """Issue 35: `--set PATH=VALUE` on run (its own database, its own default
    folder) and on compare (one more variant against the baseline); mistakes
    are one line naming --set, before any game."""
    import json

    path = tmp_path / "s.yaml"
    path.write_text(SCENARIO.split("variants:")[0])
    runner = CliRunner()
    done = runner.invoke(
        app, ["run", str(path), "--set", "cards.v8_block.effects.0.amount=9", "-o", str(tmp_path / "r"), "-q"]
    )
    assert done.exit_code == 0, done.output
    manifest = json.loads((tmp_path / "r" / "manifest.json").read_text())
    assert manifest["scenario"]["overrides"] == {"cards.v8_block.effects.0.amount": 9}
    assert manifest["scenario"]["name"] == "loop-set"
    v8 = next(c for c in manifest["database"]["cards"] if c["id"] == "v8_block")
    assert v8["effects"][0]["amount"] == 9
    compared = runner.invoke(
        app, ["compare", str(path), "--set", "cards.v8_block.effects.0.amount=9", "-o", str(tmp_path / "c"), "-j", "1"]
    )
    assert compared.exit_code == 0, compared.output
    assert compared.stdout.startswith("variant set: cards.v8_block.effects.0.amount=9")
    assert (tmp_path / "c" / "set" / "manifest.json").exists() and (tmp_path / "c" / "baseline").is_dir()
    for args, words in (
        (["--set", "nope"], "expected PATH=VALUE"),
        (["--set", "cards.warp_drive.count=1"], "no card with id 'warp_drive'"),
        (["--set", "cards.v8_block.count=[1]"], "is not a number, a word or true/false"),
    ):
        bad = runner.invoke(app, ["run", str(path), *args, "-o", str(tmp_path / "bad")])
        assert bad.exit_code == 2 and words in bad.stderr and bad.stderr.count("\n") == 1, bad.output
        assert not (tmp_path / "bad").exists()


def test_did_you_mean_for_unknown_ids_paths_and_scenario_files(tmp_path, monkeypatch):
    """Issue 35: a mistyped id, path or scenario file names the closest one;
    a missing scenario lists the shipped ones."""
    monkeypatch.chdir(ROOT)
    runner = CliRunner()
    typo = runner.invoke(app, ["run", "scenarios/four-player-mixd.yaml", "-o", str(tmp_path / "o")])
    assert typo.exit_code == 2 and "(did you mean 'scenarios/four-player-mixed.yaml'?)" in typo.stderr
    assert "scenarios in scenarios: " in typo.stderr and "two-player-duel" in typo.stderr
    card = runner.invoke(app, ["strength", "scenarios/four-player-mixed.yaml", "--cards", "twin_trbo"])
    assert card.exit_code == 2 and "(did you mean 'twin_turbo'?)" in card.stderr
    path = runner.invoke(
        app, ["run", "scenarios/four-player-mixed.yaml", "--set", "rule.purchase_cost=2", "-o", str(tmp_path / "o")]
    )
    assert path.exit_code == 2 and "(did you mean 'rules'?)" in path.stderr, path.stderr
    bot = runner.invoke(app, ["tune", "scenarios/four-player-mixed.yaml", "--bot", "racr", "-o", str(tmp_path / "t")])
    assert bot.exit_code == 2 and "(did you mean 'racer'?)" in bot.stderr


def test_fit_help_shows_its_example_whole_at_eighty_columns(monkeypatch):
    """Issue 35: the fit example was cut off ("...amount=…") in an 80-column terminal."""
    monkeypatch.setenv("COLUMNS", "80")
    result = CliRunner().invoke(app, ["fit", "--help"])
    text = " ".join(result.stdout.split())
    assert "cards.twin_turbo.effects.0.amount=2..8 --target strength:twin_turbo=0+-2" in text
    assert "…" not in result.stdout


def test_a_command_says_how_many_games_and_about_how_long_before_its_first_game():
    """Issue 43, item 1: the plan line, at this machine's last rate of the same command once there is one."""
    progress.remember_rate("fit", 2000.0)
    console = Console(file=io.StringIO(), force_terminal=False, width=200, record=True)
    with progress.GameBar(console, "fit", every=3600) as bar:
        bar("probing", 0, 19_432)
    assert (
        console.export_text().splitlines()[0]
        == "planned: fit, 19,432 games, about 0:00:10 (at 2,000 games/s, its last rate here)"
    )
    console = Console(file=io.StringIO(), force_terminal=False, width=200, record=True)
    with progress.GameBar(console, "never ran here", every=3600) as bar:
        bar("", 0, 500)
    assert console.export_text().splitlines()[0] == (
        "planned: never ran here, 500 games (its time: the ETA below, from its own rate)"
    )


def test_a_scale_knob_that_is_not_a_share_is_one_line(tmp_path, monkeypatch):
    """BALANCE_SCALE (the printed-commands tests' knob) in (0, 1]; anything else is refused before any game."""
    from balance.scale import scaled

    from .conftest import one_line

    assert scaled(400_000) == 400_000, "unset: nothing changes"
    monkeypatch.setenv("BALANCE_SCALE", "0.001")
    assert scaled(400_000) == 400 and scaled(400_000, floor=1_344) == 1_344
    monkeypatch.setenv("BALANCE_SCALE", "2")
    path = tmp_path / "s.yaml"
    path.write_text(SCENARIO)
    line = one_line("strength", path, "--budget", "50000", "--out", tmp_path / "o")
    assert line == "error: BALANCE_SCALE: environment: must be a number in (0, 1], got '2'"
