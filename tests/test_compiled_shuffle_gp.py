"""The compiled Shuffle Grand Prix engine plays the very games the numpy
lockstep engine played: a game is a function of (scenario, seed, game id),
whichever engine plays it. At commit 3b9cffb every array of the final state
and every card event of both engines were compared over the rules settings a
designer can turn, the strength bonus (a driver given, an extra card), noisy
and quiet bots, every player count and an event overflow, and the traces
line by line; their digests, recorded there, stay as the regression test of
the one engine left (with the golden results of tests/golden/results/). The
rules checker holds on the compiled engine's states."""

from __future__ import annotations

import hashlib

import numpy as np
import pytest
import yaml

from balance.games.chance import Streams
from balance.games.events import Events
from balance.games.recorder import Recorder
from balance.games.shuffle_gp import compiled
from balance.games.shuffle_gp.bots import bot_table, resolve_profiles
from balance.games.shuffle_gp.compile import compile_database
from balance.games.shuffle_gp.compiled import Bonus
from balance.games.shuffle_gp.schema import load_database

from .conftest import ROOT
from .digests import digest

PROFILES = ["balanced", "aggressive", "defensive", "random"]
QUIET = {
    "quiet": {"noise": 0.0, "cancel": 1.0, "swap_below": 4, "extra_play": 0.0, "anytime": 0.0},
    "tuned": {"noise": 0.2, "lead": 1.0, "pit_stop": 0.0, "redraw": 3.0},
}
QUIET_NAMES = ["quiet", "tuned", "aggressive", "random"]


def database(tmp_path, **rules):
    doc = yaml.safe_load((ROOT / "shuffle_gp.yaml").read_text())
    doc["rules"].update(rules)
    path = tmp_path / "shuffle_gp.yaml"
    path.write_text(yaml.safe_dump(doc))
    return compile_database(load_database(path))


def seats_for(players, games, profiles):
    return (np.arange(players)[None, :] + np.arange(games)[:, None]) % len(profiles)


SETTINGS = {
    "rule-readings": {
        "spin_out_trophies": "all_damagers",
        "first_player_ties": "lowest_seat",
        "bottom_pile": "random",
        "specialty_of": "active_driver",
    },
    "anytime-and-traps": {"anytime_cards": "turn_play", "trap_damage_specialties": True, "pit_stop_equips": False},
    "numbers": {"hand_size": 4, "plays_per_turn": 2, "distance_per_turn": 2, "tire_health": 3, "trophies": 4},
}

# Each case: (rules, players, games, seed, bonus (kind, item) or None, quiet-and-eager bots?). The digests are
# of the final state and the card events of the compiled engine, recorded at commit 3b9cffb, where every one
# of these games was proven equal, array by array, to the numpy lockstep engine's (since removed: one engine
# per game).
CASES = {f"players-{players}": ({}, players, 64, 3, None, False) for players in (2, 3, 4)}
CASES |= {name: (rules, 4, 48, 5, None, False) for name, rules in SETTINGS.items()}
CASES |= {
    f"bonus-{kind}": ({}, 3, 40, 9, (kind, item), False)
    for kind, item in (("driver", "gremlin"), ("card", "blaze_ram"))
}
CASES["quiet-and-eager"] = ({}, 4, 48, 11, None, True)  # bots without noise (ties decide), always answering
CASES["overflow"] = ({}, 4, 12, 3, None, False)  # (its events overflow below)

DIGESTS = {
    "players-2": "a0c89c8fd3df6be23c1eb76e8fe2855a",
    "players-3": "74dabe35b0141b0407de2f338ad52328",
    "players-4": "5fff5b04191176982859914c466067b2",
    "rule-readings": "9bef8aacd881aa6b77cc0d86ef3f6a66",
    "anytime-and-traps": "aed74c23eb1e6a716320854167b6762c",
    "numbers": "1bdf94877bc4475693b388df3edfcc99",
    "bonus-driver": "11c7a1e6a5c53ba87453b5f798f55101",
    "bonus-card": "0702dc2e826f1e5e7a61768db3b3adae",
    "quiet-and-eager": "4b2b070c3643b535961c405f3c8260a8",
    "overflow": "7adebc60deae173941775395ac224678",
}


