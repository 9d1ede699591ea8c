"""The exact set-packing optimiser behind Torqu scoring.

Problem: split a bag of cards into disjoint four-card sets (and cards left out) to maximise
``sum(points of the sets) + sign * sum(numbers of the cards in sets)`` where ``sign`` is +1 for
a tableau (a card left out costs its number, so covering it gains it) and -1 for the hand
penalty (its largest value is sets' points plus the numbers of the cards *not* in sets). The
constant ``-sum(all numbers)`` (or ``+``) is added by the caller. Call ``w(S)`` the value of
one set in these terms.

Method: depth-first branch and bound over the real (non-wild) cards, lowest number first, with
a transposition table on the remaining cards, and a Lagrangian upper bound that is exact for
everything inside one suit:

* every set that is not "four real cards of one suit" (cross-suit sets, Dragon perfect fours,
  sets with wild cards) is priced: each real card ``c`` gets ``price[c]`` and each wild card a
  price, such that every such set's value is at most the sum of its members' prices;
* the bound of a position is, per suit, the best packing of that suit's remaining cards into
  one-suit sets where any card may instead be "exported" at its price (an exact small DP,
  memoised on the suit's remaining cards), plus the remaining wild cards' prices.

Any packing's value is at most that bound, so pruning with it never loses the optimum, and the
search, which tries every set containing the pivot card (and leaving it out), is exhaustive.
Wild cards are interchangeable except for their own numbers, so they are used in a fixed order
(best own-number term first) and the position only records how many are used.
"""

from __future__ import annotations

from itertools import combinations, product
from typing import NamedTuple, Sequence

from .sets import Ident, Points, complete


class Packing(NamedTuple):
    """An optimal packing: its value (in ``w`` terms) and its sets as (real indices, wilds used)."""

    value: int
    sets: list[tuple[tuple[int, ...], int]]


