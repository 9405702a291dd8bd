"""Coverage of the 95 % sup-norm PR confidence bands: Hughes-Oliver Cases A and C.

For each case at prevalence π₊ = 1/11 and sample size n = 1,000, draws ``--repetitions``
samples, builds the band of :func:`prcurve.pr_confidence_band` over recall in [0.05, 0.95], and
counts how often the population PR curve lies inside it everywhere on the grid.  Bands:

* smoothed bootstrap, Algorithm 1 of Clémençon & Vayatis (2009), with p̃ = p̂ (the default:
  no importance weighting) and the fluctuations measured from the smoothed curve PR̃ (the
  default ``center="smoothed"``);
* the same with the fluctuations measured from PR̂ as printed in the paper
  (``center="empirical"``);
* the smoothed bootstrap with the paper's suggestion p̃ = 1/2 (importance weights γₙ) —
  optional, with ``--with-p-tilde-half``; the weights are then degenerate (a warning, silenced
  here, says so);
* the naive stratified bootstrap.

Run:  python examples/coverage_study.py [--repetitions 500] [--resamples 1000] [--seed 2026]
"""

from __future__ import annotations

import argparse
import time
import warnings

from prcurve import LowEffectiveSampleSizeWarning, cases, coverage_study


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repetitions", type=int, default=500)
    parser.add_argument("--resamples", type=int, default=1000)
    parser.add_argument("--n", type=int, default=1000)
    parser.add_argument("--seed", type=int, default=2026)
    parser.add_argument("--cases", nargs="*", default=["A", "C"])
    parser.add_argument("--recall-range", type=float, nargs=2, default=(0.05, 0.95))
    parser.add_argument("--with-p-tilde-half", action="store_true")
    args = parser.parse_args()

    settings = [
        ("smoothed_bootstrap", None, "smoothed"),
        ("smoothed_bootstrap", None, "empirical"),
        ("bootstrap", None, None),
    ]
    if args.with_p_tilde_half:
        settings.insert(2, ("smoothed_bootstrap", 0.5, "smoothed"))
    print(
        f"95 % sup-norm bands over recall {tuple(args.recall_range)}, n = {args.n}, "
        f"prevalence 1/11, {args.repetitions} repetitions, {args.resamples} resamples each"
    )
    header = (
        f"{'case':<5}{'method':<20}{'p_tilde':>8}{'center':>10}{'coverage':>10}"
        f"{'95% MC interval':>20}{'mean radius':>13}{'seconds':>9}"
    )
    print(header)
    print("-" * len(header))
    for name in args.cases:
        model = getattr(cases, name)(1 / 11)
        for method, p_tilde, center in settings:
            options: dict = {} if p_tilde is None else {"p_tilde": p_tilde}
            if center is not None:
                options["center"] = center
            t0 = time.perf_counter()
            with warnings.catch_warnings():
                warnings.simplefilter("ignore", LowEffectiveSampleSizeWarning)
                res = coverage_study(
                    model,
                    args.n,
                    n_repetitions=args.repetitions,
                    method=method,
                    n_resamples=args.resamples,
                    recall_range=tuple(args.recall_range),
                    rng=args.seed,
                    **options,
                )
            seconds = time.perf_counter() - t0
            pt = "p̂" if p_tilde is None and method != "bootstrap" else (p_tilde or "-")
            ci = f"[{res.interval.low:.3f}, {res.interval.high:.3f}]"
            print(
                f"{name:<5}{method:<20}{pt!s:>8}{center or '-':>10}{res.coverage:>10.3f}{ci:>20}"
                f"{res.mean_radius:>13.3f}{seconds:>9.1f}",
                flush=True,
            )


if __name__ == "__main__":
    main()