def play_case(tmp_path, name: str, simulate=None) -> tuple:
    """(final state, card events) of case `name`, on the compiled engine (or `simulate`)."""
    rules, players, games, seed, bonus, quiet = CASES[name]
    tables = database(tmp_path, **rules)
    names = QUIET_NAMES if quiet else PROFILES
    bots = bot_table(resolve_profiles(QUIET if quiet else None), names, tables)
    if bonus is not None:
        kind, item = bonus
        who = np.arange(games) % 3
        bonus = (
            Bonus(who, driver=tables.drivers.index(item))
            if kind == "driver"
            else Bonus(who, card=tables.cards.index(item))
        )
    events = Events()
    play = simulate or compiled.simulate
    st = play(tables, bots, seats_for(players, games, names), Streams(seed, 100, games), events=events, bonus=bonus)
    return st, events.arrays()


@pytest.mark.parametrize("name", list(CASES))
def test_the_engine_plays_the_games_proven_equal_to_the_numpy_engines(tmp_path, name):
    st, events = play_case(tmp_path, name)
    now = digest(st, compiled.STATE_FIELDS, events)
    assert now == DIGESTS[name], f"{name}: the games changed (now {now})"
    if name.startswith("players-"):  # whole games, with their events
        assert not st.running.any() and len(events["game"]) > 64 * 20
    if name.startswith("bonus-"):
        assert len(events["game"]) > 40 * 20


def test_a_batch_with_more_events_than_its_room_grows_its_buffer(tmp_path, monkeypatch):
    monkeypatch.setattr(compiled, "EVENTS_PER_GAME", 1)  # far short of a game's events: the buffer doubles
    st, events = play_case(tmp_path, "overflow")
    assert digest(st, compiled.STATE_FIELDS, events) == DIGESTS["overflow"]


def test_progress_is_told_as_games_finish(tmp_path):
    tables = database(tmp_path)
    bots = bot_table(resolve_profiles(None), PROFILES, tables)
    finished = []
    compiled.simulate(
        tables,
        bots,
        seats_for(4, 60, PROFILES),
        Streams(1, 0, 60),
        progress=lambda s: finished.append(int((~s.running).sum())),
    )
    assert finished[0] == 8 and finished[-1] == 60 and finished == sorted(finished)


@pytest.mark.parametrize("case", ["shuffle-gp-four", "shuffle-gp-duel"])
def test_the_golden_results_replay_on_the_compiled_engine(case, monkeypatch):
    """Every recorded game (tests/golden/results, scripts/regen_golden_results.py) comes out of
    the compiled engine: its games and players tables and each chunk's cards digest."""
    import pyarrow as pa

    from .test_golden_results import first_difference, golden

    calls = []
    play = compiled.simulate

    def counted(*args, **kwargs):
        calls.append(len(args[2]))
        return play(*args, **kwargs)

    monkeypatch.setattr(compiled, "simulate", counted)  # chunk.play_chunk plays runs on the compiled engine
    recorded = golden.read(case)
    played = golden.play(case)
    for table in ("games", "players"):
        assert played[table].equals(recorded[table]), first_difference(recorded[table], played[table])
    assert played["cards"] == recorded["cards"]
    assert isinstance(played["games"], pa.Table) and sum(calls) == recorded["games"].num_rows == 1024


# --- the rules checker, on the compiled engine's states ---------------------------


@pytest.mark.parametrize("players", [2, 3, 4])
def test_the_rules_hold_after_every_turn_of_compiled_games(tmp_path, players):
    tables = database(tmp_path)
    bots = bot_table(resolve_profiles(None), PROFILES, tables)
    broken: list[str] = []
    st = compiled.simulate(tables, bots, seats_for(players, 200, PROFILES), Streams(players, 0, 200), broken=broken)
    assert broken == []
    assert not st.running.any() and (st.turn < tables.rules.max_turns).all()


def test_the_rules_checker_names_the_rule_a_state_breaks(tmp_path):
    from balance.games.shuffle_gp.compiled import rules, structs

    tables = database(tmp_path)
    bots = bot_table(resolve_profiles(None), PROFILES, tables)
    st = compiled.simulate(tables, bots, seats_for(4, 4, PROFILES), Streams(1, 0, 4))
    tab = compiled.tables_for(tables, bots, 4)
    arrays = structs.StateArrays(*(getattr(st, name) for name in compiled.STATE_FIELDS))
    assert [rules.rule_broken(tab, arrays, g, -1) for g in range(4)] == [0, 0, 0, 0]
    st.trophies[0, 1] += 1  # a trophy from nowhere
    st.draw[1, 2, 0] += 1  # a card from nowhere
    st.driver[2, 3] = st.co_pilot[2, 3]
    st.tire[3, 0] = 0
    found = [rules.RULES[rules.rule_broken(tab, arrays, g, -1) - 1] for g in range(4)]
    assert found == [
        "trophies not conserved",
        "ability cards not conserved (draw, hand, discard, car, nerfs, traps)",
        "driver and co-pilot the same",
        "a driver at 0 tire health that did not spin out",
    ]


