"""A new batch of races (rulebook "Setup", facts sheet): decks of 12 speed
cards, the starting upgrades (or a Garage draft) and the track's Stress;
Heat in the Engine; gear 1; cars on the grid; opening hands of 7."""

from __future__ import annotations

import numpy as np

from .. import chance
from ..profiles import noise_span
from . import vocabulary as V
from .moves import draw
from .race import Race
from .state import State, empty_state


def setup(race: Race, seats: np.ndarray, bonus: tuple[int, np.ndarray] | None = None) -> State:
    """`seats` (G, P): the bot profile of the car on each grid slot (0 = pole).
    `bonus` = (card, (G,) grid slot): a strength experiment's extra copy of
    `card` in that car's starting deck, added to the race's cards (not taken
    from the Garage pool or the Stress box). The slot must be a player's car:
    a Legend has no deck (prepare refuses scenarios with Legends)."""
    tables, rules = race.tables, race.tables.rules
    track = race.course.track
    G, P = seats.shape
    K = len(tables.cards.ids)
    st = empty_state(G, P, K, len(tables.legends.speed), track.laps, len(track.limit))
    st.bots[:] = seats
    st.is_legend[:] = race.bots.legend[seats]
    st.pos[:] = rules.grid_space[:P]
    st.lane[:] = rules.grid_lane[:P]
    st.gear[:] = rules.starting_gear
    st.legend_deck[:] = 1
    player = ~st.is_legend
    deck = tables.starting_deck(rules.track, garage=rules.garage_module)
    st.deck[player] = deck
    st.engine[player] = track.heat
    if rules.stress_supply >= 0:  # the box's Stress less what the decks took (never below 0)
        st.stress_supply[:] = np.maximum(rules.stress_supply - player.sum(axis=1) * deck[tables.stress_card], 0)
    if race.events is not None:
        g, p = np.nonzero(player)
        for k in np.flatnonzero(deck):
            for _ in range(int(deck[k])):
                race.events.add("start", g, p, np.full(len(g), k), 0)
    if bonus is not None:
        give_bonus(race, st, *bonus)
    if rules.garage_module:
        if race.rec.on:
            race.rec.say(np.arange(G), lambda j: "Garage draft:")
        garage_draft(race, st)
    g, p = np.nonzero(player)
    draw(race, st, g, p, np.full(len(g), rules.hand_size), "draw: opening hand")
    return st


def give_bonus(race: Race, st: State, card: int, who: np.ndarray) -> None:
    """One extra copy of `card` in the starting deck of grid slot who[g] of each
    race g, before the draft and the opening hands. Nothing random is drawn
    here, and the draft reads no deck, so the other cars' draws are those of
    the same races without the bonus (common random numbers)."""
    G = st.deck.shape[0]
    rows = np.arange(G)
    who = np.asarray(who, dtype=np.intp)
    if st.is_legend[rows, who].any():
        raise ValueError("a strength bonus for a Legend car: Legends have no deck")
    st.deck[rows, who, card] += 1
    st.bonus[rows, who, card] += 1
    if race.events is not None:
        race.events.add("start", rows, who, np.full(G, card), 0)
    if race.rec.on:
        name, cid = race.tables.cards.names[card], race.tables.cards.ids[card]
        race.rec.say(rows, lambda j: f"balance strength: car {who[j]} starts with an extra {name} ({cid})")


def draft_order(players: int, rounds: int, order: str) -> list[list[int]]:
    """The pick order of each draft round over grid slots: the back of the grid
    picks first (the pole is already an advantage); snake reverses every round."""
    forward = list(range(players - 1, -1, -1))
    return [forward[::-1] if order == "snake" and r % 2 else forward for r in range(rounds)]


def garage_draft(race: Race, st: State) -> None:
    """Each round reveals one Garage card per player plus `revealed_extra`; the
    players pick one each in draft order; the rest are set aside."""
    tables, rules = race.tables, race.tables.rules
    G, P, K = st.shape
    pool = np.broadcast_to(tables.cards.pool, (G, K)).astype(np.int16)
    players = (~st.is_legend).sum(axis=1)
    rows = np.arange(G)
    pick = 0
    for seats in draft_order(P, rules.upgrades_each, V.DRAFT_ORDERS[rules.draft_order]):
        market = chance.draw_many(race.streams.key(rows, "garage market"), pool, players + rules.revealed_extra)
        for p in seats:
            takes = ~st.is_legend[:, p] & (market.sum(axis=1) > 0)
            q = st.bots[:, p]
            noise = chance.uniform(race.streams.key(rows, "noise: draft pick", p), K)
            value = race.bots.upgrade_value[q] + noise_span(race.bots.noise[q])[:, None] * noise
            k = np.where(market > 0, value, -np.inf).argmax(axis=1)
            g = rows[takes]
            k = k[takes]
            pick += 1
            market[g, k] -= 1
            st.deck[g, p, k] += 1
            st.drafted[g, p, k] += 1
            first = st.draft_pick[g, p, k] == 0
            st.draft_pick[g[first], p, k[first]] = pick
            if race.events is not None:
                race.events.add("draft", g, p, k, 0, pick=pick)
            if race.rec.on:
                names, ids = tables.cards.names, tables.cards.ids
                race.rec.say(
                    g, lambda j, p=p, k=k, pick=pick: f"  pick {pick}: car {p} takes {names[k[j]]} ({ids[k[j]]})"
                )
