"""Point-level precision-recall-gain: gains, F-gain, Theorems 1, 2 and 4, expected F-gain."""

from __future__ import annotations

from fractions import Fraction

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from prcurve import (
    IsoFLine,
    PRGPoints,
    expected_f_gain,
    f_gain,
    gains_from_counts,
    iso_f_gain_line,
    pr_curve,
    pr_to_prg,
    precision_gain,
    recall_gain,
    roc_to_prg,
)
from prcurve._prg._gain import count_gain

unit = st.floats(min_value=1e-3, max_value=1.0)
prevalence = st.floats(min_value=1e-3, max_value=0.999)
betas = st.floats(min_value=0.1, max_value=10.0)


def gain_exact(x: Fraction, pi: Fraction) -> Fraction:
    return (x - pi) / ((1 - pi) * x)


# --- the gain transform ------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("value", "pi", "expected"),
    [
        (1.0, 0.3, 1.0),
        (0.3, 0.3, 0.0),
        (0.5, 0.25, 2 / 3),  # (0.5 - 0.25) / (0.75 * 0.5)
        (0.1, 0.5, -8.0),  # (0.1 - 0.5) / (0.5 * 0.1)
        (0.0, 0.2, -np.inf),
    ],
)
def test_precision_and_recall_gain_closed_form(value, pi, expected):
    assert precision_gain(value, pi) == pytest.approx(expected, rel=1e-12)
    assert recall_gain(value, pi) == pytest.approx(expected, rel=1e-12)
    assert isinstance(precision_gain(value, pi), float)


def test_gains_vectorised_and_broadcast():
    p = np.array([[1.0, 0.5], [0.25, 0.0]])
    g = precision_gain(p, 0.25)
    assert g.shape == (2, 2)
    np.testing.assert_allclose(g[0], [1.0, 2 / 3])
    assert g[1, 0] == 0.0 and g[1, 1] == -np.inf
    # prevalence broadcasts too
    np.testing.assert_allclose(recall_gain(0.5, [0.25, 0.5]), [2 / 3, 0.0])


@given(x=unit, pi=prevalence)
def test_gain_matches_exact_rationals(x, pi):
    exact = gain_exact(Fraction(x), Fraction(pi))
    assert precision_gain(x, pi) == pytest.approx(float(exact), rel=1e-9, abs=1e-9)


def test_f_gain_at_zero_is_minus_infinity_not_nan():
    out = f_gain([0.0, 0.5, 0.0], [0.5, 0.0, 0.0], 0.3, beta=2)
    assert np.all(out == -np.inf)


# --- Theorem 2 ----------------------------------------------------------------------------------


@settings(max_examples=200)
@given(p=unit, r=unit, pi=prevalence, beta=betas)
def test_theorem2_f_gain_is_weighted_mean_of_gains(p, r, pi, beta):
    b2 = beta**2
    lhs = precision_gain(p, pi) + b2 * recall_gain(r, pi)
    rhs = (1 + b2) * f_gain(p, r, pi, beta=beta)
    assert lhs == pytest.approx(rhs, rel=1e-9, abs=1e-9 * (1 + abs(lhs)))
    # and FG_beta is the gain of the F_beta score itself
    f = (1 + b2) * p * r / (b2 * p + r)
    assert f_gain(p, r, pi, beta=beta) == pytest.approx(
        precision_gain(min(f, 1.0), pi), rel=1e-9, abs=1e-9
    )


# --- Theorem 1 ----------------------------------------------------------------------------------

tables = st.tuples(
    st.integers(1, 60),  # n_pos
    st.integers(1, 60),  # n_neg
    st.data(),
)


