import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from scipy.integrate import quad
from sklearn.metrics import average_precision_score

from prcurve import auc_pr, pr_curve
from prcurve._core._area import AUC_PR_METHODS

from ..conftest import make_problem

METHODS = list(AUC_PR_METHODS)


def boyd_points(y, s, w=None):
    """(0, 1) followed by one (recall, precision) per distinct threshold, slowly."""
    w = np.ones(len(y)) if w is None else w
    n_pos = w[y].sum()
    pts = [(0.0, 1.0)]
    for t in np.unique(s)[::-1]:
        tp = w[(s >= t) & y].sum()
        fp = w[(s >= t) & ~y].sum()
        pts.append((tp / n_pos, tp / (tp + fp)))
    return pts


def slow_lower_trapezoid(pts):
    recalls = sorted({r for r, _ in pts})
    pmin = {r: min(p for rr, p in pts if rr == r) for r in recalls}
    pmax = {r: max(p for rr, p in pts if rr == r) for r in recalls}
    return sum(
        (recalls[i] - recalls[i - 1]) * (pmin[recalls[i - 1]] + pmax[recalls[i]]) / 2
        for i in range(1, len(recalls))
    )


def dg_integral(r0, p0, r1, p1, n_pos):
    """Numerical integral of the DG curve between two (recall, precision) points."""
    tp0, tp1 = r0 * n_pos, r1 * n_pos
    fp0, fp1 = tp0 / p0 - tp0, tp1 / p1 - tp1
    skew = (fp1 - fp0) / (tp1 - tp0)

    def prec(tp):
        return tp / (tp + fp0 + (tp - tp0) * skew)

    return quad(prec, tp0, tp1, epsabs=1e-13)[0] / n_pos


def slow_interpolated_median(pts, n_pos):
    recalls = sorted({r for r, _ in pts})
    med = {r: float(np.median([p for rr, p in pts if rr == r])) for r in recalls}
    area = recalls[1] * med[recalls[1]]
    for i in range(2, len(recalls)):
        area += dg_integral(recalls[i - 1], med[recalls[i - 1]], recalls[i], med[recalls[i]], n_pos)
    return area


def slow_average_precision(pts):
    return sum((pts[i][0] - pts[i - 1][0]) * pts[i][1] for i in range(1, len(pts)))


def slow_trapezoid(pts):
    first = pts[1]
    area = first[0] * first[1]
    for i in range(2, len(pts)):
        area += (pts[i][0] - pts[i - 1][0]) * (pts[i][1] + pts[i - 1][1]) / 2
    return area


def slow_davis_goadrich(y, s, w=None):
    w = np.ones(len(y)) if w is None else w
    n_pos = w[y].sum()
    prev_tp = prev_fp = 0.0
    area = 0.0
    for t in np.unique(s)[::-1]:
        tp, fp = w[(s >= t) & y].sum(), w[(s >= t) & ~y].sum()
        if tp > prev_tp:
            skew = (fp - prev_fp) / (tp - prev_tp)

            def prec(x, a=prev_tp, b=prev_fp, k=skew):
                return (a + x) / (a + b + x * (1 + k))

            area += quad(prec, 0, tp - prev_tp, epsabs=1e-13)[0]
        prev_tp, prev_fp = tp, fp
    return area / n_pos


@pytest.mark.parametrize("prevalence", [0.05, 0.3, 0.8])
@pytest.mark.parametrize("ties", [False, True])
@pytest.mark.parametrize("weights", [False, True])
def test_estimators_match_slow_definitions(rng, prevalence, ties, weights):
    y, s, w = make_problem(rng, n=120, prevalence=prevalence, ties=ties, weights=weights)
    pts = boyd_points(y, s, w)
    n_pos = (np.ones(len(y)) if w is None else w)[y].sum()
    curve = pr_curve(y, s, sample_weight=w)
    assert curve.auc("average_precision") == pytest.approx(slow_average_precision(pts), abs=1e-12)
    assert curve.auc("trapezoid") == pytest.approx(slow_trapezoid(pts), abs=1e-12)
    assert curve.auc("lower_trapezoid") == pytest.approx(slow_lower_trapezoid(pts), abs=1e-12)
    assert curve.auc("interpolated_median") == pytest.approx(
        slow_interpolated_median(pts, n_pos), abs=1e-9
    )
    assert curve.auc("davis_goadrich") == pytest.approx(slow_davis_goadrich(y, s, w), abs=1e-9)


