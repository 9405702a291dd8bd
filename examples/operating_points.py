"""
Which threshold to deploy: operating points with intervals
==========================================================

The highest recall at precision ≥ 0.9, the highest precision at recall ≥ 0.8, the
Neyman–Pearson point at FPR ≤ 1 %, and the top 200: ``operating_point`` applies each rule exactly
on the observed thresholds and, with ``interval="bootstrap"``, gives percentile intervals for the
threshold (the rule re-applied in each resample) and for the precision and recall the chosen
threshold delivers.  See :doc:`/guide/operating-points`.
"""

import matplotlib.pyplot as plt
import numpy as np

import prcurve
from prcurve.plot import PRCurveDisplay

rng = np.random.default_rng(7)
y = rng.random(10_000) < 0.1
score = rng.normal(size=y.size) + 2 * y

# %%
# Four rules, one table
# ---------------------

rules = {
    "precision >= 0.9": {"min_precision": 0.9},
    "recall >= 0.8": {"min_recall": 0.8},
    "FPR <= 0.01": {"max_fpr": 0.01},
    "top 200": {"top_k": 200},
}
print("rule                threshold  [95 % interval]     precision  recall")
points = {}
for name, rule in rules.items():
    op = prcurve.operating_point(y, score, **rule, interval="bootstrap", n_resamples=300, rng=0)
    points[name] = op
    lo, hi = op.threshold_interval.low, op.threshold_interval.high
    print(
        f"{name:<18}  {op.threshold:8.3f}  [{lo:6.3f}, {hi:6.3f}]   "
        f"{op.precision:9.3f} {op.recall:7.3f}"
    )

# %%
# On the PR curve
# ---------------

fig, ax = plt.subplots(figsize=(6, 4.5), layout="constrained")
PRCurveDisplay(prcurve.pr_curve(y, score), name="scorer").plot(ax)
for name, op in points.items():
    ax.plot(op.recall, op.precision, "o", label=name)
ax.legend(loc="lower left")
plt.show()
