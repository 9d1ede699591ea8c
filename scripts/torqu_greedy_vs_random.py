"""Greedy against random in 2-player Torqu matches: the share of matches greedy wins.

    python scripts/torqu_greedy_vs_random.py [--seeds 1-1000]

Each seed plays one match (greedy in seat 0, random in seat 1, then swapped on the next seed):
the match score decides the winner (ties count as not won).
"""

from __future__ import annotations

import argparse

from cardgames.engine.agents import make_agents
from cardgames.engine.core import play
from cardgames.engine.registry import load_game


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--seeds", default="1-1000")
    args = parser.parse_args()
    low, high = (int(x) for x in args.seeds.split("-"))
    game = load_game("torqu", (), 2)
    wins = played = 0
    for seed in range(low, high + 1):
        greedy_seat = seed % 2
        names = ["greedy", "random"] if greedy_seat == 0 else ["random", "greedy"]
        run = play(game, seed, make_agents(names, game), stop=lambda s: s.rounds_played >= 1)
        scores = run.state.match_scores[0]
        played += 1
        wins += scores[greedy_seat] > scores[1 - greedy_seat]
        print(f"seed {seed}: greedy {scores[greedy_seat]}, random {scores[1 - greedy_seat]}; "
              f"greedy won {wins}/{played} ({100 * wins / played:.1f}%)", flush=True)


if __name__ == "__main__":
    main()
