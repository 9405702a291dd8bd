"""Bootstrap intervals of operating points: replicates against recomputation, and coverage on a
binormal model (small seeded version; the full table is examples/coverage_operating_point.py)."""

import warnings

import numpy as np
import pytest
from scipy import optimize, stats

from prcurve import TargetNotMetWarning, operating_point
from prcurve._core._operating import choose_rows
from prcurve._inference._resample import positive_columns, prepare, replicate_counts


@pytest.mark.parametrize(
    ("criterion", "target"),
    [("min_precision", 0.7), ("min_recall", 0.6), ("max_fpr", 0.1), ("top_k", 40)],
)
def test_replicate_choice_equals_recomputing_on_the_resample(criterion, target):
    rng = np.random.default_rng(7)
    n = 200
    y = rng.random(n) < 0.3
    s = np.round(rng.normal(size=n) + 1.5 * y, 1)  # ties
    sample = prepare(y, s)
    pos, neg = np.flatnonzero(y), np.flatnonzero(~y)
    b = 30
    mp = rng.multinomial(pos.size, np.full(pos.size, 1 / pos.size), size=b)
    mn = rng.multinomial(neg.size, np.full(neg.size, 1 / neg.size), size=b)
    cols = np.arange(sample.n_groups) if criterion == "top_k" else positive_columns(sample)
    tp, fp, npos, nneg = replicate_counts(sample, mp, mn, columns=cols, by_instance=True)
    idx, ok = choose_rows(tp, fp, npos, nneg, criterion, target)
    for r in range(b):
        keep = np.concatenate([np.repeat(pos, mp[r]), np.repeat(neg, mn[r])])
        direct = operating_point(y[keep], s[keep], **{criterion: target})
        assert direct.feasible == ok[r]
        if ok[r]:
            assert direct.threshold == sample.counts.thresholds[cols[idx[r]]]


def test_intervals_contain_the_estimates_and_are_reproducible():
    rng = np.random.default_rng(0)
    y = rng.random(3000) < 0.1
    s = rng.normal(size=3000) + 2 * y
    kw = dict(interval="bootstrap", n_resamples=300, rng=4)
    op = operating_point(y, s, min_precision=0.7, **kw)
    assert op.feasible and op.n_resamples == 300 and op.level == 0.95
    assert op.feasible_fraction == 1.0
    for ci, value in (
        (op.precision_interval, op.precision),
        (op.recall_interval, op.recall),
        (op.threshold_interval, op.threshold),
    ):
        assert ci.low < value < ci.high
    assert set(np.round([op.threshold_interval.low, op.threshold_interval.high], 12)) <= set(
        np.round(s, 12)
    )  # threshold ends are observed scores
    again = operating_point(y, s, min_precision=0.7, **kw)
    assert again.threshold_interval == op.threshold_interval
    assert again.recall_interval == op.recall_interval
    # a higher level widens every interval
    wide = operating_point(y, s, min_precision=0.7, level=0.99, **kw)
    assert wide.recall_interval.width >= op.recall_interval.width


def test_progress_and_infeasible_replicates_warn():
    rng = np.random.default_rng(1)
    y = rng.random(300) < 0.3
    s = rng.normal(size=300) + 0.7 * y
    y[np.argmax(s)] = True  # precision 1 only at the top score: lost when it is not resampled
    s[~y] = np.minimum(s[~y], s.max() - 0.5)
    s[np.argmax(np.where(y, -np.inf, s))] = s.max() - 0.1
    calls = []
    target = 1.0
    with pytest.warns(TargetNotMetWarning, match="of the bootstrap replicates have no threshold"):
        op = operating_point(
            y, s, min_precision=target, interval="bootstrap", n_resamples=200, rng=0,
            progress=lambda d, t: calls.append((d, t)),
        )  # fmt: skip
    assert op.feasible and 0 < op.feasible_fraction < 1
    assert calls[-1] == (200, 200)


def test_infeasible_point_has_no_intervals():
    op = operating_point([0, 1, 0, 1], [4, 3, 2, 1], min_precision=0.9, interval="bootstrap", rng=0)
    assert not op.feasible and op.precision_interval is None and op.feasible_fraction is None


