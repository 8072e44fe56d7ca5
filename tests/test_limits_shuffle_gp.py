"""Shuffle Grand Prix at the edges of its schema (issue 17): every value the
schema refuses is one line naming the field and the limit, and every database
it accepts plays. Two generated databases hold every bounded field at its
largest and at its smallest allowed value; each plays a chunk whose logs hold
what was played (no column wraps)."""

from __future__ import annotations

import copy
from pathlib import Path
from typing import Any

import numpy as np
import polars as pl
import pytest
import yaml

from balance.errors import UserError
from balance.games.chance import Streams
from balance.games.events import Events
from balance.games.shuffle_gp import compiled
from balance.games.shuffle_gp import schema as S
from balance.games.shuffle_gp import vocabulary as V
from balance.games.shuffle_gp.bots import MAX_WEIGHT, bot_table, resolve_profiles
from balance.games.shuffle_gp.compile import compile_database
from balance.games.shuffle_gp.log import chunk_tables, finish_order
from balance.games.shuffle_gp.schema import load_database
from balance.games.shuffle_gp.state import PLAYS_MOST, SKIP_MOST
from balance.runner import RunOptions, run

from . import shuffle_gp as sg
from .conftest import ROOT, one_line_error
from .shuffle_gp import OP, TARGET, apply_op, discard_down, violations

SHUFFLE_GP = ROOT / "shuffle_gp.yaml"
BOTS = ["balanced", "aggressive", "defensive", "random"]


def error_of(path: str | Path) -> str:
    return one_line_error(load_database, str(path))


def mutant(tmp_path: Path, changes: dict[tuple, Any]) -> Path:
    """A copy of the shipped database with the values at these paths replaced."""
    data = yaml.safe_load(SHUFFLE_GP.read_text())
    for path, value in changes.items():
        node = data
        for key in path[:-1]:
            node = node[key]
        node[path[-1]] = copy.deepcopy(value)
    out = tmp_path / "mutant.yaml"
    out.write_text(yaml.safe_dump(data, sort_keys=False))
    return out


def field_error(path: Path, field: str, message: str) -> None:
    text = error_of(path)
    where, rest = text.split(": ", 1)
    assert where.startswith(f"{path}:") and where.split(":")[-1].isdigit(), text
    assert rest == f"{field}: {message}"


# --- what the schema refuses: before, a traceback (in validate or deep in a worker), a silent
# wrap (a shield of 200 in an int8 slot), or past what the engine's arrays are sized for -------

OPS = "damage, heal, steal_card, discard_distance, draw_distance, swap_top_distance, skip_turn, draw_ability, "
OPS += "extra_play, remove_equip, remove_nerf, shield, distance_bonus, damage_bonus, damage_reduction, no_ability_play"
ROLL_CAGE = ("drivers", 1, "cards", 2, "effects", 0)  # ironside_roll_cage: {op: shield, amount: 2}
RAM = ("drivers", 0, "cards", 0)  # blaze_ram: {op: damage, target: one_rival, amount: 2}
HOTHEAD = ("drivers", 0, "specialty")  # Blaze: always, damage_bonus 1
HUBCAPS = ("drivers", 0, "cards", 3)  # blaze_spiked_hubcaps: an equip

