"""Benchmark the Torqu optimiser on random tableaux against a set-packing MILP (scipy/HiGHS).

    python scripts/bench_torqu_score.py [--count 200] [--size 72] [--seed 1] [--start 0]
                                        [--no-milp | --milp-limit SECONDS] [--milp-jobs N] [--cpsat]

For each instance (``size`` cards drawn from the full 160-card deck with the project's Rng):
time the exact optimiser; build the straightforward MILP (one binary column per valid four-card
set, wild completions included; one row per card, <= 1) and time HiGHS solving it (building the
columns is not timed); check both optima agree. The optimiser's compiled kernels are loaded
before the first timing (the time is printed). Each call starts a fresh number-side table; the
table of one-suit groups' points persists between calls (as in a game), so the first instances
pay for filling it. Prints median and 99th percentile times and the speed ratio at the median.
With ``--cpsat``, also times the count-level model solved by CP-SAT
(``engine/games/torqu/aggregate.py``, the second exact solver) and checks its optimum too.

The optimiser is timed on every instance first, alone; HiGHS then solves the MILPs, one at a time
or, with ``--milp-jobs N``, in N processes at once (one a core: HiGHS's MIP search is serial).
HiGHS takes minutes to hours on a 72-card tableau, so the whole run takes about a day on one core.
``--start K`` runs tableaux K to K + count - 1 only (the same instances as in a whole run), so that
the run can be split between machines; ``--milp-limit`` stops HiGHS after that many seconds on a
tableau, which is then counted at the limit: the MILP figures printed are lower bounds. Such a
tableau's optimum is still checked against what HiGHS had by then: no packing it had found may be
worth more than the optimiser's optimum, and its bound (no packing is worth more) not less.
"""

from __future__ import annotations

import argparse
import sys
import time
from collections import Counter
from concurrent.futures import ProcessPoolExecutor
from functools import cache

from cardgames.engine.batch.stats import percentiles
from cardgames.engine.games.torqu.milp import MilpAnswer, milp_optimum
from cardgames.engine.registry import load_game
from cardgames.engine.rng import Rng


def median_p99(times: list[float]) -> tuple[float, float]:
    """Nearest-rank median and 99th percentile."""
    median, p99 = percentiles(Counter(times), (50, 99))
    return median, p99


def stop_unless(agrees: bool, line: str) -> None:
    """Another solver must agree with the optimiser: print the instance's line and stop if not."""
    if not agrees:
        print(line + "  MISMATCH", flush=True)
        sys.exit(1)


def tableau(game, seed: int, k: int, size: int) -> list[int]:
    """Instance ``k``: ``size`` cards of a deck shuffled by the project's Rng, sorted."""
    cards = list(range(len(game.deck)))
    Rng(seed, f"bench/{k}").shuffle(cards)
    return sorted(cards[:size])


@cache
def torqu():
    """The game whose scorer is benchmarked, loaded once a process (each HiGHS worker its own)."""
    return load_game("torqu", (), 2)


def solve_milp(seed: int, k: int, size: int, limit: float | None) -> MilpAnswer:
    """HiGHS on instance ``k`` (in a worker process)."""
    game = torqu()
    return milp_optimum(game.scorer, tableau(game, seed, k, size), time_limit=limit)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--count", type=int, default=200)
    parser.add_argument("--size", type=int, default=72)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--start", type=int, default=0, help="index of the first tableau")
    parser.add_argument("--no-milp", action="store_true")
    parser.add_argument("--milp-limit", type=float, metavar="SECONDS", help="stop HiGHS after this long a tableau")
    parser.add_argument("--milp-jobs", type=int, default=1, metavar="N", help="HiGHS processes at once")
    parser.add_argument("--cpsat", action="store_true", help="also time the CP-SAT model")
    args = parser.parse_args()
    if args.cpsat:  # imported here, before any timing (OR-tools takes a good part of a second)
        from cardgames.engine.games.torqu.aggregate import optimum
    game = torqu()
    scorer = game.scorer
    start = time.perf_counter()
    scorer.tableau_score(list(range(8)))  # loads (or, on an installation's first run, compiles) the kernels
    print(f"scoring kernels ready in {time.perf_counter() - start:.2f} s (not counted below)", flush=True)
    ours, values, cpsat = [], {}, []
    for k in range(args.start, args.start + args.count):
        codes = tableau(game, args.seed, k, args.size)
        start = time.perf_counter()
        values[k] = scorer.tableau_score(codes)["score"]
        ours.append(time.perf_counter() - start)
        line = f"{k:4d}: optimum {values[k]:5d} in {ours[-1] * 1000:9.1f} ms"
        if args.cpsat:
            start = time.perf_counter()
            other = optimum(scorer, codes)
            cpsat.append(time.perf_counter() - start)
            line += f"; CP-SAT in {cpsat[-1] * 1000:9.1f} ms"
            stop_unless(other == values[k], line)
        print(line, flush=True)
    median, p99 = median_p99(ours)
    print(f"optimiser: median {median * 1000:.1f} ms, p99 {p99 * 1000:.1f} ms "
          f"({args.count} tableaux of {args.size} cards)", flush=True)
    if cpsat:
        cpsat_median, cpsat_p99 = median_p99(cpsat)
        print(f"CP-SAT model: median {cpsat_median * 1000:.1f} ms, p99 {cpsat_p99 * 1000:.1f} ms;"
              f" equal optima on all {args.count}", flush=True)
    if not args.no_milp:
        compare_milp(args, values, median)


def compare_milp(args: argparse.Namespace, values: dict[int, int], median: float) -> None:
    """HiGHS on every instance, each optimum checked against the optimiser's; the MILP's figures."""
    theirs = []
    unproved = 0
    with ProcessPoolExecutor(args.milp_jobs) as pool:
        solves = {k: pool.submit(solve_milp, args.seed, k, args.size, args.milp_limit) for k in values}
        for k, solve in solves.items():
            answer = solve.result()
            theirs.append(answer.seconds)
            line = f"{k:4d}: optimum {values[k]:5d}; MILP "
            if answer.optimum is None:
                unproved += 1
                line += (f"no optimum proved in {answer.seconds * 1000:9.1f} ms (its best packing {answer.best},"
                         f" its bound {answer.bound})")
            else:
                line += f"{answer.optimum:5d} in {answer.seconds * 1000:9.1f} ms"
            # no packing HiGHS found beats the optimiser's, nor is its bound below it (a proved optimum being
            # its own best packing and bound, this is equality then)
            agrees = ((answer.best is None or answer.best <= values[k])
                      and (answer.bound is None or values[k] <= answer.bound))
            if not agrees:
                pool.shutdown(wait=False, cancel_futures=True)  # the solves not started yet never start
            stop_unless(agrees, line)
            print(line, flush=True)
    milp_median, milp_p99 = median_p99(theirs)
    at_least = "at least " if unproved else ""
    checked = f"equal optima on all {args.count}" if not unproved else (
        f"equal optima on the {args.count - unproved} solved; {unproved} stopped at {args.milp_limit:g} s,"
        f" each optimum within HiGHS's bracket")
    print(f"MILP (HiGHS): median {at_least}{milp_median * 1000:.1f} ms, p99 {at_least}{milp_p99 * 1000:.1f} ms;"
          f" {checked}; speed ratio at the median {at_least}{milp_median / median:.1f}x")


if __name__ == "__main__":
    main()
