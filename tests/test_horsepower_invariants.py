"""The rules checker over many random games: every card in exactly one zone,
coins never negative, positions in range, one winner per finished game,
Playbooks only in the Playbook Deck or in play. Batched and one game at a time;
mixed bots including the random one. Also: the same seed gives the same games."""

from __future__ import annotations

import numpy as np
import pytest

from balance.games.chance import Streams
from balance.games.horsepower import compiled
from balance.games.horsepower.bots import bot_table, resolve_profiles
from balance.games.horsepower.compiled import rules

from . import hp
from .digests import digest

T = hp.tables()
MIXES = {
    2: ["random", "racer"],
    3: ["economist", "saboteur", "random"],
    4: ["racer", "economist", "saboteur", "balanced"],
}
# sha256 of the final states of test_invariants_hold_in_a_batch's games, recorded at commit 9118d96 (the
# last with both engines), where the numpy lockstep engine played the very same games with its own rules checker
# (invariants.violations) after every turn, and found nothing broken
STATE_DIGESTS = {
    2: "1ef282556be7c6360ec3a9c834fe802b",
    3: "22681514fa62d4fc703510175e7b1042",
    4: "f7c032c49f1550f34072c98c40d99771",
}


def run_checked(players: int, games: int, seed: int):
    """Games checked after every turn by the engine's rules checker (rules.rule_broken)."""
    bots = bot_table(resolve_profiles(None), MIXES[players], T, players)
    seats = (np.arange(players)[None, :] + np.arange(games)[:, None]) % players
    broken: list[str] = []
    return compiled.simulate(T, bots, seats, Streams(seed, 0, len(seats)), broken=broken), broken


@pytest.mark.parametrize("players", [2, 3, 4])
def test_invariants_hold_in_a_batch(players):
    st, broken = run_checked(players, games=400, seed=players)
    assert broken == []
    finished = st.winner >= 0
    assert finished.mean() > 0.99, "games finish well before the round cap"
    assert (np.bincount(st.winner[finished], minlength=players) > 0).all()
    assert digest(st, compiled.STATE_FIELDS) == STATE_DIGESTS[players], (
        "the games the numpy engine's checker passed changed"
    )


def test_invariants_hold_one_game_at_a_time():
    for seed in range(12):
        st, broken = run_checked(2 + seed % 3, games=1, seed=100 + seed)
        assert broken == [] and st.winner[0] >= 0


def test_same_seed_same_games():
    bots = bot_table(resolve_profiles(None), MIXES[4], T, 4)
    seats = np.tile(np.arange(4), (64, 1))
    a = compiled.simulate(T, bots, seats, Streams(7, 0, len(seats)))
    b = compiled.simulate(T, bots, seats, Streams(7, 0, len(seats)))
    for name in ("winner", "round", "coins", "pos", "lap", "bought", "played", "deck", "garage", "lap_turns"):
        assert np.array_equal(getattr(a, name), getattr(b, name)), name
    c = compiled.simulate(T, bots, seats, Streams(8, 0, len(seats)))
    assert not np.array_equal(a.played, c.played)


ASKS = (rules.ASK_SHOP, rules.ASK_DRIVE, rules.ASK_HAND, rules.ASK_EXTRA)


def test_a_games_modifiers_do_not_depend_on_the_rest_of_the_batch():
    """Regression: an unconditional effect once read as false when another game's
    row carried a `behind_leader` condition and this player led. Each game's
    modifier totals in the middle of a turn are the same in the batch as in a
    batch of that game alone."""
    bots = bot_table(resolve_profiles(None), MIXES[4], T, 4)
    ctx, st = hp.batch(T, 4, 200, seed=3, bots=bots)
    for _ in range(3):
        for s in range(4):
            hp.play_turn(ctx, st, s)
    idx = np.flatnonzero(st.running)
    turn = hp.new_turn(ctx, st, 0)
    hp.play_phase(ctx, st, turn, idx)
    batched = {g: [hp.modifier_totals(ctx, st, g, 0, ask) for ask in ASKS] for g in idx.tolist()}
    for g in idx.tolist():
        one, alone = hp.batch(T, 4, 1, seed=3, bots=bots)
        for name in compiled.STATE_FIELDS:
            getattr(alone, name)[0] = getattr(st, name)[g]
        hp.new_turn(one, alone, 0)  # the turn's modifiers and tallies read from the play area
        for ask, value in zip(ASKS, batched[g], strict=True):
            assert np.array_equal(hp.modifier_totals(one, alone, 0, 0, ask), value), (ask, g)
    # the turn's tallies, kept card by card, are what the play areas hold (the numbers modifiers read)
    tallies = np.array([ctx.turn_of(g)[0][[rules.U_PUZZLES, rules.U_TYPES]] for g in idx.tolist()])
    play = st.play[idx, 0].astype(np.int64)
    puzzles = play @ ctx.tab.is_puzzle
    types = np.array([np.bitwise_or.reduce(ctx.tab.type_bit[row > 0], initial=0) for row in play])
    assert np.array_equal(tallies[:, 0], puzzles) and np.array_equal(tallies[:, 1], types)
    assert np.count_nonzero(puzzles) and np.count_nonzero(types)  # the check saw cards in play
