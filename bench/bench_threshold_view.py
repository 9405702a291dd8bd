"""Cost of ``threshold_view`` (with and without bootstrap bands) against ``numpy.sort`` and
scikit-learn, measured in the same run.

Run:  python bench/bench_threshold_view.py [--n 1000000] [--resamples 200] [--quick]

One seeded binormal data set (prevalence 0.1, scores rounded to 4 decimals so that ties occur).
Rows:

* ``numpy.sort`` of the scores (the floor of any exact method);
* scikit-learn: ``precision_recall_curve`` and ``roc_curve(drop_intermediate=False)`` (what a
  user combines by hand for precision, recall and FPR per threshold; F_β and the queue rate
  are then a few array operations, not timed);
* prcurve ``threshold_view`` without bands (all five metrics at every distinct threshold);
* prcurve ``threshold_view(n_resamples=B)``: pointwise bands on 256 thresholds;
* the naive bootstrap: per replicate, resample the rows and call ``precision_recall_curve`` and
  ``roc_curve`` again, then read the metrics at the original thresholds by binary search; a
  few replicates timed and extrapolated to B (said so).

``--quick``: 10⁵ rows, 50 replicates (a smoke run for CI).
"""

from __future__ import annotations

import argparse
import time

import numpy as np

from prcurve import threshold_view


def timed(fn, repeat: int = 1) -> float:
    best = np.inf
    for _ in range(repeat):
        t0 = time.perf_counter()
        fn()
        best = min(best, time.perf_counter() - t0)
    return best


def sklearn_view(y, s):
    from sklearn.metrics import precision_recall_curve, roc_curve

    p, r, t = precision_recall_curve(y, s)
    fpr, _, t_roc = roc_curve(y, s, drop_intermediate=False)
    return p, r, t, fpr, t_roc


def naive_replicate(y, s, thresholds, rng):
    """One replicate the naive way: resample rows, recount with scikit-learn, read at t."""
    idx = rng.integers(0, y.shape[0], y.shape[0])
    p, r, t, fpr, t_roc = sklearn_view(y[idx], s[idx])
    at = np.clip(np.searchsorted(t, thresholds), 0, t.shape[0] - 1)
    at_roc = np.clip(np.searchsorted(-t_roc, -thresholds, side="right") - 1, 0, None)
    return p[at], r[at], fpr[at_roc]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--n", type=int, default=1_000_000)
    parser.add_argument("--resamples", type=int, default=200)
    parser.add_argument("--naive-replicates", type=int, default=3)
    parser.add_argument("--quick", action="store_true", help="10^5 rows, 50 replicates")
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args()
    if args.quick:
        args.n, args.resamples = 100_000, 50
    rng = np.random.default_rng(args.seed)
    n, b = args.n, args.resamples
    y = rng.random(n) < 0.1
    s = np.round(rng.normal(size=n) + 2 * y, 4)
    view = threshold_view(y, s)

    rows: list[tuple[str, float, str]] = []
    t_sort = timed(lambda: np.sort(s), repeat=3)
    rows.append(("numpy.sort", t_sort, ""))
    t_sk = timed(lambda: sklearn_view(y, s), repeat=2)
    rows.append(("scikit-learn precision_recall_curve + roc_curve", t_sk, ""))
    t_tv = timed(lambda: threshold_view(y, s), repeat=2)
    rows.append(("prcurve threshold_view (no bands)", t_tv, ""))
    t_band = timed(lambda: threshold_view(y, s, n_resamples=b, rng=1))
    rows.append((f"prcurve threshold_view, {b} replicates", t_band, ""))
    grid = view.thresholds[np.linspace(0, view.thresholds.shape[0] - 1, 256).astype(int)]
    k = args.naive_replicates
    gen = np.random.default_rng(2)
    t_naive = timed(lambda: [naive_replicate(y, s, grid, gen) for _ in range(k)]) / k * b
    rows.append((f"naive loop, {b} replicates", t_naive, f"({k} timed, extrapolated)"))

    print(f"n = {n:,} rows, {view.thresholds.shape[0]:,} distinct thresholds, prevalence 0.1")
    print(f"{'method':<52} {'seconds':>9} {'÷ sort':>8} {'÷ sklearn':>10}")
    for name, sec, note in rows:
        print(f"{name:<52} {sec:9.4f} {sec / t_sort:8.1f} {sec / t_sk:10.2f}  {note}")
    print(f"bootstrap speed-up over the naive loop: {t_naive / t_band:.1f}x")


if __name__ == "__main__":
    main()
