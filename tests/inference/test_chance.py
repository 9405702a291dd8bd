"""The one-sided "worse than chance" test behind the report's warning."""

from __future__ import annotations

import numpy as np
import pytest
from scipy import stats
from sklearn.metrics import roc_auc_score

import prcurve
from prcurve._inference._chance import DEFAULT_ALPHA, below_chance_test


def _test(y, s, **kw):
    c = prcurve.pr_curve(y, s)
    return below_chance_test(c.tp, c.fp, **kw)


@pytest.mark.parametrize("levels", [3, 12, None])
def test_auc_and_p_value_match_sklearn_and_scipy_with_ties(levels):
    """AUC = scikit-learn's; p = SciPy's tie-corrected asymptotic Mann–Whitney p-value."""
    rng = np.random.default_rng(levels or 0)
    n = 500
    y = rng.random(n) < 0.3
    s = rng.normal(size=n) - 0.15 * y  # slightly reversed
    if levels is not None:
        s = np.floor(s * levels / 4)  # heavy ties
    res = _test(y, s)
    assert res.roc_auc == pytest.approx(roc_auc_score(y, s), abs=1e-12)
    ref = stats.mannwhitneyu(
        s[y], s[~y], alternative="less", method="asymptotic", use_continuity=False
    )
    assert res.p_value == pytest.approx(ref.pvalue, rel=1e-9)
    assert res.below == (ref.pvalue < DEFAULT_ALPHA)
    assert (res.n_pos, res.n_neg) == (np.count_nonzero(y), np.count_nonzero(~y))


def test_reversed_scorer_is_flagged_and_good_one_is_not():
    rng = np.random.default_rng(1)
    y = rng.random(400) < 0.2
    s = rng.normal(size=400) + 1.5 * y
    assert _test(y, -s).below
    assert _test(y, -s).p_value < 1e-10
    assert not _test(y, s).below
    assert _test(y, s).p_value > 0.999


@pytest.mark.parametrize("alpha", [0.05, DEFAULT_ALPHA])
def test_false_alarm_rate_on_random_scores_within_binomial_bounds(alpha):
    """Scores independent of the labels (ties included): the share flagged is alpha, within a
    two-sided binomial range of probability 1 − 2·10⁻⁶ (so this fails by chance ~never)."""
    rng = np.random.default_rng(2024)
    reps, n = 3000, 300
    flagged = 0
    for _ in range(reps):
        y = rng.random(n) < 0.25
        s = rng.integers(0, 15, size=n).astype(float)  # 15 tied values
        flagged += _test(y, s, alpha=alpha).below
    lo, hi = stats.binom.ppf([1e-6, 1 - 1e-6], reps, alpha)
    assert lo <= flagged <= hi, (flagged, lo, hi)


def test_weighted_uses_effective_counts():
    """Integer weights with effective counts = the expanded data's counts: the same test as on
    the rows repeated (large-n form of the variance, so to 1 %)."""
    rng = np.random.default_rng(5)
    n = 2000
    y = rng.random(n) < 0.3
    s = rng.normal(size=n) - 0.1 * y
    w = rng.integers(1, 4, size=n)
    c = prcurve.pr_curve(y, s, sample_weight=w.astype(float))
    expanded = _test(np.repeat(y, w), np.repeat(s, w))
    res = below_chance_test(c.tp, c.fp, effective_counts=(float(w[y].sum()), float(w[~y].sum())))
    assert res.weighted
    assert res.roc_auc == pytest.approx(roc_auc_score(y, s, sample_weight=w), abs=1e-12)
    assert res.z == pytest.approx(expanded.z, rel=0.01)


def test_all_tied_is_not_flagged():
    res = _test(np.array([0, 1, 0, 1, 0]), np.zeros(5))
    assert res.roc_auc == 0.5 and res.p_value == 1.0 and not res.below


def test_without_tie_correction_is_conservative():
    rng = np.random.default_rng(3)
    y = rng.random(300) < 0.4
    s = np.floor(rng.normal(size=300) - 0.3 * y)
    assert _test(y, s, ties=False).p_value > _test(y, s).p_value


def test_bad_input_messages():
    c = prcurve.pr_curve([0, 1, 1, 0], [0.1, 0.2, 0.3, 0.4])
    with pytest.raises(ValueError, match=r"alpha: expected a number in \(0, 1\), got 1\.5"):
        below_chance_test(c.tp, c.fp, alpha=1.5)
    with pytest.raises(TypeError, match=r"alpha: expected a number in \(0, 1\), got 'x'"):
        below_chance_test(c.tp, c.fp, alpha="x")
    with pytest.raises(ValueError, match=r"tp, fp: expected two non-empty 1-d arrays.*\(3,\)"):
        below_chance_test(c.tp, c.fp[:3])
    with pytest.raises(ValueError, match=r"effective_counts: expected Kish's .* got None"):
        below_chance_test(c.tp.astype(float), c.fp.astype(float))
    with pytest.raises(ValueError, match=r"tp, fp: expected positives and negatives, got"):
        below_chance_test(np.array([0, 0]), np.array([1, 2]))
