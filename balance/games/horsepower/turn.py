"""One turn of one seat, in every running game of the batch (rulebook 3),
and the game loop around it.

All games are in step: seat s plays its turn in every game at once. A game
that has ended is simply no longer `running`; a Pit Stop turn is masked out of
the normal phases. Every phase works on `idx`, the games in this turn.
"""

from __future__ import annotations

from collections.abc import Callable

import numpy as np

from .. import chance
from ..recorder import cards_text, hands_text
from ..rows import put_rows, row_any, row_min, row_sum, sparse_nonzero, take_rows
from . import vocabulary as V
from .actions import aimless_loss, banana_cost, card_values, draw_from, fill_showroom, reveal_parts, threshold
from .bots import OWN_PATH
from .context import MOD_COLUMNS, Ctx
from .effects import Turn, modifier_totals, play_tallies
from .limits import EXTRA_PLAY_ROUNDS, SHOP_STEPS
from .resolve import fire_card, fire_trigger, in_turn_order, move
from .state import State, flat

PLAY_ORDER = tuple(V.PLAYABLE_TYPES.index(t) for t in ("investment", "utility", "engine", "frame", "wheels"))
# EXTRA_PLAY_ROUNDS: how many times extra plays (extra_play) are offered after the normal ones;
# SHOP_STEPS: buys plus refreshes a bot may make in one turn, at most (limits.py: the schema bounds by them)


# The totals (keys of modifier_totals) that each modifier op adds to.
OP_TOTALS = {
    "drive": ("drive",),
    "dice": ("dice_sum", "dice_best"),
    "reroll": ("reroll",),
    "discount": ("discount",),
    "free_refresh": ("free_refresh",),
    "hand_size": ("hand_size",),
    "extra_play": ("extra_play",),
}


# How this turn's turn_start modifiers join the standing ones: totals add up,
# but several reroll effects give one reroll at the highest threshold (docs/rules.md).
COMBINE = {"reroll": np.maximum}


def new_turn(ctx: Ctx, st: State, seat: int, play_empty: bool = False) -> Turn:
    """Bookkeeping for seat's turn; its plain modifiers start from what it has in
    play now. `play_empty` says the seat has nothing in play in any running game,
    as at the start of a turn (the seat's (E) cards have just expired; the rules
    checker asserts an empty play area after every turn): then only the
    `always` Playbooks count, and the play area is not read."""
    G, P, K = st.shape
    n_types = len(V.PLAYABLE_TYPES)
    no_mods = {
        name: np.zeros(G, np.int32)
        for name in ("drive", "dice_sum", "dice_best", "reroll", "discount", "free_refresh", "hand_size")
    }
    no_mods["extra_play"] = np.zeros((G, n_types), np.int32)
    look = ctx.look
    books = look.always_modifier_playbooks  # the few with plain `always` modifiers
    plain = st.playbooks[:, seat, books].astype(np.float32) @ look.playbook_mod["always"][books]
    puzzles, types = np.zeros(G, np.int16), np.zeros(G, np.int32)
    if not play_empty:
        in_play = np.flatnonzero(row_any(st.play[:, seat]))
        if len(in_play):
            play = st.play[in_play, seat]
            plain[in_play] += play.astype(np.float32) @ look.card_mod
            puzzles[in_play], types[in_play] = play_tallies(ctx, play)
    return Turn(
        seat=seat,
        scrap_at_end=np.zeros((G, K), np.int16),
        start_mods=no_mods,
        refreshes=np.zeros(G, np.int16),
        plain=plain,
        puzzles=puzzles,
        types=types,
    )


