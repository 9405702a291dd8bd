"""Coverage of the operating-point, partial-area and deployment-prevalence intervals.

Binormal model: negative scores N(0, 1), positive scores N(μ, 1), μ = 2, data prevalence 0.2.
For each sample size n, draws ``--repetitions`` samples and computes, with 95 % percentile
bootstrap intervals (``--resamples`` each):

* :func:`prcurve.operating_point` for ``min_precision=0.8``, ``min_recall=0.8``,
  ``max_fpr=0.05``, ``top_k=0.1·n`` at the data prevalence, and ``min_precision=0.3``,
  ``min_recall=0.8``, ``max_fpr=0.05`` chosen at a deployment prevalence π = 0.01.  Three intervals:
  the threshold interval against the population threshold t* meeting the target, and the
  precision / recall intervals against what the chosen threshold t̂ delivers on the population
  (precision at the prevalence of the row);
* :func:`prcurve.auc_pr_ci` (Davis–Goadrich area) for the normalised partial area over recall
  [0.2, 0.8], the whole area at π = 0.1 and π = 0.01 (known), and at π estimated from 10
  positives among 1,000 deployment instances (the truth is then π = 0.01).

The table shows each coverage with its exact 95 % (Clopper–Pearson) Monte Carlo interval; a
coverage whose interval lies below 0.95 under-covers.

Run:  python examples/coverage_operating_point.py [--repetitions 200] [--resamples 200]
      [--n 1000 --n 5000] [--seed 14]

The defaults give the table of docs/guide/operating-points.md (about 2 + 6 minutes on a
loaded two-core machine).
"""

from __future__ import annotations

import argparse
import time
import warnings

import numpy as np
from scipy import integrate, optimize, stats

from prcurve import TargetNotMetWarning, auc_pr_ci
from prcurve._inference._operating_ci import operating_points

MU, PI = 2.0, 0.2
DEPLOY = 0.01


def tpr(t):
    return stats.norm.sf(t - MU)


def fpr(t):
    return stats.norm.sf(t)


def precision(t, pi):
    return pi * tpr(t) / (pi * tpr(t) + (1 - pi) * fpr(t))


def population_threshold(criterion, target, pi, n):
    if criterion == "min_precision":
        return optimize.brentq(lambda t: precision(t, pi) - target, -10, 20)
    if criterion == "min_recall":
        return MU + stats.norm.isf(target)
    if criterion == "max_fpr":
        return stats.norm.isf(target)
    return optimize.brentq(lambda t: PI * tpr(t) + (1 - PI) * fpr(t) - target / n, -10, 20)


def area(pi, a=0.0, b=1.0):
    """∫_a^b PR(x) dx of the model at prevalence π."""

    def prec(x):
        return pi * x / (pi * x + (1 - pi) * stats.norm.sf(MU + stats.norm.isf(x)))

    return integrate.quad(prec, a, b, epsabs=1e-12, limit=200)[0]