REFUSED = [
    # nested wrong types: a TypeError (unhashable) in validate
    ({(*ROLL_CAGE, "op"): [1, 2]}, "drivers.ironside.cards.ironside_roll_cage.effects.0.op",
     f"expected one op name, got a list (known: {OPS})"),
    ({(*ROLL_CAGE, "op"): {"op": "shield"}}, "drivers.ironside.cards.ironside_roll_cage.effects.0.op",
     f"expected one op name, got a mapping (known: {OPS})"),
    ({(*HOTHEAD, "op"): [1, 2]}, "drivers.blaze.specialty.op", f"expected one op name, got a list (known: {OPS})"),
    # counts and amounts past the int16 columns (compile.py)
    ({(*RAM, "count"): 33_000}, "drivers.blaze.cards.blaze_ram.count", "must be at most 20, got 33000"),
    ({(*RAM, "count"): 10**30}, "drivers.blaze.cards.blaze_ram.count", f"must be at most 20, got {10**30}"),
    ({(*RAM, "effects", 0, "amount"): 33_000}, "drivers.blaze.cards.blaze_ram.effects.0.amount",
     "must be at most 100, got 33000"),
    ({(*RAM, "effects", 0, "amount"): 10**30}, "drivers.blaze.cards.blaze_ram.effects.0.amount",
     f"must be at most 100, got {10**30}"),
    ({(*HOTHEAD, "amount"): 10**9}, "drivers.blaze.specialty.amount", "must be at most 100, got 1000000000"),
    ({(*ROLL_CAGE, "amount"): 200}, "drivers.ironside.cards.ironside_roll_cage.effects.0.amount",
     "must be at most 30, got 200"),
    ({("drivers", 4, "cards", 6, "effects", 0, "amount"): -40_000},
     "drivers.comet.cards.comet_headwind.effects.0.amount", "must be at least -1000, got -40000"),
    ({(*HUBCAPS, "turns"): 200}, "drivers.blaze.cards.blaze_spiked_hubcaps.turns", "must be at most 20, got 200"),
    ({(*RAM, "effects"): [{"op": "damage", "target": "one_rival", "amount": 1}] * 5},
     "drivers.blaze.cards.blaze_ram.effects", "must have at most 4 items, got 5"),
    # rules: int8 and int16 state, loops per turn, the turn cap
    ({("rules", "hand_size"): 10**30}, "rules.hand_size", f"must be at most 10, got {10**30}"),
    ({("rules", "equip_slots"): 0}, "rules.equip_slots", "must be at least 1, got 0"),
    ({("rules", "tire_health"): 200}, "rules.tire_health", "must be at most 100, got 200"),
    ({("rules", "plays_per_turn"): 200}, "rules.plays_per_turn", "must be at most 10, got 200"),
    ({("rules", "trophies"): 40_000}, "rules.trophies", "must be at most 100, got 40000"),
    ({("rules", "max_turns"): 33_000}, "rules.max_turns", "must be at most 1000, got 33000"),
    ({("rules", "max_turns"): 10**30}, "rules.max_turns", f"must be at most 1000, got {10**30}"),
    ({("rules", "players", "max"): 200}, "rules.players.max", "must be at most 8, got 200"),
    # the distance deck: values, counts, and a deck the setup and the race draw from
    ({("distance", 0, "value"): 40_000}, "distance.0.value", "must be at most 1000, got 40000"),
    ({("distance", 0, "count"): 10**6}, "distance.0.count", "must be at most 200, got 1000000"),
    ({("distance", 0, "count"): 190}, "distance", "224 distance cards in all; at most 200 (each player's stack "
     "can hold them all)"),
    ({("distance",): [{"value": 25, "count": 0, "name": "Snail"}]}, "distance",
     "0 distance cards in all; 4 players need at least 4 (one is dealt to each at setup, and the race draws from them)"),
]  # fmt: skip


@pytest.mark.parametrize(("changes", "field", "message"), REFUSED, ids=[f for _, f, _ in REFUSED])
def test_refused_with_the_field_and_the_limit(tmp_path, changes, field, message):
    field_error(mutant(tmp_path, changes), field, message)


def test_more_than_two_drivers_each_is_refused(tmp_path):
    """The draft deals each player a driver and a co-pilot: a third was never drafted."""
    path = mutant(tmp_path, {("rules", "drivers_each"): 3, ("rules", "players", "max"): 2})
    field_error(
        path, "rules.drivers_each", "must be at most 2 (a driver and a co-pilot: the draft deals two each), got 3"
    )


@pytest.mark.parametrize(
    ("profile", "message"),
    [
        ({"speed": 1e30}, f"bot_profiles.x.speed: must be at most {MAX_WEIGHT}, got 1e+30"),
        ({"extra_play": float("inf")}, f"bot_profiles.x.extra_play: must be at most {MAX_WEIGHT}, got inf"),
        ({"swap_below": 200}, "bot_profiles.x.swap_below: must be at most 100, got 200"),
        ({"drivers": {"blaze": -1e30}}, f"bot_profiles.x.drivers.blaze: must be at least {-MAX_WEIGHT}, got -1e+30"),
    ],
)
def test_bot_profiles_are_bounded(profile, message):
    """A weight of 1e30 is inf in float32 (inf - inf = nan scores); swap_below is an int8 column."""
    with pytest.raises(UserError) as info:
        resolve_profiles({"x": profile})
    assert str(info.value).endswith(message)


# --- what the engine does at the edges ------------------------------------------------------


def test_skips_and_extra_plays_saturate_instead_of_wrapping():
    """skip (int8) and card_plays (int8) take the most an op can add, many times over."""
    m, st = sg.batch(["robot", "robot"], games=2, seed=1)
    g, p = np.arange(2), np.zeros(2, np.int64)
    st.current[:] = 0
    no_avoid = np.zeros((2, 2), bool)
    for _ in range(30):
        skip, extra = np.full(2, V.OPS["skip_turn"].most), np.full(2, V.OPS["extra_play"].most)
        apply_op(m, st, OP["skip_turn"], g, p, np.full(2, TARGET["next"]), skip, p, p - 1, 0, no_avoid)
        apply_op(m, st, OP["extra_play"], g, p, None, extra, p, p - 1, 0, no_avoid)
    assert (st.skip[:, 1] == SKIP_MOST).all() and (st.card_plays == PLAYS_MOST).all()


