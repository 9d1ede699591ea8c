"""Full Torqu games per second with random agents.

    python scripts/bench_torqu_games.py [--players 4] [--games 20] [--seed 1] [--agent random]

The scorer's compiled kernels are loaded before the clock starts (that time is printed apart).
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
    args = parser.parse_args()
    game = load_game("torqu", (), args.players)
    agents = make_agents([args.agent], game)
    start = time.perf_counter()
    game.scorer.tableau_score(list(range(8)))  # loads (or, on an installation's first run, compiles) the kernels
    print(f"scoring kernels ready in {time.perf_counter() - start:.2f} s (not counted below)", flush=True)
    start = time.perf_counter()
    matches = moves = 0
    for seed in range(args.seed, args.seed + args.games):
        result = play(game, seed, agents).state.result()
        matches += result["matches"]
        moves += result["moves"]
    elapsed = time.perf_counter() - start
    print(f"{args.games} games of {args.players} players ({args.agent}): {elapsed:.2f} s, "
          f"{args.games / elapsed:.2f} games/s, {matches / args.games:.1f} matches and {moves / args.games:.0f} "
          "actions per game")


if __name__ == "__main__":
    main()
