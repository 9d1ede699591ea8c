"""The ``cardgames`` command line: Click commands that parse, call the engine and format output.

No rules live here. Data goes to stdout, messages to stderr; an error is one line, exit 1 for bad
input or a failed check, 2 for a usage error (see :mod:`.main`).
"""
