"""
Ten digits, one-vs-rest, 5-fold cross-validation
================================================

All ten classes of scikit-learn's bundled handwritten digits, 5-fold cross-validation.

A Gaussian naive Bayes classifier is cross-validated with ``cross_validate(...,
return_estimator=True, return_indices=True)``; every digit is scored out of fold by the model
that did not see it.  The script prints

* the macro, weighted and micro average precision of the out-of-fold scores next to
  scikit-learn's ``average_precision_score`` (they agree), with bootstrap intervals;
* the per-fold macro AP with its across-fold t-interval;
* the variance smoothing chosen by ``GridSearchCV`` with ``prcurve.make_scorer``;

and draws ``digits_multiclass_cv.png``: (left) the one-vs-rest curves of the ten digits and the
micro curve; (right) the fold curves of the micro-averaged problem, their vertical average
(Davis–Goadrich interpolation at fixed recall) and its 95 % t-band, and the pooled curve.  It
also writes the out-of-fold scores to ``digits_oof.csv`` (columns ``digit``, ``is_nine``,
``fold``, ``p_0`` … ``p_9``) for ``prcurve report``.

Usage: ``python examples/digits_multiclass_cv.py [output_dir]`` (default ``./figures``).
"""

import sys
from pathlib import Path

import matplotlib.pyplot as plt
import numpy as np
from scipy.stats import t as student_t
from sklearn.datasets import load_digits
from sklearn.metrics import average_precision_score
from sklearn.model_selection import GridSearchCV, StratifiedKFold, cross_validate
from sklearn.naive_bayes import GaussianNB
from sklearn.preprocessing import label_binarize

from prcurve import auc_pr, auc_pr_multi_ci, cv_pr_curves, make_scorer, pr_curves
from prcurve.plot import CVPRCurvesDisplay, MultiPRCurvesDisplay


def main(out_dir: str = "figures") -> Path:
    X, y = load_digits(return_X_y=True)
    cv = StratifiedKFold(5, shuffle=True, random_state=0)
    res = cross_validate(GaussianNB(), X, y, cv=cv, return_estimator=True, return_indices=True)
    tests = res["indices"]["test"]
    proba = np.empty((y.shape[0], 10))
    for est, test in zip(res["estimator"], tests, strict=True):
        proba[test] = est.predict_proba(X[test])

    # one-vs-rest averages of the out-of-fold scores, checked against scikit-learn
    onehot = label_binarize(y, classes=np.arange(10))
    print(f"{len(y)} digits, 10 classes, 5 folds, GaussianNB, out-of-fold predict_proba")
    print("average   prcurve AP  scikit-learn AP  95% bootstrap interval  AUC-PR (DG)")
    for average in ("macro", "weighted", "micro"):
        ci = auc_pr_multi_ci(y, proba, average=average, n_resamples=500, rng=0)
        ref = average_precision_score(onehot, proba, average=average)
        dg = auc_pr(y, proba, average=average, method="davis_goadrich")
        print(
            f"{average:9} {ci.estimate:10.4f}  {ref:15.4f}  "
            f"[{ci.interval.low:.4f}, {ci.interval.high:.4f}]        {dg:.4f}"
        )

    # per-fold macro AP and its t-interval (the folds share training data: too narrow)
    per_fold = np.array([auc_pr(y[t], proba[t]) for t in tests])
    half = student_t.ppf(0.975, 4) * per_fold.std(ddof=1) / np.sqrt(5)
    print(
        f"per-fold macro AP {np.round(per_fold, 4).tolist()}; mean {per_fold.mean():.4f} "
        f"± {half:.4f}"
    )

    # the micro problem fold by fold: (digit, class) pairs of each fold's test set
    micro = cv_pr_curves([onehot[t].ravel() for t in tests], [proba[t].ravel() for t in tests])
    fa = micro.auc["average_precision"]
    print(
        f"micro AP per fold: mean {fa.mean:.4f} [{fa.interval.low:.4f}, "
        f"{fa.interval.high:.4f}], pooled {fa.pooled:.4f}"
    )

    # model selection with a prcurve scorer inside GridSearchCV
    grid = GridSearchCV(
        GaussianNB(),
        {"var_smoothing": [1e-9, 1e-6, 1e-3, 1e-1]},
        scoring=make_scorer("davis_goadrich", average="macro", response_method="predict_proba"),
        cv=cv,
    ).fit(X, y)
    print(
        f"GridSearchCV (macro AUC-PR, Davis-Goadrich): best var_smoothing "
        f"{grid.best_params_['var_smoothing']:g}, score {grid.best_score_:.4f}"
    )

    fig, (ax_l, ax_r) = plt.subplots(1, 2, figsize=(12, 5.4))
    MultiPRCurvesDisplay(pr_curves(y, proba)).plot(ax_l)
    ax_l.set_title("one-vs-rest, out of fold · " + ax_l.get_title(), fontsize="medium")
    CVPRCurvesDisplay(micro, name="micro-averaged problem, 5 folds").plot(ax_r)
    fig.tight_layout()
    out = Path(out_dir)
    out.mkdir(parents=True, exist_ok=True)
    path = out / "digits_multiclass_cv.png"
    fig.savefig(path, dpi=110)
    plt.close(fig)
    # the out-of-fold scores as a file for `prcurve report --score-prefix p_` / `--fold fold`
    fold = np.empty(y.shape[0], dtype=int)
    for i, test in enumerate(tests):
        fold[test] = i
    rows = [
        ",".join([str(y[i]), str(int(y[i] == 9)), str(fold[i]), *map(repr, proba[i].tolist())])
        for i in range(y.shape[0])
    ]
    header = ",".join(["digit", "is_nine", "fold", *(f"p_{c}" for c in range(10))])
    table = out / "digits_oof.csv"
    table.write_text("\n".join([header, *rows]) + "\n")
    print(f"wrote {path} and {table}")
    return path


if __name__ == "__main__":
    main(*sys.argv[1:2])
