"""The sets of pairs that may play onto wild-topped rows, lines woven from the rest's, and the wild slots given
to the pairs needing them (``weave.py``, ``tame.slots_given``, ``Solver.wild_row_sets``), against brute force on
small decks with two wild cards under a row cap: a refutation only of lost positions, every line a win, and
each path taken somewhere."""

from __future__ import annotations

from itertools import combinations, product

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from test_solver import CATALOG, brute_force, position_after

from cardgames.engine.games.pairing.budget import OutOfBudget
from cardgames.engine.games.pairing.rules import WILD
from cardgames.engine.games.pairing.solver import Solution, Solver
from cardgames.engine.games.pairing.tame import projection, slots_given, wild_slots
from cardgames.engine.games.pairing.weave import rest_line, wild_row_sets
from cardgames.engine.registry import load_game

GAMES = [("octo-capped", ("strict",)), ("octo-capped", ()), ("duo-capped", ("strict",)), ("wild-capped", ())]
# a position where no pair alone needs a wild-topped row, yet the game outside every two pairs is lost
PART_POOL_LOST = (("octo-capped", ("strict",)), 313, [3, 6, 3, 0, 3])
# won positions with room in the pool whose games outside every smaller set are lost: only the largest sets
# B may be tried (each is won here for some B)
ROOMY_WON = [(("octo-capped", ("strict",)), 194, []), (("octo-capped", ()), 334, [0, 5, 7]),
             (("duo-capped", ("strict",)), 399, []), (("duo-capped", ()), 118, [0, 7, 0, 7])]
# won, room in the pool: a line is woven only if the other cards keep off every row the rest's line plays onto
# from there on (not just its next play's row)
WOVEN_AROUND = (("octo-capped", ("strict",)), 677247, [6, 4, 0, 7])
# positions where the needs take the whole pool: the given slots refute one, and weave a line for the other
SLOTS_LOST = (("octo-capped", ("strict",)), 17, [])
SLOTS_WON = (("octo-capped", ("strict",)), 8, [2, 2, 5])
# won, the needs taking the pool, with a full wild-topped row: no slot (it takes nothing), so not one to give
FULL_WILD_ROW_WON = (("octo-capped", ("strict",)), 838319, [0, 0, 1, 0, 0, 0, 1, 0, 1, 0, 0, 0, 0, 1])


def verdict(game, state):
    """(verdict, line, whether the needs took the whole pool) of ``Solver.wild_row_sets`` at ``state``."""
    solver = Solver(game)
    subgames = solver.search_memo(state).subgames
    needs = solver.wild_needs(state, subgames)
    found, line = solver.wild_row_sets(state, subgames, needs)
    return found, line, sum(needs[0].values()) == needs[1]


def assert_sound(state, found, line):
    """A refutation agrees with brute force; a line, played through the rules, wins."""
    if found is False:
        assert not brute_force(state.clone()), "a winnable position refuted"
    if found is True:
        board = state.clone()
        for action in line:
            board.apply(action)
        assert board.won(), "a woven line must win"


def checked(game, state):
    """``verdict``, checked by :func:`assert_sound`."""
    found, line, whole = verdict(game, state)
    assert_sound(state, found, line)
    return found, whole


def test_wild_row_sets_are_the_largest_admissible():
    assert list(wild_row_sets({1: 0, 2: 0, 3: 0}, 2)) == [(1, 2), (1, 3), (2, 3)]
    assert list(wild_row_sets({1: 1, 2: 0, 3: 0}, 2)) == [(1, 2), (1, 3)]
    assert list(wild_row_sets({1: 2, 2: 0, 3: 0}, 2)) == [(1,)]
    assert list(wild_row_sets({1: 1, 2: 0}, 3)) == [(1, 2)]  # fewer other pairs than the pool leaves
    assert list(wild_row_sets({1: 2, 2: 1}, 2)) == []  # the needs alone exceed the pool
    assert list(wild_row_sets({1: 0, 2: 0}, 0)) == [()]


