"""`balance tune` (issue 18): a profile's values searched on common random
numbers, confirmed on held-out games; deterministic, resumable, and every
mistake a one-line error before any game."""

from __future__ import annotations

import json

import numpy as np
import polars as pl
import pytest
import yaml
from typer.testing import CliRunner

from balance.cli import app
from balance.errors import UserError
from balance.experiments.tune import TuneOptions, tune
from balance.experiments.tune.search import Distribution
from balance.experiments.tune.space import TUNED_NOISE, profile_values, search_space

from .conftest import CARDS, ROOT

NEVER_BUYS = f"""name: nobuy
game: horsepower
cards: {CARDS}
players: 2
bots: [racer, economist]
bot_profiles:
  racer: {{weights: {{drive: 0, coins: 0, draw: 0, thinning: 0, attack: 0, defense: 0, tempo: 0}}, buy_min: 1}}
"""

DUEL = f"""name: duel
game: downforce
cards: {ROOT / "downforce.yaml"}
players: 2
bots: [balanced, miser]
"""


def small(tmp_path, name: str, **kw) -> TuneOptions:
    settings = dict(games_per_eval=16, budget=500, population=8, jobs=1, confirm_games=256, out=tmp_path / name)
    return TuneOptions(**(settings | kw))


def test_the_search_space_is_every_number_and_choice_of_the_profile_but_noise():
    from balance.games import GAMES

    hp = GAMES["horsepower"]
    start = hp.profiles(None)["balanced"]
    params = {p.name: p for p in search_space(hp.profile_model, start)}
    assert "noise" not in params and params["weights.drive"].kind == "real"
    assert params["refreshes"].kind == "int" and (params["refreshes"].low, params["refreshes"].high) == (0, 10)
    assert params["pit_stop"].kind == "choice" and params["pit_stop"].choices == ("auto", "always", "never")
    heat = GAMES["heat"]
    assert "legend" not in {p.name for p in search_space(heat.profile_model, heat.profiles(None)["balanced"])}
    sgp = GAMES["shuffle_gp"]
    names = {p.name for p in search_space(sgp.profile_model, sgp.profiles(None)["aggressive"])}
    assert "drivers.blaze" in names  # the per-driver bonuses the profile has
    values = profile_values(start, list(params.values()), {n: p.start for n, p in params.items()})
    assert values["noise"] == min(start.noise, TUNED_NOISE)
    hp.profile_model.model_validate(values)  # a whole, valid profile


def test_the_search_keeps_to_the_schema_and_moves_towards_its_elites():
    from balance.games import GAMES

    hp = GAMES["horsepower"]
    params = search_space(hp.profile_model, hp.profiles(None)["balanced"])
    dist = Distribution.start(params)
    samples = dist.sample(np.random.default_rng(1), 200)
    for p in params:
        seen = [s[p.name] for s in samples]
        if p.kind == "choice":
            assert set(seen) <= set(p.choices)
        else:
            assert min(seen) >= p.low and max(seen) <= p.high
            if p.kind == "int":
                assert all(isinstance(v, int) for v in seen)
    elites = [dict(s, **{"weights.drive": 5.0, "pit_stop": "never"}) for s in samples[:4]]
    before = dist.mean[[p.name for p in dist.numbers].index("weights.drive")]
    dist.update(elites)
    after = dist.mean[[p.name for p in dist.numbers].index("weights.drive")]
    assert before < after < 5.0 and dist.centre()["pit_stop"] == "never"


