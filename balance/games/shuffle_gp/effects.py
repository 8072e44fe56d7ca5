"""Resolving cards (docs/shuffle_gp.md, "Effects"): who a target is, each
instant op, damage and shields, spin-outs, traps springing, specialties, and
anytime cancels answering an attack.

Sub-batch convention: `g` (n,) distinct games, `p` (n,) the card's player
(a trap's owner, a specialty's driver's player) in each; `rival` (n,) the
rival the player picked for `one_rival` (-1: none), `trig` (n,) the
triggerer (-1: none). `depth` 0 is a card played on a turn; what a trap, a
specialty or an anytime answer resolves runs at depth 1 and sets off no trap
and no specialty (a trap's own effects set off no traps, a specialty does not
set itself off: docs/shuffle_gp.md; ours: no chains at all), except the damage
specialties a trap's damage sets off where rules.trap_damage_specialties.
"""

from __future__ import annotations

import numpy as np

from .. import chance
from . import vocabulary as V
from .aim import Scene, affected, choose_rival, targets
from .match import MAY_IDLE, OP, REPLACE, TRIGGER, TYPE, WHEN, Match
from .moves import discard_top, draw_cards, draw_distance_cards, modifier, refill
from .state import PLAYS_MOST, SKIP_MOST, State
from .worth import discard_down

OPS = list(V.OPS)


def resolve_card(m: Match, st: State, g, p, k, rival, trig, depth: int, avoid=None) -> None:
    """Card k's effects, slot by slot, top to bottom."""
    c = m.tables.cards
    P = st.tire.shape[1]
    if avoid is None:
        avoid = np.zeros((len(g), P), bool)
    for slot in range(c.op.shape[1]):
        op = c.op[k, slot]
        for code in np.unique(op[op >= 0]):
            rows = op == code
            apply_op(
                m, st, int(code), g[rows], p[rows], c.target[k[rows], slot], c.amount[k[rows], slot],
                rival[rows], trig[rows], depth, avoid[rows],
            )  # fmt: skip


def apply_op(m: Match, st: State, code: int, g, p, target, amount, rival, trig, depth: int, avoid) -> None:
    if len(g) == 0:
        return
    P = st.tire.shape[1]
    name = OPS[code]
    amount = amount.astype(np.int32)
    hit = targets(m, st, g, p, target, rival, trig) & ~avoid if target is not None else None

    def each_target():
        """(rows, t) for every target, in turn order from the player itself."""
        for off in range(P):
            t = (p + off) % P
            rows = hit[np.arange(len(g)), t]
            if rows.any():
                yield rows, t[rows]

    if name == "damage":
        for rows, t in each_target():
            deal_damage(m, st, g[rows], p[rows], t, amount[rows], depth)
    elif name == "heal":
        heal(m, st, g, p, amount, depth)
    elif name == "steal_card":
        for rows, t in each_target():
            steal(m, st, g[rows], p[rows], t, amount[rows])
    elif name == "discard_distance":
        for rows, t in each_target():
            discard_top(m, st, g[rows], t, amount[rows], "discard_distance")
    elif name == "draw_distance":
        for i in range(int(amount.max())):
            rows = i < amount
            draw_distance(m, st, g[rows], p[rows], depth)
    elif name == "swap_top_distance":
        for rows, t in each_target():
            swap_top(m, st, g[rows], p[rows], t)
    elif name == "skip_turn":
        for rows, t in each_target():
            st.skip[g[rows], t] = np.minimum(st.skip[g[rows], t] + amount[rows], SKIP_MOST)
            m.say(g[rows], lambda j, t=t, a=amount[rows]: f"    seat {t[j]} will skip {a[j]} turn(s)")
    elif name == "draw_ability":  # "...then discard down to three": once the whole card is done (discard_down)
        draw_cards(m, st, g, p, amount)
    elif name == "extra_play":  # "you may play one more ability card this turn": a card or a pass (play_phase)
        mine = st.current[g] == p  # plays only count on your own turn (a trap's owner gains nothing)
        # a play phase plays at most PLAYS_MOST: more left would change nothing (and wrap the int8)
        st.card_plays[g[mine]] = np.minimum(st.card_plays[g[mine]] + amount[mine], PLAYS_MOST)
    elif name == "remove_equip":
        for rows, t in each_target():
            remove_equip(m, st, g[rows], p[rows], t, amount[rows])
    elif name == "remove_nerf":
        remove_nerf(m, st, g, p, amount)
    else:
        raise AssertionError(f"{name} is a lasting op: it sits on a car, it does not resolve")


