"""Benchmark: precision@k, recall@k, AP@k, gain and lift curves at 10^6 rows.

Usage: python bench/bench_topk.py [--n 1e6] [--repeat 3] [--quick]

Every prcurve call validates, sorts once (the count engine) and reads the expectation over
random orders of tied rows off the counts.  Each row of the table gives the best-of-repeat wall
time of one call and its ratio to ``numpy.sort`` of the scores and to a naive sort-based
reference measured in the same run (``argsort`` + cumulative sums, which ignores ties), or to
scikit-learn's ``average_precision_score`` for AP over all rows.  ``--quick`` runs 10^5 rows
once.
"""

from __future__ import annotations

import argparse
import time

import numpy as np

import prcurve


def best_time(func, repeat):
    best, out = np.inf, None
    for _ in range(repeat):
        t0 = time.perf_counter()
        out = func()
        best = min(best, time.perf_counter() - t0)
    return best, out


def naive_top_k(y, s, k, w):
    """Sort-based reference (ties in argsort's order): precision, recall, AP@k numerator."""
    order = np.argsort(-s, kind="stable")
    yk = y[order[:k]]
    wk = np.ones(k) if w is None else w[order[:k]]
    tp = np.cumsum(wk * yk)
    flagged = np.cumsum(wk)
    n_pos = y.sum() if w is None else w[y].sum()
    return tp[-1] / flagged[-1], tp[-1] / n_pos, np.sum(wk * yk * tp / flagged)


def cases(y, s, w, n):
    """(name, call) of every prcurve timing of one data set."""
    k = n // 100
    out = [
        ("precision_at_k k=n/100", lambda: prcurve.precision_at_k(y, s, k, sample_weight=w)),
        ("recall_at_k k=0.1", lambda: prcurve.recall_at_k(y, s, 0.1, sample_weight=w)),
        ("lift_curve + top_decile_lift",
         lambda: prcurve.lift_curve(y, s, sample_weight=w).top_decile_lift),
        ("gain_curve", lambda: prcurve.gain_curve(y, s, sample_weight=w)),
    ]  # fmt: skip
    norm = "min" if w is None else "n_pos"
    out.append(
        (
            "average_precision_at_k k=n/100",
            lambda: prcurve.average_precision_at_k(y, s, k, sample_weight=w, normalize=norm),
        )
    )
    return out


def run(y, s, w, n, repeat, label):
    from sklearn.metrics import average_precision_score

    t_sort, _ = best_time(lambda: np.sort(s), repeat)
    t_naive, _ = best_time(lambda: naive_top_k(y, s, n // 100, w), repeat)
    print(f"-- {label}: np.sort {t_sort:.4f} s, naive top-k {t_naive:.4f} s")
    for name, func in cases(y, s, w, n):
        t, _ = best_time(func, repeat)
        print(f"  {name:<32} {t:9.4f} {t / t_sort:10.2f} {t / t_naive:12.2f} {'naive top-k':>22}")
    t_sk, _ = best_time(lambda: average_precision_score(y, s, sample_weight=w), repeat)
    t_ap, _ = best_time(
        lambda: prcurve.average_precision_at_k(y, s, n, sample_weight=w, normalize="n_pos"),
        repeat,
    )
    reference = f"sklearn AP {t_sk:.4f} s"
    print(
        f"  {'average_precision_at_k k=n':<32} {t_ap:9.4f} {t_ap / t_sort:10.2f} "
        f"{t_ap / t_sk:12.2f} {reference:>22}"
    )


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--n", type=float, default=1e6)
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--quick", action="store_true", help="10^5 rows, one repeat")
    args = parser.parse_args(argv)
    n, repeat = (100_000, 1) if args.quick else (int(args.n), args.repeat)
    rng = np.random.default_rng(0)
    y = rng.random(n) < 0.05
    prcurve.precision_at_k(y, y, 1)  # load prcurve's modules outside the timings
    print(f"n = {n}, prevalence 0.05, best of {repeat}")
    header = f"{'case':<34} {'seconds':>9} {'/ np.sort':>10} {'/ reference':>12} {'reference':>22}"
    print(header)
    for ties in (False, True):
        s = rng.normal(size=n) + 1.5 * y
        if ties:
            s = np.round(s, 2)
        for weighted in (False, True):
            # weights constant within each tie (one per score value): AP@k's expectation needs it
            w = (0.5 + (np.abs(s) * 1000 % 7) / 4) if weighted else None
            label = f"{'ties' if ties else 'no ties'}, {'weighted' if weighted else 'unweighted'}"
            run(y, s, w, n, repeat, label)


if __name__ == "__main__":
    main()
