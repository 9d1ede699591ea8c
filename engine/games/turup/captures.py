"""Turup capture enumeration, worked on counts of each value rather than on sets of cards.

A numeral card of value ``v`` captures any union of disjoint groups of community cards, each
group either one card of value ``v`` (a match) or two or more numeral cards summing to ``v`` (an
addition); under the option ``capture_groups: one_each``, at most one group of each kind. Only
ranks and counts matter (suits never score), so a capture is a multiset of values, and the
community pile is a vector of counts per value. With three decks a 30-card pile has about 2**30
subsets but only a few thousand distinct multisets at most, so nothing here ever looks at the
power set:

1. the *group types* of ``v`` are the partitions of ``v`` into two or more parts (41 for 10)
   that the pile holds, each a count vector, found from the pile's own cards: a deck numbered to
   100 (the Uta Karuta's poems) has 190 million partitions of 100, a pile of a few cards a handful;
2. the multisets partitionable into additions are the closure of ``{empty}`` under adding group
   types while the pile's counts allow (a layered sweep, one group type at a time, deduplicated);
3. matches are independent of additions (an addition's parts are all below ``v``), so each
   addition multiset combines with 0 .. (cards of value ``v``) matches.

Count vectors are packed into one integer, ``w`` bits per value, the top bit of each field a guard
bit: ``t`` fits in the pile ``c`` exactly when ``((c | G) - t) & G == G`` (no field borrows), one
integer operation for all fields at once.

Captures are listed in ascending order of their count vectors read from the ace up (fewest aces
first, then fewest twos, ...), so the order is deterministic: ``5`` on ``{2, 3, 5}`` gives
``(5,) (2, 3) (2, 3, 5)``, and ``10`` on ``{A, 9, 4, 6, 10}`` gives ``(10,) (4, 6) (4, 6, 10) (A, 9)``.
"""

from __future__ import annotations

from itertools import chain
from math import prod
from operator import getitem
from typing import Sequence

from ...errors import CardgamesError


def capture_vectors(value: int, counts: Sequence[int], any_groups: bool = True) -> list[bytes]:
    """Every capture a numeral card of ``value`` can make, as count vectors, in listing order.

    ``counts[i]`` is the number of numeral community cards of value ``i + 1``; entries past
    ``value`` are ignored (a higher card is in no group of ``value``), missing ones count as 0.
    Byte ``i`` of a returned vector is how many cards of value ``i + 1`` the capture takes. With
    ``any_groups`` false, a capture takes at most one addition and one match.
    """
    vector = _vector(value, counts)
    problem = _past_limits(value, vector)
    if problem is not None:
        raise CardgamesError(problem)
    unit = 1 << (8 * (value - 1))
    if not any_groups:  # each addition alone (each fits the pile), with or without one match
        matches = range(min(vector[value - 1], 1) + 1)
        return sorted((p + k * unit).to_bytes(value, "little") for p in [0, *_groups(value, vector)]
                      for k in matches)[1:]
    guards = int.from_bytes(bytes([_GUARD]) * value, "little")
    pile = int.from_bytes(vector, "little") | guards
    sets = {0}
    steps = 0
    for group in _groups(value, vector):
        # Each round adds one more copy of ``group`` to the previous round's new sums; a sum
        # already known was (or will be) extended from wherever it was first found.
        frontier = sets
        while frontier:
            steps += len(frontier)
            if steps > STEP_LIMIT:
                raise CardgamesError(f"the community pile holds too many ways to make a {value} to list every capture "
                                     f"of it (over the limit of {STEP_LIMIT:,} steps)")
            frontier = {p for p in map(group.__add__, frontier) if (pile - p) & guards == guards} - sets
            sets |= frontier
    matches = range(vector[value - 1] + 1)
    vectors = [(p + k * unit).to_bytes(value, "little") for p in sets for k in matches]
    vectors.sort()
    return vectors[1:]  # the first is the empty vector: taking nothing is a trail, not a capture


def subpile_problem(value: int, counts: Sequence[int]) -> str | None:
    """Why a card of ``value`` on the pile ``counts`` (as for :func:`capture_vectors`) has too many captures to
    list, by the count of cards of one value and the sub-piles alone, or None: what :func:`capture_vectors`
    checks before it lists (in milliseconds; the listing's own step limit is met only by listing)."""
    return _past_limits(value, _vector(value, counts))


def _vector(value: int, counts: Sequence[int]) -> bytes:
    """The pile's counts of values 1..``value``, one byte each (capped past :data:`FIELD_MAX`, then refused)."""
    return bytes(min(counts[i], FIELD_MAX) if i < len(counts) else 0 for i in range(value))


