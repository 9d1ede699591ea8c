"""A refutation for games with wild cards and a waste cap (Strict Wizard's Tower): the pairs'
least numbers of plays onto wild-topped rows, summed over a partition of the pairs.

Why it is sound. Take a winning play of the whole game and keep only the cards of some pairs G
and the wild cards: what is left is a winning play of G's *projection* (its cards reach the
waste's top no later, the waste holds no more cards, so its cap still holds). In it, a card of G
lies directly on a wild card exactly when it does in the whole play: a card of another pair that
lay between them would need a wild card before the next card of G, and that wild card would be
in the projection. So the plays of G's cards onto wild-topped rows, counted in the projections
of the pairs of a partition, are different wild cards of the whole play: their sum is at most
the pool, the wild-topped rows now plus the wild cards still to place. When the least numbers
the projections need (:meth:`Projections.least`) sum past the pool, the game is lost.

The same holds by each stock index T (issue 3's eighteenth pass). A play made while at most T stock
cards are turned lies on a wild card from the wild-topped rows, the waste or the stock's first T
cards, and the projection makes it at the same point of its own stock. So if every win of G's
projection has made k + 1 plays onto wild-topped rows by the time its stock card at T is due
(:meth:`Projections.deadlines`), so has every win of the whole game, and at each T the plays the
groups of a partition must have made by then are at most the wild cards that can have come by
then. This catches pairs that each need a wild card early when few come early: Strict Wizard's
Tower 145's groups need 7 of its pool of 8, which fits, but all 7 by stock card 62, when at most 6
can have come.

The projection's search: rows as counts by top class, a wild card always played at once onto a
*phantom* row outside the pairs (a row more never hurts, and a wild-topped row can do all any
row can: the solver's sub-games argue the same), which leaves a wild-topped row. Each pair's
own projection rarely needs more than one or two plays onto wild-topped rows; pairs of pairs,
and groups of up to :data:`GROUP_MOST` pairs, block each other's cards on the waste, and there
the needs add up: it refutes Strict Wizard's Tower deals that every other stage and CP-SAT left
open (issue 3's seventeenth pass; docs/performance/pairing-solver.md has the figures).

Compiled with numba (as the Torqu scorer's loops): each group is a depth-first search over up
to millions of positions, its failed positions in an open-addressing table.
"""

from __future__ import annotations

from itertools import combinations
from typing import Sequence

import numpy as np

from ...compiled import compiled

GROUP_MOST = 6  # the largest group of pairs whose projection is searched
PAIRS_MOST = 12  # beyond this many pairs the groups and partitions are too many: the bound is not tried
QUERY_NODES = 30_000_000  # positions one group's search may take; past them its need is what it proved
STAGE_NODES = 150_000_000  # positions the groups' least numbers may take at one position, and again their deadlines
TABLE_BITS = 22  # the failed-position table's slots (four words and a byte each: about 140 MB)
_FIELD = 5  # bits a waste card's class, or a row count, takes in a packed key


@compiled
def _holds(s: int, a: np.uint64, b: np.uint64, c: np.uint64, keys: np.ndarray, gen: np.uint64) -> bool:
    """Does slot ``s`` hold key (a, b, c) of this query?"""
    return keys[s, 3] == gen and keys[s, 0] == a and keys[s, 1] == b and keys[s, 2] == c


@compiled
def _slot(a: np.uint64, b: np.uint64, c: np.uint64, keys: np.ndarray, mask: int, gen: np.uint64) -> int:
    """The slot of key (a, b, c): its own, else a free one of its bucket of four, else the one
    it evicts (a forgotten failure is only searched again). A slot of an earlier query, whose
    generation is not ``gen``, is free: the table is never cleared."""
    h = (a * np.uint64(0x9E3779B97F4A7C15)) ^ (b * np.uint64(0xBF58476D1CE4E5B9)) ^ (c * np.uint64(0x94D049BB133111EB))
    h ^= h >> np.uint64(29)
    base = np.int64(h & np.uint64(mask)) & ~3
    for q in range(4):
        if _holds(base + q, a, b, c, keys, gen):
            return base + q
    for q in range(4):
        if keys[base + q, 3] != gen:
            return base + q
    return base + np.int64(h >> np.uint64(62))


@compiled
def _key(i: int, w: int, depth: int, stack: np.ndarray, counts: np.ndarray) -> tuple[np.uint64, np.uint64, np.uint64]:
    """A position's exact key: (stock index, wild-topped rows, waste size), the waste's classes,
    the rows' counts by top class, :data:`_FIELD` bits each (the caller checks that they fit)."""
    b = np.uint64(0)
    for d in range(depth):
        b = b << np.uint64(_FIELD) | np.uint64(stack[d])
    c = np.uint64(0)
    for t in range(len(counts)):
        c = c << np.uint64(_FIELD) | np.uint64(counts[t])
    return np.uint64(i | w << 8 | depth << 16), b, c


