"""Issue 17 for Horsepower: every number of the card database and the bot
profiles has a range the engine can play, checked at load with the limit in a
one-line message; nested wrong types are one line too; a database at every
limit plays (and logs rounds and turns as played, never wrapped)."""

from __future__ import annotations

import copy
from pathlib import Path
from typing import Any

import numpy as np
import pytest
import yaml

from balance.errors import UserError
from balance.games.chance import Streams
from balance.games.horsepower import GAME
from balance.games.horsepower import limits as L
from balance.games.horsepower import vocabulary as V
from balance.games.horsepower.bots import resolve_profiles
from balance.games.horsepower.schema import load_database
from balance.scenario import load_scenario

from .conftest import CARDS, one_line_error

BASE = yaml.safe_load(CARDS.read_text())


def _set(data: Any, path: tuple, value: Any) -> None:
    node = data
    for key in path[:-1]:
        node = node[key]
    node[path[-1]] = value


def _write(tmp_path: Path, data: dict, name: str = "cards.yaml") -> str:
    path = tmp_path / name
    path.write_text(yaml.safe_dump(data, sort_keys=False))
    return str(path)


def _error(tmp_path: Path, path: tuple, value: Any) -> str:
    data = copy.deepcopy(BASE)
    _set(data, path, value)
    return one_line_error(load_database, _write(tmp_path, data))


def _card(card_id: str) -> int:
    return next(i for i, c in enumerate(BASE["cards"]) if c["id"] == card_id)


# --- the issue's reproducers and a value past every limit --------------------------


@pytest.mark.parametrize(
    ("path", "value", "expected"),
    [
        # the mutator's reproducers (OverflowError in the int16 effect table)
        (("cards", 16, "effects", 0, "amount"), 2**63, "must be at most 200, got 9223372036854775808"),
        (("cards", 23, "effects", 1, "amount"), 1_000_000, "must be at most 30, got 1000000"),
        (("cards", _card("twin_turbo"), "effects", 0, "amount"), -40_000, "must be at least -200, got -40000"),
        (("cards", _card("rear_ender"), "effects", 0, "amount"), 40_000, "must be at most 200, got 40000"),
        (("cards", _card("sponsorship_deal"), "effects", 0, "amount"), 40_000, "must be at most 1000, got 40000"),
        (("cards", _card("chop_shop"), "effects", 0, "count"), 10**9, "must be at most 30, got 1000000000"),
        (("cards", _card("dual_mount_frame"), "effects", 0, "count"), 3, "must be at most 2, got 3"),
        (("cards", _card("trade_magazine"), "effects", 1, "count"), 9, "must be at most 8, got 9"),
        (("playbooks", 11, "effects", 0, "if", "min_coins"), 40_000, "must be at most 1000, got 40000"),
        (("playbooks", 1, "effects", 0, "if", "min_puzzle_in_play"), 33_000, "must be at most 30, got 33000"),
        (
            ("playbooks", 26, "effects", 0, "if", "behind_leader"),
            2**63,
            "must be at most 3200, got 9223372036854775808",
        ),
        (("cards", 0, "cost"), 40_000, "must be at most 1000, got 40000"),
        # rules: the issue's 40,000 die sides, laps, purchase cost, 1e30 track and draft pool, round caps
        (("rules", "die_sides"), 40_000, "must be at most 100, got 40000"),
        (("rules", "laps"), 40_000, "must be at most 16, got 40000"),
        (("rules", "purchase_cost"), 40_000, "must be at most 1000, got 40000"),
        (("rules", "refresh_cost"), 40_000, "must be at most 1000, got 40000"),
        (("rules", "starting_coins"), 40_000, "must be at most 1000, got 40000"),
        (("rules", "track_length"), 10**30, f"must be at most 200, got {10**30}"),
        (("rules", "draft_pool", 4, "parts"), 10**30, f"must be at most 200, got {10**30}"),
        (("rules", "draft_pool", 4, "playbooks"), 10**30, f"must be at most 100, got {10**30}"),
        (("rules", "max_rounds"), 33_000, "must be at most 500, got 33000"),
        (("rules", "max_rounds"), 10**30, f"must be at most 500, got {10**30}"),
        (("rules", "min_drive"), 1000, "must be at most 20, got 1000"),
        (("rules", "min_drive"), -1, "must be at least 0, got -1"),
        (("rules", "hand_size"), 10**6, "must be at most 30, got 1000000"),
        (("rules", "showroom_size"), 10**6, "must be at most 20, got 1000000"),
        (("rules", "parts_drafted"), 11, "must be at most 10, got 11"),
        (("rules", "playbooks_drafted"), 6, "must be at most 5, got 6"),
        (("rules", "starting_deck", "stock_engine"), 40_000, "must be at most 100, got 40000"),
        (("rules", "type_limits", "utility"), 40_000, "must be at most 1, got 40000"),
        (("rules", "type_limits", "frame"), 10**30, f"must be at most 1, got {10**30}"),
        (("rules", "debris_per_lap"), 10**6, "must be at most 100, got 1000000"),
        (("rules", "dice_per_drive"), 10**6, "must be at most 10, got 1000000"),
        (("rules", "pit_stop", "draw"), 10**6, "must be at most 10, got 1000000"),
        (("rules", "multiplayer_min_players"), 10**6, "must be at most 8, got 1000000"),
    ],
    ids=lambda v: ".".join(map(str, v)) if isinstance(v, tuple) else None,
)
def test_a_value_past_its_limit_is_one_line_naming_the_field_and_the_limit(tmp_path, path, value, expected):
    message = one_line_error(load_database, _write(tmp_path, _edited(path, value)))
    field = message.split(": ")[1]
    assert message.endswith(f": {expected}")
    assert field.split(".")[0] == path[0] and field.split(".")[-1] == str(path[-1]), message


