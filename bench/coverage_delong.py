"""Coverage of DeLong's interval for the ROC AUC and size of the paired DeLong test.

Fixed-seed Monte Carlo on the binormal model: negatives N(0, 1), positives N(shift, 1), so the
true AUC is Φ(shift/√2); n₋ = ``--ratio``·n₊.  For the paired test, two scorers share the
labels and the separation, their noise correlated (ρ = 0.5), so the null AUC_a = AUC_b holds.
Each row: measured coverage of a nominal 95 % interval (size of a 5 % test) with its binomial
standard error; ``LOW`` / ``HIGH`` mark rows more than 3 standard errors off the nominal, and
``zero SE`` counts the replicates whose DeLong variance is 0 (perfect separation, or two scorers
both perfect: their :class:`~prcurve.DegenerateVarianceWarning` is silenced here and counted).

Usage::

    python bench/coverage_delong.py [--reps 2000] [--ratio 2] [--quick]
"""

from __future__ import annotations

import argparse
import math
import time
import warnings

import numpy as np
from scipy import stats

from prcurve import DegenerateVarianceWarning, delong_test, roc_auc_delong


def _flag(value: float, nominal: float, se: float) -> str:
    if value < nominal - 3 * se:
        return "LOW"
    if value > nominal + 3 * se:
        return "HIGH"
    return ""


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--reps", type=int, default=2000)
    parser.add_argument("--ratio", type=int, default=2)
    parser.add_argument("--quick", action="store_true", help="200 replicates")
    args = parser.parse_args()
    reps = 200 if args.quick else args.reps
    gen = np.random.default_rng(20261126)
    t0 = time.perf_counter()
    print(f"binormal, n₋ = {args.ratio}·n₊, {reps} replicates per row, seed 20261126")
    print(f"{'what':<26}{'shift':>6}{'AUC':>7}{'n₊':>6}{'rate':>8}{'± SE':>8}{'zero SE':>9}")
    warnings.simplefilter("ignore", DegenerateVarianceWarning)
    for shift in (0.5, 1.0, 2.0):
        truth = stats.norm.cdf(shift / math.sqrt(2))
        for n_pos in (10, 30, 100):
            n_neg = args.ratio * n_pos
            y = np.r_[np.ones(n_pos, bool), np.zeros(n_neg, bool)]
            hits = rejections = zero_one = zero_diff = 0
            for _ in range(reps):
                e = gen.multivariate_normal([0, 0], [[1, 0.5], [0.5, 1]], size=y.size)
                a, b = e[:, 0] + shift * y, e[:, 1] + shift * y
                one, test = roc_auc_delong(y, a), delong_test(y, a, b)
                hits += one.ci.contains(truth)
                rejections += test.p_value < 0.05
                zero_one += one.standard_error == 0
                zero_diff += test.standard_error == 0
            cover, size = hits / reps, rejections / reps
            se_c = math.sqrt(0.95 * 0.05 / reps)
            se_s = math.sqrt(0.05 * 0.95 / reps)
            print(
                f"{'coverage of 95% interval':<26}{shift:>6}{truth:>7.3f}{n_pos:>6}"
                f"{cover:>8.3f}{se_c:>8.3f}{zero_one:>9}  {_flag(cover, 0.95, se_c)}"
            )
            print(
                f"{'size of 5% paired test':<26}{shift:>6}{truth:>7.3f}{n_pos:>6}"
                f"{size:>8.3f}{se_s:>8.3f}{zero_diff:>9}  {_flag(size, 0.05, se_s)}"
            )
    print(f"({time.perf_counter() - t0:.1f} s)")


if __name__ == "__main__":
    main()
