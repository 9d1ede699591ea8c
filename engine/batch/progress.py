"""A one-line progress bar on stderr: games (or deals) done, rate and ETA, redrawn at most 5 times a second."""

from __future__ import annotations

import sys
import time
from typing import TextIO


def _duration(seconds: float) -> str:
    seconds = int(seconds + 0.5)
    hours, rest = divmod(seconds, 3600)
    minutes, secs = divmod(rest, 60)
    return f"{hours}h{minutes:02d}m{secs:02d}s" if hours else f"{minutes}m{secs:02d}s" if minutes else f"{secs}s"


class Progress:
    """Draws only when ``enabled`` (the caller decides: stderr is a terminal and not --quiet)."""

    WIDTH = 24
    INTERVAL = 0.2

    def __init__(self, enabled: bool, stream: TextIO | None = None, noun: str = "games"):
        self.enabled = enabled
        self.noun = noun
        self.stream = stream or sys.stderr
        self.total = self.done = 0
        self.began = time.perf_counter()
        self._drawn = 0.0

    def start(self, total: int) -> None:
        """The games to play are known (after reading a file to resume): the clock starts."""
        self.total = total
        self.enabled = self.enabled and total > 0
        self.began = time.perf_counter()

    def advance(self, games: int) -> None:
        self.done += games
        if self.enabled:
            now = time.perf_counter()
            if now - self._drawn >= self.INTERVAL or self.done >= self.total:
                self._drawn = now
                self.stream.write("\r" + self.line(now - self.began))
                self.stream.flush()

    def line(self, elapsed: float) -> str:
        fraction = min(1.0, self.done / self.total) if self.total else 1.0
        filled = int(fraction * self.WIDTH)
        rate = self.done / elapsed if elapsed > 0 else 0.0
        eta = _duration((self.total - self.done) / rate) if rate > 0 else "?"
        digits = 2 if 0 < rate < 10 else 0  # a slow rate (solve's hard deals, minutes each) would read 0/s
        return (f"[{'#' * filled}{'.' * (self.WIDTH - filled)}] {fraction:6.1%} {self.done:,}/{self.total:,} "
                f"{self.noun}  {rate:,.{digits}f}/s  ETA {eta} ")

    def close(self) -> None:
        """End the bar's line, drawn once more: the last draw may be up to :attr:`INTERVAL` old, and an
        interrupted run's would show fewer done than the message after it says."""
        if self.enabled:  # (not started, as when Ctrl-C comes while batch --resume reads its file: no bar to draw)
            drawn = "\r" + self.line(time.perf_counter() - self.began) if self.total else ""
            self.stream.write(drawn + "\n")
            self.stream.flush()
