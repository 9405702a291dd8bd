"""Shared by the bench scripts: run a command, and measure its wall time and peak memory.

Peak memory is given two ways, because they differ as soon as the command starts worker
processes (``prcurve report`` resamples in worker processes on large inputs):

* ``main_mb``: the peak resident set of the command's own process (its ``VmHWM``, which the
  kernel keeps; read at each sample, so growth in its last ``interval`` may be missed);
* ``tree_mb``: the peak of the resident sets *summed over the process and all its descendants*,
  sampled every ``interval`` seconds with psutil (so a spike shorter than the interval may be
  missed; the value is at least ``main_mb``, which is exact).  Pages shared by a forked worker
  and its parent count twice: an upper view of what the machine must hold;
* ``tree_pss_mb``: the same peak of the *proportional* set sizes (PSS: each shared page split
  among the processes sharing it), which counts the physical memory of the tree once.

Time and memory come from two separate runs of the command (:func:`time_and_memory`): the
sampler reads every process's ``smaps_rollup`` (a walk of its page tables) every ``interval``,
which on a 2-core machine takes CPU from the command it measures — measured on the 10⁶-row
report: 2.98 s sampled, 2.55 s with ``/usr/bin/time``.  The time is the unsampled run's.

Also the medians of several runs (a shared machine is noisy; the median is robust to one
disturbed run) and the ``--quick`` convention of the bench scripts (tiny sizes, for the test
that every script the README and the user guide quote exists and runs).
"""

from __future__ import annotations

import os
import statistics
import subprocess
import sys
import time
from collections.abc import Sequence
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass


@dataclass(frozen=True)
class Measured:
    """One run: wall seconds, peak RSS of the main process, and summed over its process tree."""

    seconds: float
    main_mb: float
    tree_mb: float
    tree_pss_mb: float
    stdout: str


def run_measured(
    argv: Sequence[str], *, env: dict[str, str] | None = None, interval: float = 0.02
) -> Measured:
    """Run ``argv`` to completion; fails loudly (with its stderr) when it fails."""
    import psutil  # comes with dask's distributed (the [dask] and [test] extras)

    t0 = time.perf_counter()
    proc = subprocess.Popen(
        list(argv), env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True
    )
    root = psutil.Process(proc.pid)
    tree_peak = main_peak = pss_peak = 0
    with ThreadPoolExecutor(1) as pool:  # drains the pipes so that the command never blocks
        output = pool.submit(proc.communicate)
        while proc.poll() is None:
            main_peak = max(main_peak, _high_water_mark(proc.pid))
            total = pss = 0
            try:
                members = [root, *root.children(recursive=True)]
            except psutil.Error:
                members = []
            for p in members:
                try:
                    full = p.memory_full_info()  # smaps_rollup: rss and pss
                    total, pss = total + full.rss, pss + full.pss
                except psutil.Error:  # ended between listing and reading
                    pass
            tree_peak, pss_peak = max(tree_peak, total), max(pss_peak, pss)
            time.sleep(interval)
        out, err = output.result()
    seconds = time.perf_counter() - t0
    if proc.returncode != 0:
        sys.exit(f"benchmark step failed ({' '.join(argv[:3])} ...):\n{err}")
    main = main_peak / 2**20
    return Measured(seconds, main, max(tree_peak / 2**20, main), pss_peak / 2**20, out)


def run_timed(argv: Sequence[str], *, env: dict[str, str] | None = None) -> float:
    """Wall seconds of ``argv`` run to completion, nothing sampled while it runs; fails loudly
    (with its stderr) when it fails."""
    t0 = time.perf_counter()
    proc = subprocess.run(list(argv), env=env, capture_output=True, text=True)
    seconds = time.perf_counter() - t0
    if proc.returncode != 0:
        sys.exit(f"benchmark step failed ({' '.join(argv[:3])} ...):\n{proc.stderr}")
    return seconds


def time_and_memory(
    argv: Sequence[str], *, env: dict[str, str] | None = None, interval: float = 0.02
) -> Measured:
    """Two runs of ``argv``: one timed with nothing sampled (:func:`run_timed`), one sampled for
    memory (:func:`run_measured`); the wall seconds are the first run's, the rest the second's."""
    seconds = run_timed(argv, env=env)
    sampled = run_measured(argv, env=env, interval=interval)
    return Measured(seconds, sampled.main_mb, sampled.tree_mb, sampled.tree_pss_mb, sampled.stdout)


def _high_water_mark(pid: int) -> int:
    """Peak resident bytes of a live process so far (Linux ``VmHWM``; 0 when unreadable)."""
    try:
        with open(f"/proc/{pid}/status") as f:
            for line in f:
                if line.startswith("VmHWM:"):
                    return int(line.split()[1]) * 1024
    except OSError:
        pass
    return 0


def median_runs(runs: Sequence[Measured]) -> Measured:
    """The median of each measure over ``runs`` (separately)."""
    return Measured(
        statistics.median(r.seconds for r in runs),
        statistics.median(r.main_mb for r in runs),
        statistics.median(r.tree_mb for r in runs),
        statistics.median(r.tree_pss_mb for r in runs),
        runs[-1].stdout,
    )


def cpus() -> int:
    """CPUs this process may use."""
    return len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else os.cpu_count() or 1


def has_pyarrow() -> bool:
    """Whether pyarrow is installed (the report's faster reader and writer)."""
    try:
        import pyarrow  # noqa: F401
    except ImportError:
        return False
    return True
