"""Benchmark: pr_curve + average precision against scikit-learn and numpy.sort, in one run.

Usage: python bench/bench_core.py [--sizes 1e5 1e6 1e7] [--repeat 3] [--no-sklearn-above 1e7]

Prints one row per case: best-of-repeat wall times, the ratio to scikit-learn's
precision_recall_curve + average_precision_score, the ratio to numpy.sort of the same scores,
and the peak extra memory of prcurve (tracemalloc, as a multiple of one n-sized float64 array).
"""

from __future__ import annotations

import argparse
import time
import tracemalloc

import numpy as np

import prcurve


def best_time(func, repeat):
    best = np.inf
    for _ in range(repeat):
        t0 = time.perf_counter()
        func()
        best = min(best, time.perf_counter() - t0)
    return best


def ours(y, s):
    curve = prcurve.pr_curve(y, s)
    return curve.auc("average_precision")


def sklearn_pair(y, s):
    from sklearn.metrics import average_precision_score, precision_recall_curve

    precision_recall_curve(y, s)
    return average_precision_score(y, s)


def peak_memory(func, *args):
    tracemalloc.start()
    func(*args)
    _, peak = tracemalloc.get_traced_memory()
    tracemalloc.stop()
    return peak


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sizes", nargs="+", type=float, default=[1e5, 1e6, 1e7])
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--dtype", default="float64", choices=["float64", "float32"])
    parser.add_argument("--quick", action="store_true", help="one small size, one call")
    args = parser.parse_args(argv)
    if args.quick:
        args.sizes, args.repeat = [2e4], 1
    rng = np.random.default_rng(0)
    header = (
        f"{'n':>9} {'pos':>4} {'ties':>5} {'prcurve s':>10} {'sklearn s':>10} {'np.sort s':>10} "
        f"{'/sklearn':>9} {'/np.sort':>9} {'peak mem (n×8B)':>16} {'AP diff':>9}"
    )
    print(f"dtype={args.dtype}, best of {args.repeat}")
    print(header)
    print("-" * len(header))
    for n in (int(v) for v in args.sizes):
        for prevalence in (0.01, 0.5):
            for ties in (False, True):
                y = rng.random(n) < prevalence
                s = rng.normal(size=n) + y
                if ties:
                    s = np.round(s, 1)  # ~100 distinct values: heavy ties
                s = s.astype(args.dtype)
                t_ours = best_time(lambda y=y, s=s: ours(y, s), args.repeat)
                t_sort = best_time(lambda s=s: np.sort(s), args.repeat)
                t_sk = best_time(lambda y=y, s=s: sklearn_pair(y, s), max(1, args.repeat - 1))
                diff = abs(ours(y, s) - sklearn_pair(y, s))
                mem = peak_memory(ours, y, s) / (8 * n)
                print(
                    f"{n:>9} {prevalence:>4.0%} {'heavy' if ties else 'none':>5} {t_ours:>10.4f} "
                    f"{t_sk:>10.4f} {t_sort:>10.4f} {t_ours / t_sk:>9.2f} {t_ours / t_sort:>9.2f} "
                    f"{mem:>16.1f} {diff:>9.1e}"
                )


if __name__ == "__main__":
    main()
