"""The Shuffle Grand Prix data layer: the shipped shuffle_gp.yaml against the
rulebook's components (our eight drivers, see docs/shuffle_gp.md), its compiled
tables, the paper balance of the decks, and one test per kind of mistake, each
breaking one snippet of a copy and checking the whole one-line message with
the line it points at."""

from __future__ import annotations

import re
from collections import Counter

import numpy as np
import pytest

from balance.errors import UserError
from balance.games.shuffle_gp import vocabulary as V
from balance.games.shuffle_gp.compile import NONE, compile_database, paper_profile, summarize
from balance.games.shuffle_gp.schema import load_database

from .conftest import ROOT, broken_copy, one_line_error

SHUFFLE_GP = ROOT / "shuffle_gp.yaml"
DRIVERS = ["blaze", "ironside", "magpie", "snare", "comet", "mender", "gremlin", "ace"]
PAPER_TOLERANCE = 0.15  # every deck's paper value within 15% of the mean over drivers
KNOWN_OPS = (
    "damage, heal, steal_card, discard_distance, draw_distance, swap_top_distance, skip_turn, draw_ability, "
    "extra_play, remove_equip, remove_nerf, shield, distance_bonus, damage_bonus, damage_reduction, no_ability_play"
)
KNOWN_TRIGGERS = "draws_distance, plays_action, plays_equip, any_damage, heals, pit_stop"


@pytest.fixture(scope="module")
def text() -> str:
    return SHUFFLE_GP.read_text()


@pytest.fixture(scope="module")
def db():
    return load_database(SHUFFLE_GP)


@pytest.fixture(scope="module")
def tables(db):
    return compile_database(db)


def line_of(text: str, snippet: str) -> int:
    assert text.count(snippet) == 1, f"snippet not unique: {snippet!r}"
    return text[: text.index(snippet)].count("\n") + 1


# --- the shipped file ---------------------------------------------------------


def test_shipped_file_loads_without_warnings(db):
    assert db.warnings == ()
    assert db.counts() == {"drivers": 8, "ability cards": 96, "distance cards": 50}


def test_eight_drivers_of_twelve_cards_with_every_type(db):
    assert [d.id for d in db.drivers] == DRIVERS
    assert len({d.name for d in db.drivers}) == 8 and len({d.specialty.name for d in db.drivers}) == 8
    for driver in db.drivers:
        copies = Counter({t: 0 for t in V.CARD_TYPES})
        copies.update(c.type for c in driver.cards for _ in range(c.count))
        assert sum(copies.values()) == 12, driver.id
        assert min(copies.values()) >= 1, (driver.id, copies)
        assert all(c.id.startswith(f"{driver.id}_") for c in driver.cards), driver.id


def test_distance_deck_matches_the_rulebook(db, tables):
    assert [(d.value, d.count, d.name) for d in db.distance] == [
        (25, 16, "Snail"),
        (50, 12, "Dog"),
        (75, 12, "Horse"),
        (100, 10, "Cheetah"),
    ]
    deck = tables.distance.deck()
    assert deck.shape == (50,) and deck.sum() == 2900  # a mean card of 58


def test_rules_compile_to_plain_numbers(tables):
    r = tables.rules
    assert (r.min_players, r.max_players, r.drivers_each) == (2, 4, 2)
    assert (r.hand_size, r.tire_health, r.equip_slots, r.turn_trackers) == (3, 4, 2, 2)
    assert (r.trophies, r.trophy_swap, r.trophy_extra_play, r.spin_out_trophy) == (16, 1, 2, 1)
    assert (r.distance_per_turn, r.plays_per_turn, r.spin_out_discard, r.pit_stop_discard) == (1, 1, 1, 1)
    assert r.max_turns == 300


def test_every_card_fits_its_type(db):
    for card in db.cards:
        assert (card.trigger is not None) == (card.type == "trap"), card.id
        assert card.cancels is None or card.type == "anytime", card.id
        assert card.effects or card.cancels, card.id
        for effect in card.effects:
            assert card.type in V.OPS[effect.op].types, (card.id, effect.op)


