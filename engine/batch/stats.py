"""Exact statistics of many game results in bounded memory.

A :class:`Summary` folds result dicts (``State.result()``, see its docstring for the conventions)
into counters and histograms: value -> count for every numeric figure, true-count for every
boolean. Summaries of disjoint sets of games merge by adding counters, so chunks played anywhere
in any order give the same summary, and every statistic (mean, standard deviation, percentiles)
is computed exactly from the histograms with rational arithmetic: identical whatever the worker
count. Memory grows with the number of *distinct* values of a figure, not with the games.

How each result key is read:

* ``won`` and any other bool: a proportion (Wilson 95% interval);
* ``winners`` (list of seats): per-seat win share ``wins[s]`` (a seat among several tied winners
  counts as a winner), ``ties`` (games with two or more winners, or with ``teams``, each seat's
  team in a partnership, winners of two or more teams) and ``no_winner``; with the first-player
  advantage (the share of the header's ``first_seat``, who moves first in a game's first deal,
  minus the mean share of all seats: the mean over games of that seat's win, 1 or 0, less the game's
  winners over the seats, so that it has an interval, and a test between files, of its own);
* ints, floats and decimal strings (money, exact): a distribution; per-seat lists give one
  distribution per seat (``scores[0]``, ...) plus the seats pooled (``scores``). The seats of one
  game are not independent (a zero-sum game's scores add to nothing), so a pooled figure's mean,
  standard deviation and interval, and the tests comparing it, are those of each game's mean
  over its seats (``n`` counts games, ``values`` the seats' values); its percentiles are of the
  seats' values;
* other strings: one proportion per category (``reason=blocked``); nested dicts: dotted names;
  ``None``: skipped.
"""

from __future__ import annotations

import math
import re
from decimal import Decimal
from fractions import Fraction
from typing import Any, Iterable, Mapping

from ..wording import as_logged, clip, counted
from .compare import student_t_critical, wilson

PERCENTILES = (5, 25, 50, 75, 95)

Number = int | float | Decimal
#: A string read as an exact amount (money, "-0.20"): plain decimal notation, not "1e99999999",
#: whose exact arithmetic would never end; anything else is a category.
_AMOUNT = re.compile(r"[-+]?[0-9]{1,30}(\.[0-9]{1,30})?")


def percentiles(hist: Mapping[Any, int], qs: Iterable[float]) -> list[Any]:
    """The ``q``-th percentiles (0 < q <= 100) of a histogram by the nearest-rank method: for
    each ``q``, the smallest value with at least ``q`` % of the observations at or below it.

    Nearest rank always returns an observed value (an exact integer or amount, never an
    interpolation between two), and is the same whichever order the games came in.
    """
    n = sum(hist.values())
    if n == 0:
        raise ValueError("percentile of an empty histogram")
    ranks = [max(1, math.ceil(Fraction(q) / 100 * n)) for q in qs]
    out: list[Any] = [None] * len(ranks)
    order = sorted(range(len(ranks)), key=ranks.__getitem__)
    seen = 0
    items = iter(sorted(hist.items()))
    value = None
    for index in order:
        while seen < ranks[index]:
            value, count = next(items)
            seen += count
        out[index] = value
    return out


def _sqrt(q: Fraction) -> float:
    """The square root of an exact non-negative fraction, to a float's precision even where ``q``
    itself is beyond a float: the variance of values near 1e308 overflows one though their sd
    (up to about 1.3e308) does not, and values 1e-170 apart have a variance that underflows to 0.
    So the root is taken of ``q`` scaled by a power of 4 into [1/4, 4), and scaled back by the
    power of 2; an sd beyond a float is infinite."""
    if q == 0:
        return 0.0
    k = (q.numerator.bit_length() - q.denominator.bit_length()) // 2
    scaled = q / 4**k if k >= 0 else q * 4**-k
    try:
        return math.ldexp(math.sqrt(scaled), k)
    except OverflowError:
        return math.inf


