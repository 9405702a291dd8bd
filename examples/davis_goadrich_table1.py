"""
Davis & Goadrich (2006): Table 1 and the 433 / 56,164 example
=============================================================

Davis & Goadrich's Table 1 interpolates between two PR points, A = (TP 5, FP 5) and
B = (TP 10, FP 30), of a data set with 20 positives and 2,000 negatives: false positives grow by
the local skew, 5 per true positive, and precision falls along a curve, not a straight line.
Their second example (Section 4) joins a single point (recall 0.02, precision 1) of a data set
with 433 positives and 56,164 negatives to the end points (0, 1) and (1, 0.008): the correct
interpolation has AUC-PR 0.031 in the paper, a straight line 0.50.
"""

import matplotlib.pyplot as plt
import numpy as np
from scipy.integrate import trapezoid

import prcurve

# %%
# Table 1
# -------
# ``dg_interpolate`` returns the intermediate points at integer TP steps.

PAPER_PRECISION = [0.500, 0.375, 0.318, 0.286, 0.265, 0.250]  # Table 1, column PREC

pts = prcurve.dg_interpolate(5, 5, 10, 30, n_pos=20)
print(" TP   FP   REC   PREC (prcurve)   PREC (paper)")
for tp, fp, rec, prec, paper in zip(
    pts.tp, pts.fp, pts.recall, pts.precision, PAPER_PRECISION, strict=True
):
    print(f"{tp:3.0f} {fp:4.0f}  {rec:.2f}   {prec:.3f}            {paper:.3f}")
assert np.array_equal(np.round(pts.precision, 3), PAPER_PRECISION)

# %%
# The 433 / 56,164 example
# ------------------------
# The paper's 0.031 is the composite trapezoid rule over the integer-TP interpolated points
# (the first point rounded to TP = 9); prcurve's ``davis_goadrich`` area is the exact integral
# of the same curve, about 0.03; a straight line gives about 0.5, as the paper says.

n_pos, n_neg = 433, 56_164
end_precision = 0.008  # the paper's end point (1, 0.008)
tp9 = prcurve.dg_interpolate(9, 0, n_pos, n_pos / end_precision - n_pos, n_pos)
composite = 9 / n_pos + trapezoid(tp9.precision, tp9.recall)

# exact: a curve whose only inner operating point has recall 0.02, precision 1
y = np.r_[np.ones(9, bool), np.zeros(n_neg, bool), np.ones(n_pos - 9, bool)]
s = np.r_[np.full(9, 2.0), np.zeros(n_neg + n_pos - 9)]
curve = prcurve.pr_curve(y, s)
exact = curve.auc("davis_goadrich")
linear = 9 / n_pos + (1 - 9 / n_pos) * (1 + n_pos / (n_pos + n_neg)) / 2

print("                           prcurve   paper")
print(f"interpolated, composite    {composite:.3f}     0.031")
print(f"interpolated, exact        {exact:.4f}    (0.031)")
print(f"linear interpolation       {linear:.2f}      0.50")

# %%
# The two curves
# --------------

fig, (ax_t, ax_e) = plt.subplots(1, 2, figsize=(10, 4), layout="constrained")
ax_t.plot(pts.recall, pts.precision, "o-", label="correct (Davis-Goadrich)")
ax_t.plot([0.25, 0.5], [0.5, 0.25], "--", label="incorrect (linear)")
ax_t.set(xlabel="recall", ylabel="precision", title="Table 1: between A and B")
ax_t.legend()
recall, precision = curve.interpolate(num=400)
ax_e.plot(recall, precision, label=f"correct, area {exact:.3f}")
ax_e.plot([0, 9 / n_pos, 1], [1, 1, n_pos / (n_pos + n_neg)], "--", label=f"linear, {linear:.2f}")
ax_e.set(xlabel="recall", ylabel="precision", title="433 positives, 56,164 negatives")
ax_e.legend()
plt.show()
