"""
Deployment prevalence: the same model at 10 % and at 0.1 % positives
====================================================================

A test set is often enriched with positives; production is not.  ROC curves do not depend on the
prevalence, PR curves do: ``PRCurve.at_prevalence(pi)`` keeps TPR and FPR and reweights every
negative by n₊(1 − π)/(π n₋), so precision, every area and the chance line are those at π.
See :doc:`/guide/operating-points`.
"""

import matplotlib.pyplot as plt
import numpy as np

import prcurve
from prcurve.plot import PRCurvesDisplay

rng = np.random.default_rng(11)
y = rng.random(20_000) < 0.1
score = rng.normal(size=y.size) + 2.5 * y
curve = prcurve.pr_curve(y, score)

# %%
# Areas and one operating point at three prevalences
# --------------------------------------------------

curves = {"test set (10 %)": curve}
for pi in (0.01, 0.001):
    curves[f"deployed at {pi:g}"] = curve.at_prevalence(pi)
print("curve                 AP      precision at recall 0.5")
for name, c in curves.items():
    print(f"{name:<20} {c.auc():.4f}   {float(c.precision_at_recall(0.5)):.4f}")
ci = prcurve.auc_pr_ci(
    y, score, interval="bootstrap_percentile", prevalence=0.001, rng=0, n_resamples=300
)
low, high = ci.interval.low, ci.interval.high
print(f"AP at 0.1 %: {ci.estimate:.4f}, 95 % interval [{low:.4f}, {high:.4f}]")

# %%
# The curves
# ----------

fig, ax = plt.subplots(figsize=(6, 4.5), layout="constrained")
PRCurvesDisplay(curves).plot(ax)
plt.show()