def test_cards_compile_to_effect_slots(tables):
    cards = tables.cards
    k = len(cards.ids)
    assert k == 71 and cards.op.shape == cards.target.shape == cards.amount.shape == (k, 2)
    ops, targets = list(V.OPS), V.TARGETS
    snatch = cards.index("magpie_snatch")  # steal from a rival, then 1 damage to them: order kept
    assert cards.op[snatch].tolist() == [ops.index("steal_card"), ops.index("damage")]
    assert cards.target[snatch].tolist() == [targets.index("one_rival")] * 2
    assert cards.amount[snatch].tolist() == [1, 1]
    redline = cards.index("comet_redline")  # two ops, the second on yourself
    assert cards.target[redline].tolist() == [NONE, targets.index("self")]
    assert cards.amount[redline].tolist() == [2, 2]
    ram = cards.index("blaze_ram")  # one effect: the second slot padded
    assert (cards.op[ram, 1], cards.target[ram, 1], cards.amount[ram, 1], cards.n_effects[ram]) == (NONE, NONE, 0, 1)
    swerve = cards.index("blaze_swerve")  # a cancel and nothing else
    assert cards.n_effects[swerve] == 0 and cards.cancels[swerve] == V.CANCELS.index("avoid")
    spikes = cards.index("snare_spike_strip")
    assert cards.trigger[spikes] == V.TRIGGERS.index("draws_distance") and cards.trigger[ram] == NONE
    assert cards.amount[cards.index("snare_flat_spot"), 0] == -25 and cards.turns[cards.index("snare_flat_spot")] == 2
    assert cards.has_op("shield").sum() == 2 and cards.has_op("no_ability_play").sum() == 2
    with pytest.raises(ValueError):
        cards.amount[0, 0] = 9


def test_a_players_deck_is_both_drivers_cards(tables):
    cards, drivers = tables.cards, tables.drivers
    deck = cards.deck([drivers.index("blaze"), drivers.index("mender")])
    assert deck.shape == (71,) and deck.sum() == 24
    assert set(np.array(cards.ids)[deck > 0]) == {
        card_id for card_id in cards.ids if card_id.startswith(("blaze_", "mender_"))
    }
    assert (cards.count > 0).all() and np.bincount(cards.driver, weights=cards.count).tolist() == [12.0] * 8


def test_specialties_compile_to_one_op_per_driver(tables):
    d = tables.drivers
    assert d.ids == tuple(DRIVERS) and d.op.shape == d.when.shape == d.target.shape == d.amount.shape == (8,)
    gremlin = d.index("gremlin")
    assert d.when[gremlin] == V.CONDITIONS.index("takes_damage")
    assert (d.op[gremlin], d.target[gremlin], d.amount[gremlin]) == (
        list(V.OPS).index("discard_distance"),
        V.TARGETS.index("triggerer"),
        1,
    )
    comet = d.index("comet")
    assert (d.when[comet], d.target[comet], d.amount[comet]) == (V.CONDITIONS.index("always"), NONE, 10)
    assert len(set(zip(d.op.tolist(), d.when.tolist(), strict=True))) == 8  # eight different specialties


def test_summary_for_validate(db):
    summary = summarize(db)
    assert summary.piles == db.counts() and summary.flag_word == "driver"
    assert sum(copies for _, copies in summary.by_type.values()) == 96
    assert summary.by_flag == {driver: summary.by_flag[driver] for driver in DRIVERS}
    assert all(copies == 12 for _, copies in summary.by_flag.values())


def test_decks_are_balanced_on_paper(db):
    paper = paper_profile(db)
    mean = sum(p.value for p in paper.values()) / len(paper)
    for driver, p in paper.items():
        assert abs(p.value / mean - 1) <= PAPER_TOLERANCE, (driver, p.value, mean)
    # Each leans its own way: the most in its column.
    assert max(paper, key=lambda d: paper[d].damage) == "blaze"
    assert max(paper, key=lambda d: paper[d].defence) == "mender"
    assert max(paper, key=lambda d: paper[d].plays) == "magpie"
    assert max(paper, key=lambda d: paper[d].distance) == "gremlin"


