"""``batch`` (play many seeded games, report statistics) and ``stats`` (from result files)."""

from __future__ import annotations

import os
import sys

import click

from cardgames.engine.batch.compare import ALPHA
from cardgames.engine.files import input_label

from .interrupts import how_stopped
from .options import agent_option, format_option, game_option, game_options, load_game
from .output import emit_json, emit_rows, failing, message


def _default_workers() -> int:
    try:
        return len(os.sched_getaffinity(0))
    except AttributeError:  # not on Linux
        return os.cpu_count() or 1


@click.command("batch")
@game_option()
@click.option("--seeds", required=True, metavar="A-B",
              help="Seeds to play, both ends included (e.g. 0-999999; ms1-ms1000 with --rng pysolfc).")
@game_options
@agent_option
@click.option("--workers", type=click.IntRange(1), default=None,
              help="Worker processes (default and most: every core; 1 plays in this process with the process backend).")
@click.option("--backend", type=click.Choice(["process", "dask"]), default="process", show_default=True,
              help="A local process pool, or Dask (a local cluster, or --scheduler).")
@click.option("--scheduler", metavar="ADDR", default=None,
              help="Existing Dask scheduler, e.g. tcp://host:8786 (with --backend dask).")
@click.option("--out", type=click.Path(), default=None, metavar="FILE.jsonl",
              help="Stream one JSON record a game to this result file.")
@click.option("--resume", is_flag=True, help="Continue --out: play only the seeds it does not hold yet.")
@format_option("table", "json", "csv")
@click.option("--plot", "plot_path", type=click.Path(), default=None, metavar="FILE.png",
              help="Also draw win rates and the score distribution (needs matplotlib).")
@click.option("--quiet", "-q", is_flag=True, help="No progress bar or messages on stderr.")
@click.pass_context
def batch_cmd(ctx: click.Context, game_id: str, seeds: str, players: int | None, variants: tuple[str, ...],
              rng: str, agents: tuple[str, ...], workers: int | None, backend: str, scheduler: str | None,
              out: str | None, resume: bool, fmt: str, plot_path: str | None, quiet: bool) -> None:
    """Play seeds A-B of GAME (in parallel, in chunks) and print statistics of the results.

    Records, and every statistic, are the same whatever --workers and --backend. A run stopped
    at any moment can be continued with --resume: no seed is lost or counted twice.
    """
    from cardgames.engine.agents import make_agents
    from cardgames.engine.batch.progress import Progress
    from cardgames.engine.batch.report import Run
    from cardgames.engine.batch.runner import run_batch
    from cardgames.engine.batch.seeds import parse_range
    from cardgames.engine.wording import counted

    if resume and out is None:
        raise click.UsageError("--resume needs --out FILE.jsonl")
    if out == "-":
        raise click.UsageError("--out needs a file (the statistics are what goes to stdout)")
    if plot_path is not None:  # before the games are played
        from cardgames.engine.batch.plot import image_format

        image_format(plot_path, [out] if out else [])
    seed_range = parse_range(seeds)
    game = load_game(ctx, game_id, variants, players)
    agent_names = [agent.name for agent in make_agents(agents, game)]
    cores = _default_workers()
    if workers is not None and workers > cores and scheduler is None:  # local processes, on this machine
        if not quiet:
            message(f"--workers {workers}: the run has {counted(cores, 'core')} here, so {counted(cores, 'worker')} "
                    f"play{'s' * (cores == 1)} it (more would only share them; the results are the same for any count)")
        workers = cores
    progress = Progress(enabled=not quiet and sys.stderr.isatty())
    root = ctx.find_root().obj or {}
    try:
        outcome = run_batch(game, agent_names, rng, seed_range, config_dirs=tuple(root.get("config_dirs", ())),
                            workers=workers or cores, backend=backend, scheduler=scheduler, out=out,
                            resume=resume, on_start=progress.start, on_chunk=progress.advance)
    except KeyboardInterrupt as exc:  # Ctrl-C, or SIGTERM (the group makes it one: .interrupts)
        progress.close()
        hint = ("; continue with the same command and --resume" if out else  # without: lost (an analyst's 25,000)
                " (not kept: with --out FILE a run keeps its games, and --resume finishes it)")
        stopped, code = how_stopped(exc)
        message(f"{stopped} after {counted(progress.done, 'game')}{hint}")
        ctx.exit(code)
    progress.close()
    if not quiet:
        if outcome.torn:
            message(f"{out}: cut off a torn last line (from a run that was stopped)")
        reused = f"; {outcome.reused:,} already in {out}" if outcome.reused else ""
        message(played_said(outcome.played, outcome.seconds) + reused)
    run = Run(out, outcome.header, outcome.summary)
    if fmt == "json":
        emit_json(run.to_json())
    else:
        _emit_tables([run], fmt, [])
    if plot_path is not None:
        from cardgames.engine.batch.plot import plot

        plot([run], plot_path)
        if not quiet:
            message(f"plot written to {plot_path}")


