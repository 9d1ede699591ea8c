"""PySolFC's game numbers: turn a number such as ``"ms1"`` or ``"123456"`` into its deal order.

Implemented from the behaviour described in the project's reference notes (no PySolFC code):
the Microsoft FreeCell LCG for ``ms<digits>`` and for plain numbers below 32000, CPython's
Mersenne Twister (MT19937, :class:`random.Random`'s ``random()``, whose sequence for an integer
seed the Python documentation guarantees never to change) for larger numbers. Cards are shuffled
with Fisher-Yates from the end, the same loop as the native generator.
"""

from __future__ import annotations

import random
import re
from typing import Callable

from .errors import CardgamesError
from .rng import fisher_yates
from .wording import clip

#: The decks whose card list is in PySolFC's order (suits clubs, spades, hearts, diamonds; ace to king), so
#: that its game numbers deal what PySolFC deals: the pairing games on them take ``--rng pysolfc``.
DECKS = frozenset({"french"})
_MS_MAX = 2**33 - 1


def normalize(number: str | int) -> str:
    """Canonical text of a game number: ``"#ms-1"`` -> ``"ms1"``; invalid numbers raise."""
    text = str(number)
    if text.endswith("L"):  # PySolFC's order: the L first, so "7L " keeps its l and is refused
        text = text[:-1]
    text = re.sub(r"[\s#\-_.,]", "", text.lower())
    # leading zeros do not count; 20 significant digits are far beyond any number PySolFC deals
    match = re.fullmatch(r"(ms)?0*(\d{1,20})", text, re.ASCII)
    if not match:
        raise CardgamesError(f"invalid PySolFC game number {clip(number)}: expected digits or ms<digits> "
                             "(at most 20 significant digits)")
    value = int(match.group(2))
    if match.group(1):
        if not 1 <= value <= _MS_MAX:
            raise CardgamesError(f"invalid PySolFC game number {clip(number)}: ms numbers run 1..2**33-1")
        return f"ms{value}"
    if value == 0:
        raise CardgamesError(f"invalid PySolFC game number {clip(number)}: 0 is not a game")
    return str(value)


class _Lcg:
    """The Microsoft FreeCell LCG as PySolFC extends it to 33-bit seeds."""

    def __init__(self, seed: int):
        self.seed = seed
        self.x = seed if seed < 2**32 else seed - 2**32

    def randint(self, a: int, b: int) -> int:
        self.x = (self.x * 214013 + 2531011) % 2**33
        if self.seed < 2**31:
            r = (self.x >> 16) & 0x7FFF
        elif self.seed < 2**32:
            r = ((self.x >> 16) & 0x7FFF) | 0x8000
        else:
            r = ((self.x >> 16) & 0xFFFF) + 1
        return a + r % (b + 1 - a)


class _Mt:
    """MT19937 seeded like ``random.Random(N)``; only ``random()`` is used, never randint."""

    def __init__(self, seed: int):
        self.random = random.Random(seed).random

    def randint(self, a: int, b: int) -> int:
        return a + int(self.random() * (b + 1 - a))


def generator(number: str | int) -> Callable[[int], int]:
    """A ``below(n)`` function drawing from the generator PySolFC uses for ``number``."""
    text = normalize(number)
    if text.startswith("ms"):
        rng = _Lcg(int(text[2:]))
    else:
        value = int(text)
        rng = _Lcg(value) if value < 32000 else _Mt(value)
    randint = rng.randint
    return lambda n: randint(0, n - 1)


def shuffle(items: list, number: str | int) -> None:
    """Shuffle ``items`` (PySolFC's card list order) as PySolFC does for ``number``."""
    fisher_yates(items, generator(number))
