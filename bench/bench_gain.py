"""Benchmark: precision-recall-gain curves on top of one computed PR curve.

Usage: python bench/bench_gain.py [--sizes 1e4 1e5 1e6 1e7] [--repeat 3]

One row per case: best-of-repeat wall times of pr_curve (the sort), PRGCurve.from_pr (gains of
every operating point, no new sort), auc() (AUPRG), convex_hull() and best_f_threshold(), and
the PRG overhead (from_pr + auc + best_f_threshold) as a fraction of the pr_curve time.
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


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sizes", nargs="+", type=float, default=[1e4, 1e5, 1e6, 1e7])
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--quick", action="store_true", help="one small size, one call")
    args = parser.parse_args(argv)
    if args.quick:
        args.sizes, args.repeat = [1e4], 1
    rng = np.random.default_rng(0)
    print(
        f"{'n':>9} {'ties':>5} {'points':>9} {'pr_curve s':>11} {'from_pr s':>10} {'auc s':>9} "
        f"{'hull s':>9} {'best_f s':>9} {'overhead':>9} {'AUPRG':>8}"
    )
    for size in args.sizes:
        n = int(size)
        y = rng.random(n) < 0.05
        for ties in (False, True):
            s = rng.normal(size=n) + 1.5 * y
            if ties:
                s = np.round(s, 2)
            t_pr, pr = best_time(lambda: prcurve.pr_curve(y, s), args.repeat)  # noqa: B023
            t_from, c = best_time(lambda: prcurve.PRGCurve.from_pr(pr), args.repeat)  # noqa: B023
            t_auc, auprg = best_time(c.auc, args.repeat)
            t_hull, _ = best_time(c.convex_hull, args.repeat)
            t_best, _ = best_time(c.best_f_threshold, args.repeat)
            overhead = (t_from + t_auc + t_best) / t_pr
            print(
                f"{n:>9} {'yes' if ties else 'no':>5} {c.thresholds.size:>9} {t_pr:>11.4f} "
                f"{t_from:>10.4f} {t_auc:>9.4f} {t_hull:>9.4f} {t_best:>9.4f} "
                f"{overhead:>9.2f} {auprg:>8.4f}"
            )


if __name__ == "__main__":
    main()
