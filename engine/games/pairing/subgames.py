"""The pairs' sub-games: exact, memoised solutions of the games made of a few pairs' cards alone.

The solver (``solver.py``) asks them at every node of its search: a lost sub-game proves the whole
position lost (see docs/rules/pairing.md, "The solver"). They count their positions in the solver's
node budget, so a query deep in a sub-game can end the whole solve (:class:`OutOfBudget`).
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from typing import TYPE_CHECKING, Any

from .budget import OutOfBudget
from .rules import WILD

if TYPE_CHECKING:
    from .solver import Solver

UNWINNABLE = 10**6  # the wild cost of a sub-game no number of wild-topped rows can win


class TooCostly(Exception):
    """A sub-game query took more than its ``effort`` of new positions."""


class Subgames:
    """Exact, memoised solutions of the sub-games of one deal made of a few pairs' cards alone.

    A sub-game is named by its tuple of pair groups; its state is (how many of its cards have
    been turned, its waste cards bottom to top, its rows' counts by (top class, height) kind).
    Sub-games of several pairs prune their own search with their one-pair sub-games.

    With wild cards a sub-game is a relaxation rather than a projection: it also holds every
    wild card and every wild-topped row, and a wild card may also be played onto a *phantom*
    outside row (taken as holding one card, so at least as roomy as any real one), which leaves
    a wild-topped row the sub-game may use. Seen from the sub-game's cards, a winning play of the
    whole game puts each wild card onto one of its rows, a wild-topped row, or an outside row
    (the phantom, with at least as much room); outside cards only ever take wild-topped rows
    away from it, and a row more never hurts. So a lost sub-game is still a lost game.
    """

    def __init__(self, solver: Solver, seq_classes: list[int], effort: int):
        """``solver``: whose game, row kinds and node count the sub-games share; ``seq_classes``: the
        classes of the stock still to turn, in order; ``effort``: the new sub-game positions one query may
        take before it gives up (some of the solver's stages lower it for a while)."""
        self.solver = solver
        self.seq = seq_classes
        self.group = solver.group
        self.memo: dict[tuple, bool] = {}
        self.accepts = solver.game.accepts
        self.cap = solver.game.row_cap
        self.waste_cap = solver.game.waste_cap
        self.wilds = solver.game.has_wilds
        height = 0 if self.cap is None else 2  # a phantom row: a wild card on a dealt card
        self.phantom = (WILD, height) if self.cap is None or height < self.cap else None
        self.info: dict[tuple[int, ...], tuple] = {}
        self.costs: dict[tuple, int] = {}
        self.fit_memo: dict[tuple, tuple[int, int]] = {}  # ``_fits``: (largest bound failing, smallest doing)
        self.cost_stop = 0  # the node count at which the query under way gives up
        self.effort = effort
        self.pairwise = True  # False: queries of several pairs give up at once
        self.enabled = True  # False: every query answers its fallback (wild cards and fewer rows than pairs)
        self.costly: set[tuple[int, ...]] = set()  # sub-games whose queries gave up: taken as winnable
        self.costly_costs: set[tuple[int, ...]] = set()  # sub-games whose cost queries gave up: cost taken as 0

    def _info(self, gs: tuple[int, ...]) -> tuple:
        """(stock classes, row kinds, row kind -> position, classes to drop from a waste, indices of
        its row kinds among the solver's, its cards turned by main index, the main index by its
        cards turned)."""
        info = self.info.get(gs)
        if info is None:
            group = self.group
            solver = self.solver
            inside = {c for c in range(len(self.accepts)) if (self.wilds if c == WILD else group[c] in gs)}
            stock = bytes(c for c in self.seq if c in inside)
            keys = [k for g in gs for k in solver.keys_of_group[g]]
            if self.wilds:
                keys += [k for k in solver.keys if k[0] == WILD]
            where = {k: i for i, k in enumerate(keys)}
            drop = bytes(c for c in range(len(self.accepts)) if c not in inside)
            key_ids = [solver.key_index[k] for k in keys]
            at, first = [0], [0]
            for i, c in enumerate(self.seq):
                at.append(at[-1] + (c in inside))
                if c in inside:
                    first.append(i + 1)
            info = self.info[gs] = (stock, keys, where, drop, key_ids, at, first)
        return info

    def check(self, gs: tuple[int, ...], idx: int, waste: bytes, counts: list[int]) -> bool:
        """Is sub-game ``gs`` winnable from the main position (``idx`` stock cards turned)?

        A pruning test may always answer yes, so a query that takes more than ``effort``
        new sub-game positions gives up and says yes, and so does every later query of ``gs``
        (a pair of many cards under a row cap can have too many waste orders to enumerate, as
        some Keshava XII deals' pairs of 48 cards do): the search gets the budget instead.
        """
        return self._query(self.costly, True, self.winnable, gs, idx, waste, counts)

    def _narrow(self, gs: tuple[int, ...], turned: int, waste: bytes, counts: tuple[int, ...], g: int) -> bool:
        """Is one-pair sub-game ``g`` winnable from a position of sub-game ``gs``?"""
        where, first = self._info(gs)[2], self._info(gs)[6]
        _, keys, _, drop, _, at, _ = self._info((g,))
        return self.winnable((g,), at[first[turned]], waste.translate(None, drop),
                             tuple(counts[where[k]] for k in keys))

    def wild_cost(self, gs: tuple[int, ...], idx: int, waste: bytes, counts: list[int]) -> int:
        """A lower bound on the wild-topped rows sub-game ``gs`` must take to be won from the main
        position (``idx`` stock cards turned; row cap only): the exact least number
        (``_cost``), ``UNWINNABLE`` when no number will do. A query that takes more than
        ``effort`` new sub-game positions gives up and answers 0, and so does every later
        query of that sub-game.
        """
        return self._query(self.costly_costs, 0, self._cost, gs, idx, waste, counts)

    def fits(self, gs: tuple[int, ...], idx: int, waste: bytes, counts: list[int], bound: int) -> bool:
        """Can sub-game ``gs`` be won taking at most ``bound`` wild-topped rows (see ``_cost``), from the
        main position? A query that gives up (``effort``) says yes, as do later ones."""
        return self._query(self.costly_costs, True, self._fits, gs, idx, waste, counts, bound)

    def _query(self, given_up: set[tuple[int, ...]], fallback: Any, search: Callable[..., Any],
               gs: tuple[int, ...], idx: int, waste: bytes, counts: list[int], *args: Any) -> Any:
        """``search`` on sub-game ``gs`` from the main position (``idx`` stock cards turned), within
        ``effort`` (``effort``) new sub-game positions: past them it gives up with ``fallback``
        (what a pruning test may always answer), and so does every later query of ``gs``
        (``given_up``); without ``pairwise``, a query of several pairs gives up at once."""
        if not self.enabled or gs in given_up or (len(gs) > 1 and not self.pairwise):
            return fallback
        _, _, _, drop, key_ids, at, _ = self._info(gs)
        self.cost_stop = self.solver.nodes + self.effort
        try:
            return search(gs, at[idx], waste.translate(None, drop), tuple(counts[i] for i in key_ids), *args)
        except TooCostly:
            given_up.add(gs)
            return fallback

    def _fits(self, gs: tuple[int, ...], turned: int, waste: bytes, counts: tuple[int, ...], bound: int) -> bool:
        """``fits`` within the sub-game: a depth-first search that stops at the first win within the
        bound (so a yes is cheap, unlike ``_cost``'s exact least number). Memo: the largest bound
        known to fail and the smallest known to do, per position."""
        memo_key = (gs, turned, waste, counts)
        fail, win = self.fit_memo.get(memo_key, (-1, UNWINNABLE))
        if bound >= win:
            return True
        if bound <= fail:
            return False
        self._count_node()
        result = turned == len(self._info(gs)[0]) and not waste
        if not result:
            result = any(self._fits(gs, *child, bound - cost)
                         for cost, *child in self._costed_moves(gs, turned, waste, counts) if cost <= bound)
        if result:
            win = min(win, bound)
        else:
            fail = max(fail, bound)
        self.fit_memo[memo_key] = (fail, win)
        return result

    def _cost(self, gs: tuple[int, ...], turned: int, waste: bytes, counts: tuple[int, ...]) -> int:
        """``wild_cost`` within the sub-game: a play of one of its own cards onto a wild-topped row
        costs one, every other move nothing.

        Why it bounds the whole game: every wild-topped row of a winning play (one dealt or left
        wild now, or one a wild card still to come makes) takes at most one card that is not wild
        before it is topped by that card, so the pairs' costs in the projections of that play
        sum to at most the wild-topped rows now plus the wild cards still to place. A wild card
        only ever goes onto the phantom here: a row more (and the phantom is the roomiest) never
        hurts, so the other places for it cannot cost less.
        """
        memo_key = (gs, turned, waste, counts)
        known = self.costs.get(memo_key)
        if known is not None:
            return known
        self._count_node()
        best = UNWINNABLE
        if turned == len(self._info(gs)[0]) and not waste:
            best = 0
        else:
            for cost, *child in self._costed_moves(gs, turned, waste, counts):
                best = min(best, cost + self._cost(gs, *child))
                if best == 0:
                    break
        self.costs[memo_key] = best
        return best

    def _count_node(self) -> None:
        """One more sub-game position: past the budget the solve stops, past the query's effort it gives up."""
        self.solver.nodes += 1
        if self.solver.nodes > self.solver.budget:
            raise OutOfBudget
        if self.solver.nodes > self.cost_stop:
            raise TooCostly

    def _costed_moves(self, gs: tuple[int, ...], turned: int, waste: bytes,
                      counts: tuple[int, ...]) -> Iterator[tuple[int, int, bytes, tuple[int, ...]]]:
        """(cost, turned, waste, counts) after each move of the costed sub-game (see ``_cost``): plays
        first, the turn last; a wild card only onto the phantom."""
        stock, _, where = self._info(gs)[:3]
        if waste:
            top = waste[-1]
            if top == WILD:
                after = list(counts)
                if self.phantom is not None:
                    after[where[self.phantom]] += 1
                yield 0, turned, waste[:-1], tuple(after)
            else:
                for cls, after_play in self._plays(gs, top, counts):
                    yield int(cls == WILD), turned, waste[:-1], after_play
        if turned < len(stock) and (self.waste_cap is None or len(waste) < self.waste_cap):
            yield 0, turned + 1, waste + stock[turned:turned + 1], counts

    def _plays(self, gs: tuple[int, ...], top: int, counts: tuple[int, ...]) -> Iterator[tuple[int, tuple[int, ...]]]:
        """(class of the row's top, counts after) for each kind of open row of sub-game ``gs``
        that a card of class ``top`` can go on."""
        _, keys, where = self._info(gs)[:3]
        accepts, cap = self.accepts[top], self.cap
        for j, (cls, height) in enumerate(keys):
            if not counts[j] or cls not in accepts:
                continue
            after = list(counts)
            after[j] -= 1
            new_height = height + 1 if cap is not None else 0
            if cap is None or new_height < cap:
                after[where[(top, new_height)]] += 1
            yield cls, tuple(after)

    def winnable(self, gs: tuple[int, ...], turned: int, waste: bytes, counts: tuple[int, ...]) -> bool:
        """Is sub-game ``gs`` winnable from its own position (``turned`` of its cards turned)? A
        sub-game of several pairs skips a child any of whose one-pair sub-games is lost."""
        memo_key = (gs, turned, waste, counts)
        known = self.memo.get(memo_key)
        if known is not None:
            return known
        self._count_node()
        stock, _, where = self._info(gs)[:3]
        result = False
        if turned == len(stock) and not waste:
            result = True
        else:
            children = []
            if waste:
                top = waste[-1]
                for _, after_play in self._plays(gs, top, counts):
                    children.append((turned, waste[:-1], after_play, top))
                if top == WILD:
                    after = list(counts)
                    if self.phantom is not None:
                        after[where[self.phantom]] += 1
                    children.append((turned, waste[:-1], tuple(after), top))
            if turned < len(stock) and (self.waste_cap is None or len(waste) < self.waste_cap):
                children.append((turned + 1, waste + stock[turned:turned + 1], counts, stock[turned]))
            for t, w, n, moved in children:
                if len(gs) > 1:
                    checks = gs if moved == WILD else (self.group[moved],)
                    if not all(self._narrow(gs, t, w, n, g) for g in checks):
                        continue
                if self.winnable(gs, t, w, n):
                    result = True
                    break
        self.memo[memo_key] = result
        return result
