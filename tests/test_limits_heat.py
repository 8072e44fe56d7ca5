"""Heat's limits (issue 17): every number of heat.yaml and of the bot profiles
has a range the engine can play, checked at load with the limit in a one-line
message; a database with every field at its largest (and one at its
smallest) plays a chunk, and the logs hold what was played."""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest
import yaml

from balance.errors import UserError
from balance.games.chance import Streams
from balance.games.events import Events
from balance.games.heat import schema as S
from balance.games.heat.bots import MAX_RESERVE, MAX_WEIGHT, bot_table, resolve_profiles
from balance.games.heat.compile import compile_database
from balance.games.heat.course import FAR
from balance.games.heat.log import chunk_tables
from balance.games.heat.schema import load_database, validate_database
from balance.yamlio import parse_yaml

from .conftest import ROOT, broken_copy, one_line_error
from .heat import simulate

HEAT = ROOT / "heat.yaml"
I8, I16 = np.iinfo(np.int8).max, np.iinfo(np.int16).max


@pytest.fixture(scope="module")
def heat_text() -> str:
    return HEAT.read_text()


@pytest.fixture
def broken(tmp_path, heat_text):
    return broken_copy(tmp_path, heat_text, "heat.yaml")


# --- the reproducers: each was accepted (and failed in a run) or crashed at load ---------------

CASES = {
    # name: (snippet, replacement, lines from the snippet's first, field, message)
    "printed speed": (
        "    speed: 6\n    effects:\n      - {op: heat, amount: 2}",
        f"    speed: {10**30}\n    effects:\n      - {{op: heat, amount: 2}}",
        0,
        "cards.wings_3.speed",
        f"must be at most 20, got {10**30}",
    ),
    "corner limit": (
        "{limit: 5, gap: 9, legend_line: 4}",
        "{limit: 40000, gap: 9, legend_line: 4}",
        0,
        "tracks.italia.corners.0.limit",
        "must be at most 100, got 40000",
    ),
    "corner limit past int8": (
        "{limit: 3, gap: 30, legend_line: 4}",
        "{limit: 256, gap: 30, legend_line: 4}",
        0,
        "tracks.great_britain.corners.4.limit",
        "must be at most 100, got 256",
    ),
    "speed choice": (
        "speed: [1, 3]",
        "speed: [40000, 3]",
        0,
        "cards.brakes_2.speed",
        "40000 in the list is not a speed (0 to 20)",
    ),
    "effect amount": (
        "      - {op: corner_limit, amount: 2}\n  - id: wings_3",
        "      - {op: corner_limit, amount: 40000}\n  - id: wings_3",
        0,
        "cards.wings_2.effects.2.amount",
        "must be at most 10, got 40000",
    ),
    "amounts of one op adding up past int8": (
        "      - {op: scrap, amount: 6}",
        "      - {op: scrap, amount: 6}\n      - {op: scrap, amount: 6}",
        -2,
        "cards.turbocharger_2.effects",
        "the scrap amounts add up to 12 (1 to 10 on one card)",
    ),
    "track Heat": (
        "    spaces: 69\n    heat: 6",
        "    spaces: 69\n    heat: 40000",
        1,
        "tracks.usa.heat",
        "must be at most 30, got 40000",
    ),
    "laps": (
        "    laps: 2\n    spaces: 69",
        "    laps: 40000\n    spaces: 69",
        0,
        "tracks.usa.laps",
        "must be at most 10, got 40000",
    ),
    "grid rows": (
        "    pole_space: -1",
        f"    pole_space: -{10**30}",
        0,
        "rules.grid.pole_space",
        f"must be at least -200, got -{10**30}",
    ),
    "round cap wrapping int16": (
        "  max_rounds: 60",
        "  max_rounds: 33000",
        0,
        "rules.max_rounds",
        "must be at most 200, got 33000",
    ),
    "round cap that never stops": (
        "  max_rounds: 60",
        f"  max_rounds: {10**30}",
        0,
        "rules.max_rounds",
        f"must be at most 200, got {10**30}",
    ),
    "Stress supply": (
        "  stress_supply: unlimited",
        "  stress_supply: 40000",
        0,
        "rules.stress_supply",
        "must be at most 1000, got 40000",
    ),
    "draft picks past int8": (
        "    upgrades_each: 3",
        "    upgrades_each: 40000",
        0,
        "rules.garage_draft.upgrades_each",
        "must be at most 15, got 40000",
    ),
    "Heat cards in the Garage pool": (
        "    heat_cards: {basic: 2, advanced: 2}",
        "    heat_cards: {basic: 40000, advanced: 2}",
        0,
        "rules.garage_draft.heat_cards.basic",
        "must be at most 20, got 40000",
    ),
    "Heat cards in the Garage pool, fewer than none": (
        "    heat_cards: {basic: 2, advanced: 2}",
        "    heat_cards: {basic: 2, advanced: -1}",
        0,
        "rules.garage_draft.heat_cards.advanced",
        "must be at least 0, got -1",
    ),
    "copies": (
        "    group: turbocharger\n    count: 2\n    speed: 8",
        "    group: turbocharger\n    count: 40000\n    speed: 8",
        1,
        "cards.turbocharger_2.count",
        "must be at most 20, got 40000",
    ),
    "hand size": ("  hand_size: 7", "  hand_size: 40000", 0, "rules.hand_size", "must be at most 20, got 40000"),
    "gears": ("  gears: 4", "  gears: 200", 0, "rules.gears", "must be at most 8, got 200"),
    "flips": ("    flips: 3", "    flips: 40000", 0, "cards.four_wheel_drive_2.flips", "must be at most 10, got 40000"),
    "Legend helmet number": (
        "  - [{black: 10, green: 11}, {}, {red: 16, blue: 15, grey: 17}, {yellow: 18}]",
        "  - [{black: 10, green: 11}, {}, {red: 16, blue: 15, grey: 17}, {yellow: 40000}]",
        0,
        "legends.9.3.yellow",
        "must be at most 100, got 40000",
    ),
    "effect op given as a mapping": (
        "      - {op: scrap, amount: 6}",
        "      - {op: {scrap: 6}, amount: 6}",
        0,
        "cards.turbocharger_2.effects.1.op",
        "expected an op (known: heat, cooldown, scrap, discard_stress, slipstream, corner_limit, super_cool, draft, "
        "salvage, refresh, direct_play, accelerate), got a mapping",
    ),
    "effect op given as a list": (
        "      - {op: scrap, amount: 6}",
        "      - {op: [scrap], amount: 6}",
        0,
        "cards.turbocharger_2.effects.1.op",
        "expected an op (known: heat, cooldown, scrap, discard_stress, slipstream, corner_limit, super_cool, draft, "
        "salvage, refresh, direct_play, accelerate), got a list",
    ),
}


