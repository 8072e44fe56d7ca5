"""The Heat data layer: the shipped heat.yaml against the facts sheet
(../shared/facts/heat.md), its compiled tables, and one test per kind of
mistake, each breaking one line of a copy and checking the whole one-line
message with the line it points at."""

from __future__ import annotations

import numpy as np
import pytest

from balance.errors import UserError
from balance.games.heat import vocabulary as V
from balance.games.heat.compile import NONE, compile_database, summarize
from balance.games.heat.schema import load_database

from .conftest import ROOT, broken_copy, one_line_error

HEAT = ROOT / "heat.yaml"

# The facts sheet's track table: laps, spaces per lap, limits, gaps.
FACT_TRACKS = {
    "usa": (2, 69, [7, 3, 3, 2], [21, 16, 8, 24]),
    "italia": (3, 54, [5, 2, 3], [9, 7, 38]),
    "france": (2, 60, [5, 2, 4, 3, 4], [8, 7, 12, 8, 25]),
    "great_britain": (2, 63, [10, 6, 5, 4, 3], [15, 7, 6, 5, 30]),
}


@pytest.fixture(scope="module")
def heat_text() -> str:
    return HEAT.read_text()


@pytest.fixture(scope="module")
def db():
    return load_database(HEAT)


@pytest.fixture(scope="module")
def tables(db):
    return compile_database(db)


# --- the shipped file ---------------------------------------------------------


def test_shipped_file_loads_without_warnings(db):
    assert db.warnings == ()
    assert db.counts() == {
        "basic speed cards": 12,
        "starting upgrades": 3,
        "garage upgrades": 116,  # BGA's 46 designs x 2 of the base game, 24 of the expansions (with them only)
        "sponsorship cards": 49,  # 7 designs x 7 (facts heat-modules 2.2), two of them the expansions'
        "tracks": 8,
        "Legend cards": 10,
    }


def test_tracks_match_the_facts_sheet(db):
    for track_id, (laps, spaces, limits, gaps) in FACT_TRACKS.items():
        track = db.track(track_id)
        assert (track.laps, track.spaces) == (laps, spaces), track_id
        assert [c.limit for c in track.corners] == limits, track_id
        assert [c.gap for c in track.corners] == gaps, track_id
        assert sum(gaps) == spaces, track_id
    assert (db.track("usa").heat, db.track("usa").stress, db.track("usa").finish_line) == (6, 3, 11)


def test_usa_corners_sit_where_the_gaps_put_them(tables):
    usa = tables.tracks[tables.track_index("usa")]
    assert usa.corner_at.tolist() == [11, 32, 48, 56]
    assert usa.limit.tolist() == [7, 3, 3, 2]
    assert usa.legend_at.tolist() == [7, 28, 44, 52]  # legend_line 4 before each


def test_next_corner_lookup(tables):
    usa = tables.tracks[tables.track_index("USA")]
    assert usa.next_corner.shape == usa.to_corner.shape == (69,)
    assert (usa.next_corner[0], usa.to_corner[0]) == (0, 11)
    assert (usa.next_corner[11], usa.to_corner[11]) == (1, 21)  # just past the first line
    assert (usa.next_corner[60], usa.to_corner[60]) == (0, 20)  # over the start/finish line to the first
    for track in tables.tracks:
        ahead = (np.arange(track.spaces) + track.to_corner) % track.spaces
        assert (ahead == track.corner_at[track.next_corner]).all(), track.id


def test_cards_compile_to_columns(tables):
    cards = tables.cards
    assert cards.type[tables.heat_card] == V.CARD_TYPES.index("heat")
    assert cards.type[tables.stress_card] == V.CARD_TYPES.index("stress")
    assert cards.flips[tables.stress_card] == 1 and cards.tier[tables.stress_card] == NONE
    brakes = cards.index("brakes_1")
    assert cards.speed[brakes] == 0 and cards.choices[brakes].tolist() == [1, 2, 3, 4]
    assert (cards.choices[cards.index("speed_3")] == NONE).all() and cards.speed[cards.index("speed_3")] == 3
    wings = cards.index("wings_1")
    assert [cards.op(op)[wings] for op in ("heat", "scrap", "corner_limit", "cooldown")] == [1, 2, 2, 0]
    assert cards.op("corner_limit")[cards.index("tires_1")] == -1
    assert sorted(np.array(cards.ids)[cards.is_basic]) == ["speed_1", "speed_2", "speed_3", "speed_4"]
    with pytest.raises(ValueError):
        cards.speed[0] = 9


