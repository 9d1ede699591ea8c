"""Exceptions that carry a one-line message meant for the user.

The CLI prints ``str(error)`` of any :class:`CardgamesError` on stderr and exits 1 (2 for an
:class:`OptionConflictError`, a usage error), so the message must say what went wrong and where
(file and line, or step number) on its own.
"""

from __future__ import annotations

from typing import Iterable


class CardgamesError(Exception):
    """Base of every error the user can cause: bad config, bad input, bad log."""


class ConfigError(CardgamesError):
    """A config file is unreadable or does not satisfy its schema."""

    def __init__(self, message: str, path: str | None = None, line: int | None = None):
        self.message = message
        self.path = path
        self.line = line
        super().__init__(self.located())

    def located(self) -> str:
        if self.path is None:
            return self.message
        if self.line is None:
            return f"{self.path}: {self.message}"
        return f"{self.path}:{self.line}: {self.message}"


def did_you_mean(wanted: str, known: Iterable[str], cutoff: float) -> str:
    """The "; did you mean 'x' or 'y'?" hint for an unknown name (empty if nothing is close): a
    name differing only in case first (``5s`` for ``5S``), then up to three by similarity."""
    import difflib

    known = list(known)
    close = [n for n in known if n.lower() == wanted.lower()][:1]
    close += [n for n in difflib.get_close_matches(wanted, known, n=3, cutoff=cutoff) if n not in close]
    return f"; did you mean {' or '.join(repr(c) for c in close[:3])}?" if close else ""


class UnknownNameError(CardgamesError):
    """An unknown game, variant, deck or agent id, with a "did you mean" hint; with no close name,
    a short list of names is given whole (a game's agents, its variants), so that nobody has to
    guess them."""

    SHOWN = 12  # more names than this (the games, the decks) are left to `cardgames list`
    LISTED = {"game": "cardgames list", "deck": "cardgames list --kind decks",
              "variant": "cardgames list --kind variants"}

    def __init__(self, kind: str, name: str, known: list[str], where: str = ""):
        hint = did_you_mean(name, known, 0.5)
        listing = self.LISTED.get(kind)
        if not hint and known and (len(known) <= self.SHOWN or listing is None):
            hint = f"; known: {', '.join(sorted(known))}"
        elif not hint and known:
            hint = f" ({len(known)} known: `{listing}` shows them)"
        super().__init__(f"unknown {kind} {name!r}{where}{hint}")


class OptionConflictError(CardgamesError):
    """Options that cannot be given together: a usage error, so the CLI exits 2 (as Click does)."""


class IllegalActionError(CardgamesError):
    """An action that is not legal in the current state."""


class LogError(CardgamesError):
    """A game log that cannot be read, or that does not replay."""


def counted(count: int, noun: str) -> str:
    """``"1 player"``, ``"2,000 games"``: a count and its noun, for messages and titles."""
    return f"{count:,} {noun}" if count == 1 else f"{count:,} {noun}s"


def clip(value: object, limit: int = 40) -> str:
    """``repr(value)`` cut short for a message: a seed of thousands of digits is no one line."""
    shown = repr(value)
    return shown if len(shown) <= limit else shown[:limit - 4] + "...'"
