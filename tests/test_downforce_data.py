"""The Downforce data layer: the shipped downforce.yaml (our card mix and
tracks, see docs/downforce.md), its compiled tables, and one test per kind of
mistake, each breaking one line of a copy and checking the whole one-line
message with the line it points at."""

from __future__ import annotations

from collections import Counter, deque

import numpy as np
import pytest

from balance.errors import UserError
from balance.games.downforce import vocabulary as V
from balance.games.downforce.compile import NONE, WILD, compile_database, summarize
from balance.games.downforce.schema import load_database

from .conftest import ROOT, broken_copy, one_line_error

DOWNFORCE = ROOT / "downforce.yaml"

# Colour balance of the card mix (regular cards, wilds not counted): every
# colour within this many appearances and spaces of the mean over colours.
# Our design is exact (25 appearances and 87 spaces each); the tolerance lets a
# designer move one card's speed by a few spaces without tripping the test.
APPEARANCE_TOLERANCE = 1
SPEED_TOLERANCE = 3  # spaces, about 3.5% of 87

# A small track in the explicit form, appended to the file's tracks (the last
# section): three lanes at the start, then two; c0 is a curved inside space
# whose front end lies two rows ahead (the inside of a bend is shorter).
MINI = """
  - id: mini
    name: Mini
    spaces:
      - {id: a0, row: 0, lane: 0, next: [b0, b1]}
      - {id: a1, row: 0, lane: 1, next: [b0, b1, b2]}
      - {id: a2, row: 0, lane: 2, next: [b1, b2]}
      - {id: b0, row: 1, lane: 0, next: [c0, c1]}
      - {id: b1, row: 1, lane: 1, next: [c0, c1]}
      - {id: b2, row: 1, lane: 2, next: [c1]}
      - {id: c0, row: 2, lane: 0, curve: true, next: [e0, d1]}
      - {id: c1, row: 2, lane: 1, curve: true, next: [d1]}
      - {id: d1, row: 3, lane: 1, curve: true, next: [e0, e1]}
      - {id: e0, row: 4, lane: 0, next: [f0, f1]}
      - {id: e1, row: 4, lane: 1, next: [f0, f1]}
      - {id: f0, row: 5, lane: 0}
      - {id: f1, row: 5, lane: 1}
    start: [b0, b1, b2, a0, a1, a2]
    betting_lines: [2, 3, 4]
    finish: 5
"""


@pytest.fixture(scope="module")
def text() -> str:
    return DOWNFORCE.read_text()


@pytest.fixture(scope="module")
def db():
    return load_database(DOWNFORCE)


@pytest.fixture(scope="module")
def tables(db):
    return compile_database(db)


def reachable_finish(track, start: int) -> bool:
    """Breadth-first over `next` from one space: does some path reach the finish?"""
    seen, todo = {start}, deque([start])
    while todo:
        space = todo.popleft()
        if track.row[space] >= track.finish_row:
            return True
        for ahead in track.next[space]:
            if ahead != NONE and ahead not in seen:
                seen.add(int(ahead))
                todo.append(int(ahead))
    return False


# --- the shipped file ---------------------------------------------------------


def test_shipped_file_loads_without_warnings(db):
    assert db.warnings == ()
    assert db.counts() == {"regular speed cards": 42, "Speed-8 cards": 6, "power cards": 6, "tracks": 2}
    assert len(db.speed_cards) == 42 and all(c.count == 1 for c in db.speed_cards)
    assert [p.id for p in db.powers] == list(V.POWERS)
    assert (db.power("aggressive").bonus, db.power("determined").bonus, db.power("tricky").bonus) == (1, 1, 0)


def test_speed8_cards_move_their_own_car_eight(db):
    assert [(c.moves[0].car, c.moves[0].speed, len(c.moves)) for c in db.speed8_cards] == [
        (car, 8, 1) for car in db.cars
    ]


