"""Streaming speed and memory of the exact PRAccumulator against numpy.sort of the same data.

Run:  python bench/bench_accumulator.py [--sizes 1e6 1e7 1e8] [--chunk 1e6] [--quick]

For each size k, continuous binormal scores (prevalence 0.1, so k distinct scores) are fed to
``PRAccumulator.update`` in chunks, then the state is read once (``acc.scores``: the runs are
merged into one) -- all in a fresh process, measured with ``_measure.run_measured``.  In another
fresh process, the same k scores are sorted with ``numpy.sort``.  Both time only their own work
(not drawing the data).  The table gives the streaming rate, the ratio of the two times (the
issue's target: streaming at the speed of one sort), the state (24 bytes per distinct score) and
the peak resident memory above the process's resident memory before streaming, over the state,
and the 1-minute load average when the size was done (on a shared machine only the ratio to the
sort measured in the same run is comparable between runs).

Unweighted batches are buffered unsorted until they amount to a fifth of the state's rows, then
sorted as one run; the runs are merged by size, k at a time in one pass (``prcurve._core._runs``).

``--quick``: 10⁴ and 10⁵ rows in chunks of 10⁴ (for the test that every bench script runs).
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from _measure import median_runs, run_measured

PREVALENCE = 0.1


def _chunks(k: int, chunk: int):
    import numpy as np

    rng = np.random.default_rng(20261126)
    for lo in range(0, k, chunk):
        m = min(chunk, k - lo)
        y = rng.random(m) < PREVALENCE
        yield y, rng.normal(size=m) + 1.5 * y


def _rss() -> int:
    with open("/proc/self/status") as f:
        for line in f:
            if line.startswith("VmRSS:"):
                return int(line.split()[1]) * 1024
    return 0


def child(kind: str, k: int, chunk: int) -> dict:
    import numpy as np

    from prcurve import PRAccumulator

    if kind == "sort":
        s = np.concatenate([s for _, s in _chunks(k, chunk)])
        base = _rss()
        t0 = time.perf_counter()
        np.sort(s)
        return {"seconds": time.perf_counter() - t0, "base": base}
    acc = PRAccumulator()
    base = _rss()
    seconds = 0.0
    for y, s in _chunks(k, chunk):
        t0 = time.perf_counter()
        acc.update(y, s)
        seconds += time.perf_counter() - t0
    t0 = time.perf_counter()
    distinct = acc.scores.shape[0]  # merges the runs into one
    seconds += time.perf_counter() - t0
    return {"seconds": seconds, "base": base, "state": acc.nbytes, "distinct": distinct}


def measure(kind: str, k: int, chunk: int, repeat: int) -> tuple[dict, float]:
    runs, results = [], []
    for _ in range(repeat):
        argv = [sys.executable, __file__, "--child", kind, "--sizes", str(k), "--chunk", str(chunk)]
        m = run_measured(argv)
        runs.append(m)
        results.append(json.loads(m.stdout.strip().splitlines()[-1]))
    med = median_runs(runs)
    best = sorted(results, key=lambda r: r["seconds"])[len(results) // 2]
    return best, med.main_mb


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sizes", type=float, nargs="*", default=[1e6, 1e7, 1e8])
    parser.add_argument("--chunk", type=float, default=1e6)
    parser.add_argument("--repeat", type=int, default=3, help="runs per size below 1e8 (median)")
    parser.add_argument("--quick", action="store_true")
    parser.add_argument("--child", choices=["stream", "sort"])
    args = parser.parse_args()
    chunk = int(args.chunk)
    if args.child:
        print(json.dumps(child(args.child, int(args.sizes[0]), chunk)))
        return
    sizes = [int(k) for k in args.sizes]
    if args.quick:
        sizes, chunk = [10_000, 100_000], 10_000
    head = (
        f"{'rows = distinct':>15} {'stream s':>9} {'M rows/s':>9} {'sort s':>7} {'/sort':>6} "
        f"{'state MB':>9} {'peak MB':>8} {'peak/state':>10} {'load':>5}"
    )
    print(f"PRAccumulator.update, continuous scores in chunks of {chunk:,}, then one read")
    print(head)
    print("-" * len(head))
    for k in sizes:
        repeat = 1 if k >= 10**8 else args.repeat
        stream, hwm_mb = measure("stream", k, chunk, repeat)
        sort, _ = measure("sort", k, chunk, repeat)
        state_mb = stream["state"] / 2**20
        peak_mb = hwm_mb - stream["base"] / 2**20
        print(
            f"{k:>15,} {stream['seconds']:>9.2f} {k / stream['seconds'] / 1e6:>9.2f} "
            f"{sort['seconds']:>7.2f} {stream['seconds'] / sort['seconds']:>6.1f} "
            f"{state_mb:>9.0f} {peak_mb:>8.0f} {peak_mb / state_mb:>10.2f} "
            f"{os.getloadavg()[0]:>5.1f}"
        )
    print(
        "(seconds: medians of fresh processes, 1 run at 1e8; peak MB: the process's peak "
        "resident memory above its resident memory before streaming, one chunk included)"
    )


if __name__ == "__main__":
    main()
