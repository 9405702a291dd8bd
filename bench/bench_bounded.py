"""Fixed-memory accumulator (issue 26 item 2): 10^8 streamed scores, error against its bound.

For each stream (binormal, heavy ties, adversarial interleaving) the scores arrive in chunks
of 10^6 and are never all in memory.  Reported: time, peak traced memory (tracemalloc, which
sees NumPy's buffers) of the streaming loop, the stated AP and DG-area bounds and the realised
errors against the exact values, and the ratio of the time to ``numpy.sort`` of as many
float64 values.  The exact values are computed without holding the stream: the score range is
cut into parts and each part's rows are counted exactly in a pass over the regenerated stream,
with the counts above it as offsets.

Then, at equal memory, torchmetrics' binned mode (``BinaryAveragePrecision(thresholds=1000)``:
a 1000 x 2 x 2 int64 state, 32 kB) against ``BoundedPRAccumulator(max_bins=1000)`` (32 bytes per
bin, 32 kB) on 10^7 rows of each stream (torchmetrics' update loops over its thresholds above
50,000 rows, so 10^8 would take minutes per stream).

Usage: ``python bench/bench_bounded.py [--n 100000000] [--max-bins 4096] [--quick]``.
"""

from __future__ import annotations

import argparse
import resource
import time
import tracemalloc
from collections.abc import Callable, Iterator

import numpy as np

from prcurve import BoundedPRAccumulator
from prcurve._core._counts import count_sorted
from prcurve._core._interpolation import dg_segment_areas

Chunk = tuple[np.ndarray, np.ndarray]


def _expit(x: np.ndarray) -> np.ndarray:
    return 1.0 / (1.0 + np.exp(-x))


def binormal(rng: np.random.Generator, m: int) -> Chunk:
    y = rng.random(m) < 0.05
    return y, _expit(rng.normal(size=m) + 1.5 * y)


def heavy_ties(rng: np.random.Generator, m: int) -> Chunk:
    y = rng.random(m) < 0.2
    return y, np.round(_expit(rng.normal(size=m) + y), 4)  # ~10^4 distinct scores


def adversarial(rng: np.random.Generator, m: int) -> Chunk:
    s = rng.random(m)
    # labels alternate at every 2^-20 of the score range (10% flipped): every bin is mixed
    return (np.floor(s * 2**20) % 2 == 0) ^ (rng.random(m) < 0.1), s


STREAMS: dict[str, Callable[[np.random.Generator, int], Chunk]] = {
    "binormal": binormal,
    "heavy ties": heavy_ties,
    "adversarial": adversarial,
}


def chunks(make: Callable[..., Chunk], n: int, chunk: int, seed: int) -> Iterator[Chunk]:
    rng = np.random.default_rng(seed)
    for start in range(0, n, chunk):
        yield make(rng, min(chunk, n - start))


def exact_areas(make: Callable[..., Chunk], n: int, chunk: int, seed: int, parts: int):
    """Exact AP and DG area of the stream, ``parts`` passes, one score range counted per pass."""
    _, s0 = next(chunks(make, n, chunk, seed))
    edges = np.unique(np.quantile(s0, np.linspace(0, 1, parts + 1)[1:-1]))
    edges = np.concatenate([[-np.inf], edges, [np.inf]])
    tp_above = fp_above = 0
    ap = dg = 0.0
    n_pos = 0
    for hi, lo in zip(edges[::-1][:-1], edges[::-1][1:], strict=True):  # from the top
        ys, ss = [], []
        for y, s in chunks(make, n, chunk, seed):
            keep = (s >= lo) & (s < hi)
            ys.append(y[keep])
            ss.append(s[keep])
        y, s = np.concatenate(ys), np.concatenate(ss)
        del ys, ss
        if s.shape[0] == 0:
            continue
        # one positive and one negative above every score (scores are in [0, 1]), removed below
        pad = np.array([True, False])
        c = count_sorted(np.concatenate([y, pad]), np.concatenate([s, [2.0, 2.0]]))
        tp = c.tp[1:] - 1 + tp_above
        fp = c.fp[1:] - 1 + fp_above
        prev_tp = np.concatenate([[tp_above], tp[:-1]])
        prev_fp = np.concatenate([[fp_above], fp[:-1]])
        ap += float(np.dot(tp - prev_tp, tp / (tp + fp)))
        dg += float(np.sum(dg_segment_areas(prev_tp, prev_fp, tp, fp)))
        tp_above, fp_above = int(tp[-1]), int(fp[-1])
        n_pos = tp_above
    return ap / n_pos, dg / n_pos


