"""Benchmark: Brodersen et al. (2010) Fig. 2 study and the bi-distribution fits.

Target: the whole Fig. 2 study (>= 10 class-imbalance levels x 1,000 simulations of n = 100)
in under a minute on 2 cores.  Run ``python bench/bench_binormal.py [--quick]`` (``--quick``:
20 simulations, fits on 2,000 rows, one call each: a smoke test).
"""

from __future__ import annotations

import argparse
import os
import time

import numpy as np

from prcurve import PopulationModel, fit_bidistribution, simulate_brodersen_fig2
from prcurve._parametric._brodersen import DEFAULT_PREVALENCES


def timed(fn, repeat=3):
    """Best wall-clock time of ``repeat`` runs (and the result)."""
    best, out = np.inf, None
    for _ in range(repeat):
        t0 = time.perf_counter()
        out = fn()
        best = min(best, time.perf_counter() - t0)
    return best, out


def cpu_seconds(fn):
    """CPU time of the process for one run (insensitive to other load on the machine)."""
    t0 = time.process_time()
    fn()
    return time.process_time() - t0


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="tiny sizes, one call each")
    args = parser.parse_args()
    sims, fit_n, repeat = (20, 2_000, 1) if args.quick else (1000, 100_000, 3)
    print(f"cores available: {os.cpu_count()}")
    print()
    print("Brodersen Fig. 2: mean AP of three estimators vs class imbalance (n = 100)")
    seconds, res = timed(lambda: simulate_brodersen_fig2(n_simulations=sims, rng=2010), repeat)
    print(res.table())
    levels, sims = len(DEFAULT_PREVALENCES), res.n_simulations
    cpu = cpu_seconds(lambda: simulate_brodersen_fig2(n_simulations=sims, rng=2010))
    print(
        f"\n{levels} levels x {sims} simulations = {levels * sims:,} data sets: "
        f"{seconds:.2f} s wall (best of 3), {cpu:.2f} s CPU "
        f"(target < 60 s) -> {'OK' if seconds < 60 else 'TOO SLOW'}"
    )

    print("\nScaling of the study with the sample size n (11 levels x 1,000 simulations)")
    print(f"{'n':>7} {'wall s':>9} {'CPU s':>9}")
    for n in (100,) if args.quick else (100, 1_000, 10_000):
        t0 = time.perf_counter()
        cpu = cpu_seconds(lambda n=n: simulate_brodersen_fig2(n=n, n_simulations=sims, rng=1))
        print(f"{n:>7} {time.perf_counter() - t0:>9.2f} {cpu:>9.2f}")

    print(f"\nOne fit per family (n = {fit_n:,}, prevalence 0.1)")
    from scipy import stats

    laws = {
        "normal": (stats.norm(0, 1), stats.norm(1, 1)),
        "lognormal": (stats.lognorm(0.5), stats.lognorm(0.5, scale=2.0)),
        "logistic": (stats.logistic(0, 1), stats.logistic(1, 1)),
        "gamma": (stats.gamma(2), stats.gamma(4)),
        "beta": (stats.beta(2, 5), stats.beta(5, 2)),
    }
    print(f"{'family':>10} {'fit s':>8} {'AP s':>8} {'AP':>8} {'true AP':>8}")
    for name, (neg, pos) in laws.items():
        model = PopulationModel(neg, pos, prevalence=0.1)
        y, s = model.sample(fit_n, rng=0)
        sec, fit = timed(lambda y=y, s=s, name=name: fit_bidistribution(y, s, family=name), repeat)
        sec_ap, ap = timed(fit.average_precision, repeat)
        print(f"{name:>10} {sec:>8.3f} {sec_ap:>8.4f} {ap:>8.4f} {model.auc_pr():>8.4f}")
    y, s = PopulationModel(stats.lognorm(0.5), stats.lognorm(0.5, scale=2.0), 0.1).sample(
        fit_n, rng=0
    )
    sec, fit = timed(lambda: fit_bidistribution(y, s, transform="box-cox"), repeat)
    print(f"{'box-cox':>10} {sec:>8.3f}   lambda = {fit.params['lambda']:.4f}")


if __name__ == "__main__":
    main()
