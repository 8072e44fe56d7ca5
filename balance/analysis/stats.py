"""Small, exact statistics used everywhere numbers are reported."""

from __future__ import annotations

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
