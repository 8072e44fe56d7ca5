"""What a card is worth to a bot now: one figure for every decision that
weighs cards (the turn's play, an anytime play, the card a discard-and-draw
or a discard down to three throws away, the equips of a pit stop), so that
a choice is priced on the card it is then made on.

A card's worth is its profile's card value (bots.card_value), a heal only for
the health missing, less the worth of each effect that would change nothing
now (aim.affected: a hit its armour takes whole, a skip for an immune leader,
a swap with no gain, a nerf removal with no nerf), less the dread of spinning
itself out (SPIN_OUT_DREAD, not scaled by noise: noise breaks near-ties, it
does not make a bot spin itself out). A noisy bot mixes in its noise.

Sub-batch convention: `g` (n,) distinct games, `p` (n,) the player in each.
"""

from __future__ import annotations

import numpy as np

from .. import chance
from .aim import Scene, affects_any
from .match import OP, TARGET, WHEN, Match
from .moves import modifier, modifiers
from .state import State

NOISE_SPREAD = 4.0  # a noisy bot's random score spans this many points of card worth
SPIN_OUT_DREAD = 10.0  # what a bot (without noise) gives up rather than spin itself out


def _hit(amount: np.ndarray, bonus: np.ndarray, cut: np.ndarray) -> np.ndarray:
    """Damage as effects.deal_damage counts it: the dealer's bonus, then the
    taker's reduction, neither below 0; 0 where `amount` is 0 (no hit)."""
    return np.where(amount > 0, np.maximum(np.maximum(amount + bonus, 0) - cut, 0), 0)


def self_harm(m: Match, st: State, g, p, cols: np.ndarray | None = None) -> np.ndarray:
    """(n, C) the damage playing each card of `cols` (C,) (default: every card)
    would do to player p itself: its own self-damage, raised by p's
    damage_bonus (a Blaze driving, Spiked Hubcaps) and cut by its
    damage_reduction, and the damage of every waiting trap it would set off,
    raised by the trap owner's bonus (p's own when p set it) and the owner's
    driver's `trap_sprung` damage (Snare's Jaws), each hit cut by p's
    reduction; less its shields."""
    cols = slice(None) if cols is None else cols
    hurts_self, sets_off = m.hurts_self[cols], m.sets_off[cols]
    cut = modifier(m, st, g, p, "damage_reduction")[:, None]
    bonus = modifiers(m, st, g, "damage_bonus")  # (n, P): p's own, and each trap owner's
    total = _hit(hurts_self[None, :].astype(np.int32), bonus[np.arange(len(g)), p][:, None], cut)
    # the waiting traps these cards would set off, in the games that have any
    relevant = np.flatnonzero(sets_off.any(axis=0))
    trap = st.trap[g]  # (n, S)
    live = (trap >= 0) & ~st.immune[g, p][:, None]
    trigger = np.where(live, m.tables.cards.trigger[np.maximum(trap, 0)], -1)
    live &= np.append(sets_off.any(axis=0), False)[trigger]  # -1 (no trap) reads the appended False
    rows = np.flatnonzero(live.any(axis=1))
    if len(rows):
        gr = g[rows]
        owner = np.maximum(st.trap_owner[gr], 0).astype(np.int64)  # (r, S)
        owner_bonus = np.take_along_axis(bonus[rows], owner, axis=1)
        hurt = _hit(m.trap_hurt[np.maximum(trap[rows], 0)].astype(np.int32), owner_bonus, cut[rows])
        hurt += _hit(_jaws(m, st, gr, owner), owner_bonus, cut[rows])
        hurt = np.where(live[rows], hurt, 0)
        by_trigger = np.zeros((len(rows), sets_off.shape[1]), np.int32)
        for t in relevant:
            by_trigger[:, t] = np.where(trigger[rows] == t, hurt, 0).sum(axis=1)
        total[rows] += (by_trigger.astype(np.float32) @ sets_off.T.astype(np.float32)).astype(np.int32)  # exact
    shields = st.shield[g, p].astype(np.int32).sum(axis=1)[:, None]
    return np.maximum(total - shields, 0)


def _jaws(m: Match, st: State, g, owner: np.ndarray) -> np.ndarray:
    """(n, S) int32: the damage a trap's owner's driver adds when the trap
    springs (a `trap_sprung` damage specialty aimed at the triggerer)."""
    d = m.tables.drivers
    drv = st.driver[g[:, None], owner]
    adds = (d.when[drv] == WHEN["trap_sprung"]) & (d.op[drv] == OP["damage"]) & (d.target[drv] == TARGET["triggerer"])
    return np.where(adds, d.amount[drv], 0).astype(np.int32)