def test_card_mix_follows_our_design_rules(db):
    sizes = Counter(len(c.moves) for c in db.speed_cards)
    assert sizes == {2: 3, 3: 12, 4: 18, 5: 6, 6: 3}
    for card in db.speed_cards:
        speeds = [m.speed for m in card.moves]
        assert speeds == sorted(speeds, reverse=True) and len(set(speeds)) == len(speeds), card.id
        assert min(speeds) >= 1 and max(speeds) <= 6, card.id
        colours = [m.car for m in card.moves if m.car != V.WILD]
        assert len(set(colours)) == len(colours) and card.wilds <= V.MAX_WILDS, card.id
    assert Counter(c.wilds for c in db.speed_cards) == {0: 32, 1: 8, 2: 2}


def test_colours_are_balanced(db):
    appearances = Counter(m.car for c in db.speed_cards for m in c.moves if m.car != V.WILD)
    spaces = Counter()
    for card in db.speed_cards:
        for move in card.moves:
            if move.car != V.WILD:
                spaces[move.car] += move.speed
    assert set(appearances) == set(db.cars)
    for counts, tolerance in ((appearances, APPEARANCE_TOLERANCE), (spaces, SPEED_TOLERANCE)):
        mean = sum(counts.values()) / len(db.cars)
        assert all(abs(counts[car] - mean) <= tolerance for car in db.cars), counts
    assert (appearances["red"], spaces["red"]) == (25, 87)  # what the file's comment states


def test_cards_compile_to_columns(db, tables):
    cards = tables.cards
    assert cards.car.shape == cards.speed.shape == (48, 6)
    assert cards.is_speed8.tolist() == [False] * 42 + [True] * 6
    s12 = cards.index("s12")  # wild 5, blue 3, red 1
    assert cards.car[s12].tolist() == [WILD, 1, 0, NONE, NONE, NONE]
    assert cards.speed[s12].tolist() == [5, 3, 1, 0, 0, 0]
    assert (cards.n_cars[s12], cards.wilds[s12]) == (3, 1)
    assert cards.wilds[cards.index("s33")] == 2
    assert tables.cars == ("red", "blue", "green", "yellow", "black", "orange")
    assert [cards.ids[i] for i in tables.speed8_card] == [f"eight_{car}" for car in db.cars]
    assert cards.count.sum() == 48
    with pytest.raises(ValueError):
        cards.speed[0, 0] = 9


def test_bids_count_a_wild_for_a_car_the_card_does_not_show(tables):
    cards = tables.cards
    s12 = cards.index("s12")  # wild 5, blue 3, red 1: the wild bids 5 for the four cars not on it
    assert cards.bid[s12].tolist() == [1, 3, 5, 5, 5, 5]
    s33 = cards.index("s33")  # black 6, wild 4, green 3, wild 1: the faster wild bids
    assert cards.bid[s33].tolist() == [4, 4, 3, 4, 6, 4]
    s01 = cards.index("s01")  # black 6, orange 3: no wild, nothing for the others
    assert cards.bid[s01].tolist() == [0, 0, 0, 0, 6, 3]
    eight = tables.speed8_card[0]
    assert cards.bid[eight].tolist() == [8, 0, 0, 0, 0, 0]


def test_bids_without_wild_bids(broken):
    path, _ = broken("  wild_bids: true ", "  wild_bids: false ")
    cards = compile_database(load_database(path)).cards
    assert cards.bid[cards.index("s12")].tolist() == [1, 3, 0, 0, 0, 0]


def test_rules_and_powers_compile(tables):
    r = tables.rules
    assert r.prizes.tolist() == [12, 9, 6, 4, 2, 0]
    assert r.payouts.shape == (3, 3) and r.payouts[:, 0].tolist() == [9, 6, 3]
    assert (r.wild_bids, r.max_turns, r.min_players, r.max_players) == (True, 200, 2, 6)
    assert tables.tracks[r.track].id == "harbour"
    powers = tables.powers
    assert powers.kind.tolist() == list(range(6))
    assert powers.bonus[powers.index("aggressive")] == 1 and powers.bonus[powers.index("cunning")] == 0