@settings(max_examples=200)
@given(tables, st.floats(min_value=0.0, max_value=1.0))
def test_theorem1_interpolated_tables_are_interpolated_gains(table, lam):
    n_pos, n_neg, data = table
    tp1, tp2 = data.draw(st.integers(1, n_pos)), data.draw(st.integers(1, n_pos))
    fp1, fp2 = data.draw(st.integers(0, n_neg)), data.draw(st.integers(0, n_neg))
    g = gains_from_counts(
        [tp1, tp2], [fp1, fp2], [n_pos - tp1, n_pos - tp2], [n_neg - fp1, n_neg - fp2]
    )
    tp_s = lam * tp1 + (1 - lam) * tp2
    fp_s = lam * fp1 + (1 - lam) * fp2
    star = gains_from_counts(tp_s, fp_s, max(n_pos - tp_s, 0.0), max(n_neg - fp_s, 0.0))
    mu = lam * tp1 / (lam * tp1 + (1 - lam) * tp2)
    for name in ("precision_gain", "recall_gain"):
        both = getattr(g, name)
        expected = mu * both[0] + (1 - mu) * both[1]
        scale = 1 + abs(both).max()
        assert float(getattr(star, name)) == pytest.approx(expected, abs=1e-9 * scale)


def test_theorem1_exact_on_fractions():
    # C1 = (TP 3, FP 1), C2 = (TP 5, FP 6), n_pos = 6, n_neg = 8, lambda = 1/3
    n_pos, n_neg, lam = 6, 8, Fraction(1, 3)
    pg = lambda tp, fp: 1 - Fraction(n_pos) * fp / (n_neg * tp)  # noqa: E731
    rg = lambda tp: 1 - Fraction(n_pos) * (n_pos - tp) / (n_neg * tp)  # noqa: E731
    tp_s, fp_s = lam * 3 + (1 - lam) * 5, lam * 1 + (1 - lam) * 6
    mu = lam * 3 / tp_s
    assert pg(tp_s, fp_s) == mu * pg(3, 1) + (1 - mu) * pg(5, 6)
    assert rg(tp_s) == mu * rg(3) + (1 - mu) * rg(5)
    got = gains_from_counts(float(tp_s), float(fp_s), float(n_pos - tp_s), float(n_neg - fp_s))
    assert float(got.precision_gain) == pytest.approx(float(pg(tp_s, fp_s)), rel=1e-12)


# --- Theorem 4 ----------------------------------------------------------------------------------


@settings(max_examples=200)
@given(p1=st.floats(0.05, 1.0), r1=st.floats(0.05, 0.9), pi=prevalence, beta=betas, data=st.data())
def test_theorem4_equal_f_beta_points_lie_on_slope_minus_beta_squared(p1, r1, pi, beta, data):
    b2 = beta**2
    f = (1 + b2) * p1 * r1 / (b2 * p1 + r1)
    r2 = data.draw(st.floats(r1 + 0.05, 1.0)) if r1 + 0.05 <= 1.0 else 1.0
    inv_p2 = (1 + b2) / f - b2 / r2  # same F_beta at recall r2
    p2 = 1 / inv_p2
    if not (0 < p2 <= 1):
        return
    g = pr_to_prg([p1, p2], [r1, r2], pi)
    slope = (g.precision_gain[0] - g.precision_gain[1]) / (g.recall_gain[0] - g.recall_gain[1])
    assert slope == pytest.approx(-b2, rel=1e-6)
    # equation (2) of the supplement
    assert -(1 / p1 - 1 / p2) / (1 / r1 - 1 / r2) == pytest.approx(b2, rel=1e-6)
    np.testing.assert_allclose(g.f_gain(beta), g.f_gain(beta)[0], rtol=1e-7, atol=1e-7)
    # the iso-line through that F-gain contains both points
    fg = float(g.f_gain(beta)[0])
    if 0 <= fg <= 1:
        line = iso_f_gain_line(fg, beta=beta)
        on_line = line.intercept + line.slope * g.recall_gain
        np.testing.assert_allclose(on_line, g.precision_gain, rtol=1e-7, atol=1e-7)


