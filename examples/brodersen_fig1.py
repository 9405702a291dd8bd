"""
Brodersen et al. (2010), Figure 1: smooth and empirical curves
==============================================================

Brodersen et al. (2010) Figure 1: empirical vs binormal vs α-binormal vs true curves.

Usage: ``python examples/brodersen_fig1.py [output_dir]`` (default ``./figures``); writes
``brodersen_fig1.png``.
"""

import sys
from pathlib import Path

import matplotlib.pyplot as plt
import numpy as np

from prcurve import simulate_brodersen_fig1

COLOURS = {"empirical": "tab:red", "binormal": "tab:blue", "alpha_binormal": "tab:green"}
LABELS = {"empirical": "empirical", "binormal": "binormal", "alpha_binormal": "α-binormal"}


def main(out_dir: str = "figures") -> Path:
    res = simulate_brodersen_fig1(rng=2010)
    # the paper's setting and its reading of the inset, beside the numbers reproduced
    n_pos = int(res.y.sum())
    print(
        f"sample: {res.y.size - n_pos} negatives N(-1, 2^2), {n_pos} positives N(1, 2^2)"
        " (paper: 60 and 40)"
    )
    print("error of the estimates over 1,000 simulations, mean +- s.e.m.:")
    for what, errors in (("ROC AUC", res.roc_auc_error()), ("AP", res.average_precision_error())):
        cells = "  ".join(f"{k} {m:+.4f} +- {s:.4f}" for k, (m, s) in errors.items())
        print(f"  {what:<8} {cells}")
    print("paper (Section 4): the binormal PR curve overestimates the truth, the alpha-binormal")
    print("one is close to it; the ROC curves of the two smooth models coincide")
    fig, (ax_a, ax_b, ax_c) = plt.subplots(1, 3, figsize=(15, 4.6))

    # (a) decision values: histograms and true densities
    grid = np.linspace(-8, 8, 400)
    bins = np.linspace(-8, 8, 25)
    ax_a.hist(
        res.score[~res.y],
        bins=bins,
        density=True,
        alpha=0.4,
        color="grey",
        label="negatives (n=60)",
    )
    ax_a.hist(
        res.score[res.y],
        bins=bins,
        density=True,
        alpha=0.4,
        color="black",
        label="positives (n=40)",
    )
    neg_pdf, pos_pdf = res.truth.densities(grid)
    ax_a.plot(grid, neg_pdf, color="grey", lw=2)
    ax_a.plot(grid, pos_pdf, color="black", lw=2)
    ax_a.set(title="(a) decision values", xlabel="decision value", ylabel="density")
    ax_a.legend(fontsize=8)

    # (b) ROC curves, with the AUC error inset
    roc = res.empirical_roc
    ax_b.plot(res.fpr, res.tpr_true, color="black", lw=2, label="truth")
    ax_b.plot(roc.fpr, roc.tpr, color=COLOURS["empirical"], label="empirical")
    ax_b.plot(res.fpr, res.tpr_fitted, "-.", color=COLOURS["binormal"], label="binormal")
    ax_b.plot(
        res.fpr, res.tpr_fitted, ":", color=COLOURS["alpha_binormal"], lw=2, label="α-binormal"
    )
    ax_b.set(title="(b) ROC curves", xlabel="FPR", ylabel="TPR", xlim=(0, 1), ylim=(0, 1.02))
    ax_b.legend(loc="lower right", fontsize=8)
    inset = ax_b.inset_axes((0.55, 0.3, 0.4, 0.3))
    errors = res.roc_auc_error()
    for i, key in enumerate(errors):
        mean, sem = errors[key]
        inset.errorbar(i, mean, yerr=2 * sem, fmt="o", color=COLOURS[key])
    inset.axhline(0, color="black", lw=0.8)
    inset.set_xticks(range(3), [LABELS[k] for k in errors], fontsize=6)
    inset.tick_params(labelsize=6)
    inset.set_title("AUC − truth (±2 s.e.m., 1,000 sims)", fontsize=6)

    # (c) PR curves
    pr = res.empirical_pr
    ax_c.plot(res.recall, res.precision_true, color="black", lw=2, label="truth")
    ax_c.step(
        np.r_[0, pr.recall],
        np.r_[pr.precision[0], pr.precision],
        where="pre",
        color=COLOURS["empirical"],
        label="empirical",
    )
    ax_c.plot(
        res.recall,
        res.precision_binormal,
        "-.",
        color=COLOURS["binormal"],
        label=f"binormal (AP {res.binormal.average_precision():.3f})",
    )
    ax_c.plot(
        res.recall,
        res.precision_alpha_binormal,
        ":",
        lw=2,
        color=COLOURS["alpha_binormal"],
        label=f"α-binormal (AP {res.alpha_binormal.average_precision():.3f})",
    )
    ax_c.set(
        title=f"(c) PR curves (true AP {res.average_precision_true:.3f})",
        xlabel="TPR (recall)",
        ylabel="PPV (precision)",
        xlim=(0, 1),
        ylim=(0, 1.02),
    )
    ax_c.legend(loc="lower left", fontsize=8)

    fig.tight_layout()
    out = Path(out_dir)
    out.mkdir(parents=True, exist_ok=True)
    path = out / "brodersen_fig1.png"
    fig.savefig(path, dpi=120)
    plt.close(fig)
    return path


if __name__ == "__main__":
    print(main(*sys.argv[1:2]))
