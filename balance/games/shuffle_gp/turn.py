"""A turn of Shuffle Grand Prix for a batch of games (rulebook "Play"), and
the loop of turns around it. In every running game the current seat takes
its turn: `g` (n,) the games, `p` (n,) the seat there.

A turn: its start (immunity ends; a turn to skip skips all four phases; a
`turn_start` specialty acts), 1 draw a distance card, 2 rotate the turn
trackers (the timed cards this player put out: equips on its car, nerfs on
rivals' cars, traps it set; each loses a turn and leaves at 0), 3 one ability
play (a card, a pit stop, discard and draw, or pass; a card played is
replaced before it resolves, and its own draws are discarded down to three
after), then every player's
anytime cards (rules.anytime_cards), 4 spend trophies (one to
swap driver and co-pilot, two for one extra play). The race ends when the
distance deck and the bottom pile are empty after a turn.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import NamedTuple

import numpy as np

from .. import chance
from ..recorder import hands_text
from .aim import choose_rival, useful_rivals
from .bots import FEATURES
from .effects import answer, draw_distance, fire_specialty, resolve_then_spring, spring
from .match import LOP, TYPE, Match
from .moves import best_swap, discard_top, draw_cards, modifier, refill
from .state import PLAYS_MOST, State
from .worth import NOISE_SPREAD, discard_down, hand_worth, play_worth, worst_in_hand

PIT, REDRAW, PASS = 0, 1, 2  # the options after the K cards: column K + these


def trackers_used(st: State, g, p) -> np.ndarray:
    """(n,) cards with a turn symbol out that player p set: timed equips on its
    car, timed nerfs it put on other cars, timed traps it set."""
    used = (st.equip_left[g, p] > 0).sum(axis=1)
    used += ((st.nerf_owner[g] == p[:, None, None]) & (st.nerf_left[g] > 0)).sum(axis=(1, 2))
    used += ((st.trap_owner[g] == p[:, None]) & (st.trap_left[g] > 0)).sum(axis=1)
    return used


def pit_stop_cost(m: Match, st: State, g, p) -> np.ndarray:
    """(n,) what a pit stop costs player p's bot in card worth: the top distance
    cards it discards (rules.pit_stop_discard), each worth the bot's `speed`
    per average distance card (a Snail on top costs less than a Cheetah)."""
    h = st.height[g, p].astype(np.int64)
    lost = np.zeros(len(g), np.float32)
    for i in range(m.tables.rules.pit_stop_discard):
        at = h - 1 - i
        kind = st.stack[g, p, np.maximum(at, 0)]
        lost += np.where(at >= 0, m.values[np.maximum(kind, 0)], 0)
    return m.bots.weights[st.bots[g, p], FEATURES.index("speed")] * lost / m.mean_value


class Options(NamedTuple):
    """A player's choices of its ability play: each card kind, then pit stop,
    discard-and-draw, pass; and the card worths they were priced with, which
    the choice made then acts on (the card a discard-and-draw throws away, the
    equips a pit stop swaps)."""

    legal: np.ndarray  # (n, K + 3) bool
    score: np.ndarray  # (n, K + 3) float32, -inf where illegal
    worth: np.ndarray  # (n, K) float32: worth.hand_worth


def options(m: Match, st: State, g, p) -> Options:
    """Player p's legal choices of its ability play and their scores (Options)."""
    c, rules = m.tables.cards, m.tables.rules
    n = len(g)
    hand = st.hand[g, p] > 0
    blocked = modifier(m, st, g, p, "no_ability_play") > 0
    tracker = trackers_used(st, g, p) < rules.turn_trackers
    free_equip = (st.equip[g, p] < 0).any(axis=1)
    free_trap = (st.trap[g] < 0).any(axis=1)
    nerf_room = ((st.nerf[g] < 0).any(axis=2) & ~st.immune[g] & (np.arange(st.tire.shape[1]) != p[:, None])).any(axis=1)
    t = c.type[None, :]
    legal = hand & m.on_turn[None, :]
    legal &= (t == TYPE["anytime"]) | ~blocked[:, None]
    legal &= (t != TYPE["equip"]) | free_equip[:, None]
    legal &= (t != TYPE["trap"]) | free_trap[:, None]
    legal &= (t != TYPE["nerf"]) | nerf_room[:, None]
    legal &= ~m.timed[None, :] | tracker[:, None]
    q = st.bots[g, p]
    value = hand_worth(m, st, g, p)

    held = np.where(hand, value, np.inf)
    is_equip = c.type == TYPE["equip"]
    equipped = st.equip[g, p]
    slot_value = np.where(equipped >= 0, np.take_along_axis(value, np.maximum(equipped, 0).astype(np.int64), 1), np.inf)
    best_hand_equip = np.where(hand & is_equip[None, :], value, -np.inf).max(axis=1)
    pit_ok = (equipped >= 0).any(axis=1) & np.isfinite(best_hand_equip)
    pit = best_hand_equip - slot_value.min(axis=1) - m.bots.pit_stop[q] - pit_stop_cost(m, st, g, p)
    redraw_ok = hand.any(axis=1) & ((st.draw[g, p].sum(axis=1) + st.discard[g, p].sum(axis=1)) > 0)
    redraw = m.bots.redraw[q] - held.min(axis=1)
    legal = np.concatenate([legal, pit_ok[:, None], redraw_ok[:, None], np.ones((n, 1), bool)], axis=1)
    noise = m.bots.noise[q]
    extra = np.stack([pit, redraw, np.zeros(n)], axis=1)
    extra = np.where(np.isfinite(extra), extra, 0.0)  # illegal anyway (no equip, empty hand)
    u = chance.uniform(m.streams.key(g, "noise: pit, redraw or pass", p), 3)
    extra = (1 - noise)[:, None] * extra + noise[:, None] * u * NOISE_SPREAD
    score = np.concatenate([value, extra], axis=1).astype(np.float32)
    return Options(legal, np.where(legal, score, -np.inf), value)


