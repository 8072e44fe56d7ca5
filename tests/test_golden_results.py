"""Golden results (issue 44): the games of several scenarios of each game,
recorded from the engine by scripts/regen_golden_results.py (every game's row,
every player's tallies, each chunk's cards table digest), played again and
compared exactly. They are what a compiled engine must reproduce before it
replaces the numpy one, and a regression test after.

CI replays the first chunk (256 games) of each case; BALANCE_GOLDEN=full
replays every recorded game (about 40 s)."""

from __future__ import annotations

import importlib.util
import os

import pyarrow as pa
import pytest

from .conftest import ROOT

spec = importlib.util.spec_from_file_location("regen_golden_results", ROOT / "scripts" / "regen_golden_results.py")
golden = importlib.util.module_from_spec(spec)
spec.loader.exec_module(golden)

FULL = os.environ.get("BALANCE_GOLDEN") == "full"


def first_difference(expected: pa.Table, actual: pa.Table) -> str:
    """Where two tables first differ: the column and the row (its game_id), with both values."""
    if expected.column_names != actual.column_names:
        return f"columns {expected.column_names} -> {actual.column_names}"
    if expected.num_rows != actual.num_rows:
        return f"rows {expected.num_rows} -> {actual.num_rows}"
    for name in expected.column_names:
        a, b = expected[name].to_pylist(), actual[name].to_pylist()
        for i, (x, y) in enumerate(zip(a, b, strict=True)):
            if x != y:
                return f"column {name!r}, row {i} (game {expected['game_id'][i]}): {x!r} -> {y!r}"
    return "none"


@pytest.mark.parametrize("name", list(golden.CASES))
def test_the_engine_plays_the_recorded_games_exactly(name):
    recorded = golden.read(name)
    games = None if FULL else golden.CHUNK
    played = golden.play(name, games)
    n = played["games"].num_rows
    assert n == (recorded["games"].num_rows if FULL else min(golden.CHUNK, recorded["games"].num_rows))
    for table in ("games", "players"):
        expected = recorded[table].filter(pa.compute.less(recorded[table]["game_id"], n))
        assert played[table].equals(expected), (
            f"{name}: the {table} table differs, first at {first_difference(expected, played[table])} "
            "(python scripts/regen_golden_results.py records them again after a deliberate change)"
        )
    assert played["cards"] == recorded["cards"][: len(played["cards"])], f"{name}: a chunk's cards table differs"


def test_the_recorded_results_are_whole_games_of_every_game():
    """Thousands of games of each of the four games; every game has a winner's row and every player a row."""
    by_game: dict[str, int] = {}
    for name, (file, _, total) in golden.CASES.items():
        recorded = golden.read(name)
        assert recorded["games"].num_rows == total and len(recorded["cards"]) == -(-total // golden.CHUNK)
        players = recorded["players"]
        assert players.num_rows == sum(recorded["games"]["n_players"].to_pylist()), name
        game = name.split("-")[0]
        by_game[game] = by_game.get(game, 0) + total
        assert file.startswith(("scenarios/", "examples/")) and (ROOT / file).is_file()
    assert set(by_game) == {"horsepower", "heat", "downforce", "shuffle"} and min(by_game.values()) >= 2048
