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
