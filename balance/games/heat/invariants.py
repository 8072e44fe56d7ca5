"""The rules checker for Heat: what must hold in every race after every turn,
whatever the cards and bots. Tests run it over thousands of random races."""

from __future__ import annotations

import numpy as np

from .compile import Tables
from .course import course
from .state import State


def violations(
    st: State,
    tables: Tables,
    acted: tuple[np.ndarray, np.ndarray] | None = None,
    before: tuple[np.ndarray, np.ndarray] | None = None,
) -> list[str]:
    """Every broken invariant, as a sentence naming the first race that breaks it.
    `acted` = (g, p): the cars that just took their turn; `before` = (pos,
    spin_outs) copied before that turn, to check that cars only move forward
    except on a spin-out."""
    out: list[str] = []

    def check(ok: np.ndarray, what: str) -> None:
        bad = np.flatnonzero(~np.asarray(ok))
        if bad.size:
            out.append(f"{what} (race {bad[0]}, {bad.size} race(s))")

    rules = tables.rules
    c = course(tables.tracks[rules.track])
    G, P, K = st.shape
    for name in ("deck", "hand", "play", "discard"):
        check((getattr(st, name) >= 0).all(axis=(1, 2)), f"negative count in {name}")
    check((st.engine >= 0).all(axis=1), "negative Heat in an Engine")

    # Every car's cards: its starting deck, what it drafted, a strength experiment's
    # extra copy, the Stress its spin-outs added.
    owned = (st.deck + st.hand + st.play + st.discard).astype(np.int32)
    owned[:, :, tables.heat_card] += st.engine
    start = tables.starting_deck(rules.track, garage=rules.garage_module).astype(np.int32)
    expected = np.where(st.is_legend[:, :, None], 0, start[None, None, :] + st.drafted + st.bonus)
    expected[:, :, tables.heat_card] += np.where(st.is_legend, 0, c.track.heat)
    expected[:, :, tables.stress_card] += st.stress_added
    check((owned == expected).all(axis=(1, 2)), "cards not conserved (deck, hand, play, discard, Engine)")

    check(st.corner_spins.sum(axis=1) == st.spin_outs.sum(axis=1), "spin-outs by corner do not add up")
    check(st.corner_paid.sum(axis=1) == st.corner_heat.sum(axis=1), "corner Heat by corner does not add up")
    check(((st.gear >= 1) & (st.gear <= rules.gears)).all(axis=1), "gear out of range")
    check(((st.lane >= 0) & (st.lane < rules.lanes)).all(axis=1), "lane out of range")
    # Draws fill a hand up to the hand size; spin-outs add Stress on top, and where a
    # spin-out gives more Stress than a round plays, the Stress piles up round after round.
    drawn = st.hand.sum(axis=2) - st.hand[:, :, tables.stress_card]
    check((drawn <= rules.hand_size).all(axis=1), "a hand above the hand size (Stress from spin-outs aside)")
    check((~st.finished | (st.pos >= c.finish)).all(axis=1), "a finished car short of the finish line")
    on_track = ~st.finished
    spot = st.pos.astype(np.int64) * rules.lanes + st.lane
    same = (spot[:, :, None] == spot[:, None, :]) & on_track[:, :, None] & on_track[:, None, :]
    same &= ~np.eye(P, dtype=bool)[None]
    check(~same.any(axis=(1, 2)), "two cars on one spot")
    if acted is not None:
        g, p = acted
        ok = np.ones(G, bool)
        ok[g] = st.play[g, p].sum(axis=1) == 0
        check(ok, "cards left in a play area after the car's turn")
        if before is not None:
            pos, spins = before
            forward = np.ones(G, bool)
            forward[g] = (st.pos[g, p] >= pos[g, p]) | (st.spin_outs[g, p] > spins[g, p])
            check(forward, "a car moved back without spinning out")
    return out
