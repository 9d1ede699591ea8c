"""Full Torqu games per second with random agents (issue 4's target: 20 four-player games a second).

    python scripts/bench_torqu_games.py [--players 4] [--games 20] [--seed 1] [--agent random]
                                        [--variant V ...]

The scorer's compiled kernels are loaded before the clock starts (that time is printed apart).
The slowest game is named too: with ``--variant dragons`` a game is as slow as its slowest final
tableau (``--players 2 --agent greedy --variant dragons --seed 3 --games 1`` is the one the
scorer hands to CP-SAT: the eighteenth pass in docs/performance/torqu-scoring.md).
"""

from __future__ import annotations

import argparse
import time

from cardgames.engine.agents import make_agents
from cardgames.engine.core import play
from cardgames.engine.registry import load_game


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--players", type=int, default=4)
    parser.add_argument("--games", type=int, default=20)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--agent", default="random")
    parser.add_argument("--variant", action="append", default=[], help="a variant overlay (repeat for more)")
    args = parser.parse_args()
    game = load_game("torqu", args.variant, args.players)
    agents = make_agents([args.agent], game)
    start = time.perf_counter()
    game.scorer.tableau_score(list(range(8)))  # loads (or, on an installation's first run, compiles) the kernels
    print(f"scoring kernels ready in {time.perf_counter() - start:.2f} s (not counted below)", flush=True)
    matches = moves = 0
    times = {}
    for seed in range(args.seed, args.seed + args.games):
        start = time.perf_counter()
        result = play(game, seed, agents).state.result()
        times[seed] = time.perf_counter() - start
        matches += result["matches"]
        moves += result["moves"]
    elapsed = sum(times.values())
    slowest = max(times, key=times.get)
    variants = "".join(f" {v}" for v in args.variant)
    print(f"{args.games} games of {args.players} players{variants} ({args.agent}): {elapsed:.2f} s, "
          f"{args.games / elapsed:.2f} games/s, {matches / args.games:.1f} matches and {moves / args.games:.0f} "
          f"actions per game; slowest: seed {slowest}, {times[slowest]:.2f} s")


if __name__ == "__main__":
    main()
