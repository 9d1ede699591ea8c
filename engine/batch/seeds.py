"""Seed ranges, sets of seeds kept as runs, and cutting the seeds still to play into chunks.

A batch plays the seeds ``A-B`` (both ends included). With ``--rng pysolfc`` the range may
carry PySolFC's ``ms`` prefix (``ms1-ms1000``): the prefix is then part of every game number
played, and result records keep the integer alone.
"""

from __future__ import annotations

import re
from bisect import bisect_right
from dataclasses import dataclass
from typing import TYPE_CHECKING, Callable, Iterator

from ..errors import CardgamesError, OptionConflictError
from ..rng import SEED_MAX, SEEDS, seed_digits
from ..wording import clip, cut_short

if TYPE_CHECKING:
    from ..core import Game

_RANGE = re.compile(r"\s*(ms)?(\d+)\s*(?:-\s*(ms)?(\d+)\s*)?", re.IGNORECASE | re.ASCII)  # 0-9 only


@dataclass(frozen=True)
class SeedRange:
    """Seeds ``start`` .. ``stop`` inclusive, as game numbers ``prefix + str(n)`` under pysolfc."""

    start: int
    stop: int
    prefix: str = ""

    @property
    def count(self) -> int:
        """How many seeds: a property, not ``len()``, which cannot exceed ``sys.maxsize`` (2**63 - 1), less than a
        whole range of seeds 0..2**64 - 1 holds."""
        return self.stop - self.start + 1

    def __str__(self) -> str:
        return f"{self.prefix}{self.start}-{self.prefix}{self.stop}"

    def __contains__(self, seed: object) -> bool:
        return isinstance(seed, int) and self.start <= seed <= self.stop

    def seed(self, n: int, rng: str) -> int | str:
        """Seed ``n`` of the range as a game takes it (:func:`game_seed`)."""
        return game_seed(self.prefix, n, rng)

    def check(self, game: "Game", rng: str) -> None:
        """Raise a one-line error if ``game`` under ``rng`` cannot play both ends of the range."""
        if self.prefix and rng != "pysolfc":
            raise OptionConflictError(f"--seeds {self}: the ms prefix is for --rng pysolfc")
        for end in (self.start, self.stop):
            game.check_seed(self.seed(end, rng), rng)


def game_seed(prefix: str, n: int, rng: str) -> int | str:
    """Seed ``n`` of a range with ``prefix`` as a game takes it: PySolFC's game number under pysolfc."""
    return f"{prefix}{n}" if rng == "pysolfc" else n


def parse_range(text: str) -> SeedRange:
    """``"A-B"`` (inclusive) or a single seed ``"A"``; raise CardgamesError saying what is wrong."""
    match = _RANGE.fullmatch(text or "")
    if not match:
        raise CardgamesError(f"--seeds {clip(text)}: expected a range A-B of integers, e.g. 0-999999, or one seed")
    prefix1, first, prefix2, last = match.groups()
    if last is None:
        prefix2, last = prefix1, first
    if (prefix1 or "").lower() != (prefix2 or "").lower():
        raise CardgamesError(f"--seeds {clip(text)}: both ends need the same prefix")
    start, stop = seed_digits(first), seed_digits(last)  # as --seed reads them
    for digits, value in ((first, start), (last, stop)):  # the end at fault named: two long ends outrun a clip
        if value is None or value > SEED_MAX:
            raise CardgamesError(f"--seeds {clip(text)}: {cut_short(digits, 22)} is no seed: seeds run {SEEDS}")
    if stop < start:
        raise CardgamesError(f"--seeds {clip(text)}: the range ends ({stop}) before it starts ({start})")
    return SeedRange(start, stop, (prefix1 or "").lower())


