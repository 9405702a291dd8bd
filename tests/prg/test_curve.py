"""PRG curves: AUPRG, start point y0, convex hull, F-optimal threshold, Theorem 3, conversions."""

from __future__ import annotations

from fractions import Fraction
from itertools import pairwise

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from prcurve import (
    FBetaOptimum,
    PRCurve,
    PRGCurve,
    dg_interpolate,
    expected_f_gain,
    gains_from_counts,
    pr_curve,
    precision_gain,
    prg_curve,
    recall_gain,
    roc_curve,
)


def tied_data(seed: int, n: int = 120, prevalence: float = 0.3, decimals: int = 1):
    rng = np.random.default_rng(seed)
    y = rng.random(n) < prevalence
    y[:2] = [True, False]
    s = np.round(rng.normal(size=n) + 1.2 * y, decimals)
    return y, s


# --- independent re-implementations (exact rational arithmetic, plain loops) --------------------


def exact_points(y, s, w=None):
    """Cumulative (TP, FP) at each distinct score, decreasing, as Fractions; and n_pos, n_neg."""
    w = np.ones(len(y), dtype=int) if w is None else w
    points, tp, fp = [], Fraction(0), Fraction(0)
    for t in sorted(set(s.tolist()), reverse=True):
        at = s == t
        tp += int(w[at & y].sum())
        fp += int(w[at & ~y].sum())
        points.append((tp, fp))
    return points, tp, fp


def exact_gains(tp, fp, n_pos, n_neg):
    return 1 - n_pos * fp / (n_neg * tp), 1 - n_pos * (n_pos - tp) / (n_neg * tp)


def exact_auprg(y, s, w=None):
    """AUPRG as Flach & Kull compute it: crossing of recall gain 0 interpolated on the tables."""
    points, n_pos, n_neg = exact_points(y, s, w)
    target = n_pos * n_pos / (n_pos + n_neg)  # TP where recall = prevalence
    j = next(i for i, (tp, _) in enumerate(points) if tp >= target)
    curve = []
    if points[j][0] > target:
        tp_a, fp_a = points[j - 1] if j > 0 else (Fraction(0), Fraction(0))
        tp_b, fp_b = points[j]
        lam = (target - tp_a) / (tp_b - tp_a)
        pg, rg = exact_gains(target, fp_a + lam * (fp_b - fp_a), n_pos, n_neg)
        assert rg == 0
        curve.append((rg, pg))
    curve += [exact_gains(tp, fp, n_pos, n_neg)[::-1] for tp, fp in points[j:]]
    area = sum((x2 - x1) * (y1 + y2) / 2 for (x1, y1), (x2, y2) in pairwise(curve))
    return area, curve


def exact_prg_hull(y, s):
    """Upper convex hull in PRG space by a monotone chain on exact coordinates.

    The empty prediction interpolated with the highest-precision point gives a horizontal ray to
    the left, represented by a sentinel far left; the always-positive point (1, 0) closes the
    curve (as in every PRG curve).
    """
    points, n_pos, n_neg = exact_points(y, s)
    pts = [exact_gains(tp, fp, n_pos, n_neg)[::-1] for tp, fp in points if tp > 0]
    index = {p: i for i, p in enumerate(pts)}
    top = max(p[1] for p in pts)
    cand = sorted(set(pts), key=lambda p: (p[0], -p[1]))
    best_at_x = {}
    for x, yv in cand:
        best_at_x.setdefault(x, yv)
    chain = [(min(best_at_x) - 10, top)]
    for x in sorted(best_at_x):
        p = (x, best_at_x[x])
        while len(chain) >= 2:
            (ox, oy), (ax, ay) = chain[-2], chain[-1]
            cross = (ax - ox) * (p[1] - oy) - (ay - oy) * (p[0] - ox)
            if cross >= 0:  # not a strict right turn: the middle point is not a vertex
                chain.pop()
            else:
                break
        chain.append(p)
    vertices = {index[p] for p in chain[1:]}
    vertices.add(len(pts) - 1)
    return sorted(vertices), len(points) - len(pts)


