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
cards; 36-card tableaux take ~0.03-1 s and 72-card ones minutes (see the report of
``scripts/bench_torqu_score.py``). The number side's positions are kept between calls.

Wild cards (Mirrors) are interchangeable except for their own numbers, so they are used in a
fixed order (best own-number term first) and only their count is tracked. On the number side a
wild card fills any member of a number kind; four wild cards alone make the best kind
:func:`.sets.complete` gives them.
"""

from __future__ import annotations

from bisect import bisect_left
from itertools import combinations
from typing import NamedTuple, Sequence

from .sets import FIFTEEN, FOUR_OF_A_KIND, STRAIGHT, Ident, Points, complete, number_patterns

NUMBER_KINDS = frozenset((FIFTEEN, STRAIGHT, FOUR_OF_A_KIND))
NEG = float("-inf")
CACHE_LIMIT = 400_000  # number-side positions kept between calls (a pure function: only speed)
FOUR_WILDS = -1  # the number side's pick of a set of four wild cards alone


class Packing(NamedTuple):
    """An optimal packing: its value and its sets as (real indices, wild cards used)."""

    value: int
    sets: list[tuple[tuple[int, ...], int]]


# A number-side set: the numbers of the real cards it takes, and how many wild cards.
NumberSet = tuple[tuple[int, ...], int]


class _NumberSide:
    """Best packing of counts into number kinds. ``best(x, j)``: ``x`` the count of each number
    packed into one integer (``width`` bits per number, number n at bits ``width * (n - 1)``:
    hashing and subtracting a set are single integer operations), ``j`` wild cards still free.
    Its value is points plus ``sign`` times the real cards' numbers, plus ``gain[used wild
    cards]`` for all wild cards used by then (``J - j_final``), so values do not depend on who
    used the wild cards."""

    def __init__(self, pts: Points, sign: int, gain: tuple[int, ...], four_wilds: int | None,
                 width: int, spare: tuple[float, ...] = ()):
        self.pts, self.sign, self.gain, self.wilds, self.width = pts, sign, gain, len(gain) - 1, width
        # What a card left out is worth: nothing, or (for the bound) spare[n] for number n and
        # spare[0] for a wild card.
        self.spare = spare or (0.0,) * (pts.top + 1)
        # One table per count of wild cards still free: ``memo[j][x]`` the value, ``picks[j][x]``
        # the set chosen (an index into ``shapes[top number]``, FOUR_WILDS for four wild cards
        # alone; none when every card of the top number is left out). Plain numbers, not tuples:
        # the garbage collector does not walk them, and these tables reach 10^5-10^6 entries.
        self.memo: list[dict[int, float]] = [{} for _ in range(len(gain))]
        self.picks: list[dict[int, int]] = [{} for _ in range(len(gain))]
        self.four_wilds = four_wilds  # points of a set of four wild cards (None: no set)
        self.shapes = _all_shapes(pts, sign, width)
        # The top bit of each number's field is a guard, never set in a count: a set fits the
        # counts x exactly when subtracting it from x with every guard set clears no guard.
        self.guards = sum(1 << (width * m + width - 1) for m in range(pts.top))

    def best(self, x: int, j: int) -> float:
        memo = self.memo
        got = memo[j].get(x)
        if got is not None:
            return got
        if not x:
            return self._wilds_only(j)
        width = self.width
        n = (x.bit_length() + width - 1) // width
        low = width * (n - 1)
        # Either no further set has a card of the top number n (they are all left out) ...
        rest = x & ((1 << low) - 1)
        got = memo[j].get(rest)
        value = self.spare[n] * (x >> low) + (got if got is not None else self.best(rest, j))
        pick = -1
        # ... or one does (the search takes the sets with that card one at a time). Children
        # already known are read here: most are, and a call costs more than the lookup.
        guards = self.guards
        guarded = x | guards
        for k, (delta, _, wilds, gain) in enumerate(self.shapes[n]):
            if wilds > j:
                break
            if (guarded - delta) & guards == guards:
                child, left = x - delta, j - wilds
                got = memo[left].get(child)
                v = gain + (got if got is not None else self.best(child, left))
                if v > value:
                    value, pick = v, k
        memo[j][x] = value
        if pick >= 0:
            self.picks[j][x] = pick
        return value

    def size(self) -> int:
        """Positions kept."""
        return sum(map(len, self.memo))

    def _wilds_only(self, j: int) -> float:
        value = self.gain[self.wilds - j] + self.spare[0] * j
        if j >= 4 and self.four_wilds is not None:
            with_set = self.four_wilds + self.best(0, j - 4)
            if with_set > value:
                value = with_set
                self.picks[j][0] = FOUR_WILDS
        self.memo[j][0] = value
        return value

    def sets(self, x: int, j: int) -> list[NumberSet]:
        """The sets of the best packing found by :meth:`best` for ``(x, j)``."""
        out: list[NumberSet] = []
        self.best(x, j)
        width = self.width
        while True:
            pick = self.picks[j].get(x)
            if pick == FOUR_WILDS:
                out.append(((), 4))
                j -= 4
                continue
            if not x:
                return out
            n = (x.bit_length() + width - 1) // width
            if pick is None:
                x &= (1 << width * (n - 1)) - 1
                continue
            delta, numbers, wilds, _ = self.shapes[n][pick]
            out.append((numbers, wilds))
            x -= delta
            j -= wilds


Shape = tuple[int, tuple[int, ...], int, int]


def _shapes(pts: Points, sign: int, width: int, n: int) -> list[Shape]:
    """Every number-kind set whose highest real card has number ``n``, any other member
    possibly a wild card: (what it subtracts from the packed counts, numbers of its real cards,
    wild cards, value without the wild cards' own numbers); fewest wild cards first."""
    best: dict[tuple[tuple[int, ...], int], int] = {}
    for numbers, points in number_patterns(pts):
        if n in numbers:
            others = list(numbers)
            others.remove(n)
            for reals in _subsets([m for m in others if m <= n]):
                _offer(best, (n, *reals), 3 - len(reals), points + sign * (n + sum(reals)))
    out = []
    for (numbers, wilds), value in sorted(best.items(), key=lambda kv: (kv[0][1], kv[0])):
        out.append((sum(1 << width * (m - 1) for m in numbers), numbers, wilds, value))
    return out


_SHAPES: dict[tuple[Points, int, int], list[list[Shape]]] = {}


def _all_shapes(pts: Points, sign: int, width: int) -> list[list[Shape]]:
    """:func:`_shapes` for every top number (index n), computed once per points and sign."""
    key = (pts, sign, width)
    if key not in _SHAPES:
        _SHAPES[key] = [[]] + [_shapes(pts, sign, width, n) for n in range(1, pts.top + 1)]
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


def _number_side(pts: Points, sign: int, gain: tuple[int, ...], four_wilds: int | None, width: int,
                 spare: tuple[float, ...] = ()) -> _NumberSide:
    """The number side for these constants, kept between calls (bounded) since it is a pure
    function of the counts: games score many overlapping tableaux."""
    key = (pts, sign, gain, four_wilds, width, spare)
    side = _CACHE.get(key)
    if side is None or side.size() > CACHE_LIMIT:
        if sum(s.size() for s in _CACHE.values()) > CACHE_LIMIT:
            _CACHE.clear()
        side = _CACHE[key] = _NumberSide(pts, sign, gain, four_wilds, width, spare)
    return side


class _Special(NamedTuple):
    value: int  # points + sign * own numbers of its real cards
    mask: int  # its real cards
    wilds: int
    group: int  # the suit most of its real cards have (bounds group specials by suit)
    per_group: int  # how many cards of that suit it takes


def _specials(reals: Sequence[Ident], wilds: int, pts: Points, sign: int, num_suits: int,
              picture_members: dict[int, tuple[Ident, ...]], best_wild: int) -> list[_Special]:
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
    seen: set[tuple[int, int]] = set()
    for members in families:
        for w in range(0, min(wilds, 3) + 1):
            for idx in combinations(members, 4 - w):
                mask = _mask(idx)
                if (mask, w) in seen:
                    continue
                seen.add((mask, w))
                best = complete([reals[i] for i in idx], w, pts, num_suits, picture_members)
                if best is None or best[0] in NUMBER_KINDS:
                    continue
                value = best[1] + sign * sum(reals[i].number for i in idx)
                if value + w * best_wild <= 0:
                    continue
                suits = sorted(reals[i].suit for i in idx)
                suit = max(suits, key=lambda t: (suits.count(t), -t))
                found[(mask, w)] = _Special(value, mask, w, suit, suits.count(suit))
    return sorted(found.values(), key=lambda s: (-(s.value + s.wilds * best_wild), s.mask, s.wilds))


def _mask(idx: Sequence[int]) -> int:
    m = 0
    for i in idx:
        m |= 1 << i
    return m


class _Search:
    def __init__(self, reals: Sequence[Ident], wild_own: Sequence[int], pts: Points, sign: int,
                 num_suits: int, picture_members: dict[int, tuple[Ident, ...]]):
        self.reals = reals
        own = sorted((sign * o for o in wild_own), reverse=True)
        gain = [0]
        for o in own:
            gain.append(gain[-1] + o)
        self.wilds = len(own)
        self.best_wild = max(0, own[0]) if own else 0
        four = complete([], 4, pts, num_suits, picture_members)
        four_points = None if four is None else four[1]
        # Bits per number in the packed counts: one card per suit of a number (more only if a
        # deck held copies), so the width, part of the cache key, stays the same between calls;
        # plus the number side's guard bit, above any count and any set's need (at most 4), so
        # that a set's subtraction never borrows from the next number's field.
        most = max([sum(c.number == n for c in reals) for n in {c.number for c in reals}], default=0)
        self.width = width = max(num_suits, most, 4).bit_length() + 1
        self.side = _number_side(pts, sign, tuple(gain), four_points, width)
        # The bound's side: a card left out is worth its share of a Flush, so that what a
        # special takes from the number side is charged at least that (see _node).
        spare = tuple([pts.flush / 4 + self.best_wild] + [max(0.0, pts.flush / 4 + sign * n)
                                                         for n in range(1, pts.top + 1)])
        self.spare = spare
        self.bound_side = _number_side(pts, sign, tuple(gain), four_points, width, spare)
        self.numbers = [c.number for c in reals]
        self.suits = [c.suit for c in reals]
        self.suit_count = [0] * num_suits
        for c in reals:
            self.suit_count[c.suit] += 1
        self.specials = _specials(reals, self.wilds, pts, sign, num_suits, picture_members, self.best_wild)
        self.charges = [self._charge(s) for s in self.specials]
        self.reduced = [s.value - c for s, c in zip(self.specials, self.charges, strict=True)]
        # Indices the bounds scan, in the specials' order (highest value first): those with a
        # positive reduced value, those with wild cards, and the others by suit.
        self.positive = [k for k, r in enumerate(self.reduced) if r > 0]
        self.with_wilds = [k for k, s in enumerate(self.specials) if s.wilds]
        self.by_group: dict[int, list[int]] = {}
        for k, s in enumerate(self.specials):
            if not s.wilds:
                self.by_group.setdefault(s.group, []).append(k)
        # Suits whose specials all take the same number of its cards (all but the Dragons
        # variant's cross-suit Perfect Fours): their best special settles their term.
        self.uniform = {g: len({self.specials[k].per_group for k in idx}) == 1 for g, idx in self.by_group.items()}
        self.unit = [1 << width * (c.number - 1) for c in reals]  # one card in the packed counts
        self.counts = sum(self.unit)
        self.best_value = NEG
        self.best_chosen: tuple[int, ...] = ()

    def run(self) -> Packing:
        self.root_bound = self.bound_side.best(self.counts, self.wilds)
        self._node(0, 0, self.counts, self.wilds, 0, (), list(self.suit_count), self.root_bound)
        chosen = [self.specials[k] for k in self.best_chosen]
        counts = self.counts
        used = 0
        wilds = self.wilds
        sets: list[tuple[tuple[int, ...], int]] = []
        for s in chosen:
            idx = tuple(i for i in range(len(self.reals)) if s.mask >> i & 1)
            counts -= sum(self.unit[i] for i in idx)
            used |= s.mask
            wilds -= s.wilds
            sets.append((idx, s.wilds))
        pool: dict[int, list[int]] = {}
        for i, n in enumerate(self.numbers):
            if not used >> i & 1:
                pool.setdefault(n, []).append(i)
        for numbers, w in self.side.sets(counts, wilds):
            sets.append((tuple(sorted(pool[n].pop(0) for n in numbers)), w))
        return Packing(int(self.best_value), sets)

    def _charge(self, s: _Special) -> float:
        charge = s.wilds * (self.spare[0] - self.best_wild)
        for i in range(len(self.reals)):
            if s.mask >> i & 1:
                charge += self.spare[self.numbers[i]]
        return charge

    def _node(self, start: int, used: int, counts: int, wilds: int, value: int,
              chosen: tuple[int, ...], left: list[int], bound: float) -> None:
        """Search the selections that add specials from ``start`` on to ``chosen``. ``bound`` is
        an upper bound on ``bound_side(counts, wilds)`` known without evaluating it (the
        parent's, less this node's last special's charge: see :meth:`_reduced_extra`). Nearly
        every node is pruned on entry, by that or by the exact ``bound_side``, so the plain
        number side is evaluated only for the few that remain."""
        extra = self._reduced_extra(start, used, wilds, left)
        if value + bound + extra <= self.best_value:
            return
        exact = self.bound_side.best(counts, wilds)
        if value + exact + extra <= self.best_value:
            return
        here = value + self.side.best(counts, wilds)
        if here > self.best_value:
            self.best_value, self.best_chosen = here, chosen
        specials = self.specials
        for k in range(start, len(specials)):
            s = specials[k]
            if s.mask & used or s.wilds > wilds:
                continue
            if here + self._extra(k, used, wilds, left) <= self.best_value:
                return
            if value + exact + self._reduced_extra(k, used, wilds, left) <= self.best_value:
                return
            child = counts
            rest = list(left)
            m = s.mask
            while m:
                low = m & -m
                i = low.bit_length() - 1
                child -= self.unit[i]
                rest[self.suits[i]] -= 1
                m ^= low
            self._node(k + 1, used | s.mask, child, wilds - s.wilds, value + s.value, (*chosen, k), rest,
                       exact - self.charges[k])

    def _reduced_extra(self, start: int, used: int, wilds: int, left: list[int]) -> float:
        """The specials' part of the Lagrangian bound on a subtree: a special's cards are worth at
        most ``spare`` each to the number side (:attr:`bound_side` values the cards it leaves out
        so), so F(x - a, j - b) <= bound_side(x, j) - spare(a) - b * (spare_wild - best own
        number). The subtree is worth at most bound_side(x, j) (or, without evaluating it, the
        parent's bound_side less the last special's charge) plus what this returns: the
        positive reduced values of the specials still possible, per suit as many as fit and one
        per wild card, as in :meth:`_extra`."""
        total = 0.0
        per_suit: dict[int, tuple[float, int]] = {}
        with_wilds: list[float] = []
        positive = self.positive
        for k in positive[bisect_left(positive, start):]:
            r = self.reduced[k]
            s = self.specials[k]
            if s.mask & used or s.wilds > wilds:
                continue
            if s.wilds:
                with_wilds.append(r)
            else:
                got = per_suit.get(s.group, (0.0, 4))
                per_suit[s.group] = (max(got[0], r), min(got[1], s.per_group))
        with_wilds.sort(reverse=True)
        total += sum(with_wilds[:wilds])
        for group, (r, per) in per_suit.items():
            total += r * (left[group] // per)
        return total

    def _extra(self, start: int, used: int, wilds: int, left: list[int]) -> float:
        """An upper bound on what specials from ``start`` on can add: per suit, the best special
        without wild cards times how many fit in what is left of the suit; plus the best
        ``wilds`` specials with wild cards (each takes one at least), own numbers included."""
        specials = self.specials
        total = 0.0
        if wilds:
            found = 0
            for k in self.with_wilds[bisect_left(self.with_wilds, start):]:
                s = specials[k]
                if s.mask & used or s.wilds > wilds:
                    continue
                total += s.value + s.wilds * self.best_wild
                found += 1
                if found == wilds:
                    break
        for group, idx in self.by_group.items():
            value = per = None
            for k in idx[bisect_left(idx, start):]:
                s = specials[k]
                if s.mask & used:
                    continue
                if value is None:
                    value, per = s.value, s.per_group
                    if self.uniform[group]:
                        break
                elif s.per_group < per:
                    per = s.per_group
            if value is not None:
                total += value * (left[group] // per)
        return total


def pack(reals: Sequence[Ident], wild_own: Sequence[int], pts: Points, sign: int, num_suits: int,
         picture_members: dict[int, tuple[Ident, ...]]) -> Packing:
    """The optimal packing of ``reals`` plus wild cards with own numbers ``wild_own``."""
    return _Search(reals, wild_own, pts, sign, num_suits, picture_members).run()