def _estimate(hist: Mapping[Any, int]) -> dict[str, Any]:
    """n, the mean with its 95% interval (Student's t with n - 1 degrees of freedom: the normal
    approximation's 1.96 made the interval of a few games too narrow, covering 88 % at n = 5), and
    the sample standard deviation of a non-empty histogram, computed exactly. With one observation
    the interval and the standard deviation are None: it has no spread to estimate, which is n/a,
    not a spread of 0."""
    n = sum(hist.values())
    total = Fraction(0)
    squares = Fraction(0)
    for value, count in hist.items():
        v = Fraction(value)
        total += v * count
        squares += v * v * count
    sd = None if n == 1 else _sqrt((squares - total * total / n) / (n - 1))
    mean = float(total / n)
    half = None if sd is None else student_t_critical(n - 1) * (sd / math.sqrt(n))  # sd * t alone may overflow
    return {"n": n, "mean": mean, "ci_low": None if half is None else mean - half,
            "ci_high": None if half is None else mean + half, "sd": sd}


def _figure_name(key: str) -> str:
    """A result key as a figure name: ``=`` joins a category to its figure (``reason=blocked``),
    so a key holding one would be read as a category that has no figure."""
    if "=" in key:
        raise ValueError(f"figure name {key!r} holds '='")
    return key


def describe(hist: Mapping[Any, int]) -> dict[str, Any]:
    """n, mean (with its Student's t 95% interval), sample standard deviation, min,
    the 5/25/50/75/95th percentiles and max of a (non-empty: a figure has one once it has a value)
    histogram, computed exactly. With one observation the interval and the standard deviation are
    None (undefined)."""
    row: dict[str, Any] = {"kind": "distribution", **_estimate(hist)}
    row["min"] = _plain(min(hist))
    pcts = percentiles(hist, PERCENTILES)
    for q, value in zip(PERCENTILES, pcts, strict=True):
        row[f"p{q}"] = _plain(value)
    row["max"] = _plain(max(hist))
    return row


def proportion(count: int, n: int) -> dict[str, Any]:
    """The summary of a yes/no figure (a win): its rate and Wilson interval, in a report's figure shape."""
    low, high = wilson(count, n)
    return {"kind": "proportion", "n": n, "count": count, "mean": count / n if n else 0.0,
            "ci_low": low, "ci_high": high}


def _plain(value: Any) -> Any:
    """Decimal amounts stay exact as strings in the output; numbers stay numbers."""
    return str(value) if isinstance(value, Decimal) else value


_SEAT_NAMES: dict[str, list[str]] = {}


def _seat_names(name: str, count: int) -> list[str]:
    """``name[0]``, ``name[1]``, ... (at least ``count`` of them), built once per figure: a list's seats are
    named for every game."""
    names = _SEAT_NAMES.get(name)
    if names is None or len(names) < count:
        if len(_SEAT_NAMES) >= 10_000:  # figures of a foreign file may be many: bounded
            _SEAT_NAMES.clear()
        names = _SEAT_NAMES[name] = [f"{name}[{index}]" for index in range(count)]
    return names