def _edited(path: tuple, value: Any) -> dict:
    data = copy.deepcopy(BASE)
    _set(data, path, value)
    return data


def test_many_cards_playbooks_and_effects_are_bounded(tmp_path):
    data = copy.deepcopy(BASE)
    data["cards"][0]["effects"] = data["cards"][0]["effects"] * (L.MAX_EFFECTS + 1)
    assert ": cards.stock_engine.effects: " in (message := one_line_error(load_database, _write(tmp_path, data)))
    assert "at most 10 items" in message
    data = copy.deepcopy(BASE)
    data["cards"] += [dict(data["cards"][-1], id=f"extra_{i}") for i in range(L.MAX_CARDS)]
    message = one_line_error(load_database, _write(tmp_path, data))
    assert ": cards: " in message and "at most 300 items" in message


def test_a_race_has_at_most_8_players(tmp_path):
    message = _error(tmp_path, ("rules", "draft_pool", 9), {"parts": 45, "playbooks": 9})
    assert message.endswith("rules.draft_pool.9: a race has at most 8 players, got 9")


# --- nested wrong types ---------------------------------------------------------------


@pytest.mark.parametrize(
    ("value", "word"), [({"a": 1}, "a mapping"), (["drive"], "a list"), ([[]], "a list"), (3, "3")]
)
def test_an_op_that_is_not_a_word_is_one_line(tmp_path, value, word):
    for section, path in (
        ("cards", ("cards", 0, "effects", 0, "op")),
        ("playbooks", ("playbooks", 0, "effects", 0, "op")),
    ):
        message = _error(tmp_path, path, value)
        assert f"{section}." in message and f".effects.0.op: expected an op, got {word} (known: drive, dice" in message


def test_swapped_if_and_op_is_one_line(tmp_path):
    """The mutator's `swapped the values of 'if' and 'op'`: op becomes a mapping."""
    data = copy.deepcopy(BASE)
    effect = next(e for c in data["cards"] for e in c["effects"] if "if" in e)
    effect["op"], effect["if"] = effect["if"], effect["op"]
    assert "expected an op, got a mapping" in one_line_error(load_database, _write(tmp_path, data))


@pytest.mark.parametrize(
    ("field", "value"),
    [("target", ["leader"]), ("per", {"lap": 1}), ("if", {"played": [["engine"]]}), ("if", {"lap": [[1]]})],
)
def test_nested_lists_and_maps_in_effects_are_one_line(tmp_path, field, value):
    data = copy.deepcopy(BASE)
    effect = data["cards"][_card("cut_off")]["effects"][0]
    effect[field] = value
    message = one_line_error(load_database, _write(tmp_path, data))
    assert "cards.cut_off.effects.0." in message


# --- what a rule draws from -------------------------------------------------------------


def test_an_empty_playbook_list_is_an_error_when_the_draft_needs_playbooks(tmp_path):
    message = _error(tmp_path, ("playbooks",), [])
    assert ": rules.draft_pool.2.playbooks: the draft reveals 3 Playbooks but the Playbook Deck holds 0" in message


