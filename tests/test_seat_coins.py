"""Seat compensation (issue 21's design knob, docs/rules.md): rules.seat_coins
adds starting coins by seat; the shipped zeros leave the rulebook's game as it was."""

from __future__ import annotations

import numpy as np
import pytest

from balance.errors import UserError

from .hp import batch, tables


def test_each_seat_starts_with_its_extra_coins():
    def edit(data):
        data["rules"]["seat_coins"] = [0, 1, 2]  # seat 3 is past the list: none

    _, st = batch(tables(edit), 4, 5)
    assert (st.coins == np.array([3, 4, 5, 3])).all()


def test_the_shipped_zeros_and_no_list_give_the_rulebooks_coins():
    def drop(data):
        data["rules"].pop("seat_coins", None)

    shipped = batch(tables(), 4, 3)[1]
    absent = batch(tables(drop), 4, 3)[1]
    assert (shipped.coins == 3).all() and (absent.coins == 3).all()


def test_more_seats_than_the_game_takes_are_refused():
    def edit(data):
        data["rules"]["seat_coins"] = [0] * 9

    with pytest.raises(UserError, match="seat_coins"):
        tables(edit)


def test_each_draft_position_starts_with_its_extra_coins_the_first_picker_first():
    """rules.draft_coins (issue 43): by each seat's place in the draft, whoever
    picks first (drawn per game, apart from the turn order: rules.first_drafter)."""

    def edit(data):
        data["rules"]["draft_coins"] = [0, 1, 2, 5]
        data["rules"]["seat_coins"] = [1, 0, 0, 0]  # both add up

    _, st = batch(tables(edit), 4, 64)
    position = (np.arange(4)[None, :] - st.first_drafter[:, None].astype(int)) % 4
    assert (st.coins == 3 + np.array([1, 0, 0, 0])[None, :] + np.array([0, 1, 2, 5])[position]).all()
    assert len(set(st.first_drafter.tolist())) == 4, "the first picker varies over the games"


def test_draft_balance_is_a_fit_target_with_one_figure_per_draft_position():
    from balance.experiments.fit.targets import parse_target

    target = parse_target("draft-balance<=2")
    assert (target.kind, target.low, target.high) == ("draft-balance", -2.0, 2.0)
