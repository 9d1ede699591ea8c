"""One batch from start to end: resume from the result file, play the missing seeds in chunks,
stream their lines to the file in seed order, and merge their summaries."""

from __future__ import annotations

import os
import time
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Callable

from ..errors import CardgamesError
from ..files import target_problem
from .executors import check_backend, make_executor
from .results import Reader, Writer, check_same_experiment, fold_records, header_line, locked, make_header
from .seeds import Pace, SeedRange, SeedSet, chunk_size, chunks
from .stats import Summary
from .worker import Job

if TYPE_CHECKING:
    from ..core import Game


@dataclass
class Outcome:
    """What a batch produced: the statistics of every seed of the range, and how it went."""

    header: dict[str, Any]
    summary: Summary = field(default_factory=Summary)
    played: int = 0  # games played by this run
    reused: int = 0  # games of the range already in the result file
    torn: bool = False  # the file ended in a torn line (cut off before resuming)
    seconds: float = 0.0
    startup: float = 0.0  # of those seconds, starting the pool or cluster


def run_batch(game: "Game", agents: list[str], rng: str, seeds: SeedRange, *, config_dirs: tuple[str, ...] = (),
              workers: int = 1, backend: str = "process", scheduler: str | None = None, out: str | None = None,
              resume: bool = False, on_start: Callable[[int], None] | None = None,
              on_chunk: Callable[[int], None] | None = None) -> Outcome:
    """Play ``seeds`` of ``game`` (a resolved Game) with ``agents`` (one name a seat).

    ``on_start(games_to_play)`` and ``on_chunk(games)`` report progress. Statistics cover
    exactly the seeds of the range: those found in ``out`` (with ``resume``) and those played.
    """
    check_backend(backend, scheduler)
    seeds.check(game, rng)
    outcome = Outcome(make_header(game, agents, rng, seeds.prefix))
    done = SeedSet()
    keep: int | None = None  # the bytes of ``out`` to keep; None: a new file
    if out is not None and (os.path.isdir(out) or not os.path.exists(out)):  # a new file: where can it be made?
        problem = target_problem(out)  # before any game (``--out ''`` said ": cannot write: No such file ...")
        if problem is not None:
            raise CardgamesError(f"--out {out or repr('')}: {problem}")
    if out is not None and os.path.exists(out) and not resume:
        raise CardgamesError(f"{out} exists: pass --resume to continue it, or choose another --out")
    guard = None  # a resumed file's lock, held until the batch ends
    writer = None
    started = time.perf_counter()
    try:
        if out is not None and os.path.exists(out):
            guard = locked(out)
            keep, outcome.torn = _load_previous(out, outcome, done, seeds)
        pending = list(done.missing(seeds))
        to_play = sum(stop - start for start, stop in pending)
        if on_start is not None:
            on_start(to_play)
        # Absolute: a Dask cluster's workers may run in another folder (a relative --configs there was another
        # folder, or none, and the workers refused the job as of other configs).
        job = Job(game.id, tuple(game.spec.variants), game.num_players, tuple(agents), rng, seeds.prefix,
                  tuple(os.path.abspath(d) for d in config_dirs), game.spec.sha256, records=out is not None)
        started = time.perf_counter()

        def open_out() -> Writer | None:
            return Writer(out, outcome.header, keep) if out is not None else None

        if not to_play:
            writer = open_out()
        else:
            with make_executor(backend, workers, scheduler) as executor:
                outcome.startup = time.perf_counter() - started
                pace = Pace(chunk_size(to_play, executor.workers))
                for index, result in enumerate(executor.map(job, chunks(iter(pending), pace.size))):
                    pace.record(result.games, result.seconds)
                    if index == 0:
                        # The file is started with the first results: a scheduler that cannot be reached, or
                        # workers that cannot play the job, leave no file behind (a header-only one would
                        # then ask for --resume).
                        writer = open_out()
                    if writer is not None:
                        writer.write(result.lines)
                    outcome.summary.merge(result.summary)
                    outcome.played += result.games
                    if on_chunk is not None:
                        on_chunk(result.games)
    finally:
        if writer is not None:
            writer.close()
        if guard is not None:
            guard.close()
        outcome.seconds = time.perf_counter() - started
    return outcome


def _load_previous(out: str, outcome: Outcome, done: SeedSet, seeds: SeedRange) -> tuple[int, bool]:
    """Read ``out`` for resuming: check it is this experiment, note its seeds, fold those of the
    range into the summary. Return how many bytes to keep (0: start it afresh) and whether
    it ended in a torn line."""
    reader = Reader(out)
    if reader.header is None:
        # Only a run of this experiment killed while writing its header may be started afresh: any
        # other file without a whole first line is not ours to overwrite.
        header = header_line(outcome.header)
        with open(out, "rb") as handle:
            start = handle.read(len(header))
        if not header.startswith(start):
            raise CardgamesError(f"{out}:1: not a batch result file of this experiment (no header line); "
                                 "choose another --out")
        return 0, reader.torn
    check_same_experiment(out, reader.header, outcome.header)
    outcome.reused = fold_records(reader, outcome.summary, done, seeds)
    return reader.good_end, reader.torn
