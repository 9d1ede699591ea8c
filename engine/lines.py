"""Line-oriented input (batch result files, ``score --input``) read one bounded line at a time.

A line is read with at most ``limit + 1`` bytes, so a file without line breaks (``/dev/zero``, a
binary given by mistake) is refused at its first line instead of being read into memory whole.
"""

from __future__ import annotations

from typing import IO, Iterator

from .errors import CardgamesError
from .wording import byte_size


def bounded_lines(handle: IO[bytes], limit: int, label: str, what: str, first: int = 1) -> Iterator[tuple[int, bytes]]:
    """(line number, line) for each line of ``handle``, numbered from ``first``; a line longer
    than ``limit`` bytes is an error naming ``label``, the line and ``what`` the input should
    have been."""
    size = byte_size(limit)
    number = first
    while True:
        try:
            line = handle.readline(limit + 1)
        except OSError as exc:  # opened, then unreadable (a device, a vanished mount): a read error, here
            raise CardgamesError(f"{label}:{number}: cannot read: {exc.strerror or exc}") from None
        if not line:
            return
        if len(line) > limit:
            raise CardgamesError(f"{label}:{number}: a line longer than {size}: not {what}")
        yield number, line
        number += 1
