"""Resolving instant effects and moving markers: the parts of the rules that
call each other (a push lands on an Auction, a Wipe Out fires a Playbook, a
lap completion wins the game). Sub-batch convention as in effects.py.
"""

from __future__ import annotations

import numpy as np

from ..rows import put_rows, row_any, row_count, row_sum, take_rows
from . import vocabulary as V
from .actions import draw_cards, give_debris, scrap_choice
from .auction import run_auction
from .compile import SPACE_AUCTION, SPACE_INCINERATOR
from .context import Ctx
from .effects import TRIGGER, Turn, conditions, per_counts, situation, targets
from .limits import COIN_CAP
from .state import State, flat

BANANA_BLOCKED = ("next_free", "lost")


def fire_card(ctx: Ctx, st: State, turn: Turn, idx: np.ndarray, card: np.ndarray) -> None:
    """The instant effects of the card each game's active seat just played."""
    look = ctx.look
    games = look.card_fires_any[card] & st.running[idx]
    if not np.count_nonzero(games):
        return
    idx, card = idx[games], card[games]
    # Only the rows of the cards played somewhere here: (n, c) instead of (n, R).
    present = np.zeros(len(look.card_fires), bool)
    present[card] = True
    cols = np.flatnonzero(look.card_fires[present].any(axis=0))
    _resolve(ctx, st, turn, idx, np.full(len(idx), turn.seat), look.card_fires[:, cols][card], cols)


def fire_trigger(ctx: Ctx, st: State, turn: Turn, idx: np.ndarray, actor: np.ndarray, trigger: str) -> None:
    """The actor's Playbook effects with this trigger, in the games where it owns one."""
    t = TRIGGER[trigger]
    books = ctx.look.trigger_playbooks[t]  # the few Playbooks with effects on this trigger
    if len(idx) == 0 or len(books) == 0:
        return
    _, P, B = st.playbooks.shape
    owned = flat(st.playbooks)[((idx * P + actor) * B)[:, None] + books[None, :]].astype(np.int32)  # (n, b)
    games = row_any(owned)
    if not np.count_nonzero(games):
        return
    idx, actor, owned = idx[games], actor[games], owned[games]
    # every one of `books` fires some row: a running game with one fires something
    live = st.running[idx]
    if not live.all():
        idx, actor, owned = idx[live], actor[live], owned[live]
        if len(idx) == 0:
            return
    fires = ctx.look.trigger_fires[t][books]  # (b, R)
    cols = np.flatnonzero(fires[owned.any(axis=0)].any(axis=0))
    names = ctx.tables.playbooks.names
    named: set[int] = set()  # the watched game's Playbooks already named in the trace

    def header(j: int, owners: np.ndarray) -> str | None:
        """The Playbooks whose rows fire (their conditions hold), each named once."""
        new = [int(b) for b in dict.fromkeys(owners.tolist()) if b not in named]
        named.update(new)
        if not new:
            return None
        return f"  Playbook {', '.join(names[b] for b in new)} ({trigger.replace('_', ' ')}) for seat {actor[j]}:"

    _resolve(ctx, st, turn, idx, actor, owned @ fires[:, cols], cols, header if ctx.rec.on else None)


def _resolve(ctx: Ctx, st: State, turn: Turn, idx, actor, fire: np.ndarray, cols: np.ndarray, header=None) -> None:
    """Resolve instant effect rows in running games. `fire` (n, c) holds the
    columns `cols` of the fire matrix over Lookups.instant_rows (any others are zero).

    The rows of one card or Playbook resolve in their order, each reading the
    state the rows before it left ("Gain 1 coin. Then, if you hold 5 or more
    coins..."); rows at the same step of different Playbooks resolve together
    (the active player orders simultaneous effects, 7.3). `header(j, owners)`,
    for the trace, names the Playbooks (`owners`) whose rows fire in row j."""
    steps = ctx.look.instant_step[cols]
    last = int(steps.max(initial=0))
    if last == 0:  # the usual case: one instant row per card or Playbook
        _resolve_step(ctx, st, turn, idx, actor, fire, cols, header)
        return
    for step in range(last + 1):
        mine = np.flatnonzero(steps == step)
        _resolve_step(ctx, st, turn, idx, actor, fire[:, mine], cols[mine], header)


