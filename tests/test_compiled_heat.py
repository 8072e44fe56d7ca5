"""The compiled Heat engine plays the very races the numpy engine plays: a
race is a function of (scenario, seed, race id), whichever engine plays it.
Every array of the final state and every card event is compared, over the
rules settings a designer can turn, the tracks, the Garage draft, the
strength bonus, Legends, noisy bots and every car count; the traces say the
same words; the rules checker holds on the compiled engine's states."""

from __future__ import annotations

import importlib.util

import numpy as np
import pytest

from balance.games.chance import Streams
from balance.games.events import Events
from balance.games.heat import compiled
from balance.games.heat.bots import bot_table, resolve_profiles
from balance.games.heat.engine import simulate
from balance.games.recorder import Recorder

from . import heat
from .conftest import ROOT

NAMES = ["balanced", "aggressive", "cautious", "random", "tuned", "legend", "noisy"]
PROFILES = {"noisy": {"noise": 0.5, "risk": 1.0, "reserve": 3, "discard_below": 2.5}}
BASE = heat._BASE["rules"]


def both(tables, seats, seed=3, bonus=None):
    """The same races by both engines: (numpy state, its events), (compiled state, its events)."""
    bots = bot_table(resolve_profiles(PROFILES), NAMES, tables)
    out = []
    for play in (simulate, compiled.simulate):
        events = Events()
        st = play(tables, bots, seats, Streams(seed, 100, len(seats)), events=events, bonus=bonus)
        out.append((st, events.arrays()))
    return out


def assert_same_races(a, b):
    (sa, ea), (sb, eb) = a, b
    for name in compiled.STATE_FIELDS:
        x, y = getattr(sa, name), getattr(sb, name)
        where = np.argwhere(x != y)
        assert not len(where), (
            f"{name} differs first at {where[0].tolist()}: {x[tuple(where[0])]} -> {y[tuple(where[0])]}"
        )
    for name in ea:
        assert np.array_equal(ea[name], eb[name]), f"the card events' {name} column differs"


def seats_for(cars, races, profiles=len(NAMES)):
    return (np.arange(cars)[None, :] + np.arange(races)[:, None]) % profiles


@pytest.mark.parametrize("cars", [2, 3, 4, 5, 6])
def test_the_compiled_engine_races_the_numpy_engines_races(cars):
    a, b = both(heat.tables(), seats_for(cars, 64))
    assert_same_races(a, b)
    st, events = b
    assert st.finished.mean() > 0.9 and len(events["game"]) > 64 * 50  # whole races, with their events
    assert st.is_legend.any() and st.spin_outs.any() and st.boosts.any() and st.slipstreams.any()


@pytest.mark.parametrize(
    "rules",
    [
        {"garage_module": True, "track": "france"},
        {"adrenaline": BASE["adrenaline"] | {"mode": "both", "speed": 2}, "aggressive_legends": True},
        {"track": "italia", "stress_supply": 12},
        {
            "garage_module": True,
            "track": "great_britain",
            "garage_draft": BASE["garage_draft"] | {"order": "round_robin", "revealed_extra": 0, "upgrades_each": 4},
        },
        {"grid": {"cars_per_space": 1, "pole_space": -2}, "max_rounds": 9, "boost_gears": [3, 4], "slipstream": 3},
        {
            "hand_size": 5,
            "gears": 5,
            "cooldown_by_gear": [3, 2, 1, 0, 0],
            "spin_out_stress_by_gear": [1, 1, 2, 2, 3],
            "shift_two_heat": 2,
            "starting_gear": 2,
            "spin_out_gear": 2,
        },
    ],
    ids=["garage", "adrenaline-both-aggressive-legends", "short-stress", "round-robin-draft", "grid-cap", "gears"],
)
def test_every_rules_setting_races_the_same_races(rules):
    tables = heat.tables(**rules)
    for cars in (2, 6):
        assert_same_races(*both(tables, seats_for(cars, 32), seed=cars))


@pytest.mark.parametrize("garage", [False, True])
def test_a_strength_bonus_races_the_same_races(garage):
    tables = heat.tables(garage_module=garage)
    seats = seats_for(4, 32, profiles=5)  # no Legend: every car may take the card
    for card in (14, 39):  # a deck card (Body), a Garage upgrade (Wings)
        assert_same_races(*both(tables, seats, seed=7, bonus=(card, np.arange(32) % 4)))


def test_a_race_with_more_events_than_its_room_is_raced_again_with_more(monkeypatch):
    monkeypatch.setattr(compiled, "EVENTS_PER_GAME", 3)  # far short of a race's events: every race overflows
    assert_same_races(*both(heat.tables(garage_module=True), seats_for(4, 12)))


def test_progress_is_told_as_races_finish():
    bots = bot_table(resolve_profiles(None), NAMES[:5], heat.tables())
    finished = []
    compiled.simulate(
        heat.tables(),
        bots,
        seats_for(4, 60, 5),
        Streams(1, 0, 60),
        progress=lambda s: finished.append(int((~s.running).sum())),
    )
    assert finished == [8, 24, 56, 60]  # 8 races, then slices twice as long (60 races take far under 0.1 s)


