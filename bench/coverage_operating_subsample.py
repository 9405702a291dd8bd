"""Coverage of the report's operating-point intervals when they come from a subsample.

``prcurve report`` on large data chooses each operating point on all n rows and takes the widths
of its intervals from a stratified subsample of m rows
(``_reporting.analysis._sizing.plan_operating``,
``rescale_points``): the ends are percentiles of ``estimate + √(m/n)(replicate − subsample
value)``, threshold ends snapped outward to scores of the data.  This script runs exactly that
code path (``_reporting.analysis._operating.analyse_operating`` with a subsampled plan) on
samples of a
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

``rank`` and ``score`` are the two ways of rescaling the threshold offered by
``rescale_points`` (the report uses ``rank``: the share of rows flagged); precision and recall
do not depend on it.

Run:  nice -n 10 python bench/coverage_operating_subsample.py [--n 400000] [--rows 100000]
      [--repetitions 200] [--resamples 200] [--seed 12] [--mode subsample|all] [--quick]

Measured (2026, machine shared; 95 % intervals, coverage ± s.e.):

=====================  ==========================  ==========================  ===============
interval               n = 4·10⁵, m = 10⁵ (400)    n = 2·10⁶, m = 5·10⁵ (200)  all 4·10⁵ (400)
=====================  ==========================  ==========================  ===============
threshold, prec ≥ 0.8  **0.868 ± 0.017**            **0.900 ± 0.021**           0.938 ± 0.012
other thresholds       0.938–0.940                 0.920–0.935                 0.938–0.953
precision, recall      0.915–0.948                 0.910–0.965                 0.930–0.950
=====================  ==========================  ==========================  ===============

(samples in brackets; thresholds rescaled in rank coordinates; columns from ``--repetitions
400``, ``--n 2000000 --rows 500000`` and ``--repetitions 400 --mode all``; ``--rows 200000``
gave 0.905 ± 0.015 for the first row.  ``--mode all`` now draws the replicates coarse to fine,
as the report does for unweighted data (``prcurve._inference._coarse_fine``, the same law):
thresholds 0.927–0.950, precision and recall 0.920–0.953, seed 12, 400 samples.)  The
threshold interval of the high-precision target under-covers on a subsample; see
``prcurve._reporting.analysis._sizing.rescale_points``.
"""

from __future__ import annotations

import argparse
import math
import time

import numpy as np
from scipy import optimize, stats

from prcurve._core._counts import count_sorted
from prcurve._core._empirical import PRCurve
from prcurve._inference._operating_ci import (
    _operating_bootstrap,
    _points_from_counts,
    operating_points,
)
from prcurve._reporting.analysis._operating import fewest_flagged, operating_targets
from prcurve._reporting.analysis._sizing import MIN_FLAGGED, Plan, rescale_points, subsample

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


def _report_points(y, s, pr, m, args, rep, gen):
    """The report's points: ``{space: points}`` for each rescaling of the threshold (the same
    subsample and replicates), or ``{"all rows": points}`` when every row is resampled."""
    targets = operating_targets(MIN_PRECISION, MIN_RECALL)
    if m >= y.shape[0]:  # the report with every row (small data or --n-resamples N)
        points, _ = operating_points(y, s, targets, n_resamples=args.resamples, rng=gen)
        return {"all rows": points}
    p = Plan("operating_points", args.resamples, m, y.shape[0])
    idx = subsample(y, m, np.random.SeedSequence([args.seed, rep]))
    assert idx is not None
    centres = _points_from_counts(pr, targets)
    hold = [c.threshold if c.feasible else None for c in centres]
    sub, reps = _operating_bootstrap(
        y[idx], s[idx], None, targets, n_resamples=args.resamples, rng=gen, hold=hold
    )
    return {
        space: rescale_points(centres, sub, reps, p, pr, 0.95, space=space)[0]
        for space in ("rank", "score")
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--n", type=int, default=400_000)
    parser.add_argument("--rows", type=int, default=100_000)
    parser.add_argument("--repetitions", type=int, default=200)
    parser.add_argument("--resamples", type=int, default=200)
    parser.add_argument("--seed", type=int, default=12)
    parser.add_argument("--mode", choices=("subsample", "all"), default="subsample")
    parser.add_argument("--quick", action="store_true", help="tiny sizes: a smoke test")
    args = parser.parse_args()
    if args.quick:
        args.n, args.rows, args.repetitions, args.resamples = 40_000, 10_000, 2, 20
    n, m = args.n, args.rows if args.mode == "subsample" else args.n
    targets = operating_targets(MIN_PRECISION, MIN_RECALL)
    stars = [population_threshold(c, t) for c, t in targets]
    gen = np.random.default_rng(args.seed)
    hits: dict[str, np.ndarray] = {}
    widths: dict[str, np.ndarray] = {}
    used: dict[str, np.ndarray] = {}
    rule_subsamples = 0
    t0 = time.perf_counter()
    for rep in range(args.repetitions):
        y = gen.random(n) < PI
        s = gen.normal(size=n) + MU * y
        pr = PRCurve.from_counts(count_sorted(y, s, None))
        flagged, _ = fewest_flagged(s, pr, targets)
        rule_subsamples += m < n and math.ceil(MIN_FLAGGED * n / max(flagged, 1)) <= m
        for space, points in _report_points(y, s, pr, m, args, rep, gen).items():
            h = hits.setdefault(space, np.zeros((len(targets), 3)))
            wd = widths.setdefault(space, np.zeros((len(targets), 3)))
            u = used.setdefault(space, np.zeros(len(targets)))
            for i, (pt, t_star) in enumerate(zip(points, stars, strict=True)):
                if not pt.feasible:
                    continue
                u[i] += 1
                truths = (t_star, precision(pt.threshold), recall(pt.threshold))
                cis = (pt.threshold_interval, pt.precision_interval, pt.recall_interval)
                for j, (ci, truth) in enumerate(zip(cis, truths, strict=True)):
                    if ci is not None:
                        h[i, j] += ci.low <= truth <= ci.high
                        wd[i, j] += ci.high - ci.low
    seconds = time.perf_counter() - t0
    print(
        f"95 % intervals of the report's operating points, binormal μ = {MU}, prevalence {PI}, "
        f"n = {n:,}, resampled rows m = {m:,} (scale √(m/n) = {math.sqrt(m / n):.3f}), "
        f"{args.resamples} resamples, {args.repetitions} samples, seed {args.seed}, "
        f"{seconds:.0f} s"
    )
    header = f"{'target':<20}{'interval':<11}{'rescaled in':<13}{'coverage':>9}{'± s.e.':>8}"
    header += f"{'mean width':>12}{'used':>6}"
    print(header)
    print("-" * len(header))
    for i, (c, t) in enumerate(targets):
        for j, what in enumerate(("threshold", "precision", "recall")):
            for space in hits:
                if j > 0 and space == "score":  # precision and recall do not depend on it
                    continue
                k = used[space][i]
                cov = hits[space][i, j] / k if k else float("nan")
                se = math.sqrt(cov * (1 - cov) / k) if k else float("nan")
                width = widths[space][i, j] / k if k else float("nan")
                row = f"{what:<11}{space:<13}{cov:>9.3f}{se:>8.3f}{width:>12.5f}{k:>6.0f}"
                print(f"{c}={t:g}".ljust(20) + row)
    if m < n:
        print(
            f"the report's rule (≥ {MIN_FLAGGED} flagged rows expected in the subsample) would "
            f"have subsampled {rule_subsamples} of {args.repetitions} samples at this m"
        )


if __name__ == "__main__":
    main()
