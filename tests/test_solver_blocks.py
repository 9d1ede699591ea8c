"""The block relation (``blocks.py``): exact at a deal, a sound relaxation later, against brute force,
and the last stage of the solver for games with a waste cap and no row cap."""

from __future__ import annotations

import copy

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from test_solver import CATALOG, brute_force, position_after

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


def test_the_solver_asks_it_last():
    """A lost deal of strict duo-wild that the other stages are kept from deciding (a budget of one node,
    no wild-row bound, no CP-SAT): the block relation decides it."""
    game = load_game("duo-wild", ("strict",), catalog=CATALOG)
    lost = next(seed for seed in range(40) if blocks_lost(game.new_state(seed))[0])
    state = game.new_state(lost)
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