class _Search:
    def __init__(self, reals: Sequence[Ident], wild_own: Sequence[int], pts: Points, sign: int,
                 num_suits: int, picture_members: dict[int, tuple[Ident, ...]]):
        self.pts, self.sign, self.num_suits, self.picture_members = pts, sign, num_suits, picture_members
        # Local order: highest number first: high cards have few sets, so the search branches
        # little near the root, and the transposition table catches the low cards' many fifteens.
        order = sorted(range(len(reals)), key=lambda i: (-reals[i].number, reals[i].suit))
        self.orig = order
        self.cards = [reals[i] for i in order]
        n = len(self.cards)
        self.wild_own = sorted(wild_own, key=lambda o: -sign * o)
        self.bits = [1 << i for i in range(n)]
        self.own = [c.number for c in self.cards]
        self.suit_mask = [0] * num_suits
        for i, c in enumerate(self.cards):
            self.suit_mask[c.suit] |= 1 << i
        self.suit_of = [c.suit for c in self.cards]
        self._completions: dict[tuple[int, int], int | None] = {}
        self._wild_lists: dict[tuple[int, int], list[tuple[int, int, tuple[int, ...]]]] = {}
        self._enumerate()
        self.wild_suffix = [0.0] * (len(self.wild_own) + 1)
        self._price()
        self.memo: dict[tuple[int, int], tuple[int, bool]] = {}
        self.best_choice: dict[tuple[int, int], tuple[int, int, int]] = {}

    # -- candidate sets of real cards ----------------------------------------------------
    def _value(self, idx: tuple[int, ...], wilds: int = 0) -> int | None:
        mask = 0
        for i in idx:
            mask |= 1 << i
        key = (mask, wilds)
        if key in self._completions:
            return self._completions[key]
        found = complete([self.cards[i] for i in idx], wilds, self.pts, self.num_suits, self.picture_members)
        value = None if found is None else found[1] + self.sign * sum(self.own[i] for i in idx)
        self._completions[key] = value
        return value

    def _enumerate(self) -> None:
        """All sets of four real cards, split into one-suit sets (exact in the bound) and the
        rest (priced), each listed under every member."""
        cards, n = self.cards, len(self.cards)
        pts = self.pts
        found: dict[int, int] = {}
        by_suit: dict[int, list[int]] = {}
        by_number: dict[int, list[int]] = {}
        for i, c in enumerate(cards):
            by_suit.setdefault(c.suit, []).append(i)
            by_number.setdefault(c.number, []).append(i)
        single: dict[int, int] = {}
        for members in by_suit.values():
            for idx in combinations(members, 4):
                value = self._value(idx)
                if value is not None:
                    single[_mask(idx)] = value
        candidates: set[tuple[int, ...]] = set()
        for members in by_number.values():
            candidates.update(combinations(members, 4))
        for start in range(1, pts.top - 2):
            lists = [by_number.get(start + k, []) for k in range(4)]
            if all(lists):
                candidates.update(product(*lists))
        for parts in _partitions(pts.fifteen_sum, 4, pts.top):
            groups: dict[int, int] = {}
            for p in parts:
                groups[p] = groups.get(p, 0) + 1
            pools = [list(combinations(by_number.get(p, []), k)) for p, k in groups.items()]
            if all(pools):
                for choice in product(*pools):
                    candidates.add(tuple(i for part in choice for i in part))
        members_of: dict[int, list[int]] = {}
        for i, c in enumerate(cards):
            for pic in c.pictures:
                members_of.setdefault(pic, []).append(i)
        for members in members_of.values():
            if len(members) >= 4:
                candidates.update(combinations(sorted(members), 4))
        for idx in candidates:
            if len({cards[i].suit for i in idx}) > 1:
                value = self._value(tuple(sorted(idx)))
                if value is not None:
                    found[_mask(idx)] = value
        self.single = single
        self.cross = found
        self.sets_of: list[list[tuple[int, int]]] = [[] for _ in range(n)]
        self.single_of: list[list[tuple[int, int]]] = [[] for _ in range(n)]
        for table, target in ((single, self.single_of), (found, None)):
            for mask, value in table.items():
                if value <= 0:
                    continue
                m = mask
                while m:
                    low = m & -m
                    i = low.bit_length() - 1
                    self.sets_of[i].append((mask, value))
                    if target is not None:
                        target[i].append((mask, value))
                    m ^= low
        self.members_of = members_of
        self._symmetry()
        for i, lst in enumerate(self.sets_of):
            lst.sort(key=lambda mv: -mv[1])
            self.sets_of[i] = [(mask, value, self._suits(mask), self._required(mask)) for mask, value in lst]

    def _symmetry(self) -> None:
        """Cards of a suit with fewer than four cards, no wild cards and one picture each are
        interchangeable with same-number cards of the same kind: sets must use the first
        remaining ones, and leaving one out leaves all of them out."""
        self.pure_before = [0] * len(self.cards)
        self.pure_group = [0] * len(self.cards)
        if self.wild_own or any(len(c.pictures) > 1 for c in self.cards):
            return
        sizes: dict[int, int] = {}
        for c in self.cards:
            sizes[c.suit] = sizes.get(c.suit, 0) + 1
        seen: dict[int, int] = {}
        for i, c in enumerate(self.cards):
            if sizes[c.suit] < 4:
                self.pure_before[i] = seen.get(c.number, 0)
                seen[c.number] = seen.get(c.number, 0) | 1 << i
        for i, c in enumerate(self.cards):
            if sizes[c.suit] < 4:
                self.pure_group[i] = seen[c.number]

    def _required(self, mask: int) -> int:
        req = 0
        m = mask
        while m:
            low = m & -m
            req |= self.pure_before[low.bit_length() - 1]
            m ^= low
        return req & ~mask

    def _suits(self, mask: int) -> tuple[int, ...]:
        suits = set()
        m = mask
        while m:
            low = m & -m
            suits.add(self.suit_of[low.bit_length() - 1])
            m ^= low
        return tuple(sorted(suits))

    def _price(self) -> None:
        """Choose the prices: a small family shaped like the LP's duals (low numbers are scarce
        for fifteens, so dearer), each repaired to cover every priced set; keep the tightest."""
        best = None
        for slope in (0.0, 3.0, 6.0, 9.0, 12.0):
            self._set_prices(slope)
            value = self.bound((1 << len(self.cards)) - 1, 0)
            if best is None or value < best[0]:
                best = (value, slope)
        self._set_prices(best[1])

    def _set_prices(self, slope: float) -> None:
        n = len(self.cards)
        base = (self.pts.fifteen + self.sign * self.pts.fifteen_sum + slope * self.pts.fifteen_sum) / 4
        price = [max(0.0, base - slope * self.own[i]) for i in range(n)]
        for mask, value in self.cross.items():
            members = []
            m = mask
            while m:
                low = m & -m
                members.append(low.bit_length() - 1)
                m ^= low
            gap = value - sum(price[i] for i in members)
            if gap > 0:
                for i in members:
                    price[i] += gap / 4
        self.price = price
        self.memo_h = [{} for _ in range(self.num_suits)]
        # Wild cards: sets with j wilds and 4-j real cards; value <= points + own terms.
        sign, pts = self.sign, self.pts
        adj = sorted((sign * self.own[i] - price[i] for i in range(n)), reverse=True)
        best_pic = {1: None, 2: None, 3: None}
        for members in self.members_of.values():
            vals = sorted((sign * self.own[i] - price[i] for i in members), reverse=True)
            for k in (1, 2, 3):
                if len(vals) >= k:
                    v = sum(vals[:k])
                    if best_pic[k] is None or v > best_pic[k]:
                        best_pic[k] = v
        non_pf = max(pts.fifteen_flush, pts.fifteen, pts.straight_flush + 4 * pts.top - 6,
                     pts.straight + 4 * pts.top - 6, pts.four_of_a_kind * pts.top, pts.flush)
        self.non_pf = non_pf
        base = pts.perfect_four / 4.0  # four wild cards alone
        for j in (1, 2, 3):
            k = 4 - j
            if best_pic[k] is not None:
                base = max(base, (pts.perfect_four + best_pic[k]) / j)
            if len(adj) >= k:
                base = max(base, (non_pf + sum(adj[:k])) / j)
        self.wild_price = [max(0.0, base + sign * o) for o in self.wild_own]
        self.wild_suffix = [sum(self.wild_price[i:]) for i in range(len(self.wild_price) + 1)]

    # -- the bound -----------------------------------------------------------------------
    def suit_bound(self, suit: int, rem: int) -> int:
        memo = self.memo_h[suit]
        got = memo.get(rem)
        if got is not None:
            return got
        if not rem:
            return 0
        low = rem & -rem
        i = low.bit_length() - 1
        best = self.price[i] + self.suit_bound(suit, rem ^ low)
        for mask, value in self.single_of[i]:
            if mask & rem == mask:
                v = value + self.suit_bound(suit, rem ^ mask)
                if v > best:
                    best = v
        memo[rem] = best
        return best

    def bound(self, rem: int, used: int) -> float:
        total = self.wild_suffix[used]
        for s, sm in enumerate(self.suit_mask):
            part = rem & sm
            if part:
                total += self.suit_bound(s, part)
        return total

    # -- the search ----------------------------------------------------------------------
    def wild_value(self, used: int, count: int) -> int:
        return self.sign * sum(self.wild_own[used:used + count])

    def leaf(self, used: int) -> int:
        left = len(self.wild_own) - used
        value = 0
        while left >= 4:
            v = self.pts.perfect_four + self.wild_value(used, 4)
            if v <= 0:
                break
            value += v
            used += 4
            left -= 4
        return value

    def options(self, rem: int, used: int, lower: float) -> list[tuple[int, int, int, tuple[int, ...]]]:
        """(value, mask, wilds, suits) of every set containing the pivot (lowest remaining card)
        that could beat ``lower``, and of leaving the pivot out. Lists are sorted by value, so
        the scan stops once value + bound(the rest without the pivot) cannot beat ``lower``."""
        low = rem & -rem
        i = low.bit_length() - 1
        rest = rem ^ low
        cap = lower - self.bound(rest, used)
        opts = []
        for mask, value, suits, req in self.sets_of[i]:
            if value <= cap:
                break
            if mask & rem == mask and not req & rem:
                opts.append((value, mask, 0, suits))
        for j_wilds in range(1, min(3, len(self.wild_own) - used) + 1):
            extra = self.wild_value(used, j_wilds)
            cap_j = lower - extra - self.bound(rest, used + j_wilds)
            for value, mask, suits in self._wild_list(i, j_wilds):
                if value <= cap_j:
                    break
                if mask & rem == mask:
                    opts.append((value + extra, mask, j_wilds, suits))
        out = self.pure_group[i] & rem or low
        opts.append((0, out, 0, (self.suit_of[i],)))
        return opts

    def _wild_list(self, i: int, wilds: int) -> list[tuple[int, int, tuple[int, ...]]]:
        """Sets of card ``i``, 3 - ``wilds`` later cards and ``wilds`` wild cards, best first."""
        key = (i, wilds)
        got = self._wild_lists.get(key)
        if got is None:
            got = []
            for group in combinations(range(i + 1, len(self.cards)), 3 - wilds):
                value = self._value((i, *group), wilds)
                if value is not None:
                    mask = _mask((i, *group))
                    got.append((value, mask, self._suits(mask)))
            got.sort(key=lambda t: -t[0])
            self._wild_lists[key] = got
        return got

    def solve(self, rem: int, used: int, lower: float, ub: float) -> float:
        """f(rem, used) exactly when it exceeds ``lower``; otherwise some value <= lower.
        ``ub`` is this position's bound."""
        if not rem:
            return self.leaf(used)
        key = (rem, used)
        got = self.memo.get(key)
        if got is not None:
            value, exact = got
            if exact or value <= lower:
                return value
        if ub <= lower:
            return lower
        suit_bound, suit_mask, wild_suffix = self.suit_bound, self.suit_mask, self.wild_suffix
        scored = []
        for value, mask, wilds, suits in self.options(rem, used, lower):
            child = rem ^ mask
            bound = ub - wild_suffix[used] + wild_suffix[used + wilds] + value
            for s in suits:
                sm = suit_mask[s]
                bound += suit_bound(s, child & sm) - suit_bound(s, rem & sm)
            if bound > lower:
                scored.append((bound, value, mask, wilds))
        scored.sort(key=lambda t: -t[0])
        best = lower
        choice = None
        for bound, value, mask, wilds in scored:
            if bound <= best:
                break
            v = value + self.solve(rem ^ mask, used + wilds, best - value, bound - value)
            if v > best:
                best, choice = v, (value, mask, wilds)
        if choice is None:
            self.memo[key] = (lower, False)
            return lower
        self.memo[key] = (best, True)
        self.best_choice[key] = choice
        return best

    def run(self) -> Packing:
        full = (1 << len(self.cards)) - 1
        value = self.solve(full, 0, -1, self.bound(full, 0))
        sets = []
        rem, used = full, 0
        while rem:
            value_, mask, wilds = self.best_choice[(rem, used)]
            idx = tuple(self.orig[i] for i in range(len(self.cards)) if mask >> i & 1)
            if value_ > 0 or wilds:
                sets.append((idx, wilds))
            rem ^= mask
            used += wilds
        left = len(self.wild_own) - used
        while left >= 4 and self.pts.perfect_four + self.wild_value(used, 4) > 0:
            sets.append(((), 4))
            used += 4
            left -= 4
        return Packing(int(round(value)), sets)


def _mask(idx: Sequence[int]) -> int:
    m = 0
    for i in idx:
        m |= 1 << i
    return m


def _partitions(total: int, parts: int, top: int, low: int = 1) -> list[tuple[int, ...]]:
    """Non-decreasing tuples of ``parts`` numbers in low..top summing to ``total``."""
    if parts == 1:
        return [(total,)] if low <= total <= top else []
    out = []
    for first in range(low, min(top, total) + 1):
        for rest in _partitions(total - first, parts - 1, top, first):
            out.append((first, *rest))
    return out


def pack(reals: Sequence[Ident], wild_own: Sequence[int], pts: Points, sign: int, num_suits: int,
         picture_members: dict[int, tuple[Ident, ...]]) -> Packing:
    """The optimal packing of ``reals`` plus wild cards with own numbers ``wild_own``."""
    return _Search(reals, wild_own, pts, sign, num_suits, picture_members).run()
