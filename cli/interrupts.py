"""How the commands stop on a signal: Ctrl-C (SIGINT) and ``kill`` (SIGTERM, a CI job's timeout) both
end a command as a ``KeyboardInterrupt``, so that what a command has finished is written or kept (a
solved range's verdicts, a batch's whole lines) and it exits with the shell's code, 130 or 143, in one
line, rather than dying mid-write or printing a traceback."""

from __future__ import annotations

import signal
import sys
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any


class Terminated(KeyboardInterrupt):
    """SIGTERM, stopped as Ctrl-C is. Left to its default it ended the process at once: a batch's
    workers kept the output pipe open, so whatever read it never finished, and a range's verdicts not
    yet printed were lost."""


def how_stopped(exc: KeyboardInterrupt) -> tuple[str, int]:
    """The word a message gives ``exc`` ("interrupted" for Ctrl-C, "terminated" for SIGTERM) and the exit
    code the shell gives its signal, 128 + the signal: 130 or 143 (Click's own is 1, which a CI script cannot
    tell from a failed check)."""
    if isinstance(exc, Terminated):
        return "terminated", 128 + signal.SIGTERM
    return "interrupted", 128 + signal.SIGINT


@contextmanager
def sigterm_stops() -> Iterator[None]:
    """Turn SIGTERM into :class:`Terminated` while a command runs (main thread only, as signals are)."""
    if threading.current_thread() is not threading.main_thread():
        yield
        return

    def stop(signum: int, frame: object) -> None:
        raise Terminated

    previous = signal.signal(signal.SIGTERM, stop)
    try:
        yield
    finally:
        signal.signal(signal.SIGTERM, previous)


@contextmanager
def interrupts_in_finalizers() -> Iterator[None]:
    """Deliver again a Ctrl-C or SIGTERM that lands in a finalizer. Python raises it wherever the main
    thread is, and out of a ``__del__`` (Dask's ``Future.__del__``, while a batch waits on its tasks) it
    cannot propagate: Python printed it with a traceback and went on as if no key had been pressed. It
    is sent again a moment later, from another thread, once the finalizer and this hook have returned
    (sent at once it would land in the hook, and be printed the same way). A Ctrl-C while SIGINT is
    ignored stays ignored."""
    def unraisable(event: Any) -> None:
        if isinstance(event.exc_value, KeyboardInterrupt):
            signum = signal.SIGTERM if isinstance(event.exc_value, Terminated) else signal.SIGINT
            threading.Thread(target=_signal_main_soon, args=(signum,), daemon=True).start()
        else:
            before(event)

    before = sys.unraisablehook
    sys.unraisablehook = unraisable
    try:
        yield
    finally:
        sys.unraisablehook = before


def _signal_main_soon(signum: int) -> None:
    """Send ``signum`` to the main thread after a moment (:func:`interrupts_in_finalizers`): a signal, not
    ``_thread.interrupt_main``, so that a main thread blocked in a wait wakes to it. Windows has no
    signals between threads: there the interrupt is only flagged, raised when the main thread next runs
    Python code."""
    import time

    time.sleep(0.05)
    if hasattr(signal, "pthread_kill"):
        signal.pthread_kill(threading.main_thread().ident, signum)
    else:
        import _thread

        _thread.interrupt_main(signum)