def stream_bounded(make, n, chunk, seed, max_bins):
    tracemalloc.start()
    t0 = time.perf_counter()
    acc = BoundedPRAccumulator(max_bins=max_bins)
    for y, s in chunks(make, n, chunk, seed):
        acc.update(y, s)
    result = acc.curve()
    seconds = time.perf_counter() - t0
    peak = tracemalloc.get_traced_memory()[1]
    tracemalloc.stop()
    return result, seconds, peak / 2**20, acc.nbytes


def numpy_sort_seconds(n: int) -> float:
    x = np.random.default_rng(0).random(n)
    t0 = time.perf_counter()
    np.sort(x)
    return time.perf_counter() - t0


def torchmetrics_row(make, n, chunk, seed, exact_ap):
    try:
        import torch
        from torchmetrics.classification import BinaryAveragePrecision
    except ImportError:
        return None
    torch.set_num_threads(1)  # a shared machine; prcurve's NumPy path is single-threaded too
    metric = BinaryAveragePrecision(thresholds=1000)
    t0 = time.perf_counter()
    for y, s in chunks(make, n, chunk, seed):
        metric.update(torch.from_numpy(s), torch.from_numpy(y.astype(np.int64)))
    value = float(metric.compute())
    return time.perf_counter() - t0, abs(value - exact_ap)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--n", type=int, default=10**8)
    parser.add_argument("--chunk", type=int, default=10**6)
    parser.add_argument("--max-bins", type=int, default=4096)
    parser.add_argument("--parts", type=int, default=10)
    parser.add_argument("--compare-n", type=int, default=10**7)
    parser.add_argument("--quick", action="store_true", help="tiny sizes (smoke test)")
    args = parser.parse_args()
    if args.quick:
        args.n, args.chunk, args.compare_n, args.parts = 200_000, 50_000, 100_000, 3
    sort_s = numpy_sort_seconds(args.n)
    print(
        f"n = {args.n:,} in chunks of {args.chunk:,}; max_bins = {args.max_bins}; "
        f"numpy.sort of n float64: {sort_s:.1f} s"
    )
    print(
        "| stream | time s | × np.sort | peak traced MB | state kB | AP bound | AP error "
        "| DG bound | DG error | precision bound |"
    )
    print("|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|")
    exact = {}
    for seed, (name, make) in enumerate(STREAMS.items()):
        result, seconds, peak_mb, state = stream_bounded(
            make, args.n, args.chunk, seed, args.max_bins
        )
        ap, dg = exact_areas(make, args.n, args.chunk, seed, args.parts)
        exact[name] = ap
        ap_err, dg_err = abs(result.auc() - ap), abs(result.auc("davis_goadrich") - dg)
        assert ap_err <= result.ap_bound and dg_err <= result.dg_bound, name
        print(
            f"| {name} | {seconds:.1f} | {seconds / sort_s:.2f} | {peak_mb:.1f} | "
            f"{state / 1024:.0f} | {result.ap_bound:.2e} | {ap_err:.2e} | "
            f"{result.dg_bound:.2e} | {dg_err:.2e} | {result.precision_bound:.3f} |"
        )
    print(
        f"peak RSS of the whole run so far: "
        f"{resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024:.0f} MB"
    )
    print(f"\nequal memory (32 kB), n = {args.compare_n:,}:")
    print(
        "| stream | bounded 1000 bins: time s | AP bound | AP error "
        "| torchmetrics 1000 thresholds: time s | AP error (no bound) |"
    )
    print("|---|---:|---:|---:|---:|---:|")
    for seed, (name, make) in enumerate(STREAMS.items()):
        result, seconds, _, _ = stream_bounded(make, args.compare_n, args.chunk, seed, 1000)
        ap, _ = exact_areas(make, args.compare_n, args.chunk, seed, 2)
        tm = torchmetrics_row(make, args.compare_n, args.chunk, seed, ap)
        tm_text = "not installed | –" if tm is None else f"{tm[0]:.1f} | {tm[1]:.2e}"
        print(
            f"| {name} | {seconds:.1f} | {result.ap_bound:.2e} | "
            f"{abs(result.auc() - ap):.2e} | {tm_text} |"
        )


if __name__ == "__main__":
    main()
