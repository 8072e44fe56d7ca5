"""Setting up a batch (rulebook 2.1-2.6): Parts Deck by player count, the
snake draft, starting decks, opening hands, Showroom and coins."""

from __future__ import annotations

from typing import NamedTuple

import numpy as np

from .. import chance
from .actions import card_values, draw_cards, fill_showroom
from .context import Ctx
from .state import State, empty_state


def snake_order(players: int, rounds: int) -> list[int]:
    """1 → P, P → 1, 1 → P... (2.3), as offsets clockwise from Player 1."""
    forward = list(range(players))
    return [p for r in range(rounds) for p in (forward if r % 2 == 0 else forward[::-1])]


class Bonus(NamedTuple):
    """A strength experiment's item for one seat of each game (`who`, (G,)):
    an extra copy of card `card` in its starting deck, or Playbook `playbook`
    held instead of the seat's drafted one (`instead`) or beside it; -1 for
    the kind not given."""

    card: int
    playbook: int
    who: np.ndarray
    instead: bool = True


def setup(ctx: Ctx, seats: np.ndarray, bonus: Bonus | None = None) -> State:
    """A new batch: `seats` (G, P) is the bot profile index of each seat (seat 0 plays first).
    `bonus`: a strength experiment's extra card or Playbook for one seat, added to
    the game (not taken from a pile), so every draw is the same as without it."""
    t, rules = ctx.tables, ctx.tables.rules
    G, P = seats.shape
    K, B = len(t.cards.ids), len(t.playbooks.ids)
    st = empty_state(G, P, K, B, rules.showroom_size, rules.track_length, rules.laps)
    st.bots[:] = seats
    st.parts[:] = t.parts_deck(P)
    st.playbook_deck[:] = t.playbooks.count
    st.supply[:] = t.cards.count - t.parts_deck(P) - P * rules.starting_deck
    all_games = np.arange(G)

    # 2.2: the draft pool
    pool = np.zeros((G, K), np.int16)
    for _ in range(rules.draft_parts[P]):
        card = chance.draw_one(ctx.streams.key(all_games, "draft pool: parts"), st.parts, np.ones(G, bool))
        np.add.at(pool, (all_games[card >= 0], card[card >= 0]), 1)
    pb_pool = np.zeros((G, B), np.int8)
    for _ in range(rules.draft_playbooks[P]):
        pb = chance.draw_one(ctx.streams.key(all_games, "draft pool: playbooks"), st.playbook_deck, np.ones(G, bool))
        np.add.at(pb_pool, (all_games[pb >= 0], pb[pb >= 0]), 1)

    # 2.3: snake draft from Player 1, exactly parts_drafted parts and playbooks_drafted
    # Playbooks each. Player 1 is drawn per game, apart from who plays first (2.6:
    # seat 0), unless rules.first_drafter says the first player drafts first.
    if rules.first_drafter == "random":
        st.first_drafter[:] = chance.roll(ctx.streams.key(all_games, "first drafter"), P) - 1
    if ctx.rec.on:
        ctx.rec.say(
            all_games,
            lambda j: f"  the draft starts with seat {st.first_drafter[j]} (the rulebook's Player 1, section 2.3)",
        )
    parts_taken = np.zeros((G, P), np.int16)
    pbs_taken = np.zeros((G, P), np.int16)
    rounds = rules.parts_drafted + rules.playbooks_drafted
    for pick, offset in enumerate(snake_order(P, rounds), start=1):
        seat = (st.first_drafter.astype(np.intp) + offset) % P  # (G,) the seat picking in each game
        q = st.bots[all_games, seat]
        card_v = np.where(
            pool > 0, card_values(ctx, st, all_games, seat, acquire=True, purpose="noise: draft cards"), -np.inf
        )
        pb_v = ctx.bots.playbook_value[q] + ctx.bots.noise[q][:, None] * chance.uniform(
            ctx.streams.key(all_games, "noise: draft playbooks", seat), B
        )
        pb_v = np.where(pb_pool > 0, pb_v, -np.inf)
        card_v[parts_taken[all_games, seat] >= rules.parts_drafted] = -np.inf
        pb_v[pbs_taken[all_games, seat] >= rules.playbooks_drafted] = -np.inf
        best_card = card_v.max(axis=1)
        take_pb = pb_v.max(axis=1, initial=-np.inf) > best_card
        # a Parts Deck smaller than the draft (a load warning) leaves a seat nothing to pick: it passes
        take_card = ~take_pb & (best_card > -np.inf)
        k = card_v.argmax(axis=1)
        b = pb_v.argmax(axis=1) if B else np.zeros(G, np.intp)  # no Playbooks: the draft needs none (schema)
        g, p, kg = all_games[take_card], seat[take_card], k[take_card]
        pool[g, kg] -= 1
        st.deck[g, p, kg] += 1
        st.drafted[g, p, kg] += 1
        first = st.draft_pick[g, p, kg] == 0
        st.draft_pick[g[first], p[first], kg[first]] = pick
        parts_taken[g, p] += 1
        if ctx.events is not None:
            ctx.events.add("draft", g, p, kg, 0, pick=pick)
        g, p, bg = all_games[take_pb], seat[take_pb], b[take_pb]
        pb_pool[g, bg] -= 1
        st.playbooks[g, p, bg] += 1
        st.drafted_playbook[g, p] = bg
        pbs_taken[g, p] += 1
        if ctx.events is not None:
            ctx.events.add("playbook_draft", g, p, bg, 0, pick=pick)
        if ctx.rec.on:
            names, pb_names = ctx.tables.cards.names, ctx.tables.playbooks.names
            ctx.rec.say(
                all_games,
                lambda j, seat=seat, pick=pick, k=k, b=b, take_pb=take_pb, take_card=take_card: (
                    f"  pick {pick}: seat {seat[j]} "
                    + (
                        f"drafts Playbook {pb_names[b[j]]}"
                        if take_pb[j]
                        else f"drafts {names[k[j]]}"
                        if take_card[j]
                        else "passes: nothing left to draft"
                    )
                ),
            )
    st.playbook_deck += pb_pool  # leftover Playbooks back into the Playbook Deck (2.3)
    if bonus is not None and bonus.playbook >= 0:
        # After the draft, so every seat's picks are those of the game without it;
        # a copy from outside the Playbook Deck, and the replaced pick is set
        # aside (not shuffled back), so the Deck (and Pit Stops) are unchanged
        # too. Placed before the first turn (3.1). `instead`: the seat's drafted
        # Playbook (its last, if a rules variant drafts more) is replaced, so a
        # seat that drafted the given one plays the game unchanged; beside it, a
        # seat that also drafts it holds two copies, and both act.
        drafted = st.drafted_playbook[all_games, bonus.who].astype(np.intp)  # (G,) -1: drafted none
        replaced = drafted >= 0 if bonus.instead else np.zeros(G, bool)
        st.playbooks[all_games[replaced], bonus.who[replaced], drafted[replaced]] -= 1
        st.playbooks[all_games, bonus.who, bonus.playbook] += 1
        if ctx.rec.on:
            names = ctx.tables.playbooks.names
            ctx.rec.say(
                all_games,
                lambda j: (
                    f"  strength bonus: seat {bonus.who[j]} holds Playbook {names[bonus.playbook]} "
                    + (f"instead of {names[drafted[j]]}" if replaced[j] else "beside what it drafted")
                ),
            )

    # 2.4-2.6: starting decks, opening hands, Showroom, coins
    st.deck += rules.starting_deck.astype(np.int16)[None, None, :]
    if bonus is not None and bonus.card >= 0:
        st.deck[all_games, bonus.who, bonus.card] += 1
        if ctx.events is not None:
            ctx.events.add("start", all_games, bonus.who, np.full(G, bonus.card), 0)
    if ctx.events is not None:
        for k in np.flatnonzero(rules.starting_deck):
            for p in range(P):
                for _ in range(int(rules.starting_deck[k])):
                    ctx.events.add("start", all_games, p, np.full(G, k), 0)
    for p in range(P):
        draw_cards(ctx, st, all_games, np.full(G, p), np.full(G, rules.hand_size))
    for slot in range(rules.showroom_size):
        fill_showroom(ctx, st, all_games, np.full(G, slot), None)
    st.coins[:] = rules.starting_coins + rules.seat_coins[:P]  # seat compensation (rules.seat_coins), 0 by default
    # draft compensation (rules.draft_coins, 0 by default): by each seat's place in the draft, 0 the first picker
    position = (np.arange(P)[None, :] - st.first_drafter[:, None].astype(np.intp)) % P
    st.coins += rules.draft_coins[position].astype(st.coins.dtype)
    return st