@pytest.mark.parametrize("track_id", ["harbour", "ridge"])
def test_every_track_compiles_and_can_be_finished(tables, track_id):
    track = tables.tracks[tables.track_index(track_id)]
    s = len(track.names)
    assert track.row.shape == track.lane.shape == track.curve.shape == (s,)
    assert track.next.shape == (s, V.MAX_NEXT) and track.start.shape == (V.N_CARS,)
    has_next = (track.next != NONE).any(axis=1)
    assert has_next[track.row < track.finish_row].all()  # only run-off spaces lack one
    ahead = track.next[track.next != NONE]
    origin = np.nonzero(track.next != NONE)[0]
    assert (track.row[ahead] > track.row[origin]).all()  # moves go forward only
    assert (track.row[ahead] - track.row[origin] == 1).all()  # a grid advances one row a move
    assert all(reachable_finish(track, int(space)) for space in track.start)
    lines = track.betting_rows.tolist()
    assert lines == sorted(set(lines)) and len(lines) == V.BETTING_LINES
    assert track.row[track.start].max() < lines[0] and lines[-1] < track.finish_row <= track.row.max()
    assert len(set(track.start.tolist())) == V.N_CARS


def test_grid_shapes(tables):
    harbour = tables.tracks[tables.track_index("Harbour Loop")]
    assert (len(harbour.names), harbour.row.max(), harbour.finish_row) == (162, 51, 50)
    assert [harbour.names[i] for i in harbour.start] == ["r1l0", "r1l1", "r1l2", "r0l0", "r0l1", "r0l2"]
    assert harbour.betting_rows.tolist() == [16, 31, 43]
    ridge = tables.tracks[tables.track_index("ridge")]
    assert (len(ridge.names), ridge.row.max(), ridge.finish_row) == (133, 47, 46)
    assert ridge.curve.sum() == 4 * 2 + 5 * 2 + 5 * 3 + 5 * 3 + 4 * 2  # its curved segments, rows x lanes


def test_grid_neighbours(tables):
    t = tables.tracks[tables.track_index("harbour")]

    def ahead(space: str) -> list[str]:
        return [t.names[i] for i in t.next[t.index(space)] if i != NONE]

    assert ahead("r0l1") == ["r1l0", "r1l1", "r1l2"]
    assert ahead("r0l0") == ["r1l0", "r1l1"]  # no lane -1: straight or diagonal out
    assert ahead("r30l2") == ["r31l1"]  # three lanes into the two-lane hairpin: aligned on the inside
    assert ahead("r16l2") == ["r17l1", "r17l2", "r17l3"]  # widening to four lanes
    assert ahead("r51l0") == []  # the run-off's last row
    assert bool(t.curve[t.index("r12l0")]) and not t.curve[t.index("r11l0")]


def test_unknown_track_lists_the_known_ones(tables):
    with pytest.raises(UserError) as info:
        tables.track_index("monza")
    assert str(info.value) == "track: track: unknown track 'monza' (known: harbour, ridge)"


def test_summary_for_validate(db):
    summary = summarize(db)
    assert summary.piles == db.counts()
    assert summary.by_type == {"regular": (42, 42), "speed8": (6, 6)}
    assert summary.by_flag == {
        "1 car": (6, 6),
        "2 cars": (3, 3),
        "3 cars": (12, 12),
        "4 cars": (18, 18),
        "5 cars": (6, 6),
        "6 cars": (3, 3),
        "a wild": (8, 8),
        "two wilds": (2, 2),
    }
    assert summary.flag_word == "with"


# --- one line per mistake -------------------------------------------------------


@pytest.fixture
def broken(tmp_path, text):
    """broken(old, new) -> (path, line): downforce.yaml with one unique snippet replaced."""
    return broken_copy(tmp_path, text, "downforce.yaml")


def error_of(path: str) -> str:
    return one_line_error(load_database, path)


S01 = "{car: black, speed: 6}, {car: orange, speed: 3}]"  # the whole of card s01's moves line