def play_turn(ctx: Ctx, st: State, seat: int) -> None:
    G, P, K = st.shape
    act = st.running.copy()
    s = seat
    # Start of turn: this seat's (E) cards expire, its shield and slows end (3.4, 7.2).
    lingering = st.lingering[:, s]  # (G, K) view; only games with (E) cards need the move
    back = np.flatnonzero(act & row_any(lingering))
    st.garage[back, s] += lingering[back]
    lingering[back] = 0
    st.shield[act, s] = False
    st.slow[act, s, :] = 0
    st.turns[act, s] += 1
    lap_index = np.clip(st.lap[act, s] - 1, 0, st.lap_turns.shape[2] - 1)
    st.lap_turns[np.flatnonzero(act), s, lap_index] += 1

    turn = new_turn(ctx, st, seat, play_empty=True)  # after expiry
    if ctx.tables.rules.wiped_next_turn:  # a marker gained from now on waits for the next turn (5.3)
        turn.wiped_at_start = st.wiped[:, s].copy()
    pit = act & st.pit_next[:, s]
    if np.count_nonzero(pit):
        pit_stop(ctx, st, turn, np.flatnonzero(pit))
    idx = np.flatnonzero(act & ~pit)
    if len(idx):
        if ctx.rec.on:
            ctx.rec.say(idx, lambda j: _turn_header(ctx, st, idx[j], s))
            ctx.rec.detail(idx, lambda j: hands_text(st.hand[idx[j]], ctx.tables.cards.names))
        actor = np.full(len(idx), s)
        books = ctx.look.turn_start_modifiers
        owns = row_any(st.playbooks[idx[:, None], s, books[None, :]]) if len(books) else np.zeros(len(idx), bool)
        if np.count_nonzero(owns):
            for name, value in modifier_totals(ctx, st, idx[owns], actor[owns], when="turn_start", turn=turn).items():
                turn.start_mods[name][idx[owns]] = value
        fire_trigger(ctx, st, turn, idx, actor, "turn_start")
        play_phase(ctx, st, turn, idx)
        shop_phase(ctx, st, turn, idx)
        drive_phase(ctx, st, turn, idx)
        end_phase(ctx, st, turn, idx)
    lap_decisions(ctx, st, turn, np.flatnonzero(act))


def _turn_header(ctx: Ctx, st: State, g: int, s: int) -> str:
    hand = cards_text(st.hand[g, s], ctx.tables.cards.names, "-")
    return (
        f"Round {st.round[g]}, seat {s} ({ctx.bots.names[st.bots[g, s]]}): lap {st.lap[g, s]} space {st.pos[g, s]}, "
        f"{st.coins[g, s]} coins{', Wiped Out' if st.wiped[g, s] else ''}; hand: {hand}"
    )


def _merged_mods(
    ctx: Ctx, st: State, turn: Turn, idx: np.ndarray, ops: tuple[str, ...] | None = None
) -> dict[str, np.ndarray]:
    """Modifiers in force now: cards in play, `always` Playbooks, and this turn's
    turn_start ones (only the totals of `ops`, when given)."""
    mods = modifier_totals(
        ctx, st, idx, np.full(len(idx), turn.seat), plain=take_rows(turn.plain, idx), ops=ops, turn=turn
    )
    names = mods if ops is None else [name for op in ops for name in OP_TOTALS[op]]
    return {name: COMBINE.get(name, np.add)(mods[name], turn.start_mods[name][idx]) for name in names}