def anytime_window(m: Match, st: State, g, first) -> None:
    """rules.anytime_cards "any_time": "ANYTIME - These cards can be played at
    any time" and "If you play an anytime action, draw a card". After the
    turn's ability play, every player in turn order from `first` (the current
    player) may play anytime cards with effects from hand, each without using
    a play, and draws back up to three after each; a player plays one while
    one in hand is worth its bot's `anytime` now (worth.play_worth;
    docs/rules.md). Cancels answer cards as they are played (effects.answer)."""
    cols = m.anytime_cols
    if len(cols) == 0 or len(g) == 0:
        return
    P = st.tire.shape[1]
    for off in range(P):
        t = (first + off) % P
        rows = (st.hand[g, t][:, cols] > 0).any(axis=1)
        gg, tt = g[rows], t[rows]
        for _ in range(m.tables.rules.hand_size):
            held = st.hand[gg, tt][:, cols] > 0  # (n', C)
            holds = held.any(axis=1)
            if not holds.any():
                break
            gg, tt, held = gg[holds], tt[holds], held[holds]
            q = st.bots[gg, tt]
            noise = m.bots.noise[q]
            u = chance.uniform(m.streams.key(gg, "noise: anytime play", tt), len(cols) + 1) * NOISE_SPREAD
            score = (1 - noise)[:, None] * play_worth(m, st, gg, tt, cols) + noise[:, None] * u[:, :-1]
            score = np.where(held, score, -np.inf)
            hold = (1 - noise) * m.bots.anytime[q] + noise * u[:, -1]
            i = score.argmax(axis=1)
            go = score[np.arange(len(gg)), i] > hold
            if not go.any():
                break
            gg, tt = gg[go], tt[go]
            st.anytime_plays[gg, tt] += 1
            play_card(m, st, gg, tt, cols[i[go]], aside=True)


