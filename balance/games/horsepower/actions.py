"""Moving cards between piles, and the bots' valuations that choose which.

Sub-batch convention as in effects.py: `idx` (n,) games, `actor` (n,) seats.
"""

from __future__ import annotations

import numpy as np

from .. import chance
from ..recorder import cards_text
from ..rows import put_rows, row_any, take_rows
from .bots import FEATURES, OWN_PATH, SITUATIONS, VARIANTS
from .context import Ctx
from .effects import situation, targets
from .state import State, flat


def card_values(
    ctx: Ctx,
    st: State,
    idx: np.ndarray,
    actor: np.ndarray,
    acquire: bool = False,
    cards: np.ndarray | None = None,
    purpose: str = "noise: card values",
) -> np.ndarray:
    """What cards are worth to the actor's bot now, with its noise: (n, K) for
    every card, or (n, J) for the given card indices `cards` ((n, J), or (J,) for every row).

    Coins fade lap by lap towards the profile's `late_coins`; when acquiring,
    a card that scraps itself keeps only part of its value. `purpose` names
    the decision the noise is drawn for (chance.Streams.key); each card's
    noise is keyed by the card, whichever others are asked about.
    """
    q, row = _profile_row(ctx, st, idx, actor)
    table = ctx.values.acquire if acquire else ctx.values.own
    if cards is None:
        value = table[row]
    elif cards.ndim == 1:  # the same cards in every row: gather the columns first, then whole rows
        value = table[:, cards][row]
    else:
        value = table[row[:, None], cards]
    keys = ctx.streams.key(idx, purpose, actor)
    noisy = chance.uniform_at(keys, np.arange(value.shape[1]) if cards is None else cards)
    noisy *= ctx.bots.noise[q][:, None]
    noisy += value  # in place: the same sums as value + noise * u, without two temporaries
    return noisy


def aimless_loss(
    ctx: Ctx, st: State, idx: np.ndarray, actor: np.ndarray, cards: np.ndarray, turn=None
) -> tuple[np.ndarray, np.ndarray]:
    """(n, J) the value each of `cards` (J,) would lose if played now, for lack of
    anyone to hit: its rows aimed at opponents whose target has nobody (or a
    shielded player), or whose hit would change nothing (bots.AIM_KINDS: a Wipe
    Out on players already Wiped Out, Debris from an empty supply, a push back
    at space 0, theft from empty purses); and (n, J) bool: what is left of the
    card is worth nothing (before noise)."""
    bots = ctx.bots
    sit = situation(ctx, st, idx, actor, turn)
    aimless = np.empty((len(idx), len(bots.aims)), np.float64)
    for a, (target, kind) in enumerate(bots.aims):
        victims = targets(ctx, st, idx, actor, target, sit)
        if kind == "not_wiped":
            victims &= ~take_rows(st.wiped, idx)
        elif kind == "supply":
            victims &= (st.supply[idx, ctx.tables.rules.debris_card] > 0)[:, None]
        elif kind == "can_go_back":
            victims &= take_rows(st.pos, idx) > 0
        elif kind == "has_coins":
            victims &= take_rows(st.coins, idx) > 0
        elif kind.startswith("off_my_path:"):  # a Banana the actor would drive into: nobody else is hit
            land = take_rows(st.pos, idx).astype(np.int32) + int(kind.split(":")[1])  # (n, P)
            mine = st.pos[idx, actor].astype(np.int32)[:, None]
            lap_end = ctx.tables.rules.track_length  # past it the Banana is lost, not placed
            victims &= ~((land > mine) & (land <= mine + OWN_PATH) & (land < lap_end))
        aimless[:, a] = ~row_any(victims)
    q, row = _profile_row(ctx, st, idx, actor)
    variant = row % VARIANTS
    # summed in float64 (exact: a few float32 terms) and rounded once, so the loss is the same
    # whatever order a sum runs in (einsum's here, the compiled engine's own)
    aimed = bots.card_aimed[:, :, cards][q, variant].astype(np.float64)
    loss = np.einsum("na,nja->nj", aimless, aimed).astype(np.float32)
    return loss, (loss > 0) & (ctx.values.own[:, cards][row] - loss <= 0)


