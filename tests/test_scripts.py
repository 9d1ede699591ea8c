"""The benchmark and report scripts run, each on a tiny input, and print their figure.

Not a timing check (the figures are not compared with anything): a script that no longer runs against the
engine it measures would otherwise be found only by whoever next needs its figure.
"""

from __future__ import annotations

import argparse
import json
import re
import subprocess
import sys
from pathlib import Path
from types import ModuleType

import pytest

SCRIPTS = Path(__file__).resolve().parent.parent / "scripts"

RUNS = [
    ("bench_batch.py", ["--big", "200", "--speedup", "0", "--dask", "0"], r"peak RSS: parent [\d.]+ MiB"),
    ("bench_cli_startup.py", ["--runs", "1"], r"cardgames --help: median [\d.]+ s"),
    ("bench_simulate.py", ["--games", "5", "--repeat", "1"], r"eiffel-tower \(greedy\): best [\d,]+ games/s"),
    ("bench_solve.py", ["--seeds", "1-3"], r"eiffel-tower: 3 deals in [\d.]+ s; .* median [\d.]+ ms, p90"),
    ("bench_torqu_games.py", ["--games", "1"], r"1 games of 4 players \(random\): [\d.]+ s, [\d.]+ games/s"),
    ("bench_torqu_score.py", ["--count", "2", "--size", "24", "--no-milp"], r"median [\d.]+ ms, p99 [\d.]+ ms"),
    ("bench_towers.py", ["--games", "5"], r"5 games in [\d.]+ s = [\d,]+ games/s"),
    ("bench_turup_captures.py", ["--piles", "5"], r"K: +[\d.]+ ms"),
    ("bench_turup_rounds.py", ["--seconds", "0.05"], r"12 players: +\d+ rounds/s"),
    ("torqu_greedy_vs_random.py", ["--seeds", "1", "--workers", "1"], r"greedy won \d of 1 matches"),
    ("towers_agents.py", ["--first", "1", "--last", "2"], r"4 players, greedy vs 3 random, seeds 1..2: win share"),
    ("turup_agents.py", ["--seeds", "2", "--players", "2"], r"2 players: expert vs greedy: expert wins"),
]


@pytest.mark.parametrize(("script", "args", "figure"), RUNS, ids=[run[0] for run in RUNS])
def test_a_script_runs_and_prints_its_figure(script: str, args: list[str], figure: str) -> None:
    done = subprocess.run([sys.executable, str(SCRIPTS / script), *args], capture_output=True, text=True,
                          timeout=300)
    assert done.returncode == 0, done.stderr
    assert re.search(figure, done.stdout), done.stdout


def test_every_benchmark_is_run_here() -> None:
    """A new ``bench_*`` script joins the list above."""
    assert {p.name for p in SCRIPTS.glob("bench_*.py")} <= {run[0] for run in RUNS}


def test_the_report_names_each_stages_effort_without_cp_sat(report: ModuleType) -> None:
    """A Wizard's Tower row's budget cell, with CP-SAT off (``--sat-effort 0``), names the search's budget and
    each projection size's efforts (a reviewer's finding: a number and text added, a TypeError)."""
    chunk = {"won": 1, "lost": 0, "undecided": 0, "greedy": 0, "times": [0.5]}
    cells = report.row("wizards-tower", (1, 1, 300000), 0.0, [chunk]).split(" | ")
    assert cells[7] == ("300000 + 3-pair projections 3000000 each + 5-pair projections 60000000 each, 300000000 in "
                        "all + 7-pair projections 60000000 each, 480000000 in all")
    strict = report.row("strict-wizards-tower", (1, 1, 300000), 0.0, [chunk]).split(" | ")  # the solver's order
    assert strict[7] == ("blocks 1000000 + 300000 + 3-pair projections 3000000 each + 5-pair projections 60000000 "
                         "each, 300000000 in all + blocks 300000000 + 7-pair projections 60000000 each, 480000000 in "
                         "all")


@pytest.fixture
def report(module_at) -> ModuleType:
    """``scripts/pairing_report.py`` imported as a module, so that its ``main`` runs in this process."""
    return module_at("pairing_report")


def _report_page(report: ModuleType, monkeypatch: pytest.MonkeyPatch, out: Path, *args: str) -> dict[str, list[str]]:
    """Run the report with ``args`` (CP-SAT off, one worker) into ``out``; its rows' cells, by game."""
    monkeypatch.setattr(sys, "argv", ["pairing_report.py", "--sat-effort", "0", "--out", str(out), *args])
    report.main()
    lines = out.read_text().splitlines()
    header = next(line for line in lines if line.startswith("| game |"))
    rows = [line for line in lines if line.startswith("| ") and line != header]
    assert all(line.count("|") == header.count("|") for line in rows)  # no cell lost nor added
    return {cells[0]: cells for cells in ([c.strip() for c in line.split("|")[1:-1]] for line in rows)}


