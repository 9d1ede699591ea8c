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
              ("mini-wild", ()), ("octo-capped", ("strict",)), ("octo-narrow", ())]


def check(game, state) -> bool:
    """The solver's verdict equals brute force's, and its line replays to a win."""
    return agrees_with_brute_force(Solver(game).solve(state), state)


@pytest.mark.parametrize("name, variants", WILD_GAMES)
def test_wild_games_agree_with_brute_force_on_deals(name, variants):
    game = load_game(name, variants, catalog=CATALOG)
    verdicts = [check(game, game.new_state(seed)) for seed in range(40)]
    assert any(verdicts) and not all(verdicts), "the test decks should give both outcomes"


@pytest.mark.parametrize("seed", [78, 105, 143, 192])
def test_deals_a_search_keying_its_failures_by_part_of_the_waste_would_lose(seed):
    """Winnable octo-narrow deals beyond the seeds above: a mutation audit's search keyed its failed
    positions by the waste's top two cards only and called these four lost, by the search alone and by the
    whole solver (a staged False is final), and no test saw it. Here the search alone must win each, and
    the whole solver agree with brute force."""
    game = load_game("octo-narrow", (), catalog=CATALOG)
    state = game.new_state(seed)
    assert Solver(game, 200_000, sat_effort=0, refute_effort=0).solve(state).winnable is True
    assert check(game, state)


@settings(max_examples=60, deadline=None)
@given(which=st.sampled_from(WILD_GAMES), seed=st.integers(0, 10**6), moves=st.lists(st.integers(0, 7), max_size=6))
def test_wild_games_agree_with_brute_force_mid_game(which, seed, moves):
    check(*position_after(which, seed, moves))


def classes_by_value(game) -> dict[int, int]:
    """Each card value's class in ``game`` (one family, so one class per value)."""
    return {card.value: game.card_class[i] for i, card in enumerate(game.deck.cards) if not card.attrs.get("wild")}


def test_wild_cards_short_counts_the_row_changes_the_waste_needs():
    """One row of pair 1-8 and a waste whose cards leave it 2, 3, 2, 3 (top first): each is a load into a
    row made wild, four in all, so three wild cards left are short and four are enough; a wild-topped row
    or a second row (holding 2 while 3 comes and goes) saves loads; a pair only in the stock costs one."""
    game = load_game("octo-narrow", (), catalog=CATALOG)
    solver = Solver(game)
    cls = classes_by_value(game)
    key = solver.key_index
    waste = [cls[3], cls[2], cls[3], cls[2]]  # bottom to top

    def short(rows: dict[int, int], wild_cards: int, stock: tuple[int, ...] = ()) -> bool:
        counts = [0] * len(solver.keys)
        for c, n in rows.items():
            counts[key[(c, 0)]] = n
        class_left = [0] * len(game.accepts)
        class_left[0] = wild_cards
        for v in stock:
            class_left[cls[v]] += 1
        return solver.wild_cards_short(waste, counts, class_left)

    assert short({cls[1]: 1}, 3) and not short({cls[1]: 1}, 4)
    assert short({cls[1]: 1, 0: 1}, 0) and not short({cls[1]: 1, 0: 1}, 1)  # a wild-topped row: one load free
    assert not short({cls[1]: 2}, 2) and short({cls[1]: 2}, 1)  # two rows: 2 and 3 each loaded once
    assert short({cls[1]: 2}, 2, stock=(4,))  # pair 4-5, on no row and not in the waste, needs a load too
    assert not short({cls[1]: 2}, 2, stock=(1,))  # pair 1-8 is on a row already


def test_wild_card_count_proves_narrow_layouts_lost(monkeypatch):
    """With fewer rows than pairs the sub-games are not asked and the wild-card count does the work: on
    octo-narrow it refutes positions of the deals it loses (the brute-force test above checks the verdicts);
    Wizard's Tower's cards on two rows are lost, proven in a few thousand nodes (the sub-games' queries used to
    spend the whole budget and leave them undecided)."""
    fired = []
    count = Solver.wild_cards_short

    def counted(self, *args):
        short = count(self, *args)
        fired.append(short)
        return short

    monkeypatch.setattr(Solver, "wild_cards_short", counted)
    game = load_game("octo-narrow", (), catalog=CATALOG)
    for seed in range(10):
        state = game.new_state(seed)
        solver = Solver(game)
        assert not solver.search_memo(state).subgames.enabled
        solver.solve(state)
    assert any(fired)
    narrow = load_game("wizards-narrow", (), catalog=CATALOG)
    for seed in (1, 2, 3):
        solution = Solver(narrow, sat_effort=0).solve(narrow.new_state(seed))
        assert solution.winnable is False and solution.nodes < 10_000


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


def test_the_refutation_effort_bounds_the_stages_no_budget_limits():
    """``refute_effort`` caps each refutation stage (the block relation, the wild-row bound), which the node
    budget and CP-SAT's effort do not: Strict Wizard's Tower 4, lost, is refuted by the block relation in
    68,665 stored pairs. Within 100,000 a stage it still is; within 10,000, or with none (0), nothing proves
    the loss after a search of 1,000 nodes, and with none the deal costs just those nodes."""
    game = load_game("strict-wizards-tower")
    state = game.new_state(4)
    assert Solver(game, 1000, 0).solve(state).winnable is False
    assert Solver(game, 1000, 0, refute_effort=100_000).solve(state).winnable is False
    assert Solver(game, 1000, 0, refute_effort=10_000).solve(state).winnable is None
    none = Solver(game, 1000, 0, refute_effort=0).solve(state)
    assert (none.winnable, none.nodes) == (None, 1001)
