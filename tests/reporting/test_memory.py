"""The report process's memory settings (``_reporting._memory``) and forked inference steps."""

from __future__ import annotations

import os
import subprocess
import sys
import textwrap

import pytest

import prcurve._reporting.analysis._parallel as parallel_module
from prcurve._reporting.analysis._analysis import Settings, analyse
from prcurve._reporting.input._io import BUILTIN_EXAMPLE, read_labelled_scores

GLIBC = sys.platform.startswith("linux") and os.confstr("CS_GNU_LIBC_VERSION") is not None

# A freed 8 MB temporary (a resampling block's arrays are allocated and freed again and
# again): with the report's setting the heap keeps it for the next allocation; with only the
# mmap threshold fixed (the trim threshold left at glibc's 128 kB) it is given back at once,
# to be faulted in again by the next allocation.
SCRIPT = textwrap.dedent(
    """
    import ctypes, sys
    import numpy as np
    from prcurve._reporting._memory import THRESHOLD, set_mmap_threshold

    def rss():
        with open("/proc/self/status") as f:
            return next(int(l.split()[1]) for l in f if l.startswith("VmRSS")) / 1024

    if sys.argv[1] == "report":
        assert set_mmap_threshold(THRESHOLD)
    else:
        assert ctypes.CDLL("libc.so.6").mallopt(-3, THRESHOLD)  # M_MMAP_THRESHOLD only
    base = rss()
    a = np.ones(10**6)
    del a
    print(rss() - base)
    """
)


@pytest.mark.skipif(not GLIBC, reason="mallopt is glibc's")
def test_freed_large_temporaries_stay_for_the_next_allocation():
    def kept_mb(mode: str) -> float:
        out = subprocess.run(
            [sys.executable, "-c", SCRIPT, mode], capture_output=True, text=True, check=True
        )
        return float(out.stdout)

    assert kept_mb("report") > 7  # the 8 MB stay in the heap, ready to be re-used
    assert kept_mb("mmap_only") < 1  # given back at once


def test_parallel_steps_are_inherited_and_forgotten(monkeypatch):
    data = read_labelled_scores(None, BUILTIN_EXAMPLE.label, BUILTIN_EXAMPLE.scores)
    settings = Settings(
        data.source, data.label_column, tuple(data.scores), data.positive_label,
        n_resamples=200, seed=5, jobs=2,
    )  # fmt: skip
    monkeypatch.setattr(parallel_module, "PARALLEL_MIN_SECONDS", 0)
    parallel = analyse(data, settings)
    assert all(sc.operating is not None for sc in parallel.scorers.values())
    assert parallel_module._FORKED_STEPS == []  # no arrays left behind after the pool


def test_single_blas_thread_limits_blas_to_one_thread():
    pytest.importorskip("threadpoolctl")  # optional: comes with scikit-learn
    script = textwrap.dedent(
        """
        import numpy  # loads its BLAS
        from threadpoolctl import threadpool_info
        from prcurve._reporting._memory import single_blas_thread

        assert numpy.dot(numpy.ones(3), numpy.ones(3)) == 3

        assert single_blas_thread()
        print(max(d["num_threads"] for d in threadpool_info() if d["user_api"] == "blas"))
        """
    )
    out = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "1"


def test_the_command_sets_one_blas_thread_before_numpy_loads():
    """Without threadpoolctl too: the BLAS libraries' variables, set before numpy is loaded."""
    pytest.importorskip("threadpoolctl")  # to read the thread count back
    script = textwrap.dedent(
        """
        import os
        for name in ("OPENBLAS_NUM_THREADS", "MKL_NUM_THREADS", "BLIS_NUM_THREADS"):
            os.environ.pop(name, None)
        from prcurve._reporting._memory import lean_report_memory
        lean_report_memory()  # as the command does, before reading (numpy not loaded yet)
        import numpy
        from threadpoolctl import threadpool_info
        print(max(d["num_threads"] for d in threadpool_info() if d["user_api"] == "blas"))
        """
    )
    out = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "1"
