"""Coverage of the net-benefit intervals of ``prcurve.net_benefit`` (fixed-seed simulation).

Binormal model with a calibrated score: x | y ~ N(δ·y, 1), δ = 1.5, test-set prevalence 0.2,
score = the true posterior P(y = 1 | x) = expit(logit π₀ + δx − δ²/2).  Flagging ``score >= p_t``
is flagging ``x >= x_t`` with ``x_t = (logit p_t − logit π₀ + δ²/2)/δ``, so the true rates are
TPR = Φ(δ − x_t), FPR = Φ(−x_t) and the true net benefit at prevalence π is
``π·TPR − (1 − π)·FPR·p_t/(1 − p_t)`` (treat all: ``π − (1 − π)·p_t/(1 − p_t)``).  Rows:

* ``data π``: no ``prevalence`` (π = the sample's, varying with it; ``sampling="instances"``);
* ``known π``: ``prevalence=0.05`` given as a number;
* ``counted π``: ``prevalence=(k, m)`` with k ~ Bin(m = 400, 0.05) drawn for each data set
  (the Beta(k + ½, m − k + ½) draws carry the uncertainty of π).

Each cell is the coverage of a nominal 95 % percentile interval with its binomial standard
error; ``UNDER`` marks cells whose Clopper–Pearson upper bound is below 0.95.

Usage::

    python bench/coverage_net_benefit.py [--reps R] [--resamples B] [--n N ...] [--seed S]
"""

from __future__ import annotations

import argparse
import time

import numpy as np
from scipy import stats

from prcurve import net_benefit

DELTA, PI0 = 1.5, 0.2
P_T = np.array([0.02, 0.05, 0.1, 0.2, 0.35])
DEPLOY = 0.05


def truth(p_t: np.ndarray, pi: float) -> tuple[np.ndarray, np.ndarray]:
    """True net benefit of ``score >= p_t`` and of treating all, at prevalence π."""
    x_t = (np.log(p_t / (1 - p_t)) - np.log(PI0 / (1 - PI0)) + DELTA**2 / 2) / DELTA
    tpr, fpr = stats.norm.sf(x_t - DELTA), stats.norm.sf(x_t)
    odds = p_t / (1 - p_t)
    return pi * tpr - (1 - pi) * fpr * odds, pi - (1 - pi) * odds


def bounds(hits: int, reps: int) -> tuple[float, float]:
    lo = stats.beta.ppf(0.025, hits, reps - hits + 1) if hits > 0 else 0.0
    hi = stats.beta.ppf(0.975, hits + 1, reps - hits) if hits < reps else 1.0
    return float(lo), float(hi)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--reps", type=int, default=400)
    parser.add_argument("--resamples", type=int, default=300)
    parser.add_argument("--n", type=int, action="append")
    parser.add_argument("--seed", type=int, default=2026)
    args = parser.parse_args()
    sizes = args.n or [200, 1000]
    rng = np.random.default_rng(args.seed)
    print(f"reps={args.reps} resamples={args.resamples} seed={args.seed}; columns p_t = "
          + ", ".join(f"{p:g}" for p in P_T) + "; last column: treat all")  # fmt: skip
    for n in sizes:
        for label in ("data π", "known π", "counted π"):
            pi_true = PI0 if label == "data π" else DEPLOY
            nb_true, all_true = truth(P_T, pi_true)
            hits = np.zeros(P_T.shape[0] + 1, dtype=int)
            start = time.perf_counter()
            for _ in range(args.reps):
                y = rng.random(n) < PI0
                x = rng.normal(size=n) + DELTA * y
                p = 1 / (1 + np.exp(-(np.log(PI0 / (1 - PI0)) + DELTA * x - DELTA**2 / 2)))
                prevalence: object = None
                if label == "known π":
                    prevalence = DEPLOY
                elif label == "counted π":
                    k = int(np.clip(rng.binomial(400, DEPLOY), 1, 399))
                    prevalence = (k, 400)
                nb = net_benefit(
                    y, p, threshold_probabilities=P_T, prevalence=prevalence,
                    interval="bootstrap", n_resamples=args.resamples, rng=rng,
                )  # fmt: skip
                lo, hi = nb.net_benefit_interval
                hits[:-1] += (lo <= nb_true) & (nb_true <= hi)
                lo_a, hi_a = nb.treat_all_interval
                hits[-1] += bool(np.all((lo_a <= all_true) & (all_true <= hi_a)))
            cells = []
            for h in hits:
                cov = h / args.reps
                se = np.sqrt(cov * (1 - cov) / args.reps)
                flag = " UNDER" if bounds(int(h), args.reps)[1] < 0.95 else ""
                cells.append(f"{cov:.3f}±{se:.3f}{flag}")
            took = time.perf_counter() - start
            print(f"n={n:5d} {label:9s} " + "  ".join(cells) + f"   ({took:.1f} s)")


if __name__ == "__main__":
    main()
