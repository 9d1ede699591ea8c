"""The exact set-packing optimiser behind Torqu scoring.

Problem: split a bag of cards into disjoint four-card sets (and cards left out) to maximise
``sum(points of the sets) + sign * sum(own numbers of the cards in sets)``: ``sign`` is +1 for
a tableau (a card left out costs its number, so covering it gains it) and -1 for the hand
penalty. The constant ``-sign * sum(all numbers)`` is added by the caller.

Method: the set kinds split in two (see :mod:`.sets`, the one definition of the kinds):

* **number kinds** (Fifteen, Straight, Four of a Kind) depend only on the numbers: cards of one
  number are interchangeable for them, so the best packing of what is left into number kinds is
  a memoised search on the *count vector* (:class:`_NumberSide`). It values a group at the
  number kind's points even when the group is all one suit; that group is then also a suit-kind
  "special" below, worth more, so the relaxation never loses the optimum and never overstates
  (a group with a Mirror can always let it stand for a card of another suit);
* **specials**: every group whose best kind is card-specific (Flush, Straight Flush, Fifteen
  Flush, Perfect Four, including the Dragons variant's cross-suit Perfect Fours and groups
  completed by wild cards). A branch and bound chooses a disjoint selection of them; each node
  is valued exactly by the number side on the remaining counts, and pruned with two upper
  bounds: the number side only loses cards when specials are added, so each further special
  adds at most its own value; and a Lagrangian one, where the number side values each card it
  leaves out at its share of a Flush, so each further special adds at most its value minus
  that share of its cards (a plain Flush: nothing).

Speed (issue 4): exact, but the count-level search grows quickly with the cards and with wild
cards (figures: ``scripts/bench_torqu_score.py``), so its two loops are compiled
(:mod:`.kernels`). The number side's positions are kept between calls.

Wild cards (Mirrors) are interchangeable except for their own numbers, so they are used in a
fixed order (best own-number term first) and only their count is tracked. On the number side a
wild card fills any member of a number kind; four wild cards alone make the best kind
:func:`.sets.complete` gives them.
"""

from __future__ import annotations

from collections import Counter
from itertools import combinations
from typing import TYPE_CHECKING, NamedTuple, Sequence

from ...errors import CardgamesError
from .sets import FIFTEEN, FOUR_OF_A_KIND, STRAIGHT, Ident, Pictures, Points, complete, number_patterns

if TYPE_CHECKING:
    import numpy as np

NUMBER_KINDS = frozenset((FIFTEEN, STRAIGHT, FOUR_OF_A_KIND))
NEG = float("-inf")
QUARTER = 4  # the kernels count in quarter points: a share of a Flush is a quarter of its points
NUMBER_BITS = 4  # bits per number in the packed counts: 16 numbers of up to 15 cards in 64 bits
MAX_NUMBER = 64 // NUMBER_BITS
MAX_PER_NUMBER = (1 << NUMBER_BITS) - 1
CACHE_LIMIT = 1_000_000  # number-side positions kept between calls (a pure function: only speed)
TABLE_START = 1 << 15  # a new number side's table slots (it doubles when half full)


def fits_packed_counts(top: int, most: int) -> str | None:
    """Why a deck cannot be scored (numbers above MAX_NUMBER, or more than MAX_PER_NUMBER cards
    of one number), or None."""
    if top > MAX_NUMBER:
        return f"the scorer handles numbers up to {MAX_NUMBER}, not {top}"
    if most > MAX_PER_NUMBER:
        return f"the scorer handles up to {MAX_PER_NUMBER} cards of one number, not {most}"
    return None


def _kernels():
    """The compiled loops, imported on first use: numba takes a good part of a second to load,
    which commands that never score (``cardgames --help``) must not pay."""
    from . import kernels

    return kernels


class Packing(NamedTuple):
    """An optimal packing: its value and its sets as (real indices, wild cards used)."""

    value: int
    sets: list[tuple[tuple[int, ...], int]]


# A number-side set: the numbers of the real cards it takes, and how many wild cards.
NumberSet = tuple[tuple[int, ...], int]


