"""``prcurve.torch.PRCurveMetric`` in one process: tensors of every dtype in, the exact curve out.

The reference is :func:`prcurve.pr_curve` on all the data at once (counts bit for bit),
scikit-learn's AP and :func:`prcurve.operating_point`.  torch is installed by its own CI job
(env var ``PRCURVE_CI_TORCH``), where a missing torch fails; elsewhere these tests are skipped.
"""

import numpy as np
import pytest

import prcurve
from prcurve import PRAccumulator, pr_curve
from prcurve.torch import PRCurveMetric, PRMetricResult

from ..conftest import import_reference


@pytest.fixture(scope="module")
def torch():
    return import_reference("torch", required_by="PRCURVE_CI_TORCH", install="'.[torch,test]'")


def _data(rng, n=2000, digits=None):
    y = rng.random(n) < 0.2
    y[:2] = True, False
    s = rng.normal(size=n) + 1.5 * y
    return y, (np.round(s, digits) if digits is not None else s)


def _feed(metric, torch, y, s, batches, *, dtype, target_dtype, weight=None):
    for part in np.array_split(np.arange(y.shape[0]), batches):
        w = None if weight is None else torch.from_numpy(weight[part])
        metric.update(
            torch.from_numpy(s[part]).to(dtype), torch.from_numpy(y[part]).to(target_dtype), w
        )


def _assert_same_curve(curve, expected):
    np.testing.assert_array_equal(curve.thresholds, expected.thresholds)
    np.testing.assert_array_equal(curve.tp, expected.tp)
    np.testing.assert_array_equal(curve.fp, expected.fp)
    assert (curve.n_pos, curve.n_neg) == (expected.n_pos, expected.n_neg)


@pytest.mark.parametrize("dtype_name", ["float16", "bfloat16", "float32", "float64"])
@pytest.mark.parametrize("target_name", ["bool", "int64", "int32", "uint8", "float32"])
def test_every_score_and_target_dtype_gives_pr_curve_of_all_data(
    torch, rng, dtype_name, target_name
):
    dtype, target_dtype = getattr(torch, dtype_name), getattr(torch, target_name)
    y, s = _data(rng)
    metric = PRCurveMetric()
    _feed(metric, torch, y, s, 7, dtype=dtype, target_dtype=target_dtype)
    # the scores as the tensors hold them (half precision rounds, and makes ties)
    held = torch.from_numpy(s).to(dtype).to(torch.float64).numpy()
    expected = pr_curve(y, held)
    result = metric.compute()
    assert isinstance(result, PRMetricResult)
    _assert_same_curve(result.curve, expected)
    if dtype_name in ("float16", "bfloat16"):
        assert expected.thresholds.shape[0] < np.unique(s).shape[0]  # rounding made ties
    sk = pytest.importorskip("sklearn.metrics")
    assert result.average_precision == pytest.approx(sk.average_precision_score(y, held), rel=1e-12)
    assert result.davis_goadrich == pytest.approx(
        prcurve.auc_pr(y, held, method="davis_goadrich"), rel=1e-12
    )


def test_images_are_flattened_like_torchmetrics(torch, rng):
    y, s = _data(rng, n=4 * 3 * 5 * 6)
    metric = PRCurveMetric()
    for k in range(3):  # three batches of 4 images of 5 x 6 pixels... of 2 x 2 images here
        part = slice(k * 120, (k + 1) * 120)
        metric.update(
            torch.from_numpy(s[part]).reshape(2, 2, 5, 6),
            torch.from_numpy(y[part]).reshape(2, 2, 5, 6),
        )
    _assert_same_curve(metric.compute().curve, pr_curve(y, s))


def test_weights_equal_the_weighted_pr_curve(torch, rng):
    y, s = _data(rng, digits=1)
    w = rng.integers(0, 9, size=y.shape[0]) / 4  # exact sums: identical curves; zeros dropped
    metric = PRCurveMetric()
    _feed(metric, torch, y, s, 5, dtype=torch.float64, target_dtype=torch.int64, weight=w)
    _assert_same_curve(metric.compute().curve, pr_curve(y, s, sample_weight=w))


