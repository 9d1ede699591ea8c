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

    The line is found once per deal and followed while the game is where the line expects it;
    otherwise (a different deal or position) the solver is asked again from there. On a deal
    the solver proves unwinnable, or cannot decide within its default budget, it plays like
    ``greedy``.
    """

    name = "solver"

    def __init__(self, game: Any):
        from .solver import Solver

        self.solver = Solver(game)
        self.greedy = GreedyAgent(game)
        self.plan: list[Any] = []
        self.where: tuple | None = None

    def choose(self, state: PairingState, actions: Sequence[Any], rng: Any) -> Any:
        where = (state.dealt, state.num_plays + state.num_turns)
        if where != self.where:
            self.plan = self.solver.solve(state).line
            self.plan.reverse()
        if self.plan and self.plan[-1] in actions:
            self.where = (state.dealt, where[1] + 1)
            return self.plan.pop()
        self.plan, self.where = [], (state.dealt, where[1] + 1)
        return self.greedy.choose(state, actions, rng)


AGENTS = {"greedy": GreedyAgent, "solver": SolverAgent}