def brute_best_f(y, s, beta, rule="ge"):
    ts = np.unique(s)
    pred = s[None, :] >= ts[:, None] if rule == "ge" else s[None, :] > ts[:, None]
    tp = (pred & y).sum(1)
    fp = (pred & ~y).sum(1)
    fn = y.sum() - tp
    b2 = beta**2
    f = (1 + b2) * tp / ((1 + b2) * tp + b2 * fn + fp)
    return f.max()


# --- hand-computed examples -----------------------------------------------------------------


def test_reference_example_from_flach_kull_package():
    # the example of the authors' R package: AUPRG 0.7083333 and its point table
    c = prg_curve([1, 1, 0, 0, 1, 0], [0.8, 0.8, 0.6, 0.4, 0.4, 0.2])
    assert c.thresholds.tolist() == [0.8, 0.6, 0.4, 0.2]
    np.testing.assert_allclose(c.precision_gain, [1.0, 0.5, 1 / 3, 0.0])
    np.testing.assert_allclose(c.recall_gain, [0.5, 0.5, 1.0, 1.0])
    assert c.y0 == 1.0
    x, yv = c.path()
    np.testing.assert_allclose(x, [0.0, 0.5, 0.5, 1.0, 1.0])
    np.testing.assert_allclose(yv, [1.0, 1.0, 0.5, 1 / 3, 0.0])
    # 0.5 * 1 + 0.5 * (0.5 + 1/3) / 2 = 17/24
    assert c.auc() == pytest.approx(17 / 24, abs=1e-15)


def test_reference_example_with_crossing_between_points():
    # R package's third example, as one score: points (TP, FP) = (1,0) (2,1) (2,2) (3,2) (3,3)
    c = prg_curve([1, 1, 0, 0, 1, 0], [6, 5, 5, 4, 3, 2])
    np.testing.assert_allclose(c.recall_gain, [-1.0, 0.5, 0.5, 1.0, 1.0])
    # crossing at TP = 1.5, FP = 0.5: precision gain 1 - 0.5/1.5 = 2/3
    assert c.y0 == pytest.approx(2 / 3)
    # (0, 2/3)-(0.5, 0.5): 0.291667; (0.5, 0)-(1, 1/3): 0.083333
    assert c.auc() == pytest.approx(0.5 * (2 / 3 + 0.5) / 2 + 0.5 * (1 / 3) / 2, abs=1e-15)
    assert not c.in_unit_square[0] and c.in_unit_square[1:].all()


@pytest.mark.parametrize(
    ("y", "s", "auprg", "y0"),
    [
        ([0, 1, 0, 1], [0.1, 0.9, 0.2, 0.8], 1.0, 1.0),  # perfect ranking
        ([0, 1, 0, 1, 1], [0.3, 0.3, 0.3, 0.3, 0.3], 0.0, 0.0),  # one operating point
        ([1, 0, 1, 0], [0.1, 0.9, 0.2, 0.8], -0.5, -1.0),  # reversed ranking
    ],
)
def test_extreme_curves(y, s, auprg, y0):
    c = prg_curve(y, s)
    assert c.auc() == pytest.approx(auprg, abs=1e-12)
    assert c.y0 == pytest.approx(y0, abs=1e-12)
    assert c.recall_gain[-1] == 1.0 and c.precision_gain[-1] == 0.0
    assert not np.isnan(c.precision_gain).any() and not np.isnan(c.recall_gain).any()
    # points before the first positive have precision and recall 0: gains -inf, not NaN
    assert np.all(c.precision_gain[c.tp == 0] == -np.inf)


# --- AUPRG and y0 against the exact re-computation -------------------------------------------


@pytest.mark.parametrize("seed", range(8))
@pytest.mark.parametrize("prevalence", [0.1, 0.4, 0.8])
def test_auprg_matches_exact_recomputation(seed, prevalence):
    y, s = tied_data(seed, n=80, prevalence=prevalence)
    c = prg_curve(y, s)
    area, curve = exact_auprg(y, s)
    assert c.auc() == pytest.approx(float(area), abs=1e-12)
    x, yv = c.path()
    np.testing.assert_allclose(x, [float(p[0]) for p in curve], atol=1e-12)
    np.testing.assert_allclose(yv, [float(p[1]) for p in curve], atol=1e-12)
    assert c.y0 == pytest.approx(float(curve[0][1]), abs=1e-12)