def test_a_hand_far_over_its_size_discards_back_down_to_it():
    m, st = sg.batch(["robot", "robot"], games=3, seed=2)
    g, p = np.arange(3), np.zeros(3, np.int64)
    st.hand[:, 0] += st.draw[:, 0]  # every card of the deck in hand: 21 over
    st.draw[:, 0] = 0
    discard_down(m, st, g, p)
    assert (st.hand[:, 0].sum(axis=1) == sg.T.rules.hand_size).all()


def test_trophies_rank_under_distance_whatever_the_box_holds():
    """A box of 100 trophies: 70 of them never outweigh a distance point."""
    from dataclasses import replace

    tables = replace(sg.T, rules=replace(sg.T.rules, trophies=100))
    m, st = sg.batch(["robot", "robot"], games=1, seed=3)
    sg.stack(st, 0, [100])
    sg.stack(st, 1, [75])
    st.bonus[:, 1] = 24
    st.trophies[:, 1] = 70
    assert finish_order(st, tables).tolist() == [[1, 2]]


# --- every bounded field at its largest, and at its smallest --------------------------------

# Effects a card of each type carries at the edges: every op appears, each at its largest amount.
INSTANT = [
    [
        ("damage", "all_rivals"),
        ("steal_card", "all_rivals"),
        ("discard_distance", "all_rivals"),
        ("draw_distance", None),
    ],
    [("heal", None), ("skip_turn", "all_rivals"), ("draw_ability", None), ("extra_play", None)],
    [("remove_equip", "all_rivals"), ("remove_nerf", None), ("swap_top_distance", "one_rival"), ("damage", "self")],
]
TRAP = [("damage", "triggerer"), ("skip_turn", "triggerer"), ("steal_card", "triggerer"), ("extra_play", None)]
EQUIP = [("shield", None), ("distance_bonus", None), ("damage_bonus", None), ("damage_reduction", None)]
NERF = [("no_ability_play", None), ("distance_bonus", None), ("damage_bonus", None), ("damage_reduction", None)]
SPECIALTIES = [
    ("always", "distance_bonus", None),
    ("turn_start", "draw_distance", None),
    ("draws_distance", "draw_ability", None),
    ("plays_action", "extra_play", None),
    ("deals_damage", "steal_card", "one_rival"),
    ("takes_damage", "damage", "triggerer"),
    ("trap_sprung", "skip_turn", "triggerer"),
]


def _effect(op: str, target: str | None, largest: bool, sign: int = 1) -> dict[str, Any]:
    spec = V.OPS[op]
    out: dict[str, Any] = {"op": op}
    if target is not None:
        out["target"] = target
    if spec.amount != "none":
        out["amount"] = sign * (spec.most if largest else 1)
    return out


def _card(d: int, j: int, largest: bool) -> dict[str, Any]:
    kind = V.CARD_TYPES[j % len(V.CARD_TYPES)]
    n = S.MAX_EFFECTS if largest else 1
    effects = {
        "action": INSTANT[j % len(INSTANT)],
        "anytime": INSTANT[(j + 1) % len(INSTANT)],
        "trap": TRAP,
        "equip": EQUIP,
        "nerf": NERF,
    }[kind][: 0 if kind == "anytime" and not largest else n]  # the smallest anytime card: a bare cancel
    card: dict[str, Any] = {
        "id": f"d{d}_c{j}",
        "name": f"Card {d}.{j}",
        "type": kind,
        "count": S.MAX_COPIES if largest else 1,
        "effects": [_effect(op, t, largest, -1 if kind == "nerf" else 1) for op, t in effects],
        "text": "-",
    }
    if kind in ("equip", "nerf", "trap"):
        card["turns"] = S.MAX_TURN_SYMBOLS if largest else 0
    if kind == "trap":
        card["trigger"] = V.TRIGGERS[d % len(V.TRIGGERS)]
    if kind == "anytime":
        card["cancels"] = V.CANCELS[d % len(V.CANCELS)]
    return card