def test_a_tune_finds_the_weights_a_bot_that_never_buys_lacks(tmp_path):
    """A racer with every weight at 0 values no card and buys nothing: against
    the economist it wins about 2%. The tune must find weights that buy, and
    the held-out confirmation must show it."""
    path = tmp_path / "s.yaml"
    path.write_text(NEVER_BUYS)
    result = tune(path, small(tmp_path, "t", budget=1100, games_per_eval=32, confirm_games=256, bot="racer"))
    assert result.significant and result.gain.rate > 0.3, result.gain
    assert result.start_rate.rate < 0.1
    assert sum(result.tuned[f"weights.{w}"] for w in ("drive", "coins", "draw", "tempo")) > 0.2
    profile = yaml.safe_load((result.out / "tuned.yaml").read_text())["racer"]
    assert profile["weights"] == {k.split(".")[1]: v for k, v in result.tuned.items() if k.startswith("weights.")}
    page = (result.out / "index.html").read_text()
    assert "The tuned profile wins more than the starting one" in page
    assert (result.out / "learning.png").read_bytes()[:4] == b"\x89PNG"
    rows = pl.read_csv(result.out / "candidates.csv")
    assert rows.height == result.rounds * 8 and rows["centre"].sum() == result.rounds
    assert rows["win_rate_pct"].is_between(0, 100).all(), "rates in percent, as named"


def test_a_tiny_tune_is_the_same_whatever_the_jobs(tmp_path):
    path = tmp_path / "s.yaml"
    path.write_text(DUEL)
    one = tune(path, small(tmp_path, "one", bot="miser", jobs=1))
    two = tune(path, small(tmp_path, "two", bot="miser", jobs=2))
    assert one.tuned == two.tuned and one.curve == two.curve and one.gain == two.gain
    assert (one.out / "candidates.csv").read_text() == (two.out / "candidates.csv").read_text()


def test_fixed_values_stay_at_the_start_and_leave_the_search(tmp_path):
    path = tmp_path / "s.yaml"
    path.write_text(DUEL)
    result = tune(path, small(tmp_path, "t", bot="miser", fixed=("bid", "powers.tricky")))
    assert "bid" not in result.tuned and "powers.tricky" not in result.tuned
    assert "bid" not in pl.read_csv(result.out / "candidates.csv").columns
    profile = yaml.safe_load((result.out / "tuned.yaml").read_text())["miser"]
    assert profile["bid"] == 0.45 and profile["powers"]["tricky"] == 0.8
    assert profile["hand"] == result.tuned["hand"] != 5.2  # the others moved


def test_an_interrupted_tune_resumes_to_the_same_result(tmp_path, monkeypatch):
    import balance.experiments.tune as tuning

    path = tmp_path / "s.yaml"
    path.write_text(DUEL)
    whole = tune(path, small(tmp_path, "whole", bot="miser", budget=900))
    real, calls = tuning._race, []

    def interrupted(*args, **kwargs):
        calls.append(1)
        if len(calls) == 3:
            raise KeyboardInterrupt
        return real(*args, **kwargs)

    monkeypatch.setattr(tuning, "_race", interrupted)
    with pytest.raises(KeyboardInterrupt):
        tune(path, small(tmp_path, "cut", bot="miser", budget=900))
    assert len(json.loads((tmp_path / "cut" / "tune.json").read_text())["curve"]) == 2
    with pytest.raises(UserError, match="holds a tune: --resume to continue it"):
        tune(path, small(tmp_path, "cut", bot="miser", budget=900))
    monkeypatch.setattr(tuning, "_race", real)
    resumed = tune(path, small(tmp_path, "cut", bot="miser", budget=900, resume=True))
    assert resumed.tuned == whole.tuned and resumed.curve == whole.curve and resumed.gain == whole.gain
    with pytest.raises(UserError, match="other settings"):
        tune(path, small(tmp_path, "cut", bot="miser", budget=900, resume=True, population=12))


@pytest.mark.parametrize(
    "args, message",
    [
        (["--bot", "nobody"], "unknown bot 'nobody' (known: random, balanced, shark, miser, tuned)"),
        (["--bot", "shark"], "'shark' has no seat in"),
        (["--bot", "miser", "--population", "2"], "population: must be between 4 and 256, got 2"),
        (["--bot", "miser", "--games-per-eval", "1"], "games-per-eval: must be between 8"),
        (["--bot", "miser", "--jobs", "1000"], "jobs: must be between 1 and"),
        (["--bot", "miser", "--fix", "weights.speed"], "'weights.speed' is not a value of miser (known:"),
    ],
)
def test_mistakes_are_one_line_before_any_game(tmp_path, args, message):
    path = tmp_path / "s.yaml"
    path.write_text(DUEL)
    result = CliRunner().invoke(app, ["tune", str(path), *args, "--out", str(tmp_path / "t")])
    assert result.exit_code == 2 and message in result.stderr, result.stderr
    assert len(result.stderr.strip().splitlines()) == 1 and not (tmp_path / "t").exists()


