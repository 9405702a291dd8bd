"""Regenerate prcurve's built-in example, ``src/prcurve/data/digits_9_vs_rest.csv``.

Real data, no download: scikit-learn's bundled copy of the UCI optical handwritten digits
(``sklearn.datasets.load_digits``, 1,797 images of 8x8 pixels).  The task is one-vs-rest:
is the digit a 9?  To make the problem imbalanced the way fraud or screening data are, only every
third 9 is kept (about 3.6 % positives).  Each scorer's scores are out-of-fold predictions from
5-fold stratified cross-validation with a fixed seed, so every score was made by a model that
never saw that image.

Columns: ``row`` (index into ``load_digits``), ``is_nine`` (1 = positive), and one score column
per scorer: ``logistic_regression``, ``naive_bayes``, ``decision_tree``.

scikit-learn is a development dependency only: the CSV is committed, and prcurve never imports
scikit-learn at run time.  Run from the repository root::

    python examples/make_builtin_example.py
"""

from __future__ import annotations

from pathlib import Path

import numpy as np
from sklearn.datasets import load_digits
from sklearn.linear_model import LogisticRegression
from sklearn.model_selection import StratifiedKFold, cross_val_predict
from sklearn.naive_bayes import GaussianNB
from sklearn.pipeline import make_pipeline
from sklearn.preprocessing import StandardScaler
from sklearn.tree import DecisionTreeClassifier

SEED = 20240517
POSITIVE_DIGIT = 9
KEEP_EVERY = 3  # keep every third positive
OUT = Path(__file__).resolve().parents[1] / "src" / "prcurve" / "data" / "digits_9_vs_rest.csv"


def main() -> None:
    digits = load_digits()
    x, digit = digits.data, digits.target
    rows = np.arange(digit.shape[0])
    is_pos = digit == POSITIVE_DIGIT
    keep = ~is_pos | (np.cumsum(is_pos) % KEEP_EVERY == 1)
    x, y, rows = x[keep], is_pos[keep].astype(int), rows[keep]

    folds = StratifiedKFold(n_splits=5, shuffle=True, random_state=SEED)
    scorers = {
        "logistic_regression": make_pipeline(
            StandardScaler(), LogisticRegression(C=0.05, max_iter=2000)
        ),
        "naive_bayes": GaussianNB(),
        "decision_tree": DecisionTreeClassifier(max_depth=3, random_state=SEED),
    }
    columns = {"row": rows, "is_nine": y}
    for name, model in scorers.items():
        proba = cross_val_predict(model, x, y, cv=folds, method="predict_proba")[:, 1]
        columns[name] = proba

    header = ",".join(columns)
    lines = [header]
    for i in range(y.shape[0]):
        cells = [str(columns["row"][i]), str(columns["is_nine"][i])]
        cells += [f"{columns[name][i]:.6g}" for name in scorers]
        lines.append(",".join(cells))
    OUT.write_text("\n".join(lines) + "\n", encoding="utf-8")
    print(f"wrote {OUT} ({y.shape[0]} rows, {int(y.sum())} positives)")


if __name__ == "__main__":
    main()
