"""Cost of ``operating_point`` (with and without bootstrap intervals) and of partial / deployment
AUC-PR, against ``numpy.sort`` and scikit-learn measured in the same run.

Run:  python bench/bench_operating_point.py [--n 1000000] [--resamples 1000]
      [--sklearn-replicates 3] [--repeat 5] [--quick]

Every time is the median of ``--repeat`` calls (robust to a disturbed call on a shared machine);
the ratios to ``numpy.sort`` (median of the same number of sorts) are the steadier figures under
load.  ``--quick``: 20,000 rows, 50 resamples, one call each (a smoke test).

One seeded binormal data set (prevalence 0.1, scores rounded to 4 decimals so that ties occur).
Rows:

* ``numpy.sort`` of the scores (the floor of any exact method);
* scikit-learn: ``precision_recall_curve`` then the highest recall with precision >= 0.8 (what
  a user writes by hand; no interval);
* prcurve ``operating_point(min_precision=0.8)``, no interval;
* prcurve ``operating_point(min_precision=0.8, interval="bootstrap")`` with ``--resamples``
  replicates (every replicate re-chooses its threshold);
* the same bootstrap done with scikit-learn: per replicate, resample the instances (stratified),
  ``precision_recall_curve``, choose; a few replicates timed and extrapolated (said so);
* the report's shared bootstrap: six targets (precision >= 0.5/0.8/0.9, recall >= 0.5/0.8/0.9)
  from one bootstrap;
* ``auc_pr(recall_range=(0.2, 0.8))`` and ``auc_pr(prevalence=0.001)``, and ``auc_pr_ci`` of
  the partial area with ``--resamples`` replicates.
"""

from __future__ import annotations

import argparse
import os
import statistics
import time

import numpy as np

from prcurve import auc_pr, auc_pr_ci, operating_point
from prcurve._inference._operating_ci import operating_points


def timed(fn, repeat: int) -> float:
    """Median wall time of ``repeat`` calls."""
    times = []
    for _ in range(repeat):
        t0 = time.perf_counter()
        fn()
        times.append(time.perf_counter() - t0)
    return statistics.median(times)


def sklearn_choice(y, s, target=0.8):
    from sklearn.metrics import precision_recall_curve

    p, r, t = precision_recall_curve(y, s)
    ok = p[:-1] >= target
    return t[ok][np.argmax(r[:-1][ok])] if ok.any() else None


def sklearn_bootstrap(y, s, replicates, rng):
    pos, neg = np.flatnonzero(y), np.flatnonzero(~y)
    out = []
    for _ in range(replicates):
        idx = np.concatenate(
            [rng.choice(pos, pos.size, replace=True), rng.choice(neg, neg.size, replace=True)]
        )
        out.append(sklearn_choice(y[idx], s[idx]))
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--n", type=int, default=1_000_000)
    parser.add_argument("--resamples", type=int, default=1000)
    parser.add_argument("--sklearn-replicates", type=int, default=3)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--repeat", type=int, default=5, help="calls per row (median)")
    parser.add_argument("--quick", action="store_true", help="20,000 rows, B = 50, one call")
    args = parser.parse_args()
    if args.quick:
        args.n, args.resamples, args.repeat, args.sklearn_replicates = 20_000, 50, 1, 1
    rng = np.random.default_rng(args.seed)
    n, b, r = args.n, args.resamples, args.repeat
    y = rng.random(n) < 0.1
    s = np.round(rng.normal(size=n) + 2 * y, 4)

    rows: list[tuple[str, float, str]] = []
    t_sort = timed(lambda: np.sort(s), repeat=r)
    rows.append(("numpy.sort", t_sort, ""))
    t_sk = timed(lambda: sklearn_choice(y, s), repeat=r)
    rows.append(("scikit-learn precision_recall_curve + choice", t_sk, ""))
    t_op = timed(lambda: operating_point(y, s, min_precision=0.8), repeat=r)
    rows.append(("prcurve operating_point, no interval", t_op, ""))
    t_boot = timed(
        lambda: operating_point(
            y, s, min_precision=0.8, interval="bootstrap", n_resamples=b, rng=1
        ),
        r,
    )
    rows.append((f"prcurve operating_point, bootstrap B={b}", t_boot, ""))
    k = args.sklearn_replicates
    t_skb = timed(lambda: sklearn_bootstrap(y, s, k, np.random.default_rng(2)), r) * b / k
    rows.append((f"scikit-learn bootstrap B={b}", t_skb, f"extrapolated from {k} replicates"))
    targets = [("min_precision", p) for p in (0.5, 0.8, 0.9)]
    targets += [("min_recall", r) for r in (0.5, 0.8, 0.9)]
    t_six = timed(lambda: operating_points(y, s, targets, n_resamples=b, rng=3), r)
    rows.append((f"prcurve 6 targets, one bootstrap B={b}", t_six, "the report's table"))
    t_pa = timed(lambda: auc_pr(y, s, recall_range=(0.2, 0.8)), repeat=r)
    rows.append(("prcurve auc_pr recall_range=(0.2, 0.8)", t_pa, ""))
    t_pi = timed(lambda: auc_pr(y, s, prevalence=0.001), repeat=r)
    rows.append(("prcurve auc_pr prevalence=0.001", t_pi, ""))
    t_pci = timed(
        lambda: auc_pr_ci(
            y, s, interval="bootstrap_percentile", recall_range=(0.2, 0.8), n_resamples=b, rng=4
        ),
        r,
    )
    rows.append((f"prcurve auc_pr_ci partial, B={b}", t_pci, ""))

    print(
        f"n = {n:,} (prevalence 0.1, scores rounded to 4 decimals), B = {b}; "
        f"medians of {r} call(s); CPUs available: {len(os.sched_getaffinity(0))}"
    )
    header = f"{'task':<48}{'seconds':>10}{'/ np.sort':>11}{'/ sklearn':>11}  note"
    print(header)
    print("-" * len(header))
    for name, sec, note in rows:
        ref = t_skb if "bootstrap" in name or "B=" in name else t_sk
        print(f"{name:<48}{sec:>10.3f}{sec / t_sort:>11.1f}{sec / ref:>11.3f}  {note}")
    print("(/ sklearn: against scikit-learn's bootstrap for bootstrap rows, else its one curve)")


if __name__ == "__main__":
    main()
