"""Result files: a header line naming the experiment, then one compact JSON record a game.

::

    {"format":"cardgames-batch","version":1,"engine_version":"0.1.0","game":"eiffel-tower","variants":[],
     "players":1,"agents":["greedy"],"rng":"native","generator":"shake128-ctr/1","seed_prefix":"",
     "config_sha256":"…","first_seat":0}
    {"seed":0,"won":true,"cards_left":0,"plays":84,"turns":83}
    …

Records are the game's ``State.result()`` with the seed first. Lines are written whole, a chunk
of lines with one ``write`` call on an unbuffered file, so a run killed at any moment leaves
whole lines, plus at worst one torn last line, which readers ignore and ``--resume`` cuts off.
"""

from __future__ import annotations

import codecs
import os
import re
from pathlib import Path
from typing import IO, TYPE_CHECKING, Any, Container, Iterator

import orjson

from .. import ENGINE_VERSION, MAX_PLAYERS
from ..errors import CardgamesError
from ..files import input_label, open_input
from ..jsonkeys import TOO_DEEP, first_twice, given_twice, read_keyed
from ..lines import bounded_lines
from ..rng import GENERATORS, SEED_MAX, SEEDS
from ..schema import is_names
from ..wording import as_logged, counted
from .stats import Summary

if TYPE_CHECKING:
    from ..core import Game
    from .seeds import SeedSet

FORMAT = "cardgames-batch"
VERSION = 1
#: What makes two runs the same experiment: resuming requires all of these to be equal.
IDENTITY = ("format", "version", "engine_version", "game", "variants", "players", "agents", "rng",
            "generator", "seed_prefix", "config_sha256")
#: The longest line a result file may have (a record is a few kilobytes).
MAX_LINE = 16 << 20
#: What ``stats`` requires files to share before it puts them side by side.
COMPARABLE = ("game", "players")


def _is_str(value: Any) -> bool:
    return isinstance(value, str)


#: What each identity field of a header must be (strings where not listed).
_HEADER_TYPES = {"version": lambda v: type(v) is int, "players": lambda v: type(v) is int and 1 <= v <= MAX_PLAYERS,
                 "variants": is_names, "agents": is_names}


def make_header(game: "Game", agents: list[str], rng: str, seed_prefix: str) -> dict[str, Any]:
    """The header of a batch of ``game`` (a resolved Game) played by ``agents`` (one a seat)."""
    return {"format": FORMAT, "version": VERSION, "engine_version": ENGINE_VERSION, "game": game.id,
            "variants": list(game.spec.variants), "players": game.num_players, "agents": list(agents),
            "rng": rng, "generator": GENERATORS[rng], "seed_prefix": seed_prefix,
            "config_sha256": game.spec.sha256, "first_seat": game.first_seat}


def header_line(header: dict[str, Any]) -> bytes:
    """The header as the file's first line. (Records are written by the worker's loop, ``seed`` first and
    then the game's result in its own key order, which is faster than sorting.)"""
    return orjson.dumps(header) + b"\n"


def describe_header(header: dict[str, Any]) -> str:
    """A one-line description of an experiment for messages and table titles."""
    variants = "+".join(header["variants"]) or "no variants"
    agents = ",".join(header["agents"])
    players = counted(header["players"], "player")
    return f"{header['game']} ({variants}), {players}, agents {agents}, rng {header['rng']}"


def check_same_experiment(path: str | Path, found: dict[str, Any], wanted: dict[str, Any]) -> None:
    """Refuse to resume ``path`` when it holds another experiment's results."""
    for key in IDENTITY:
        if found.get(key) != wanted.get(key):
            raise CardgamesError(f"{path}: holds results of another run ({key} {found.get(key)!r}, this run "
                                 f"{wanted.get(key)!r}): resume with the same options, or choose another --out")


