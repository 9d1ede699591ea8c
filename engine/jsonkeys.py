"""JSON read with its keys as written, to find a key one object gives twice.

orjson, which reads every JSON file here, keeps the last value of a key given twice without a word, and
another reader may keep the first: a file read as data (a game log, a ``score --input`` line) that gives a
key twice would mean one thing here and another there, so it is refused. The standard library hands its
object hook every pair, so the text is read again by it, once orjson has found it valid and bounded its
depth (the standard library's reader recurses: a deeper text raises RecursionError).
"""

from __future__ import annotations

import json
from typing import Any, Iterator

from .wording import as_logged


class Keyed(dict):
    """A JSON object as :func:`read_keyed` reads it: ``twice`` is the first key it gives twice, if any."""

    twice: str | None = None


def _keyed(pairs: list[tuple[str, Any]]) -> Keyed:
    found = Keyed(pairs)
    if len(found) < len(pairs):
        seen: set[str] = set()
        for key, _ in pairs:
            if key in seen:
                found.twice = key
                break
            seen.add(key)
    return found


#: The words for a line nested deeper than a reader goes (orjson's limit, or the standard library's recursion).
TOO_DEEP = "values nested too deeply"


def given_twice(key: str) -> str:
    """The words for a key some object gives twice, as every reader says them."""
    return f"key {as_logged(key, 40)} given twice"


def walk(value: Any) -> Iterator[tuple[Any, int]]:
    """``value`` and every value inside it, each with its depth (``value``'s is 1), walked without
    recursion, so that a value nested thousands of levels deep is measured, not a crash; a caller
    that stops early leaves the rest unvisited."""
    stack = [(value, 1)]
    while stack:
        item, depth = stack.pop()
        yield item, depth
        if isinstance(item, (list, dict)):
            stack.extend((child, depth + 1) for child in (item.values() if isinstance(item, dict) else item))


def first_twice(value: Any) -> str | None:
    """A key that some object in ``value`` (as :func:`read_keyed` reads it) gives twice, the first the walk
    meets, or None."""
    return next((item.twice for item, _ in walk(value) if isinstance(item, Keyed) and item.twice is not None), None)


def read_keyed(raw: bytes | str) -> Any:
    """``raw`` (JSON orjson has read: valid, and no deeper than its limit) with each object a :class:`Keyed`."""
    return json.loads(raw, object_pairs_hook=_keyed)
