"""
Data that does not fit in memory: Dask and the accumulator
==========================================================

prcurve's curve depends only on the positive and negative weight at each distinct score, so it
stays exact out of core.  ``prcurve.dask`` computes it from dask arrays (here 2·10⁶ rows in 20
chunks, on Dask's local scheduler), and ``PRAccumulator`` does the same for a stream of batches
merged across workers; both equal ``prcurve.pr_curve`` on all the rows.
See :doc:`/guide/big-data`.
"""

import dask.array as da
import numpy as np

import prcurve
import prcurve.dask

rng = np.random.default_rng(26)
n = 2_000_000
y = rng.random(n) < 0.01
score = np.round(rng.normal(size=n) + 2 * y, 3)  # rounded: about 10^4 distinct scores

# %%
# Dask arrays
# -----------

dy = da.from_array(y, chunks=n // 20)
ds = da.from_array(score, chunks=n // 20)
# max_points above the number of distinct scores: the full curve, not a thinned one
lazy = prcurve.dask.pr_curve(dy, ds, scheduler="sync", max_points=20_000)
exact = prcurve.pr_curve(y, score)
print(f"operating points {lazy.thresholds.size}")
print(f"AP on dask {lazy.auc():.6f}, in memory {exact.auc():.6f}")
assert np.array_equal(lazy.tp, exact.tp) and np.array_equal(lazy.fp, exact.fp)

# %%
# A stream of batches, two workers, one merge
# -------------------------------------------

a, b = prcurve.PRAccumulator(), prcurve.PRAccumulator()
for i, start in enumerate(range(0, n, 250_000)):
    batch = slice(start, start + 250_000)
    (a if i % 2 else b).update(y[batch], score[batch])
merged = a.merge(b).curve()
print(f"accumulator AP {merged.auc():.6f}; davis_goadrich {merged.auc('davis_goadrich'):.6f}")
assert np.array_equal(merged.tp, exact.tp)