@pytest.mark.parametrize("ties", [False, True])
@pytest.mark.parametrize("weights", [False, True])
def test_average_precision_equals_scikit_learn(rng, ties, weights):
    for prevalence in (0.01, 0.2, 0.5, 0.95):
        y, s, w = make_problem(rng, n=3000, prevalence=prevalence, ties=ties, weights=weights)
        ours = auc_pr(y, s, sample_weight=w)
        assert ours == pytest.approx(average_precision_score(y, s, sample_weight=w), abs=1e-12)


def test_hand_computed_small_example():
    y, s = [0, 0, 1, 1], [0.1, 0.4, 0.35, 0.8]
    # points: (0.5, 1), (0.5, 0.5), (1, 2/3), (1, 0.5)
    assert auc_pr(y, s) == pytest.approx(0.5 * 1 + 0.5 * 2 / 3)
    assert auc_pr(y, s, method="trapezoid") == pytest.approx(0.5 + 0.5 * (0.5 + 2 / 3) / 2)
    assert auc_pr(y, s, method="lower_trapezoid") == pytest.approx(
        0.5 * (1 + 1) / 2 + 0.5 * (0.5 + 2 / 3) / 2
    )
    assert auc_pr(y, s, method="davis_goadrich") == pytest.approx((1 + 1 - np.log(1.5)) / 2)


def test_perfect_and_reversed_rankings():
    y = np.array([1, 1, 1, 0, 0, 0, 0])
    s = np.arange(7, 0, -1, dtype=float)
    for m in METHODS:
        if m != "interpolated_median":
            assert auc_pr(y, s, method=m) == pytest.approx(1.0)
    # the median at recall 1 runs over every threshold below the last positive
    assert auc_pr(y, s, method="interpolated_median") == pytest.approx(
        1 / 3 * 1 + 1 / 3 * 1 + 1 / 3 * (1 + 0.6) / 2 + 0, abs=0.1
    )
    worst = auc_pr(y, -s, method="davis_goadrich")
    assert 0 < worst < 3 / 7


def test_trapezoid_above_davis_goadrich_on_a_typical_curve(rng):
    y, s, _ = make_problem(rng, n=2000, prevalence=0.02, ties=True)
    c = pr_curve(y, s)
    assert c.auc("trapezoid") > c.auc("davis_goadrich")


def test_trapezoid_below_davis_goadrich_after_a_negative_ranked_first():
    """Issue 23: the docstring said the trapezoid overestimates; here precision rises from 0.
    DG: ∫₀¹ x/(1 + x) dx = 1 − ln 2; trapezoid: the line from (0, 0) to (1, 1/2)."""
    assert auc_pr([0, 1], [2, 1], method="trapezoid") == pytest.approx(0.25, rel=1e-15)
    assert auc_pr([0, 1], [2, 1], method="davis_goadrich") == pytest.approx(
        1 - np.log(2), rel=1e-14
    )


@settings(max_examples=150, deadline=None)
@given(seed=st.integers(0, 2**32 - 1), n=st.integers(2, 40), prevalence=st.floats(0.1, 0.9))
def test_trapezoid_minus_davis_goadrich_has_the_sign_of_the_precision_drop(seed, n, prevalence):
    """The condition stated in auc_pr's docstring, segment by segment: between consecutive
    points A, B with TP_B > TP_A the straight line is above the count-space interpolation when
    P_B < P_A, below it when P_B > P_A, equal when P_A = P_B (compared exactly, cross-multiplied
    on the integer counts).  The interpolated piece is integrated numerically (quad, absolute
    error far below the smallest nonzero difference here: |a c − d| ≥ 1/ΔTP for integer
    counts), and the pieces add up to the difference of the two public estimators."""
    rng = np.random.default_rng(seed)
    y, s, _ = make_problem(rng, n=n, prevalence=prevalence, ties=bool(seed % 2))
    c = pr_curve(y, s)
    tp, fp, n_pos = c.tp.tolist(), c.fp.tolist(), float(c.n_pos)
    total = 0.0
    for i in range(1, len(tp)):
        ta, fa, tb, fb = tp[i - 1], fp[i - 1], tp[i], fp[i]
        if tb == ta:
            continue
        slope = (fb - fa) / (tb - ta)
        dg, _ = quad(
            lambda x, a=ta, d=ta + fa, c=1 + slope: (a + x) / (d + c * x), 0, tb - ta, epsabs=1e-13
        )
        dg /= n_pos
        linear = (tb - ta) / n_pos * (ta / (ta + fa) + tb / (tb + fb)) / 2
        drop = ta * (tb + fb) - tb * (ta + fa)  # > 0 iff P_A > P_B, exactly (integers)
        if drop > 0:
            assert linear > dg + 1e-11
        elif drop < 0:
            assert linear < dg - 1e-11
        else:
            assert linear == pytest.approx(dg, abs=1e-12)
        total += linear - dg
    gap = c.auc("trapezoid") - c.auc("davis_goadrich")
    assert gap == pytest.approx(total, abs=1e-10)


