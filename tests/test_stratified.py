"""The win rate a card adds within bot profiles (Mantel-Haenszel over bots,
Sato's variance): on a hand-made run where the pooled figure is negative only
because the weak bot takes the card, with one bot (equal to the pooled one),
and on a small real Horsepower run."""

from __future__ import annotations

import math

import numpy as np
import polars as pl
import pytest

from balance.analysis import cards
from balance.analysis.stats import Z95, mantel_haenszel_diff
from balance.runner import RunOptions, run

from .conftest import SCENARIO

# Per bot: (wins with the card, players with it, wins without, players without).
# The racer wins often and seldom drafts the spike strip; the saboteur wins
# little and drafts it most of the time. Within each bot the card helps.
STRATA = {
    "racer": (4, 5, 24, 40),  # 4/5 = 0.8 against 24/40 = 0.6: +0.2
    "saboteur": (12, 40, 2, 10),  # 12/40 = 0.3 against 2/10 = 0.2: +0.1
}
# Pooled: 16/45 = 0.3556 against 26/50 = 0.52: -37/225 = -0.1644.
RAW = 16 / 45 - 26 / 50
# Mantel-Haenszel, w = n1 n0 / N: racer 5 * 40 / 45 = 40/9, saboteur 40 * 10 / 50 = 8, W = 112/9;
# RD = (40/9 * 0.2 + 8 * 0.1) / (112/9) = (8/9 + 7.2/9) / (112/9) = 15.2 / 112 = 19/140 = 0.135714.
MH = 19 / 140
# Sato's variance, P = (n1^2 c - n0^2 a + n1 n0 (n0 - n1) / 2) / N^2, Q = (a (n0 - c) + c (n1 - a)) / (2 N):
#   racer:    P = (25 * 24 - 1600 * 4 + 200 * 35 / 2) / 2025 = -2300/2025 = -92/81,
#             Q = (4 * 16 + 24 * 1) / 90 = 88/90 = 44/45;
#   saboteur: P = (1600 * 2 - 100 * 12 + 400 * (-30) / 2) / 2500 = -4000/2500 = -8/5,
#             Q = (12 * 8 + 2 * 28) / 100 = 152/100 = 38/25;
#   sum P = -1108/405, sum Q = 562/225,
#   var = (RD sum P + sum Q) / W^2 = (-5263/14175 + 35406/14175) / (12544/81) = 30143/2195200 = 0.0137313.
VARIANCE = 30143 / 2195200


