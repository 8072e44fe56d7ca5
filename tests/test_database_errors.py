"""Every mistake in a card database gives ONE line `file:line: field: message`.

Each test breaks one line of the real cards.yaml and checks the whole message,
including the line it points at.
"""

from __future__ import annotations

import pytest

from balance.games.horsepower.schema import load_database

from .conftest import CARDS, broken_copy, one_line_error


@pytest.fixture
def broken(tmp_path, cards_text):
    """broken(old, new) -> (path, line): cards.yaml with one unique snippet replaced."""
    return broken_copy(tmp_path, cards_text, "cards.yaml")


def error_of(path: str) -> str:
    return one_line_error(load_database, path)


def test_yaml_syntax_an_unclosed_bracket_is_reported_where_it_opens(broken):
    """Issue 43: the parser gives up a line late ("while parsing a flow
    sequence ... did not find expected ',' or ']'"); the mistake is where the
    bracket opened, and the fix is to close it."""
    path, line = broken("    name: Twin Turbo\n", "    name: [Twin Turbo\n")
    assert error_of(path) == (
        f"{path}:{line}: yaml: the [ opened on this line is not closed: add ] at its end (or a , between items)"
    )
    path, line = broken(
        '      - {op: drive, amount: 6}\n    text: "+6 Drive."', '      - {op: drive, amount: 6\n    text: "+6 Drive."'
    )
    assert error_of(path).startswith(f"{path}:{line}: yaml: the {{ opened on this line is not closed: add }}")


def test_yaml_syntax_a_colon_in_a_text_says_to_quote_it(broken):
    """Issue 43: an unquoted ': ' in a text gave the parser's "mapping values
    are not allowed in this context"."""
    path, line = broken('    text: "+6 Drive."\n', "    text: Drive: +6\n")
    assert error_of(path) == (
        f"{path}:{line}: yaml: a ': ' inside a value reads as a new key: put the value in quotes "
        '(e.g. text: "Drive: +6")'
    )


def test_an_id_inside_the_database_gets_a_did_you_mean(broken):
    path, line = broken("    stock_engine: ", "    stock_engin: ")
    assert error_of(path).endswith("no card with id 'stock_engin' (did you mean 'stock_engine'?)")


def test_validate_warns_when_a_text_no_longer_says_the_numbers():
    """Issue 43: after an edit `text: "+6 Drive."` stayed and nothing warned."""
    from balance.stale_text import stale_texts
    from balance.yamlio import parse_yaml

    text = CARDS.read_text()
    assert stale_texts(parse_yaml(text, "cards.yaml")) == [], "the shipped texts match their numbers"
    edited = text.replace(
        '      - {op: drive, amount: 6}\n    text: "+6 Drive."', '      - {op: drive, amount: 4}\n    text: "+6 Drive."'
    )
    (warning,) = stale_texts(parse_yaml(edited, "cards.yaml"))
    assert str(warning).endswith(
        "cards.twin_turbo.text: says 6, which none of its numbers is: does the text still match them? ('+6 Drive.')"
    )


def test_unknown_key(broken):
    path, line = broken("    name: Twin Turbo\n", "    name: Twin Turbo\n    colour: red\n")
    assert error_of(path) == (
        f"{path}:{line + 1}: cards.twin_turbo.colour: unknown field 'colour' "
        "(known: id, name, type, count, flags, cost, effects, text)"
    )


def test_unknown_key_inside_an_effect(broken):
    path, line = broken(
        '{op: drive, amount: 6}\n    text: "+6 Drive."', '{op: drive, amount: 6, speed: 2}\n    text: "+6 Drive."'
    )
    assert error_of(path) == (
        f"{path}:{line}: cards.twin_turbo.effects.0.speed: unknown field 'speed' (known: op, if, amount, per)"
    )


def test_wrong_type(broken):
    path, line = broken("  laps: 3 ", "  laps: three ")
    assert error_of(path) == f"{path}:{line}: rules.laps: expected an integer, got 'three'"


def test_wrong_type_for_a_list(broken):
    path, line = broken("  auction_spaces: [10, 20, 30, 40]", "  auction_spaces: 10")
    assert error_of(path) == f"{path}:{line}: rules.auction_spaces: expected a list, got 10"


