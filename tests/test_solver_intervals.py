"""The interval solver (engine/games/pairing/intervals.py) against brute force, from deals and mid-game."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from test_solver import CATALOG, assert_line_wins, brute_force, position_after

from cardgames.engine.games.pairing.intervals import IntervalSolver, OutOfBudget
from cardgames.engine.games.pairing.solver import SEARCH_SHARE, Solver
from cardgames.engine.registry import load_game

GAMES = [("tiny-plain", ()), ("tiny-plain", ("strict",)), ("tiny-odd", ()), ("tiny-odd", ("strict",))]


def check(game, state) -> bool:
    """The interval verdict equals brute force's; a found line is legal and wins."""
    line = IntervalSolver(game, state, 10**6).solve()
    assert (line is not None) is brute_force(state.clone())
    if line is not None:
        assert_line_wins(state, line)
    return line is not None


@pytest.mark.parametrize("name, variants", GAMES)
def test_intervals_agree_with_brute_force_on_deals(name, variants):
    game = load_game(name, variants, catalog=CATALOG)
    verdicts = [check(game, game.new_state(seed)) for seed in range(60)]
    assert any(verdicts) and not all(verdicts), "the test decks should give both outcomes"


@settings(max_examples=60, deadline=None)
@given(which=st.sampled_from(GAMES), seed=st.integers(0, 10**6), moves=st.lists(st.integers(0, 7), max_size=8))
def test_intervals_agree_with_brute_force_mid_game(which, seed, moves):
    """From positions reached by arbitrary legal moves (waste of several cards, rows moved)."""
    check(*position_after(which, seed, moves))


def test_intervals_refuse_games_with_wilds_or_caps():
    for name in ("mini-wild", "tiny-capped"):
        game = load_game(name, catalog=CATALOG)
        with pytest.raises(ValueError):
            IntervalSolver(game, game.new_state(1), 10)


def test_intervals_budget_runs_out():
    game = load_game("eiffel-tower")
    with pytest.raises(OutOfBudget):
        IntervalSolver(game, game.new_state(26), 100).solve()


def test_staged_solver_decides_a_deal_the_search_alone_cannot():
    """Eiffel Tower seed 26 needs more than the search's share: the interval stage decides it (a win)."""
    game = load_game("eiffel-tower")
    solution = Solver(game).solve(game.new_state(26))
    assert solution.winnable is True and solution.nodes > SEARCH_SHARE
    assert_line_wins(game.new_state(26), solution.line)
