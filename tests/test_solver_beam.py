"""The beam search for lines (``beam.py``) and the refined sub-games (``refine.py``), where the search
decides alone (no row cap, no interval stage): against brute force on the small decks of tests/data/pairing."""

from __future__ import annotations

from itertools import combinations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from test_solver import CATALOG, assert_line_wins, brute_force, position_after

from cardgames.engine.games.pairing import refine as refine_module
from cardgames.engine.games.pairing import solver as solver_module
from cardgames.engine.games.pairing.beam import BeamOutOfNodes, beam_line
from cardgames.engine.games.pairing.refine import refine
from cardgames.engine.games.pairing.solver import Solution, Solver
from cardgames.engine.registry import load_game

# games without row cap; the beam runs on those without wild cards or without a waste cap
BEAM_GAMES = [("tiny-plain", ()), ("tiny-plain", ("strict",)), ("tiny-odd", ()), ("tiny-odd", ("strict",)),
              ("duo-wild", ()), ("mini-wild", ())]
# games with a row cap and no wild card: the beam runs there too when the interval memo would be large (Keshava,
# Stuppa, Sun and Moon); on decks this small the earlier stages decide every deal, so the beam and the refined
# sub-games are tested on their own there
CAPPED_GAMES = [("tight-capped", ()), ("tight-capped", ("strict",))]


@pytest.mark.parametrize("name, variants", BEAM_GAMES + CAPPED_GAMES)
def test_beam_lines_win_and_it_finds_some(name, variants):
    """Every line the beam returns replays to a win (so brute force wins the deal too), and it finds
    lines: on some deal even the narrowest beam does."""
    game = load_game(name, variants, catalog=CATALOG)
    found = 0
    for seed in range(40):
        state = game.new_state(seed)
        solver = Solver(game)
        beam = beam_line(solver, state, 1, 10**9)
        if beam.line is not None:
            assert_line_wins(state, beam.line)
            assert brute_force(state.clone())
            found += 1
        else:
            assert beam.stuck or not state.waste and state.next == len(state.stock)
        assert solver.nodes > 0
    assert found


def test_a_wider_beam_finds_lines_a_narrow_one_misses():
    """The width matters (the beam is a heuristic): on some won deal width 1 finds no line and 64 does."""
    game = load_game("duo-wild", (), catalog=CATALOG)
    missed = 0
    for seed in range(40):
        state = game.new_state(seed)
        narrow = beam_line(Solver(game), state, 1, 10**9).line
        wide = beam_line(Solver(game), state, 64, 10**9).line
        if wide is not None:
            assert_line_wins(state, wide)
        missed += narrow is None and wide is not None
    assert missed


# games whose brute force is quick on 40 deals, with the beam's pruning of moves (forced plays in games without
# wild cards or row cap, wild-topped rows last) each at work: a self-pairing class (tiny-odd), wild cards, a waste cap
EXACT_GAMES = [("tiny-plain", (), range(40)), ("tiny-plain", (), [89]), ("tiny-plain", ("strict",), range(40)),
               ("tiny-odd", ("strict",), range(40)), ("duo-wild", (), range(40)), ("mini-wild", (), range(40))]


@pytest.mark.parametrize("name, variants, seeds", EXACT_GAMES)
def test_a_beam_that_prunes_nothing_is_exact(name, variants, seeds):
    """With a width no stock index reaches, the beam keeps every position, so only its pruning of moves limits
    it, and that pruning must lose no win: it finds a line exactly on the deals brute force wins, and says it
    pruned nothing (the solver then stops widening). Forcing a play only when no card of its class is still to
    come matters (tiny-plain 89 is won by waiting for one; tiny-odd Strict 18 is lost if every play is forced),
    and only where there are no wild cards (duo-wild 16, mini-wild 19)."""
    game = load_game(name, variants, catalog=CATALOG)
    for seed in seeds:
        state = game.new_state(seed)
        beam = beam_line(Solver(game), state, 10**6, 10**9)
        assert not beam.pruned
        assert (beam.line is not None) is brute_force(state.clone()), seed
        if beam.line is not None:
            assert_line_wins(state, beam.line)


def test_pruned_says_whether_a_stock_index_held_more_than_the_width():
    """``pruned`` is what stops the solver widening the beam: tiny-plain 4's stock indices hold at most 6
    positions, so width 6 prunes nothing (a wider beam would find nothing more) and width 5 prunes."""
    game = load_game("tiny-plain", (), catalog=CATALOG)
    state = game.new_state(4)
    assert not beam_line(Solver(game), state, 6, 10**9).pruned
    assert beam_line(Solver(game), state, 5, 10**9).pruned


