"""An experiment's chunk keeps no card events (experiment.play_task reads who won): played with
logged_chunk(..., cards=False) it gives the very games and players tables a logged chunk gives, in every
game, a Championship season's included, and an empty cards table."""

from __future__ import annotations

import pytest

from balance.games import get_game
from balance.games.chance import Streams
from balance.runner import RunOptions, _prepared, resolve_scenario

from .conftest import ROOT


@pytest.mark.parametrize(
    "name", ["two-player-duel", "heat-france-garage", "heat-season-1961", "downforce-duel", "shuffle-gp-four"]
)
def test_a_chunk_without_card_events_has_the_same_games_and_players(name):
    scenario = resolve_scenario(ROOT / "scenarios" / f"{name}.yaml", RunOptions(games=16))
    game = get_game(scenario.model.game)
    logged = game.play_chunk(_prepared(scenario), scenario, 0, 0, 16, Streams(3, 0, 16))
    lean = game.play_chunk(_prepared(scenario), scenario, 0, 0, 16, Streams(3, 0, 16), cards=False)
    assert logged["cards"].num_rows > 0 and lean["cards"].num_rows == 0
    assert lean["cards"].schema == logged["cards"].schema
    for table in ("games", "players"):
        assert lean[table].equals(logged[table]), table
