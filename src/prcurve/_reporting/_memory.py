"""The report process's memory: give large freed arrays back to the operating system.

glibc's ``malloc`` serves each allocation above ``M_MMAP_THRESHOLD`` with its own mapping,
returned to the system when freed, but raises that threshold after every such free (up to
32 MB).  A report on millions of rows frees many arrays of a few megabytes (sort orders,
temporaries of the curves, the figures); after the first, the rest land in the heap, whose
holes stay resident, so the peak grows by every scorer's temporaries.  Fixing the threshold
(which turns the adjustment off) keeps the peak near what is alive at once.  Worker processes
that resample in blocks want the opposite (a block's arrays re-used from the heap instead of
fresh pages faulted in each time), so they get a high threshold — and a high
``M_TRIM_THRESHOLD`` too: fixing the mmap threshold also leaves the trim threshold at its
128 kB default, so every free at the top of the heap gave the pages back and the next block
faulted them in again.  Without glibc nothing changes.
"""

from __future__ import annotations

import ctypes
import ctypes.util
import os
import sys

__all__ = [
    "lean_report_memory",
    "set_mmap_threshold",
    "set_trim_threshold",
    "single_blas_thread",
    "trim_memory",
]

_M_TRIM_THRESHOLD = -1  # from glibc's malloc.h
_M_MMAP_THRESHOLD = -3
#: The report's main process: arrays of ≥ 4 MB (5·10⁵ float64) are mapped and given back.
MAIN_THRESHOLD = 4 << 20
#: Resampling workers: arrays up to 32 MB (the glibc maximum of the dynamic threshold) re-used.
WORKER_THRESHOLD = 32 << 20
#: Resampling workers keep up to 16 MB free at the top of the heap (a block's arrays, see
#: ``prcurve._inference._resample.BLOCK_ELEMENTS``).  Measured at the 10⁶-row report's sizes
#: (CPU seconds of one step, 2026, shared machine): the AP bootstrap of 150,000 rows 0.235 →
#: 0.197, the paired comparison of 50,000 rows 0.214 → 0.197; 8 MB gained nothing.
WORKER_TRIM = 16 << 20


def _libc() -> ctypes.CDLL | None:
    if not sys.platform.startswith("linux"):
        return None
    try:  # by its usual name: ``find_library`` would start a subprocess (a fork of this one)
        return ctypes.CDLL("libc.so.6")
    except OSError:
        pass
    try:
        return ctypes.CDLL(ctypes.util.find_library("c"))
    except OSError:
        return None


def trim_memory() -> bool:
    """Give the free memory of every ``malloc`` arena back to the system (glibc's
    ``malloc_trim``); False where not available.

    Parsing a CSV file with pyarrow's threads leaves tens of megabytes free but resident in
    per-thread arenas (≈30 MB for 10⁶ rows); the report trims after reading and after each
    stage, so later stages start from what is really alive.

    >>> trim_memory() in (True, False)
    True
    """
    libc = _libc()
    try:
        if libc is None:
            return False
        libc.malloc_trim(0)  # 1 when memory was released, 0 when there was none to release
    except AttributeError:  # not glibc
        return False
    return True


def set_mmap_threshold(size: int) -> bool:
    """Set glibc's ``M_MMAP_THRESHOLD`` (bytes) for this process; False where not available.

    >>> set_mmap_threshold(WORKER_THRESHOLD) in (True, False)
    True
    """
    libc = _libc()
    try:
        return libc is not None and bool(libc.mallopt(_M_MMAP_THRESHOLD, int(size)))
    except AttributeError:  # not glibc (e.g. musl has no mallopt)
        return False


def set_trim_threshold(size: int) -> bool:
    """Set glibc's ``M_TRIM_THRESHOLD`` (bytes) for this process; False where not available.

    >>> set_trim_threshold(WORKER_TRIM) in (True, False)
    True
    """
    libc = _libc()
    try:
        return libc is not None and bool(libc.mallopt(_M_TRIM_THRESHOLD, int(size)))
    except AttributeError:  # not glibc
        return False


def single_blas_thread() -> bool:
    """Run BLAS (numpy's OpenBLAS) on one thread in this process, with ``threadpoolctl`` when it
    is installed (it comes with scikit-learn); False where it is not.

    OpenBLAS computes a dot product of more than about 10⁴ values on two threads, and its helper
    thread then busy-waits for about 0.1 s: each average precision of a curve (one ``np.dot``)
    costs that much of a second CPU.  The report's processes already keep every CPU busy, so
    the report's resampling workers (and the report process) use one thread.  Measured at the
    10⁶-row report's sizes (2026): the paired comparison of 25,000 rows took 0.152 CPU s for
    0.077 s wall before, the AP bootstrap of 75,000 rows 0.131 CPU s for 0.066 s.

    >>> single_blas_thread() in (True, False)
    True
    """
    try:
        from threadpoolctl import threadpool_limits
    except ImportError:
        return False
    threadpool_limits(1, user_api="blas")
    return True


def lean_report_memory() -> None:
    """The report process's settings: :data:`MAIN_THRESHOLD`, and pyarrow (imported later, if at
    all) allocating through the same ``malloc`` instead of its own pool, which keeps freed
    memory (the CSV text it parsed) resident; and one BLAS thread (:func:`single_blas_thread`)."""
    set_mmap_threshold(MAIN_THRESHOLD)
    single_blas_thread()
    os.environ.setdefault("ARROW_DEFAULT_MEMORY_POOL", "system")