DRIVE = FEATURES.index("drive")


def banana_cost(
    ctx: Ctx, st: State, idx: np.ndarray, seat: int, cards: np.ndarray, drive: np.ndarray, banana_at: np.ndarray
) -> np.ndarray:
    """(n, J) what playing each of `cards` (J,) costs the seat's bot, in value,
    for the Banana it can see on space `banana_at` (n,) (issue 36): the Drive it
    expects to lose to a Wipe Out with the card played, less that without it,
    one turn ahead. `drive` (n,) is the Drive the seat's cards already give
    this turn, less Slow.

    A hit during the Drive costs the next turn's Drive, a push of self onto
    it this turn's (the Drive Phase reads the Wipe Out); both are taken as
    one turn's Drive: what is played so far plus the roll's mean. So a push
    onto a Banana that the roll would reach anyway costs little (the hit is
    only moved a turn earlier), and a card of Drive costs the odds of a hit
    that it adds. The odds are the plain roll's (bots.roll_at_least)."""
    near = banana_at - st.pos[idx, seat]  # (n,) spaces to it
    live = (near > 0) & ~st.wiped[idx, seat] & ~st.lap_done[idx, seat]
    reach = ctx.bots.roll_at_least
    top = len(reach) - 1
    d = drive.astype(np.int32)
    # one turn's Drive, in value, where it can be lost (0 elsewhere)
    turn = (np.maximum(d, 0) + ctx.bots.mean_roll) * live * ctx.bots.weights[st.bots[idx, seat], DRIVE]
    without = reach[np.clip(near - d, 0, top)]  # (n,) P(hit) as things stand
    add, push = ctx.look.moves[cards].T  # (J,), (J,)
    after = np.clip((near - d)[:, None] - (add + push).astype(np.int32)[None, :], 0, top)
    hit = np.where(push[None, :] >= near[:, None], 1.0, reach[after])  # the push itself lands on or passes it
    return (turn[:, None] * (hit - without[:, None])).astype(np.float32)  # never negative: a move only adds odds


