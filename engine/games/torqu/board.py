"""The board (spaces 0 to ``board_end``: the seed's 73, 0 to 72): how match scores move the stones."""

from __future__ import annotations

from typing import Sequence

#: What happens when a stone's target space is taken (option ``collision``), two readings of the
#: seed's "the one who has the lowest actual point value moves back one space. No two stones can
#: occupy the same space": ``step_back`` (issue 4's): the moving stone steps back to the nearest
#: free space; ``lower_steps_back``: of the moving stone and the one already there, the one with the
#: lower match score steps back from that space to the nearest free one (on a tie, the mover). Only a
#: stone that has moved already or does not move this match holds a space (see :func:`move_stones`).
COLLISIONS = ("step_back", "lower_steps_back")


def spaces_for(score: int, per_space: int) -> int:
    """Spaces a match score moves a stone: score / per_space rounded half away from zero; no
    movement strictly between -per_space and per_space (the seed's -99..99)."""
    if -per_space < score < per_space:
        return 0
    steps = (abs(score) * 2 + per_space) // (2 * per_space)
    return steps if score > 0 else -steps


def target_space(position: int, score: int, per_space: int, end: int) -> int:
    """Where a match score sends a stone from ``position``, before any collision: on or back by
    :func:`spaces_for`, never below 0 nor past ``end``."""
    return max(0, min(end, position + spaces_for(score, per_space)))


def move_stones(positions: Sequence[int], scores: Sequence[int], order: Sequence[int], per_space: int,
                end: int, collision: str) -> list[int]:
    """New positions after a match. Stones move in ``order`` (descending score, ties in the
    given seat order); a taken target is settled by ``collision`` (:data:`COLLISIONS`). A target
    is taken only by a stone that has moved already or does not move this match: one still to
    move leaves its space, so it blocks nobody (else a stone that scored more could be pushed
    back by one that then moves past it, the opposite of the seed's rule). Space 0 holds any
    number of stones; nothing goes below 0 or past ``end``."""
    pos = list(positions)
    to_move = {i for i in order if spaces_for(scores[i], per_space)}
    for i in sorted(order, key=lambda i: (-scores[i], order.index(i))):
        if i not in to_move:
            continue
        to_move.discard(i)
        target = target_space(pos[i], scores[i], per_space, end)
        held = {p: j for j, p in enumerate(pos) if j != i and j not in to_move}
        there = held.get(target) if target > 0 else None
        if there is not None and collision == "lower_steps_back" and scores[there] < scores[i]:
            pos[i] = target
            pos[there] = _nearest_free(set(held), target - 1)
        else:
            pos[i] = _nearest_free(set(held), target)
    return pos


def _nearest_free(taken: set[int], space: int) -> int:
    """The nearest space at or below ``space`` not in ``taken`` (0 holds any number)."""
    while space > 0 and space in taken:
        space -= 1
    return space
