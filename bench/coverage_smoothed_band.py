"""Coverage of the smoothed-bootstrap band (``pr_confidence_band`` default), for before/after runs.

Every repetition draws a sample from a population model with its own seeded generator (the
samples do not depend on the band's code), computes the default 95 % band with a second seeded
generator, and checks whether the population PR curve (interpolated reading, 100 recall levels
in [0.05, 0.95]) lies inside everywhere.  Run it against two versions of the library with the
same arguments (e.g. ``PYTHONPATH=/path/to/old/src``) to compare them on identical samples.

Each row: coverage, its binomial standard error, Clopper–Pearson 95 % bounds, mean radius and
the seconds spent in ``pr_confidence_band``.

Usage::

    python bench/coverage_smoothed_band.py [--reps R] [--resamples B] [--n N] [--models a,b]
                                           [--quick]

Models: binormal (N(0,1)/N(1.5,1), π = 0.3), caseA (Hughes-Oliver Case A, π = 1/11), rounded
(the binormal rounded to one decimal, π = 0.2).
"""

from __future__ import annotations

import argparse
import os
import time

import numpy as np
from scipy import stats

from prcurve import PopulationModel, cases, pr_confidence_band
from prcurve._inference._interval_coverage import population_precision


def _rounded_binormal(shift: float, prevalence: float) -> PopulationModel:
    grid = np.round(np.arange(-6.0, 7.5 + shift, 0.1), 1)
    edges = np.r_[grid - 0.05, grid[-1] + 0.05]

    def law(mu: float) -> stats.rv_discrete:
        p = np.diff(stats.norm.cdf(edges, mu))
        return stats.rv_discrete(values=(grid, p / p.sum()))

    return PopulationModel(law(0.0), law(shift), prevalence)


MODELS = {
    "binormal": lambda: PopulationModel(stats.norm(0, 1), stats.norm(1.5, 1), 0.3),
    "caseA": lambda: cases.A(1 / 11),
    "rounded": lambda: _rounded_binormal(1.4, 0.2),
}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--reps", type=int, default=300)
    parser.add_argument("--resamples", type=int, default=500)
    parser.add_argument("--n", type=int, default=1000)
    parser.add_argument("--models", default="binormal,caseA,rounded")
    parser.add_argument("--seed", type=int, default=20261126)
    parser.add_argument("--quick", action="store_true", help="tiny sizes: a smoke test")
    args = parser.parse_args()
    if args.quick:
        args.reps, args.resamples, args.n, args.models = 4, 20, 300, "binormal"
    grid = np.linspace(0.05, 0.95, 100)
    print(
        f"# smoothed-bootstrap 95 % band: {args.reps} samples per model, {args.resamples} "
        f"resamples, n = {args.n}, seed {args.seed}, load average {os.getloadavg()[0]:.1f}"
    )
    print(f"{'model':<9} {'cover':>6} {'se':>6} {'CP low':>6} {'CP hi':>6} {'radius':>7} {'s':>6}")
    for key in args.models.split(","):
        model = MODELS[key]()
        truth = population_precision(model, grid, ties="interpolate")
        seeds = np.random.SeedSequence([args.seed, len(key)]).spawn(args.reps)
        hits, radii, spent = 0, [], 0.0
        for seq in seeds:
            data_seq, band_seq = seq.spawn(2)
            y, s = model.sample(args.n, rng=np.random.default_rng(data_seq))
            t0 = time.perf_counter()
            band = pr_confidence_band(
                y, s, n_resamples=args.resamples, num=grid.size, rng=np.random.default_rng(band_seq)
            )
            spent += time.perf_counter() - t0
            hits += band.contains(truth)
            radii.append(band.radius)
        cover = hits / args.reps
        lo, hi = stats.binomtest(hits, args.reps).proportion_ci(0.95)
        se = np.sqrt(cover * (1 - cover) / args.reps)
        print(
            f"{key:<9} {cover:6.3f} {se:6.3f} {lo:6.3f} {hi:6.3f} {np.mean(radii):7.4f} "
            f"{spent:6.1f}"
        )


if __name__ == "__main__":
    main()