def played_said(played: int, seconds: float) -> str:
    """The closing line of a batch: how many games in how long, and how many a second, each to two figures at
    least (it said "in 0.0s" at 7,500 games a second, and "0 games/s" at 8 s a game)."""
    from cardgames.engine.wording import counted

    rate = played / seconds if seconds > 0 else 0.0
    pace = f"{rate:,.0f}" if rate >= 10 else f"{rate:.2g}"
    return f"played {counted(played, 'game')} in {seconds:.{2 if seconds < 1 else 1}f}s ({pace} games/s)"


def _gate_tolerances(ctx: click.Context, param: click.Parameter, values: tuple[str, ...]) -> dict[str, float]:
    """``--fail-if-different`` values, ``FIGURE`` or ``FIGURE:DELTA``, as figure -> tolerance (0: none).
    Significance alone trips on a change of no practical size once the samples are large (a million
    games), while a CI author gating a win rate thinks in "moved by more than a point" (the CI
    author's walkthrough): the tolerance is the size a difference must also exceed."""
    import math

    gates: dict[str, float] = {}
    for value in values:
        name, colon, delta = value.partition(":")
        tolerance = 0.0
        if colon:
            try:
                tolerance = float(delta)
            except ValueError:
                tolerance = math.nan
            if not math.isfinite(tolerance) or tolerance < 0:
                raise click.BadParameter(f"{value!r}: the tolerance after ':' must be a number, 0 or more "
                                         "(won:0.01)", ctx, param)
        if not name:
            before = " before ':'" if colon else ""
            raise click.BadParameter(f"{value!r}: a figure is needed{before} (won, or won:0.01)", ctx, param)
        if gates.get(name, tolerance) != tolerance:
            raise click.BadParameter(f"{name!r} is given two tolerances ({gates[name]:g} and {tolerance:g})",
                                     ctx, param)
        gates[name] = tolerance
    return gates


_STATS_HELP = f"""Statistics of batch result files. With several files: side by side, each compared with
    the first (significant at p < {ALPHA:g}): seed by seed when both hold the same seeds (McNemar's
    test for rates, the paired t test for means), else as independent samples (two-proportion z
    test, Welch's t), each with the {1 - ALPHA:.0%} interval of the difference (docs/batch.md names
    the methods).

    Files must be of the same game and player count; what differs (variants, agents, rng,
    configs) is what is being compared, and is shown. '-' (once) reads stdin.
    """


@click.command("stats", help=_STATS_HELP)
@click.argument("files", nargs=-1, required=True, metavar="FILE.jsonl...",
                type=click.Path())
@format_option("table", "json", "csv")
@click.option("--plot", "plot_path", type=click.Path(), default=None, metavar="FILE.png",
              help="Also draw win rates and score distributions, one series a file (needs matplotlib).")
@click.option("--fail-if-different", "gates", multiple=True, metavar="FIGURE[:DELTA]", callback=_gate_tolerances,
              help="Exit 1 if FIGURE (won, scores, ...) differs significantly between the first file and "
                   "another; with :DELTA (won:0.01), only if the difference is also larger than DELTA: a CI "
                   "gate on a rules or config change (repeatable).")
