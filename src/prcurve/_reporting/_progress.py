"""A tiny progress bar on stderr for the command line (no dependency).

It draws only when its stream is a terminal; elsewhere (CI logs, pipes) it stays silent so that
logs are not flooded.  It is a ``progress(done, total)`` callable, the form every long-running
function of prcurve accepts.
"""

from __future__ import annotations

import sys
import time
from collections.abc import Callable
from typing import Any, TextIO

__all__ = ["Progress", "ProgressBar", "Stage", "announce"]

#: A ``progress(done, total)`` callable.
Progress = Callable[[int, int], None]


class ProgressBar:
    """Progress of one task at a time, redrawn in place at most ten times a second.

    Parameters
    ----------
    enabled : bool
        False draws nothing (``--quiet``).
    stream : file, optional
        Where to draw (default ``sys.stderr``); nothing is drawn unless it is a TTY.
    width : int
        Characters of the bar itself.

    Examples
    --------
    >>> import io
    >>> bar = ProgressBar(stream=io.StringIO())  # not a TTY: silent
    >>> bar.start("bootstrap"); bar(50, 100); bar.finish()
    >>> bar.stream.getvalue()
    ''
    """

    def __init__(self, enabled: bool = True, stream: TextIO | None = None, width: int = 30):
        self.stream = stream if stream is not None else sys.stderr
        isatty = getattr(self.stream, "isatty", None)
        self.active = bool(enabled and isatty is not None and isatty())
        self.width = width
        self.label = ""
        self._last = 0.0
        self._drawn = False
        self._started = time.perf_counter()

    def start(self, label: str) -> None:
        """Begin a new task (finishing the previous one's line)."""
        self.finish()
        self.label = label
        self._started = time.perf_counter()
        self._last = 0.0

    def __call__(self, done: int, total: int) -> None:
        """Report ``done`` of ``total`` units."""
        if not self.active or total <= 0:
            return
        now = time.perf_counter()
        if done < total and now - self._last < 0.1:
            return
        self._last = now
        frac = min(max(done / total, 0.0), 1.0)
        fill = round(frac * self.width)
        bar = "#" * fill + "-" * (self.width - fill)
        elapsed = now - self._started
        self.stream.write(f"\r{self.label:<40.40} [{bar}] {frac:4.0%} {elapsed:5.1f}s")
        self.stream.flush()
        self._drawn = True

    def finish(self) -> None:
        """End the current line, if one was drawn."""
        if self._drawn:
            self.stream.write("\n")
            self.stream.flush()
            self._drawn = False


def announce(progress: Any, label: str) -> None:
    """Start a new labelled task on a progress bar (plain callables have no labels)."""
    start = getattr(progress, "start", None)
    if start is not None:
        start(label)


class Stage:
    """Announce a stage on the progress bar and time it."""

    def __init__(self, progress: Any, label: str, timings: dict[str, float], key: str):
        self.progress, self.label, self.timings, self.key = progress, label, timings, key

    def __enter__(self) -> Stage:
        announce(self.progress, self.label)
        self.t0 = time.perf_counter()
        return self

    def __exit__(self, *exc: Any) -> None:
        self.timings[self.key] = time.perf_counter() - self.t0
        if exc[0] is None and self.progress is not None:
            self.progress(1, 1)
