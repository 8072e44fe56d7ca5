"""The compiled Shuffle Grand Prix engine plays the very games the numpy
engine plays: a game is a function of (scenario, seed, game id), whichever
engine plays it. Every array of the final state and every card event is
compared, over the rules settings a designer can turn, the strength bonus
(a driver given, an extra card), noisy and quiet bots and every player
count; and the golden results replay through it."""

from __future__ import annotations

import numpy as np
import pytest
import yaml

from balance.games.chance import Streams
from balance.games.events import Events
from balance.games.shuffle_gp import compiled
from balance.games.shuffle_gp.bots import bot_table, resolve_profiles
from balance.games.shuffle_gp.compile import compile_database
from balance.games.shuffle_gp.engine import simulate
from balance.games.shuffle_gp.schema import load_database
from balance.games.shuffle_gp.setup import Bonus

from .conftest import ROOT

PROFILES = ["balanced", "aggressive", "defensive", "random"]


def database(tmp_path, **rules):
    doc = yaml.safe_load((ROOT / "shuffle_gp.yaml").read_text())
    doc["rules"].update(rules)
    path = tmp_path / "shuffle_gp.yaml"
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
        assert x.dtype == y.dtype and x.shape == y.shape, name
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
    bots = bot_table(resolve_profiles(None), PROFILES, tables)
    a, b = both(tables, bots, seats_for(players, 64, PROFILES))
    assert_same_games(a, b)
    assert not b[0].running.any() and len(b[1]["game"]) > 64 * 20  # whole games, with their events


@pytest.mark.parametrize(
    "rules",
    [
        {
            "spin_out_trophies": "all_damagers",
            "first_player_ties": "lowest_seat",
            "bottom_pile": "random",
            "specialty_of": "active_driver",
        },
        {"anytime_cards": "turn_play", "trap_damage_specialties": True, "pit_stop_equips": False},
        {"hand_size": 4, "plays_per_turn": 2, "distance_per_turn": 2, "tire_health": 3, "trophies": 4},
    ],
    ids=["rule-readings", "anytime-and-traps", "numbers"],
)
def test_every_rules_setting_plays_the_same_games(tmp_path, rules):
    tables = database(tmp_path, **rules)
    bots = bot_table(resolve_profiles(None), PROFILES, tables)
    assert_same_games(*both(tables, bots, seats_for(4, 48, PROFILES), seed=5))


@pytest.mark.parametrize("kind", ["driver", "card"])
def test_a_strength_bonus_plays_the_same_games(tmp_path, kind):
    tables = database(tmp_path)
    bots = bot_table(resolve_profiles(None), PROFILES, tables)
    who = np.arange(40) % 3
    if kind == "driver":
        bonus = Bonus(who, driver=tables.drivers.index("gremlin"))
    else:
        bonus = Bonus(who, card=tables.cards.index("blaze_ram"))
    assert_same_games(*both(tables, bots, seats_for(3, 40, PROFILES), seed=9, bonus=bonus))


def test_quiet_and_eager_bots_play_the_same_games(tmp_path):
    """Bots without noise (ties decide), always answering, spending and playing anytime cards."""
    tables = database(tmp_path)
    profiles = resolve_profiles(
        {
            "quiet": {"noise": 0.0, "cancel": 1.0, "swap_below": 4, "extra_play": 0.0, "anytime": 0.0},
            "tuned": {"noise": 0.2, "lead": 1.0, "pit_stop": 0.0, "redraw": 3.0},
        }
    )
    names = ["quiet", "tuned", "aggressive", "random"]
    bots = bot_table(profiles, names, tables)
    assert_same_games(*both(tables, bots, seats_for(4, 48, names), seed=11))


