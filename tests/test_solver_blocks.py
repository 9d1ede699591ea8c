"""The block relation (``blocks.py``): exact at a deal, a sound relaxation later, against brute force,
and a stage of the solver for games with a waste cap and no row cap: the last, and for games with wild
cards also the first, at a small effort."""

from __future__ import annotations

import copy

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from test_solver import CATALOG, brute_force, position_after

from cardgames.engine.games.pairing import blocks
from cardgames.engine.games.pairing.blocks import blocks_lost
from cardgames.engine.games.pairing.solver import Solver
from cardgames.engine.registry import load_game

# games with a waste cap and no row cap: two with wild cards, two without (in tiny-odd a value pairs with itself)
CAPPED_WASTE = [("duo-wild", ("strict",)), ("mini-wild", ("strict",)), ("tiny-plain", ("strict",)),
                ("tiny-odd", ("strict",))]


def deal_verdicts(game) -> list[bool]:
    """Whether each of ``game``'s deals 0..39 is lost, each checked against brute force."""
    verdicts = []
    for seed in range(40):
        state = game.new_state(seed)
        lost, _ = blocks_lost(state)
        assert lost is not brute_force(state.clone()), (game.id, game.waste_cap, seed)
        verdicts.append(lost)
    return verdicts


@pytest.mark.parametrize("which", CAPPED_WASTE)
def test_a_deal_is_lost_exactly_when_brute_force_finds_no_win(which):
    verdicts = deal_verdicts(load_game(*which, catalog=CATALOG))
    assert any(verdicts) and not all(verdicts), "the test decks should give both outcomes"


@pytest.mark.parametrize("cap", [1, 2])
def test_exact_when_the_cap_leaves_only_the_levels_not_stored(cap):
    """Caps of one and two free places: the level of one free place (each card played before the next
    is turned), whose small relations are computed again each time instead of stored, is then the top
    level or the one right below it."""
    verdicts = []
    for which in CAPPED_WASTE:
        game = copy.copy(load_game(*which, catalog=CATALOG))
        game.waste_cap = cap
        verdicts += deal_verdicts(game)
    assert any(verdicts) and not all(verdicts), "the test decks should give both outcomes"


@settings(max_examples=80, deadline=None)
@given(which=st.sampled_from(CAPPED_WASTE), seed=st.integers(0, 10**6), moves=st.lists(st.integers(0, 7), max_size=8))
def test_a_position_it_refutes_is_lost(which, seed, moves):
    """Later positions, whose waste cards it takes as not yet turned (a relaxation): a loss is a loss."""
    _, state = position_after(which, seed, moves)
    if blocks_lost(state)[0]:
        assert not brute_force(state.clone())


def test_past_its_effort_it_proves_nothing():
    game = load_game("strict-wizards-tower")
    state = game.new_state(12)  # lost: 5,294,333 pairs stored, past the store's first chunk (4,194,304)
    assert blocks_lost(state) == (True, 5_294_333)
    lost, stored = blocks_lost(state, effort=4_000_000)
    assert not lost and stored <= 4_000_000


def test_it_applies_only_under_a_waste_cap_without_a_row_cap():
    for name, variants in [("wizards-tower", ()), ("wild-capped", ("strict",))]:
        game = load_game(name, variants, catalog=CATALOG)
        assert all(blocks_lost(game.new_state(seed)) == (False, 0) for seed in range(20)), name


def lost_deal(game):
    """The first of ``game``'s deals 0..39 that the block relation refutes."""
    return game.new_state(next(seed for seed in range(40) if blocks_lost(game.new_state(seed))[0]))


def test_the_solver_asks_it_first_for_games_with_wild_cards():
    """Strict duo-wild (wild cards, a waste cap, no row cap): a lost deal is refuted before the staged
    solver is asked, and the pairs stored are its nodes."""
    game = load_game("duo-wild", ("strict",), catalog=CATALOG)
    state = lost_deal(game)
    first = Solver(game)
    first._staged = lambda _: pytest.fail("the staged solver was asked")
    solution = first.solve(state)
    assert (solution.winnable, solution.nodes) == (False, blocks_lost(state, blocks.EARLY_EFFORT)[1])


def test_without_wild_cards_the_staged_solver_comes_first(monkeypatch):
    """Strict tiny-plain (a waste cap, no row cap, no wild card): its search settles deals in
    milliseconds, so the block relation is not asked before it (nor after it, on a deal it decides)."""
    game = load_game("tiny-plain", ("strict",), catalog=CATALOG)
    state = lost_deal(game)
    monkeypatch.setattr(blocks, "blocks_lost", lambda *_: pytest.fail("the block relation was asked"))
    assert Solver(game).solve(state).winnable is False


def test_the_solver_asks_it_last(monkeypatch):
    """A lost deal of strict duo-wild that the other stages are kept from deciding (no early effort, a
    budget of one node, no wild-row bound, no CP-SAT): the block relation, at its full effort, decides it."""
    game = load_game("duo-wild", ("strict",), catalog=CATALOG)
    state = lost_deal(game)
    monkeypatch.setattr(blocks, "EARLY_EFFORT", 0)
    quiet = Solver(game, budget=1, sat_effort=0)
    quiet.wild_rows_short = lambda _: (False, 0)
    assert quiet._staged(state).winnable is None
    assert quiet.solve(state).winnable is False


def test_a_wild_card_may_go_onto_a_wild_topped_row_when_every_row_is_one():
    """Strict wizards-narrow (two rows, the hex-a-deck): both rows topped by a Wizard, a third on the
    waste and a fourth in the stock. No other row will ever open, so each can only go onto a
    wild-topped row: won."""
    game = load_game("wizards-narrow", ("strict",), catalog=CATALOG)
    state = game.new_state(1)
    code = {name: k for k, name in enumerate(game.deck.names)}
    state.place([[code["Wizard1"]], [code["Wizard2"]]], [code["Wizard3"]], [code["Wizard4"]])
    assert brute_force(state.clone())
    assert not blocks_lost(state)[0]
