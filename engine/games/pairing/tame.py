"""The wild-free part of a position: some pairs' rows and cards alone, with no wild card.

Why: under a row cap, each wild-topped row takes at most one card before it belongs to that
card's pair, so over a winning play the pairs' plays onto wild-topped rows add up to at most the
wild-topped rows now plus the wild cards still to place (the solver's *pool*). When the pairs'
least needs (``_Subgames.wild_cost``) already add up to the whole pool, every pair uses exactly
its need, and the pairs that need none never play onto a wild-topped row: projected onto their
cards, a winning play is a winning play of the game made of their rows and cards alone, without
wild cards (a wild card only ever takes one of their rows away, which the projection simply
stops using). That game is an ordinary capped game, which the solver's own stages for those (the
room check, the search, the uncapped relaxation of ``intervals.py``) may prove lost.
"""

from __future__ import annotations

import copy
from collections.abc import Callable

from .rules import WILD, PairingGame, PairingState


def without_wild_cards(game: PairingGame) -> PairingGame:
    """The same game seen as one without wild cards (for positions that hold none): the room
    check and the interval solver then treat it as an ordinary capped game."""
    tame = copy.copy(game)
    tame.has_wilds = False
    tame.simple = False
    return tame


def kept_rows(state: PairingState, keep: Callable[[int], bool]) -> list[int]:
    """The rows of ``state`` topped by a card that ``keep`` accepts, in order: row ``i`` of
    :func:`projection` is row ``kept_rows(state, keep)[i]`` of ``state``."""
    return [r for r, row in enumerate(state.rows) if keep(row[-1])]


def projection(state: PairingState, keep: Callable[[int], bool]) -> PairingState:
    """The position made of the rows topped by a card that ``keep`` accepts (:func:`kept_rows`,
    renumbered in order), and the waste and stock cards it accepts (in their order); nothing else.
    ``keep`` takes a card code."""
    card_class = state.game.card_class
    sub = state.clone()
    sub.rows = [list(state.rows[r]) for r in kept_rows(state, keep)]
    sub.tops = [card_class[row[-1]] for row in sub.rows]
    sub.by_top = [[] for _ in state.game.accepts]
    for r, top in enumerate(sub.tops):
        sub.by_top[top].append(r)
    sub.waste = [c for c in state.waste if keep(c)]
    sub.stock = [c for c in state.stock[state.next:] if keep(c)]
    sub.next = 0
    sub._update()
    if any(card_class[c] == WILD for c in sub.waste + sub.stock) or WILD in sub.tops:
        raise ValueError("a projection without wild cards must not keep one")
    return sub
