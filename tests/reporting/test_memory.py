"""The report process's memory settings (``_reporting._memory``) and forked inference steps."""

from __future__ import annotations

import os
import subprocess
import sys
import textwrap

import pytest

import prcurve._reporting._analysis as analysis_module
from prcurve._reporting._analysis import Settings, analyse
from prcurve._reporting._io import BUILTIN_EXAMPLE, read_labelled_scores

GLIBC = sys.platform.startswith("linux") and os.confstr("CS_GNU_LIBC_VERSION") is not None

# Temporaries of 5 MB each, freed in an order that leaves holes in the heap: with glibc's
# dynamic threshold they stay resident, with the fixed threshold they are given back.
SCRIPT = textwrap.dedent(
    """
    import sys
    import numpy as np
    from prcurve._reporting._memory import MAIN_THRESHOLD, set_mmap_threshold

    def rss():
        with open("/proc/self/status") as f:
            return next(int(l.split()[1]) for l in f if l.startswith("VmRSS")) / 1024

    if sys.argv[1] == "fixed":
        assert set_mmap_threshold(MAIN_THRESHOLD)
    first = np.ones(5 * 2**17); del first  # raises glibc's dynamic threshold
    base = rss()
    kept, freed = [], []
    for i in range(40):
        (kept if i % 2 else freed).append(np.ones(5 * 2**17))
    del freed
    kept.append(np.ones(10))
    print(rss() - base)
    """
)


@pytest.mark.skipif(not GLIBC, reason="mallopt is glibc's")
def test_fixed_threshold_gives_freed_arrays_back():
    def grown(mode: str) -> float:
        out = subprocess.run(
            [sys.executable, "-c", SCRIPT, mode], capture_output=True, text=True, check=True
        )
        return float(out.stdout)

    kept_mb = 20 * 5  # twenty 5 MB arrays are alive at the end either way
    assert grown("fixed") < kept_mb + 15
    assert grown("dynamic") > kept_mb + 60  # the freed holes stay resident


def test_parallel_steps_are_inherited_and_forgotten(monkeypatch):
    data = read_labelled_scores(None, BUILTIN_EXAMPLE.label, BUILTIN_EXAMPLE.scores)
    settings = Settings(
        data.source, data.label_column, tuple(data.scores), data.positive_label,
        n_resamples=200, seed=5, jobs=2,
    )  # fmt: skip
    monkeypatch.setattr(analysis_module, "PARALLEL_MIN_SECONDS", 0)
    parallel = analyse(data, settings)
    assert all(sc.operating is not None for sc in parallel.scorers.values())
    assert analysis_module._FORKED_STEPS == []  # no arrays left behind after the pool


# A worker frees a block's 8 MB array at the top of the heap: with the default trim threshold
# (128 kB once the mmap threshold is fixed) its pages go back to the system and the next block
# faults them in again; with WORKER_TRIM they stay for the next block.
WORKER_SCRIPT = textwrap.dedent(
    """
    import sys
    import numpy as np
    from prcurve._reporting._memory import (
        WORKER_THRESHOLD, WORKER_TRIM, set_mmap_threshold, set_trim_threshold,
    )

    def rss():
        with open("/proc/self/status") as f:
            return next(int(l.split()[1]) for l in f if l.startswith("VmRSS")) / 1024

    assert set_mmap_threshold(WORKER_THRESHOLD)
    if sys.argv[1] == "worker":
        assert set_trim_threshold(WORKER_TRIM)
    block = np.ones(2**20)  # 8 MB from the heap (below the mmap threshold)
    held = rss()
    del block
    print(held - rss())
    """
)


@pytest.mark.skipif(not GLIBC, reason="mallopt is glibc's")
def test_worker_trim_threshold_keeps_a_freed_block():
    def given_back(mode: str) -> float:
        out = subprocess.run(
            [sys.executable, "-c", WORKER_SCRIPT, mode], capture_output=True, text=True, check=True
        )
        return float(out.stdout)

    assert given_back("default") > 6  # MB: the block's pages returned at once
    assert given_back("worker") < 1


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