def test_the_files_paper_table_is_up_to_date(db, text):
    rows = dict(re.findall(r"^#   ([a-z]+) +((?:-?[0-9.]+ +){4}-?[0-9.]+)", text, flags=re.M))
    assert sorted(rows) == sorted(DRIVERS)
    for driver, p in paper_profile(db).items():
        expected = [round(p.damage, 2), round(p.defence, 2), round(p.distance, 1), round(p.plays, 2), round(p.value, 1)]
        assert [float(x) for x in rows[driver].split()] == expected, driver


def test_docs_name_every_word():
    doc = (ROOT / "docs" / "shuffle_gp.md").read_text()
    for op, spec in V.OPS.items():
        assert f"### `{op}` ({spec.kind}" in doc, op
    words = [*V.CARD_TYPES, *V.TARGETS, *V.TRIGGERS, *V.CONDITIONS, *V.CANCELS, *V.OP_KINDS]
    for word in words:
        assert f"`{word}`" in doc, word
    for driver in DRIVERS:
        assert f"`{driver}`" in doc, driver


# --- one line per mistake -------------------------------------------------------


@pytest.fixture
def broken(tmp_path, text):
    """broken(old, new) -> (path, line): shuffle_gp.yaml with one unique snippet replaced."""
    return broken_copy(tmp_path, text, "shuffle_gp.yaml")


def error_of(path: str) -> str:
    return one_line_error(load_database, path)


RAM = "      - id: blaze_ram\n        name: Ram\n        type: action\n"
LANDMINE_TRIGGER = "        trigger: heals\n"
SWERVE_END = "        cancels: avoid\n        text: Avoid a card being played.\n\n  # --- Ironside"
FLAMETHROWER = "          - {op: damage, target: all_rivals, amount: 2}"


def test_empty_file(tmp_path):
    path = tmp_path / "shuffle_gp.yaml"
    path.write_text("")
    assert error_of(str(path)) == (
        f"{path}: file: an empty file; a Shuffle Grand Prix database has the top-level keys rules, distance, drivers"
    )


def test_unknown_op(broken):
    path, line = broken(
        "          - {op: damage, target: one_rival, amount: 2}\n        text: Deal 2 damage to a rival.\n"
        "      - id: blaze_flamethrower",
        "          - {op: punch, target: one_rival, amount: 2}\n        text: Deal 2 damage to a rival.\n"
        "      - id: blaze_flamethrower",
    )
    assert (
        error_of(path)
        == f"{path}:{line}: drivers.blaze.cards.blaze_ram.effects.0.op: unknown op 'punch' (known: {KNOWN_OPS})"
    )


def test_wrong_type(broken):
    path, line = broken("  hand_size: 3 ", "  hand_size: three ")
    assert error_of(path) == f"{path}:{line}: rules.hand_size: expected an integer, got 'three'"


def test_unknown_field(broken):
    path, line = broken("      - id: blaze_ram\n", "      - id: blaze_ram\n        colour: red\n")
    assert error_of(path) == (
        f"{path}:{line + 1}: drivers.blaze.cards.blaze_ram.colour: unknown field 'colour' "
        "(known: id, name, type, count, turns, trigger, cancels, effects, text)"
    )


def test_missing_field(broken):
    path, line = broken("      - id: blaze_ram\n        name: Ram\n", "      - id: blaze_ram\n")
    assert error_of(path) == f"{path}:{line}: drivers.blaze.cards.blaze_ram.name: required field missing"


def test_unknown_card_type(broken):
    path, line = broken(RAM, RAM.replace("type: action", "type: boost"))
    assert error_of(path) == (
        f"{path}:{line + 2}: drivers.blaze.cards.blaze_ram.type: 'boost' is not a known type "
        "(known: action, equip, trap, nerf, anytime)"
    )


def test_instant_op_on_an_equip(broken):
    path, line = broken(RAM, RAM.replace("type: action", "type: equip"))
    assert error_of(path) == (
        f"{path}:{line + 5}: drivers.blaze.cards.blaze_ram.effects.0.op: op 'damage' happens once, when its card "
        "resolves: it goes on action, trap or anytime cards, not on an equip card"
    )


