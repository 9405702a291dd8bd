"""Coverage of the intervals at a deployment prevalence π (band and paired comparison).

Fixed-seed Monte Carlo on a binormal model: negatives N(0, 1), positives N(μ, 1) (scorer A
μ = 1.5, scorer B μ = 1.0, independent noise), test sets of n instances drawn at random with
test-set prevalence 0.2, deployment prevalence π = 0.01 treated as known.  True curves at π:
precision_π(r) = π r / (π r + (1 − π) Φ(−μ − Φ⁻¹(1 − r))), true average precision at π its
integral over recall.  Rows:

* ``band at π``: the naive bootstrap band ``pr_confidence_band(method="bootstrap",
  prevalence=π)`` holds the true curve at π on its whole grid (recall 0.05–0.95); the next
  columns say where the misses happen (share of samples whose band misses the truth at some
  recall below 0.3, and at some recall of at least 0.3);
* ``compare at π``: the percentile interval of ``compare(..., prevalence=π)`` holds the true
  difference of average precision at π.

Each row gives the coverage of a nominal 95 % interval, its binomial standard error and the
Clopper–Pearson 95 % bounds; ``UNDER`` marks rows whose upper bound is below 0.95.

Usage::

    python bench/coverage_prevalence.py [--reps R] [--resamples B] [--n N ...] [--pi PI] [--quick]
"""

from __future__ import annotations

import argparse
import time

import numpy as np
from scipy import integrate, stats

from prcurve import compare, pr_confidence_band

MU_A, MU_B, TEST_PREVALENCE = 1.5, 1.0, 0.2


def true_precision(recall: np.ndarray, mu: float, pi: float) -> np.ndarray:
    """Binormal PR curve at prevalence π."""
    fpr = stats.norm.sf(mu + stats.norm.ppf(1 - recall))
    return pi * recall / (pi * recall + (1 - pi) * fpr)


def true_ap(mu: float, pi: float) -> float:
    value, _ = integrate.quad(lambda r: true_precision(np.array(r), mu, pi), 0, 1, limit=200)
    return float(value)


def bounds(hits: int, reps: int) -> tuple[float, float]:
    lo = stats.beta.ppf(0.025, hits, reps - hits + 1) if hits > 0 else 0.0
    hi = stats.beta.ppf(0.975, hits + 1, reps - hits) if hits < reps else 1.0
    return float(lo), float(hi)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--reps", type=int, default=200)
    parser.add_argument("--resamples", type=int, default=300)
    parser.add_argument("--n", type=int, action="append")
    parser.add_argument("--pi", type=float, default=0.01)
    parser.add_argument("--seed", type=int, default=2026)
    parser.add_argument("--quick", action="store_true", help="tiny sizes: a smoke test")
    args = parser.parse_args()
    if args.quick:
        args.reps, args.resamples, args.n = 3, 20, [250]
    sizes = args.n or [1000, 4000]
    pi, reps, b = args.pi, args.reps, args.resamples
    diff_true = true_ap(MU_A, pi) - true_ap(MU_B, pi)
    print(f"binormal μ_A={MU_A}, μ_B={MU_B}, test prevalence {TEST_PREVALENCE}, π={pi}")
    print(f"{reps} samples per row, {b} resamples; true AP difference at π {diff_true:.4f}")
    head = f"{'row':<16}{'n':>6}{'coverage':>10}{'s.e.':>7}{'CP 95%':>16}"
    print(head + f"{'miss r<0.3':>12}{'miss r≥0.3':>12}{'seconds':>9}")
    seeds = np.random.SeedSequence(args.seed)
    for n in sizes:
        gen = np.random.default_rng(seeds.spawn(1)[0])
        band_hits = compare_hits = low_miss = high_miss = 0
        t_band = t_cmp = 0.0
        for _ in range(reps):
            y = gen.random(n) < TEST_PREVALENCE
            noise = gen.normal(size=(2, n))
            a, s_b = noise[0] + MU_A * y, noise[1] + MU_B * y
            t0 = time.perf_counter()
            band = pr_confidence_band(
                y, a, method="bootstrap", prevalence=pi, n_resamples=b, rng=gen, num=100
            )
            t1 = time.perf_counter()
            res = compare(y, a, s_b, prevalence=pi, n_resamples=b, rng=gen, num=20)
            t_band += t1 - t0
            t_cmp += time.perf_counter() - t1
            truth = true_precision(band.recall, MU_A, pi)
            inside = band.band.contains(truth)
            band_hits += bool(np.all(inside))
            low_miss += bool(np.any(~inside[band.recall < 0.3]))
            high_miss += bool(np.any(~inside[band.recall >= 0.3]))
            compare_hits += bool(res.interval.contains(diff_true))
        for row, hits, secs, extra in (
            ("band at π", band_hits, t_band, (low_miss / reps, high_miss / reps)),
            ("compare at π", compare_hits, t_cmp, None),
        ):
            cov = hits / reps
            lo, hi = bounds(hits, reps)
            se = np.sqrt(cov * (1 - cov) / reps)
            flag = "  UNDER" if hi < 0.95 else ""
            cols = f"{extra[0]:>12.3f}{extra[1]:>12.3f}" if extra else f"{'':>12}{'':>12}"
            print(
                f"{row:<16}{n:>6}{cov:>10.3f}{se:>7.3f}   [{lo:.3f}, {hi:.3f}]"
                f"{cols}{secs:>9.1f}{flag}"
            )


if __name__ == "__main__":
    main()
