"""Benchmark: expected cost, cost curve and net benefit at 10^6 rows, against the baselines.

Usage: python bench/bench_cost.py [--quick] [--sizes 1e6] [--repeat 3]

For each size (with and without heavy ties) the best-of-repeat wall time of, measured in the
same run:

* ``np.sort``: sorting the scores once (the floor of any exact method);
* ``expected_cost`` (every threshold's cost and the best one) and ``cost_curve`` (the envelope
  from the ROC hull), against the naive route: scikit-learn's ``roc_curve`` then the least line
  over a 101-point PC grid (one (101, k) array);
* ``net_benefit`` at 99 threshold probabilities against the naive loop (one pass over the
  scores per p_t, as decision-curve code usually does) and ``dcurves.dca`` when installed;
* ``net_benefit(interval="bootstrap")`` with 100 resamples.

Ratios are times divided by the ``np.sort`` time; ``x naive`` is the naive time over ours.
``--quick``: 10^5 rows, one repeat, no dcurves.
"""

from __future__ import annotations

import argparse
import time
from functools import partial

import numpy as np

import prcurve

P_T = np.round(np.arange(1, 100) / 100, 2)


def best_time(func, repeat):
    best, out = np.inf, None
    for _ in range(repeat):
        t0 = time.perf_counter()
        out = func()
        best = min(best, time.perf_counter() - t0)
    return best, out


def naive_cost_curve(y, s):
    from sklearn.metrics import roc_curve

    fpr, tpr, _ = roc_curve(y, s, drop_intermediate=False)
    grid = np.linspace(0, 1, 101)
    return (fpr[None, :] + ((1 - tpr) - fpr)[None, :] * grid[:, None]).min(axis=1)


def naive_net_benefit(y, p):
    n = y.shape[0]
    out = np.empty(P_T.shape[0])
    for i, t in enumerate(P_T):
        flag = p >= t
        tp = np.count_nonzero(flag & y)
        out[i] = tp / n - (np.count_nonzero(flag) - tp) / n * t / (1 - t)
    return out


def dcurves_net_benefit(y, p):
    import dcurves
    import pandas as pd

    frame = pd.DataFrame({"y": y.astype(int), "p": p})
    return dcurves.dca(data=frame, outcome="y", modelnames=["p"], thresholds=P_T)


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sizes", nargs="+", type=float, default=[1e6])
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--quick", action="store_true")
    args = parser.parse_args(argv)
    sizes, repeat = ([1e5], 1) if args.quick else (args.sizes, args.repeat)
    try:
        import dcurves  # noqa: F401

        have_dcurves = not args.quick
    except ImportError:
        have_dcurves = False
    rng = np.random.default_rng(0)
    prcurve.net_benefit([0, 1], [0.2, 0.7])  # load the lazily imported modules before timing
    rows = []
    for size in sizes:
        n = int(size)
        y = rng.random(n) < 0.1
        for ties in (False, True):
            x = rng.normal(size=n) + 1.5 * y
            p = 1 / (1 + np.exp(-(x - 3.0)))
            if ties:
                p = np.round(p, 3)
            nb_args = {"threshold_probabilities": P_T}
            boot_args = {**nb_args, "interval": "bootstrap", "n_resamples": 100, "rng": 0}
            t_sort, _ = best_time(partial(np.sort, p), repeat)
            t_ec, _ = best_time(partial(prcurve.expected_cost, y, p, cost_fp=1, cost_fn=9), repeat)
            t_cc, cc = best_time(partial(prcurve.cost_curve, y, p), repeat)
            t_ncc, ref = best_time(partial(naive_cost_curve, y, p), repeat)
            assert np.allclose(cc.at(np.linspace(0, 1, 101)), ref, atol=1e-12)
            t_nb, nb = best_time(partial(prcurve.net_benefit, y, p, **nb_args), repeat)
            t_nnb, ref_nb = best_time(partial(naive_net_benefit, y, p), repeat)
            assert np.allclose(nb.net_benefit, ref_nb, atol=1e-12)
            t_dc = best_time(partial(dcurves_net_benefit, y, p), 1)[0] if have_dcurves else None
            t_boot, _ = best_time(partial(prcurve.net_benefit, y, p, **boot_args), 1)
            rows.append((n, ties, t_sort, t_ec, t_cc, t_ncc, t_nb, t_nnb, t_dc, t_boot))
    print(
        f"{'n':>8} {'ties':>4} {'np.sort s':>9} | {'exp_cost s':>10} {'/sort':>5} | "
        f"{'cost_curve s':>12} {'/sort':>5} {'x naive':>7} | {'net_ben s':>9} {'/sort':>5} "
        f"{'x loop':>6} {'x dcurves':>9} | {'boot100 s':>9}"
    )
    for n, ties, ts, tec, tcc, tncc, tnb, tnnb, tdc, tb in rows:
        dc = f"{tdc / tnb:>9.1f}" if tdc is not None else f"{'-':>9}"
        print(
            f"{n:>8} {'yes' if ties else 'no':>4} {ts:>9.4f} | {tec:>10.4f} {tec / ts:>5.1f} | "
            f"{tcc:>12.4f} {tcc / ts:>5.1f} {tncc / tcc:>7.1f} | {tnb:>9.4f} {tnb / ts:>5.1f} "
            f"{tnnb / tnb:>6.1f} {dc} | {tb:>9.3f}"
        )


if __name__ == "__main__":
    main()