def test_nerf_only_op_on_an_equip(broken):
    path, line = broken(
        "        type: nerf\n        count: 1\n        turns: 1\n        effects:\n          - {op: no_ability_play}\n"
        "        text: For 1 turn, this car's player cannot play action, equip, trap or nerf cards.\n"
        "      - id: magpie_lift",
        "        type: equip\n        count: 1\n        turns: 1\n        effects:\n          - {op: no_ability_play}\n"
        "        text: For 1 turn, this car's player cannot play action, equip, trap or nerf cards.\n"
        "      - id: magpie_lift",
    )
    assert error_of(path) == (
        f"{path}:{line + 4}: drivers.magpie.cards.magpie_butterfingers.effects.0.op: op 'no_ability_play' lasts "
        "while its card sits on a car: it goes on nerf cards, not on an equip card"
    )


def test_target_the_op_does_not_take(broken):
    path, line = broken(
        "          - {op: steal_card, target: all_rivals, amount: 1}",
        "          - {op: steal_card, target: self, amount: 1}",
    )
    assert error_of(path) == (
        f"{path}:{line}: drivers.magpie.cards.magpie_grab_bag.effects.0.target: op 'steal_card' cannot target "
        "'self' (its targets: one_rival, all_rivals, leader, next, triggerer)"
    )


def test_target_on_an_op_without_one(broken):
    path, line = broken("          - {op: heal, amount: 4}", "          - {op: heal, target: self, amount: 4}")
    assert error_of(path) == (
        f"{path}:{line}: drivers.mender.cards.mender_full_service.effects.0.target: op 'heal' takes no target: "
        "it acts on you"
    )


def test_unknown_target(broken):
    path, line = broken(FLAMETHROWER, FLAMETHROWER.replace("all_rivals", "everyone"))
    assert error_of(path) == (
        f"{path}:{line}: drivers.blaze.cards.blaze_flamethrower.effects.0.target: 'everyone' is not a known target "
        "(known: self, one_rival, all_rivals, leader, next, triggerer)"
    )


def test_missing_target(broken):
    path, line = broken(FLAMETHROWER, "          - {op: damage, amount: 2}")
    assert (
        error_of(path)
        == f"{path}:{line}: drivers.blaze.cards.blaze_flamethrower.effects.0.target: required field missing"
    )


def test_triggerer_outside_a_trap(broken):
    path, line = broken(FLAMETHROWER, FLAMETHROWER.replace("all_rivals", "triggerer"))
    assert error_of(path) == (
        f"{path}:{line}: drivers.blaze.cards.blaze_flamethrower.effects.0.target: only a trap, or a specialty "
        "when takes_damage or trap_sprung, has a triggerer"
    )


def test_amount_below_one(broken):
    path, line = broken(
        "          - {op: shield, amount: 2}\n        text: Absorbs the next 2 damage.\n      - id: mender",
        "          - {op: shield, amount: 0}\n        text: Absorbs the next 2 damage.\n      - id: mender",
    )
    assert error_of(path) == (
        f"{path}:{line}: drivers.mender.cards.mender_spare_tire.effects.0.amount: must be at least 1, got 0"
    )


def test_signed_amount_zero(broken):
    path, line = broken(
        "          - {op: damage_reduction, amount: -1}\n        text: For 3 turns",
        "          - {op: damage_reduction, amount: 0}\n        text: For 3 turns",
    )
    assert error_of(path) == (
        f"{path}:{line}: drivers.blaze.cards.blaze_scorched_rubber.effects.0.amount: must not be 0 "
        "(a signed amount: + helps the car, - hurts it)"
    )


def test_trap_without_trigger(broken, text):
    card = line_of(text, "      - id: snare_landmine\n")
    path, _ = broken(LANDMINE_TRIGGER, "")
    assert error_of(path) == (
        f"{path}:{card}: drivers.snare.cards.snare_landmine.trigger: a trap needs a trigger: what sets it off "
        f"(known: {KNOWN_TRIGGERS})"
    )


def test_unknown_trigger(broken):
    path, line = broken(LANDMINE_TRIGGER, "        trigger: brakes\n")
    assert error_of(path) == (
        f"{path}:{line}: drivers.snare.cards.snare_landmine.trigger: 'brakes' is not a known trigger "
        f"(known: {KNOWN_TRIGGERS})"
    )


