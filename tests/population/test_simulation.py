"""The vectorised Monte Carlo study of PR̂(x) (Hughes-Oliver section 3.2)."""

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from hypothesis.extra import numpy as hnp
from scipy import stats

from prcurve import (
    PRSimulation,
    asymptotic_variance,
    batch_precision_at,
    cases,
    pr_curve,
    simulate_pr_estimator,
)

RECALL = np.concatenate([np.arange(1, 11) / 10, [1 / 3, 2 / 3, 0.05, 0.999]])


def bimodality_coefficient(values):
    """Sarle's coefficient: > 5/9 suggests a bimodal law (two point masses give ~1)."""
    n = values.size
    g = stats.skew(values, bias=False)
    k = stats.kurtosis(values, bias=False)
    return (g**2 + 1) / (k + 3 * (n - 1) ** 2 / ((n - 2) * (n - 3)))


# ---------------------------------------------------------------- batched estimator
@pytest.mark.parametrize("ties", [False, True])
def test_batch_equals_pr_curve_row_by_row(rng, ties):
    R, n = 40, 60
    y = rng.random((R, n)) < 0.3
    y[:, 0] = True
    y[:, 1] = False
    s = rng.normal(size=(R, n)) + y
    if ties:
        s = np.round(s)
    got = batch_precision_at(y, s, RECALL)
    assert got.shape == (R, RECALL.size)
    for r in range(R):
        want = pr_curve(y[r], s[r]).precision_at(RECALL, ties="strict")
        assert np.allclose(got[r], want, rtol=0, atol=1e-14)


@settings(max_examples=60, deadline=None)
@given(
    labels=hnp.arrays(bool, st.integers(2, 25)),
    data=st.data(),
)
def test_batch_equals_pr_curve_hypothesis(labels, data):
    labels[0] = True
    scores = data.draw(hnp.arrays(np.float64, labels.shape, elements=st.sampled_from([0, 1, 2.5])))
    x = data.draw(hnp.arrays(np.float64, 5, elements=st.floats(0.001, 1.0)))
    curve = pr_curve(labels, scores) if (~labels).any() else None
    expected = np.ones(5) if curve is None else curve.precision_at(x, ties="strict")
    got = batch_precision_at(labels[None, :], scores[None, :], x)[0]
    assert np.allclose(got, expected, rtol=0, atol=1e-14)


def test_batch_errors():
    y = np.array([[True, False]])
    with pytest.raises(ValueError, match=r"y and score: expected two arrays of one shape"):
        batch_precision_at(y, np.zeros((1, 3)), [0.5])
    with pytest.raises(ValueError, match="y: expected at least one positive in every row, got"):
        batch_precision_at(np.zeros((2, 2), bool), np.zeros((2, 2)), [0.5])
    with pytest.raises(ValueError, match=r"recall: expected values in \(0, 1\]"):
        batch_precision_at(y, np.zeros((1, 2)), [0.0])
    with pytest.raises(ValueError, match="score: expected finite numbers"):
        batch_precision_at(y, np.array([[np.nan, 1.0]]), [0.5])


# ---------------------------------------------------------------- the simulation
def test_result_shapes_and_reproducibility():
    m = cases.C(0.2)
    a = simulate_pr_estimator(m, 100, n_replicates=300, rng=7)
    b = simulate_pr_estimator(m, 100, n_replicates=300, rng=np.random.default_rng(7))
    assert isinstance(a, PRSimulation)
    assert np.array_equal(a.estimates, b.estimates) and np.array_equal(a.n_pos, b.n_pos)
    assert a.estimates.shape == (300, 10) and a.n_replicates == 300
    assert np.allclose(a.recall, np.arange(1, 11) / 10)
    assert np.allclose(a.population, m.precision_at(a.recall))
    assert np.allclose(a.bias(), a.mean() - a.population)
    assert a.normal is not None and np.allclose(a.normal.recall, a.recall[:-1])
    dens, edges = a.histogram(20)
    assert dens.shape == (10, 20) and edges.shape == (21,)
    assert np.all(np.isfinite(a.density(np.linspace(0, 1, 11))))


def test_each_replicate_is_the_functional_estimator():
    # rebuild the replicates' data from the same generator stream and compare with pr_curve
    m = cases.A(0.3)
    sim = simulate_pr_estimator(m, 50, [0.25, 0.5, 1.0], n_replicates=30, rng=3)
    gen = np.random.default_rng(3)
    n_pos = gen.binomial(50, 0.3, size=30)
    assert np.array_equal(n_pos, sim.n_pos)  # no rejection needed for this seed
    lab = np.arange(50)[None, :] < n_pos[:, None]
    score = np.empty(lab.shape)
    score[lab] = m.positive.rvs(size=int(n_pos.sum()), random_state=gen)
    score[~lab] = m.negative.rvs(size=int((~lab).sum()), random_state=gen)
    for r in range(30):
        expected = pr_curve(lab[r], score[r]).precision_at([0.25, 0.5, 1.0], ties="strict")
        assert np.allclose(sim.estimates[r], expected)