def edge_database(largest: bool) -> dict[str, Any]:
    """Every bounded field at its largest allowed value, or at its smallest."""
    players = S.MAX_PLAYERS if largest else 2
    trophies = S.MAX_TROPHIES if largest else 1
    top = {"hand_size": S.MAX_HAND, "tire_health": S.MAX_TIRE, "equip_slots": S.MAX_EQUIP_SLOTS}
    top |= {"turn_trackers": S.MAX_TRACKERS, "distance_per_turn": S.MAX_PER_TURN, "plays_per_turn": S.MAX_PER_TURN}
    top |= {"spin_out_discard": S.MAX_DISCARD, "pit_stop_discard": S.MAX_DISCARD, "max_turns": S.MAX_TURNS}
    low = {"hand_size": 1, "tire_health": 1, "equip_slots": 1, "turn_trackers": 0, "distance_per_turn": 1}
    low |= {"plays_per_turn": 1, "spin_out_discard": 0, "pit_stop_discard": 0, "max_turns": 1}
    rules = {"players": {"min": players, "max": players}, "drivers_each": 2, **(top if largest else low)}
    rules |= {"trophies": trophies, "trophy_swap": trophies, "trophy_extra_play": trophies}
    rules |= {"spin_out_trophy": trophies}
    kinds = S.MAX_DISTANCE_KINDS if largest else 1
    each = S.MAX_DISTANCE_CARDS // kinds if largest else players
    distance = [
        {"value": S.MAX_DISTANCE_VALUE - v if largest else 1, "count": each, "name": f"D{v}"} for v in range(kinds)
    ]
    n_drivers = S.MAX_DRIVERS if largest else 2 * players
    entries = S.MAX_DECK_ENTRIES if largest else len(V.CARD_TYPES)
    drivers = []
    for d in range(n_drivers):
        when, op, target = SPECIALTIES[d % len(SPECIALTIES)]
        specialty = {"name": "S", "when": when, **_effect(op, target, largest), "text": "-"}
        cards = [_card(d, j, largest) for j in range(entries)]
        drivers.append({"id": f"d{d}", "name": f"Driver {d}", "specialty": specialty, "cards": cards})
    return {"rules": rules, "distance": distance, "drivers": drivers}


def play_edge(tmp_path: Path, largest: bool, games: int = 8, **rules: int) -> None:
    data = edge_database(largest)
    data["rules"] |= rules
    path = tmp_path / "edge.yaml"
    path.write_text(yaml.safe_dump(data, sort_keys=False))
    db = load_database(path)
    tables = compile_database(db)
    r = tables.rules
    P = r.max_players
    bots = bot_table(resolve_profiles(None), BOTS, tables)
    seats = (np.arange(P)[None, :] + np.arange(games)[:, None]) % len(BOTS)
    broken: list[str] = []
    events = Events()
    # the rules checker (compiled rules.rule_broken) after every turn
    check = None if largest else broken
    st = compiled.simulate(tables, bots, seats, Streams(7, 0, games), events=events, broken=check)
    assert broken == [] and violations(st, tables, bots) == []
    logs = chunk_tables(st, events, seats, tables, bots, 0, 0)
    games_log, players_log = pl.from_arrow(logs["games"]), pl.from_arrow(logs["players"])
    assert games_log["rounds"].to_list() == st.turn.tolist()  # no wrap
    assert ((games_log["rounds"] >= 1) & (games_log["rounds"] <= r.max_turns)).all()
    assert players_log["turns"].to_list() == st.turns_taken.ravel().tolist()
    assert players_log["turns"].sum() == games_log["rounds"].sum(), "every turn is one seat's"
    for column, values in [("distance_lost", st.distance_lost), ("cards_played", st.played.sum(axis=2))]:
        assert players_log[column].to_list() == values.ravel().tolist()
    assert (players_log["distance_drawn"] >= 0).all() and (players_log["damage_taken"] >= 0).all()


def test_a_database_at_every_largest_value_plays(tmp_path):
    play_edge(tmp_path, largest=True)


def test_a_database_at_every_smallest_value_plays(tmp_path):
    play_edge(tmp_path, largest=False)
    play_edge(tmp_path, largest=False, max_turns=S.MAX_TURNS)  # and the whole race


def test_one_past_the_largest_database_is_refused(tmp_path):
    data = edge_database(largest=True)
    data["drivers"].append(copy.deepcopy(data["drivers"][0]) | {"id": "extra"})
    path = tmp_path / "edge.yaml"
    path.write_text(yaml.safe_dump(data, sort_keys=False))
    field_error(path, "drivers", f"must have at most {S.MAX_DRIVERS} items, got {S.MAX_DRIVERS + 1}")


# --- the turn cap in a run ------------------------------------------------------------------


def test_a_run_cut_by_the_turn_cap_logs_every_game_unfinished(tmp_path):
    """overrides: {rules.max_turns: 3}: no race of 50 distance cards ends in 3 turns."""
    (tmp_path / "capped.yaml").write_text(
        f"name: capped\ngame: shuffle_gp\ncards: {SHUFFLE_GP}\nplayers: 4\nbots: {BOTS}\n"
        "games: 12\nchunk_size: 6\nseed: 3\noverrides: {rules.max_turns: 3}\n"
    )
    run(tmp_path / "capped.yaml", RunOptions(out=tmp_path / "run", jobs=1))
    games = pl.read_parquet(sorted((tmp_path / "run" / "games").glob("*.parquet")))
    assert games.height == 12
    assert games["finished"].to_list() == [False] * 12
    assert games["rounds"].to_list() == [3] * 12 and games["winner_seat"].null_count() == 12
