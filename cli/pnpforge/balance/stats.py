"""Interval arithmetic for balance reports: rates, differences of rates, means, and the
multiple-comparison correction.

A balance report makes many comparisons at once (every seat, faction, agent and card of every
variant against the baseline), so a few would look significant by chance alone.  Differences are
therefore given at a Bonferroni-corrected level (1 − α/m for m comparisons in the report) and
flagged only when that wider interval excludes zero; single rates keep the plain 95 % interval.

* a rate: the Wilson score interval (good near 0 and 1 and for small n, unlike p ± 1.96·se);
* a difference of two independent rates: Newcombe's hybrid score interval (method 10 of
  Newcombe 1998), built from the two Wilson intervals;
* a mean (game length): the normal interval with the sample standard deviation.

Shared wins count as fractions (a two-way tie is half a win each), which the Wilson formula takes
as a fractional number of successes.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from statistics import NormalDist

ALPHA = 0.05


def z_value(alpha: float = ALPHA) -> float:
    """The two-sided normal quantile for level 1 − alpha (1.96 for 95 %)."""
    return NormalDist().inv_cdf(1.0 - alpha / 2.0)


@dataclass(frozen=True)
class Interval:
    """An estimate with its lower and upper bound."""

    estimate: float
    low: float
    high: float

    @property
    def width(self) -> float:
        return self.high - self.low

    def excludes_zero(self) -> bool:
        return self.low > 0.0 or self.high < 0.0

    def to_dict(self, digits: int = 4) -> dict[str, float]:
        return {
            "estimate": round(self.estimate, digits),
            "low": round(self.low, digits),
            "high": round(self.high, digits),
        }


def wilson(successes: float, trials: int, alpha: float = ALPHA) -> Interval | None:
    """The Wilson score interval of a proportion, or None with no trials."""
    if trials <= 0:
        return None
    if not 0 <= successes <= trials:
        raise ValueError(f"{successes} successes out of {trials} trials")
    z = z_value(alpha)
    p = successes / trials
    z2n = z * z / trials
    centre = (p + z2n / 2.0) / (1.0 + z2n)
    half = z * math.sqrt(p * (1.0 - p) / trials + z2n / (4.0 * trials)) / (1.0 + z2n)
    return Interval(p, max(0.0, centre - half), min(1.0, centre + half))


def rate_difference(
    successes_a: float, trials_a: int, successes_b: float, trials_b: int, alpha: float = ALPHA
) -> Interval | None:
    """Newcombe's hybrid score interval of p_a − p_b for two independent proportions."""
    a = wilson(successes_a, trials_a, alpha)
    b = wilson(successes_b, trials_b, alpha)
    if a is None or b is None:
        return None
    diff = a.estimate - b.estimate
    low = diff - math.sqrt((a.estimate - a.low) ** 2 + (b.high - b.estimate) ** 2)
    high = diff + math.sqrt((a.high - a.estimate) ** 2 + (b.estimate - b.low) ** 2)
    return Interval(diff, max(-1.0, low), min(1.0, high))


@dataclass(frozen=True)
class Moments:
    """Count, sum and sum of squares: enough for a mean and its interval, in any order of adding."""

    n: int = 0
    total: float = 0.0
    squares: float = 0.0

    @classmethod
    def of(cls, values: list[float]) -> Moments:
        return cls(len(values), float(sum(values)), float(sum(v * v for v in values)))

    def variance(self) -> float:
        if self.n < 2:
            return 0.0
        mean = self.total / self.n
        return max(0.0, (self.squares - self.n * mean * mean) / (self.n - 1))


def mean_interval(m: Moments, alpha: float = ALPHA) -> Interval | None:
    """The normal interval of a mean (many games: the central limit theorem holds)."""
    if m.n == 0:
        return None
    mean = m.total / m.n
    half = z_value(alpha) * math.sqrt(m.variance() / m.n)
    return Interval(mean, mean - half, mean + half)


def mean_difference(a: Moments, b: Moments, alpha: float = ALPHA) -> Interval | None:
    """Welch's normal interval of mean_a − mean_b."""
    if a.n == 0 or b.n == 0:
        return None
    diff = a.total / a.n - b.total / b.n
    half = z_value(alpha) * math.sqrt(a.variance() / a.n + b.variance() / b.n)
    return Interval(diff, diff - half, diff + half)


def bonferroni_alpha(comparisons: int, alpha: float = ALPHA) -> float:
    """The per-comparison level that keeps the family-wise error rate at `alpha`."""
    return alpha / max(1, comparisons)
