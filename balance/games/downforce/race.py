"""The race (rulebook "The Race", "The Betting", "Power Cards", "Finishing
The Race"): each turn one player plays one speed card and moves every car on
it, top to bottom; betting when a car first crosses each line; until every car
has finished or nobody can play.

Games advance in step: turn t plays one card in every running game. A car
moves space by space into a free space ahead (straight or diagonal); blocked,
it loses the rest. The mover steers: towards open road for its own cars (and
for a Cunning player's, whoever moves them), towards jams for rivals' as much
as its profile's `jam` says.
"""

from __future__ import annotations

from collections.abc import Callable

import numpy as np

from .. import chance
from ..profiles import noise_span
from ..recorder import hands_text
from .auction import shuffled
from .compile import NONE, WILD
from .match import Match
from .state import State

FINISHED_ROW = 10_000  # a finished car counts as this far along (ahead of every car on the board)


def grid_cars(match: Match, st: State) -> None:
    """The six cars on the starting spaces at random; the player of the car on
    pole plays first."""
    G = st.pos.shape[0]
    slot_car = shuffled(match, G, 6, "starting grid")  # (G, 6): the car on each starting slot, pole first
    rows = np.arange(G)[:, None]
    st.start[rows, slot_car] = np.arange(6, dtype=np.int8)[None, :]
    st.pos[rows, slot_car] = match.track.start[None, :]
    st.occupied[rows, match.track.start[None, :]] = True
    st.current[:] = st.owner[np.arange(G), slot_car[:, 0]]


def car_row(match: Match, st: State) -> np.ndarray:
    """(G, 6) how far along each car is (finished cars: FINISHED_ROW minus their place)."""
    return np.where(st.pos >= 0, match.track.row[np.maximum(st.pos, 0)], FINISHED_ROW - st.place.astype(np.int32))


def stance(match: Match, st: State, g: np.ndarray, player: np.ndarray) -> np.ndarray:
    """(n, 6) what moving each car one space is worth to `player`: +1 its own,
    -rival for another player's, 0 a finished car or one boxed in right now
    (its move would be lost)."""
    q = st.bots[g, player]
    own = st.owner[g] == player[:, None]
    value = np.where(own, 1.0, -match.bots.rival[q][:, None])
    ahead = match.track.next[np.maximum(st.pos[g], 0)]  # (n, 6, 3)
    mobile = ((ahead >= 0) & ~st.occupied[g[:, None, None], np.maximum(ahead, 0)]).any(axis=2)
    return np.where((st.place[g] > 0) | ~mobile, 0.0, value).astype(np.float32)


def choose_card(match: Match, st: State, g: np.ndarray, player: np.ndarray) -> np.ndarray:
    """(n,) the card each player plays: the most valued in hand (own cars'
    spaces minus its rival weight times rivals'; a wild at its best colour)."""
    cards = match.tables.cards
    worth = stance(match, st, g, player)  # (n, 6)
    named = (cards.car >= 0) & (cards.car < WILD)  # (C, M)
    per_entry = np.where(named[None], worth[:, np.clip(cards.car, 0, 5)], 0.0)  # (n, C, M)
    wild = (cards.car == WILD)[None] * worth.max(axis=1)[:, None, None]
    value = ((per_entry + wild) * cards.speed[None]).sum(axis=2)  # (n, C)
    q = st.bots[g, player]
    noise = chance.uniform(match.streams.key(g, "noise: card choice", player), value.shape[1])
    value = value + noise_span(match.bots.noise[q])[:, None] * 20 * noise
    return np.where(st.hand[g, player] > 0, value, -np.inf).argmax(axis=1)


def wild_colours(match: Match, st: State, g, player, card) -> np.ndarray:
    """(n, M) the car each entry of the card moves: its colour, or for a wild
    the colour the player picks (most valued; not one on the card unless
    Unpredictable; two wilds, two colours)."""
    cards = match.tables.cards
    cars = cards.car[card].astype(np.int16)  # (n, M)
    worth = stance(match, st, g, player)
    q = st.bots[g, player]
    free_pick = match.has_power(st.power[g, player], "unpredictable")
    taken = np.zeros((len(g), 6), bool)
    on_card = (cars[:, :, None] == np.arange(6)[None, None, :]).any(axis=1)
    for m in range(cars.shape[1]):
        w = np.flatnonzero(cars[:, m] == WILD)  # the rows whose entry m is a wild: only they pick
        if len(w) == 0:
            continue
        allowed = ~taken[w] & (free_pick[w, None] | ~on_card[w])
        noise = chance.uniform(match.streams.key(g[w], "noise: wild colour", player[w]), worth.shape[1])
        score = worth[w] + noise_span(match.bots.noise[q[w]])[:, None] * noise
        pick = np.where(allowed, score, -np.inf).argmax(axis=1)
        cars[w, m] = pick
        taken[w, pick] = True
    return cars


