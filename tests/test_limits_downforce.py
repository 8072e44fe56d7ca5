"""Downforce's limits (issue 17): every number downforce.yaml and the bot
profiles may hold has a range the engine can play, checked at load with the
limit in a one-line message; a database at every largest value, and one at
every smallest, plays without wrapping; a race cut by rules.max_turns is
logged unfinished (docs/downforce.md, "Limits")."""

from __future__ import annotations

import json

import numpy as np
import polars as pl
import pytest
import yaml

from balance.errors import UserError
from balance.games.chance import Streams
from balance.games.downforce import schema as S
from balance.games.downforce import vocabulary as V
from balance.games.downforce.bots import bot_table, resolve_profiles
from balance.games.downforce.compile import compile_database
from balance.games.downforce.schema import load_database
from balance.logs import load_run
from balance.runner import RunOptions, run

from .conftest import ROOT, broken_copy, one_line_error
from .downforce import simulate

DOWNFORCE = ROOT / "downforce.yaml"
CARS = ["red", "blue", "green", "yellow", "black", "orange"]


@pytest.fixture(scope="module")
def text() -> str:
    return DOWNFORCE.read_text()


@pytest.fixture
def broken(tmp_path, text):
    return broken_copy(tmp_path, text, "downforce.yaml")


# --- values the schema took and the engine could not play: one line each --------------

S16 = "[{car: yellow, speed: 6}, {car: black, speed: 5}, {car: blue, speed: 3}, {car: red, speed: 1}]"
S33 = "[{car: black, speed: 6}, {car: wild, speed: 4}, {car: green, speed: 3}, {car: wild, speed: 1}]"
BIG = "1000000000000000000000000000000"  # 1e30 as an integer

REPRODUCERS = {
    # the mutator's: OverflowError at compile.py (int8 speeds)
    "speed a million": (S16, S16.replace("blue, speed: 3", "blue, speed: 1000000"), "speed_cards.s16.moves.2.speed"),
    "speed 256": (S33, S33.replace("black, speed: 6", "black, speed: 256"), "speed_cards.s33.moves.0.speed"),
    "speed-8 speed": (
        "{id: eight_red, moves: [{car: red, speed: 8}]}",
        "{id: eight_red, moves: [{car: red, speed: 40000}]}",
        "speed8_cards.eight_red.moves.0.speed",
    ),
    # the issue's: prizes of 40,000 ($M, int16)
    "prize": ("prizes: [12, 9, 6, 4, 2, 0]", "prizes: [40000, 9, 6, 4, 2, 0]", "rules.prizes.0"),
    "bet payout": ("    - [6, 4, 2] ", "    - [6, 40000, 2] ", "rules.bet_payouts.1.1"),
    # turns: a cap past int16 would wrap the logged rounds
    "max_turns 33000": ("  max_turns: 200 ", "  max_turns: 33000 ", "rules.max_turns"),
    "max_turns 1e30": ("  max_turns: 200 ", f"  max_turns: {BIG} ", "rules.max_turns"),
    # copies of a card: int16 in the tables, int8 in a hand
    "count": (
        "    count: 1\n    moves: [{car: green, speed: 5}, {car: blue, speed: 4}]",
        "    count: 40000\n    moves: [{car: green, speed: 5}, {car: blue, speed: 4}]",
        "speed_cards.s02.count",
    ),
    # grid rows: 33,000 wrapped the int16 rows; 1e30 hung expanding the grid
    "grid rows": (
        "{rows: 7, lanes: 3, curve: false}   # 10-16",
        "{rows: 33000, lanes: 3, curve: false}",
        "tracks.ridge.grid.2.rows",
    ),
    "grid rows 1e30": (
        "{rows: 12, lanes: 3, curve: false}  # rows 0-11",
        f"{{rows: {BIG}, lanes: 3}}  # rows 0-11",
        "tracks.harbour.grid.0.rows",
    ),
    "power bonus": (
        "    bonus: 1                  # the rulebook's example",
        "    bonus: 40000              # the rulebook's example",
        "powers.aggressive.bonus",
    ),
}
LIMITS = {
    "speed a million": (S.MAX_SPEED, 1000000),
    "speed 256": (S.MAX_SPEED, 256),
    "speed-8 speed": (S.MAX_SPEED, 40000),
    "prize": (S.MAX_MONEY, 40000),
    "bet payout": (S.MAX_MONEY, 40000),
    "max_turns 33000": (S.MAX_TURNS, 33000),
    "max_turns 1e30": (S.MAX_TURNS, BIG),
    "count": (S.MAX_COPIES, 40000),
    "grid rows": (S.MAX_ROWS, 33000),
    "grid rows 1e30": (S.MAX_ROWS, BIG),
    "power bonus": (S.MAX_BONUS, 40000),
}