def test_class_counts():
    m = cases.A(1 / 11)
    fixed = simulate_pr_estimator(m, 110, n_replicates=50, class_counts="fixed", rng=0)
    assert np.all(fixed.n_pos == 10)
    tiny = simulate_pr_estimator(cases.A(0.05), 3, n_replicates=500, rng=0)
    assert tiny.n_pos.min() >= 1 and tiny.n_pos.max() <= 2
    big = simulate_pr_estimator(m, 500, n_replicates=2000, rng=1)
    assert abs(big.n_pos.mean() - 500 / 11) < 0.5  # "n₊ = 45 on average"


def test_discrete_model_has_no_normal_approximation():
    sim = simulate_pr_estimator(cases.F(0.5), 100, n_replicates=50, rng=0)
    assert sim.normal is None


def test_constant_column_has_no_kernel_density():
    sim = simulate_pr_estimator(cases.D(0.5), 200, [0.1, 0.9], n_replicates=200, rng=0)
    assert np.all(sim.estimates[:, 0] == 1.0)
    dens = sim.density(np.linspace(0, 1, 50))
    assert np.all(dens[0] == 0) and dens[1].max() > 0


@pytest.mark.slow
def test_scaled_variance_approaches_sigma2_case_a():
    m = cases.A(1 / 11)
    x = np.array([0.3, 0.5, 0.7])
    sim = simulate_pr_estimator(m, 2000, x, n_replicates=4000, rng=20261121)
    sigma2 = asymptotic_variance(m, x)
    # 4000 replicates: relative MC sd of a variance ≈ √(2/R) = 0.022 (normal), so 0.12 leaves
    # z ≈ 3 beside the O(1/n) gap between the n = 2000 variance and its limit
    assert np.allclose(sim.scaled_variance(), sigma2, rtol=0.12)
    # MC SE of the mean √(σ²/n/R) <= 0.0014 here; 0.01 also covers the O(1/n) bias of PR̂
    assert np.allclose(sim.mean(), m.precision_at(x), atol=0.01)
    assert np.allclose(sim.normal.sd, np.sqrt(sigma2 / 2000))


@pytest.mark.slow
def test_case_f_inconsistent_and_bimodal_case_a_not():
    f = simulate_pr_estimator(cases.F(0.5), 1000, [0.4], n_replicates=3000, rng=1)
    a = simulate_pr_estimator(cases.A(0.5), 1000, [0.4], n_replicates=3000, rng=1)
    pf, pa = f.estimates[:, 0], a.estimates[:, 0]
    # Case F: mass near both one-sided limits PR(0.4−) = 1 and PR(0.4) = 2/3 ...
    # 3000 replicates: the MC SE of each fraction is <= 0.009, far below the margins used
    near_top = np.mean(pf > 0.95)
    near_bottom = np.mean(np.abs(pf - 2 / 3) < 0.05)
    assert near_top > 0.2 and near_bottom > 0.2
    assert bimodality_coefficient(pf) > 5 / 9
    # ... and no concentration: the spread stays large at n = 1000
    assert pf.std() > 0.1
    # Case A: unimodal, concentrated around PR(0.4)
    assert bimodality_coefficient(pa) < 5 / 9
    assert abs(pa.mean() - a.population[0]) < 0.01 and pa.std() < 0.05


def test_simulation_errors():
    with pytest.raises(TypeError, match="model: expected a PopulationModel, got str"):
        simulate_pr_estimator("A", 100)
    with pytest.raises(ValueError, match="n: expected an integer >= 2, got 1"):
        simulate_pr_estimator(cases.A(), 1)
    with pytest.raises(ValueError, match=r"recall: expected values in \(0, 1\], got 1\.5"):
        simulate_pr_estimator(cases.A(), 100, [0.5, 1.5])
    with pytest.raises(ValueError, match="class_counts: expected one of 'binomial', 'fixed'"):
        simulate_pr_estimator(cases.A(), 100, class_counts="exact")
    with pytest.raises(ValueError, match="n_replicates: expected an integer >= 1, got 0"):
        simulate_pr_estimator(cases.A(), 100, n_replicates=0)
    with pytest.raises(TypeError, match="rng: expected None, an int seed"):
        simulate_pr_estimator(cases.A(), 100, rng=1.5)


def test_conditional_binomial_is_the_truncated_law():
    """Exact draws of Binomial(n, p) given both classes, checked against the truncated pmf."""
    from scipy import stats

    from prcurve._core._binomial import conditional_binomial

    gen = np.random.default_rng(0)
    n, p = 6, 0.2
    k = conditional_binomial(gen, n, p, 200_000, min_each=1)
    assert k.min() >= 1 and k.max() <= n - 1
    pmf = stats.binom(n, p).pmf(np.arange(1, n))
    pmf /= pmf.sum()
    freq = np.bincount(k, minlength=n)[1:n] / k.size
    # 200 000 draws: binomial SE of each frequency <= √(¼/200 000) = 0.0011; z = 3.6
    np.testing.assert_allclose(freq, pmf, atol=4e-3)
    # a prevalence so small that redrawing would never end: still instant, and exact (k = 1)
    assert (conditional_binomial(gen, 10, 1e-12, 100, min_each=1) == 1).all()
    with pytest.raises(ValueError, match="n: expected at least 4 instances, got 3"):
        conditional_binomial(gen, 3, 0.5, 1, min_each=2)
    with pytest.raises(ValueError, match="has no chance"):
        conditional_binomial(gen, 10, 0.0, 1, min_each=1)
