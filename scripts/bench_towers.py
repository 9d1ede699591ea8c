"""Benchmark: full 4-player Towers games with random agents, per second (target >= 2,000).

    .venv/bin/python scripts/bench_towers.py [--games N] [--players P] [--agent random|greedy]

Each game is dealt, played to the end by seeded agents through ``engine.core.play`` (legal
actions, agent choice, apply) and settled; seeds 1..N. Also times legal-play generation alone.
"""

from __future__ import annotations

import argparse
import time

from cardgames.engine.agents import make_agents
from cardgames.engine.core import play
from cardgames.engine.registry import load_game


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--games", type=int, default=5000)
    parser.add_argument("--players", type=int, default=4)
    parser.add_argument("--agent", default="random")
    args = parser.parse_args()
    game = load_game("towers", players=args.players)
    agents = make_agents([args.agent], game)
    moves = 0
    start, cpu = time.perf_counter(), time.process_time()
    for seed in range(1, args.games + 1):
        moves += play(game, seed, agents).state.moves
    elapsed, cpu = time.perf_counter() - start, time.process_time() - cpu
    print(f"towers, {args.players} players, {args.agent} agents: {args.games} games in {elapsed:.2f} s = "
          f"{args.games / elapsed:,.0f} games/s ({args.games / cpu:,.0f} per CPU second; "
          f"{moves / args.games:.1f} actions per game, {moves / elapsed:,.0f} actions/s)")
    state = game.new_state(1)
    calls = 200_000
    start = time.perf_counter()
    for _ in range(calls):
        state._plays(state.open_towers)
    elapsed = time.perf_counter() - start
    print(f"legal-play generation (a full cache, 6 open towers): {calls / elapsed:,.0f} calls/s")


if __name__ == "__main__":
    main()