def _resolve_step(ctx: Ctx, st: State, turn: Turn, idx, actor, fire: np.ndarray, cols: np.ndarray, header) -> None:
    """One step of _resolve: conditions and counters read now, then each group
    of rows (one op and target) applied to the games it hit."""
    look, e = ctx.look, ctx.tables.effects
    rows = look.instant_rows[cols]
    sit = situation(ctx, st, idx, actor, turn)
    # most rows have neither a condition nor a counter: skip what they would not change
    fired = fire * conditions(ctx, st, idx, actor, rows, sit) if np.count_nonzero(look.instant_if[cols]) else fire
    if header is not None:
        hit = np.flatnonzero((fired > 0).any(axis=1) & st.running[idx])
        ctx.rec.say(idx[hit], lambda j: header(int(hit[j]), e.owner[rows[fired[hit[j]] > 0]]))
    amount = fired * e.value[rows].astype(np.int32)[None, :]
    if np.count_nonzero(look.instant_per[cols]):
        amount = amount * per_counts(ctx, st, idx, actor, rows, sit)
    groups = look.group_of[cols]
    for group in sorted(set(groups.tolist())):
        mine = np.flatnonzero(groups == group)
        if len(mine) == 1:  # the usual group of one row: its column, no row reductions
            hit, a = fired[:, mine[0]] > 0, amount[:, mine[0]]
        else:
            hit, a = row_any(fired[:, mine] > 0), row_sum(amount[:, mine])
        m = hit & st.running[idx]
        if np.count_nonzero(m):
            spec = look.groups[group]
            _apply(ctx, st, turn, spec.op, spec.target, spec.scrap_from, idx[m], actor[m], a[m])


def _apply(ctx: Ctx, st: State, turn: Turn, op: str, target: int, zone: int, idx, actor, a) -> None:
    rec, n = ctx.rec, len(idx)
    if op == "coins":
        st.coins[idx, actor] = gain_coins(st.coins[idx, actor], a)
        if rec.on:
            rec.say(idx, lambda j: f"  seat {actor[j]} gains {a[j]} coin(s)")
        return
    if op == "draw":
        draw_cards(ctx, st, idx, actor, a)
        if rec.on:
            rec.say(idx, lambda j: f"  seat {actor[j]} draws {a[j]} card(s)")
        return
    if op == "scrap":
        scrap_choice(ctx, st, idx, actor, V.SCRAP_FROM[zone], a)
        return
    if op == "shield":
        st.shield[idx, actor] = True
        if rec.on:
            rec.say(idx, lambda j: f"  seat {actor[j]} is shielded until its next turn")
        return
    sit = situation(ctx, st, idx, actor, turn)
    victims = targets(ctx, st, idx, actor, target, sit)
    P = victims.shape[1]
    hit = row_any(victims)
    if rec.on:  # said game by game: other games of the batch may have someone to hit
        chosen = targets(ctx, st, idx, actor, target, sit, shields=False)

        def nobody(j: int) -> str:
            shielded = np.flatnonzero(chosen[~hit][j]).tolist()
            who = f"seat {', '.join(map(str, shielded))} shielded" if shielded else "nobody to target"
            return f"  {op} ({V.TARGETS[target]}): {who}"

        rec.say(idx[~hit], nobody)
    if not np.count_nonzero(hit):
        return
    if op == "steal_coins":
        take = np.minimum(st.coins[idx], a[:, None]) * victims
        st.coins[idx] -= take.astype(np.int16)
        st.coins[idx, actor] = gain_coins(st.coins[idx, actor], row_sum(take))
        if rec.on:
            rec.say(idx[hit], lambda j: f"  seat {actor[hit][j]} takes {take[hit][j].tolist()} coins by seat")
    elif op == "slow":
        st.slow[idx, actor] += (victims * a[:, None]).astype(np.int16)
        if rec.on:
            rec.say(
                idx[hit],
                lambda j: (
                    f"  seats {np.flatnonzero(victims[hit][j]).tolist()} lose {a[hit][j]} Drive"
                    f" until seat {actor[hit][j]}'s next turn"
                ),
            )
    elif op == "give_debris":
        g, p = np.nonzero(victims)
        # a short supply serves the victims in turn order from the actor (7.3)
        order = np.lexsort(((p - actor[g]) % P, g))
        g, p = g[order], p[order]
        given = give_debris(ctx, st, idx[g], p, a[g])
        if rec.on:
            rec.say(idx[g], lambda j: f"  seat {p[j]} gets {given[j]} Debris")
    elif op == "wipe_out":
        wipe_out(ctx, st, turn, idx, victims)
    elif op == "banana":
        place_bananas(ctx, st, idx, victims, a, turn.seat)
    elif op == "push":
        move(ctx, st, turn, idx, victims, np.broadcast_to(a[:, None], (n, P)).astype(np.int32), cause="pushed")
    else:  # pragma: no cover - the vocabulary is closed; a new op must be handled here
        raise NotImplementedError(op)


def gain_coins(purse: np.ndarray, amount: np.ndarray) -> np.ndarray:
    """(n,) purses after gaining (n,) amounts: a 16-bit purse keeps at most
    COIN_CAP coins (limits.py); what would pass it is lost."""
    return np.minimum(purse.astype(np.int64) + amount, COIN_CAP).astype(purse.dtype)


