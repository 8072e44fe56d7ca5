"""Keyed random numbers (games/chance.py): a game is a function of (scenario,
seed, game id), whatever chunk it is played in, and a change that alters one
seat's play leaves the other seats' draws where they were."""

from __future__ import annotations

import re

import numpy as np
import polars as pl
import pytest

from balance import load_run
from balance.games.chance import SEATS, Streams, draw_one, roll, uniform
from balance.games.chance import compiled as keyed
from balance.games.horsepower import compiled
from balance.games.horsepower.bots import bot_table, resolve_profiles
from balance.games.horsepower.compiled import rules
from balance.games.horsepower.compiled.tables import PURPOSES
from balance.runner import RunOptions, run
from balance.scenario import load_scenario

from . import hp
from .conftest import CARDS, ROOT

SCENARIOS = {
    "horsepower": "four-player-mixed.yaml",
    "heat": "heat-usa.yaml",
    "downforce": "downforce-four.yaml",
    "shuffle_gp": "shuffle-gp-four.yaml",
}


def _tables(out) -> dict[str, pl.DataFrame]:
    """The run's tables in game order, less the `chunk` column (which chunk played a game: bookkeeping)."""
    keys = {"games": ["game_id"], "players": ["game_id", "seat"]}
    frames = {name: frame.collect() for name, frame in load_run(out).items()}
    frames = {name: f.drop("chunk", strict=False) for name, f in frames.items()}
    return {name: f.sort(keys.get(name, f.columns), maintain_order=True) for name, f in frames.items()}


@pytest.mark.parametrize("game", sorted(SCENARIOS))
def test_the_same_seed_gives_the_same_tables_whatever_the_chunk_size(game, tmp_path):
    """Every game of the run, in every table: chunks of 5 against one chunk of 24."""
    scenario = load_scenario(ROOT / "scenarios" / SCENARIOS[game])
    for name, size in (("small", 5), ("whole", 24)):
        run(scenario, RunOptions(out=tmp_path / name, games=24, chunk_size=size, jobs=1, seed=3))
    small, whole = _tables(tmp_path / "small"), _tables(tmp_path / "whole")
    assert small.keys() == whole.keys()
    for name in small:
        assert small[name].equals(whole[name]), name


def test_a_pool_draws_the_same_bots_whatever_the_chunk_size(tmp_path):
    path = tmp_path / "pool.yaml"
    path.write_text(
        f"name: pool\ngame: horsepower\ncards: {CARDS}\nplayers: 3\n"
        "bots: {pool: [racer, saboteur, economist]}\ngames: 18\nseed: 4\n"
    )
    scenario = load_scenario(path)
    for name, size in (("small", 4), ("whole", 18)):
        run(scenario, RunOptions(out=tmp_path / name, chunk_size=size, jobs=1))
    small, whole = _tables(tmp_path / "small"), _tables(tmp_path / "whole")
    assert small["players"].equals(whole["players"])
    assert small["players"]["bot"].n_unique() == 3


def test_a_draw_depends_on_its_game_seat_purpose_and_count_alone():
    """The same game id in two batches gets the same numbers; each other part
    of the key (seat, purpose, how many draws before it, step) changes them."""
    wide, alone = Streams(7, 100, 50), Streams(7, 130, 1)
    a = uniform(wide.key(np.array([30]), "dice", 2), 4)
    assert np.array_equal(a, uniform(alone.key(np.array([0]), "dice", 2), 4))
    others = [
        uniform(alone.key(np.array([0]), "dice", 2), 4),  # the second draw of that purpose
        uniform(alone.key(np.array([0]), "dice", 1), 4),
        uniform(alone.key(np.array([0]), "noise", 2), 4),
        uniform(Streams(8, 130, 1).key(np.array([0]), "dice", 2), 4),
    ]
    alone.next_step()  # the count starts again, the step is part of the key
    others.append(uniform(alone.key(np.array([0]), "dice", 2), 4))
    for other in others:
        assert not np.array_equal(a, other)


def test_keyed_numbers_are_uniform_and_independent_across_rows_and_columns():
    """Dice over 600,000 rolls: each face within 4.5 standard errors of 1/6; the
    correlation of neighbouring games and of a key's columns about 0."""
    n = 100_000
    s = Streams(11, 0, n)
    faces = roll(s.key(np.arange(n), "dice", 0), 6, 6)
    share = np.bincount(faces.ravel(), minlength=7)[1:] / faces.size
    assert np.all(np.abs(share - 1 / 6) < 4.5 * np.sqrt(1 / 6 * 5 / 6 / faces.size))
    u = uniform(s.key(np.arange(n), "noise", 1), 2).astype(np.float64)
    bound = 4.5 / np.sqrt(n)
    assert abs(np.corrcoef(u[:-1, 0], u[1:, 0])[0, 1]) < bound
    assert abs(np.corrcoef(u[:, 0], u[:, 1])[0, 1]) < bound
    assert abs(u.mean() - 0.5) < 4.5 * np.sqrt(1 / 12 / u.size)


def test_a_pile_draw_takes_each_card_in_proportion_to_its_copies():
    n = 60_000
    counts = np.tile(np.array([[1, 2, 3, 0]], np.int16), (n, 1))
    card = draw_one(Streams(2, 0, n).key(np.arange(n), "draw", 0), counts, np.ones(n, bool))
    share = np.bincount(card, minlength=4) / n
    for k, p in enumerate([1 / 6, 2 / 6, 3 / 6, 0]):
        assert abs(share[k] - p) <= 4.5 * np.sqrt(p * (1 - p) / n)
    assert (counts.sum(axis=1) == 5).all()