# --- the trace, in the numpy engine's words ------------------------------------------

TRACED = ((4, 1), (3, 2), (2, 3), (4, 4))  # (players, seed)


def traced(tmp_path, verbose: bool, simulate=None) -> list[list[str]]:
    """Games 0, 1, 4 (a driver given) and 5 (an extra card) of each of TRACED, each traced alone."""
    tables = database(tmp_path, spin_out_trophies="all_damagers")
    play = simulate or compiled.simulate
    said = []
    for players, seed in TRACED:
        bots = bot_table(resolve_profiles(None), PROFILES, tables)
        for game in (0, 1, 4, 5):
            seats = seats_for(players, game + 1, PROFILES)[game : game + 1]
            bonus = None
            if game == 4:
                bonus = Bonus(np.array([game % players]), driver=tables.drivers.index("snare"))
            elif game == 5:
                bonus = Bonus(np.array([game % players]), card=tables.cards.index("blaze_ram"))
            rec = Recorder(watch=0, verbose=verbose)
            play(tables, bots, seats, Streams(seed, game, 1), rec=rec, bonus=bonus)
            said.append(rec.lines)
    return said


def overflowing_trace(tmp_path, simulate=None) -> list[str]:
    """Game 1 of three, --verbose (longer than the room the test below gives it)."""
    tables = database(tmp_path)
    bots = bot_table(resolve_profiles(None), PROFILES, tables)
    rec = Recorder(watch=1, verbose=True)
    (simulate or compiled.simulate)(tables, bots, seats_for(3, 3, PROFILES), Streams(4, 0, 3), rec=rec)
    return rec.lines


def text_digest(said: list[list[str]]) -> str:
    return hashlib.sha256("\n\n".join("\n".join(lines) for lines in said).encode()).hexdigest()[:32]


# sha256 of the traces (16 games each, plain and --verbose; one game traced in less room than it needs),
# recorded at 3b9cffb where the numpy engine said the same, line for line
TRACE_DIGESTS = {
    "plain": "30fd2bae3ab9d9937abd61ef9795c190",
    "verbose": "27008db1620d7c6e0975bd296592e649",
    "overflow": "e0f9cc91488cfdc3d1464bb168c44da8",
}


@pytest.mark.parametrize("verbose", [False, True], ids=["plain", "verbose"])
def test_a_traced_game_says_what_the_numpy_engine_said(tmp_path, verbose):
    said = traced(tmp_path, verbose)
    assert all(len(lines) > 100 for lines in said)
    text = "\n".join("\n".join(lines) for lines in said)
    assert "Setup (strength experiment): seat" in text and "SPINS OUT" in text
    now = text_digest(said)
    name = "verbose" if verbose else "plain"
    assert now == TRACE_DIGESTS[name], f"the traces changed (now {now})"


def test_a_traced_game_longer_than_its_room_is_played_again_with_more(tmp_path, monkeypatch):
    monkeypatch.setattr(compiled, "TRACE_RECORDS", 5)
    monkeypatch.setattr(compiled, "TRACE_LISTS", 1)
    said = overflowing_trace(tmp_path)
    assert len(said) > 100 and text_digest([said]) == TRACE_DIGESTS["overflow"]
    monkeypatch.undo()
    assert overflowing_trace(tmp_path) == said


def test_runs_and_traces_play_on_the_compiled_engine():
    from balance.games import get_game
    from balance.games.shuffle_gp import chunk
    from balance.runner import RunOptions, resolve_scenario

    scenario = resolve_scenario(ROOT / "scenarios" / "shuffle-gp-four.yaml", RunOptions(games=4))
    game = get_game("shuffle_gp")
    prep = game.prepare(scenario)
    _, st = chunk.play_chunk(prep, scenario, 0, 4, Streams(1, 0, 4))
    assert not st.running.any()
    assert "The distance deck is empty: the race is over." in game.trace(scenario, 1, 2)
