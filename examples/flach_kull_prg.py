"""
Flach & Kull (2015): precision-recall-gain curves
=================================================

The PRG supplement proves four results that make PR analysis behave: linear interpolation in PRG
space (Theorem 1), precG + β²·recG = (1 + β²)·FG_β (Theorem 2), the expected F-gain of
uniformly chosen operating points from AUPRG (Theorem 3 and its corollary), and iso-F_β lines of
slope −β² (Theorem 4).  The printed "values" are these identities; the numbers to compare with
come from the authors' R package example (``prg``: labels 1 1 0 0 1 0, scores .8 .8 .6 .4 .4 .2),
whose AUPRG is 0.7083333.  Each line below puts prcurve's number beside the paper's.
"""

import matplotlib.pyplot as plt
import numpy as np

import prcurve

# %%
# The authors' example
# --------------------

curve = prcurve.prg_curve([1, 1, 0, 0, 1, 0], [0.8, 0.8, 0.6, 0.4, 0.4, 0.2])
print("precision gain", curve.precision_gain, " recall gain", curve.recall_gain)
print(f"AUPRG: prcurve {curve.auc():.7f}   R package prg 0.7083333")

# %%
# Theorems 1, 2 and 4, numerically
# --------------------------------
# Theorem 1: mixing two contingency tables lands on the segment between their PRG points.
pi, n_pos, n_neg = 0.2, 200.0, 800.0
tp1, fp1, tp2, fp2, lam = 60.0, 10.0, 150.0, 200.0, 0.3


def gains(tp, fp):
    return prcurve.gains_from_counts(tp, fp, n_pos - tp, n_neg - fp)


g1, g2 = gains(tp1, fp1), gains(tp2, fp2)
gm = gains(lam * tp1 + (1 - lam) * tp2, lam * fp1 + (1 - lam) * fp2)
slope = (g2.precision_gain - g1.precision_gain) / (g2.recall_gain - g1.recall_gain)
off_line = gm.precision_gain - (g1.precision_gain + slope * (gm.recall_gain - g1.recall_gain))
print(f"Theorem 1: distance of the mixture from the segment {abs(float(off_line)):.1e} (paper: 0)")

# Theorem 2: precG + beta^2 recG = (1 + beta^2) FG_beta, for beta = 2
prec, rec, beta = 0.6, 0.7, 2.0
lhs = prcurve.precision_gain(prec, pi) + beta**2 * prcurve.recall_gain(rec, pi)
rhs = (1 + beta**2) * prcurve.f_gain(prec, rec, pi, beta=beta)
print(f"Theorem 2: {lhs:.12f} = {rhs:.12f}")

# Theorem 4: the iso-F1 line through a point has slope -beta^2 = -1
line = prcurve.iso_f_gain_line(0.5, beta=2)
(x0, x1), (y0_, y1_) = line.recall_gain, line.precision_gain
print(f"Theorem 4: iso-F2 line slope {(y1_ - y0_) / (x1 - x0):.12f} (paper: -beta^2 = -4)")

# %%
# Theorem 3: expected F-gain from AUPRG
# -------------------------------------
# Operating points with Δ = recG/π − precG/γ uniform on [−y0/γ, 1/π]: the closed form against
# a Monte Carlo average over the curve of a binormal scorer.
rng = np.random.default_rng(2015)
y = rng.random(20_000) < pi
s = rng.normal(size=y.size) + 2 * y
big = prcurve.prg_curve(y, s)
closed = prcurve.expected_f_gain(big.auc(), big.prevalence, y0=big.y0)
x, yv = big.path()
gamma = 1 - big.prevalence
delta = x / big.prevalence - yv / gamma
draws = rng.uniform(-big.y0 / gamma, 1 / big.prevalence, 200_000)
rec_g = np.interp(draws, delta, x)
prec_g = np.interp(draws, delta, yv)
monte_carlo = np.mean((rec_g + prec_g) / 2)
print(f"Theorem 3: E[FG1] closed form {closed:.4f}, Monte Carlo {monte_carlo:.4f}")

# %%
# The PRG curve and its convex hull
# ---------------------------------
fig, ax = plt.subplots(figsize=(5, 5), layout="constrained")
ax.plot(x, yv, label=f"PRG curve, AUPRG {big.auc():.3f}")
hx, hy = big.convex_hull().path()
ax.plot(hx, hy, "--", label="convex hull")
for f in (0.25, 0.5, 0.75):
    iso = prcurve.iso_f_gain_line(f, beta=1)
    ax.plot(iso.recall_gain, iso.precision_gain, ":", color="grey")
ax.set(xlim=(0, 1), ylim=(0, 1), xlabel="recall gain", ylabel="precision gain")
ax.legend()
plt.show()
