"""Ctrl-C held back while the report imports its modules, then raised at once.

A ``KeyboardInterrupt`` raised while an extension module is being imported can be lost or
mangled: an extension's initialisation that calls back into Python and clears the error it
gets (an optional import it tolerates failing) swallows the interrupt, and the report then ran
to its end and exited 0; other times CPython remembered the interrupt as unhandled although the
CLI had caught it, and the process died by SIGINT (status −2) after printing its one line.
Measured with ``python -m prcurve report`` on 2·10⁶ Parquet rows, SIGINT sent 0.20–0.32 s after
the start (while SciPy loaded after the read): 2 of 60 runs lost, 10 of 36 at −2.

:func:`interrupts_deferred` replaces the SIGINT handler for the duration of such imports with
one that only records the signal, and raises ``KeyboardInterrupt`` when the block ends, where
the CLI's handler turns it into its one line and status 130.
"""

from __future__ import annotations

import contextlib
import signal
import threading
from collections.abc import Iterator
from typing import Any

__all__ = ["interrupts_deferred"]


@contextlib.contextmanager
def interrupts_deferred() -> Iterator[None]:
    """Hold SIGINT back inside the block; raise ``KeyboardInterrupt`` after it if one came.

    Only in the main thread with Python's default handler installed (a handler of the caller's
    own is left alone, and other threads cannot set one).

    >>> with interrupts_deferred():
    ...     import json
    >>> json.dumps([1])
    '[1]'
    """
    if threading.current_thread() is not threading.main_thread() or (
        signal.getsignal(signal.SIGINT) is not signal.default_int_handler
    ):
        yield
        return
    received: list[int] = []

    def record(signum: int, frame: Any) -> None:
        received.append(signum)

    signal.signal(signal.SIGINT, record)
    try:
        yield
    except BaseException as exc:  # a Ctrl-C held back wins over what the block raised
        if received:
            raise KeyboardInterrupt from exc
        raise
    finally:
        signal.signal(signal.SIGINT, signal.default_int_handler)
    if received:
        raise KeyboardInterrupt