def play_phase(m: Match, st: State, g, p, bought: bool = False) -> None:
    """Ability plays while plays are left: first the turn's own (`plays_left`:
    a card, a pit stop, a discard-and-draw or a pass), then those that must be
    ability cards (`card_plays`: Second Wind's "you may play one more ability
    card", a card or a pass; `bought`: the two trophies' "extra ability card",
    a card, bought only with one to play). More than PLAYS_MOST are never made."""
    for _ in range(PLAYS_MOST):
        free = st.plays_left[g] > 0
        cards_only = ~free & (st.card_plays[g] > 0)
        go = free | cards_only
        if not go.any():
            break
        st.plays_left[g[free]] -= 1
        st.card_plays[g[cards_only]] -= 1
        play_one(m, st, g[go], p[go], cards_only[go], bought)
    st.plays_left[g] = 0
    st.card_plays[g] = 0


def play_one(m: Match, st: State, g, p, cards_only: np.ndarray, bought: bool = False) -> None:
    """One ability play in each game; `cards_only` (n,) bool: an extra play,
    an ability card or a pass (`bought`: an ability card; a pass only where
    none can be played, a card played before having taken it)."""
    K = len(m.tables.cards.ids)
    opt = options(m, st, g, p)
    score = opt.score
    if cards_only.any():
        score[cards_only, K + PIT] = -np.inf
        score[cards_only, K + REDRAW] = -np.inf
        if bought:
            score[cards_only, K + PASS] = np.where(np.isfinite(score[cards_only, :K]).any(axis=1), -np.inf, 0.0)
    choice = score.argmax(axis=1)
    # a pass wins a tie (a card that would change nothing is worth what a pass is: keep it)
    choice = np.where(score[:, K + PASS] >= score.max(axis=1), K + PASS, choice)
    cards = choice < K
    play_card(m, st, g[cards], p[cards], choice[cards])
    pit = choice == K + PIT
    pit_stop(m, st, g[pit], p[pit], opt.worth[pit])
    red = choice == K + REDRAW
    redraw(m, st, g[red], p[red], opt.worth[red])
    pas = choice == K + PASS
    m.say(g[pas], lambda j: f"  seat {p[pas][j]} passes")