def fake_run(strata: dict[str, tuple[int, int, int, int]]) -> dict[str, pl.LazyFrame]:
    """The tables card_stats reads, built from per-bot counts: one player per
    (bot, drafted, won) as the counts say, five seats to a game, and a draft
    event of `spike_strip` for each player who drafted it. (card_stats counts
    player-games only, so a game here may have several winners or none.)"""
    bots, won, drafted = [], [], []
    for bot, (a, n1, c, n0) in strata.items():
        for wins, n, with_card in ((a, n1, True), (c, n0, False)):
            bots += [bot] * n
            won += [True] * wins + [False] * (n - wins)
            drafted += [with_card] * n
    players = pl.DataFrame(
        {
            "game_id": [i // 5 for i in range(len(bots))],
            "seat": [i % 5 for i in range(len(bots))],
            "bot": bots,
            "won": won,
        },
        schema_overrides={"seat": pl.Int8},
    )
    takers = players.filter(pl.Series(drafted))
    events = takers.select(
        "game_id",
        "seat",
        pl.lit("spike_strip").alias("card"),
        pl.lit("draft").alias("event"),
        pl.lit(1, pl.Int16).alias("pick"),
        pl.lit(None, pl.Int16).alias("price"),
    )
    games = players.select(pl.col("game_id").unique().sort())
    return {"games": games.lazy(), "players": players.lazy(), "cards": events.lazy()}


def spike(table: pl.DataFrame) -> dict:
    return table.filter(pl.col("card") == "spike_strip").row(0, named=True)


def test_within_bots_the_card_helps_though_pooled_it_hurts():
    row = spike(cards.card_stats(fake_run(STRATA), catalog=["spike_strip", "never_seen"]))
    assert (row["n_drafted"], row["wins_drafted"]) == (45, 16)
    assert row["added_raw_drafted"] == pytest.approx(RAW, abs=1e-12) and RAW < -0.16
    assert row["added_drafted"] == pytest.approx(MH, abs=1e-12)
    half = Z95 * math.sqrt(VARIANCE)
    assert row["added_low_drafted"] == pytest.approx(MH - half, abs=1e-12)
    assert row["added_high_drafted"] == pytest.approx(MH + half, abs=1e-12)
    # the test is Cochran-Mantel-Haenszel's (variance under no difference), by hand:
    # racer E = 5*28/45 = 28/9, V = 5*40*28*17/(45^2*44) = 95200/89100;
    # saboteur E = 40*14/50 = 56/5, V = 40*10*14*36/(50^2*49) = 201600/122500;
    # z = (16 - 28/9 - 56/5) / sqrt(95200/89100 + 201600/122500) = 1.0251..., p = 0.30530
    cmh_z = (16 - 28 / 9 - 56 / 5) / math.sqrt(95200 / 89100 + 201600 / 122500)
    assert row["p_drafted"] == pytest.approx(math.erfc(cmh_z / math.sqrt(2)), abs=1e-12)
    assert row["p_drafted"] == pytest.approx(0.30530, abs=1e-5)
    assert row["significant_drafted"] is False
    # nothing bought: no test; the final deck is the draft here, so the same figure
    assert math.isnan(row["added_bought"]) and math.isnan(row["p_bought"])
    assert row["added_final"] == row["added_drafted"]
    never = cards.card_stats(fake_run(STRATA), catalog=["spike_strip", "never_seen"]).filter(
        pl.col("card") == "never_seen"
    )
    assert never["added_drafted"].is_nan().all() and not never["significant_drafted"].any()


def test_mantel_haenszel_diff_by_hand_and_vectorised():
    counts = np.array(list(STRATA.values()), dtype=float).T  # (a, n1, c, n0) each shaped (strata,)
    diff, low, high, p = mantel_haenszel_diff(*counts)
    assert float(diff) == pytest.approx(MH, abs=1e-15)
    assert ((float(high) - float(low)) / (2 * Z95)) ** 2 == pytest.approx(VARIANCE, rel=1e-12)
    # many rows at once, each as if alone; a stratum with an empty group weighs nothing
    rows = np.array(
        [
            [[4, 12], [5, 40], [24, 2], [40, 10]],  # the fixture
            [[4, 0], [5, 0], [24, 14], [40, 50]],  # no saboteur took it: the racer's difference alone
            [[0, 0], [0, 0], [28, 14], [45, 50]],  # nobody took it: NaN
            [[0, 3], [20, 7], [5, 9], [10, 13]],  # one group all lost in one stratum: fine
        ],
        dtype=float,
    ).transpose(1, 0, 2)  # (4 counts, 4 rows, 2 strata)
    diff, low, high, p = mantel_haenszel_diff(*rows)
    assert diff.shape == low.shape == high.shape == p.shape == (4,)
    for i in (0, 1, 3):
        alone = mantel_haenszel_diff(*rows[:, i, :])
        assert np.allclose([diff[i], low[i], high[i], p[i]], [float(v) for v in alone], rtol=0, atol=1e-15)
    assert diff[0] == pytest.approx(MH) and diff[1] == pytest.approx(0.2)
    assert np.isnan([diff[2], low[2], high[2], p[2]]).all()
    # one stratum: the plain difference with Wald's variance (0/23 against 24/97)
    d, lo, hi, _ = mantel_haenszel_diff([[0]], [[23]], [[24]], [[97]])
    assert float(d[0]) == 0 / 23 - 24 / 97
    assert ((float(hi[0]) - float(lo[0])) / (2 * Z95)) ** 2 == pytest.approx((24 / 97) * (73 / 97) / 97, rel=1e-12)


def test_one_bot_equals_the_pooled_difference():
    one = {"racer": (16, 45, 26, 50)}  # the fixture's pooled counts, all from one bot
    row = spike(cards.card_stats(fake_run(one)))
    assert row["added_drafted"] == row["added_raw_drafted"]
    assert row["added_final"] == row["added_raw_final"]


@pytest.fixture(scope="module")
def real_runs(tmp_path_factory):
    """Two small Horsepower runs: three different bots, and one bot in every seat."""
    base = tmp_path_factory.mktemp("stratified")
    out = {}
    for name, bots, games in (("mixed", "[racer, economist, saboteur]", 120), ("alone", "[racer, racer, racer]", 40)):
        text = SCENARIO.replace("bots: [racer, economist, random]", f"bots: {bots}")
        path = base / f"{name}.yaml"
        path.write_text(text.replace("games: 30", f"games: {games}").replace("chunk_size: 8", "chunk_size: 40"))
        run(path, RunOptions(out=base / name, jobs=1))
        out[name] = base / name
    return out


WITHIN = ("added", "added_low", "added_high", "p", "significant")  # the one win rate added: within bots


def test_real_run_columns_intervals_and_p_values(real_runs):
    for table, conditions in (
        (cards.card_stats(real_runs["mixed"]), ("drafted", "bought", "final")),
        (cards.playbook_stats(real_runs["mixed"]), ("drafted", "pit", "held")),
    ):
        for name in conditions:
            assert all(f"{column}_{name}" in table.columns for column in WITHIN)
            assert table[f"significant_{name}"].dtype == pl.Boolean
            est, low, high, p = (table[f"{c}_{name}"].to_numpy() for c in WITHIN[:4])
            tested = np.isfinite(est)
            assert tested.any()
            assert (low[tested] <= est[tested]).all() and (est[tested] <= high[tested]).all()
            p = p[np.isfinite(p)]
            assert ((p >= 0) & (p <= 1)).all()
            # no estimate without a raw difference to stand beside
            assert not (tested & np.isnan(table[f"added_raw_{name}"].to_numpy())).any()


def test_real_run_with_one_bot_equals_the_pooled_difference(real_runs):
    table = cards.card_stats(real_runs["alone"])
    for name in ("drafted", "bought", "final"):
        assert np.isfinite(table[f"added_raw_{name}"].to_numpy()).any()
        np.testing.assert_array_equal(table[f"added_{name}"].to_numpy(), table[f"added_raw_{name}"].to_numpy())


def test_the_findings_quote_the_figure_within_each_bot_profile():
    """A card that only looks bad because the weak bot takes it: the raw figure
    is significant and negative, the within-bot one positive; the page's line
    quotes the latter and says so."""
    from balance.report.findings import _card_lines

    cards = pl.DataFrame(
        {
            "card": ["spin_out"],
            "n_drafted": [45],
            "added_raw_drafted": [RAW],
            "added_raw_low_drafted": [-0.3],
            "added_raw_high_drafted": [-0.05],
            "significant_raw_drafted": [True],
            "added_drafted": [0.12],
            "added_low_drafted": [0.02],
            "added_high_drafted": [0.22],
            "significant_drafted": [True],
        }
    )
    assert _card_lines(cards, ["drafted"], {"spin_out": "Spin Out"}, 6, set()) == [
        "Spin Out: players who drafted it won 12.0 points more (+2.0 to +22.0), within each bot profile, n=45."
    ]
    assert _card_lines(cards, ["drafted"], {}, 6, {"spin_out"})[0].endswith("n=45 (the experiment says otherwise).")
    lines = _card_lines(cards.with_columns(significant_drafted=False), ["drafted"], {}, 6, set())
    assert lines == [
        "No card's win rate added (compared within each bot profile) is significant after the "
        "Benjamini-Hochberg correction."
    ]
