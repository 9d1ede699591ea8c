"""JSON read with its keys as written, to find a key one object gives twice.

orjson, which reads every JSON file here, keeps the last value of a key given twice without a word, and
another reader may keep the first: a file read as data (a game log, a ``score --input`` line) that gives a
key twice would mean one thing here and another there, so it is refused. The standard library hands its
object hook every pair, so the text is read again by it, once orjson has found it valid and bounded its
depth (the standard library's reader recurses: a deeper text raises RecursionError).
"""

from __future__ import annotations

import json
from typing import Any

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


def first_twice(value: Any) -> str | None:
    """The first key that some object in ``value`` (as :func:`read_keyed` reads it) gives twice, or None: walked
    without recursion, as deep as the reader went."""
    stack = [value]
    while stack:
        item = stack.pop()
        if isinstance(item, dict):
            if isinstance(item, Keyed) and item.twice is not None:
                return item.twice
            stack.extend(item.values())
        elif isinstance(item, list):
            stack.extend(item)
    return None


def read_keyed(raw: bytes | str) -> Any:
    """``raw`` (JSON orjson has read: valid, and no deeper than its limit) with each object a :class:`Keyed`."""
    return json.loads(raw, object_pairs_hook=_keyed)
