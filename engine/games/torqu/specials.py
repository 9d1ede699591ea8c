"""The specials: every group of real cards (plus wild cards) whose best kind is card-specific
(Flush, Straight Flush, Fifteen Flush, Perfect Four), among which the branch and bound of
:mod:`.optimise` chooses.

Most specials lie within one suit: there, what a group is worth depends only on its suit, its
numbers and its wild cards, so :func:`.sets.complete`'s answers are kept in a table indexed by
those (:class:`_SuitTable`), and the compiled :func:`.kernels.suit_specials` enumerates a
tableau's groups against it. A game scores many tableaux whose suits hold the same few numbers,
so after a short warm-up nearly every group is a table read; a group not yet in the table is
sent back, valued here by :func:`.sets.complete` (still the one definition of the kinds), and
the enumeration runs again. Groups across suits exist only in the Dragons variant (a Dragon card
also belongs to the picture it is named for); they are few and enumerated here directly.
"""

from __future__ import annotations

from collections import Counter
from itertools import combinations
from typing import TYPE_CHECKING, NamedTuple, Sequence

from .sets import FIFTEEN, FOUR_OF_A_KIND, SET_SIZE, STRAIGHT, Ident, Pictures, Points, complete

if TYPE_CHECKING:
    import numpy as np

NUMBER_KINDS = frozenset((FIFTEEN, STRAIGHT, FOUR_OF_A_KIND))
UNKNOWN = -(1 << 62)  # a table entry not valued yet
NO_SPECIAL = UNKNOWN + 1  # a group that is no set, or whose best kind is a number kind
MAX_REALS = SET_SIZE  # real cards in a group (the rest of its four are wild cards)


class Specials(NamedTuple):
    """The specials of one tableau as arrays, highest value first (ties broken by their real
    cards' indices, then wild cards: deterministic)."""

    value: np.ndarray  # points + sign * own numbers of its real cards
    cards: np.ndarray  # (n, 4): its real cards' indices, the first ``size`` of each row
    size: np.ndarray
    wilds: np.ndarray
    group: np.ndarray  # the suit most of its real cards have (the lowest on a tie) ...
    per: np.ndarray  # ... and how many of its cards are of that suit

    def members(self, k: int) -> tuple[int, ...]:
        return tuple(self.cards[k, :self.size[k]].tolist())


class _SuitTable:
    """The points of every one-suit group (:data:`NO_SPECIAL` if it is not a special), by suit,
    wild cards and numbers: entry ``offset[w] + key`` of the suit's row, ``key`` the group's
    real numbers in ascending order as digits in base ``top + 1``. Filled as groups are met."""

    def __init__(self, pts: Points, num_suits: int, picture_members: Pictures):
        import numpy as np

        self.pts, self.num_suits, self.picture_members = pts, num_suits, picture_members
        self.base = pts.top + 1
        sizes = [self.base ** (MAX_REALS - w) for w in range(MAX_REALS)]
        self.offset = np.array([sum(sizes[:w]) for w in range(MAX_REALS)], np.int64)
        self.table = np.full((num_suits, sum(sizes)), UNKNOWN, np.int64)
        # Groups across suits exist only if a picture's members span suits (the Dragons variant).
        self.cross = any(len({c.suit for c in members}) > 1 for members in picture_members.values())

    def fill(self, reals: Sequence[Ident], missing: np.ndarray) -> None:
        """Value the groups :func:`.kernels.suit_specials` found missing: rows of (wild cards,
        suit, entry, real card indices)."""
        for row in missing.tolist():
            w, suit, entry = row[:3]
            best = complete([reals[i] for i in row[3:3 + MAX_REALS - w]], w, self.pts, self.num_suits,
                            self.picture_members)
            self.table[suit, entry] = NO_SPECIAL if best is None or best[0] in NUMBER_KINDS else best[1]


_TABLES: dict[tuple[Points, int, Pictures], _SuitTable] = {}


def find(reals: Sequence[Ident], wilds: int, pts: Points, sign: int, num_suits: int,
         picture_members: Pictures, best_wild: int) -> Specials:
    """Every group of ``reals`` plus up to three of the ``wilds`` wild cards whose best kind is
    not a number kind and that can add value (its value plus its wild cards' best own numbers
    is positive); four wild cards alone are the number side's."""
    import numpy as np

    from .kernels import special_order, suit_specials

    key = (pts, num_suits, picture_members)
    if key not in _TABLES:
        _TABLES[key] = _SuitTable(pts, num_suits, picture_members)
    table = _TABLES[key]
    most_wild = min(wilds, MAX_REALS - 1)
    suit = np.array([c.suit for c in reals], np.int64)
    number = np.array([c.number for c in reals], np.int64)
    while True:
        value, cards, size, wild, group, missing = suit_specials(suit, number, table.table, table.offset, table.base,
                                                                 most_wild, sign, best_wild)
        if not len(missing):
            break
        table.fill(reals, missing)
    per = size  # a one-suit group's real cards are all of its suit
    if not table.cross:
        return Specials(value, cards, size, wild, group, per)
    cross = _cross_specials(reals, most_wild, pts, sign, num_suits, picture_members, best_wild)
    value = np.concatenate([value, np.array([c[2] for c in cross], np.int64)])
    wild = np.concatenate([wild, np.array([c[1] for c in cross], np.int64)])
    size = np.concatenate([size, np.array([len(c[0]) for c in cross], np.int64)])
    group = np.concatenate([group, np.array([c[3] for c in cross], np.int64)])
    per = np.concatenate([per, np.array([c[4] for c in cross], np.int64)])
    cards = np.concatenate([cards, np.array([c[0] + (0,) * (MAX_REALS - len(c[0])) for c in cross],
                                            np.int64).reshape(-1, MAX_REALS)])
    order = special_order(value, cards, size, wild, best_wild)
    return Specials(value[order], cards[order], size[order], wild[order], group[order], per[order])


def _cross_specials(reals: Sequence[Ident], wilds: int, pts: Points, sign: int, num_suits: int,
                    picture_members: Pictures, best_wild: int) -> list[tuple[tuple[int, ...], int, int, int, int]]:
    """The specials whose real cards are of more than one suit (the Dragons variant's pictures
    across suits): (real card indices, wild cards, value, main suit, how many of that suit)."""
    by_picture: dict[int, list[int]] = {}
    for i, c in enumerate(reals):
        for pic in c.pictures:
            by_picture.setdefault(pic, []).append(i)
    found: dict[tuple[tuple[int, ...], int], tuple[tuple[int, ...], int, int, int, int]] = {}
    for members in by_picture.values():
        if len({reals[i].suit for i in members}) == 1:
            continue
        for w in range(wilds + 1):
            for picked in combinations(members, MAX_REALS - w):
                suits = Counter(reals[i].suit for i in picked)
                if len(suits) == 1 or (picked, w) in found:
                    continue  # one suit's groups are the table's
                cards = [reals[i] for i in picked]
                best = complete(cards, w, pts, num_suits, picture_members)
                if best is None or best[0] in NUMBER_KINDS:
                    continue
                value = best[1] + sign * sum(c.number for c in cards)
                if value + w * best_wild > 0:
                    suit = min(suits, key=lambda t: (-suits[t], t))
                    found[(picked, w)] = (picked, w, value, suit, suits[suit])
    return sorted(found.values())
