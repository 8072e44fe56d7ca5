"""The compiled Heat engine plays the very races the numpy lockstep engine
played: a race is a function of (scenario, seed, race id), whichever engine
plays it. At commit 1c13126 every array of the final state and every card
event of both engines were compared over the rules settings a designer can
turn, the tracks, the Garage draft, the strength bonus, Legends, noisy bots
and every car count, and the traces line by line; their digests, recorded
there, stay as the regression test of the one engine left (with the golden
results of tests/golden/results/). The rules checker holds on the compiled
engine's states.

Issue 46 replaced our Legend deck with the published Legend cards (a helmet
number and diamond column per colour; Pro and Aggressive Legends on them), a
deliberate rule change: the cases with a Legend car were recorded again then.
Their races without a Legend car were checked equal, array by array, to the
ones the engine played before the change (4 to 46 races a case), and the
cases without any Legend car kept their proven digests.

On 2026-12-05 (issue 46's Championship audit) a slipstream that finds every
spot up to the car's own taken stopped counting as one (the car does not move;
the trace no longer says "slipstreams to" its own space): the eight cases
with five or six cars were recorded again, each checked equal to the races
before in every proven field but `slipstreams` (only that tally fell, e.g.
cars-6 1,183 -> 1,163), and the traces equal but one such line. The same day
a corner line came to say the car's own limit too ("limit 4, 5 with its
cards"): the traced races' text checked equal but for that addition. The
Garage's BGA cards (Fuel, Gas Pedal and Suspension with their Salvage,
Direct Play and Refresh, a fifth Gas Pedal, a fourth 4 Wheel Drive, a
second 2 of Suspension with other icons) changed the pool, so the seven
Garage cases and the traces (one race drafts) were recorded again, their
digests now over every card kind (a drafted card may be one of the new);
the same engine with the database before them reproduced every digest
above, the Garage cases' included. Then Scrap came to reshuffle the
discard pile into the deck when the deck runs out (BGA's Cards::scrap; it
used to stop), and the pool to hold two copies of each design (BGA's): the
Garage cases and bonus-39 (Wings 1 scraps 2) recorded again; with the
database before and the old Scrap, the engine still reproduced all 22. The
bots' draft came to value Accelerate, Super Cool and Draft (docs/bots.md): the
five Garage cases whose races drafted differently, and the traces, recorded
again; with those weights at 0 the engine reproduced all 22 and the traces.
BGA's Heat cards joined the Garage pool (rules.garage_draft.heat_cards, two
of each tier; the random and noisy bots draft some): the seven Garage cases
and the traces recorded again; with heat_cards at 0 the engine reproduced
all 22 and the traces."""

from __future__ import annotations

import hashlib
import importlib.util
from types import SimpleNamespace

import numpy as np
import pytest

from balance.games.chance import Streams
from balance.games.events import Events
from balance.games.heat import compiled
from balance.games.heat.bots import bot_table, resolve_profiles
from balance.games.heat.compiled import tables as compiled_tables
from balance.games.recorder import Recorder

from . import heat
from .conftest import ROOT
from .digests import digest

NAMES = ["balanced", "aggressive", "cautious", "random", "tuned", "legend", "noisy"]
# fields added after the proof (issue 46: the race's course after Weather and Road Conditions, which races without
# the module leave at the track's own values, checked below; a Legend's colour; the expansions' React effects this
# round), so the digests are of the fields proven
ADDED_FIELDS = ("limit", "overheat", "sector", "weather", "road", "weather_stress", "weather_heat", "colour")
ADDED_FIELDS += ("super_cool", "draft", "stress_out", "salvage", "accelerate", "flipped")
CHAMPIONSHIP_FIELDS = ("sponsors", "received", "presses", "sponsors_gained", "out")  # a season's race only: 0 here
ADDED_FIELDS += CHAMPIONSHIP_FIELDS
PROVEN_FIELDS = tuple(f for f in compiled.STATE_FIELDS if f not in ADDED_FIELDS)
# the card kinds of the proof: the base game's, to suspension_4 (a race's tables hold no card of an expansion it
# does not use); BGA's Garage cards added after it (suspension_3, gas_pedal_5, four_wheel_drive_4) hold nothing
# unless a Garage draft deals them
BASE_KINDS = [card["id"] for card in heat._BASE["cards"]].index("suspension_4") + 1


def proven(st, cut: bool = True) -> SimpleNamespace:
    """The state as proven: its card axes cut to the base game's kinds (the expansions' upgrades, dealt only
    with rules.expansions, hold nothing here); `cut` False: every kind (a Garage race, which may draft BGA's
    cards added after the proof)."""
    K = st.deck.shape[2] if cut else -1
    view = {}
    for name in PROVEN_FIELDS:
        array = getattr(st, name)
        if array.ndim == 3 and array.shape[2] == K:
            assert not array[..., BASE_KINDS:].any(), name
            array = array[..., :BASE_KINDS]
        view[name] = array
    return SimpleNamespace(**view)


