"""The solver's count bounds (the wild-topped rows the pairs need, the places per class under a row cap)
against brute force on small decks: a bound may only refute lost positions, and must refute some."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from test_solver import CATALOG, brute_force, position_after

from cardgames.engine.games.pairing.rules import WILD
from cardgames.engine.games.pairing.solver import Solver
from cardgames.engine.registry import load_game

POOL_GAMES = [("duo-capped", ()), ("duo-capped", ("strict",)), ("wild-capped", ()), ("wild-capped", ("strict",))]
PLACE_GAMES = [("tight-capped", ()), ("tight-capped", ("strict",)), ("wild-capped", ()), ("duo-capped", ())]


def short_of_wild_rows(game, state) -> bool:
    """Do the pairs' least needs of wild-topped rows exceed what the position has (``Solver.wild_rows_suffice``
    on the position's open rows by kind)?"""
    solver = Solver(game)
    card_class, cap = game.card_class, game.row_cap
    counts = [0] * len(solver.keys)
    for row in state.rows:
        height = len(row) if cap is not None else 0
        if cap is None or height < cap:
            counts[solver.key_index[(card_class[row[-1]], height)]] += 1
    pool = (sum(n for n, key in zip(counts, solver.keys, strict=True) if key[0] == WILD)
            + sum(card_class[c] == WILD for c in [*state.stock[state.next:], *state.waste]))
    waste = bytes(card_class[c] for c in state.waste)
    # the memo's stock is the position's (from its next card on), so its index starts at 0
    return not solver.wild_rows_suffice(solver.search_memo(state).subgames, 0, waste, counts, pool)


def pool_check(game, state) -> bool:
    refuted = short_of_wild_rows(game, state)
    if refuted:
        assert not brute_force(state.clone()), "the wild-row bound refuted a winnable position"
    return refuted


@pytest.mark.parametrize("name, variants", POOL_GAMES)
def test_wild_row_bound_refutes_only_lost_deals(name, variants):
    game = load_game(name, variants, catalog=CATALOG)
    refuted = sum(pool_check(game, game.new_state(seed)) for seed in range(50))
    if name == "duo-capped":
        assert refuted, "the bound should bite on this deck of two wild cards and three rows"


@settings(max_examples=40, deadline=None)
@given(which=st.sampled_from(POOL_GAMES), seed=st.integers(0, 10**6), moves=st.lists(st.integers(0, 7), max_size=6))
def test_wild_row_bound_refutes_only_lost_positions(which, seed, moves):
    pool_check(*position_after(which, seed, moves))


def places_check(game, state) -> bool:
    refuted = Solver(game)._short_of_places(state)
    if refuted:
        assert not brute_force(state.clone()), "the per-class room check refuted a winnable position"
    return refuted


@pytest.mark.parametrize("name, variants", PLACE_GAMES)
def test_places_per_class_refute_only_lost_deals(name, variants):
    game = load_game(name, variants, catalog=CATALOG)
    refuted = sum(places_check(game, game.new_state(seed)) for seed in range(40))
    if name == "tight-capped":
        assert refuted, "the per-class room check should bite on this tight layout"


@settings(max_examples=40, deadline=None)
@given(which=st.sampled_from(PLACE_GAMES), seed=st.integers(0, 10**6), moves=st.lists(st.integers(0, 7), max_size=6))
def test_places_per_class_refute_only_lost_positions(which, seed, moves):
    places_check(*position_after(which, seed, moves))
