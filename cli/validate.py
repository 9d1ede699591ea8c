"""``cardgames validate``: check configs; errors as ``file:line: message``, exit 1 if any."""

from __future__ import annotations

from pathlib import Path

import click

from .options import format_option
from .output import emit_json, emit_rows, failing, message


@click.command("validate")
@click.argument("paths", nargs=-1, type=click.Path(readable=False))  # one it cannot read is a check failed, as a
# missing one is (exit 1, in the report): Click's own check made it a usage error, exit 2, no JSON (a CI author's)
@click.option("--facts", is_flag=True, help="Also print what the engines report about each deal "
              "(cards dealt, stock, short last deals, ...).")
@format_option("text", "json")
@click.pass_context
def validate_cmd(ctx: click.Context, paths: tuple[str, ...], facts: bool, fmt: str) -> None:
    """Check config files (default: every bundled one, plus --configs folders).

    PATH may be a YAML file or a config folder holding games/, decks/ and variants/.
    """
    from cardgames.engine.validate import validate
    from cardgames.engine.wording import counted

    if "-" in paths:  # the other commands' stdin: a config's id and kind come from its file and folder names
        raise click.UsageError("validate reads config files and folders, not stdin ('-'): save the YAML to a file")
    root = ctx.find_root().obj or {}
    report = validate(list(paths), [Path(d) for d in root.get("config_dirs", ())])
    verdict = (f"{counted(report.checked, 'config file')} checked: "
               + ("all valid" if report.ok else counted(len(report.errors), "error")))
    if not report.ok:
        failing(verdict)
    if fmt == "json":
        emit_json({"ok": report.ok, "checked": report.checked,
                   "errors": [{"file": e.path, "line": e.line, "message": e.message} for e in report.errors],
                   "notes": report.notes, "facts": report.facts if facts else []})
    else:
        for error in report.errors:
            click.echo(str(error))
        if facts and report.facts:
            # Engines report different facts: show every key any of them reports.
            emit_rows(report.facts, "table", list(dict.fromkeys(k for row in report.facts for k in row)))
    for note in report.notes:
        message(f"note: {note}")
    message(verdict)  # on stderr in either format: a CI log that keeps stdout in a file still shows it
    if not report.ok:
        ctx.exit(1)