def play_card(m: Match, st: State, g, p, k, aside: bool = False) -> None:
    """Play card k from hand (rulebook "Abilities") in the rulebook's order:
    play it, draw a card ("if you play a card during your turn, draw a card";
    "if you play an anytime action, draw a card"), then resolve it: its own
    draws come on top of a full hand and end with "discard down to three", and
    a steal that makes four cards discards one (docs/rules.md, "Drawing").
    `aside`: an anytime card played outside the turn's play (anytime_window)."""
    if len(g) == 0:
        return
    c = m.tables.cards
    k = k.astype(np.int64)
    st.hand[g, p, k] -= 1
    st.played[g, p, k] += 1
    if m.events is not None:
        m.events.add("play", g, p, k, st.turn[g].copy())
    when = ", anytime (not a turn's play)" if aside else ""
    m.say(g, lambda j: f"  seat {p[j]} plays {m.card_name(k[j])} ({c.ids[k[j]]}){when}")
    refill(m, st, g, p)
    kind = c.type[k]
    instant = (kind == TYPE["action"]) | (kind == TYPE["anytime"])
    if instant.any():
        gi, pi, ki = g[instant], p[instant], k[instant]
        rival = choose_rival(m, st, gi, pi, useful=useful_rivals(m, st, gi, pi, ki))
        # a swap of top distance cards aims where it gains most (the random bot keeps its uniform pick)
        aim = m.swaps[ki] & (m.bots.noise[st.bots[gi, pi]] < 1)
        if aim.any():
            best = best_swap(m, st, gi[aim], pi[aim])
            rival[aim] = np.where(best >= 0, best, rival[aim])
        replaced, avoided = answer(m, st, gi, pi, ki, rival)
        go = ~replaced
        resolve_then_spring(m, st, gi[go], pi[go], ki[go], rival[go], avoided[go])
        st.discard[gi, pi, ki] += 1
        # a replaced action "won't affect anyone": it springs no trap and fires no specialty
        act = (kind[instant] == TYPE["action"]) & go
        spring(m, st, gi[act], pi[act], "plays_action")
        fire_specialty(m, st, gi[act], pi[act], "plays_action", trig=np.full(act.sum(), -1))
    eq = kind == TYPE["equip"]
    if eq.any():
        ge, pe, ke = g[eq], p[eq], k[eq]
        slot = (st.equip[ge, pe] < 0).argmax(axis=1)
        put_equip(m, st, ge, pe, slot, ke)
        spring(m, st, ge, pe, "plays_equip")
    tr = kind == TYPE["trap"]
    if tr.any():
        gt, pt, kt = g[tr], p[tr], k[tr]
        slot = (st.trap[gt] < 0).argmax(axis=1)
        st.trap[gt, slot] = kt
        st.trap_owner[gt, slot] = pt
        st.trap_left[gt, slot] = c.turns[kt]
    ne = kind == TYPE["nerf"]
    if ne.any():
        gn, pn, kn = g[ne], p[ne], k[ne]
        rival = choose_rival(m, st, gn, pn, nerf=True)
        replaced, avoided = answer(m, st, gn, pn, kn, rival)
        lands = ~replaced & ~avoided[np.arange(len(gn)), rival] & (rival >= 0)
        gl, pl, kl, rl = gn[lands], pn[lands], kn[lands], rival[lands]
        slot = (st.nerf[gl, rl] < 0).argmax(axis=1)
        st.nerf[gl, rl, slot] = kl
        st.nerf_owner[gl, rl, slot] = pl
        st.nerf_left[gl, rl, slot] = c.turns[kl]
        m.say(gl, lambda j: f"    {m.card_name(kl[j])} sits on seat {rl[j]}'s car")
        off = ~lands
        st.discard[gn[off], pn[off], kn[off]] += 1
    # "...then discard down to three" (a card's own draws, a steal): once the card and what it set off are done
    discard_down(m, st, g, p)
    refill(m, st, g, p)  # "you will always have three cards": after a spin-out, say, or a rival's steal


def put_equip(m: Match, st: State, g, p, slot, k) -> None:
    st.equip[g, p, slot] = k
    st.equip_left[g, p, slot] = m.tables.cards.turns[k]
    st.shield[g, p, slot] = m.lasting[k, LOP["shield"]]


def pit_stop(m: Match, st: State, g, p, worth: np.ndarray | None = None) -> None:
    """ "Take a pit stop. Swap an equipped card with one in your hand, but
    discard your top distance card": the equip worth least on the car for the
    equip worth most in hand, by `worth` (n, K), the worths the choice was
    priced with (default: worth.hand_worth now). The card swapped in is
    equipped: it springs `plays_equip` traps ("the next player to equip a
    card") where rules.pit_stop_equips, then the `pit_stop` ones."""
    if len(g) == 0:
        return
    c = m.tables.cards
    value = hand_worth(m, st, g, p) if worth is None else worth
    equipped = st.equip[g, p]
    slot_value = np.where(equipped >= 0, np.take_along_axis(value, np.maximum(equipped, 0).astype(np.int64), 1), np.inf)
    slot = slot_value.argmin(axis=1)
    new = np.where((st.hand[g, p] > 0) & (c.type == TYPE["equip"])[None, :], value, -np.inf).argmax(axis=1)
    old = equipped[np.arange(len(g)), slot].astype(np.int64)
    st.hand[g, p, new] -= 1
    st.hand[g, p, old] += 1
    put_equip(m, st, g, p, slot, new)
    st.pit_stops[g, p] += 1
    m.say(g, lambda j: f"  seat {p[j]} pits: {m.card_name(old[j])} off, {m.card_name(new[j])} on")
    discard_top(m, st, g, p, m.tables.rules.pit_stop_discard, "pit stop")
    if m.tables.rules.pit_stop_equips:
        spring(m, st, g, p, "plays_equip")
    spring(m, st, g, p, "pit_stop")