@compiled
def _win(k0: int, w0: int, depth0: int, seq: np.ndarray, counts: np.ndarray, stack: np.ndarray,
         accepts: np.ndarray, cap: int, keys: np.ndarray, failed: np.ndarray, state: np.ndarray,
         gen: np.uint64, until: int) -> bool:
    """Can the projection be won from its start with at most ``k0`` plays onto wild-topped rows
    made while fewer than ``until`` stock cards are turned (the later ones are free; ``until`` past
    the stock's end counts them all)? A depth-first search with an explicit stack of frames (numba's
    cached machine code for a recursive function crashed when loaded). ``state``: [nodes, node
    limit, gave up]; the failed positions are those of one ``gen``, whose ``until`` is fixed.

    A frame's moves, by number: 0 the waste's wild card onto the phantom row; 1 + t its card onto
    a row topped by class t; ``classes`` + 1 its card onto a wild-topped row (costs one);
    ``classes`` + 2 turn the next stock card (a wild card goes on at once onto the phantom row)."""
    n, classes = len(seq), len(counts)
    wild, done = classes, classes + 3
    mask = len(failed) - 1
    size = 2 * n + len(stack) + 2
    # each frame: stock index, budget, wild-topped rows, waste size, waste top, next move, move made
    frame = np.zeros((size, 7), np.int64)
    fkey = np.zeros((size, 3), np.uint64)
    sp = 0
    frame[0, 1], frame[0, 2], frame[0, 3] = k0, w0, depth0
    entering = True
    while sp >= 0:
        i, k, w, d = frame[sp, 0], frame[sp, 1], frame[sp, 2], frame[sp, 3]
        if entering:
            entering = False
            if i == n and d == 0:
                return True
            a, b, c = _key(i, w, d, stack, counts)
            s = _slot(a, b, c, keys, mask, gen)
            if _holds(s, a, b, c, keys, gen) and failed[s] >= k:
                sp -= 1
                continue
            state[0] += 1
            if state[0] > state[1]:
                state[2] = 1
                return False
            fkey[sp, 0], fkey[sp, 1], fkey[sp, 2] = a, b, c
            frame[sp, 4], frame[sp, 5], frame[sp, 6] = stack[d - 1] if d > 0 else -1, 0, -1
        top, made = frame[sp, 4], frame[sp, 6]
        if d > 0:
            stack[d - 1] = top  # the searches below may have used its place
        if 1 <= made <= classes:  # undo the move whose search failed
            counts[made - 1] += 1
            counts[top] -= 1
        elif made == wild + 1:
            counts[top] -= 1
        frame[sp, 6] = -1
        m = frame[sp, 5]
        while m < done:
            if m == 0:
                ok = d > 0 and top == wild
            elif m <= classes:
                ok = d > 0 and top != wild and counts[m - 1] > 0 and accepts[top, m - 1]
            elif m == wild + 1:
                ok = d > 0 and top != wild and w > 0 and (k > 0 or i >= until)
            else:
                ok = i < n and d < cap
            if ok:
                break
            m += 1
        if m == done:  # every move failed: remember it
            a, b, c = fkey[sp, 0], fkey[sp, 1], fkey[sp, 2]
            s = _slot(a, b, c, keys, mask, gen)
            if not _holds(s, a, b, c, keys, gen):
                keys[s, 0], keys[s, 1], keys[s, 2], keys[s, 3] = a, b, c, gen
                failed[s] = k
            elif failed[s] < k:
                failed[s] = k
            sp -= 1
            continue
        frame[sp, 5], frame[sp, 6] = m + 1, m
        ci, ck, cw, cd = i, k, w, d - 1
        if m == 0:
            cw = w + 1
        elif m <= classes:
            counts[m - 1] -= 1
            counts[top] += 1
        elif m == wild + 1:
            counts[top] += 1
            ck, cw = k - 1 if i < until else k, w - 1
        else:
            ci, cd = i + 1, d
            if seq[i] == wild:
                cw = w + 1
            else:
                stack[d] = seq[i]
                cd = d + 1
        sp += 1
        frame[sp, 0], frame[sp, 1], frame[sp, 2], frame[sp, 3] = ci, ck, cw, cd
        entering = True
    return False