def _profile_row(ctx: Ctx, st: State, idx: np.ndarray, actor: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """(n,) the actor's profile and its row of ctx.values (by profile, lap and
    the variant its situation picks; variant 0 where no profile has situation
    terms, so the built-in bots pay nothing for them)."""
    at = idx * st.bots.shape[1] + actor  # one flat index: cheaper than [idx, actor]
    q = flat(st.bots)[at]
    variant = situation_variants(ctx, st, idx)[np.arange(len(idx)), actor] if ctx.bots.situational else 0
    return q, ctx.values.row(q, flat(st.lap)[at], variant)


def situation_variants(ctx: Ctx, st: State, idx: np.ndarray) -> np.ndarray:
    """(n, P) every seat's variant (bots.VARIANTS) in games `idx`: behind when
    the leader among the others is at least its profile's behind_gap spaces
    ahead, leading when ahead of them all, else level; and whether its coins
    reach its profile's rich_at."""
    L = ctx.tables.rules.track_length
    done = (take_rows(st.lap, idx).astype(np.int32) - 1) * L + take_rows(st.pos, idx)  # (n, P) spaces raced
    q = take_rows(st.bots, idx)
    P = done.shape[1]
    # the best of the others, for every seat: the best and second best of the row
    top2 = np.sort(done, axis=1)[:, -2:] if P > 1 else np.concatenate([done, done], axis=1)
    best_other = np.where(done == top2[:, 1:2], top2[:, 0:1], top2[:, 1:2])
    behind = best_other - done >= ctx.bots.behind_gap[q]
    leading = done > best_other
    situation = np.where(behind, SITUATIONS.index("behind"), np.where(leading, SITUATIONS.index("leading"), 0))
    rich = take_rows(st.coins, idx) >= ctx.bots.rich_at[q]
    return 2 * situation + rich


def card_value_of(ctx: Ctx, st: State, idx: np.ndarray, actor: np.ndarray, card: np.ndarray) -> np.ndarray:
    """(n,) card_values(..., acquire=True)[rows, card]: the value, with noise, of one card per row."""
    q, row = _profile_row(ctx, st, idx, actor)
    return ctx.values.acquire[row, card] + ctx.bots.noise[q] * chance.uniform(
        ctx.streams.key(idx, "noise: card value", actor)
    )


def threshold(ctx: Ctx, st: State, idx: np.ndarray, actor: np.ndarray, base: np.ndarray | float = 0.0) -> np.ndarray:
    """A yes/no decision's bar: the profile's base plus half its noise (so noise 1 is a coin flip)."""
    q = flat(st.bots)[idx * st.bots.shape[1] + actor]
    return np.asarray(base, dtype=np.float32) + 0.5 * ctx.bots.noise[q]


def draw_cards(ctx: Ctx, st: State, idx: np.ndarray, actor: np.ndarray, n: np.ndarray) -> None:
    """Each actor draws n cards into hand; when the Deck runs out the Garage is
    reshuffled into it and the drawing goes on (3.4, 7.2). One actor per game."""
    # only the actors that draw take a key: a draw of none is no draw (chance.py: the rows asked for)
    drawing = np.flatnonzero(n > 0)
    if len(drawing) == 0:
        return
    if len(drawing) < len(idx):
        idx, actor, n = idx[drawing], np.asarray(actor)[drawing], n[drawing]
    at = (idx, actor)
    deck, garage = take_rows(st.deck, at), take_rows(st.garage, at)
    drawn = draw_from(ctx, idx, actor, deck, garage, n, "draw: card effect")
    if ctx.rec.on:
        ctx.rec.detail(idx, lambda j: f"  seat {actor[j]} draws {cards_text(drawn[j], ctx.tables.cards.names)}")
    put_rows(st.deck, at, deck)
    put_rows(st.garage, at, garage)
    put_rows(st.hand, at, take_rows(st.hand, at) + drawn)


def draw_from(
    ctx: Ctx,
    idx: np.ndarray,
    actor: np.ndarray | int,
    deck: np.ndarray,
    garage: np.ndarray,
    n: np.ndarray,
    purpose: str,
) -> np.ndarray:
    """draw_cards on the actors' gathered piles (n, K), changed in place; returns (n, K) the cards drawn.
    `purpose`: the End Phase's new hand and a card's draws are apart, so an extra draw in one turn
    leaves the next hands where they were."""
    return chance.draw_reshuffling(ctx.streams.key(idx, purpose, actor), deck, garage, n)


def reveal_part(ctx: Ctx, st: State, idx: np.ndarray, seat: int | np.ndarray | None) -> np.ndarray:
    """(n,) the top card of each Parts Deck, -1 if none; an empty Parts Deck
    takes the Showroom discard reshuffled (3.1.1). `seat`: whose action reveals
    it (None: the setup)."""
    return reveal_parts(ctx, st, idx, 1, seat)[:, 0]


def reveal_parts(ctx: Ctx, st: State, idx: np.ndarray, count: int, seat: int | np.ndarray | None) -> np.ndarray:
    """(n, count) the top `count` cards of each Parts Deck, one after another
    as reveal_part would (the piles gathered once for all of them). The draws
    are keyed by the seat whose buy, refresh or Auction reveals them, so one
    seat's extra buy does not shift what the next seat's turn reveals."""
    parts = take_rows(st.parts, idx)
    cards = np.empty((len(idx), count), np.int64)
    every = np.ones(len(idx), bool)
    for i in range(count):
        empty = np.flatnonzero(~row_any(parts))
        if len(empty):
            parts[empty] += take_rows(st.showroom_discard, idx[empty])
            st.showroom_discard[idx[empty]] = 0
        cards[:, i] = chance.draw_one(ctx.streams.key(idx, "reveal a part", seat), parts, every)
    put_rows(st.parts, idx, parts)
    return cards


def fill_showroom(ctx: Ctx, st: State, idx: np.ndarray, slots: np.ndarray, seat: int | None) -> None:
    """Reveal a new card into each given empty slot (n,); `seat` whose buy empties it (None: the setup)."""
    st.showroom[idx, slots] = reveal_part(ctx, st, idx, seat)


def scrap_choice(ctx: Ctx, st: State, idx: np.ndarray, actor: np.ndarray, zone: str, count: np.ndarray) -> None:
    """The actor may scrap up to `count` cards from hand, Garage or either: its bot
    scraps its least valued cards while they are below its `scrap_below`."""
    if len(idx) == 0:
        return
    below = ctx.bots.scrap_below[st.bots[idx, actor]]
    # a seat goes on while it scrapped and may scrap more: its own choice, whichever games share its batch
    for step in range(int(count.max())):
        on = np.flatnonzero(step < count)
        idx, actor, count, below = idx[on], actor[on], count[on], below[on]
        hand, garage = take_rows(st.hand, (idx, actor)), take_rows(st.garage, (idx, actor))
        pool = {"hand": hand, "garage": garage, "hand_or_garage": hand + garage}[zone]
        some = np.flatnonzero(row_any(pool))  # a seat with nothing to scrap is done, and draws no noise
        if len(some) == 0:
            return
        idx, actor, count, below, pool = idx[some], actor[some], count[some], below[some], pool[some]
        value = np.where(pool > 0, card_values(ctx, st, idx, actor), np.inf)
        card = value.argmin(axis=1)
        best = value[np.arange(len(idx)), card]
        go = np.isfinite(best) & (best < threshold(ctx, st, idx, actor, below))
        if not np.count_nonzero(go):
            return
        count = np.where(go, count, 0)  # a seat that kept its cards this time is done
        g, p, k = idx[go], actor[go], card[go]
        from_hand = st.hand[g, p, k] > 0 if zone != "garage" else np.zeros(len(g), bool)
        st.hand[g[from_hand], p[from_hand], k[from_hand]] -= 1
        st.garage[g[~from_hand], p[~from_hand], k[~from_hand]] -= 1
        st.scrapyard[g, k] += 1
        st.scrapped[g, p, k] += 1
        if ctx.events is not None:
            ctx.events.add("scrap", g, p, k, st.turns[g, p])
        if ctx.rec.on:
            names = ctx.tables.cards.names
            ctx.rec.say(g, lambda j: f"  seat {p[j]} scraps {names[k[j]]} from {'hand' if from_hand[j] else 'Garage'}")


def give_debris(ctx: Ctx, st: State, g: np.ndarray, p: np.ndarray, count: np.ndarray) -> np.ndarray:
    """Debris from the supply into Garages, as far as the supply lasts (6.1).
    The (g, p) pairs are distinct (one row per player); a game may appear in
    several rows, served in their order. Returns (n,) given."""
    debris = ctx.tables.rules.debris_card
    if len(g) <= 1 or np.all(g[1:] > g[:-1]):  # one row per game (the usual case): no queue
        given = np.minimum(st.supply[g, debris], count).astype(np.int16)
        games, taken, short = g, given, count - given
    else:
        # Several rows name the same game: serve them in order, then take each game's total once.
        order = np.argsort(g, kind="stable")
        g_sorted = g[order]
        want = count[order].astype(np.int32)
        first = np.concatenate(([True], g_sorted[1:] != g_sorted[:-1]))
        group_start = np.maximum.accumulate(np.where(first, np.arange(len(g)), 0))
        before = np.cumsum(want) - want
        before = before - before[group_start]
        got = np.minimum(np.maximum(st.supply[g_sorted, debris].astype(np.int32) - before, 0), want)
        given = np.zeros(len(g), np.int16)
        given[order] = got
        last = np.concatenate((first[1:], [True]))  # the last row of each game's group
        games, taken = g_sorted[last], np.diff(np.cumsum(got)[last], prepend=0)
        short = np.diff(np.cumsum(want - got)[last], prepend=0)
    st.garage[g, p, debris] += given.astype(st.garage.dtype)  # distinct (g, p): no repeated index
    st.supply[games, debris] -= taken.astype(st.supply.dtype)  # each game once
    st.debris_short[games] += short.astype(np.int32)
    return given
