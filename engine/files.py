"""Files the commands read and write: an input opened with the label messages give it (``-`` is
stdin), and output written all or nothing (``-`` is stdout), its target checked before a long run."""

from __future__ import annotations

import os
import stat
import sys
import tempfile
from pathlib import Path
from typing import IO

from .errors import CardgamesError


def input_label(path: str | Path) -> str:
    """An input as messages name it: ``-`` is stdin, ``<stdin>``."""
    return "<stdin>" if str(path) == "-" else str(path)


def open_input(path: str | Path, error: type[CardgamesError] = CardgamesError) -> tuple[str, IO[bytes]]:
    """``path`` opened for reading bytes (``-``: stdin), and its label for messages
    (:func:`input_label`); a file that cannot be opened is an ``error`` naming it. Bytes, so that
    the reader (orjson) checks the UTF-8 itself."""
    if str(path) == "-":
        if sys.stdin is None:  # started with stdin closed (`<&-`): Python then has no sys.stdin at all
            raise error(f"{input_label(path)}: cannot read: stdin is closed")
        return input_label(path), sys.stdin.buffer
    if not str(path):  # "Error: : cannot read" said nothing of what was wrong
        raise error("cannot read '': no file name")
    try:
        return str(path), open(path, "rb")
    except OSError as exc:
        raise error(f"{path}: cannot read: {exc.strerror or exc}") from None


def target_problem(path: str | Path) -> str | None:
    """Why ``write_atomic`` could not write ``path`` at all, or None: checked before a long run,
    so that a typo in a folder name costs nothing (the write itself still reports anything else)."""
    if not str(path):
        return "no file name"
    if str(path).endswith(os.sep) or os.path.isdir(path):
        return "a file name, not a folder, is needed"
    folder = os.path.dirname(os.path.realpath(path))
    if not os.path.isdir(folder):  # a symlink's own folder exists: name its target's
        named = folder if os.path.islink(path) else os.path.dirname(path)
        return f"{named} is a file, not a folder" if os.path.exists(folder) else f"there is no folder {named}"
    written_straight = os.path.exists(path) and not os.path.isfile(path)  # a device, a pipe
    if not written_straight and not os.access(folder, os.W_OK | os.X_OK):  # the temporary file goes there
        return f"the folder {os.path.dirname(path) or '.'} is not writable"
    # The rename would replace a file its owner made read-only, which `>` in a shell refuses (unless
    # root, whom os.access lets write anything, as the shell does): the file is kept, as asked.
    if os.path.isfile(path) and not os.access(path, os.W_OK):
        return "the file is read-only"
    return None


def check_target(path: str | Path) -> None:
    """Raise the one-line error for a file ``write_atomic`` could not write at all (``-`` is stdout)."""
    problem = None if str(path) == "-" else target_problem(path)
    if problem is not None:
        raise CardgamesError(f"cannot write {str(path) or repr('')}: {problem}")


def write_atomic(path: str | Path, data: bytes) -> None:
    """Write ``data`` to ``path`` all or nothing: a temporary file beside it, then a rename, so a
    failed run never leaves half a file. ``-`` is stdout. A target that exists but is not a regular
    file (a device, a pipe, ``/dev/fd/N``) is written straight: renaming over it would replace it.
    A symbolic link's target is the file replaced. An existing file keeps its permissions; a new
    one gets the umask's; a read-only one is refused (:func:`target_problem`)."""
    if str(path) == "-":
        sys.stdout.buffer.write(data)
        sys.stdout.buffer.flush()
        return
    check_target(path)
    try:
        found = os.stat(path)
    except FileNotFoundError:
        found = None
    except OSError as exc:
        raise CardgamesError(f"cannot write {path}: {exc.strerror or exc}") from None
    if found is not None and not stat.S_ISREG(found.st_mode):
        try:
            with open(path, "wb") as handle:
                handle.write(data)
        except OSError as exc:
            raise CardgamesError(f"cannot write {path}: {exc.strerror or exc}") from None
        return
    mode = stat.S_IMODE(found.st_mode) if found is not None else 0o666 & ~_umask()
    target = Path(os.path.realpath(path))
    try:
        fd, tmp = tempfile.mkstemp(prefix=f".{target.name}.", suffix=".tmp", dir=target.parent)
    except OSError as exc:
        raise CardgamesError(f"cannot write {path}: {exc.strerror or exc}") from None
    try:
        with os.fdopen(fd, "wb") as handle:
            handle.write(data)
            handle.flush()
            os.fchmod(handle.fileno(), mode)
            os.fsync(handle.fileno())
        os.replace(tmp, target)
    except BaseException as exc:
        try:
            os.unlink(tmp)
        except OSError:
            pass
        if isinstance(exc, OSError):  # a full disk, a file size limit: said of this file
            raise CardgamesError(f"cannot write {path}: {exc.strerror or exc}") from None
        raise


def _umask() -> int:
    """The process's umask (reading it means setting it: set back at once)."""
    mask = os.umask(0o022)
    os.umask(mask)
    return mask