class _Shapes(NamedTuple):
    """Every number-kind set as the kernels read them, grouped by the highest number of its real
    cards (``start[n]:start[n + 1]``), fewest wild cards first: what it subtracts from the packed
    counts, its wild cards, its value without the wild cards' own numbers, and its real cards'
    distinct numbers (``num``) with how many of each (``cnt``, ``size`` of them). ``sets`` holds
    each one's (numbers, wild cards) for the arrangement."""

    start: np.ndarray
    delta: np.ndarray
    wilds: np.ndarray
    gain: np.ndarray
    size: np.ndarray
    num: np.ndarray
    cnt: np.ndarray
    sets: list[NumberSet]


class _NumberSide:
    """Best packing of counts into number kinds: ``best(x, j)``, ``x`` the count of each number
    packed into one integer (:data:`NUMBER_BITS` bits per number, number n at bits
    ``NUMBER_BITS * (n - 1)``: hashing and subtracting a set are single integer operations),
    ``j`` wild cards still free. Its value is points plus ``sign`` times the real cards'
    numbers, plus ``gain[used wild cards]`` for all wild cards used by then (``J - j_final``), so
    values do not depend on who used the wild cards; a card left out is worth nothing, or (for
    the bound) ``spare[n]`` for number n and ``spare[0]`` for a wild card. All of these are in
    quarter points (:data:`QUARTER`), so the kernels add integers.

    The search is :func:`.kernels.number_best`: either no further set has a card of the top
    number n (they are all left out), or one does, taken from the shapes with that top number.
    Its memo is a table of numpy arrays (see :mod:`.kernels`) that grows when half full."""

    def __init__(self, pts: Points, sign: int, gain: tuple[int, ...], four_wilds: int | None,
                 spare: tuple[int, ...] = ()):
        import numpy as np

        self.shapes = _all_shapes(pts, sign)
        self.spare = np.array(spare or (0,) * (pts.top + 1), np.int64)
        self.gain = np.array([QUARTER * g for g in gain], np.int64)
        self.four_wilds = QUARTER * (four_wilds or 0)  # points of a set of four wild cards ...
        self.has_four = four_wilds is not None  # ... if they make one
        self._allocate(TABLE_START)

    def _allocate(self, slots: int) -> None:
        import numpy as np

        self.tab = np.zeros((slots, 2), np.int64)
        self.filled = np.zeros(1, np.int64)

    def table(self) -> tuple:
        """The memo and constants in :func:`.kernels.number_best`'s argument order."""
        return (self.tab, self.filled, self.spare)

    def full(self) -> bool:
        return 2 * int(self.filled[0]) >= len(self.tab)

    def grow(self) -> None:
        """Double the table, keeping every position."""
        old = self.tab
        self._allocate(2 * len(old))
        _kernels().rehash(old, self.tab)
        self.filled[0] = int((self.tab[:, 1] != 0).sum())

    def size(self) -> int:
        """Positions kept."""
        return int(self.filled[0])

    def best(self, x: int, j: int) -> float:
        import numpy as np

        k, s = _kernels(), self.shapes
        while True:
            done, value = k.number_best(*self.table(), self.gain, self.four_wilds, self.has_four, s.start, s.delta,
                                        s.wilds, s.gain, s.size, s.num, s.cnt, np.empty(k.STACK, np.uint64),
                                        np.empty((k.STACK, 4), np.int64), np.uint64(x), j)
            if done:
                return value / QUARTER
            self.grow()

    def sets(self, x: int, j: int) -> list[NumberSet]:
        """The sets of the best packing for ``(x, j)``."""
        import numpy as np

        self.best(x, j)
        cards = sum(x >> NUMBER_BITS * k & MAX_PER_NUMBER for k in range(MAX_NUMBER))
        out = np.empty(cards + j, np.int64)  # every set takes a real card or four wild cards
        count = _kernels().number_sets(self.tab, self.shapes.start, self.shapes.delta, self.shapes.wilds,
                                       np.uint64(x), j, out)
        return [((), 4) if k == _kernels().FOUR_WILDS else self.shapes.sets[k] for k in out[:count].tolist()]