def test_a_batch_with_more_events_than_its_room_grows_its_buffer(tmp_path, monkeypatch):
    tables = database(tmp_path)
    bots = bot_table(resolve_profiles(None), PROFILES, tables)
    monkeypatch.setattr(compiled, "EVENTS_PER_GAME", 1)  # far short of a game's events: the buffer doubles
    assert_same_games(*both(tables, bots, seats_for(4, 12, PROFILES)))


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

    from balance.games.shuffle_gp import engine

    from .test_golden_results import first_difference, golden

    calls = []
    play = compiled.simulate

    def counted(*args, **kwargs):
        calls.append(len(args[2]))
        return play(*args, **kwargs)

    monkeypatch.setattr(compiled, "simulate", counted)  # chunk.play_chunk plays runs on the compiled engine
    monkeypatch.setattr(engine, "play_game", lambda *a, **k: pytest.fail("a game played on the numpy engine"))
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
    from balance.games.shuffle_gp.invariants import violations

    tables = database(tmp_path)
    bots = bot_table(resolve_profiles(None), PROFILES, tables)
    st = compiled.simulate(tables, bots, seats_for(4, 4, PROFILES), Streams(1, 0, 4))
    tab = compiled.tables_for(tables, bots, 4)
    arrays = structs.StateArrays(*(getattr(st, name) for name in compiled.STATE_FIELDS))
    assert [rules.rule_broken(tab, arrays, g, -1) for g in range(4)] == [0, 0, 0, 0]
    assert violations(st, tables) == []
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
    assert set(found) <= {v.split(" (game")[0] for v in violations(st, tables)}  # the numpy checker's words


# --- the trace, in the numpy engine's words ------------------------------------------


@pytest.mark.parametrize("verbose", [False, True], ids=["plain", "verbose"])
def test_a_traced_game_says_what_the_numpy_engine_says(tmp_path, verbose):
    from balance.games.recorder import Recorder

    tables = database(tmp_path, spin_out_trophies="all_damagers")
    for players, seed in ((4, 1), (3, 2), (2, 3), (4, 4)):
        bots = bot_table(resolve_profiles(None), PROFILES, tables)
        for game in (0, 1, 4, 5):  # 4: a driver given, 5: an extra card
            seats = seats_for(players, game + 1, PROFILES)[game : game + 1]
            bonus = None
            if game == 4:
                bonus = Bonus(np.array([game % players]), driver=tables.drivers.index("snare"))
            elif game == 5:
                bonus = Bonus(np.array([game % players]), card=tables.cards.index("blaze_ram"))
            said = []
            for play in (simulate, compiled.simulate):
                rec = Recorder(watch=0, verbose=verbose)
                play(tables, bots, seats, Streams(seed, game, 1), rec=rec, bonus=bonus)
                said.append(rec.lines)
            assert said[1] == said[0], f"{players} players, seed {seed}, game {game}: the traces differ"
            assert len(said[1]) > 100


def test_a_traced_game_longer_than_its_room_is_played_again_with_more(tmp_path, monkeypatch):
    from balance.games.recorder import Recorder

    tables = database(tmp_path)
    bots = bot_table(resolve_profiles(None), PROFILES, tables)
    monkeypatch.setattr(compiled, "TRACE_RECORDS", 5)
    monkeypatch.setattr(compiled, "TRACE_LISTS", 1)
    seats = seats_for(3, 3, PROFILES)
    said, states = [], []
    for play in (simulate, compiled.simulate):
        rec = Recorder(watch=1, verbose=True)
        events = Events()
        states.append((play(tables, bots, seats, Streams(4, 0, 3), rec=rec, events=events), events.arrays()))
        said.append(rec.lines)
    assert said[1] == said[0] and len(said[1]) > 100
    assert_same_games(*states)


def test_runs_and_traces_play_on_the_compiled_engine(monkeypatch):
    from balance.games import get_game
    from balance.games.shuffle_gp import chunk, engine
    from balance.runner import RunOptions, resolve_scenario

    scenario = resolve_scenario(ROOT / "scenarios" / "shuffle-gp-four.yaml", RunOptions(games=4))
    game = get_game("shuffle_gp")
    prep = game.prepare(scenario)
    monkeypatch.setattr(engine, "play_game", lambda *a, **k: pytest.fail("a game played on the numpy engine"))
    _, st = chunk.play_chunk(prep, scenario, 0, 4, Streams(1, 0, 4))
    assert not st.running.any()
    assert "The distance deck is empty: the race is over." in game.trace(scenario, 1, 2)