def move_car(
    match: Match,
    st: State,
    g: np.ndarray,
    car: np.ndarray,
    steps: np.ndarray,
    steer: np.ndarray,
    steerer: np.ndarray,
    purpose: str,
    uniform: np.ndarray | None = None,
) -> np.ndarray:
    """Move car `car` of game `g` up to `steps` spaces, each into a free space
    ahead; `steer` (n,) +1 seeks open road, -1 jams; `steerer` (n,) the seat
    that steers (its draws, named `purpose`, break ties); `uniform` (n,) bool:
    the steering player is the random bot, which picks uniformly among the free
    spaces. Returns (n,) bool: the car entered only rectangular spaces (and
    entered at least one)."""
    track = match.track
    n = len(g)
    straight = np.ones(n, bool)
    entered = np.zeros(n, bool)
    going = (steps > 0) & (st.pos[g, car] >= 0)
    for step in range(int(steps.max(initial=0))):
        going &= step < steps
        if not going.any():
            break
        rows = np.flatnonzero(going)
        gs, cs = g[rows], car[rows]
        here = st.pos[gs, cs]
        ahead = track.next[here]  # (m, 3)
        free = (ahead >= 0) & ~st.occupied[gs[:, None], np.maximum(ahead, 0)]
        blocked = ~free.any(axis=1)
        st.lost[gs[blocked], cs[blocked]] += (steps[rows[blocked]] - step).astype(np.int16)
        going[rows[blocked]] = False
        # how open the road is beyond each choice: free spaces among its own next ones
        beyond = track.next[np.maximum(ahead, 0)]  # (m, 3, 3)
        open_road = ((beyond >= 0) & ~st.occupied[gs[:, None, None], np.maximum(beyond, 0)]).sum(axis=2)
        score = steer[rows][:, None] * open_road - 0.01 * track.lane[np.maximum(ahead, 0)]
        u = chance.uniform(match.streams.key(gs, purpose, steerer[rows]), score.shape[1])
        score = score + 0.001 * u
        if uniform is not None:
            score = np.where(uniform[rows][:, None], u, score)
        pick = np.where(free, score, -np.inf).argmax(axis=1)
        to = ahead[np.arange(len(rows)), pick]
        go = ~blocked
        r, gs, cs, to, here = rows[go], gs[go], cs[go], to[go], here[go]
        st.occupied[gs, here] = False
        st.occupied[gs, to] = True
        st.pos[gs, cs] = to
        st.moved[gs, cs] += 1
        entered[r] = True
        straight[r] &= ~track.curve[to]
        home = track.row[to] >= track.finish_row
        if home.any():
            h = np.flatnonzero(home)
            st.finishers[gs[h]] += 1
            st.place[gs[h], cs[h]] = st.finishers[gs[h]]
            st.occupied[gs[h], to[h]] = False
            st.pos[gs[h], cs[h]] = NONE
            going[r[h]] = False
    return straight & entered