def test_logits_keep_their_units_no_sigmoid_merges_them(torch):
    """torchmetrics' sigmoid saturates in float32 above ~17: 20 and 30 would tie at 1.0."""
    preds = torch.tensor([30.0, 20.0, 0.5, -3.0], dtype=torch.float32)
    metric = PRCurveMetric()
    metric.update(preds, torch.tensor([1, 0, 1, 0]))
    curve = metric.compute().curve
    np.testing.assert_array_equal(curve.thresholds, [30.0, 20.0, 0.5, -3.0])
    np.testing.assert_array_equal(curve.tp, [1, 1, 2, 2])


def test_compute_leaves_the_state_and_reset_empties_it(torch, rng):
    y, s = _data(rng)
    metric = PRCurveMetric()
    metric.update(torch.from_numpy(s[:700]), torch.from_numpy(y[:700]))
    first = metric.compute()
    assert metric.compute().average_precision == first.average_precision
    metric.update(torch.from_numpy(s[700:]), torch.from_numpy(y[700:]))
    _assert_same_curve(metric.compute().curve, pr_curve(y, s))
    metric.reset()
    with pytest.raises(ValueError, match="y_true: expected at least one sample"):
        metric.compute()
    metric.update(torch.from_numpy(s[:700]), torch.from_numpy(y[:700]))
    _assert_same_curve(metric.compute().curve, first.curve)


def test_batches_of_one_class_and_empty_batches_are_fine(torch, rng):
    y, s = _data(rng)
    metric = PRCurveMetric()
    metric.update(torch.zeros(0), torch.zeros(0, dtype=torch.bool))
    metric.update(torch.from_numpy(s[y]), torch.from_numpy(y[y]))
    with pytest.raises(ValueError, match="expected both classes, got only positives"):
        metric.compute()
    metric.update(torch.from_numpy(s[~y]), torch.from_numpy(y[~y]))
    _assert_same_curve(metric.compute().curve, pr_curve(y, s))


def test_operating_points_equal_operating_point_on_all_data(torch, rng):
    y, s = _data(rng, digits=2)
    targets = [("min_precision", 0.8), ("min_recall", 0.5), ("max_fpr", 0.05), ("top_k", 100)]
    metric = PRCurveMetric(operating_points=targets)
    _feed(metric, torch, y, s, 4, dtype=torch.float64, target_dtype=torch.bool)
    points = metric.compute().operating_points
    assert len(points) == 4
    for point, (criterion, target) in zip(points, targets, strict=True):
        assert point == prcurve.operating_point(y, s, **{criterion: target})


def test_pos_label_and_merge_state(torch, rng):
    y, s = _data(rng)
    labels = np.where(y, 7, 3)
    a, b = PRCurveMetric(pos_label=7), PRCurveMetric(pos_label=7)
    a.update(torch.from_numpy(s[:500]), torch.from_numpy(labels[:500]))
    b.update(torch.from_numpy(s[500:]), torch.from_numpy(labels[500:]))
    a.merge_state(b)
    _assert_same_curve(a.compute().curve, pr_curve(y, s))
    _assert_same_curve(b.compute().curve, pr_curve(y[500:], s[500:]))  # b unchanged


def test_an_accumulator_factory_is_the_state(torch, rng):
    """The hook for a bounded accumulator: the metric only uses update, merge and curve."""
    built = []

    class Counting(PRAccumulator):
        def __init__(self):
            super().__init__()
            built.append(self)

    y, s = _data(rng)
    metric = PRCurveMetric(accumulator=Counting)
    metric.update(torch.from_numpy(s), torch.from_numpy(y))
    assert metric.accumulator is built[0] and isinstance(metric.accumulator, Counting)
    _assert_same_curve(metric.compute().curve, pr_curve(y, s))
    assert isinstance(metric.synced_accumulator(), Counting) and len(built) == 2


