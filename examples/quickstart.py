"""
A first look at prcurve
=======================

The five AUC-PR estimators and the achievable curve on simulated imbalanced scores
(2 % positives)."""

import numpy as np

import prcurve

rng = np.random.default_rng(0)
y = rng.random(20_000) < 0.02
score = rng.normal(size=y.size) + 2.0 * y

curve = prcurve.pr_curve(y, score)
print(f"{curve.n_pos} positives, {curve.n_neg} negatives, prevalence {curve.prevalence:.4f}")
for method in (
    "average_precision",
    "davis_goadrich",
    "lower_trapezoid",
    "interpolated_median",
    "trapezoid",
):
    print(f"AUC-PR {method:<20} {curve.auc(method):.4f}")
hull = curve.achievable()
print(f"achievable curve: {hull.recall.size} hull points, area {hull.auc('davis_goadrich'):.4f}")
