"""Sub-games of a few pairs, refined from their own lines (games without wild cards).

Why: without wild cards a card only ever goes onto rows of its own pair, so a winning play of the
whole game, projected onto some pairs' cards, is a winning play of the sub-game made of those pairs'
rows and cards alone (the waste, a stack, stays one, and only loses cards, so a waste cap still
holds). A lost sub-game therefore proves the game lost, and a sub-game of a few pairs is decided
fast by the solver's own stages (its interval memo stays small). Which pairs? On Uta Pagoda the
one- and two-pair sub-games are all won, and 50 pairs have far too many sets, so the set is grown
from evidence (issue 3, seventh pass):

1. start with the pairs of the cards a beam search (``beam.py``) could not clear from the waste;
2. decide their sub-game: lost ends it (the game is lost);
3. won, its line is played out in the whole game, every other card played as soon as a row takes it
   (onto the first such row) and turned when the line needs the card below it. If that wins, it is a
   line of the whole game (every move went through the rules). Otherwise the first card of another
   pair that stands in the line's way (on the waste's top when the line wants to play, or filling
   the waste under a cap when it wants to turn) names a pair that matters: add it, and go to 2.

The set only grows, and stops short of every pair with a card left (that would be the whole game).
Failure proves nothing either way.
"""

from __future__ import annotations

from typing import Any

from .rules import TURN, PairingState, Turn
from .tame import kept_rows, projection


def refine(solver: Any, state: PairingState, pairs: frozenset[int], stop: int) -> tuple[bool | None, list[Any]]:
    """(verdict, line) for ``state`` from the sub-games of ``pairs`` grown as above: True with a line of
    the whole game, False when a sub-game is lost, None when neither was found (the set reached every
    live pair, a sub-game was undecided, or ``solver.nodes`` passed ``stop``). Sub-games are decided by
    ``solver.decide`` within the nodes left, which count in ``solver.nodes``, as does each move of a
    played-out line."""
    game = solver.game
    card_class, group = game.card_class, solver.group
    live = frozenset(group[card_class[c]] for c in [*state.stock[state.next:], *state.waste])
    while pairs and pairs < live and solver.nodes < stop:
        sub = projection(state, lambda c, chosen=pairs: group[card_class[c]] in chosen)
        verdict = solver.decide(game, sub, stop - solver.nodes)
        if verdict.winnable is not True:
            return (False if verdict.winnable is False else None), []
        line, blocker = play_out(solver, state, pairs, verdict.line)
        if line is not None:
            return True, line
        if blocker is None or blocker in pairs:
            break
        pairs = pairs | {blocker}
    return None, []


def play_out(solver: Any, state: PairingState, pairs: frozenset[int],
             sub_line: list[Any]) -> tuple[list[Any] | None, int | None]:
    """Play ``sub_line`` (a winning line of the sub-game of ``pairs``) in the whole game from ``state``,
    the other pairs' cards played as soon as a row takes them: (the whole game's winning line, None),
    or (None, the pair of the first other card in the way; None if there is none to name)."""
    game = solver.game
    card_class, group = game.card_class, solver.group

    def inside(card: int) -> bool:
        return group[card_class[card]] in pairs

    sub = projection(state, inside)
    # the sub-game's rows are the whole game's rows of ``pairs`` (a row keeps its pair): the line's plays
    # name the same rows, so a row cap holds as it does in the sub-game
    kept = kept_rows(state, inside)
    board = state.clone()
    line: list[Any] = []

    def act(action: Any) -> None:
        board.apply(action)
        line.append(action)
        solver.nodes += 1

    def clear_others() -> None:
        """Play the waste's top card while it is another pair's and some row takes it."""
        while board.waste and not inside(board.waste[-1]):
            plays = [a for a in board.legal_actions() if type(a) is not Turn]
            if not plays:
                return
            act(plays[0])

    def blocker() -> int | None:
        """The pair of the topmost other card on the waste."""
        others = [c for c in board.waste if not inside(c)]
        return group[card_class[others[-1]]] if others else None

    for action in sub_line:
        clear_others()
        if type(action) is Turn:
            wanted = sub.stock[sub.next]
            while True:
                if TURN not in board.legal_actions():
                    return None, blocker()
                turned = board.stock[board.next]
                act(TURN)
                if turned == wanted:
                    break
                clear_others()
        else:
            if board.waste[-1] != sub.waste[-1]:
                return None, blocker()
            act(game.plays[kept[action.row]])
        sub.apply(action)
    while True:
        clear_others()
        if board.won():
            return line, None
        if TURN not in board.legal_actions():
            return None, blocker()
        act(TURN)
