"""Greedy against random at Towers: greedy's win share over seeds 1..1000.

    .venv/bin/python scripts/towers_agents.py [--first 1] [--last 1000]

Two tables: 2 players (greedy against one random agent) and 4 players (greedy against three).
Greedy's seat rotates with the seed (seat = seed mod players), so no seat is favoured. A win is
having the best net; ties split the win. The fair share is 1/players.
"""

from __future__ import annotations

import argparse
from fractions import Fraction

from cardgames.engine.agents import make_agent
from cardgames.engine.core import play_out
from cardgames.engine.registry import load_game


def duel(players: int, first: int, last: int) -> dict[str, float]:
    game = load_game("towers", players=players)
    greedy, random = make_agent("greedy", game), make_agent("random", game)
    wins = 0.0
    net = Fraction(0)
    fled = 0
    for seed in range(first, last + 1):
        seat = seed % players
        agents = [greedy if s == seat else random for s in range(players)]
        state = play_out(game, seed, agents)
        wins += state.returns()[seat]
        net += state.net[seat]
        fled += state.fled[seat]
    games = last - first + 1
    return {"games": games, "win_share": wins / games, "fair_share": 1 / players,
            "mean_net": float(net / games), "fled": fled}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--first", type=int, default=1)
    parser.add_argument("--last", type=int, default=1000)
    args = parser.parse_args()
    for players in (2, 4):
        r = duel(players, args.first, args.last)
        print(f"{players} players, greedy vs {players - 1} random, seeds {args.first}..{args.last}: "
              f"win share {r['win_share']:.3f} (fair {r['fair_share']:.3f}), mean net {r['mean_net']:+.2f} coins, "
              f"greedy fled {r['fled']} times")


if __name__ == "__main__":
    main()
