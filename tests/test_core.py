"""The shared State machinery that engines inherit."""

from __future__ import annotations

import subprocess
import sys

import pytest

from cardgames.engine.core import State
from cardgames.engine.registry import ENGINES, engine_agents, load_game


def test_default_clone_is_independent_and_shares_the_game():
    game = load_game("eiffel-tower")
    state = game.new_state(3)
    copy = State.clone(state)  # the base implementation, not the engine's override
    assert copy.game is game
    copy.apply(copy.legal_actions()[0])
    assert state.snapshot() == game.new_state(3).snapshot()
    assert copy.snapshot() != state.snapshot()


@pytest.mark.parametrize("engine", sorted(ENGINES))
def test_an_engines_agents_can_be_imported_first(engine):
    """A script may import an engine's agents before its rules (they import the rules, which used to
    import them back half-built: ImportError), and the registry finds them."""
    module = engine_agents(engine)["greedy"].__module__  # where the registry found them
    assert module.endswith(".agents")
    done = subprocess.run([sys.executable, "-c", f"import {module}"], capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
