"""The pairing solver: exact against brute force on tiny decks, and its lines replay to a win."""

from __future__ import annotations

from pathlib import Path

import orjson
import pytest

from cardgames.engine.config import Catalog, bundled_root
from cardgames.engine.core import Playthrough
from cardgames.engine.games.pairing.solver import Solver
from cardgames.engine.log import build_log, replay
from cardgames.engine.registry import load_game

DATA = Path(__file__).parent / "data" / "pairing"
CATALOG = Catalog([DATA, bundled_root()])


def position_after(which: tuple, seed: int, moves: list[int]):
    """A game and the position reached from seed ``seed`` by arbitrary legal ``moves``
    (each picks among the legal actions by index), for testing the solver mid-game."""
    game = load_game(*which, catalog=CATALOG)
    state = game.new_state(seed)
    for pick in moves:
        legal = state.legal_actions()
        if not legal:
            break
        state.apply(legal[pick % len(legal)])
    return game, state


def brute_force(state) -> bool:
    """Try every legal action sequence (no memo, no reduction): the definition of winnable."""
    if state.won():
        return True
    for action in state.legal_actions():
        child = state.clone()
        child.apply(action)
        if brute_force(child):
            return True
    return False


def agrees_with_brute_force(solution, state) -> bool:
    """Assert the solver's verdict on ``state`` is brute force's and that its line replays to a
    win; return the verdict."""
    truth = brute_force(state.clone())
    assert solution.winnable is truth
    if truth:
        assert_line_wins(state, solution.line)
    return truth


def assert_line_wins(state, line) -> None:
    """Assert that ``line`` is legal from ``state`` (left unchanged) and ends in a win."""
    position = state.clone()
    for action in line:
        position.apply(action)
    assert position.won()


@pytest.mark.parametrize("name, variants", [("tiny-plain", ()), ("tiny-plain", ("strict",)), ("tiny-capped", ()),
                                            ("tiny-capped", ("strict",)), ("mini-wild", ()), ("mini-wild", ("strict",)),
                                            ("mini-capped", ())])
def test_solver_agrees_with_brute_force(name, variants):
    game = load_game(name, variants, catalog=CATALOG)
    solver = Solver(game)
    verdicts = []
    for seed in range(40):
        state = game.new_state(seed)
        verdicts.append(agrees_with_brute_force(solver.solve(state), state))
    assert any(verdicts) and not all(verdicts), "the test decks should give both outcomes"


@pytest.mark.parametrize("name, seeds", [("eiffel-tower", range(1, 15)), ("strict-eiffel-tower", range(45, 80)),
                                         ("hootch", range(1, 15)), ("castle", range(1, 15)),
                                         ("new-eiffel-tower", range(1, 15)), ("wizards-tower", range(2, 5)),
                                         ("equinox", range(1, 15))])
def test_winning_lines_replay_to_a_win(name, seeds):
    """Every winning line the solver gives replays through the rules to a win; each game's seeds
    hold some (Strict Eiffel Tower's first are 49, 59, 64, 77, 79)."""
    game = load_game(name)
    solver = Solver(game, budget=50_000, sat_effort=2.0)
    checked = 0
    for seed in seeds:
        state = game.new_state(seed)
        solution = solver.solve(state)
        if solution.winnable:
            history = []
            for action in solution.line:
                state.apply(action)
                history.append((0, action))
            assert state.won()
            replay(build_log(game, Playthrough(state, seed, "native", ["solver"], history)))
            checked += 1
    assert checked


def test_solver_from_a_position_mid_game():
    game = load_game("eiffel-tower")
    state = game.new_state(3)
    first = Solver(game).solve(state)
    assert first.winnable
    for action in first.line[:40]:
        state.apply(action)
    again = Solver(game).solve(state)
    assert again.winnable
    assert_line_wins(state, again.line)


def test_budget_runs_out_to_null():
    game = load_game("eiffel-tower")
    assert Solver(game, budget=5, sat_effort=0).solve(game.new_state(3)).winnable is None


def test_solver_agent_wins_winnable_deals_and_plays_on_otherwise(run_cli, tmp_path):
    import orjson

    out = run_cli("simulate", "--game", "eiffel-tower", "--seed", "3", "--agent", "solver",
                  "--log", str(tmp_path / "w.json"))
    assert out.exit_code == 0
    assert orjson.loads(out.stdout)["won"] is True
    assert run_cli("replay", str(tmp_path / "w.json")).exit_code == 0
    lost = run_cli("simulate", "--game", "eiffel-tower", "--seed", "1", "--agent", "solver",
                   "--log", str(tmp_path / "l.json"))
    assert orjson.loads(lost.stdout)["won"] is False


