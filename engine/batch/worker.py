"""What a worker does with one chunk of seeds: play every game, encode its record, fold its result.

A worker receives a :class:`Job` (the experiment, a few strings) and a chunk (a few integers),
and returns a :class:`ChunkResult`: the chunk's record lines as one ``bytes`` and its
:class:`~.stats.Summary`. Sending compact per-chunk results, not per-game objects, keeps the
inter-process traffic and the parent's work small. The resolved game and the agents are built
once per worker process and reused for every chunk of the same job.
"""

from __future__ import annotations

import time
from dataclasses import dataclass
from typing import TYPE_CHECKING, NamedTuple

from .seeds import Chunk, game_seed
from .stats import Summary

if TYPE_CHECKING:
    from ..core import Agent, Game


@dataclass(frozen=True)
class Job:
    """Everything a worker needs to rebuild the experiment, in picklable form."""

    game: str
    variants: tuple[str, ...]
    players: int | None
    agents: tuple[str, ...]
    rng: str
    seed_prefix: str
    config_dirs: tuple[str, ...]
    config_sha256: str
    records: bool  # encode record lines (only when they go to a file)


class ChunkResult(NamedTuple):
    """What a worker sends back for a chunk of seeds: its record lines, already encoded, and its summary, so that
    the parent only writes and folds."""

    games: int
    lines: bytes
    summary: Summary
    seconds: float  # the worker's time playing them (sizes the next chunks: ``seeds.Pace``)


_CACHE: dict[Job, tuple["Game", list["Agent"]]] = {}


def setup(job: Job) -> tuple["Game", list["Agent"]]:
    """The job's game and agents, built on first use in this process.

    The config hash is checked so that a worker whose configs differ from the parent's (a
    remote Dask worker with another install) fails loudly instead of mixing in other rules.
    """
    if job not in _CACHE:
        from ..agents import make_agents
        from ..config import Catalog
        from ..errors import CardgamesError
        from ..registry import load_game

        catalog = Catalog.with_folders(job.config_dirs)
        game = load_game(job.game, job.variants, job.players, catalog)
        if game.spec.sha256 != job.config_sha256:
            raise CardgamesError(f"worker resolved {job.game} to config {game.spec.sha256[:12]}, "
                                 f"not {job.config_sha256[:12]}: its configs differ from the parent's")
        _CACHE.clear()
        _CACHE[job] = (game, make_agents(job.agents, game))
    return _CACHE[job]


def play_chunk(job: Job, chunk: Chunk) -> ChunkResult:
    """Play the chunk's seeds in order."""
    import orjson

    from ..core import play_out
    from ..errors import CardgamesError

    game, agents = setup(job)
    started = time.perf_counter()
    rng, prefix, records = job.rng, job.seed_prefix, job.records
    summary = Summary()
    add, dumps = summary.add, orjson.dumps
    lines: list[bytes] = []
    games = 0
    for start, stop in chunk:
        for seed in range(start, stop):
            try:
                result = play_out(game, game_seed(prefix, seed, rng), agents, rng).result()
            except CardgamesError as exc:  # a rule's refusal mid-game (a Turup pile too large to list): whose game
                raise CardgamesError(f"seed {seed}: {exc}") from None
            add(result)
            if records:
                lines.append(dumps({"seed": seed, **result}))
        games += stop - start
    data = b"\n".join(lines) + b"\n" if lines else b""
    return ChunkResult(games, data, summary, time.perf_counter() - started)