@pytest.mark.parametrize("case", list(REPRODUCERS))
def test_a_value_past_its_limit_is_one_line_naming_the_field_and_the_limit(broken, case):
    old, new, field = REPRODUCERS[case]
    path, line = broken(old, new)
    limit, got = LIMITS[case]
    assert one_line_error(load_database, path) == f"{path}:{line}: {field}: must be at most {limit}, got {got}"


def test_the_grid_rows_added_up_are_bounded_too(broken):
    """Each segment within its limit, the track past it: checked before the grid is expanded."""
    path, line = broken(
        "      - {rows: 12, lanes: 3, curve: false}  # rows 0-11",
        "      - {rows: 1000, lanes: 3, curve: false}\n      - {rows: 12, lanes: 3, curve: false}  # rows 0-11",
    )
    assert one_line_error(load_database, path) == (
        f"{path}:{line - 1}: tracks.harbour.grid: 1052 rows in all (segment rows added up); at most {S.MAX_ROWS}"
    )


@pytest.mark.parametrize("value,word", [("[tricky, cunning]", "a list"), ("{tricky: 1}", "a mapping")])
def test_a_power_id_of_the_wrong_type_is_one_line(broken, value, word):
    """It was TypeError: unhashable type: 'list' (the id looked up among the powers)."""
    path, line = broken("  - id: tricky\n", f"  - id: {value}\n")
    assert one_line_error(load_database, path) == f"{path}:{line}: powers.4.id: expected text, got {word}"


@pytest.mark.parametrize(
    "space,field,limit,value",
    [(5, "lane", S.MAX_LANE, 256), (6, "row", S.MAX_ROWS, 40000)],
)
def test_an_explicit_space_past_its_lane_or_row_limit(tmp_path, text, space, field, limit, value):
    """int8 lanes and int16 rows in the compiled track wrapped (OverflowError)."""
    rows = [
        ("a0", 0, 0, ", next: [b0]"),
        ("a1", 0, 1, ", next: [b0]"),
        ("a2", 0, 2, ", next: [b0]"),
        ("a3", 1, 0, ", next: [b0]"),
        ("a4", 1, 1, ", next: [b0]"),
        ("a5", 1, 2, ", next: [b0]"),
        ("b0", 6, 0, ""),
    ]
    name, row, lane, ahead = rows[space]
    rows[space] = (name, value, lane, ahead) if field == "row" else (name, row, value, ahead)
    spaces = "\n".join(f"      - {{id: {n}, row: {r}, lane: {la}{nx}}}" for n, r, la, nx in rows)
    mini = f"  - id: mini\n    name: Mini\n    spaces:\n{spaces}\n"
    mini += "    start: [a0, a1, a2, a3, a4, a5]\n    betting_lines: [2, 3, 4]\n    finish: 5\n"
    path = tmp_path / "downforce.yaml"
    path.write_text(text + mini)
    line = text.count("\n") + 4 + space  # the mini track's first space is 4 lines into it
    message = one_line_error(load_database, str(path))
    assert message == f"{path}:{line}: tracks.mini.spaces.{name}.{field}: must be at most {limit}, got {value}"


def test_a_deck_past_its_size_is_one_line(broken, text):
    cards_line = text.split("\n").index("speed_cards:") + 1
    path, _ = broken(
        "    count: 1\n    moves: [{car: green, speed: 5}, {car: blue, speed: 4}]",
        "    count: 100\n    moves: [{car: green, speed: 5}, {car: blue, speed: 4}]\n"
        "  - id: s02b\n    count: 100\n    moves: [{car: green, speed: 5}]\n"
        "  - id: s02c\n    count: 100\n    moves: [{car: green, speed: 5}]",
    )
    assert one_line_error(load_database, path) == (
        f"{path}:{cards_line}: speed_cards: 341 regular speed cards in all (counts added up); at most {S.MAX_DECK}"
    )


