"""Pairing agents. ``greedy``: play whenever a play exists, otherwise turn the stock.

Which row to play on: with no row cap and no wild cards every legal row is equivalent (the
row's top changes to the same class either way), so the lowest-numbered row. Otherwise the
choice "keeps the most future options open":

1. a row whose top is not wild (a wild top accepts anything: keep it);
2. then the row with the most room left under the row cap;
3. when the waste card is itself wild, the row whose top class is most common among the tops
   (its class survives elsewhere);
4. then the lowest-numbered row.

It never looks at the stock's hidden order.
"""

from __future__ import annotations

from typing import Any, Sequence

from .rules import WILD, PairingState, Turn


class GreedyAgent:
    """Plays whenever a play exists, on the row that keeps the most options open (the module's docstring)."""

    name = "greedy"

    def __init__(self, game: Any):
        self.simple = game.simple

    def choose(self, state: PairingState, actions: Sequence[Any], rng: Any) -> Any:
        first = actions[0]
        if self.simple or type(first) is Turn or len(actions) == 1:
            return first
        plays = [a for a in actions if type(a) is not Turn]
        if len(plays) == 1:
            return first
        tops, rows = state.tops, state.rows
        waste_wild = state.game.card_class[state.waste[-1]] == WILD
        counts: dict[int, int] = {}
        for t in tops:
            counts[t] = counts.get(t, 0) + 1

        def key(play: Any) -> tuple:
            r = play.row
            return (tops[r] == WILD, len(rows[r]), -counts[tops[r]] if waste_wild else 0, r)

        return min(plays, key=key)


class SolverAgent:
    """Plays the solver's winning line (it knows the stock's order, as the solver does).

    The line is found once per deal and followed while the game is where the line expects it: the
    agent keeps a copy of that position and compares the one it is asked about card by card, so
    any other position (another deal, or the same deal reached by other moves) makes it ask the
    solver again from there. On a deal the solver proves unwinnable, or cannot decide within its
    default budget, it plays like ``greedy``.
    """

    name = "solver"

    def __init__(self, game: Any):
        from .solver import Solver

        self.solver = Solver(game)
        self.greedy = GreedyAgent(game)
        self.plan: list[Any] = []
        self.expected: PairingState | None = None

    def choose(self, state: PairingState, actions: Sequence[Any], rng: Any) -> Any:
        expected = self.expected
        if expected is None or not _same_position(state, expected):
            self.plan = self.solver.solve(state).line
            self.plan.reverse()
            self.expected = expected = state.clone()
        # A line is legal move by move from where it was found, and ends in the win; a deal without
        # one (lost or undecided) has an empty line.
        action = self.plan.pop() if self.plan else self.greedy.choose(state, actions, rng)
        expected.apply(action)
        return action


def _same_position(a: PairingState, b: PairingState) -> bool:
    """Do ``a`` and ``b`` hold the same cards in the same places (rows, waste, stock)?"""
    return a.next == b.next and a.waste == b.waste and a.rows == b.rows and a.stock == b.stock


AGENTS = {"greedy": GreedyAgent, "solver": SolverAgent}
