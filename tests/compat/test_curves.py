"""Each tool's curve (``compat.pr_curve``) and the counts-based entry points.

The curve's area by its join rule must be the tool's value, which ``test_conventions.py``
checks against the tool (scikit-learn, ROCR) or a literal re-implementation of its source; the
vertices are checked against scikit-learn's ``precision_recall_curve`` and against the literal
re-implementations' own point lists (``_reference.py``), ROCR's against ROCR in
``test_rocr_r.py``.  The ``*_from_counts`` forms must equal the row forms exactly: every engine
hands the report counts, not rows.
"""

import numpy as np
import pytest

from prcurve import binary_counts, compat

from . import _reference as ref
from .test_conventions import CASES

OPTIONS = {
    "spark": [{}, {"num_bins": 7}, {"num_bins": 0}],
    "keras": [{}, {"num_thresholds": 9}],
    "torchmetrics_binned": [{}, {"thresholds": 11}],
    "precrec": [{}, {"x_bins": 7}, {"x_bins": 0}],
}


@pytest.fixture(params=sorted(CASES))
def case(request):
    return CASES[request.param]


@pytest.mark.parametrize("tool", list(compat.TOOLS))
def test_curve_area_is_the_tools_value(case, tool):
    y, s = case
    for options in OPTIONS.get(tool, [{}]):
        curve = compat.pr_curve(y, s, tool=tool, **options)
        assert curve.tool == tool
        assert curve.interpolation in ("step", "linear", "davis_goadrich")
        assert curve.recall.shape == curve.precision.shape == curve.tp.shape == curve.fp.shape
        assert np.isfinite(curve.precision).all()
        assert ((curve.precision >= 0) & (curve.precision <= 1)).all()
        np.testing.assert_allclose(curve.recall, curve.tp / curve.n_pos, rtol=1e-12, atol=1e-15)
        value = compat.auc_pr(y, s, tool=tool, **options)
        assert curve.area() == pytest.approx(value, abs=1e-12)


def test_sklearn_curve_is_scikit_learns(case):
    from sklearn.metrics import precision_recall_curve

    y, s = case
    precision, recall, _ = precision_recall_curve(y, s)
    curve = compat.pr_curve(y, s, tool="sklearn")
    assert curve.interpolation == "step"
    np.testing.assert_allclose(curve.recall, recall[::-1], rtol=0, atol=1e-15)
    np.testing.assert_allclose(curve.precision, precision[::-1], rtol=0, atol=1e-15)


@pytest.mark.parametrize("num_bins", [0, 7, 3])
def test_spark_curve(case, num_bins):
    y, s = case
    expected = np.array(ref.spark_curve(y, s, num_bins=num_bins))
    curve = compat.pr_curve(y, s, tool="spark", num_bins=num_bins)
    np.testing.assert_allclose(curve.recall, expected[:, 0], rtol=0, atol=1e-15)
    np.testing.assert_allclose(curve.precision, expected[:, 1], rtol=0, atol=1e-15)


def test_yardstick_and_rocr_curves(case):
    y, s = case
    for tool, literal in (("yardstick", ref.yardstick_curve), ("rocr", ref.rocr_curve)):
        rec, prec = literal(list(y), list(s))
        curve = compat.pr_curve(y, s, tool=tool)
        np.testing.assert_allclose(curve.recall, rec, rtol=0, atol=1e-15)
        np.testing.assert_allclose(curve.precision, prec, rtol=0, atol=1e-15)


@pytest.mark.parametrize("thresholds", [None, 11])
def test_torchmetrics_curve(case, thresholds):
    y, s = case
    precision, recall = ref.torchmetrics_curve(y, s, thresholds)
    tool = "torchmetrics" if thresholds is None else "torchmetrics_binned"
    curve = compat.pr_curve(y, s, tool=tool, thresholds=thresholds)
    np.testing.assert_allclose(curve.recall, recall[::-1], rtol=0, atol=1e-15)
    np.testing.assert_allclose(curve.precision, precision[::-1], rtol=0, atol=1e-15)