def play_phase(ctx: Ctx, st: State, turn: Turn, idx: np.ndarray) -> None:
    """3.1: at most type_limits cards of each type, one at a time (investments
    first, so cards they draw can still be played)."""
    look = ctx.look
    limits = ctx.tables.rules.type_limits.astype(np.int32)
    played_n = np.zeros((len(idx), len(limits)), np.int32)
    # the nearest Banana ahead of the active seat, once a phase (its own plays place
    # Bananas only off its path: bots.OWN_PATH): only these games weigh a move into one
    turn.banana_at = nearest_banana_ahead(st, turn.seat)
    for t in PLAY_ORDER:
        _play_one(ctx, st, turn, idx, played_n, t, played_n[:, t] < limits[t])
    extra_cols = slice(MOD_COLUMNS.index("extra_engine"), None)
    for _ in range(EXTRA_PLAY_ROUNDS):
        if look.conditional_extra_play:
            extra = _merged_mods(ctx, st, turn, idx, ops=("extra_play",))["extra_play"]
        else:  # only plain extra plays exist: no need to evaluate conditions
            extra = (
                np.rint(take_rows(turn.plain, idx)[:, extra_cols]).astype(np.int32) + turn.start_mods["extra_play"][idx]
            )
        allowance = limits[None, :] + extra
        # only types with an extra play are offered again (a declined play is not asked twice)
        more = (played_n < allowance) & (extra > 0)
        if not np.count_nonzero(more):
            break
        for t in PLAY_ORDER:
            if np.count_nonzero(more[:, t]):  # only the games with an extra play of type t are asked
                _play_one(ctx, st, turn, idx, played_n, t, more[:, t])


def nearest_banana_ahead(st: State, seat: int) -> np.ndarray | None:
    """(G,) int32 the space of the nearest Banana ahead of `seat` in each game,
    within the bots' reach of a turn (bots.OWN_PATH; -1: none), or None where
    no game has one. Bananas are few: found among the nonzero spaces of the
    whole batch, not by reading every game's track."""
    where = sparse_nonzero(st.bananas.reshape(-1))  # in (game, space) order
    if len(where) == 0:
        return None
    game, space = np.divmod(where, st.bananas.shape[1])
    gap = space - st.pos[game, seat]
    ahead = (gap > 0) & (gap <= OWN_PATH)
    if not np.count_nonzero(ahead):
        return None
    game, space = game[ahead], space[ahead]
    first = np.r_[True, game[1:] != game[:-1]]  # each game's first Banana ahead is its nearest
    out = np.full(st.bananas.shape[0], -1, np.int32)
    out[game[first]] = space[first]
    return out


def _play_one(
    ctx: Ctx, st: State, turn: Turn, idx: np.ndarray, played_n: np.ndarray, t: int, allowed: np.ndarray
) -> None:
    """Where `allowed` (n,), the active seat plays its best card of type t, if it is worth playing."""
    s, look = turn.seat, ctx.look
    cols = look.cards_of_type[t]  # the playable cards of type t
    pos = np.flatnonzero(allowed & st.running[idx])
    if len(pos) == 0:
        return
    cand = take_rows(st.hand, (idx[pos], s))[:, cols] > 0  # (m, J)
    has = row_any(cand)
    if not has.all():
        keep = np.flatnonzero(has)  # an integer take is cheaper than a boolean mask
        if len(keep) == 0:
            return
        pos, cand = pos[keep], cand[keep]
    g = idx[pos]
    who = np.full(len(g), s)
    value = card_values(ctx, st, g, who, cards=cols)
    aimed = np.flatnonzero(ctx.bots.aimed_cards[cols])  # attacks are worth nothing with nobody to hit
    if len(aimed):
        holds = np.flatnonzero(row_any(cand[:, aimed]))  # only the games with such a card in hand
        if len(holds):
            loss, worthless = aimless_loss(ctx, st, g[holds], who[holds], cols[aimed], turn)
            # a card left with nothing worth doing is not played, whatever the noise
            at = np.ix_(holds, aimed)
            value[at] = np.where(worthless, -np.inf, value[at] - loss)
    moving = ctx.look.moving_of_type[t] if turn.banana_at is not None else ()
    if len(moving):  # a card that takes its player into a Banana it can see is worth that much less
        seen = np.flatnonzero(turn.banana_at[g] >= 0)
        if len(seen):  # of these, the games with a moving card in hand
            seen = seen[row_any(cand[seen][:, moving])]
        if len(seen):
            gs = g[seen]
            # the plain Drive in play so far (conditional modifiers are left out: an estimate, and cheap)
            drive = turn.plain[gs, 0] + turn.start_mods["drive"][gs] - row_sum(st.slow[gs, :, s])
            value[np.ix_(seen, moving)] -= banana_cost(ctx, st, gs, s, cols[moving], drive, turn.banana_at[gs])
    value = np.where(cand, value, -np.inf)
    pick = value.argmax(axis=1)
    go = value.reshape(-1)[np.arange(len(pos)) * len(cols) + pick] > threshold(ctx, st, g, who)
    g, k = g[go], cols[pick[go]]
    # one flat position into the three (G, P, K) piles: a 1-d index is the cheapest
    at = (g * st.hand.shape[1] + s) * st.hand.shape[2] + k
    flat(st.hand)[at] -= 1
    flat(st.play)[at] += 1
    flat(st.played)[at] += 1
    played_n[pos[go], t] += 1
    if ctx.events is not None:
        ctx.events.add("play", g, s, k, st.turns[g, s])
    scraps = look.scrap_this[k]  # most cards neither scrap themselves nor modify: skip those rows
    if np.count_nonzero(scraps):
        turn.scrap_at_end[g[scraps], k[scraps]] += 1
    turn.puzzles[g] += look.is_puzzle[k]
    turn.types[g] |= look.type_bit[k]
    mods = look.card_has_mod[k]
    if np.count_nonzero(mods):
        gm = g[mods]
        put_rows(turn.plain, gm, take_rows(turn.plain, gm) + look.card_mod[k[mods]])
    if ctx.rec.on:
        ctx.rec.say(g, lambda j: f"  plays {ctx.tables.cards.names[k[j]]}")
    fire_card(ctx, st, turn, g, k)