# --- iso-F lines --------------------------------------------------------------------------------


@pytest.mark.parametrize("beta", [0.5, 1.0, 2.0])
@pytest.mark.parametrize("fg", [0.0, 0.2, 0.5, 0.9, 1.0])
def test_iso_line_end_points_in_unit_square_with_constant_f_gain(beta, fg):
    line = iso_f_gain_line(fg, beta=beta)
    assert isinstance(line, IsoFLine) and line.slope == -(beta**2)
    x, y = line.recall_gain, line.precision_gain
    assert x.shape == (2,) and np.all((0 <= x) & (x <= 1)) and np.all((0 <= y) & (y <= 1))
    np.testing.assert_allclose((y + beta**2 * x) / (1 + beta**2), fg, atol=1e-12)
    # the segment is the whole chord: each end point is on the square's boundary
    for xi, yi in zip(x, y, strict=True):
        assert min(xi, yi, 1 - xi, 1 - yi) == pytest.approx(0, abs=1e-12)


def test_iso_lines_vectorised_and_f_beta():
    line = iso_f_gain_line([0.25, 0.75])
    assert line.recall_gain.shape == (2, 2)
    np.testing.assert_allclose(line.recall_gain, [[0.0, 0.5], [0.5, 1.0]])
    np.testing.assert_allclose(line.precision_gain, [[0.5, 0.0], [1.0, 0.5]])
    # F1-gain 0.5 at prevalence 0.2: F = pi / (1 - (1 - pi) * 0.5) = 1/3
    assert iso_f_gain_line(0.5).f_beta(0.2) == pytest.approx(1 / 3)


# --- conversions -----------------------------------------------------------------------------


def test_pr_and_roc_conversions_agree_on_a_curve():
    rng = np.random.default_rng(3)
    y = rng.random(300) < 0.3
    s = np.round(rng.normal(size=300) + y, 1)
    pr = pr_curve(y, s)
    roc = pr.to_roc()
    a = pr_to_prg(pr.precision, pr.recall, pr.prevalence)
    keep = roc.tpr > 0
    b = roc_to_prg(roc.fpr[keep], roc.tpr[keep], pr.prevalence)
    np.testing.assert_allclose(a.precision_gain[keep], b.precision_gain, rtol=1e-12, atol=1e-12)
    np.testing.assert_allclose(a.recall_gain[keep], b.recall_gain, rtol=1e-12, atol=1e-12)
    c = gains_from_counts(pr.tp, pr.fp, pr.n_pos - pr.tp, pr.n_neg - pr.fp)
    np.testing.assert_allclose(c.precision_gain[keep], a.precision_gain[keep], atol=1e-12)
    assert np.all(c.precision_gain[~keep] == -np.inf) and np.all(c.recall_gain[~keep] == -np.inf)
    # round trips
    p, r = a.to_pr()
    np.testing.assert_allclose(p, pr.precision, atol=1e-12)
    np.testing.assert_allclose(r, pr.recall, atol=1e-12)
    fpr, tpr = b.to_roc()
    np.testing.assert_allclose(fpr, roc.fpr[keep], atol=1e-12)
    np.testing.assert_allclose(tpr, roc.tpr[keep], atol=1e-12)


def test_roc_to_prg_zero_tpr_and_prgpoints_broadcast():
    g = roc_to_prg([0.2, 0.0], [0.0, 0.5], 0.5)
    assert g.precision_gain.tolist() == [-np.inf, 1.0]
    assert g.recall_gain.tolist() == [-np.inf, 0.0]
    pts = PRGPoints([0.5, -np.inf], 0.5, 0.25)
    assert pts.recall_gain.shape == (2,) and pts.prevalence.shape == (2,)
    assert pts.to_pr()[0].tolist() == [0.25 / (1 - 0.75 * 0.5), 0.0]


