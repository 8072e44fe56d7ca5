"""The rules checker for Shuffle Grand Prix: what must hold in every game
after every turn, whatever the cards and bots. Tests run it over many random
games, batched and one at a time."""

from __future__ import annotations

import numpy as np

from .compile import Tables
from .state import State


def violations(st: State, tables: Tables, acted: tuple[np.ndarray, np.ndarray] | None = None) -> list[str]:
    """Every broken invariant, as a sentence naming the first game that breaks it.
    `acted` = (g, p): the seats that just took their turn."""
    out: list[str] = []

    def check(ok: np.ndarray, what: str) -> None:
        bad = np.flatnonzero(~np.asarray(ok))
        if bad.size:
            out.append(f"{what} (game {bad[0]}, {bad.size} game(s))")

    rules = tables.rules
    G, P, K = st.shape
    V = len(tables.distance.value)
    for name in ("draw", "hand", "discard", "stolen_in", "stolen_out"):
        check((getattr(st, name) >= 0).all(axis=(1, 2)), f"negative count in {name}")
    check((st.deck >= 0).all(axis=1) & (st.bottom >= 0).all(axis=1), "negative count in the distance deck")

    # All distance cards accounted for: deck + bottom pile + stacks, kind by kind.
    on_stacks = np.zeros((G, V), np.int32)
    for v in range(V):
        on_stacks[:, v] = (st.stack == v).sum(axis=(1, 2))
    total = st.deck + st.bottom + on_stacks
    check((total == tables.distance.count[None, :]).all(axis=1), "distance cards not conserved (deck, bottom, stacks)")
    if rules.bottom_pile == "first_in_first_out":  # the ring of the bottom pile holds just its cards
        ring = np.stack([(st.bottom_order == v).sum(axis=1) for v in range(V)], axis=1)
        check((ring == st.bottom).all(axis=1), "the bottom pile's order does not match its cards")
    S = st.stack.shape[2]
    filled = np.arange(S)[None, None, :] < st.height[:, :, None]
    check(((st.stack >= 0) == filled).all(axis=(1, 2)), "a distance stack with a gap")

    check(((st.tire >= 0) & (st.tire <= rules.tire_health)).all(axis=1), "tire health out of 0..tire_health")
    check(((st.co_tire >= 1) & (st.co_tire <= rules.tire_health)).all(axis=1), "co-pilot tire health out of range")
    check((st.tire > 0).all(axis=1), "a driver at 0 tire health that did not spin out")
    check((st.driver != st.co_pilot).all(axis=1), "driver and co-pilot the same")
    drivers = np.concatenate([st.driver, st.co_pilot], axis=1)
    same = (drivers[:, :, None] == drivers[:, None, :]).sum(axis=(1, 2)) == 2 * P
    check(same, "a driver picked twice")
    check((st.trophies >= 0).all(axis=1) & (st.pool >= 0), "negative trophies")
    check(st.trophies.sum(axis=1) + st.pool == rules.trophies, "trophies not conserved")
    check((st.hand.sum(axis=2) <= rules.hand_size).all(axis=1), "a hand above the hand size")

    # Cards conserved per player: every copy it owns is in exactly one zone.
    owned = (st.draw + st.hand + st.discard).astype(np.int32)
    g, p, e = np.nonzero(st.equip >= 0)
    np.add.at(owned, (g, p, st.equip[g, p, e]), 1)
    g, t, s = np.nonzero(st.nerf >= 0)
    np.add.at(owned, (g, st.nerf_owner[g, t, s], st.nerf[g, t, s]), 1)
    g, s = np.nonzero(st.trap >= 0)
    np.add.at(owned, (g, st.trap_owner[g, s], st.trap[g, s]), 1)
    expected = st.start.astype(np.int32) + st.stolen_in - st.stolen_out
    check((owned == expected).all(axis=(1, 2)), "ability cards not conserved (draw, hand, discard, car, nerfs, traps)")
    check(((st.nerf >= 0) == (st.nerf_owner >= 0)).all(axis=(1, 2)), "a nerf without an owner")
    check(((st.trap >= 0) == (st.trap_owner >= 0)).all(axis=1), "a trap without an owner")
    own_car = st.nerf_owner == np.arange(P)[None, :, None]
    check(~own_car.any(axis=(1, 2)), "a nerf on its owner's car")
    check(((st.equip >= 0) | (st.shield == 0)).all(axis=(1, 2)), "a shield without its equip")
    if acted is not None:
        g, p = acted
        full = np.ones(G, bool)
        pile = st.draw[g, p].sum(axis=1) + st.discard[g, p].sum(axis=1)
        full[g] = (st.hand[g, p].sum(axis=1) == rules.hand_size) | (pile == 0)
        check(full, "a hand not back to three after the turn")
        check(st.plays_left == 0, "plays left over after a turn")
    return out