def test_unknown_colour(broken):
    path, line = broken(S01, "{car: black, speed: 6}, {car: purple, speed: 3}]")
    assert error_of(path) == (
        f"{path}:{line}: speed_cards.s01.moves.1.car: unknown car 'purple' "
        "(known: red, blue, green, yellow, black, orange, wild)"
    )


def test_colour_twice_on_a_card(broken):
    path, line = broken(S01, "{car: black, speed: 6}, {car: black, speed: 3}]")
    assert error_of(path) == f"{path}:{line}: speed_cards.s01.moves.1.car: 'black' is already on this card (move 0)"


def test_third_wild(broken):
    path, line = broken(
        "[{car: wild, speed: 5}, {car: red, speed: 4}, ", "[{car: wild, speed: 5}, {car: wild, speed: 4}, "
    )
    assert error_of(path) == f"{path}:{line}: speed_cards.s32.moves.2.car: a wild beyond the 2 a card may carry"


def test_more_cars_than_the_race(broken):
    path, line = broken(
        "{car: green, speed: 3}, {car: red, speed: 2}, {car: yellow, speed: 1}]",
        "{car: green, speed: 3}, {car: red, speed: 2}, {car: yellow, speed: 1}, {car: wild, speed: 1}]",
    )
    assert error_of(path) == f"{path}:{line}: speed_cards.s41.moves: 7 cars on one card; there are 6"


def test_bad_speed(broken):
    path, line = broken(S01, "{car: black, speed: 0}, {car: orange, speed: 3}]")
    assert error_of(path) == f"{path}:{line}: speed_cards.s01.moves.0.speed: must be at least 1, got 0"


def test_duplicate_card_id(broken, text):
    first = text[: text.index("  - id: s01\n")].count("\n") + 1
    path, line = broken("  - id: s02\n", "  - id: s01\n")
    assert error_of(path) == f"{path}:{line}: speed_cards.s01.id: duplicate id 's01' (first defined at line {first})"


def test_unknown_key(broken):
    path, line = broken("  - id: s05\n", "  - id: s05\n    colour: red\n")
    assert (
        error_of(path) == f"{path}:{line + 1}: speed_cards.s05.colour: unknown field 'colour' (known: id, count, moves)"
    )


def test_wild_is_not_a_colour(broken):
    path, line = broken(
        "cars: [red, blue, green, yellow, black, orange]", "cars: [red, blue, green, yellow, black, wild]"
    )
    assert error_of(path).startswith(f"{path}:{line}: cars.5: 'wild' is reserved for a wild car on a card")


def test_six_cars(broken):
    path, line = broken("cars: [red, blue, green, yellow, black, orange]", "cars: [red, blue, green, yellow, black]")
    assert error_of(path).startswith(f"{path}:{line}: cars: 5 colours; Downforce races 6 cars")


def test_colour_listed_twice(broken):
    path, line = broken(
        "cars: [red, blue, green, yellow, black, orange]", "cars: [red, blue, green, yellow, black, red]"
    )
    assert error_of(path).startswith(f"{path}:{line}: cars.5: 'red' is listed twice (first at line {line})")


def test_prize_table_length(broken):
    path, line = broken("prizes: [12, 9, 6, 4, 2, 0]", "prizes: [12, 9, 6, 4, 2]")
    assert error_of(path) == f"{path}:{line}: rules.prizes: 5 prizes for 6 finishing places (1st first)"


def test_payout_row_length(broken):
    path, line = broken("    - [6, 4, 2] ", "    - [6, 4] ")
    assert error_of(path) == (
        f"{path}:{line}: rules.bet_payouts.1: 2 payouts for line 2; give 3: the bet car finishing 1st, 2nd, 3rd"
    )


def test_payout_rows(broken, text):
    key = (
        text.split("\n").index(
            "  bet_payouts:                # $M per bet whose car finishes 1st, 2nd, 3rd (score sheet)..."
        )
        + 1
    )
    path, _ = broken("    - [3, 2, 1]               # ...at line 3\n", "")
    assert error_of(path) == f"{path}:{key}: rules.bet_payouts: 2 rows for 3 betting lines (one row per line)"