def redraw(m: Match, st: State, g, p, worth: np.ndarray | None = None) -> None:
    """ "Discard a card from your hand and draw one from your ability deck":
    the card worth least by `worth` (n, K), the worths the choice was priced
    with (default: worth.hand_worth now)."""
    if len(g) == 0:
        return
    k = worst_in_hand(st, g, p, hand_worth(m, st, g, p) if worth is None else worth)
    st.hand[g, p, k] -= 1
    st.discard[g, p, k] += 1
    m.say(g, lambda j: f"  seat {p[j]} discards {m.card_name(k[j])} and draws")
    draw_cards(m, st, g, p, np.ones(len(g), np.int64))


def rotate(m: Match, st: State, g, p) -> None:
    """Phase 2: "rotate a turn tracker if you have any ability cards with a
    turn symbol active". The trackers are the player's own (Setup 1), so p
    rotates the ones of every timed card it put out: equips on its car, nerfs
    it put on other cars, traps it set. Each loses a turn; at 0 it goes to its
    owner's discard. A nerf of 1 turn so lasts through its victim's next turn,
    the one it is meant to block, and leaves on its owner's next turn
    (docs/rules.md, "How turn symbols count")."""
    left = st.equip_left[g, p]
    timed = left > 0
    left = left - timed
    gone = timed & (left == 0)
    st.equip_left[g, p] = left
    for e in np.flatnonzero(gone.any(axis=0)):
        r = gone[:, e]
        gr, pr = g[r], p[r]
        card = st.equip[gr, pr, e]
        st.discard[gr, pr, card] += 1
        st.equip[gr, pr, e] = -1
        st.shield[gr, pr, e] = 0
        m.say(gr, lambda j: f"    seat {pr[j]}'s {m.card_name(card[j])} runs out")
    mine = (st.nerf_owner[g] == p[:, None, None]) & (st.nerf_left[g] > 0)  # (n, P, N): on every car
    left = st.nerf_left[g] - mine.astype(np.int8)
    st.nerf_left[g] = left
    gone = mine & (left == 0)
    for car, s in np.argwhere(gone.any(axis=0)):  # the (car, slot) places where some nerf runs out
        r = gone[:, car, s]
        gr, pr = g[r], p[r]
        card = st.nerf[gr, car, s]
        st.discard[gr, pr, card] += 1
        st.nerf[gr, car, s] = -1
        st.nerf_owner[gr, car, s] = -1
        m.say(gr, lambda j, car=car, card=card: f"    {m.card_name(card[j])} on seat {car}'s car runs out")
    mine = (st.trap_owner[g] == p[:, None]) & (st.trap_left[g] > 0)
    st.trap_left[g] -= mine.astype(np.int8)
    out = mine & (st.trap_left[g] == 0)
    for s in np.flatnonzero(out.any(axis=0)):
        r = out[:, s]
        gr, pr = g[r], p[r]
        card = st.trap[gr, s]
        st.discard[gr, pr, card] += 1
        st.trap[gr, s] = -1
        st.trap_owner[gr, s] = -1