def test_stuck_is_the_waste_of_the_best_position_reached():
    """On a lost deal the beam hands back the classes on the waste in the best-scored position of the last stock
    index (the cards whose pairs the solver's sub-games then start from), bottom to top: tiny-plain 6 (lost)
    ends there with eight cards of pairs 2 and 3, where other positions kept more."""
    game = load_game("tiny-plain", (), catalog=CATALOG)
    state = game.new_state(6)
    assert not brute_force(state.clone())
    beam = beam_line(Solver(game), state, 10**6, 10**9)
    assert beam.line is None and beam.stuck == (2, 3, 2, 2, 3, 3, 3, 2)


@pytest.mark.parametrize("name, seed, found", [("tiny-plain", 21, (False, False, True)),
                                               ("tiny-plain", 31, (False, True, True)),
                                               ("tiny-plain", 34, (False, True, True)),
                                               ("tiny-plain", 37, (True, True, True)),
                                               ("mini-wild", 24, (False, True, True)),
                                               ("mini-wild", 26, (False, True, True))])
def test_the_beam_keeps_the_width_best_scored_positions(name, seed, found):
    """Which narrow beams (widths 1, 2, 3) find a line, pinned on deals where it depends on the positions
    kept: exactly ``width`` of them, ranked by the waste's length plus the blocked cards of the waste and of
    the next ``LOOKAHEAD`` stock cards after the one just turned, then the most wild-topped rows (the score
    measured to win the most deals; another keeps other positions and finds other lines)."""
    game = load_game(name, (), catalog=CATALOG)
    state = game.new_state(seed)
    assert tuple(beam_line(Solver(game), state, width, 10**9).line is not None for width in (1, 2, 3)) == found


def test_the_beam_counts_its_nodes_and_stops():
    game = load_game("tiny-odd", (), catalog=CATALOG)
    solver = Solver(game)
    with pytest.raises(BeamOutOfNodes):
        beam_line(solver, game.new_state(1), 64, 3)
    assert solver.nodes == 4


def refine_agrees(game, state) -> list[bool]:
    """Grow every proper subset of the live pairs with ``refine``: a loss it claims is brute force's, a
    line it gives replays to a win. Returns its verdicts (None left out)."""
    solver = Solver(game)
    card_class, group = game.card_class, solver.group
    live = sorted({group[card_class[c]] for c in [*state.stock[state.next:], *state.waste]} - {0})
    verdicts: list[bool] = []
    for size in range(1, len(live)):
        for pairs in combinations(live, size):
            verdict, line = refine(solver, state, frozenset(pairs), 10**9)
            if verdict is False:
                # brute force once per position (it is the slow part)
                assert False in verdicts or not brute_force(state.clone()), f"{pairs} refuted a won position"
            elif verdict:
                assert_line_wins(state, line)
            if verdict is not None:
                verdicts.append(verdict)
    assert not (True in verdicts and False in verdicts)
    return verdicts


@pytest.mark.parametrize("name, variants", [("tiny-odd", ()), ("tiny-odd", ("strict",)), ("long-odd", ())])
def test_refined_sub_games_decide_soundly_both_ways(monkeypatch, name, variants):
    """Losses are brute force's, lines win; it finds both, and some only after growing the set (a
    played-out line named a pair in its way)."""
    grown = []
    play_out = refine_module.play_out
    monkeypatch.setattr(refine_module, "play_out",
                        lambda *args: (lambda out: grown.append(out[1] is not None) or out)(play_out(*args)))
    game = load_game(name, variants, catalog=CATALOG)
    verdicts = [v for seed in range(25) for v in refine_agrees(game, game.new_state(seed))]
    assert True in verdicts and False in verdicts
    assert any(grown)


@pytest.mark.parametrize("name, variants", CAPPED_GAMES)
def test_refined_sub_games_keep_the_row_cap(name, variants):
    """Under a row cap the played-out line names the very rows of the sub-game's line (a row keeps its
    pair), so it keeps the cap: every line replays to a win, every loss is brute force's."""
    game = load_game(name, variants, catalog=CATALOG)
    verdicts = [v for seed in range(25) for v in refine_agrees(game, game.new_state(seed))]
    assert True in verdicts


@settings(max_examples=40, deadline=None)
@given(which=st.sampled_from([("tiny-odd", ()), ("tiny-odd", ("strict",))]), seed=st.integers(0, 10**6),
       moves=st.lists(st.integers(0, 7), max_size=8))
