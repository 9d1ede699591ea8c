"""The shared State machinery that engines inherit."""

from __future__ import annotations

from cardgames.engine.core import State
from cardgames.engine.registry import load_game


def test_default_clone_is_independent_and_shares_the_game():
    game = load_game("eiffel-tower")
    state = game.new_state(3)
    copy = State.clone(state)  # the base implementation, not the engine's override
    assert copy.game is game
    copy.apply(copy.legal_actions()[0])
    assert state.snapshot() == game.new_state(3).snapshot()
    assert copy.snapshot() != state.snapshot()
