"""``solve``: decide pairing deals exactly and write a winning line as a replayable log."""

from __future__ import annotations

import math
import sys
from typing import TYPE_CHECKING, Iterable

import click

from .interrupts import how_stopped
from .options import check_engine, format_option, game_option, game_options, help_from, load_game
from .output import emit_json, emit_rows, failing, message

if TYPE_CHECKING:  # the engine loads when a command runs, not for `--help`
    from cardgames.engine.batch.progress import Progress
    from cardgames.engine.games.pairing.rules import PairingGame
    from cardgames.engine.games.pairing.solver import Solver


def _a_number(ctx: click.Context, param: click.Parameter, value: float | None) -> float | None:
    """FloatRange lets NaN through (every comparison with it is false)."""
    if value is not None and math.isnan(value):
        raise click.BadParameter("not a number")
    return value


SOLVER_HELP = help_from("cardgames.engine.games.pairing.solver")


@click.command("solve")
@game_option("A pairing game id (see `cardgames list`).")
@click.option("--seed", default=None, metavar="S", help="One deal (with --rng pysolfc, a PySolFC game number).")
@click.option("--seeds", default=None, metavar="A-B", help="A range of deals, both ends included (e.g. 1-1000; "
                                                            "ms1-ms1000 with --rng pysolfc; a lone seed is one deal).")
@game_options
@click.option("--budget", type=click.IntRange(1), default=None, cls=SOLVER_HELP,
              help="Search nodes allowed per deal before the CP-SAT stage (default: {DEFAULT_BUDGET:,}; "
                   "{SEARCH_ONLY_BUDGET:,} with wild cards).")
@click.option("--sat-effort", type=click.FloatRange(0), default=None, metavar="SECONDS", callback=_a_number,
              cls=SOLVER_HELP,
              help="CP-SAT's effort on a deal the search left undecided, in deterministic seconds (a count of its "
                   "work, the same on every machine) for each of its two searches (single, then portfolio); then "
                   "only the block relation's refutations remain, in games with no row cap and wild cards or a "
                   "waste cap (default: {SAT_EFFORT:g}; 0: no CP-SAT stage).")
@click.option("--refute-effort", type=click.IntRange(0), default=None, metavar="N",
              help="The most work each refutation stage may do that neither --budget nor --sat-effort limits: "
                   "the pairs a block relation stores, the positions the wild-row bound searches (games with no row "
                   "cap and a waste cap or wild cards; default: each stage's own effort; 0: none of them). With "
                   "those two, it bounds a deal's time.")
@click.option("--log", "log_path", type=click.Path(), default=None,
              help="With --seed: write the winning line as a game log that `replay` accepts ('-': stdout, "
                   "the verdict then going to stderr). A deal with no winning line writes no file: its verdict, "
                   "then exit 1.")
@format_option("text", "json", "jsonl", "csv")
@click.pass_context
def solve_cmd(ctx: click.Context, game_id: str, seed: str | None, seeds: str | None, players: int | None,
              variants: tuple[str, ...], rng: str, budget: int | None, sat_effort: float | None,
              refute_effort: int | None, log_path: str | None, fmt: str) -> None:
    """Decide whether deals of a pairing game can be won by a player who knows the stock's order.

    Per deal: winnable true/false (null, "undecided" in the text table, only if the node budget and the
    CP-SAT effort ran out, and the block relation, where it applies, proved no loss within its efforts),
    nodes searched (CP-SAT's branches
    and the block relation's stored pairs included; a search stopped by --budget counts the node that found
    it spent, so with no later stage an undecided deal shows one more than the budget), seconds. A range's
    table or JSON list comes once every deal is decided; meanwhile, on a terminal, a bar on stderr counts
    them. jsonl writes each verdict as it comes.

    The solver runs stages in turn: a search for a winning line, then CP-SAT (a constraint solver), then
    refutations that prove a deal lost. The defaults decide nearly every deal of the bundled games
    (docs/rules/pairing-stats.md counts them); on a deal that comes out undecided, raise --budget,
    --sat-effort or --refute-effort, or set them lower to bound each deal's time. docs/rules/pairing.md,
    "The solver", explains each stage.
    """
    from cardgames.engine.batch.progress import Progress
    from cardgames.engine.batch.seeds import parse_range
    from cardgames.engine.files import check_target
    from cardgames.engine.games.pairing.solver import Solver
    from cardgames.engine.wording import counted

    if (seed is None) == (seeds is None):
        raise click.UsageError("give exactly one of --seed S or --seeds A-B")
    if log_path is not None and seed is None:
        raise click.UsageError("--log needs a single --seed")
    if log_path is not None:
        check_target(log_path)  # before the search, which may take minutes
    game = load_game(ctx, game_id, variants, players)
    check_engine("solve", "the pairing solitaires", "pairing", game.id, game.spec.engine)
    if seed is not None:
        chosen: Iterable[int | str] = [seed]
    else:  # the range as batch reads it, both ends checked before any deal is solved
        span = parse_range(seeds)
        span.check(game, rng)
        chosen = (span.seed(n, rng) for n in range(span.start, span.stop + 1))
    solver = Solver(game, budget, sat_effort, refute_effort)
    rows: list[dict] = []
    # a range's table comes at its end: on a terminal, a bar says how far it is (a designer waited 11 minutes
    # on an empty screen); jsonl's lines come as each deal is decided
    progress = Progress(enabled=seed is None and fmt != "jsonl" and sys.stderr.isatty(), noun="deals")
    if seed is None:
        progress.start(span.count)
        progress.advance(0)  # drawn at once: the first deal may take minutes
    try:
        try:
            to_emit = _solve_each(game, solver, chosen, rng, rows, fmt, log_path, progress)
        finally:  # the bar's line ended before anything else is said, an error's too
            progress.close()
    except KeyboardInterrupt as exc:  # Ctrl-C or SIGTERM (.interrupts): a long range's finished verdicts are not
        if seed is None and rows:  # lost (jsonl has written them already, and says how far it went as the rest do)
            _emit(rows, fmt, True)
            stopped, code = how_stopped(exc)
            theirs = "the verdict above is that deal's" if len(rows) == 1 else "the verdicts above are theirs"
            message(f"{stopped} after {counted(len(rows), 'deal')}: {theirs}")
            ctx.exit(code)  # said: not the group's "Aborted!" too (a CLI fuzzer's finding)
        raise
    if to_emit:
        _emit(rows, fmt, seed is None)


