"""The solver's last stage that can find a line: a position as a CP-SAT model of which row each card
goes onto, and when.

Why a model and not more search: with wild cards the rows move between pairs, so neither the
sub-games nor the interval solver refute much, and the search drowns in the waste's orders
(Wizard's Tower's deals stayed undecided at millions of nodes). A constraint solver with clause
learning settles most of them in a second or two: Wizard's Tower's wins, Castle's losses, both for
Strict Wizard's Tower. It runs only on what the other stages left undecided (docs/rules/pairing.md,
"The solver", step 7).

The model rests on two facts of the rules:

* **A row is a chain of cards.** Each card still to be placed gets exactly one predecessor, the
  card it is played onto: an open row's top card or another card still to be placed, which must
  pair with it (the rules' ``accepts``); each row top and each card takes at most one successor.
  Under a row cap a card's height on its row is its predecessor's plus one, at most the cap.
* **The waste is a stack.** Number the cards in the order they reach the waste (the waste's cards
  bottom to top, then the stock's); ``t[k]`` is the turn after which card k is played: it leaves
  after the turn of stock card ``t[k]`` and before the next one. For two cards c < d, either c
  leaves before d arrives, or d leaves no later than c (d lies above c). Played onto card y, card
  c leaves after y: if y arrived first it left before c arrived, else c was still waiting when y
  arrived. Under the Strict waste cap, fewer than the cap of the cards turned before each stock
  card are still waiting when it is turned.

Every winning line gives a solution, and every solution is a winning line: played turn by turn,
the cards leaving after one turn are the top of the waste, taken from the top down. So the model
is infeasible exactly when the position is lost. Rows with the same top class (and, under a row cap,
height) are interchangeable; their first cards are ordered to break the symmetry.

CP-SAT runs on one thread with a limit in deterministic time (a count of its work, not the
clock), so a verdict, and a line, are the same on every machine for one OR-Tools version: first
its single search, which settles most positions in a second or two; then, on what that leaves
open, its portfolio of searches, run in turns (``interleave_search``), which is deterministic too.
"""

from __future__ import annotations

from dataclasses import dataclass
from itertools import pairwise
from typing import Any

from ... import sat
from .rules import TURN, PairingGame, PairingState


@dataclass
class SatVerdict:
    """The CP-SAT stage's answer: ``winnable`` None when its effort ran out; ``branches`` is
    CP-SAT's count of search decisions (what the solver adds to its node count)."""

    winnable: bool | None
    line: list[Any]
    branches: int


SEARCHES = ("single", "portfolio")  # CP-SAT's searches, in the order they are tried


