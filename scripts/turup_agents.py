"""Each Turup agent's win share against each other agent, over seeds 1..N, for 2 and 4 players.

    python scripts/turup_agents.py [--seeds N] [--players 2 4]

For every pair of agents (A, B) and every seed, two whole matches are played (the default match:
one round per player), once with A in the even seats and B in the odd ones and once swapped, so
that neither agent profits from the seat order. A's win share is the sum of its seats' returns
(a shared win split evenly) over all those matches; A's and B's shares add up to 1. The mean
cards won per match by each agent is shown as well.
"""

from __future__ import annotations

import argparse
from itertools import combinations

from cardgames.engine.agents import agent_names, make_agents
from cardgames.engine.core import play_out
from cardgames.engine.registry import load_game


def duel(players: int, first: str, second: str, seeds: int) -> tuple[float, float, float]:
    """Win share of ``first`` against ``second``, and each one's mean cards per match."""
    game = load_game("turup", players=players)
    wins = cards_first = cards_second = 0.0
    matches = 0
    for seed in range(1, seeds + 1):
        for swap in (False, True):
            names = [(second if swap else first) if seat % 2 == 0 else (first if swap else second)
                     for seat in range(players)]
            state = play_out(game, seed, make_agents(names, game))
            returns, scores = state.returns(), state.scores()
            for seat, name in enumerate(names):
                if name == first:
                    wins += returns[seat]
                    cards_first += scores[seat]
                else:
                    cards_second += scores[seat]
            matches += 1
    share = players // 2 * matches
    return wins / matches, cards_first / share, cards_second / share


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--seeds", type=int, default=1000, help="seeds 1..N (default 1000)")
    parser.add_argument("--players", type=int, nargs="+", default=[2, 4], help="player counts (even; default 2 4)")
    args = parser.parse_args()
    print(f"Turup, seeds 1..{args.seeds}, each seed played with both seatings (matches of one round per player)")
    for players in args.players:
        if players % 2:
            parser.error("player counts must be even (two agents share the seats)")
        for first, second in combinations(agent_names(load_game("turup")), 2):  # every one, a new one too
            share, cards_a, cards_b = duel(players, first, second, args.seeds)
            print(f"{players} players: {first} vs {second}: {first} wins {share:.1%}, {second} {1 - share:.1%} "
                  f"(cards per seat per match: {cards_a:.1f} vs {cards_b:.1f})", flush=True)


if __name__ == "__main__":
    main()
