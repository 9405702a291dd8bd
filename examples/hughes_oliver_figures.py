"""
Hughes-Oliver: Figures 3-11
===========================

Reproduce the figures of Hughes-Oliver, "Population and empirical PR curves".

Figures 3-6: densities, ROC and PR curves (π₊ = 1/2 and 1/11) of Cases A-F.
Figures 7-11: histograms of the functional estimator PR̂(x), x = 0.1, ..., 1, for
n = 100, 500, 1000 (5000 replicates each), with kernel densities and normal approximations.

Usage::

    python examples/hughes_oliver_figures.py [OUTPUT_DIR] [--replicates R] [--seed S]

PNG files are written to OUTPUT_DIR (default ``./figures``).
"""

from __future__ import annotations

import argparse
import time
from pathlib import Path

import matplotlib

matplotlib.use("Agg")

import matplotlib.pyplot as plt

from prcurve import cases, simulate_pr_estimator
from prcurve.plot import PopulationCurvesDisplay, PRSimulationDisplay

POPULATION_FIGURES = {
    "figure3_cases_A_B": (["A", "B"], [-1.0, 0.0, 0.7, 1.0, 1.5, 2.0, 3.0, 4.0], (-4.0, 8.5)),
    "figure4_case_C": (["C"], None, None),
    "figure5_cases_D_E": (["D", "E"], None, None),
    "figure6_case_F": (["F"], None, None),
}
# figure: (case, skew)
SIMULATION_FIGURES = {
    "figure7_case_A_skew10": ("A", 10),
    "figure8_case_C_skew10": ("C", 10),
    "figure9_case_F_skew1": ("F", 1),
    "figure10_case_D_skew4": ("D", 4),
    "figure11_case_B_skew1": ("B", 1),
}
SIZES = (100, 500, 1000)


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description="Reproduce the figures of Hughes-Oliver.")
    parser.add_argument("output", nargs="?", default="figures", help="output directory")
    parser.add_argument("--replicates", type=int, default=5000, help="Monte Carlo replicates")
    parser.add_argument("--seed", type=int, default=20261121, help="random seed")
    args = parser.parse_args(argv)
    out = Path(args.output)
    out.mkdir(parents=True, exist_ok=True)

    for stem, (names, thresholds, score_range) in POPULATION_FIGURES.items():
        models = [cases.CASES[n](0.5) for n in names]
        disp = PopulationCurvesDisplay.from_model(
            models,
            names=[f"Case {n}" for n in names],
            prevalences=(0.5, 1 / 11),
            thresholds=thresholds,
            score_range=score_range,
        )
        disp.figure_.tight_layout()
        disp.figure_.savefig(out / f"{stem}.png", dpi=110)
        plt.close(disp.figure_)
        print(f"wrote {out / (stem + '.png')}")

    for stem, (name, skew) in SIMULATION_FIGURES.items():
        model = cases.CASES[name](1 / (1 + skew))
        start = time.perf_counter()
        sims = [
            simulate_pr_estimator(model, n, n_replicates=args.replicates, rng=args.seed + n)
            for n in SIZES
        ]
        elapsed = time.perf_counter() - start
        disp = PRSimulationDisplay.from_simulation(
            sims, title=f"Case {name}, skew = {skew}: PR̂(x), {args.replicates} replicates"
        )
        disp.figure_.tight_layout()
        disp.figure_.savefig(out / f"{stem}.png", dpi=110)
        plt.close(disp.figure_)
        print(f"wrote {out / (stem + '.png')} (simulation {elapsed:.2f} s)")


if __name__ == "__main__":
    main()
