"""Is a difference between two result files real, and how large is it? Two-proportion z test and
Welch's t test, each with a (1 - ALPHA) interval of the difference (other minus first), and the
Wilson interval of one proportion that the first is built from and every rate is shown with.

Both are two-sided and use only the summaries' statistics (counts, means, standard
deviations), so they work on files of any size. They treat the files as independent samples:
files of the same seeds are tested seed by seed instead (``paired.py``). The Student t
distribution's tail comes from the regularised incomplete beta function, evaluated here by its
continued fraction (Lentz's method), so the core install needs no scipy.
"""

from __future__ import annotations

import math
from functools import lru_cache
from statistics import NormalDist
from typing import Any, NamedTuple

#: A difference is reported as significant below this p-value, and every interval is a (1 - ALPHA) one.
ALPHA = 0.05
#: Degrees of freedom from which a t interval is the normal one (:func:`student_t_critical`).
NORMAL_DF = 10_000_000
#: The two-sided normal quantile of the intervals' level (1 - ALPHA, 95 %): 1.9599639845400536.
Z95 = NormalDist().inv_cdf(1 - ALPHA / 2)


class Test(NamedTuple):
    """One comparison of a figure between two runs: the test's name, its statistic and p-value (None where the
    runs give it no data)."""

    name: str
    statistic: float | None
    p_value: float | None
    #: The (1 - ALPHA) interval of the difference, other minus first (None where none is defined): a
    #: p-value says whether a figure moved, an analyst gating a rule change also asks by how much.
    interval: tuple[float, float] | None = None


def two_proportion(k1: int, n1: int, k2: int, n2: int) -> Test:
    """Two-sided z test of p1 == p2 with the pooled proportion. The interval of p2 - p1 is Newcombe's
    hybrid score interval (his method 10, from each side's Wilson interval): like those it stays
    inside [-1, 1] and holds for rates near 0 or 1, where the normal interval does not. It comes from
    another statistic than the pooled z, so within a hair of p = ALPHA the two may disagree on 0."""
    if n1 <= 0 or n2 <= 0:
        return Test("z", None, None)
    p1, p2 = k1 / n1, k2 / n2
    (low1, high1), (low2, high2) = wilson(k1, n1), wilson(k2, n2)
    difference = p2 - p1
    interval = (max(-1.0, difference - math.hypot(p2 - low2, high1 - p1)),
                min(1.0, difference + math.hypot(high2 - p2, p1 - low1)))
    pooled = (k1 + k2) / (n1 + n2)
    se = math.sqrt(pooled * (1 - pooled) * (1 / n1 + 1 / n2))
    if se == 0:
        # both all-true or both all-false: z is 0/0, undefined (as Welch's t with no spread), and nothing differs
        return Test("z", None, 1.0, interval)
    z = difference / se
    return Test("z", z, math.erfc(abs(z) / math.sqrt(2)), interval)


def wilson(successes: int, n: int) -> tuple[float, float]:
    """Wilson 95 % score interval for a binomial proportion; (0, 1) when ``n`` is 0.

    Chosen over the normal (Wald) interval because it stays inside [0, 1] and is honest for
    rates near 0 or 1 and for small samples (e.g. a Strict variant that is almost never won).
    """
    if n <= 0:
        return 0.0, 1.0
    if not 0 <= successes <= n:
        raise ValueError(f"successes {successes} not in 0..{n}")
    p, z = successes / n, Z95
    z2 = z * z
    denom = 1 + z2 / n
    centre = (p + z2 / (2 * n)) / denom
    half = z / denom * math.sqrt(p * (1 - p) / n + z2 / (4 * n * n))
    # At 0 or n successes the exact bound is 0 or 1; rounding would leave a 1e-17 residue.
    low = 0.0 if successes == 0 else max(0.0, centre - half)
    high = 1.0 if successes == n else min(1.0, centre + half)
    return low, high


def welch(mean1: float, sd1: float, n1: int, mean2: float, sd2: float, n2: int) -> Test:
    """Welch's unequal-variance t test of mean1 == mean2 (Welch-Satterthwaite degrees of freedom),
    and the t interval of mean2 - mean1 on the same degrees of freedom: it excludes 0 exactly when
    p < ALPHA."""
    if n1 < 2 or n2 < 2 or not math.isfinite(sd1 + sd2):  # an infinite sd: a spread beyond a float
        return Test("welch-t", None, None)
    difference = mean2 - mean1
    scale = max(sd1, sd2)
    if scale == 0:  # both sides constant: equal (t is 0/0, undefined), or apart by infinitely many standard errors
        if mean1 == mean2:
            return Test("welch-t", None, 1.0, (0.0, 0.0))
        return Test("welch-t", math.copysign(math.inf, difference), 0.0, (difference, difference))
    # In units of the larger sd: the variances and their squares neither overflow nor underflow
    v1, v2 = (sd1 / scale) ** 2 / n1, (sd2 / scale) ** 2 / n2
    se2 = v1 + v2
    t = difference / scale / math.sqrt(se2)
    df = se2 * se2 / (v1 * v1 / (n1 - 1) + v2 * v2 / (n2 - 1))
    half = student_t_critical(df) * (scale * math.sqrt(se2))
    return Test("welch-t", t, student_t_two_sided(t, df), (difference - half, difference + half))


