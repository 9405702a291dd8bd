"""Coverage of the report's operating-point intervals when they come from a subsample.

``prcurve report`` on large data chooses each operating point on all n rows and takes the widths
of its intervals from a stratified subsample of m rows (``_reporting._sizing.plan_operating``,
``rescale_points``): the ends are percentiles of ``estimate + √(m/n)(replicate − subsample
value)``, threshold ends snapped outward to scores of the data.  This script runs exactly that
code path (``_reporting._operating.analyse_operating`` with a subsampled plan) on samples of a
binormal model and counts how often each 95 % interval covers its target:

* model: negatives N(0, 1), positives N(1.5, 1), labels drawn at random with prevalence 0.05;
* targets: ``min_precision`` 0.5 and 0.8, ``min_recall`` 0.5 and 0.8 (the report's rules);
* the threshold interval targets the population threshold t* meeting the target (precision(t*)
  = p, or recall(t*) = r; closed forms of the binormal model) — the rule is applied again in
  every replicate;
* the precision and recall intervals target what the chosen threshold t̂ delivers on the
  population, precision(t̂) and recall(t̂) — t̂ is held fixed in every replicate (the
  definitions of ``prcurve._inference._operating_ci.operating_point`` and
  ``examples/coverage_operating_point.py``).

``--mode all`` runs the same samples with every row resampled (the report before subsampling,
and with ``--n-resamples N``), as the baseline.  Coverage is printed with its binomial standard
error √(c(1 − c)/R).  The last column counts the samples on which the report's own rule (at
least :data:`_sizing.MIN_FLAGGED` flagged rows expected in the subsample) would have chosen the
subsample at these n and m; the coverage is measured on the subsample for every sample.

Run:  nice -n 10 python bench/coverage_operating_subsample.py [--n 400000] [--rows 100000]
      [--repetitions 200] [--resamples 200] [--seed 12] [--mode subsample|all]
"""

from __future__ import annotations

import argparse
import math
import time

import numpy as np
from scipy import optimize, stats

from prcurve._core._counts import count_sorted
from prcurve._core._empirical import PRCurve
from prcurve._reporting._operating import analyse_operating, fewest_flagged, operating_targets
from prcurve._reporting._sizing import MIN_FLAGGED, Plan, subsample

MU, PI = 1.5, 0.05
MIN_PRECISION, MIN_RECALL = (0.5, 0.8), (0.5, 0.8)


def recall(t: float) -> float:
    return float(stats.norm.sf(t - MU))


def precision(t: float) -> float:
    tp, fp = PI * stats.norm.sf(t - MU), (1 - PI) * stats.norm.sf(t)
    return float(tp / (tp + fp))


def population_threshold(criterion: str, target: float) -> float:
    """t* of the rule on the population: the lowest t with precision ≥ p (precision increases
    with t here), or the highest t with recall ≥ r."""
    if criterion == "min_precision":
        return float(optimize.brentq(lambda t: precision(t) - target, -5, 15, xtol=1e-13))
    return MU + float(stats.norm.isf(target))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--n", type=int, default=400_000)
    parser.add_argument("--rows", type=int, default=100_000)
    parser.add_argument("--repetitions", type=int, default=200)
    parser.add_argument("--resamples", type=int, default=200)
    parser.add_argument("--seed", type=int, default=12)
    parser.add_argument("--mode", choices=("subsample", "all"), default="subsample")
    args = parser.parse_args()
    n, m = args.n, args.rows if args.mode == "subsample" else args.n
    targets = operating_targets(MIN_PRECISION, MIN_RECALL)
    stars = [population_threshold(c, t) for c, t in targets]
    gen = np.random.default_rng(args.seed)
    hits = np.zeros((len(targets), 3))
    widths = np.zeros((len(targets), 3))
    used = np.zeros(len(targets))
    rule_subsamples = 0
    t0 = time.perf_counter()
    for rep in range(args.repetitions):
        y = gen.random(n) < PI
        s = gen.normal(size=n) + MU * y
        pr = PRCurve.from_counts(count_sorted(y, s, None))
        flagged = fewest_flagged(s, pr, targets)
        rule_subsamples += m < n and math.ceil(MIN_FLAGGED * n / max(flagged, 1)) <= m
        p = Plan("operating_points", args.resamples, m, n)
        idx = subsample(y, m, np.random.SeedSequence([args.seed, rep]))
        ys, ss = (y, s) if idx is None else (y[idx], s[idx])
        op = analyse_operating(
            ys, ss, pr, min_precision=MIN_PRECISION, min_recall=MIN_RECALL, prevalence=None,
            level=0.95, n_resamples=args.resamples, seed=int(gen.integers(2**32)), index=0,
            plan=p, n_neg_rows=int(n - y.sum()),
        )  # fmt: skip
        for i, (pt, t_star) in enumerate(zip(op.points, stars, strict=True)):
            if not pt.feasible:
                continue
            used[i] += 1
            truths = (t_star, precision(pt.threshold), recall(pt.threshold))
            cis = (pt.threshold_interval, pt.precision_interval, pt.recall_interval)
            for j, (ci, truth) in enumerate(zip(cis, truths, strict=True)):
                if ci is not None:
                    hits[i, j] += ci.low <= truth <= ci.high
                    widths[i, j] += ci.high - ci.low
    seconds = time.perf_counter() - t0
    print(
        f"95 % intervals of the report's operating points, binormal μ = {MU}, prevalence {PI}, "
        f"n = {n:,}, resampled rows m = {m:,} (scale √(m/n) = {math.sqrt(m / n):.3f}), "
        f"{args.resamples} resamples, {args.repetitions} samples, seed {args.seed}, "
        f"{seconds:.0f} s"
    )
    header = f"{'target':<20}{'interval':<11}{'coverage':>9}{'± s.e.':>8}{'mean width':>12}"
    header += f"{'used':>6}"
    print(header)
    print("-" * len(header))
    for i, (c, t) in enumerate(targets):
        for j, what in enumerate(("threshold", "precision", "recall")):
            k = used[i]
            cov = hits[i, j] / k if k else float("nan")
            se = math.sqrt(cov * (1 - cov) / k) if k else float("nan")
            width = widths[i, j] / k if k else float("nan")
            row = f"{what:<11}{cov:>9.3f}{se:>8.3f}{width:>12.5f}{k:>6.0f}"
            print(f"{c}={t:g}".ljust(20) + row)
    if m < n:
        print(
            f"the report's rule (≥ {MIN_FLAGGED} flagged rows expected in the subsample) would "
            f"have subsampled {rule_subsamples} of {args.repetitions} samples at this m"
        )


if __name__ == "__main__":
    main()
