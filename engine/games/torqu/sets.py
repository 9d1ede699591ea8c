"""The seven Torqu set kinds: which kind four card identities make, and with wild cards, the
best kind a partial set can be completed to.

A card identity here is ``(suit, number, pictures)``: ``pictures`` is a tuple of picture ids
(one normally; a Dragon card in the Dragons variant has two, its own and the element picture it
is named for). Points follow the seed; a group that is none of the kinds is not a set.
"""

from __future__ import annotations

from functools import lru_cache
from typing import Iterator, Mapping, NamedTuple, Sequence

PERFECT_FOUR = "perfect_four"
FIFTEEN_FLUSH = "fifteen_flush"
FIFTEEN = "fifteen"
STRAIGHT_FLUSH = "straight_flush"
STRAIGHT = "straight"
FOUR_OF_A_KIND = "four_of_a_kind"
FLUSH = "flush"
SET_SIZE = 4  # the seed's sets are four cards: every kind below, and what the optimiser packs
KINDS = (PERFECT_FOUR, FIFTEEN_FLUSH, FIFTEEN, STRAIGHT_FLUSH, STRAIGHT, FOUR_OF_A_KIND, FLUSH)


def kind_title(kind: str) -> str:
    """A kind as the seed writes it: ``four_of_a_kind`` is "Four of a Kind"."""
    return " ".join(w if w in ("of", "a") else w.capitalize() for w in kind.split("_"))


class Points(NamedTuple):
    """The set kinds' point values (from the game's options)."""

    perfect_four: int
    fifteen_flush: int
    fifteen: int
    straight_flush: int
    straight: int
    four_of_a_kind: int
    flush: int
    fifteen_sum: int
    top: int  # highest number in a suit


class Ident(NamedTuple):
    """What scoring needs of a card: its suit, number and pictures (a Dragon has two under the Dragons
    variant)."""

    suit: int
    number: int
    pictures: tuple[int, ...]


def kind_of(cards: Sequence[Ident], pts: Points) -> tuple[str, int] | None:
    """The best kind four distinct card identities make, and its points; None if no set."""
    suits = {c.suit for c in cards}
    numbers = sorted(c.number for c in cards)
    one_suit = len(suits) == 1
    total = sum(numbers)
    best: tuple[int, str] | None = None

    def offer(points: int, kind: str) -> None:
        nonlocal best
        if best is None or points > best[0]:
            best = (points, kind)

    common = set(cards[0].pictures)
    for c in cards[1:]:
        common &= set(c.pictures)
    if common:
        offer(pts.perfect_four, PERFECT_FOUR)
    if total == pts.fifteen_sum:
        offer(pts.fifteen_flush if one_suit else pts.fifteen, FIFTEEN_FLUSH if one_suit else FIFTEEN)
    if all(numbers[i + 1] == numbers[i] + 1 for i in range(SET_SIZE - 1)):
        offer((pts.straight_flush if one_suit else pts.straight) + total,
              STRAIGHT_FLUSH if one_suit else STRAIGHT)
    if numbers[0] == numbers[-1]:
        offer(pts.four_of_a_kind * numbers[0], FOUR_OF_A_KIND)
    if one_suit:
        offer(pts.flush, FLUSH)
    return None if best is None else (best[1], best[0])


def number_patterns(pts: Points) -> list[tuple[tuple[int, ...], int]]:
    """Every four numbers that make a number kind (Fifteen, Straight, Four of a Kind) from cards of
    different suits, non-decreasing, with the points :func:`kind_of` gives them: Fifteens, then
    Straights, then Fours of a Kind. Cards of one number are interchangeable for these kinds, so
    the optimiser, its CP-SAT twin and the MILP reference all start from this list."""
    groups = _partitions(pts.fifteen_sum, SET_SIZE, pts.top)
    groups += [tuple(range(low, low + SET_SIZE)) for low in range(1, pts.top - SET_SIZE + 2)]
    groups += [(n,) * SET_SIZE for n in range(1, pts.top + 1)]
    out = []
    for numbers in dict.fromkeys(groups):  # a designer's Fifteen may also be a Straight: once
        found = kind_of([Ident(suit, m, (-1 - suit,)) for suit, m in enumerate(numbers)], pts)
        assert found is not None
        out.append((numbers, found[1]))
    return out


@lru_cache(maxsize=None)
def most_points(pts: Points) -> int:
    """The most points one set can score, 0 if none scores more: each number pattern's own points,
    or :func:`kind_of`'s for its numbers in one suit and one picture (Perfect Four, Flush and the
    suit kinds take any numbers). ``optimise`` bounds a whole packing by it, once per tableau
    scored: kept, as it takes half a millisecond, about half a 36-card tableau's median."""
    return max(0, *(max(points, kind_of([Ident(0, n, (0,)) for n in numbers], pts)[1])
                    for numbers, points in number_patterns(pts)))


def _partitions(total: int, parts: int, top: int, low: int = 1) -> list[tuple[int, ...]]:
    """Non-decreasing tuples of ``parts`` numbers in low..top summing to ``total``."""
    if parts == 1:
        return [(total,)] if low <= total <= top else []
    out = []
    for first in range(low, min(top, total) + 1):
        for rest in _partitions(total - first, parts - 1, top, first):
            out.append((first, *rest))
    return out