def _shapes(pts: Points, sign: int, n: int) -> list[tuple[tuple[int, ...], int, int]]:
    """Every number-kind set whose highest real card has number ``n``, any other member
    possibly a wild card: (numbers of its real cards, wild cards, value without the wild cards'
    own numbers); fewest wild cards first."""
    best: dict[tuple[tuple[int, ...], int], int] = {}
    for numbers, points in number_patterns(pts):
        if n in numbers:
            others = list(numbers)
            others.remove(n)
            for reals in _subsets([m for m in others if m <= n]):
                _offer(best, (n, *reals), 3 - len(reals), points + sign * (n + sum(reals)))
    return [(numbers, wilds, value) for (numbers, wilds), value in sorted(best.items(),
                                                                         key=lambda kv: (kv[0][1], kv[0]))]


_SHAPES: dict[tuple[Points, int], _Shapes] = {}


def _all_shapes(pts: Points, sign: int) -> _Shapes:
    """:func:`_shapes` for every top number, as arrays, computed once per points and sign."""
    import numpy as np

    key = (pts, sign)
    if key not in _SHAPES:
        start, rows = [0, 0], []
        for n in range(1, pts.top + 1):
            rows += _shapes(pts, sign, n)
            start.append(len(rows))
        distinct = [sorted(set(numbers)) for numbers, _, _ in rows]
        num = [d + [1] * (4 - len(d)) for d in distinct]
        cnt = [[numbers.count(m) for m in d] + [0] * (4 - len(d))
               for d, (numbers, _, _) in zip(distinct, rows, strict=True)]
        _SHAPES[key] = _Shapes(
            np.array(start, np.int64),
            np.array([sum(1 << NUMBER_BITS * (m - 1) for m in numbers) for numbers, _, _ in rows], np.uint64),
            np.array([w for _, w, _ in rows], np.int64), np.array([QUARTER * v for _, _, v in rows], np.int64),
            np.array([len(d) for d in distinct], np.int64), np.array(num, np.int64).reshape(-1, 4),
            np.array(cnt, np.int64).reshape(-1, 4), [(numbers, w) for numbers, w, _ in rows])
    return _SHAPES[key]


def _offer(best: dict[tuple[tuple[int, ...], int], int], numbers: tuple[int, ...], wilds: int, value: int) -> None:
    """Keep the best value of each (real numbers, wild cards) group shape."""
    key = (tuple(sorted(numbers, reverse=True)), wilds)
    if value > best.get(key, NEG):
        best[key] = value


def _subsets(numbers: list[int]) -> set[tuple[int, ...]]:
    """Every sub-multiset of ``numbers`` (the members that are real cards, the rest wild)."""
    return {tuple(m for k, m in enumerate(numbers) if mask >> k & 1) for mask in range(1 << len(numbers))}


_CACHE: dict[tuple, _NumberSide] = {}


def _number_side(pts: Points, sign: int, gain: tuple[int, ...], four_wilds: int | None,
                 spare: tuple[int, ...] = ()) -> _NumberSide:
    """The number side for these constants, kept between calls (bounded) since it is a pure
    function of the counts: games score many overlapping tableaux."""
    key = (pts, sign, gain, four_wilds, spare)
    side = _CACHE.get(key)
    if side is None or side.size() > CACHE_LIMIT:
        if sum(s.size() for s in _CACHE.values()) > CACHE_LIMIT:
            _CACHE.clear()
        side = _CACHE[key] = _NumberSide(pts, sign, gain, four_wilds, spare)
    return side


class _Special(NamedTuple):
    value: int  # points + sign * own numbers of its real cards
    mask: int  # its real cards ...
    cards: tuple[int, ...]  # ... and their indices
    wilds: int
    group: int  # the suit most of its real cards have (bounds group specials by suit)
    per_group: int  # how many cards of that suit it takes