class SeedSet:
    """A set of integer seeds stored as sorted, disjoint, non-adjacent runs ``[start, stop)``.

    Result files hold seeds in long consecutive runs, so a million seeds take a few runs of
    memory, not a million Python ints: this keeps resuming and duplicate checks flat in memory.
    """

    __slots__ = ("starts", "stops", "count")

    def __init__(self) -> None:
        self.starts: list[int] = []
        self.stops: list[int] = []
        self.count = 0

    def __len__(self) -> int:
        return self.count

    def __le__(self, other: "SeedSet") -> bool:
        """Whether every seed here is in ``other``: each run lies within one of its runs (runs never touch)."""
        for start, stop in zip(self.starts, self.stops, strict=True):
            i = bisect_right(other.starts, start) - 1
            if i < 0 or stop > other.stops[i]:
                return False
        return True

    def shared(self, other: "SeedSet") -> int:
        """How many seeds are in both sets: the overlaps of their runs, walked in order."""
        total, j = 0, 0
        for start, stop in zip(self.starts, self.stops, strict=True):
            while j < len(other.starts) and other.stops[j] <= start:
                j += 1
            k = j
            while k < len(other.starts) and other.starts[k] < stop:
                total += min(stop, other.stops[k]) - max(start, other.starts[k])
                k += 1
        return total

    def __contains__(self, seed: int) -> bool:
        i = bisect_right(self.starts, seed) - 1
        return i >= 0 and seed < self.stops[i]

    def add(self, seed: int) -> bool:
        """Add ``seed``; False if it was already there."""
        starts, stops = self.starts, self.stops
        i = bisect_right(starts, seed) - 1
        if i >= 0 and seed < stops[i]:
            return False
        self.count += 1
        joins_left = i >= 0 and stops[i] == seed
        joins_right = i + 1 < len(starts) and starts[i + 1] == seed + 1
        if joins_left and joins_right:
            stops[i] = stops[i + 1]
            del starts[i + 1], stops[i + 1]
        elif joins_left:
            stops[i] = seed + 1
        elif joins_right:
            starts[i + 1] = seed
        else:
            starts.insert(i + 1, seed)
            stops.insert(i + 1, seed + 1)
        return True

    def missing(self, seeds: SeedRange) -> Iterator[tuple[int, int]]:
        """The runs ``[start, stop)`` of ``seeds`` not in this set, in order."""
        position, end = seeds.start, seeds.stop + 1
        i = max(0, bisect_right(self.starts, position) - 1)
        while position < end:
            if i < len(self.starts) and self.starts[i] <= position:
                position = max(position, self.stops[i])
                i += 1
                continue
            gap_end = min(end, self.starts[i]) if i < len(self.starts) else end
            if position < gap_end:
                yield position, gap_end
            position = gap_end


Chunk = tuple[tuple[int, int], ...]


def chunks(runs: Iterator[tuple[int, int]], size: int | Callable[[], int]) -> Iterator[Chunk]:
    """Cut runs ``[start, stop)`` into chunks of at most ``size`` seeds, in seed order; a callable
    ``size`` is asked again for each chunk (:class:`Pace`).

    A chunk is a tuple of runs (a resumed batch leaves gaps), so what travels to a worker is a
    few integers whatever the chunk size.
    """
    next_size = size if callable(size) else lambda: size
    current: list[tuple[int, int]] = []
    room = next_size()
    for start, stop in runs:
        while start < stop:
            take = min(room, stop - start)
            current.append((start, start + take))
            start += take
            room -= take
            if room == 0:
                yield tuple(current)
                current, room = [], next_size()
    if current:
        yield tuple(current)


def chunk_size(pending: int, workers: int) -> int:
    """Most seeds a chunk holds: enough chunks to keep every worker busy to the end, few enough
    that per-chunk costs (IPC, scheduling) stay well under 1% of the work."""
    return max(16, min(1000, pending // (workers * 8) or 1))


#: What a chunk should take to play (see :class:`Pace`), and the size of the first chunks.
CHUNK_SECONDS = 5.0
FIRST_CHUNK = 8


class Pace:
    """Chunk sizes from the games' measured speed. A game takes from under a millisecond (a
    pairing solitaire) to seconds (two-player Torqu), so a count alone makes chunks of minutes
    for the slow games: the progress bar then stands still, and Ctrl-C or a lost worker throws
    minutes of games away. The first chunks hold :data:`FIRST_CHUNK` seeds; then each holds what
    the games so far say takes :data:`CHUNK_SECONDS` of a worker's time, from 1 up to
    ``largest``. Chunking changes no record and no statistic (summaries merge exactly)."""

    def __init__(self, largest: int):
        self.largest = largest
        self.games = 0
        self.seconds = 0.0

    def record(self, games: int, seconds: float) -> None:
        """A chunk of ``games`` took ``seconds`` to play."""
        self.games += games
        self.seconds += seconds

    def size(self) -> int:
        if self.games == 0 or self.seconds <= 0:
            return min(FIRST_CHUNK, self.largest)
        return max(1, min(self.largest, int(CHUNK_SECONDS * self.games / self.seconds)))