def _exact_sum(numbers: list[Number]) -> Fraction:
    """The exact sum of numbers, some floats, as a Fraction: ``sum(map(Fraction, numbers))`` with one
    normalisation instead of one a term when every number is an int or a float (a float is a ratio over a
    power of two, so the largest denominator is a common one)."""
    if not all(type(number) is float or type(number) is int for number in numbers):
        return sum(map(Fraction, numbers), Fraction(0))
    ratios = [number.as_integer_ratio() for number in numbers]
    common = max(den for _, den in ratios)
    return Fraction(sum(num * (common // den) for num, den in ratios), common)


class Summary:
    """Mergeable counters of a set of game results (see the module docstring)."""

    __slots__ = ("games", "counts", "hists", "game_means", "wins", "sizes", "tie_games", "nowin_games",
                 "winner_games")

    def __init__(self) -> None:
        self.games = 0
        #: name -> [true count, games where present] for bools and string categories
        self.counts: dict[str, list[int]] = {}
        #: name -> {value: count} for numbers
        self.hists: dict[str, dict[Number, int]] = {}
        #: pooled name -> {(a game's sum over its seats, its seats): count}: each game's mean over its
        #: seats is what a pooled figure's inference uses
        self.game_means: dict[str, dict[tuple[Number | Fraction, int], int]] = {}
        #: seat -> {a game's winners: games it was among them} (only when results have ``winners``): its win
        #: share, and with ``sizes`` each game's win against the average seat's (``first_player_advantage``)
        self.wins: dict[int, dict[int, int]] = {}
        #: a game's winners -> games (of ``winner_games``)
        self.sizes: dict[int, int] = {}
        self.tie_games = 0
        self.nowin_games = 0
        #: games whose result had ``winners`` (the denominator of the win shares)
        self.winner_games = 0

    # -- folding -----------------------------------------------------------------------
    def add(self, result: Mapping[str, Any]) -> None:
        """Fold one game's result in."""
        self.games += 1
        for key, value in result.items():
            if key == "winners" and isinstance(value, (list, tuple)):
                self._winners(value, result.get("teams"))
            elif key != "teams":
                self._value(key if "=" not in key else _figure_name(key), value, pooled=None)

    def _winners(self, winners: list, teams: list | None) -> None:
        """Fold a game's winning seats in; ``teams`` (each seat's team, in partnerships) makes the
        winning partners one win, not a tie."""
        if teams is not None and (not isinstance(teams, list) or any(type(t) is not int for t in teams)
                                  or max(winners, default=-1) >= len(teams)):
            raise ValueError("teams must give every seat's team as an integer")
        self.winner_games += 1
        if len(set(winners) if teams is None else {teams[seat] for seat in winners}) > 1:
            self.tie_games += 1
        elif not winners:
            self.nowin_games += 1
        size = len(winners)
        self.sizes[size] = self.sizes.get(size, 0) + 1
        wins = self.wins
        for seat in winners:
            by_size = wins.get(seat)
            if by_size is None:
                by_size = wins[seat] = {}
            by_size[size] = by_size.get(size, 0) + 1

    def _value(self, name: str, value: Any, pooled: str | None) -> Number | None:
        """Fold one figure's value in; the number it counted, if it is one (a seat's, for the
        game's mean over its seats). A figure keeps its kind: a number, true/false or text."""
        if value is None:
            return None
        kind = type(value)
        if kind is int or kind is float or (kind is str and _AMOUNT.fullmatch(value)):
            number = Decimal(value) if kind is str else value
            if name not in self.hists or name in self.game_means:  # not a number already: a first, or a change
                self._keep_kind(name, "a number", value)
            self._number(name, number, pooled)
            return number
        if kind is bool:
            if name not in self.counts:
                self._keep_kind(name, "true/false", value)
            counter = self.counts.get(name)
            if counter is None:
                counter = self.counts[name] = [0, 0]
            counter[0] += value
            counter[1] += 1
        elif kind is str:
            if f"{name}=" not in self.counts:
                self._keep_kind(name, "text", value)
            self._category(name, value)
        elif kind is list or kind is tuple:
            if name not in self.game_means:
                self._keep_kind(name, "a list", value)
            names = _seat_names(name, len(value))
            seats = [self._value(names[index], item, pooled=name) for index, item in enumerate(value)]
            numbers = [number for number in seats if number is not None]
            if numbers:
                if any(type(number) is float for number in numbers):  # a float sum rounds, and overflows
                    total = _exact_sum(numbers)
                else:  # ints and amounts: exact as they are (a Fraction per game was 4 times slower)
                    total = sum(numbers)
                key = (total, len(numbers))
                hist = self.game_means.setdefault(name, {})
                hist[key] = hist.get(key, 0) + 1
        elif kind is dict:
            self._keep_kind(name, "a mapping", value)
            for key, item in value.items():
                self._value(f"{name}.{_figure_name(key)}", item, pooled=None)
        else:
            raise ValueError(f"result figure {clip(name)} has unsupported value {as_logged(value, 40)}")
        return None

    def _keep_kind(self, name: str, kind: str, value: Any) -> None:
        """Raise ValueError if an earlier record gave figure ``name`` another kind than ``kind`` ("a number",
        "true/false", "text", "a list", or "a mapping", which keeps nothing under its own name: its values
        are figures of their own), this record's ``value``; the message names both kinds. The first record
        with a figure sets its kind, so the message says the later record may be the right one."""
        if name in self.game_means:  # a list's numbers are pooled in ``hists`` under its name too
            earlier = "a list"
        elif name in self.hists:
            earlier = "a number"
        elif name in self.counts:
            earlier = "true/false"
        elif f"{name}=" in self.counts:  # the denominator of a text figure's categories (``_category``)
            earlier = "text"
        else:
            return
        if earlier != kind:
            shown = kind if kind in ("a list", "a mapping") else as_logged(value, 40)  # only for the message
            raise ValueError(f"figure {clip(name)} is {shown} here, but {earlier} in an earlier record")

    def _number(self, name: str, value: Number, pooled: str | None) -> None:
        hists = self.hists
        hist = hists.get(name)
        if hist is None:
            hist = hists[name] = {}
        hist[value] = hist.get(value, 0) + 1
        if pooled is not None:
            hist = hists.get(pooled)
            if hist is None:
                hist = hists[pooled] = {}
            hist[value] = hist.get(value, 0) + 1

    def _category(self, name: str, value: str) -> None:
        # Each category is a proportion of the games where the figure is present; the
        # denominator is kept under the figure's own name so that categories that never
        # appear in a chunk still merge correctly.
        if not value:  # its key would be the denominator's: the category would vanish from the figures
            raise ValueError(f"figure {clip(name)} is empty text: a category needs a name")
        present = self.counts.setdefault(f"{name}=", [0, 0])
        present[1] += 1
        counter = self.counts.setdefault(f"{name}={value}", [0, 0])
        counter[0] += 1

    # -- merging -----------------------------------------------------------------------
    def merge(self, other: "Summary") -> None:
        """Add another summary of *different* games into this one."""
        self.games += other.games
        self.tie_games += other.tie_games
        self.nowin_games += other.nowin_games
        self.winner_games += other.winner_games
        for seat, by_size in other.wins.items():
            mine = self.wins.setdefault(seat, {})
            for size, count in by_size.items():
                mine[size] = mine.get(size, 0) + count
        for size, count in other.sizes.items():
            self.sizes[size] = self.sizes.get(size, 0) + count
        for name, (true, n) in other.counts.items():
            counter = self.counts.setdefault(name, [0, 0])
            counter[0] += true
            counter[1] += n
        for mine_all, theirs_all in ((self.hists, other.hists), (self.game_means, other.game_means)):
            for name, hist in theirs_all.items():
                mine = mine_all.setdefault(name, {})
                for value, count in hist.items():
                    mine[value] = mine.get(value, 0) + count

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Summary) and all(getattr(self, s) == getattr(other, s) for s in self.__slots__)

    def __getstate__(self) -> tuple:
        return tuple(getattr(self, s) for s in self.__slots__)

    def __setstate__(self, state: tuple) -> None:
        for slot, value in zip(self.__slots__, state, strict=True):
            setattr(self, slot, value)

    # -- statistics --------------------------------------------------------------------
    def categories(self) -> set[str]:
        """The categories met (``reason=blocked``): another summary reports those it never met at 0."""
        return {name for name in self.counts if "=" in name and not name.endswith("=")}

    def win_counts(self, players: int) -> dict[str, int]:
        """The games counted by each win-share figure, ``wins[s]`` for every seat (``players`` names
        those that never won), ``ties`` and ``no_winner``, each out of ``winner_games``; none
        without ``winners`` in the results."""
        if not self.winner_games:
            return {}
        seats = self._seats(players)
        counts = {f"wins[{seat}]": sum(self.wins.get(seat, {}).values()) for seat in range(seats)}
        return {**counts, "ties": self.tie_games, "no_winner": self.nowin_games}

    def advantages(self, seat: int, players: int) -> dict[Fraction, int]:
        """Each game's win of ``seat`` (1 or 0) less the average seat's (the game's winners over the seats),
        by value: ``first_player_advantage``'s games, whose mean is the seat's win share less the mean share."""
        seats = self._seats(players)
        among = self.wins.get(seat, {})
        games: dict[Fraction, int] = {}
        for size, count in self.sizes.items():
            inside = among.get(size, 0)
            for value, times in ((1 - Fraction(size, seats), inside), (-Fraction(size, seats), count - inside)):
                if times:
                    games[value] = games.get(value, 0) + times
        return games

    def _seats(self, players: int) -> int:
        """The seats the win shares are of: ``players``, or more where a result names a seat beyond them."""
        return max(players, max(self.wins, default=-1) + 1)

    def figures(self, players: int, categories: Iterable[str] = (), first_seat: int | None = None
                ) -> dict[str, dict[str, Any]]:
        """Every statistic, by figure name, in a stable reading order (``players`` names the
        seats that never won). ``categories`` met elsewhere (another file being compared) are
        figures here too, at 0 of the games, when their figure is present here at all: a value
        these games never took is a rate of 0, and is compared as one. ``first_seat``, the seat
        that moves first in a game's first deal (``Game.first_seat``), is the seat whose wins
        ``first_player_advantage`` sets against the average seat's; without one there is no such figure."""
        out: dict[str, dict[str, Any]] = {name: describe(hist) for name, hist in self.hists.items()}
        for name, row in out.items():  # a record's figure has one value; a pooled one, one a seat
            if row["n"] > self.games and name not in self.game_means:
                raise ValueError(f"figure {name!r} has {row['n']:,} values in {counted(self.games, 'game')}: two keys "
                                 "of a result name it (a key 'a.b' beside a mapping 'a' holding 'b'?)")
        for name, sums in self.game_means.items():
            if name in out:  # the pooled values' distribution, with the games' inference
                means: dict[Fraction, int] = {}
                for (total, seats), count in sums.items():
                    mean = Fraction(total) / seats
                    means[mean] = means.get(mean, 0) + count
                out[name].update(_estimate(means), values=out[name]["n"])
        present = {name[:-1]: n for name, (_, n) in self.counts.items() if name.endswith("=")}
        for name, (true, n) in self.counts.items():
            if not name.endswith("="):
                out[name] = proportion(true, present[name.split("=", 1)[0]] if "=" in name else n)
        for name in categories:
            key = name.split("=", 1)[0]
            if name not in out and key in present:
                out[name] = proportion(0, present[key])
        wins = self.win_counts(players)
        refuse_hidden(wins, out)
        for name, count in wins.items():
            out[name] = proportion(count, self.winner_games)
        if wins and first_seat is not None:
            refuse_hidden(["first_player_advantage"], out)
            out["first_player_advantage"] = {"kind": "difference", **_estimate(self.advantages(first_seat, players))}
        return dict(sorted(out.items(), key=lambda item: _reading_order(item[0])))


class HiddenFigure(ValueError):
    """A figure derived from ``winners`` whose name a result key gives too (:func:`refuse_hidden`); ``name``
    lets a reader of the file find the first record giving it (``report.Run.figures``)."""

    def __init__(self, name: str):
        super().__init__(f"figure {name!r} is both a key of the results and a share counted from their "
                         "'winners': the game's key needs another name")
        self.name = name


def refuse_hidden(derived: Iterable[str], figures: Mapping[str, Any]) -> None:
    """Refuse a figure derived from ``winners`` (``wins[s]``, ``ties``, ...) whose name a result key
    already gives: one would silently replace the other (a contributor's game counting its tied tricks
    as ``ties`` read 0.12, the share of tied games)."""
    for name in derived:
        if name in figures:
            raise HiddenFigure(name)


_FIRST = {"won": 0, "wins": 1, "ties": 2, "no_winner": 3, "first_player_advantage": 4, "scores": 5,
          "moves": 6, "cards_left": 7}


def _reading_order(name: str) -> tuple:
    """Headline figures first (won, wins, ties, scores, moves), then the rest by name, every number in a
    name in numeric order: seats (``x[10]`` after ``x[9]``) and numbered figures alike (Turup's
    ``round10_scores`` after ``round9_scores``)."""
    base = name.split("[", 1)[0].split("=", 1)[0].split(".", 1)[0]
    return (_FIRST.get(base, len(_FIRST)), _natural(base), _natural(name), name)  # name: "x01" and "x1" apart


def _natural(text: str) -> tuple:
    """``text`` as a sort key that reads its digit runs as numbers: by length without leading zeros, then
    digit by digit (not by ``int``, which refuses runs past 4,300 digits: a reviewer's figure name of 5,000
    sevens failed ``stats``)."""
    pieces = re.split(r"([0-9]+)", text)  # the digit runs at odd places (ASCII: other scripts' zeros strip not)
    return tuple((0, len(piece.lstrip("0")), piece.lstrip("0")) if place % 2 else (1, piece)
                 for place, piece in enumerate(pieces) if piece)
