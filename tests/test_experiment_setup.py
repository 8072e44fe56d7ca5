"""The experiments' one way of declaring what they share (experiments/setup.py):
the same options on every command, one output-folder rule, one progress line."""

from __future__ import annotations

import inspect

import pytest
import typer
from typer.testing import CliRunner

from balance.cli import app
from balance.errors import UserError
from balance.experiments.setup import ExperimentOptions, held_out_seed, output_folder, round_seed

from .test_tune import DUEL

EXPERIMENTS = ("compare", "strength", "sweep", "strong", "tune", "fit")
SHARED = ("--seed", "--jobs", "--backend", "--scheduler", "--force", "--quiet")


def _options(command: str) -> dict:
    """The command's options by flag (click's, as typer builds them)."""
    found = typer.main.get_command(app).commands[command]
    return {name: p for p in found.params if p.param_type_name == "option" for name in p.opts}


def test_every_experiment_declares_the_shared_options_alike():
    seen = {command: _options(command) for command in EXPERIMENTS}
    for flag in SHARED:
        helps = {c: o[flag].help for c, o in seen.items() if flag in o}
        if flag == "--seed":  # strong replays the run's seed
            assert set(helps) == set(EXPERIMENTS) - {"strong"}
        elif flag == "--force":  # strong's folder is RUN/strong/, not --out
            assert set(helps) == set(EXPERIMENTS)
            helps.pop("strong")
        else:
            assert set(helps) == set(EXPERIMENTS), flag
        assert len(set(helps.values())) == 1, (flag, helps)
    outs = {c: o["--out"].help for c, o in seen.items() if "--out" in o}
    assert set(outs) == set(EXPERIMENTS) - {"strong"}
    assert all(h.startswith("Output folder (default: runs/<name>-") for h in outs.values()), outs
    assert {c for c, o in seen.items() if "--resume" in o} == {"strong", "tune", "fit"}


def test_the_output_folder_refuses_to_mix_or_lose_a_result(tmp_path):
    out = tmp_path / "o"
    assert output_folder(ExperimentOptions(out=out), "s", "strength") == out and out.is_dir()
    (out / "strength.csv").write_text("card\n")
    with pytest.raises(UserError, match="already holds a strength result: add --force"):
        output_folder(ExperimentOptions(out=out), "s", "strength")
    assert output_folder(ExperimentOptions(out=out, force=True), "s", "strength") == out
    with pytest.raises(UserError, match="balance strength keeps no state to resume"):
        output_folder(ExperimentOptions(out=out, resume=True), "s", "strength")
    with pytest.raises(UserError, match="holds no tune to resume; use --force"):
        output_folder(ExperimentOptions(out=out, resume=True), "s", "tune", "tune.json")
    (out / "tune.json").write_text("{}")
    with pytest.raises(UserError, match="holds a tune: --resume to continue it, --force to start over"):
        output_folder(ExperimentOptions(out=out), "s", "tune", "tune.json")
    assert output_folder(ExperimentOptions(out=out, resume=True), "s", "tune", "tune.json") == out
    (tmp_path / "f").write_text("")
    with pytest.raises(UserError, match="is a file, not a folder"):
        output_folder(ExperimentOptions(out=tmp_path / "f"), "s", "sweep")
    assert output_folder(ExperimentOptions(), "duel", "tune", folder="tune-miser").as_posix() == "runs/duel-tune-miser"


def test_the_held_out_confirmation_plays_games_no_search_round_plays():
    rounds = {round_seed(7, r) for r in range(10_000)}
    assert held_out_seed(7) not in rounds and len(rounds) == 10_000
    assert held_out_seed(7) == held_out_seed(7) != held_out_seed(8)


def test_a_tune_in_a_pipe_prints_plain_progress_lines(tmp_path):
    """The GameBar every experiment uses: in a log, lines that say the round,
    never a cut-off bar."""
    path = tmp_path / "duel.yaml"
    path.write_text(DUEL)
    args = ["tune", str(path), "--bot", "miser", "--games-per-eval", "16", "--budget", "300", "--population", "8"]
    result = CliRunner().invoke(app, [*args, "--confirm-games", "64", "-j", "1", "-o", str(tmp_path / "t")])
    assert result.exit_code == 0, result.output
    lines = [line for line in result.stderr.splitlines() if line.startswith("tune miser: ")]
    assert lines and lines[0].startswith("tune miser: round 1/"), result.stderr
    assert "confirmation" in lines[-1] and "━" not in result.stderr
    done = [int(line.split(": ")[2].split("/")[0].replace(",", "")) for line in lines]
    assert done == sorted(done), "the games done never run backwards"


def test_ctrl_c_says_what_was_kept_and_the_command_that_goes_on(tmp_path):
    """Issue 35: an interrupted tune printed a traceback and no --resume line."""
    import subprocess
    import sys

    path = tmp_path / "duel.yaml"
    path.write_text(DUEL)
    script = (
        "import sys, balance.experiments.tune as t\n"
        "def stop(*a, **k): raise KeyboardInterrupt\n"
        "t._race = stop\n"
        "from balance.cli import main\n"
        f"sys.argv = ['balance', 'tune', {str(path)!r}, '--bot', 'miser', '--budget', '300', "
        f"'--out', {str(tmp_path / 't')!r}, '-j', '1']\n"
        "main()\n"
    )
    done = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, timeout=120)
    assert done.returncode == 130, done.stderr
    assert "Traceback" not in done.stderr and "Exception ignored" not in done.stderr, done.stderr
    line = done.stderr.strip().splitlines()[-1]
    assert line.startswith("interrupted: kept the search's state after its last finished round; balance tune ")
    assert line.endswith("--resume goes on from there")
    from balance.cli import interrupted_line

    assert interrupted_line(["strength", "s.yaml", "--force"]) == (
        "interrupted: the output folder holds an unfinished result; balance strength s.yaml --force plays it again"
    )


def test_help_shows_no_value_beside_a_flag():
    """Issue 35: --help showed flags (--force, --quiet, --all...) as taking a <bool>."""
    for command in ("run", "report", "compare", "strength", "sweep", "strong", "tune", "fit", "trace"):
        shown = CliRunner().invoke(app, [command, "--help"], terminal_width=120).stdout
        flagged = [line for line in shown.splitlines() if "<bool>" in line and "--help" not in line]
        assert not flagged, (command, flagged)
        assert "--force" in shown or command in ("report", "trace"), command


def test_strength_the_report_and_rebalance_call_fair_the_same_band_by_default():
    """One fair band (+-3 points) unless --tolerance says otherwise: the report read +-2 while rebalance
    took a database to +-3, so the report after a rebalance called too strong what rebalance called fair."""
    from balance.analysis.band import FAIR_BAND
    from balance.analysis.strength import strength_table
    from balance.experiments.rebalance import RebalanceOptions
    from balance.experiments.strength import Design
    from balance.report.causal import causal_lines

    assert FAIR_BAND == 3.0
    for command in ("strength", "report", "rebalance"):
        assert _options(command)["--tolerance"].default == FAIR_BAND, command
    assert RebalanceOptions().tolerance == FAIR_BAND
    assert Design(1024).tolerance == FAIR_BAND / 100
    for function in (strength_table, causal_lines):
        assert inspect.signature(function).parameters["tolerance"].default == FAIR_BAND / 100
