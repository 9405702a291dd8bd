"""Cost of the scikit-learn integration (``prcurve.sklearn``) at 10^6 rows, against
``numpy.sort`` and scikit-learn measured in the same run.

Run:  python bench/bench_sklearn.py [--n 1000000] [--quick]

One seeded data set (prevalence 0.05, five informative features; scores of a fitted logistic
regression, which has few ties).  Rows:

* ``numpy.sort`` of the scores (the floor of any exact method);
* each scorer of ``make_operating_scorer`` (recall at precision >= 0.8, precision at recall >=
  0.5, recall at FPR <= 0.01, precision at top-1000) called as scikit-learn calls it (the
  estimator scores X, then the rule), beside the same number computed by hand with scikit-learn
  (``precision_recall_curve`` / ``roc_curve`` and a mask; top-k by ``argsort``), also from X;
* ``ConstrainedThresholdClassifierCV(min_precision=0.8, cv=5, n_resamples=200)`` against
  ``TunedThresholdClassifierCV(scoring="recall", cv=5)`` on the same estimator (both fit 5 + 1
  models; scikit-learn evaluates 100 thresholds per fold, prcurve every distinct score plus a
  bootstrap of the threshold and the leave-one-fold-out check).

``--quick`` uses 10^5 rows (for CI).
"""

from __future__ import annotations

import argparse
import time

import numpy as np


def timed(fn, repeat: int = 3) -> float:
    best = np.inf
    for _ in range(repeat):
        t0 = time.perf_counter()
        fn()
        best = min(best, time.perf_counter() - t0)
    return best


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--n", type=int, default=1_000_000)
    parser.add_argument("--quick", action="store_true", help="10^5 rows")
    args = parser.parse_args()
    n = 100_000 if args.quick else args.n

    from sklearn.linear_model import LogisticRegression
    from sklearn.metrics import precision_recall_curve, roc_curve
    from sklearn.model_selection import TunedThresholdClassifierCV

    from prcurve.sklearn import ConstrainedThresholdClassifierCV, make_operating_scorer

    rng = np.random.default_rng(0)
    y = (rng.random(n) < 0.05).astype(int)
    X = rng.normal(size=(n, 5)) + 0.6 * y[:, None]
    model = LogisticRegression().fit(X, y)

    def scores():
        return model.decision_function(X)

    s = scores()
    floor = timed(lambda: np.sort(s))
    rows = [("numpy.sort of the scores", floor, None)]

    def by_hand(criterion, target):
        def run():
            t = scores()
            if criterion == "max_fpr":
                fpr, tpr, _ = roc_curve(y, t)
                return tpr[fpr <= target].max()
            if criterion == "top_k":
                top = np.argsort(-t, kind="stable")[: int(target)]
                return y[top].mean()
            p, r, _ = precision_recall_curve(y, t)
            if criterion == "min_precision":
                return r[p >= target].max()
            return p[r >= target].max()

        return run

    cases = [("min_precision", 0.8), ("min_recall", 0.5), ("max_fpr", 0.01), ("top_k", 1000)]
    for criterion, target in cases:
        scorer = make_operating_scorer(**{criterion: target})
        ours = timed(lambda scorer=scorer: scorer(model, X, y))
        theirs = timed(by_hand(criterion, target))
        rows.append((f"scorer {criterion}={target:g}", ours, theirs))

    est = LogisticRegression()
    ours = timed(
        lambda: ConstrainedThresholdClassifierCV(
            est, min_precision=0.8, cv=5, n_resamples=200, rng=0
        ).fit(X, y),
        repeat=1,
    )
    theirs = timed(lambda: TunedThresholdClassifierCV(est, scoring="recall", cv=5).fit(X, y), 1)
    rows.append(("threshold tuning, cv=5 (fit 6 models)", ours, theirs))

    print(f"n = {n:,} rows, prevalence 0.05 (best of 3 runs; tuning: 1 run)")
    print(f"{'what':42} {'prcurve s':>10} {'sklearn s':>10} {'vs sklearn':>10} {'vs sort':>8}")
    for what, t, other in rows:
        ratio = "" if other is None else f"{t / other:10.2f}"
        theirs_s = "" if other is None else f"{other:10.4f}"
        print(f"{what:42} {t:10.4f} {theirs_s:>10} {ratio:>10} {t / floor:8.1f}")


if __name__ == "__main__":
    main()