def _solve_each(game: PairingGame, solver: Solver, chosen: Iterable[int | str], rng: str, rows: list[dict],
                fmt: str, log_path: str | None, progress: Progress) -> bool:
    """Solve each deal of ``chosen`` in turn, its verdict appended to ``rows`` (and written at once in
    ``jsonl``), the winning line written with ``--log`` (a single deal); whether the verdicts are still to
    be written (not when the log took stdout)."""
    from cardgames.engine.core import Playthrough
    from cardgames.engine.errors import CardgamesError
    from cardgames.engine.files import write_atomic
    from cardgames.engine.log import build_log, dumps

    for s in chosen:
        canonical = game.check_seed(s, rng)
        state = game.new_state(canonical, rng)
        solution = solver.solve(state)
        rows.append({"game": game.id, "variants": list(game.spec.variants), "seed": canonical, "rng": rng,
                     "winnable": solution.winnable, "nodes": solution.nodes, "seconds": round(solution.seconds, 6)})
        no_line = None  # the failure of --log on a deal with no winning line, decided before the verdict is out
        if log_path is not None and not solution.winnable:
            why = "not winnable" if solution.winnable is False else "undecided within the budget"
            no_line = f"{game.id} seed {s} is {why}: no winning line to write"
            failing(f"Error: {no_line}")
        if fmt == "jsonl" and log_path != "-":
            emit_json(rows[-1], pretty=False)
        progress.advance(1)
        if log_path is not None:
            verdict = dumps(rows[-1], pretty=False).decode().strip()  # stderr's, where the log takes stdout
            if no_line is not None:
                if log_path == "-":  # as beside a line (it went nowhere: a solve audit's finding)
                    message(verdict)
                elif fmt != "jsonl":  # the verdict is data all the same (jsonl's is out)
                    _emit(rows, fmt, False)
                raise CardgamesError(no_line)
            history = []
            for action in solution.line:
                state.apply(action)
                history.append((0, action))
            run = Playthrough(state, canonical, rng, ["solver"], history)
            pretty = fmt != "jsonl"  # as simulate writes its log: one line with jsonl
            if log_path == "-":  # the log alone on stdout, so that it pipes into `replay -`
                emit_json(build_log(game, run), pretty=pretty)
                message(f"winning line ({len(history)} moves) written to stdout; {verdict}")
                return False
            write_atomic(log_path, dumps(build_log(game, run), pretty=pretty))
            message(f"winning line ({len(history)} moves) written to {log_path}")
    return True


def _emit(rows: list[dict], fmt: str, many: bool) -> None:
    """The verdicts, once all are in or the rest interrupted (``jsonl`` writes each as it comes), and for a
    range (``many``), of one deal too, the count of each kind, on stderr in every format (a researcher's
    finding: json and jsonl had none)."""
    if fmt == "json":
        emit_json(rows if many else rows[0])
    elif fmt == "text":  # an undecided deal says so (a designer's finding: its empty cell read as a gap)
        emit_rows([{**r, "winnable": "undecided"} if r["winnable"] is None else r for r in rows], "table")
    elif fmt == "csv":  # for a spreadsheet: an undecided deal's winnable an empty cell, as json's null
        emit_rows(rows, "csv")
    if many:
        won = sum(r["winnable"] is True for r in rows)
        unknown = sum(r["winnable"] is None for r in rows)
        message(f"{won}/{len(rows)} winnable, {unknown} undecided")
