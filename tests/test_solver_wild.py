"""The solver on games with wild cards (sub-games with phantom rows, the wild-topped-row rules) and on
games whose interval memo would be too large (the search alone), against brute force."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from test_solver import CATALOG, agrees_with_brute_force, assert_line_wins, brute_force, position_after

from cardgames.engine.games.pairing import solver as solver_module
from cardgames.engine.games.pairing.intervals import IntervalSolver
from cardgames.engine.games.pairing.solver import Solver
from cardgames.engine.registry import load_game

WILD_GAMES = [("duo-wild", ()), ("duo-wild", ("strict",)), ("duo-capped", ()), ("duo-capped", ("strict",)),
              ("mini-wild", ()), ("octo-capped", ("strict",))]


def check(game, state) -> bool:
    """The solver's verdict equals brute force's, and its line replays to a win."""
    return agrees_with_brute_force(Solver(game).solve(state), state)


@pytest.mark.parametrize("name, variants", WILD_GAMES)
def test_wild_games_agree_with_brute_force_on_deals(name, variants):
    game = load_game(name, variants, catalog=CATALOG)
    verdicts = [check(game, game.new_state(seed)) for seed in range(40)]
    assert any(verdicts) and not all(verdicts), "the test decks should give both outcomes"


@settings(max_examples=60, deadline=None)
@given(which=st.sampled_from(WILD_GAMES), seed=st.integers(0, 10**6), moves=st.lists(st.integers(0, 7), max_size=6))
def test_wild_games_agree_with_brute_force_mid_game(which, seed, moves):
    check(*position_after(which, seed, moves))


def test_the_search_alone_agrees_with_brute_force(monkeypatch):
    """With the interval stage ruled out (as for Uta Pagoda's 50 pairs), the search decides alone."""
    monkeypatch.setattr(solver_module, "INTERVAL_SPAN_LIMIT", 0)
    for variants in ((), ("strict",)):
        game = load_game("tiny-plain", variants, catalog=CATALOG)
        verdicts = [check(game, game.new_state(seed)) for seed in range(40)]
        assert any(verdicts) and not all(verdicts)


def test_wild_start_up_checks_refute_on_their_own():
    """The wild-aware checks (sub-games, wild-row costs) must do real work: on some losing deal the
    search stops at its start-up checks (no position explored, so none recorded as failed), so the
    test above exercises them."""
    game = load_game("duo-wild", (), catalog=CATALOG)
    stopped = 0
    for seed in range(40):
        state = game.new_state(seed)
        solver = Solver(game)
        memo = solver.search_memo(state)
        if solver._search(state, None, memo) is None and not brute_force(state.clone()):
            stopped += not memo.failed
    assert stopped


@pytest.mark.parametrize("name, variants", [("tight-capped", ()), ("tight-capped", ("strict",)), ("mini-capped", ()),
                                            ("tiny-plain", ()), ("tiny-plain", ("strict",))])
def test_later_stages_agree_with_brute_force(monkeypatch, name, variants):
    """With no search share, every deal the start-up checks leave goes through the interval stage (or the
    uncapped relaxation and its capped line, then the resumed search)."""
    monkeypatch.setattr(solver_module, "SEARCH_SHARE", 0)
    game = load_game(name, variants, catalog=CATALOG)
    verdicts = [check(game, game.new_state(seed)) for seed in range(30)]
    assert any(verdicts) and not all(verdicts)


def test_capped_lines_of_the_uncapped_game_are_real_wins():
    """``capped_line`` offers only lines the capped rules accept to a win, and does find some."""
    game = load_game("tight-capped", (), catalog=CATALOG)
    found = 0
    for seed in range(40):
        state = game.new_state(seed)
        line = IntervalSolver(game, state, 10**6, relax_cap=True).capped_line()
        if line is not None:
            assert_line_wins(state, line)
            found += 1
    assert found


def hasty(game, state):
    """(the solver, its memo, the hasty search's line) on ``state``; None for a deal greedy play wins
    or the room check refutes (the solver never runs the hasty search on those)."""
    solver = Solver(game)
    if solver.over_capacity(state) or solver.greedy_line(state) is not None:
        return None
    memo = solver.search_memo(state)
    needs, _ = solver.wild_needs(state, memo.subgames)
    return solver, memo, solver.hasty_line(state, memo, frozenset(g for g, need in needs.items() if need == 0))


@pytest.mark.parametrize("name, variants", [("duo-capped", ()), ("octo-capped", ("strict",)), ("wild-capped", ())])
def test_hasty_lines_win(name, variants):
    """The hasty search (the pairs needing no wild-topped row played at once onto their own rows) offers only
    lines that replay to a win, finds some where greedy play does not, and its failed positions do not reach
    the full search's memo."""
    game = load_game(name, variants, catalog=CATALOG)
    found = 0
    for seed in range(40):
        state = game.new_state(seed)
        run = hasty(game, state)
        if run is None:
            continue
        _, memo, line = run
        assert not memo.failed, "the hasty search's failed positions prove nothing"
        if line is not None:
            assert_line_wins(state, line)
            found += 1
    assert found


def test_a_missing_hasty_line_proves_nothing():
    """The hasty search is a restriction: on some deal it finds no line, yet the deal is won (and the solver,
    which goes on with the full search, says so)."""
    game = load_game("wild-capped", (), catalog=CATALOG)
    missed = 0
    for seed in range(40):
        state = game.new_state(seed)
        run = hasty(game, state)
        if run is not None and run[2] is None and brute_force(state.clone()):
            assert Solver(game).solve(state).winnable is True
            missed += 1
    assert missed
