"""Audit: the Shuffle Grand Prix departures and bot flaws of issue 41, counted
in GAMES games of SCENARIO (seed 1, one batch), by watching the engine's own
functions (no trace text):

- one-turn nerfs: turns a player began with a `no_ability_play` nerf on its car,
  and those in which it still played an action, equip, trap or nerf card;
- "draw, then discard down to three": the cards played with a draw_ability
  effect of their own, and those after which no card was discarded;
- self spin-outs: all of them, and those on a trap the player set itself;
- discard-and-draw: redraws made while a card in hand would spin the player out
  if played, and those that kept that card and threw away another;
- damage that did nothing: a card's damage to a rival that the modifiers
  brought to 0.

    python scripts/audit_shuffle_gp.py scenarios/shuffle-gp-four.yaml 1000

It runs on any tree since issue 36 (it patches names both trees share), so the
same command measures before and after a change.
"""

from __future__ import annotations

import sys
from collections import Counter

import numpy as np

from balance.games import get_game
from balance.games.chance import Streams
from balance.games.shuffle_gp import effects, turn
from balance.games.shuffle_gp.engine import simulate
from balance.games.shuffle_gp.match import TYPE
from balance.games.shuffle_gp.moves import modifier
from balance.scenario import load_scenario

try:  # where the bots' worth of a card lives since issue 41; in turn.py before
    from balance.games.shuffle_gp.worth import spin_out_dread
except ImportError:
    spin_out_dread = turn.spin_out_dread

ORDER = (
    "turns begun under a one-turn nerf",
    "... in which a blocked type was played",
    "cards played with their own draw_ability",
    "... neither answered nor spinning its player out",
    "... of those, after which nothing was discarded down to three",
    "self spin-outs",
    "self spin-outs on one's own trap",
    "... by a heuristic bot (not random)",
    "... of those, on its own turn",
    "redraws",
    "redraws with a card in hand that would spin the player out",
    "... that kept it and threw away another (heuristic bots)",
    "damage to a rival from a played card",
    "... brought to 0 by the modifiers",
)
BLOCKED_TYPES = [TYPE[t] for t in ("action", "equip", "trap", "nerf")]


