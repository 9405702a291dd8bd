"""Issue 17's before/after coverage table: every setting under both bootstrap sampling models.

``[stratified]`` is the library before issue 17 (class counts held fixed in every bootstrap);
``[instances]`` is the default after it (n₊* ~ Bin(n, p̂)).  Labels are drawn at random in every
repetition, so n₊ varies as in the issue's study.  Each row: coverage of a nominal 95 % interval,
its binomial standard error and Clopper–Pearson 95 % bounds; for ``compare`` the rejection
rate of the paired test on two exchangeable scorers (its size, nominal 0.05) is printed too.

Usage::

    python bench/coverage_before_after.py [--reps R] [--resamples B] [--settings a,b,...] [--quick]

Settings: ap_small (binormal π=0.3, n=200, AP≈0.34 — the lowest AP the binormal reaches at
π=0.3 without being random), ap_large (binormal π=0.3, n=2000, AP≈0.70), pointwise
(Case A π=1/11, n=5000, recall 0.8/0.9), compare (Case A π=0.05, n=500, n₊≈25),
ap_smallpos (Case A π=0.05, n=500: AUC-PR intervals at n₊≈25).

The AUC-PR rows include two logit-scale bootstrap intervals the library does not offer
(``logit-se``: expit(logit θ̂ ± z·sd(logit θ*)); ``logit-t``: bootstrap-t on the logit scale
studentized by Boyd's standard error), measured to decide whether to offer them.
"""

from __future__ import annotations

import argparse
import time

from scipy import stats

from prcurve import PopulationModel, cases
from prcurve._inference._interval_coverage import interval_coverage

SETTINGS = {  # key: (title, model factory, n, groups, recall levels)
    "ap_small": (
        "binormal π=0.3, n=200, AP≈0.34",
        lambda: PopulationModel(stats.norm(0, 1), stats.norm(0.2, 1), 0.3),
        200, ("auc",), (0.5,),
    ),
    "ap_large": (
        "binormal π=0.3, n=2000, AP≈0.70",
        lambda: PopulationModel(stats.norm(0, 1), stats.norm(1.4, 1), 0.3),
        2000, ("auc",), (0.5,),
    ),
    "pointwise": (
        "Case A π=1/11, n=5000", lambda: cases.A(1 / 11), 5000, ("pointwise",), (0.8, 0.9),
    ),
    "compare": ("Case A π=0.05, n=500 (n₊≈25)", lambda: cases.A(0.05), 500, ("compare",), (0.5,)),
    "ap_smallpos": ("Case A π=0.05, n=500 (n₊≈25)", lambda: cases.A(0.05), 500, ("auc",), (0.5,)),
}  # fmt: skip


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--reps", type=int, default=200)
    parser.add_argument("--resamples", type=int, default=500)
    parser.add_argument("--settings", default="ap_small,ap_large,pointwise,compare,ap_smallpos")
    parser.add_argument("--seed", type=int, default=17)
    parser.add_argument("--quick", action="store_true", help="tiny sizes: a smoke test")
    args = parser.parse_args()
    if args.quick:
        args.reps, args.resamples, args.settings = 4, 20, "ap_small"
    print(
        f"# {args.reps} repetitions per cell, {args.resamples} bootstrap replicates, "
        f"nominal 0.95, seed {args.seed}; [stratified] = before, [instances] = after"
    )
    print(
        f"| {'setting':<32} | {'interval':<30} | {'recall':>6} | {'reps':>4} | {'coverage':>8} "
        f"| {'se':>5} | {'CP 95 %':>13} | {'width':>6} |"
    )
    for key in args.settings.split(","):
        title, make, n, groups, recall = SETTINGS[key]
        start = time.perf_counter()
        rows = interval_coverage(
            make(), n, n_repetitions=args.reps, groups=groups, recall=recall,
            n_resamples=args.resamples, rng=args.seed, candidates=True,
        )  # fmt: skip
        for r in rows:
            rec = "" if r.recall is None else f"{r.recall:.1f}"
            extra = f" (size {1 - r.coverage:.3f})" if r.interval.startswith("compare") else ""
            print(
                f"| {title:<32} | {r.interval:<30} | {rec:>6} | {r.n_valid:>4} | "
                f"{r.coverage:8.3f} | {r.standard_error:5.3f} | {r.low:.3f}–{r.high:.3f} | "
                f"{r.mean_width:6.3f} |{extra}",
                flush=True,
            )
        print(f"# {title}: {time.perf_counter() - start:.0f} s", flush=True)


if __name__ == "__main__":
    main()