def _truth(name: str, seeds: range, budget: int) -> tuple[int, int, int, int]:
    """Won, lost, undecided and greedy wins over ``seeds``, counted here without the script."""
    from cardgames.engine.agents import make_agents
    from cardgames.engine.core import play_out
    from cardgames.engine.games.pairing.solver import Solver
    from cardgames.engine.registry import load_game

    game = load_game(name)
    verdicts = [Solver(game, budget, 0.0).solve(game.new_state(seed)).winnable for seed in seeds]
    greedy = sum(play_out(game, seed, make_agents(["greedy"], game)).won() for seed in seeds)
    return verdicts.count(True), verdicts.count(False), verdicts.count(None), greedy


def test_the_report_counts_every_seed_once_and_leaves_undecided_deals_out_of_the_rate(
        report: ModuleType, monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    """Over seeds 1-8 in chunks of 3 (the last one short), the row's winnable rate is over the decided deals
    only, its undecided count and greedy rate over all 8 seeds, each seed solved once, whatever the chunks."""
    from cardgames.engine.batch.compare import wilson

    monkeypatch.setattr(report, "CHUNK", 3)
    won, lost, undecided, greedy = _truth("eiffel-tower", range(1, 9), 3000)
    assert undecided and won and lost  # the seeds must exercise all three verdicts
    cells = _report_page(report, monkeypatch, tmp_path / "p.md", "--games", "eiffel-tower", "--seeds", "1-8",
                         "--budget", "3000")["eiffel-tower"]
    low, high = wilson(won, won + lost)
    assert cells[6:10] == ["1-8", "3000", f"{100 * won / (won + lost):.1f} % [{100 * low:.1f}, {100 * high:.1f}]",
                           str(undecided)]
    low, high = wilson(greedy, 8)
    assert cells[10] == f"{100 * greedy / 8:.1f} % [{100 * low:.1f}, {100 * high:.1f}]"
    assert "`scripts/pairing_report.py --seeds 1-8 --budget 3000 --sat-effort 0`" in (tmp_path / "p.md").read_text()


def test_the_reports_cache_is_kept_per_budget_and_dropped_by_fresh(
        report: ModuleType, monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    """A chunk cached under one node budget is not reused for another (the rates would be the other budget's);
    one cached under the same task is reused without solving again, but not for a game named by ``--fresh``."""
    cache, out = tmp_path / "cache.json", tmp_path / "p.md"
    args = ("--games", "eiffel-tower", "--seeds", "1-8", "--cache", str(cache))
    small = _report_page(report, monkeypatch, out, *args, "--budget", "1000")["eiffel-tower"]
    large = _report_page(report, monkeypatch, out, *args, "--budget", "3000")["eiffel-tower"]
    assert (small[9], large[9]) == (str(_truth("eiffel-tower", range(1, 9), 1000)[2]),
                                    str(_truth("eiffel-tower", range(1, 9), 3000)[2]))

    def unwanted(task: tuple) -> dict:
        raise AssertionError(f"{task} solved again")

    monkeypatch.setattr(report, "count", unwanted)
    assert _report_page(report, monkeypatch, out, *args, "--budget", "1000")["eiffel-tower"][:11] == small[:11]
    with pytest.raises(AssertionError, match="solved again"):
        _report_page(report, monkeypatch, out, *args, "--budget", "1000", "--fresh", "eiffel-tower")


def test_retry_undecided_folds_new_verdicts_into_their_chunks(
        report: ModuleType, monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    """``--retry-undecided`` re-solves each cached undecided deal with its chunk's budget, and the page then
    counts the new verdicts (won as won, lost as lost) and no deal twice; the cache keeps them, and each retried
    deal's new solve time (a "better solver" stands in here: a larger budget)."""
    from cardgames.engine.games.pairing.solver import Solver
    from cardgames.engine.registry import load_game

    monkeypatch.setattr(report, "CHUNK", 3)
    cache, out = tmp_path / "cache.json", tmp_path / "p.md"
    args = ("--games", "eiffel-tower", "--seeds", "1-8", "--budget", "1000", "--cache", str(cache))
    _report_page(report, monkeypatch, out, *args)
    asked = []

    def better(job: tuple[str, int, int, float]) -> tuple[bool | None, float]:
        asked.append(job)
        game = load_game(job[0])
        return Solver(game, 20000, 0.0).solve(game.new_state(job[1])).winnable, 9.0

    monkeypatch.setattr(report, "retry", better)
    open_before = {key: (json.loads(key)[1], chunk["undecided_seeds"], chunk["times"])
                   for key, chunk in json.loads(cache.read_text()).items()}
    # the same chunks named by --limit, without --budget: the retries must still get the chunks' budget
    cells = _report_page(report, monkeypatch, out, "--games", "eiffel-tower", "--seeds", "1-8", "--cache", str(cache),
                         "--limit", "eiffel-tower:1-8:1000", "--retry-undecided")["eiffel-tower"]
    before = _truth("eiffel-tower", range(1, 9), 1000)
    after = _truth("eiffel-tower", range(1, 9), 20000)
    assert len(asked) == before[2] and {job[2] for job in asked} == {1000}
    assert cells[7:10] == ["1000", report.pct(after[0], after[0] + after[1]), str(after[2])]
    chunks = json.loads(cache.read_text())
    assert sorted(chunks) == sorted(open_before) and [s for c in chunks.values() for s in c["undecided_seeds"]] == []
    for key, (low, seeds, times) in open_before.items():  # each retried deal's time in its own place, no other
        assert chunks[key]["times"] == [9.0 if low + i in seeds else t for i, t in enumerate(times)]


def test_retry_effort_is_the_retried_deals_alone(
        report: ModuleType, monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    """``--retry-effort`` is CP-SAT's effort for the retried deals only (Strict Wizard's Tower 401 needed 120
    times the default): the chunks keep their keys, so none is solved again, and an ``--update`` says it."""
    monkeypatch.setattr(report, "CHUNK", 3)
    cache, out = tmp_path / "cache.json", tmp_path / "p.md"
    args = ("--games", "eiffel-tower", "--seeds", "1-8", "--budget", "1000", "--cache", str(cache))
    _report_page(report, monkeypatch, out, *args)
    asked = []
    monkeypatch.setattr(report, "retry", lambda job: (asked.append(job), (None, 1.0))[1])

    def unwanted(task: tuple) -> dict:
        raise AssertionError(f"{task} solved again")

    monkeypatch.setattr(report, "count", unwanted)
    _report_page(report, monkeypatch, out, *args, "--retry-undecided", "--retry-effort", "7", "--update")
    assert asked and {job[3] for job in asked} == {7.0}
    assert ("--retry-undecided --retry-effort 7` (the other rows are from the run named above). The deals the "
            "cache held undecided were solved again with CP-SAT's searches at 7 deterministic seconds each"
            in out.read_text())


def test_update_replaces_only_the_named_rows_and_says_so_once(
        report: ModuleType, monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    """``--update --games G`` rewrites G's row alone, under a note naming the run; the same update again adds no
    second note; a game with no row on the page, or no ``--games``, is refused rather than silently left out, and
    before any deal is solved (1000 seeds of a game can take hours, all lost to the refusal)."""
    out = tmp_path / "p.md"
    first = _report_page(report, monkeypatch, out, "--games", "eiffel-tower", "new-eiffel-tower",
                         "--seeds", "1-3", "--budget", "1000")
    update = ("--games", "new-eiffel-tower", "--seeds", "1-3", "--budget", "3000", "--update")
    for _ in range(2):
        again = _report_page(report, monkeypatch, out, *update)
        text = out.read_text()
        assert text.count("Rows new-eiffel-tower replaced by `scripts/pairing_report.py --update --games "
                          "new-eiffel-tower --seeds 1-3 --budget 3000 --sat-effort 0`") == 1
    assert again["eiffel-tower"] == first["eiffel-tower"] and again["new-eiffel-tower"][7] == "3000"
    assert text.index("Rows new-eiffel-tower") < text.index("| game |")

    def unwanted(task: tuple) -> dict:
        raise AssertionError(f"{task} solved before the update was refused")

    monkeypatch.setattr(report, "count", unwanted)
    for games, said in ((["--games", "castle"], "has no row for castle"), ([], "--update needs --games")):
        monkeypatch.setattr(sys, "argv", ["pairing_report.py", "--out", str(out), *games, "--seeds", "1",
                                          "--budget", "10", "--sat-effort", "0", "--update"])
        with pytest.raises(SystemExit, match=said):
            report.main()


def test_limit_gives_one_game_its_own_seeds_and_budget(
        report: ModuleType, monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    """``--limit GAME:A-B:BUDGET`` changes that game's row alone, and the page's header quotes it; a malformed
    value is a usage error (argparse's), not a traceback."""
    rows = _report_page(report, monkeypatch, tmp_path / "p.md", "--games", "eiffel-tower", "new-eiffel-tower",
                        "--seeds", "1-2", "--budget", "1000", "--limit", "new-eiffel-tower:3-5:3000")
    assert (rows["eiffel-tower"][6:8], rows["new-eiffel-tower"][6:8]) == (["1-2", "1000"], ["3-5", "3000"])
    assert "--seeds 1-2 --budget 1000 --sat-effort 0 --limit new-eiffel-tower:3-5:3000`" in \
        (tmp_path / "p.md").read_text()
    for bad in ("castle:1-200", "castle:1-200:lots", "castle:9-1:100"):
        with pytest.raises(argparse.ArgumentTypeError):
            report.limit(bad)
    assert report.limit("castle:7:100") == ("castle", (7, 7, 100))
