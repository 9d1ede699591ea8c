"""Benchmark: Turup capture enumeration on a 30-card community pile from three decks.

    python scripts/bench_turup_captures.py [--piles N]

For each of N seeds, a 30-card pile is drawn from the 156 cards of the 12-player game (three
French decks) and a played card from the other 126; the timed step is the enumeration of every
capture that card can make (``captures.capture_vectors`` for a numeral, the match counts for a face
card: what the game's cache computes on a miss), cold, with no cache. The issue's target is a
median <= 1 ms. Also shown: the full conversion to the game's actions (``TurupGame._enumerate``),
and per played value the median time and the median number of captures, since a ten on a pile of
small cards is the worst case.
"""

from __future__ import annotations

import argparse
import statistics
import time

from cardgames.engine.games.turup.captures import capture_vectors, match_captures
from cardgames.engine.registry import load_game
from cardgames.engine.rng import Rng


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--piles", type=int, default=2000, help="piles (seeds) to time (default 2000)")
    args = parser.parse_args()
    game = load_game("turup", players=12)
    assert len(game.deck) == 156
    rank_of, values, face = game.rank_of, game.values, game.face
    raw: list[float] = []
    full: list[float] = []
    by_value: dict[str, list[tuple[float, int]]] = {}
    for seed in range(1, args.piles + 1):
        codes = list(range(len(game.deck)))
        Rng(seed, "bench").shuffle(codes)
        pile, card = codes[:30], codes[30]
        rank = rank_of[card]
        counts = [0] * 10
        for code in pile:
            if not face[rank_of[code]]:
                counts[values[rank_of[code]] - 1] += 1
        same = sum(1 for code in pile if rank_of[code] == rank)
        start = time.perf_counter()
        if face[rank]:
            found = len(match_captures(same))
        else:
            found = len(capture_vectors(values[rank], counts))
        raw.append(time.perf_counter() - start)
        key = game.pack(pile) & game.masks[rank]
        start = time.perf_counter()
        game._enumerate(rank, key)
        full.append(time.perf_counter() - start)
        by_value.setdefault(game.rank_ids[rank], []).append((raw[-1], found))
    ms = 1000.0
    median = statistics.median(raw) * ms
    print(f"{args.piles} piles of 30 cards (3 decks), one played card each")
    print(f"enumeration (count vectors): median {median:.3f} ms, 90th percentile "
          f"{statistics.quantiles(raw, n=10)[-1] * ms:.3f} ms, max {max(raw) * ms:.2f} ms "
          f"(target median <= 1 ms: {'ok' if median <= 1.0 else 'ABOVE TARGET'})")
    print(f"as game actions:             median {statistics.median(full) * ms:.3f} ms, 90th percentile "
          f"{statistics.quantiles(full, n=10)[-1] * ms:.3f} ms, max {max(full) * ms:.2f} ms")
    print("per played rank: median ms, median captures, max captures")
    for rid in game.rank_ids:
        rows = by_value.get(rid, [])
        if rows:
            print(f"  {rid:>2}: {statistics.median(t for t, _ in rows) * ms:7.3f} ms "
                  f"{statistics.median(n for _, n in rows):7.0f} {max(n for _, n in rows):7d}")


if __name__ == "__main__":
    main()