@pytest.mark.parametrize("num_thresholds", [200, 9])
def test_keras_curve_counts(case, num_thresholds):
    y, s = case
    tps, fps, _ = ref.keras_counts(y, s, num_thresholds=num_thresholds)
    curve = compat.pr_curve(y, s, tool="keras", num_thresholds=num_thresholds)
    assert curve.interpolation == "davis_goadrich"
    np.testing.assert_array_equal(curve.tp, np.array(tps[::-1], dtype=float))
    np.testing.assert_array_equal(curve.fp, np.array(fps[::-1], dtype=float))


def test_integer_step_curves_lie_on_the_davis_goadrich_interpolation():
    """PRROC's DG points and auc.jar's: every TP step of a segment, precision on the curve."""
    y = np.array([1, 0, 1, 1, 1, 0, 0, 1, 1, 1, 0, 0])
    s = np.array([9, 9, 7, 7, 7, 7, 5, 3, 3, 3, 3, 1.0])
    # distinct counts (TP, FP): (1, 1), (4, 2), (4, 3), (7, 4), (7, 5)
    for tool in ("prroc_dg", "auc_jar"):
        curve = compat.pr_curve(y, s, tool=tool)
        # after the rectangle start at the first point's precision: TP 1 … 7, one per step
        # (plus the FP-only step at TP 4 and at TP 7)
        assert curve.tp.tolist() == [0, 1, 2, 3, 4, 4, 5, 6, 7, 7]
        assert curve.precision[0] == curve.precision[1] == 0.5
        # on the segment (4, 3) -> (7, 4): FP grows 1/3 per TP
        np.testing.assert_allclose(curve.fp[5:9], [3, 3 + 1 / 3, 3 + 2 / 3, 4], rtol=1e-15)
        np.testing.assert_allclose(curve.precision[6], 5 / (5 + 3 + 1 / 3), rtol=1e-15)


@pytest.mark.parametrize("tool", list(compat.TOOLS))
def test_from_counts_equals_the_row_forms(case, tool):
    y, s = case
    counts = binary_counts(y, s)
    for options in OPTIONS.get(tool, [{}]):
        assert compat.auc_pr_from_counts(counts, tool=tool, **options) == compat.auc_pr(
            y, s, tool=tool, **options
        )
        a = compat.pr_curve_from_counts(counts, tool=tool, **options)
        b = compat.pr_curve(y, s, tool=tool, **options)
        np.testing.assert_array_equal(a.recall, b.recall)
        np.testing.assert_array_equal(a.precision, b.precision)
    if compat.TOOLS[tool].weights:
        w = np.random.default_rng(7).uniform(0.5, 2.0, size=y.shape[0])
        weighted = binary_counts(y, s, sample_weight=w)
        assert compat.auc_pr_from_counts(weighted, tool=tool) == compat.auc_pr(
            y, s, tool=tool, sample_weight=w
        )


def test_compare_tools_from_counts_equals_the_row_form(case):
    y, s = case
    w = np.random.default_rng(8).uniform(0.5, 2.0, size=y.shape[0])
    for weights in (None, w):
        rows = compat.compare_tools(y, s, sample_weight=weights)
        counts = compat.compare_tools_from_counts(binary_counts(y, s, sample_weight=weights))
        assert rows == counts


def test_from_counts_refusals():
    y, s = CASES["ties"]
    with pytest.raises(TypeError, match=r"counts: expected a prcurve\.BinaryCounts .* got tuple"):
        compat.auc_pr_from_counts((y, s), tool="sklearn")
    with pytest.raises(TypeError, match=r"counts: expected a prcurve\.BinaryCounts .* got list"):
        compat.compare_tools_from_counts([y, s])
    w = np.ones(y.shape[0]) * 2.0
    weighted = binary_counts(y, s, sample_weight=w)
    with pytest.raises(ValueError, match=r"sample_weight: ROCR .* takes no sample weights"):
        compat.auc_pr_from_counts(weighted, tool="rocr")
    with pytest.raises(ValueError, match=r"sample_weight: precrec .* takes no sample weights"):
        compat.pr_curve_from_counts(weighted, tool="precrec")
    with pytest.raises(ValueError, match=r"tool: expected one of sklearn, .* got 'matlab'"):
        compat.pr_curve(y, s, tool="matlab")
    with pytest.raises(TypeError, match=r"tool_options: 'rocr' takes no options, got x_bins"):
        compat.pr_curve(y, s, tool="rocr", x_bins=3)
