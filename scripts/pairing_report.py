"""Regenerate docs/rules/pairing-stats.md: every pairing game's deck, size, caps, solver
winnable rate and greedy win rate, with Wilson 95 % intervals (engine/batch/compare.py ``wilson``).

    python scripts/pairing_report.py --workers 2                  # seeds 1-1000, all 34 games (slow)
    python scripts/pairing_report.py --seeds 1-100 --out /tmp/stats.md
    python scripts/pairing_report.py --cache /tmp/pairing.json    # resumable: finished chunks are kept
    python scripts/pairing_report.py --limit castle:1-200:20000   # fewer seeds / nodes for one game

Undecided deals (the solver's node budget ran out) are counted apart and left out of the
winnable rate's denominator; the page says how many there were, and each row names its seeds
and budget. ``--workers`` only spreads the seeds over processes: the figures do not depend on it. ``--update`` with
``--games`` replaces only those games' rows of the existing page (and says so under its header).

``--cache FILE`` keeps each finished chunk of seeds (keyed by game, seeds, budget and the game's
resolved options, so a layout change invalidates it) in a JSON file, so that an interrupted or
partial run (``--games``) can be resumed and the page written from all of them. The solver's
verdicts are exact, so a cached chunk stays true while the options are unchanged; only its
undecided count can shrink with a better solver: delete the cache (or ``--fresh GAME``) then, or
``--retry-undecided``, which re-solves only the cached chunks' undecided deals and folds their verdicts
in (every other verdict stays, and so does its solve time), with ``--retry-effort`` CP-SAT's effort for them
(the page's header then names it). The budget cell names the solver's stages as they
are when the page is written, not as they were when a chunk was solved: a row written from chunks of an older
solver is right for its verdicts, but its undecided count and times are that solver's until re-solved.
"""

from __future__ import annotations

import argparse
import json
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path
from statistics import median

from cardgames.engine.agents import make_agents
from cardgames.engine.batch.compare import wilson
from cardgames.engine.batch.seeds import parse_range
from cardgames.engine.config import Catalog
from cardgames.engine.core import play_out
from cardgames.engine.errors import CardgamesError
from cardgames.engine.files import write_atomic
from cardgames.engine.games.pairing.cpsat import SEARCHES
from cardgames.engine.games.pairing.efforts import EARLY_EFFORT, WHOLE_DEAL, refutations
from cardgames.engine.games.pairing.solver import DEFAULT_BUDGET, SAT_EFFORT, Solver
from cardgames.engine.registry import load_game

OUT = Path(__file__).resolve().parent.parent / "docs" / "rules" / "pairing-stats.md"
CHUNK = 50  # seeds per task

Task = tuple[str, int, int, int, float]  # game, first and last seed, node budget, CP-SAT effort


def pct(k: int, n: int) -> str:
    if n == 0:
        return "n/a"
    low, high = wilson(k, n)
    return f"{100 * k / n:.1f} % [{100 * low:.1f}, {100 * high:.1f}]"


def seed_range(text: str) -> tuple[int, int]:
    """``A-B`` (or ``A``) as its two ends, checked as ``cardgames batch --seeds`` checks it (an argparse type)."""
    try:
        seeds = parse_range(text)
    except CardgamesError as exc:
        raise argparse.ArgumentTypeError(str(exc)) from None
    return seeds.start, seeds.stop


def limit(text: str) -> tuple[str, tuple[int, int, int]]:
    """``GAME:A-B:BUDGET``, the value of ``--limit`` (an argparse type)."""
    name, seeds, budget = (text.split(":") + ["", ""])[:3]
    if not budget.isdigit():
        raise argparse.ArgumentTypeError(f"{text!r}: expected GAME:A-B:BUDGET")
    return name, (*seed_range(seeds), int(budget))


