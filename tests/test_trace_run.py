"""`balance trace RUN_DIR --game-number N`: exactly game N of that run (its seed
and games from the manifest), whatever flags the run was made with; a game
depends on its seed and id alone, not the run's chunks; and the one-line
refusals when that cannot be."""

from __future__ import annotations

import re

import polars as pl
import pytest
from typer.testing import CliRunner

from balance import load_run
from balance.cli import app

from .conftest import CARDS, ROOT

runner = CliRunner()

HORSEPOWER = """name: tiny
game: horsepower
cards: {cards}
players: 3
bots: [racer, economist, random]
games: 400
chunk_size: 16
"""


def cli(*args) -> object:
    return runner.invoke(app, [str(a) for a in args], catch_exceptions=False)


def make_run(folder, text: str, *flags) -> tuple:
    """(scenario file, run directory) of a run of `text` made with `flags`."""
    folder.mkdir(parents=True, exist_ok=True)
    scenario, out = folder / "s.yaml", folder / "run"
    scenario.write_text(text)
    result = cli("run", scenario, "--out", out, "--jobs", 1, "--quiet", *flags)
    assert result.exit_code == 0, result.output
    return scenario, out


def game_row(out, game: int) -> dict:
    return load_run(out)["games"].filter(pl.col("game_id") == game).collect().row(0, named=True)


@pytest.fixture(scope="module")
def horsepower_run(tmp_path_factory):
    """300 games in chunks of 128 (the last one 44) with seed 9: none of it the scenario's own."""
    text = HORSEPOWER.format(cards=CARDS)
    return make_run(tmp_path_factory.mktemp("hp"), text, "--games", 300, "--chunk-size", 128, "--seed", 9)


def test_trace_of_a_run_directory_is_that_game_of_the_run(horsepower_run):
    _, out = horsepower_run
    result = cli("trace", out, "--game-number", 290)
    assert result.exit_code == 0, result.output
    lines = result.stdout.splitlines()
    assert lines[0].startswith(f"run {out}: 300 games in 3 chunks of 128, seed 9, scenario file ")
    assert lines[1] == "Horsepower: scenario tiny, seed 9, game 290"
    seat, bot, rounds = re.search(r"^Result: seat (\d+) \((\w+)\) wins in round (\d+)$", result.stdout, re.M).groups()
    row = game_row(out, 290)
    assert (int(seat), bot, int(rounds)) == (row["winner_seat"], row["winner_bot"], row["rounds"])


def test_the_scenario_form_needs_only_the_runs_seed(horsepower_run):
    """The run had 300 games in chunks of 128; the scenario says 400 in chunks of 16:
    game 290 is the same game with the run's seed, another with the scenario's."""
    scenario, out = horsepower_run
    from_run = cli("trace", out, "--game-number", 290).stdout
    same_seed = cli("trace", scenario, "--game-number", 290, "--seed", 9)
    assert same_seed.exit_code == 0 and same_seed.stdout == from_run.split("\n", 1)[1]
    own = cli("trace", scenario, "--game-number", 290)  # the scenario's seed 1
    assert own.stdout.startswith("Horsepower: scenario tiny, seed 1, game 290\n")
    assert own.stdout.split("\n", 1)[1] != same_seed.stdout.split("\n", 1)[1], "another game"


@pytest.mark.parametrize(
    ("scenario", "header", "winner"),
    [
        ("heat-scenario.yaml", "Heat: scenario golden-heat, seed 4, race 18", r"car (\d+) \((\w+)\)"),
        ("downforce-scenario.yaml", "Downforce: scenario golden-downforce, seed 4, game 18", r"player (\d+) \((\w+)\)"),
        (
            "shuffle-gp-scenario.yaml",
            "Shuffle Grand Prix: scenario golden-shuffle-gp, seed 4, game 18",
            r"seat (\d+) \((\w+),",
        ),
    ],
    ids=["heat", "downforce", "shuffle_gp"],
)
def test_the_other_games_trace_that_game_of_the_run(tmp_path, scenario, header, winner):
    out = tmp_path / "run"
    made = cli("run", ROOT / "tests/golden" / scenario, "--out", out, "-j", 1, "-q", "-n", 20, "--seed", 4)
    assert made.exit_code == 0, made.output  # chunks of 8, 8 and 4
    result = cli("trace", out, "--game-number", 18)
    assert result.exit_code == 0, result.output
    assert result.stdout.splitlines()[1] == header
    rounds = re.search(r"^Result after (\d+) (?:rounds|cards|turns):$", result.stdout, re.M).group(1)
    seat, bot = re.search(rf"^  1\. {winner}", result.stdout, re.M).groups()
    row = game_row(out, 18)
    assert (int(seat), bot, int(rounds)) == (row["winner_seat"], row["winner_bot"], row["rounds"])


def one_line_error(*args) -> str:
    result = cli("trace", *args)
    assert result.exit_code == 2, result.output
    lines = result.stderr.splitlines()
    assert len(lines) == 1 and "Traceback" not in result.output, result.stderr
    return lines[0]


def test_a_directory_without_a_manifest_is_refused(tmp_path):
    assert one_line_error(tmp_path) == f"error: {tmp_path}: run: not a run directory (no manifest.json)"


@pytest.mark.parametrize("game", [300, -1])
def test_a_game_outside_the_run_is_refused(horsepower_run, game):
    _, out = horsepower_run
    message = one_line_error(out, "--game-number", game)
    assert message == f"error: {out / 'manifest.json'}: --game-number: game {game} is not in the run (0 to 299)"


@pytest.mark.parametrize("flag", [["--seed", 3], ["--games", 10], ["--chunk-size", 8]])
def test_the_run_fixes_seed_games_and_chunks(horsepower_run, flag):
    _, out = horsepower_run
    message = one_line_error(out, "--game-number", 1, *flag)
    assert message.startswith(f"error: {flag[0]}: ") and "the run fixes" in message


def test_a_changed_database_is_refused(tmp_path):
    cards = tmp_path / "cards.yaml"
    text = CARDS.read_text()
    cards.write_text(text + "# a comment changes no game\n")
    _, out = make_run(tmp_path, HORSEPOWER.format(cards=cards), "--games", 4, "--chunk-size", 2)
    cards.write_text(text)
    assert cli("trace", out, "--game-number", 3).exit_code == 0
    assert text.count("  purchase_cost: 3 ") == 1
    cards.write_text(text.replace("  purchase_cost: 3 ", "  purchase_cost: 4 "))
    message = one_line_error(out, "--game-number", 3)
    assert message.startswith(f"error: {cards}: cards_sha256: the card database changed since the run in {out}")
    cards.unlink()
    gone = one_line_error(out, "--game-number", 3)
    assert "card database" in gone and "is gone" in gone