def test_a_bad_profile_value_or_a_pool_is_one_line(tmp_path):
    path = tmp_path / "s.yaml"
    path.write_text(DUEL + "bot_profiles:\n  miser: {bid: 99}\n")
    with pytest.raises(UserError, match="bot_profiles.miser.bid: must be at most 10"):
        tune(path, small(tmp_path, "t", bot="miser"))
    path.write_text(DUEL.replace("bots: [balanced, miser]", "bots: {pool: [balanced, miser]}"))
    with pytest.raises(UserError, match="one bot per seat, not a pool"):
        tune(path, small(tmp_path, "t", bot="miser"))
    assert not (tmp_path / "t").exists()


def test_tune_all_tunes_each_bot_in_turn_and_measures_exploitability(tmp_path, monkeypatch):
    """Iterated best response over the field's distinct bots (random is the
    floor, not tuned); a finished tune resumed gives its result without playing."""
    from balance.experiments.tune.field import tune_field

    path = tmp_path / "s.yaml"
    path.write_text(
        DUEL.replace("bots: [balanced, miser]", "bots: [balanced, miser, random]").replace("players: 2", "players: 3")
    )
    options = small(tmp_path, "all", bot="", budget=300)
    field = tune_field(path, options, passes=1)
    assert field.bots == ["balanced", "miser"]
    assert [(r["pass"], r["bot"]) for r in field.rows] == [
        (1, "balanced"),
        (1, "miser"),
        ("exploitability", "balanced"),
        ("exploitability", "miser"),
    ]
    assert set(field.exploit) == {"balanced", "miser"}
    adopted = {r["bot"] for r in field.rows if r["adopted"]}
    assert set(field.profiles) == adopted
    assert yaml.safe_load((field.out / "field.yaml").read_text()) == field.profiles
    assert "exploitability" in (field.out / "index.html").read_text()
    # `tuned`: the bot that wins most against the final field, as its profile stands there
    rates = {r["bot"]: r["start_rate"] for r in field.rows if r["pass"] == "exploitability"}
    bot = max(rates, key=rates.get)
    shipped = yaml.safe_load((field.out / "tuned.yaml").read_text())["tuned"]
    assert field.strongest[0] == bot and shipped == field.strongest[2]
    if bot in field.profiles:
        assert shipped == field.profiles[bot]
    from balance.games import GAMES

    GAMES["downforce"].profile_model.model_validate(shipped)  # a whole profile, as bots.yaml needs

    import balance.experiments.experiment as experiment

    def no_games(*args, **kwargs):
        raise AssertionError("a finished tune played again")

    monkeypatch.setattr(experiment, "play_task", no_games)
    again = tune_field(path, TuneOptions(**{**vars(options), "resume": True}), passes=1)
    assert again.rows == field.rows


def test_tune_all_with_rounds_passes_over_the_field_that_many_times(tmp_path):
    """Issue 35: `--all --rounds 2` tunes each bot twice in turn, then measures exploitability."""
    path = tmp_path / "s.yaml"
    path.write_text(DUEL)
    args = ["tune", str(path), "--all", "--rounds", "2", "--budget", "200", "--games-per-eval", "16"]
    result = CliRunner().invoke(
        app, [*args, "--population", "4", "--confirm-games", "64", "-j", "1", "-q", "-o", str(tmp_path / "a")]
    )
    assert result.exit_code == 0, result.output
    rows = json.loads((tmp_path / "a" / "field.json").read_text())["rows"]
    assert [(r["pass"], r["bot"]) for r in rows] == [
        (1, "balanced"),
        (1, "miser"),
        (2, "balanced"),
        (2, "miser"),
        ("exploitability", "balanced"),
        ("exploitability", "miser"),
    ]
    refused = CliRunner().invoke(app, [*args[:3], "--rounds", "0"])
    assert refused.exit_code == 2 and "--rounds: must be between 1 and 20, got 0" in refused.stderr
