"""Baseline against variant, metric by metric, with honest intervals.

Both runs use the same seeds, chunks and seat order (common random numbers),
so game g of the variant is game g of the baseline with the design change.
Win rates by seat and by bot, and the per-player tallies asked for (Heat's
Heat paid, slipstreams...; Downforce's money, prizes, bets and bids; Shuffle
Grand Prix's distance, trophies, damage and spin-outs), are
compared game by game (a paired difference: the mean of per-game
differences, its normal interval from their spread);
where games cannot be paired (lap times, card and Playbook statistics, Shuffle
Grand Prix's win rate by driver drafted, whose players differ once the games
or the draft diverge) the two estimates are treated as
independent, which is conservative. Every row gets a two-sided p-value, and
`significant` applies Benjamini-Hochberg at 5% over all rows of a variant.
"""

from __future__ import annotations

import numpy as np
import polars as pl

from .cards import card_stats, logged_events, playbook_stats
from .drivers import by_driver, has_drivers
from .laps import lap_times
from .stats import Z95, benjamini_hochberg, newcombe_diff, two_sided_p
from .winrate import Run

COLUMNS = ("variant", "metric", "key", "n", "baseline", "value", "diff", "ci_low", "ci_high", "p_value", "significant")


def _normal_p(diff: np.ndarray, se: np.ndarray) -> np.ndarray:
    with np.errstate(invalid="ignore", divide="ignore"):
        z = np.abs(diff) / se
    p = two_sided_p(np.where(np.isfinite(z), z, np.nan))
    return np.where((se == 0) & (diff == 0), 1.0, p)  # identical everywhere: no difference at all


def _paired(
    base: pl.DataFrame, var: pl.DataFrame, keys: list[str], pair: list[str], metric: str, value: str = "won"
) -> pl.DataFrame:
    """Paired comparison of the column `value` (the 0/1 `won`, or a count), by
    `keys`, pairing rows on `pair`; pairs where either value is null are left out."""
    joined = base.join(var, on=pair, suffix="_v").drop_nulls([value, f"{value}_v"])
    _check_counts(joined, value)
    d = pl.col(f"{value}_v").cast(pl.Int64) - pl.col(value).cast(pl.Int64)
    table = (
        joined.group_by(keys)
        .agg(
            pl.len().alias("n"),
            pl.col(value).cast(pl.Float64).mean().alias("baseline"),
            pl.col(f"{value}_v").cast(pl.Float64).mean().alias("value"),
            *_sums(d),
        )
        .sort(keys)
    )
    diff, sd = _mean_and_sd(table)
    se = sd / np.sqrt(table["n"].cast(pl.Float64).to_numpy())
    return table.select(
        pl.lit(metric).alias("metric"),
        pl.concat_str([pl.col(k).cast(pl.String) for k in keys], separator="/").alias("key"),
        "n",
        "baseline",
        "value",
        pl.Series("diff", diff),
        pl.Series("ci_low", diff - Z95 * se),
        pl.Series("ci_high", diff + Z95 * se),
        pl.Series("p_value", _normal_p(diff, se)),
    )


# A run's rows come in the order of its parts, which a resumed or re-chunked
# run lays out differently; a sum of floats depends on that order in its last
# digit. So every mean and deviation here comes from exact sums of whole
# numbers (wins, tallies, turns: every value compared is a count).


def _check_counts(frame: pl.DataFrame | pl.LazyFrame, column: str) -> None:
    dtype = frame.collect_schema()[column]
    if not (dtype == pl.Boolean or dtype.is_integer()):
        raise TypeError(f"compare pairs counts: {column} is {dtype}, whose sums depend on the rows' order")


def _sums(x: pl.Expr) -> list[pl.Expr]:
    """The sum and the sum of squares of `x` by group, for _mean_and_sd."""
    return [x.sum().alias("sum"), (x * x).sum().alias("sum_sq")]


def _mean_and_sd(table: pl.DataFrame) -> tuple[np.ndarray, np.ndarray]:
    """Each row's mean and sample standard deviation (0 below 2 values) from
    its n, sum and sum_sq, in Python's integers: the same to the last digit
    whatever order the rows were summed in."""
    means, sds = [], []
    for n, total, total_sq in zip(table["n"], table["sum"], table["sum_sq"], strict=True):
        means.append(total / n)
        sds.append(0.0 if n < 2 else float(np.sqrt((n * total_sq - total * total) / (n * (n - 1)))))
    return np.array(means, float), np.array(sds, float)