def test_a_traced_race_says_what_the_numpy_engine_says():
    for rules, cars in (({}, 4), ({"garage_module": True, "track": "france"}, 3), ({"stress_supply": 10}, 6)):
        tables = heat.tables(**rules)
        bots = bot_table(resolve_profiles(PROFILES), NAMES, tables)
        for race in (1, 2, 3):
            seats = seats_for(cars, race + 1)[race : race + 1]
            bonus = (14, np.array([0])) if race == 3 else None  # car 0 of race 3 is never a Legend
            verbose = race == 2  # --verbose: the hands too
            said = []
            for play in (simulate, compiled.simulate):
                rec = Recorder(watch=0, verbose=verbose)
                play(tables, bots, seats, Streams(race, race, 1), rec=rec, bonus=bonus)
                said.append(rec.lines)
            assert said[1] == said[0], f"{rules}, {cars} cars, race {race}: the traces differ"
            assert len(said[1]) > 50


# --- runs, traces and the golden results go through the compiled engine -------------


def test_runs_and_traces_race_on_the_compiled_engine(monkeypatch):
    from balance.games import get_game
    from balance.games.heat import chunk, turn
    from balance.runner import RunOptions, resolve_scenario

    scenario = resolve_scenario(ROOT / "scenarios" / "heat-usa.yaml", RunOptions(games=4))
    game = get_game("heat")
    prep = game.prepare(scenario)
    monkeypatch.setattr(turn, "play_round", lambda *a, **k: pytest.fail("a race played on the numpy engine"))
    _, st = chunk.play_chunk(prep, scenario, 0, 4, Streams(1, 0, 4))
    assert st.finished.all()
    assert "Result after" in game.trace(scenario, 1, 2)


def test_the_compiled_engine_races_the_recorded_golden_races(monkeypatch):
    """The first chunk of each Heat case of scripts/regen_golden_results.py, through the runner."""
    import pyarrow as pa

    from balance.games.heat import turn

    spec = importlib.util.spec_from_file_location("regen_golden_results", ROOT / "scripts" / "regen_golden_results.py")
    golden = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(golden)
    monkeypatch.setattr(turn, "play_round", lambda *a, **k: pytest.fail("a race played on the numpy engine"))
    for name in [n for n in golden.CASES if n.startswith("heat-")]:
        recorded, played = golden.read(name), golden.play(name, golden.CHUNK)
        n = played["games"].num_rows
        for table in ("games", "players"):
            expected = recorded[table].filter(pa.compute.less(recorded[table]["game_id"], n))
            assert played[table].equals(expected), f"{name}: the {table} table differs"
        assert played["cards"] == recorded["cards"][:1], f"{name}: the cards table differs"


# --- the rules checker, on the compiled engine's states ---------------------------


@pytest.mark.parametrize("garage", [False, True])
def test_the_rules_hold_after_every_turn_of_compiled_races(garage):
    tables = heat.tables(garage_module=garage, track="great_britain" if garage else "usa", stress_supply=20)
    bots = bot_table(resolve_profiles(PROFILES), NAMES, tables)
    for cars in (2, 4, 6):
        broken: list[str] = []
        st = compiled.simulate(tables, bots, seats_for(cars, 300), Streams(cars, 0, 300), broken=broken)
        assert broken == []
        assert st.finished.mean() > 0.95


def test_the_rules_checker_names_the_rule_a_state_breaks():
    from balance.games.heat.compiled import rules, structs

    tables = heat.tables()
    bots = bot_table(resolve_profiles(None), NAMES[:5], tables)
    st = compiled.simulate(tables, bots, seats_for(4, 3, 5), Streams(1, 0, 3))
    tab = compiled.tables_for(tables, bots, 4)
    arrays = structs.StateArrays(*(getattr(st, name) for name in compiled.STATE_FIELDS))
    assert [rules.rule_broken(tab, arrays, g, 0, st.pos[g, 0], st.spin_outs[g, 0]) for g in range(3)] == [0, 0, 0]
    st.engine[0, 1] = -1
    st.hand[1, 2, 0] += 1  # a card from nowhere
    st.lane[2, 3] = 2
    found = [rules.RULES[rules.rule_broken(tab, arrays, g, 0, st.pos[g, 0], st.spin_outs[g, 0]) - 1] for g in range(3)]
    assert found == [
        "negative Heat in an Engine",
        "cards not conserved (deck, hand, play, discard, Engine)",
        "lane out of range",
    ]
    st = compiled.simulate(tables, bots, seats_for(4, 1, 5), Streams(1, 0, 1))
    arrays = structs.StateArrays(*(getattr(st, name) for name in compiled.STATE_FIELDS))
    back = rules.rule_broken(tab, arrays, 0, 0, st.pos[0, 0] + 1, st.spin_outs[0, 0])  # it stood a space further on
    assert rules.RULES[back - 1] == "a car moved back without spinning out"


def test_a_machine_without_the_compiled_engine_is_told(tmp_path):
    """Where numba keeps no compiled rules (here: an empty NUMBA_CACHE_DIR), the
    engine knows it must compile, so a command can say so before it does."""
    import os
    import subprocess
    import sys

    code = "from balance.games.heat.compiled import is_compiled; print(is_compiled())"
    env = os.environ | {"NUMBA_CACHE_DIR": str(tmp_path)}
    out = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "False"
