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
from balance.games.horsepower.engine import simulate
from balance.games.horsepower.invariants import violations

from . import hp

T = hp.tables()
MIXES = {
    2: ["random", "racer"],
    3: ["economist", "saboteur", "random"],
    4: ["racer", "economist", "saboteur", "balanced"],
}


def run_checked(players: int, games: int, seed: int, engine: str = "compiled"):
    """Games checked after every turn: by the compiled engine's checker
    (rules.rule_broken) on the engine runs play on, or invariants.violations on
    the numpy engine's batch (kept for its phase-level rules tests)."""
    bots = bot_table(resolve_profiles(None), MIXES[players], T, players)
    seats = (np.arange(players)[None, :] + np.arange(games)[:, None]) % players
    broken: list[str] = []
    if engine == "compiled":
        return compiled.simulate(T, bots, seats, Streams(seed, 0, len(seats)), broken=broken), broken

    def check(st, seat):
        broken.extend(violations(st, T, seat))

    st = simulate(T, bots, seats, Streams(seed, 0, len(seats)), after_turn=check)
    return st, broken


@pytest.mark.parametrize("engine", ["compiled", "numpy"])
@pytest.mark.parametrize("players", [2, 3, 4])
def test_invariants_hold_in_a_batch(players, engine):
    st, broken = run_checked(players, games=400, seed=players, engine=engine)
    assert broken == []
    finished = st.winner >= 0
    assert finished.mean() > 0.99, "games finish well before the round cap"
    assert (np.bincount(st.winner[finished], minlength=players) > 0).all()


def test_invariants_hold_one_game_at_a_time():
    for seed in range(12):
        st, broken = run_checked(2 + seed % 3, games=1, seed=100 + seed)
        assert broken == [] and st.winner[0] >= 0


def test_same_seed_same_games():
    bots = bot_table(resolve_profiles(None), MIXES[4], T, 4)
    seats = np.tile(np.arange(4), (64, 1))
    a = simulate(T, bots, seats, Streams(7, 0, len(seats)))
    b = simulate(T, bots, seats, Streams(7, 0, len(seats)))
    for name in ("winner", "round", "coins", "pos", "lap", "bought", "played", "deck", "garage", "lap_turns"):
        assert np.array_equal(getattr(a, name), getattr(b, name)), name
    c = simulate(T, bots, seats, Streams(8, 0, len(seats)))
    assert not np.array_equal(a.played, c.played)


def test_a_games_modifiers_do_not_depend_on_the_rest_of_the_batch():
    """Regression: an unconditional effect once read as false when another game's
    row carried a `behind_leader` condition and this player led."""
    from balance.games.horsepower.context import Ctx
    from balance.games.horsepower.draft import setup
    from balance.games.horsepower.effects import modifier_totals, play_tallies
    from balance.games.horsepower.turn import new_turn, play_phase, play_turn
    from balance.games.recorder import Recorder

    bots = bot_table(resolve_profiles(None), MIXES[4], T, 4)
    ctx = Ctx(T, bots, Streams(3, 0, 200), Recorder())
    st = setup(ctx, np.tile(np.arange(4), (200, 1)))
    for _ in range(3):
        for s in range(4):
            play_turn(ctx, st, s)
    idx = np.flatnonzero(st.running)
    turn = new_turn(ctx, st, 0)
    play_phase(ctx, st, turn, idx)
    seat = np.zeros(len(idx), int)
    batched = modifier_totals(ctx, st, idx, seat)
    for j, g in enumerate(idx):
        alone = modifier_totals(ctx, st, np.array([g]), np.array([0]))
        for name, value in alone.items():
            assert np.array_equal(value[0], batched[name][j]), (name, g)
    # the turn's tallies, kept card by card, are what the play areas hold, and the
    # modifiers read through them are the ones read from the play areas
    puzzles, types = play_tallies(ctx, st.play[idx, 0])
    assert np.array_equal(turn.puzzles[idx], puzzles) and np.array_equal(turn.types[idx], types)
    assert np.count_nonzero(puzzles) and np.count_nonzero(types)  # the check saw cards in play
    through_turn = modifier_totals(ctx, st, idx, seat, turn=turn)
    for name, value in batched.items():
        assert np.array_equal(value, through_turn[name]), name
