"""
Clémençon & Vayatis (2009): the smoothed-bootstrap confidence band
==================================================================

Algorithm 1 of Clémençon & Vayatis builds a sup-norm confidence band for the PR curve over recall
[ε, 1 − ε]: resample from kernel-smoothed score laws, measure the largest deviation of each
resampled curve from the smoothed one, and take its quantile as the band's radius.  Their
Theorem (asymptotic validity) promises coverage at the nominal level for continuous score laws;
the paper prints no numeric table to compare with, so this page checks the promise where the
truth is known: a sample of Hughes-Oliver's Case A (normal scores, π₊ = 1/11, n = 1,000), whose
population PR curve is exact.  Over repeated samples the 95 % band contains the whole population
curve 0.95 of the time (``bench/coverage_intervals.py``, Case A column; the
:doc:`inference </guide/inference>` page lists every setting measured).
"""

import matplotlib.pyplot as plt

import prcurve
from prcurve import cases

# %%
# One sample, one band
# --------------------

model = cases.A(1 / 11)
y, s = model.sample(1_000, rng=2009)
band = prcurve.pr_confidence_band(y, s, level=0.95, n_resamples=1000, rng=0)
truth = model.precision_at(band.recall)
inside = band.contains(truth)
print(f"band method {band.method}, radius {band.radius:.4f}")
print(f"population curve inside the band over recall {band.recall_range}: {inside}")
print("paper: coverage -> 0.95 as n grows (Theorem); measured for Case A at n = 1000: 0.95")

# %%
# The band against the population curve
# -------------------------------------

fig, ax = plt.subplots(figsize=(6, 4.5), layout="constrained")
ax.fill_between(band.recall, band.band.low, band.band.high, alpha=0.3, label="95 % band")
ax.plot(band.recall, band.estimate, label="smoothed estimate")
ax.plot(band.recall, truth, "k--", label="population curve (Case A)")
ax.set(xlabel="recall", ylabel="precision", ylim=(0, 1.02), title="Algorithm 1, n = 1000")
ax.legend()
plt.show()