def test_a_deck_too_small_to_give_every_player_a_card_to_bid_with(tmp_path):
    """The auction's bids are cards from the hand: with fewer regular cards than
    players, a player bid with a card it did not hold."""
    data = smallest()
    data["speed_cards"][0]["count"] = 5
    path = tmp_path / "small.yaml"
    path.write_text(yaml.safe_dump(data, sort_keys=False))
    message = one_line_error(load_database, str(path))
    assert message.endswith(
        "speed_cards: 5 regular speed cards in all; the deal gives each of up to 6 players "
        "(rules.players.max) at least one to bid with"
    )


@pytest.mark.parametrize("what", ["speed_cards", "tracks", "spaces"])
def test_too_long_a_list_is_one_line(tmp_path, what):
    """Card kinds (scored every turn), tracks (each compiled), an explicit map's spaces (a board per game)."""
    data = smallest()
    if what == "speed_cards":
        extra = [{"id": f"k{i}", "count": 0, "moves": [{"car": "red", "speed": 1}]} for i in range(S.MAX_CARD_KINDS)]
        data["speed_cards"] += extra
        field, limit = "speed_cards", S.MAX_CARD_KINDS
    elif what == "tracks":
        data["tracks"] += [grid_track(f"t{k}", 12, 3, 2) for k in range(S.MAX_TRACKS)]
        field, limit = "tracks", S.MAX_TRACKS
    else:
        wide = explicit_track("wide")
        wide["spaces"].append({"id": "extra", "row": 0, "lane": 0, "next": [wide["spaces"][0]["id"]]})
        data["tracks"].append(wide)
        field, limit = "tracks.wide.spaces", S.MAX_SPACES
    path = tmp_path / "long.yaml"
    path.write_text(yaml.safe_dump(data, sort_keys=False))
    message = one_line_error(load_database, str(path))
    assert f": {field}: " in message and f"at most {limit}" in message


@pytest.mark.parametrize(
    "field,value,limit",
    [
        ("value", 1e30, "must be at most 1000, got 1e+30"),
        ("hand", float("inf"), "must be at most 1000, got inf"),
        ("bid", 11, "must be at most 10, got 11"),
        ("rival", 101, "must be at most 100, got 101"),
        ("loyalty", 40000, "must be at most 1000, got 40000"),
        ("powers", {"tricky": -1e30}, "must be at least -1000, got -1e+30"),
    ],
)
def test_a_bot_profile_weight_past_its_limit_is_one_line(field, value, limit):
    """Weights past these swamp the random bot's noise or overflow float32 to inf and nan."""
    with pytest.raises(UserError) as info:
        resolve_profiles({"shark": {field: value}})
    where = "shark.powers.tricky" if field == "powers" else f"shark.{field}"
    assert str(info.value) == f"bot_profiles: bot_profiles.{where}: {limit}"


# --- the extremes play ----------------------------------------------------------------


def grid_track(track_id: str, rows: int, lanes: int, start_rows: int) -> dict:
    return {
        "id": track_id,
        "name": track_id,
        "grid": [{"rows": rows, "lanes": lanes}],
        "start_rows": start_rows,
        "betting_lines": [rows - 4, rows - 3, rows - 2],
        "finish": rows - 1,
    }


def explicit_track(track_id: str) -> dict:
    """MAX_SPACES spaces, four lanes up to MAX_LANE, rows up to MAX_ROWS (the finish)."""
    top, lanes = S.MAX_ROWS, range(S.MAX_LANE - 3, S.MAX_LANE + 1)
    first = top - S.MAX_SPACES // len(lanes) + 1
    spaces = [
        {
            "id": f"s{row}_{lane}",
            "row": row,
            "lane": lane,
            "next": [f"s{row + 1}_{n}" for n in (lane - 1, lane, lane + 1) if n in lanes] if row < top else [],
        }
        for row in range(first, top + 1)
        for lane in lanes
    ]
    start = [f"s{first + 1}_{lane}" for lane in lanes] + [f"s{first}_{lane}" for lane in lanes[:2]]
    return {
        "id": track_id,
        "name": track_id,
        "spaces": spaces,
        "start": start,
        "betting_lines": [top - 3, top - 2, top - 1],
        "finish": top,
    }


