"""Where a Harrow card may go on a tower: precomputed tables.

The model (``docs/rules/towers.md``, after the placement geometry notes this project was given with
the seeds, not part of the repository): every card shows its
suit symbol in one cell of a 3x3 grid, its alignment (columns L N C left to right, rows G N E top
to bottom; as an offset x = -1/0/+1, y = +1/0/-1). A tower's foundation has its symbol at table
cell (0, 0); the eight cells around it are the tower's *positions*, named like alignments.
Putting a card of offset ``a`` with its symbol on position ``b`` centres it on ``b - a``, and it
then covers the 3x3 cells around that centre. The play is legal when

1. no symbol is at ``b`` yet;
2. the card does not cover the foundation's symbol;
3. it covers no symbol already on the tower;
4. when the tower already holds a played card, ``b`` is next to one of their symbols
   (8 neighbours, or 4 with ``adjacency: 4``; the foundation does not count).

Only symbols matter (card bodies may overlap), so a tower's state is the set of occupied
positions: an 8-bit mask. Everything is tabulated once per adjacency for every alignment and
every one of the 256 masks, so a game never evaluates geometry: legal positions, "is it closed"
and "which alignments still fit" are single lookups.

A player on the far side of the table (``seating: two_sided``) sees every offset negated: his
cards use the alignment opposite to the printed one (:data:`OPPOSITE`).
"""

from __future__ import annotations

from functools import cache
from typing import NamedTuple

#: The eight positions around a foundation, in the order used everywhere (row by row).
POSITIONS = ("LG", "NG", "CG", "LN", "CN", "LE", "NE", "CE")
#: Alignments: the eight positions' names, then the centre "N" (True Neutral: the foundations).
ALIGNMENTS = POSITIONS + ("N",)
POSITION_INDEX = {name: i for i, name in enumerate(POSITIONS)}
ALIGNMENT_INDEX = {name: i for i, name in enumerate(ALIGNMENTS)}
FULL = (1 << len(POSITIONS)) - 1
MASKS = range(FULL + 1)

_X = {"L": -1, "N": 0, "C": 1}
_Y = {"G": 1, "N": 0, "E": -1}


def offset(name: str) -> tuple[int, int]:
    """The (x, y) offset of an alignment or position name (``"N"`` is the centre)."""
    if name == "N":
        return (0, 0)
    return (_X[name[0]], _Y[name[1]])


OFFSETS = tuple(offset(name) for name in ALIGNMENTS)
#: The alignment a far-side player's card effectively has (every offset negated).
OPPOSITE = tuple(OFFSETS.index((-x, -y)) for x, y in OFFSETS)


def _far(a: tuple[int, int], b: tuple[int, int]) -> bool:
    """True when cell ``b`` lies outside the 3x3 square centred on ``a``."""
    return max(abs(a[0] - b[0]), abs(a[1] - b[1])) >= 2


def _next_to(a: tuple[int, int], b: tuple[int, int], adjacency: int) -> bool:
    dx, dy = abs(a[0] - b[0]), abs(a[1] - b[1])
    return (dx + dy == 1) if adjacency == 4 else (max(dx, dy) == 1)


def refusal(alignment: int, position: int, occupied: int, adjacency: int) -> str | None:
    """Which of the four conditions a play breaks, in words, or None when it is legal: evaluated directly
    (the tables are built from this; ``placements`` says why a layout cannot be reached)."""
    if occupied >> position & 1:
        return f"a symbol is on {POSITIONS[position]} already"
    ax, ay = OFFSETS[alignment]
    bx, by = OFFSETS[position]
    centre = (bx - ax, by - ay)
    if not _far(centre, (0, 0)):
        return "it would cover the foundation's symbol"
    held = [p for p in range(len(POSITIONS)) if occupied >> p & 1]
    covered = [POSITIONS[p] for p in held if not _far(centre, OFFSETS[p])]
    if covered:
        return f"it would cover the symbol on {covered[0]}"
    if held and not any(_next_to(OFFSETS[position], OFFSETS[p], adjacency) for p in held):
        return f"{POSITIONS[position]} is next to no played card's symbol"
    return None


#: The alignments whose card covers the foundation's symbol wherever it goes (the centre, N): only a foundation
#: may have one. On an empty tower only that condition applies, so the adjacency does not matter.
NEVER_PLACED = frozenset(a for a in range(len(ALIGNMENTS))
                         if all(refusal(a, p, 0, 8) for p in range(len(POSITIONS))))


class Tables(NamedTuple):
    """The precomputed geometry for one adjacency rule.

    ``legal[a][mask]``: tuple of the positions where a card of alignment ``a`` may go;
    ``fitting[mask]``: bitmask of the alignments that fit somewhere (0 exactly when closed);
    ``closed[mask]``: no card of any alignment can be added;
    ``closable[mask]``: some legal play from ``mask`` closes the tower.
    """

    legal: tuple[tuple[tuple[int, ...], ...], ...]
    fitting: tuple[int, ...]
    closed: tuple[bool, ...]
    closable: tuple[bool, ...]


@cache
def tables(adjacency: int) -> Tables:
    """Build (once per adjacency) every table a game needs."""
    legal = tuple(tuple(tuple(p for p in range(len(POSITIONS)) if refusal(a, p, mask, adjacency) is None)
                        for mask in MASKS) for a in range(len(ALIGNMENTS)))
    fitting = tuple(sum(1 << a for a in range(len(ALIGNMENTS)) if legal[a][mask]) for mask in MASKS)
    closed = tuple(f == 0 for f in fitting)
    closable = tuple(any(closed[mask | 1 << p] for a in range(len(ALIGNMENTS)) for p in legal[a][mask])
                     for mask in MASKS)
    return Tables(legal, fitting, closed, closable)


def mask_of(positions: list[str] | tuple[str, ...]) -> int:
    """The occupied-set mask of a list of position names."""
    mask = 0
    for name in positions:
        mask |= 1 << POSITION_INDEX[name]
    return mask
