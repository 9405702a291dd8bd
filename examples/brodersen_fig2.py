"""
Brodersen et al. (2010), Figure 2: AP against class imbalance
=============================================================

Brodersen et al. (2010) Figure 2: mean AP of three estimators against class imbalance.

Usage: ``python examples/brodersen_fig2.py [output_dir]`` (default ``./figures``); writes
``brodersen_fig2.png`` and prints the table.
"""

import sys
from pathlib import Path

import matplotlib.pyplot as plt
import numpy as np

from prcurve import simulate_brodersen_fig2

STYLE = {
    "empirical": ("tab:red", "-", "empirical"),
    "binormal": ("tab:blue", "-.", "binormal"),
    "alpha_binormal": ("tab:green", ":", "α-binormal"),
}


def main(out_dir: str = "figures") -> Path:
    prevalences = np.round(np.linspace(0.05, 0.95, 19), 2)
    res = simulate_brodersen_fig2(prevalences, n=100, n_simulations=1000, rng=2010)
    print(res.table())
    bias = res.bias()
    half = int(np.argmin(abs(res.prevalences - 0.5)))
    print(
        f"paper: the binormal AP is unbiased only for balanced classes; reproduced: bias "
        f"{bias['binormal'][half]:+.4f} at 0.5, {bias['binormal'][0]:+.4f} at "
        f"{res.prevalences[0]:.2f}, {bias['binormal'][-1]:+.4f} at {res.prevalences[-1]:.2f}"
    )
    print(
        f"paper: alpha-binormal has the smallest bias; reproduced: largest |bias| "
        f"{np.max(np.abs(bias['alpha_binormal'])):.4f} (empirical "
        f"{np.max(np.abs(bias['empirical'])):.4f})"
    )
    mean, sem = res.mean(), res.sem()

    fig, (ax, ax_bias) = plt.subplots(1, 2, figsize=(11, 4.4))
    ax.plot(res.prevalences, res.true_average_precision, color="black", lw=2, label="truth")
    for key, (colour, ls, label) in STYLE.items():
        style = dict(yerr=2 * sem[key], color=colour, ls=ls, marker="o", ms=3, capsize=2)
        ax.errorbar(res.prevalences, mean[key], label=label, **style)
        ax_bias.errorbar(
            res.prevalences, mean[key] - res.true_average_precision, label=label, **style
        )
    ax.set(
        title=f"Mean AP over {res.n_simulations:,} simulations (n = {res.n})",
        xlabel="fraction of positives π₊",
        ylabel="average precision",
        ylim=(0, 1.02),
    )
    ax.legend(fontsize=8)
    ax_bias.axhline(0, color="black", lw=0.8)
    ax_bias.set(
        title="Bias (mean estimate − true AP, ±2 s.e.m.)",
        xlabel="fraction of positives π₊",
        ylabel="bias",
    )
    ax_bias.legend(fontsize=8)
    fig.tight_layout()
    out = Path(out_dir)
    out.mkdir(parents=True, exist_ok=True)
    path = out / "brodersen_fig2.png"
    fig.savefig(path, dpi=120)
    plt.close(fig)
    return path


if __name__ == "__main__":
    print(main(*sys.argv[1:2]))
