"""The compiled Downforce engine (issue 44) plays the very games the numpy
engine played: a game is a function of (scenario, seed, game id), whichever
engine plays it. Every array of the final state and every card event is
compared over every player count, both tracks, the rule readings a designer
can turn (auction ties, wild bids, a cap on the race), powers stacked so that
each is held, the strength bonus of each kind and every bot profile; the
trace says what the numpy engine said; the rules checker runs on the compiled
states."""

from __future__ import annotations

from dataclasses import fields

import numpy as np
import pytest
import yaml

from balance.games.chance import Streams
from balance.games.downforce import compiled
from balance.games.downforce.bots import bot_table, resolve_profiles
from balance.games.downforce.compile import compile_database
from balance.games.downforce.engine import simulate
from balance.games.downforce.schema import load_database
from balance.games.downforce.state import Bonus, State
from balance.games.events import Events
from balance.games.recorder import Recorder

from .conftest import ROOT

PROFILES = ["random", "balanced", "shark", "miser", "tuned"]


def database(tmp_path, powers=None, **rules):
    doc = yaml.safe_load((ROOT / "downforce.yaml").read_text())
    doc["rules"].update(rules)
    if powers is not None:
        doc["powers"] = [p for p in doc["powers"] if p["id"] in powers]
    path = tmp_path / "downforce.yaml"
    path.write_text(yaml.safe_dump(doc))
    return compile_database(load_database(path))


def seats_for(players: int, games: int, seed: int) -> np.ndarray:
    return np.random.default_rng(seed).integers(0, len(PROFILES), (games, players)).astype(np.int16)


def assert_same_games(tables, seats, seed=3, bonus=None):
    bots = bot_table(resolve_profiles(None), PROFILES, tables)
    logged = Events(), Events()
    a = simulate(tables, bots, seats, Streams(seed, 0, len(seats)), events=logged[0], bonus=bonus)
    b = compiled.simulate(tables, bots, seats, Streams(seed, 0, len(seats)), events=logged[1], bonus=bonus)
    for f in fields(State):
        x, y = getattr(a, f.name), getattr(b, f.name)
        differ = np.flatnonzero((x != y).reshape(len(seats), -1).any(axis=1))
        assert not len(differ), f"{f.name} differs first in game {differ[0]}: {x[differ[0]]} -> {y[differ[0]]}"
    ea, eb = logged[0].arrays(), logged[1].arrays()
    for name in ea:
        assert np.array_equal(ea[name], eb[name]), f"the card events' {name} differ"
    return b


@pytest.mark.parametrize("players", [2, 3, 4, 5, 6])
def test_both_engines_play_the_same_games_at_every_player_count(tmp_path, players):
    st = assert_same_games(database(tmp_path), seats_for(players, 160, players), seed=players)
    assert (st.place > 0).sum() > 160 * 5  # whole races, not a setup alone


@pytest.mark.parametrize(
    "rules",
    [
        {"auction_ties": "random", "wild_bids": False},
        {"track": "ridge"},
        {"max_turns": 20},  # the cap cuts races short: `cut`
    ],
    ids=["random-ties-no-wild-bids", "ridge", "capped"],
)
def test_both_engines_agree_on_every_rule_reading(tmp_path, rules):
    st = assert_same_games(database(tmp_path, **rules), seats_for(4, 120, 9), seed=11)
    if "max_turns" in rules:
        assert st.cut.any()


@pytest.mark.parametrize(
    "powers", [["strategic", "tricky"], ["cunning", "determined"], ["unpredictable", "aggressive"], []]
)
def test_both_engines_apply_each_power_alike(tmp_path, powers):
    """Few power cards in the pile: each of them is held, by someone, in many games (none: no power at all)."""
    st = assert_same_games(database(tmp_path, powers=powers), seats_for(3, 120, 5), seed=13)
    held = np.bincount(st.power[st.power >= 0], minlength=len(powers))
    assert len(held) == len(powers) and (held > 40).all()


@pytest.mark.parametrize("kind", ["card", "power"])
def test_both_engines_play_the_strength_bonus_alike(tmp_path, kind):
    tables = database(tmp_path)
    who = np.arange(100) % 4
    bonus = Bonus(who, card=5) if kind == "card" else Bonus(who, power=tables.powers.index("tricky"))
    assert_same_games(tables, seats_for(4, 100, 7), seed=17, bonus=bonus)


