"""Writing command output in the format the user chose."""

from __future__ import annotations

import sys
from typing import Any, Sequence

import click


def emit_json(data: Any, pretty: bool = True) -> None:
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


def emit_yaml(data: Any) -> None:
    import yaml

    click.echo(yaml.safe_dump(data, sort_keys=False, allow_unicode=True), nl=False)


def _cell(value: Any) -> Any:
    if isinstance(value, (list, tuple)):
        return " ".join(str(v) for v in value)
    if value is None:
        return ""
    return value


def message(text: str) -> None:
    """A message for the user (not data): stderr."""
    click.echo(text, err=True)