def _specials(reals: Sequence[Ident], wilds: int, pts: Points, sign: int, num_suits: int,
              picture_members: Pictures, best_wild: int) -> list[_Special]:
    """Every group of real cards (plus wild cards) whose best kind is not a number kind and that
    can add value; highest value first (ties by mask: deterministic)."""
    families: dict[tuple[int, ...], None] = {}
    by_suit: dict[int, list[int]] = {}
    by_picture: dict[int, list[int]] = {}
    for i, c in enumerate(reals):
        by_suit.setdefault(c.suit, []).append(i)
        for pic in c.pictures:
            by_picture.setdefault(pic, []).append(i)
    # A picture within one suit is part of that suit's family; only the Dragons variant's
    # cross-suit pictures add groups.
    cross = [m for m in by_picture.values() if len({reals[i].suit for i in m}) > 1]
    for members in (*by_suit.values(), *cross):
        families[tuple(members)] = None
    found: dict[tuple[int, int], _Special] = {}
    for members in families:
        family = tuple(reals[i] for i in members)
        for picked, w, value, suit, per in _family_specials(family, min(wilds, 3), pts, sign, num_suits,
                                                            picture_members, best_wild):
            cards = tuple(members[r] for r in picked)
            mask = _mask(cards)
            found[(mask, w)] = _Special(value, mask, cards, w, suit, per)  # a group in two families: once
    return sorted(found.values(), key=lambda s: (-(s.value + s.wilds * best_wild), s.mask, s.wilds))


def _family_specials(family: tuple[Ident, ...], wilds: int, pts: Points, sign: int, num_suits: int,
                     picture_members: Pictures, best_wild: int) -> list[tuple[tuple[int, ...], int, int, int, int]]:
    """The specials within one family (a suit's cards, or a cross-suit picture's): (positions in
    ``family``, wild cards, value, main suit, how many of its cards: the suit most of the real
    cards have, the lowest on a tie)."""
    one_suit = len({c.suit for c in family}) == 1  # every family but the Dragons' cross-suit pictures
    out = []
    for w in range(0, wilds + 1):
        for picked in combinations(range(len(family)), 4 - w):
            cards = [family[r] for r in picked]
            best = complete(cards, w, pts, num_suits, picture_members)
            if best is None or best[0] in NUMBER_KINDS:
                continue
            value = best[1] + sign * sum(c.number for c in cards)
            if value + w * best_wild <= 0:
                continue
            if one_suit:
                suit, per = family[0].suit, len(cards)
            else:
                counts = Counter(c.suit for c in cards)
                suit = min(counts, key=lambda t: (-counts[t], t))
                per = counts[suit]
            out.append((picked, w, value, suit, per))
    return out


def _mask(idx: Sequence[int]) -> int:
    m = 0
    for i in idx:
        m |= 1 << i
    return m