def test_a_game_with_more_events_than_its_room_is_played_again_with_more(tmp_path, monkeypatch):
    monkeypatch.setattr(compiled, "EVENTS_PER_GAME", 3)  # far short of a game's events: every game overflows
    assert_same_games(database(tmp_path), seats_for(3, 20, 2), seed=2)


def test_progress_is_told_as_games_finish(tmp_path):
    tables = database(tmp_path)
    bots = bot_table(resolve_profiles(None), PROFILES, tables)
    finished: list[int] = []
    progress = lambda s: finished.append(int((~s.running).sum()))  # noqa: E731
    compiled.simulate(tables, bots, seats_for(2, 60, 1), Streams(1, 0, 60), progress=progress)
    assert finished[0] == compiled.PROGRESS_FIRST and finished[-1] == 60 and finished == sorted(finished)


def test_runs_and_traces_play_on_the_compiled_engine(monkeypatch):
    from balance.games.downforce import engine
    from balance.games.downforce.trace import trace_game
    from balance.runner import RunOptions, resolve_scenario
    from balance.scenario import load_scenario

    monkeypatch.setattr(engine, "play_race", lambda *a, **k: pytest.fail("a game played on the numpy engine"))
    scenario = resolve_scenario(load_scenario(ROOT / "scenarios/downforce-four.yaml"), RunOptions(games=8, seed=1))
    assert trace_game(scenario, 1, 3).startswith("Downforce: scenario")


@pytest.mark.parametrize("verbose", [False, True], ids=["plain", "verbose"])
def test_a_traced_game_says_what_the_numpy_engine_says(tmp_path, verbose):
    tables = database(tmp_path, auction_ties="random")
    bots = bot_table(resolve_profiles(None), PROFILES, tables)
    for players in (2, 4, 6):
        for game in range(5):
            seats = seats_for(players, game + 1, game)[game : game + 1]
            bonus = None
            if game == 3:
                bonus = Bonus(np.array([1]), card=2)
            elif game == 4:
                bonus = Bonus(np.array([0]), power=tables.powers.index("strategic"))
            said = []
            for play in (simulate, compiled.simulate):
                rec = Recorder(watch=0, verbose=verbose)
                play(tables, bots, seats, Streams(game, game, 1), rec=rec, bonus=bonus)
                said.append(rec.lines)
            assert said[1] == said[0] and len(said[0]) > 20


@pytest.mark.parametrize("players", [2, 4, 6])
def test_no_compiled_game_breaks_a_rule(tmp_path, players):
    tables = database(tmp_path)
    bots = bot_table(resolve_profiles(None), PROFILES, tables)
    broken: list[str] = []
    G = 300
    bonus = Bonus(np.arange(G) % players, card=4)
    compiled.simulate(tables, bots, seats_for(players, G, 3), Streams(players, 0, G), bonus=bonus, broken=broken)
    assert broken == []


def test_the_rules_checker_names_the_rule_a_state_breaks(tmp_path):
    from balance.games.downforce.compiled import rules, structs

    tables = database(tmp_path)
    bots = bot_table(resolve_profiles(None), PROFILES, tables)
    st = compiled.simulate(tables, bots, seats_for(3, 4, 1), Streams(1, 0, 4))
    tab = compiled.tables_for(tables, bots, 3)
    arrays = structs.StateArrays(*(getattr(st, name) for name in compiled.STATE_FIELDS))
    before = np.zeros(6, np.int64)
    assert [rules.rule_broken(tab, arrays, g, before, -1, 0) for g in range(4)] == [0, 0, 0, 0]
    st.hand[0, 1, 0] += 1  # a card from nowhere
    st.paid[1, 0] += 1
    st.place[2, st.place[2].argmax()] = 0  # a finished car that is neither home nor on the board
    found = [rules.RULES[rules.rule_broken(tab, arrays, g, before, -1, 0) - 1] for g in range(3)]
    assert found == [
        "regular cards not conserved (hand + played = the deal)",
        "bids paid do not add up to the cars' prices",
        "a car neither on the board nor finished",
    ]
    far = np.full(6, 1 << 21, np.int64)  # every car was further along before: each moved back
    assert rules.RULES[rules.rule_broken(tab, arrays, 3, far, -1, 0) - 1] == "a car moved back"
