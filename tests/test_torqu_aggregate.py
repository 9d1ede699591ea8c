"""The CP-SAT count-level model (engine/games/torqu/aggregate.py) against the optimiser: two
exact solvers that share no search code must agree on the optimum's value."""

from __future__ import annotations

import pytest
from hypothesis import example, given, settings
from hypothesis import strategies as st

from cardgames.engine.registry import load_game
from cardgames.engine.rng import Rng

pytest.importorskip("ortools")
from cardgames.engine.games.torqu.aggregate import optimum  # noqa: E402


@pytest.fixture(scope="module")
def game():
    return load_game("torqu", (), 4)


@pytest.fixture(scope="module")
def dragons():
    return load_game("torqu", ("dragons",), 4)


@settings(max_examples=25, deadline=None)
@given(st.lists(st.integers(0, 159), min_size=0, max_size=24, unique=True), st.sampled_from([1, -1]),
       st.booleans())
@example(["Air-1", "Earth-8", "Water-16", "Magic-16"], 1, False)  # a Mirror no set can use: left out
@example(["Magic-13", "Magic-14", "Magic-15", "Magic-16", "Air-1"], 1, False)  # four Mirrors alone
@example(["Air-14", "Animal-14", "Earth-14", "Water-7", "Fire-10", "Magic-13", "Magic-15"], 1, False)  # one
# Mirror makes the Four of a Kind: the one used is the one that would cost more left out (Magic-15)
@example([32, 54, 82, 56, 74, 72, 70, 52, 20, 18, 16, 4, 0, 2], 1, False)  # no four of them make a set
def test_the_model_agrees_with_the_optimiser(game, dragons, codes, sign, with_dragons):
    g = dragons if with_dragons else game
    if codes and isinstance(codes[0], str):
        codes = g.deck.codes(codes)
    assert optimum(g.scorer, codes, sign) == g.scorer.arrange(codes, sign)["score"]


@settings(max_examples=10, deadline=None)
@given(st.lists(st.integers(0, 139), min_size=8, max_size=20, unique=True),
       st.lists(st.sampled_from([140, 141, 142, 143]), min_size=1, max_size=4, unique=True), st.sampled_from([1, -1]))
def test_the_model_agrees_with_several_mirrors(game, codes, mirrors, sign):
    assert game.deck.code("Magic-13") == 140  # the Mirrors are codes 140-143
    assert optimum(game.scorer, codes + mirrors, sign) == game.scorer.arrange(codes + mirrors, sign)["score"]


@pytest.mark.parametrize("k", [0, 1])
def test_the_model_agrees_on_game_sized_tableaux(game, k):
    """36 cards, the 4-player tableau, drawn as the score benchmark draws them."""
    cards = list(range(len(game.deck)))
    Rng(1, f"bench/{k}").shuffle(cards)
    codes = sorted(cards[:36])
    assert optimum(game.scorer, codes) == game.scorer.tableau_score(codes)["score"]


def test_wild_cards_can_be_left_wild_free(game):
    """With ``wild=False`` (the hand penalty when Mirrors are not wild in hand) a Mirror is an
    ordinary Magic card."""
    codes = game.deck.codes(["Magic-13", "Magic-14", "Magic-15", "Magic-16"])
    assert optimum(game.scorer, codes, -1, wild=False) == game.scorer.arrange(codes, -1, False)["score"]
