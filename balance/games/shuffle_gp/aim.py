"""Who an effect reaches (rulebook "Abilities"; the targets of
docs/shuffle_gp.md, "Effects"), whom a bot aims a card at, and whom an
effect would change now: a hit on a rival whose armour takes it all, a swap
that gains nothing or a skip for an immune leader changes nobody.

Sub-batch convention: `g` (n,) distinct games, `p` (n,) the card's player in
each; `rival` (n,) the rival picked for `one_rival` (-1: none), `trig` (n,)
the triggerer (-1: none).
"""

from __future__ import annotations

from functools import cached_property

import numpy as np

from .. import chance
from .match import OP, TARGET, Match
from .moves import modifier, modifiers, top_values
from .state import State, total_distance


def choose_rival(
    m: Match, st: State, g: np.ndarray, p: np.ndarray, nerf: bool = False, useful: np.ndarray | None = None
) -> np.ndarray:
    """(n,) the rival player p's bot picks for `one_rival` (-1 when none fits:
    every rival immune, or for a nerf, no free nerf slot): the leader in
    distance or the most damaged driver, as its `lead` weight says. `useful`
    (n, P): the rivals the card would change (`affected`); where any is, the
    bot picks among them (a hit its armour takes whole is no hit)."""
    P = st.tire.shape[1]
    j = np.arange(P)[None, :]
    ok = (j != p[:, None]) & ~st.immune[g]
    if nerf:
        ok &= (st.nerf[g] < 0).any(axis=2)
    if useful is not None:
        ok = np.where((ok & useful).any(axis=1)[:, None], ok & useful, ok)
    q = st.bots[g, p]
    dist = total_distance(st, m.values, g).astype(np.float32)
    dist /= np.maximum(dist.max(axis=1, keepdims=True), 1)
    hurt = (m.tables.rules.tire_health - st.tire[g]) / m.tables.rules.tire_health
    lead = m.bots.lead[q][:, None]
    noise = m.bots.noise[q][:, None]
    u = chance.uniform(m.streams.key(g, "noise: rival choice", p), P)
    score = (1 - noise) * (lead * dist + (1 - lead) * hurt) + noise * u
    score = np.where(ok, score, -np.inf)
    return np.where(ok.any(axis=1), score.argmax(axis=1), -1)


def leader_seat(m: Match, st: State, g, p) -> np.ndarray:
    """(n,) the leader in distance among player p's rivals; ties: the first clockwise from p."""
    P = st.tire.shape[1]
    j = np.arange(P)[None, :]
    dist = total_distance(st, m.values, g).astype(np.int64)
    key = np.where(j == p[:, None], -1, dist * P + (P - (j - p[:, None]) % P))
    return key.argmax(axis=1)


def targets(m: Match, st: State, g, p, code: np.ndarray, rival, trig) -> np.ndarray:
    """(n, P) bool: who an effect with target `code` (n,) hits. Rivals that are
    immune are left out (a spun-out player, until its next turn)."""
    n, P = len(g), st.tire.shape[1]
    j = np.arange(P)[None, :]
    out = np.zeros((n, P), bool)
    me = j == p[:, None]
    for name, c in TARGET.items():
        rows = code == c
        if not rows.any():
            continue
        if name == "self":
            mask = me
        elif name == "one_rival":
            mask = j == rival[:, None]
        elif name == "all_rivals":
            mask = ~me
        elif name == "leader":
            mask = j == leader_seat(m, st, g, p)[:, None]
        elif name == "next":
            mask = j == ((p + 1) % P)[:, None]
        else:  # triggerer
            mask = j == trig[:, None]
        out[rows] = mask[rows]
    return out & (me | ~st.immune[g])