# --- damage and spin-outs ---------------------------------------------------------------


def deal_damage(m: Match, st: State, g, dealer, t, amount, depth: int) -> None:
    """`dealer` deals `amount` to player t: the dealer's damage_bonus and t's
    damage_reduction change it (never below 0), then t's shields absorb what
    they can (a spent shield equip is discarded), the rest comes off tire
    health. At 0 the driver spins out."""
    amt = np.maximum(amount + modifier(m, st, g, dealer, "damage_bonus"), 0)
    amt = np.maximum(amt - modifier(m, st, g, t, "damage_reduction"), 0)
    for e in range(st.equip.shape[2]):
        take = np.minimum(st.shield[g, t, e], amt).astype(np.int8)
        st.shield[g, t, e] -= take
        st.absorbed[g, t] += take
        amt = amt - take
        spent = (take > 0) & (st.shield[g, t, e] == 0)
        if spent.any():
            gs, ts = g[spent], t[spent]
            card = st.equip[gs, ts, e]
            st.discard[gs, ts, card] += 1
            st.equip[gs, ts, e] = -1
            st.equip_left[gs, ts, e] = 0
            m.say(gs, lambda j: f"    seat {ts[j]}'s {m.card_name(card[j])} is spent")
    loss = np.minimum(amt, st.tire[g, t]).astype(np.int8)
    st.tire[g, t] -= loss
    st.damage_taken[g, t] += loss
    other = dealer != t
    st.damage_dealt[g[other], dealer[other]] += loss[other]
    hurt = loss > 0
    st.hurt_by[g[hurt], t[hurt], dealer[hurt]] = True
    m.say(
        g, lambda j: f"    seat {t[j]} takes {loss[j]} damage from seat {dealer[j]}: tire health {st.tire[g[j], t[j]]}"
    )
    driver = st.driver[g, t].copy()
    spun = hurt & (st.tire[g, t] == 0)
    if spun.any():
        gs, ts = g[spun], t[spun]
        if m.tables.rules.spin_out_trophies == "final_blow":  # "the player dealing the final blow"
            causers = np.zeros((len(gs), st.tire.shape[1]), bool)
            causers[np.arange(len(gs)), dealer[spun]] = True
        else:  # every player who damaged this driver since it took the wheel
            causers = st.hurt_by[gs, ts].copy()
        spin_out(m, st, gs, ts, causers)
    # damage answered: a card's on a turn; a trap's too where rules.trap_damage_specialties
    # (its specialties only: a trap's effects never spring another trap)
    answered = depth == 0 or (m.springing and m.tables.rules.trap_damage_specialties)
    if answered and hurt.any():
        gh, th, dh = g[hurt], t[hurt], dealer[hurt]
        if depth == 0:
            spring(m, st, gh, th, "any_damage")
        drv = driver[hurt] if m.tables.rules.specialty_of == "event_driver" else None
        was, m.springing = m.springing, False  # what a specialty does sets nothing more off
        try:
            fire_specialty(m, st, gh, th, "takes_damage", trig=np.where(dh != th, dh, -1), drv=drv)
            o = dh != th
            fire_specialty(m, st, gh[o], dh[o], "deals_damage", trig=th[o], rival=th[o])
        finally:
            m.springing = was


