"""Writing command output in the format the user chose."""

from __future__ import annotations

import sys
from typing import Any, Sequence

import click

from cardgames.engine.wording import one_line

#: Where a command keeps, in ``ctx.meta``, why it fails, recorded before the output that shows it.
VERDICT = "cardgames.verdict"


def failing(reason: str) -> None:
    """Record that the running command fails (exit 1), and why in one line, before it writes the output
    that says so. A reader that stops early (``cardgames validate | head -1``) closes the pipe, which is
    otherwise exit 0 and must not turn a failure into a pass (a CI maintainer's finding); the reason,
    which the command says after its output, would be lost with it, so the closed pipe's handler says it
    (a reviewer's finding: exit 1 with an empty stderr)."""
    click.get_current_context().meta[VERDICT] = one_line(reason)


def emit_json(data: Any, pretty: bool = True) -> None:
    """``data`` as JSON on stdout, indented unless ``pretty`` is false."""
    from cardgames.engine.log import dumps

    sys.stdout.buffer.write(dumps(data, pretty=pretty))
    sys.stdout.flush()


def emit_rows(rows: Sequence[dict[str, Any]], fmt: str, columns: Sequence[str] | None = None) -> None:
    """Tabular data as a table, json (a list), jsonl (one object a line), csv or yaml."""
    columns = list(columns or (rows[0].keys() if rows else []))
    if fmt == "json":
        emit_json(list(rows))
    elif fmt == "jsonl":
        for row in rows:
            emit_json(row, pretty=False)
    elif fmt == "csv":
        import csv

        writer = csv.DictWriter(sys.stdout, fieldnames=columns, extrasaction="ignore", lineterminator="\n")
        writer.writeheader()
        for row in rows:
            writer.writerow({k: _cell(row.get(k)) for k in columns})
    elif fmt == "yaml":
        emit_yaml(list(rows))
    else:
        from tabulate import tabulate

        click.echo(tabulate([[_cell(r.get(k)) for k in columns] for r in rows], headers=columns))


def emit_yaml(data: Any, comments: dict[tuple[str, str], str] | None = None) -> None:
    """``data`` as YAML, in its own key order. ``comments[(key, sub)]`` is written as a comment line
    above ``data[key][sub]`` (a comment line of its own, which no value's text can run into)."""
    import yaml

    def dump(value: Any) -> str:
        return yaml.safe_dump(value, sort_keys=False, allow_unicode=True)

    if not comments:
        click.echo(dump(data), nl=False)
        return
    out = []
    for key, value in data.items():
        notes = {sub: comments[key, sub] for sub in value if (key, sub) in comments} if isinstance(value, dict) else {}
        if not notes:
            out.append(dump({key: value}))
            continue
        out.append(f"{dump(key).splitlines()[0]}:\n")
        for sub, item in value.items():
            if notes.get(sub):
                out.append(f"  # {notes[sub]}\n")
            out.append("".join(f"  {line}\n" for line in dump({sub: item}).splitlines()))
    click.echo("".join(out), nl=False)


def _cell(value: Any) -> Any:
    """A value as a table or CSV cell: a list its items, None empty, a bool as JSON writes it (Python's
    ``True`` in a table beside the JSON's ``true`` read as another value: a newcomer's finding)."""
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, (list, tuple)):
        return " ".join(str(v) for v in value)
    if value is None:
        return ""
    return value


def message(text: str) -> None:
    """A message for the user (not data): stderr, in one line as errors are (a file name it names
    may hold a line break or a terminal escape). A stderr that cannot be written (``2>/dev/full``)
    loses the message, not the command's work: its data and exit code stand (a CI persona's finding:
    ``batch`` lost its statistics, and ``simulate --log`` exited 1 having written the log)."""
    try:
        click.echo(one_line(text), err=True)
    except OSError:
        pass
