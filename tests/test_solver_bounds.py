"""The solver's count bounds (the wild-topped rows the pairs need, the places per class under a row cap,
the wild-free rest when the needs take the whole pool) against brute force on small decks: a bound may only
refute lost positions, and must refute some."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from test_solver import CATALOG, brute_force, position_after

from cardgames.engine.games.pairing.rules import WILD
from cardgames.engine.games.pairing.solver import Solver
from cardgames.engine.registry import load_game

POOL_GAMES = [("duo-capped", ()), ("duo-capped", ("strict",)), ("wild-capped", ()), ("wild-capped", ("strict",))]
REST_GAMES = [("octo-capped", ("strict",)), ("duo-capped", ("strict",)), ("wild-capped", ()),
              ("wild-capped", ("strict",))]
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


def short_of_places(game, state) -> bool:
    """Is some class short of places on its rows (``Solver._short_of_places``)?"""
    return Solver(game)._short_of_places(state)


def wild_free_rest_lost(game, state) -> bool:
    """Is the game of the pairs outside every largest set that may play onto wild-topped rows, without wild
    cards, lost (``Solver.wild_row_sets``; when the needs take the whole pool, the one set of the pairs
    needing some)?"""
    solver = Solver(game)
    if solver.over_capacity(state):
        return False  # not this bound's refutation
    subgames = solver.search_memo(state).subgames
    return solver.wild_row_sets(state, subgames, solver.wild_needs(state, subgames))[0] is False


def three_pairs_short(game, state) -> bool:
    """Can some pair needing wild-topped rows not win its three-pair sub-games within the pool
    (``Solver.triples_short``)?"""
    solver = Solver(game)
    subgames = solver.search_memo(state).subgames
    return solver.triples_short(state, subgames, solver.wild_needs(state, subgames))


# (the bound, its test games, the game on whose first deals it must refute something)
BOUNDS = [(short_of_wild_rows, POOL_GAMES, ("duo-capped", ())), (short_of_places, PLACE_GAMES, ("tight-capped", ())),
          (wild_free_rest_lost, REST_GAMES, ("octo-capped", ("strict",))),
          (three_pairs_short, REST_GAMES, ("octo-capped", ("strict",)))]
CASES = [(bound, name, variants) for bound, games, _ in BOUNDS for name, variants in games]
BITES = {bound: game for bound, _, game in BOUNDS}


def refutes_only_lost(bound, game, state) -> bool:
    refuted = bound(game, state)
    if refuted:
        assert not brute_force(state.clone()), f"{bound.__name__} refuted a winnable position"
    return refuted


@pytest.mark.parametrize("bound, name, variants", CASES)
def test_bound_refutes_only_lost_deals(bound, name, variants):
    game = load_game(name, variants, catalog=CATALOG)
    refuted = sum(refutes_only_lost(bound, game, game.new_state(seed)) for seed in range(50))
    if (name, variants) == BITES[bound]:
        assert refuted, f"{bound.__name__} should bite on {name}'s deals"


@settings(max_examples=80, deadline=None)
@given(case=st.sampled_from(CASES), seed=st.integers(0, 10**6), moves=st.lists(st.integers(0, 7), max_size=6))
def test_bound_refutes_only_lost_positions(case, seed, moves):
    bound, *which = case
    refutes_only_lost(bound, *position_after(tuple(which), seed, moves))