def spin_out(m: Match, st: State, g, t, causers: np.ndarray) -> None:
    """Rulebook "Spin-Out", all six: equips and hand discarded, nerfs back to
    their owners' discards, the top distance card under the deck, driver and
    co-pilot swap, immune until its next turn; a trophy to each of `causers`
    (rules.spin_out_trophies: the final blow's dealer, self included). Ours: the new driver starts at full
    tire health (and so does the spun-out one, now co-pilot), and the hand is
    refilled to three at once."""
    rules = m.tables.rules
    P = st.tire.shape[1]
    for e in range(st.equip.shape[2]):
        card = st.equip[g, t, e]
        on = card >= 0
        st.discard[g[on], t[on], card[on]] += 1
    st.equip[g, t] = -1
    st.equip_left[g, t] = 0
    st.shield[g, t] = 0
    st.discard[g, t] += st.hand[g, t]
    st.hand[g, t] = 0
    for s in range(st.nerf.shape[2]):
        card, owner = st.nerf[g, t, s], st.nerf_owner[g, t, s]
        on = card >= 0
        st.discard[g[on], owner[on], card[on]] += 1
    st.nerf[g, t] = -1
    st.nerf_owner[g, t] = -1
    st.nerf_left[g, t] = 0
    discard_top(m, st, g, t, rules.spin_out_discard, "spin-out")
    d, c = st.driver[g, t].copy(), st.co_pilot[g, t].copy()
    st.driver[g, t], st.co_pilot[g, t] = c, d
    st.tire[g, t] = rules.tire_health
    st.co_tire[g, t] = rules.tire_health
    st.immune[g, t] = True
    st.spin_outs[g, t] += 1
    st.hurt_by[g, t] = False
    for who in range(P):
        rows = causers[:, who]
        gw = g[rows]
        give = np.minimum(st.pool[gw], rules.spin_out_trophy)
        st.trophies[gw, who] += give
        st.trophies_won[gw, who] += give
        st.pool[gw] -= give
        st.spins_caused[gw, who] += 1
    names = m.tables.drivers.names
    m.say(
        g,
        lambda j: (
            f"    seat {t[j]} SPINS OUT: {names[c[j]]} takes the wheel; trophies to seat(s) "
            + ", ".join(str(w) for w in np.flatnonzero(causers[j]))
        ),
    )
    refill(m, st, g, t)


def heal(m: Match, st: State, g, p, amount, depth: int) -> None:
    full = m.tables.rules.tire_health
    gained = np.minimum(amount, full - st.tire[g, p]).astype(np.int8)
    st.tire[g, p] += gained
    h = gained > 0
    gh, ph, gn = g[h], p[h], gained[h]
    m.say(gh, lambda j: f"    seat {ph[j]} heals {gn[j]}: tire health {st.tire[gh[j], ph[j]]}")
    if depth == 0:
        healed = gained > 0
        spring(m, st, g[healed], p[healed], "heals")


# --- the other instant ops ------------------------------------------------------------


def draw_distance(m: Match, st: State, g, p, depth: int) -> None:
    """Draw one distance card; a drawn card sets off draws_distance traps and specialties."""
    got = draw_distance_cards(m, st, g, p)
    if depth == 0 and got.any():
        spring(m, st, g[got], p[got], "draws_distance")
        fire_specialty(m, st, g[got], p[got], "draws_distance", trig=np.full(got.sum(), -1))


