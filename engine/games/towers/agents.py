"""Towers agents. ``greedy``: play whenever it can, preferring what moves debts away from itself.

Every card left in the cache at the end of a turn becomes a debt, so greedy never stops a bonus
chain and never flees while it has a play (fleeing pays the whole solde to every opponent, which
is never cheaper than the pairwise netting at the end). Among the plays it ranks, in order:

1. a play that closes its tower (the tower's cards go to the opponents' soldes);
2. a play of the tower's own suit after which another card of the cache can still be played
   (the chain empties the cache further);
3. a play that does not leave its tower one play from closing (the next player could close it and
   deal its cards to us, among others; greedy reads the tower only, not whether a cache holds the
   closing card);
4. a play of the tower's own suit;
5. then the first in the legal order.

It looks only at public information (every cache is face up; it never looks at the stock order).
With no play it passes when it may, and flees otherwise.
"""

from __future__ import annotations

from typing import Any, Sequence

from .rules import Flee, Pass, Play, TowersState


class GreedyAgent:
    """Plays whenever it can, ranking the plays by the debts they move (the module's docstring)."""

    name = "greedy"

    def __init__(self, game: Any):
        self.game = game

    def choose(self, state: TowersState, actions: Sequence[Any], rng: Any) -> Any:
        plays = [a for a in actions if type(a) is Play]
        if not plays:
            return next((a for a in actions if type(a) is Pass), next(a for a in actions if type(a) is Flee))
        if len(plays) == 1:
            return plays[0]
        game = self.game
        tables = game.tables
        closed, closable, fitting = tables.closed, tables.closable, tables.fitting
        info, suit_of = game.play_info, game.suit_of
        alignment = game.alignment[state.player]
        cache = state.caches[state.player]
        occupied = state.occupied

        def key(index_play: tuple[int, Play]) -> tuple:
            index, play = index_play
            code, t, p = info[play]
            mask = occupied[t] | 1 << p
            closes = closed[mask]
            match = suit_of[code] == t
            follow = False
            if match:
                fits = 0
                for u in game.bonus_towers(code, t, state.open_towers):
                    fits |= fitting[mask if u == t else occupied[u]]  # a closed tower fits nothing
                follow = any(c != code and fits >> alignment[c] & 1 for c in cache)
            return (not closes, not (match and follow), (not closes) and closable[mask], not match, index)

        return min(enumerate(plays), key=key)[1]


AGENTS = {"greedy": GreedyAgent}