def resolve_card(match: Match, st: State, g: np.ndarray, player: np.ndarray, card: np.ndarray) -> None:
    """Every car on the card moves its speed, top to bottom, with the powers
    of the player who played it (Aggressive, Strategic, Tricky, Unpredictable)
    and of the cars' owners (Cunning, Determined)."""
    cards, bots = match.tables.cards, match.bots
    n = len(g)
    cars = wild_colours(match, st, g, player, card)  # (n, M)
    speed = cards.speed[card].astype(np.int16)  # (n, M)
    present = cars >= 0
    own_power = st.power[g, player]
    worth = stance(match, st, g, player)
    entry_worth = np.where(present, worth[np.arange(n)[:, None], np.maximum(cars, 0)] * speed, 0.0)
    # Aggressive: your car first on the card moves the bonus more (not when a wild is first).
    first_is_mine = (cards.car[card, 0] < WILD) & (st.owner[g, np.clip(cards.car[card, 0], 0, 5)] == player)
    speed[:, 0] += np.where(match.has_power(own_power, "aggressive") & first_is_mine, match.bonus(own_power), 0)
    # The random bot (noise 1) makes these choices uniformly among the legal ones.
    rnd = bots.noise[st.bots[g, player]] >= 1
    # Strategic: skip the car whose move helps rivals most, if any does (random:
    # skip none or any one car on the card, each as likely).
    has_strategic = match.has_power(own_power, "strategic")
    strategic = has_strategic & (np.where(present, entry_worth, 0).min(axis=1) < 0)
    skip = np.where(present, entry_worth, np.inf).argmin(axis=1)
    r = np.flatnonzero(has_strategic & rnd)  # only these draw (the others' games stay as they were)
    if len(r):
        u = chance.uniform(match.streams.key(g[r], "random: strategic skip", player[r]))
        pick = np.floor(u * (present[r].sum(axis=1) + 1)).astype(np.int64)
        nth = np.cumsum(present[r], axis=1) - 1  # each present car's rank among them
        chosen = present[r] & (nth == pick[:, None])
        strategic[r] = chosen.any(axis=1)
        skip[r] = chosen.argmax(axis=1)
    present[np.flatnonzero(strategic), skip[strategic]] = False
    # Tricky: own cars first, the others after, each group in printed order (random: any order).
    order = np.broadcast_to(np.arange(cars.shape[1]), cars.shape)
    tricky = match.has_power(own_power, "tricky")
    if tricky.any():
        mine = st.owner[g[:, None], np.maximum(cars, 0)] == player[:, None]
        key = (np.where(tricky[:, None] & ~mine, 100, 0) + order).astype(np.float32)
        r = np.flatnonzero(tricky & rnd)  # only a random bot draws an order (the others' games stay as they were)
        if len(r):
            key[r] = chance.uniform(match.streams.key(g[r], "random: tricky order", player[r]), cars.shape[1]) * 1000
        order = np.argsort(key, axis=1, kind="stable")
    rows = np.arange(n)
    lost_before = st.lost[g].copy() if match.rec.on else None
    # the trace: where each slot's car stands right after its own move (the slots move in `order`)
    seen = np.zeros((3, n, cars.shape[1]), np.int64) if match.rec.on else None  # pos, place, lost
    jam = 1.0 - 2.0 * bots.jam[st.bots[g, player]]  # steering of rivals' cars
    for m in range(cars.shape[1]):
        slot = order[:, m]
        car, steps, here = cars[rows, slot], speed[rows, slot], present[rows, slot]
        car = np.maximum(car, 0)
        owner = st.owner[g, car]
        cunning = match.has_power(st.power[g, owner], "cunning")
        steer = np.where((owner == player) | cunning, 1.0, jam)
        steps = np.where(here, steps, 0)
        steerer = np.where(cunning, owner, player)  # a Cunning owner steers its own cars
        uniform = bots.noise[st.bots[g, steerer]] >= 1
        straight = move_car(match, st, g, car, steps, steer, steerer, "steer", uniform)
        # Determined: a car that entered only rectangular spaces moves its bonus more, at once.
        det = here & straight & match.has_power(st.power[g, owner], "determined")
        if det.any():
            d = np.flatnonzero(det)
            bonus = match.bonus(st.power[g[d], owner[d]])
            move_car(match, st, g[d], car[d], bonus, np.ones(len(d)), steerer[d], "steer: determined")
        if match.rec.on:
            seen[:, rows, slot] = st.pos[g, car], st.place[g, car], st.lost[g, car] - lost_before[rows, car]
            lost_before[rows, car] = st.lost[g, car]
    if match.rec.on:
        names = match.tables.cars

        def where(j: int, m: int) -> str:
            pos, place, lost = seen[:, j, m]
            if pos < 0:
                return f"home, place {place}"
            return f"row {match.track.row[pos]}" + (f", blocked ({lost} lost)" if lost else "")

        def text(j: int) -> str:
            moved = "; ".join(
                f"{names[cars[j, m]]} {speed[j, m]} ({where(j, m)})" for m in range(cars.shape[1]) if present[j, m]
            )
            skipped = [names[c] for c, h in zip(cars[j], present[j], strict=True) if c >= 0 and not h]
            return f"  player {player[j]} plays {cards.ids[card[j]]}: {moved}" + (
                f"; skips {', '.join(skipped)}" if skipped else ""
            )

        match.rec.say(g, text)