def main() -> None:
    scenario = load_scenario(sys.argv[1])
    games = int(sys.argv[2])
    prep = get_game("shuffle_gp").prepare(scenario)
    tables, bots = prep.tables, prep.bots
    P = scenario.model.players
    seats = (np.arange(P)[None, :] + np.arange(games)[:, None]) % P  # every bot in every seat
    seats = seats % len(bots.names)
    n = Counter()
    match_of = {}

    real_spin, real_redraw, real_deal, real_play = effects.spin_out, turn.redraw, effects.deal_damage, turn.play_card
    real_discard = effects.discard_down

    playing = {}  # game -> seat, while that seat's own card with a draw_ability effect resolves

    def play_card(m, st, g, p, k, aside=False):
        match_of["m"] = m
        draws = (tables.cards.op[k] == effects.OPS.index("draw_ability")).any(axis=1) & (not aside)
        n["cards played with their own draw_ability"] += int(draws.sum())
        rows = np.flatnonzero(draws)
        for i in rows:
            playing[int(g[i])] = [int(p[i]), 0]
        answers, spins = st.cancels[g].sum(axis=1), st.spin_outs[g, p].copy()
        real_play(m, st, g, p, k, aside)
        # a card a rival answered, or one that spun its player out (the hand discarded), draws nothing to discard
        plain = (st.cancels[g].sum(axis=1) == answers) & (st.spin_outs[g, p] == spins)
        n["... neither answered nor spinning its player out"] += int(plain[rows].sum())
        n["... of those, after which nothing was discarded down to three"] += sum(
            playing[int(g[i])][1] == 0 for i in rows if plain[i]
        )
        for i in rows:
            del playing[int(g[i])]

    def discard_down(m, st, g, p):
        before = st.hand[g, p].sum(axis=1)
        real_discard(m, st, g, p)
        gone = before - st.hand[g, p].sum(axis=1)
        for i in np.flatnonzero(gone):
            mine = playing.get(int(g[i]))
            if mine is not None and mine[0] == p[i]:
                mine[1] += int(gone[i])

    def spin_out(m, st, g, t, causers):
        self_caused = causers[np.arange(len(g)), t]
        heuristic = m.bots.noise[st.bots[g, t]] < 1
        n["self spin-outs"] += int(self_caused.sum())
        if m.springing:
            n["self spin-outs on one's own trap"] += int(self_caused.sum())
            n["... by a heuristic bot (not random)"] += int((self_caused & heuristic).sum())
            n["... of those, on its own turn"] += int((self_caused & heuristic & (st.current[g] == t)).sum())
        return real_spin(m, st, g, t, causers)

    def redraw(m, st, g, p, *priced):
        if len(g):
            dread = spin_out_dread(m, st, g, p) > 0
            held = st.hand[g, p] > 0
            dreaded = (dread & held).any(axis=1) & (st.draw[g, p].sum(axis=1) > 0)
            disc = st.discard[g, p].copy()
            real_redraw(m, st, g, p, *priced)
            thrown = (st.discard[g, p] - disc).argmax(axis=1)
            kept_dreaded = dreaded & ~dread[np.arange(len(g)), thrown] & (m.bots.noise[st.bots[g, p]] < 1)
            n["redraws with a card in hand that would spin the player out"] += int(dreaded.sum())
            n["... that kept it and threw away another (heuristic bots)"] += int(kept_dreaded.sum())
            n["redraws"] += len(g)

    def deal_damage(m, st, g, dealer, t, amount, depth):
        if depth == 0 and len(g):
            amt = np.maximum(amount + modifier(m, st, g, dealer, "damage_bonus"), 0)
            amt = np.maximum(amt - modifier(m, st, g, t, "damage_reduction"), 0)
            rival = dealer != t
            n["damage to a rival from a played card"] += int(rival.sum())
            n["... brought to 0 by the modifiers"] += int((rival & (amt == 0)).sum())
        return real_deal(m, st, g, dealer, t, amount, depth)

    effects.spin_out, turn.redraw, effects.deal_damage, turn.play_card = spin_out, redraw, deal_damage, play_card
    effects.discard_down = discard_down
    if hasattr(turn, "discard_down"):  # since issue 41 a card discards down once it is done
        turn.discard_down = discard_down

    nerf_block = {}

    def after_turn(st, g, p):
        m = match_of.get("m")
        c = tables.cards
        blocked_type = np.isin(c.type, BLOCKED_TYPES)
        played = (st.played[g, p][:, blocked_type]).sum(axis=1)
        if "was" in nerf_block:
            was, before, games_then = nerf_block["was"], nerf_block["played"], nerf_block["g"]
            same = np.isin(g, games_then)
            idx = np.searchsorted(games_then, g[same])
            started_blocked = was[idx]
            n["turns begun under a one-turn nerf"] += int(started_blocked.sum())
            n["... in which a blocked type was played"] += int((started_blocked & (played[same] > before[idx])).sum())
        nxt = (p + 1) % P
        blocked = modifier(m, st, g, nxt, "no_ability_play") > 0 if m is not None else np.zeros(len(g), bool)
        nerf_block.update(was=blocked, played=st.played[g, nxt][:, blocked_type].sum(axis=1), g=g.copy())

    simulate(tables, bots, seats.astype(np.int16), Streams(1, 0, games), after_turn=after_turn)
    print(f"{sys.argv[1]}: {games} games (seed 1, one batch)")
    width = max(len(k) for k in ORDER)
    for key in ORDER:
        print(f"  {key:<{width}}  {n[key]:,}")


if __name__ == "__main__":
    main()
