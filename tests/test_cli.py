"""The `balance` command as a user meets it: output, exit codes, one-line errors."""

from __future__ import annotations

import subprocess
import sys

import pytest
from typer.testing import CliRunner

from balance import __version__
from balance.cli import app

from .conftest import CARDS, ROOT

runner = CliRunner()


def run(*args: str):
    return runner.invoke(app, list(args), catch_exceptions=False)


def test_version():
    result = run("--version")
    assert result.exit_code == 0 and result.stdout.strip() == f"balance {__version__}"


@pytest.mark.parametrize("command", [[], ["validate"], ["cards"]])
def test_help_on_every_command(command):
    result = run(*command, "--help")
    assert result.exit_code == 0 and "Usage" in result.stdout


def test_validate_prints_the_rulebook_counts():
    result = run("validate", str(CARDS))
    assert result.exit_code == 0
    assert "77 parts, 20 starters, 18 debris, 32 playbooks" in result.stdout
    assert f"{CARDS}: ok" in result.stdout
    for word in ("engine", "investment", "flag P", "flag M"):
        assert word in result.stdout


def test_validate_shows_warnings_and_still_exits_0(tmp_path):
    path = tmp_path / "cards.yaml"
    path.write_text(CARDS.read_text().replace("    count: 18\n", "    count: 17\n"))
    result = run("validate", str(path))
    assert result.exit_code == 0
    assert "warning:" in result.stdout and "17 debris (the rulebook has 18)" in result.stdout


def test_cards_filters_by_type_and_flag():
    engines = run("cards", "--db", str(CARDS), "--type", "engine")
    assert engines.exit_code == 0 and "Twin Turbo" in engines.stdout and "Oil Baron" not in engines.stdout
    puzzles = run("cards", "--db", str(CARDS), "--flag", "P")
    assert puzzles.exit_code == 0 and "Gear Collector" in puzzles.stdout and "V8 Block" not in puzzles.stdout
    assert "4 cards, 9 copies" in puzzles.stdout


def test_cards_rejects_an_unknown_type():
    result = run("cards", "--db", str(CARDS), "--type", "rocket")
    assert result.exit_code == 2
    assert result.stderr.strip().startswith("error: --type: unknown type 'rocket' (known: debris, engine,")


def test_console_script_gives_one_line_and_exit_2_for_a_bad_database(tmp_path):
    """The acceptance check of issue 2: an unknown op on some line names the file and line."""
    text = CARDS.read_text()
    old = '      - {op: drive, amount: 6}\n    text: "+6 Drive."'
    line = text[: text.index(old)].count("\n") + 1
    bad = tmp_path / "bad.yaml"
    bad.write_text(text.replace(old, old.replace("drive", "hyperdrive", 1)))
    proc = subprocess.run(
        [sys.executable, "-m", "balance", "validate", str(bad)], capture_output=True, text=True, cwd=ROOT
    )
    assert proc.returncode == 2
    assert proc.stdout == ""
    lines = proc.stderr.splitlines()
    assert len(lines) == 1 and "Traceback" not in proc.stderr
    assert lines[0].startswith(f"error: {bad}:{line}: cards.twin_turbo.effects.0.op: unknown op 'hyperdrive'")


def test_missing_default_database_is_a_user_error(tmp_path):
    proc = subprocess.run([sys.executable, "-m", "balance", "validate"], capture_output=True, text=True, cwd=tmp_path)
    assert proc.returncode == 2 and proc.stderr.strip() == "error: cards.yaml: file: no such file"


def test_unknown_game_lists_the_known_ones():
    result = run("validate", "--game", "monopoly", str(CARDS))
    assert (
        result.exit_code == 2
        and "unknown game 'monopoly' (known: horsepower, heat, downforce, shuffle_gp)" in result.stderr
    )


def test_the_command_line_loads_no_game_until_a_command_needs_one():
    """`balance --help` stays quick: importing the CLI imports no game's engine,
    nor polars (games/__init__.py imports a game when it is first asked for)."""
    import subprocess
    import sys

    code = (
        "import sys, balance.cli; "
        "loaded = [m for m in sys.modules if m.startswith(('balance.games.', 'polars')) and m != 'balance.games.base']; "
        "print(sorted(loaded))"
    )
    shown = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout.strip()
    assert shown == "[]"
    from balance.games import GAMES, get_game

    assert list(GAMES) == ["horsepower", "heat", "downforce", "shuffle_gp"] and "heat" in GAMES
    assert get_game("heat").name == "heat"
