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
