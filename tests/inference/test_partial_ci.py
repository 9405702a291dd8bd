"""Bootstrap intervals of partial AUC-PR and of AUC-PR at a deployment prevalence: replicates
against recomputation on the resample, known against estimated prevalence, and coverage on a
binormal model."""

import numpy as np
import pytest
from scipy import integrate, stats

from prcurve import auc_pr, auc_pr_ci
from prcurve._inference._partial_ci import check_deployment_prevalence
from prcurve._inference._resample import resample_multiplicities


def _data(seed, n=400, pi=0.3, mu=1.5):
    rng = np.random.default_rng(seed)
    y = rng.random(n) < pi
    return y, np.round(rng.normal(size=n) + mu * y, 1)


@pytest.mark.parametrize(
    "options",
    [
        {"recall_range": (0.2, 0.6)},
        {"recall_range": (0.0, 0.5), "normalize": True},
        {"prevalence": 0.05},
        {"recall_range": (0.1, 0.9), "prevalence": 0.02, "normalize": True},
    ],
)
@pytest.mark.parametrize("method", ["average_precision", "davis_goadrich"])
@pytest.mark.parametrize("sampling", ["instances", "stratified"])
def test_replicates_equal_recomputing_on_the_resample(options, method, sampling):
    """The first replicates equal auc_pr on the instances the same generator draws."""
    y, s = _data(1)
    res = auc_pr_ci(
        y, s, method=method, interval="bootstrap_percentile", n_resamples=20, rng=3,
        sampling=sampling, **options,
    )  # fmt: skip
    assert res.estimate == auc_pr(y, s, method=method, **options)
    # the engine's multiplicities refer to each class's instances by decreasing score
    pos = np.flatnonzero(y)[np.argsort(-s[y], kind="stable")]
    neg = np.flatnonzero(~y)[np.argsort(-s[~y], kind="stable")]
    gen = np.random.default_rng(3)
    mp, mn = resample_multiplicities(gen, 20, pos.size, neg.size, sampling)
    for r in range(20):
        keep = np.concatenate([np.repeat(pos, mp[r]), np.repeat(neg, mn[r])])
        direct = auc_pr(y[keep], s[keep], method=method, **options)
        assert res.replicates[r] == pytest.approx(direct, rel=1e-10)


def test_estimated_prevalence_widens_the_interval_and_tends_to_known():
    y, s = _data(2, n=2000)
    kw = dict(interval="bootstrap_percentile", n_resamples=400, rng=5)
    known = auc_pr_ci(y, s, prevalence=0.01, **kw)
    few = auc_pr_ci(y, s, prevalence=(10, 1000), **kw)
    many = auc_pr_ci(y, s, prevalence=(10_000, 1_000_000), **kw)
    assert few.estimate == known.estimate == many.estimate  # the point estimate uses k/m
    assert few.interval.width > 1.3 * known.interval.width
    assert many.interval.width == pytest.approx(known.interval.width, rel=0.25)


def test_estimated_prevalence_draws_the_jeffreys_posterior():
    draws = check_deployment_prevalence((3, 40)).draw(200_000, np.random.default_rng(0))
    assert np.mean(draws) == pytest.approx(3.5 / 41, rel=0.01)
    assert check_deployment_prevalence(0.2).draw(5, np.random.default_rng(0)) == 0.2


@pytest.mark.parametrize(
    ("kwargs", "error", "match"),
    [
        (
            {"prevalence": (3, 2)},
            ValueError,
            r"prevalence: expected counts \(k, m\) with 0 < k",
        ),
        ({"prevalence": (0.1, 10)}, TypeError, "prevalence: expected a number in .* or a pair"),
        ({"prevalence": 1.5}, ValueError, r"prevalence: expected a number in \(0, 1\)"),
        (
            {"prevalence": 0.1, "interval": "logit"},
            ValueError,
            "interval: expected 'bootstrap_percentile' with recall_range or prevalence",
        ),
        ({"recall_range": (0.6, 0.1)}, ValueError, "recall_range: expected low < high"),
    ],
)
def test_bad_options(kwargs, error, match):
    y, s = _data(3, n=60)
    kwargs = {"interval": "bootstrap_percentile", "n_resamples": 10, **kwargs}
    with pytest.raises(error, match=match):
        auc_pr_ci(y, s, **kwargs)


def binormal_partial_area(mu, pi, a, b):
    """∫_a^b PR(x) dx of the binormal model (negatives N(0,1), positives N(mu,1))."""

    def precision(x):
        fpr = stats.norm.sf(mu + stats.norm.isf(x))
        return pi * x / (pi * x + (1 - pi) * fpr)

    return integrate.quad(precision, a, b, epsabs=1e-12)[0]


@pytest.mark.slow
@pytest.mark.parametrize(
    ("options", "deploy"),
    [({"recall_range": (0.2, 0.8), "normalize": True}, None), ({"prevalence": 0.1}, 0.1)],
)
def test_coverage_on_a_binormal_model(options, deploy):
    mu, pi, n, reps = 2.0, 0.3, 1000, 100
    a, b = options.get("recall_range", (0.0, 1.0))
    truth = binormal_partial_area(mu, deploy or pi, a, b) / (b - a)
    rng = np.random.default_rng(21)
    hits = 0
    for _ in range(reps):
        y = rng.random(n) < pi
        s = rng.normal(size=n) + mu * y
        res = auc_pr_ci(
            y, s, method="davis_goadrich", interval="bootstrap_percentile", n_resamples=200,
            rng=rng, **options,
        )  # fmt: skip
        hits += res.interval.contains(truth)
    # 100 repetitions: a true coverage of 0.95 gives fewer than 87 hits with probability < 0.5 %.
    # At a much lower deployment prevalence the area estimate is biased upward and the
    # percentile interval under-covers (measured in examples/coverage_operating_point.py).
    assert hits >= 87


def test_weighted_options_interval():
    y, s = _data(4, n=500)
    w = np.random.default_rng(1).uniform(0.5, 2.0, y.shape[0])
    kw = dict(
        interval="bootstrap_percentile", n_resamples=100, rng=2, recall_range=(0.1, 0.9),
        normalize=True, prevalence=0.05,
    )  # fmt: skip
    a = auc_pr_ci(y, s, sample_weight=w, **kw)
    b = auc_pr_ci(y, s, sample_weight=w * 2.0**-30, **kw)
    assert a.estimate == pytest.approx(
        auc_pr(y, s, sample_weight=w, recall_range=(0.1, 0.9), normalize=True, prevalence=0.05)
    )
    np.testing.assert_allclose(a.replicates, b.replicates, rtol=1e-12)
    assert a.interval.contains(a.estimate)