def steal(m: Match, st: State, g, p, t, amount) -> None:
    """Take `amount` random cards from t's hand into p's: they are p's now
    (FAQ); t draws back up to the hand size. p discards down to it once the
    card, trap or specialty that stole is done (discard_down)."""
    for i in range(int(amount.max(initial=0))):
        r = np.flatnonzero(i < amount)  # the games still stealing (not those another game's amount keeps in the loop)
        gr, tr = g[r], t[r]
        hand = st.hand[gr, tr]
        k = chance.draw_one(m.streams.key(gr, "steal: card taken", tr), hand, np.ones(len(r), bool))
        st.hand[gr, tr] = hand
        ok = k >= 0
        gk, pk, tk, kk = gr[ok], p[r][ok], tr[ok], k[ok]
        st.hand[gk, pk, kk] += 1
        st.stolen_in[gk, pk, kk] += 1
        st.stolen_out[gk, tk, kk] += 1
        m.say(gk, lambda j: f"    seat {pk[j]} steals {m.card_name(kk[j])} from seat {tk[j]}")
    refill(m, st, g, t)


def swap_top(m: Match, st: State, g, p, t) -> None:
    """Swap the top distance cards, if the player wants to (the bot: when it
    gains by it; a noisy bot at random)."""
    hp, ht = st.height[g, p], st.height[g, t]
    both = (hp > 0) & (ht > 0)
    mine = st.stack[g, p, np.maximum(hp - 1, 0)]
    theirs = st.stack[g, t, np.maximum(ht - 1, 0)]
    q = st.bots[g, p]
    noise = m.bots.noise[q]
    gain = m.values[np.maximum(theirs, 0)] - m.values[np.maximum(mine, 0)]
    u = chance.uniform(m.streams.key(g, "noise: swap top cards", p), 2)
    want = np.where(u[:, 0] < noise, u[:, 1] < 0.5, gain > 0)
    do = both & want
    gd, pd, td = g[do], p[do], t[do]
    st.stack[gd, pd, hp[do] - 1] = theirs[do]
    st.stack[gd, td, ht[do] - 1] = mine[do]
    m.say(gd, lambda j: f"    seat {pd[j]} swaps its top distance card with seat {td[j]}'s")


def remove_equip(m: Match, st: State, g, p, t, amount) -> None:
    """Discard up to `amount` equips from t's car: p picks the ones worth most."""
    for i in range(int(amount.max(initial=0))):
        eq = st.equip[g, t]
        value = m.bots.card_value[st.bots[g, p][:, None], np.maximum(eq, 0)]
        value = np.where(eq >= 0, value, -np.inf)
        rows = (i < amount) & (eq >= 0).any(axis=1)
        gr, tr = g[rows], t[rows]
        e = value[rows].argmax(axis=1)
        card = st.equip[gr, tr, e]
        st.discard[gr, tr, card] += 1
        st.equip[gr, tr, e] = -1
        st.equip_left[gr, tr, e] = 0
        st.shield[gr, tr, e] = 0
        m.say(gr, lambda j: f"    seat {tr[j]}'s {m.card_name(card[j])} is removed")


def remove_nerf(m: Match, st: State, g, p, amount) -> None:
    """Send up to `amount` nerfs on p's car back to their owners' discards."""
    for i in range(int(amount.max(initial=0))):
        ne = st.nerf[g, p]
        rows = (i < amount) & (ne >= 0).any(axis=1)
        gr, pr = g[rows], p[rows]
        s = (ne[rows] >= 0).argmax(axis=1)
        card, owner = st.nerf[gr, pr, s], st.nerf_owner[gr, pr, s]
        st.discard[gr, owner, card] += 1
        st.nerf[gr, pr, s] = -1
        st.nerf_owner[gr, pr, s] = -1
        st.nerf_left[gr, pr, s] = 0
        m.say(gr, lambda j: f"    seat {pr[j]} sends {m.card_name(card[j])} back to seat {owner[j]}")


# --- traps, specialties, cancels --------------------------------------------------------


