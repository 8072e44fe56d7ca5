"""Theory check: the engine against exact probabilities.

With every card and Playbook effect removed and Pit Stops off, a turn moves the
marker by one die roll and nothing else (Debris and Playbooks do nothing). A lap
ends when the marker reaches or passes the track length L: it stops there, the
excess is lost, and the next lap starts from space 0 (rulebook 6.1). So the
turns one lap takes, X, have an exact law (a small dynamic program over the
spaces), and a player's turns to finish the race, T, are the sum of `laps`
independent copies of X. Seat 0 plays first in every round and the first to
complete the last lap wins at once (6.3), so seat p wins in round r exactly when
T_p = r, T_q > r for every seat q before p and T_q >= r for every seat after.

What is measured, and its exact law (no simulation on the theory side):

* the winning seat W and the rounds played R = min T: their joint law
  P(W = p, R = r) = P(T = r) P(T > r)^p P(T >= r)^(P-1-p);
* `lap_turns[:, p, l]`, the turns seat p started on lap l+1. Seat p took
  turns_p = min(T_p, C_p) turns, where C_p = min(T_q - 1 for q < p, T_q for q > p)
  is independent of seat p's own dice; so the count is
  max(0, min(S_{l+1}, C_p) - S_l), S_l being the sum of its first l lap times.
  This includes the laps cut short by the end of the game, so the whole sample
  is used and nothing is conditioned on.

Tolerances (computed from the actual number of games G, so they scale with
BALANCE_STAT_SCALE):

* each seat's win rate lies within 4.5 binomial standard errors,
  4.5 * sqrt(p (1 - p) / G), of its exact value;
* the mean number of rounds lies within 4.5 standard errors, 4.5 * sd(R) / sqrt(G);
* distributions (rounds played; winner and rounds jointly; every seat's turns on
  every lap) pass Pearson's chi-square test, cells pooled to an expected count
  of at least 20, at 4.5 standard errors: the statistic's Wilson-Hilferty
  normal deviate must stay below 4.5 (a false alarm rate of about 3e-6 each).

The simulations use fixed seeds, so the test is deterministic. Set
BALANCE_STAT_SCALE (default 1.0) to multiply the number of games.
"""

from __future__ import annotations

import functools
import itertools
import math
import os
from dataclasses import dataclass
from fractions import Fraction
from pathlib import Path

import numpy as np
import pytest
import yaml

from balance.games.chance import Streams

ROOT = Path(__file__).resolve().parents[1]
CARDS = ROOT / "examples" / "first-draft" / "cards.yaml"  # as conftest.CARDS
SCALE = float(os.environ.get("BALANCE_STAT_SCALE", "1.0"))
Z = 4.5  # standard errors allowed
MIN_EXPECTED = 20.0  # chi-square cells are pooled up to this expected count
SIDES = 6


# --- the exact laws ----------------------------------------------------------


def lap_law(L: int, sides: int = SIDES) -> np.ndarray:
    """pmf[t] = P(one lap takes t turns), t = 0..L: a DP over the space the marker is on."""
    pmf = np.zeros(L + 1)
    at = np.zeros(L)  # probability of being on space x < L, lap not done, after t turns
    at[0] = 1.0
    for t in range(1, L + 1):
        nxt = np.zeros(L)
        for r in range(1, sides + 1):
            if r < L:
                nxt[r:] += at[: L - r] / sides
            pmf[t] += at[max(L - r, 0) :].sum() / sides
        at = nxt
    return pmf


def sum_law(pmf: np.ndarray, n: int) -> np.ndarray:
    """The law of the sum of n independent copies (n = 0: always 0)."""
    out = np.array([1.0])
    for _ in range(n):
        out = np.convolve(out, pmf)
    return out


def seat_round_law(race: np.ndarray, P: int) -> np.ndarray:
    """(P, len(race)) joint law of the winning seat and the rounds played."""
    gt = 1.0 - np.cumsum(race)  # P(T > r)
    ge = gt + race  # P(T >= r)
    p = np.arange(P)[:, None]
    return race[None, :] * gt[None, :] ** p * ge[None, :] ** (P - 1 - p)


def lap_count_law(lap: np.ndarray, laps: int, P: int, seat: int, lap_no: int) -> np.ndarray:
    """Law of lap_turns[:, seat, lap_no] (0-based lap number), values 0..L: see the module docstring."""
    race = sum_law(lap, laps)
    n = len(race) + len(lap) + 2
    race_ge = np.zeros(n + 1)
    race_ge[: len(race)] = 1.0 - np.concatenate([[0.0], np.cumsum(race)[:-1]])  # P(T >= c)
    c = np.arange(n)
    c_ge = race_ge[np.minimum(c + 1, n)] ** seat * race_ge[c] ** (P - 1 - seat)  # P(C >= c)
    c_eq = c_ge - np.append(c_ge[1:], 0.0)
    before = sum_law(lap, lap_no)  # S_l, the turns of the laps before
    x_gt = 1.0 - np.cumsum(lap)  # P(X > t)
    out = np.zeros(len(lap))
    for t in range(1, len(lap)):
        s = np.arange(len(before))
        out[t] = (before * (lap[t] * c_ge[s + t] + x_gt[t] * c_eq[s + t])).sum()
    out[0] = 1.0 - out[1:].sum()
    return out


