"""Benchmark: one-vs-rest average precision (macro, micro) and its bootstrap, against
scikit-learn and numpy.sort, in one run.

Usage: python bench/bench_multi.py [--sizes 1e4 1e5 1e6] [--classes 10] [--repeat 3]

Rows: ``prcurve.auc_pr(y, S, average=...)`` on multiclass labels and an (n, k) score matrix
against ``sklearn.metrics.average_precision_score`` on the binarised labels (best-of-repeat
wall times and their ratio), and against ``numpy.sort`` of every score column (the least any
one-vs-rest analysis must do; micro sorts the n·k pooled scores instead).  The last row of each
size times ``auc_pr_multi_ci`` (macro, 200 resamples) per resample, against one
``average_precision_score`` call.
"""

from __future__ import annotations

import argparse
import time

import numpy as np

import prcurve


def best_time(func, repeat):
    best = np.inf
    for _ in range(repeat):
        t0 = time.perf_counter()
        func()
        best = min(best, time.perf_counter() - t0)
    return best


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sizes", nargs="+", type=float, default=[1e4, 1e5, 1e6])
    parser.add_argument("--classes", type=int, default=10)
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--quick", action="store_true", help="one small size, one call")
    args = parser.parse_args(argv)
    if args.quick:
        args.sizes, args.repeat = [5e3], 1
    rng = np.random.default_rng(0)
    k = args.classes
    header = (
        f"{'n':>9} {'k':>3} {'average':>9} {'prcurve s':>10} {'sklearn s':>10} {'np.sort s':>10} "
        f"{'/sklearn':>9} {'/np.sort':>9} {'AP diff':>9}"
    )
    print(f"best of {args.repeat}")
    print(header)
    print("-" * len(header))
    for n in (int(v) for v in args.sizes):
        y = rng.integers(0, k, size=n)
        S = rng.normal(size=(n, k)) + (y[:, None] == np.arange(k))
        one_size(y, S, k, args.repeat)


def one_size(y, S, k, repeat):
    from sklearn.metrics import average_precision_score
    from sklearn.preprocessing import label_binarize

    n = y.shape[0]
    Y = label_binarize(y, classes=np.arange(k))
    for average in ("macro", "micro"):
        ours = prcurve.auc_pr(y, S, average=average)
        ref = average_precision_score(Y, S, average=average)
        t_ours = best_time(lambda a=average: prcurve.auc_pr(y, S, average=a), repeat)
        t_sk = best_time(lambda a=average: average_precision_score(Y, S, average=a), repeat)
        if average == "micro":
            t_sort = best_time(lambda: np.sort(S.ravel()), repeat)
        else:
            t_sort = best_time(lambda: np.sort(S, axis=0), repeat)
        print(
            f"{n:>9} {k:>3} {average:>9} {t_ours:>10.4f} {t_sk:>10.4f} {t_sort:>10.4f} "
            f"{t_ours / t_sk:>9.2f} {t_ours / t_sort:>9.2f} {abs(ours - ref):>9.1e}"
        )
    if n <= 100_000:
        reps = 200
        t_boot = best_time(lambda: prcurve.auc_pr_multi_ci(y, S, n_resamples=reps, rng=0), 1)
        t_one = best_time(lambda: average_precision_score(Y, S), repeat)
        print(
            f"{n:>9} {k:>3} {'boot/rep':>9} {t_boot / reps:>10.4f} {t_one:>10.4f} "
            f"{'':>10} {t_boot / reps / t_one:>9.2f}"
        )


if __name__ == "__main__":
    main()
