"""The CP-SAT stage (``cpsat.py``) against brute force on its own, and as the solver's last stage."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from test_solver import CATALOG, agrees_with_brute_force, assert_line_wins, position_after

from cardgames.engine.games.pairing.cpsat import SEARCHES, sat_verdict
from cardgames.engine.games.pairing.rules import TURN
from cardgames.engine.games.pairing.solver import Solver
from cardgames.engine.registry import load_game

# every rule the model states: plain pairs, row caps, the Strict waste cap, wild cards, trumps
GAMES = [("tiny-plain", ()), ("tiny-plain", ("strict",)), ("tiny-capped", ()), ("tiny-capped", ("strict",)),
         ("mini-wild", ()), ("mini-wild", ("strict",)), ("wild-capped", ()), ("wild-capped", ("strict",)),
         ("duo-wild", ()), ("duo-capped", ("strict",)), ("mini-capped", ())]


def check(game, state, search: str = "single") -> bool:
    """CP-SAT's verdict on ``state`` with one of its searches is brute force's, and its line replays to a win."""
    return agrees_with_brute_force(sat_verdict(game, state, effort=10.0, searches=(search,)), state)


@pytest.mark.parametrize("search", SEARCHES)
@pytest.mark.parametrize("name, variants", GAMES)
def test_the_model_agrees_with_brute_force_on_deals(name, variants, search):
    game = load_game(name, variants, catalog=CATALOG)
    verdicts = [check(game, game.new_state(seed), search) for seed in range(30)]
    assert any(verdicts) and not all(verdicts), "the test decks should give both outcomes"


@settings(max_examples=80, deadline=None)
@given(which=st.sampled_from(GAMES), seed=st.integers(0, 10**6), moves=st.lists(st.integers(0, 7), max_size=8),
       search=st.sampled_from(SEARCHES))
def test_the_model_agrees_with_brute_force_mid_game(which, seed, moves, search):
    """Mid-game the waste holds several cards (or none) and rows have grown: the model's turn numbering
    and row heights start from there."""
    check(*position_after(which, seed, moves), search)


@pytest.mark.parametrize("name, variants", GAMES)
def test_every_position_of_a_winning_line_is_won(name, variants):
    """Late in a won line several rows of one kind (top class, and height under a cap) take no
    further card; the symmetry breaking orders the kind's first cards, and must still let two of its
    rows both stay unused (a strict order there lost the last positions of tiny-plain's lines)."""
    game = load_game(name, variants, catalog=CATALOG)
    for seed in range(10):
        state = game.new_state(seed)
        solution = Solver(game).solve(state)
        position = state.clone()
        for move in solution.line[:-1]:
            position.apply(move)
            assert sat_verdict(game, position, effort=10.0).winnable, f"seed {seed}"


@pytest.mark.parametrize("name", [name for name, variants in GAMES if variants == ("strict",)])
def test_a_full_waste_plays_before_the_stock_turns(name):
    """Turned until the Strict cap stops the stock: the model's cap holds before its first turn
    too, so it plays from the waste first (random mid-game positions seldom start full)."""
    game = load_game(name, ("strict",), catalog=CATALOG)
    for seed in range(20):
        state = game.new_state(seed)
        while TURN in state.legal_actions():
            state.apply(TURN)
        check(game, state)


def test_the_model_uses_no_deprecated_ortools_call(monkeypatch):
    """ortools deprecates its CamelCase names (``NewBoolVar``, ``Solve``, ``Value``...) for snake_case ones
    ahead of removing them, its warnings off unless ``cp_model.enable_warnings``: the stage, a won and a lost
    deal's model built, solved and read, calls none of them, so a later ortools still runs it."""
    import warnings

    from ortools.sat.python import cp_model

    # 9.15 has the switch; 9.12 has neither it nor the warnings
    monkeypatch.setattr(cp_model, "enable_warnings", True, raising=False)
    game = load_game("wild-capped", ("strict",), catalog=CATALOG)
    with warnings.catch_warnings():
        warnings.filterwarnings("error", message=".* is a deprecated function", category=DeprecationWarning)
        verdicts = {sat_verdict(game, game.new_state(seed), effort=10.0).winnable for seed in range(10)}
    assert verdicts == {True, False}


def test_the_portfolio_follows_a_single_search_that_ran_out():
    """Strict Wizard's Tower 35 is open after a moment of either search: both ran, one after the other."""
    game = load_game("strict-wizards-tower")
    state = game.new_state(35)
    alone = [sat_verdict(game, state, 1.0, (search,)) for search in SEARCHES]
    both = sat_verdict(game, state, 1.0)
    assert [v.winnable for v in (*alone, both)] == [None, None, None]
    assert both.branches == sum(v.branches for v in alone) > max(v.branches for v in alone)


def test_the_stage_decides_what_the_node_budget_left_open():
    """Strict Castle 85 stayed undecided through the eighth pass; CP-SAT refutes it at once. Wizard's
    Tower 2 was never decided by the search (3,000,000 nodes); CP-SAT wins it in a second."""
    for name, seed, verdict in [("strict-castle", 85, False), ("wizards-tower", 2, True)]:
        game = load_game(name)
        state = game.new_state(seed)
        assert Solver(game, budget=2_000, sat_effort=0).solve(state).winnable is None
        solution = Solver(game, budget=2_000).solve(state)
        assert solution.winnable is verdict
        if verdict:
            assert_line_wins(state, solution.line)


def test_the_same_line_every_time():
    game = load_game("wizards-tower")
    state = game.new_state(2)
    first, again = (sat_verdict(game, state, effort=30.0) for _ in range(2))
    assert first.winnable and first.line == again.line and first.branches == again.branches


def test_solve_cli_sat_effort(run_cli):
    """``--sat-effort 0`` turns the stage off (null once the nodes run out); by default it decides."""
    import orjson

    def verdict(*extra: str):
        out = run_cli("solve", "--game", "strict-castle", "--seed", "85", "--budget", "2000", "--format", "json",
                      *extra)
        assert out.exit_code == 0
        return orjson.loads(out.stdout)["winnable"]

    assert verdict("--sat-effort", "0") is None
    assert verdict() is False
    bad = run_cli("solve", "--game", "strict-castle", "--seed", "85", "--sat-effort", "-1")
    assert bad.exit_code != 0 and "Traceback" not in bad.stderr


def test_ctrl_c_during_the_model_is_a_keyboard_interrupt(monkeypatch, ctrl_c_raises):
    """CP-SAT catches SIGINT itself and ends its search as if its time had run out, so a Ctrl-C was lost:
    the stage went on to its next search and the command exited 0 long after. Run through ``engine/sat.py``,
    a SIGINT that comes while CP-SAT searches (Wizard's Tower 5 stays open for the whole effort) is the
    KeyboardInterrupt it is, and no search is left running behind it."""
    import os
    import signal
    import threading

    from ortools.sat.python import cp_model

    solve = cp_model.CpSolver.solve

    returned = threading.Event()

    def solve_then_ctrl_c(solver, model, *args, **kwargs):
        threading.Timer(0.5, os.kill, (os.getpid(), signal.SIGINT)).start()
        try:
            return solve(solver, model, *args, **kwargs)
        finally:
            returned.set()

    monkeypatch.setattr(cp_model.CpSolver, "solve", solve_then_ctrl_c)
    game = load_game("wizards-tower")
    with pytest.raises(KeyboardInterrupt):
        sat_verdict(game, game.new_state(5), effort=60.0)
    assert returned.is_set(), "a search was left running behind the Ctrl-C"
    _assert_the_solving_thread_ends()


def _assert_the_solving_thread_ends() -> None:
    """No "cp-sat" thread outlives its search. Its ``solve`` has returned (asserted before this): the thread may
    still be between setting its event and leaving ``threading.enumerate()`` (a few bytecodes, but a loaded
    machine can deschedule it there), so it is given a moment to finish rather than caught mid-exit."""
    import threading

    for thread in [thread for thread in threading.enumerate() if thread.name == "cp-sat"]:
        thread.join(5)
    assert not [thread for thread in threading.enumerate() if thread.name == "cp-sat"]


class _StoppableSolver:
    """A stand-in for ``CpSolver``: its ``solve`` blocks until ``stop_search`` is called (or, so that a test never
    hangs, a long while passes), and says which of the two ended it."""

    def __init__(self) -> None:
        import threading
        import types

        self.parameters = types.SimpleNamespace(catch_sigint_signal=True)
        self.stopped = threading.Event()
        self.started = threading.Event()
        self.returned = threading.Event()

    def solve(self, model: object) -> str:
        self.started.set()
        try:
            return "stopped" if self.stopped.wait(10) else "ran out"
        finally:
            self.returned.set()

    def stop_search(self) -> None:
        self.stopped.set()


def test_ctrl_c_stops_the_search_it_interrupts(ctrl_c_raises):
    """``engine/sat.py``: CP-SAT's own SIGINT catching is switched off, and a KeyboardInterrupt in the waiting main
    thread stops the search (``stop_search``) before it is raised again: without that, the Ctrl-C is raised only once
    the search has spent its whole effort (a minute for the solver's stage), which the model test above still
    passes."""
    import os
    import signal
    import threading

    from cardgames.engine import sat

    solver = _StoppableSolver()

    def ctrl_c() -> None:
        solver.started.wait(60)
        os.kill(os.getpid(), signal.SIGINT)

    threading.Thread(target=ctrl_c).start()
    with pytest.raises(KeyboardInterrupt):
        sat.solve(solver, None)
    assert solver.parameters.catch_sigint_signal is False
    assert solver.stopped.is_set(), "the interrupted search was left to run out its effort"
    assert solver.returned.is_set(), "the Ctrl-C was raised while the search still ran"
    _assert_the_solving_thread_ends()


def test_ctrl_c_while_the_thread_starts_stops_its_search(monkeypatch):
    """A Ctrl-C can come while ``Thread.start`` still waits for the solving thread, which may already be in
    ``solve`` (CI met it once, in the test above): that KeyboardInterrupt too stops the search, where the
    thread once started outside the ``try`` and its search was left to run out its effort."""
    import threading

    from cardgames.engine import sat

    solver = _StoppableSolver()
    start = threading.Thread.start

    def start_then_ctrl_c(thread: threading.Thread) -> None:
        start(thread)
        if thread.name == "cp-sat":
            solver.started.wait(60)
            raise KeyboardInterrupt

    monkeypatch.setattr(threading.Thread, "start", start_then_ctrl_c)
    with pytest.raises(KeyboardInterrupt):
        sat.solve(solver, None)
    assert solver.stopped.is_set(), "the interrupted search was left to run out its effort"
    assert solver.returned.is_set(), "the Ctrl-C was raised while the search still ran"
    _assert_the_solving_thread_ends()


class _LateStoppingSolver(_StoppableSolver):
    """A search whose first ``stop_search`` is lost (it came before ``solve`` had set up its search), and the user,
    seeing the command go on, presses Ctrl-C again right then."""

    def __init__(self) -> None:
        super().__init__()
        self.stop_calls = 0

    def stop_search(self) -> None:
        import os
        import signal

        self.stop_calls += 1
        if self.stop_calls == 1:
            os.kill(os.getpid(), signal.SIGINT)  # raised in the main thread as this returns: in the stopping
        else:
            super().stop_search()


def test_a_second_ctrl_c_while_the_search_stops_still_stops_it(ctrl_c_raises):
    """The second KeyboardInterrupt, raised out of the stopping, left the search running behind the command
    (a review's finding: the interpreter then waits for it at exit). It is taken as what it is, the same
    request: the search is stopped, and the first interrupt raised."""
    import os
    import signal
    import threading

    from cardgames.engine import sat

    solver = _LateStoppingSolver()

    def ctrl_c() -> None:
        solver.started.wait(60)
        os.kill(os.getpid(), signal.SIGINT)

    threading.Thread(target=ctrl_c).start()
    with pytest.raises(KeyboardInterrupt) as raised:
        sat.solve(solver, None)
    assert raised.value.__context__ is None, "the second interrupt was raised, not the first"
    assert solver.stop_calls >= 2 and solver.stopped.is_set(), "the search was left running"
    assert solver.returned.is_set(), "the Ctrl-C was raised while the search still ran"
    _assert_the_solving_thread_ends()


@pytest.mark.parametrize("launched", [False, True], ids=["before-the-thread-runs", "before-it-reaches-solve"])
def test_ctrl_c_before_the_search_begins_begins_none(monkeypatch, launched):
    """A Ctrl-C before the solving thread reaches ``solve`` (before the thread is launched, or after but before it
    runs) is raised at once, and no search begins after it: waiting for a search that never comes would hang, and
    one begun after the Ctrl-C would run out its whole effort with nobody to stop it."""
    import threading

    from cardgames.engine import sat

    solver = _StoppableSolver()
    start = threading.Thread.start
    release = threading.Event()
    solving: list[threading.Thread] = []

    def ctrl_c_at_start(thread: threading.Thread) -> None:
        if thread.name != "cp-sat":
            return start(thread)
        if launched:
            run = thread.run
            thread.run = lambda: (release.wait(60), run())  # type: ignore[method-assign]
            solving.append(thread)
            start(thread)
        raise KeyboardInterrupt

    monkeypatch.setattr(threading.Thread, "start", ctrl_c_at_start)
    outcome: list[BaseException] = []

    def interrupted() -> None:
        try:
            sat.solve(solver, None)
        except BaseException as error:  # noqa: BLE001 - the KeyboardInterrupt is the outcome looked at
            outcome.append(error)

    caller = threading.Thread(target=interrupted, daemon=True)  # a caller that hangs must not hang pytest too
    caller.start()
    caller.join(5)
    assert not caller.is_alive(), "the Ctrl-C waited for a search that had not begun"
    assert [type(error) for error in outcome] == [KeyboardInterrupt]
    release.set()
    for thread in solving:
        thread.join(5)
    assert not solver.started.is_set(), "a search began after the Ctrl-C"
