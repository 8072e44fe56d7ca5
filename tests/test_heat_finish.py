"""Heat races cut by the round cap (issue 15): a race is `finished` only when
every car crossed the finish line; the winner (if some car crossed) keeps its
seat and its round (`winner_round`); each car says whether it finished; the
report's race length is the winner's round, with the share of races the cap
cut, and the manifest's unfinished_games counts them."""

from __future__ import annotations

import json

import numpy as np
import polars as pl
import pytest
from typer.testing import CliRunner

from balance.analysis import laps
from balance.cli import app
from balance.games.chance import Streams
from balance.games.events import Events
from balance.games.heat.bots import bot_table, resolve_profiles
from balance.games.heat.compiled import simulate
from balance.games.heat.log import chunk_tables
from balance.logs import load_run
from balance.report.findings import length_line
from balance.report.labels import HEAT
from balance.runner import RunOptions, run

from . import heat
from .conftest import ROOT

# The random bot takes far longer than a heuristic one to get home (31 to 52
# rounds on USA, the winner about 20): a cap of 42 rounds lets the winner home
# and cuts about half the races with the random car still racing.
CAP = 42
NAMES = ["balanced", "random", "legend"]


def _logged(max_rounds: int, races: int = 48, seed: int = 3) -> tuple[pl.DataFrame, pl.DataFrame]:
    t = heat.tables(track="usa", max_rounds=max_rounds)
    bots = bot_table(resolve_profiles(None), NAMES, t)
    seats = (np.arange(len(NAMES))[None, :] + np.arange(races)[:, None]) % len(NAMES)
    events = Events()
    st = simulate(t, bots, seats, Streams(seed, 0, races), events=events)
    logged = chunk_tables(st, events, seats, t, bots, first_game=0, chunk=0)
    return pl.from_arrow(logged["games"]), pl.from_arrow(logged["players"])


@pytest.fixture(scope="module")
def capped():
    return _logged(CAP)


def test_a_capped_race_with_a_winner_is_not_finished(capped):
    games, players = capped
    assert games.schema["winner_round"] == pl.Int16 and players.schema["finished"] == pl.Boolean
    per_race = players.group_by("game_id").agg(
        pl.col("finished").all().alias("all_home"),
        pl.col("finished").any().alias("some_home"),
        pl.col("finish_round").min().alias("first_home"),
        pl.col("finish_round").max().alias("last_home"),
    )
    table = games.join(per_race, on="game_id")
    assert (table["finished"] == table["all_home"]).all(), "finished: every car crossed the line"
    cut = table.filter(pl.col("some_home") & ~pl.col("all_home"))
    assert cut.height > 0, "the cap cuts some races with a car home and one still racing"
    assert table.filter(pl.col("all_home")).height > 0, "and lets others end"
    # a race cut by the cap with a winner: not finished, but the winner and its round are there
    assert not cut["finished"].any() and cut["winner_seat"].null_count() == 0
    assert (cut["rounds"] == CAP).all(), "rounds played: the cap"
    assert (cut["winner_round"] == cut["first_home"]).all() and (cut["winner_round"] < CAP + 1).all()
    home = table.filter(pl.col("all_home"))
    assert (home["rounds"] == home["last_home"]).all(), "rounds: the round the last car came home"
    assert (home["winner_round"] == home["first_home"]).all()
    # per car: finished exactly when it has a finish round; the winner is a car that finished
    assert (players["finished"] == players["finish_round"].is_not_null()).all()
    assert players.filter(pl.col("won"))["finished"].all()
    assert players.filter(pl.col("won")).height == games.height
    one = cut.row(0, named=True)
    cars = players.filter(pl.col("game_id") == one["game_id"]).sort("seat")
    winner = cars.row(one["winner_seat"], named=True)
    assert winner["won"] and winner["finished"] and winner["finish_round"] == one["winner_round"]
    assert not cars["finished"].all() and cars.filter(~pl.col("finished"))["finish_round"].null_count() > 0


def test_a_race_nobody_finished_has_no_winner():
    games, players = _logged(3, races=4)
    assert not games["finished"].any() and (games["rounds"] == 3).all()
    assert games["winner_round"].null_count() == 4 and games["winner_seat"].null_count() == 4
    assert games["winner_bot"].null_count() == 4
    assert not players["finished"].any() and not players["won"].any()


def test_game_length_is_the_winners_round(capped):
    games, players = capped
    run_dir = {"games": games.lazy(), "players": players.lazy()}
    length = laps.game_length(run_dir).row(0, named=True)
    won = games.filter(pl.col("winner_round").is_not_null())
    assert length["n"] == won.height and length["median"] == won["winner_round"].median()
    assert length["last_n"] == games["finished"].sum()
    assert length["last_median"] == games.filter(pl.col("finished"))["rounds"].median()
    cut = int((~games["finished"]).sum())
    assert length["unfinished_games"] == cut and length["unfinished_share"] == pytest.approx(cut / games.height)
    dist = laps.length_distribution(run_dir)
    assert dist["games"].sum() == won.height and dist["last_home"].sum() == games["finished"].sum()
    assert dist["rounds"].is_sorted() and dist["rounds"].max() <= CAP
    line = length_line(laps.game_length(run_dir), HEAT)
    share = f"{100 * cut / games.height:.1f}%"
    assert line.startswith(f"The winner crosses the finish line after {length['median']:.0f} rounds (median;")
    assert f"the last car home after {length['last_median']:.0f} rounds" in line
    assert f"{share} of races cut by the round cap (n={cut})" in line and line.endswith(f"n={games.height}.")


SCENARIO = f"""name: heat-capped
game: heat
cards: {ROOT / "heat.yaml"}
players: 3
bots: [balanced, random, legend]
overrides:
  rules.track: usa
  rules.max_rounds: {CAP}
games: 96
seed: 7
chunk_size: 48
"""


def test_a_run_counts_the_capped_races_as_unfinished(tmp_path):
    path = tmp_path / "s.yaml"
    path.write_text(SCENARIO)
    result = run(path, RunOptions(out=tmp_path / "run", jobs=1))
    games = load_run(tmp_path / "run")["games"].collect()
    cut = games.filter(~pl.col("finished"))
    assert cut.height > 0 and cut["winner_seat"].null_count() < cut.height, "capped races with a winner"
    assert result.manifest["unfinished_games"] == cut.height
    assert json.loads((tmp_path / "run" / "manifest.json").read_text())["unfinished_games"] == cut.height
    out = tmp_path / "report"
    report = CliRunner().invoke(app, ["report", str(tmp_path / "run"), "--out", str(out)])
    assert report.exit_code == 0, report.output
    share = f"{100 * cut.height / games.height:.1f}%"
    assert f"{share} of races cut by the round cap (n={cut.height})" in report.stdout
    page = (out / "index.html").read_text()
    assert "The winner crosses the finish line after" in page and "races cut by the round cap" in page
    table = pl.read_csv(out / "game_length.csv")
    assert table["unfinished_games"].to_list() == [cut.height] and table["n"].to_list() == [
        games["winner_round"].is_not_null().sum()
    ]
