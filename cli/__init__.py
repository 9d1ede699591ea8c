"""The ``cardgames`` command line: Click commands that parse, call the engine and format output.

No rules live here. Data goes to stdout, messages to stderr; user errors exit 1 with one line.
"""