def sat_verdict(game: PairingGame, state: PairingState, effort: float,
                searches: tuple[str, ...] = SEARCHES) -> SatVerdict:
    """Decide ``state`` with CP-SAT: its single search, then, if that ran out, its portfolio of
    searches, each within ``effort`` deterministic seconds (``searches``: which of them)."""
    from ortools.sat.python import cp_model  # heavy: imported only when a deal gets this far

    cards = list(state.waste) + list(state.stock[state.next:])
    n, waiting = len(cards), len(state.waste)
    klass, accepts, cap = game.card_class, game.accepts, game.row_cap
    model = cp_model.CpModel()
    # the waste's cards are all there before the first turn: none leaves before the last arrived
    leaves = [model.new_int_var(max(k, waiting - 1), n - 1, f"t{k}") for k in range(n)]
    height = [model.new_int_var(2, cap, f"h{k}") for k in range(n)] if cap is not None else None
    open_rows = [r for r, row in enumerate(state.rows) if cap is None or len(row) < cap]
    firsts: dict[int, list[tuple[int, Any]]] = {r: [] for r in open_rows}
    successors: list[list[Any]] = [[] for _ in range(n)]
    onto: list[tuple[tuple[bool, int], int, Any]] = []  # ((on a row?, which), card, arc literal)
    for c in range(n):
        fits = accepts[klass[cards[c]]]
        arcs = []
        for r in open_rows:
            if klass[state.rows[r][-1]] in fits:
                arc = model.new_bool_var("")
                arcs.append(arc)
                firsts[r].append((c, arc))
                onto.append(((True, r), c, arc))
                if height is not None:
                    model.add(height[c] == len(state.rows[r]) + 1).only_enforce_if(arc)
        for y in range(n):
            if y != c and klass[cards[y]] in fits:
                arc = model.new_bool_var("")
                arcs.append(arc)
                successors[y].append(arc)
                onto.append(((False, y), c, arc))
                if y < c:
                    model.add(leaves[y] <= c - 1).only_enforce_if(arc)
                else:
                    model.add(leaves[c] >= y).only_enforce_if(arc)
                if height is not None:
                    model.add(height[c] == height[y] + 1).only_enforce_if(arc)
        model.add_exactly_one(arcs)
    for arcs in [*successors, *([arc for _, arc in firsts[r]] for r in open_rows)]:
        if len(arcs) > 1:
            model.add_at_most_one(arcs)
    _break_row_symmetry(model, state, open_rows, firsts, klass, cap is not None, n)
    gone_before: dict[tuple[int, int], Any] = {}
    for c in range(n):
        for d in range(c + 1, n):
            before = model.new_bool_var("")
            gone_before[c, d] = before
            model.add(leaves[c] <= d - 1).only_enforce_if(before)
            model.add(leaves[c] >= d).only_enforce_if(before.negated())
            model.add(leaves[d] <= leaves[c]).only_enforce_if(before.negated())
    if game.waste_cap is not None:
        for p in range(waiting, n):
            model.add(sum(1 - gone_before[c, p] for c in range(p)) <= game.waste_cap - 1)
    branches = 0
    for search in searches:
        solver = cp_model.CpSolver()
        solver.parameters.num_workers = 1
        solver.parameters.max_deterministic_time = effort
        # No linear relaxation: the model's constraints are all conditional, so the LP bounds nothing and only
        # slows the search (Strict Wizard's Tower seeds 1, 3, 4, 7, 10, 19, 23 and 12: decided in 0.6-20
        # deterministic seconds without it, 21 to over 60 with the default; Strict Castle 688: 0.6 against 41).
        solver.parameters.linearization_level = 0
        # Then CP-SAT's portfolio of searches, taken in turns on one thread (deterministic whatever the
        # worker count): slower where the single search succeeds (Wizard's Tower 9: 52 s against 9), it
        # settles deals the single search leaves open (Strict Wizard's Tower 35: open after 200 s of it).
        solver.parameters.interleave_search = search == "portfolio"
        status = sat.solve(solver, model)
        branches += solver.num_branches
        if status == cp_model.INFEASIBLE:
            return SatVerdict(False, [], branches)
        if status in (cp_model.OPTIMAL, cp_model.FEASIBLE):
            under = {c: where for where, c, arc in onto if solver.value(arc)}
            return SatVerdict(True, _line(state, [solver.value(v) for v in leaves], under, waiting), branches)
    return SatVerdict(None, [], branches)


def _break_row_symmetry(model: Any, state: PairingState, open_rows: list[int], firsts: dict[int, list[tuple[int, Any]]],
                        klass: tuple[int, ...], capped: bool, n: int) -> None:
    """Rows of one kind (top class, and height under a row cap) take first cards in ascending order (n: none)."""
    kinds: dict[tuple[int, int], list[int]] = {}
    for r in open_rows:
        kinds.setdefault((klass[state.rows[r][-1]], len(state.rows[r]) if capped else 0), []).append(r)
    for rows in kinds.values():
        first = []
        for r in rows:
            var = model.new_int_var(0, n, "")
            arcs = firsts[r]
            model.add(var == sum(c * arc for c, arc in arcs) + n * (1 - sum(arc for _, arc in arcs)))
            first.append(var)
        for a, b in pairwise(first):
            model.add(a <= b)


def _line(state: PairingState, leaves: list[int], under: dict[int, tuple[bool, int]], waiting: int) -> list[Any]:
    """The moves of a solution: after each turn, the cards leaving then, from the top of the waste down,
    each onto the row its chain of predecessors starts from; played through the rules as they are made,
    which refuse an illegal move, and checked to end won."""
    def row_of(card: int) -> int:
        on_row, which = under[card]
        while not on_row:
            on_row, which = under[which]
        return which

    by_turn: dict[int, list[int]] = {}
    for card, turn in enumerate(leaves):
        by_turn.setdefault(turn, []).append(card)
    board = state.clone()
    plays = board.game.plays
    line: list[Any] = []
    for k in range(len(leaves)):
        moves = [TURN] if k >= waiting else []
        moves += [plays[row_of(card)] for card in sorted(by_turn.get(k, ()), reverse=True)]
        for move in moves:
            board.apply(move)
        line += moves
    if not board.won():
        raise RuntimeError("the CP-SAT model's line does not win: the model and the rules disagree")
    return line