def powers(bonus: int | None) -> list[dict]:
    """The six power cards with their parameters at `bonus`; None: no power cards."""
    if bonus is None:
        return []
    return [{"id": p, "name": p, "text": p} | ({param: bonus for param in spec.params}) for p, spec in V.POWERS.items()]


def largest(track: str) -> dict:
    """Every bounded number at its largest: MAX_CARD_KINDS kinds holding MAX_DECK
    cards (one kind MAX_COPIES times), six cars a card at MAX_SPEED (every
    other card with two wilds), Speed-8 cards moving all six, prizes and
    payouts at MAX_MONEY, MAX_TURNS, MAX_TRACKS tracks: a grid of MAX_ROWS rows
    and an explicit map of MAX_SPACES spaces among them."""
    rest = S.MAX_DECK - S.MAX_COPIES
    counts = [S.MAX_COPIES] + [1] * rest + [0] * (S.MAX_CARD_KINDS - 1 - rest)

    def moves(i: int) -> list[dict]:
        order = CARS[i % 6 :] + CARS[: i % 6]
        cars = [("wild" if i % 2 and k in (1, 4) else c) for k, c in enumerate(order)]
        return [{"car": c, "speed": S.MAX_SPEED} for c in cars]

    return {
        "rules": {
            "track": track,
            "prizes": [S.MAX_MONEY] * V.N_CARS,
            "bet_payouts": [[S.MAX_MONEY] * V.BET_PLACES] * V.BETTING_LINES,
            "max_turns": S.MAX_TURNS,
            "players": {"min": 2, "max": 6},
        },
        "cars": CARS,
        "speed_cards": [{"id": f"c{i}", "count": n, "moves": moves(i)} for i, n in enumerate(counts)],
        # each moves its own car first, then the five others
        "speed8_cards": [
            {
                "id": f"eight_{c}",
                "moves": [{"car": car, "speed": S.MAX_SPEED} for car in sorted(CARS, key=lambda o, c=c: o != c)],
            }
            for c in CARS
        ],
        "powers": powers(S.MAX_BONUS),
        "tracks": [grid_track("long", S.MAX_ROWS, V.MAX_LANES, 2), explicit_track("wide")]
        + [grid_track(f"t{k}", 12, 3, 2) for k in range(S.MAX_TRACKS - 2)],
    }


def smallest(max_turns: int = 1) -> dict:
    """Every bounded number at its smallest: one card per player at most
    (players.max of them, one kind), speed 1, prizes and payouts 0, no power
    cards, the shortest two-lane grid, max_turns as given."""
    return {
        "rules": {
            "track": "short",
            "prizes": [0] * V.N_CARS,
            "bet_payouts": [[0] * V.BET_PLACES] * V.BETTING_LINES,
            "wild_bids": False,
            "max_turns": max_turns,
            "players": {"min": 2, "max": 6},
        },
        "cars": CARS,
        "speed_cards": [
            {"id": "only", "count": 6, "moves": [{"car": "red", "speed": 1}]},
            {"id": "none", "count": 0, "moves": [{"car": "wild", "speed": 1}]},
        ],
        "speed8_cards": [{"id": f"eight_{c}", "moves": [{"car": c, "speed": 1}]} for c in CARS],
        "powers": powers(None),
        # the six starting spaces fill three two-lane rows; a line in each of the next three; the finish next
        "tracks": [grid_track("short", 8, V.MIN_LANES, 3)],
    }


EXTREME_BOTS = {
    "heavy": {
        "noise": 0.0,
        "value": 1000,
        "hand": 1000,
        "bid": 10,
        "rival": 100,
        "jam": 1,
        "loyalty": 1000,
        "foresight": 1,
        "powers": {p: 1000 for p in V.POWERS},
    },
    "light": {
        "noise": 0.0,
        "value": 0,
        "hand": 0,
        "bid": 0,
        "rival": 0,
        "jam": 0,
        "loyalty": 0,
        "foresight": 0,
        "powers": {p: -1000 for p in V.POWERS},
    },
}