@pytest.mark.parametrize("name", list(CASES))
def test_a_value_the_engine_cannot_play_is_one_line_at_load(broken, name):
    old, new, below, field, message = CASES[name]
    path, line = broken(old, new)
    assert one_line_error(load_database, path) == f"{path}:{line + below}: {field}: {message}"


def test_an_empty_legends_deck_is_refused_at_load(broken, heat_text):
    section = heat_text[heat_text.index("legends:\n") :]
    path, line = broken(section, "legends: []\n")
    assert one_line_error(load_database, path) == (
        f"{path}:{line}: legends: no Legend cards: a Legend car draws one every round"
    )


def test_too_many_card_kinds(broken, heat_text):
    card = "  - id: fuel_1\n    name: Fuel\n    type: upgrade\n    tier: garage_basic\n    group: fuel\n    count: 1\n"
    card += "    speed: 2\n    approximate: true\n"
    extra = "".join(card.replace("fuel_1", f"extra_{i}") for i in range(S.MAX_CARDS))
    path, line = broken("# Tracks. laps", extra + "# Tracks. laps")
    cards_line = heat_text.split("\n").index("cards:") + 1
    got = S.MAX_CARDS + len(load_database(HEAT).cards)
    assert one_line_error(load_database, path) == f"{path}:{cards_line}: cards: must have at most 200 items, got {got}"


@pytest.mark.parametrize(
    ("override", "field", "message"),
    [
        ({"reserve": 40000}, "reserve", "must be at most 100, got 40000"),
        ({"heat_value": 1e39}, "heat_value", "must be at most 100, got 1e+39"),
        ({"discard_below": float("nan")}, "discard_below", "input should be a finite number"),
        ({"draft": {"scrap": 1e39}}, "draft.scrap", "must be at most 100, got 1e+39"),
    ],
)
def test_bot_profile_numbers_are_bounded(override, field, message):
    with pytest.raises(UserError) as info:
        resolve_profiles({"edgy": override})
    assert str(info.value).endswith(f"bot_profiles.edgy.{field}: {message}")


# --- the arithmetic behind the limits ------------------------------------------------------------


