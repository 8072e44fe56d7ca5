"""The compiled Horsepower engine (issue 44) plays the very games the numpy
lockstep engine played: a game is a function of (scenario, seed, game id),
whichever engine plays it. At commit 9118d96, the last with both engines,
every array of the final state and every card event of both engines were
compared over the rules settings a designer can turn, the strength bonus,
situational bots and every player count, and the traces line by line; their
digests, recorded there, stay as the regression test of the one engine left
(with the golden results of tests/golden/results/). The keyed numbers one at
a time equal the numpy functions' for a batch; the rules checker runs on the
compiled states."""

from __future__ import annotations

import hashlib

import numpy as np
import pytest
import yaml
from hypothesis import given, settings
from hypothesis import strategies as st

from balance.games import chance
from balance.games.chance import Streams
from balance.games.chance import compiled as keyed
from balance.games.events import Events
from balance.games.horsepower import compiled
from balance.games.horsepower.bots import bot_table, resolve_profiles
from balance.games.horsepower.compile import compile_database
from balance.games.horsepower.draft import Bonus
from balance.games.horsepower.schema import load_database

from .conftest import CARDS, ROOT
from .digests import digest

PROFILES = ["racer", "economist", "saboteur", "balanced", "random"]
SITUATIONAL = {
    "racer": {"behind_drive": 2.0, "behind_gap": 6, "rich_at": 5, "rich_coins": 0.5},
    "saboteur": {"behind_attack": 3.0, "leading_defense": 2.0},
}


def database(tmp_path, **rules):
    doc = yaml.safe_load(CARDS.read_text())
    doc["rules"].update(rules)
    path = tmp_path / "cards.yaml"
    path.write_text(yaml.safe_dump(doc))
    return compile_database(load_database(path))


def seats_for(players, games, profiles):
    return (np.arange(players)[None, :] + np.arange(games)[:, None]) % len(profiles)


# Each case: (rules, players, games, seed, bonus, situational bots). The digests are of the final state and
# the card events of the compiled engine, recorded at commit 9118d96 (the last with both engines), where every
# one of these games was proven equal, array by array, to the numpy lockstep engine's (since removed: one
# engine per game). Streams(seed, 100, games): the games' ids start at 100.
CASES = {
    "players-2": ({}, 2, 96, 3, None, False),
    "players-3": ({}, 3, 96, 3, None, False),
    "players-4": ({}, 4, 96, 3, None, False),
    "rule-readings": (
        {"banana_blocked": "lost", "first_drafter": "first_player", "wiped_during_own_turn": "next_turn"},
        4,
        64,
        5,
        None,
        False,
    ),
    "compensation-and-short-supply": (
        {"draft_coins": [0, 1, 2, 3], "seat_coins": [0, 0, 1, 2], "debris_supply": 3, "min_drive": 2},
        4,
        64,
        5,
        None,
        False,
    ),
    "bonus-card": ({}, 4, 48, 9, "card", False),
    "bonus-playbook-instead": ({}, 4, 48, 9, "playbook-instead", False),
    "bonus-playbook-beside": ({}, 4, 48, 9, "playbook-beside", False),
    "situational": ({}, 4, 64, 11, None, True),
}
DIGESTS = {
    "players-2": "98786618e78ec9a0141fcd4bdde2fd2b",
    "players-3": "d70dd11701a46c52f589c74521235551",
    "players-4": "44c1ea1711bc713c1be0dc6ac3684096",
    "rule-readings": "df1b0a2705e731fdf24a9cfc6a625a59",
    "compensation-and-short-supply": "08001fc2d2142bb5d1cb1db987c731d6",
    "bonus-card": "38367739cfd6c58e17dc35d28f6edb67",
    "bonus-playbook-instead": "4e8e6171d6d6af463d34cf78ae4f0235",
    "bonus-playbook-beside": "1a106e2770f975e00fc84506900e2592",
    "situational": "881af314db1962ab748ef94542c015cb",
}


def case_inputs(tmp_path, name):
    """(tables, bots, seats, streams, bonus) of a case."""
    rules, players, games, seed, kind, situational = CASES[name]
    tables = database(tmp_path, **rules)
    bots = bot_table(resolve_profiles(SITUATIONAL if situational else None), PROFILES, tables, players)
    bonus = None
    if kind == "card":
        bonus = Bonus(int(np.flatnonzero(tables.cards.group == 0)[3]), -1, np.arange(games) % players)
    elif kind is not None:
        bonus = Bonus(-1, 3, np.arange(games) % players, instead=kind.endswith("instead"))
    return tables, bots, seats_for(players, games, PROFILES), Streams(seed, 100, games), bonus