@pytest.mark.parametrize("name, variants", GAMES)
def test_wild_row_sets_on_deals(name, variants):
    game = load_game(name, variants, catalog=CATALOG)
    found = [checked(game, game.new_state(seed))[0] for seed in range(40) if not Solver(game).over_capacity(
        game.new_state(seed))]
    if name == "octo-capped":
        assert True in found, "some deal's line should be woven"
        if variants:
            assert False in found, "the wild-free rest should refute some strict deal"


def test_refutes_with_room_in_the_pool():
    which, seed, moves = PART_POOL_LOST
    game, state = position_after(which, seed, moves)
    assert checked(game, state) == (False, False)


@pytest.mark.parametrize("which, seed, moves", ROOMY_WON)
def test_only_the_largest_sets_count(which, seed, moves):
    game, state = position_after(which, seed, moves)
    assert brute_force(state.clone())
    found, whole = checked(game, state)
    assert not whole and found is not False


def test_a_woven_card_keeps_off_the_rows_the_line_still_needs():
    """``weave`` plays a card of the chosen pairs (or a wild card) only onto a row the rest's line does not play
    onto again, at any later step: here that is what lets it weave a winning line (a card put on such a row takes
    the place the line needs there, and the weave fails)."""
    game, state = position_after(*WOVEN_AROUND)
    assert checked(game, state) == (True, False)


@settings(max_examples=60, deadline=None)
@given(which=st.sampled_from(GAMES), seed=st.integers(0, 10**6), moves=st.lists(st.integers(0, 7), max_size=6))
def test_wild_row_sets_on_positions(which, seed, moves):
    game, state = position_after(which, seed, moves)
    if not Solver(game).over_capacity(state):
        checked(game, state)


def whole_pool(game, state):
    """The solver and the needs at ``state`` if they take its whole (non-empty) pool, else None."""
    solver = Solver(game)
    if solver.over_capacity(state) or state.won():
        return None
    own, pool = solver.wild_needs(state, solver.search_memo(state).subgames)
    return (solver, own) if pool and sum(own.values()) == pool else None


def slots_checked(game, state):
    """``Solver._slots_given`` at ``state`` (needs taking the pool), checked as ``checked`` checks."""
    found = whole_pool(game, state)
    if found is None:
        return None
    verdict, line = found[0]._slots_given(state, found[1])
    assert_sound(state, verdict, line)
    return verdict


def test_a_lost_rest_needs_no_slots(monkeypatch):
    """The needs take the pool and the pairs needing none lose without wild cards: lost, whatever the slots
    given would say (they only run when that game is won; they may run out of budget on a real deal)."""
    monkeypatch.setattr(Solver, "_slots_given", lambda *args: (None, []))
    game, state = position_after(*SLOTS_LOST[:1], SLOTS_LOST[1], SLOTS_LOST[2])
    assert checked(game, state) == (False, True)


@pytest.mark.parametrize("case, expected", [(SLOTS_LOST, False), (SLOTS_WON, True), (FULL_WILD_ROW_WON, True)])
def test_slots_given_decide(case, expected):
    assert slots_checked(*position_after(*case[:1], case[1], case[2])) is expected


@pytest.mark.parametrize("case", [*ROOMY_WON, SLOTS_WON])
def test_an_undecided_rest_refutes_nothing(monkeypatch, case):
    """Pins ``Solver.wild_row_sets`` on a rest's game left undecided (its budget ran out): that proves nothing, so
    the verdict may not be "lost" (with the needs taking the pool the solve is out of budget, which it says by
    raising). Every rest goes through ``decide`` here (no greedy playout wins one), and ``decide`` says undecided;
    these positions are won."""
    monkeypatch.setattr(Solver, "greedy_playout", lambda self, state: ([], 1))
    monkeypatch.setattr(Solver, "decide", lambda self, game, state, budget: Solution(None, 0, 0.0))
    game, state = position_after(*case)
    try:
        found = verdict(game, state)[0]
    except OutOfBudget:
        found = None
    assert found is not False


