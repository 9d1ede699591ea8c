"""Benchmark: wall time of `cardgames --help` and `cardgames list` as whole processes.

    python scripts/bench_cli_startup.py [--runs 10]

Runs the installed console script next to this Python; prints the median and the worst wall
time of each command. Target: <= 0.25 s each.
"""

from __future__ import annotations

import argparse
import statistics
import subprocess
import sys
import time
from pathlib import Path

SCRIPT = str(Path(sys.executable).with_name("cardgames"))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--runs", type=int, default=10)
    args = parser.parse_args()
    for command in (["--help"], ["list"]):
        subprocess.run([SCRIPT, *command], capture_output=True, check=True)  # warm-up
        times = []
        for _ in range(args.runs):
            start = time.perf_counter()
            subprocess.run([SCRIPT, *command], capture_output=True, check=True)
            times.append(time.perf_counter() - start)
        print(f"cardgames {' '.join(command)}: median {statistics.median(times):.3f} s, max {max(times):.3f} s "
              f"over {args.runs} runs")


if __name__ == "__main__":
    main()