def play(tmp_path, data: dict, players: int, games: int = 8) -> dict[str, pl.DataFrame]:
    """`balance run` of `data` with the extreme bots and the random one: the logs."""
    db = tmp_path / "db.yaml"
    db.write_text(yaml.safe_dump(data, sort_keys=False))
    bots = (["heavy", "light", "random"] * 2)[:players]
    scenario = {
        "name": "limits",
        "game": "downforce",
        "cards": str(db),
        "players": players,
        "bots": bots,
        "bot_profiles": EXTREME_BOTS,
        "games": games,
        "chunk_size": games,
        "seed": 3,
    }
    path = tmp_path / "scenario.yaml"
    path.write_text(yaml.safe_dump(scenario, sort_keys=False))
    out = tmp_path / "run"
    run(path, RunOptions(out=out, jobs=1))
    tables = {name: frame.collect() for name, frame in load_run(out).items()}
    tables["manifest"] = json.loads((out / "manifest.json").read_text())
    return tables


def check_logs(t: dict, max_turns: int) -> None:
    """No wrapped number: rounds are the cards played, in range; money adds up."""
    games, players, cards = t["games"], t["players"], t["cards"]
    played = players.group_by("game_id").agg(pl.col("cards_played").sum()).sort("game_id")
    assert games.sort("game_id")["rounds"].to_list() == played["cards_played"].to_list()
    plays = cards.filter(pl.col("event") == "play").group_by("game_id").len().sort("game_id")
    assert plays["len"].to_list() == [r for r in games.sort("game_id")["rounds"].to_list() if r]
    assert games["rounds"].min() >= 1 and games["rounds"].max() <= min(max_turns, S.MAX_DECK + V.N_CARS)
    assert (players["money"] == players["prizes"] + players["bets_won"] - players["bids_paid"]).all()
    assert players["prizes"].min() >= 0 and players["bets_won"].min() >= 0 and players["bids_paid"].min() >= 0
    assert t["manifest"]["unfinished_games"] == games.filter(~pl.col("finished")).height


@pytest.mark.parametrize("track,players", [("long", 2), ("wide", 6)])
def test_a_database_at_every_largest_value_plays(tmp_path, track, players):
    data = largest(track)
    t = play(tmp_path, data, players)
    check_logs(t, S.MAX_TURNS)
    games, players_table = t["games"], t["players"]
    assert games["finished"].all()  # MAX_TURNS is more than any race plays
    # the most a player can win: every prize and every payout
    top = V.N_CARS * S.MAX_MONEY + V.BETTING_LINES * S.MAX_MONEY
    assert players_table["money"].max() <= top and players_table["prizes"].max() > 0
    assert games["track"].unique().to_list() == [track]


def test_the_largest_database_keeps_every_rule_and_tally_in_range(tmp_path):
    """The state itself, every card: the rules checker holds, and the int16
    tallies of spaces moved and lost never wrap."""
    path = tmp_path / "db.yaml"
    path.write_text(yaml.safe_dump(largest("wide"), sort_keys=False))
    tables = compile_database(load_database(path))
    bots = bot_table(resolve_profiles(EXTREME_BOTS), ["heavy", "light"], tables)
    st, broken = simulate(tables, bots, np.zeros((8, 2), np.int16) + [0, 1], Streams(5, 0, 8))
    assert broken == []
    assert st.lost.min() >= 0 and st.moved.min() >= 0 and st.moved.max() <= S.MAX_ROWS
    assert (st.turns == st.played.sum(axis=(1, 2))).all()


@pytest.mark.parametrize("max_turns", [1, S.MAX_TURNS])
@pytest.mark.parametrize("players", [2, 6])
def test_a_database_at_every_smallest_value_plays(tmp_path, max_turns, players):
    """One card per player at most, no power cards, a cap of one card or none
    that bites: every race is cut, or stalls when the cards run out."""
    t = play(tmp_path, smallest(max_turns), players)
    check_logs(t, max_turns)
    games, players_table = t["games"], t["players"]
    assert players_table["power"].null_count() == players_table.height  # no power cards to keep
    assert games["red_power"].null_count() == games.height
    if max_turns == 1:
        assert games["rounds"].to_list() == [1] * games.height and not games["finished"].any()
    else:  # red, the only car the regular card moves, may get home
        assert games["finished"].all() and (games["stalled"] >= V.N_CARS - 1).all()


# --- powers: fewer than six (the "no power cards") ------------------------------