def play_case(tmp_path, name):
    tables, bots, seats, streams, bonus = case_inputs(tmp_path, name)
    events = Events()
    st = compiled.simulate(tables, bots, seats, streams, events=events, bonus=bonus)
    return st, events.arrays()


@pytest.mark.parametrize("name", list(CASES))
def test_the_engine_plays_the_games_proven_equal_to_the_numpy_engines(tmp_path, name):
    st, events = play_case(tmp_path, name)
    now = digest(st, compiled.STATE_FIELDS, events)
    assert now == DIGESTS[name], f"{name}: the games changed (now {now})"
    games = len(st.winner)
    assert (st.winner >= 0).mean() > 0.9 and len(events["game"]) > games * 50  # whole games, with their events
    if name == "situational":
        assert case_inputs(tmp_path, name)[1].situational


def test_a_game_with_more_events_than_its_room_is_played_again_with_more(tmp_path, monkeypatch):
    monkeypatch.setattr(compiled, "EVENTS_PER_GAME", 3)  # far short of a game's events: every game overflows
    st, events = play_case(tmp_path, "players-4")
    assert digest(st, compiled.STATE_FIELDS, events) == DIGESTS["players-4"]


def test_progress_is_told_as_games_finish(tmp_path):
    tables = database(tmp_path)
    bots = bot_table(resolve_profiles(None), PROFILES, tables, 4)
    finished = []
    compiled.simulate(
        tables,
        bots,
        seats_for(4, 60, PROFILES),
        Streams(1, 0, 60),
        progress=lambda s: finished.append(int((~s.running).sum())),
    )
    # 8 games, then slices at most twice as long each time (how much longer depends on the machine's speed)
    slices = np.diff([0, *finished])
    assert finished[0] == 8 and finished[-1] == 60 and (slices > 0).all()
    assert (slices[1:-1] <= 2 * slices[:-2]).all() and len(finished) <= 5


def test_runs_and_traces_play_on_the_compiled_engine():
    import importlib.util

    from balance.games import get_game
    from balance.games.horsepower import chunk
    from balance.runner import RunOptions, resolve_scenario

    assert importlib.util.find_spec("balance.games.horsepower.engine") is None, "one engine per game"
    scenario = resolve_scenario(ROOT / "scenarios" / "two-player-duel.yaml", RunOptions(games=4))
    game = get_game("horsepower")
    prep = game.prepare(scenario)
    _, st = chunk.play_chunk(prep, scenario, 0, 4, Streams(1, 0, 4))
    assert (st.winner >= 0).all()
    assert "Result: seat" in game.trace(scenario, 1, 2)


# --- the keyed numbers, one at a time ------------------------------------------

keys = st.lists(st.integers(0, 2**64 - 1), min_size=1, max_size=20).map(lambda v: np.array(v, np.uint64))


@settings(max_examples=60, deadline=None)
@given(keys, st.integers(1, 100), st.integers(0, 4095))
def test_keyed_numbers_equal_the_batch_functions(k, sides, column):
    for i, key in enumerate(k):
        assert keyed.uniform(key) == chance.uniform(k)[i]
        assert keyed.uniform_at(key, column) == chance.uniform_at(k, np.array([column]))[i, 0]
        assert keyed.roll(key, sides) == chance.roll(k, sides)[i]
        assert [keyed.roll_at(key, sides, j) for j in range(7)] == chance.roll(k, sides, 7)[i].tolist()


@settings(max_examples=60, deadline=None)
@given(st.integers(0, 2**64 - 1), st.lists(st.integers(0, 5), min_size=1, max_size=12), st.integers(0, 20))
def test_keyed_draws_equal_the_batch_draws(key, pile, n):
    k = np.array([key], np.uint64)
    counts = np.array([pile], np.int8)
    discard = np.array([pile[::-1]], np.int8)

    one, batch = counts[0].copy(), counts.copy()
    assert keyed.draw_one(k[0], one) == chance.draw_one(k, batch, np.ones(1, bool))[0]
    assert np.array_equal(one, batch[0])

    deck, garage, drawn = counts[0].copy(), discard[0].copy(), np.zeros(len(pile), np.int64)
    keyed.draw_reshuffling(k[0], deck, garage, n, drawn)
    deck_b, garage_b = counts.copy(), discard.copy()
    expected = chance.draw_reshuffling(k, deck_b, garage_b, np.array([n]))
    assert drawn.tolist() == expected[0].tolist()
    assert deck.tolist() == deck_b[0].tolist() and garage.tolist() == garage_b[0].tolist()