def test_numpy_batches_need_no_torch(rng):
    y, s = _data(rng)
    metric = PRCurveMetric()
    metric.update(s[:1000], y[:1000])
    metric.update(s[1000:].tolist(), y[1000:].tolist())
    _assert_same_curve(metric.compute().curve, pr_curve(y, s))


def test_bad_input_is_one_clear_error(torch):
    metric = PRCurveMetric()
    with pytest.raises(ValueError, match=r"target: expected the shape of preds \(3,\), got \(2,\)"):
        metric.update(torch.rand(3), torch.tensor([1, 0]))
    with pytest.raises(ValueError, match=r"weight: expected the shape of preds \(2,\), got \(3,\)"):
        metric.update(torch.rand(2), torch.tensor([1, 0]), torch.ones(3))
    with pytest.raises(
        TypeError, match=r"preds: expected a real tensor, got dtype torch\.complex64"
    ):
        metric.update(torch.ones(2, dtype=torch.complex64), torch.tensor([1, 0]))
    with pytest.raises(ValueError, match="y_score: expected finite"):
        metric.update(torch.tensor([0.5, float("nan")]), torch.tensor([1, 0]))
    with pytest.raises(ValueError, match="y_true"):
        metric.update(torch.tensor([0.5, 0.2]), torch.tensor([2, 0]))
    with pytest.raises(TypeError, match="other: expected a PRCurveMetric, got PRAccumulator"):
        metric.merge_state(PRAccumulator())


def test_bad_options_are_one_clear_error():
    with pytest.raises(TypeError, match="operating_points: expected a sequence of"):
        PRCurveMetric(operating_points="min_precision")
    with pytest.raises(ValueError, match=r"operating_points: expected \(criterion, target\) pairs"):
        PRCurveMetric(operating_points=[("min_precision", 0.9, 1)])
    with pytest.raises(ValueError, match="criterion"):
        PRCurveMetric(operating_points=[("max_precision", 0.9)])
    with pytest.raises(ValueError, match="min_precision"):
        PRCurveMetric(operating_points=[("min_precision", 1.5)])
    with pytest.raises(TypeError, match=r"accumulator: expected a callable .* got int"):
        PRCurveMetric(accumulator=3)
    with pytest.raises(TypeError, match="got list without update, merge, curve"):
        PRCurveMetric(accumulator=list)
    with pytest.raises(TypeError, match="sync_on_compute: expected True or False, got 1"):
        PRCurveMetric(sync_on_compute=1)


def test_max_bins_caps_the_state_and_bounds_the_error(torch, rng):
    """``max_bins``: exact (bounds 0) while the distinct scores fit; once they overflow, memory
    stays capped and the exact AP and DG area lie within the stated bounds."""
    y, s = _data(rng)
    rounded = np.round(s, 1)  # few distinct scores: fits in 4096 bins
    exact = PRCurveMetric(max_bins=4096)
    exact.update(torch.from_numpy(rounded), torch.from_numpy(y))
    res = exact.compute()
    _assert_same_curve(res.curve, pr_curve(y, rounded))
    assert res.error_bounds == dict.fromkeys(
        ("average_precision", "davis_goadrich", "precision"), 0.0
    )
    capped = PRCurveMetric(max_bins=16)
    for i in range(0, y.shape[0], 250):
        capped.update(torch.from_numpy(s[i : i + 250]), torch.from_numpy(y[i : i + 250]))
    assert capped.accumulator.n_bins <= 16
    res = capped.compute()
    ref = pr_curve(y, s)
    for method in ("average_precision", "davis_goadrich"):
        bound = res.error_bounds[method]
        assert 0 < bound < 0.5
        got = res.average_precision if method == "average_precision" else res.davis_goadrich
        assert abs(got - ref.auc(method)) <= bound
    assert res.bounded is not None and res.curve is res.bounded.binned


def test_max_bins_errors():
    with pytest.raises(TypeError, match="max_bins: give accumulator or max_bins, not both"):
        PRCurveMetric(max_bins=8, accumulator=PRAccumulator)
    with pytest.raises(ValueError, match="max_bins"):
        PRCurveMetric(max_bins=0)