def test_the_limits_fit_the_engine_arrays():
    """The sums and products the limits bound, against the dtypes that hold them
    (compile.py, state.py, course.py); a change of a limit that breaks one fails here."""
    # the Engine's Heat and the Heat card's copies: a deck's, or at most the Garage pool's two tiers (a season's
    # drafted Heat leaves the pool)
    cars, heat_owned = S.MAX_CARS, S.MAX_TRACK_CARDS + 2 * S.MAX_COPIES
    # int8 round fields (corner_mod, slip_bonus, cooldown_bonus) and the Cooldown sum in react()
    assert S.MAX_GEARS * S.MAX_AMOUNT + S.MAX_RULE <= I8
    # int8 compiled columns and the draft's pick number and drafted copies
    assert max(S.MAX_SPEED, S.MAX_FLIPS, S.MAX_LIMIT, S.MAX_AMOUNT, S.MAX_CORNERS) <= I8
    assert S.MAX_DRAFT * cars <= I8
    # one turn's longest move: the cards' speeds, every flip at the top speed (the cards' "+",
    # a card swapped for a flip, Boost), Adrenaline, slipstream with the cards' bonus
    flips = S.MAX_GEARS * (S.MAX_FLIPS + 1) + 1
    move = (S.MAX_GEARS + flips) * S.MAX_SPEED + 2 * S.MAX_RULE + S.MAX_GEARS * S.MAX_AMOUNT
    move = max(move, 2 * S.MAX_LIMIT)  # a Legend: a limit plus its bonus
    assert S.MAX_LAPS * S.MAX_SPACES + move < FAR < I16  # int16 positions; the pad line stays out of reach
    # int16 tallies over a race: rounds and turns, Stress given and owed, Heat paid (Heat returns to
    # the Engine only from the hand, at most a hand a turn), cards in a pile
    assert S.MAX_ROUNDS * cars * S.MAX_RULE <= I16
    assert cars * (heat_owned + S.MAX_ROUNDS * S.MAX_HAND) <= I16
    assert S.MAX_COPIES * S.MAX_CARDS + S.MAX_TRACK_CARDS + S.MAX_ROUNDS * S.MAX_RULE <= I16
    assert S.MAX_STRESS_SUPPLY <= I16 and MAX_RESERVE <= I16


# --- databases at the edges play -----------------------------------------------------------------


COLOURS = [f"colour_{i}" for i in range(S.MAX_COLOURS)]


def _track(i: int) -> dict[str, Any]:
    """A track of every limit: 10 laps of 200 spaces, 30 corners, the finish line as far
    from the start as the grid (three rows) allows."""
    gaps = [5] * (S.MAX_CORNERS - 1)
    gaps.append(S.MAX_SPACES - sum(gaps))
    corners = [{"limit": S.MAX_LIMIT, "gap": gap, "legend_line": gaps[k - 1] - 1} for k, gap in enumerate(gaps)]
    return {
        "id": f"t{i}",
        "name": f"Track {i}",
        "laps": S.MAX_LAPS,
        "spaces": S.MAX_SPACES,
        "heat": S.MAX_TRACK_CARDS,
        "stress": S.MAX_TRACK_CARDS,
        "finish_line": gaps[-1] - 3,
        "corners": corners,
    }


def _card(i: int, **fields: Any) -> dict[str, Any]:
    return {"id": f"c{i}", "name": f"Card {i}", "count": S.MAX_COPIES} | fields


