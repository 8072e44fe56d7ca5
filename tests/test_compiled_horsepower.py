"""The compiled Horsepower engine (issue 44) plays the very games the numpy
engine plays: a game is a function of (scenario, seed, game id), whichever
engine plays it. Every array of the final state and every card event is
compared, over the rules settings a designer can turn, the strength bonus,
situational bots and every player count; the keyed numbers one at a time
equal the numpy functions' for a batch."""

from __future__ import annotations

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
from balance.games.horsepower.engine import simulate
from balance.games.horsepower.schema import load_database

from .conftest import ROOT

PROFILES = ["racer", "economist", "saboteur", "balanced", "random"]


def database(tmp_path, **rules):
    doc = yaml.safe_load((ROOT / "cards.yaml").read_text())
    doc["rules"].update(rules)
    path = tmp_path / "cards.yaml"
    path.write_text(yaml.safe_dump(doc))
    return compile_database(load_database(path))


def both(tables, bots, seats, seed=3, bonus=None):
    """The same games by both engines: (numpy state, its events), (compiled state, its events)."""
    out = []
    for play in (simulate, compiled.simulate):
        events = Events()
        streams = Streams(seed, 100, len(seats))
        st = play(tables, bots, seats, streams, events=events, bonus=bonus)
        out.append((st, events.arrays()))
    return out


def assert_same_games(a, b):
    (sa, ea), (sb, eb) = a, b
    for name in compiled.STATE_FIELDS:
        x, y = getattr(sa, name), getattr(sb, name)
        where = np.argwhere(x != y)
        assert not len(where), (
            f"{name} differs first at {where[0].tolist()}: {x[tuple(where[0])]} -> {y[tuple(where[0])]}"
        )
    for name in ea:
        assert np.array_equal(ea[name], eb[name]), f"the card events' {name} column differs"


def seats_for(players, games, profiles):
    return (np.arange(players)[None, :] + np.arange(games)[:, None]) % len(profiles)


@pytest.mark.parametrize("players", [2, 3, 4])
def test_the_compiled_engine_plays_the_numpy_engines_games(tmp_path, players):
    tables = database(tmp_path)
    bots = bot_table(resolve_profiles(None), PROFILES, tables, players)
    a, b = both(tables, bots, seats_for(players, 96, PROFILES))
    assert_same_games(a, b)
    assert (b[0].winner >= 0).mean() > 0.9 and len(b[1]["game"]) > 96 * 50  # whole games, with their events


@pytest.mark.parametrize(
    "rules",
    [
        {"banana_blocked": "lost", "first_drafter": "first_player", "wiped_during_own_turn": "next_turn"},
        {"draft_coins": [0, 1, 2, 3], "seat_coins": [0, 0, 1, 2], "debris_supply": 3, "min_drive": 2},
    ],
    ids=["rule-readings", "compensation-and-short-supply"],
)
def test_every_rules_setting_plays_the_same_games(tmp_path, rules):
    tables = database(tmp_path, **rules)
    bots = bot_table(resolve_profiles(None), PROFILES, tables, 4)
    assert_same_games(*both(tables, bots, seats_for(4, 64, PROFILES), seed=5))


@pytest.mark.parametrize("kind", ["card", "playbook-instead", "playbook-beside"])
def test_a_strength_bonus_plays_the_same_games(tmp_path, kind):
    tables = database(tmp_path)
    bots = bot_table(resolve_profiles(None), PROFILES, tables, 4)
    who = np.arange(48) % 4
    if kind == "card":
        bonus = Bonus(int(np.flatnonzero(tables.cards.group == 0)[3]), -1, who)  # a Parts Deck card
    else:
        bonus = Bonus(-1, 3, who, instead=kind.endswith("instead"))
    assert_same_games(*both(tables, bots, seats_for(4, 48, PROFILES), seed=9, bonus=bonus))


def test_situational_bots_play_the_same_games(tmp_path):
    tables = database(tmp_path)
    profiles = resolve_profiles(
        {
            "racer": {"behind_drive": 2.0, "behind_gap": 6, "rich_at": 5, "rich_coins": 0.5},
            "saboteur": {"behind_attack": 3.0, "leading_defense": 2.0},
        }
    )
    bots = bot_table(profiles, PROFILES, tables, 4)
    assert bots.situational
    assert_same_games(*both(tables, bots, seats_for(4, 64, PROFILES), seed=11))


def test_a_game_with_more_events_than_its_room_is_played_again_with_more(tmp_path, monkeypatch):
    tables = database(tmp_path)
    bots = bot_table(resolve_profiles(None), PROFILES, tables, 4)
    monkeypatch.setattr(compiled, "EVENTS_PER_GAME", 3)  # far short of a game's events: every game overflows
    assert_same_games(*both(tables, bots, seats_for(4, 12, PROFILES)))


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
    assert finished == [8, 24, 56, 60]  # 8 games, then slices twice as long (60 games take far under 0.1 s)


def test_runs_and_traces_play_on_the_compiled_engine(monkeypatch):
    from balance.games import get_game
    from balance.games.horsepower import chunk, engine
    from balance.runner import RunOptions, resolve_scenario

    scenario = resolve_scenario(ROOT / "scenarios" / "two-player-duel.yaml", RunOptions(games=4))
    game = get_game("horsepower")
    prep = game.prepare(scenario)
    monkeypatch.setattr(engine, "play_rounds", lambda *a, **k: pytest.fail("a game played on the numpy engine"))
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


@pytest.mark.parametrize("verbose", [False, True], ids=["plain", "verbose"])
def test_a_traced_game_says_what_the_numpy_engine_says(tmp_path, verbose):
    from balance.games.recorder import Recorder

    tables = database(tmp_path, banana_blocked="lost")
    for players, seed in ((4, 1), (3, 2), (2, 3), (4, 4)):
        bots = bot_table(resolve_profiles(None), PROFILES, tables, players)
        for game in range(6):
            seats = seats_for(players, game + 1, PROFILES)[game : game + 1]
            bonus = Bonus(-1, game % 5, np.array([game % players]), instead=game % 2 == 0) if game > 3 else None
            said = []
            for play in (simulate, compiled.simulate):
                rec = Recorder(watch=0, verbose=verbose)
                play(tables, bots, seats, Streams(seed, game, 1), rec=rec, bonus=bonus)
                said.append(rec.lines)
            assert said[1] == said[0], f"{players} players, seed {seed}, game {game}: the traces differ"
            assert len(said[1]) > 100


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
