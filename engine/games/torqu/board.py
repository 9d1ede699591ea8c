"""The 73-space board: how match scores move the stones."""

from __future__ import annotations

from typing import Sequence


def spaces_for(score: int, per_space: int) -> int:
    """Spaces a match score moves a stone: score / per_space rounded half away from zero; no
    movement strictly between -per_space and per_space (the seed's -99..99)."""
    if -per_space < score < per_space:
        return 0
    steps = (abs(score) * 2 + per_space) // (2 * per_space)
    return steps if score > 0 else -steps


def move_stones(positions: Sequence[int], scores: Sequence[int], order: Sequence[int], per_space: int,
                end: int) -> list[int]:
    """New positions after a match. Stones move in ``order`` (descending score, ties in the
    given seat order); a stone whose target is taken steps back one space at a time to the
    nearest free one; space 0 holds any number of stones; nothing goes below 0 or past ``end``."""
    pos = list(positions)
    for i in sorted(order, key=lambda i: (-scores[i], order.index(i))):
        steps = spaces_for(scores[i], per_space)
        if steps == 0:
            continue
        target = max(0, min(end, pos[i] + steps))
        others = {p for j, p in enumerate(pos) if j != i}
        while target > 0 and target in others:
            target -= 1
        pos[i] = target
    return pos
