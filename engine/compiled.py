"""numba's compiler, with its machine code kept on disk where there is room for it.

The Torqu scorer's and the pairing solver's inner loops are compiled by numba. Kept on disk (numba's
``cache=True``), the compiled code costs only a machine's first process its seconds of compiling. It is
kept in the user's cache folder (:func:`cache_folder`) unless ``NUMBA_CACHE_DIR`` names one: numba's own
first choice, a ``__pycache__`` beside the installed module, wrote into site-packages at run time and
stayed behind when the package was uninstalled, 5.5 MB that still imported as an empty ``cardgames``
(an install audit's finding). Where no place can be written (a read-only
install run by a user whose home is read-only), numba refuses the cache when a function is
decorated, which failed the command with a traceback (a CI persona's finding); each process then
compiles for itself instead: slower to start, the same code and results.

Those seconds can be said (:func:`announce`): a user's first Torqu game sat silent for some 17 s while
its loops compiled. numba is imported only when a loop is decorated, so that the command line can ask
for that before it knows whether any will be.
"""

from __future__ import annotations

import os
import sys
from functools import wraps
from typing import Callable, TypeVar

F = TypeVar("F", bound=Callable)

#: The words :func:`announce` passes on.
COMPILING = "compiling the engine's loops with numba: up to a minute, once where numba can keep them"


class _FirstCompile:
    """Who is told, once, that this process compiles a loop rather than loading it from numba's cache."""

    say: Callable[[str], None] | None = None
    listening = False

    @classmethod
    def listen(cls) -> None:
        """Have numba report its compiles (its ``numba:compile`` event, which a cache hit does not raise)."""
        if cls.listening:
            return
        from numba.core import event

        class Listener(event.Listener):
            def on_start(self, ev: event.Event) -> None:
                say, cls.say = cls.say, None
                if say is not None:
                    say(COMPILING)

            def on_end(self, ev: event.Event) -> None:
                pass

        event.register("numba:compile", Listener())
        cls.listening = True


def announce(say: Callable[[str], None] | None) -> None:
    """Call ``say`` with :data:`COMPILING` when this process first compiles a loop (not when it loads one
    from numba's cache), once; None: say nothing."""
    _FirstCompile.say = say


def announcer() -> Callable[[str], None] | None:
    """What :func:`announce` was last given, or None once this process's first compile has called it: a batch's
    worker processes are given it, to say their first compile as the parent would have, once for them all
    (``batch.executors``)."""
    return _FirstCompile.say


def cache_folder() -> str | None:
    """Where numba keeps the compiled loops: ``$XDG_CACHE_HOME/cardgames/numba``, else
    ``~/.cache/cardgames/numba``; None without a home folder to name (numba then keeps them where it can)."""
    base = os.environ.get("XDG_CACHE_HOME", "")
    if not os.path.isabs(base):  # unset, or relative: the XDG spec says to ignore it
        base = os.path.join(os.path.expanduser("~"), ".cache")
    return os.path.join(base, "cardgames", "numba") if os.path.isabs(base) else None


def _cache_in_the_users_folder() -> None:
    """Point numba at :func:`cache_folder`, unless ``NUMBA_CACHE_DIR`` names a folder already. Set in the
    environment, it holds for numba's rereading of its settings and for a batch's worker processes; a folder
    numba cannot write is passed over for its own choices."""
    if os.environ.get("NUMBA_CACHE_DIR"):
        return
    folder = cache_folder()
    if folder is None:
        return
    os.environ["NUMBA_CACHE_DIR"] = folder
    config = sys.modules.get("numba.core.config")
    if config is not None:  # read already, when numba was imported before this
        config.CACHE_DIR = folder


def compiled(func: F) -> F:
    """``func`` compiled in nopython mode, its machine code cached on disk when it can be. Under
    ``NUMBA_DISABLE_JIT=1`` (numba's switch for debugging the loops in Python) it runs as numpy code, whose
    integers wrap as the machine code's do (a hash's products, a subtraction checked for its borrow after)
    but say so: those warnings are kept off stderr, where they read as faults (a determinism audit's finding)."""
    _cache_in_the_users_folder()
    import numba
    from numba.core import config

    if config.DISABLE_JIT:
        import numpy as np

        @wraps(func)
        def wrapping(*args, **kwargs):
            with np.errstate(over="ignore"):
                return func(*args, **kwargs)
        return wrapping  # type: ignore[return-value]
    _FirstCompile.listen()
    try:
        return numba.njit(cache=True)(func)
    except RuntimeError as exc:  # numba: "cannot cache function ...: no locator available for file ..."
        if "cannot cache" not in str(exc):
            raise
        return numba.njit(func)