PROFILES = {"noisy": {"noise": 0.5, "risk": 1.0, "reserve": 3, "discard_below": 2.5}}
BASE = heat._BASE["rules"]


def seats_for(cars, races, profiles=len(NAMES)):
    return (np.arange(cars)[None, :] + np.arange(races)[:, None]) % profiles


SETTINGS = {
    "garage": {"garage_module": True, "track": "france"},
    "adrenaline-both-aggressive-legends": {
        "adrenaline": BASE["adrenaline"] | {"mode": "both", "speed": 2},
        "aggressive_legends": True,
    },
    "short-stress": {"track": "italia", "stress_supply": 12},
    "round-robin-draft": {
        "garage_module": True,
        "track": "great_britain",
        "garage_draft": BASE["garage_draft"] | {"order": "round_robin", "revealed_extra": 0, "upgrades_each": 4},
    },
    "grid-cap": {
        "grid": {"cars_per_space": 1, "pole_space": -2},
        "max_cars": 6,  # (heat.yaml's 8 would stand behind Japan's last corner one car a space)
        "max_rounds": 9,
        "boost_gears": [3, 4],
        "slipstream": 3,
    },
    "gears": {
        "hand_size": 5,
        "gears": 5,
        "cooldown_by_gear": [3, 2, 1, 0, 0],
        "spin_out_stress_by_gear": [1, 1, 2, 2, 3],
        "shift_two_heat": 2,
        "starting_gear": 2,
        "spin_out_gear": 2,
    },
}

# Each case: (rules, cars, races, seed, bonus card (to grid slot race % cars) or None, profiles seated). The digests
# are of the final state and the card events of the compiled engine, recorded at commit 1c13126, where every
# one of these races was proven equal, array by array, to the numpy lockstep engine's (since removed: one
# engine per game).
CASES = {f"cars-{cars}": ({}, cars, 64, 3, None, len(NAMES)) for cars in (2, 3, 4, 5, 6)}
CASES |= {
    f"{name}-{cars}": (rules, cars, 32, cars, None, len(NAMES)) for name, rules in SETTINGS.items() for cars in (2, 6)
}
CASES |= {
    f"bonus-{card}{'-garage' if garage else ''}": ({"garage_module": garage}, 4, 32, 7, card, 5)  # no Legend seated
    for garage in (False, True)
    for card in (14, 39)  # a deck card (Body), a Garage upgrade (Wings)
}
CASES["garage-usa-4"] = ({"garage_module": True}, 4, 12, 3, None, len(NAMES))  # (its events overflow below)


DIGESTS = {
    "cars-2": "6dc7072705acdaab88e54875cb37305a",
    "cars-3": "d68737ad9733f5ec859619cd46ceb93f",
    "cars-4": "61557c4ec74388839e5a4322b3862e29",
    "cars-5": "5294b0950ffdf97afb86ba72974df743",
    "cars-6": "5ed90189f415267850a51ee213468d37",
    "garage-2": "da663efb47456d48ebf64156610d485f",
    "garage-6": "d97ecd9623d3ea21305ee9f30df36c29",
    "adrenaline-both-aggressive-legends-2": "42e1060342d8d559e5e2f47b6e0d38d5",
    "adrenaline-both-aggressive-legends-6": "fea179f5371bc7788d75d7b90e037920",
    "short-stress-2": "bc7c2e4267eb21c87d84bac94f8a2f9c",
    "short-stress-6": "1730ef7e46f88cb545940928ceac9e86",
    "round-robin-draft-2": "bc6c84302cb2a0bd61fe2fffdacc52bf",
    "round-robin-draft-6": "5e2de91cc9199aac90b8f584aabd3c71",
    "grid-cap-2": "27942bedcdccd6af2304649208ca8bee",
    "grid-cap-6": "879fb222bf250868ad5626a774ee62c4",
    "gears-2": "0a9acb21132d1ecc8115d7ac11308eb9",
    "gears-6": "5ae2b799a794edce8e4285424d8d8311",
    "bonus-14": "55e2dac8e992d59f3d0ae73133727a28",
    "bonus-39": "db8f3cbdbe7de07f954e38cb9302a7f3",
    "bonus-14-garage": "8837b906713fcdca175a2abba1a88cdc",
    "bonus-39-garage": "b86f1acd2138ee1a7c1006b71169ffa2",
    "garage-usa-4": "6e6a13ecc4b9e6275fa8f7ab1aecf41c",
}


def play_case(name: str) -> tuple:
    """(final state, card events) of case `name`, on the compiled engine."""
    rules, cars, races, seed, card, profiles = CASES[name]
    tables = heat.tables(**rules)
    bots = bot_table(resolve_profiles(PROFILES), NAMES, tables)
    bonus = None if card is None else (card, np.arange(races) % cars)
    events = Events()
    seats = seats_for(cars, races, profiles)
    st = compiled.simulate(tables, bots, seats, Streams(seed, 100, races), events=events, bonus=bonus)
    return st, events.arrays()


