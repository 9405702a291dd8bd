"""The report process's memory: freed memory back to the system, large arrays re-used.

``malloc_trim`` (:func:`trim_memory`) gives back what pyarrow's parser threads leave free in
their arenas.  glibc's ``malloc`` serves each allocation above ``M_MMAP_THRESHOLD`` with its own
mapping (fresh pages, faulted in and zeroed on first touch, given back when freed) and raises
that threshold after every such free, up to 32 MB.  The report fixes it at 32 MB from the start
(:data:`THRESHOLD`, and the trim threshold at 64 MB, as glibc's own adjustment would), in the
main process and in the resampling workers: arrays of up to 4·10⁶ float64 are re-used from the
heap instead of faulted in again.  Measured at 10⁶ rows × 2 scorers (``prcurve report``, 2
cores): this module's former setting (main process at 4 MB, meant to keep the peak down; trim
threshold left at 128 kB) took about 800,000 minor page faults and 1.9 s of system time (main
process and workers) against 93,000 and 0.45 s now, for a peak of 269–286 MB against 296 MB
(at 10⁷ rows the 4 MB setting did not lower the peak: 1157 against 1159 MB with 32 MB).
Without glibc nothing changes.
"""

from __future__ import annotations

import ctypes
import ctypes.util
import os
import sys

__all__ = [
    "BLAS_THREAD_VARIABLES",
    "THRESHOLD",
    "lean_report_memory",
    "set_mmap_threshold",
    "single_blas_thread",
    "trim_memory",
]

_M_MMAP_THRESHOLD = -3  # from glibc's malloc.h
_M_TRIM_THRESHOLD = -1
#: Arrays up to 32 MB (the glibc maximum of the dynamic threshold) come from the heap.
THRESHOLD = 32 << 20


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
    """Set glibc's ``M_MMAP_THRESHOLD`` to ``size`` bytes and ``M_TRIM_THRESHOLD`` to twice
    that for this process (what glibc sets itself when it raises the threshold; a fixed
    threshold otherwise leaves the trim threshold at 128 kB, so every large free at the top of
    the heap is given back and faulted in again); False where not available.

    >>> set_mmap_threshold(THRESHOLD) in (True, False)
    True
    """
    libc = _libc()
    try:
        return (
            libc is not None
            and bool(libc.mallopt(_M_MMAP_THRESHOLD, int(size)))
            and bool(libc.mallopt(_M_TRIM_THRESHOLD, 2 * int(size)))
        )
    except AttributeError:  # not glibc (e.g. musl has no mallopt)
        return False


#: Environment variables that set the threads of the BLAS libraries numpy may load.
BLAS_THREAD_VARIABLES = ("OPENBLAS_NUM_THREADS", "MKL_NUM_THREADS", "BLIS_NUM_THREADS")


def single_blas_thread() -> bool:
    """Run BLAS (numpy's OpenBLAS) on one thread in this process and the processes it starts.

    Before numpy is loaded (the ``prcurve`` command) the BLAS libraries' own environment
    variables do it (:data:`BLAS_THREAD_VARIABLES`, unless the user set them); once it is
    loaded, ``threadpoolctl`` does, when it is installed (it comes with scikit-learn).  Returns
    whether one of the two applied.

    OpenBLAS computes a dot product of more than about 10⁴ values on two threads, and its helper
    thread then busy-waits for about 0.1 s: each average precision of a curve (one ``np.dot``)
    costs that much of a second CPU.  The report's processes already keep every CPU busy, so
    the report's resampling workers (and the report process) use one thread.  Measured at the
    10⁶-row report's sizes (2026): the paired comparison of 25,000 rows took 0.152 CPU s for
    0.077 s wall before, the AP bootstrap of 75,000 rows 0.131 CPU s for 0.066 s.

    >>> single_blas_thread() in (True, False)
    True
    """
    if "numpy" not in sys.modules:
        for name in BLAS_THREAD_VARIABLES:
            os.environ.setdefault(name, "1")
        return True
    try:
        from threadpoolctl import threadpool_limits
    except ImportError:
        return False
    threadpool_limits(1, user_api="blas")
    return True


def lean_report_memory() -> None:
    """The report process's settings: :data:`THRESHOLD`, and pyarrow (imported later, if at
    all) allocating through the same ``malloc`` instead of its own pool, which keeps freed
    memory (the CSV text it parsed) resident; and one BLAS thread (:func:`single_blas_thread`)."""
    set_mmap_threshold(THRESHOLD)
    single_blas_thread()
    os.environ.setdefault("ARROW_DEFAULT_MEMORY_POOL", "system")