def test_trigger_outside_a_trap(broken):
    path, line = broken(SWERVE_END, "        trigger: heals\n" + SWERVE_END)
    assert error_of(path) == (
        f"{path}:{line}: drivers.blaze.cards.blaze_swerve.trigger: only traps have a trigger; this is an anytime card"
    )


def test_only_anytime_cards_cancel(broken):
    path, line = broken(LANDMINE_TRIGGER, LANDMINE_TRIGGER + "        cancels: avoid\n")
    assert error_of(path) == (
        f"{path}:{line + 1}: drivers.snare.cards.snare_landmine.cancels: only anytime cards cancel; this is a trap card"
    )


def test_unknown_cancel_kind(broken):
    path, line = broken(SWERVE_END, SWERVE_END.replace("cancels: avoid", "cancels: dodge"))
    assert error_of(path) == (
        f"{path}:{line}: drivers.blaze.cards.blaze_swerve.cancels: 'dodge' is not a known cancel kind "
        "(known: replace, avoid)"
    )


def test_turns_on_a_card_that_resolves_at_once(broken):
    path, line = broken(SWERVE_END, "        turns: 2\n" + SWERVE_END)
    assert error_of(path) == (
        f"{path}:{line}: drivers.blaze.cards.blaze_swerve.turns: an anytime card resolves at once: turns must be 0 "
        "(only equip, nerf and trap cards expire)"
    )


def test_card_without_effects(broken, text):
    card = line_of(text, "      - id: blaze_backfire\n")
    path, _ = broken(
        "        effects:\n          - {op: damage, target: one_rival, amount: 2}\n        text: At any time, deal 2 damage to a rival.\n      - id: blaze_swerve",
        "        text: At any time, deal 2 damage to a rival.\n      - id: blaze_swerve",
    )
    assert error_of(path) == (
        f"{path}:{card}: drivers.blaze.cards.blaze_backfire.effects: an anytime card needs effects or cancels"
    )


def test_deck_without_a_type(broken, text):
    cards = line_of(text, "    cards:\n      - id: blaze_ram\n")
    path, _ = broken(
        "      - id: blaze_spiked_hubcaps\n        name: Spiked Hubcaps\n        type: equip\n",
        "      - id: blaze_spiked_hubcaps\n        name: Spiked Hubcaps\n        type: nerf\n",
    )
    assert error_of(path) == (
        f"{path}:{cards}: drivers.blaze.cards: the deck has no equip card; every deck holds all five types "
        "(action, equip, trap, nerf, anytime)"
    )


def test_duplicate_card_id(broken, text):
    first = line_of(text, "      - id: blaze_ram\n")
    path, line = broken("      - id: ironside_steady_pace\n", "      - id: blaze_ram\n")
    assert error_of(path) == (
        f"{path}:{line}: drivers.ironside.cards.blaze_ram.id: duplicate id 'blaze_ram' (first defined at line {first})"
    )


def test_duplicate_driver_id(broken, text):
    first = line_of(text, "  - id: blaze\n")
    path, line = broken("  - id: ironside\n", "  - id: blaze\n")
    assert error_of(path) == f"{path}:{line}: drivers.blaze.id: duplicate id 'blaze' (first defined at line {first})"


def test_unknown_condition(broken):
    path, line = broken("      when: always\n      op: damage_bonus", "      when: sometimes\n      op: damage_bonus")
    assert error_of(path) == (
        f"{path}:{line}: drivers.blaze.specialty.when: 'sometimes' is not a known condition "
        "(known: always, turn_start, draws_distance, plays_action, deals_damage, takes_damage, trap_sprung)"
    )


def test_lasting_specialty_needs_always(broken):
    path, line = broken("      when: always\n      op: damage_bonus", "      when: turn_start\n      op: damage_bonus")
    assert error_of(path) == (
        f"{path}:{line}: drivers.blaze.specialty.when: op 'damage_bonus' lasts: a specialty with it holds while "
        "its driver drives (when: always)"
    )