def shop_phase(ctx: Ctx, st: State, turn: Turn, idx: np.ndarray) -> None:
    """3.1.1: buy from the Showroom and refresh it, as often as coins allow."""
    rules, s = ctx.tables.rules, turn.seat
    mods = _merged_mods(ctx, st, turn, idx, ops=("discount", "free_refresh"))
    discount = np.zeros(st.coins.shape[0], np.int32)
    discount[idx] = mods["discount"]
    free_left = np.zeros(st.coins.shape[0], np.int32)
    free_left[idx] = mods["free_refresh"]
    shopping = idx[st.running[idx]]
    for _ in range(SHOP_STEPS):
        if len(shopping) == 0:
            break
        g = shopping
        n = len(g)
        rows = np.arange(n)
        actor = np.full(n, s)
        q = st.bots[g, s]
        show = st.showroom[g]
        coins = st.coins[g, s].astype(np.int32)
        price = np.maximum(ctx.tables.cards.cost[np.maximum(show, 0)] - discount[g][:, None], 0)
        can = (show >= 0) & (price <= coins[:, None])
        value = card_values(ctx, st, g, actor, acquire=True, cards=np.maximum(show, 0))
        value = np.where(can, value, -np.inf)
        slot = value.argmax(axis=1)
        buy = row_any(can) & (value[rows, slot] > threshold(ctx, st, g, actor, ctx.bots.buy_min[q]))

        pay = np.where(free_left[g] > 0, 0, rules.refresh_cost)
        cheapest = row_min(np.where(show >= 0, price, 10**6))
        room = ~buy & (turn.refreshes[g] < ctx.bots.refreshes[q]) & (coins >= pay)
        if np.count_nonzero(room):  # cards left to reveal, counted only where a refresh is possible
            r = g[room]
            room[room] = row_any(take_rows(st.parts, r)) | row_any(take_rows(st.showroom_discard, r))
        noise = ctx.bots.noise[q]
        still_afford = (coins - pay >= np.minimum(cheapest, rules.purchase_cost)).astype(np.float32)
        refresh = room & (
            (1 - noise) * still_afford + noise * chance.uniform(ctx.streams.key(g, "noise: refresh", s)) > 0.5
        )

        if np.count_nonzero(buy):
            b, sl = g[buy], slot[buy]
            card = st.showroom[b, sl]
            paid = price[buy, sl]
            st.coins[b, s] -= paid.astype(np.int16)
            st.garage[b, s, card] += 1
            st.bought[b, s, card] += 1
            st.coins_spent[b, s] += paid
            if ctx.events is not None:
                ctx.events.add("buy", b, s, card, st.turns[b, s], price=paid)
            st.showroom[b, sl] = -1
            if ctx.rec.on:
                ctx.rec.say(b, lambda j: f"  buys {ctx.tables.cards.names[card[j]]} for {paid[j]} coin(s)")
            fill_showroom(ctx, st, b, sl, s)
            fire_trigger(ctx, st, turn, b, np.full(len(b), s), "buy")
        if np.count_nonzero(refresh):
            r = g[refresh]
            cost = pay[refresh]
            st.coins[r, s] -= cost.astype(np.int16)
            st.coins_spent[r, s] += cost
            free_left[r] -= (cost == 0).astype(np.int32)
            turn.refreshes[r] += 1
            old = st.showroom[r]
            for slot_i in range(old.shape[1]):
                has = old[:, slot_i] >= 0
                st.showroom_discard[r[has], old[has, slot_i]] += 1  # each game once per slot
            st.showroom[r] = reveal_parts(ctx, st, r, old.shape[1], s)
            if ctx.rec.on:
                ctx.rec.say(r, lambda j: f"  refreshes the Showroom ({'free' if cost[j] == 0 else f'{cost[j]} coin'})")
        shopping = g[(buy | refresh) & st.running[g]]


