"""Coverage studies of the confidence bands (small seeded versions; the full study is in
examples/coverage_study.py)."""

import numpy as np
import pytest
from scipy import stats

from prcurve import CoverageResult, PopulationModel, cases, coverage_study


def test_small_seeded_coverage_case_a():
    res = coverage_study(cases.A(0.2), 400, n_repetitions=20, n_resamples=150, num=50, rng=1)
    assert isinstance(res, CoverageResult)
    assert res.n_repetitions == 20 and res.radii.shape == (20,) and res.covered.shape == (20,)
    assert res.coverage == res.n_covered / 20 == res.covered.mean()
    assert res.coverage >= 0.8
    assert res.interval.low <= res.coverage <= res.interval.high
    assert res.mean_radius == pytest.approx(res.radii.mean())
    again = coverage_study(cases.A(0.2), 400, n_repetitions=20, n_resamples=150, num=50, rng=1)
    np.testing.assert_array_equal(res.radii, again.radii)


def test_coverage_with_scipy_laws_and_naive_band():
    model = PopulationModel(negative=stats.norm(0, 1), positive=stats.norm(1, 1), prevalence=0.3)
    res = coverage_study(
        model, 300, n_repetitions=15, method="bootstrap", n_resamples=150, num=40, rng=2
    )
    assert res.method == "bootstrap" and res.coverage >= 0.7


def test_clopper_pearson_interval():
    res = coverage_study(cases.C(0.3), 200, n_repetitions=10, n_resamples=100, num=20, rng=3)
    k = res.n_covered
    lo = stats.beta.ppf(0.025, k, 10 - k + 1) if k > 0 else 0.0
    hi = stats.beta.ppf(0.975, k + 1, 10 - k) if k < 10 else 1.0
    assert (res.interval.low, res.interval.high) == pytest.approx((lo, hi))


def test_band_options_and_progress_pass_through():
    calls = []
    res = coverage_study(
        cases.A(0.3),
        200,
        n_repetitions=3,
        n_resamples=50,
        num=10,
        bandwidth=0.3,
        rng=0,
        progress=lambda d, t: calls.append((d, t)),
    )
    assert calls == [(1, 3), (2, 3), (3, 3)]
    assert res.n == 200


def test_errors():
    with pytest.raises(ValueError, match="n: expected an integer >= 4, got 2"):
        coverage_study(cases.A(0.3), 2)
    with pytest.raises(ValueError, match="n_repetitions: expected an integer >= 1, got 0"):
        coverage_study(cases.A(0.3), 100, n_repetitions=0)
    with pytest.raises(ValueError, match=r"level: expected a number in \(0, 1\)"):
        coverage_study(cases.A(0.3), 100, level=1.0)


def test_degenerate_samples_are_counted_not_fatal():
    """Case F is discrete: a sample may put every positive on one atom (no bandwidth)."""
    from prcurve import DegenerateBootstrapWarning, cases, coverage_study

    with pytest.warns(DegenerateBootstrapWarning, match=r"\d+ of 40 samples admitted no band"):
        res = coverage_study(cases.F(1 / 11), 25, n_repetitions=40, n_resamples=20, rng=0)
    assert res.n_failed >= 1
    assert res.covered.shape == (40 - res.n_failed,) == res.radii.shape
    assert res.coverage == pytest.approx(res.covered.mean())


def test_coverage_study_argument_errors():
    from prcurve import cases, coverage_study

    with pytest.raises(TypeError, match="unexpected keyword 'n_replicates'"):
        coverage_study(cases.A(0.3), 25, n_replicates=20)
    with pytest.raises(TypeError, match="model: expected a PopulationModel, got str"):
        coverage_study("A", 25)


def test_tiny_prevalence_does_not_spin():
    """Exact conditional draws: a sample with both classes is drawn at once, however rare."""
    from prcurve import cases, coverage_study

    res = coverage_study(cases.A(1e-9), 10, n_repetitions=2, n_resamples=20, rng=0)
    assert res.n_repetitions == 2
