"""Benchmark: prcurve.torch.PRCurveMetric against torchmetrics' exact and binned PR curves.

Usage: python bench/bench_torch.py [--sizes 1e7] [--dtype float32] [--batch 1e6] [--quick]

The same stream of batches (labels with prevalence 0.1, scores N(0, 1) + 1 for positives, cast
to ``--dtype``; batch i drawn from torch seed i) goes through

* ``prcurve``: ``PRCurveMetric`` (state: the exact accumulator, 20-24 bytes per distinct score);
* ``tm exact``: ``torchmetrics.classification.BinaryPrecisionRecallCurve(thresholds=None)``
  (state: every score and label);
* ``tm binned``: the same with ``thresholds=1000`` (state: a 1000 x 2 x 2 confusion matrix);

then ``compute()`` and the AP of the curve.  Each runs in its own process: the time of the
update calls and compute (the data generation excluded), the peak resident memory of the
process (``VmHWM``) and its excess over a process that imports the same modules and draws the
same batches without a metric.  ``numpy.sort`` of all the scores is the time unit.  The AP
error of the binned mode is against the exact AP.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from _measure import run_measured

METHODS = ("baseline", "numpy.sort", "prcurve", "tm exact", "tm binned")


def _batches(n: int, batch: int, dtype: str):
    import torch

    done, i = 0, 0
    while done < n:
        b = min(batch, n - done)
        g = torch.Generator().manual_seed(i)
        y = torch.rand(b, generator=g) < 0.1
        s = (torch.randn(b, generator=g) + y.to(torch.float32)).to(getattr(torch, dtype))
        yield s, y
        done, i = done + b, i + 1


def _ap(precision, recall) -> float:
    """torchmetrics' AP from its curve (recall falling): NaN precision of an empty bin -> 0."""
    import torch

    precision = torch.nan_to_num(precision.to(torch.float64), nan=0.0)
    return float(-((recall[1:] - recall[:-1]).to(torch.float64) * precision[:-1]).sum())


def run_one(method: str, n: int, batch: int, dtype: str) -> dict:
    """One method in this process: seconds (updates + compute), AP, state bytes."""
    import numpy as np
    import torch
    import torchmetrics

    from prcurve.torch import PRCurveMetric

    if method == "numpy.sort":
        scores = np.concatenate([s.to(torch.float32).numpy() for s, _ in _batches(n, batch, dtype)])
        t0 = time.perf_counter()
        np.sort(scores)
        return {"seconds": time.perf_counter() - t0}
    if method == "baseline":
        for _ in _batches(n, batch, dtype):
            pass
        return {"seconds": 0.0}
    cls = torchmetrics.classification.BinaryPrecisionRecallCurve
    metric: object = {
        "prcurve": PRCurveMetric,
        "tm exact": lambda: cls(thresholds=None),
        "tm binned": lambda: cls(thresholds=1000),
    }[method]()
    seconds = 0.0
    for s, y in _batches(n, batch, dtype):
        t0 = time.perf_counter()
        metric.update(s, y.to(torch.int64) if method != "prcurve" else y)  # type: ignore[attr-defined]
        seconds += time.perf_counter() - t0
    t0 = time.perf_counter()
    if method == "prcurve":
        result = metric.compute()  # type: ignore[attr-defined]
        ap, state = result.average_precision, metric.accumulator.nbytes  # type: ignore[attr-defined]
    else:
        precision, recall, _ = metric.compute()  # type: ignore[attr-defined]
        ap, state = _ap(precision, recall), None
    seconds += time.perf_counter() - t0
    return {"seconds": seconds, "ap": ap, "state_mb": None if state is None else state / 2**20}


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sizes", nargs="+", type=float, default=[1e7])
    parser.add_argument("--batch", type=float, default=1e6)
    parser.add_argument("--dtype", default="float32", choices=["float16", "bfloat16", "float32"])
    parser.add_argument("--methods", nargs="+", default=list(METHODS), choices=METHODS)
    parser.add_argument("--quick", action="store_true", help="a tiny size, for the smoke test")
    parser.add_argument("--run", choices=METHODS, help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    if args.run:
        print(json.dumps(run_one(args.run, int(args.sizes[0]), int(args.batch), args.dtype)))
        return
    if args.quick:
        args.sizes, args.batch = [2e4], 5e3
    print(f"scores {args.dtype}, batches of {int(args.batch):,}; peak RSS of each process\n")
    print(
        "| n | method | seconds | x numpy.sort | peak MB | over baseline MB | state MB | AP err |"
    )
    print("|---|---|---|---|---|---|---|---|")
    for n in args.sizes:
        rows: dict[str, tuple] = {}
        for method in args.methods:  # baseline, numpy.sort and prcurve first: each row printed
            argv_ = [sys.executable, __file__, "--run", method, "--sizes", str(n)]
            argv_ += ["--batch", str(args.batch), "--dtype", args.dtype]
            measured = run_measured(argv_)
            out = json.loads(measured.stdout.strip().splitlines()[-1])
            rows[method] = (measured, out)
            unit = rows["numpy.sort"][1]["seconds"] if "numpy.sort" in rows else None
            base = rows["baseline"][0].main_mb if "baseline" in rows else None
            exact = rows.get("prcurve", rows.get("tm exact", (None, {})))[1].get("ap")
            secs = out["seconds"]
            ratio = f"{secs / unit:.1f}" if unit and method != "baseline" else ""
            over = f"{measured.main_mb - base:.0f}" if base is not None else ""
            state = f"{out['state_mb']:.1f}" if out.get("state_mb") is not None else ""
            err = f"{abs(out['ap'] - exact):.1e}" if "ap" in out and exact is not None else ""
            print(f"| {int(n):.0e} | {method} | {secs:.2f} | {ratio} | {measured.main_mb:.0f} "
                  f"| {over} | {state} | {err} |", flush=True)  # fmt: skip


if __name__ == "__main__":
    main()