def spin_out_dread(m: Match, st: State, g, p, cols: np.ndarray | None = None) -> np.ndarray:
    """(n, C) SPIN_OUT_DREAD where playing the card (of `cols`) would spin
    player p out, else 0; reckoned for the cards in p's hand (the others read 0)."""
    cols = np.arange(len(m.tables.cards.ids)) if cols is None else cols
    out = np.zeros((len(g), len(cols)), np.float32)
    # only a hand holding a card that hurts its player, or with a trap waiting, can hold a fatal card
    hand = st.hand[g, p][:, cols] > 0
    risky = (hand & (m.hurts_self[cols] > 0)[None, :]).any(axis=1) | (st.trap[g] >= 0).any(axis=1)
    rows = np.flatnonzero(risky)
    if len(rows):
        hurt = self_harm(m, st, g[rows], p[rows], cols)
        fatal = (hurt > 0) & (hurt >= st.tire[g[rows], p[rows]][:, None]) & hand[rows]
        out[rows] = np.where(fatal, np.float32(SPIN_OUT_DREAD), np.float32(0))
    return out


def idle_worth(m: Match, st: State, g, p, cols: np.ndarray) -> np.ndarray:
    """(n, C) float32: the worth of the effects of each card of `cols` in p's
    hand that would change nothing now (match.idle_kinds)."""
    n = len(g)
    loss = np.zeros((n, len(cols)), np.float32)
    kinds = m.idle_cards[:, cols]  # (U, C)
    # (n, U): holds a card with that effect (counts in float32: exact, and a BLAS product)
    holds = (st.hand[g, p][:, cols].astype(np.float32) @ kinds.T.astype(np.float32)) > 0
    rows = np.flatnonzero(holds.any(axis=1))
    if len(rows) == 0:
        return loss
    gr, pr = g[rows], p[rows]
    idle = holds[rows] & ~affects_any(Scene(m, st, gr, pr), m.idle_kinds)  # (r, U)
    q = st.bots[gr, pr]
    for u in np.flatnonzero(idle.any(axis=0)):
        r = np.flatnonzero(idle[:, u])
        loss[rows[r]] += m.idle_worth[q[r], u][:, cols]
    return loss


def play_worth(m: Match, st: State, g, p, cols: np.ndarray | None = None, now: bool = True) -> np.ndarray:
    """(n, C) float32: what playing each card of `cols` (default: every card)
    now is worth to player p's bot, before noise (the module's docstring).
    `now` False: what it is worth to keep (a discard down to three): an effect
    that changes nothing this turn may change something the next, so its
    worth stays; the dread stays (the card is one play from a spin-out)."""
    cols = np.arange(len(m.tables.cards.ids)) if cols is None else cols
    q = st.bots[g, p]
    missing = m.tables.rules.tire_health - st.tire[g, p]
    worth = m.bots.card_value[q][:, cols] + m.bots.defence[q][:, None] * np.minimum(
        m.heals[cols][None, :], missing[:, None]
    )
    if now:
        worth = worth - idle_worth(m, st, g, p, cols)
    return (worth - spin_out_dread(m, st, g, p, cols)).astype(np.float32)


def hand_worth(m: Match, st: State, g, p, now: bool = True) -> np.ndarray:
    """(n, K) float32: play_worth (`now`: to play, else to keep) with the
    bot's noise mixed in, for one decision (a draw of noise each call)."""
    q = st.bots[g, p]
    u = chance.uniform(m.streams.key(g, "noise: card worth", p), len(m.tables.cards.ids))
    noise = m.bots.noise[q][:, None]
    return ((1 - noise) * play_worth(m, st, g, p, now=now) + noise * u * NOISE_SPREAD).astype(np.float32)


def worst_in_hand(st: State, g, p, worth: np.ndarray) -> np.ndarray:
    """(n,) the card in p's hand worth least by `worth` (n, K)."""
    return np.where(st.hand[g, p] > 0, worth, np.inf).argmin(axis=1)


def discard_down(m: Match, st: State, g: np.ndarray, p: np.ndarray) -> None:
    """ "...then discard down to three": the cards worth least go to the discard
    pile until the hand is down to the hand size (one worth for them all: the
    choice of what to keep is one decision). Called once a card, a trap or a
    specialty that drew or stole is done (docs/rules.md, "Drawing")."""
    size = m.tables.rules.hand_size
    over = np.flatnonzero(st.hand[g, p].sum(axis=1) > size)
    if len(over) == 0:
        return
    gg, pp = g[over], p[over]
    worth = hand_worth(m, st, gg, pp, now=False)
    while True:
        extra = st.hand[gg, pp].sum(axis=1) > size
        if not extra.any():
            return
        ge, pe = gg[extra], pp[extra]
        k = worst_in_hand(st, ge, pe, worth[extra])
        st.hand[ge, pe, k] -= 1
        st.discard[ge, pe, k] += 1
        m.say(ge, lambda j, pe=pe, k=k: f"    seat {pe[j]} discards {m.card_name(k[j])} (down to {size})")