def test_players_range(broken):
    path, line = broken("  players: {min: 2, max: 6}", "  players: {min: 5, max: 4}")
    assert error_of(path) == f"{path}:{line}: rules.players.min: 5 is more than max (4)"


def test_wrong_type(broken):
    path, line = broken("  max_turns: 200 ", "  max_turns: many ")
    assert error_of(path) == f"{path}:{line}: rules.max_turns: expected an integer, got 'many'"


def test_unknown_track(broken):
    path, line = broken("  track: harbour ", "  track: monza ")
    assert error_of(path) == f"{path}:{line}: rules.track: unknown track 'monza' (known: harbour, ridge)"


def test_unknown_power(broken):
    path, line = broken("  - id: tricky\n", "  - id: lucky\n")
    assert error_of(path) == (
        f"{path}:{line}: powers.lucky.id: unknown power 'lucky' "
        "(known: aggressive, cunning, determined, strategic, tricky, unpredictable)"
    )


def test_power_parameter_missing(broken):
    path, line = broken("    bonus: 1                  # ours", "    # no bonus")
    assert error_of(path) == f"{path}:{line - 3}: powers.determined.bonus: required field missing"


def test_power_parameter_unknown(broken):
    path, line = broken(
        "    bonus: 1                  # the rulebook's", "    boost: 1                  # the rulebook's"
    )
    assert error_of(path) == (
        f"{path}:{line}: powers.aggressive.boost: unknown field 'boost' (did you mean 'bonus'?) (known: id, name, text, bonus)"
    )


def test_speed8_colour_twice(broken, text):
    first = text[: text.index("  - {id: eight_red,")].count("\n") + 1
    path, line = broken("{id: eight_blue, moves: [{car: blue,", "{id: eight_blue, moves: [{car: red,")
    assert error_of(path) == (
        f"{path}:{line}: speed8_cards.eight_blue.moves.0.car: a second Speed-8 card for 'red' "
        f"(the first, 'eight_red', is at line {first}); each car is auctioned with its own"
    )


def test_speed8_colour_missing(broken, text):
    key = text.split("\n").index("speed8_cards:") + 1
    path, _ = broken("  - {id: eight_blue, moves: [{car: blue, speed: 8}]}\n", "")
    assert error_of(path) == (
        f"{path}:{key}: speed8_cards: no Speed-8 card for blue (each car is auctioned with its own)"
    )


def test_speed8_wild_first(broken):
    path, line = broken("{id: eight_blue, moves: [{car: blue,", "{id: eight_blue, moves: [{car: wild,")
    assert error_of(path) == (
        f"{path}:{line}: speed8_cards.eight_blue.moves.0.car: a Speed-8 card's first car is the car auctioned "
        "with it: name a colour, not wild"
    )


def test_lanes_out_of_range(broken):
    path, line = broken("{rows: 6, lanes: 2, curve: true}    # 31-36", "{rows: 6, lanes: 5, curve: true}    # 31-36")
    assert error_of(path) == f"{path}:{line}: tracks.harbour.grid.4.lanes: must be at most 4, got 5"


def test_lanes_change_by_two(broken):
    path, line = broken("{rows: 6, lanes: 3, curve: true}    # 25-30", "{rows: 6, lanes: 4, curve: true}    # 25-30")
    assert error_of(path) == (
        f"{path}:{line + 1}: tracks.harbour.grid.4.lanes: 2 lanes after 4: change by one lane at a time"
    )


def test_too_few_starting_spaces(broken):
    path, line = broken("    start_rows: 2             #", "    start_rows: 1             #")
    assert (
        error_of(path) == f"{path}:{line}: tracks.harbour.start_rows: the first 1 rows hold 3 spaces; the 6 cars need 6"
    )


def test_grid_needs_start_rows(broken, text):
    track = text[: text.index("  - id: ridge\n")].count("\n") + 1
    path, _ = broken("    start_rows: 2\n    betting_lines: [15", "    betting_lines: [15")
    assert error_of(path) == (
        f"{path}:{track}: tracks.ridge.start_rows: required with grid: how many first rows hold the starting spaces"
    )


