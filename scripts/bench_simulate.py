"""Benchmark: complete games per second in one process (default: Eiffel Tower, greedy agent).

    python scripts/bench_simulate.py [--game eiffel-tower] [--games 20000] [--agent greedy] [--repeat 3]

Plays seeds 1..N through the same loop the CLI uses (deal, agents, full action history) and
prints the best of the repeats, in games per second. Target for Eiffel Tower: >= 5,000.
"""

from __future__ import annotations

import argparse
import time

from cardgames.engine.agents import make_agents
from cardgames.engine.core import play
from cardgames.engine.registry import load_game


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--game", default="eiffel-tower")
    parser.add_argument("--games", type=int, default=20000)
    parser.add_argument("--agent", default="greedy")
    parser.add_argument("--players", type=int, default=None)
    parser.add_argument("--repeat", type=int, default=3)
    args = parser.parse_args()
    game = load_game(args.game, players=args.players)
    agents = make_agents([args.agent], game)
    rates = []
    for _ in range(args.repeat):
        start = time.perf_counter()
        for seed in range(1, args.games + 1):
            play(game, seed, agents)
        rates.append(args.games / (time.perf_counter() - start))
    print(f"{args.game} ({args.agent}): best {max(rates):,.0f} games/s, median {sorted(rates)[len(rates) // 2]:,.0f} "
          f"over {args.repeat} runs of {args.games:,} games")


if __name__ == "__main__":
    main()
