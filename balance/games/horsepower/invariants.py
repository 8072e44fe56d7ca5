"""The rules checker: what must hold in every game after every turn, whatever
the cards and bots. Tests run it over thousands of random games."""

from __future__ import annotations

import numpy as np

from .compile import Tables
from .state import State


def violations(st: State, tables: Tables, seat: int | None = None) -> list[str]:
    """Every broken invariant, as a sentence naming the first game that breaks it."""
    out: list[str] = []

    def check(ok: np.ndarray, what: str) -> None:
        bad = np.flatnonzero(~np.asarray(ok))
        if bad.size:
            out.append(f"{what} (game {bad[0]}, {bad.size} game(s))")

    rules = tables.rules
    L = rules.track_length
    showroom = np.zeros_like(st.parts)
    for slot in range(st.showroom.shape[1]):
        has = st.showroom[:, slot] >= 0
        np.add.at(showroom, (np.flatnonzero(has), st.showroom[has, slot]), 1)
    zones = {
        "deck": st.deck.sum(axis=1),
        "hand": st.hand.sum(axis=1),
        "play": st.play.sum(axis=1),
        "lingering": st.lingering.sum(axis=1),
        "garage": st.garage.sum(axis=1),
        "parts": st.parts,
        "showroom": showroom,
        "showroom discard": st.showroom_discard,
        "scrapyard": st.scrapyard,
        "supply": st.supply,
    }
    for name, counts in zones.items():
        check((counts >= 0).all(axis=1), f"negative count in {name}")
    total = sum(z.astype(np.int32) for z in zones.values())
    check((total == tables.cards.count[None, :]).all(axis=1), "cards not conserved across zones")
    pb_total = st.playbook_deck.astype(np.int32) + st.playbooks.sum(axis=1)
    check((pb_total == tables.playbooks.count[None, :]).all(axis=1), "Playbooks not conserved")
    check((st.playbooks.sum(axis=2) >= 1).all(axis=1), "a player without a Playbook")
    check((st.coins >= 0).all(axis=1), "negative coins")
    check(((st.pos >= 0) & (st.pos <= L)).all(axis=1), "position off the track")
    check(((st.lap >= 1) & (st.lap <= rules.laps)).all(axis=1), "lap out of range")
    check(~st.running | (st.play.sum(axis=(1, 2)) == 0), "cards left in a play area after a turn")
    check((st.bananas >= 0).all(axis=1) & (st.bananas[:, [0, L]] == 0).all(axis=1), "Banana on a lap end")
    occupied = np.zeros(st.bananas.shape, bool)
    np.put_along_axis(occupied, st.pos.astype(np.int64), True, axis=1)
    check(~(occupied & (st.bananas > 0)).any(axis=1), "a player stands on a Banana")
    finished = st.winner >= 0
    check(~finished | ~st.running, "a finished game still running")
    rows = np.flatnonzero(finished)
    w = st.winner[rows]
    check(
        np.isin(np.arange(len(st.winner)), rows[(st.lap[rows, w] == rules.laps) & (st.pos[rows, w] == L)]) | ~finished,
        "the winner has not completed the last lap",
    )
    if seat is not None:
        hand = st.hand[:, seat].sum(axis=1)
        check(~st.running | (hand <= 40), "an absurd hand")
    return out