class _Search:
    """The branch and bound over specials. Each node (a selection of specials, in their order) is
    valued exactly by the number side on the counts they leave, and its subtree is pruned with two
    upper bounds on what further specials can add:

    * ``kernels._extra``: the number side only loses cards when specials are added, so each further
      special adds at most its own value: per suit, the best special without wild cards times how
      many fit in what is left of the suit; plus the best ``wilds`` specials with wild cards
      (each takes one at least), own numbers included;
    * ``kernels._reduced_extra``, a Lagrangian one: :attr:`bound_side` values each card it leaves out at
      its share of a Flush (``spare``), so a special's cards are worth at most ``spare`` each to
      it: F(x - a, j - b) <= bound_side(x, j) - spare(a) - b * (spare_wild - best own number).
      A subtree is worth at most bound_side(x, j) (or, without evaluating it, the parent's less
      the last special's charge) plus the positive reduced values of the specials still
      possible, per suit as many as fit and one per wild card.

    Nearly every node is pruned on entry, by the parent's bound or the exact ``bound_side``, and
    the plain number side is evaluated only for the few that remain and whose ``bound_side``
    could still beat the best packing found (the others cannot). The loop itself is
    :func:`.kernels.search`; this class prepares its arrays and rebuilds the packing."""

    def __init__(self, reals: Sequence[Ident], wild_own: Sequence[int], pts: Points, sign: int,
                 num_suits: int, picture_members: Pictures):
        import numpy as np

        self.reals = reals
        own = sorted((sign * o for o in wild_own), reverse=True)
        gain = [0]
        for o in own:
            gain.append(gain[-1] + o)
        self.wilds = len(own)
        self.best_wild = max(0, own[0]) if own else 0
        four = complete([], 4, pts, num_suits, picture_members)
        four_points = None if four is None else four[1]
        most = max(Counter(c.number for c in reals).values(), default=0)
        why = fits_packed_counts(pts.top, most)
        if why:
            raise CardgamesError(f"Torqu scoring: {why}")
        self.side = _number_side(pts, sign, tuple(gain), four_points)
        # The bound's side: a card left out is worth its share of a Flush, so that what a
        # special takes from the number side is charged at least that (in quarter points).
        spare = tuple([pts.flush + QUARTER * self.best_wild] + [max(0, pts.flush + QUARTER * sign * n)
                                                               for n in range(1, pts.top + 1)])
        self.bound_side = _number_side(pts, sign, tuple(gain), four_points, spare)
        self.numbers = [c.number for c in reals]
        self.unit = [1 << NUMBER_BITS * (n - 1) for n in self.numbers]  # one card in the packed counts
        self.counts = sum(self.unit)
        suit_count = [0] * num_suits
        for c in reals:
            suit_count[c.suit] += 1
        specials = self.specials = _specials(reals, self.wilds, pts, sign, num_suits, picture_members,
                                             self.best_wild)
        charges = [s.wilds * (spare[0] - QUARTER * self.best_wild) + sum(spare[self.numbers[i]] for i in s.cards)
                   for s in specials]
        reduced = [QUARTER * s.value - c for s, c in zip(specials, charges, strict=True)]
        # Suits whose specials all take the same number of its cards (all but the Dragons
        # variant's cross-suit Perfect Fours): their best special settles ``kernels._extra``'s term.
        by_group: list[list[int]] = [[] for _ in range(num_suits)]
        for k, s in enumerate(specials):
            if not s.wilds:
                by_group[s.group].append(k)
        uniform = [len({specials[k].per_group for k in idx}) <= 1 for idx in by_group]

        def ints(values: Sequence[int]) -> np.ndarray:
            return np.array(values, np.int64)

        self.arrays = (
            np.uint64(self.counts), self.wilds, ints(suit_count), np.array(self.unit, np.uint64),
            ints([c.suit for c in reals]), QUARTER * self.best_wild,
            ints([QUARTER * s.value for s in specials]),
            ints([s.cards + (0,) * (4 - len(s.cards)) for s in specials]).reshape(-1, 4),
            ints([len(s.cards) for s in specials]),
            ints([s.wilds for s in specials]), ints([s.group for s in specials]),
            ints([s.per_group for s in specials]), ints(charges), ints(reduced),
            # the specials the bounds scan, in the specials' order (highest value first): those with
            # a positive reduced value, those with wild cards, and the others by suit
            ints([k for k, r in enumerate(reduced) if r > 0]), ints([k for k, s in enumerate(specials) if s.wilds]),
            ints([0] + list(np.cumsum([len(idx) for idx in by_group]))), ints([k for idx in by_group for k in idx]),
            np.array(uniform, np.bool_))

    def run(self) -> Packing:
        import numpy as np

        shapes = self.side.shapes
        chosen_out = np.zeros(len(self.reals) // 4 + self.wilds + 2, np.int64)
        while True:
            done, value, length = _kernels().search(
                *self.arrays, *self.bound_side.table(), *self.side.table(), self.side.gain, self.side.four_wilds,
                self.side.has_four, shapes.start, shapes.delta, shapes.wilds, shapes.gain, shapes.size, shapes.num,
                shapes.cnt, chosen_out)
            if done:
                break
            for side in (self.side, self.bound_side):  # a table was half full: grow it, search again
                if side.full():
                    side.grow()
        counts, wilds, used = self.counts, self.wilds, 0
        sets: list[tuple[tuple[int, ...], int]] = []
        for k in chosen_out[:length].tolist():
            s = self.specials[k]
            counts -= sum(self.unit[i] for i in s.cards)
            used |= s.mask
            wilds -= s.wilds
            sets.append((s.cards, s.wilds))
        pool: dict[int, list[int]] = {}
        for i, n in enumerate(self.numbers):
            if not used >> i & 1:
                pool.setdefault(n, []).append(i)
        for numbers, w in self.side.sets(counts, wilds):
            sets.append((tuple(sorted(pool[n].pop(0) for n in numbers)), w))
        assert value % QUARTER == 0
        return Packing(value // QUARTER, sets)


def pack(reals: Sequence[Ident], wild_own: Sequence[int], pts: Points, sign: int, num_suits: int,
         picture_members: Pictures) -> Packing:
    """The optimal packing of ``reals`` plus wild cards with own numbers ``wild_own``."""
    return _Search(reals, wild_own, pts, sign, num_suits, picture_members).run()