@click.pass_context
def stats_cmd(ctx: click.Context, files: tuple[str, ...], fmt: str, plot_path: str | None,
              gates: dict[str, float]) -> None:
    """Statistics of batch result files, compared (its help, which names the significance level, is
    ``_STATS_HELP``)."""
    from cardgames.engine.batch.paired import pair_files
    from cardgames.engine.batch.report import Run, against_first, compared, p_said, p_text
    from cardgames.engine.batch.results import check_comparable, read_summary
    from cardgames.engine.batch.seeds import SeedSet

    if gates and len(files) < 2:
        raise click.UsageError("--fail-if-different compares files: give two or more")
    if files.count("-") > 1:
        raise click.UsageError("- (stdin) can be read once: give it as one of the files at most")

    if plot_path is not None:  # before any table is printed
        from cardgames.engine.batch.plot import image_format

        image_format(plot_path, files)
    notices = _repeated(files)  # said once the files are found comparable: a failing command says its error alone
    runs, seeds = [], []
    for path in files:
        seeds.append(SeedSet())
        header, summary, torn = read_summary(path, seeds[-1])
        label = input_label(path)
        if torn:
            notices.append(f"{label}: ignoring a torn last line (was the run stopped?)")
        runs.append(Run(label, header, summary))
    if not any(run.summary.games for run in runs):  # an empty table, exit 0: a CI job summarising a batch that
        # played nothing passed (an analyst's finding); a file of none beside others is named as a run cut short
        notices.append(f"{', '.join(run.label for run in runs)} {'holds' if len(runs) == 1 else 'hold'} no games, "
                       "a header alone (a run cut short? --resume finishes it)")
    check_comparable([(run.label, run.header) for run in runs])
    for notice in notices:
        message(notice)
    runs = compared(runs)
    for index, run in enumerate(runs[1:], 1):
        why = _why_unpaired((files[0], seeds[0], runs[0].header), (files[index], seeds[index], run.header))
        if why is None:  # the same seeds and deals, on disk: tested seed by seed
            run.paired = pair_files(files[0], files[index], runs[0].header["players"], runs[0].categories,
                                    (runs[0].header.get("first_seat"), run.header.get("first_seat")))
        elif why:
            message(why)
    each = against_first(runs)  # the tests against each later file
    tests = [t for against in each for t in against]
    labels = tuple(map(input_label, files))
    _check_gates(gates, each, labels, [run.summary.games for run in runs])  # before any output: a misspelt
    _check_cut_short(labels, seeds, [run.header for run in runs], gates)  # figure must not pass for a gate passed
    _say_unlike_kinds(runs, tests)
    significant = [t for t in tests if t["figure"] in gates and t["significant"]]
    failed = [t for t in significant if abs(t["difference"]) > gates[t["figure"]]]
    verdict = "check failed: " + "; ".join(f"{t['figure']} differs in {t['file']} from {t['against']} "
                                           f"({p_said(t['p_value'])}){_beyond(t, gates)}" for t in failed)
    if failed:
        failing(verdict)
    if fmt == "json":
        verdicts = {"gates": [{"figure": figure, "tolerance": tolerance,
                               "passed": not any(t["figure"] == figure for t in failed),
                               # a gate no test could judge passes, checking nothing (said on stderr too)
                               "tested": all(t["p_value"] is not None for t in tests if t["figure"] == figure)}
                              for figure, tolerance in gates.items()]} if gates else {}
        emit_json({"files": [run.to_json() for run in runs], "comparisons": tests, **verdicts})
    else:
        _emit_tables(runs, fmt, each)
    if plot_path is not None:
        from cardgames.engine.batch.plot import plot

        plot(runs, plot_path)
        message(f"plot written to {plot_path}")
    for t in tests:  # a gate that could not test must not pass for one that found no difference
        if t["figure"] in gates and t["p_value"] is None:
            message(f"--fail-if-different {t['figure']}: no test between {t['file']} and {t['against']} (a side "
                    "with a single game, or a spread beyond a float): the gate checks nothing there")
    for t in significant:
        if t not in failed:  # said, so that a tolerance nobody meant to hide a change with is seen doing so
            message(f"--fail-if-different {t['figure']}:{gates[t['figure']]:g}: {t['figure']} differs in {t['file']} "
                    f"from {t['against']} ({p_said(t['p_value'])}), by {t['difference']:.4g}, within the "
                    "tolerance: passed")
    for figure in gates:  # a gate that passed says so too: a CI log then shows the check ran
        tested = [t for t in tests if t["figure"] == figure and t["p_value"] is not None]
        if tested and not any(t["significant"] for t in tested):
            message(f"--fail-if-different {figure}: no significant difference "
                    f"(p = {', '.join(p_text(t['p_value']) for t in tested)}): passed")
    if failed:
        message(verdict)
        ctx.exit(1)


