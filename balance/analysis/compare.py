"""Baseline against variant, metric by metric, with honest intervals.

Both runs use the same seeds, chunks and seat order (common random numbers),
so game g of the variant is game g of the baseline with the design change.
Win rates by seat and by bot are compared game by game (a paired difference:
the mean of per-game differences, its normal interval from their spread);
where games cannot be paired (lap times, card and Playbook statistics, whose
players differ once the games diverge) the two estimates are treated as
independent, which is conservative. Every row gets a two-sided p-value, and
`significant` applies Benjamini-Hochberg at 5% over all rows of a variant.
"""

from __future__ import annotations

import math

import numpy as np
import polars as pl

from .cards import card_stats, playbook_stats
from .laps import lap_times
from .stats import Z95, benjamini_hochberg, newcombe_diff
from .winrate import Run

COLUMNS = ("variant", "metric", "key", "n", "baseline", "value", "diff", "ci_low", "ci_high", "p_value", "significant")


def _normal_p(diff: np.ndarray, se: np.ndarray) -> np.ndarray:
    with np.errstate(invalid="ignore", divide="ignore"):
        z = np.abs(diff) / se
    p = np.array([math.erfc(v / math.sqrt(2)) if np.isfinite(v) else np.nan for v in np.atleast_1d(z)])
    return np.where((se == 0) & (diff == 0), 1.0, p)  # identical everywhere: no difference at all


def _paired(base: pl.DataFrame, var: pl.DataFrame, keys: list[str], pair: list[str], metric: str) -> pl.DataFrame:
    """Paired comparison of the 0/1 column `won`, by `keys`, pairing rows on `pair`."""
    joined = base.join(var, on=pair, suffix="_v")
    d = (pl.col("won_v").cast(pl.Int8) - pl.col("won").cast(pl.Int8)).cast(pl.Float64)
    table = (
        joined.group_by(keys)
        .agg(
            pl.len().alias("n"),
            pl.col("won").mean().alias("baseline"),
            pl.col("won_v").mean().alias("value"),
            d.mean().alias("diff"),
            d.std(ddof=1).fill_null(0).alias("sd"),
        )
        .sort(keys)
    )
    se = (table["sd"] / table["n"].cast(pl.Float64).sqrt()).to_numpy()
    diff = table["diff"].to_numpy()
    return table.select(
        pl.lit(metric).alias("metric"),
        pl.concat_str([pl.col(k).cast(pl.String) for k in keys], separator="/").alias("key"),
        "n",
        "baseline",
        "value",
        "diff",
        pl.Series("ci_low", diff - Z95 * se),
        pl.Series("ci_high", diff + Z95 * se),
        pl.Series("p_value", _normal_p(diff, se)),
    )


def _independent(key: list[str], metric: str, n, b, v, b_se, v_se) -> pl.DataFrame:
    b, v = np.asarray(b, float), np.asarray(v, float)
    se = np.sqrt(np.asarray(b_se, float) ** 2 + np.asarray(v_se, float) ** 2)
    diff = v - b
    return pl.DataFrame(
        {
            "metric": [metric] * len(key),
            "key": key,
            "n": np.asarray(n, np.int64),
            "baseline": b,
            "value": v,
            "diff": diff,
            "ci_low": diff - Z95 * se,
            "ci_high": diff + Z95 * se,
            "p_value": _normal_p(diff, se),
        }
    )


def _half_width_se(low: np.ndarray, high: np.ndarray) -> np.ndarray:
    """A standard error from a 95% interval (half its width over z)."""
    return (np.asarray(high, float) - np.asarray(low, float)) / (2 * Z95)