def in_turn_order(seat: int, P: int):
    """Seats from the active one clockwise: the order of simultaneous effects (3.3)."""
    return [(seat + off) % P for off in range(P)]


def wipe_out(ctx: Ctx, st: State, turn: Turn, idx: np.ndarray, victims: np.ndarray) -> None:
    """Wipe Out the victims (n, P); an already Wiped Out player is not wiped again (5.3)."""
    new = victims & ~st.wiped[idx]
    if ctx.rec.on:
        again = victims & st.wiped[idx]
        for p in np.flatnonzero(again.any(axis=0)):
            ctx.rec.say(idx[again[:, p]], lambda _j, p=p: f"  seat {p} is already Wiped Out: no effect")
    st.wiped[idx] |= new
    st.wiped_count[idx] += new
    P = victims.shape[1]
    for p in in_turn_order(turn.seat, P):
        m = new[:, p] & st.running[idx]
        if np.count_nonzero(m):
            if ctx.rec.on:
                ctx.rec.say(idx[m], lambda _j, p=p: f"  seat {p} is Wiped Out")
            fire_trigger(ctx, st, turn, idx[m], np.full(int(m.sum()), p), "wiped_out")


def place_bananas(ctx: Ctx, st: State, idx: np.ndarray, victims: np.ndarray, distance: np.ndarray, seat: int) -> None:
    """A Banana `distance` spaces ahead of each victim (5.4): never on an occupied
    space; past the lap's end it is lost; rules.banana_blocked says what an
    occupied space does."""
    L = ctx.tables.rules.track_length
    n, P = victims.shape
    spaces = np.arange(L + 1)
    for p in in_turn_order(seat, P):
        m = victims[:, p]
        if not np.count_nonzero(m):
            continue
        g = idx[m]
        want = st.pos[g, p].astype(np.int32) + distance[m]
        occupied = np.zeros((len(g), L + 1), bool)  # (m, L+1)
        occupied[np.arange(len(g))[:, None], st.pos[g]] = True
        if ctx.tables.rules.banana_blocked == "next_free":
            free = ~occupied & (spaces[None, :] >= want[:, None]) & (spaces[None, :] < L)
            where = np.where(row_any(free), free.argmax(axis=1), -1)
        else:
            ok = (want < L) & ~occupied[np.arange(len(g)), np.minimum(want, L)]
            where = np.where(ok, want, -1)
        # a space holds at most 127 Bananas (8 bits); more are not placed (one is enough to wipe out)
        placed = (where >= 0) & (st.bananas[g, np.maximum(where, 0)] < np.iinfo(st.bananas.dtype).max)
        st.bananas[g[placed], where[placed]] += 1
        if ctx.rec.on:
            ctx.rec.say(
                g,
                lambda j, p=p: (
                    f"  Banana ahead of seat {p}: "
                    + (f"placed on space {where[j]}" if placed[j] else "no free space, not placed")
                ),
            )


def move(ctx: Ctx, st: State, turn: Turn, idx: np.ndarray, movers: np.ndarray, delta: np.ndarray, cause: str) -> None:
    """Move markers (movers (n, P), delta (n, P) spaces, negative = back), one
    player at a time in turn order. Bananas landed on or passed through wipe
    out and are removed; reaching the lap's end stops there and completes the
    lap (6.1); then the space landed on takes effect (3.3)."""
    P = movers.shape[1]
    moving = movers & (delta != 0)
    count = row_count(moving)
    single = count == 1  # the usual case (a Drive, a push at one target): all such games in one pass
    if np.count_nonzero(single):
        seat = moving[single].argmax(axis=1)
        g = idx[single]
        _move_each(ctx, st, turn, g, seat, delta[single][np.arange(len(g)), seat], cause)
    several = np.flatnonzero(count > 1)
    for p in in_turn_order(turn.seat, P):  # several players moved at once: one at a time, in turn order
        m = several[moving[several, p]]
        if len(m):
            _move_each(ctx, st, turn, idx[m], np.full(len(m), p), delta[m, p], cause)


