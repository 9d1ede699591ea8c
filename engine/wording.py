"""How messages and table titles say things: counts with their nouns, sizes, values cut short,
"did you mean" hints. One place, so that every message says a count or a size the same way."""

from __future__ import annotations

from typing import Iterable


def did_you_mean(wanted: str, known: Iterable[str], cutoff: float) -> str:
    """The "; did you mean 'x' or 'y'?" hint for an unknown name (empty if nothing is close): a
    name differing only in case first (``5s`` for ``5S``), then the closest by similarity, three names
    at most in all."""
    import difflib

    known = list(known)
    close = [n for n in known if n.lower() == wanted.lower()][:1]
    close += [n for n in difflib.get_close_matches(wanted, known, n=3, cutoff=cutoff) if n not in close]
    return f"; did you mean {' or '.join(repr(c) for c in close[:3])}?" if close else ""


def counted(count: int, noun: str) -> str:
    """``"1 player"``, ``"2,000 games"``: a count and its noun, for messages and titles."""
    return f"{count:,} {noun}" if count == 1 else f"{count:,} {noun}s"


def spans(numbers: Iterable[int]) -> str:
    """``"2, 4-6"``: ascending numbers (player counts) as runs, for a message naming many."""
    runs: list[list[int]] = []
    for n in numbers:
        if runs and n == runs[-1][1] + 1:
            runs[-1][1] = n
        else:
            runs.append([n, n])
    return ", ".join(str(a) if a == b else f"{a}-{b}" for a, b in runs)


def clip(value: object, limit: int = 40) -> str:
    """``repr(value)`` cut short for a message: a seed of thousands of digits is no one line."""
    shown = repr(value)
    return shown if len(shown) <= limit else shown[:limit - 4] + "...'"


def byte_size(size: int) -> str:
    """``"1 MiB"``, ``"64 KiB"``, ``"512 bytes"``: an input limit as a message names it."""
    for shift, unit in ((20, "MiB"), (10, "KiB")):
        if size >= 1 << shift and size % (1 << shift) == 0:
            return f"{size >> shift} {unit}"
    return counted(size, "byte")