def test_a_draws_key_is_the_streams_key():
    streams = Streams(42, 7, 3)
    streams.next_step()
    streams.next_step()
    codes = keyed.purpose_codes(("dice", "noise: card values"))
    for g in range(3):
        draws = np.zeros((3, chance.SEATS), np.int64)
        draws[-1, 0] = 2  # step 2
        for seat in (0, 2, keyed.NO_SEAT):
            for purpose in (0, 1, 0):
                name = ("dice", "noise: card values")[purpose]
                mine = keyed.key(streams.game[g], draws, codes, purpose, seat)
                theirs = streams.key(np.array([g]), name, None if seat == keyed.NO_SEAT else seat)[0]
                assert mine == theirs


# --- the rules checker, on the compiled engine's states ---------------------------


@pytest.mark.parametrize("players", [2, 3, 4])
def test_the_rules_hold_after_every_turn_of_compiled_games(tmp_path, players):
    tables = database(tmp_path)
    bots = bot_table(resolve_profiles(None), PROFILES, tables, players)
    broken: list[str] = []
    st = compiled.simulate(tables, bots, seats_for(players, 400, PROFILES), Streams(players, 0, 400), broken=broken)
    assert broken == []
    assert (st.winner >= 0).mean() > 0.99


def test_the_rules_checker_names_the_rule_a_state_breaks(tmp_path):
    from balance.games.horsepower.compiled import rules, structs

    tables = database(tmp_path)
    bots = bot_table(resolve_profiles(None), PROFILES, tables, 4)
    st = compiled.simulate(tables, bots, seats_for(4, 3, PROFILES), Streams(1, 0, 3))
    tab = compiled.tables_for(tables, bots, 4)
    arrays = structs.StateArrays(*(getattr(st, name) for name in compiled.STATE_FIELDS))
    assert [rules.rule_broken(tab, arrays, g, 0) for g in range(3)] == [0, 0, 0]
    st.coins[0, 1] = -3
    st.garage[1, 2, 0] += 1  # a card from nowhere
    st.bananas[2, st.pos[2, 3]] = 1  # a Banana under a player
    found = [rules.RULES[rules.rule_broken(tab, arrays, g, 0) - 1] for g in range(3)]
    assert found == ["negative coins", "cards not conserved across zones", "a player stands on a Banana"]


# --- the trace, in the numpy engine's words ------------------------------------------


def traced(tables, players: int, seed: int, game: int, verbose: bool) -> list[str]:
    """Game `game` of (players, seed) traced alone (games 4 and 5 with a strength bonus's Playbook)."""
    from balance.games.recorder import Recorder

    bots = bot_table(resolve_profiles(None), PROFILES, tables, players)
    seats = seats_for(players, game + 1, PROFILES)[game : game + 1]
    bonus = Bonus(-1, game % 5, np.array([game % players]), instead=game % 2 == 0) if game > 3 else None
    rec = Recorder(watch=0, verbose=verbose)
    compiled.simulate(tables, bots, seats, Streams(seed, game, 1), rec=rec, bonus=bonus)
    return rec.lines


TRACE_GAMES = [(players, seed, game) for players, seed in ((4, 1), (3, 2), (2, 3), (4, 4)) for game in range(6)]
# sha256 of the traces of those 24 games, recorded at commit 9118d96, where the numpy engine said the same,
# line by line
TRACE_DIGESTS = {False: "aec6e9e7e3b63711063d2963380544ec", True: "fface4c423dfecc23fc417be013a5341"}


@pytest.mark.parametrize("verbose", [False, True], ids=["plain", "verbose"])
def test_a_traced_game_says_what_the_numpy_engine_said(tmp_path, verbose):
    tables = database(tmp_path, banana_blocked="lost")
    said = [traced(tables, players, seed, game, verbose) for players, seed, game in TRACE_GAMES]
    assert all(len(lines) > 100 for lines in said)
    text = "\n".join("\n".join(lines) for lines in said)
    assert "strength bonus: seat" in text and "Playbook" in text
    now = hashlib.sha256(text.encode()).hexdigest()[:32]
    assert now == TRACE_DIGESTS[verbose], f"the traces changed (now {now})"


def test_a_machine_without_the_compiled_engine_is_told(tmp_path):
    """Where numba keeps no compiled rules (here: an empty NUMBA_CACHE_DIR), the
    engine knows it must compile, so a command can say so before the minute it takes."""
    import os
    import subprocess
    import sys

    code = "from balance.games.horsepower.compiled import is_compiled; print(is_compiled())"
    env = os.environ | {"NUMBA_CACHE_DIR": str(tmp_path)}
    out = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "False"