def _repeated(files: tuple[str, ...]) -> list[str]:
    """A notice for each file given again: compared with itself, every test n/a and any gate passed, it is
    likelier a typo than a wish (an analyst's finding)."""
    seen: dict[str, str] = {}
    notices = []
    for path in files:
        if path == "-":
            continue
        key = os.path.realpath(path)
        if key in seen:
            notices.append(f"{input_label(path)} is the same file as {input_label(seen[key])}: it is compared with "
                           "itself")
        else:
            seen[key] = path
    return notices


def _beyond(test: dict, gates: dict[str, float]) -> str:
    """What a tripped gate with a tolerance adds to its message: the difference against it."""
    tolerance = gates[test["figure"]]
    return f", by {test['difference']:.4g}, more than {tolerance:g}" if tolerance else ""


def _why_unpaired(first: tuple, other: tuple) -> str | None:
    """Why two result files, each ``(path, seeds, header)``, are compared as independent samples:
    None when they are to be paired (the same seeds, dealt alike, both files that can be read a
    second time); else a notice, or "" where none is needed (seeds of other ranges altogether, or a
    run cut short, which :func:`_check_cut_short` names)."""
    (first_path, first_seeds, first_header), (path, seeds, header) = first, other
    first_name, name = input_label(first_path), input_label(path)
    dealer = _other_dealer(header, first_header)
    if dealer is not None:  # one seed, two deals: nothing to pair, whatever seeds the files hold
        return (f"{name} deals with another {dealer} than {first_name} ({header.get(dealer)!r}, not "
                f"{first_header.get(dealer)!r}): its seeds are other deals, compared as independent samples")
    if len(seeds) != len(first_seeds) or not seeds <= first_seeds:
        shared = 0 if seeds <= first_seeds or first_seeds <= seeds else seeds.shared(first_seeds)
        return (f"{name} shares {shared:,} of its {len(seeds):,} seeds with {first_name}: compared as independent "
                "samples (seed by seed needs the same seeds)") if shared else ""
    pipe = next((f for f in (first_path, path) if f == "-" or not os.path.isfile(f)), None)
    if pipe is not None:  # its second reading would find it empty: said, not compared unpaired in silence
        return (f"{input_label(pipe)} cannot be read twice (a pipe?): {name} is compared with {first_name} as "
                "independent samples; save it to a file to test them seed by seed")
    return None


#: Header keys that make a seed's deal: files that differ in one hold other deals for the same seeds.
_DEALING = ("rng", "generator", "seed_prefix")


def _other_dealer(header: dict, first_header: dict) -> str | None:
    """The first of :data:`_DEALING` on which a result file's header differs from the first file's, or None."""
    return next((key for key in _DEALING if header.get(key) != first_header.get(key)), None)


