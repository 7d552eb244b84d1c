"""The balance lab's interval arithmetic against published values."""

from __future__ import annotations

import math

import pytest

from pnpforge.balance.stats import (
    Moments,
    bonferroni_alpha,
    mean_difference,
    mean_interval,
    rate_difference,
    wilson,
    z_value,
)


def test_z_value_is_the_normal_quantile():
    assert z_value(0.05) == pytest.approx(1.959964, abs=1e-6)
    assert z_value(0.01) == pytest.approx(2.575829, abs=1e-6)


@pytest.mark.parametrize(
    ("wins", "games", "low", "high"),
    [
        # Newcombe (1998), "Two-sided confidence intervals for the single proportion", table I
        (81, 263, 0.2553, 0.3662),
        (15, 148, 0.0624, 0.1605),
        (0, 20, 0.0, 0.1611),
        (1, 29, 0.0061, 0.1718),
        # a fair coin: symmetric about one half
        (5, 10, 0.2366, 0.7634),
    ],
)
def test_wilson_matches_published_intervals(wins, games, low, high):
    interval = wilson(wins, games)
    assert interval is not None
    assert interval.estimate == pytest.approx(wins / games)
    assert interval.low == pytest.approx(low, abs=1e-4)
    assert interval.high == pytest.approx(high, abs=1e-4)


def test_wilson_edges():
    assert wilson(3, 0) is None
    full = wilson(10, 10)
    assert full is not None and full.high == 1.0 and full.low == pytest.approx(0.7225, abs=1e-4)
    assert wilson(2.5, 10) is not None  # a shared win counts a fraction
    with pytest.raises(ValueError):
        wilson(11, 10)


def test_newcombe_difference_matches_the_paper():
    # Newcombe (1998), "Interval estimation for the difference between independent proportions":
    # 56/70 − 48/80, method 10 gives 0.0524 to 0.3339; 9/10 − 3/10 gives 0.1705 to 0.8090
    first = rate_difference(56, 70, 48, 80)
    assert first is not None
    assert first.estimate == pytest.approx(0.2)
    assert (first.low, first.high) == (pytest.approx(0.0524, abs=1e-4), pytest.approx(0.3339, abs=1e-4))
    assert first.excludes_zero()
    second = rate_difference(9, 10, 3, 10)
    assert second is not None
    assert (second.low, second.high) == (pytest.approx(0.1705, abs=1e-4), pytest.approx(0.8090, abs=1e-4))


def test_a_difference_of_equal_rates_straddles_zero_and_narrows_with_games():
    small = rate_difference(10, 20, 10, 20)
    large = rate_difference(500, 1000, 500, 1000)
    assert small is not None and large is not None
    assert not small.excludes_zero() and not large.excludes_zero()
    assert large.width < small.width / 5


def test_bonferroni_widens_the_difference_interval():
    plain = rate_difference(56, 70, 48, 80)
    corrected = rate_difference(56, 70, 48, 80, alpha=bonferroni_alpha(20))
    assert plain is not None and corrected is not None
    assert bonferroni_alpha(20) == pytest.approx(0.0025)
    assert corrected.low < plain.low and corrected.high > plain.high


def test_mean_interval_and_difference():
    values = [float(v) for v in range(1, 101)]  # mean 50.5, sd 29.0115
    m = Moments.of(values)
    interval = mean_interval(m)
    assert interval is not None
    half = 1.959964 * 29.011492 / math.sqrt(100)
    assert interval.estimate == pytest.approx(50.5)
    assert interval.low == pytest.approx(50.5 - half, abs=1e-3)
    same = mean_difference(m, m)
    assert same is not None and same.estimate == 0 and not same.excludes_zero()
    shifted = mean_difference(Moments.of([v + 30 for v in values]), m)
    assert shifted is not None and shifted.excludes_zero()
    assert mean_interval(Moments()) is None