def check_comparable(labelled: list[tuple[str, dict[str, Any]]]) -> None:
    """Refuse to put side by side files of different games or player counts."""
    first_path, first = labelled[0]
    for path, header in labelled[1:]:
        for key in COMPARABLE:
            if header[key] != first[key]:
                raise CardgamesError(f"{path}: {key} {header[key]!r} differs from {first_path}'s {first[key]!r}: "
                                     "stats compares files of the same game and player count only"
                                     + (" (a changed game keeps its id: give its changed file in a --configs folder)"
                                        if key == "game" else ""))


class Reader:
    """Read a result file: :attr:`header` at once, then :meth:`records` lazily.

    After :meth:`records` is exhausted, :attr:`good_end` is the byte offset after the last whole
    line and :attr:`torn` says whether bytes followed it (a run killed mid-write). A last line
    without its newline that is whole JSON is whole (a file saved by an editor that drops the
    final newline): a line cut short by a kill never parses, as the object's closing brace is
    its last byte.
    """

    def __init__(self, path: str | Path):
        self.path, self._handle = open_input(path)  # ``-``: stdin, named <stdin> in messages
        try:
            line = next(bounded_lines(self._handle, MAX_LINE, self.path, "a batch result file"), (1, b""))[1]
        except CardgamesError:
            self._handle.close()
            raise
        self.good_end = len(line) if line.endswith(b"\n") or _whole(line) else 0
        self.torn = not self.good_end and bool(line)
        if not self.good_end:  # empty, or killed while writing the header
            self._handle.close()
        self.header = self._parse_header(line) if self.good_end else None

    def _parse_header(self, line: bytes) -> dict[str, Any]:
        try:
            header = orjson.loads(line)
        except orjson.JSONDecodeError:
            header = None
        if line.startswith(codecs.BOM_UTF8):  # said as such: "no header" puzzled a reader whose header was there
            raise CardgamesError(f"{self.path}:1: starts with a byte order mark (an editor's?): a result file is "
                                 "JSON lines without one; remove it")
        if not isinstance(header, dict) or header.get("format") != FORMAT:
            raise CardgamesError(f"{self.path}:1: not a batch result file (no \"format\": \"{FORMAT}\" header)")
        twice = _twice(line, header)  # --resume compares headers field by field
        if twice is not None:
            raise CardgamesError(f"{self.path}:1: {twice}")
        if "version" not in header:  # said as the other fields are, not as "version None" (an analyst's finding)
            raise CardgamesError(f"{self.path}:1: header lacks version")
        if header["version"] != VERSION:
            raise CardgamesError(f"{self.path}:1: result file version {as_logged(header['version'], 40)} is not "
                                 f"supported (this is version {VERSION})")
        missing = [k for k in IDENTITY if k not in header]
        if missing:
            raise CardgamesError(f"{self.path}:1: header lacks {', '.join(missing)}")
        wrong = [k for k in IDENTITY if not _HEADER_TYPES.get(k, _is_str)(header[k])]
        if wrong:
            raise CardgamesError(f"{self.path}:1: header field {wrong[0]!r} has the wrong type or value")
        if len(header["agents"]) != header["players"]:
            raise CardgamesError(f"{self.path}:1: header names {counted(len(header['agents']), 'agent')} for "
                                 f"{counted(header['players'], 'player')}")
        first = header.get("first_seat")  # absent from files written before it was recorded
        if first is not None and not (type(first) is int and 0 <= first < header["players"]):
            raise CardgamesError(f"{self.path}:1: header field 'first_seat' must be a seat of the "
                                 f"{counted(header['players'], 'player')} or null, not {as_logged(first, 40)}")
        return header

    def records(self) -> Iterator[tuple[int, dict[str, Any]]]:
        """(line number, record) for every whole record line."""
        if self.header is None:
            return
        handle, path, players = self._handle, self.path, self.header["players"]
        try:
            for number, line in bounded_lines(handle, MAX_LINE, path, "a result record", first=2):
                if not line.strip():  # a blank line (an editor's last one, files joined): no record, as score's input
                    self.good_end += len(line)
                    continue
                try:
                    record = orjson.loads(line)
                except orjson.JSONDecodeError as exc:
                    if not line.endswith(b"\n"):  # whole JSON, ``null`` too, is a line read, torn or not
                        self.torn = True
                        break
                    raise CardgamesError(f"{path}:{number}: not a result record: not JSON ({exc.msg} at column "
                                         f"{exc.colno})") from None
                twice = _twice(line, record) if isinstance(record, dict) else None
                if twice is not None:  # a seed given twice slipped past "appears twice"
                    raise CardgamesError(f"{path}:{number}: {twice}")
                seed = record.get("seed") if isinstance(record, dict) else None
                if type(seed) is not int:
                    raise CardgamesError(f"{path}:{number}: not a result record (a JSON object with an integer seed)")
                if not 0 <= seed <= SEED_MAX:  # PySolFC game numbers lie within too
                    raise CardgamesError(f"{path}:{number}: seed {seed} is out of range {SEEDS}")
                if len(record) == 1:  # counted as a game, it made every figure's count one short of the games'
                    raise CardgamesError(f"{path}:{number}: not a result record: seed {seed} with no figure of its "
                                         "game")
                winners = record.get("winners", [])
                if not isinstance(winners, list) or not all(type(s) is int and 0 <= s < players for s in winners):
                    raise CardgamesError(f"{path}:{number}: winners must list seats 0..{players - 1}")
                if len(set(winners)) != len(winners):  # counted twice, it would win more games than were played
                    raise CardgamesError(f"{path}:{number}: winners lists a seat twice")
                scores = record.get("scores")  # one a seat, or the seats' figures count different games
                if scores is not None and not (isinstance(scores, list) and len(scores) == players):
                    raise CardgamesError(f"{path}:{number}: scores must give {counted(players, 'value')}, one a seat")
                self.good_end += len(line)
                yield number, record
        finally:
            handle.close()


