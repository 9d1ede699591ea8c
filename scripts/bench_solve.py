"""Solver benchmark: per-deal time distribution and verdicts for pairing games.

    python scripts/bench_solve.py                       # eiffel-tower seeds 1-10000 (the issue's target)
    python scripts/bench_solve.py --seeds 1-200 --games eiffel-tower strict-hootch --budget 300000

Prints, per game: deals, winnable / unwinnable / undecided counts, and the median, 90th, 99th
percentile and maximum solve time. Targets (issue 3): Eiffel Tower all decided, median <= 20 ms,
p99 <= 1 s.
"""

from __future__ import annotations

import argparse
import time
from collections import Counter

from cardgames.engine.batch.seeds import parse_range
from cardgames.engine.batch.stats import percentiles
from cardgames.engine.errors import CardgamesError
from cardgames.engine.games.pairing.solver import DEFAULT_BUDGET, Solver
from cardgames.engine.registry import load_game


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--seeds", default="1-10000", help="A-B (default 1-10000)")
    parser.add_argument("--games", nargs="+", default=["eiffel-tower"])
    parser.add_argument("--budget", type=int, default=None,
                        help=f"nodes per deal (default: the solver's, {DEFAULT_BUDGET} without wild cards)")
    parser.add_argument("--progress", type=int, default=0, metavar="N", help="also report every N deals")
    args = parser.parse_args()
    try:
        seeds = parse_range(args.seeds)
    except CardgamesError as exc:
        parser.error(str(exc))
    low, high = seeds.start, seeds.stop
    for name in args.games:
        game = load_game(name)
        solver = Solver(game, args.budget)
        times, verdicts = [], {True: 0, False: 0, None: 0}
        start = time.perf_counter()
        for seed in range(low, high + 1):
            solution = solver.solve(game.new_state(seed))
            times.append(solution.seconds)
            verdicts[solution.winnable] += 1
            if args.progress and len(times) % args.progress == 0:
                report(name, times, verdicts, solver.budget, start)
        report(name, times, verdicts, solver.budget, start)


def report(name: str, times: list[float], verdicts: dict, budget: int, start: float) -> None:
    """One line: deals, verdicts and the time distribution (nearest-rank percentiles)."""
    median, p90, p99, top = percentiles(Counter(times), (50, 90, 99, 100))
    print(f"{name}: {len(times)} deals in {time.perf_counter() - start:.1f} s; winnable {verdicts[True]}, "
          f"unwinnable {verdicts[False]}, undecided {verdicts[None]} (budget {budget} nodes); "
          f"median {median * 1000:.1f} ms, p90 {p90 * 1000:.1f} ms, "
          f"p99 {p99 * 1000:.1f} ms, max {top * 1000:.0f} ms", flush=True)


if __name__ == "__main__":
    main()