def count(task: Task) -> dict:
    """Verdict counts, greedy wins, solve times and the undecided seeds over one game's seeds ``low..high``."""
    name, low, high, budget, effort = task
    game = load_game(name)
    solver = Solver(game, budget, effort)
    agents = make_agents(["greedy"], game)
    won = lost = greedy = 0
    times, open_seeds = [], []
    for seed in range(low, high + 1):
        solution = solver.solve(game.new_state(seed))
        won += solution.winnable is True
        lost += solution.winnable is False
        if solution.winnable is None:
            open_seeds.append(seed)
        times.append(round(solution.seconds, 4))
        greedy += play_out(game, seed, agents).won()
    return {"won": won, "lost": lost, "undecided": len(open_seeds), "greedy": greedy, "times": times,
            "undecided_seeds": open_seeds}


def retry(job: tuple[str, int, int, float]) -> tuple[bool | None, float]:
    """One undecided deal solved again: (game, seed, node budget, CP-SAT effort) -> (verdict, seconds)."""
    name, seed, budget, effort = job
    game = load_game(name)
    solution = Solver(game, budget, effort).solve(game.new_state(seed))
    return solution.winnable, round(solution.seconds, 4)


def fold_in(chunk: dict, low: int, seed: int, verdict: bool | None, seconds: float) -> None:
    """A cached chunk's undecided deal ``seed`` (its seeds start at ``low``) with its new verdict and time."""
    chunk["times"][seed - low] = seconds
    if verdict is not None:
        chunk["won" if verdict else "lost"] += 1
        chunk["undecided"] -= 1
        chunk["undecided_seeds"].remove(seed)


def cache_key(task: Task) -> str:
    """A chunk's identity: the task and the game's resolved options (layout, caps, ...)."""
    return json.dumps([*task, load_game(task[0]).spec.options], sort_keys=True, default=str)


def row(name: str, plan: tuple[int, int, int], effort: float, chunks: list[dict]) -> str:
    """One game's table row (the budget cell names the CP-SAT stage's searches and effort, if any, then the
    block relation's efforts for games they apply to, in the solver's order: of each projection onto a few pairs
    and of the whole deal, and of the whole deal first as well for games with wild cards and a waste cap)."""
    game = load_game(name)
    low, high, budget = plan
    cell = f"{budget}" + (f" + CP-SAT {len(SEARCHES)} x {effort:g} s" if effort else "")
    for size, each, most in refutations(game):  # in the solver's order
        cell += (f" + blocks {each}" if size is WHOLE_DEAL else
                 f" + {size}-pair projections {each} each" + (f", {most} in all" if most else ""))
    if game.wild_blocks:  # the solver asks the whole deal first too
        cell = f"blocks {EARLY_EFFORT} + {cell}"
    won, lost, undecided, greedy = (sum(c[k] for c in chunks) for k in ("won", "lost", "undecided", "greedy"))
    times = [t for c in chunks for t in c["times"]]
    layout = ", ".join(map(str, game.layout))
    return (f"| {name} | {game.deck.copies} x {game.deck.id} | {len(game.deck)} | {game.num_rows} ({layout}) "
            f"| {game.row_cap or 'none'} | {game.waste_cap or 'none'} | {low}-{high} | {cell} "
            f"| {pct(won, won + lost)} | {undecided} | {pct(greedy, high - low + 1)} "
            f"| {1000 * median(times):.0f} / {1000 * sum(times) / len(times):.0f} / {max(times):.1f} |")


def run_options(args: argparse.Namespace) -> str:
    """The options that decide the figures (seeds, budget, limits), as the page quotes them."""
    budget = f" --budget {args.budget}" if args.budget else ""
    budget += f" --sat-effort {args.sat_effort:g}" if args.sat_effort != SAT_EFFORT else ""
    low, high = args.seeds
    if args.retry_undecided and args.retry_effort is not None:  # verdicts it decided are the page's too
        budget += f" --retry-undecided --retry-effort {args.retry_effort:g}"
    return f"--seeds {low}-{high}{budget}" + "".join(f" --limit {name}:{a}-{b}:{n}" for name, (a, b, n) in args.limit)


def row_lines(lines: list[str]) -> dict[str, int]:
    """Where each game's row is among the page's ``lines``."""
    return {line.split("|")[1].strip(): i for i, line in enumerate(lines) if line.startswith("| ")}


