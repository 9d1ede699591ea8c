"""numba's compiler, with its machine code kept on disk where there is room for it.

The Torqu scorer's and the pairing solver's inner loops are compiled by numba. Kept on disk (numba's
``cache=True``: beside the module, or in the user's cache folder), the compiled code costs only a
machine's first process its seconds of compiling. Where neither place can be written (a read-only
install run by a user whose home is read-only), numba refuses the cache when a function is
decorated, which failed the command with a traceback (a CI persona's finding); each process then
compiles for itself instead: slower to start, the same code and results.
"""

from __future__ import annotations

from functools import wraps
from typing import Callable, TypeVar

import numpy as np
from numba import njit
from numba.core import config

F = TypeVar("F", bound=Callable)


def compiled(func: F) -> F:
    """``func`` compiled in nopython mode, its machine code cached on disk when it can be. Under
    ``NUMBA_DISABLE_JIT=1`` (numba's switch for debugging the loops in Python) it runs as numpy code, whose
    integers wrap as the machine code's do (a hash's products, a subtraction checked for its borrow after)
    but say so: those warnings are kept off stderr, where they read as faults (a determinism audit's finding)."""
    if config.DISABLE_JIT:
        @wraps(func)
        def wrapping(*args, **kwargs):
            with np.errstate(over="ignore"):
                return func(*args, **kwargs)
        return wrapping  # type: ignore[return-value]
    try:
        return njit(cache=True)(func)
    except RuntimeError as exc:  # numba: "cannot cache function ...: no locator available for file ..."
        if "cannot cache" not in str(exc):
            raise
        return njit(func)