def _move_each(ctx: Ctx, st: State, turn: Turn, g: np.ndarray, p: np.ndarray, d: np.ndarray, cause: str) -> None:
    """Move one player in each game: seat p[i] in game g[i] by d[i] spaces."""
    L = ctx.tables.rules.track_length
    live = st.running[g]
    g, p, d = g[live], p[live], d[live]
    if len(g) == 0:
        return
    spaces = np.arange(L + 1)
    old = st.pos[g, p].astype(np.int32)
    new = np.minimum(np.maximum(old + d, 0), L)
    hits = np.zeros(len(g), np.int32)
    peeled = row_any(take_rows(st.bananas, g))  # only games with Bananas on the track need the path
    if np.count_nonzero(peeled):
        b, o, nw = g[peeled], old[peeled], new[peeled]
        lo, hi = np.minimum(o, nw), np.maximum(o, nw)
        # the spaces passed through or landed on, never the one left
        path = (spaces[None, :] >= lo[:, None]) & (spaces[None, :] <= hi[:, None]) & (spaces[None, :] != o[:, None])
        bananas = take_rows(st.bananas, b)
        hits[peeled] = row_sum(bananas * path)
        put_rows(st.bananas, b, np.where(path, 0, bananas))
    st.pos[g, p] = new
    if ctx.rec.on:
        ctx.rec.say(
            g,
            lambda j: (
                f"  seat {p[j]} {cause} {old[j]} -> {new[j]}" + (f" (lap {st.lap[g[j], p[j]]})" if new[j] < L else "")
            ),
        )
    slipped = hits > 0
    if np.count_nonzero(slipped):
        wiped = np.zeros((len(g), st.pos.shape[1]), bool)
        wiped[np.flatnonzero(slipped), p[slipped]] = True
        if ctx.rec.on:
            ctx.rec.say(g[slipped], lambda j: f"  seat {p[slipped][j]} hits {hits[slipped][j]} Banana(s)")
        wipe_out(ctx, st, turn, g, wiped)
    done = (new == L) & st.running[g]
    if np.count_nonzero(done):
        complete_lap(ctx, st, turn, g[done], p[done])
    stay = (new < L) & st.running[g]
    if np.count_nonzero(stay):
        land(ctx, st, turn, g[stay], p[stay])


def complete_lap(ctx: Ctx, st: State, turn: Turn, idx: np.ndarray, actor: np.ndarray) -> None:
    """Reaching the end of the lap (6.1, 6.3): the last lap wins at once;
    otherwise Debris, Deck and Garage reshuffled, and the next lap from space 0."""
    rules = ctx.tables.rules
    last = st.lap[idx, actor] >= rules.laps
    winners = idx[last]
    first = st.winner[winners] < 0  # of several finishing in one effect, the first in turn order wins
    st.winner[winners[first]] = actor[last][first]
    st.running[winners] = False
    if ctx.rec.on:
        ctx.rec.say(winners, lambda j: f"  seat {actor[last][j]} completes lap {rules.laps} and WINS")
    g, p = idx[~last], actor[~last]
    if len(g) == 0:
        return
    given = give_debris(ctx, st, g, p, np.full(len(g), rules.debris_per_lap))
    st.lap[g, p] += 1
    st.pos[g, p] = 0
    st.lap_done[g, p] = True
    if ctx.rec.on:
        ctx.rec.say(g, lambda j: f"  seat {p[j]} completes lap {st.lap[g[j], p[j]] - 1}: {given[j]} Debris")
    # "Whenever you complete a lap" fires before the Deck Reset, while the Garage
    # (the new Debris in it) is still there to act on (Lap Cleanup; docs/rules.md).
    fire_trigger(ctx, st, turn, g, p, "lap_complete")
    put_rows(st.deck, (g, p), take_rows(st.deck, (g, p)) + take_rows(st.garage, (g, p)))
    st.garage[g, p] = 0
    if ctx.rec.on:
        ctx.rec.say(g, lambda j: f"  seat {p[j]}'s Deck and Garage are shuffled together")


def _incinerate(ctx: Ctx, st: State, idx: np.ndarray, actor: np.ndarray) -> None:
    """5.2: the player may scrap one card from hand or Garage."""
    scrap_choice(ctx, st, idx, actor, "hand_or_garage", np.ones(len(idx), np.int32))


# What each special space does (3.3): its name in the trace, its Playbook trigger, its action.
SPACE_EFFECTS = {
    SPACE_AUCTION: ("an Auction space", "auction", run_auction),
    SPACE_INCINERATOR: ("an Incinerator", "incinerator", _incinerate),
}


def land(ctx: Ctx, st: State, turn: Turn, idx: np.ndarray, actor: np.ndarray) -> None:
    """The space a marker was placed on takes effect (3.3, 5.1, 5.2): first the
    lander's Playbooks that trigger on it, then the space itself."""
    kind = ctx.tables.rules.space_kind[st.pos[idx, actor]]
    for space, (name, trigger, action) in SPACE_EFFECTS.items():
        here = kind == space
        if not np.count_nonzero(here):
            continue
        g, p = idx[here], actor[here]
        if ctx.rec.on:
            ctx.rec.say(g, lambda j, p=p, name=name: f"  seat {p[j]} lands on {name}")
        fire_trigger(ctx, st, turn, g, p, trigger)
        live = st.running[g]
        action(ctx, st, g[live], p[live])