class Scene:
    """What `affected` reads of the games `g` with player p acting, each part
    gathered once (when first read) for every effect a decision weighs."""

    def __init__(self, m: Match, st: State, g: np.ndarray, p: np.ndarray) -> None:
        self.m, self.st, self.g, self.p = m, st, g, p
        P = st.tire.shape[1]
        self.seats = np.arange(P)[None, :]
        self.me = self.seats == p[:, None]  # (n, P) bool: player p's own seat
        self.rival = ~self.me & ~st.immune[g]  # (n, P) bool: the rivals an effect can reach (not immune)

    @cached_property
    def leader(self) -> np.ndarray:
        """(n, P) bool: the leader among p's rivals (leader_seat), if it can be reached."""
        return (self.seats == leader_seat(self.m, self.st, self.g, self.p)[:, None]) & self.rival

    @cached_property
    def next(self) -> np.ndarray:
        """(n, P) bool: the next player, if it can be reached."""
        return (self.seats == ((self.p + 1) % self.me.shape[1])[:, None]) & self.rival

    @cached_property
    def bonus(self) -> np.ndarray:
        return modifier(self.m, self.st, self.g, self.p, "damage_bonus")  # (n,) p's damage_bonus

    @cached_property
    def cut(self) -> np.ndarray:
        return modifiers(self.m, self.st, self.g, "damage_reduction")  # (n, P) each car's damage_reduction

    def hurts(self, amount: int) -> np.ndarray:
        """(n, P) bool: `amount` damage dealt by p (its bonus added) comes
        through each car's damage_reduction."""
        return np.maximum(amount + self.bonus, 0)[:, None] - self.cut > 0

    @cached_property
    def stacked(self) -> np.ndarray:
        return self.st.height[self.g] > 0  # (n, P) bool: a distance card in the stack

    @cached_property
    def gain(self) -> np.ndarray:
        """(n, P) bool: swapping top distance cards with that player gains p something."""
        n = len(self.g)
        top = top_values(self.m, self.st, self.g)
        mine = top[np.arange(n), self.p][:, None]
        return ~self.me & self.stacked & self.stacked[np.arange(n), self.p][:, None] & (top > mine)

    @cached_property
    def equipped(self) -> np.ndarray:
        return (self.st.equip[self.g] >= 0).any(axis=2)  # (n, P) bool: an equip on the car

    @cached_property
    def nerfed(self) -> np.ndarray:
        return (self.st.nerf[self.g] >= 0).any(axis=2)  # (n, P) bool: a nerf on the car


def reach(sc: Scene, target: int, rival=None, trig=None) -> np.ndarray:
    """(n, P) bool: whom an effect with `target` reaches (targets, for the
    acting player). `rival` None: a `one_rival` effect may reach any rival."""
    if target < 0 or target == TARGET["self"]:  # no target: an op on its player alone (remove_nerf)
        return sc.me
    if target == TARGET["one_rival"]:
        return sc.rival if rival is None else sc.rival & (sc.seats == rival[:, None])
    if target == TARGET["all_rivals"]:
        return sc.rival
    if target == TARGET["leader"]:
        return sc.leader
    if target == TARGET["next"]:
        return sc.next
    return (sc.rival | sc.me) & (sc.seats == trig[:, None])  # triggerer


def changes(sc: Scene, op: int, amount: int) -> np.ndarray:
    """(n, P) bool: the players an op (of match.MAY_IDLE) would change if it
    reached them; (n, 1) True for any other op (skip_turn: whoever it reaches)."""
    if op == OP["damage"]:
        return sc.hurts(amount)
    if op == OP["discard_distance"]:
        return sc.stacked
    if op == OP["swap_top_distance"]:  # a swap the player gains by (the bot swaps only then)
        return sc.gain
    if op == OP["remove_equip"]:
        return sc.equipped
    if op == OP["remove_nerf"]:
        return sc.nerfed
    return np.ones((len(sc.g), 1), bool)


def affected(sc: Scene, op: int, target: int, amount: int, rival=None, trig=None) -> np.ndarray:
    """(n, P) bool: the players an effect (op, target, amount) of the acting
    player would change now. `rival` None: a `one_rival` effect may go to any
    rival it can reach (each one it would change is marked); `trig` (n,) the
    triggerer, for `triggerer`."""
    return reach(sc, target, rival, trig) & changes(sc, op, amount)


def affects_any(sc: Scene, kinds: tuple[tuple[int, int, int], ...]) -> np.ndarray:
    """(n, U) bool: whether each effect of `kinds` ((op, target, amount), U of
    them) would change anyone now: `affected`, each target and each op read
    once for all the kinds that share it."""
    P = sc.me.shape[1]

    def op_key(op: int, amount: int) -> tuple[int, int]:  # only damage reads its amount (changes)
        return op, amount if op == OP["damage"] else 0

    targets = sorted({t for _, t, _ in kinds})
    ops = sorted({op_key(o, a) for o, _, a in kinds})
    hit = np.stack([reach(sc, t) for t in targets], axis=1)  # (n, T, P)
    change = np.empty((len(sc.g), len(ops), P), bool)  # (n, O, P)
    for i, (o, a) in enumerate(ops):
        change[:, i] = changes(sc, o, a)
    ti = [targets.index(t) for _, t, _ in kinds]
    oi = [ops.index(op_key(o, a)) for o, _, a in kinds]
    return (hit[:, ti, :] & change[:, oi, :]).any(axis=2)


def useful_rivals(m: Match, st: State, g, p, k: np.ndarray) -> np.ndarray:
    """(n, P) bool: the rivals a `one_rival` effect of card k (n,) would change
    now (for choose_rival's `useful`)."""
    out = np.zeros((len(g), st.tire.shape[1]), bool)
    sc = None
    for u, (op, target, amount) in enumerate(m.idle_kinds):
        if target != TARGET["one_rival"]:
            continue
        rows = m.idle_cards[u, k]
        if rows.any():
            sc = Scene(m, st, g, p) if sc is None else sc
            out |= affected(sc, op, target, amount) & rows[:, None]
    return out