def test_unknown_op(broken):
    path, line = broken(
        '      - {op: drive, amount: 6}\n    text: "+6 Drive."', '      - {op: warp, amount: 6}\n    text: "+6 Drive."'
    )
    message = error_of(path)
    assert message.startswith(f"{path}:{line}: cards.twin_turbo.effects.0.op: unknown op 'warp' (known: drive, dice, ")
    assert "extra_play)" in message


def test_unknown_target(broken):
    path, line = broken("{op: wipe_out, target: leader}", "{op: wipe_out, target: everyone}")
    assert error_of(path) == (
        f"{path}:{line}: cards.blue_shell.effects.0.target: 'everyone' is not a known target "
        "(known: self, leader, next, nearest_ahead, nearest_behind, all_others)"
    )


def test_unknown_trigger(broken):
    path, line = broken("{when: auction, op: coins, amount: 2}", "{when: at_auction, op: coins, amount: 2}")
    assert error_of(path) == (
        f"{path}:{line}: playbooks.auctioneer.effects.0.when: 'at_auction' is not a known trigger "
        "(known: always, turn_start, lap_complete, auction, incinerator, wiped_out, buy, pit_stop, race_through)"
    )


def test_unknown_flag(broken):
    path, line = broken("    flags: [E, M]\n", "    flags: [E, X]\n")
    assert error_of(path) == f"{path}:{line}: cards.road_block.flags.1: 'X' is not a known flag (known: S, M, E, P, D)"


def test_unknown_condition(broken):
    path, line = broken("if: {lap: 3}", "if: {on_lap: 3}")
    assert error_of(path) == (
        f"{path}:{line}: cards.endurance_tyres.effects.1.if.on_lap: unknown field 'on_lap' (did you mean 'lap'?) "
        "(known: played, leading, last, lap, min_coins, min_puzzle_in_play, behind_leader)"
    )


def test_duplicate_id(broken, cards_text):
    first = cards_text[: cards_text.index("  - id: v8_block")].count("\n") + 1
    path, line = broken("  - id: twin_turbo\n", "  - id: v8_block\n")
    assert (
        error_of(path) == f"{path}:{line}: cards.v8_block.id: duplicate id 'v8_block' (first defined at line {first})"
    )


def test_id_shared_by_a_card_and_a_playbook(broken, cards_text):
    first = cards_text[: cards_text.index("  - id: oil_baron")].count("\n") + 1
    path, line = broken("  - id: rocket_fuel\n", "  - id: oil_baron\n")
    assert (
        error_of(path)
        == f"{path}:{line}: playbooks.oil_baron.id: duplicate id 'oil_baron' (first defined at line {first})"
    )


def test_id_must_be_snake_case(broken):
    path, line = broken("  - id: twin_turbo\n", "  - id: Twin-Turbo\n")
    assert (
        error_of(path)
        == f"{path}:{line}: cards.8.id: 'Twin-Turbo' must be snake_case (lower-case letters, digits and _)"
    )


def test_negative_count(broken):
    path, line = broken(
        "    name: Twin Turbo\n    type: engine\n    count: 2\n",
        "    name: Twin Turbo\n    type: engine\n    count: -2\n",
    )
    assert error_of(path) == f"{path}:{line + 2}: cards.twin_turbo.count: must be at least 0, got -2"


def test_missing_required_field(broken):
    path, line = broken("  - id: twin_turbo\n    name: Twin Turbo\n", "  - id: twin_turbo\n")
    assert error_of(path) == f"{path}:{line}: cards.twin_turbo.name: required field missing"


def test_missing_required_op_field(broken):
    path, line = broken("{op: wipe_out, target: leader}", "{op: wipe_out}")
    assert error_of(path) == f"{path}:{line}: cards.blue_shell.effects.0.target: required field missing"


def test_reference_to_a_missing_card(broken):
    path, line = broken("  debris_card: debris", "  debris_card: junk")
    assert error_of(path) == f"{path}:{line}: rules.debris_card: no card with id 'junk' (did you mean 'junk_toss'?)"


def test_starting_deck_names_a_missing_card(broken):
    path, line = broken("    cut_off: 1\n", "    cutoff: 1\n")
    assert (
        error_of(path)
        == f"{path}:{line}: rules.starting_deck.cutoff: no card with id 'cutoff' (did you mean 'cut_off'?)"
    )


def test_duplicate_yaml_key(broken):
    path, line = broken("    name: Twin Turbo\n", "    name: Twin Turbo\n    name: Twin Turbo II\n")
    assert error_of(path) == f"{path}:{line + 1}: cards.8.name: duplicate key (first at line {line})"