def roll_drive(ctx: Ctx, g: np.ndarray, seat: int, mods: dict[str, np.ndarray]) -> np.ndarray:
    """(n, D) dice and (n,) the Drive roll (3.2.2): the best `dice_per_drive` of
    the base dice plus `keep: best` extras, plus every `keep: sum` extra; each
    die below a reroll threshold rolled once more."""
    rules = ctx.tables.rules
    base, best, extra = rules.dice_per_drive, mods["dice_best"], mods["dice_sum"]
    D = base + int(best.max(initial=0)) + int(extra.max(initial=0))
    # column j of a seat's dice is the same die whatever D (the batch's most dice) is
    dice = chance.roll(ctx.streams.key(g, "dice", seat), rules.die_sides, D)
    again = chance.roll(ctx.streams.key(g, "reroll", seat), rules.die_sides, D)
    dice = np.where(dice < mods["reroll"][:, None], again, dice)
    col = np.arange(D)[None, :]
    first = col < (base + best)[:, None]
    kept = -np.sort(-np.where(first, dice, 0), axis=1)[:, :base].sum(axis=1)
    summed = np.where(~first & (col < (base + best + extra)[:, None]), dice, 0).sum(axis=1)
    used = col < (base + best + extra)[:, None]
    return np.where(used, dice, 0), kept + summed


def drive_phase(ctx: Ctx, st: State, turn: Turn, idx: np.ndarray) -> None:
    """3.2: Drive = played Drive + the roll; a Wiped Out player skips it and
    loses the marker (by default also a marker gained earlier this turn: 3.2.3
    reads the marker at the Drive Phase). rules.min_drive is the floor of the
    total (3.2.3's "Minimum Drive"; 0: a negative total moves nothing)."""
    s = turn.seat
    # A lap completed during the Play Phase stops the marker at the lap's end
    # for this turn (6.1: excess is not carried forward).
    live = st.running[idx] & ~st.lap_done[idx, s]
    wiped = live & st.wiped[idx, s]
    if turn.wiped_at_start is not None:  # rules.wiped_during_own_turn: next_turn
        wiped &= turn.wiped_at_start[idx]
    st.wiped[idx[wiped], s] = False
    if ctx.rec.on:
        ctx.rec.say(idx[wiped], lambda j: f"  seat {s} is Wiped Out: no Drive this turn, marker removed")
    go = live & ~wiped
    g = idx[go]
    if len(g) == 0:
        return
    mods = _merged_mods(ctx, st, turn, g, ops=("drive", "dice", "reroll"))
    dice, rolled = roll_drive(ctx, g, s, mods)
    slowed = row_sum(st.slow[g, :, s])
    total = mods["drive"] + rolled - slowed
    moved = np.maximum(total, ctx.tables.rules.min_drive)
    if ctx.rec.on:
        ctx.rec.say(
            g,
            lambda j: (
                f"  Drive: cards {mods['drive'][j]:+d}, dice {dice[j][dice[j] > 0].tolist()} -> {rolled[j]}"
                + (f", slowed -{slowed[j]}" if slowed[j] else "")
                + f" = {total[j]}"
            ),
        )
    movers = np.zeros((len(g), st.pos.shape[1]), bool)
    movers[:, s] = True
    delta = np.zeros(movers.shape, np.int32)
    delta[:, s] = moved
    move(ctx, st, turn, g, movers, delta, cause="drives")


