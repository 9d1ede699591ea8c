"""Shared test fixtures: a CLI runner, Python's own Ctrl-C handler, a file imported as a module, and a bounded
hypothesis profile."""

from __future__ import annotations

import os
import signal
from pathlib import Path
from types import ModuleType

import pytest
from hypothesis import HealthCheck, settings

settings.register_profile("default", max_examples=60, deadline=None,
                          suppress_health_check=[HealthCheck.too_slow])
settings.register_profile("thorough", max_examples=1000, deadline=None,
                          suppress_health_check=[HealthCheck.too_slow])
settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "default"))


@pytest.fixture
def run_cli():
    """Invoke the CLI in-process: ``run_cli("deal", "eiffel-tower", "--seed", "7")``.

    Returns Click's Result (``exit_code``, ``stdout``, ``stderr``); exceptions other than
    SystemExit propagate, so a traceback fails the test.
    """
    from click.testing import CliRunner

    from cardgames.cli.main import cli

    def invoke(*args: str, input: str | bytes | None = None, env: dict[str, str] | None = None):
        runner = CliRunner()
        return runner.invoke(cli, list(args), input=input, env=env, catch_exceptions=False, prog_name="cardgames")

    return invoke


@pytest.fixture
def module_at():
    """Import a Python file as a module: ``module_at("pairing_report")`` is ``scripts/pairing_report.py`` (the
    scripts are files, not a package), ``module_at(path)`` any file, named by its stem; so that a test calls a
    script's functions in-process."""
    import importlib.util

    def load(where: str | Path) -> ModuleType:
        path = where if isinstance(where, Path) else Path(__file__).resolve().parent.parent / "scripts" / f"{where}.py"
        spec = importlib.util.spec_from_file_location(path.stem, path)
        assert spec is not None and spec.loader is not None, f"{path} is no Python file"
        module = importlib.util.module_from_spec(spec)
        spec.loader.exec_module(module)
        return module

    return load


@pytest.fixture
def ctrl_c_raises():
    """Python's own SIGINT handler (a KeyboardInterrupt) for one test, as in a terminal. A background job
    starts with SIGINT ignored, and Python keeps it so: tests run that way (``nohup make test &``) would
    otherwise see no Ctrl-C at all, and a test of what one does would fail or pass for nothing."""
    previous = signal.signal(signal.SIGINT, signal.default_int_handler)
    yield
    signal.signal(signal.SIGINT, previous)