def test_finish_past_the_grid(broken):
    path, line = broken("    finish: 50\n", "    finish: 52\n")
    assert error_of(path) == f"{path}:{line}: tracks.harbour.finish: row 52 is past the grid's last row (51)"


def test_betting_lines_not_increasing(broken):
    path, line = broken("betting_lines: [16, 31, 43]", "betting_lines: [16, 12, 43]")
    assert error_of(path) == (
        f"{path}:{line}: tracks.harbour.betting_lines.1: row 12 is not after line 1's row 16 (cars cross them in order)"
    )


def test_betting_line_past_the_finish(broken):
    path, line = broken("betting_lines: [16, 31, 43]", "betting_lines: [16, 31, 50]")
    assert error_of(path) == f"{path}:{line}: tracks.harbour.betting_lines.2: row 50 is not before the finish (row 50)"


def test_betting_line_at_the_start(broken):
    path, line = broken("betting_lines: [16, 31, 43]", "betting_lines: [1, 31, 43]")
    assert error_of(path) == (
        f"{path}:{line}: tracks.harbour.betting_lines.0: row 1 is not after the starting spaces (the front one is at row 1)"
    )


def test_three_betting_lines(broken):
    path, line = broken("betting_lines: [16, 31, 43]", "betting_lines: [16, 31]")
    assert error_of(path) == (
        f"{path}:{line}: tracks.harbour.betting_lines: 2 betting lines; a track has 3 (one per row of rules.bet_payouts)"
    )


def test_counts_differing_from_the_rulebook_are_warnings(broken, text):
    cards_line = text.split("\n").index("speed_cards:") + 1
    path, _ = broken(
        "    count: 1\n    moves: [{car: green, speed: 5}, {car: blue, speed: 4}]",
        "    count: 0\n    moves: [{car: green, speed: 5}, {car: blue, speed: 4}]",
    )
    db = load_database(path)
    assert [str(w) for w in db.warnings] == [
        f"{path}:{cards_line}: count of regular speed cards: 41 regular speed cards (the rulebook has 42)"
    ]


def test_a_missing_power_is_a_warning(broken, text):
    powers_line = text.split("\n").index("powers:") + 1
    path, _ = broken("  - id: strategic\n    name: Strategic\n    text: You may skip one car on a card you play.\n", "")
    assert [str(w) for w in load_database(path).warnings] == [
        f"{path}:{powers_line}: count of power cards: 5 power cards (the rulebook has 6)"
    ]


# --- an explicit map ------------------------------------------------------------


@pytest.fixture
def with_mini(tmp_path, text):
    """with_mini(old, new) -> (path, first line of MINI): the file plus MINI, one snippet of MINI replaced."""

    def make(old: str = "", new: str = "") -> tuple[str, int]:
        assert not old or MINI.count(old) == 1, f"snippet not unique: {old!r}"
        path = tmp_path / "downforce.yaml"
        path.write_text(text + MINI.replace(old, new) if old else text + MINI)
        return str(path), text.count("\n") + 2  # MINI starts with a blank line

    return make


def mini_line(first: int, snippet: str) -> int:
    """The file line of MINI's (unchanged) line holding `snippet`."""
    lines = MINI[1:].split("\n")
    return first + next(k for k, line in enumerate(lines) if snippet in line)


def test_explicit_spaces_compile(with_mini):
    path, _ = with_mini()
    tables = compile_database(load_database(path))
    mini = tables.tracks[tables.track_index("mini")]
    assert mini.names[:3] == ("a0", "a1", "a2") and len(mini.names) == 13
    c0 = mini.index("c0")
    assert [mini.names[i] for i in mini.next[c0] if i != NONE] == ["e0", "d1"]
    assert mini.next[c0].tolist()[-1] == NONE and bool(mini.curve[c0])
    assert [mini.names[i] for i in mini.start] == ["b0", "b1", "b2", "a0", "a1", "a2"]
    assert all(reachable_finish(mini, int(space)) for space in mini.start)
    assert (mini.betting_rows.tolist(), mini.finish_row) == ([2, 3, 4], 5)


