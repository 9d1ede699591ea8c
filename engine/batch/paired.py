"""Paired comparisons: two result files of the same seeds, figure by figure, seed by seed.

Files played on the same seeds share their deals, and the deals make most of a figure's spread
(a hard deal is hard under both rules). Tested seed by seed, that spread drops out: McNemar's
test counts only the seeds where a rate's two files disagree, and the paired t test takes the
spread of the per-seed differences, not of the figures. A change that moves every seed's figure
a little is then found at a few thousand seeds, where the unpaired tests of ``compare.py`` see
nothing (an auditor's case: Eiffel Tower's ``plays`` under a wider bottom row, p 0.15 unpaired,
1.3e-7 paired).

A record's figures are read as :class:`~.stats.Summary` names them, by folding the record alone
into one: there is one place that says how a result's keys become figures.
"""

from __future__ import annotations

import math
from fractions import Fraction
from typing import Any, Iterable, Iterator

from ..errors import CardgamesError
from .compare import Z95, Test, betainc, student_t_critical, student_t_two_sided
from .results import Reader
from .stats import Summary, refuse_hidden


def mcnemar(only_first: int, only_other: int, seeds: int) -> Test:
    """McNemar's exact test: of the ``seeds`` both files hold, where they disagree ``only_first`` are
    true in the first file alone and ``only_other`` in the other alone; with no difference either is
    as likely, so the smaller count is binomial(n, 1/2) and p is twice its tail,
    P(X <= k) = I_{1/2}(n - k, k + 1). The statistic is the normal approximation's
    z = (only_other - only_first) / sqrt(n), for reading; p is exact.

    The interval of the rates' difference, (only_other - only_first) / seeds, is Bonett and Price's
    adjusted Wald interval for paired rates (one added to each disagreeing count, two to the seeds):
    it keeps its level down to a few disagreeing seeds, where the plain Wald interval does not. An
    interval built on the exact test's own (the share of disagreeing seeds favouring one file) would
    hold their number fixed, which is as uncertain as the rest: under a large change it came out
    several times too narrow. It comes from another statistic than the exact p, so within a hair of
    p = ALPHA the two may disagree on 0."""
    n = only_first + only_other
    first, other = (only_first + 1) / (seeds + 2), (only_other + 1) / (seeds + 2)
    shift = other - first
    half = Z95 * math.sqrt(max(0.0, first + other - shift * shift) / (seeds + 2))
    interval = (max(-1.0, shift - half), min(1.0, shift + half))
    if n == 0:  # the files agree on every seed: nothing differs (z is 0/0, undefined)
        return Test("mcnemar", None, 1.0, interval)
    z = (only_other - only_first) / math.sqrt(n)
    k = min(only_first, only_other)
    return Test("mcnemar", z, min(1.0, 2 * betainc(n - k, k + 1, 0.5)), interval)  # as many each way: 2 P > 1, p 1


def paired_t(n: int, total: Fraction, squares: Fraction) -> Test:
    """The paired t test of n per-seed differences, given their exact sum and sum of squares:
    t = mean / (sd / sqrt(n)) on n - 1 degrees of freedom; the interval of the mean difference is the t
    interval on the same, so it excludes 0 exactly when p < ALPHA."""
    if n < 2:
        return Test("paired-t", None, None)
    variance = (squares - total * total / n) / (n - 1)
    sign = 1.0 if total >= 0 else -1.0  # not copysign: a sum beyond a float has no float to take it from
    try:
        mean = float(total / n)
        half = student_t_critical(n - 1) * math.sqrt(float(variance / n))
    except OverflowError:  # a difference beyond a float: no interval a float can hold
        mean, half = math.nan, math.nan
    interval = (mean - half, mean + half) if math.isfinite(mean + half) else None
    if variance == 0:  # every seed moved alike: by nothing, or by infinitely many standard errors
        return Test("paired-t", None, 1.0, interval) if total == 0 else Test("paired-t", sign * math.inf, 0.0, interval)
    try:
        t = sign * math.sqrt(float(total * total / (n * variance)))
    except OverflowError:  # t beyond a float: as far from no difference as a float can say
        t = sign * math.inf
    return Test("paired-t", t, student_t_two_sided(t, n - 1), interval)