def check_update(out: Path, args: argparse.Namespace) -> None:
    """Refuse an ``--update`` that could not be written before solving anything (1000 seeds of one game can take
    hours): it needs ``--games``, and the page at ``out`` must have a row for each."""
    if not args.games:
        raise SystemExit("--update needs --games: the games whose rows to replace")
    try:
        rows = row_lines(out.read_text().splitlines())
    except OSError as exc:
        raise SystemExit(f"{out}: {exc.strerror}: --update replaces rows of an existing page") from None
    missing = sorted(set(args.games) - set(rows))
    if missing:
        raise SystemExit(f"{out} has no row for {', '.join(missing)}: write the whole page instead")


def update_page(out: Path, rows: dict[str, str], args: argparse.Namespace) -> None:
    """Replace the rows of ``rows``' games in the page at ``out`` (every other row and the header stay; the page
    was checked by :func:`check_update`) and say so under the header: a partial run must not pass for a full one."""
    lines = out.read_text().splitlines()
    for name, i in row_lines(lines).items():
        if name in rows:
            lines[i] = rows[name]
    games = " ".join(args.games)
    note = (f"Rows {', '.join(args.games)} replaced by `scripts/pairing_report.py --update --games {games} "
            f"{run_options(args)}` (the other rows are from the run named above).")
    if args.retry_undecided and args.retry_effort is not None:  # not the budget cell's: those deals' alone
        note += (f" The deals the cache held undecided were solved again with CP-SAT's searches at "
                 f"{args.retry_effort:g} deterministic seconds each; the budget cell names the rest's.")
    table = next(i for i, line in enumerate(lines) if line.startswith("| game |"))
    if note not in lines:  # an update of other rows adds its own note; the same update, none
        lines.insert(table, "")
        lines.insert(table, note)
    write_atomic(out, ("\n".join(lines) + "\n").encode())
    print(f"updated {out}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--seeds", type=seed_range, default="1-1000")
    parser.add_argument("--budget", type=int, default=None,
                        help=f"nodes per deal (default: the solver's, {DEFAULT_BUDGET} without wild cards)")
    parser.add_argument("--sat-effort", type=float, default=SAT_EFFORT,
                        help=f"the CP-SAT stage's deterministic seconds per search on an undecided deal (default "
                             f"{SAT_EFFORT:g}; 0: none)")
    parser.add_argument("--games", nargs="*", default=None, help="default: all 34 pairing games")
    parser.add_argument("--limit", type=limit, action="append", default=[], metavar="GAME:A-B:BUDGET",
                        help="other seeds and node budget for one game (repeatable)")
    parser.add_argument("--workers", type=int, default=1)
    parser.add_argument("--out", default=str(OUT))
    parser.add_argument("--cache", default=None, metavar="FILE", help="JSON file of finished chunks (resumable)")
    parser.add_argument("--fresh", action="append", default=[], metavar="GAME", help="ignore GAME's cached chunks")
    parser.add_argument("--no-page", action="store_true", help="only fill the cache (with --games: a partial run)")
    parser.add_argument("--retry-undecided", action="store_true",
                        help="first solve the cached chunks' undecided deals again (with --games: theirs only)")
    parser.add_argument("--retry-effort", type=float, default=None, metavar="SECONDS",
                        help="the CP-SAT effort for --retry-undecided (default: --sat-effort's): more for the deals "
                             "every stage left open, the chunks' other verdicts and the page's budgets unchanged")
    parser.add_argument("--update", action="store_true",
                        help="with --games: replace only those games' rows of the existing page (--out), keep the rest")
    args = parser.parse_args()
    catalog = Catalog()
    bases = [g for g in catalog.ids("games") if catalog.game(g)["engine"] == "pairing"]
    names = args.games or [n for g in bases for n in (g, f"strict-{g}")]
    if args.update:
        check_update(Path(args.out), args)
    limits = dict(args.limit)
    plan = {name: limits.get(name, (*args.seeds, Solver(load_game(name), args.budget).budget)) for name in names}
    cache_path = Path(args.cache) if args.cache else None
    cache = json.loads(cache_path.read_text()) if cache_path and cache_path.exists() else {}
    tasks, keys = [], []
    for name in names:
        low, high, budget = plan[name]
        for start in range(low, high + 1, CHUNK):
            task = (name, start, min(high, start + CHUNK - 1), budget, args.sat_effort)
            tasks.append(task)
            keys.append(cache_key(task))
    todo = [(task, key) for task, key in zip(tasks, keys, strict=True) if key not in cache or task[0] in args.fresh]

    def chunks(name: str) -> list[dict]:
        return [cache[k] for t, k in zip(tasks, keys, strict=True) if t[0] == name]

    pool = ProcessPoolExecutor(args.workers) if args.workers > 1 else None
    if args.retry_undecided:
        again = [(task, key, seed) for task, key in zip(tasks, keys, strict=True) if key in cache
                 for seed in cache[key].get("undecided_seeds", [])]
        effort = args.sat_effort if args.retry_effort is None else args.retry_effort
        jobs = [(task[0], seed, task[3], effort) for task, _, seed in again]
        for (task, key, seed), (verdict, seconds) in zip(again, pool.map(retry, jobs) if pool else map(retry, jobs),
                                                         strict=True):
            fold_in(cache[key], task[1], seed, verdict, seconds)
            if cache_path:
                write_atomic(cache_path, json.dumps(cache, sort_keys=True).encode())
            print(f"{task[0]} seed {seed}: {'undecided' if verdict is None else 'won' if verdict else 'lost'} "
                  f"({seconds:.1f} s)", flush=True)
    results = pool.map(count, [t for t, _ in todo]) if pool else map(count, [t for t, _ in todo])
    for (task, key), result in zip(todo, results, strict=True):  # in task order, whatever the workers
        cache[key] = result
        if cache_path:
            write_atomic(cache_path, json.dumps(cache, sort_keys=True).encode())
        if task[2] == plan[task[0]][1]:
            print(row(task[0], plan[task[0]], args.sat_effort, chunks(task[0])), flush=True)
            # chunks cached before the seeds were recorded have none to list
            open_seeds = [s for c in chunks(task[0]) for s in c.get("undecided_seeds", [])]
            print(f"{task[0]}: undecided seeds {open_seeds or 'none'}", flush=True)
    if pool:
        pool.shutdown()
    if args.no_page:
        return
    if args.update:
        rows = {name: row(name, plan[name], args.sat_effort, chunks(name)) for name in names}
        update_page(Path(args.out), rows, args)
        return
    lines = ["# Pairing games: winnable and greedy win rates", "",
             f"Generated by `scripts/pairing_report.py {run_options(args)}` "
             "(native deals; each row names its seeds and node budget). "
             "*Winnable* is the exact solver's verdict (a player who knows the stock's order); undecided deals "
             "(node budget and CP-SAT effort exhausted) are excluded from its denominator and counted in their own "
             "column. "
             "*Greedy* is the `greedy` agent's win rate. Brackets: Wilson 95 % intervals "
             "(`engine/batch/compare.py`, `wilson`). *Solve time*: the solver's wall-clock time per deal, median "
             "and mean in ms and maximum in s, on the shared 2-core machine (not reproducible figures)."
             + (" Rows with other seeds or another budget were cut down with `--limit` to fit the time the run "
                "had: see docs/rules/pairing.md, \"Measured\"." if limits else ""), "",
             "| game | deck | cards | rows (lines) | row cap | waste cap | seeds | budget | winnable | undecided "
             "| greedy wins | solve time (med ms / mean ms / max s) |",
             "|---|---|---|---|---|---|---|---|---|---|---|---|"]
    for name in names:
        lines.append(row(name, plan[name], args.sat_effort, chunks(name)))
    write_atomic(args.out, ("\n".join(lines) + "\n").encode())
    print(f"wrote {args.out}")


if __name__ == "__main__":
    main()
