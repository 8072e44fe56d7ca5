"""cards.yaml compiled into the engine's read-only tables."""

from __future__ import annotations

import numpy as np
import pytest

from balance.games.horsepower import vocabulary as V
from balance.games.horsepower.compile import NONE, SPACE_AUCTION, SPACE_INCINERATOR, SPACE_PLAIN


def effect_rows(tables, card_id):
    k = tables.cards.index(card_id)
    rows = np.flatnonzero(~tables.effects.owner_is_playbook & (tables.effects.owner == k))
    return [
        {name: getattr(tables.effects, name)[r].item() for name in tables.effects.__dataclass_fields__} for r in rows
    ]


def test_one_row_per_effect(database, tables):
    n_card = sum(len(c.effects) for c in database.cards)
    n_playbook = sum(len(p.effects) for p in database.playbooks)
    assert len(tables.effects) == n_card + n_playbook
    assert tables.effects.owner_is_playbook.sum() == n_playbook


def test_columns_are_read_only(tables):
    with pytest.raises(ValueError):
        tables.cards.count[0] = 9
    with pytest.raises(ValueError):
        tables.effects.value[0] = 9


def test_space_kinds_follow_rule_3_3(tables):
    kinds = tables.rules.space_kind
    assert kinds.shape == (51,)
    assert list(np.flatnonzero(kinds == SPACE_AUCTION)) == [10, 20, 30, 40]
    assert list(np.flatnonzero(kinds == SPACE_INCINERATOR)) == [15, 35]
    assert (kinds == SPACE_PLAIN).sum() == 45


def test_multiplayer_cards_leave_the_parts_deck_with_two_players(tables):
    multi = tables.cards.has_flag("M")
    assert tables.parts_deck(4).sum() == tables.parts_deck(3).sum() == 77
    assert tables.parts_deck(2).sum() == 77 - tables.cards.count[multi].sum()
    assert (tables.parts_deck(2)[multi] == 0).all()


def test_starting_deck_and_debris(tables):
    start = tables.rules.starting_deck
    assert start.sum() == 5
    assert {tables.cards.ids[k] for k in np.flatnonzero(start)} == {
        "stock_engine",
        "stock_frame",
        "stock_wheels",
        "starting_capital",
        "cut_off",
    }
    assert tables.cards.ids[tables.rules.debris_card] == "debris"


def test_a_condition_compiles_to_its_columns(tables):
    (plain, conditional) = effect_rows(tables, "drift_tyres")
    assert plain["op"] == conditional["op"] == list(V.OPS).index("drive")
    assert (plain["value"], plain["if_played"]) == (1, 0)
    assert (conditional["value"], conditional["if_played"]) == (1, 1 << V.PLAYABLE_TYPES.index("engine"))
    (lap3,) = [r for r in effect_rows(tables, "endurance_tyres") if r["if_laps"]]
    assert lap3["if_laps"] == 0b100 and lap3["value"] == 2


def test_categorical_fields_compile_to_codes(tables):
    (slow,) = effect_rows(tables, "road_block")
    assert slow["target"] == V.TARGETS.index("all_others") and slow["value"] == 2
    (dice,) = effect_rows(tables, "all_terrain_tyres")
    assert (dice["keep"], dice["value"]) == (V.DICE_KEEP.index("best"), 1)
    scrap = effect_rows(tables, "nitrous_tank")[1]
    assert scrap["scrap_from"] == V.SCRAP_FROM.index("this") and scrap["target"] == NONE
    assert all(r["trigger"] == NONE for r in effect_rows(tables, "v8_block"))