def _twice(line: bytes, read: dict[str, Any]) -> str | None:
    """What is wrong with ``line``, JSON that orjson read as ``read``, that orjson did not say: a key given twice
    (orjson keeps its last value without a word, another reader the first), or nesting too deep to look; or None.
    Each key has its colon, so a line with no more colons than keys gives none (every game's records): only
    others, with nested objects or text holding a colon, are read again, every pair seen."""
    if line.count(b":") <= len(read):
        return None
    try:
        twice = first_twice(read_keyed(line))
    except RecursionError:
        return TOO_DEEP
    return None if twice is None else given_twice(twice)


def _whole(line: bytes) -> bool:
    """Whether a line without its newline is whole JSON (see :class:`Reader`)."""
    try:
        orjson.loads(line)
    except orjson.JSONDecodeError:
        return False
    return True


def locked(path: str | Path) -> IO[bytes]:
    """``path`` opened to hold the batches' lock on it until closed: a second batch given the file (a
    ``--resume`` beside a running one) is refused with one line, where the two, each writing at its own
    offset, would overwrite each other's lines. The lock is advisory (``flock``), taken by batches alone."""
    try:
        handle = open(path, "rb")
    except OSError as exc:
        raise CardgamesError(f"{path}: cannot read: {exc.strerror or exc}") from None
    _lock(handle, path)
    return handle


def _lock(handle: IO[bytes], path: str | Path) -> None:
    """Lock the open result file (see :func:`locked`), or close it and refuse it when another batch holds it.
    Unlocked where the system has no ``fcntl`` (Windows) or the file system refuses locks (some network ones)."""
    try:
        import fcntl
    except ImportError:
        return
    try:
        fcntl.flock(handle.fileno(), fcntl.LOCK_EX | fcntl.LOCK_NB)
    except BlockingIOError:
        handle.close()
        raise CardgamesError(f"{path} is being written by another batch: let it finish, then --resume continues "
                             "it") from None
    except OSError:
        return


