"""The rules checker for Downforce: what must hold in every game after every
card, whatever the cards and bots. Tests run it over thousands of games."""

from __future__ import annotations

import numpy as np

from .compile import Tables
from .state import State


def violations(
    st: State, tables: Tables, before: np.ndarray | None = None, extra: np.ndarray | None = None
) -> list[str]:
    """Every broken invariant, naming the first game that breaks it. `before`:
    the cars' rows copied before the card, to check that no car moves back.
    `extra` (G, N): regular cards a player holds beyond the deal (a strength
    bonus card, engine.simulate's `bonus`)."""
    out: list[str] = []

    def check(ok: np.ndarray, what: str) -> None:
        bad = np.flatnonzero(~np.asarray(ok))
        if bad.size:
            out.append(f"{what} (game {bad[0]}, {bad.size} game(s))")

    cards, track = tables.cards, tables.tracks[tables.rules.track]
    G, N, C = st.hand.shape
    check((st.hand >= 0).all(axis=(1, 2)) & (st.played >= 0).all(axis=(1, 2)), "a negative card count")
    regular = ~cards.is_speed8
    dealt = int(cards.count[regular].sum()) // N
    held = (st.hand + st.played)[:, :, regular].sum(axis=2)
    if extra is not None:
        held = held - extra
    check((held == dealt).all(axis=1), "regular cards not conserved (hand + played = the deal)")
    owns = st.owner[:, None, :] == np.arange(N)[None, :, None]  # (G, N, 6)
    eights = (st.hand + st.played)[:, :, tables.speed8_card]  # (G, N, 6)
    check((eights == owns).all(axis=(1, 2)), "a Speed-8 card not with its car's buyer")
    check((owns.sum(axis=2) >= 1).all(axis=1), "a player without a car")
    check((st.paid.sum(axis=1) == st.price.sum(axis=1)), "bids paid do not add up to the cars' prices")
    on_board = st.pos >= 0
    check((on_board | (st.place > 0)).all(axis=1), "a car neither on the board nor finished")
    occupied = np.zeros_like(st.occupied)
    g, c = np.nonzero(on_board)
    np.add.at(occupied, (g, st.pos[g, c]), True)
    check((occupied == st.occupied).all(axis=1), "the board's occupied spaces do not match the cars")
    spot = np.where(on_board, st.pos, -1 - np.arange(6)[None, :])
    check(
        ~((spot[:, :, None] == spot[:, None, :]) & ~np.eye(6, dtype=bool)[None]).any(axis=(1, 2)),
        "two cars on one space",
    )
    places = np.sort(np.where(st.place > 0, st.place, 99), axis=1)
    expected = np.where(np.arange(6)[None, :] < st.finishers[:, None], np.arange(1, 7)[None, :], 99)
    check((places == expected).all(axis=1), "finishing places are not 1, 2, 3... in order")
    if before is not None:
        row = np.where(on_board, track.row[np.maximum(st.pos, 0)].astype(np.int32), 1 << 20)
        check((row >= before).all(axis=1), "a car moved back")
    return out


def car_rows(st: State, tables: Tables) -> np.ndarray:
    """(G, 6) each car's row now (finished cars: beyond every row), for `before`."""
    track = tables.tracks[tables.rules.track]
    return np.where(st.pos >= 0, track.row[np.maximum(st.pos, 0)].astype(np.int32), 1 << 20)
