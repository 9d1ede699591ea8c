"""A second exact solver for Torqu arrangements: the count-level integer model, solved by CP-SAT.

Why it exists: :mod:`.optimise` is the scorer the game uses (deterministic down to which optimal
arrangement it returns), but a 72-card tableau cost it seconds to minutes before its loops were
compiled (issue 4's fifth pass; now a median of about 0.12 s). Often only the optimum's *value*
is needed, and the optimum's value is one number whoever proves it: a game's scoring asks this
model for it when the search has run long (:meth:`.optimise._Search._optimum`: a Dragons tableau
with four Mirrors takes the search a minute, CP-SAT seconds), and measuring thousands of
2-player matches (issue 4's greedy-against-random rate) can use it throughout. It shares no
search code with :mod:`.optimise`, so the tests also use it as an independent reference. It
never chooses an arrangement: among several optimal ones CP-SAT may return any, and which could
change with its version, while ``cardgames score`` must not.

The model (the same split as :mod:`.optimise`):

* one binary per *special*, a group whose best kind is card-specific (Flush, Straight Flush,
  Fifteen Flush, Perfect Four, with wild cards or not; :func:`.specials.find`), each real
  card in at most one;
* one integer per *number pattern* (the numbers of a Fifteen, a Straight or a Four of a Kind):
  how many such sets are made. Cards of one number are interchangeable for them, so one
  constraint per number bounds what the specials and the patterns take;
* wild cards: ``fill[n]`` wild cards stand for a pattern's card of number n (never more than the
  patterns' slots of n), specials take theirs, four wild cards may make a set alone, and the wild
  cards used are the ones with the best own-number term (``used`` is decreasing).

A pattern made of one suit's cards is valued as a number kind although it scores its suit kind:
the special for the same cards is worth more, so the optimum is unchanged.
"""

from __future__ import annotations

from itertools import pairwise
from typing import Any, Sequence

from ... import sat
from .sets import SET_SIZE, Ident, Pictures, Points, complete, number_patterns
from .specials import find as find_specials


def optimum(scorer: Any, codes: Sequence[int], sign: int = 1, wild: bool = True) -> int:
    """The value ``scorer.arrange(codes, sign, wild)["score"]`` has, found by CP-SAT (exact)."""
    value = packing_optimum(*scorer.problem(sorted(codes), sign, wild)[2])
    assert value is not None, "without an effort limit CP-SAT ends with a proven optimum"
    return value - sign * sum(scorer.deck.cards[c].value for c in codes)


def packing_optimum(idents: Sequence[Ident], wild_own: Sequence[int], pts: Points, sign: int, num_suits: int,
                    picture_members: Pictures, effort: float | None = None) -> int | None:
    """The optimum of :func:`.optimise.pack_value`'s problem (its arguments), or None if CP-SAT has
    not proved one within ``effort`` deterministic seconds (its own measure of work, the same on
    any machine). One worker: a parallel portfolio's work would depend on the machine's threads."""
    from ortools.sat.python import cp_model

    own = sorted((sign * o for o in wild_own), reverse=True)
    counts = [0] * (pts.top + 1)
    for ident in idents:
        counts[ident.number] += 1

    model = cp_model.CpModel()
    objective: list[Any] = []
    by_card: list[list[Any]] = [[] for _ in idents]
    by_number: list[list[Any]] = [[] for _ in counts]
    slots: list[list[Any]] = [[] for _ in counts]
    wild_uses: list[Any] = []
    specials = find_specials(idents, len(own), pts, sign, num_suits, picture_members, max(0, own[0]) if own else 0)
    for k, (value, wilds) in enumerate(zip(specials.value.tolist(), specials.wilds.tolist(), strict=True)):
        x = model.new_bool_var(f"special{k}")
        objective.append(value * x)
        for i in specials.members(k):
            by_card[i].append(x)
            by_number[idents[i].number].append(x)
        if wilds:
            wild_uses.append(wilds * x)
    for k, (numbers, points) in enumerate(number_patterns(pts)):
        value = points + sign * sum(numbers)
        most = min(counts[n] // numbers.count(n) for n in set(numbers)) + len(own)
        if most:
            y = model.new_int_var(0, most, f"pattern{k}")
            objective.append(value * y)
            for n in set(numbers):
                by_number[n].append(numbers.count(n) * y)
                slots[n].append(numbers.count(n) * y)
    if own:
        used = [model.new_bool_var(f"used{i}") for i in range(len(own))]
        for a, b in pairwise(used):
            model.add(a >= b)
        objective += [o * u for o, u in zip(own, used, strict=True)]
        for n in range(1, pts.top + 1):
            if slots[n]:
                fill = model.new_int_var(0, len(own), f"fill{n}")
                model.add(fill <= sum(slots[n]))
                objective.append(-sign * n * fill)
                by_number[n].append(-fill)
                wild_uses.append(fill)
        four = complete([], SET_SIZE, pts, num_suits, picture_members) if len(own) >= SET_SIZE else None
        if four is not None:
            alone = model.new_bool_var("four_wilds")
            objective.append(four[1] * alone)
            wild_uses.append(SET_SIZE * alone)
        model.add(sum(wild_uses) == sum(used))
    for terms in by_card:
        if len(terms) > 1:
            model.add_at_most_one(terms)
    for n, terms in enumerate(by_number):
        if terms:
            model.add(sum(terms) <= counts[n])
    model.maximize(sum(objective))
    solver = cp_model.CpSolver()
    solver.parameters.num_workers = 1
    if effort is not None:
        solver.parameters.max_deterministic_time = effort
    status = sat.solve(solver, model)
    if status == cp_model.OPTIMAL:
        return round(solver.objective_value)
    if effort is not None and status in (cp_model.FEASIBLE, cp_model.UNKNOWN):
        return None
    raise RuntimeError(f"CP-SAT ended with status {solver.status_name(status)}")
