"""Exceptions that carry a one-line message meant for the user.

The CLI prints ``str(error)`` of any :class:`CardgamesError` on stderr and exits 1 (2 for an
:class:`OptionConflictError`, a usage error), so the message must say what went wrong and where
(file and line, or step number) on its own.
"""

from __future__ import annotations

from .wording import clip, did_you_mean


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


class UnknownNameError(CardgamesError):
    """An unknown game, variant, deck or agent id, with a "did you mean" hint; with no close name,
    a short list of names is given whole (a game's agents, its variants), so that nobody has to
    guess them, and that none is known when none is."""

    SHOWN = 12  # more names than this (the games, the decks) are left to `cardgames list`
    LISTED = {"game": "cardgames list", "deck": "cardgames list --kind decks",
              "variant": "cardgames list --kind variants"}

    def __init__(self, kind: str, name: str, known: list[str], where: str = "", note: str = ""):
        hint = did_you_mean(name, known, 0.5)
        self.kind, self.guessed = kind, bool(hint)
        listing = self.LISTED.get(kind)
        if not hint and known and (len(known) <= self.SHOWN or listing is None):
            hint = f"; known: {', '.join(sorted(known))}"
        elif not hint and known:
            hint = f" ({len(known)} known: `{listing}` shows them)"
        elif not known:  # a game no variant applies to: no name to correct to (a walkthrough found no hint at all)
            hint = " (none known)"
        super().__init__(f"unknown {kind} {clip(name, 60)}{where}{hint}{note}")


class OptionConflictError(CardgamesError):
    """Options that cannot be given together: a usage error, so the CLI exits 2 (as Click does)."""


class IllegalActionError(CardgamesError):
    """An action that is not legal in the current state."""


class LogError(CardgamesError):
    """A game log that cannot be read, or that does not replay."""