def largest() -> dict[str, Any]:
    """Every field at its largest: rules, 200 card kinds, 50 tracks, 100 Legend cards."""
    gears, most = S.MAX_GEARS, S.MAX_RULE
    rules = {
        "track": "t0",
        "garage_module": True,
        "weather_module": True,
        "hand_size": S.MAX_HAND,
        "gears": gears,
        "starting_gear": gears,
        "spin_out_gear": gears,
        "shift_two_heat": most,
        "cooldown_by_gear": [most] * gears,
        "boost_heat": most,
        "boost_gears": list(range(1, gears + 1)),
        "adrenaline": {"last_cars_upto_4": 6, "last_cars_5_6": 6, "speed": most, "cooldown": most, "mode": "both"},
        "slipstream": most,
        "spin_out_stress_by_gear": [most] * gears,
        "max_rounds": S.MAX_ROUNDS,
        "max_cars": 6,
        "aggressive_legends": True,
        "pro_legends": S.MAX_RULE,
        "legend_colours": COLOURS,
        "stress_supply": S.MAX_STRESS_SUPPLY,
        "garage_draft": {
            "upgrades_each": S.MAX_DRAFT,
            "order": "snake",
            "revealed_extra": S.MAX_DRAFT,
            "heat_cards": {"basic": S.MAX_COPIES, "advanced": S.MAX_COPIES},
        },
        "grid": {"cars_per_space": 2, "pole_space": -1},
    }
    amount = S.MAX_AMOUNT
    effects = [{"op": op, "amount": amount} for op in ("heat", "cooldown", "scrap", "discard_stress", "slipstream")]
    cards = [
        _card(0, type="heat", tier="starting", speed=None),
        _card(1, type="stress", count=None, speed=None, flips=1),
        *(_card(i, type="speed", tier="basic_speed", speed=S.MAX_SPEED - i + 2) for i in range(2, 6)),
    ]
    for i in range(len(cards), S.MAX_CARDS):
        speed = list(range(S.MAX_SPEED + 1)) if i % 2 else S.MAX_SPEED
        corner = {"op": "corner_limit", "amount": amount if i % 3 else -amount}
        tier = "garage_advanced" if i % 5 else "starting"
        group = {"group": f"g{i % 7}"} if tier != "starting" else {}
        cards.append(
            _card(
                i,
                type="upgrade",
                tier=tier,
                speed=speed,
                flips=S.MAX_FLIPS if i == 6 else 0,
                effects=[*effects, corner],
                **group,
            )
        )
    return {
        "rules": rules,
        "cards": cards,
        "tracks": [_track(i) for i in range(S.MAX_TRACKS)],
        # every colour's helmet number at its largest, in the widest column the tracks' Legend lines (4) allow
        "legends": [[{}] * 3 + [dict.fromkeys(COLOURS, S.MAX_LIMIT)]] * S.MAX_LEGEND_CARDS,
        **_weather_at_most(),
    }


def _weather_at_most() -> dict[str, Any]:
    """The Weather module with every number at its largest: 50 Weather tokens adding 30 Stress and 30 Heat and
    moving 30 Heat, 50 Road token kinds of 30 tokens each, every sector effect at once."""
    most, cards = S.MAX_RULE, S.MAX_TRACK_CARDS
    sector = {"cooldown": most, "slipstream": most, "free_boost": True, "no_slipstream_start": False}
    weather = [
        {"id": f"w{i}", "name": f"W{i}", "stress": cards, "heat": cards, "heat_to_deck": cards}
        | {"heat_to_discard": cards, "sector": sector}
        for i in range(S.MAX_WEATHER)
    ]
    road = [
        {"id": f"r{i}", "name": f"R{i}", "count": S.MAX_CORNERS}
        | ({"corner": {"limit": most, "overheat": most}} if i % 2 else {"sector": sector | {"weather": True}})
        for i in range(S.MAX_WEATHER)
    ]
    return {"weather": weather, "road_conditions": road}


def smallest() -> dict[str, Any]:
    """Every field at its smallest, every list that may be empty empty: a one-card
    hand in one gear, no speed cards, no Garage, a two-space lap, one round."""
    rules = {
        "track": "t",
        "garage_module": True,  # a draft of no rounds
        "hand_size": 1,
        "gears": 1,
        "starting_gear": 1,
        "spin_out_gear": 1,
        "shift_two_heat": 0,
        "cooldown_by_gear": [0],
        "boost_heat": 0,
        "boost_gears": [],
        "adrenaline": {"last_cars_upto_4": 0, "last_cars_5_6": 0, "speed": 0, "cooldown": 0},
        "slipstream": 0,
        "spin_out_stress_by_gear": [0],
        "max_rounds": 1,
        "max_cars": 2,
        "legend_colours": ["black"],
        "stress_supply": 0,
        "garage_draft": {"upgrades_each": 0, "revealed_extra": 0, "heat_cards": {"basic": 0, "advanced": 0}},
        "grid": {"cars_per_space": 2, "pole_space": -1},
    }
    cards = [
        {"id": "heat", "name": "Heat", "type": "heat", "tier": "starting", "count": 0, "speed": None},
        {"id": "stress", "name": "Stress", "type": "stress", "count": None, "speed": None},
    ]
    track = {"id": "t", "name": "T", "laps": 1, "spaces": 2, "heat": 0, "stress": 0, "finish_line": 1}
    track["corners"] = [{"limit": 1, "gap": 2, "legend_line": 1}]
    return {"rules": rules, "cards": cards, "tracks": [track], "legends": [[{"black": 1}]]}


