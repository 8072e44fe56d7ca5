"""Horsepower profiles' situation terms (issue 18): a bot's weights may
depend on where it stands (behind the leader by behind_gap spaces, leading,
level) and on its coins in hand (rich_at); at 1, the default, they change
nothing."""

from __future__ import annotations

import numpy as np

from balance.games.horsepower.bots import SITUATIONS, VARIANTS, F, bot_table, resolve_profiles

from . import hp


def variant(situation: str, rich: bool) -> int:
    return 2 * SITUATIONS.index(situation) + int(rich)


def test_each_seat_reads_its_own_situation():
    # two profiles: behind from 15 spaces back, and from 50; both rich from 12 coins (a situation term
    # other than 1 makes the bots read their situation at all)
    profiles = {
        "near": {**hp.ROBOT, "behind_gap": 15, "rich_at": 12, "behind_drive": 2.0},
        "far": {**hp.ROBOT, "behind_gap": 50, "rich_at": 12},
    }
    ctx, st = hp.batch(hp.tables(), 3, games=2, profiles=profiles, names=["near", "far", "far"])
    st.lap[:] = [[1, 2, 1], [2, 2, 2]]
    st.pos[:] = [[40, 10, 20], [5, 5, 30]]
    st.bots[:] = [[0, 0, 1], [0, 1, 0]]
    st.coins[:] = [[3, 20, 12], [0, 0, 0]]
    got = hp.situation_variants(ctx, st, np.array([0, 1]))
    # game 0: raced 40, 60, 20: seat 0 is 20 behind (gap 15: behind), seat 1 leads, seat 2 is 40
    # behind but its profile's gap is 50 (level), with 12 coins (rich: at least rich_at)
    assert got[0].tolist() == [variant("behind", False), variant("leading", True), variant("level", True)]
    # game 1: 55, 55, 80: seats 0 and 1 are 25 behind (profile 0: behind; profile 1: level), seat 2 leads
    assert got[1].tolist() == [variant("behind", False), variant("level", False), variant("leading", False)]


def test_situation_terms_scale_the_weights_they_name_and_default_to_nothing(tables):
    profiles = resolve_profiles({"racer": {"behind_drive": 3.0, "rich_coins": 0.5, "leading_defense": 2.0}})
    bots = bot_table(profiles, ["balanced", "racer"], tables, 4)
    assert bots.situational
    level = bots.card_value[:, variant("level", False)]
    assert np.array_equal(bots.card_value[0], np.broadcast_to(level[0], (VARIANTS, level.shape[1])))
    drive_card = tables.cards.index("stock_engine")  # +2 Drive, nothing else
    behind = bots.card_value[1, variant("behind", False), drive_card]
    assert np.isclose(behind, 3.0 * level[1, drive_card])
    coins_card = tables.cards.index("starting_capital")  # gain 2 coins
    assert np.isclose(bots.card_coins[1, variant("level", True), coins_card], 0.5 * level[1, coins_card])
    plain = bot_table(resolve_profiles(None), ["balanced", "racer"], tables, 4)
    assert not plain.situational and F["drive"] == 0
