"""Cost of DeLong's interval, the paired DeLong test and the partial ROC AUC at scale.

Run:  python bench/bench_delong.py [--n 1000000] [--quick]

One seeded binormal data set (prevalence 0.3, scores rounded to 4 decimals so that ties occur)
and a second, correlated scorer.  Rows, each the best of three runs:

* ``numpy.sort`` of the scores (the floor of any exact method);
* scikit-learn ``roc_auc_score`` (the AUC alone, no variance);
* prcurve ``roc_auc_delong`` (AUC, DeLong variance and interval);
* prcurve ``delong_test`` (two scorers, covariance of the paired placements);
* prcurve ``partial_roc_auc(max_fpr=0.1)`` and scikit-learn ``roc_auc_score(max_fpr=0.1)``;
* the naive O(n₊n₋) placement computation (every pair compared), timed on a subsample of
  ``--naive-n`` rows and extrapolated quadratically to n (said so).

``--quick``: n = 100 000 (a smoke run).
"""

from __future__ import annotations

import argparse
import time

import numpy as np

from prcurve import delong_test, partial_roc_auc, roc_auc_delong


def timed(fn, repeat: int = 3) -> float:
    best = np.inf
    for _ in range(repeat):
        t0 = time.perf_counter()
        fn()
        best = min(best, time.perf_counter() - t0)
    return best


def naive_variance(y: np.ndarray, s: np.ndarray) -> float:
    """DeLong's variance by comparing every (positive, negative) pair."""
    x, z = s[y], s[~y]
    psi = (x[:, None] > z[None, :]) + 0.5 * (x[:, None] == z[None, :])
    v10, v01 = psi.mean(axis=1), psi.mean(axis=0)
    return float(np.var(v10, ddof=1) / v10.size + np.var(v01, ddof=1) / v01.size)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--n", type=int, default=1_000_000)
    parser.add_argument("--naive-n", type=int, default=10_000)
    parser.add_argument("--quick", action="store_true", help="n = 100 000")
    args = parser.parse_args()
    n = 100_000 if args.quick else args.n
    gen = np.random.default_rng(0)
    y = gen.random(n) < 0.3
    a = np.round(gen.normal(size=n) + y, 4)
    b = np.round(0.7 * a + 0.7 * gen.normal(size=n) + 0.3 * y, 4)

    from sklearn.metrics import roc_auc_score

    rows = [
        ("numpy.sort", timed(lambda: np.sort(a))),
        ("sklearn roc_auc_score", timed(lambda: roc_auc_score(y, a))),
        ("prcurve roc_auc_delong", timed(lambda: roc_auc_delong(y, a))),
        ("prcurve delong_test (2 scorers)", timed(lambda: delong_test(y, a, b))),
        ("prcurve partial_roc_auc(max_fpr=0.1)", timed(lambda: partial_roc_auc(y, a, max_fpr=0.1))),
        ("sklearn roc_auc_score(max_fpr=0.1)", timed(lambda: roc_auc_score(y, a, max_fpr=0.1))),
    ]
    m = min(args.naive_n, n)
    t_naive = timed(lambda: naive_variance(y[:m], a[:m]), repeat=1)
    rows.append((f"naive O(n₊n₋), {m} rows × ({n}/{m})²", t_naive * (n / m) ** 2))
    print(f"n = {n}, prevalence 0.3, scores rounded to 4 decimals")
    for name, sec in rows:
        print(f"{name:<48}{sec * 1e3:>12.1f} ms")


if __name__ == "__main__":
    main()
