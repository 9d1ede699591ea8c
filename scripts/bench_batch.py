"""Batch analyser benchmarks (issue #7's speed targets), run through the same code as the CLI.

    python scripts/bench_batch.py                       # the full sizes (a few minutes)
    python scripts/bench_batch.py --big 50000 --speedup 20000 --dask 20000   # a quick look

1. ``--big`` Eiffel Tower games, greedy, 2 workers, streamed to a result file: games/s, wall time,
   and memory: the parent's resident size sampled as the batch grows, and the peak resident
   size of the parent and of the worker processes. Target: 1,000,000 in <= 300 s, flat memory.
2. ``--speedup`` games with 1 worker (in-process) and with 2 worker processes. Target >= 1.8x.
3. ``--dask`` games on a Dask LocalCluster of 2 workers and on the process pool, cluster start-up
   included. Target: dask within 15 % of the pool.

The machine may be shared: the load average is printed first, and CPU time per game (which
load does not change much) is printed beside each wall-clock rate.
"""

from __future__ import annotations

import argparse
import os
import resource
import tempfile
import time
from pathlib import Path

from cardgames.engine.agents import make_agents
from cardgames.engine.batch.runner import run_batch
from cardgames.engine.batch.seeds import SeedRange
from cardgames.engine.registry import load_game

GAME = "eiffel-tower"


def rss_mib() -> float:
    """This process's resident set size now, in MiB (Linux /proc)."""
    with open("/proc/self/status") as status:
        for line in status:
            if line.startswith("VmRSS:"):
                return int(line.split()[1]) / 1024
    return float("nan")


def cpu_seconds() -> float:
    """CPU time of this process and of its finished children (the pool's workers)."""
    own = resource.getrusage(resource.RUSAGE_SELF)
    kids = resource.getrusage(resource.RUSAGE_CHILDREN)
    return own.ru_utime + own.ru_stime + kids.ru_utime + kids.ru_stime


def run(games: int, workers: int, backend: str = "process", out: Path | None = None,
        samples: list[tuple[int, float]] | None = None) -> tuple[float, float, float]:
    """Play ``games`` seeds; return (wall seconds including start-up, CPU seconds, start-up seconds)."""
    game = load_game(GAME)
    agents = [a.name for a in make_agents([], game)]
    done = [0]
    marks = [games * k // 10 for k in range(1, 11)]

    def chunk(count: int) -> None:
        done[0] += count
        while samples is not None and marks and done[0] >= marks[0]:
            samples.append((marks.pop(0), rss_mib()))

    cpu, start = cpu_seconds(), time.perf_counter()
    outcome = run_batch(game, agents, "native", SeedRange(0, games - 1), workers=workers, backend=backend,
                        out=str(out) if out else None, on_chunk=chunk)
    wall = time.perf_counter() - start
    assert outcome.summary.games == games
    return wall, cpu_seconds() - cpu, outcome.startup


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--big", type=int, default=1_000_000, help="games for the rate/memory run (0: skip)")
    parser.add_argument("--speedup", type=int, default=100_000, help="games for 1 vs 2 workers (0: skip)")
    parser.add_argument("--dask", type=int, default=200_000, help="games for dask vs the pool (0: skip)")
    args = parser.parse_args()
    print(f"load average {os.getloadavg()[0]:.2f} on {os.cpu_count()} CPUs")

    if args.big:
        with tempfile.TemporaryDirectory() as folder:
            out = Path(folder) / "big.jsonl"
            samples: list[tuple[int, float]] = []
            wall, cpu, _ = run(args.big, 2, out=out, samples=samples)
            size = out.stat().st_size
        print(f"\n1. {args.big:,} {GAME} games, greedy, --workers 2, --out: {wall:.1f} s, "
              f"{args.big / wall:,.0f} games/s (target >= 3,333), {cpu / args.big * 1e6:.0f} us CPU/game, "
              f"file {size / 2**20:.1f} MiB")
        print("   parent RSS (MiB) as the batch grows: "
              + ", ".join(f"{n // 1000:,}k: {mib:.1f}" for n, mib in samples))
        peak_self = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
        peak_kids = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss / 1024
        print(f"   peak RSS: parent {peak_self:.1f} MiB, largest worker {peak_kids:.1f} MiB")

    if args.speedup:
        with tempfile.TemporaryDirectory() as folder:
            one, cpu1, _ = run(args.speedup, 1, out=Path(folder) / "one.jsonl")
            two, cpu2, _ = run(args.speedup, 2, out=Path(folder) / "two.jsonl")
        print(f"\n2. {args.speedup:,} games: 1 worker {one:.1f} s ({args.speedup / one:,.0f}/s), "
              f"2 workers {two:.1f} s ({args.speedup / two:,.0f}/s): speed-up {one / two:.2f}x (target >= 1.8x); "
              f"CPU {cpu1:.1f} s vs {cpu2:.1f} s")

    if args.dask:
        with tempfile.TemporaryDirectory() as folder:
            pool, _, pool_up = run(args.dask, 2, out=Path(folder) / "pool.jsonl")
            dask, _, dask_up = run(args.dask, 2, backend="dask", out=Path(folder) / "dask.jsonl")
        print(f"\n3. {args.dask:,} games, 2 workers: process pool {pool:.1f} s ({args.dask / pool:,.0f}/s, "
              f"start-up {pool_up:.1f} s), dask LocalCluster {dask:.1f} s ({args.dask / dask:,.0f}/s, "
              f"start-up {dask_up:.1f} s)")
        print(f"   dask vs pool: {(dask / pool - 1) * 100:+.1f} % start-up included, "
              f"{((dask - dask_up) / (pool - pool_up) - 1) * 100:+.1f} % without (target <= +15 %)")


if __name__ == "__main__":
    main()
