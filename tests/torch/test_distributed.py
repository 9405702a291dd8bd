"""Two CPU processes on the gloo backend: the synced metric equals ``pr_curve`` on all the data.

One spawn (``torch.multiprocessing``, a file store on the local disk, no ``torchrun``) runs
every scenario: uneven batch counts per rank, a rank that sees no data, ranks that each see one
class only, empty batches, half-precision ties with sample weights, a rank with weights and one
without, and random splits at random batch boundaries.  Both ranks must get the curve of the
pooled data -- counts equal bit for bit to :func:`prcurve.pr_curve` -- and the operating points
:func:`prcurve.operating_point` chooses on it.
"""

import itertools
import pickle
import time

import numpy as np
import pytest

import prcurve
from prcurve import pr_curve

from ..conftest import import_reference
from . import _workers

TARGETS = [("min_precision", 0.7), ("top_k", 50), ("max_fpr", 0.1)]


def _batches(y, s, w, cuts):
    edges = [0, *cuts, y.shape[0]]
    return [(s[a:b], y[a:b], None if w is None else w[a:b]) for a, b in itertools.pairwise(edges)]


def _scenarios():
    rng = np.random.default_rng(20261126)
    n = 3000
    y = rng.random(n) < 0.15
    y[:2] = True, False
    s = (rng.normal(size=n) + 1.3 * y).astype(np.float32)
    half = np.round(s, 1).astype(np.float16)  # heavy ties
    w = rng.integers(0, 9, size=n) / 4  # exact sums; some zero weights
    out = []  # (name, options, per-rank batches, expected data (y, s, w))

    def add(name, rank0, rank1, data, **options):
        out.append((name, options, [rank0, rank1], data))

    cuts = [10, 300, 301, 900, 1500, 2000]
    add("uneven_batches", _batches(y[:2100], s[:2100], None, cuts),
        _batches(y[2100:], s[2100:], None, [400]), (y, s, None),
        operating_points=TARGETS)  # fmt: skip
    add("rank1_sees_nothing", _batches(y, s, None, [1000, 2000]), [], (y, s, None))
    add(
        "one_class_per_rank",
        _batches(y[y], s[y], None, [100]),
        _batches(y[~y], s[~y], None, [5, 1000]),
        (y, s, None),
    )
    empty = (s[:0], y[:0], None)
    add("empty_batches", [empty, *_batches(y[:10], s[:10], None, [])],
        [empty, *_batches(y[10:], s[10:], None, [7, 8]), empty], (y, s, None))  # fmt: skip
    add("half_ties_weights", _batches(y[:900], half[:900], w[:900], [50, 51]),
        _batches(y[900:], half[900:], w[900:], [1000]), (y, half, w),
        operating_points=TARGETS)  # fmt: skip
    mixed = np.concatenate([w[:1200], np.ones(n - 1200)])
    add("weights_on_one_rank", _batches(y[:1200], s[:1200], w[:1200], [600]),
        _batches(y[1200:], s[1200:], None, [100]), (y, s, mixed))  # fmt: skip
    for k in range(4):  # random splits: rows shuffled, random cut, random batch boundaries
        perm = rng.permutation(n)
        yk, sk = y[perm], s[perm]
        cut = int(rng.integers(0, n + 1))
        c0 = np.sort(rng.integers(0, cut + 1, size=int(rng.integers(0, 8))))
        c1 = np.sort(rng.integers(0, n - cut + 1, size=int(rng.integers(0, 8))))
        add(f"random_split_{k}", _batches(yk[:cut], sk[:cut], None, list(c0)),
            _batches(yk[cut:], sk[cut:], None, list(c1)), (y, s, None))  # fmt: skip
    return out


def _spawn(torch, tmp_path, scenarios, timeout=300.0):
    import torch.multiprocessing as mp

    args = (2, str(tmp_path / "store"), str(tmp_path), scenarios)
    context = mp.start_processes(
        _workers.run, args=args, nprocs=2, join=False, start_method="spawn"
    )
    deadline = time.monotonic() + timeout
    while not context.join(timeout=1.0):
        if time.monotonic() > deadline:
            for p in context.processes:
                p.terminate()
            pytest.fail(f"the two gloo processes did not finish within {timeout:.0f} s")
    return [pickle.loads((tmp_path / f"rank{r}.pkl").read_bytes()) for r in range(2)]


@pytest.fixture(scope="module")
def synced(tmp_path_factory):
    torch = import_reference("torch", required_by="PRCURVE_CI_TORCH", install="'.[torch,test]'")
    scenarios = _scenarios()
    sent = [(name, options, per_rank) for name, options, per_rank, _ in scenarios]
    results = _spawn(torch, tmp_path_factory.mktemp("gloo"), sent)
    return {
        name: (data, options, [r[name] for r in results]) for name, options, _, data in scenarios
    }


SCENARIOS = [name for name, *_ in _scenarios()]


@pytest.mark.parametrize("name", SCENARIOS)
def test_synced_result_equals_pr_curve_on_all_data(synced, name):
    (y, s, w), options, per_rank = synced[name]
    expected = pr_curve(y, s.astype(np.float64), sample_weight=w)
    for rank, (result, _) in enumerate(per_rank):
        curve = result.curve
        np.testing.assert_array_equal(curve.thresholds, expected.thresholds, err_msg=f"rank {rank}")
        np.testing.assert_array_equal(curve.tp, expected.tp, err_msg=f"rank {rank}")
        np.testing.assert_array_equal(curve.fp, expected.fp, err_msg=f"rank {rank}")
        assert (curve.n_pos, curve.n_neg) == (expected.n_pos, expected.n_neg)
        assert result.average_precision == pytest.approx(expected.auc(), rel=1e-12)
        assert result.davis_goadrich == pytest.approx(expected.auc("davis_goadrich"), rel=1e-12)
        for point, (criterion, target) in zip(
            result.operating_points, options.get("operating_points", ()), strict=True
        ):
            assert point == prcurve.operating_point(
                y, s.astype(np.float64), sample_weight=w, **{criterion: target}
            )
    # each rank held only its own data: the sync, not the feeding, pooled them
    totals = [local for _, local in per_rank]
    assert totals[0][0] + totals[1][0] == pytest.approx(expected.n_pos)


def test_a_rank_alone_would_miss_a_class(synced):
    """The pooled curve exists though neither rank's own data has both classes."""
    _, _, per_rank = synced["one_class_per_rank"]
    assert per_rank[0][1][1] == 0 and per_rank[1][1][0] == 0  # (n_pos, n_neg) held locally
