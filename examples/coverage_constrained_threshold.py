"""Coverage of ConstrainedThresholdClassifierCV's intervals, and how often its constraint holds.

Run:  python examples/coverage_constrained_threshold.py [--reps 300] [--n 2000]

A population with a closed form: one feature, x ~ N(0, 1) for negatives and N(2.5, 1) for
positives, prevalence 0.1.  Each repetition draws a training set of ``n`` rows and fits
``ConstrainedThresholdClassifierCV(LogisticRegression(), min_precision=0.8, cv=5,
n_resamples=400)``.  The refitted model predicts positive exactly when x >= x_t with
x_t = (logit(threshold_) - a)/b, so the deployed classifier's true precision and recall are exact
normal tail probabilities.  Reported, with 95 % Clopper–Pearson bounds on each rate (fixed seed):

* coverage of ``operating_point_.precision_interval`` / ``recall_interval`` (95 %) for the true
  precision / recall of the deployed classifier;
* coverage of ``threshold_interval_`` (mapped to x through the refitted model) for the population
  threshold x* where precision is exactly 0.8;
* how often the deployed classifier truly has precision >= 0.8, beside the mean of
  ``fold_results_.met_fraction`` (the leave-one-fold-out estimate of that rate).
"""

from __future__ import annotations

import argparse
import time
import warnings

import numpy as np
from scipy import optimize, special, stats

MU, PI, TARGET = 2.5, 0.1, 0.8


def rates(x_t: float) -> tuple[float, float]:
    """True precision and recall of predicting positive when x >= x_t."""
    tpr, fpr = stats.norm.sf(x_t - MU), stats.norm.sf(x_t)
    return PI * tpr / (PI * tpr + (1 - PI) * fpr), tpr


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--reps", type=int, default=300)
    parser.add_argument("--n", type=int, default=2000)
    args = parser.parse_args()

    from sklearn.linear_model import LogisticRegression

    from prcurve import TargetNotMetWarning
    from prcurve.sklearn import ConstrainedThresholdClassifierCV

    x_star = optimize.brentq(lambda x: rates(x)[0] - TARGET, -5, 10)
    rng = np.random.default_rng(20260101)
    hits = {"precision": 0, "recall": 0, "threshold": 0, "held": 0}
    met = []
    t0 = time.perf_counter()
    warnings.simplefilter("ignore", TargetNotMetWarning)  # a few replicates miss 0.8: expected
    for _ in range(args.reps):
        y = rng.random(args.n) < PI
        X = (rng.normal(size=args.n) + MU * y)[:, None]
        clf = ConstrainedThresholdClassifierCV(
            LogisticRegression(), min_precision=TARGET, cv=5, n_resamples=400, rng=rng
        ).fit(X, y)
        (b,), a = clf.estimator_.coef_[0], clf.estimator_.intercept_[0]

        def to_x(t: float, a: float = a, b: float = b) -> float:
            return float((special.logit(t) - a) / b)

        precision, recall = rates(to_x(clf.threshold_))
        op = clf.operating_point_
        hits["precision"] += op.precision_interval.low <= precision <= op.precision_interval.high
        hits["recall"] += op.recall_interval.low <= recall <= op.recall_interval.high
        ci = clf.threshold_interval_
        hits["threshold"] += to_x(ci.low) <= x_star <= to_x(ci.high)
        hits["held"] += precision >= TARGET
        met.append(clf.fold_results_.met_fraction)
    print(f"n = {args.n}, {args.reps} repetitions, min_precision = {TARGET}, x* = {x_star:.4f}")
    print(f"({time.perf_counter() - t0:.0f} s)")
    print(f"{'quantity':52} {'rate':>6}  95% Clopper-Pearson")
    names = {
        "precision": "precision_interval covers the true precision",
        "recall": "recall_interval covers the true recall",
        "threshold": "threshold_interval_ covers x* (mapped to x)",
        "held": "deployed classifier truly has precision >= 0.8",
    }
    for key, label in names.items():
        ci = stats.binomtest(hits[key], args.reps).proportion_ci(method="exact")
        print(f"{label:52} {hits[key] / args.reps:6.3f}  [{ci.low:.3f}, {ci.high:.3f}]")
    print(f"{'mean fold_results_.met_fraction (its estimate)':52} {np.mean(met):6.3f}")


if __name__ == "__main__":
    main()