class Pictures(Mapping[int, tuple[Ident, ...]]):
    """The member cards of each picture. Immutable and hashable, so that :func:`complete` can
    keep its answers: a game asks about the same few cards of a suit over and over."""

    __slots__ = ("_members", "_hash")

    def __init__(self, members: Mapping[int, tuple[Ident, ...]]):
        self._members = dict(members)
        self._hash = hash(tuple(sorted(self._members.items())))

    def __getitem__(self, pic: int) -> tuple[Ident, ...]:
        return self._members[pic]

    def __iter__(self) -> Iterator[int]:
        return iter(self._members)

    def __len__(self) -> int:
        return len(self._members)

    def __hash__(self) -> int:
        return self._hash

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Pictures) and self._members == other._members


def complete(reals: Sequence[Ident], wilds: int, pts: Points, num_suits: int,
             picture_members: Pictures) -> tuple[str, int, tuple[Ident, ...]] | None:
    """The best set ``reals`` plus ``wilds`` wild cards can make: (kind, points, what the wild
    cards stand for), or None. Each wild card may be any identity not already in the set."""
    return _complete(tuple(reals), wilds, pts, num_suits, picture_members)


@lru_cache(maxsize=1 << 16)
def _complete(reals: tuple[Ident, ...], wilds: int, pts: Points, num_suits: int,
              picture_members: Pictures) -> tuple[str, int, tuple[Ident, ...]] | None:
    if wilds == 0:
        found = kind_of(reals, pts)
        return None if found is None else (found[0], found[1], ())
    taken = {(c.suit, c.number) for c in reals}
    options: list[tuple[int, str, list[tuple[int, int]]]] = []
    # Perfect Four: every real card shares a picture that has enough other members.
    pictures = set(picture_members) if not reals else set(reals[0].pictures).intersection(
        *(c.pictures for c in reals[1:]))
    for pic in sorted(pictures):
        others = [(m.suit, m.number) for m in picture_members[pic] if (m.suit, m.number) not in taken]
        if len(others) >= wilds:
            options.append((pts.perfect_four, PERFECT_FOUR, others[:wilds]))
            break
    suits = sorted({c.suit for c in reals})
    numbers = sorted(c.number for c in reals)
    total = sum(numbers)
    one_suit = len(suits) <= 1
    flush_suit = suits[0] if suits else 0
    top = pts.top
    need = pts.fifteen_sum - total
    distinct = len(set(numbers)) == len(numbers)
    if one_suit and distinct:
        free = [n for n in range(1, top + 1) if n not in numbers]
        pick = _distinct_sum(free, wilds, need)
        if pick is not None:
            options.append((pts.fifteen_flush, FIFTEEN_FLUSH, [(flush_suit, n) for n in pick]))
    for nums in sorted((split[::-1] for split in _partitions(need, wilds, top)), reverse=True):
        stand = _spread(nums, reals, num_suits, mixed=one_suit)  # largest numbers first: any that fits will do
        if stand is not None:
            options.append((pts.fifteen, FIFTEEN, stand))
            break
    span = SET_SIZE - 1  # a straight's highest number less its lowest
    if distinct and (not numbers or numbers[-1] - numbers[0] <= span):
        start = min(numbers[0] if numbers else top - span, top - span)
        if not numbers or start + span >= numbers[-1]:
            window = [n for n in range(start, start + SET_SIZE) if n not in numbers]
            total_w = sum(range(start, start + SET_SIZE))
            if one_suit:
                options.append((pts.straight_flush + total_w, STRAIGHT_FLUSH, [(flush_suit, n) for n in window]))
            stand = _spread(window, reals, num_suits, mixed=one_suit)
            if stand is not None:
                options.append((pts.straight + total_w, STRAIGHT, stand))
    if not numbers or numbers[0] == numbers[-1]:
        n = numbers[0] if numbers else top
        free_suits = [s for s in range(num_suits) if (s, n) not in taken]
        if len(free_suits) >= wilds:
            options.append((pts.four_of_a_kind * n, FOUR_OF_A_KIND, [(s, n) for s in free_suits[:wilds]]))
    if one_suit:
        free = [n for n in range(top, 0, -1) if n not in numbers]
        options.append((pts.flush, FLUSH, [(flush_suit, n) for n in free[:wilds]]))
    if not options:
        return None
    points, kind, stand = max(options, key=lambda o: o[0])
    return kind, points, tuple(Ident(s, n, ()) for s, n in stand)


def _distinct_sum(free: list[int], count: int, total: int) -> list[int] | None:
    """``count`` distinct numbers from ``free`` summing to ``total`` (largest first), or None."""
    if count == 0:
        return [] if total == 0 else None
    for i in range(len(free) - 1, -1, -1):
        n = free[i]
        if n <= total:
            rest = _distinct_sum(free[:i], count - 1, total - n)
            if rest is not None:
                return [n, *rest]
    return None


def _spread(numbers: Sequence[int], reals: Sequence[Ident], num_suits: int,
            mixed: bool) -> list[tuple[int, int]] | None:
    """Give each wild number a suit so identities stay distinct and, when ``mixed``, the set is not
    all of one suit: the wild cards keep off the suit the real cards share (or, with none, the
    first wild card's) where they can. None if the deck's suits do not allow it (a designer's deck
    of one to three suits: a number taken in every suit, or no second suit free)."""
    taken = {(c.suit, c.number) for c in reals}
    avoid = reals[0].suit if mixed and reals else None
    out = []
    for n in numbers:
        free = [s for s in range(num_suits) if (s, n) not in taken]
        if not free:
            return None
        suit = next((s for s in free if s != avoid), free[0])
        if mixed and avoid is None:
            avoid = suit
        taken.add((suit, n))
        out.append((suit, n))
    if mixed and len({suit for suit, _ in out} | {c.suit for c in reals}) == 1:
        return None
    return out