def _past_limits(value: int, vector: bytes) -> str | None:
    """Why ``vector`` is past the count or sub-pile limit for a card of ``value``, or None."""
    if max(vector) >= FIELD_MAX:
        return f"at most {FIELD_MAX - 1} community cards of one value are supported"
    bound = prod(c + 1 for c in vector[:-1])  # the additions' search; matches only multiply its result
    if bound > SUBSET_LIMIT:
        bound = _subpiles_to_consider(value, vector)
    if bound > SUBSET_LIMIT:
        return (f"the community pile holds too many cards of values 1-{value - 1} to list every capture of a "
                f"{value} (over the limit of {SUBSET_LIMIT:,} sub-piles to consider)")
    return None


def _subpiles_to_consider(value: int, vector: bytes) -> int:
    """The sub-piles of cards below ``value`` that sum to at most ``value`` (the groups' search) or to
    a multiple of it (every addition part of a capture): a tighter bound than all sub-piles, which
    for a deck numbered to 100 counts millions where a few hundred sum to anything that matters.
    Counted by sum (a knapsack count, clipped past the limit), only when the plain bound is over it."""
    import numpy as np

    total = sum((n + 1) * c for n, c in enumerate(vector[:-1]))
    ways = np.zeros(total + 1, np.int64)
    ways[0] = 1
    for n, c in enumerate(vector[:-1], 1):
        added = ways.copy()
        for k in range(1, c + 1):
            added[k * n:] += ways[:total + 1 - k * n]
        ways = np.minimum(added, SUBSET_LIMIT + 1)
    return int(min(ways[1:value + 1].sum() + ways[2 * value::value].sum(), SUBSET_LIMIT + 1))


def _groups(value: int, vector: bytes) -> list[int]:
    """The additions of ``value`` the pile ``vector`` holds (the partitions of ``value`` that fit), as
    packed count vectors: highest part first, as many of each as the pile has and the sum allows.
    Each visit extends a sub-pile summing to at most ``value``, so :data:`SUBSET_LIMIT` bounds them."""
    found: list[int] = []

    def extend(remaining: int, largest: int, packed: int, parts: int) -> None:
        if remaining == 0:
            if parts >= 2:
                found.append(packed)
            return
        for part in range(min(remaining, largest), 0, -1):
            unit = 1 << (8 * (part - 1))
            for k in range(1, min(vector[part - 1], remaining // part) + 1):
                extend(remaining - k * part, part - 1, packed + k * unit, parts + k)

    extend(value, value - 1, 0, 0)
    return found


def expand(vector: bytes, pieces: tuple[tuple[tuple, ...], ...]) -> tuple:
    """The items a count vector stands for: ``pieces[i][k]`` is the run of ``k`` items ``i``."""
    return tuple(chain.from_iterable(map(getitem, pieces, vector)))


def run_table(items: Sequence[object], most: int) -> tuple[tuple[tuple, ...], ...]:
    """``run_table(items, most)[i][k] == (items[i],) * k`` for ``k <= most`` (the most copies of a
    card a pile can hold), for :func:`expand`."""
    return tuple(tuple((item,) * k for k in range(most + 1)) for item in items)


#: Most sub-piles (product of count + 1 over the values below the card's: the additions' search;
#: past it, those that sum to at most the card's value or to a multiple of it, which is all a deck
#: numbered to 100 needs) a capture listing may consider. One deck's fullest pile, every numeral
#: A-9 of it (4 of each: 5**9 = 1,953,125 sub-piles for a ten, 44,543 additions, each with 0-4
#: matches), is within it, so a game of 2-4 players never meets it, even when everyone keeps
#: trailing. Beyond it the
#: captures can number in the millions (two decks' A-9, 9**9 sub-piles: 6.8 million captures of
#: a ten, minutes to list): refused. Only players who keep trailing with two or three decks build
#: such piles (a 30-card pile from three decks needs about 2 000 sub-piles per capture listed).
SUBSET_LIMIT = 2_000_000
#: Most steps (a sum extended by one more copy of a group) the additions' closure may take. The sub-piles
#: bound its result, not its work, which also grows with the group types: each type's pass steps over
#: every sum found so far, so the steps are at most (types) x (sums). A designer's King worth 60 on 33
#: cards A-J has 21,107 ways to make 60 and ran for minutes (a config fuzzer's). The limit is that product
#: for a French deck's ten, 41 ways to make it over the most sums the sub-pile limit admits, so that every
#: pile of the bundled game listed before is listed still (random piles of three decks admitted by the
#: sub-pile limit took up to 16 million steps, 4 s; one deck's fullest, 745,072 steps, 0.07 s).
STEP_LIMIT = 41 * SUBSET_LIMIT

#: Count fields are bytes whose top bit is the guard bit, so a count stays below 0x7F.
FIELD_MAX = 0x7F
_GUARD = 0x80


def match_captures(count: int, any_groups: bool = True) -> list[int]:
    """A face card captures only matches: 1 .. ``count`` cards of its own rank (card counts), or with
    ``any_groups`` false one card at most."""
    return list(range(1, (count if any_groups else min(count, 1)) + 1))
