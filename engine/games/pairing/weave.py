"""Which pairs may play onto wild-topped rows, and lines woven from the rest's (row cap and wild cards).

Why: under a row cap each wild-topped row takes at most one card before it belongs to that card's pair,
so in a winning play the set B of pairs whose cards ever go onto a wild-topped row has at most *pool*
members (the wild-topped rows now plus the wild cards still to place), holds every pair whose least
need (``subgames.Subgames.wild_cost``) is one or more, and the pairs' needs, each at least one, add up to at
most the pool. Projected onto the pairs outside B, that play is a winning play of their game without
wild cards (``tame.py``: a wild card only ever takes one of their rows away). A sub-game of a won game
is won, so a bigger B leaves a smaller, easier game: only the largest admissible sets matter, and the
deal is lost when the wild-free game outside every one of them is lost (issue 3, eighth pass).

A won wild-free game outside B refutes nothing, but its line is often most of a winning line: the
cards of B's pairs and the wild cards are then *woven* into it (:func:`weave`), each played onto some
row the line does not use again, or kept on the waste while the line turns. A woven line went through
the rules move by move and ends won, so it is a win; a failed weave proves nothing. A greedy line of
that game leaves B's cards no room on the waste; the line of a game where the wild slots are given to
B's pairs (``tame.slots_given``), cut to the other pairs (:func:`rest_line`), often does.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from itertools import combinations
from typing import Any

from .rules import TURN, WILD, PairingState, Turn
from .tame import kept_rows, projection, wild_slots


def wild_row_sets(own: dict[int, int], pool: int) -> Iterator[tuple[int, ...]]:
    """The largest sets of pair groups that may play onto wild-topped rows (see the module's docstring),
    given each pair's least need ``own`` and the ``pool``: every pair that needs some, and as many others
    as the pool leaves (each costs at least one). Nothing when the needs alone exceed the pool."""
    needing = tuple(g for g in sorted(own) if own[g])
    spare = pool - sum(own[g] for g in needing)
    if spare < 0:
        return
    others = [g for g in sorted(own) if not own[g]]
    for extra in combinations(others, min(spare, len(others))):
        yield tuple(sorted(needing + extra))


def outside(solver: Any, chosen: tuple[int, ...]) -> Callable[[int], bool]:
    """Whether a card (a code) is of a pair outside ``chosen``, wild cards excluded: the cards of the
    wild-free game outside a set B (``chosen``), as :func:`tame.projection` keeps them."""
    card_class, group = solver.game.card_class, solver.group
    return lambda card: card_class[card] != WILD and group[card_class[card]] not in chosen


class WeaveOutOfNodes(Exception):
    """The nodes given to one weave ran out."""


def weave(solver: Any, state: PairingState, chosen: tuple[int, ...], sub_line: list[Any],
          effort: int) -> list[Any] | None:
    """A winning line of the whole game from ``state``, made of ``sub_line`` (a winning line of the game of
    the pairs outside ``chosen`` without wild cards, :func:`tame.projection`) with the other cards (those of
    ``chosen``'s pairs, and the wild cards) woven in; None if none was found within ``effort`` nodes (which
    proves nothing). The line's own moves are kept in their order; an other card on the waste's top may go
    onto any row the line does not use again (one of each kind: top class and height), or wait while the
    line turns: a depth-first search over those choices, first the one that plays it at once onto the row
    ``_row_order`` prefers, its failed positions memoised. Each position counts as one of
    ``solver.nodes``."""
    game = solver.game
    card_class, group = game.card_class, solver.group
    inside = outside(solver, chosen)
    sub = projection(state, inside)
    kept = kept_rows(state, inside)  # the line's row i is the whole game's row kept[i]
    # what each step of the line expects: the card it turns up, or the card it plays and the row it goes on
    expect: list[tuple[int, int | None]] = []
    for action in sub_line:
        expect.append((sub.stock[sub.next], None) if type(action) is Turn else (sub.waste[-1], kept[action.row]))
        sub.apply(action)
    # the rows the line plays onto from each of its steps on: the other cards keep off them
    reserved: list[frozenset[int]] = [frozenset()] * (len(expect) + 1)
    for step in range(len(expect) - 1, -1, -1):
        row = expect[step][1]
        reserved[step] = reserved[step + 1] | ({row} if row is not None else set())
    stop = solver.nodes + effort
    failed: set[tuple] = set()
    line: list[Any] = []

    def moves(board: PairingState, step: int) -> list[Any]:
        """The moves to try, first first: the other card on the waste's top onto each kind of free row,
        then the line's next move (or, past its end, a turn)."""
        legal = board.legal_actions()
        found: list[Any] = []
        if board.waste and not inside(board.waste[-1]):
            wild = card_class[board.waste[-1]] == WILD
            kinds = set()
            for play in sorted((a for a in legal if type(a) is not Turn and a.row not in reserved[step]),
                               key=lambda play: _row_order(board, play.row, wild, chosen, group)):
                kind = (board.tops[play.row], len(board.rows[play.row]))
                if kind not in kinds:
                    kinds.add(kind)
                    found.append(play)
        if step < len(expect) and expect[step][1] is not None:
            if board.waste and board.waste[-1] == expect[step][0] and game.plays[expect[step][1]] in legal:
                found.append(game.plays[expect[step][1]])
        elif TURN in legal:
            found.append(TURN)
        return found

    def search(board: PairingState, step: int) -> bool:
        solver.nodes += 1
        if solver.nodes > stop:
            raise WeaveOutOfNodes
        if board.won():
            return True
        key = (step, board.next, tuple(board.waste), tuple(board.tops), tuple(len(row) for row in board.rows))
        if key in failed:
            return False
        for action in moves(board, step):
            child = board.clone()
            child.apply(action)  # the rules check every move
            line.append(action)
            if action is TURN:
                advanced = step < len(expect) and child.waste[-1] == expect[step][0]
            else:
                advanced = step < len(expect) and action.row == expect[step][1] and board.waste[-1] == expect[step][0]
            if search(child, step + advanced):
                return True
            line.pop()
        failed.add(key)
        return False

    try:
        return line if search(state.clone(), 0) else None
    except WeaveOutOfNodes:
        return None


def _row_order(board: PairingState, row: int, wild: bool, chosen: tuple[int, ...], group: list[int]) -> tuple:
    """Which row first: a wild card onto a row with room for a card after it, not wild-topped, no chosen
    pair's, the lowest (a card of the chosen pairs may then follow it); another card onto its own pair's
    roomiest row before a wild-topped one."""
    cards = board.rows[row]
    top = board.tops[row]
    if wild:
        return (len(cards) > board.game.row_cap - 2, top == WILD, top != WILD and group[top] in chosen,
                len(cards), row)
    return (top == WILD, len(cards), row)


def rest_line(solver: Any, state: PairingState, opened: frozenset[int], chosen: tuple[int, ...],
              given_line: list[Any]) -> list[Any]:
    """The moves of ``given_line`` (a winning line of ``tame.slots_given(state, ..., opened)``) that move a
    card of a pair outside ``chosen``, as a line of the game of those pairs without wild cards
    (:func:`tame.projection`, whose rows are ``kept_rows``): a projection of a winning play, so a winning
    line of it, and one that left the chosen pairs' cards their room on the waste (for :func:`weave`)."""
    card_class = state.game.card_class
    inside = outside(solver, chosen)
    where = {r: i for i, r in enumerate(kept_rows(state, inside))}
    # ``given``'s waste and stock are these, each wild card replaced, those of ``opened`` slots dropped
    slot = wild_slots(state)[0]
    kept: list[list[int]] = []
    for cards in (state.waste, state.stock[state.next:]):
        kept.append([])
        for c in cards:
            if card_class[c] == WILD:
                slot += 1
                if slot - 1 in opened:
                    continue
            kept[-1].append(c)
    waste, stock = kept
    turned = 0
    line: list[Any] = []
    for action in given_line:
        if type(action) is Turn:
            waste.append(stock[turned])
            turned += 1
            if inside(waste[-1]):
                line.append(TURN)
        elif inside(waste.pop()):
            line.append(state.game.plays[where[action.row]])
    return line
