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
CENTER, PRIMARY, SECONDARY = "center", "primaries", "secondaries"


class Tableau:
    """Stacks of card codes, bottom to top. ``capacity`` (centre, primary, secondary) bounds
    them when cards are laid one by one (personal tableaus); the centre is dealt directly."""

    __slots__ = ("center", "primaries", "secondaries", "capacity")

    def __init__(self, capacity: tuple[int, int, int] | None = None):
        self.center: list[int] = []
        self.primaries: list[list[int]] = [[] for _ in range(8)]
        self.secondaries: list[list[int]] = [[] for _ in range(8)]
        self.capacity = capacity

    @classmethod
    def dealt(cls, cards: list[int], center: int, primary: int, secondary: int) -> "Tableau":
        """Deal ``cards`` in order: the centre stack, primaries N..NW, then secondaries."""
        t = cls()
        pos = 0
        t.center = cards[pos:pos + center]
        pos += center
        for i in range(8):
            t.primaries[i] = cards[pos:pos + primary]
            pos += primary
        for i in range(8):
            t.secondaries[i] = cards[pos:pos + secondary]
            pos += secondary
        return t

    def stacks(self) -> list[list[int]]:
        return [self.center, *self.primaries, *self.secondaries]

    def cards(self) -> list[int]:
        return [c for stack in self.stacks() for c in stack]

    def __len__(self) -> int:
        return len(self.center) + sum(map(len, self.primaries)) + sum(map(len, self.secondaries))

    def exposed_stacks(self) -> list[list[int]]:
        """The non-empty stacks whose top card is exposed."""
        out = [self.center] if self.center else []
        sec = self.secondaries
        for i, stack in enumerate(self.primaries):
            if stack and not sec[i - 1] and not sec[i]:
                out.append(stack)
        out.extend(s for s in sec if s)
        return out

    def exposed(self) -> list[int]:
        """The exposed cards (tops of exposed stacks)."""
        return [s[-1] for s in self.exposed_stacks()]

    def take(self, card: int) -> bool:
        """Remove ``card`` if it is exposed here; whether it was."""
        for stack in self.exposed_stacks():
            if stack[-1] == card:
                stack.pop()
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

    def _next_stack(self) -> list[int] | None:
        center, primary, secondary = self.capacity  # type: ignore[misc]
        if len(self.center) < center:
            return self.center
        for stack in self.primaries:
            if len(stack) < primary:
                return stack
        for stack in self.secondaries:
            if len(stack) < secondary:
                return stack
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
    center, primary, secondary = capacity
    return center + 8 * primary + 8 * secondary
