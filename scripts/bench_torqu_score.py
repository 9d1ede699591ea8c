"""Benchmark the Torqu optimiser on random tableaux against a set-packing MILP (scipy/HiGHS).

    python scripts/bench_torqu_score.py [--count 200] [--size 72] [--seed 1] [--no-milp]

For each instance (``size`` cards drawn from the full 160-card deck with the project's Rng):
time the exact optimiser; build the straightforward MILP (one binary column per valid four-card
set, wild completions included; one row per card, <= 1) and solve it with HiGHS; check both
optima agree. Prints median and 99th percentile times and the speed ratio at the median.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from itertools import combinations

from cardgames.engine.games.torqu.sets import complete
from cardgames.engine.registry import load_game
from cardgames.engine.rng import Rng


def milp_optimum(scorer, codes: list[int]) -> int:
    import numpy as np
    from scipy.optimize import Bounds, LinearConstraint, milp
    from scipy.sparse import coo_matrix

    from cardgames.engine.games.torqu.optimise import _Search

    wilds = [c for c in codes if c in scorer.wild]
    reals = [c for c in codes if c not in scorer.wild]
    own = {c: scorer.deck.cards[c].value for c in codes}
    search = _Search([scorer.idents[c] for c in reals], [], scorer.points, 1, len(scorer.suit_ids), scorer.members)
    local = [reals[i] for i in search.orig]
    columns: list[tuple[tuple[int, ...], int]] = []
    for table in (search.single, search.cross):
        for mask, value in table.items():
            columns.append((tuple(local[i] for i in range(len(local)) if mask >> i & 1), value))
    for j in range(1, min(4, len(wilds)) + 1):
        for group in combinations(reals, 4 - j):
            found = complete([scorer.idents[c] for c in group], j, scorer.points, len(scorer.suit_ids),
                             scorer.members)
            if found is None:
                continue
            for wild_group in combinations(wilds, j):
                cards = group + wild_group
                columns.append((cards, found[1] + sum(own[c] for c in cards)))
    index = {c: i for i, c in enumerate(codes)}
    rows, cols = [], []
    for col, (cards, _) in enumerate(columns):
        for c in cards:
            rows.append(index[c])
            cols.append(col)
    matrix = coo_matrix((np.ones(len(rows)), (rows, cols)), shape=(len(codes), len(columns)))
    weights = np.array([-v for _, v in columns], dtype=float)
    res = milp(weights, constraints=LinearConstraint(matrix, 0, 1), integrality=np.ones(len(columns)),
               bounds=Bounds(0, 1))
    return int(round(-res.fun)) - sum(own.values())


def percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--count", type=int, default=200)
    parser.add_argument("--size", type=int, default=72)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--no-milp", action="store_true")
    args = parser.parse_args()
    game = load_game("torqu", (), 2)
    scorer = game.scorer
    ours, theirs = [], []
    for k in range(args.count):
        cards = list(range(len(game.deck)))
        Rng(args.seed, f"bench/{k}").shuffle(cards)
        codes = sorted(cards[:args.size])
        start = time.perf_counter()
        value = scorer.tableau_score(codes)["score"]
        ours.append(time.perf_counter() - start)
        line = f"{k:4d}: optimum {value:5d} in {ours[-1] * 1000:9.1f} ms"
        if not args.no_milp:
            start = time.perf_counter()
            other = milp_optimum(scorer, codes)
            theirs.append(time.perf_counter() - start)
            line += f"; MILP {other:5d} in {theirs[-1] * 1000:9.1f} ms"
            if other != value:
                print(line + "  MISMATCH", flush=True)
                sys.exit(1)
        print(line, flush=True)
    print(f"optimiser: median {statistics.median(ours) * 1000:.1f} ms, p99 {percentile(ours, 0.99) * 1000:.1f} ms "
          f"({args.count} tableaux of {args.size} cards)")
    if theirs:
        print(f"MILP (HiGHS): median {statistics.median(theirs) * 1000:.1f} ms, p99 {percentile(theirs, 0.99) * 1000:.1f} ms;"
              f" equal optima on all {args.count}; speed ratio at the median "
              f"{statistics.median(theirs) / statistics.median(ours):.1f}x")


if __name__ == "__main__":
    main()