def _unpaired(base: pl.DataFrame, var: pl.DataFrame, keys: list[str], metric: str, value: str = "won") -> pl.DataFrame:
    """`_paired`'s rows for runs whose games are not the same deals (another
    seed or chunk plan): the two means by `keys` as independent samples."""

    def summary(frame: pl.DataFrame) -> pl.DataFrame:
        frame = frame.drop_nulls(value)
        _check_counts(frame, value)
        table = frame.group_by(keys).agg(pl.len().alias("n"), *_sums(pl.col(value).cast(pl.Int64)))
        m, s = _mean_and_sd(table)
        return table.select(*keys, "n", pl.Series("m", m), pl.Series("s", s))

    joined = summary(base).join(summary(var), on=keys, suffix="_v").sort(keys)
    key = joined.select(pl.concat_str([pl.col(k).cast(pl.String) for k in keys], separator="/"))
    n, n_v = joined["n"].to_numpy(), joined["n_v"].to_numpy()
    return _independent(
        key.to_series().to_list(),
        metric,
        np.minimum(n, n_v),
        joined["m"],
        joined["m_v"],
        joined["s"].to_numpy() / np.sqrt(n),
        joined["s_v"].to_numpy() / np.sqrt(n_v),
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


def _lap_means(run: Run) -> pl.DataFrame:
    """Completed laps by lap number: n, mean turns (m) and their standard deviation (s)."""
    table = lap_times(run).group_by("lap").agg(pl.len().alias("n"), *_sums(pl.col("turns").cast(pl.Int64)))
    table = table.sort("lap").collect()
    m, s = _mean_and_sd(table)
    return table.select("lap", "n", pl.Series("m", m), pl.Series("s", s))


def _rate_rows(metric: str, joined: pl.DataFrame, key: str, how: str) -> pl.DataFrame:
    """The share of player-games with `how` (n_how / player_games), baseline against variant (`_v`)."""
    k1, n1 = joined[f"n_{how}"].to_numpy(), joined["player_games"].to_numpy()
    k2, n2 = joined[f"n_{how}_v"].to_numpy(), joined["player_games_v"].to_numpy()
    diff, low, high = newcombe_diff(k2, n2, k1, n1)
    with np.errstate(invalid="ignore", divide="ignore"):
        return pl.DataFrame(
            {
                "metric": [metric] * joined.height,
                "key": joined[key],
                "n": n2.astype(np.int64),
                "baseline": k1 / n1,
                "value": k2 / n2,
                "diff": diff,
                "ci_low": low,
                "ci_high": high,
                "p_value": _normal_p(diff, _half_width_se(low, high)),
            }
        )


def _added_rows(metric: str, joined: pl.DataFrame, key: str, how: str) -> pl.DataFrame:
    """Win rate added with `how`, baseline against variant, as independent estimates."""
    return _independent(
        joined[key].to_list(),
        metric,
        joined[f"n_{how}_v"],
        joined[f"added_{how}"],
        joined[f"added_{how}_v"],
        _half_width_se(joined[f"added_low_{how}"], joined[f"added_high_{how}"]),
        _half_width_se(joined[f"added_low_{how}_v"], joined[f"added_high_{how}_v"]),
    )


def _driver_rows(baseline: Run, variant: Run) -> list[pl.DataFrame]:
    """Shuffle Grand Prix: the win rate of the players who drafted each driver,
    baseline against variant as independent samples (a change to a driver can
    change who drafts it), Newcombe interval; and the share of games it was
    drafted in, where not every driver is drafted every game (fewer than four players)."""
    b, v = by_driver(baseline), by_driver(variant)
    joined = b.join(v, on="driver", how="full", coalesce=True, suffix="_v").sort("driver")
    joined = joined.with_columns(pl.col(c).fill_null(0) for c in ("n", "wins", "n_v", "wins_v"))
    k1, n1 = joined["wins"].to_numpy(), joined["n"].to_numpy()
    k2, n2 = joined["wins_v"].to_numpy(), joined["n_v"].to_numpy()
    diff, low, high = newcombe_diff(k2, n2, k1, n1)
    with np.errstate(invalid="ignore", divide="ignore"):
        rows = [
            pl.DataFrame(
                {
                    "metric": "win rate by driver",
                    "key": joined["driver"],
                    "n": n2.astype(np.int64),
                    "baseline": k1 / n1,
                    "value": k2 / n2,
                    "diff": diff,
                    "ci_low": low,
                    "ci_high": high,
                    "p_value": _normal_p(diff, _half_width_se(low, high)),
                }
            )
        ]
    games = [int(r["games"].select(pl.len()).collect().item()) for r in (baseline, variant)]
    shares = joined.select("driver", pl.col("n").alias("n_drafted"), pl.col("n_v").alias("n_drafted_v"))
    if not ((shares["n_drafted"] == games[0]).all() and (shares["n_drafted_v"] == games[1]).all()):
        shares = shares.with_columns(pl.lit(games[0]).alias("player_games"), pl.lit(games[1]).alias("player_games_v"))
        rows.append(_rate_rows("driver draft rate (share of games)", shares, "driver", "drafted"))
    return rows


def compare_runs(
    baseline: Run,
    variant: Run,
    name: str,
    catalog: list[str] | None = None,
    playbooks: list[str] | None = None,
    only_catalog: bool = False,
    tallies: list[str] | tuple[str, ...] = (),
    paired: bool = True,
) -> pl.DataFrame:
    """Every report metric of `variant` against `baseline`, one row each (COLUMNS).
    `paired`: the runs played the same deals (same seed and chunks), so win
    rates and tallies are compared game by game; else as independent samples.

    `catalog`: card ids to add when no event names them; with `only_catalog`,
    the only cards compared. Card rows only for what the runs log (draft
    rates where cards are drafted, buy rates where bought); Playbook rows only
    where the players table has Playbooks; Shuffle Grand Prix's drivers (its
    `draft` events draft drivers, not cards) in place of the cards' draft rows.
    `tallies`: players columns (counts per player and game, e.g. Heat's
    slipstreams) compared by bot, paired."""
    columns = ["game_id", "seat", "bot", "won", *tallies]
    pb = baseline["players"].select(columns).collect()
    pv = variant["players"].select(columns).collect()

    def by(base: pl.DataFrame, var: pl.DataFrame, keys: list[str], pair: list[str], metric: str, value: str = "won"):
        if not paired:
            return _unpaired(base, var, keys, metric, value)
        return _paired(base, var.drop("bot", strict=False), keys, pair, metric, value)  # the baseline's bot per seat

    parts = [
        by(pb, pv, ["seat"], ["game_id", "seat"], "win rate by seat"),
        by(pb, pv, ["bot"], ["game_id", "seat"], "win rate by bot"),
    ]
    parts += [by(pb, pv, ["bot"], ["game_id", "seat"], f"mean {c} by bot", c) for c in tallies]
    drafted = [run["players"].collect_schema().names() for run in (baseline, variant)]
    if all("draft_position" in names for names in drafted):  # Horsepower: the draft order, apart from the turn order
        # paired on the draft position itself: a variant may change who drafts first
        order = ["game_id", "draft_position", "won"]
        base, var = (run["players"].select(order).collect() for run in (baseline, variant))
        parts.append(by(base, var, ["draft_position"], ["game_id", "draft_position"], "win rate by draft position"))

    laps = _lap_means(baseline).join(_lap_means(variant), on="lap", suffix="_v")
    if laps.height:  # Downforce has no laps
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
    cards = card_stats(baseline, catalog).join(card_stats(variant, catalog), on="card", suffix="_v")
    if only_catalog:
        cards = cards.filter(pl.col("card").is_in(catalog or []))
    events = logged_events(baseline) | logged_events(variant)
    if has_drivers(baseline):  # Shuffle Grand Prix: a draft event names a driver (by its first card)
        events.discard("draft")
        parts += _driver_rows(baseline, variant)
    if "draft" in events:
        parts.append(_rate_rows("card draft rate", cards, "card", "drafted"))
    if "buy" in events:
        parts.append(_rate_rows("card buy rate", cards, "card", "bought"))
    if "draft" in events:
        parts.append(_added_rows("card win rate added when drafted", cards, "card", "drafted"))
    if "buy" in events:
        parts.append(_added_rows("card win rate added when bought", cards, "card", "bought"))
    if "playbooks" in baseline["players"].collect_schema().names():
        books = playbook_stats(baseline, playbooks).join(playbook_stats(variant, playbooks), on="playbook", suffix="_v")
        parts += [
            _rate_rows("Playbook draft rate", books, "playbook", "drafted"),
            _added_rows("Playbook win rate added when held", books, "playbook", "held"),
        ]

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


def unit_of_metric(metric: str) -> str:
    """What a compare row's baseline and value are in: "%" (a rate, its
    difference in percentage points), "points" (a win rate added, itself a
    difference), "turns" (lap times) or "per player" (a tally's mean)."""
    if "win rate added" in metric:
        return "points"
    if "rate" in metric:
        return "%"
    return "turns" if "turns" in metric else "per player"


def in_units(table: pl.DataFrame) -> pl.DataFrame:
    """The compare table as a user reads it: a `unit` column after the key, and
    rates and their differences x100 (percent, percentage points)."""
    unit = pl.col("metric").map_elements(unit_of_metric, return_dtype=pl.String)
    scaled = pl.col("unit").is_in(["%", "points"])
    return (
        table.with_columns(unit.alias("unit"))
        .with_columns(
            pl.when(scaled).then(pl.col(c) * 100).otherwise(pl.col(c)).alias(c)
            for c in ("baseline", "value", "diff", "ci_low", "ci_high")
        )
        .select(
            "variant", "metric", "key", "unit", *(c for c in table.columns if c not in ("variant", "metric", "key"))
        )
    )


def compared_text(row: dict) -> str:
    """A row of the compare table in units (in_units) as words: "28.4% -> 30.1% (+1.7 points, +0.9 to +2.5, n=4,000)"."""
    unit = row["unit"]
    diff_unit = " points" if unit in ("%", "points") else f" {unit}"
    value_unit = "%" if unit == "%" else diff_unit

    def v(x: float) -> str:
        return f"{x:.1f}" if unit in ("%", "points") else f"{x:.3g}"

    def d(x: float) -> str:
        return f"{x:+.1f}" if unit in ("%", "points") else f"{x:+.3g}"

    return (
        f"{v(row['baseline'])}{value_unit} -> {v(row['value'])}{value_unit} "
        f"({d(row['diff'])}{diff_unit}, {d(row['ci_low'])} to {d(row['ci_high'])}, n={row['n']:,})"
    )
