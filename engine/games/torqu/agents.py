"""Torqu agents. ``greedy``: draws the pair that makes the best small arrangement with the
cards it already holds and has laid of the same suits and numbers (scored exactly), then lays
every hand card while its tableau has room (hand cards only ever cost points).
"""

from __future__ import annotations

from typing import Any, Sequence

from .rules import EndTurn, Lay, TorquState

CONTEXT = 10  # related cards (hand and tableau) scored with a candidate pair


class GreedyAgent:
    """Draws the pair that scores best with the related cards it holds and has laid, then lays what fits (the
    module's docstring)."""

    name = "greedy"

    def __init__(self, game: Any):
        self.game = game

    def choose(self, state: TorquState, actions: Sequence[Any], rng: Any) -> Any:
        first = actions[0]
        if type(first) is Lay:
            return first
        if type(first) is EndTurn or len(actions) == 1:
            return first
        seat = state.current_player
        game = self.game
        code = game.deck.by_name
        cards = game.deck.cards
        mine = state.hands[seat] + state.tableaus[game.owner(seat)].cards()
        best, best_value = first, None
        for action in actions:
            pair = [code[n].code for n in action.cards]
            suits = {cards[c].suit for c in pair}
            numbers = {cards[c].value for c in pair}
            related = sorted((c for c in mine if cards[c].suit in suits or cards[c].value in numbers),
                             key=lambda c: -cards[c].value)[:CONTEXT]
            value = game.scorer.tableau_value(related + pair) - game.scorer.tableau_value(related)
            if best_value is None or value > best_value:
                best, best_value = action, value
        return best


AGENTS = {"greedy": GreedyAgent}
