"""Brodersen et al. (2010) simulations and their vectorised building blocks."""

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from scipy import integrate, stats
from sklearn.metrics import average_precision_score

import prcurve
from prcurve import (
    BrodersenFig1Result,
    BrodersenFig2Result,
    PopulationModel,
    auc_pr,
    fit_binormal,
    simulate_brodersen_fig1,
    simulate_brodersen_fig2,
)
from prcurve._parametric._binormal import recall_quadrature
from prcurve._parametric._brodersen import (
    ESTIMATORS,
    batched_average_precision,
    batched_binormal_average_precision,
    batched_binormal_fit,
)


@st.composite
def labelled_rows(draw):
    rows = draw(st.integers(1, 6))
    n = draw(st.integers(2, 25))
    levels = draw(st.integers(1, 6))  # few distinct scores -> many ties
    seed = draw(st.integers(0, 2**32 - 1))
    rng = np.random.default_rng(seed)
    score = rng.integers(0, levels, size=(rows, n)).astype(float)
    y = rng.random((rows, n)) < 0.4
    y[:, 0], y[:, 1] = True, False
    return y, score


@settings(max_examples=60, deadline=None)
@given(labelled_rows())
def test_batched_average_precision_equals_auc_pr_row_by_row(problem):
    y, score = problem
    expected = [auc_pr(y[i], score[i]) for i in range(y.shape[0])]
    np.testing.assert_allclose(batched_average_precision(y, score), expected, rtol=1e-12)


def test_batched_average_precision_shared_labels_match_scikit_learn():
    rng = np.random.default_rng(0)
    y = rng.random(40) < 0.3
    score = np.round(rng.normal(size=(30, 40)), 1)
    expected = [average_precision_score(y, row) for row in score]
    np.testing.assert_allclose(batched_average_precision(y, score), expected, rtol=1e-12)


def test_batched_average_precision_is_the_same_in_small_blocks(monkeypatch):
    from prcurve._parametric import _brodersen

    rng = np.random.default_rng(9)
    y = rng.random(50) < 0.3
    score = np.round(rng.normal(size=(37, 50)), 1)
    whole = batched_average_precision(y, score)
    monkeypatch.setattr(_brodersen, "_CHUNK_ELEMENTS", 120)  # blocks of 2 rows
    np.testing.assert_array_equal(batched_average_precision(y, score), whole)


def test_batched_average_precision_needs_a_positive_in_every_row():
    y = np.array([[True, False], [False, False]])
    with pytest.raises(
        ValueError, match="y: expected at least one positive in every row, got none in row 1"
    ):
        batched_average_precision(y, np.zeros((2, 2)))


def test_batched_binormal_fit_equals_fit_binormal_row_by_row():
    rng = np.random.default_rng(1)
    y = rng.random((5, 30)) < 0.3
    y[:, :2] = [True, False]
    y[:, 2:4] = [True, False]
    score = rng.normal(size=(5, 30)) + y
    mn, sn, mp, sp, alpha = batched_binormal_fit(y, score)
    for i in range(5):
        p = fit_binormal(y[i], score[i]).params
        expected = [p["mu_neg"], p["sigma_neg"], p["mu_pos"], p["sigma_pos"], p["prevalence"]]
        np.testing.assert_allclose([mn[i], sn[i], mp[i], sp[i], alpha[i]], expected, rtol=1e-12)


def test_batched_binormal_average_precision_equals_population_auc_pr():
    rng = np.random.default_rng(2)
    # includes very unequal spreads, where the PR curve is steep near recall 0 or 1
    params = np.column_stack(
        [
            rng.normal(0, 1, 5),
            rng.uniform(0.2, 3, 5),
            rng.normal(1, 1, 5),
            rng.uniform(0.2, 3, 5),
            rng.uniform(0.02, 0.98, 5),
        ]
    )
    got = batched_binormal_average_precision(*params.T)
    for row, value in zip(params, got, strict=True):
        model = PopulationModel(stats.norm(row[0], row[1]), stats.norm(row[2], row[3]), row[4])
        # fixed Gauss–Legendre rule (~1e-10, recall_quadrature) against quad (1e-12)
        assert value == pytest.approx(model.auc_pr(), abs=1e-8)


@pytest.mark.parametrize(
    ("f", "exact"),
    [
        (lambda x: x**7, 1 / 8),
        (np.sqrt, 2 / 3),
        (lambda x: np.log(x), -1.0),
        (lambda x: (1 - x) ** 0.1, 1 / 1.1),
        (lambda x: x**0.05, 1 / 1.05),
    ],
)
def test_recall_quadrature_integrates_endpoint_singular_functions(f, exact):
    x, w = recall_quadrature()
    assert np.all((x > 0) & (x < 1))
    # the rule's stated accuracy is ~1e-10 for end-point singularities like these
    assert w @ f(x) == pytest.approx(exact, abs=1e-9)


