"""Greedy against random in 2-player Torqu matches: the share of matches greedy wins.

    python scripts/torqu_greedy_vs_random.py [--seeds 1-1000] [--workers 2] [--final fastest|optimiser]
                                             [--check-every N]

Each seed plays one match (greedy in seat 0 on even seeds, in seat 1 on odd ones): the match
score decides the winner (ties count as not won). Prints one line per seed, in seed order, then
the win rate with its Wilson 95 % interval.

Both agents play exactly as in the game (the greedy agent scores its candidate pairs with the
game's own optimiser). Only the two final tableaux (up to 72 cards) may be valued differently,
since only their value matters here: by default (``--final fastest``) a tableau with two or more
Mirrors is valued by the CP-SAT model (``engine/games/torqu/aggregate.py``, exact), any other by
the game's optimiser. Each was the faster of the two there when chosen (issue 4's fifth pass, before
the optimiser's loops were compiled; not measured again since): on the 16 final tableaux of seeds
1-8, the optimiser took 0.6-10 s with 0-1 Mirrors and 2-56 s with 2-4, CP-SAT 0.4-6 s with 2-4 and
up to 126 s with 0-1. The two agree on every instance the tests draw; ``--check-every N`` also
values every N-th seed's tableaux both ways and stops at the first difference. ``--final
optimiser`` plays the match exactly as ``simulate`` does.
"""

from __future__ import annotations

import argparse
import functools
from concurrent.futures import ProcessPoolExecutor
from typing import Any, Sequence

from cardgames.engine.agents import make_agents
from cardgames.engine.batch.compare import wilson
from cardgames.engine.batch.seeds import parse_range
from cardgames.engine.core import play
from cardgames.engine.errors import CardgamesError
from cardgames.engine.games.torqu.scoring import Scorer
from cardgames.engine.registry import load_game


class ValueScorer(Scorer):
    """The game's scorer, except that a tableau with two or more Mirrors is valued by the CP-SAT
    model (a match's end asks only for values). With ``check``, every tableau is valued both
    ways, and they must agree."""

    check = False

    def tableau_value(self, codes: Sequence[int]) -> int:
        from cardgames.engine.games.torqu.aggregate import optimum

        mirrors = sum(c in self.wild for c in codes)
        if mirrors < 2 and not self.check:
            return super().tableau_value(codes)
        value = optimum(self, codes)
        if self.check and value != super().tableau_value(codes):
            raise SystemExit(f"the CP-SAT model and the optimiser disagree on {sorted(codes)}")
        return value


@functools.cache
def games(final: str) -> tuple[Any, Any]:
    """The agents' game and the match's, loaded once per worker process. With ``final`` fastest
    the match has its own game object, whose scorer is a :class:`ValueScorer`: the agents keep
    the optimiser."""
    game = load_game("torqu", (), 2)
    if final != "fastest":
        return game, game
    scored = load_game("torqu", (), 2)
    scored.scorer = ValueScorer(scored.deck, scored.options)
    return game, scored


def match(seed: int, final: str, check_every: int) -> tuple[int, int, int]:
    """Play seed's match; return (seed, greedy's match score, random's)."""
    agents_game, game = games(final)
    agents = make_agents(["greedy", "random"] if seed % 2 == 0 else ["random", "greedy"], agents_game)
    if final == "fastest":
        game.scorer.check = check_every > 0 and seed % check_every == 0
    run = play(game, seed, agents, stop=lambda s: s.rounds_played >= 1)
    scores = run.state.match_scores[0]
    greedy_seat = seed % 2
    return seed, scores[greedy_seat], scores[1 - greedy_seat]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--seeds", default="1-1000", help="A-B or a single seed (default 1-1000)")
    parser.add_argument("--workers", type=int, default=1)
    parser.add_argument("--final", choices=["fastest", "optimiser"], default="fastest",
                        help="what values the final tableaux (see above)")
    parser.add_argument("--check-every", type=int, default=0, metavar="N",
                        help="with --final fastest: value every N-th seed's tableaux both ways")
    args = parser.parse_args()
    try:
        chosen = parse_range(args.seeds)
    except CardgamesError as exc:
        parser.error(str(exc))
    seeds = range(chosen.start, chosen.stop + 1)
    wins = played = 0
    with ProcessPoolExecutor(args.workers) as pool:
        for seed, greedy, rand in pool.map(match, seeds, [args.final] * len(seeds), [args.check_every] * len(seeds)):
            played += 1
            wins += greedy > rand
            print(f"seed {seed}: greedy {greedy}, random {rand}; greedy won {wins}/{played} "
                  f"({100 * wins / played:.1f}%)", flush=True)
    low_ci, high_ci = wilson(wins, played)
    print(f"greedy won {wins} of {played} matches: {100 * wins / played:.1f}% "
          f"(Wilson 95%: {100 * low_ci:.1f}-{100 * high_ci:.1f}%)")


if __name__ == "__main__":
    main()
