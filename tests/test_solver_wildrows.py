"""The wild-row partition bound (``wildrows.py``): its least numbers against the solver's own
sub-game costs, and its refutations against brute force."""

from __future__ import annotations

from itertools import pairwise

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from test_solver import CATALOG, brute_force, position_after

from cardgames.engine.games.pairing.solver import Solver
from cardgames.engine.registry import load_game

STRICT_WILD = [("duo-wild", ("strict",)), ("mini-wild", ("strict",))]


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_least_plays_are_the_sub_games_costs(seed):
    """Two searches written apart: the compiled projection's least plays onto wild-topped rows and
    the solver's Python sub-game cost (the same phantom row), on Strict Wizard's Tower's pairs
    alone and two by two."""
    game = load_game("strict-wizards-tower")
    solver = Solver(game)
    state = game.new_state(seed)
    subgames = solver.search_memo(state).subgames
    subgames.effort = 10**9
    counts, waste, _ = solver._root(state)
    found, pool = solver.projections(state)
    groups = [(g,) for g in solver.groups] + list(pairwise(solver.groups))
    for gs in groups:
        assert found.least(gs, 0, pool + 1) == min(subgames.wild_cost(gs, 0, waste, counts), pool + 2), gs


@pytest.mark.parametrize("name, variants", STRICT_WILD)
def test_the_bound_refutes_only_lost_deals(name, variants):
    game = load_game(name, variants, catalog=CATALOG)
    solver = Solver(game)
    refuted = [seed for seed in range(60) if solver.wild_rows_short(game.new_state(seed))[0]]
    assert refuted, "the test decks should give the bound something to refute"
    assert not any(brute_force(game.new_state(seed)) for seed in refuted)


@settings(max_examples=60, deadline=None)
@given(which=st.sampled_from(STRICT_WILD), seed=st.integers(0, 10**6), moves=st.lists(st.integers(0, 7), max_size=6))
def test_the_bound_refutes_only_lost_positions(which, seed, moves):
    game, state = position_after(which, seed, moves)
    if Solver(game).wild_rows_short(state)[0]:
        assert not brute_force(state.clone())


def test_the_solver_asks_the_bound_before_cp_sat():
    """Strict Wizard's Tower 19, lost: with a budget too small for the other stages, the bound
    decides it, CP-SAT being off."""
    game = load_game("strict-wizards-tower")
    state = game.new_state(19)
    assert Solver(game, budget=50, sat_effort=0)._staged(state).winnable is None
    solution = Solver(game, budget=50, sat_effort=0).solve(state)
    assert solution.winnable is False and solution.nodes > 50


def test_an_uncapped_waste_is_never_searched():
    """The search's key packs the waste, which only a cap bounds: without one it proves nothing."""
    game = load_game("wizards-tower")
    solver = Solver(game)
    projections, pool = solver.projections(game.new_state(5))
    assert projections.least(tuple(solver.groups[:2]), 0, pool + 1) == 0 and projections.nodes == 0