def student_t_two_sided(t: float, df: float) -> float:
    """P(|T| >= |t|) for Student's t with ``df`` degrees of freedom: I_{df/(df+t^2)}(df/2, 1/2)."""
    if df <= 0:
        raise ValueError("degrees of freedom must be positive")
    x = df / (df + t * t)
    return min(1.0, betainc(df / 2, 0.5, x))


@lru_cache(maxsize=4096)
def student_t_critical(df: float) -> float:
    """The t with P(|T| >= t) = :data:`ALPHA` for Student's t with ``df`` degrees of freedom (Welch's
    are fractional): a (1 - ALPHA) interval's half-width in standard errors. Found by bisection on
    :func:`student_t_two_sided` down to adjacent floats, so it is as exact as that tail; from
    :data:`NORMAL_DF` degrees of freedom on, where the two differ by under a millionth, the
    normal distribution's."""
    if df <= 0:
        raise ValueError("degrees of freedom must be positive")
    if df >= NORMAL_DF:
        return Z95
    low, high = 0.0, 2.0
    while student_t_two_sided(high, df) > ALPHA:
        low, high = high, 2 * high
    while True:
        middle = (low + high) / 2
        if middle in (low, high):
            return high
        if student_t_two_sided(middle, df) > ALPHA:
            low = middle
        else:
            high = middle


def betainc(a: float, b: float, x: float) -> float:
    """The regularised incomplete beta function I_x(a, b), for a, b > 0 and 0 <= x <= 1."""
    if not 0.0 <= x <= 1.0:
        raise ValueError("x must be in [0, 1]")
    if x in (0.0, 1.0):
        return x
    log_front = (math.lgamma(a + b) - math.lgamma(a) - math.lgamma(b) + a * math.log(x) + b * math.log1p(-x))
    # The continued fraction converges fast for x < (a + 1) / (a + b + 2); use the symmetry
    # I_x(a, b) = 1 - I_{1-x}(b, a) on the other side.
    if x < (a + 1) / (a + b + 2):
        return math.exp(log_front) * _beta_fraction(a, b, x) / a
    return 1.0 - math.exp(log_front) * _beta_fraction(b, a, 1.0 - x) / b


def _beta_fraction(a: float, b: float, x: float) -> float:
    tiny, eps = 1e-300, 1e-15
    c, d = 1.0, 1.0 - (a + b) * x / (a + 1)
    d = 1.0 / (d if abs(d) > tiny else tiny)
    h = d
    for m in range(1, 10_000):
        for numerator in (m * (b - m) * x / ((a + 2 * m - 1) * (a + 2 * m)),
                          -(a + m) * (a + b + m) * x / ((a + 2 * m) * (a + 2 * m + 1))):
            d = 1.0 + numerator * d
            d = 1.0 / (d if abs(d) > tiny else tiny)
            c = 1.0 + numerator / c
            c = c if abs(c) > tiny else tiny
            h *= c * d
        if abs(c * d - 1.0) < eps:
            break
    return h


def compare_figure(base: dict[str, Any], other: dict[str, Any], paired: Test | None = None) -> dict[str, Any] | None:
    """The test of one figure between two files (``Summary.figures`` rows), or None when the
    figure cannot be compared (of different kinds, or of no games). ``paired`` is the figure's
    seed-by-seed test when the files hold the same seeds (``paired.py``), used instead of the
    unpaired one. A difference row (``first_player_advantage``) is the mean of a number each game
    gives, tested as a distribution's."""
    kind = base["kind"]
    if kind != other["kind"] or kind not in ("proportion", "distribution", "difference") or not base["n"] \
            or not other["n"]:
        return None
    if paired is not None:
        test = paired
    elif kind == "proportion":
        test = two_proportion(base["count"], base["n"], other["count"], other["n"])
    else:
        test = welch(base["mean"], base["sd"], base["n"], other["mean"], other["sd"], other["n"])
    low, high = test.interval if test.interval is not None else (None, None)
    return {"base": base["mean"], "other": other["mean"], "difference": other["mean"] - base["mean"],
            "difference_ci95_low": low, "difference_ci95_high": high,
            "test": test.name, "statistic": test.statistic, "p_value": test.p_value,
            "significant": test.p_value is not None and test.p_value < ALPHA}
