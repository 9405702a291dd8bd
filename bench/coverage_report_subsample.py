"""Coverage of the report's AP bootstrap, band and comparison when they come from a subsample.

``prcurve report`` on large data runs its bootstrap of average precision, its confidence band and
its paired comparison on a stratified subsample of m rows (``_reporting.analysis._sizing.plan``: m =
``WORK[task] / 200``, at least ``MIN_POSITIVES`` positives) and moves the result back to all n
rows: the centres come from all rows, the fluctuations are scaled by √(m/n)
(``rescale_interval``, ``rescale_band``, ``rescale_comparison``).  This script runs exactly that
code path (the report's ``_bootstrap_task``, ``_band_task``, ``_compare_task`` on
``_sizing.subsample`` rows, then the ``rescale_*`` functions) on samples of a binormal model and
counts how often each 95 % interval covers its population value, for several subsample sizes on
the same samples (paired):

* model: negatives N(0, 1), labels drawn at random with prevalence 0.05; scorer A's positives
  N(1.5, 1); scorer B = 1.2·y + ρe₁ + √(1 − ρ²)e₂ and scorer C = 1.5·y + ρe₁ + √(1 − ρ²)e₃, with
  e₁ A's noise and ρ = 0.5 (paired, correlated scorers; C is exchangeable with A);
* AP: the percentile bootstrap interval of A's average precision against the population
  AUC-PR ∫ precision d recall (quadrature);
* band: A's 95 % band holds the population PR curve at every grid recall (simultaneous);
* difference: the interval of AP(A) − AP(B) covers the population difference;
* size: the comparison of A with C (population difference 0) rejects at p < 0.05.

Coverage is printed with its binomial standard error √(c(1 − c)/R).  ``--budget`` lists the
work factors to try (1 = the current ``WORK``; 0.5 = half of it); ``--min-positives`` the floor
of positives in a subsample (the current ``MIN_POSITIVES`` by default); a budget large enough
resamples every row (m = n, 200 replicates: the baseline).  ``--steps`` selects the steps.  Each
distinct (step, m) is computed once per sample.

Run:  nice -n 10 python bench/coverage_report_subsample.py [--n 400000] [--repetitions 200]
      [--budget 1 0.5] [--min-positives 1000 500] [--seed 5] [--steps band ...]

Measured results are in the docstring of ``prcurve._reporting.analysis._sizing``.
"""

from __future__ import annotations

import argparse
import math
import time

import numpy as np
from scipy import integrate, stats

from prcurve._core._counts import count_sorted
from prcurve._core._empirical import PRCurve
from prcurve._reporting.analysis._analysis import (
    BOOTSTRAP_METHOD,
    _band_task,
    _bootstrap_task,
    _compare_task,
)
from prcurve._reporting.analysis._sizing import (
    MIN_POSITIVES,
    MIN_RESAMPLES,
    WORK,
    Plan,
    rescale_band,
    rescale_comparison,
    rescale_interval,
    subsample,
)

PI, MU_A, MU_B, RHO = 0.05, 1.5, 1.2, 0.5
LEVEL = 0.95
STEPS = ("auc_pr_bootstrap", "band", "compare")


def population_ap(mu: float) -> float:
    """∫ precision d recall of the binormal model (negatives N(0, 1), positives N(mu, 1))."""

    def integrand(t: float) -> float:
        r, f = stats.norm.sf(t - mu), stats.norm.sf(t)
        return float(PI * r / (PI * r + (1 - PI) * f) * stats.norm.pdf(t - mu))

    return float(integrate.quad(integrand, -12, mu + 12, limit=200, epsabs=1e-12)[0])


def population_precision(mu: float, recall: np.ndarray) -> np.ndarray:
    t = mu - stats.norm.ppf(recall)
    f = stats.norm.sf(t)
    return PI * recall / (PI * recall + (1 - PI) * f)


