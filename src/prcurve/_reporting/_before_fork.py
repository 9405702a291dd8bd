"""Background work that must be over before the report forks its worker processes.

The report loads matplotlib in a thread (:class:`~.render._figures.FiguresAhead`) while the
main thread computes the curves.  A process forked while another thread is importing inherits
that import's module locks, held by a thread the child does not have: a child importing one of
those modules would wait forever.  So such work is registered here, and the resampling steps
(:mod:`.analysis._parallel`) call :func:`settle` just before they fork; the loading is normally
long finished by then, so the wait costs nothing.
"""

from __future__ import annotations

import threading
from concurrent.futures import CancelledError, Future
from typing import Any

__all__ = ["register", "settle"]

_LOCK = threading.Lock()
_PENDING: list[Future[Any]] = []


def register(future: Future[Any]) -> None:
    """Have :func:`settle` wait for ``future`` (work in a thread that may hold import locks)."""
    with _LOCK:
        _PENDING[:] = [f for f in _PENDING if not f.done()]
        _PENDING.append(future)


def settle() -> None:
    """Wait until every registered piece of work has ended (its errors are its owner's)."""
    with _LOCK:
        pending, _PENDING[:] = list(_PENDING), []
    for future in pending:
        try:
            future.exception()  # waits; a failure is raised where the owner asks for it
        except CancelledError:  # never started: nothing is running
            pass