def test_recall_quadrature_matches_adaptive_quadrature_on_a_steep_pr_curve():
    model = PopulationModel(stats.norm(0, 3), stats.norm(2, 0.3), prevalence=0.01)
    x, w = recall_quadrature()
    adaptive, _ = integrate.quad(model.precision_at, 0, 1, limit=500, epsabs=1e-13)
    # ~1e-10 (fixed rule) against 1e-13 (quad's target)
    assert w @ model.precision_at(x) == pytest.approx(adaptive, abs=1e-9)


@pytest.fixture(scope="module")
def fig1():
    return simulate_brodersen_fig1(rng=2010)


def test_fig1_truth_and_shapes(fig1):
    assert isinstance(fig1, BrodersenFig1Result)
    assert fig1.y.sum() == 40 and fig1.y.size == 100 and fig1.score.shape == (100,)
    assert fig1.truth.prevalence == 0.4
    assert fig1.roc_auc_true == pytest.approx(stats.norm.cdf(2 / np.sqrt(8)), abs=1e-9)
    assert fig1.average_precision_true == pytest.approx(
        batched_binormal_average_precision(-1, 2, 1, 2, 0.4)[0], abs=1e-9
    )
    g = fig1.recall.size
    assert fig1.precision_true.shape == fig1.precision_binormal.shape == (g,)
    assert fig1.tpr_true.shape == fig1.tpr_fitted.shape == fig1.fpr.shape
    assert set(fig1.roc_auc_estimates) == set(ESTIMATORS)
    assert all(v.shape == (1000,) for v in fig1.average_precision_estimates.values())
    # the illustrated sample is the first replicate
    assert fig1.average_precision_estimates["empirical"][0] == pytest.approx(
        auc_pr(fig1.y, fig1.score)
    )
    assert fig1.empirical_pr.n_pos == 40 and fig1.alpha_binormal.prevalence == 0.4


def test_fig1_roc_auc_estimates_are_unbiased(fig1):
    # Fig. 1b inset: neither the empirical nor the model-based AUC is biased (1000 replicates:
    # the mean error is normal with the reported SEM; z = 3)
    for mean, sem in fig1.roc_auc_error().values():
        assert abs(mean) < 3 * sem
    # empirical AUC is the Mann-Whitney statistic
    y, s = fig1.y, fig1.score
    u = stats.mannwhitneyu(s[y], s[~y]).statistic / (40 * 60)
    assert fig1.roc_auc_estimates["empirical"][0] == pytest.approx(u)


def test_fig1_binormal_pr_curve_overestimates_alpha_binormal_does_not(fig1):
    assert np.all(fig1.precision_binormal > fig1.precision_alpha_binormal)
    err = fig1.average_precision_error()
    assert err["binormal"][0] > 10 * err["binormal"][1]  # clearly biased upwards
    assert abs(err["alpha_binormal"][0]) < 3 * err["alpha_binormal"][1]
    gap_alpha = np.abs(fig1.precision_alpha_binormal - fig1.precision_true).mean()
    gap_plain = np.abs(fig1.precision_binormal - fig1.precision_true).mean()
    assert gap_alpha < gap_plain


@pytest.fixture(scope="module")
def fig2():
    return simulate_brodersen_fig2(rng=2010)


def test_fig2_has_at_least_ten_levels_and_a_thousand_simulations(fig2):
    assert isinstance(fig2, BrodersenFig2Result)
    assert fig2.prevalences.size >= 10 and fig2.n_simulations == 1000
    assert all(v.shape == (fig2.prevalences.size, 1000) for v in fig2.estimates.values())
    for p, truth in zip(fig2.prevalences[::4], fig2.true_average_precision[::4], strict=True):
        model = PopulationModel(stats.norm(-1, 2), stats.norm(1, 2), prevalence=p)
        assert truth == pytest.approx(model.auc_pr(), abs=1e-8)
    lines = fig2.table().splitlines()
    assert len(lines) == fig2.prevalences.size + 1 and "alpha_binormal bias" in lines[0]


