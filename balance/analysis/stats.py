"""Small, exact statistics used everywhere numbers are reported."""

from __future__ import annotations

import math

import numpy as np

Z95 = 1.959963984540054  # two-sided 95% normal quantile


def wilson(successes: np.ndarray | int, trials: np.ndarray | int, z: float = Z95) -> tuple[np.ndarray, np.ndarray]:
    """Wilson score interval for a binomial proportion (better than the normal
    one near 0 and 1 and for small n). Returns (low, high); NaN where trials is 0."""
    k = np.asarray(successes, dtype=float)
    n = np.asarray(trials, dtype=float)
    with np.errstate(invalid="ignore", divide="ignore"):
        p = k / n
        centre = (p + z * z / (2 * n)) / (1 + z * z / n)
        half = z * np.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / (1 + z * z / n)
        low, high = centre - half, centre + half
    empty = n == 0
    return np.where(empty, np.nan, np.clip(low, 0, 1)), np.where(empty, np.nan, np.clip(high, 0, 1))


def newcombe_diff(
    k1: np.ndarray, n1: np.ndarray, k2: np.ndarray, n2: np.ndarray, z: float = Z95
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Difference of two proportions k1/n1 - k2/n2 with Newcombe's hybrid score
    interval (his method 10: built from the two Wilson intervals). Returns
    (difference, low, high); NaN where either group is empty."""
    k1, n1, k2, n2 = (np.asarray(a, dtype=float) for a in (k1, n1, k2, n2))
    with np.errstate(invalid="ignore", divide="ignore"):
        p1, p2 = k1 / n1, k2 / n2
        l1, u1 = wilson(k1, n1, z)
        l2, u2 = wilson(k2, n2, z)
        diff = p1 - p2
        low = diff - np.sqrt((p1 - l1) ** 2 + (u2 - p2) ** 2)
        high = diff + np.sqrt((u1 - p1) ** 2 + (p2 - l2) ** 2)
    empty = (n1 == 0) | (n2 == 0)
    return np.where(empty, np.nan, diff), np.where(empty, np.nan, low), np.where(empty, np.nan, high)


def two_sided_p(z: np.ndarray | float) -> np.ndarray:
    """Two-sided p-value of standard normal statistics z; NaN where z is NaN (an infinite z gives 0)."""
    z = np.asarray(z, dtype=float)
    p = np.array([math.erfc(abs(v) / math.sqrt(2)) if not math.isnan(v) else np.nan for v in z.ravel()])
    return p.reshape(z.shape)


def two_proportion_p(k1: np.ndarray, n1: np.ndarray, k2: np.ndarray, n2: np.ndarray) -> np.ndarray:
    """Two-sided p-value of the pooled z-test that two proportions are equal; NaN when undefined."""
    k1, n1, k2, n2 = (np.asarray(a, dtype=float) for a in (k1, n1, k2, n2))
    with np.errstate(invalid="ignore", divide="ignore"):
        pooled = (k1 + k2) / (n1 + n2)
        se = np.sqrt(pooled * (1 - pooled) * (1 / n1 + 1 / n2))
        zstat = (k1 / n1 - k2 / n2) / se
    return two_sided_p(np.where(np.isfinite(zstat), zstat, np.nan))


def mantel_haenszel_diff(
    k1: np.ndarray, n1: np.ndarray, k2: np.ndarray, n2: np.ndarray, z: float = Z95
) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """Mantel-Haenszel risk difference over strata: the difference k1/n1 - k2/n2
    within each stratum, averaged with weights n1 n2 / (n1 + n2), for many
    comparisons at once. Arrays shaped (..., strata), e.g. (cards, bot
    profiles): k1 successes of n1 trials with the condition, k2 of n2 without.
    A stratum where either group is empty weighs nothing.

    The variance is Sato's estimator, meant to hold both for a few large
    strata and for many sparse ones: T. Sato, S. Greenland and J. M. Robins
    (1989), "On the variance estimator for the Mantel-Haenszel risk
    difference", Biometrics 45:1323-1324 (the one metafor's rma.mh uses; see
    also Greenland and Robins, Biometrics 41:55-68, 1985). With
    N = n1 + n2 per stratum and W = sum n1 n2 / N,
        P = sum (n1^2 k2 - n2^2 k1 + n1 n2 (n2 - n1) / 2) / N^2,
        Q = sum (k1 (n2 - k2) + k2 (n1 - k1)) / (2 N),
        var = (RD P + Q) / W^2 (clipped at 0).
    Returns (difference, low, high, p) over the last axis: the 95% interval
    RD -+ z sqrt(var) and the two-sided p-value of the Cochran-Mantel-Haenszel
    test (no continuity correction); all NaN where no stratum has both groups;
    p NaN where no stratum has both a win and a loss. With one stratum RD is the
    plain difference exactly, and the variance Wald's p1 q1 / n1 + p2 q2 / n2."""
    k1, n1, k2, n2 = (np.asarray(a, dtype=float) for a in (k1, n1, k2, n2))
    both = (n1 > 0) & (n2 > 0)
    with np.errstate(invalid="ignore", divide="ignore"):
        big_n = np.where(both, n1 + n2, 1.0)
        w = np.where(both, n1 * n2 / big_n, 0.0)
        weight = w.sum(axis=-1)
        # sum (w / W) (k1/n1 - k2/n2): with one stratum 1.0 times the plain difference, to the last bit
        within = np.where(both, k1 / np.where(both, n1, 1.0) - k2 / np.where(both, n2, 1.0), 0.0)
        diff = (w / weight[..., None] * within).sum(axis=-1)
        p_term = np.where(both, (n1 * n1 * k2 - n2 * n2 * k1 + n1 * n2 * (n2 - n1) / 2) / big_n**2, 0.0).sum(axis=-1)
        q_term = np.where(both, (k1 * (n2 - k2) + k2 * (n1 - k1)) / (2 * big_n), 0.0).sum(axis=-1)
        var = np.maximum((diff * p_term + q_term) / weight**2, 0.0)
        half = z * np.sqrt(var)
        # the test: Cochran-Mantel-Haenszel's, whose variance is taken under "no difference" (as the
        # pooled two-proportion test of the raw figure): Sato's variance is 0 where a group never won
        # in any stratum, which would make a few games look like certainty
        m1 = k1 + k2
        expected = np.where(both, n1 * m1 / big_n, 0.0).sum(axis=-1)
        null_var = np.where(
            both & (big_n > 1), n1 * n2 * m1 * (big_n - m1) / (big_n**2 * np.maximum(big_n - 1, 1)), 0.0
        ).sum(axis=-1)
        zstat = (np.where(both, k1, 0.0).sum(axis=-1) - expected) / np.sqrt(null_var)
    none = weight == 0
    diff = np.where(none, np.nan, diff)
    low, high = np.where(none, np.nan, diff - half), np.where(none, np.nan, diff + half)
    return diff, low, high, two_sided_p(np.where(np.isfinite(zstat), zstat, np.nan))


