"""
Hughes-Oliver: the end points of Cases A-F and the small-sample study in numbers
================================================================================

Hughes-Oliver's property P2 fixes where each population PR curve starts and ends, and the paper
states these points for its cases (Section 2.3).  ``PopulationModel.endpoints()`` computes them
from the two score laws alone, through generalized inverses, so the discrete Case F and the
non-overlapping supports of Cases D and E need no special code.

The second table summarises the simulation behind Figures 7-11 (histograms of the functional
estimator PR̂(x) at n = 100, 500, 1000): the mean and standard deviation of PR̂(0.5) over the
replicates beside the population value PR(0.5) and the normal approximation's standard deviation
σ(x)/√n (with the corrected variance; none for the discrete Case F).  The paper shows these laws
as histograms only, and reads from them how far the normal approximation is from the sampling
law (very poor for Case B, Figure 11); the last two columns put numbers on that reading.  The
figures themselves are in the gallery page of ``hughes_oliver_figures.py``.
"""

import numpy as np

from prcurve import cases, simulate_pr_estimator

# %%
# End points (property P2)
# ------------------------
# The paper's values, as stated in its text, for balanced classes (π₊ = 1/2) and π₊ = 1/11.

PAPER = {  # case: (ROC start, PR start, PR end at 1/2, PR end at 1/11)
    "C": ((0, 0), (0, 1), 0.5, 1 / 11),
    "D": ((0, 0.5), (0, 1), 2 / 3, 1 / 6),
    "E": ((0, 0), (0, 0), 0.5, 1 / 11),
    "F": ((0, 0.4), (0, 1), 0.625, 0.143),
}
print("case  ROC start (prcurve | paper)   PR start      PR end, pi=1/2   PR end, pi=1/11")
for name, (roc0, pr0, end_half, end_11) in PAPER.items():
    half, eleventh = cases.CASES[name](0.5).endpoints(), cases.CASES[name](1 / 11).endpoints()
    r = tuple(round(v, 3) for v in half.roc_start)
    p = tuple(round(v, 3) for v in half.pr_start)
    print(
        f"  {name}   {r} | {roc0}    {p} | {pr0}   "
        f"{half.pr_end[1]:.3f} | {end_half:.3f}    {eleventh.pr_end[1]:.3f} | {end_11:.3f}"
    )
    assert np.allclose(half.roc_start, roc0) and np.allclose(half.pr_start, pr0)
    assert abs(half.pr_end[1] - end_half) < 5e-4 and abs(eleventh.pr_end[1] - end_11) < 5e-4

# %%
# Figures 7-11: the law of PR̂(0.5)
# ---------------------------------
# 2,000 replicates per size here (the figures use 5,000).

FIGURES = {
    "Figure 7": ("A", 10),
    "Figure 8": ("C", 10),
    "Figure 9": ("F", 1),
    "Figure 10": ("D", 4),
    "Figure 11": ("B", 1),
}
print("figure     case skew     n   PR(0.5)   mean PR̂   SD PR̂   normal SD")
for figure, (name, skew) in FIGURES.items():
    model = cases.CASES[name](1 / (1 + skew))
    for n in (100, 500, 1000):
        sim = simulate_pr_estimator(model, n, [0.5], n_replicates=2000, rng=n)
        est = sim.estimates[:, 0]
        normal_sd = "  (none)" if sim.normal is None else f"{sim.normal.sd[0]:.4f}"
        print(
            f"{figure:<10}  {name}   {skew:>3}  {n:>5}   {sim.population[0]:.4f}    "
            f"{np.nanmean(est):.4f}   {np.nanstd(est):.4f}    {normal_sd}"
        )