def test_fig2_plain_binormal_is_biased_except_at_balance(fig2):
    bias, sem = fig2.bias(), fig2.sem()
    half = np.flatnonzero(np.isclose(fig2.prevalences, 0.5))[0]
    assert abs(bias["binormal"][half]) < 3 * sem["binormal"][half]
    off = np.abs(fig2.prevalences - 0.5) >= 0.1
    assert np.all(np.abs(bias["binormal"][off]) > 10 * sem["binormal"][off])
    # rare positives: overestimated; frequent positives: underestimated
    assert np.all(bias["binormal"][fig2.prevalences < 0.5] > 0)
    assert np.all(bias["binormal"][fig2.prevalences > 0.5] < 0)


def test_fig2_alpha_binormal_has_the_smallest_bias(fig2):
    bias = {k: np.abs(v) for k, v in fig2.bias().items()}
    off = ~np.isclose(fig2.prevalences, 0.5)
    assert np.all(bias["alpha_binormal"][off] < bias["binormal"][off])
    # the empirical AP is positively biased where positives are rare, more than α-binormal
    rare = fig2.prevalences <= 0.2
    assert np.all(fig2.bias()["empirical"][rare] > 0)
    assert np.all(bias["alpha_binormal"][rare] < bias["empirical"][rare])
    assert np.all(bias["alpha_binormal"][fig2.prevalences >= 0.2] < 0.01)


def test_alpha_binormal_average_precision_converges_to_the_truth():
    errors = []
    for n in (50, 500, 5000):
        res = simulate_brodersen_fig2([0.2], n=n, n_simulations=300, rng=n)
        est = res.estimates["alpha_binormal"][0]
        errors.append(np.sqrt(np.mean((est - res.true_average_precision[0]) ** 2)))
        # 300 replicates: each RMSE has relative MC sd ≈ 1/√600 = 4%, so a ratio ≈ 6%; the
        # 1/√n rate gives ratios √10 = 3.16, and 2.5 is 3.5 sd below
        if n == 5000:
            assert abs(res.bias()["alpha_binormal"][0]) < 3 * res.sem()["alpha_binormal"][0]
            assert abs(res.bias()["binormal"][0]) > 0.2
    assert errors[0] > 2.5 * errors[1] > 6 * errors[2]  # ~ 1/√n
    assert errors[2] < 0.02


def test_simulations_are_reproducible_with_a_seed():
    a = simulate_brodersen_fig2([0.3, 0.6], n_simulations=20, rng=5)
    b = simulate_brodersen_fig2([0.3, 0.6], n_simulations=20, rng=np.random.default_rng(5))
    for k in ESTIMATORS:
        np.testing.assert_array_equal(a.estimates[k], b.estimates[k])


def test_custom_laws_and_class_sizes():
    res = simulate_brodersen_fig1(
        n_neg=30, n_pos=10, negative=(0, 1), positive=(2, 1), n_simulations=50, num=11, rng=0
    )
    assert res.truth.prevalence == 0.25 and res.recall.size == 10 and res.fpr.size == 11
    assert res.roc_auc_true == pytest.approx(stats.norm.cdf(2 / np.sqrt(2)))


@pytest.mark.parametrize(
    ("call", "error", "match"),
    [
        (
            lambda: simulate_brodersen_fig2([0.01, 0.5], n=100),
            ValueError,
            r"prevalences: expected at least 2 positives and 2 negatives per sample of n=100, "
            r"got 1 positives for prevalence 0\.01$",
        ),
        (
            lambda: simulate_brodersen_fig2([0.0, 0.5]),
            ValueError,
            r"prevalences: expected values in \(0, 1\), got 0\.0",
        ),
        (
            lambda: simulate_brodersen_fig2(negative=(0, -1)),
            ValueError,
            r"negative: expected a finite mean and a positive standard deviation, got \(0, -1\)",
        ),
        (
            lambda: simulate_brodersen_fig1(positive=1.0),
            TypeError,
            r"positive: expected a pair \(mean, standard deviation\), got 1\.0",
        ),
        (
            lambda: simulate_brodersen_fig1(n_pos=1),
            ValueError,
            r"n_pos: expected an integer >= 2, got 1",
        ),
        (
            lambda: simulate_brodersen_fig2(n_simulations=1),
            ValueError,
            r"n_simulations: expected an integer >= 2, got 1",
        ),
        (
            lambda: simulate_brodersen_fig2(rng="seed"),
            TypeError,
            r"rng: expected None, an int seed or a numpy\.random\.Generator, got str",
        ),
    ],
)
def test_errors(call, error, match):
    with pytest.raises(error, match=match):
        call()


def test_public_names():
    for name in (
        "simulate_brodersen_fig1",
        "simulate_brodersen_fig2",
        "BrodersenFig1Result",
        "BrodersenFig2Result",
    ):
        assert name in prcurve.__all__