def test_gains_from_counts_known_table():
    # n_pos = 3, n_neg = 3 (R reference example, precision_gain(3,0,1,2) = 2/3 in (TP,FN,FP,TN))
    g = gains_from_counts(tp=3, fp=1, fn=0, tn=2)
    assert float(g.precision_gain) == pytest.approx(2 / 3)
    assert float(g.recall_gain) == 1.0
    # TP = 0, FP > 0: precision 0 and recall 0, both gains -inf
    g0 = gains_from_counts(0, 2, 3, 1)
    assert float(g0.precision_gain) == -np.inf and float(g0.recall_gain) == -np.inf


# --- expected F-gain (formula; the simulation is in test_gain_curve.py) -----------------------


@pytest.mark.parametrize("pi", [0.05, 0.3, 0.7])
@pytest.mark.parametrize("y0", [1.0, 0.6, -0.2])
def test_expected_f_gain_corollary(pi, y0):
    auprg = 0.45
    corollary = (auprg / 2 + 0.25 - pi * (1 - y0**2) / 4) / (1 - pi * (1 - y0))
    assert expected_f_gain(auprg, pi, y0=y0) == pytest.approx(corollary, rel=1e-12)


@pytest.mark.parametrize("pi", [0.1, 0.5, 0.9])
def test_expected_f_gain_default_y0_is_linear_in_auprg(pi):
    for a in (-0.3, 0.0, 0.5, 1.0):
        assert expected_f_gain(a, pi) == pytest.approx(a / 2 + 0.25, rel=1e-12)


def test_expected_f_gain_general_formula():
    a, pi, y0, gamma, beta = 0.6, 0.2, 0.7, 1.5, 0.5
    alpha = 1 / (1 + beta**2)
    num = (alpha * gamma + (1 - alpha) * pi) * a + alpha * pi * y0**2 / 2 + (1 - alpha) * gamma / 2
    got = expected_f_gain(a, pi, beta=beta, y0=y0, gamma=gamma)
    assert got == pytest.approx(num / (gamma + pi * y0), rel=1e-12)


