"""Confidence intervals and a noise test for the figures of a balance report."""

from __future__ import annotations

import math

Z95 = 1.959964  # two-sided 95%


def wilson(successes: float, trials: int, z: float = Z95) -> tuple[float, float]:
    """The Wilson score interval of a proportion; (0, 1) when there are no trials."""
    if trials <= 0:
        return 0.0, 1.0
    p = successes / trials
    denominator = 1 + z * z / trials
    centre = (p + z * z / (2 * trials)) / denominator
    half = z * math.sqrt(p * (1 - p) / trials + z * z / (4 * trials * trials)) / denominator
    return max(0.0, centre - half), min(1.0, centre + half)


def mean_interval(total: float, squares: float, count: int, z: float = Z95) -> tuple[float, float]:
    """The normal interval of a mean from its sum and sum of squares."""
    if count <= 0:
        return math.nan, math.nan
    mean = total / count
    if count == 1:
        return mean, mean
    half = z * math.sqrt(_variance(total, squares, count) / count)
    return mean - half, mean + half


def _variance(total: float, squares: float, count: int) -> float:
    """The sample variance from a sum and a sum of squares (count at least 2)."""
    return max(0.0, (squares - total * total / count) / (count - 1))


def proportions_differ(k1: float, n1: int, k2: float, n2: int, z: float = Z95) -> bool:
    """True when two proportions differ beyond noise (two-proportion z-test)."""
    if n1 <= 0 or n2 <= 0:
        return False
    pooled = (k1 + k2) / (n1 + n2)
    spread = math.sqrt(pooled * (1 - pooled) * (1 / n1 + 1 / n2))
    if spread == 0:
        return k1 / n1 != k2 / n2
    return abs(k1 / n1 - k2 / n2) / spread > z


def means_differ(
    sum1: float, sq1: float, n1: int, sum2: float, sq2: float, n2: int, z: float = Z95
) -> bool:
    """True when two means differ beyond noise (Welch's z on large samples)."""
    if n1 < 2 or n2 < 2:
        return False
    m1, m2 = sum1 / n1, sum2 / n2
    spread = math.sqrt(_variance(sum1, sq1, n1) / n1 + _variance(sum2, sq2, n2) / n2)
    if spread == 0:
        return m1 != m2
    return abs(m1 - m2) / spread > z
