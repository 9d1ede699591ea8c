"""A beam search for winning lines (games the depth-first search decides alone).

Why: on Wizard's Tower and Uta Pagoda the depth-first search of ``solver.py`` spends its whole
budget deep inside the first few hundred moves' subtrees: a wrong choice made early (bury a card or
play it; which row a Wizard takes) is only found out a hundred turns later, and the memo of failed
positions does not bring it back up in time. A beam search looks at every stock index in turn and
keeps the ``width`` most promising positions there, so an early choice is judged by its position
alone, not by exhausting what lies below it.

A position after card ``i`` has been turned is kept by the waste's length plus its *blocked* cards
and the next ``LOOKAHEAD`` stock cards' blocked ones (those no open row can take now, not even a
wild-topped one), then by its wild-topped rows (more is better): of the cheap scores tried (issue 3,
seventh pass; see docs/performance/pairing-solver.md) it won the most deals the search left undecided. From each
kept position every sequence of plays off the waste's top is tried (the same pruning of equivalent
moves as the search's), then the next card is turned. Under a waste cap the beam soon holds only
dead positions (measured on Strict Wizard's Tower), so the solver does not use it there with wild cards.

It proves nothing when it fails; a line it finds is replayed through the rules (``PairingState.apply``
checks every move) and returned only if the game ends won, so the solver may trust it.
"""

from __future__ import annotations

from typing import Any, NamedTuple

from .rules import TURN, WILD, PairingState

LOOKAHEAD = 10  # stock cards the score looks at beyond the waste (10 won the most of 0, 10, 15, 20, 30)
Position = tuple[tuple[int, ...], tuple[int, ...]]  # (waste classes bottom to top, open rows by kind)


class BeamOutOfNodes(Exception):
    """The node limit given to the beam search ran out."""


class Beam(NamedTuple):
    """What a beam search found: a winning ``line``, or None (which proves nothing) and the waste's
    classes in the best position of the last stock index it reached (``stuck``: the cards it could
    not clear, whose pairs the solver then tries as a sub-game)."""

    line: list[Any] | None
    stuck: tuple[int, ...]
    pruned: bool  # some stock index had more than ``width`` positions (else a wider beam finds nothing more)


def beam_line(solver: Any, state: PairingState, width: int, stop: int) -> Beam:
    """A beam search from ``state`` keeping ``width`` positions per stock index. Every position it
    generates counts as one of ``solver.nodes``; past ``stop`` it raises :class:`BeamOutOfNodes`.
    Uses the solver's row kinds (``solver.keys``, ``solver.rows_by_kind``)."""
    game = solver.game
    card_class, accepts, cap, waste_cap = game.card_class, game.accepts, game.row_cap, game.waste_cap
    keys, key_index = solver.keys, solver.key_index
    seq = [card_class[c] for c in state.stock[state.next:]]
    n = len(seq)
    start = [len(rows) for rows in solver.rows_by_kind(state)]
    # left[i][c]: cards of class c from stock index i on
    left = [[0] * len(accepts) for _ in range(n + 1)]
    for i in range(n - 1, -1, -1):
        left[i][:] = left[i + 1]
        left[i][seq[i]] += 1
    wild_key = key_index[(WILD, 0)] if game.has_wilds and cap is None else None

    def plays(waste: tuple[int, ...], counts: tuple[int, ...]) -> list[int]:
        """The row kinds the waste's top may go on, as the search prunes them (no row cap: a
        wild-topped row only when no other row takes the card)."""
        acc = accepts[waste[-1]]
        found = [k for k in range(len(keys)) if counts[k] and keys[k][0] in acc]
        if wild_key is not None and len(found) > 1 and wild_key in found:
            found.remove(wild_key)
        return found

    def after(waste: tuple[int, ...], counts: tuple[int, ...], k: int) -> Position:
        top = waste[-1]
        new = list(counts)
        new[k] -= 1
        height = keys[k][1] + 1 if cap is not None else 0
        if cap is None or height < cap:
            new[key_index[(top, height)]] += 1
        return waste[:-1], tuple(new)

    def score(position: Position, turned: int) -> tuple[int, int]:
        """Lower is better: the waste's length plus its cards, and the next ``LOOKAHEAD`` stock cards
        (from index ``turned``), that no open row takes now; then the wild-topped rows, more first."""
        waste, counts = position
        present = {keys[k][0] for k in range(len(keys)) if counts[k]}
        blocked = sum(1 for c in (*waste, *seq[turned:turned + LOOKAHEAD]) if not accepts[c] & present)
        wild = sum(counts[k] for k in range(len(keys)) if keys[k][0] == WILD)
        return len(waste) + blocked, -wild

    pruned = False
    layers: list[dict[Position, tuple[Position, tuple[int, ...]] | None]] = [
        {(tuple(card_class[c] for c in state.waste), tuple(start)): None}]
    for idx in range(n + 1):
        following: dict[Position, tuple[Position, tuple[int, ...]]] = {}
        for position in layers[-1]:
            stack: list[tuple[tuple[int, ...], tuple[int, ...], tuple[int, ...]]] = [(*position, ())]
            seen = {position}
            while stack:
                waste, counts, made = stack.pop()
                solver.nodes += 1
                if solver.nodes > stop:
                    raise BeamOutOfNodes
                if idx == n and not waste:
                    return Beam(_replay(solver, state, layers, position, made), (), pruned)
                forced = False
                if waste:
                    kinds = plays(waste, counts)
                    top = waste[-1]
                    forced = bool(kinds) and game.simple and (left[idx][top] == 0 or game.partner[top] == top)
                    for k in kinds:
                        child = after(waste, counts, k)
                        if child not in seen:
                            seen.add(child)
                            stack.append((*child, made + (k,)))
                if forced or idx == n or (waste_cap is not None and len(waste) >= waste_cap):
                    continue
                turned = (waste + (seq[idx],), counts)
                if turned not in following:
                    following[turned] = (position, made)
        if not following:
            break
        if len(following) > width:
            pruned = True
            following = dict(sorted(following.items(), key=lambda item: score(item[0], idx + 1))[:width])
        layers.append(following)
    return Beam(None, min(layers[-1], key=lambda position: score(position, len(layers) - 1))[0], pruned)


def _replay(solver: Any, state: PairingState, layers: list[dict], last: Position,
            made: tuple[int, ...]) -> list[Any] | None:
    """The line to the won position, from the layers' back-links, played through the rules: each
    play names a real row of its kind (rows of one kind are interchangeable)."""
    steps: list[tuple[int, ...] | None] = [made]  # plays, with None for a turn between them
    position = last
    for layer in reversed(layers[1:]):
        parent, plays_before = layer[position]
        steps += [None, plays_before]
        position = parent
    steps.reverse()
    game = solver.game
    card_class, cap = game.card_class, game.row_cap
    board = state.clone()
    line: list[Any] = []
    for step in steps:
        if step is None:
            board.apply(TURN)
            line.append(TURN)
            continue
        for k in step:
            cls, height = solver.keys[k]
            row = next(r for r, cards in enumerate(board.rows)
                       if card_class[cards[-1]] == cls and (cap is None or len(cards) == height))
            board.apply(game.plays[row])
            line.append(game.plays[row])
    if not board.won():
        raise AssertionError("a beam line must replay to a win")
    return line
