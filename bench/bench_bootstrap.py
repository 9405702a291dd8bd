"""Speed of the bootstrap engine against resampling + scikit-learn.

Run:  python bench/bench_bootstrap.py [--n 100000] [--replicates 1000] [--sklearn-replicates 10]

Times, on one seeded binormal data set (prevalence 0.1):

* prcurve: 1,000 stratified-bootstrap replicates of the whole curve (TP and FP of every
  replicate at every threshold) plus average precision, through the one-sort engine;
* prcurve: ``auc_pr_ci(interval="bootstrap_percentile")`` (AP only, the public path);
* scikit-learn: per replicate, resample indices, then ``precision_recall_curve`` and
  ``average_precision_score``; a few replicates are timed and the time is extrapolated to
  1,000 (said so in the table);
* the sup-norm bands: ``pr_confidence_band`` with the smoothed bootstrap (Algorithm 1 of
  Clémençon & Vayatis; its replicates draw only the order statistics the grid needs) and with
  the naive bootstrap;
* the smoothed band at ``--band-large-n`` (default 10⁶) rows with ``--replicates`` resamples,
  beside ``numpy.sort`` of the same scores in the same run (issue 26: ≤ 10 s at 10⁶ × 1,000),
  with the load average (a shared machine makes every time pessimistic).
"""

from __future__ import annotations

import argparse
import os
import time

import numpy as np

from prcurve import auc_pr_ci, pr_confidence_band
from prcurve._core._area import batched_area
from prcurve._inference._resample import bootstrap_blocks, positive_columns, prepare


def _timed(fn, repeat: int = 1) -> float:
    best = np.inf
    for _ in range(repeat):
        t0 = time.perf_counter()
        fn()
        best = min(best, time.perf_counter() - t0)
    return best


def engine_curves_and_ap(y, s, n_resamples, seed):
    sample = prepare(y, s)
    cols = positive_columns(sample)
    ap = np.empty(n_resamples)
    done = 0
    for tp, fp, npos, _ in bootstrap_blocks(sample, n_resamples, np.random.default_rng(seed)):
        # tp, fp: the whole curve of every replicate in the block, shape (b, k)
        b = tp.shape[0]
        ap[done : done + b] = batched_area(tp[:, cols], fp[:, cols], npos, "average_precision")
        done += b
    return ap


def sklearn_replicates(y, s, n_resamples, seed):
    from sklearn.metrics import average_precision_score, precision_recall_curve

    gen = np.random.default_rng(seed)
    pos, neg = np.flatnonzero(y), np.flatnonzero(~y)
    out = np.empty(n_resamples)
    for r in range(n_resamples):
        idx = np.r_[gen.choice(pos, pos.size), gen.choice(neg, neg.size)]
        precision_recall_curve(y[idx], s[idx])
        out[r] = average_precision_score(y[idx], s[idx])
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--n", type=int, default=100_000)
    parser.add_argument("--replicates", type=int, default=1000)
    parser.add_argument("--sklearn-replicates", type=int, default=10)
    parser.add_argument("--band-n", type=int, nargs="*", default=[10_000, 100_000])
    parser.add_argument("--band-large-n", type=int, default=1_000_000)
    parser.add_argument("--quick", action="store_true", help="5,000 rows, 20 replicates")
    args = parser.parse_args()
    if args.quick:
        args.n, args.replicates, args.sklearn_replicates, args.band_n = 5_000, 20, 2, [2_000]
        args.band_large_n = 20_000

    gen = np.random.default_rng(20261121)
    n, b = args.n, args.replicates
    y = gen.random(n) < 0.1
    s = gen.normal(size=n) + 1.5 * y

    rows = []
    t_engine = _timed(lambda: engine_curves_and_ap(y, s, b, 1), repeat=2)
    rows.append((f"prcurve engine: {b} replicates, whole curve + AP", n, t_engine, "measured"))
    t_ci = _timed(
        lambda: auc_pr_ci(y, s, interval="bootstrap_percentile", n_resamples=b, rng=1), repeat=2
    )
    rows.append((f"prcurve auc_pr_ci bootstrap_percentile ({b})", n, t_ci, "measured"))
    k = args.sklearn_replicates
    t_sk = _timed(lambda: sklearn_replicates(y, s, k, 1)) * b / k
    rows.append((f"resample + sklearn PR curve + AP ({b})", n, t_sk, f"extrapolated from {k}"))
    for m in args.band_n:
        yy, ss = y[:m], s[:m]
        t_sm = _timed(lambda yy=yy, ss=ss: pr_confidence_band(yy, ss, n_resamples=b, rng=1))
        rows.append((f"pr_confidence_band smoothed_bootstrap ({b})", m, t_sm, "measured"))
        t_nb = _timed(
            lambda yy=yy, ss=ss: pr_confidence_band(
                yy, ss, method="bootstrap", n_resamples=b, rng=1
            )
        )
        rows.append((f"pr_confidence_band bootstrap ({b})", m, t_nb, "measured"))

    big = args.band_large_n
    yb = gen.random(big) < 0.1
    sb = gen.normal(size=big) + 1.5 * yb
    t_sort = _timed(lambda: np.sort(sb), repeat=3)
    t_big = _timed(lambda: pr_confidence_band(yb, sb, n_resamples=b, rng=1), repeat=2)
    rows.append((f"pr_confidence_band smoothed_bootstrap ({b})", big, t_big, "measured"))
    rows.append(("numpy.sort of the same scores", big, t_sort, "measured"))

    # sanity: the engine's AP replicates have the spread sklearn's have
    ap = engine_curves_and_ap(y, s, 200, 2)
    sk = sklearn_replicates(y, s, 50, 3)

    width = max(len(r[0]) for r in rows)
    print(f"{'task':<{width}}  {'n':>8}  {'seconds':>8}  note")
    for task, size, sec, note in rows:
        print(f"{task:<{width}}  {size:>8}  {sec:>8.3f}  {note}")
    print()
    print(f"speed-up of the engine over resampling + scikit-learn: {t_sk / t_engine:.1f}x")
    print(
        f"smoothed band at n = {big}, {b} resamples: {t_big:.2f} s = {t_big / t_sort:.0f}x "
        f"numpy.sort (load average {os.getloadavg()[0]:.1f})"
    )
    print(
        f"AP replicates: prcurve mean {ap.mean():.4f} sd {ap.std():.4f} | "
        f"sklearn mean {sk.mean():.4f} sd {sk.std():.4f}"
    )


if __name__ == "__main__":
    main()
