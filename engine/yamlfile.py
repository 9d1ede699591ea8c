"""Reading YAML config files safely, keeping the line of every value for error messages.

Configs are small, hand-written files. We refuse what they never need and what makes a parser
slow or unsafe: files over 1 MiB (checked before parsing), aliases (the "billion laughs" bomb
expands through them; an anchor no alias uses changes nothing and is let be), duplicate keys
(silently last-wins in PyYAML), and plain numbers that YAML 1.1 reads in another base than the one
they look written in (``010`` is 8, ``1:30`` is 90).
"""

from __future__ import annotations

import math
import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from .errors import ConfigError
from .wording import byte_size, cut_short, written

MAX_BYTES = 1 << 20


@dataclass
class Document:
    """A parsed YAML file: its data, the line (1-based) of each value by key path, and of each mapping's key
    (a block value starts on the line below its key)."""

    path: str
    data: Any
    lines: dict[tuple, int] = field(default_factory=dict)
    key_lines: dict[tuple, int] = field(default_factory=dict)

    def line(self, keypath: tuple) -> int | None:
        """The line of the value at ``keypath``, or of its nearest ancestor that has one."""
        while keypath:
            if keypath in self.lines:
                return self.lines[keypath]
            keypath = keypath[:-1]
        return self.lines.get((), None)

    def error(self, keypath: tuple, message: str) -> ConfigError:
        return ConfigError(message, self.path, self.line(keypath))

    def key_error(self, keypath: tuple, message: str) -> ConfigError:
        """An error about the key at the end of ``keypath`` itself (unknown, misplaced): at the key's line."""
        return ConfigError(message, self.path, self.key_lines.get(keypath) or self.line(keypath))


# Plain numbers YAML 1.1 (PyYAML) reads in a base a designer rarely means: 010 is 8 and 1:30 is 90. A
# leading zero before a point (00.5) or none at all is decimal, and is let be.
_OLD_NUMBER = re.compile(r"[-+]?(0[0-9_]+|[0-9][0-9_]*(:[0-5]?[0-9])+(\.[0-9_]*)?)")
# The scalars a config may hold: what JSON has (YAML's dates and binary are refused).
SCALARS = (str, int, float, bool, type(None))
# Integers a config may hold: what a log (JSON through orjson) can carry, seeds up to 2**64-1 included.
INT_RANGE = (-(1 << 63), (1 << 64) - 1)


def read_document(path: str | Path) -> Document:
    """Read and parse one YAML file into a :class:`Document`; raise ConfigError on any problem."""
    path = Path(path)
    label = str(path)
    try:
        with open(path, "rb") as handle:
            raw = handle.read(MAX_BYTES + 1)
    except OSError as exc:
        raise ConfigError(f"cannot read file: {exc.strerror or exc}", label) from None
    if len(raw) > MAX_BYTES:
        raise ConfigError(f"file is larger than {byte_size(MAX_BYTES)}; refusing to parse it", label)
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError as exc:
        line = raw.count(b"\n", 0, exc.start) + 1
        raise ConfigError(f"not UTF-8 text (byte {exc.start})", label, line) from None
    return parse_document(text, label)


def _char_at(text: str, mark: Any) -> str:
    """The character a YAML error's mark points at ("" past a line's end)."""
    lines = text.split("\n")
    row = lines[mark.line] if mark.line < len(lines) else ""
    return row[mark.column:mark.column + 1]


def parse_document(text: str, label: str = "<string>") -> Document:
    """Parse YAML text into a :class:`Document`."""
    import yaml

    loader_class = getattr(yaml, "CSafeLoader", yaml.SafeLoader)
    try:
        node = yaml.compose(text, Loader=loader_class)
    except yaml.MarkedYAMLError as exc:
        mark = exc.problem_mark or exc.context_mark
        line = mark.line + 1 if mark is not None else None
        problem = exc.problem or exc.context or "invalid YAML"
        if exc.problem_mark is not None and _char_at(text, exc.problem_mark) == "\t" and "tab" not in problem:
            problem += " (a tab: YAML indents with spaces)"  # the reader names the tab in some places only
        if exc.problem and exc.context and exc.context_mark is not None and exc.context_mark.line + 1 != line:
            # an unclosed quote is found at the end of the file: say where it opened
            problem += f" ({exc.context} on line {exc.context_mark.line + 1})"
        raise ConfigError(f"YAML syntax error: {problem}", label, line) from None
    except yaml.YAMLError as exc:  # e.g. a NUL byte: the reader's error, marked with a position
        position = getattr(exc, "position", None)  # a ReaderError's index into the text
        line = None if position is None else text.count("\n", 0, position) + 1
        reason = getattr(exc, "reason", None) or "invalid YAML"
        raise ConfigError(f"YAML error: {_squeezed(str(reason))}", label, line) from None
    doc = Document(label, None)
    if node is None:
        raise ConfigError("file is empty", label, 1)
    try:
        doc.data = _convert(node, (), doc, set(), yaml.constructor.SafeConstructor())
    except _AliasMet:
        raise ConfigError("YAML aliases (*name) are not allowed in configs: write the value out", label,
                          _first_alias_line(text, loader_class)) from None
    return doc


class _AliasMet(Exception):
    """An alias met while converting. The composer hands it over as the anchored node itself, whose
    line is the anchor's: :func:`parse_document` finds the alias's own in the parser's events."""