def test_solve_cli(run_cli, tmp_path):
    import orjson

    out = run_cli("solve", "--game", "eiffel-tower", "--seeds", "1-4", "--format", "jsonl")
    rows = [orjson.loads(line) for line in out.stdout.splitlines()]
    assert [r["seed"] for r in rows] == [1, 2, 3, 4]
    assert set(rows[0]) == {"game", "variants", "seed", "winnable", "nodes", "seconds"}
    assert (rows[0]["game"], rows[0]["variants"]) == ("eiffel-tower", [])
    for spelling in (["--game", "strict-eiffel-tower"], ["--game", "eiffel-tower", "--variant", "strict"]):
        row = orjson.loads(run_cli("solve", *spelling, "--seeds", "1-1", "--format", "jsonl").stdout)
        assert (row["game"], row["variants"]) == ("eiffel-tower", ["strict"])  # as logs and batch files say
    log = tmp_path / "win.json"
    assert run_cli("solve", "--game", "eiffel-tower", "--seed", "3", "--log", str(log)).exit_code == 0
    assert run_cli("replay", str(log)).exit_code == 0
    bad = run_cli("solve", "--game", "eiffel-tower", "--seed", "1", "--log", str(tmp_path / "x.json"))
    assert bad.exit_code == 1 and "not winnable" in bad.stderr and "Traceback" not in bad.stderr
    assert not (tmp_path / "x.json").exists()
    for fmt in ("json", "jsonl"):  # with no line to write, the verdict is printed all the same
        bad = run_cli("solve", "--game", "eiffel-tower", "--seed", "1", "--log", str(tmp_path / "x.json"),
                      "--format", fmt)
        assert bad.exit_code == 1 and orjson.loads(bad.stdout)["winnable"] is False
    for fmt in ("text", "json", "jsonl"):  # --log -: the log alone on stdout, the verdict on stderr
        piped = run_cli("solve", "--game", "eiffel-tower", "--seed", "3", "--log", "-", "--format", fmt)
        assert piped.exit_code == 0 and '"winnable":true' in piped.stderr
        assert orjson.loads(piped.stdout)["format"] == "cardgames-log"
        assert run_cli("replay", "-", input=piped.stdout).exit_code == 0
    both = run_cli("solve", "--game", "eiffel-tower")
    assert both.exit_code == 2 and "exactly one" in both.stderr  # a usage error
    assert run_cli("solve", "--game", "eiffel-tower", "--seeds", "9-3").exit_code == 1
    pys = run_cli("solve", "--game", "eiffel-tower", "--seed", "ms1", "--rng", "pysolfc", "--format", "json")
    assert pys.exit_code == 0 and orjson.loads(pys.stdout)["winnable"] in (True, False)


def test_solve_says_what_it_decided(run_cli, tmp_path):
    """A range's summary on stderr counts the undecided apart (null is no win); a single --seed
    has none and its seed is the number it is; a written line says where it went; a deal left
    undecided says so, not "not winnable"; --log - with no line to write leaves stdout empty (it
    is the log's, piped into `replay -`)."""
    undecided = ("--budget", "1", "--sat-effort", "0")
    many = run_cli("solve", "--game", "eiffel-tower", "--seeds", "1-3", *undecided)
    assert many.exit_code == 0 and many.stderr == "0/3 winnable, 3 undecided\n"
    one = run_cli("solve", "--game", "eiffel-tower", "--seed", "3")
    assert one.exit_code == 0 and one.stderr == ""
    one_json = run_cli("solve", "--game", "eiffel-tower", "--seed", "3", "--format", "json").stdout
    assert orjson.loads(one_json)["seed"] == 3
    log = tmp_path / "w.json"
    written = run_cli("solve", "--game", "eiffel-tower", "--seed", "3", "--log", str(log))
    assert written.stderr == f"winning line ({len(orjson.loads(log.read_bytes())['actions'])} moves) written to {log}\n"
    unknown = run_cli("solve", "--game", "eiffel-tower", "--seed", "3", *undecided, "--log", str(tmp_path / "u.json"))
    assert unknown.exit_code == 1
    assert unknown.stderr == "Error: eiffel-tower seed 3 is undecided within the budget: no winning line to write\n"
    lost = run_cli("solve", "--game", "eiffel-tower", "--seed", "1", "--log", "-")
    assert lost.exit_code == 1 and lost.stdout == ""


def test_solve_help_names_the_solvers_own_defaults(run_cli):
    """The help's defaults are read from the solver when shown, so they cannot go stale."""
    from cardgames.engine.games.pairing.solver import DEFAULT_BUDGET, SAT_EFFORT, SEARCH_ONLY_BUDGET

    shown = " ".join(run_cli("solve", "--help").stdout.split())
    assert f"default: {DEFAULT_BUDGET:,}; {SEARCH_ONLY_BUDGET:,} with wild cards" in shown
    assert f"(default: {SAT_EFFORT:g}; 0: no CP-SAT stage)" in shown