@pytest.mark.parametrize("case", [SLOTS_LOST, SLOTS_WON])
def test_undecided_given_slots_refute_nothing(monkeypatch, case):
    """Pins ``Solver._slots_given`` on a game of given slots left undecided (``_beam_first`` out of budget): a
    choice is refuted only by a lost game, so an undecided one leaves the position undecided, even one that is
    lost (the slots' own refutation needs every choice's game decided)."""
    monkeypatch.setattr(Solver, "_beam_first", lambda self, state: (None, []))
    game, state = position_after(*case)
    solver, own = whole_pool(game, state)
    assert solver._slots_given(state, own) == (None, [])


def test_a_wild_card_kept_or_a_first_class_too_many_is_refused():
    """``tame.projection`` refuses to keep a wild card, whether it tops a row or is still to play, and
    ``tame.slots_given`` a first class for a slot that is not there."""
    game, state = position_after(*FULL_WILD_ROW_WON)
    wild_top = state.rows[1][-1]
    assert game.card_class[wild_top] == WILD and wild_top not in [*state.waste, *state.stock[state.next:]]
    for keep in (lambda c: c == wild_top, lambda c: game.card_class[c] == WILD):
        with pytest.raises(ValueError, match="must not keep one"):
            projection(state, keep)
    assert wild_slots(state) == (0, 1)
    slots_given(state, [1])
    with pytest.raises(ValueError, match="one first class per wild slot"):
        slots_given(state, [1, 1])


def test_a_wild_topped_row_with_one_place_left_is_a_slot():
    """Room for one card is room: the wild-topped row one short of the cap is a slot, and is given a first class
    (a mutant that asked for two places passed every test: a mutation audit's finding; the solver then gave
    ``slots_given`` one class too few)."""
    game, state = position_after(*FULL_WILD_ROW_WON)
    short = state.clone()
    short.rows[1] = short.rows[1][:game.row_cap - 2] + short.rows[1][-1:]  # the wild card on top, one place left
    assert len(short.rows[1]) == game.row_cap - 1 and game.card_class[short.rows[1][-1]] == WILD
    assert wild_slots(short) == (1, 1)
    given = slots_given(short, [1, 2])
    assert given.rows[1][-1] == game.card_class.index(game.partner[1])  # topped by the first class's partner


@settings(max_examples=60, deadline=None)
@given(which=st.sampled_from(GAMES), seed=st.integers(0, 10**6), moves=st.lists(st.integers(0, 7), max_size=6))
def test_slots_given_on_positions(which, seed, moves):
    slots_checked(*position_after(which, seed, moves))


@settings(max_examples=60, deadline=None)
@given(which=st.sampled_from(GAMES), seed=st.integers(0, 10**6), moves=st.lists(st.integers(0, 7), max_size=6))
def test_slots_given_relax_a_won_position(which, seed, moves):
    """``tame.slots_given``'s claim, by brute force alone: when the needs take the pool and the position is
    won, some choice of first classes leaves every opening's game won; and a won one's line, cut by
    ``weave.rest_line``, wins the game of the pairs needing none."""
    game, state = position_after(which, seed, moves)
    found = whole_pool(game, state)
    if found is None:
        return
    solver, own = found
    needing = [g for g in solver.groups if own[g]]
    classes = [c for g in needing for c in sorted(set(solver.classes_of[g]))]
    rows, cards = wild_slots(state)
    openings = [frozenset(s) for k in range(cards + 1) for s in combinations(range(rows, rows + cards), k)]
    choices = [choice for choice in product(classes, repeat=rows + cards)
               if all(sum(solver.group[c] == g for c in choice) == own[g] for g in needing)]
    won = brute_force(state.clone())
    survivors = [choice for choice in choices
                 if all(brute_force(slots_given(state, list(choice), opened)) for opened in openings)]
    if won:
        assert survivors, "a won position lost in every choice of the given slots"
    if not survivors:
        return
    relaxed = slots_given(state, list(survivors[0]), openings[-1])
    solution = Solver(relaxed.game).solve(relaxed)
    assert solution.winnable
    card_class, group = game.card_class, solver.group
    rest = projection(state, lambda c: card_class[c] != WILD and group[card_class[c]] not in needing)
    for action in rest_line(solver, state, openings[-1], tuple(needing), solution.line):
        rest.apply(action)
    assert rest.won(), "the cut line must win the game of the pairs needing none"