def play_logged(t, bots, games: int, seed: int):
    """Whole games on the compiled engine's phases (tests/hp.py), round by round,
    each game's draw counts kept after every round: (state, {(round, game): (purposes + 1, seats)
    counts}). The i-th draw of a purpose by a seat in a round has the key chance.compiled.key
    gives for that count (the engine asks it for every draw)."""
    m, st = hp.batch(t, 4, games, seed=seed, bots=bots)
    counts: dict[tuple[int, int], np.ndarray] = {}
    S = m.S(st)
    for g in range(games):
        X = m.X(g)
        for _ in range(t.rules.max_rounds):
            if not st.running[g]:
                break
            st.round[g] += 1
            keyed.next_step(m.draws[g])
            for s in range(4):
                rules.play_turn(m.T, S, X, g, s)
            counts[int(st.round[g]), g] = m.draws[g].copy()
    st.running[:] = False
    return st, m.streams, counts


def _faces(streams, counts, purpose: str, seat: int) -> dict[tuple[int, int], tuple]:
    """(round, game) -> the first two faces of each of `seat`'s draws of `purpose` in that round."""
    code = PURPOSES.index(purpose)
    out: dict[tuple[int, int], tuple] = {}
    for (step, g), made in counts.items():
        draws = np.zeros_like(made)
        draws[-1, 0] = step
        keys = np.array(
            [np.uint64(keyed.key(streams.game[g], draws, compiled.CODES, code, seat)) for _ in range(made[code, seat])],
            np.uint64,
        )
        if len(keys):
            out[step, g] = tuple(roll(keys, 6, 2).ravel().tolist())
    return out


def test_a_changed_card_leaves_the_other_seats_dice_and_draws_where_they_were():
    """Twin Turbo +6 -> +5 Drive changes the games of whoever plays it, and every
    other seat's Drive dice and card draws stay the same in every round both
    versions play (keyed by game, round, seat and purpose: one seat's extra or
    missing draw does not shift another's, as one shared stream did)."""

    def weaker(d):
        card = next(c for c in d["cards"] if c["id"] == "twin_turbo")
        card["effects"][0]["amount"] = 5

    G = 40
    bots = bot_table(resolve_profiles(None), ["racer", "economist", "saboteur", "balanced"], hp.tables(), 4)
    seats = np.tile(np.arange(4, dtype=np.int16), (G, 1))
    arms = []
    for t in (hp.tables(), hp.tables(weaker)):
        st, streams, counts = play_logged(t, bots, G, 5)
        whole = compiled.simulate(t, bots, seats, Streams(5, 0, G))
        assert np.array_equal(st.pos, whole.pos) and np.array_equal(st.played, whole.played), "the engine's games"
        arms.append((st, streams, counts))
    (a, sa, ca), (b, sb, cb) = arms
    changed = np.flatnonzero((a.pos != b.pos).any(axis=1) | (a.round != b.round))
    assert len(changed) >= 3, "the change must change some games"
    compared = 0
    for seat in range(4):
        for purpose in ("dice", "draw: new hand"):
            fa, fb = _faces(sa, ca, purpose, seat), _faces(sb, cb, purpose, seat)
            both = fa.keys() & fb.keys()
            assert all(fa[k] == fb[k] for k in both), (seat, purpose)
            compared += sum(k[1] in changed for k in both)
    assert compared > 100  # draws compared in the games that went differently


def test_the_dice_a_game_rolls_are_its_keyed_dice():
    """The keys _faces reads are the engine's: every die a traced game shows is the
    die of its (game, round, seat) `dice` key, or of its `reroll` key."""
    from balance.games.recorder import Recorder

    t = hp.tables()
    bots = bot_table(resolve_profiles(None), ["racer", "economist", "saboteur", "balanced"], t, 4)
    seats = np.tile(np.arange(4, dtype=np.int16), (1, 1))
    dice_code, reroll_code = PURPOSES.index("dice"), PURPOSES.index("reroll")
    checked = 0
    for game in range(4):
        streams, rec = Streams(5, game, 1), Recorder(watch=0)
        compiled.simulate(t, bots, seats, streams, rec=rec)
        rnd = seat = None
        for line in rec.lines:
            turn = re.match(r"Round (\d+), seat (\d+)", line)
            if turn:
                rnd, seat = int(turn[1]), int(turn[2])
            elif line.startswith("  Drive: cards"):
                shown = [int(v) for v in line.split("dice [")[1].split("]")[0].split(",")]
                draws = np.zeros((len(compiled.CODES) + 1, SEATS), np.int64)
                draws[-1, 0] = rnd
                k = np.uint64(keyed.key(streams.game[0], draws, compiled.CODES, dice_code, seat))
                again = np.uint64(keyed.key(streams.game[0], draws, compiled.CODES, reroll_code, seat))
                for j, die in enumerate(shown):
                    rolled = keyed.roll_at(k, 6, j)
                    assert die in (rolled, keyed.roll_at(again, 6, j)), (game, rnd, seat, j)
                    checked += die == rolled
    assert checked > 100