class Pairs:
    """Per-figure sums over the seeds two files share: for a rate, how many seeds are true in
    one file alone; for a number, the count, sum and sum of squares of the differences (other
    minus first), exact."""

    def __init__(self, players: int, categories: Iterable[str],
                 first_seats: tuple[int | None, int | None] = (None, None)):
        self.players = players
        self.categories = sorted(categories)
        #: each file's seat that moves first (its header's ``first_seat``), for ``first_player_advantage``
        self.first_seats = first_seats
        self.rates: dict[str, list[int]] = {}  # name -> [seeds, true in the first alone, true in the other alone]
        self.numbers: dict[str, list[Any]] = {}  # name -> [seeds, sum, sum of squares]
        #: figures some seed holds in one file only, or of two kinds: not tested seed by seed (see :meth:`test`)
        self.unmatched: set[str] = set()

    def add(self, first: dict[str, Any], other: dict[str, Any]) -> None:
        """Add the two files' records of one seed."""
        mine, theirs = self.values(first, self.first_seats[0]), self.values(other, self.first_seats[1])
        if mine.keys() != theirs.keys():
            self.unmatched.update(mine.keys() ^ theirs.keys())
        for name, value in mine.items():
            if name not in theirs:
                continue
            their = theirs[name]
            if type(value) is bool and type(their) is bool:
                rate = self.rates.setdefault(name, [0, 0, 0])
                rate[0] += 1
                rate[1] += value and not their
                rate[2] += their and not value
            elif type(value) is not bool and type(their) is not bool:
                difference = _exact(their) - _exact(value)  # result files hold no infinity (JSON has none)
                sums = self.numbers.setdefault(name, [0, 0, 0])
                sums[0] += 1
                sums[1] += difference
                sums[2] += difference * difference
            else:
                self.unmatched.add(name)

    def values(self, record: dict[str, Any], first_seat: int | None = None) -> dict[str, Any]:
        """One record's figures, by the names :meth:`Summary.figures` gives them: a bool for a rate,
        a number for a distribution (for a figure pooled over the seats, the game's mean; for
        ``first_player_advantage``, ``first_seat``'s win less the average seat's)."""
        if all(type(value) in _PLAIN for value in record.values()):
            return record  # a solitaire's (won, cards_left, ...): each key its own figure, as Summary names it
        one = Summary()
        one.add(record)
        out: dict[str, Any] = {}
        for name, hist in one.hists.items():
            if name in one.game_means:
                ((total, seats),) = one.game_means[name]
                out[name] = Fraction(total) / seats
            elif sum(hist.values()) == 1:
                (out[name],) = hist
            else:  # a key "a.b" beside a mapping "a" holding "b", or "x[0]" beside a list "x"
                raise ValueError(f"two keys of one result name figure {name!r}")
        for name, (true, _) in one.counts.items():
            if "=" not in name:
                out[name] = bool(true)
        for name in self.categories:  # a text figure's categories, those this game did not take among them
            if name.split("=", 1)[0] + "=" in one.counts:
                out[name] = name in one.counts
        wins = one.win_counts(self.players)
        refuse_hidden(wins, out)
        out.update((name, count > 0) for name, count in wins.items())
        if wins and first_seat is not None:
            refuse_hidden(["first_player_advantage"], out)
            (out["first_player_advantage"],) = one.advantages(first_seat, self.players)
        return out

    def test(self, name: str) -> Test | None:
        """The paired test of figure ``name``, or None when it is not to be tested seed by seed: some
        seed holds it in one file only (Torqu's ``match_scores[m]`` after games of different lengths),
        or as another kind, so that the pairs would be other games than the means shown beside the test
        (an auditor's case: the test's sign against the difference's), or no seed holds it in both."""
        if name in self.unmatched:
            return None
        if name in self.rates:
            seeds, only_first, only_other = self.rates[name]
            return mcnemar(only_first, only_other, seeds)
        if name in self.numbers:
            n, total, squares = self.numbers[name]
            return paired_t(n, Fraction(total), Fraction(squares))
        return None


#: The value types of a record whose keys are its figures' names (see :meth:`Pairs.values`).
_PLAIN = {bool, int, float}


def _exact(value: Any) -> Any:
    """A figure's value as an exact number: ints stay ints (fast), floats and amounts become Fractions."""
    return value if type(value) is int else Fraction(value)


def pair_files(first: str, other: str, players: int, categories: Iterable[str],
               first_seats: tuple[int | None, int | None] = (None, None)) -> Pairs:
    """The paired sums of two result files holding the same seeds (the caller checks that), read
    side by side: files written by ``batch`` list their seeds in one order, so only records out of
    step wait in memory for their twin. ``first_seats``: each file's header's ``first_seat``."""
    pairs = Pairs(players, categories, first_seats)
    waiting: tuple[dict[int, dict], dict[int, dict]] = ({}, {})
    for index, (seed, record) in _interleaved(_records(first), _records(other)):
        twin = waiting[1 - index].pop(seed, None)
        if twin is None:
            waiting[index][seed] = record
            continue
        try:
            pairs.add(*((record, twin) if index == 0 else (twin, record)))
        except ValueError as exc:  # two keys of a record, in either file, naming one figure, or one hiding a win share
            raise CardgamesError(f"seed {seed} of {first} and {other}: {exc}") from None
    if waiting[0] or waiting[1]:  # the caller found the same seeds in both: a file changed since
        raise CardgamesError(f"{first if waiting[0] else other} changed while it was read: compare it again")
    return pairs


def _records(path: str) -> Iterator[tuple[int, dict[str, Any]]]:
    for _, record in Reader(path).records():
        yield record.pop("seed"), record


def _interleaved(first: Iterator[Any], other: Iterator[Any]) -> Iterator[tuple[int, Any]]:
    """Items of both iterators, alternately, each tagged 0 or 1 by its source, to the end of both."""
    sources = [first, other]
    while sources[0] is not None or sources[1] is not None:
        for index in (0, 1):
            source = sources[index]
            if source is not None:
                item = next(source, None)
                if item is None:
                    sources[index] = None
                else:
                    yield index, item