def _first_alias_line(text: str, loader_class: Any) -> int | None:
    """The line of the first alias in ``text``: the one :func:`_convert` meets first, as it visits
    the nodes in the file's order and an alias follows its anchor."""
    import yaml

    for event in yaml.parse(text, Loader=loader_class):
        if isinstance(event, yaml.AliasEvent):
            return event.start_mark.line + 1
    return None


def _convert(node: Any, keypath: tuple, doc: Document, seen: set[int], constructor: Any) -> Any:
    import yaml

    if id(node) in seen:  # the composer hands an alias over as the anchored node itself
        raise _AliasMet
    seen.add(id(node))
    doc.lines[keypath] = node.start_mark.line + 1
    if isinstance(node, yaml.MappingNode):
        result: dict[str, Any] = {}
        for key_node, value_node in node.value:
            line = key_node.start_mark.line + 1
            if not isinstance(key_node, yaml.ScalarNode):
                raise ConfigError("mapping keys must be plain scalars", doc.path, line)
            if key_node.tag == "tag:yaml.org,2002:merge":
                raise ConfigError("YAML merge keys (<<) are not allowed in configs", doc.path, line)
            key = _scalar(key_node, doc, constructor)
            key = written(key) if key is None or isinstance(key, bool) else str(key)  # `null:` is no key 'None'
            if key in result:
                raise ConfigError(f"duplicate key {key!r}", doc.path, line)
            doc.key_lines[keypath + (key,)] = line
            result[key] = _convert(value_node, keypath + (key,), doc, seen, constructor)
        return result
    if isinstance(node, yaml.SequenceNode):
        return [_convert(item, keypath + (i,), doc, seen, constructor) for i, item in enumerate(node.value)]
    return _scalar(node, doc, constructor, keypath)


def where(keypath: tuple) -> str:
    """A key path as messages name it: ``'options.deal[2]'``, or "the file" for the whole document."""
    if not keypath:
        return "the file"
    text = str(keypath[0])
    for part in keypath[1:]:
        text += f"[{part}]" if isinstance(part, int) else f".{part}"
    return f"'{text}'"


def _at(keypath: tuple | None, problem: str) -> str:
    """``problem`` said of the value at ``keypath`` (a mapping's key has none: its line alone says where)."""
    return f"{where(keypath)}: {problem}" if keypath else problem


def _scalar(node: Any, doc: Document, constructor: Any, keypath: tuple | None = None) -> Any:
    """A scalar node's value, a mapping's key as well as a value (``{010: 2}`` would otherwise key 8), or a
    ConfigError at the node's own line for a value no config may hold, naming the value's ``keypath`` as the
    schema's messages do (a designer's ``house_cut: .nan`` was the one bad value said without its key)."""
    value = _construct(node, doc, constructor, keypath)
    problem = None
    # a number from such text: plain, or quoted under an explicit tag (!!int "010" is 8 too)
    if isinstance(value, (int, float)) and _OLD_NUMBER.fullmatch(node.value):
        plain = None if ":" in node.value else int(node.value.replace("_", ""), 10)
        meant = (f"write {value} if that is meant" if plain in (None, value)
                 else f"write {value} or {plain}, whichever is meant")
        problem = (f"{node.value!r} is read as the {'base-60' if ':' in node.value else 'octal'} number {value} "
                   f"(YAML 1.1): {meant}, or quote it without a tag for a string")
    elif not isinstance(value, SCALARS):  # a date, !!binary bytes: nothing a log (JSON) can carry
        problem = (f"{node.value!r} is a {type(value).__name__}; a config holds only strings, numbers, true/false "
                   "and null (quote it to make it a string)")
    elif isinstance(value, float) and not math.isfinite(value):
        problem = f"{node.value!r} is not a finite number"
    elif isinstance(value, int) and not isinstance(value, bool) and not INT_RANGE[0] <= value <= INT_RANGE[1]:
        problem = (f"{cut_short(node.value, 40)} is outside the integers a config may hold "
                   f"({INT_RANGE[0]}..{INT_RANGE[1]})")
    if problem is not None:
        raise ConfigError(_at(keypath, problem), doc.path, node.start_mark.line + 1)
    return value


def _construct(node: Any, doc: Document, constructor: Any, keypath: tuple | None) -> Any:
    """A scalar node's value, or a ConfigError at its line (naming ``keypath``, a value's, as :func:`_scalar`)."""
    import yaml

    try:
        return constructor.construct_object(node)
    except yaml.YAMLError as exc:  # an unknown tag such as !!python/object: its problem, without the mark's lines
        problem = getattr(exc, "problem", None) or str(exc)
    except (ArithmeticError, AttributeError, LookupError, TypeError, ValueError):
        # an explicit tag on text it does not fit (!!int abc, !!bool x): PyYAML's converter fails unguarded
        problem = f"{node.value!r} is not a valid {node.tag.rsplit(':', 1)[-1]}"
    raise ConfigError(_at(keypath, f"bad value: {_squeezed(problem)}"), doc.path, node.start_mark.line + 1)


def _squeezed(text: str) -> str:
    """A parser's message on one line (PyYAML's spread over several, with the text quoted)."""
    return " ".join(text.split())