def spring(m: Match, st: State, g, who, trigger: str) -> None:
    """Player `who` did what `trigger` says: every trap waiting for it springs
    on them (its owner's own traps too), resolves, and is discarded; its
    owner's `trap_sprung` specialty follows. Immune players set off nothing."""
    if len(g) == 0:
        return
    if m.deferred is not None:  # a card is resolving: its traps spring after it (docs/rules.md)
        m.deferred.append((g.copy(), np.asarray(who).copy(), trigger))
        return
    c = m.tables.cards
    code = TRIGGER[trigger]
    waiting = st.trap[g]  # (n, S): the slots that may fire, found once (most events find none)
    slots = np.flatnonzero(((waiting >= 0) & (c.trigger[np.maximum(waiting, 0)] == code)).any(axis=0))
    for s in slots:
        card = st.trap[g, s]  # read again: a trap sprung before may have spun `who` out (immune now)
        fire = (card >= 0) & (c.trigger[np.maximum(card, 0)] == code) & ~st.immune[g, who]
        if not fire.any():
            continue
        gf, wf, kf = g[fire], who[fire], card[fire].astype(np.int64)
        owner = st.trap_owner[gf, s].astype(np.int64)
        st.trap[gf, s] = -1
        st.trap_owner[gf, s] = -1
        st.trap_left[gf, s] = 0
        st.discard[gf, owner, kf] += 1
        st.traps_sprung[gf, wf] += 1
        m.say(gf, lambda j: f"    seat {wf[j]} springs seat {owner[j]}'s trap {m.card_name(kf[j])}")
        rival = choose_rival(m, st, gf, owner)
        driving = st.driver[gf, owner].copy()  # the specialty of the driver when the trap went off
        m.springing = True
        try:
            resolve_card(m, st, gf, owner, kf, rival, wf, depth=1)
        finally:
            m.springing = False
        drv = driving if m.tables.rules.specialty_of == "event_driver" else None
        fire_specialty(m, st, gf, owner, "trap_sprung", trig=wf, drv=drv)
        discard_down(m, st, gf, owner)  # what the trap stole (Pickpocket, Bait)


def resolve_then_spring(m: Match, st: State, g, p, k, rival, avoided) -> None:
    """Card k played by p resolves whole; the traps it set off on the way spring
    after it, in the order they were set off."""
    m.deferred = []
    try:
        resolve_card(m, st, g, p, k, rival, np.full(len(g), -1), 0, avoided)
    finally:
        pending, m.deferred = m.deferred, None
    for gs, who, trigger in pending:
        spring(m, st, gs, who, trigger)


def fire_specialty(m: Match, st: State, g, p, when: str, trig, rival=None, drv=None) -> None:
    """Player p's active driver's specialty, where its condition is `when`
    (or `drv`'s, the driver who was active at the event). Its effect resolves
    at depth 1."""
    if len(g) == 0:
        return
    d = m.tables.drivers
    drv = st.driver[g, p] if drv is None else drv
    rows = d.when[drv] == WHEN[when]
    if not rows.any():
        return
    g, p, drv, trig = g[rows], p[rows], drv[rows], trig[rows]
    rival = choose_rival(m, st, g, p) if rival is None else rival[rows]
    # one that changes nothing (a heal at full tire health, a hit on nobody): the trace says no more
    # than the game does
    idle = np.zeros(len(g), bool)
    sc = Scene(m, st, g, p) if np.isin(d.op[drv], [OP[name] for name in MAY_IDLE]).any() else None
    for one in np.unique(drv):
        r = drv == one
        op = int(d.op[one])
        if OPS[op] == "heal":
            idle[r] = st.tire[g[r], p[r]] >= m.tables.rules.tire_health
        elif OPS[op] in MAY_IDLE:
            idle[r] = ~affected(sc, op, int(d.target[one]), int(d.amount[one]), rival, trig)[r].any(axis=1)
    m.say(g, lambda j: None if idle[j] else f"    seat {p[j]}'s specialty ({d.names[drv[j]]}) acts")
    for code in np.unique(d.op[drv]):
        r = d.op[drv] == code
        target = d.target[drv[r]]
        apply_op(
            m,
            st,
            int(code),
            g[r],
            p[r],
            target,
            d.amount[drv[r]],
            rival[r],
            trig[r],
            1,
            np.zeros((r.sum(), st.tire.shape[1]), bool),
        )
    discard_down(m, st, g, p)  # what it drew or stole (Racecraft, Sticky Fingers)