def test_refined_sub_games_decide_soundly_mid_game(which, seed, moves):
    refine_agrees(*position_after(which, seed, moves))


TRUTH: dict[tuple, bool] = {}  # brute force's verdicts by (game, variants, seed), shared by the cases below


@pytest.mark.parametrize("name, variants", BEAM_GAMES)
@pytest.mark.parametrize("limit", ["INTERVAL_SPAN_LIMIT", "BEAM_SPAN_LIMIT"])
@pytest.mark.parametrize("share", [0.5, 0])
def test_the_search_beam_path_agrees_with_brute_force(monkeypatch, name, variants, limit, share):
    """With the interval stage ruled out (as for most Uta Pagoda deals) or left for after the beams (the
    others: ``BEAM_SPAN_LIMIT``), no search before the beams and the narrowest first beam, the solver's
    verdicts (beam lines, refined sub-games, then the search or the interval stage) are exact; with no
    nodes for the beams (``share`` 0) the stage after them decides."""
    monkeypatch.setattr(solver_module, limit, 0)
    monkeypatch.setattr(solver_module, "BEAM_SHARE", share)
    monkeypatch.setattr(solver_module, "BEAM_SEARCH_FIRST", 0)
    monkeypatch.setattr(solver_module, "BEAM_WIDTH", 1)  # narrow beams miss lines: the sub-games must be sound
    calls = []
    beam = solver_module.beam_line
    monkeypatch.setattr(solver_module, "beam_line", lambda *args: calls.append(1) or beam(*args))
    game = load_game(name, variants, catalog=CATALOG)
    verdicts = []
    for seed in range(40):
        state = game.new_state(seed)
        truth = TRUTH.get((name, variants, seed))
        if truth is None:
            truth = TRUTH[name, variants, seed] = brute_force(state.clone())
        solution = Solver(game).solve(state)
        assert solution.winnable is truth
        if truth:
            assert_line_wins(state, solution.line)
        verdicts.append(truth)
    assert any(verdicts) and not all(verdicts)
    assert calls, "the beam stage should have run"


def test_refine_counts_the_wastes_pairs_as_live():
    """Once the stock is out the live pairs are the waste's: a sub-game of some of them is still
    refined (tiny-odd 0 with its stock turned out is lost, and one pair's sub-game shows it), and
    the set of every live pair is the whole game, which refine leaves undecided."""
    from cardgames.engine.games.pairing.rules import TURN

    game = load_game("tiny-odd", (), catalog=CATALOG)
    state = game.new_state(0)
    while state.next < len(state.stock):
        state.apply(TURN)
    solver = Solver(game)
    live = frozenset(solver.group[game.card_class[c]] for c in state.waste) - {0}
    assert len(live) > 1 and not brute_force(state.clone())
    assert refine(solver, state, frozenset([min(live)]), 10**9) == (False, [])
    assert refine(Solver(game), state, live, 10**9) == (None, [])


def test_refine_grows_the_set_from_the_topmost_blocker_and_clears_without_turning():
    """Pinned outcomes on tiny-odd: a played-out line adds the pair of the topmost other card on the
    waste, and clears other pairs' cards by plays only (never a turn), which decides these positions:
    deals 9 and 17 lost from pair 1's sub-game (as brute force says), and a line that wins from seed 3
    after two moves, found from pairs 2 and 3."""
    game = load_game("tiny-odd", (), catalog=CATALOG)
    for seed in (9, 17):
        state = game.new_state(seed)
        assert refine(Solver(game), state, frozenset([1]), 10**9) == (False, [])
        assert not brute_force(state.clone())
    game, state = position_after(("tiny-odd", ()), 3, [7, 3])
    verdict, line = refine(Solver(game), state, frozenset([2, 3]), 10**9)
    assert verdict is True
    assert_line_wins(state, line)


def test_an_undecided_sub_game_refutes_nothing(monkeypatch):
    """A sub-game the solver left undecided (its nodes ran out) proves nothing: tiny-odd 9, which pair 1's
    sub-game refutes when decided (above), is left undecided when that sub-game is not."""
    game = load_game("tiny-odd", (), catalog=CATALOG)
    state = game.new_state(9)
    solver = Solver(game)
    monkeypatch.setattr(solver, "decide", lambda *args: Solution(None, 0, 0.0))
    assert refine(solver, state, frozenset([1]), 10**9) == (None, [])