# --- errors --------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("call", "exc", "match"),
    [
        (
            lambda: precision_gain(1.2, 0.3),
            ValueError,
            r"precision: expected values in \[0, 1\], got 1.2",
        ),
        (
            lambda: recall_gain(-0.1, 0.3),
            ValueError,
            r"recall: expected values in \[0, 1\], got -0.1",
        ),
        (
            lambda: precision_gain(0.5, 1.0),
            ValueError,
            r"prevalence: expected values in \(0, 1\), got 1.0",
        ),
        (
            lambda: recall_gain(0.5, 0),
            ValueError,
            r"prevalence: expected values in \(0, 1\), got 0.0",
        ),
        (lambda: precision_gain("a", 0.5), TypeError, "precision: expected numbers"),
        (
            lambda: precision_gain([0.5, 0.6], [0.1, 0.2, 0.3]),
            ValueError,
            r"precision, prevalence: expected shapes that broadcast together, "
            r"got \(2,\) and \(3,\)",
        ),
        (lambda: f_gain(0.5, 0.5, 0.5, beta=0), ValueError, "beta: expected a number > 0, got 0"),
        (lambda: f_gain(0.5, 0.5, 0.5, beta=True), TypeError, "beta: expected a number, got bool"),
        (lambda: f_gain(0.5, 0.5, 0.5, beta=np.inf), ValueError, "beta: expected a finite number"),
        (
            lambda: f_gain(0.5, np.nan, 0.5),
            ValueError,
            r"recall: expected values in \[0, 1\], got nan",
        ),
        (
            lambda: PRGPoints([1.5], [0.2], 0.3),
            ValueError,
            r"precision_gain: expected values in \[-inf, 1\], got 1.5",
        ),
        (
            lambda: PRGPoints([0.5], [np.nan], 0.3),
            ValueError,
            r"recall_gain: expected values in \[-inf, 1\], got nan",
        ),
        (
            lambda: PRGPoints([0.5], [-np.inf], 0.3).to_roc(),
            ValueError,
            "recall_gain: expected finite values to map to ROC space, got -inf",
        ),
        (
            lambda: PRGPoints([-50.0], [1.0], 0.3).to_roc(),
            ValueError,
            r"precision_gain: expected points attainable in ROC space \(FPR <= 1\), got FPR 51.0",
        ),
        (
            lambda: gains_from_counts(-1, 1, 1, 1),
            ValueError,
            "tp: expected finite counts >= 0, got -1.0",
        ),
        (lambda: gains_from_counts(1, 1, "x", 1), TypeError, "fn: expected counts"),
        (
            lambda: gains_from_counts(0, 1, 0, 1),
            ValueError,
            r"expected tables with positives \(tp \+ fn > 0\), got none",
        ),
        (
            lambda: gains_from_counts([1, 1], [1, 0], [1, 1], [1, 0]),
            ValueError,
            r"expected tables with negatives \(fp \+ tn > 0\), got none at index \(1,\)",
        ),
        (
            lambda: gains_from_counts(0, 0, 2, 2),
            ValueError,
            "expected tables with a positive prediction",
        ),
        (lambda: expected_f_gain(1.2, 0.3), ValueError, "auprg: expected a number <= 1, got 1.2"),
        (lambda: expected_f_gain("a", 0.3), TypeError, "auprg: expected a number, got str"),
        (
            lambda: expected_f_gain(0.5, 1.3),
            ValueError,
            r"prevalence: expected a number in \(0, 1\)",
        ),
        (
            lambda: expected_f_gain(0.5, 0.3, y0=1.5),
            ValueError,
            "y0: expected a number <= 1, got 1.5",
        ),
        (
            lambda: expected_f_gain(0.5, 0.3, gamma=0.5),
            ValueError,
            "gamma: expected a number >= 1 - prevalence = 0.7, got 0.5",
        ),
        (
            lambda: expected_f_gain(0.5, 0.5, y0=-1.0),
            ValueError,
            r"y0: expected gamma \+ prevalence \* y0 > 0",
        ),
        (lambda: iso_f_gain_line(1.5), ValueError, r"f_gain: expected values in \[0, 1\], got 1.5"),
        (lambda: iso_f_gain_line(0.5, beta=-1), ValueError, "beta: expected a number > 0, got -1"),
        (
            lambda: iso_f_gain_line(0.5).f_beta(0.0),
            ValueError,
            r"prevalence: expected a number in \(0, 1\)",
        ),
    ],
)
def test_errors(call, exc, match):
    with pytest.raises(exc, match=match):
        call()


@settings(max_examples=300)
@given(
    st.lists(st.floats(0, 1e300, allow_subnormal=True), min_size=1, max_size=30),
    st.lists(st.floats(0, 1e300, allow_subnormal=True), min_size=1, max_size=30),
    st.floats(1.0, 2.0),
    st.floats(1.0, 2.0),
)
def test_count_gain_with_scalar_totals_equals_the_broadcast_formula(tps, fps, a, b):
    """The scalar-totals path (the rate-unit repair only where needed) gives the values of
    the broadcast path (the repair computed everywhere), extreme weights included."""
    k = min(len(tps), len(fps))
    tp = np.maximum.accumulate(np.asarray(tps[:k]))
    fp = np.maximum.accumulate(np.asarray(fps[:k]))
    n_pos, n_neg = max(tp[-1] * a, 5e-324), max(fp[-1] * b, 5e-324)
    for count in (fp, np.maximum(n_pos - tp, 0.0)):
        fast = count_gain(count, tp, n_pos, n_neg)
        broadcast = count_gain(count, tp, np.array([n_pos]), np.array([n_neg]))
        np.testing.assert_array_equal(fast, broadcast)
        assert not np.isnan(fast).any()