def rows(task: str, n: int, n_pos: int, factor: float, min_pos: int) -> int:
    """The subsample size of ``_sizing.plan`` with ``WORK[task] * factor`` and ``min_pos``."""
    work = int(WORK[task] * factor)
    if n * MIN_RESAMPLES <= work:
        return n
    return int(min(n, max(work // MIN_RESAMPLES, math.ceil(min_pos * n / max(n_pos, 1)))))


def _step(task, m, n, rep, seed, y, a, b, c, curves, truths):
    """One step on a stratified subsample of ``m`` rows, rescaled to all ``n`` rows as the
    report does: ``[(what, hit, width), ...]``."""
    p = Plan(task, MIN_RESAMPLES, m, n)
    ss = np.random.SeedSequence([seed, rep, m])
    idx = subsample(y, m, ss.spawn(1)[0])
    sub = (lambda v: v) if idx is None else (lambda v: v[idx])
    truth_a, truth_diff = truths
    if task == "auc_pr_bootstrap":
        res, _ = _bootstrap_task(sub(y), sub(a), None, LEVEL, MIN_RESAMPLES, ss)
        ci = rescale_interval(res, curves["a"].auc(BOOTSTRAP_METHOD), curves["a"].n_pos, p).interval
        return [("AP interval", ci.low <= truth_a <= ci.high, ci.high - ci.low)]
    if task == "band":
        (band, _), _ = _band_task(sub(y), sub(a), None, LEVEL, MIN_RESAMPLES, ss)
        band = rescale_band(band, curves["a"], p)
        true = population_precision(MU_A, band.recall)
        ok = bool(np.all((band.band.low <= true) & (true <= band.band.high)))
        return [("band (simultaneous)", ok, 2 * band.radius)]
    out = []
    for other, s in (("b", b), ("c", c)):
        res, _ = _compare_task(sub(y), sub(a), sub(s), None, LEVEL, MIN_RESAMPLES, ss, "x")
        res = rescale_comparison(res, curves["a"], curves[other], p)
        ci = res.interval
        if other == "b":
            out.append(("difference A − B", ci.low <= truth_diff <= ci.high, ci.high - ci.low))
        else:
            out.append(("size A vs C (p < 0.05)", res.p_value < 0.05, ci.high - ci.low))
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--n", type=int, default=400_000)
    parser.add_argument("--repetitions", type=int, default=200)
    parser.add_argument("--budget", type=float, nargs="+", default=[1.0, 0.5])
    parser.add_argument("--min-positives", type=int, nargs="+", default=[MIN_POSITIVES])
    parser.add_argument("--seed", type=int, default=5)
    parser.add_argument("--steps", nargs="+", default=list(STEPS), choices=STEPS)
    args = parser.parse_args()
    n = args.n
    truth_a, truth_b = population_ap(MU_A), population_ap(MU_B)
    variants = [(f, mp) for f in args.budget for mp in args.min_positives]
    gen = np.random.default_rng(args.seed)
    # hits[(what, m)] = list of 0/1; widths likewise
    hits: dict[tuple[str, float, int], list[bool]] = {}
    widths: dict[tuple[str, float, int], list[float]] = {}
    sizes: dict[tuple[str, float, int], list[int]] = {}
    truths = (truth_a, truth_a - truth_b)
    t0 = time.perf_counter()
    for rep in range(args.repetitions):
        y = gen.random(n) < PI
        e1 = gen.standard_normal(n)
        a = MU_A * y + e1
        b = MU_B * y + RHO * e1 + math.sqrt(1 - RHO**2) * gen.standard_normal(n)
        c = MU_A * y + RHO * e1 + math.sqrt(1 - RHO**2) * gen.standard_normal(n)
        n_pos = int(np.count_nonzero(y))
        curves = {
            k: PRCurve.from_counts(count_sorted(y, s, None))
            for k, s in (("a", a), ("b", b), ("c", c))
        }
        done: dict[tuple[str, int], list[tuple[str, bool, float]]] = {}
        for factor, mp in variants:
            for task in args.steps:
                m = rows(task, n, n_pos, factor, mp)
                if (task, m) not in done:
                    done[(task, m)] = _step(task, m, n, rep, args.seed, y, a, b, c, curves, truths)
                for what, hit, width in done[(task, m)]:
                    key = (what, factor, mp)
                    hits.setdefault(key, []).append(hit)
                    widths.setdefault(key, []).append(width)
                    sizes.setdefault(key, []).append(m)
    seconds = time.perf_counter() - t0
    print(
        f"n = {n:,}, prevalence {PI}, {args.repetitions} samples, {MIN_RESAMPLES} resamples, "
        f"seed {args.seed}; {seconds:.0f} s; population AP(A) = {truth_a:.4f}, "
        f"AP(B) = {truth_b:.4f}"
    )
    print(
        f"{'interval':24s} {'budget':>6s} {'min+':>5s} {'mean m':>8s} {'m/n':>6s} {'rate':>7s} "
        f"{'s.e.':>6s} {'mean width':>10s}"
    )
    for key, h in sorted(hits.items(), key=lambda kv: (kv[0][0], -kv[0][1], -kv[0][2])):
        what, factor, mp = key
        r, m = float(np.mean(h)), float(np.mean(sizes[key]))
        se = math.sqrt(r * (1 - r) / len(h))
        w = float(np.mean(widths[key]))
        print(f"{what:24s} {factor:6g} {mp:5d} {m:8,.0f} {m / n:6.3f} {r:7.3f} {se:6.3f} {w:10.5f}")


if __name__ == "__main__":
    main()
