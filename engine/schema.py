"""A small declarative schema for config files, reporting errors as ``file:line: message``.

Each config kind (deck, game, variant) and each engine's ``options`` block is described by a
dict of :class:`Field`. Defaults never live here: every value a game uses is written in its
YAML file, so that the rules' numbers and switches are data in exactly one place.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any, Callable

from .errors import ConfigError
from .wording import clip, written
from .yamlfile import Document, where

_TYPE_NAMES = {int: "an integer", float: "a number", str: "a string", bool: "true or false",
               list: "a list", dict: "a mapping", type(None): "null"}


@dataclass(frozen=True)
class Field:
    """One key of a mapping: its allowed types, whether it is required, and what it means."""

    types: tuple[type, ...]
    doc: str = ""
    required: bool = True
    choices: tuple[Any, ...] | None = None
    items: "Field | None" = None
    fields: "dict[str, Field] | None" = None
    open: bool = False
    #: A check of the whole value: None, or what is wrong with it, either as a message (said at the
    #: field's line) or as (keys below the field, message), said at the line of the part at fault.
    check: Callable[[Any], str | tuple[tuple, str] | None] | None = None
    #: Whether the keys are player counts, one row each (Torqu's ``deal``): a variant's row for a count none
    #: of its games plays is refused by ``validate``.
    by_players: bool = False

    def describe(self) -> str:
        return " or ".join(_TYPE_NAMES.get(t, t.__name__) for t in self.types)


def _type_ok(value: Any, types: tuple[type, ...]) -> bool:
    if isinstance(value, bool):
        return bool in types
    if isinstance(value, int) and float in types:
        return True
    return isinstance(value, types)


def check_mapping(value: Any, fields: dict[str, Field], doc: Document, keypath: tuple = (),
                  open: bool = False, partial: bool = False) -> list[ConfigError]:
    """Check a mapping against ``fields``; return every error found (empty when valid). With
    ``partial``, the mapping is an overlay (a variant's): a key it leaves out is the base's, so none
    is missing (see :func:`check_value`)."""
    if not isinstance(value, dict):
        return [doc.error(keypath, f"{where(keypath)} must be a mapping")]
    errors, misspelt = [], set()
    for key in value:
        if key in fields:
            continue
        # in an open mapping, a key of its own that a misspelt known key would pass for (not one a level down: its own)
        close = close_key(key, fields, below=not open)
        if close is not None:
            misspelt.add(close)  # said here, not again as missing
            own = " (keys of your own may go here, but not one this like a known one)" if open else ""
            errors.append(doc.key_error(keypath + (key,),
                                        f"unknown key {clip(key)} in {where(keypath)}: did you mean {close!r}?{own}"))
        elif not open:
            known = ", ".join(sorted(fields))
            errors.append(doc.key_error(keypath + (key,),
                                        f"unknown key {clip(key)} in {where(keypath)} (known: {known})"))
    missing = [] if partial else [key for key, spec in fields.items()
                                  if spec.required and key not in value and key not in misspelt]
    if missing:  # all in one error: a designer's new file often lacks several
        keys = ", ".join(repr(key) for key in missing)
        errors.append(doc.error(keypath, f"missing key{'s' * (len(missing) > 1)} {keys} in {where(keypath)}"))
    for key, spec in fields.items():
        if key in value:
            errors.extend(check_value(value[key], spec, doc, keypath + (key,), partial))
    return errors


def close_key(key: Any, fields: dict[str, Field], below: bool = True) -> str | None:
    """The known key ``key`` is most likely a misspelling of (``fase`` for ``face``), or, with ``below``, the
    key one level down it is written a level too high for (``flush`` for ``points.flush``: a designer's
    finding), or None."""
    import difflib

    lower = next((f"{name}.{key}" for name, spec in fields.items() if spec.fields and key in spec.fields), None)
    if below and lower is not None:  # the very key, before a look-alike here ('fifteen' is no 'fifteen_sum')
        return lower
    close = difflib.get_close_matches(str(key), list(fields), n=1, cutoff=0.75)
    return close[0] if close else None


def check_value(value: Any, spec: Field, doc: Document, keypath: tuple, partial: bool = False) -> list[ConfigError]:
    """Check one value against its field description. With ``partial``, a mapping is an overlay
    that merges into another: its keys are checked, but neither the keys it leaves out nor the
    field's own ``check`` of the whole mapping, which the merged value must pass instead."""
    choices = None if spec.choices is None else ", ".join(repr(c) for c in spec.choices)
    if not _type_ok(value, spec.types):  # a choice's wrong type names the choices too (a designer's first_player: 1)
        wanted = spec.describe() + (f", one of {choices}" if choices else "")
        return [doc.error(keypath, f"{where(keypath)} must be {wanted}, not {written(value)}")]
    if spec.choices is not None and value not in spec.choices:
        return [doc.error(keypath, f"{where(keypath)} is {written(value)}; expected one of {choices}")]
    errors: list[ConfigError] = []
    if isinstance(value, list) and spec.items is not None:
        for i, item in enumerate(value):
            errors.extend(check_value(item, spec.items, doc, keypath + (i,)))
    if isinstance(value, dict) and spec.fields is not None:
        errors.extend(check_mapping(value, spec.fields, doc, keypath, spec.open, partial))
    if not errors and spec.check is not None and not (partial and isinstance(value, dict)):
        problem = spec.check(value)
        if problem:
            below, text = problem if isinstance(problem, tuple) else ((), problem)
            errors.append(doc.error(keypath + below, f"{where(keypath)}: {text}"))
    return errors


def positive(value: Any) -> str | None:
    """A field's check: above zero (an unset field passes; whether it may be unset is the field's own say)."""
    return None if value is None or value > 0 else "must be positive"


def non_negative(value: Any) -> str | None:
    """A field's check: zero or more (an unset field passes)."""
    return None if value is None or value >= 0 else "must not be negative"


_KEBAB = re.compile(r"[a-z0-9]+(?:-[a-z0-9]+)*", re.ASCII)


def kebab_case(value: Any) -> str | None:
    """Ids are typed on command lines and built into others (``strict-{game}``): lower-case
    letters and digits in words joined by single hyphens."""
    return None if _KEBAB.fullmatch(value) else "must be kebab-case (lower-case letters and digits joined by hyphens)"


def player_count(key: Any) -> int | None:
    """The player count a table's key names (a Torqu ``deal`` row's, a ``copies_by_players`` threshold's), or
    None: digits with no leading zero ("04" would be a second row for 4 players), from 1 to ``MAX_PLAYERS``."""
    from . import MAX_PLAYERS

    text = str(key)
    if isinstance(key, bool) or not re.fullmatch(r"[1-9][0-9]{0,2}", text) or int(text) > MAX_PLAYERS:
        return None
    return int(text)


def is_names(value: Any) -> bool:
    """Whether ``value`` is a list of names (strings): a config's, frozen to a tuple, or a JSON file's."""
    return isinstance(value, (list, tuple)) and all(isinstance(name, str) for name in value)


def one_token(value: Any) -> str | None:
    """Suit and rank ids and card names are what a card is called: on the command line (``--cards``), in
    logs, and as one token of a drawn deal, where an empty or blank one names nothing, a space at an end
    shifts the names beside it, and a newline breaks the drawing's lines."""
    if not value.strip():
        return "must not be empty or blank"
    if value != value.strip() or not value.isprintable():
        return "must have no space at either end and no control character (a newline, a tab)"
    return None


def between(low: int, high: int) -> Callable[[Any], str | None]:
    """A check that a number lies in ``low..high`` (configs are data a designer edits: a player
    count of 10**11 must be an error, not an endless loop over the player counts)."""
    def check(value: Any) -> str | None:
        return None if value is None or low <= value <= high else f"must be {low}..{high}"

    return check


INT = (int,)
OPT_INT = (int, type(None))
STR = (str,)
BOOL = (bool,)
LIST = (list,)
OPT_LIST = (list, type(None))
MAP = (dict,)