@pytest.mark.parametrize("name", list(CASES))
def test_the_engine_races_the_races_proven_equal_to_the_numpy_engines(name):
    st, events = play_case(name)
    now = digest(proven(st, cut=not CASES[name][0].get("garage_module")), PROVEN_FIELDS, events)
    assert now == DIGESTS[name], f"{name}: the races changed (now {now})"
    assert not any(getattr(st, f).any() for f in CHAMPIONSHIP_FIELDS)
    track = heat.tables(**CASES[name][0])
    course = compiled_tables.build(track, bot_table(resolve_profiles(PROFILES), NAMES, track), st.pos.shape[1])
    assert (st.limit == np.asarray(course.limit)[None, :]).all() and not st.overheat.any() and not st.sector.any()
    assert (st.weather == -1).all() and (st.road == -1).all(), "no Weather module: the track as printed"
    if name.startswith("cars-"):  # whole races, with their events
        assert st.finished.mean() > 0.9 and len(events["game"]) > 64 * 50
        assert st.is_legend.any() and st.spin_outs.any() and st.boosts.any() and st.slipstreams.any()
    if name.startswith("bonus-"):
        assert st.bonus.sum() == len(st.bonus) and not st.is_legend.any()
    if name.startswith(("garage-", "round-robin")):
        assert st.drafted.any()
    if name.startswith("grid-cap"):
        assert (st.round <= 9).all() and not st.running.any()


def test_a_race_with_more_events_than_its_room_is_raced_again_with_more(monkeypatch):
    monkeypatch.setattr(compiled, "EVENTS_PER_GAME", 3)  # far short of a race's events: every race overflows
    st, events = play_case("garage-usa-4")
    assert digest(proven(st, cut=False), PROVEN_FIELDS, events) == DIGESTS["garage-usa-4"]


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
    # 8 races, then slices at most twice as long each time (how much longer depends on the machine's speed)
    slices = np.diff([0, *finished])
    assert finished[0] == 8 and finished[-1] == 60 and (slices > 0).all()
    assert (slices[1:-1] <= 2 * slices[:-2]).all()


TRACED = (({}, 4), ({"garage_module": True, "track": "france"}, 3), ({"stress_supply": 10}, 6))


def traced(rules: dict, cars: int, race: int) -> list[str]:
    """Race `race` of a setting traced alone (race 2 --verbose, race 3 with a strength bonus)."""
    tables = heat.tables(**rules)
    bots = bot_table(resolve_profiles(PROFILES), NAMES, tables)
    seats = seats_for(cars, race + 1)[race : race + 1]
    bonus = (14, np.array([0])) if race == 3 else None  # car 0 of race 3 is never a Legend
    rec = Recorder(watch=0, verbose=race == 2)  # --verbose: the hands too
    compiled.simulate(tables, bots, seats, Streams(race, race, 1), rec=rec, bonus=bonus)
    return rec.lines


# sha256 of the traces of 9 races (3 settings, races 1-3), recorded where the numpy engine said the same; recorded
# again when the published Legend cards replaced ours (issue 46: the Legends' lines and moves), and when the Garage
# pool became BGA's 46 cards, and when the draft came to value Accelerate, and when the pool took BGA's Heat cards
TRACE_DIGEST = "71fa65d963ebeb52ed25b15a053471a2"


def test_a_traced_race_says_what_the_numpy_engine_said():
    said = [traced(rules, cars, race) for rules, cars in TRACED for race in (1, 2, 3)]
    assert all(len(lines) > 50 for lines in said)
    text = "\n".join("\n".join(lines) for lines in said)
    assert "balance strength: car 0 starts with an extra" in text and "Garage draft:" in text
    now = hashlib.sha256(text.encode()).hexdigest()[:32]
    assert now == TRACE_DIGEST, f"the traces changed (now {now})"


# --- runs, traces and the golden results go through the compiled engine -------------


def test_runs_and_traces_race_on_the_compiled_engine():
    from balance.games import get_game
    from balance.games.heat import chunk
    from balance.runner import RunOptions, resolve_scenario

    scenario = resolve_scenario(ROOT / "scenarios" / "heat-usa.yaml", RunOptions(games=4))
    game = get_game("heat")
    prep = game.prepare(scenario)
    _, st = chunk.play_chunk(prep, scenario, 0, 4, Streams(1, 0, 4))
    assert st.finished.all()
    assert "Result after" in game.trace(scenario, 1, 2)


def test_the_compiled_engine_races_the_recorded_golden_races():
    """The first chunk of each Heat case of scripts/regen_golden_results.py, through the runner."""
    import pyarrow as pa

    spec = importlib.util.spec_from_file_location("regen_golden_results", ROOT / "scripts" / "regen_golden_results.py")
    golden = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(golden)
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