def test_prevalence_equals_reweighting_in_the_bootstrap():
    rng = np.random.default_rng(2)
    y = rng.random(800) < 0.4
    s = rng.normal(size=800) + 1.5 * y
    pi = 0.05
    factor = y.sum() * (1 - pi) / (pi * (~y).sum())
    a = operating_point(y, s, min_precision=0.5, prevalence=pi)
    b = operating_point(y, s, min_precision=0.5, sample_weight=np.where(y, 1.0, factor))
    assert a.threshold == b.threshold and a.prevalence == pi
    assert a.precision == pytest.approx(b.precision) and a.fp == pytest.approx(b.fp)
    assert a.fpr == pytest.approx(b.fpr)


# --- coverage on a binormal model -------------------------------------------------------------


def binormal_truth(mu, pi):
    def tpr(t):
        return stats.norm.sf(t - mu)

    def fpr(t):
        return stats.norm.sf(t)

    def precision(t):
        return pi * tpr(t) / (pi * tpr(t) + (1 - pi) * fpr(t))

    return tpr, fpr, precision


def population_threshold(criterion, target, mu, pi, n):
    tpr, fpr, precision = binormal_truth(mu, pi)
    if criterion == "min_precision":
        return optimize.brentq(lambda t: precision(t) - target, -10, 20)
    if criterion == "min_recall":
        return mu + stats.norm.isf(target)
    if criterion == "max_fpr":
        return stats.norm.isf(target)
    return optimize.brentq(lambda t: pi * tpr(t) + (1 - pi) * fpr(t) - target / n, -10, 20)


def coverage(criterion, target, *, n, reps, n_resamples, mu=2.0, pi=0.2, seed=0):
    """Share of repetitions whose intervals contain (threshold t*, recall and precision of t̂)."""
    tpr, _, precision = binormal_truth(mu, pi)
    t_star = population_threshold(criterion, target, mu, pi, n)
    rng = np.random.default_rng(seed)
    hits = np.zeros(3)
    used = 0
    for _ in range(reps):
        y = rng.random(n) < pi
        s = rng.normal(size=n) + mu * y
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", TargetNotMetWarning)
            op = operating_point(
                y, s, interval="bootstrap", n_resamples=n_resamples, rng=rng, **{criterion: target}
            )
        if not op.feasible:
            continue
        used += 1
        hits += [
            op.threshold_interval.contains(t_star),
            op.recall_interval.contains(tpr(op.threshold)),
            op.precision_interval.contains(precision(op.threshold)),
        ]
    return hits / used, used


@pytest.mark.slow
@pytest.mark.parametrize(("criterion", "target"), [("min_precision", 0.8), ("max_fpr", 0.05)])
def test_coverage_on_a_binormal_model(criterion, target):
    cov, used = coverage(criterion, target, n=1000, reps=100, n_resamples=200, seed=11)
    assert used >= 95
    # 100 repetitions: a true coverage of 0.95 gives fewer than 87 hits with probability < 0.5 %
    assert cov[0] >= 0.87 and cov[1] >= 0.87
    assert cov[2] >= 0.80  # the precision interval ignores the selection (documented)


def test_shared_bootstrap_agrees_with_one_call_per_target():
    """One bootstrap for several targets gives each target's point and, up to Monte Carlo
    error, its intervals (the coarse-to-fine draws refine different blocks for different
    target sets, so the replicates are equal in law, not draw for draw)."""
    from prcurve._inference._operating_ci import operating_points

    rng = np.random.default_rng(3)
    y = rng.random(1500) < 0.15
    s = np.round(rng.normal(size=1500) + 1.8 * y, 2)
    targets = [("min_precision", 0.8), ("min_recall", 0.5), ("max_fpr", 0.02), ("top_k", 100)]
    kw = dict(level=0.9, n_resamples=600)
    points, _ = operating_points(y, s, targets[:3], prevalences=(None, 0.01), rng=8, **kw)
    assert len(points) == 6 and [p.prevalence for p in points[3:]] == [0.01] * 3
    intervals = ("threshold_interval", "precision_interval", "recall_interval")
    for point, ((criterion, target), pi) in zip(
        points, [(t, pi) for pi in (None, 0.01) for t in targets[:3]], strict=True
    ):
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", TargetNotMetWarning)
            alone = operating_point(
                y, s, interval="bootstrap", rng=9, prevalence=pi, **kw, **{criterion: target}
            )
        for name, value in point.__dict__.items():
            if name not in (*intervals, "feasible_fraction"):
                assert value == getattr(alone, name), name
        for name in intervals:
            a, b = getattr(point, name), getattr(alone, name)
            width = max(a.high - a.low, b.high - b.low)
            assert abs(a.low - b.low) <= 0.3 * width and abs(a.high - b.high) <= 0.3 * width
    # top_k needs every column (the ordinary bootstrap): the same replicates
    kw["n_resamples"] = 150
    (point,), _ = operating_points(y, s, targets[3:], rng=8, **kw)
    assert point == operating_point(y, s, top_k=100, interval="bootstrap", rng=8, **kw)
    with pytest.raises(ValueError, match="criterion: expected one of"):
        operating_points(y, s, [("precision", 0.5)])
    with pytest.raises(ValueError, match="prevalences: expected only None with top_k"):
        operating_points(y, s, targets, prevalences=(None, 0.1))


