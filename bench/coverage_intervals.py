"""Coverage of every interval prcurve offers (AUC-PR, pointwise, bands, paired comparison).

Fixed-seed Monte Carlo on continuous (binormal, Hughes-Oliver Case A) and discrete-score
(Case F, binormal rounded to one decimal) population models; labels drawn at random, so n₊
varies.  Each row gives the measured coverage of a nominal 95 % interval with its binomial
standard error and Clopper–Pearson 95 % bounds; ``UNDER`` marks rows whose upper bound is below
the nominal level (under-coverage beyond Monte-Carlo error).  Bootstrap intervals appear under
both sampling models (``[instances]``: n₊* ~ Bin(n, p̂), the default; ``[stratified]``: class
counts fixed).  ``compare, equal AUC`` is the paired test on two exchangeable scorers: its
coverage of 0 is one minus the test's size.

Usage::

    python bench/coverage_intervals.py [--reps R] [--resamples B] [--n N] [--models a,b,...]
                                       [--quick]

Models: binormal, caseA, caseF, rounded (default), and smallpos (n₊ ≈ 25).
"""

from __future__ import annotations

import argparse
import time

import numpy as np
from scipy import stats

from prcurve import PopulationModel, cases
from prcurve._inference._interval_coverage import interval_coverage


def rounded_binormal(shift: float, prevalence: float) -> PopulationModel:
    """N(0, 1) negatives and N(shift, 1) positives, scores rounded to one decimal."""
    grid = np.round(np.arange(-6.0, 7.5 + shift, 0.1), 1)
    edges = np.r_[grid - 0.05, grid[-1] + 0.05]

    def law(mu: float) -> stats.rv_discrete:
        p = np.diff(stats.norm.cdf(edges, mu))
        return stats.rv_discrete(values=(grid, p / p.sum()))

    return PopulationModel(law(0.0), law(shift), prevalence)


MODELS = {  # key: (title, model factory, sample size; None = --n)
    "binormal": (
        "binormal N(0,1)/N(1.5,1), π=0.3",
        lambda: PopulationModel(stats.norm(0, 1), stats.norm(1.5, 1), 0.3),
        None,
    ),
    "caseA": ("Hughes-Oliver Case A, π=1/11", lambda: cases.A(1 / 11), None),
    "caseF": ("Hughes-Oliver Case F (discrete), π=0.2", lambda: cases.F(0.2), None),
    "rounded": ("binormal rounded to 0.1, π=0.2", lambda: rounded_binormal(1.4, 0.2), None),
    "smallpos": ("Case A, π=0.05, n=500 (n₊≈25)", lambda: cases.A(0.05), 500),
}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--reps", type=int, default=200)
    parser.add_argument("--resamples", type=int, default=500)
    parser.add_argument("--n", type=int, default=1000)
    parser.add_argument("--models", default="binormal,caseA,caseF,rounded")
    parser.add_argument("--seed", type=int, default=20261123)
    parser.add_argument("--quick", action="store_true", help="tiny sizes: a smoke test")
    args = parser.parse_args()
    if args.quick:
        args.reps, args.resamples, args.n, args.models = 4, 20, 300, "binormal"
    print(
        f"# {args.reps} repetitions per cell, {args.resamples} bootstrap replicates, "
        f"n = {args.n}, nominal 0.95, seed {args.seed}"
    )
    header = (
        f"{'model':<42} {'interval':<34} {'recall':>6} {'cover':>6} {'se':>6} "
        f"{'CP low':>6} {'CP hi':>6} {'fail':>4} {'width':>6}"
    )
    for key in args.models.split(","):
        title, make, size = MODELS[key]
        model = make()
        start = time.perf_counter()
        rows = interval_coverage(
            model,
            size or args.n,
            n_repetitions=args.reps,
            n_resamples=args.resamples,
            rng=args.seed,
        )
        print(f"\n{header}")
        for r in rows:
            rec = "" if r.recall is None else f"{r.recall:.1f}"
            flag = "  UNDER" if r.high < 0.95 else ""
            print(
                f"{title:<42} {r.interval:<34} {rec:>6} {r.coverage:6.3f} "
                f"{r.standard_error:6.3f} {r.low:6.3f} {r.high:6.3f} {r.n_failed:4d} "
                f"{r.mean_width:6.3f}{flag}"
            )
        print(f"# {title}: {time.perf_counter() - start:.0f} s")


if __name__ == "__main__":
    main()
