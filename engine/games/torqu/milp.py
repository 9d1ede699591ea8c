"""The straightforward set-packing MILP of a Torqu arrangement, solved with HiGHS (scipy's
``milp``): the independent reference the benchmark and the tests compare the optimiser with.

One binary column per valid four-card set (groups completed by wild cards included), one row
per card (used at most once); maximise the sets' values. scipy is a development dependency, so
it is imported only when this is called.
"""

from __future__ import annotations

import math
import time
from itertools import combinations, product
from typing import Any, NamedTuple

from .sets import SET_SIZE, complete, number_patterns


def candidate_groups(scorer: Any, reals: list[int], size: int) -> set[tuple[int, ...]]:
    """Every group of ``size`` real cards that could be part of a set (sorted codes): all in one
    suit or one picture, or with numbers that a wild completion could make a Four of a Kind, a
    Straight or a Fifteen. :func:`complete` decides which really are."""
    idents = scorer.idents
    pts = scorer.points
    families: dict[tuple[str, int], list[int]] = {}
    by_number: dict[int, list[int]] = {}
    for c in reals:
        families.setdefault(("suit", idents[c].suit), []).append(c)
        for pic in idents[c].pictures:
            families.setdefault(("picture", pic), []).append(c)
        by_number.setdefault(idents[c].number, []).append(c)
    out: set[tuple[int, ...]] = set()
    for members in families.values():
        out.update(combinations(members, size))
    shapes: set[tuple[int, ...]] = set()
    for numbers, _ in number_patterns(pts):
        shapes.update(combinations(numbers, size))
    for shape in shapes:
        pools = [list(combinations(by_number.get(n, []), shape.count(n))) for n in sorted(set(shape))]
        for choice in product(*pools):
            out.add(tuple(sorted(c for part in choice for c in part)))
    return out


class MilpAnswer(NamedTuple):
    """What HiGHS says of an arrangement, in ``scorer.arrange``'s terms. ``optimum`` is None if
    HiGHS was stopped at its time limit before proving one; ``best`` (the best packing it had found,
    None if none) and ``bound`` (no packing is worth more) still bracket the optimum, so a
    stopped solve can still refute an optimiser that claims more than ``bound`` or less than
    ``best``. A proved optimum is all three."""

    optimum: int | None
    seconds: float  # HiGHS's solve time (building the columns is not timed)
    best: int | None
    bound: int | None  # None only if HiGHS was stopped before it had any bound


def milp_optimum(scorer: Any, codes: list[int], sign: int = 1, time_limit: float | None = None) -> MilpAnswer:
    """The optimum of ``scorer.arrange(codes, sign)`` by the MILP. With ``time_limit`` (seconds),
    HiGHS stops then, and the answer has no optimum if it had not proved one."""
    import numpy as np
    from scipy.optimize import Bounds, LinearConstraint, milp
    from scipy.sparse import coo_matrix

    wilds = [c for c in codes if c in scorer.wild]
    reals = [c for c in codes if c not in scorer.wild]
    own = {c: scorer.deck.cards[c].value for c in codes}
    columns: list[tuple[tuple[int, ...], int]] = []
    for j in range(0, min(SET_SIZE, len(wilds)) + 1):
        groups = candidate_groups(scorer, reals, SET_SIZE - j) if j < SET_SIZE else {()}
        for group in sorted(groups):
            found = complete([scorer.idents[c] for c in group], j, scorer.points, len(scorer.suit_ids),
                             scorer.members)
            if found is None:
                continue
            for wild_group in combinations(wilds, j):
                cards = group + wild_group
                columns.append((cards, found[1] + sign * sum(own[c] for c in cards)))
    offset = -sign * sum(own.values())  # the arrangement's score counts every card left out
    if not columns:  # no four of the cards make a set (HiGHS needs a column): every card is left out
        return MilpAnswer(offset, 0.0, offset, offset)
    index = {c: i for i, c in enumerate(codes)}
    rows, cols = [], []
    for col, (cards, _) in enumerate(columns):
        for c in cards:
            rows.append(index[c])
            cols.append(col)
    matrix = coo_matrix((np.ones(len(rows)), (rows, cols)), shape=(len(codes), len(columns)))
    weights = np.array([-v for _, v in columns], dtype=float)
    start = time.perf_counter()
    res = milp(weights, constraints=LinearConstraint(matrix, 0, 1), integrality=np.ones(len(columns)),
               bounds=Bounds(0, 1), options={} if time_limit is None else {"time_limit": time_limit})
    seconds = time.perf_counter() - start
    # 0: solved; 1: stopped at the time limit. The model is feasible and bounded, so any other status is a fault
    # of HiGHS's.
    if res.status not in (0, 1):
        raise RuntimeError(f"HiGHS: {res.message}")
    # HiGHS minimises the negated values: its dual bound is a lower bound on that, so (negated again, and the
    # values being whole numbers) floored it bounds every packing from above
    dual = res.mip_dual_bound
    bound = math.floor(-dual + 1e-6) + offset if dual is not None and math.isfinite(dual) else None
    best = None if res.x is None else round(-res.fun) + offset
    if res.status == 1:
        return MilpAnswer(None, seconds, best, bound)
    assert best is not None, "HiGHS proved an optimum without a packing"
    return MilpAnswer(best, seconds, best, best)
