"""Benchmark: full Turup rounds with random agents, in rounds per second.

    python scripts/bench_turup_rounds.py [--seconds S]

Two set-ups from the issue: 4 players on one deck (target >= 1,000 rounds/s) and 12 players on
three decks (target >= 200 rounds/s). Each seed plays one round (``rounds: 1`` is not needed:
the loop stops when the first round is complete), dealt and played through ``engine.core.play``
exactly as ``simulate`` does, so dealing, legal-action listing, agents and apply are all timed.
The capture cache starts cold and warms up during the run, as in a batch.
"""

from __future__ import annotations

import argparse
import time

from cardgames.engine.agents import make_agents
from cardgames.engine.core import play
from cardgames.engine.registry import load_game


def rounds_per_second(players: int, seconds: float) -> tuple[float, int]:
    game = load_game("turup", players=players)
    agents = make_agents(["random"], game)
    stop = lambda state: state.rounds_played >= 1  # noqa: E731
    start = time.perf_counter()
    seed = 0
    while time.perf_counter() - start < seconds:
        seed += 1
        run = play(game, seed, agents, stop=stop)
        assert run.state.rounds_played == 1
    return seed / (time.perf_counter() - start), seed


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--seconds", type=float, default=5.0, help="time per set-up (default 5)")
    args = parser.parse_args()
    for players, target in ((4, 1000), (12, 200)):
        rate, count = rounds_per_second(players, args.seconds)
        verdict = "ok" if rate >= target else "BELOW TARGET"
        print(f"{players:2d} players: {rate:8.0f} rounds/s over {count} rounds (target >= {target}): {verdict}")


if __name__ == "__main__":
    main()