# --- statistics ----------------------------------------------------------------


def pooled(expected: np.ndarray, observed: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Merge neighbouring cells (in order) until each expects at least MIN_EXPECTED."""
    exp_out, obs_out = [], []
    e_acc = o_acc = 0.0
    for e, o in zip(expected, observed, strict=True):
        e_acc += e
        o_acc += o
        if e_acc >= MIN_EXPECTED:
            exp_out.append(e_acc)
            obs_out.append(o_acc)
            e_acc = o_acc = 0.0
    if exp_out:
        exp_out[-1] += e_acc
        obs_out[-1] += o_acc
    else:
        exp_out, obs_out = [e_acc], [o_acc]
    return np.array(exp_out), np.array(obs_out)


def chi_square_z(cells: list[tuple[np.ndarray, np.ndarray]]) -> tuple[float, float, int]:
    """Pearson's statistic over the pooled cells of every (expected, observed) group,
    its degrees of freedom (cells - 1) and the Wilson-Hilferty normal deviate."""
    exp = np.concatenate([pooled(e, o)[0] for e, o in cells])
    obs = np.concatenate([pooled(e, o)[1] for e, o in cells])
    assert abs(exp.sum() - obs.sum()) < 1e-6 * obs.sum()
    k = len(exp) - 1
    if k < 1:
        return 0.0, -math.inf, k
    x2 = float(((obs - exp) ** 2 / exp).sum())
    z = ((x2 / k) ** (1 / 3) - (1 - 2 / (9 * k))) / math.sqrt(2 / (9 * k))
    return x2, z, k


def assert_chi_square(what: str, cells: list[tuple[np.ndarray, np.ndarray]]) -> None:
    x2, z, k = chi_square_z(cells)
    assert z < Z, f"{what}: chi-square {x2:.1f} on {k} degrees of freedom, {z:.2f} standard errors (limit {Z})"


# --- the simulations --------------------------------------------------------------


@dataclass(frozen=True)
class Case:
    name: str
    players: int
    games: int  # before BALANCE_STAT_SCALE
    seed: int
    track_length: int = 50
    laps: int = 3
    auction_spaces: tuple[int, ...] = (10, 20, 30, 40)
    incinerator_spaces: tuple[int, ...] = (15, 35)

    @property
    def G(self) -> int:
        return max(int(round(self.games * SCALE)), 50)


CASES = [
    Case("2p-L50", players=2, games=4000, seed=20240611),
    Case("3p-L50", players=3, games=3000, seed=20240612),
    Case("4p-L50", players=4, games=3000, seed=20240613),
    Case(
        "3p-L30",
        players=3,
        games=3000,
        seed=20240614,
        track_length=30,
        auction_spaces=(10, 20),
        incinerator_spaces=(15,),
    ),
    Case("2p-L50-one-lap", players=2, games=6000, seed=20240615, laps=1),
]


@dataclass(frozen=True)
class Outcome:
    G: int
    sides: int
    winner: np.ndarray  # (G,)
    rounds: np.ndarray  # (G,)
    turns: np.ndarray  # (G, P)
    lap_turns: np.ndarray  # (G, P, laps)


@functools.cache
def run(case: Case) -> Outcome:
    from balance.games.horsepower.bots import bot_table, resolve_profiles
    from balance.games.horsepower.compile import compile_database
    from balance.games.horsepower.compiled import simulate  # the engine runs play on
    from balance.games.horsepower.schema import validate_database
    from balance.yamlio import parse_yaml

    data = yaml.safe_load(CARDS.read_text())
    for card in data["cards"]:
        card["effects"] = []
    for playbook in data["playbooks"]:
        playbook["effects"] = []
    rules = data["rules"]
    rules["track_length"] = case.track_length
    rules["laps"] = case.laps
    rules["auction_spaces"] = list(case.auction_spaces)
    rules["incinerator_spaces"] = list(case.incinerator_spaces)
    assert rules["dice_per_drive"] == 1
    assert rules["max_rounds"] >= case.laps * case.track_length  # every game finishes (a roll moves >= 1)
    db = validate_database(parse_yaml(yaml.safe_dump(data, sort_keys=False), f"exact-{case.name}.yaml"))
    tables = compile_database(db)
    P, G = case.players, case.G
    profiles = resolve_profiles({"racer": {"pit_stop": "never"}})
    bots = bot_table(profiles, ["racer"] * P, tables, P)
    seats = np.tile(np.arange(P, dtype=np.int16), (G, 1))
    st = simulate(tables, bots, seats, Streams(case.seed, 0, len(seats)))
    return Outcome(
        G=G,
        sides=int(rules["die_sides"]),
        winner=st.winner.astype(np.int64),
        rounds=st.round.astype(np.int64),
        turns=st.turns.astype(np.int64),
        lap_turns=st.lap_turns.astype(np.int64),
    )


def laws(case: Case, out: Outcome) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    lap = lap_law(case.track_length, out.sides)
    race = sum_law(lap, case.laps)
    return lap, race, seat_round_law(race, case.players)


by_name = pytest.mark.parametrize("case", CASES, ids=[c.name for c in CASES])


# --- the DP itself (pure, fast) -------------------------------------------------


def enumerate_race(L: int, laps: int, sides: int = SIDES) -> dict[int, Fraction]:
    """The law of the turns to finish `laps` laps, playing out every sequence of
    rolls by the rules (stop at L, excess lost, next lap from 0)."""
    law: dict[int, Fraction] = {}
    n = laps * L  # no race takes more turns than this
    for rolls in itertools.product(range(1, sides + 1), repeat=n):
        pos, lap = 0, 1
        for t, r in enumerate(rolls, 1):
            pos = min(pos + r, L)
            if pos == L:
                if lap == laps:
                    law[t] = law.get(t, Fraction(0)) + Fraction(1, sides**n)
                    break
                pos, lap = 0, lap + 1
    return law


def test_one_lap_of_six_spaces():
    pmf = lap_law(6)
    assert pmf[0] == 0
    assert pmf[1] == pytest.approx(1 / 6)  # only a 6 gets there in one roll
    assert pmf[6] == pytest.approx(6**-5)  # only five 1s fail to get there in five
    assert pmf.sum() == pytest.approx(1.0, abs=1e-12)


@pytest.mark.parametrize(("L", "laps"), [(1, 1), (2, 1), (4, 1), (6, 1), (2, 2), (3, 2)])
def test_lap_dp_matches_enumeration(L, laps):
    exact = enumerate_race(L, laps)
    race = sum_law(lap_law(L), laps)
    assert sum(exact.values()) == 1
    assert race.sum() == pytest.approx(1.0, abs=1e-12)
    for t, prob in enumerate(race):
        assert prob == pytest.approx(float(exact.get(t, 0)), abs=1e-12)
    mean = sum(t * p for t, p in exact.items())
    assert (np.arange(len(race)) * race).sum() == pytest.approx(float(mean), abs=1e-12)


def test_long_track_law_is_a_distribution():
    for L in (30, 50):
        lap = lap_law(L)
        assert lap.sum() == pytest.approx(1.0, abs=1e-12)
        assert (lap[: -(-L // SIDES)] == 0).all() and lap[-(-L // SIDES)] > 0  # at least ceil(L / 6) turns
        # the mean turns per lap, by first-step analysis: m(x) = 1 + mean of m(x + r), m(>= L) = 0
        m = np.zeros(L + SIDES)
        for x in range(L - 1, -1, -1):
            m[x] = 1 + m[x + 1 : x + 1 + SIDES].mean()
        assert (np.arange(L + 1) * lap).sum() == pytest.approx(m[0], rel=1e-12)


def play_rounds_literally(lap_times: list[tuple[int, ...]]) -> tuple[int, int, list[list[int]]]:
    """Given every seat's lap times, play the rounds seat by seat: (winner, rounds, lap turns)."""
    P, laps = len(lap_times), len(lap_times[0])
    lap_turns = [[0] * laps for _ in range(P)]
    lap_of, left = [0] * P, [times[0] for times in lap_times]
    r = 0
    while True:
        r += 1
        for p in range(P):
            lap_turns[p][lap_of[p]] += 1
            left[p] -= 1
            if left[p] == 0:
                if lap_of[p] == laps - 1:
                    return p, r, lap_turns
                lap_of[p] += 1
                left[p] = lap_times[p][lap_of[p]]


@pytest.mark.parametrize(("L", "laps", "P"), [(3, 1, 2), (3, 2, 2), (4, 1, 3), (3, 2, 3), (2, 3, 2)])
def test_seat_and_lap_count_laws_match_literal_play(L, laps, P):
    lap = lap_law(L)
    support = [t for t in range(len(lap)) if lap[t] > 0]
    joint = np.zeros((P, laps * L + 1))
    counts = np.zeros((P, laps, L + 1))
    for times in itertools.product(itertools.product(support, repeat=laps), repeat=P):
        prob = math.prod(lap[t] for seat in times for t in seat)
        w, r, lap_turns = play_rounds_literally(list(times))
        joint[w, r] += prob
        for p in range(P):
            for lap_no in range(laps):
                counts[p, lap_no, lap_turns[p][lap_no]] += prob
    np.testing.assert_allclose(seat_round_law(sum_law(lap, laps), P), joint, atol=1e-12)
    for p in range(P):
        for lap_no in range(laps):
            np.testing.assert_allclose(lap_count_law(lap, laps, P, p, lap_no), counts[p, lap_no], atol=1e-12)


# --- the engine against the laws ---------------------------------------------------


@pytest.mark.statistical
@by_name
def test_every_game_ends_by_the_rules(case):
    """Deterministic consequences: someone wins; seats up to the winner played R
    turns, seats after it R - 1; the lap counts add up to the turns."""
    out = run(case)
    P, L = case.players, case.track_length
    assert (out.winner >= 0).all() and (out.winner < P).all()
    seat = np.arange(P)[None, :]
    expected_turns = out.rounds[:, None] - (seat > out.winner[:, None])
    np.testing.assert_array_equal(out.turns, expected_turns)
    np.testing.assert_array_equal(out.lap_turns.sum(axis=2), out.turns)
    won = out.lap_turns[np.arange(out.G), out.winner]  # (G, laps): every lap of the winner is complete
    assert (won >= -(-L // out.sides)).all() and (won <= L).all()


@pytest.mark.statistical
@by_name
def test_winning_seat(case):
    """Each seat's win rate within 4.5 binomial standard errors of the exact law."""
    out = run(case)
    _, _, joint = laws(case, out)
    exact = joint.sum(axis=1)
    assert exact.sum() == pytest.approx(1.0, abs=1e-9)
    rate = np.bincount(out.winner, minlength=case.players) / out.G
    bound = Z * np.sqrt(exact * (1 - exact) / out.G)
    report = ", ".join(f"seat {p}: {rate[p]:.4f} vs {exact[p]:.4f} +- {bound[p]:.4f}" for p in range(case.players))
    assert (np.abs(rate - exact) <= bound).all(), f"G={out.G}: {report}"


@pytest.mark.statistical
@by_name
def test_rounds_played(case):
    """The rounds played: mean within 4.5 standard errors, whole law by chi-square."""
    out = run(case)
    _, _, joint = laws(case, out)
    exact = joint.sum(axis=0)
    r = np.arange(len(exact))
    mean, sd = (r * exact).sum(), math.sqrt((r**2 * exact).sum() - (r * exact).sum() ** 2)
    bound = Z * sd / math.sqrt(out.G)
    got = out.rounds.mean()
    assert abs(got - mean) <= bound, f"G={out.G}: mean rounds {got:.3f} vs exact {mean:.3f} +- {bound:.3f}"
    observed = np.bincount(out.rounds, minlength=len(exact))
    assert len(observed) == len(exact), "a game took more rounds than possible"
    assert_chi_square(f"rounds played, G={out.G}", [(exact * out.G, observed)])


@pytest.mark.statistical
@by_name
def test_winner_and_rounds_jointly(case):
    """The joint law of (winning seat, rounds played) by chi-square (it catches a
    wrong tie-break that the marginals could miss)."""
    out = run(case)
    _, _, joint = laws(case, out)
    observed = np.zeros_like(joint)
    np.add.at(observed, (out.winner, out.rounds), 1)
    cells = [(joint[p] * out.G, observed[p]) for p in range(case.players)]
    assert_chi_square(f"winner x rounds, G={out.G}", cells)


@pytest.mark.statistical
@by_name
def test_turns_on_each_lap(case):
    """Every seat's turns on every lap (lap_turns, cut-short laps included): the
    mean within 4.5 standard errors and the whole law by chi-square."""
    out = run(case)
    lap = laws(case, out)[0]
    P = case.players
    t = np.arange(len(lap))
    for p in range(P):
        for lap_no in range(case.laps):
            exact = lap_count_law(lap, case.laps, P, p, lap_no)
            what = f"seat {p} lap {lap_no + 1} turns, G={out.G}"
            observed = np.bincount(out.lap_turns[:, p, lap_no], minlength=len(exact))
            assert len(observed) == len(exact), f"{what}: more than {case.track_length} turns on one lap"
            mean = (t * exact).sum()
            bound = Z * math.sqrt((t**2 * exact).sum() - mean**2) / math.sqrt(out.G)
            got = out.lap_turns[:, p, lap_no].mean()
            assert abs(got - mean) <= bound, f"{what}: mean {got:.3f} vs exact {mean:.3f} +- {bound:.3f}"
            assert_chi_square(what, [(exact * out.G, observed)])