def test_estimated_deployment_prevalence_widens_the_precision_interval():
    rng = np.random.default_rng(6)
    y = rng.random(4000) < 0.3
    s = rng.normal(size=4000) + 2 * y
    kw = dict(min_recall=0.6, interval="bootstrap", n_resamples=300, rng=2)
    known = operating_point(y, s, prevalence=0.02, **kw)
    few = operating_point(y, s, prevalence=(4, 200), **kw)
    many = operating_point(y, s, prevalence=(20_000, 1_000_000), **kw)
    # the point uses k/m; only the intervals change
    assert few.threshold == known.threshold == many.threshold and few.prevalence == 0.02
    assert few.precision == known.precision
    assert few.precision_interval.width > 2 * known.precision_interval.width
    assert many.precision_interval.width == pytest.approx(known.precision_interval.width, rel=0.2)
    assert few.recall == known.recall  # recall does not depend on π
    with pytest.raises(ValueError, match=r"prevalence: expected counts \(k, m\) with 0 < k"):
        operating_point(y, s, prevalence=(5, 5), **kw)


def test_weighted_bootstrap_is_invariant_to_the_weight_scale():
    rng = np.random.default_rng(9)
    y = rng.random(600) < 0.3
    s = np.round(rng.normal(size=600) + 1.5 * y, 1)
    w = rng.uniform(0.5, 2.0, 600)
    kw = dict(min_precision=0.7, interval="bootstrap", n_resamples=100, rng=3, prevalence=0.05)
    a = operating_point(y, s, sample_weight=w, **kw)
    b = operating_point(y, s, sample_weight=w * 2.0**40, **kw)
    assert a.threshold == b.threshold and a.threshold_interval == b.threshold_interval
    assert a.precision == pytest.approx(b.precision, rel=1e-12)
    assert a.precision_interval.low == pytest.approx(b.precision_interval.low, rel=1e-12)
    assert a.recall_interval.high == pytest.approx(b.recall_interval.high, rel=1e-12)
    assert a.precision_interval.contains(a.precision) and a.recall_interval.contains(a.recall)


def test_shared_bootstrap_with_weights_equals_one_call():
    from prcurve._inference._operating_ci import operating_points

    rng = np.random.default_rng(13)
    y = rng.random(500) < 0.3
    s = np.round(rng.normal(size=500) + 1.5 * y, 1)
    w = rng.uniform(0.2, 3.0, 500)
    kw = dict(n_resamples=80, rng=5)
    (point,), _ = operating_points(y, s, [("min_precision", 0.7)], sample_weight=w, **kw)
    alone = operating_point(y, s, min_precision=0.7, sample_weight=w, interval="bootstrap", **kw)
    assert point == alone


def test_sampling_models():
    rng = np.random.default_rng(12)
    y = rng.random(800) < 0.25
    s = rng.normal(size=800) + 1.5 * y
    kw = dict(min_recall=0.7, interval="bootstrap", n_resamples=200, rng=1)
    fixed = operating_point(y, s, sampling="stratified", **kw)
    free = operating_point(y, s, **kw)  # "instances": the number of positives varies
    assert fixed.threshold == free.threshold and fixed.precision == free.precision
    # precision at the data prevalence also carries the prevalence's variance
    assert free.precision_interval.width > fixed.precision_interval.width
    with pytest.raises(ValueError, match="sampling: expected one of"):
        operating_point(y, s, sampling="rows", **kw)