def clopper_pearson(hits, total):
    lo = stats.beta.ppf(0.025, hits, total - hits + 1) if hits > 0 else 0.0
    hi = stats.beta.ppf(0.975, hits + 1, total - hits) if hits < total else 1.0
    return lo, hi


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repetitions", type=int, default=200)
    parser.add_argument("--resamples", type=int, default=200)
    parser.add_argument("--n", type=int, action="append")
    parser.add_argument("--seed", type=int, default=14)
    parser.add_argument("--sampling", choices=("instances", "stratified"), default="instances")
    args = parser.parse_args()
    sizes = args.n or [1000, 5000]
    targets_all = [("min_precision", 0.8), ("min_recall", 0.8), ("max_fpr", 0.05)]
    targets_deploy = [("min_precision", 0.3), ("min_recall", 0.8), ("max_fpr", 0.05)]
    area_rows = [
        ("partial AUC-PR recall [0.2, 0.8], normalised", {"recall_range": (0.2, 0.8), "normalize": True}, area(PI, 0.2, 0.8) / 0.6),  # noqa: E501
        ("AUC-PR at known π = 0.1", {"prevalence": 0.1}, area(0.1)),
        ("AUC-PR at known π = 0.01", {"prevalence": DEPLOY}, area(DEPLOY)),
        ("AUC-PR at π from 10/1000", {"prevalence": (10, 1000)}, area(DEPLOY)),
    ]  # fmt: skip
    print(
        f"95 % percentile bootstrap intervals, binormal μ = {MU}, prevalence {PI}, "
        f"{args.repetitions} repetitions, {args.resamples} resamples, seed {args.seed}, "
        f"sampling {args.sampling!r}"
    )
    header = (
        f"{'n':>7}  {'quantity':<48}{'interval':<11}{'coverage':>9}{'MC 95% interval':>18}"
        f"{'mean width':>12}{'used':>6}"
    )
    print(header)
    print("-" * len(header))
    for n in sizes:
        rng = np.random.default_rng([args.seed, n])
        specs = [(c, t, None) for c, t in targets_all] + [("top_k", 0.1 * n, None)]
        specs += [(c, t, DEPLOY) for c, t in targets_deploy]
        stars = [population_threshold(c, t, pi or PI, n) for c, t, pi in specs]
        hits = np.zeros((len(specs), 3))
        widths = np.zeros((len(specs), 3))
        used = np.zeros(len(specs))
        a_hits = np.zeros(len(area_rows))
        a_width = np.zeros(len(area_rows))
        t0 = time.perf_counter()
        for _ in range(args.repetitions):
            y = rng.random(n) < PI
            s = rng.normal(size=n) + MU * y
            kw = dict(level=0.95, n_resamples=args.resamples, sampling=args.sampling)
            with warnings.catch_warnings():
                warnings.simplefilter("ignore", TargetNotMetWarning)
                first, _ = operating_points(y, s, [(c, t) for c, t, _ in specs[:4]], rng=rng, **kw)
                second, _ = operating_points(
                    y, s, targets_deploy, prevalences=(DEPLOY,), rng=rng, **kw
                )
            for i, (op, (_, _, pi), t_star) in enumerate(
                zip(first + second, specs, stars, strict=True)
            ):
                if not op.feasible or op.threshold_interval is None:
                    continue
                used[i] += 1
                truths = (t_star, tpr(op.threshold), precision(op.threshold, pi or PI))
                cis = (op.threshold_interval, op.recall_interval, op.precision_interval)
                for j, (ci, truth) in enumerate(zip(cis, truths, strict=True)):
                    hits[i, j] += ci.contains(truth)
                    widths[i, j] += ci.high - ci.low
            for i, (_, options, truth) in enumerate(area_rows):
                res = auc_pr_ci(
                    y, s, method="davis_goadrich", interval="bootstrap_percentile", rng=rng,
                    **options, **kw,
                )  # fmt: skip
                a_hits[i] += res.interval.contains(truth)
                a_width[i] += res.interval.width
        seconds = time.perf_counter() - t0
        for i, (c, t, pi) in enumerate(specs):
            label = f"{c}={t:g}" + ("" if pi is None else f" at π = {pi:g}")
            for j, what in enumerate(("threshold", "recall", "precision")):
                k = int(hits[i, j])
                lo, hi = clopper_pearson(k, int(used[i]))
                print(
                    f"{n:>7}  {label:<48}{what:<11}{k / used[i]:>9.3f}"
                    f"{f'[{lo:.3f}, {hi:.3f}]':>18}{widths[i, j] / used[i]:>12.4g}"
                    f"{int(used[i]):>6}"
                )
        for i, (label, _, _) in enumerate(area_rows):
            k = int(a_hits[i])
            lo, hi = clopper_pearson(k, args.repetitions)
            print(
                f"{n:>7}  {label:<48}{'area':<11}{k / args.repetitions:>9.3f}"
                f"{f'[{lo:.3f}, {hi:.3f}]':>18}{a_width[i] / args.repetitions:>12.4g}"
                f"{args.repetitions:>6}"
            )
        print(f"{'':>7}  ({seconds:.0f} s for n = {n})")


if __name__ == "__main__":
    main()