def test_playbooks_removed_below_the_draft_are_an_error(tmp_path):
    data = copy.deepcopy(BASE)
    for playbook in data["playbooks"][:28]:
        playbook["count"] = 0
    message = one_line_error(load_database, _write(tmp_path, data))
    assert message.endswith("rules.draft_pool.4.playbooks: the draft reveals 5 Playbooks but the Playbook Deck holds 4")


def test_a_starting_deck_needs_copies_for_the_most_players(tmp_path):
    message = _error(tmp_path, ("rules", "starting_deck", "stock_engine"), 2)
    assert message.endswith("rules.starting_deck.stock_engine: 4 copies of 'stock_engine' cannot give 4 players 2 each")


def test_a_starting_card_is_not_a_part(tmp_path):
    message = _error(tmp_path, ("rules", "starting_deck", "v8_block"), 1)
    assert message.endswith(
        "rules.starting_deck.v8_block: 'v8_block' is a part (in the Parts Deck): a starting card needs the S flag"
    )


def test_debris_in_the_starting_deck_counts_the_debris_supply(tmp_path):
    data = copy.deepcopy(BASE)
    data["rules"]["starting_deck"]["debris"] = 5  # 20 for 4 players, 18 in the supply
    assert "rules.starting_deck.debris: 18 copies of 'debris' cannot give 4 players 5 each" in one_line_error(
        load_database, _write(tmp_path, data)
    )
    data["rules"]["debris_supply"] = "unlimited"
    load_database(_write(tmp_path, data))


def test_a_parts_deck_smaller_than_the_draft_is_a_warning_and_seats_pass(tmp_path):
    data = copy.deepcopy(BASE)
    for card in data["cards"]:
        if card["type"] != "debris" and "S" not in card.get("flags", []):
            card["count"] = 0
    data["cards"][_card("v8_block")]["count"] = 7
    db = load_database(_write(tmp_path, data))
    assert [w.message for w in db.warnings if "draft" in w.message] == [
        f"the draft reveals {n} parts but the Parts Deck holds 7 at {n // 5} players: players draft what there is"
        for n in (10, 15, 20)
    ]
    logs = _play(tmp_path, data, players=4, games=8)
    assert logs["players"]["final_deck_size"].to_numpy().sum() > 0
    cards = logs["cards"].to_pandas()
    assert (cards["event"] == "draft").sum() == 8 * 7, "every revealed part drafted, none conjured"


# --- bot profiles ---------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("field", "value", "expected"),
    [
        ("noise", float("nan"), "input should be a finite number"),
        ("noise", 2.0, "must be at most 1, got 2.0"),
        ("bid", float("inf"), "input should be a finite number"),
        ("weights", {"drive": 1e30}, "must be at most 100, got 1e+30"),
        ("buy_min", -1e30, "must be at least -1000, got -1e+30"),
        ("pit_laps_left", 10**30, f"must be at most 16, got {10**30}"),
        ("weights", ["drive"], "expected a mapping, got a list"),
    ],
)
def test_bot_profile_values_are_bounded(field, value, expected):
    with pytest.raises(UserError) as info:
        resolve_profiles({"racer": {field: value}})
    assert "\n" not in str(info.value) and str(info.value).endswith(expected)


# --- every limit at once plays ---------------------------------------------------------------


def _effect(op: str, big: bool, on_playbook: bool, i: int) -> dict:
    """`op` with every number at its largest (big) or smallest allowed value."""
    spec = V.OPS[op]
    effect: dict[str, Any] = {"op": op}
    for name, field in spec.fields.items():
        if field.kind == "int":
            effect[name] = field.le if big else (field.ge if field.ge is not None else 1)
        else:
            effect[name] = V.CHOICES[field.kind][i % len(V.CHOICES[field.kind])]
    if op == "scrap" and on_playbook and effect["from"] == "this":
        effect["from"] = "hand"
    if on_playbook:
        effect["when"] = V.TRIGGERS_BY_KIND[spec.kind][i % len(V.TRIGGERS_BY_KIND[spec.kind])]
    if i % 3 == 1:
        effect["if"] = {"min_coins": 1, "lap": [1, 2], "behind_leader": 0 if big else 5}
    if i % 3 == 2 and "per" in spec.fields:
        effect["per"] = V.PER_COUNTERS[i % len(V.PER_COUNTERS)]
    return effect