def compare_runs(
    baseline: Run, variant: Run, name: str, catalog: list[str] | None = None, playbooks: list[str] | None = None
) -> pl.DataFrame:
    """Every report metric of `variant` against `baseline`, one row each (COLUMNS)."""
    pb = baseline["players"].select("game_id", "seat", "bot", "won").collect()
    pv = variant["players"].select("game_id", "seat", "bot", "won").collect()
    parts = [
        _paired(pb, pv.drop("bot"), ["seat"], ["game_id", "seat"], "win rate by seat"),
        _paired(pb, pv.drop("bot"), ["bot"], ["game_id", "seat"], "win rate by bot"),
    ]

    lb = (
        lap_times(baseline)
        .group_by("lap")
        .agg(pl.len().alias("n"), pl.col("turns").mean().alias("m"), pl.col("turns").std().alias("s"))
        .sort("lap")
        .collect()
    )
    lv = (
        lap_times(variant)
        .group_by("lap")
        .agg(pl.len().alias("n"), pl.col("turns").mean().alias("m"), pl.col("turns").std().alias("s"))
        .sort("lap")
        .collect()
    )
    laps = lb.join(lv, on="lap", suffix="_v")
    parts.append(
        _independent(
            [f"lap {x}" for x in laps["lap"]],
            "mean turns per lap",
            np.minimum(laps["n"], laps["n_v"]),
            laps["m"],
            laps["m_v"],
            laps["s"] / laps["n"].sqrt(),
            laps["s_v"] / laps["n_v"].sqrt(),
        )
    )

    cb, cv = card_stats(baseline, catalog), card_stats(variant, catalog)
    cards = cb.join(cv, on="card", suffix="_v")
    for rate in ("draft_rate", "buy_rate"):
        k1, n1 = (cards[rate] * cards["player_games"]).to_numpy(), cards["player_games"].to_numpy()
        k2, n2 = (cards[f"{rate}_v"] * cards["player_games_v"]).to_numpy(), cards["player_games_v"].to_numpy()
        diff, low, high = newcombe_diff(k2, n2, k1, n1)
        parts.append(
            pl.DataFrame(
                {
                    "metric": [f"card {rate.replace('_', ' ')}"] * cards.height,
                    "key": cards["card"],
                    "n": n2.astype(np.int64),
                    "baseline": cards[rate],
                    "value": cards[f"{rate}_v"],
                    "diff": diff,
                    "ci_low": low,
                    "ci_high": high,
                    "p_value": _normal_p(diff, _half_width_se(low, high)),
                }
            )
        )
    for how in ("drafted", "bought"):
        parts.append(
            _independent(
                cards["card"].to_list(),
                f"card win rate added when {how}",
                cards[f"n_{how}_v"],
                cards[f"added_{how}"],
                cards[f"added_{how}_v"],
                _half_width_se(cards[f"added_low_{how}"], cards[f"added_high_{how}"]),
                _half_width_se(cards[f"added_low_{how}_v"], cards[f"added_high_{how}_v"]),
            )
        )

    bb, bv = playbook_stats(baseline, playbooks), playbook_stats(variant, playbooks)
    books = bb.join(bv, on="playbook", suffix="_v")
    k1, n1 = books["n_drafted"].to_numpy(), books["player_games"].to_numpy()
    k2, n2 = books["n_drafted_v"].to_numpy(), books["player_games_v"].to_numpy()
    diff, low, high = newcombe_diff(k2, n2, k1, n1)
    parts.append(
        pl.DataFrame(
            {
                "metric": ["Playbook draft rate"] * books.height,
                "key": books["playbook"],
                "n": n2.astype(np.int64),
                "baseline": books["draft_rate"],
                "value": books["draft_rate_v"],
                "diff": diff,
                "ci_low": low,
                "ci_high": high,
                "p_value": _normal_p(diff, _half_width_se(low, high)),
            }
        )
    )
    parts.append(
        _independent(
            books["playbook"].to_list(),
            "Playbook win rate added when held",
            books["n_held_v"],
            books["added_held"],
            books["added_held_v"],
            _half_width_se(books["added_low_held"], books["added_high_held"]),
            _half_width_se(books["added_low_held_v"], books["added_high_held_v"]),
        )
    )

    table = pl.concat(
        [
            p.with_columns(
                pl.col("key").cast(pl.String),
                pl.col("n").cast(pl.Int64),
                *(pl.col(c).cast(pl.Float64) for c in ("baseline", "value", "diff", "ci_low", "ci_high", "p_value")),
            )
            for p in parts
        ]
    )
    significant = benjamini_hochberg(table["p_value"].to_numpy())
    return table.with_columns(pl.lit(name).alias("variant"), pl.Series("significant", significant)).select(COLUMNS)