@pytest.mark.parametrize("seed", range(4))
def test_y0_lies_on_the_prg_segment_theorem1(seed):
    y, s = tied_data(seed, n=200)
    c = prg_curve(y, s)
    j = int(np.argmax(c.recall_gain >= 0))
    if c.recall_gain[j] == 0 or c.tp[j - 1] == 0:
        return
    x1, y1 = c.recall_gain[j - 1], c.precision_gain[j - 1]
    x2, y2 = c.recall_gain[j], c.precision_gain[j]
    assert c.y0 == pytest.approx(y1 + (0 - x1) * (y2 - y1) / (x2 - x1), abs=1e-12)


def test_weights_equal_repetition():
    y, s = tied_data(5, n=60)
    w = np.random.default_rng(0).integers(1, 4, size=60)
    a = prg_curve(y, s, sample_weight=w)
    b = prg_curve(np.repeat(y, w), np.repeat(s, w))
    assert a.auc() == pytest.approx(b.auc(), abs=1e-12)
    assert a.y0 == pytest.approx(b.y0, abs=1e-12)
    assert a.auc() == pytest.approx(float(exact_auprg(y, s, w)[0]), abs=1e-12)
    np.testing.assert_allclose(a.precision_gain, b.precision_gain, atol=1e-12)
    np.testing.assert_array_equal(a.convex_hull().thresholds, b.convex_hull().thresholds)
    assert a.best_f_threshold().f_beta == pytest.approx(b.best_f_threshold().f_beta)


def test_gains_agree_with_point_functions():
    y, s = tied_data(11, n=150)
    c = prg_curve(y, s)
    np.testing.assert_allclose(c.precision_gain, precision_gain(c.precision, c.prevalence))
    np.testing.assert_allclose(c.recall_gain, recall_gain(c.recall, c.prevalence))
    f1 = 2 * c.precision * c.recall / (c.precision + c.recall)
    keep = c.tp > 0
    np.testing.assert_allclose(c.f_gain()[keep], precision_gain(f1[keep], c.prevalence))


@settings(max_examples=100, deadline=None)
@given(
    n_pos=st.integers(2, 50),
    n_neg=st.integers(1, 50),
    data=st.data(),
)
def test_theorem1_davis_goadrich_points_are_on_the_prg_segment(n_pos, n_neg, data):
    # the PR-space (non-linear) Davis-Goadrich interpolation is a straight line in PRG space
    tp_a = data.draw(st.integers(1, n_pos - 1))
    tp_b = data.draw(st.integers(tp_a + 1, n_pos))
    fp_a = data.draw(st.integers(0, n_neg))
    fp_b = data.draw(st.integers(fp_a, n_neg))
    pts = dg_interpolate(tp_a, fp_a, tp_b, fp_b, n_pos)
    g = gains_from_counts(pts.tp, pts.fp, n_pos - pts.tp, n_neg - pts.fp)
    x, yv = g.recall_gain, g.precision_gain
    on_line = yv[0] + (x - x[0]) * (yv[-1] - yv[0]) / (x[-1] - x[0])
    np.testing.assert_allclose(yv, on_line, atol=1e-9 * (1 + np.abs(yv).max()))


# --- convex hull --------------------------------------------------------------------------------


@pytest.mark.parametrize("sign", [1, -1])
@pytest.mark.parametrize("seed", range(10))
def test_convex_hull_matches_exact_prg_hull(seed, sign):
    y, s = tied_data(seed, n=60, decimals=1 if seed % 2 else 2)
    s = sign * s  # sign -1: a poor scorer, with points of TP = 0 and negative gains
    c = prg_curve(y, s)
    vertices, offset = exact_prg_hull(y, s)
    hull = c.convex_hull()
    np.testing.assert_array_equal(hull.thresholds, c.thresholds[np.add(vertices, offset)])
    assert hull.auc() >= c.auc() - 1e-12
    # the hull is concave: slopes decrease (vertical drops allowed at the end)
    x, yv = hull.path()
    dx, dy = np.diff(x), np.diff(yv)
    slopes = dy[dx > 0] / dx[dx > 0]
    assert np.all(np.diff(slopes) <= 1e-12)