def _extreme_database(big: bool, players: int) -> dict:
    """Every bounded number at its largest (big) or smallest value, every list as long (big) or short as allowed."""
    data = copy.deepcopy(BASE)
    r = data["rules"]
    L_ = L.MAX_TRACK if big else 2
    r |= {
        "track_length": L_,
        "laps": L.MAX_LAPS if big else 1,
        "auction_spaces": list(range(1, L_ // 2)) if big else [],
        "incinerator_spaces": list(range(L_ // 2, L_)) if big else [1],
        "starting_coins": L.MAX_COINS if big else 0,
        "hand_size": L.MAX_HAND if big else 1,
        "purchase_cost": L.MAX_COINS if big else 0,
        "refresh_cost": L.MAX_COINS if big else 0,
        "showroom_size": L.MAX_SHOWROOM if big else 1,
        "draft_pool": {players: {"parts": L.MAX_DRAFT_PARTS, "playbooks": L.MAX_DRAFT_PLAYBOOKS}}
        if big
        else {players: {"parts": 0, "playbooks": 0}},
        "parts_drafted": L.MAX_PARTS_DRAFTED if big else 0,
        "playbooks_drafted": L.MAX_PLAYBOOKS_DRAFTED if big else 0,
        "starting_deck": {"stock_engine": L.MAX_COPIES // players if big else 1},
        "type_limits": dict.fromkeys(V.PLAYABLE_TYPES, L.MAX_TYPE_LIMIT if big else 0),
        "debris_per_lap": L.MAX_COPIES if big else 0,
        "die_sides": L.MAX_DIE_SIDES if big else 2,
        "dice_per_drive": L.MAX_DICE if big else 1,
        "min_drive": L.MAX_MIN_DRIVE if big else 0,
        "pit_stop": {"draw": L.MAX_PIT_DRAW, "keep": L.MAX_PIT_DRAW} if big else {"draw": 1, "keep": 1},
        "multiplayer_min_players": L.MAX_PLAYERS if big else 1,
        "max_rounds": L.MAX_ROUNDS if big else 1,
        "debris_supply": "unlimited" if big else 0,
    }
    starters = {c["id"]: c for c in data["cards"] if "S" in c.get("flags", [])}
    ops = [op for op in V.OPS if V.OPS[op].kind != "duration"]
    cards = [dict(starters["stock_engine"], count=L.MAX_COPIES if big else players)]
    cards.append(
        {"id": "debris", "name": "Debris", "type": "debris", "count": 0, "flags": ["D"], "effects": [], "text": "x"}
    )
    n_cards = L.MAX_CARDS if big else 3
    for k in range(len(cards), n_cards):
        n_effects = L.MAX_EFFECTS if big else 0
        flags = ["E", "M", "P"] if k % 2 else []
        effects = [_effect(ops[(k + j) % len(ops)], big, False, k + j) for j in range(n_effects)]
        if "E" in flags:  # an E card lasts: its last effects are durations
            effects[-2:] = [_effect("slow", big, False, k), {"op": "shield"}]
        cards.append(
            {
                "id": f"part_{k}",
                "name": f"Part {k}",
                "type": V.PLAYABLE_TYPES[k % 5],
                "count": L.MAX_COPIES if big else 0,
                "flags": flags if big else [],
                "cost": L.MAX_COINS if big and k % 3 == 0 else 0,
                "effects": effects,
                "text": "x",
            }
        )
    data["cards"] = cards
    n_playbooks = L.MAX_PLAYBOOKS if big else 0
    pb_ops = [op for op in V.OPS if V.TRIGGERS_BY_KIND[V.OPS[op].kind]]
    data["playbooks"] = [
        {
            "id": f"book_{b}",
            "name": f"Book {b}",
            "effects": [_effect(pb_ops[(b + j) % len(pb_ops)], big, True, b + j) for j in range(L.MAX_EFFECTS)],
            "text": "y",
        }
        for b in range(n_playbooks)
    ]
    return data


def _play(tmp_path: Path, data: dict, players: int, games: int, bots: list[str] | None = None) -> dict:
    """The log tables of one chunk of `games`, played as `balance run` would."""
    cards = _write(tmp_path, data, "db.yaml")
    scenario = {
        "name": "limits",
        "game": "horsepower",
        "cards": cards,
        "players": players,
        "bots": bots
        or ["random", "racer", "economist", "saboteur", "balanced", "random", "racer", "saboteur"][:players],
        "games": games,
        "chunk_size": games,
        "seed": 7,
    }
    path = tmp_path / "scenario.yaml"
    path.write_text(yaml.safe_dump(scenario, sort_keys=False))
    sc = load_scenario(path)
    prep = GAME.prepare(sc)
    return GAME.play_chunk(prep, sc, 0, 0, games, Streams(7, 0, games))


@pytest.mark.parametrize(
    ("big", "players"), [(True, 8), (True, 2), (False, 2)], ids=["largest-8p", "largest-2p", "smallest"]
)
def test_a_database_at_every_limit_plays_and_logs_what_was_played(tmp_path, big, players):
    data = _extreme_database(big, players)
    logs = _play(tmp_path, data, players, games=8)
    games, seats = logs["games"].to_pandas(), logs["players"].to_pandas()
    assert len(games) == 8 and len(seats) == 8 * players
    assert games["rounds"].between(1, data["rules"]["max_rounds"]).all()
    # every seat played one turn a round (seat 0 first: later seats may miss the last round)
    rounds = np.repeat(games["rounds"].to_numpy(), players)
    assert ((seats["turns"] <= rounds) & (seats["turns"] >= rounds - 1)).all()
    assert (seats["coins_left"].between(0, L.COIN_CAP)).all() and (seats["coins_spent"] >= 0).all()
    assert (games["debris_short"] >= 0).all()


def test_a_game_that_cannot_finish_stops_at_the_cap_and_logs_it_unwrapped(tmp_path):
    """Nobody moves for MAX_ROUNDS rounds while Playbooks pour coins and owe Debris
    every turn: rounds and turns are logged as played, the purse stops at
    COIN_CAP, and the game-long tallies pass 16 bits without wrapping."""
    data = copy.deepcopy(BASE)
    data["rules"] |= {"max_rounds": L.MAX_ROUNDS, "purchase_cost": L.MAX_COINS, "debris_supply": 0}
    for card in data["cards"]:  # every Drive total is negative; parts are worth buying for their coins
        card["effects"] = [{"op": "drive", "amount": -L.MAX_TRACK}] if card["type"] != "debris" else []
        if "S" not in card.get("flags", []) and card["type"] != "debris":
            card["effects"].append({"op": "coins", "amount": L.MAX_COINS})
            card["count"] = L.MAX_COPIES  # a Parts Deck that outlasts the race
    for playbook in data["playbooks"]:
        playbook["effects"] = [
            {"when": "always", "op": "drive", "amount": -1},
            {"when": "turn_start", "op": "coins", "amount": L.MAX_COINS},
            {"when": "turn_start", "op": "give_debris", "target": "all_others", "count": L.MAX_HAND},
        ]
    logs = _play(tmp_path, data, players=4, games=2, bots=["racer", "economist", "saboteur", "balanced"])
    games, seats = logs["games"], logs["players"]
    assert games["rounds"].to_pylist() == [L.MAX_ROUNDS] * 2
    assert games["finished"].to_pylist() == [False, False]
    assert seats["turns"].to_pylist() == [L.MAX_ROUNDS] * 8
    assert games["debris_short"].to_pylist() == [L.MAX_ROUNDS * 4 * 3 * L.MAX_HAND] * 2  # 180,000: past 16 bits
    assert max(seats["coins_left"].to_pylist()) == L.COIN_CAP
    assert max(seats["coins_spent"].to_pylist()) > np.iinfo(np.int16).max


def test_min_drive_is_the_floor_of_the_drive_total(tmp_path):
    """docs/rules.md (3.2.3 Minimum Drive): a total below min_drive moves min_drive spaces."""
    data = copy.deepcopy(BASE)
    data["rules"] |= {"min_drive": 3, "max_rounds": 4, "die_sides": 2}  # a roll of 1 or 2 moves 3
    for card in data["cards"]:
        card["effects"] = [{"op": "drive", "amount": -L.MAX_TRACK}] if card["type"] != "debris" else []
    for playbook in data["playbooks"]:
        playbook["effects"] = [{"when": "always", "op": "drive", "amount": -1}]
    logs = _play(tmp_path, data, players=2, games=4, bots=["racer", "racer"])
    assert logs["players"]["final_space"].to_pylist() == [12] * 8, "4 turns of 3 spaces"