def victims(m: Match, st: State, g, p, k, rival) -> np.ndarray:
    """(n, P) bool: the rivals card k (played by p) would hurt: a nerf's car, or
    the targets of its harmful effects."""
    c = m.tables.cards
    P = st.tire.shape[1]
    out = np.zeros((len(g), P), bool)
    is_nerf = c.type[k] == TYPE["nerf"]
    out[is_nerf] = np.arange(P)[None, :] == rival[is_nerf, None]
    for slot in range(c.op.shape[1]):
        harm = m.harmful[k, slot] & ~is_nerf
        if harm.any():
            hit = targets(m, st, g[harm], p[harm], c.target[k[harm], slot], rival[harm], np.full(harm.sum(), -1))
            out[harm] |= hit
    out[np.arange(len(g)), p] = False
    return out & ~st.immune[g]


def answer(m: Match, st: State, g, p, k, rival) -> tuple[np.ndarray, np.ndarray]:
    """The rivals card k would hurt may answer it with an anytime cancel from
    hand, in turn order from the next player (each bot by its `cancel` chance):
    `replace` stops the card for everyone (no more answers), `avoid` only for
    the one who plays it. The answering player draws back up to three.
    Returns (replaced (n,), avoided (n, P))."""
    c = m.tables.cards
    P = st.tire.shape[1]
    n = len(g)
    replaced = np.zeros(n, bool)
    avoided = np.zeros((n, P), bool)
    hurt = victims(m, st, g, p, k, rival)
    is_cancel = c.cancels >= 0
    for off in range(1, P):
        t = (p + off) % P
        hand = st.hand[g, t]
        holds = (hand[:, is_cancel] > 0).any(axis=1)
        go = hurt[np.arange(n), t] & holds & ~replaced  # the rivals who could answer: each draws its chance
        ask = np.flatnonzero(go)
        u = chance.uniform(m.streams.key(g[ask], "noise: answer or not", t[ask]))
        go[ask] = u < m.bots.cancel[st.bots[g[ask], t[ask]]]
        if not go.any():
            continue
        gg, tt = g[go], t[go]
        u = chance.uniform(m.streams.key(gg, "noise: which cancel", tt), len(c.ids))
        pref = np.where(c.cancels == REPLACE, 2.0, 1.0)[None, :] + u
        card = np.where((hand[go] > 0) & is_cancel[None, :], pref, -np.inf).argmax(axis=1)
        st.hand[gg, tt, card] -= 1
        st.discard[gg, tt, card] += 1
        st.played[gg, tt, card] += 1
        st.cancels[gg, tt] += 1
        if m.events is not None:
            m.events.add("play", gg, tt, card, st.turn[gg].copy())
        rep = c.cancels[card] == REPLACE
        idx = np.flatnonzero(go)
        replaced[idx[rep]] = True
        avoided[idx[~rep], tt[~rep]] = True
        pp, kk = p[go], k[go]
        m.say(
            gg,
            lambda j: (
                f"    seat {tt[j]} answers with {m.card_name(card[j])}: "
                + ("replaces" if rep[j] else "avoids")
                + f" seat {pp[j]}'s {m.card_name(kk[j])}"
            ),
        )
        refill(m, st, gg, tt)  # "if you play an anytime action, draw a card", before it resolves
        more = c.n_effects[card] > 0
        if more.any():
            resolve_card(m, st, gg[more], tt[more], card[more], pp[more], pp[more], depth=1)
            discard_down(m, st, gg[more], tt[more])
    return replaced, avoided
