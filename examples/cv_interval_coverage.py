"""Coverage of the across-fold t-interval of ``cv_pr_curves`` under real cross-validation.

Each repetition draws n = 200 instances (prevalence 0.3, two informative features among five),
runs 5-fold cross-validation of a logistic regression, and asks whether the 95 % t-interval of
the per-fold average precision covers its target: the expected AP of a model trained on 160
instances and tested on 40 fresh ones (Monte Carlo over independent training and test sets).
The folds share training data, so the fold estimates are positively correlated and the interval
is expected to be too narrow (Bengio & Grandvalet 2004); with independent test folds of one
fixed model it covers (``tests/multi/test_folds.py``).

Usage: ``python examples/cv_interval_coverage.py [repetitions]`` (default 300).
"""

import sys

import numpy as np
from sklearn.linear_model import LogisticRegression
from sklearn.model_selection import StratifiedKFold

from prcurve import auc_pr, cv_pr_curves

N, FOLDS, PREVALENCE = 200, 5, 0.3


def draw(rng: np.random.Generator, n: int) -> tuple[np.ndarray, np.ndarray]:
    y = rng.random(n) < PREVALENCE
    X = rng.normal(size=(n, 5))
    X[:, :2] += 0.8 * y[:, None]
    return X, y


def main(reps: int = 300) -> float:
    rng = np.random.default_rng(15)
    n_train = N * (FOLDS - 1) // FOLDS
    truth = np.mean(
        [
            auc_pr(yt, LogisticRegression().fit(*draw(rng, n_train)).decision_function(Xt))
            for Xt, yt in (draw(rng, N - n_train) for _ in range(2000))
        ]
    )
    hits, widths = 0, []
    for r in range(reps):
        X, y = draw(rng, N)
        folds = np.empty(N, dtype=int)
        for f, (_, test) in enumerate(
            StratifiedKFold(FOLDS, shuffle=True, random_state=r).split(X, y)
        ):
            folds[test] = f
        scores = np.empty(N)
        for f in range(FOLDS):
            train = folds != f
            scores[~train] = (
                LogisticRegression().fit(X[train], y[train]).decision_function(X[~train])
            )
        ci = cv_pr_curves(y, scores, folds).auc["average_precision"].interval
        hits += bool(ci.contains(truth))
        widths.append(ci.high - ci.low)
    coverage = hits / reps
    print(f"target (expected per-fold AP) {truth:.4f}; {reps} repetitions of 5-fold CV, n = {N}")
    print(f"coverage of the 95% t-interval: {coverage:.3f}; mean width {np.mean(widths):.3f}")
    return coverage


if __name__ == "__main__":
    main(*(int(v) for v in sys.argv[1:2]))
