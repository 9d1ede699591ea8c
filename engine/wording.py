"""How messages and table titles say things: counts with their nouns, sizes, values cut short,
"did you mean" hints. One place, so that every message says a count or a size the same way."""

from __future__ import annotations

from typing import Iterable, Sequence


def close_names(wanted: str, known: Iterable[str], cutoff: float) -> list[str]:
    """The known names an unknown one may be a slip for: a name differing only in case first (``5s`` for
    ``5S``), then the closest by similarity, three at most in all."""
    import difflib

    known = list(known)
    close = [n for n in known if n.lower() == wanted.lower()][:1]
    close += [n for n in difflib.get_close_matches(wanted, known, n=3, cutoff=cutoff) if n not in close]
    return close[:3]


def did_you_mean(wanted: str, known: Iterable[str], cutoff: float) -> str:
    """The "; did you mean 'x' or 'y'?" hint for an unknown name (empty if nothing is close), of
    :func:`close_names`."""
    close = close_names(wanted, known, cutoff)
    return f"; did you mean {' or '.join(repr(c) for c in close)}?" if close else ""


def counted(count: int, noun: str) -> str:
    """``"1 player"``, ``"2,000 games"``: a count and its noun, for messages and titles."""
    return f"{count:,} {noun}" if count == 1 else f"{count:,} {noun}s"


def players_named(seats: Iterable[int]) -> str:
    """``"player 2"``, ``"players 0 and 2"``, ``"players 0, 1 and 3"``: seats as narration names them."""
    seats = list(seats)
    if len(seats) == 1:
        return f"player {seats[0]}"
    return f"players {', '.join(map(str, seats[:-1]))} and {seats[-1]}"


def wins_phrase(groups: Sequence[Sequence[int]], lead: bool = False) -> str:
    """Who won, each winner a group of seats (a lone seat, or a team): "player 1 wins", "players 0 and 2
    win" (one team), "players 1 and 2 share the win", "players 0 and 2, players 1 and 3 share the win";
    with ``lead``, of a game stopped early, "leads", "lead", "share the lead"; "nobody wins" for a game with no
    winner (a drawn game of a contributor's: the default narration failed on it)."""
    noun = "lead" if lead else "win"
    if not groups:
        return f"nobody {noun}s"
    if len(groups) == 1:
        return f"{players_named(groups[0])} {noun}{'s' if len(groups[0]) == 1 else ''}"
    if all(len(group) == 1 for group in groups):
        return f"{players_named([group[0] for group in groups])} share the {noun}"
    return f"{', '.join(players_named(group) for group in groups)} share the {noun}"


def spans(numbers: Iterable[int]) -> str:
    """``"2, 4-6"``: ascending numbers (player counts) as runs, for a message naming many."""
    runs: list[list[int]] = []
    for n in numbers:
        if runs and n == runs[-1][1] + 1:
            runs[-1][1] = n
        else:
            runs.append([n, n])
    return ", ".join(str(a) if a == b else f"{a}-{b}" for a, b in runs)


def written(value: object) -> str:
    """A config's scalar as YAML writes it (true, null, 'text'), cut short: not as Python shows it (True,
    None). A list or mapping keeps Python's spelling inside; a log's values are :func:`as_logged`."""
    if value is None or isinstance(value, bool):
        return {None: "null", True: "true", False: "false"}[value]
    return clip(value)


def as_logged(value: object, limit: int | None = 120) -> str:
    """A JSON file's value (a log's, an input line's) as the file writes it (``{"row":14,"type":"play"}``,
    true, null, "text"), cut short: a message quotes a file in its own spelling. A mapping whose keys cannot
    be sorted (text and numbers mixed) or written (tuples) is shown as Python shows it; a value JSON has no
    form for (a set, a Decimal) as its text. Values read from JSON have neither. ``limit`` None: whole."""
    import json

    try:
        shown = json.dumps(value, ensure_ascii=False, separators=(",", ":"), sort_keys=True, default=str)
    except (TypeError, ValueError):
        shown = repr(value)
    return shown if limit is None else cut_short(shown, limit)


def cut_short(text: str, limit: int) -> str:
    """``text``, or its first ``limit`` - 3 characters and "...": a value of thousands of characters in a
    message is no one line."""
    return text if len(text) <= limit else text[:limit - 3] + "..."


# What must not reach a terminal raw in a one-line message: line breaks (a file name may hold one),
# the other control characters (ESC and the 8-bit CSI start terminal sequences) and Unicode's line and
# paragraph separators, which some viewers break lines at.
_UNPRINTABLE = {c: f"\\x{c:02x}" for c in [*range(0x20), *range(0x7f, 0xa0)]}
_UNPRINTABLE |= {ord("\n"): "\\n", ord("\t"): "\\t", 0x2028: "\\u2028", 0x2029: "\\u2029"}


def one_line(text: str) -> str:
    """``text`` with line breaks and control characters escaped, so that a message stays one line."""
    return text.translate(_UNPRINTABLE)


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