def spend_trophies(m: Match, st: State, g, p) -> None:
    """Phase 4: a trophy to swap driver and co-pilot (when the driver is worn
    down to the bot's `swap_below` and the co-pilot is fresher), two for an
    extra play (when the best card in hand is worth the bot's `extra_play`).
    A noisy bot decides at random. Spent trophies go back to the centre."""
    rules = m.tables.rules
    q = st.bots[g, p]
    noise = m.bots.noise[q]
    u = chance.uniform(m.streams.key(g, "noise: spend trophies", p), 3)
    random = u[:, 0] < noise
    afford = st.trophies[g, p] >= rules.trophy_swap
    wants = (st.tire[g, p] <= m.bots.swap_below[q]) & (st.co_tire[g, p] > st.tire[g, p])
    swap = afford & np.where(random, u[:, 1] < 0.5, wants)
    gs, ps = g[swap], p[swap]
    st.driver[gs, ps], st.co_pilot[gs, ps] = st.co_pilot[gs, ps].copy(), st.driver[gs, ps].copy()
    st.tire[gs, ps], st.co_tire[gs, ps] = st.co_tire[gs, ps].copy(), st.tire[gs, ps].copy()
    st.hurt_by[gs, ps] = False
    pay(st, gs, ps, rules.trophy_swap)
    st.swaps[gs, ps] += 1
    m.say(gs, lambda j: f"  seat {ps[j]} spends a trophy: {m.tables.drivers.names[st.driver[gs[j], ps[j]]]} drives")

    afford = np.flatnonzero(st.trophies[g, p] >= rules.trophy_extra_play)  # the others have no choice to weigh
    K = len(m.tables.cards.ids)
    legal, score, _ = options(m, st, g[afford], p[afford])
    best = np.where(legal[:, :K], score[:, :K], -np.inf).max(axis=1)
    # only with an ability card to play: the extra play is "an extra ability card"
    extra = np.isfinite(best) & np.where(random[afford], u[afford, 2] < 0.5, best >= m.bots.extra_play[q[afford]])
    ge, pe = g[afford[extra]], p[afford[extra]]
    pay(st, ge, pe, rules.trophy_extra_play)
    st.extra_plays[ge, pe] += 1
    st.card_plays[ge] += 1
    m.say(ge, lambda j: f"  seat {pe[j]} spends two trophies on an extra play")
    play_phase(m, st, ge, pe, bought=True)


def pay(st: State, g, p, cost: int) -> None:
    st.trophies[g, p] -= cost
    st.trophies_spent[g, p] += cost
    st.pool[g] += cost


def take_turn(m: Match, st: State, g, p) -> None:
    rules = m.tables.rules
    st.immune[g, p] = False
    st.turns_taken[g, p] += 1
    skipping = st.skip[g, p] > 0
    gs, ps = g[skipping], p[skipping]
    st.skip[gs, ps] -= 1
    st.turns_skipped[gs, ps] += 1
    m.say(gs, lambda j: f"Turn {st.turn[gs[j]] + 1}: seat {ps[j]} skips its turn")
    g, p = g[~skipping], p[~skipping]
    m.say(
        g,
        lambda j: (
            f"Turn {st.turn[g[j]] + 1}: seat {p[j]} ({m.tables.drivers.names[st.driver[g[j], p[j]]]} driving, "
            f"tire health {st.tire[g[j], p[j]]}, {st.trophies[g[j], p[j]]} trophies)"
        ),
    )
    m.detail(g, lambda j: hands_text(st.hand[g[j]], m.tables.cards.names))
    fire_specialty(m, st, g, p, "turn_start", trig=np.full(len(g), -1))
    for _ in range(rules.distance_per_turn):
        draw_distance(m, st, g, p, 0)
    rotate(m, st, g, p)
    st.plays_left[g] = rules.plays_per_turn
    play_phase(m, st, g, p)
    anytime_window(m, st, g, p)
    play_phase(m, st, g, p)  # the plays an anytime card's extra_play gave
    spend_trophies(m, st, g, p)
    refill(m, st, g, p)


def play_game(m: Match, st: State, after_turn: Callable[[State, np.ndarray, np.ndarray], None] | None = None) -> State:
    """Turns until the distance deck and bottom pile are empty after a turn (or the turn cap)."""
    rules = m.tables.rules
    P = st.tire.shape[1]
    while st.running.any():
        m.streams.next_step()  # a step is a turn: every running game takes one (setup drew at step 0)
        g = np.flatnonzero(st.running)
        p = st.current[g].astype(np.int64)
        take_turn(m, st, g, p)
        if after_turn is not None:
            after_turn(st, g, p)
        left = st.deck[g].sum(axis=1) + st.bottom[g].sum(axis=1)
        st.turn[g] += 1
        st.current[g] = (p + 1) % P
        st.running[g] = (left > 0) & (st.turn[g] < rules.max_turns)
        m.say(g[left == 0], lambda j: "The distance deck is empty: the race is over.")
    return st