def end_phase(ctx: Ctx, st: State, turn: Turn, idx: np.ndarray) -> None:
    """3.4: play area and hand to the Garage ((E) cards stay in play), draw a new hand."""
    s, look = turn.seat, ctx.look
    g = idx[st.running[idx]]
    if len(g) == 0:
        return
    extra = _merged_mods(ctx, st, turn, g, ops=("hand_size",))["hand_size"]
    play = take_rows(st.play, (g, s))  # (n, K)
    scrap = np.minimum(turn.scrap_at_end[g], play)
    some = row_any(scrap)  # most games scrap nothing: update only the others
    if np.count_nonzero(some):
        sg, sc = g[some], scrap[some]
        play[some] -= sc
        st.scrapyard[sg] += sc
        st.scrapped[sg, s] += sc
        if ctx.events is not None:
            rows, cards = np.nonzero(sc)
            copies = sc[rows, cards]
            rows, cards = np.repeat(rows, copies), np.repeat(cards, copies)
            ctx.events.add("scrap", sg[rows], s, cards, st.turns[sg[rows], s])
    lasting = play * look.is_expires[None, :]
    some = row_any(lasting)
    if np.count_nonzero(some):
        play[some] -= lasting[some]
        st.lingering[g[some], s] += lasting[some]
    # Play area and hand to the Garage, then the new hand straight from the gathered piles.
    garage = take_rows(st.garage, (g, s)) + play + take_rows(st.hand, (g, s))
    deck = take_rows(st.deck, (g, s))
    put_rows(st.play, (g, s), np.zeros_like(play))
    n = np.maximum(ctx.tables.rules.hand_size + extra, 0)
    drawing = np.flatnonzero(n > 0)  # only the seats that draw take a key (chance.py: the rows asked for)
    if len(drawing) == len(g):
        hand = draw_from(ctx, g, s, deck, garage, n, "draw: new hand")
    else:
        hand = np.zeros_like(deck)
        if len(drawing):
            some_deck, some_garage = deck[drawing], garage[drawing]
            hand[drawing] = draw_from(ctx, g[drawing], s, some_deck, some_garage, n[drawing], "draw: new hand")
            deck[drawing], garage[drawing] = some_deck, some_garage
    for pile, rows in ((st.deck, deck), (st.garage, garage), (st.hand, hand)):
        put_rows(pile, (g, s), rows)


