"""Regenerate docs/rules/pairing-stats.md: every pairing game's deck, size, caps, solver
winnable rate and greedy win rate, with Wilson 95 % intervals (engine/batch/stats.py ``wilson``).

    python scripts/pairing_report.py --workers 2                  # seeds 1-1000, all 34 games (slow)
    python scripts/pairing_report.py --seeds 1-100 --out /tmp/stats.md
    python scripts/pairing_report.py --limit castle:1-200:20000   # fewer seeds / nodes for one game

Undecided deals (the solver's node budget ran out) are counted apart and left out of the
winnable rate's denominator; the page says how many there were, and each row names its seeds
and budget. ``--workers`` only spreads the seeds over processes: the figures do not depend on it.
"""

from __future__ import annotations

import argparse
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path

from cardgames.engine.agents import make_agents
from cardgames.engine.batch.stats import wilson
from cardgames.engine.config import Catalog
from cardgames.engine.core import play
from cardgames.engine.games.pairing.solver import DEFAULT_BUDGET, Solver
from cardgames.engine.registry import load_game

OUT = Path(__file__).resolve().parent.parent / "docs" / "rules" / "pairing-stats.md"
CHUNK = 50  # seeds per task


def pct(k: int, n: int) -> str:
    if n == 0:
        return "n/a"
    low, high = wilson(k, n)
    return f"{100 * k / n:.1f} % [{100 * low:.1f}, {100 * high:.1f}]"


def seed_range(text: str) -> tuple[int, int]:
    low, high = (int(x) for x in text.split("-"))
    return low, high


def count(task: tuple[str, int, int, int | None]) -> tuple[int, int, int, int]:
    """(winnable, unwinnable, undecided, greedy wins) over one game's seeds ``low..high``."""
    name, low, high, budget = task
    game = load_game(name)
    solver = Solver(game, budget)
    agents = make_agents(["greedy"], game)
    won = lost = undecided = greedy = 0
    for seed in range(low, high + 1):
        verdict = solver.solve(game.new_state(seed)).winnable
        won += verdict is True
        lost += verdict is False
        undecided += verdict is None
        greedy += play(game, seed, agents).state.won()
    return won, lost, undecided, greedy


def row(name: str, plan: tuple[int, int, int], totals: list[int]) -> str:
    """One game's table row."""
    game = load_game(name)
    low, high, budget = plan
    won, lost, undecided, greedy = totals
    layout = ", ".join(map(str, game.layout))
    return (f"| {name} | {game.deck.copies} x {game.deck.id} | {len(game.deck)} | {game.num_rows} ({layout}) "
            f"| {game.row_cap or 'none'} | {game.waste_cap or 'none'} | {low}-{high} | {budget} "
            f"| {pct(won, won + lost)} | {undecided} | {pct(greedy, high - low + 1)} |")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--seeds", default="1-1000")
    parser.add_argument("--budget", type=int, default=None,
                        help=f"nodes per deal (default: the solver's, {DEFAULT_BUDGET} without wild cards)")
    parser.add_argument("--games", nargs="*", default=None, help="default: all 34 pairing games")
    parser.add_argument("--limit", action="append", default=[], metavar="GAME:A-B:BUDGET",
                        help="other seeds and node budget for one game (repeatable)")
    parser.add_argument("--workers", type=int, default=1)
    parser.add_argument("--out", default=str(OUT))
    args = parser.parse_args()
    catalog = Catalog()
    bases = [g for g in catalog.ids("games") if catalog.game(g)["engine"] == "pairing"]
    names = args.games or [n for g in bases for n in (g, f"strict-{g}")]
    limits = {}
    for text in args.limit:
        name, seeds, budget = text.split(":")
        limits[name] = (*seed_range(seeds), int(budget))
    plan = {name: limits.get(name, (*seed_range(args.seeds), Solver(load_game(name), args.budget).budget))
            for name in names}
    tasks, owners = [], []
    for name in names:
        low, high, budget = plan[name]
        for start in range(low, high + 1, CHUNK):
            tasks.append((name, start, min(high, start + CHUNK - 1), budget))
            owners.append(name)
    totals = {name: [0, 0, 0, 0] for name in names}
    pending = {name: owners.count(name) for name in names}
    rows = {}
    pool = ProcessPoolExecutor(args.workers) if args.workers > 1 else None
    results = pool.map(count, tasks) if pool else map(count, tasks)
    for name, result in zip(owners, results, strict=True):  # in task order, whatever the workers
        totals[name] = [a + b for a, b in zip(totals[name], result, strict=True)]
        pending[name] -= 1
        if not pending[name]:
            rows[name] = row(name, plan[name], totals[name])
            print(rows[name], flush=True)
    if pool:
        pool.shutdown()
    limits_text = "".join(f" --limit {t}" for t in args.limit)
    budget_text = f" --budget {args.budget}" if args.budget else ""
    lines = ["# Pairing games: winnable and greedy win rates", "",
             f"Generated by `scripts/pairing_report.py --seeds {args.seeds}{budget_text}{limits_text}` "
             "(native deals; each row names its seeds and node budget). "
             "*Winnable* is the exact solver's verdict (a player who knows the stock's order); undecided deals "
             "(node budget exhausted) are excluded from its denominator and counted in their own column. "
             "*Greedy* is the `greedy` agent's win rate. Brackets: Wilson 95 % intervals "
             "(`engine/batch/stats.py`, `wilson`).", "",
             "| game | deck | cards | rows (lines) | row cap | waste cap | seeds | budget | winnable | undecided "
             "| greedy wins |",
             "|---|---|---|---|---|---|---|---|---|---|---|"]
    lines.extend(rows[name] for name in names)
    Path(args.out).write_text("\n".join(lines) + "\n")
    print(f"wrote {args.out}")


if __name__ == "__main__":
    main()