def test_starting_deck_per_track(tables):
    usa = tables.track_index("usa")
    deck = tables.starting_deck(usa)
    assert deck.sum() == 12 + 3 + 3  # basic, the track's Stress, the starting upgrades
    assert deck[tables.heat_card] == 1 and deck[tables.stress_card] == 3
    assert tables.starting_deck(usa, garage=True).sum() == 15
    pool = tables.cards.pool.copy()
    pool[tables.heat_card] = 0  # (the pool's Heat cards: the next test)
    assert pool.sum() == 92 and (pool[tables.cards.deck > 0] == 0).all()


def test_the_garage_pool_holds_bgas_two_heat_cards_of_each_tier_and_a_designer_may_leave_them_out(
    db, tables, heat_text, tmp_path
):
    """BGA's upgrade deck (Cards.php setupNewGame: two copies of every type 1 to 79, types 17 and 48 Heat
    cards, 17 among the basic upgrades and 48 among the advanced) holds 4 Heat cards beside the 92 upgrades:
    rules.garage_draft.heat_cards, in the pool as the rules' one Heat card; 0 and 0 leave them out."""
    heat_cards = db.rules.garage_draft.heat_cards
    assert (heat_cards.basic, heat_cards.advanced) == (2, 2)
    assert tables.cards.pool[tables.heat_card] == 4 and tables.cards.pool.sum() == 92 + 4
    path, _ = broken_copy(tmp_path, heat_text, "heat.yaml")(
        "heat_cards: {basic: 2, advanced: 2}", "heat_cards: {basic: 0, advanced: 0}"
    )
    none = compile_database(load_database(path))
    assert none.cards.pool[none.heat_card] == 0 and none.cards.pool.sum() == 92
    path, _ = broken_copy(tmp_path, heat_text, "heat.yaml")(
        "heat_cards: {basic: 2, advanced: 2}", "heat_cards: {basic: 0, advanced: 1}"
    )
    assert compile_database(load_database(path)).cards.pool[tables.heat_card] == 1


def test_rules_by_gear_and_grid(tables):
    r = tables.rules
    assert r.cooldown.tolist() == [0, 3, 1, 0, 0]
    assert r.spin_out_stress.tolist() == [0, 1, 1, 2, 2]
    assert r.boost_allowed.tolist() == [False, True, True, True, True]
    assert r.adrenaline_cars[[2, 4, 5, 6, 7, 8]].tolist() == [1, 1, 2, 2, 2, 2]
    assert r.grid_space.tolist() == [-1, -1, -2, -2, -3, -3, -4, -4]
    assert r.grid_lane.tolist() == [0, 1, 0, 1, 0, 1, 0, 1]


def test_unknown_track_lists_the_known_ones(tables):
    with pytest.raises(UserError) as info:
        tables.track_index("monaco")
    assert (
        str(info.value)
        == "track: track: unknown track 'monaco' (known: usa, italia, france, great_britain, japan, mexico, nederland, espana)"
    )


def test_summary_for_validate(db):
    summary = summarize(db)
    assert summary.piles == db.counts()
    assert summary.by_type["speed"] == (4, 12)
    assert summary.by_flag["starting"] == (3, 3)


# --- one line per mistake -------------------------------------------------------


@pytest.fixture
def broken(tmp_path, heat_text):
    """broken(old, new) -> (path, line): heat.yaml with one unique snippet replaced."""
    return broken_copy(tmp_path, heat_text, "heat.yaml")


def error_of(path: str) -> str:
    return one_line_error(load_database, path)


def test_unknown_op(broken):
    path, line = broken(
        "speed: [1, 2, 3, 4]\n    effects:\n      - {op: heat", "speed: [1, 2, 3, 4]\n    effects:\n      - {op: warp"
    )
    assert error_of(path) == (
        f"{path}:{line + 2}: cards.brakes_1.effects.0.op: unknown op 'warp' "
        "(known: heat, cooldown, scrap, discard_stress, slipstream, corner_limit, super_cool, draft, salvage, refresh, "
        "direct_play, accelerate)"
    )


def test_wrong_type(broken):
    path, line = broken("  hand_size: 7 ", "  hand_size: seven ")
    assert error_of(path) == f"{path}:{line}: rules.hand_size: expected an integer, got 'seven'"


def test_wrong_speed(broken):
    path, line = broken("    count: 2\n    speed: [1, 3]\n", "    count: 2\n    speed: []\n")
    assert error_of(path) == f"{path}:{line + 1}: cards.brakes_2.speed: an empty list offers no speed to choose from"


def test_unknown_tier(broken):
    path, line = broken(
        "    tier: garage_basic\n    group: brakes\n    count: 2\n    speed: [1, 3]",
        "    tier: garage\n    group: brakes\n    count: 2\n    speed: [1, 3]",
    )
    assert error_of(path) == (
        f"{path}:{line}: cards.brakes_2.tier: 'garage' is not a known tier "
        "(known: basic_speed, starting, garage_basic, garage_advanced, sponsor)"
    )