@compiled
def _least(seq: np.ndarray, counts: np.ndarray, w: int, waste: np.ndarray, accepts: np.ndarray, cap: int,
           low: int, high: int, limit: int, keys: np.ndarray, failed: np.ndarray, gen: np.uint64) -> tuple[int, int]:
    """(least plays onto wild-topped rows that win the projection, or ``high + 1`` if none up to
    ``high`` does; nodes). A search that gave up answers the least number it had not yet refuted."""
    stack = np.zeros(cap, np.int64)  # the waste: never more than ``cap`` cards (checked by the caller)
    stack[:len(waste)] = waste
    state = np.zeros(3, np.int64)
    state[1] = limit
    for k in range(low, high + 1):
        if _win(k, w, len(waste), seq, counts.copy(), stack, accepts, cap, keys, failed, state, gen, len(seq) + 1):
            return k, state[0]
        if state[2]:
            return k, state[0]
    return high + 1, state[0]


@compiled
def _latest(seq: np.ndarray, counts: np.ndarray, w: int, waste: np.ndarray, accepts: np.ndarray, cap: int,
            k: int, low: int, high: int, limit: int, keys: np.ndarray, failed: np.ndarray,
            gen: np.uint64) -> tuple[int, int, int]:
    """(u, nodes, the last generation used): the most stock cards some win of the projection turns
    before its (k + 1)-th play onto a wild-topped row, every win having made k + 1 of them once u
    cards are turned (``len(seq)``: when the stock is out). A binary search over ``until`` between
    ``low``, which a win reaches (the answer for k - 1 does), and ``high``, which none does (no win
    makes only k plays in all, or a subgroup's answer); a search that gave up counts as a win."""
    state = np.zeros(3, np.int64)
    state[1] = limit
    lo, hi = low, high
    while hi - lo > 1:
        mid = (lo + hi) // 2
        stack = np.zeros(cap, np.int64)
        stack[:len(waste)] = waste
        gen += np.uint64(1)
        if _win(k, w, len(waste), seq, counts.copy(), stack, accepts, cap, keys, failed, state, gen, mid) \
                or state[2]:
            lo = mid
        else:
            hi = mid
    return lo, state[0], gen


class Projections:
    """The least plays onto wild-topped rows of each group of pairs, at one position."""

    def __init__(self, tops: Sequence[int], waste: Sequence[int], stock: Sequence[int], group: Sequence[int],
                 accepts: Sequence[frozenset[int]], wild: int, cap: int | None, query_nodes: int = QUERY_NODES):
        self.tops, self.waste, self.stock = list(tops), list(waste), list(stock)
        self.query_nodes = query_nodes  # positions one query may take
        self.group, self.accepts, self.wild, self.cap = group, accepts, wild, cap or 0
        self.keys = np.zeros((1 << TABLE_BITS, 4), np.uint64)
        self.failed = np.zeros(1 << TABLE_BITS, np.int8)
        self.nodes = 0
        self.queries = 0  # each query's generation in the table: 1, 2, ...

    def least(self, groups: tuple[int, ...], low: int, high: int) -> int:
        """The least number (a lower bound if the search gave up at ``query_nodes``)."""
        projection = self._projection(groups)
        if projection is None:
            return low  # beyond the packed key: nothing proved
        seq, counts, w, waste, accepts, _ = projection
        self.queries += 1
        least, nodes = _least(seq, counts, w, waste, accepts, self.cap, low, high, self.query_nodes, self.keys,
                              self.failed, np.uint64(self.queries))
        self.nodes += int(nodes)
        return int(least)

    def deadlines(self, groups: tuple[int, ...], known: list[int], horizon: int) -> list[int]:
        """For each k < ``len(known)`` (the group's least number), a stock index by which every win
        has made k + 1 plays of the group's cards onto wild-topped rows: their wild cards are among
        the stock cards before it, the wild-topped rows and the waste's (the module's docstring).
        ``known`` holds such indices already proved (a subgroup's: its plays are the group's), or the
        stock's length; each answer is at most its own. Only answers up to ``horizon`` are sought: a
        later one is left at ``known``'s."""
        projection = self._projection(groups)
        if projection is None:
            return known
        seq, counts, w, waste, accepts, kept = projection
        within = sum(1 for i in kept if i <= horizon)
        found, u = [], 0
        for bound in known:
            high = kept.index(bound) + 1 if bound < len(self.stock) else len(kept) + 1
            u, nodes, last = _latest(seq, counts, w, waste, accepts, self.cap, len(found), u, min(high, within + 1),
                                     self.query_nodes, self.keys, self.failed, np.uint64(self.queries))
            self.queries, self.nodes = int(last), self.nodes + int(nodes)
            found.append(kept[u] if u < within else bound)
        return found

    def _projection(self, groups: tuple[int, ...]) -> tuple | None:
        """The projection onto ``groups``' pairs, as the kernels take it: (stock, row counts by top class,
        wild-topped rows, waste, accepts, the stock indices of its stock cards); ``None`` beyond the
        packed key (the key packs the waste, so an uncapped one is never searched here)."""
        classes = sorted(c for c in range(len(self.accepts)) if c != self.wild and self.group[c] in groups)
        local = {c: j for j, c in enumerate(classes)}
        wild = len(classes)
        if not self.cap or len(self.waste) > self.cap or self.cap * _FIELD > 64 or wild * _FIELD > 64 \
                or len(self.stock) > 255 or len(self.tops) + [*self.stock, *self.waste].count(self.wild) >= 1 << _FIELD:
            return None
        counts = np.zeros(wild, np.int64)
        w = 0
        for top in self.tops:
            if top == self.wild:
                w += 1
            elif top in local:
                counts[local[top]] += 1
        accepts = np.zeros((wild, wild), np.bool_)
        for c, j in local.items():
            for t in self.accepts[c]:
                if t in local:
                    accepts[j, local[t]] = True

        def codes(cards: Sequence[int]) -> np.ndarray:
            return np.array([wild if c == self.wild else local[c] for c in cards if c == self.wild or c in local],
                            np.int64)

        kept = [i for i, c in enumerate(self.stock) if c == self.wild or c in local]
        return codes(self.stock), counts, w, codes(self.waste), accepts, kept

    def wild_cards_from(self, index: int) -> int:
        """The wild cards at stock index ``index`` or later."""
        return self.stock[index:].count(self.wild)


