"""The wild-row partition bound (``wildrows.py``): its least numbers against the solver's own
sub-game costs, its deadlines against every winning line, and its refutations against brute force."""

from __future__ import annotations

from itertools import pairwise

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from test_solver import CATALOG, brute_force, position_after

from cardgames.engine.games.pairing import wildrows
from cardgames.engine.games.pairing.rules import WILD, PairingState, Play
from cardgames.engine.games.pairing.solver import Solver
from cardgames.engine.registry import load_game

STRICT_WILD = [("duo-wild", ("strict",)), ("mini-wild", ("strict",))]
# Strict duo-wild (match 7, waste cap 3) dealt by hand: rows 1a 1b 6a, waste 6b, then the stock, W1 first, W2 last
EARLY_WILD_DEAL = "1a 1b 6a 6b W1 2a 3a 5a 4a 2b 3b 5b 4b W2"


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


def test_the_deadlines_refute_more_and_only_lost_deals(monkeypatch):
    """Groups of one pair: the deadlines refute deals whose sums fit the pool, each lost by brute force."""
    game = load_game("duo-wild", ("strict",), catalog=CATALOG)
    monkeypatch.setattr(wildrows, "GROUP_MOST", 1)

    def refuted() -> set[int]:
        return {seed for seed in range(200) if Solver(game).wild_rows_short(game.new_state(seed))[0]}

    with_deadlines = refuted()
    monkeypatch.setattr(wildrows, "_short_by_then", lambda *_: False)
    more = with_deadlines - refuted()
    assert more, "the test deck should give the deadlines something to refute"
    assert not any(brute_force(game.new_state(seed)) for seed in more)


@settings(max_examples=60, deadline=None)
@given(which=st.sampled_from(STRICT_WILD), seed=st.integers(0, 10**6), moves=st.lists(st.integers(0, 7), max_size=6),
       most=st.sampled_from([1, 2, wildrows.GROUP_MOST]))
def test_the_bound_refutes_only_lost_positions(which, seed, moves, most):
    """Groups of one or two pairs leave more to the deadlines (the test games' pairs fit in one group)."""
    game, state = position_after(which, seed, moves)
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(wildrows, "GROUP_MOST", most)
        refuted = Solver(game).wild_rows_short(state)[0]
    if refuted:
        assert not brute_force(state.clone())


def test_deadlines_catch_pairs_that_need_the_same_early_wild_card(monkeypatch):
    """The hand-dealt deal: pairs 2-5 and 3-4 have no row, so each needs a wild-topped one, and W1 comes
    first, W2 last. Each alone needs one play, which the pool of two covers; but pair 2-5 must make it
    before 5b is turned (stock index 7: 2a, 5a and 2b fill the waste) and 3-4 before 4b (index 8). By
    index 8 they need two wild cards, and only W1 can have come: lost, by brute force too."""
    game = load_game("duo-wild", ("strict",), catalog=CATALOG)
    names = [card.name for card in game.deck.cards]
    state = PairingState(game, [names.index(name) for name in EARLY_WILD_DEAL.split()])
    projections, pool = Solver(game).projections(state)
    assert pool == 2 and [projections.least((pair,), 0, pool + 1) for pair in (2, 3)] == [1, 1]
    assert projections.deadlines((2,), [10], 9) == [7] and projections.deadlines((3,), [10], 9) == [8]
    monkeypatch.setattr(wildrows, "GROUP_MOST", 1)  # the pairs' sum alone, not the group of both, which needs 3
    assert Solver(game).wild_rows_short(state)[0]
    assert not brute_force(state.clone())


def test_the_deadlines_count_at_the_horizon_itself(monkeypatch):
    """Strict duo-wild 17, groups of one pair: pairs 1-6 and 3-4 each need a wild-topped row by stock
    index 7, where W1 lies. That index is the horizon, the last at which fewer wild cards than the sums'
    best can have come: only one of the pool's two by then. A search stopping short of the horizon
    leaves this deal open; it is lost, by brute force too."""
    game = load_game("duo-wild", ("strict",), catalog=CATALOG)
    monkeypatch.setattr(wildrows, "GROUP_MOST", 1)
    seen = []
    short_by_then = wildrows._short_by_then

    def spy(projections, deadlines, need, count, pool, horizon):
        seen.append((pool, horizon, sorted(deadlines.items())))
        return short_by_then(projections, deadlines, need, count, pool, horizon)

    monkeypatch.setattr(wildrows, "_short_by_then", spy)
    state = game.new_state(17)
    assert Solver(game).wild_rows_short(state)[0]
    assert seen == [(2, 7, [(1, [7]), (4, [7])])]
    assert not brute_force(state.clone())