def betting(match: Match, st: State, g: np.ndarray) -> None:
    """After a card: for each line a car has now crossed for the first time,
    every player bets on a car, the one it thinks likeliest to win: the
    furthest along, or with `foresight` the furthest along once the speed
    still to be played is counted (projected_row), its own cars given
    `loyalty` rows of head start."""
    track = match.track
    row = car_row(match, st)[g]
    crossed = (row.max(axis=1)[:, None] >= track.betting_rows[None, :]) & ~st.lines_done[g]
    if not crossed.any():
        return
    N = st.bets.shape[1]
    for k in range(crossed.shape[1]):
        b = np.flatnonzero(crossed[:, k])
        if len(b) == 0:
            continue
        gb = g[b]
        st.lines_done[gb, k] = True
        projected = projected_row(match, st, gb, row[b])
        for p in range(N):
            q = st.bots[gb, p]
            own = st.owner[gb] == p
            f = match.bots.foresight[q][:, None]
            score = (1 - f) * row[b] + f * projected + match.bots.loyalty[q][:, None] * own
            noise = chance.uniform(match.streams.key(gb, "noise: bet", p), score.shape[1])
            score = score + noise_span(match.bots.noise[q])[:, None] * 5 * noise
            pick = score.argmax(axis=1)
            st.bets[gb, p, k] = pick
            if match.events is not None:
                match.events.add("bet", gb, p, match.tables.speed8_card[pick], st.turns[gb], pick=k + 1)
        if match.rec.on:
            names = match.tables.cars
            match.rec.say(
                gb,
                lambda j, k=k, gb=gb: (
                    f"  betting line {k + 1}: "
                    + ", ".join(f"player {p} on {names[st.bets[gb[j], p, k]]}" for p in range(N))
                ),
            )


def projected_row(match: Match, st: State, g: np.ndarray, row: np.ndarray) -> np.ndarray:
    """(n, 6) where each car stands once the race's remaining speed is counted,
    from what every player can see (cards played so far; the two cards left in
    the box with 4 or 5 players cannot be told apart, so they count as in
    play): a car still on the board covers the rows it has left at the pace of
    its colour's unplayed spaces against the average unfinished car's, so a car
    with twice the speed to come stands twice as close to the finish. Finished
    cars keep their row (ahead of every car on the board, by place)."""
    left = match.deck_speed[None, :] - st.played[g].sum(axis=1).astype(np.float32) @ match.colour_speed  # (n, 6)
    on_board = st.pos[g] >= 0
    pace = np.maximum(left, 1.0)
    mean_pace = np.where(on_board, pace, 0).sum(axis=1, keepdims=True) / np.maximum(
        on_board.sum(axis=1, keepdims=True), 1
    )
    finish = match.track.finish_row
    to_go = np.maximum(finish - row, 0)
    return np.where(on_board, finish - to_go * mean_pace / pace, row).astype(np.float32)


def next_player(st: State) -> np.ndarray:
    """(G,) the first player from `current` on (clockwise) who can play: holds
    cards and has a car still racing; -1 where nobody can."""
    G, N, _ = st.hand.shape
    racing = st.place == 0
    has_car = ((st.owner[:, :, None] == np.arange(N)[None, None, :]) & racing[:, :, None]).any(axis=1)
    can = has_car & (st.hand.sum(axis=2) > 0)  # (G, N)
    seats = (st.current[:, None] + np.arange(N)[None, :]) % N  # clockwise from the current player
    ok = can[np.arange(G)[:, None], seats]
    return np.where(ok.any(axis=1), seats[np.arange(G), ok.argmax(axis=1)], -1)


def play_race(match: Match, st: State, after_turn: Callable[[State, np.ndarray], None] | None = None) -> State:
    """Turns until every car has finished or nobody can play, or until
    rules.max_turns cuts the race (`cut`): the cars still racing then earn
    nothing, like stalled ones (log.money)."""
    N = st.hand.shape[1]
    for _ in range(match.tables.rules.max_turns):
        match.streams.next_step()  # turn t of every game of the batch: its draws are keyed by the turn
        player = next_player(st)
        st.running &= (player >= 0) & (st.finishers < 6)
        g = np.flatnonzero(st.running)
        if len(g) == 0:
            break
        p = player[g]
        if match.rec.on:
            match.rec.say(g, lambda j: f"Turn {st.turns[g[j]] + 1}:")
            match.rec.detail(g, lambda j: hands_text(st.hand[g[j]], match.tables.cards.ids))
        card = choose_card(match, st, g, p)
        st.hand[g, p, card] -= 1
        st.played[g, p, card] += 1
        st.turns[g] += 1
        if match.events is not None:
            match.events.add("play", g, p, card, st.turns[g])
        resolve_card(match, st, g, p, card)
        betting(match, st, g)
        st.current[g] = (p + 1) % N
        if after_turn is not None:
            after_turn(st, g)
    # A race still running after the last allowed turn, with a card to play, was cut by the cap.
    st.cut[:] = st.running & (next_player(st) >= 0) & (st.finishers < 6)
    st.running[:] = False
    return st
