"""Confidence intervals and noise tests for the figures of a balance report, and the
corrections that judge a family of figures together (Holm, Bonferroni), so that the
chance of any false flag among them stays at ``ERROR``."""

from __future__ import annotations

import math
from collections.abc import Sequence
from statistics import NormalDist
from typing import TypeAlias

Z95 = 1.959964  # two-sided 95%
ERROR = 0.05  # the chance of any false flag among figures judged together
# A ratio of totals over games: the sums of x, y, x², y² and xy, and the number of games.
RatioSums: TypeAlias = tuple[float, float, float, float, float, int]


def wilson(successes: float, trials: int, z: float = Z95) -> tuple[float, float]:
    """The Wilson score interval of a proportion; (0, 1) when there are no trials."""
    if trials <= 0:
        return 0.0, 1.0
    p = successes / trials
    denominator = 1 + z * z / trials
    centre = (p + z * z / (2 * trials)) / denominator
    half = z * math.sqrt(p * (1 - p) / trials + z * z / (4 * trials * trials)) / denominator
    return max(0.0, centre - half), min(1.0, centre + half)


def share_p_value(successes: float, trials: int, fair: float) -> float:
    """The two-sided p-value of a share against ``fair`` (the score test: the share's
    95% Wilson interval leaves ``fair`` exactly when this is under 5%); 1 with no
    trials."""
    if trials <= 0:
        return 1.0
    share = successes / trials
    if not 0 < fair < 1:
        return 1.0 if share == fair else 0.0
    return _p_value((share - fair) / math.sqrt(fair * (1 - fair) / trials))


def _p_value(z: float) -> float:
    """The two-sided p-value of a standard normal statistic."""
    return math.erfc(abs(z) / math.sqrt(2))


def holm(p_values: Sequence[float], error: float = ERROR) -> list[bool]:
    """Which tests of a family reject, judged together (Holm-Bonferroni): the chance of
    any false rejection stays at ``error`` whatever the tests' dependence. The smallest
    p-value is held to error / m, the next to error / (m - 1)..., up to the first that
    fails; plain Bonferroni holds every one to error / m."""
    order = sorted(range(len(p_values)), key=lambda k: p_values[k])
    rejected = [False] * len(p_values)
    for rank, k in enumerate(order):
        if p_values[k] > error / (len(p_values) - rank):
            break
        rejected[k] = True
    return rejected


def corrected_z(tests: int, error: float = ERROR) -> float:
    """The normal quantile of two-sided intervals that keep the chance of any of
    ``tests`` intervals missing at ``error`` (Bonferroni: error / tests each)."""
    return NormalDist().inv_cdf(1 - error / 2 / max(1, tests))


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


def leaves_out_zero(interval: tuple[float, float]) -> bool:
    """Whether an interval of a difference leaves out no difference: the two figures
    differ beyond noise (False for NaN ends, where the runs were too short)."""
    low, high = interval
    return low > 0 or high < 0


def proportions_differ(k1: float, n1: int, k2: float, n2: int, z: float = Z95) -> bool:
    """True when two proportions differ beyond noise (two-proportion z-test)."""
    return leaves_out_zero(proportions_difference(k1, n1, k2, n2, z))


def proportions_p_value(k1: float, n1: int, k2: float, n2: int) -> float:
    """The two-sided p-value of two proportions' difference (two-proportion z-test)."""
    if n1 <= 0 or n2 <= 0:
        return 1.0
    spread = _pooled_spread(k1, n1, k2, n2)
    if spread == 0:
        return 0.0 if k1 / n1 != k2 / n2 else 1.0
    return _p_value((k1 / n1 - k2 / n2) / spread)


def _pooled_spread(k1: float, n1: int, k2: float, n2: int) -> float:
    """The standard error of two proportions' difference under the test's null (one
    proportion, pooled from both)."""
    pooled = (k1 + k2) / (n1 + n2)
    return math.sqrt(pooled * (1 - pooled) * (1 / n1 + 1 / n2))


def proportions_difference(
    k1: float, n1: int, k2: float, n2: int, z: float = Z95
) -> tuple[float, float]:
    """The interval of the second proportion less the first, with the spread of the
    two-proportion z-test, so that it leaves out 0 exactly when the test says the two
    differ; NaN ends without games."""
    if n1 <= 0 or n2 <= 0:
        return math.nan, math.nan
    half = z * _pooled_spread(k1, n1, k2, n2)
    delta = k2 / n2 - k1 / n1
    return delta - half, delta + half


def means_difference(
    sum1: float, sq1: float, n1: int, sum2: float, sq2: float, n2: int, z: float = Z95
) -> tuple[float, float]:
    """The interval of the second mean less the first (Welch's z on large samples);
    NaN ends with fewer than two of either."""
    if n1 < 2 or n2 < 2:
        return math.nan, math.nan
    half = z * math.sqrt(_variance(sum1, sq1, n1) / n1 + _variance(sum2, sq2, n2) / n2)
    delta = sum2 / n2 - sum1 / n1
    return delta - half, delta + half


def ratio_interval(ratio: RatioSums, z: float = Z95) -> tuple[float, float]:
    """The interval of a ratio of totals, sum(x) / sum(y) over games, from the sums of
    x, y, x², y² and xy and the number of games (the delta method: games are
    independent, the x and y of one game need not be)."""
    num, den, count = ratio[0], ratio[1], ratio[5]
    if count <= 0 or den == 0:
        return math.nan, math.nan
    value = num / den
    if count == 1:
        return value, value
    half = z * math.sqrt(_ratio_variance(ratio))
    return value - half, value + half


def _ratio_variance(ratio: RatioSums) -> float:
    """The variance of a ratio of totals (count at least 2, a non-zero denominator)."""
    num, den, num_sq, den_sq, product, count = ratio
    value = num / den
    residuals = max(0.0, num_sq - 2 * value * product + value * value * den_sq)
    mean_den = den / count
    return residuals / (count - 1) / count / (mean_den * mean_den)


def ratios_difference(first: RatioSums, second: RatioSums, z: float = Z95) -> tuple[float, float]:
    """The interval of the second ratio of totals less the first (the runs
    independent); NaN ends when either run is too short or has no denominator."""
    if first[5] < 2 or second[5] < 2 or first[1] == 0 or second[1] == 0:
        return math.nan, math.nan
    half = z * math.sqrt(_ratio_variance(first) + _ratio_variance(second))
    delta = second[0] / second[1] - first[0] / first[1]
    return delta - half, delta + half