def test_missing_field(broken):
    path, line = broken("  - id: wings_3\n    name: Wings\n", "  - id: wings_3\n")
    assert error_of(path) == f"{path}:{line}: cards.wings_3.name: required field missing"


def test_gaps_not_summing(broken):
    path, line = broken("      - {limit: 7, gap: 21, legend_line: 4}", "      - {limit: 7, gap: 20, legend_line: 4}")
    assert error_of(path) == f"{path}:{line - 1}: tracks.usa.corners: gaps sum to 68, but spaces is 69"


def test_duplicate_id(broken, heat_text):
    first = heat_text[: heat_text.index("  - id: brakes_1\n")].count("\n") + 1
    path, line = broken("  - id: brakes_2\n", "  - id: brakes_1\n")
    assert (
        error_of(path) == f"{path}:{line}: cards.brakes_1.id: duplicate id 'brakes_1' (first defined at line {first})"
    )


def test_unknown_key(broken):
    path, line = broken("  - id: turbocharger_1\n", "  - id: turbocharger_1\n    colour: red\n")
    assert error_of(path) == (
        f"{path}:{line + 1}: cards.turbocharger_1.colour: unknown field 'colour' "
        "(known: id, name, type, tier, group, count, speed, flips, effects, approximate, expansion)"
    )


def test_second_heat_card(broken, heat_text):
    first = heat_text[: heat_text.index("  - id: heat\n")].count("\n") + 1
    path, line = broken(
        "    type: upgrade\n    tier: starting\n    count: 1\n    speed: 0\n",
        "    type: heat\n    tier: starting\n    count: 1\n    speed: null\n",
    )
    assert error_of(path) == (
        f"{path}:{line}: cards.upgrade_0.type: a second card of type 'heat' (the first, 'heat', is at line "
        f"{first}); the database needs exactly one"
    )


def test_finish_line_beyond_the_last_corner(broken):
    path, line = broken("    finish_line: 17\n", "    finish_line: 38\n")
    assert error_of(path) == (
        f"{path}:{line}: tracks.italia.finish_line: 38 spaces puts the line before the last corner "
        "(at most 37: the last corner's gap is 38)"
    )


def test_a_legend_line_a_stopped_legend_cannot_reach_is_refused(broken):
    """A Legend stopped short of a corner stands up to 3 spaces (the widest diamond column) before the space
    before its line: a Legend line nearer the corner than 4 would leave it before the line, moving 0 for ever.
    A Legend line at or behind the previous corner's line is the expansions' chicanes' (Japan's exit: 2)."""
    path, line = broken("      - {limit: 3, gap: 30, legend_line: 4}", "      - {limit: 3, gap: 30, legend_line: 3}")
    assert error_of(path) == (
        f"{path}:{line}: tracks.great_britain.corners.4.legend_line: 3 spaces: a Legend stopped short of this "
        "corner (diamond column 3) would stand before its Legend line; at least 4"
    )


def test_list_per_gear_needs_one_value_per_gear(broken):
    path, line = broken("  cooldown_by_gear: [3, 1, 0, 0]", "  cooldown_by_gear: [3, 1, 0]")
    assert error_of(path) == f"{path}:{line}: rules.cooldown_by_gear: 3 values for 4 gears"


def test_counts_differing_from_the_facts_are_warnings(broken, heat_text):
    cards_line = heat_text.split("\n").index("cards:") + 1
    path, line = broken(
        "    tier: basic_speed\n    count: 3\n    speed: 4\n", "    tier: basic_speed\n    count: 2\n    speed: 4\n"
    )
    db = load_database(path)
    assert [str(w) for w in db.warnings] == [
        f"{path}:{cards_line}: count of basic speed cards: 11 basic speed cards (the facts sheet has 12)"
    ]


def test_docs_name_every_word():
    doc = (ROOT / "docs" / "heat.md").read_text()
    for word in [*V.CARD_TYPES, *V.TIERS, *V.OPS, *V.ADRENALINE_MODES, *V.DRAFT_ORDERS, *V.EXPANSIONS]:
        assert f"`{word}`" in doc, word


def test_overrides_name_tracks_by_id():
    from balance.games.heat.schema import validate_database
    from balance.overrides import apply_overrides
    from balance.yamlio import load_yaml

    doc = load_yaml(ROOT / "heat.yaml")
    tables = compile_database(validate_database(apply_overrides(doc, {"tracks.usa.heat": 8}, doc)))
    assert tables.tracks[0].heat == 8 and tables.tracks[1].heat == 6
    with pytest.raises(
        UserError,
        match=r"no tracks item with id 'monza' \(known: usa, italia, france, great_britain, japan, mexico, nederland, espana\)",
    ):
        apply_overrides(doc, {"tracks.monza.heat": 8}, doc)