class Writer:
    """Append whole lines to a result file, creating it with its header if needed."""

    def __init__(self, path: str | Path, header: dict[str, Any], keep: int | None):
        """Open ``path``, keep its first ``keep`` bytes (0: start it afresh with ``header``), ending
        them with a newline if their last line has none; ``keep`` None: create it, refusing a file
        that appeared since the batch found none (another batch given the same ``--out``, whose
        results a plain open would have cut off, both runs exiting 0: an analyst audit's finding)."""
        self.path = str(path)
        try:
            self._handle = open(path, "xb" if keep is None else "r+b" if keep else "wb", buffering=0)
            if keep is None:  # a resumed file is locked already, by the batch (:func:`locked`)
                _lock(self._handle, path)
            if keep:
                self._handle.truncate(keep)
                self._handle.seek(keep - 1)
                if self._handle.read(1) != b"\n":
                    self.write(b"\n")
            else:
                self.write(header_line(header))
        except FileExistsError:
            raise CardgamesError(f"{path} appeared after this batch began (another batch writing it?): it is left as "
                                 "it is; --resume continues it, or choose another --out") from None
        except OSError as exc:
            raise CardgamesError(f"{path}: cannot write: {exc.strerror or exc}") from None

    def write(self, data: bytes) -> None:
        """Write ``data`` (whole lines); one system call unless the kernel takes less."""
        view = memoryview(data)
        try:
            while view:
                written = self._handle.write(view)
                view = view[written:]
        except OSError as exc:  # a full disk: the records written so far stay, --resume goes on from them
            raise CardgamesError(f"{self.path}: cannot write: {exc.strerror or exc}; the games recorded so far "
                                 "are kept (--resume continues)") from None

    def close(self) -> None:
        try:
            os.fsync(self._handle.fileno())
        finally:
            self._handle.close()


def first_line_giving(path: str, name: str) -> int | None:
    """The line of the first record in the file ``path`` whose own key makes figure ``name`` (``wins`` for
    ``wins[0]``), or None: ``path`` is stdin, read already, or no record's key is the figure's first part.
    Read again only for a message, as the statistics keep no lines."""
    if path == input_label("-"):
        return None
    key = re.split(r"[.\[]", name, maxsplit=1)[0]
    return next((number for number, record in Reader(path).records() if key in record), None)


def fold_records(reader: Reader, summary: Summary, seen: "SeedSet", within: Container[int] | None = None) -> int:
    """Fold the reader's records (those with a seed ``within``, if given) into ``summary``; note
    every seed in ``seen``. A seed found twice is an error: it would be counted twice.
    Return how many records were folded."""
    folded = 0
    add = summary.add
    for number, record in reader.records():
        seed = record.pop("seed")
        if not seen.add(seed):
            raise CardgamesError(f"{reader.path}:{number}: seed {seed} appears twice")
        if within is None or seed in within:
            try:
                add(record)
            except ValueError as exc:  # a figure of a kind the summary cannot read, or changing kind
                raise CardgamesError(f"{reader.path}:{number}: {exc}") from None
            except RecursionError:  # a figure nested hundreds of levels deep (no game writes one)
                raise CardgamesError(f"{reader.path}:{number}: {TOO_DEEP}") from None
            folded += 1
    return folded


def read_summary(path: str | Path, seen: "SeedSet | None" = None) -> tuple[dict[str, Any], Summary, bool]:
    """Header, summary of every record, and whether the file ends in a torn line (ignored); every
    seed read is noted in ``seen``, if given."""
    from .seeds import SeedSet

    reader = Reader(path)
    if reader.header is None:
        if reader.torn:
            raise CardgamesError(f"{reader.path}:1: no whole header line (the file ends inside its first line: "
                                 "a batch stopped while writing its header?)")
        raise CardgamesError(f"{reader.path}: empty: no header line")
    summary = Summary()
    fold_records(reader, summary, SeedSet() if seen is None else seen)
    return reader.header, summary, reader.torn
