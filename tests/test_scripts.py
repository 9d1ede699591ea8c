"""The benchmark and report scripts run, each on a tiny input, and print their figure.

Not a timing check (the figures are not compared with anything): a script that no longer runs against the
engine it measures would otherwise be found only by whoever next needs its figure.
"""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

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


def test_the_report_names_each_stages_effort_without_cp_sat() -> None:
    """A Wizard's Tower row's budget cell, with CP-SAT off (``--sat-effort 0``), names the search's budget and
    each projection size's efforts (a reviewer's finding: a number and text added, a TypeError)."""
    import importlib.util

    spec = importlib.util.spec_from_file_location("pairing_report", SCRIPTS / "pairing_report.py")
    report = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(report)
    chunk = {"won": 1, "lost": 0, "undecided": 0, "greedy": 0, "times": [0.5]}
    cells = report.row("wizards-tower", (1, 1, 300000), 0.0, [chunk]).split(" | ")
    assert cells[7] == ("300000 + 3-pair projections 3000000 each + 5-pair projections 60000000 each, 300000000 in "
                        "all + 7-pair projections 60000000 each, 480000000 in all")
    strict = report.row("strict-wizards-tower", (1, 1, 300000), 0.0, [chunk]).split(" | ")  # the solver's order
    assert strict[7] == ("blocks 1000000 + 300000 + 3-pair projections 3000000 each + 5-pair projections 60000000 "
                         "each, 300000000 in all + blocks 300000000 + 7-pair projections 60000000 each, 480000000 in "
                         "all")