def benjamini_hochberg(p: np.ndarray, q: float = 0.05) -> np.ndarray:
    """Which hypotheses are rejected at false discovery rate q (NaN p-values never are)."""
    p = np.asarray(p, dtype=float)
    ok = np.isfinite(p)
    m = int(ok.sum())
    out = np.zeros(p.shape, bool)
    if m == 0:
        return out
    order = np.argsort(np.where(ok, p, np.inf))[:m]
    passed = p[order] <= q * np.arange(1, m + 1) / m
    if passed.any():
        out[order[: np.flatnonzero(passed).max() + 1]] = True
    return out


def chi2_sf(x: float, df: int) -> float:
    """P(X >= x) for X chi-square with df degrees of freedom: the regularised upper
    incomplete gamma Q(df/2, x/2), by its series or continued fraction."""
    if x <= 0:
        return 1.0
    a, x2 = df / 2.0, x / 2.0
    if x2 < a + 1:  # series for the lower function P, then Q = 1 - P
        term = total = 1.0 / a
        n = a
        for _ in range(10_000):
            n += 1
            term *= x2 / n
            total += term
            if abs(term) < abs(total) * 1e-15:
                break
        return max(0.0, 1.0 - total * math.exp(-x2 + a * math.log(x2) - math.lgamma(a)))
    # Lentz's continued fraction for Q
    tiny = 1e-300
    b = x2 + 1 - a
    c, d = 1 / tiny, 1 / b
    h = d
    for i in range(1, 10_000):
        an = -i * (i - a)
        b += 2
        d = an * d + b
        d = tiny if abs(d) < tiny else d
        c = b + an / c
        c = tiny if abs(c) < tiny else c
        d = 1 / d
        delta = d * c
        h *= delta
        if abs(delta - 1) < 1e-15:
            break
    return min(1.0, math.exp(-x2 + a * math.log(x2) - math.lgamma(a)) * h)


def equal_shares_test(counts: np.ndarray) -> tuple[float, int, float]:
    """Chi-square goodness of fit of counts against equal shares: (statistic, df, p-value)."""
    counts = np.asarray(counts, dtype=float)
    expected = counts.sum() / len(counts)
    if expected == 0 or len(counts) < 2:
        return float("nan"), len(counts) - 1, float("nan")
    stat = float(((counts - expected) ** 2 / expected).sum())
    df = len(counts) - 1
    return stat, df, chi2_sf(stat, df)