@settings(max_examples=60, deadline=None)
@given(
    seed=st.integers(0, 2**32 - 1),
    n=st.integers(4, 60),
    prevalence=st.floats(0.1, 0.9),
    ties=st.booleans(),
    transform=st.sampled_from(["exp", "cube", "affine", "arctan"]),
)
def test_every_area_invariant_to_increasing_transform(seed, n, prevalence, ties, transform):
    rng = np.random.default_rng(seed)
    y, s, _ = make_problem(rng, n=n, prevalence=prevalence, ties=ties)
    f = {
        "exp": np.exp,
        "cube": lambda v: v**3,
        "affine": lambda v: 3 * v - 7,
        "arctan": np.arctan,
    }[transform]
    t = f(s)
    if (
        np.unique(t).size != np.unique(s).size
    ):  # rounding merged two scores: not strictly increasing
        return
    a, b = pr_curve(y, s), pr_curve(y, t)
    np.testing.assert_array_equal(a.tp, b.tp)
    for m in METHODS:
        assert a.auc(m) == pytest.approx(b.auc(m), abs=1e-12)


@settings(max_examples=60, deadline=None)
@given(seed=st.integers(0, 2**32 - 1), n=st.integers(4, 60), weights=st.booleans())
def test_zero_weight_is_dropping_the_sample(seed, n, weights):
    rng = np.random.default_rng(seed)
    y, s, w = make_problem(rng, n=n, prevalence=0.4, ties=True, weights=True)
    if not weights:
        w = np.ones(n)
    drop = rng.random(n) < 0.3
    drop[:2] = False
    w0 = np.where(drop, 0.0, w)
    full = pr_curve(y, s, sample_weight=w0)
    kept = pr_curve(y[~drop], s[~drop], sample_weight=w[~drop])
    np.testing.assert_allclose(full.tp, kept.tp)
    for m in METHODS:
        assert full.auc(m) == pytest.approx(kept.auc(m), abs=1e-12)


@settings(max_examples=150, deadline=None)
@given(
    scores=st.lists(st.integers(0, 12), min_size=2, max_size=60),
    labels=st.lists(st.booleans(), min_size=2, max_size=60),
    weighted=st.booleans(),
    method=st.sampled_from(
        ["davis_goadrich", "trapezoid", "lower_trapezoid", "interpolated_median"]
    ),
)
def test_one_curve_areas_equal_the_batched_sums_bit_for_bit(scores, labels, weighted, method):
    """A single curve's Davis-Goadrich and trapezoid areas use only the points around TP steps
    (``segment_points``), its interpolated median arrays per recall level; each value is the
    batched computation's over every point, to the last bit."""
    from prcurve._core._area import area_from_counts, batched_area

    n = min(len(scores), len(labels))
    y = np.array(labels[:n])
    y[0], y[-1] = True, False
    s = np.array(scores[:n], dtype=float)
    w = np.linspace(0.5, 3.0, n) if weighted else None
    c = pr_curve(y, s, sample_weight=w)
    tp, fp = c.tp.astype(float), c.fp.astype(float)
    full = batched_area(tp[None, :], fp[None, :], np.array([float(c.n_pos)]), method)[0]
    assert area_from_counts(c.tp, c.fp, c.n_pos, method) == full
