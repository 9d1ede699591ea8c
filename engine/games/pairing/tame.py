"""The wild-free part of a position: some pairs' rows and cards alone, with no wild card.

Why: under a row cap, each wild-topped row takes at most one card before it belongs to that
card's pair, so over a winning play the pairs' plays onto wild-topped rows add up to at most the
wild-topped rows now plus the wild cards still to place (the solver's *pool*). When the pairs'
least needs (``subgames.Subgames.wild_cost``) already add up to the whole pool, every pair uses exactly
its need, and the pairs that need none never play onto a wild-topped row: projected onto their
cards, a winning play is a winning play of the game made of their rows and cards alone, without
wild cards (a wild card only ever takes one of their rows away, which the projection simply
stops using). That game is an ordinary capped game, which the solver's own stages for those (the
room check, the search, the uncapped relaxation of ``intervals.py``) may prove lost. (Since issue 3's
eighth pass, for every largest set of pairs that may use wild-topped rows: ``weave.py``.) And when the
needs take the whole pool, each wild slot takes one card of a pair needing some: :func:`slots_given`
gives the slots to those pairs as rows of their own, a game without wild cards again.
"""

from __future__ import annotations

import copy
from collections.abc import Callable

from .rules import WILD, PairingGame, PairingState, Play


def without_wild_cards(game: PairingGame, rows: int = 0) -> PairingGame:
    """The same game seen as one without wild cards (for positions that hold none): the room
    check and the interval solver then treat it as an ordinary capped game. ``rows``: at least
    this many rows may be played onto (:func:`slots_given` adds some)."""
    tame = copy.copy(game)
    tame.has_wilds = False
    tame.simple = False
    if rows > game.num_rows:
        tame.num_rows = rows
        tame.plays = tuple(Play(r) for r in range(rows))
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
    sub.place([list(state.rows[r]) for r in kept_rows(state, keep)], [c for c in state.waste if keep(c)],
              [c for c in state.stock[state.next:] if keep(c)])
    if any(card_class[c] == WILD for c in sub.waste + sub.stock) or WILD in sub.tops:
        raise ValueError("a projection without wild cards must not keep one")
    return sub


def wild_slots(state: PairingState) -> tuple[int, int]:
    """The wild *slots* of ``state`` (row cap): (its wild-topped rows with room, its wild cards still to play);
    together, the solver's pool. Each slot's wild top takes at most one card before it is that card's pair's."""
    card_class, cap = state.game.card_class, state.game.row_cap
    return (sum(card_class[row[-1]] == WILD and len(row) < cap for row in state.rows),
            sum(card_class[c] == WILD for c in [*state.waste, *state.stock[state.next:]]))


def slots_given(state: PairingState, firsts: list[int], opened: frozenset[int] = frozenset()) -> PairingState:
    """The position (of :func:`without_wild_cards`'s game, with the rows it adds) without wild cards in
    which wild slot ``i`` (:func:`wild_slots`: the wild-topped rows with room in
    row order, then the wild cards on the waste from the bottom, then in the stock) is given to the pair of
    class ``firsts[i]``, the class of the first card it takes:

    * a wild-topped row becomes a row of that height topped by the partner of ``firsts[i]`` (a full one,
      which is no slot, takes another card on top: it takes nothing anyway);
    * a wild card still to play becomes a card of the partner's class (where it lies), and a new row of one
      card, of class ``firsts[i]``, is added for it (a wild card lands on a row of at least one card);
      or, if ``i`` is in ``opened``, it is dropped, and the new row holds two cards, topped by the partner.

    Either new row may take cards before the wild card is turned (the first of the partner's class, the
    second of ``firsts[i]``'s): which one leaks less depends on the deal, and both are sound.

    Why (``Solver.wild_row_sets``): when the pairs' least needs take the whole pool, each slot's wild top
    takes exactly one card, of a pair needing some. A winning play then maps onto a winning play here with
    the right ``firsts``: the wild card's replacement goes onto its new row when the wild card was played
    (that row is the partner's, so nothing else took it), which then takes the same first card and has at
    least as much room as the real row it landed on (the projection stops using that row); the new rows
    only add moves. So when this position is lost for every choice of ``firsts``, so is ``state``."""
    game = state.game
    card_class, partner = game.card_class, game.partner

    def code(cls: int) -> int:
        return card_class.index(cls)

    given = iter(enumerate(firsts))
    filler = code(next(c for c in card_class if c != WILD))  # a full row's top: it takes nothing anyway
    rows = [list(row) if card_class[row[-1]] != WILD else row[:-1] + [filler] if len(row) >= game.row_cap
            else row[:-1] + [code(partner[next(given)[1]])] for row in state.rows]

    def replaced(cards: list[int]) -> list[int]:
        out = []
        for c in cards:
            if card_class[c] == WILD:
                slot, first = next(given)
                if slot in opened:
                    rows.append([code(first), code(partner[first])])
                    continue
                rows.append([code(first)])
                c = code(partner[first])
            out.append(c)
        return out

    waste, stock = replaced(list(state.waste)), replaced(list(state.stock[state.next:]))
    if next(given, None) is not None:
        raise ValueError("one first class per wild slot")
    sub = state.clone()
    sub.game = without_wild_cards(game, len(rows))
    sub.place(rows, waste, stock)
    return sub
