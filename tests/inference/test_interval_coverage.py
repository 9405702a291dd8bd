"""Coverage of every interval (issue 17): population targets and a small seeded study."""

import numpy as np
import pytest
from scipy import stats

from prcurve import PopulationModel, auc_pr, cases, coverage_study, pr_curve
from prcurve._inference._interval_coverage import (
    interval_coverage,
    population_average_precision,
    population_precision,
)


def rounded_binormal(shift=1.4, prevalence=0.2):
    grid = np.round(np.arange(-6.0, 7.5 + shift, 0.1), 1)
    edges = np.r_[grid - 0.05, grid[-1] + 0.05]

    def law(mu):
        p = np.diff(stats.norm.cdf(edges, mu))
        return stats.rv_discrete(values=(grid, p / p.sum()))

    return PopulationModel(law(0.0), law(shift), prevalence)


@pytest.mark.parametrize("make", [lambda: cases.F(0.2), rounded_binormal])
def test_population_targets_match_a_large_sample(make):
    """The interpolated curve and the AP limit against one 10⁶-row sample (n₊ ≈ 2·10⁵)."""
    model = make()
    y, s = model.sample(1_000_000, rng=3)
    curve = pr_curve(y, s)
    x = np.array([0.1, 0.3, 0.5, 0.7, 0.85])
    np.testing.assert_allclose(
        curve.precision_at(x), population_precision(model, x, ties="interpolate"), atol=4e-3
    )
    np.testing.assert_allclose(
        curve.precision_at(x, ties="strict"), population_precision(model, x, ties="strict"),
        atol=4e-3,
    )  # fmt: skip
    assert auc_pr(y, s) == pytest.approx(population_average_precision(model), abs=4e-3)
    # on discrete laws the two readings differ: the test above can tell them apart
    gap = population_precision(model, x, ties="interpolate") - model.precision_at(x)
    assert np.abs(gap).max() > 0.01


def test_continuous_targets_are_the_papers_curve_and_area():
    model = cases.A(0.3)
    x = np.linspace(0.05, 0.95, 7)
    np.testing.assert_array_equal(
        population_precision(model, x, ties="interpolate"), model.precision_at(x)
    )
    assert population_average_precision(model) == model.auc_pr()


def test_interval_coverage_rows_and_errors():
    rows = interval_coverage(
        cases.A(0.3), 200, n_repetitions=4, n_resamples=60, recall=(0.5,), rng=1
    )
    names = [r.interval for r in rows]
    assert "auc bca [instances]" in names and "band naive [stratified]" in names
    assert "compare, equal AUC [instances]" in names
    for r in rows:
        assert r.n_valid + r.n_failed == 4
        assert r.coverage == pytest.approx(r.n_covered / r.n_valid)
        assert r.low <= r.coverage <= r.high
    again = interval_coverage(
        cases.A(0.3), 200, n_repetitions=4, n_resamples=60, recall=(0.5,), rng=1
    )
    assert [r.mean_width for r in again] == [r.mean_width for r in rows]
    with pytest.raises(ValueError, match="groups: expected names among auc"):
        interval_coverage(cases.A(0.3), 200, groups=("bands",))
    with pytest.raises(TypeError, match="model: expected a PopulationModel, got str"):
        interval_coverage("A", 200)


def test_coverage_study_targets_the_interpolated_curve_on_discrete_laws():
    res = coverage_study(
        cases.F(0.3), 600, n_repetitions=12, method="bootstrap", n_resamples=150, rng=4
    )
    strict = coverage_study(
        cases.F(0.3), 600, n_repetitions=12, method="bootstrap", n_resamples=150, rng=4,
        ties="strict",
    )  # fmt: skip
    # each band is judged against the curve it estimates
    assert res.coverage >= 0.75 and strict.coverage >= 0.75


@pytest.mark.slow
def test_small_seeded_coverage_of_every_interval():
    """Case A, n = 600, 80 repetitions: no default interval under-covers beyond Monte-Carlo
    error by more than the documented amounts (Clopper–Pearson upper bound ≥ 0.85)."""
    rows = interval_coverage(
        cases.A(0.2), 600, n_repetitions=80, n_resamples=200, recall=(0.5, 0.8), rng=7
    )
    by_name = {(r.interval, r.recall): r for r in rows}
    for key, r in by_name.items():
        assert r.n_failed == 0, key
        assert r.high >= 0.85, (key, r.coverage)
    # the default (instances) bootstrap is at least as wide as the stratified one
    for name in ("auc percentile", "pointwise bootstrap"):
        rec = None if name.startswith("auc") else 0.8
        inst = by_name[(f"{name} [instances]", rec)]
        strat = by_name[(f"{name} [stratified]", rec)]
        assert inst.mean_width >= strat.mean_width


@pytest.mark.slow
def test_small_seeded_coverage_on_discrete_scores():
    """Rounded binormal: the default intervals hold; Case F: the smoothed band fails where the
    docstring says so, the naive band does not."""
    rows = interval_coverage(
        rounded_binormal(), 600, n_repetitions=50, n_resamples=200, recall=(0.5,),
        groups=("pointwise", "band"), rng=8,
    )  # fmt: skip
    for r in rows:
        if "stratified" not in r.interval:
            assert r.high >= 0.85, (r.interval, r.coverage)
    rows = interval_coverage(
        cases.F(0.2), 1000, n_repetitions=30, n_resamples=200, groups=("band",), rng=9
    )
    cov = {r.interval: r for r in rows}
    assert cov["band smoothed"].high < 0.5
    assert cov["band naive [instances]"].high >= 0.85
