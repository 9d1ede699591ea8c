"""Write tests/data/torqu-optima.jsonl: random Torqu tableaux with their optima proved by CP-SAT.

    python scripts/torqu_optima.py [--seed 1]

Why: the optimiser (``engine/games/torqu/optimise.py`` and its compiled kernels) prunes with
bounds that brute force checks only up to 11 cards and HiGHS only up to 22; an overstated bound
that loses the optimum of one 36-card tableau in a hundred escaped both (a mutation audit's
finding). The tests compare the optimiser with these optima. They come from the count-level
model solved by CP-SAT (``engine/games/torqu/aggregate.py``), which shares no search code with
the optimiser, run without an effort limit: each is proved. One line per tableau: its variants,
its cards (names, sorted by code) and its optimum (the tableau score). Tableau ``k`` of a group
is ``size`` cards of the variant's deck shuffled by the project's Rng (``seed``,
``optima/<variants>/<size>/<k>``), so a run regenerates the committed file byte for byte; it
takes a few minutes, mostly CP-SAT on the 72-card tableaux.
"""

from __future__ import annotations

import argparse
from pathlib import Path

import orjson

from cardgames.engine.files import write_atomic
from cardgames.engine.games.torqu.aggregate import optimum
from cardgames.engine.registry import load_game
from cardgames.engine.rng import Rng

OUT = Path(__file__).resolve().parent.parent / "tests" / "data" / "torqu-optima.jsonl"
# (variants, tableau size, tableaux): 36 cards is the tableau of 4 or more players, 72 of 2 or 3
GROUPS = [((), 36, 1000), (("dragons",), 36, 300), ((), 72, 40), (("dragons",), 72, 12)]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    lines = []
    for variants, size, count in GROUPS:
        game = load_game("torqu", variants, 4)
        for k in range(count):
            cards = list(range(len(game.deck)))
            Rng(args.seed, f"optima/{'+'.join(variants)}/{size}/{k}").shuffle(cards)
            codes = sorted(cards[:size])
            entry = {"variants": list(variants), "cards": [game.deck.names[c] for c in codes],
                     "optimum": optimum(game.scorer, codes)}
            lines.append(orjson.dumps(entry) + b"\n")
        print(f"{count} tableaux of {size} cards, variants {list(variants)}: proved", flush=True)
    write_atomic(OUT, b"".join(lines))
    print(f"wrote {OUT}")


if __name__ == "__main__":
    main()