def _play(data: dict[str, Any], names: list[str], races: int = 8, profiles: dict | None = None, seed: int = 0):
    """(state, games log, players log) of `races` races of the database `data`, the rules
    checker run after every turn."""
    tables = compile_database(validate_database(parse_yaml(yaml.safe_dump(data, sort_keys=False), "edge.yaml")))
    bots = bot_table(resolve_profiles(profiles), names, tables)
    seats = (np.arange(len(names))[None, :] + np.arange(races)[:, None]) % len(names)
    events = Events()
    st, broken = simulate(tables, bots, seats, Streams(seed, 0, races), events=events)
    assert broken == []
    logged = chunk_tables(st, events, seats, tables, bots, first_game=0, chunk=0)
    return st, logged["games"].to_pydict(), logged["players"].to_pydict()


EDGE_PROFILES = {
    "edge_high": {
        "noise": 1,
        "risk": 1,
        "reserve": MAX_RESERVE,
        "heat_value": MAX_WEIGHT,
        "boost": 1,
        "cooldown": MAX_WEIGHT,
        "discard_below": MAX_WEIGHT,
        "draft": dict.fromkeys(
            ("speed", "heat", "cooldown", "slipstream", "corner_limit", "discard_stress", "scrap"), MAX_WEIGHT
        ),
    },
    "edge_low": {
        "noise": 0,
        "risk": 0,
        "reserve": 0,
        "heat_value": 0,
        "boost": 0,
        "cooldown": 0,
        "discard_below": -MAX_WEIGHT,
    },
}


def _logged_as_played(st, games: dict, players: dict) -> None:
    assert games["rounds"] == st.round.tolist()
    assert players["turns"] == st.turns.ravel().tolist()
    assert players["distance"] == st.pos.ravel().tolist()


def test_the_largest_database_plays_and_logs_what_was_played():
    """Every field at its largest but the two gears a car starts in and falls back to:
    in top gear after a spin-out a car must play eight cards at once, spins out again,
    and the race runs to the round cap (the next test); from gear 1 it gets home."""
    data = largest()
    data["rules"].update(starting_gear=1, spin_out_gear=1)
    names = ["balanced", "aggressive", "edge_high", "edge_low", "random", "cautious"]
    st, games, players = _play(data, names, profiles=EDGE_PROFILES)
    _logged_as_played(st, games, players)
    assert any(games["finished"]) and (st.drafted.sum(axis=2) == S.MAX_DRAFT).all()


def test_a_race_nobody_can_finish_stops_at_the_round_cap_and_logs_it_unwrapped():
    """The largest database with nothing that moves a player's car (no speed, no flips, no
    card Heat, which a card that cannot pay it swaps for a flip, no slipstream, no
    Adrenaline): the cars race to the cap; the Legend gets home. (No scrap either: 80
    cards scrapped a turn for 200 rounds is slow, and the previous test plays it.) A Legend
    crosses at most one corner line a round (no chevrons on these tracks): the race is 5 laps
    of 30 corners, so that it can within the cap."""
    data = largest()
    data["tracks"][0]["laps"] = 5
    for card in data["cards"]:
        card.update(speed=0 if card["type"] in ("speed", "upgrade") else None, flips=0)
        card["effects"] = [e for e in card.get("effects", []) if e["op"] not in ("slipstream", "heat", "scrap")]
    data["rules"].update(slipstream=0, garage_module=False)  # the starting upgrades and Heat in the decks
    data["rules"]["adrenaline"]["speed"] = 0
    names = ["balanced", "aggressive", "edge_high", "edge_low", "random", "legend"]
    st, games, players = _play(data, names, profiles=EDGE_PROFILES)
    assert games["rounds"] == [S.MAX_ROUNDS] * 8 and not any(games["finished"])
    assert (st.turns[~st.is_legend] == S.MAX_ROUNDS).all() and st.finished[st.is_legend].all()
    _logged_as_played(st, games, players)


def test_the_smallest_database_plays():
    st, games, players = _play(smallest(), ["balanced", "legend"])
    _logged_as_played(st, games, players)
    assert games["rounds"] == [1] * 8


def test_a_hand_that_holds_the_whole_deck_still_plays():
    """A hand of 20 holds all 18 cards of a deck: a Stress card's flip finds no card
    to draw (it used to fail drawing from no cards at all) and adds nothing."""
    data = yaml.safe_load(HEAT.read_text())
    data["rules"]["hand_size"] = S.MAX_HAND
    st, games, players = _play(data, ["balanced", "aggressive", "cautious", "legend"])
    _logged_as_played(st, games, players)