def test_instant_specialty_needs_an_event(broken):
    path, line = broken("      when: turn_start\n      op: draw_ability", "      when: always\n      op: draw_ability")
    assert error_of(path) == (
        f"{path}:{line}: drivers.ace.specialty.when: op 'draw_ability' happens once: give the event it follows "
        "(turn_start, draws_distance, plays_action, deals_damage, takes_damage, trap_sprung), not always"
    )


def test_specialty_triggerer_needs_an_event_with_another_player(broken):
    path, line = broken(
        "      when: takes_damage\n      op: discard_distance", "      when: deals_damage\n      op: discard_distance"
    )
    assert error_of(path) == (
        f"{path}:{line + 2}: drivers.gremlin.specialty.target: only a trap, or a specialty when takes_damage or "
        "trap_sprung, has a triggerer"
    )


def test_players_range(broken):
    path, line = broken("  players: {min: 2, max: 4}", "  players: {min: 5, max: 4}")
    assert error_of(path) == f"{path}:{line}: rules.players.min: 5 is more than max (4)"


def test_too_few_drivers_for_the_players(broken, text):
    players = line_of(text, "  players: {min: 2, max: 4}")
    path, _ = broken("  drivers_each: 2 ", "  drivers_each: 3 ")
    assert error_of(path) == f"{path}:{players}: rules.players.max: 4 players need 12 drivers (3 each); the file has 8"


def test_trophy_cost_beyond_the_box(broken):
    path, line = broken("  trophy_extra_play: 2 ", "  trophy_extra_play: 20 ")
    assert error_of(path) == f"{path}:{line}: rules.trophy_extra_play: costs 20 trophies, more than the 16 in the box"


def test_distance_value_twice(broken, text):
    first = line_of(text, "  - {value: 75, count: 12, name: Horse}")
    path, line = broken("  - {value: 100, count: 10, name: Cheetah}", "  - {value: 75, count: 10, name: Cheetah}")
    assert error_of(path) == f"{path}:{line}: distance.3.value: value 75 is listed twice (first at line {first})"


# --- counts that differ from the rulebook are warnings -------------------------------


def test_distance_total_is_a_warning(broken, text):
    section = text.split("\n").index("distance:") + 1
    path, _ = broken("  - {value: 100, count: 10, name: Cheetah}", "  - {value: 100, count: 9, name: Cheetah}")
    assert [str(w) for w in load_database(path).warnings] == [
        f"{path}:{section}: count of distance cards: 49 distance cards (the rulebook has 50)"
    ]


def test_deck_size_is_a_warning(broken, text):
    cards = line_of(text, "    cards:\n      - id: comet_boost\n")
    path, _ = broken(
        "      - id: comet_boost\n        name: Boost\n        type: action\n        count: 1",
        "      - id: comet_boost\n        name: Boost\n        type: action\n        count: 2",
    )
    assert [str(w) for w in load_database(path).warnings] == [
        f"{path}:{cards}: drivers.comet.cards: 13 ability cards (the rulebook has 12 per driver)"
    ]


def test_driver_count_is_a_warning(tmp_path, text):
    # Seven drivers (Ace cut) for at most three players.
    cut = text[: text.index("  # --- Ace")].replace("  players: {min: 2, max: 4}", "  players: {min: 2, max: 3}")
    path = tmp_path / "shuffle_gp.yaml"
    path.write_text(cut)
    section = text.split("\n").index("drivers:") + 1
    assert [str(w) for w in load_database(path).warnings] == [
        f"{path}:{section}: count of drivers: 7 drivers (the rulebook has 8)"
    ]


def test_overrides_name_a_drivers_card_by_id():
    from balance.overrides import apply_overrides
    from balance.yamlio import load_yaml

    doc = load_yaml(ROOT / "shuffle_gp.yaml")
    changed = apply_overrides(doc, {"drivers.blaze.cards.blaze_ram.effects.0.amount": 3}, doc)
    ram = next(c for c in changed.data["drivers"][0]["cards"] if c["id"] == "blaze_ram")
    assert ram["effects"][0]["amount"] == 3
    with pytest.raises(UserError, match=r"no drivers\.blaze\.cards item with id 'nope' \(known: blaze_ram, "):
        apply_overrides(doc, {"drivers.blaze.cards.nope.count": 3}, doc)