def _check_cut_short(files: tuple[str, ...], seeds: list, headers: list[dict], gates: dict[str, float]) -> None:
    """A compared file whose seeds are part of the first's, or the first's part of its own, is most
    likely a run cut short (a job that timed out, an artifact not finished with --resume): named, and
    refused by a gate, which would otherwise pass a change on a partial sample without a word (an
    auditor's finding). Files of other seed ranges altogether are a comparison of their own (the same
    rules on seeds 0-999 and 1000-1999), and pass; so are files of another deal generator, whose seeds
    are other deals (:func:`_why_unpaired` says so), unless one holds no games: a gate refuses a file of
    its header alone beside files of games whatever it deals (one of another rng passed, exit 0, having
    tested nothing: a documentation check's finding)."""
    from cardgames.engine.errors import CardgamesError
    from cardgames.engine.wording import counted

    base = seeds[0]
    for path, other, header in zip(files[1:], seeds[1:], headers[1:], strict=True):
        if _other_dealer(header, headers[0]) is not None:
            continue
        if len(other) != len(base) and (other <= base or base <= other):
            (short, few), (full, many) = sorted([(path, len(other)), (files[0], len(base))], key=lambda f: f[1])
            text = (f"{short} holds {counted(few, 'seed')} of the {many:,} in {full} "
                    "(a run cut short? --resume finishes it)")
            if gates:
                raise CardgamesError(f"--fail-if-different compares whole runs, but {text}")
            message(text)
    empty = next((path for path, held in zip(files, seeds, strict=True) if not len(held)), None)
    if gates and empty is not None and any(len(held) for held in seeds):
        raise CardgamesError(f"--fail-if-different compares whole runs, but {empty} holds no games, a header "
                             "alone (a run cut short? --resume finishes it)")


def _check_gates(gates: dict[str, float], each: list[list[dict]], labels: tuple[str, ...], games: list[int]) -> None:
    """Refuse a gate on a figure that a comparison does not test (a typo, a difference row, or a figure
    one compared file lacks, where the gate would pass without a test: an audit's finding): a usage
    error, exit 2, so that CI tells a misconfigured gate from a tripped one (exit 1), whatever else is
    wrong. ``each`` holds the tests against each later file, ``labels`` the files, ``games`` how many
    each holds. A file of no games, first or later, tests nothing: it is a run cut short, which
    :func:`_check_cut_short` refuses (exit 1), unless every file holds none."""
    from cardgames.engine.errors import OptionConflictError
    from cardgames.engine.wording import did_you_mean

    live = [(index, {t["figure"] for t in tests}) for index, tests in enumerate(each, 1) if games[index] and games[0]]
    if not live and any(games):
        return
    everywhere = [name for name in dict.fromkeys(t["figure"] for tests in each for t in tests)
                  if all(name in figures for _, figures in live)]
    for name in gates:
        lacking = [index for index, figures in live if name not in figures]
        if live and not lacking:
            continue
        if len(lacking) < len(live):
            raise OptionConflictError(f"--fail-if-different: figure {name!r} is not tested between {labels[0]} and "
                                      f"{labels[lacking[0]]}, which lacks it")
        hint = did_you_mean(name, everywhere, 0.5) or (f"; tested: {', '.join(everywhere)}" if everywhere else
                                                       ": none is (files of no games?)")
        raise OptionConflictError(f"--fail-if-different: figure {name!r} is not tested between these files{hint}")


def _say_unlike_kinds(runs: list, tests: list[dict]) -> None:
    """Name each figure that two files give as different kinds (true/false in one, a number in the
    other), which no test compares: the table shows it for both, the comparison leaves it out."""
    base = runs[0]
    for run in runs[1:]:
        tested = {t["figure"] for t in tests if t["file"] == run.label}
        for name, figure in base.figures.items():
            other = run.figures.get(name)
            kinds = (figure["kind"], other["kind"]) if other else ()
            if other and name not in tested and kinds[0] != kinds[1]:
                message(f"{name} is a {kinds[0]} in {base.label} and a {kinds[1]} in {run.label}: not compared")


def _emit_tables(runs: list, fmt: str, each: list[list[dict]]) -> None:
    """The runs' figures, and ``each`` later run's comparisons with the first, as a table or CSV."""
    from cardgames.engine.batch.report import csv_rows, text_report

    if fmt == "csv":
        rows, columns = csv_rows(runs, each)
        emit_rows(rows, "csv", columns)
    else:
        click.echo(text_report(runs, each))