def test_dangling_next(with_mini):
    path, first = with_mini("next: [d1]}", "next: [d9]}")
    assert error_of(path) == f"{path}:{mini_line(first, 'id: c1,')}: tracks.mini.spaces.c1.next.0: unknown space 'd9'"


def test_next_not_ahead(with_mini):
    path, first = with_mini("next: [e0, d1]}", "next: [e0, c1]}")
    assert error_of(path) == (
        f"{path}:{mini_line(first, 'id: c0,')}: tracks.mini.spaces.c0.next.1: 'c1' is at row 2, not ahead of row 2"
    )


def test_dead_end_before_the_finish(with_mini):
    path, first = with_mini("{id: d1, row: 3, lane: 1, curve: true, next: [e0, e1]}", "{id: d1, row: 3, lane: 1}")
    assert error_of(path) == (
        f"{path}:{mini_line(first, 'id: d1,')}: tracks.mini.spaces.d1.next: a dead end at row 3, "
        "before the finish (row 5): list the spaces ahead"
    )


def test_too_many_spaces_ahead(with_mini):
    path, first = with_mini("next: [b0, b1, b2]}", "next: [b0, b1, b2, c1]}")
    assert error_of(path) == (
        f"{path}:{mini_line(first, 'id: a1,')}: tracks.mini.spaces.a1.next: 4 spaces ahead; "
        "at most 3 (straight or diagonal)"
    )


def test_duplicate_space(with_mini):
    path, first = with_mini("{id: f1, row: 5, lane: 1}", "{id: f1, row: 5, lane: 1}\n      - {id: f0, row: 6, lane: 0}")
    assert error_of(path) == (
        f"{path}:{mini_line(first, 'id: f1,') + 1}: tracks.mini.spaces.f0.id: duplicate id 'f0' "
        f"(first defined at line {mini_line(first, 'id: f0,')})"
    )


def test_wrong_number_of_starting_spaces(with_mini):
    path, first = with_mini("start: [b0, b1, b2, a0, a1, a2]", "start: [b0, b1, b2, a0, a1]")
    assert (
        error_of(path)
        == f"{path}:{mini_line(first, 'start:')}: tracks.mini.start: 5 starting spaces; the 6 cars need 6"
    )


def test_unknown_starting_space(with_mini):
    path, first = with_mini("start: [b0, b1, b2, a0, a1, a2]", "start: [b0, b1, b2, a0, a1, a9]")
    assert error_of(path) == f"{path}:{mini_line(first, 'start:')}: tracks.mini.start.5: unknown space 'a9'"


def test_grid_and_spaces_together(with_mini):
    path, first = with_mini("    name: Mini\n", "    name: Mini\n    grid: [{rows: 3, lanes: 2}]\n")
    assert error_of(path) == (
        f"{path}:{mini_line(first, 'spaces:') + 1}: tracks.mini.spaces: a track is a grid or a list of spaces, not both"
    )


DOC = ROOT / "docs" / "downforce.md"


def test_docs_name_every_word():
    doc = DOC.read_text()
    for word in [V.WILD, *V.POWERS]:
        assert f"`{word}`" in doc, word


def test_docs_track_examples_load(tmp_path, text):
    blocks = [b.split("```")[0] for b in DOC.read_text().split("```yaml\n") if b.startswith("  - id: ")]
    assert [b.split("\n")[0] for b in blocks] == ["  - id: example", "  - id: mini"]
    path = tmp_path / "downforce.yaml"
    path.write_text(text + "".join(blocks))
    tables = compile_database(load_database(path))
    example = tables.tracks[tables.track_index("example")]
    assert [example.names[i] for i in example.start] == ["r1l0", "r1l1", "r1l2", "r0l0", "r0l1", "r0l2"]
    assert [example.names[i] for i in example.next[example.index("r1l2")] if i != NONE] == ["r2l1"]