# --- F-optimal threshold ---------------------------------------------------------------------


@pytest.mark.parametrize("beta", [0.25, 0.5, 1.0, 2.0, 4.0])
@pytest.mark.parametrize("seed", range(5))
def test_best_f_threshold_equals_brute_force(beta, seed):
    y, s = tied_data(seed, n=150, prevalence=0.2 + 0.1 * seed)
    best = prg_curve(y, s).best_f_threshold(beta=beta)
    assert isinstance(best, FBetaOptimum) and best.beta == beta
    assert best.f_beta == pytest.approx(brute_best_f(y, s, beta), rel=1e-12)
    pred = s >= best.threshold
    tp, fp = (pred & y).sum(), (pred & ~y).sum()
    assert (best.tp, best.fp) == (tp, fp)
    b2 = beta**2
    assert best.f_beta == pytest.approx((1 + b2) * tp / ((1 + b2) * tp + b2 * (y.sum() - tp) + fp))
    pi = y.mean()
    assert best.f_gain == pytest.approx((best.f_beta - pi) / ((1 - pi) * best.f_beta))
    assert best.f_gain == pytest.approx((best.precision_gain + b2 * best.recall_gain) / (1 + b2))


def test_best_f_threshold_with_gt_rule():
    y, s = tied_data(3, n=100)
    best = prg_curve(y, s, threshold_rule="gt").best_f_threshold()
    pred = s > best.threshold
    tp, fp = (pred & y).sum(), (pred & ~y).sum()
    assert best.f_beta == pytest.approx(2 * tp / (2 * tp + (y.sum() - tp) + fp))
    assert best.f_beta == pytest.approx(brute_best_f(y, s, 1.0, rule="gt"))


# --- Theorem 3 -----------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("seed", "beta", "gamma_extra"),
    [(0, 1.0, 0.0), (1, 2.0, 0.0), (2, 0.5, 0.3), (3, 1.0, 1.0), (4, 3.0, 0.1)],
)
def test_theorem3_expected_f_gain_under_uniform_delta(seed, beta, gamma_extra):
    y, s = tied_data(seed, n=200, prevalence=0.15 + 0.15 * seed)
    c = prg_curve(y, s)
    pi, y0 = c.prevalence, c.y0
    gamma = 1 - pi + gamma_extra
    x, yv = c.path()
    delta = x / pi - yv / gamma
    # the theorem's first step: Delta_gamma never decreases along the curve
    assert np.all(np.diff(delta) >= -1e-12)
    assert delta[0] == pytest.approx(-y0 / gamma) and delta[-1] == pytest.approx(1 / pi)
    alpha = 1 / (1 + beta**2)
    fg = alpha * yv + (1 - alpha) * x
    formula = c.expected_f_gain(beta, gamma=gamma)
    assert formula == pytest.approx(
        expected_f_gain(c.auc(), pi, beta=beta, y0=y0, gamma=gamma), abs=0
    )
    # exact: FG is piecewise linear in Delta, so trapezoids integrate it exactly
    exact = np.sum(np.diff(delta) * (fg[1:] + fg[:-1]) / 2) / (delta[-1] - delta[0])
    assert exact == pytest.approx(formula, abs=1e-12)
    # Monte Carlo: operating points with Delta uniform on [-y0/gamma, 1/pi]
    rng = np.random.default_rng(seed)
    d = rng.uniform(-y0 / gamma, 1 / pi, size=200_000)
    fg_sim = alpha * np.interp(d, delta, yv) + (1 - alpha) * np.interp(d, delta, x)
    se = fg_sim.std() / np.sqrt(d.size)
    assert abs(fg_sim.mean() - formula) < 4 * se


