"""Benchmark: exact PR analysis at scale -- Dask vs in-memory prcurve vs scikit-learn, one run.

Usage: python bench/bench_scale.py [--rows 1e7] [--big-rows 1e8] [--workers 2]
                                   [--accumulator-rows 1e7] [--skip-small] [--skip-big]
                                   [--skip-accumulator] [--workdir DIR] [--quick]

Part 1 (``--rows``, 1 % positives, continuous scores): each engine runs in a fresh process, so
its peak RSS is its own (data included).  The data are the same for all engines: Dask's own
random generator, chunk by chunk; the in-memory engines materialise them as NumPy arrays first
(not timed).  Rows: numpy.sort of the scores (the floor of any exact method), scikit-learn's
precision_recall_curve + average_precision_score, prcurve.pr_curve + average precision, and
prcurve.dask.pr_curve on the Dask arrays (local threaded scheduler, ``--workers`` threads, data
never gathered).  Ratios are to scikit-learn and numpy.sort measured in the same run.

Part 2 (``--big-rows``): the script writes a Parquet dataset (continuous scores, 1 % positives;
in ``--workdir``, reused when present) chunk by chunk, then runs
``prcurve report DIR --engine dask`` on it in a fresh process and reports its wall time and peak
RSS, of the main process and summed over its process tree, and the summed PSS
(``_measure.time_and_memory``: the time from a run with nothing sampled, the memory from a
second, sampled run; the issue's target: 10⁸ rows in 30 s within 1 GB on a 2-core machine),
with ``numpy.sort`` of 10⁷ scores (one file's worth) timed in the same run for scale.

Part 3 (``--accumulator-rows`` k, continuous scores, so k distinct scores): a fresh process feeds
``PRAccumulator.update`` batches of 10⁶ rows (buffered unsorted until they amount to a fifth of
the state, then sorted as one run; runs merged by size, k at a time in one pass) and reads the
state once, merges two such accumulators of k/2 rows, and builds the curve, with
``tracemalloc`` (NumPy reports its allocations to it): the state's bytes per distinct score,
and the peak traced bytes of each phase (batches and the data of a merge included).
Compared with ``numpy.sort`` of the k scores and scikit-learn's ``precision_recall_curve`` on
all k rows at once (peak traced bytes and time), same run, with the 1-minute load average (on a
shared machine only the ratios within one run compare).

``--skip-small`` / ``--skip-big`` / ``--skip-accumulator`` leave a part out.  ``--quick``: 10⁴
rows in each part, parts 1 and 3 in this process (a smoke test: the peak RSS is not each
engine's own then).
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import subprocess
import sys
import tempfile
import time
import tracemalloc
from pathlib import Path

from _measure import cpus, time_and_memory

CHUNK = 1_000_000
PREVALENCE = 0.01


def _dask_data(n: int):
    import dask.array as da

    rng = da.random.default_rng(0)
    y = rng.random(n, chunks=CHUNK) < PREVALENCE
    s = rng.normal(size=n, chunks=CHUNK) + 1.5 * y
    return y, s


def _peak_rss_mb() -> float:
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024


def child(kind: str, n: int, workers: int) -> dict:
    """One engine on n rows in this (fresh) process: time, average precision, peak RSS."""
    import dask
    import numpy as np

    dask.config.set(scheduler="threads", num_workers=workers)
    y, s = _dask_data(n)
    if kind != "dask":
        y, s = dask.compute(y, s)
    # imports before the clock starts (import time is not the engine's)
    from sklearn.metrics import average_precision_score, precision_recall_curve

    import prcurve
    import prcurve.dask

    t0 = time.perf_counter()
    if kind == "numpy.sort":
        np.sort(s)
        ap = float("nan")
    elif kind == "sklearn":
        precision_recall_curve(y, s)
        ap = float(average_precision_score(y, s))
    elif kind == "prcurve":
        ap = prcurve.pr_curve(y, s).auc("average_precision")
    else:
        ap = prcurve.dask.pr_curve(y, s).auc("average_precision")
    return {"seconds": time.perf_counter() - t0, "ap": ap, "rss_mb": _peak_rss_mb()}


def run_child(kind: str, n: int, workers: int, *, inline: bool = False) -> dict:
    """One engine in a fresh process (its own peak RSS); ``inline``: in this one (``--quick``)."""
    if inline:
        return child(kind, n, workers)
    out = subprocess.run(
        [sys.executable, __file__, "--child", kind, "--rows", str(n), "--workers", str(workers)],
        capture_output=True,
        text=True,
        check=True,
    )
    return json.loads(out.stdout.strip().splitlines()[-1])


def part1(n: int, workers: int, *, inline: bool = False) -> None:
    kinds = ("numpy.sort", "sklearn", "prcurve", "dask")
    rows = {kind: run_child(kind, n, workers, inline=inline) for kind in kinds}
    rows["prcurve.dask"] = rows.pop("dask")
    t_sk, t_sort = rows["sklearn"]["seconds"], rows["numpy.sort"]["seconds"]
    ref = rows["sklearn"]["ap"]
    print(f"Part 1: {n:,} rows, {PREVALENCE:.0%} positives, continuous scores; "
          f"Dask: local threads, {workers} workers")  # fmt: skip
    head = (
        f"{'engine':<14} {'seconds':>9} {'/sklearn':>9} {'/np.sort':>9} {'peak RSS MB':>12} "
        f"{'AP':>10} {'|AP - sklearn|':>15}"
    )
    print(head)
    print("-" * len(head))
    for kind, r in rows.items():
        diff = "" if kind == "numpy.sort" else f"{abs(r['ap'] - ref):.1e}"
        ap = "" if kind == "numpy.sort" else f"{r['ap']:.6f}"
        print(
            f"{kind:<14} {r['seconds']:>9.2f} {r['seconds'] / t_sk:>9.2f} "
            f"{r['seconds'] / t_sort:>9.2f} {r['rss_mb']:>12.0f} {ap:>10} {diff:>15}"
        )


def write_dataset(folder: Path, n: int) -> None:
    """Parquet files of up to 10⁷ rows (row groups of 10⁶), written chunk by chunk."""
    import numpy as np
    import pyarrow as pa
    import pyarrow.parquet as pq

    folder.mkdir(parents=True, exist_ok=True)
    rng = np.random.default_rng(1)
    per_file = 10 * CHUNK
    for start in range(0, n, per_file):
        path = folder / f"part-{start // per_file:05d}.parquet"
        with pq.ParquetWriter(path, pa.schema([("y", pa.int8()), ("s", pa.float64())])) as w:
            for lo in range(start, min(n, start + per_file), CHUNK):
                m = min(CHUNK, n - lo)
                y = rng.random(m) < PREVALENCE
                s = rng.normal(size=m) + 1.5 * y
                w.write_table(pa.table({"y": y.astype(np.int8), "s": s}))
    (folder / "_rows").write_text(str(n))


def part2(n: int, workdir: Path, *, report_in_workdir: bool = False) -> None:
    folder = workdir / f"prcurve-bench-{n}"
    if not (folder / "_rows").exists():
        t0 = time.perf_counter()
        write_dataset(folder, n)
        print(f"Part 2: wrote {n:,} rows to {folder} in {time.perf_counter() - t0:.0f} s")
    size = sum(f.stat().st_size for f in folder.glob("*.parquet")) / 2**20
    out = Path(
        tempfile.mkdtemp(prefix="prcurve-bench-report-", dir=workdir if report_in_workdir else None)
    )
    argv = ["report", str(folder), "--label", "y", "--score", "s", "--engine", "dask",
            "--out", str(out), "--quiet"]  # fmt: skip
    cmd = [sys.executable, "-m", "prcurve", *argv]
    measured = time_and_memory(cmd, env=dict(os.environ, MPLBACKEND="Agg"), interval=0.1)
    t_sort = _sort_seconds(min(n, 10 * CHUNK))
    summary = json.loads((out / "summary.json").read_text())
    sc = summary["scorers"]["s"]
    print(
        f"Part 2: prcurve report --engine dask on {n:,} rows ({size:,.0f} MB of Parquet), "
        f"{cpus()} CPUs; numpy.sort of {min(n, 10 * CHUNK):,} scores {t_sort:.2f} s"
    )
    head = (
        f"{'rows':>13} {'seconds':>9} {'/np.sort':>9} {'main RSS MB':>12} {'tree RSS MB':>12} "
        f"{'tree PSS MB':>12} {'AP (exact)':>11} {'points':>7}"
    )
    print(head)
    print("-" * len(head))
    print(
        f"{summary['data']['n']:>13,} {measured.seconds:>9.1f} {measured.seconds / t_sort:>9.1f} "
        f"{measured.main_mb:>12.0f} {measured.tree_mb:>12.0f} {measured.tree_pss_mb:>12.0f} "
        f"{sc['auc_pr']['average_precision']:>11.6f} {sc['n_thresholds']:>7}"
    )
    print(f"report: {out / 'report.html'}")


def _sort_seconds(n: int) -> float:
    import numpy as np

    s = np.random.default_rng(3).normal(size=n)
    t0 = time.perf_counter()
    np.sort(s)
    return time.perf_counter() - t0


def accumulator_child(k: int) -> dict:
    """Part 3 in this (fresh) process: the accumulator's state and peak traced memory."""
    import numpy as np
    from sklearn.metrics import precision_recall_curve

    from prcurve import PRAccumulator

    def batches(start: int, stop: int, seed: int):
        rng = np.random.default_rng(seed)
        for lo in range(start, stop, CHUNK):
            m = min(CHUNK, stop - lo)
            y = rng.random(m) < PREVALENCE
            yield y, rng.normal(size=m) + 1.5 * y

    out: dict = {"k": k}
    tracemalloc.start()
    for phase in ("update", "merge", "curve"):
        tracemalloc.reset_peak()
        base = tracemalloc.get_traced_memory()[0]
        t0 = time.perf_counter()
        if phase == "update":
            acc = PRAccumulator()
            for y, s in batches(0, k, 1):
                acc.update(y, s)
            out["distinct"] = acc.scores.shape[0]  # the last buffered batches sorted in
            out["state_bytes"] = acc.nbytes
        elif phase == "merge":  # two halves of k rows each, then one merge
            del acc
            a, b = PRAccumulator(), PRAccumulator()
            for y, s in batches(0, k // 2, 1):
                a.update(y, s)
            for y, s in batches(k // 2, k, 2):
                b.update(y, s)
            base = tracemalloc.get_traced_memory()[0]
            tracemalloc.reset_peak()
            t0 = time.perf_counter()
            acc = a.merge(b)
            del a, b
        else:
            acc.curve()
        out[phase] = {
            "seconds": time.perf_counter() - t0,
            "peak_bytes": tracemalloc.get_traced_memory()[1] - base,
        }
    del acc
    y, s = (np.concatenate(x) for x in zip(*batches(0, k, 1), strict=True))
    for name, fn in (
        ("numpy.sort", lambda: np.sort(s)),
        ("sklearn", lambda: precision_recall_curve(y, s)),
    ):
        tracemalloc.reset_peak()
        base = tracemalloc.get_traced_memory()[0]
        t0 = time.perf_counter()
        fn()
        out[name] = {
            "seconds": time.perf_counter() - t0,
            "peak_bytes": tracemalloc.get_traced_memory()[1] - base,
        }
    return out


def part3(k: int, *, inline: bool = False) -> None:
    if inline:  # --quick: no fresh process
        r = accumulator_child(k)
    else:
        out = subprocess.run(
            [sys.executable, __file__, "--child", "accumulator", "--accumulator-rows", str(k)],
            capture_output=True, text=True, check=True,
        )  # fmt: skip
        r = json.loads(out.stdout.strip().splitlines()[-1])
    d = r["distinct"]
    print(
        f"Part 3: PRAccumulator, {k:,} rows = {d:,} distinct scores (batches of {CHUNK:,}); "
        f"state {r['state_bytes'] / d:.1f} bytes per distinct score "
        f"({r['state_bytes'] / 2**20:.0f} MB); load average {os.getloadavg()[0]:.1f}"
    )
    head = (
        f"{'phase':<34} {'seconds':>8} {'peak MB':>8} {'B/score':>8} {'/state':>7} "
        f"{'/np.sort':>9} {'/sklearn':>9}"
    )
    print(head)
    print("-" * len(head))
    sort, sk = r["numpy.sort"], r["sklearn"]
    labels = {
        "update": "update (all batches)",
        "merge": "merge of two k/2 accumulators",
        "curve": "curve()",
        "numpy.sort": "numpy.sort of the k scores",
        "sklearn": "sklearn precision_recall_curve, k",
    }
    for key, label in labels.items():
        m = r[key]
        print(
            f"{label:<34} {m['seconds']:>8.2f} {m['peak_bytes'] / 2**20:>8.0f} "
            f"{m['peak_bytes'] / d:>8.1f} {m['peak_bytes'] / r['state_bytes']:>7.2f} "
            f"{m['peak_bytes'] / sort['peak_bytes']:>9.2f} "
            f"{m['peak_bytes'] / sk['peak_bytes']:>9.2f}"
        )
    print("(peak MB: traced allocations above those before the phase; / = ratio of peak memory)")


def main(argv=None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rows", type=float, default=1e7)
    parser.add_argument("--big-rows", type=float, default=1e8)
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--workdir", default=tempfile.gettempdir())
    parser.add_argument("--skip-big", action="store_true")
    parser.add_argument("--skip-small", action="store_true")
    parser.add_argument("--accumulator-rows", type=float, default=1e7)
    parser.add_argument("--skip-accumulator", action="store_true")
    parser.add_argument("--quick", action="store_true", help="10⁴ rows in each part")
    parser.add_argument("--child", help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    if args.quick:
        args.rows = args.big_rows = args.accumulator_rows = 1e4
    if args.child == "accumulator":
        print(json.dumps(accumulator_child(int(args.accumulator_rows))))
        return
    if args.child:
        print(json.dumps(child(args.child, int(args.rows), args.workers)))
        return
    if not args.skip_small:
        part1(int(args.rows), args.workers, inline=args.quick)
        print()
    if not args.skip_big:
        if args.quick:  # a fresh dataset, removed afterwards
            with tempfile.TemporaryDirectory() as tmp:
                part2(int(args.big_rows), Path(tmp), report_in_workdir=True)
        else:
            part2(int(args.big_rows), Path(args.workdir))
        print()
    if not args.skip_accumulator:
        part3(int(args.accumulator_rows), inline=args.quick)


if __name__ == "__main__":
    main()
