"""Scenario files (a start: name, game, cards, players, bots, bot_profiles,
seed) and `balance trace` as a user runs them."""

from __future__ import annotations

import subprocess
import sys

import pytest
from typer.testing import CliRunner

from balance.cli import app
from balance.errors import UserError
from balance.games.horsepower.bots import resolve_profiles
from balance.scenario import load_scenario

from .conftest import CARDS, ROOT

runner = CliRunner()
SCENARIOS = sorted((ROOT / "scenarios").glob("*.yaml"))


def write(tmp_path, text: str):
    path = tmp_path / "s.yaml"
    path.write_text(text)
    return path


BASE = f"name: t\ngame: horsepower\nplayers: 2\nbots: [racer, random]\ngames: 4\nchunk_size: 2\ncards: {CARDS}\n"


def test_shipped_scenarios_cover_2_3_and_4_players_heat_2_to_8_cars_downforce_2_4_6():
    by_game: dict[str, list[int]] = {}
    weather: list[str] = []
    for path in SCENARIOS:
        scenario = load_scenario(path)
        by_game.setdefault(scenario.model.game, []).append(scenario.model.players)
        if scenario.model.overrides.get("rules.weather_module"):
            weather.append(scenario.model.overrides["rules.track"])
    assert sorted(by_game["horsepower"]) == [2, 3, 4]
    assert sorted(set(by_game["heat"])) == [2, 3, 4, 5, 6, 7, 8]
    assert sorted(weather) == ["france", "great_britain", "italia", "usa"], (
        "Weather and Road Conditions on each base track"
    )
    assert sorted(by_game["downforce"]) == [2, 4, 6]
    assert sorted(by_game["shuffle_gp"]) == [2, 4]


@pytest.mark.parametrize("path", SCENARIOS, ids=lambda p: p.stem)
def test_shipped_scenarios_load_and_find_their_database(path):
    scenario = load_scenario(path)
    assert (
        scenario.cards_path
        == ROOT
        / {
            "horsepower": "cards.yaml",
            "heat": "heat.yaml",
            "downforce": "downforce.yaml",
            "shuffle_gp": "shuffle_gp.yaml",
        }[scenario.model.game]
    )
    assert len(scenario.model.bots) == scenario.model.players


def test_trace_prints_a_whole_game():
    result = runner.invoke(app, ["trace", str(ROOT / "tests/golden/scenario.yaml"), "--seed", "1"])
    assert result.exit_code == 0, result.output
    lines = result.stdout.splitlines()
    assert lines[0] == "Horsepower: scenario golden, seed 1, game 0"
    assert any(line.startswith("Result: seat") for line in lines)
    assert "Round 1, seat 0" in result.stdout


def test_trace_of_game_k_is_game_k_of_the_run():
    a = runner.invoke(app, ["trace", str(ROOT / "tests/golden/scenario.yaml"), "--seed", "2", "--game-number", "5"])
    assert a.stdout == (ROOT / "tests/golden/seed2-game5.txt").read_text()


def test_bot_profiles_override_fields(tmp_path):
    profiles = resolve_profiles({"racer": {"pit_stop": "always", "weights": {"attack": 2.0}}})
    assert profiles["racer"].pit_stop == "always" and profiles["racer"].weights.attack == 2.0
    assert profiles["racer"].weights.drive == 1.0, "other fields keep the built-in values"
    assert resolve_profiles({"cautious": {"noise": 0.0}})["cautious"].bid == profiles["balanced"].bid


@pytest.mark.parametrize(
    ("text", "line", "message"),
    [
        (BASE.replace("players: 2", "players: two"), 3, "players: expected an integer, got 'two'"),
        (BASE + "colour: red\n", 8, "colour: unknown field 'colour'"),
        (BASE.replace("[racer, random]", "[racer]"), 4, "bots: 1 bots for 2 players (one per seat)"),
        (BASE.replace("[racer, random]", "[racer, speedy]"), 4, "bots.1: unknown bot 'speedy' (known: random, racer,"),
        (
            BASE.replace("game: horsepower", "game: monopoly"),
            2,
            "game: unknown game 'monopoly' (known: horsepower, heat, downforce, shuffle_gp)",
        ),
        (BASE + "bot_profiles: {racer: {pit_stop: sometimes}}\n", 8, "bot_profiles.racer.pit_stop: 'sometimes' is not"),
        (BASE.replace(str(CARDS), "nowhere.yaml"), 7, "cards: no such file"),
        (  # the bonus-card experiment's item must be one of the game's
            BASE.replace("game: horsepower", "game: downforce")
            .replace(str(CARDS), str(ROOT / "downforce.yaml"))
            .replace("[racer, random]", "[balanced, random]")
            + "bonus_card: speed_6\n",
            8,
            "bonus_card: no speed card or power card with id 'speed_6'",
        ),
    ],
)
def test_scenario_mistakes_are_one_line_errors(tmp_path, text, line, message):
    path = write(tmp_path, text)
    proc = subprocess.run(
        [sys.executable, "-m", "balance", "trace", str(path)], capture_output=True, text=True, cwd=ROOT
    )
    assert proc.returncode == 2, proc.stderr
    lines = proc.stderr.splitlines()
    assert len(lines) == 1 and "Traceback" not in proc.stderr
    assert lines[0].startswith(f"error: {path}:{line}: {message}"), lines[0]


def test_players_must_be_a_draft_pool_size(tmp_path):
    path = write(
        tmp_path,
        BASE.replace("players: 2", "players: 5").replace("[racer, random]", "[racer, random, racer, racer, racer]"),
    )
    with pytest.raises(UserError, match="5 players is not in the draft_pool"):
        from balance.games.horsepower.trace import trace_game

        trace_game(load_scenario(path), 1, 0)