def pit_stop(ctx: Ctx, st: State, turn: Turn, g: np.ndarray) -> None:
    """6.2 Option A: the skipped turn draws Playbooks and keeps the best."""
    rules, s = ctx.tables.rules, turn.seat
    n = len(g)
    drawn = np.full((n, rules.pit_stop_draw), -1)
    deck = st.playbook_deck[g]
    for i in range(rules.pit_stop_draw):
        drawn[:, i] = chance.draw_one(ctx.streams.key(g, "pit stop playbooks", s), deck, np.ones(n, bool))
    q = st.bots[g, s]
    value = ctx.bots.playbook_value[q][np.arange(n)[:, None], np.maximum(drawn, 0)]
    value = value + ctx.bots.noise[q][:, None] * chance.uniform(
        ctx.streams.key(g, "noise: pit stop", s), value.shape[1]
    )
    value = np.where(drawn >= 0, value, -np.inf)
    order = np.argsort(-value, axis=1, kind="stable")  # equal values: the first drawn first
    for i in range(rules.pit_stop_draw):
        b = drawn[np.arange(n), order[:, i]]
        keep = (b >= 0) & (i < rules.pit_stop_keep)
        st.playbooks[g[keep], s, b[keep]] += 1
        st.pit_playbooks[g[keep], s, b[keep]] += 1
        if ctx.events is not None:
            ctx.events.add("playbook_pit", g[keep], s, b[keep], st.turns[g[keep], s])
        back = (b >= 0) & ~keep
        deck[back, b[back]] += 1
    st.playbook_deck[g] = deck
    st.pit_next[g, s] = False
    st.pit_stops[g, s] += 1
    # the lap just completed is lap - 1 (the marker is already on the next lap)
    st.pit_laps[g, s] |= (1 << (st.lap[g, s].astype(np.int16) - 2)).astype(np.int16)
    if ctx.rec.on:
        names = ctx.tables.playbooks.names
        ctx.rec.say(
            g,
            lambda j: (
                f"Round {st.round[g[j]]}, seat {s}: Pit Stop, draws "
                + ", ".join(names[b] for b in drawn[j] if b >= 0)
                + f"; keeps {names[drawn[j][order[j, 0]]] if drawn[j][order[j, 0]] >= 0 else 'nothing'}"
            ),
        )
    fire_trigger(ctx, st, turn, g, np.full(n, s), "pit_stop")


def lap_decisions(ctx: Ctx, st: State, turn: Turn, idx: np.ndarray) -> None:
    """6.2: after the End Phase, each player who completed a lap this turn
    chooses Pit Stop or Race Through (in turn order from the active player)."""
    laps = ctx.tables.rules.laps
    P = st.pos.shape[1]
    for p in in_turn_order(turn.seat, P):
        m = st.lap_done[idx, p] & st.running[idx]
        if not np.count_nonzero(m):
            continue
        g = idx[m]
        q = st.bots[g, p]
        rule = ctx.bots.pit_stop[q]
        laps_left = laps - st.lap[g, p] + 1
        noise = ctx.bots.noise[q]
        auto = (1 - noise) * (laps_left >= ctx.bots.pit_laps_left[q]) + noise * chance.uniform(
            ctx.streams.key(g, "noise: pit or race through", p)
        ) > 0.5
        pit = np.select([rule == 1, rule == 2], [True, False], auto) & row_any(st.playbook_deck[g])
        st.pit_next[g[pit], p] = True  # counted in pit_stops when the Pit Stop turn is played
        st.lap_done[g, p] = False
        if ctx.rec.on:
            ctx.rec.say(g, lambda j, p=p: f"  seat {p} chooses {'a Pit Stop' if pit[j] else 'to Race Through'}")
        fire_trigger(ctx, st, turn, g[~pit], np.full(int((~pit).sum()), p), "race_through")


def play_rounds(ctx: Ctx, st: State, after_turn: Callable[[State, int], None] | None = None) -> State:
    """Rounds until every game has a winner or reached rules.max_rounds.
    `after_turn(state, seat)`, if given, is called after every turn (the rules checker)."""
    P = st.pos.shape[1]
    for _ in range(ctx.tables.rules.max_rounds):
        if not np.count_nonzero(st.running):
            break
        st.round[st.running] += 1
        ctx.streams.next_step()  # every game is in this round: draws are keyed by it
        for s in range(P):
            play_turn(ctx, st, s)
            if after_turn is not None:
                after_turn(st, s)
    st.running[:] = False
    return st
