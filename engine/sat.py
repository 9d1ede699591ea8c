"""Running CP-SAT so that Ctrl-C still stops the command.

CP-SAT catches SIGINT itself while it solves and ends the search as if its time limit had come: the
caller sees an ordinary "unknown" and goes on (the pairing solver to its next stage, Torqu's search
to the end of its proof), so a Ctrl-C was lost and the command exited 0 minutes later. Here the
solve runs on a thread of its own with that catching switched off, while the main thread, which is
where Python delivers signals, waits for it; an exception raised there by a signal handler (Ctrl-C's
KeyboardInterrupt, a batch's SIGTERM) stops the search and is raised again once the solve has
returned. The solver, its parameters and so its answer are the same: only where it runs changes.
"""

from __future__ import annotations

import threading
from typing import Any

# How long the main thread sleeps between looks at the solve: a signal is acted on within this.
POLL_SECONDS = 0.05


def solve(solver: Any, model: Any) -> int:
    """``solver.solve(model)`` (an ortools ``CpSolver`` and ``CpModel``), interruptible: returns its status.

    The wait is on an event the solving thread sets, not on ``Thread.join``: a join that an exception
    interrupts can mark the thread stopped while it still runs (Python 3.11), and a solve still running
    when the interpreter exits aborts the process. A signal can come at any point, even while
    ``Thread.start`` waits for the new thread to run, so the thread starts inside the ``try``, and a lock
    settles which came first: a thread that has not reached ``solve`` never calls it, and a search that
    has begun is told to stop at every poll until it ends (a ``stop_search`` that comes before ``solve`` has set
    up its search is lost), a second Ctrl-C meanwhile included: raised out of the stopping, it left the
    search running behind the exiting command. The first interrupt is the one raised."""
    solver.parameters.catch_sigint_signal = False
    status: list[int] = []
    done = threading.Event()
    order = threading.Lock()
    called_off = solving = False

    def run() -> None:
        nonlocal solving
        try:
            with order:
                solving = not called_off
            if solving:
                status.append(solver.solve(model))
        finally:
            done.set()

    try:
        threading.Thread(target=run, name="cp-sat").start()
        while not done.wait(POLL_SECONDS):
            pass
    except BaseException:
        while True:
            try:
                with order:
                    called_off = True
                while solving and not done.is_set():
                    solver.stop_search()
                    done.wait(POLL_SECONDS)
                break
            except KeyboardInterrupt:  # a second Ctrl-C (or a SIGTERM): the search is being stopped already
                continue
        raise
    return status[0]