def winning_lines(state, most=5000) -> list[tuple]:
    """Winning lines from ``state`` (the first ``most``), each play as (stock cards turned, the card's
    class, onto a wild-topped row?)."""
    lines: list[tuple] = []

    def walk(state, line: tuple) -> None:
        if state.won():
            lines.append(line)
        for action in state.legal_actions():
            if len(lines) >= most:
                return
            child = state.clone()
            child.apply(action)
            if isinstance(action, Play):
                card = state.game.card_class[state.waste[-1]]
                walk(child, (*line, (state.next, card, state.tops[action.row] == WILD)))
            else:
                walk(child, line)

    walk(state, ())
    return lines


@pytest.mark.parametrize("name, variants", STRICT_WILD)
def test_every_winning_line_meets_the_deadlines(name, variants):
    """Each pair's and each two pairs' deadlines, against every winning line of won deals (up to 5,000
    each): the line's (k + 1)-th play of the group's cards onto a wild-topped row comes with at most
    the k-th deadline's stock cards turned."""
    game = load_game(name, variants, catalog=CATALOG)
    solver = Solver(game)
    checked = early = 0
    for seed in range(40):
        state = game.new_state(seed)
        lines = winning_lines(state.clone())
        if not lines:
            continue
        projections, pool = solver.projections(state)
        for groups in [(g,) for g in solver.groups] + list(pairwise(solver.groups)):
            least = projections.least(groups, 0, pool + 1)
            deadlines = projections.deadlines(groups, [len(projections.stock)] * least, len(projections.stock))
            early += sum(deadline < len(projections.stock) for deadline in deadlines)
            classes = {c for c, g in enumerate(solver.group) if g in groups}
            for line in lines:
                turned = [i for i, cls, onto_wild in line if onto_wild and cls in classes]
                assert len(turned) >= least
                assert all(turned[k] <= deadline for k, deadline in enumerate(deadlines)), (seed, groups, line)
                checked += 1
    assert checked > 100 and early > 10


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


# Strict duo-wild dealt by hand (rows 1a 1b 6a, waste 6b, then the stock): won deals where pairs 2-5 and 3-4
# together must make a play onto a wild-topped row by the stock index just after a wild card
JUST_IN_TIME_DEALS = ["1a 1b 6a 6b 3a 3b W1 2a 4a W2 4b 5b 5a 2b", "1a 1b 6a 6b 4a 3a W1 4b 5a 3b W2 2b 2a 5b"]


@pytest.mark.parametrize("deal", JUST_IN_TIME_DEALS)
def test_a_wild_card_just_before_a_deadline_has_come_by_then(deal):
    """The first deal: the group of pairs 2-5 and 3-4 must make its first play onto a wild-topped row with at
    most 3 stock cards turned (its deadline is stock index 3: 3a, 3b and W1 fill the waste), and W1, at
    index 2, can have come by then: one play against one wild card, so the deadlines refute nothing, and
    brute force wins both deals. Counting the wild card at the index before a deadline as still to come
    (``wild_cards_from(index - 1)``), or starting a group's search from its subgroups' deadline one stock
    card early (the bound ``high`` of ``Projections.deadlines`` one less: a deadline earlier than proved),
    refutes these won deals."""
    game = load_game("duo-wild", ("strict",), catalog=CATALOG)
    names = [card.name for card in game.deck.cards]
    state = PairingState(game, [names.index(name) for name in deal.split()])
    solver = Solver(game)
    projections, pool = solver.projections(state)
    assert pool == 2 and projections.least((2, 3), 0, pool + 1) == 2
    assert not solver.wild_rows_short(state)[0]
    assert brute_force(state.clone())
    if deal == JUST_IN_TIME_DEALS[0]:
        assert projections.deadlines((2, 3), [10, 10], 10) == [3, 6]


@pytest.mark.parametrize("name, variants", STRICT_WILD)
@pytest.mark.parametrize("effort", [20, 100])
def test_queries_that_give_up_prove_nothing(name, variants, effort):
    """Under a small ``refute_effort`` the bound's searches give up often; one that gave up must count as
    neither a win nor a loss. A mutation audit found both ways untested: taking a search that gave up for
    one more play proven (`_least`), or for no win (`_latest`), refuted winnable deals of both decks at
    effort 20 (Strict mini-wild 19; Strict duo-wild 8, 10, 24), and the whole solver then said lost."""
    game = load_game(name, variants, catalog=CATALOG)
    for seed in range(40):
        state = game.new_state(seed)
        if Solver(game, refute_effort=effort).wild_rows_short(state)[0]:
            assert not brute_force(state.clone()), seed
        if effort == 20 and brute_force(state.clone()):
            assert Solver(game, budget=1, sat_effort=0, refute_effort=effort).solve(state).winnable is not False, seed
