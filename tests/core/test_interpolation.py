import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from scipy.integrate import quad
from scipy.integrate import trapezoid as _trapezoid  # numpy 1.24 has no np.trapezoid

from prcurve import dg_interpolate
from prcurve._core._interpolation import dg_precision, dg_segment_areas, interpolate_counts


def test_davis_goadrich_table_1():
    """Davis & Goadrich (2006) Table 1: 20 positives, A = (5, 5), B = (10, 30)."""
    pts = dg_interpolate(5, 5, 10, 30, n_pos=20)
    np.testing.assert_array_equal(pts.tp, [5, 6, 7, 8, 9, 10])
    np.testing.assert_array_equal(pts.fp, [5, 10, 15, 20, 25, 30])
    np.testing.assert_allclose(pts.recall, [0.25, 0.30, 0.35, 0.40, 0.45, 0.50])
    np.testing.assert_allclose(
        np.round(pts.precision, 3), [0.500, 0.375, 0.318, 0.286, 0.265, 0.250]
    )


def test_fractional_and_vertical_segments():
    pts = dg_interpolate(1.5, 0.5, 3.0, 2.0, n_pos=4)
    np.testing.assert_allclose(pts.tp, [1.5, 2.5, 3.0])
    np.testing.assert_allclose(pts.fp, [0.5, 1.5, 2.0])
    vertical = dg_interpolate(2, 1, 2, 4, n_pos=5)
    np.testing.assert_allclose(vertical.precision, [2 / 3, 2 / 6])


@pytest.mark.parametrize(
    ("args", "match"),
    [
        ((5, 5, 4, 30, 20), r"tp_b, fp_b: expected counts at least those of A"),
        ((-1, 5, 4, 30, 20), r"tp_a, fp_a: expected non-negative"),
        ((5, 5, 10, 30, 8), r"n_pos: expected a positive total at least tp_b"),
        ((5, np.nan, 10, 30, 20), r"dg_interpolate: expected finite counts"),
    ],
)
def test_dg_interpolate_errors(args, match):
    with pytest.raises(ValueError, match=match):
        dg_interpolate(*args)


def test_single_point_example_of_davis_goadrich():
    """433 positives, 56,164 negatives, one point (recall 0.02, precision 1).

    Davis & Goadrich report AUC-PR 0.031 for the interpolated curve and 0.50 for linear
    interpolation.  The exact integral is 0.0287; their figure comes from the composite trapezoid
    rule over integer-TP interpolated points (TP = 9 at recall ~0.02, end precision 0.008).
    """
    n_pos, n_neg = 433, 56_164
    tp = np.array([0.02 * n_pos, n_pos])
    fp = np.array([0.0, n_neg])
    ctp, cfp = np.r_[0.0, tp], np.r_[0.0, fp]
    area = dg_segment_areas(ctp[:-1], cfp[:-1], ctp[1:], cfp[1:]).sum() / n_pos
    assert area == pytest.approx(0.03, abs=2e-3)
    linear = 0.02 * 1 + 0.98 * (1 + n_pos / (n_pos + n_neg)) / 2
    assert linear == pytest.approx(0.5, abs=0.02)
    assert linear / area > 15
    pts = dg_interpolate(9, 0, n_pos, n_pos / 0.008 - n_pos, n_pos)
    composite = 9 / n_pos + _trapezoid(pts.precision, pts.recall)
    assert round(composite, 3) == 0.031


@settings(max_examples=200, deadline=None)
@given(
    tp_a=st.floats(0, 50),
    fp_a=st.floats(0, 50),
    dtp=st.floats(0.01, 50),
    dfp=st.floats(0, 5000),
)
def test_closed_form_area_matches_numerical_integration(tp_a, fp_a, dtp, dfp):
    tp_b, fp_b = tp_a + dtp, fp_a + dfp
    exact = dg_segment_areas(tp_a, fp_a, tp_b, fp_b)
    numeric, _ = quad(
        lambda t: float(dg_precision(tp_a, fp_a, tp_b, fp_b, t)), tp_a, tp_b, epsabs=1e-12
    )
    assert exact == pytest.approx(numeric, rel=1e-7, abs=1e-9)


def test_area_of_vertical_segment_is_zero():
    assert dg_segment_areas(3, 1, 3, 10) == 0.0


def test_tiny_segment_uses_stable_series():
    """A segment far from the origin: the area is Δ · precision to first order."""
    a, delta = 2.0**20, 2.0**-10
    area = dg_segment_areas(a, a, a + delta, a + delta)
    assert area == pytest.approx(delta * 0.5, rel=1e-12)


def test_interpolate_counts_reads_curve():
    tp = np.array([1.0, 1.0, 2.0])
    fp = np.array([0.0, 1.0, 1.0])
    r = np.array([0.0, 0.25, 0.5, 0.75, 1.0])
    p = interpolate_counts(tp, fp, 2.0, r)
    # from the origin precision 1 up to (1, 0); drop to (1, 1); then (1+x)/(2+x) to (2, 1)
    np.testing.assert_allclose(p, [1.0, 1.0, 1.0, 1.5 / 2.5, 2 / 3])