@settings(max_examples=60, deadline=None)
@given(
    labels=st.lists(st.booleans(), min_size=4, max_size=40),
    scores=st.lists(st.integers(0, 6), min_size=40, max_size=40),
)
def test_delta_monotone_and_auprg_exact_for_any_data(labels, scores):
    y = np.array(labels)
    if y.all() or not y.any():
        return
    s = np.array(scores[: len(labels)], dtype=float)
    c = prg_curve(y, s)
    x, yv = c.path()
    delta = x / c.prevalence - yv / (1 - c.prevalence)
    assert np.all(np.diff(delta) >= -1e-9)
    assert c.auc() == pytest.approx(float(exact_auprg(y, s)[0]), abs=1e-9)
    assert c.auc() <= c.convex_hull().auc() + 1e-12


# --- conversions between PR, ROC and PRG ------------------------------------------------------


@pytest.mark.parametrize("rule", ["ge", "gt"])
def test_from_pr_to_pr_from_roc_round_trips(rule):
    y, s = tied_data(8, n=150)
    pr = pr_curve(y, s, threshold_rule=rule)
    c = prg_curve(y, s, threshold_rule=rule)
    d = PRGCurve.from_pr(pr)
    for name in ("thresholds", "tp", "fp", "precision_gain", "recall_gain"):
        np.testing.assert_array_equal(getattr(c, name), getattr(d, name))
    back = c.to_pr()
    assert isinstance(back, PRCurve) and back.threshold_rule == rule
    for name in ("thresholds", "tp", "fp", "precision", "recall"):
        np.testing.assert_array_equal(getattr(back, name), getattr(pr, name))
    roc = roc_curve(y, s)
    e = PRGCurve.from_roc(roc)
    np.testing.assert_array_equal(e.precision_gain, prg_curve(y, s).precision_gain)
    np.testing.assert_allclose(c.to_roc().tpr, pr.to_roc().tpr)


def test_path_without_clipping_keeps_every_finite_point():
    y, s = tied_data(2, n=100, prevalence=0.5)
    c = prg_curve(y, s)
    x, yv = c.path(from_zero=False)
    assert np.all(np.isfinite(x)) and np.all(np.isfinite(yv))
    assert x.size == int((c.tp > 0).sum())
    assert (x < 0).any()


def test_pos_label_and_prevalence():
    c = prg_curve(["a", "b", "b", "a"], [0.9, 0.1, 0.4, 0.7], pos_label="a")
    assert c.prevalence == 0.5 and c.auc() == 1.0


# --- errors --------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("call", "exc", "match"),
    [
        (
            lambda: prg_curve([1, 1, 1], [0.1, 0.2, 0.3]),
            ValueError,
            "y_true: expected both classes",
        ),
        (
            lambda: prg_curve([0, 1], [0.1]),
            ValueError,
            "y_true and y_score: expected the same length",
        ),
        (lambda: prg_curve([0, 1], [0.1, np.nan]), ValueError, "y_score: expected finite numbers"),
        (
            lambda: prg_curve([0, 1], [0.1, 0.2], threshold_rule="x"),
            ValueError,
            "threshold_rule: expected one of 'ge', 'gt', got 'x'",
        ),
        (lambda: PRGCurve.from_pr([1, 2]), TypeError, "curve: expected a PRCurve, got list"),
        (
            lambda: PRGCurve.from_roc(pr_curve([0, 1], [0.1, 0.2])),
            TypeError,
            "curve: expected a ROCCurve, got PRCurve",
        ),
        (
            lambda: prg_curve([0, 1], [0.1, 0.2]).best_f_threshold(beta=0.0),
            ValueError,
            "beta: expected a number > 0, got 0.0",
        ),
        (
            lambda: prg_curve([0, 1], [0.1, 0.2]).f_gain(beta="2"),
            TypeError,
            "beta: expected a number, got str",
        ),
        (
            lambda: prg_curve([0, 1], [0.1, 0.2]).expected_f_gain(gamma=0.1),
            ValueError,
            "gamma: expected a number >= 1 - prevalence = 0.5, got 0.1",
        ),
    ],
)
def test_errors(call, exc, match):
    with pytest.raises(exc, match=match):
        call()
