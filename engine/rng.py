"""The project's seeded random generator, ``shake128-ctr/1``, and its shuffle.

Why not :mod:`random`: its seeding and its bounded-integer algorithms have changed between
Python versions, and a seed must give the same deal on every machine and version. The
algorithm below depends only on SHAKE-128 (FIPS 202, the same bytes everywhere) and on
integer arithmetic.

The algorithm, version 1:

* A stream is named by a seed (an integer 0 .. 2**64-1, or a text game number) and a stream
  label (``"deal"``, ``"agent/0"``, ...). Its key is
  ``b"cardgames/1\\0" + label + b"\\0" + seed`` with an integer seed as 8 little-endian bytes
  and a text seed as its UTF-8 bytes preceded by ``b"s:"``.
* Block ``k`` (k = 0, 1, ...) is ``SHAKE-128(key + k as 8 little-endian bytes)``, 512 bytes
  long, read as 64 unsigned 64-bit little-endian words. The stream is the blocks' words in order.
* ``below(n)`` draws a word ``x`` and returns ``(x * n) >> 64``, rejecting (and redrawing)
  when ``(x * n) mod 2**64 < 2**64 mod n``: Lemire's method, exactly uniform.
* ``shuffle(L)`` is Fisher-Yates from the end: for i = len(L)-1 down to 1, swap L[i] and
  L[below(i + 1)].

Streams are independent by construction, so each agent has its own stream and changing an
agent never changes the deal.
"""

from __future__ import annotations

import hashlib
import struct
from typing import Callable, MutableSequence

RNG_NAME = "shake128-ctr/1"
#: Each ``--rng`` mode's generator as logs and result files record it: this module's, or PySolFC's deals.
GENERATORS = {"native": RNG_NAME, "pysolfc": "pysolfc"}
SEED_MAX = 2**64 - 1
SEEDS = "0..2**64-1"  # the range of seeds, as messages and help name it

_WORDS = 64
_UNPACK = struct.Struct(f"<{_WORDS}Q").unpack
_MASK = 2**64 - 1


def seed_digits(digits: str) -> int | None:
    """The number ASCII decimal ``digits`` write, or None if it has more digits than any seed: leading
    zeros do not count (``int()`` counts them towards the 4,300 digits it refuses over)."""
    significant = digits.lstrip("0")
    return int(significant or "0") if len(significant) <= len(str(SEED_MAX)) else None


def check_seed(seed: int) -> int:
    """Return ``seed`` if it is a valid native seed, else raise ValueError saying why."""
    if isinstance(seed, bool) or not isinstance(seed, int):
        raise ValueError(f"seed must be an integer, not {seed!r}")
    if not 0 <= seed <= SEED_MAX:
        raise ValueError(f"seed {seed} is out of range {SEEDS}")
    return seed


def stream_key(seed: int | str, label: str) -> bytes:
    """The key that names one stream of one seed (see the module docstring)."""
    if isinstance(seed, str):
        seed_bytes = b"s:" + seed.encode()
    else:
        seed_bytes = check_seed(seed).to_bytes(8, "little")
    return b"cardgames/1\0" + label.encode() + b"\0" + seed_bytes


class Rng:
    """One stream of ``shake128-ctr/1``. Cheap to create: nothing is hashed before a draw."""

    __slots__ = ("_key", "_block", "_words", "_pos")

    def __init__(self, seed: int | str, label: str = "deal"):
        self._key = stream_key(seed, label)
        self._block = 0
        self._words: tuple[int, ...] = ()
        self._pos = _WORDS

    def _refill(self) -> None:
        digest = hashlib.shake_128(self._key + self._block.to_bytes(8, "little")).digest(8 * _WORDS)
        self._words = _UNPACK(digest)
        self._block += 1
        self._pos = 0

    def next64(self) -> int:
        """The next 64-bit word of the stream."""
        if self._pos == _WORDS:
            self._refill()
        word = self._words[self._pos]
        self._pos += 1
        return word

    def below(self, n: int) -> int:
        """A uniform integer in ``0 .. n-1`` (``n`` >= 1)."""
        product = self.next64() * n
        if (product & _MASK) < n:
            threshold = (2**64 - n) % n
            while (product & _MASK) < threshold:
                product = self.next64() * n
        return product >> 64

    def shuffle(self, items: MutableSequence) -> None:
        """Shuffle in place: :func:`fisher_yates` with :meth:`below`, its draws inlined.

        Dealing is on every game's path, so the loop reads words straight from the block
        instead of calling ``below`` per card; it consumes the stream exactly as
        ``fisher_yates(items, self.below)`` does (a test checks this).
        """
        pos, words = self._pos, self._words
        for i in range(len(items) - 1, 0, -1):
            if pos == _WORDS:
                self._refill()
                pos, words = 0, self._words
            n = i + 1
            product = words[pos] * n
            pos += 1
            if (product & _MASK) < n:  # rare: let below() finish Lemire's rejection step
                self._pos = pos
                threshold = (2**64 - n) % n
                while (product & _MASK) < threshold:
                    product = self.next64() * n
                pos, words = self._pos, self._words
            j = product >> 64
            items[i], items[j] = items[j], items[i]
        self._pos = pos


def fisher_yates(items: MutableSequence, below: Callable[[int], int]) -> None:
    """Shuffle ``items`` in place from the end: for i = n-1 .. 1 swap items[i], items[below(i+1)].

    Shared by the native generator and the PySolFC emulation, which differ only in ``below``.
    """
    for i in range(len(items) - 1, 0, -1):
        j = below(i + 1)
        items[i], items[j] = items[j], items[i]
