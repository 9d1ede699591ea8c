"""Shared test fixtures: a CLI runner and a bounded hypothesis profile."""

from __future__ import annotations

import os

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