def partition_short(projections: Projections, pairs: Sequence[int], pool: int, stage_nodes: int = STAGE_NODES) -> bool:
    """Do the least numbers of some partition of ``pairs`` into groups of at most
    :data:`GROUP_MOST` sum past ``pool``? Then the position is lost (see the module's docstring).
    Groups are asked smallest first, each starting from its largest subgroup's need. Failing that,
    the same at each stock index: the plays the groups must have made by then, against the wild
    cards that can have come by then (:meth:`Projections.deadlines`). No query starts once the
    least numbers, and again the deadlines, have taken ``stage_nodes`` positions."""
    if len(pairs) > PAIRS_MOST:
        return False
    index = {g: i for i, g in enumerate(pairs)}
    sizes = range(1, min(GROUP_MOST, len(pairs)) + 1)
    need: dict[int, int] = {0: 0}
    for size in sizes:
        for groups in combinations(pairs, size):
            mask = sum(1 << index[g] for g in groups)
            low = max((need[mask & ~(1 << index[g])] for g in groups), default=0)
            need[mask] = projections.least(groups, low, pool + 1) if projections.nodes < stage_nodes else low
        if _best_partition(need, len(pairs)) > pool:
            return True
    # by stock index T the groups need at most the sums' best, so only a T before which fewer wild cards
    # can have come counts: the last is the one before the pool's (pool - best + 1)-th last wild card
    wilds = [i for i, card in enumerate(projections.stock) if card == projections.wild]
    ahead = pool - _best_partition(need, len(pairs)) + 1
    if ahead > len(wilds):
        return False
    horizon = wilds[len(wilds) - ahead]
    deadlines: dict[int, list[int]] = {}
    spent, end = projections.nodes, len(projections.stock)
    for size in sizes:
        for groups in combinations(pairs, size):
            mask = sum(1 << index[g] for g in groups)
            if need[mask] and projections.nodes - spent < stage_nodes:
                subgroups = [deadlines.get(mask & ~(1 << index[g]), []) for g in groups]
                known = [min([end, *(found[k] for found in subgroups if k < len(found))]) for k in range(need[mask])]
                deadlines[mask] = projections.deadlines(groups, known, horizon)
        if _short_by_then(projections, deadlines, need, len(pairs), pool, horizon):
            return True
    return False


def _short_by_then(projections: Projections, deadlines: dict[int, list[int]], need: dict[int, int], count: int,
                   pool: int, horizon: int) -> bool:
    """Is there a stock index, up to ``horizon`` (past it enough wild cards can have come for the
    sums' best), by which the plays some partition's groups (those of ``need``) must have made, each
    group's ``deadlines`` up to it, outnumber the wild cards that can have come (``pool`` less those
    still further in the stock)? A group without deadlines counts none."""
    for index in sorted({d for found in deadlines.values() for d in found if d <= horizon}):
        by_then = {mask: sum(d <= index for d in deadlines.get(mask, ())) for mask in need}
        if _best_partition(by_then, count) > pool - projections.wild_cards_from(index):
            return True
    return False


def _best_partition(need: dict[int, int], count: int) -> int:
    """The largest sum of ``need`` over partitions of ``count`` pairs into the groups it holds."""
    best = [0] * (1 << count)
    for mask in range(1, 1 << count):
        low = mask & -mask
        rest = mask ^ low
        top = 0
        sub = rest
        while True:
            part = sub | low
            if part in need:
                top = max(top, need[part] + best[mask ^ part])
            if sub == 0:
                break
            sub = (sub - 1) & rest
        best[mask] = top
    return best[-1]