def test_lasting_op_needs_the_expires_flag(broken):
    path, line = broken(
        "    flags: [E]\n    effects:\n      - {op: slow", "    flags: []\n    effects:\n      - {op: slow"
    )
    assert error_of(path) == (
        f"{path}:{line + 2}: cards.spike_strip.effects.0.op: op 'slow' lasts until your next turn: the card needs the E flag"
    )


def test_modifier_on_an_event_trigger(broken):
    path, line = broken("{when: always, op: drive, amount: 3}", "{when: buy, op: drive, amount: 3}")
    assert error_of(path) == (
        f"{path}:{line}: playbooks.rocket_fuel.effects.0.when: op 'drive' is a modifier; "
        "on a Playbook it needs when: always or turn_start"
    )


def test_card_effects_have_no_trigger(broken):
    path, line = broken(
        '{op: drive, amount: 6}\n    text: "+6 Drive."', '{when: always, op: drive, amount: 6}\n    text: "+6 Drive."'
    )
    assert error_of(path) == (
        f"{path}:{line}: cards.twin_turbo.effects.0.when: only Playbook effects have a trigger; a card resolves when played"
    )


def test_lap_condition_beyond_the_race(broken):
    path, line = broken("if: {lap: 3}", "if: {lap: 4}")
    assert (
        error_of(path)
        == f"{path}:{line}: cards.endurance_tyres.effects.1.if.lap: lap 4 does not exist (the race has 3)"
    )


def test_draft_pool_too_small(broken):
    path, line = broken("    4: {parts: 20, playbooks: 5}", "    4: {parts: 19, playbooks: 5}")
    assert error_of(path) == f"{path}:{line}: rules.draft_pool.4: 19 parts cannot give 4 players 5 each"


def test_space_off_the_track(broken):
    path, line = broken("  incinerator_spaces: [15, 35]", "  incinerator_spaces: [15, 55]")
    assert error_of(path) == f"{path}:{line}: rules.incinerator_spaces.1: space 55 is off the track (1 to 49)"


def test_more_problems_are_counted_on_the_one_line(broken):
    path, line = broken("  laps: 3 ", "  laps: three ")
    with open(path) as f:
        text = f.read()
    with open(path, "w") as f:
        f.write(text.replace("  hand_size: 5 ", "  hand_size: five "))
    assert error_of(path) == f"{path}:{line}: rules.laps: expected an integer, got 'three' (+1 more problem)"


def test_missing_file(tmp_path):
    assert error_of(str(tmp_path / "nope.yaml")) == f"{tmp_path / 'nope.yaml'}: file: no such file"


def test_empty_file(tmp_path):
    path = tmp_path / "empty.yaml"
    path.write_text("")
    assert (
        error_of(str(path))
        == f"{path}: file: an empty file; a card database has the top-level keys rules, cards, playbooks"
    )


def test_counts_differing_from_the_rulebook_are_warnings(broken, cards_text):
    cards_line = cards_text.split("\n").index("cards:") + 1
    path, line = broken(
        "    name: Twin Turbo\n    type: engine\n    count: 2\n",
        "    name: Twin Turbo\n    type: engine\n    count: 3\n",
    )
    db = load_database(path)
    assert db.counts()["parts"] == 78
    assert [str(w) for w in db.warnings] == [f"{path}:{cards_line}: count of parts: 78 parts (the rulebook has 77)"]


def test_too_many_copies_of_a_card(broken):
    path, line = broken("    type: debris\n    count: 18\n", "    type: debris\n    count: 180\n")
    assert error_of(path) == f"{path}:{line + 1}: cards.debris.count: must be at most 100, got 180"


def test_a_path_past_the_end_of_a_list_names_the_indices_the_list_has():
    """Found on a --free of issue 45: 'effects has no item 1 (it has 1)' read as
    if item 1 existed; a path counts from 0, so the message says the range."""
    from balance.overrides import resolve_path

    data = {"cards": [{"id": "spaceframe", "effects": [{"op": "drive"}]}, {"id": "bare", "effects": []}]}
    one = resolve_path(data, ["cards", "spaceframe", "effects", "1", "amount"])
    assert one == "cards.spaceframe.effects has no item 1 (its only item is 0)"
    assert resolve_path(data, ["cards", "bare", "effects", "0"]) == "cards.bare.effects has no item 0 (it is empty)"
    assert resolve_path(data, ["cards", "7"]) == "cards has no item 7 (its items are 0 to 1)"