def test_without_power_cards_the_cars_are_auctioned_alone(text, tmp_path):
    """It was IndexError in the auction (a power card drawn for each car); the
    rulebook count stays a warning, and the last cars go without one."""
    start = text.index("powers:\n")
    end = text.index("# The tracks.")
    data = yaml.safe_load(text[:start] + "powers: []\n\n" + text[end:])
    db_path = tmp_path / "nopowers.yaml"
    db_path.write_text(yaml.safe_dump(data, sort_keys=False))
    assert [w.message for w in load_database(db_path).warnings] == ["0 power cards (the rulebook has 6)"]
    t = play(tmp_path, data, 4)
    check_logs(t, 200)
    assert t["players"]["power"].null_count() == t["players"].height
    assert t["cards"].filter(pl.col("event") == "power").height == 0


# --- a race cut by rules.max_turns is unfinished ------------------------------------------


def four(tmp_path, max_turns: int, games: int = 200) -> dict:
    """scenarios/downforce-four.yaml with the cap overridden, as the issue's reproducer."""
    data = yaml.safe_load((ROOT / "scenarios" / "downforce-four.yaml").read_text())
    data |= {
        "cards": str(DOWNFORCE),
        "games": games,
        "chunk_size": 100,
        "overrides": {"rules.max_turns": max_turns},
    }
    path = tmp_path / "four.yaml"
    path.write_text(yaml.safe_dump(data, sort_keys=False))
    out = tmp_path / "run"
    run(path, RunOptions(out=out, jobs=1))
    tables = {name: frame.collect() for name, frame in load_run(out).items()}
    tables["manifest"] = json.loads((out / "manifest.json").read_text())
    return tables


def test_races_cut_by_the_turn_cap_are_logged_unfinished(tmp_path):
    """It was "200 games (0 unfinished)": every race cut after 3 cards logged finished."""
    t = four(tmp_path, 3)
    games, players = t["games"], t["players"]
    assert t["manifest"]["unfinished_games"] == 200
    assert not games["finished"].any() and (games["rounds"] == 3).all()
    assert (games["stalled"] == V.N_CARS).all()  # no car finishes in 3 cards; all count as not placed
    assert games.select(pl.col(f"{c}_place").null_count() for c in CARS).row(0) == (200,) * 6
    # scored at the cap: no prizes, no bet pays (no car placed), the richest (paid least) wins
    assert (players["prizes"] == 0).all() and (players["bets_won"] == 0).all()
    assert (players["money"] == -players["bids_paid"]).all()
    winners = players.filter(pl.col("won")).select("game_id", "seat").sort("game_id")
    assert winners["seat"].to_list() == games.sort("game_id")["winner_seat"].to_list()
    best = players.group_by("game_id").agg(pl.col("money").max()).sort("game_id")
    assert players.filter(pl.col("won")).sort("game_id")["money"].to_list() == best["money"].to_list()


def test_only_the_races_the_cap_cut_are_unfinished(tmp_path):
    """With a cap inside the usual race length some races end first: those are
    finished, the ones still running at the cap are not."""
    t = four(tmp_path, 30, games=100)
    games = t["games"]
    cut = games.filter(~pl.col("finished"))
    assert 0 < cut.height < games.height
    assert (cut["rounds"] == 30).all() and (cut["stalled"] > 0).all()
    assert t["manifest"]["unfinished_games"] == cut.height
    # a race that ended by itself within the cap is finished: every car home, or no card left to move one
    assert (games.filter(pl.col("rounds") < 30)["finished"]).all()


def test_the_trace_says_the_cap_cut_the_race(tmp_path):
    from balance.games.downforce.trace import trace_game
    from balance.scenario import load_scenario

    data = yaml.safe_load((ROOT / "scenarios" / "downforce-four.yaml").read_text())
    data |= {"cards": str(DOWNFORCE), "overrides": {"rules.max_turns": 3}}
    path = tmp_path / "four.yaml"
    path.write_text(yaml.safe_dump(data, sort_keys=False))
    text = trace_game(load_scenario(path), 1, 0)
    assert "Result after 3 cards (cut by rules.max_turns: the cars still racing earn nothing):" in text
    assert text.count(": still racing") == V.N_CARS and "stalled" not in text
