"""Tableau geometry shared by the centre and the personal tableaus.

A tableau is a centre stack, eight primary stacks at the compass points N, NE, E, SE, S, SW,
W, NW (indices 0-7) and eight secondary stacks, secondary ``i`` lying across primaries ``i``
and ``i + 1`` (mod 8). Exposed: the top of the centre stack, the top of every non-empty
secondary, and the top of a primary only when both secondaries lying on it (``i - 1`` and
``i``) are empty. After a full deal that is 1 + 8 = 9 cards.
"""

from __future__ import annotations

from typing import Iterable

COMPASS = ("N", "NE", "E", "SE", "S", "SW", "W", "NW")
#: Primary stacks, and secondary stacks: one of each a compass point.
STACKS = len(COMPASS)
CENTER, PRIMARY, SECONDARY = "center", "primaries", "secondaries"
#: Each stack's name in laying order (the centre, primaries N..NW, secondaries N-NE..NW-N, secondary ``i``
#: across primaries ``i`` and ``i + 1``), as ``deal`` and the narration say them.
STACK_NAMES = ("centre stack", *(f"{d} primary" for d in COMPASS),
               *(f"{d}-{COMPASS[(i + 1) % STACKS]} secondary" for i, d in enumerate(COMPASS)))


class Tableau:
    """Stacks of card codes, bottom to top. ``capacity`` (centre, primary, secondary) bounds
    them when cards are laid one by one (personal tableaus); the centre is dealt directly."""

    __slots__ = ("center", "primaries", "secondaries", "capacity", "_fill")

    def __init__(self, capacity: tuple[int, int, int] | None = None):
        self.center: list[int] = []
        self.primaries: list[list[int]] = [[] for _ in range(STACKS)]
        self.secondaries: list[list[int]] = [[] for _ in range(STACKS)]
        self.capacity = capacity
        self._fill = 0  # see _next_stack

    @classmethod
    def dealt(cls, cards: list[int], center: int, primary: int, secondary: int) -> "Tableau":
        """Deal ``cards`` in order: the centre stack, primaries N..NW, then secondaries."""
        t = cls()
        pos = 0
        t.center = cards[pos:pos + center]
        pos += center
        for i in range(STACKS):
            t.primaries[i] = cards[pos:pos + primary]
            pos += primary
        for i in range(STACKS):
            t.secondaries[i] = cards[pos:pos + secondary]
            pos += secondary
        return t

    def stacks(self) -> list[list[int]]:
        return [self.center, *self.primaries, *self.secondaries]

    def cards(self) -> list[int]:
        return [c for stack in self.stacks() for c in stack]

    def __len__(self) -> int:
        return len(self.center) + sum(map(len, self.primaries)) + sum(map(len, self.secondaries))

    def exposed(self) -> list[int]:
        """The exposed cards (tops of exposed stacks): centre, primaries N..NW, secondaries."""
        out = [self.center[-1]] if self.center else []
        sec = self.secondaries
        for i, stack in enumerate(self.primaries):
            if stack and not sec[i - 1] and not sec[i]:
                out.append(stack[-1])
        out.extend(s[-1] for s in sec if s)
        return out

    def take(self, card: int) -> bool:
        """Remove ``card`` if it is exposed here; whether it was. (Each card exists once, so
        the stacks are searched in whichever order is quickest, secondaries before primaries.)"""
        if self.center and self.center[-1] == card:
            self.center.pop()
            self._fill = 0
            return True
        sec = self.secondaries
        for stack in sec:
            if stack and stack[-1] == card:
                stack.pop()
                self._fill = 0
                return True
        for i, stack in enumerate(self.primaries):
            if stack and stack[-1] == card and not sec[i - 1] and not sec[i]:
                stack.pop()
                self._fill = 0
                return True
        return False

    def room(self) -> bool:
        return self._next_stack() is not None

    def lay(self, card: int) -> None:
        """Lay a card on the first stack with room: centre, primaries N..NW, secondaries."""
        stack = self._next_stack()
        if stack is None:
            raise ValueError("the tableau is full")
        stack.append(card)

    def next_place(self) -> str | None:
        """The name (:data:`STACK_NAMES`) of the stack :meth:`lay` puts the next card on, or None when the
        tableau is full: the narration says it, so that a reader can follow the laying order by hand (a
        designer's finding: every lay read alike)."""
        stack = self._next_stack()
        return None if stack is None else STACK_NAMES[next(i for i, s in enumerate(self.stacks()) if s is stack)]

    def _next_stack(self) -> list[int] | None:
        """The first stack with room, in laying order (0 the centre, 1-8 the primaries, 9-16 the
        secondaries: :data:`STACKS` of each). ``_fill`` remembers where the last search stopped:
        every stack before it is full, until :meth:`take` empties one (it then starts again from the
        centre)."""
        center, primary, secondary = self.capacity  # type: ignore[misc]
        i = self._fill
        if i == 0:
            if len(self.center) < center:
                return self.center
            i = 1
        while i <= STACKS:
            stack = self.primaries[i - 1]
            if len(stack) < primary:
                self._fill = i
                return stack
            i += 1
        while i <= 2 * STACKS:
            stack = self.secondaries[i - STACKS - 1]
            if len(stack) < secondary:
                self._fill = i
                return stack
            i += 1
        self._fill = i
        return None

    def to_json(self, names: tuple[str, ...]) -> dict:
        return {CENTER: [names[c] for c in self.center],
                PRIMARY: [[names[c] for c in s] for s in self.primaries],
                SECONDARY: [[names[c] for c in s] for s in self.secondaries]}

    def copy(self) -> "Tableau":
        t = Tableau(self.capacity)
        t.center = list(self.center)
        t.primaries = [list(s) for s in self.primaries]
        t.secondaries = [list(s) for s in self.secondaries]
        return t


def capacity_total(capacity: Iterable[int]) -> int:
    """The cards a tableau of ``capacity`` (centre, primary, secondary) holds when full."""
    center, primary, secondary = capacity
    return center + STACKS * (primary + secondary)
