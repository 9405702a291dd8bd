"""Time the small-sample study of PR̂(x) (Hughes-Oliver section 3.2).

The Figure-7 grid: Case A with skew 10, n = 100, 500, 1000, 5000 replicates each, PR̂ at
x = 0.1, ..., 1.  Also times the batched estimator alone and compares with calling
``pr_curve(...).precision_at`` once per replicate.

Usage::

    python bench/bench_simulation.py [--replicates R] [--repeat K] [--quick]

``--quick``: 50 replicates, one call each (a smoke test).
"""

from __future__ import annotations

import argparse
import time

import numpy as np

from prcurve import batch_precision_at, cases, pr_curve, simulate_pr_estimator

SIZES = (100, 500, 1000)
RECALL = np.arange(1, 11) / 10


def best_of(fn, repeat: int) -> float:
    times = []
    for _ in range(repeat):
        start = time.perf_counter()
        fn()
        times.append(time.perf_counter() - start)
    return min(times)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--replicates", type=int, default=5000)
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--quick", action="store_true", help="50 replicates, one call each")
    args = parser.parse_args()
    if args.quick:
        args.replicates, args.repeat = 50, 1
    R = args.replicates

    print(f"Figure-7 grid: Case A, skew 10, {R} replicates, {RECALL.size} recall levels")
    print(f"{'case':<6}{'n':>6}{'replicates':>12}{'seconds':>10}{'replicates/s':>15}")
    total = 0.0
    for name, skew in (("A", 10), ("C", 10), ("F", 1), ("D", 4), ("B", 1)):
        model = cases.CASES[name](1 / (1 + skew))
        case_total = 0.0
        for n in SIZES:
            sec = best_of(
                lambda m=model, n=n: simulate_pr_estimator(m, n, RECALL, n_replicates=R, rng=n),
                args.repeat,
            )
            case_total += sec
            print(f"{name:<6}{n:>6}{R:>12}{sec:>10.3f}{R / sec:>15,.0f}")
        print(f"{name:<6}{'all':>6}{3 * R:>12}{case_total:>10.3f}")
        if name == "A":
            total = case_total
    print(f"\nFigure-7 grid total (3 sizes x {R} replicates x 10 x): {total:.2f} s")

    # the estimator alone, and the per-replicate loop it replaces
    rng = np.random.default_rng(0)
    model = cases.A(1 / 11)
    n = 1000
    y = np.arange(n)[None, :] < rng.binomial(n, 1 / 11, size=(R, 1))
    s = np.where(y, rng.normal(1.4, 1, (R, n)), rng.normal(0, 1, (R, n)))
    batched = best_of(lambda: batch_precision_at(y, s, RECALL), args.repeat)
    k = min(200, R)
    loop = best_of(lambda: [pr_curve(y[r], s[r]).precision_at(RECALL) for r in range(k)], 1)
    print(f"\nestimator only, n = {n}, {R} replicates:")
    print(f"  batch_precision_at          {batched:8.3f} s")
    print(f"  pr_curve loop (extrapolated) {loop * R / k:8.3f} s   ({loop / k * 1e3:.2f} ms each)")
    del model


if __name__ == "__main__":
    main()
