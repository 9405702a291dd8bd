"""The report's operating-point bootstrap on a subsample: plan, exact centres, rescaled widths."""

from __future__ import annotations

import math

import numpy as np
import pytest

from prcurve import operating_point
from prcurve._inference._operating_ci import _operating_bootstrap
from prcurve._reporting.analysis import _parallel, _sizing
from prcurve._reporting.analysis._analysis import Settings, analyse
from prcurve._reporting.analysis._operating import STREAM
from prcurve._reporting.analysis._sizing import (
    MIN_FLAGGED,
    MIN_RESAMPLES,
    WORK,
    plan,
    plan_operating,
    snap_interval,
    subsample,
)
from prcurve._reporting.input._io import LabelledScores

TARGETS = {"min_precision": (0.5, 0.7), "min_recall": (0.5, 0.8)}
N = 40_000
ROWS = 12_000  # the subsample the small budget below asks for


def _small_budget(mp, **more):
    """A budget giving a subsample of ROWS rows, and 200 flagged rows expected in it (the
    default 1000 would need more rows than these small data have above their thresholds)."""
    mp.setattr(_sizing, "WORK", {**WORK, "operating_points": ROWS * MIN_RESAMPLES, **more})
    mp.setattr(_sizing, "MIN_FLAGGED", 200)


def test_plan_operating_follows_the_budget_then_the_flagged_rows():
    n, n_pos = 10**6, 5 * 10**4
    budget = plan("operating_points", n, n_pos)
    assert budget.subsampled and budget.n_resamples == MIN_RESAMPLES
    assert budget.rows == WORK["operating_points"] // MIN_RESAMPLES
    assert plan_operating(n, n_pos, 10**5) == budget  # every point flags plenty of rows
    few = plan_operating(n, n_pos, 10**4)  # 1000 of 10⁴ flagged rows need a tenth of the data
    assert few.rows == math.ceil(MIN_FLAGGED * n / 10**4) and few.rows > budget.rows
    assert not plan_operating(n, n_pos, 50).subsampled  # a point flags 50 rows: every row
    assert not plan_operating(n, n_pos, 10**5, estimated_pi=True).subsampled
    user = plan_operating(n, n_pos, 10**5, 300)  # --n-resamples 300: every row, 300 times
    assert (user.rows, user.n_resamples) == (n, 300)
    assert not plan_operating(1000, 100, 10).subsampled  # small data: every row


def test_snap_interval_moves_each_end_outward_to_a_score():
    scores = np.array([3.0, 1.0, 2.0, 2.0, 5.0])
    assert snap_interval(1.5, 2.5, scores) == (1.0, 3.0)
    assert snap_interval(2.0, 3.0, scores) == (2.0, 3.0)  # already attainable: kept
    assert snap_interval(-4.0, 9.0, scores) == (1.0, 5.0)  # beyond the scores: their range
    thresholds = np.array([5.0, 3.0, 2.0, 1.0])  # a curve's decreasing thresholds
    assert snap_interval(2.2, 4.9, thresholds) == (2.0, 5.0)


@pytest.fixture(scope="module")
def data():
    rng = np.random.default_rng(7)
    y = rng.random(N) < 0.1
    scores = {  # rounded: many ties, so rescaled threshold ends fall between scores
        "a": np.round(rng.normal(size=N) + 1.5 * y, 2),
        "b": np.round(rng.normal(size=N) + 2.0 * y, 2),
    }
    return LabelledScores("sim", "y", y, scores, "1")


def _settings(**kw):
    return Settings(
        "sim", "y", ("a", "b"), "1", seed=4, min_precision=TARGETS["min_precision"],
        min_recall=TARGETS["min_recall"], **kw,
    )  # fmt: skip


def _unit_weights(data):
    """The data with a weight column of ones: the report's weighted path (a subsample, widths
    rescaled), whose numbers are those of the unweighted rows."""
    from dataclasses import replace

    return replace(data, weight=np.ones(N), weight_column="w")


@pytest.fixture(scope="module")
def subsampled(data):
    with pytest.MonkeyPatch.context() as mp:
        _small_budget(mp)
        return analyse(_unit_weights(data), _settings(n_resamples_auto=True))


def _targets():
    return [("min_precision", p) for p in TARGETS["min_precision"]] + [
        ("min_recall", r) for r in TARGETS["min_recall"]
    ]


def test_large_weighted_data_take_the_subsample_path_and_list_it(subsampled):
    steps = {s.key: s for s in subsampled.inference}
    for name in ("a", "b"):
        step = steps[(name, "operating_points")]
        assert step.label == f"{name}: operating points"
        assert (step.plan.rows, step.plan.n, step.plan.n_resamples) == (ROWS, N, MIN_RESAMPLES)
        for p in subsampled.scorers[name].operating.points:
            assert p.n_resamples == MIN_RESAMPLES


def test_centres_are_the_points_of_all_rows_exactly(data, subsampled):
    for name, s in data.scores.items():
        points = subsampled.scorers[name].operating.points
        assert [(p.criterion, p.target) for p in points] == _targets()
        for p in points:
            full = operating_point(data.y, s, **{p.criterion: p.target})
            assert p.feasible and full.feasible
            for key in ("threshold", "precision", "recall", "fpr", "tp", "fp", "fn", "tn"):
                assert getattr(p, key) == getattr(full, key), key


def test_rescaled_ends_equal_a_recomputation_from_the_replicates(data, subsampled):
    level = 0.95
    probs = [(1 - level) / 2, (1 + level) / 2]
    for index, (name, s) in enumerate(data.scores.items()):
        points = subsampled.scorers[name].operating.points
        idx = subsample(data.y, ROWS, np.random.SeedSequence(4, spawn_key=(STREAM, index, 3)))
        assert idx is not None and idx.shape[0] in (ROWS - 1, ROWS, ROWS + 1)
        ys, ss = data.y[idx], s[idx]
        gen = np.random.default_rng(
            np.random.SeedSequence(4, spawn_key=(STREAM, index)).spawn(3)[0]
        )
        hold = [p.threshold for p in points]
        sub, reps = _operating_bootstrap(
            ys, ss, np.ones(ss.shape[0]), _targets(), n_resamples=MIN_RESAMPLES, rng=gen, hold=hold
        )
        scale = math.sqrt(ROWS / N)
        for p, q, r in zip(points, sub, reps, strict=True):
            assert r is not None
            flagged = ss >= p.threshold  # the held threshold's precision, counted directly
            assert r.held_precision == pytest.approx(ys[flagged].mean(), rel=1e-12)
            assert r.held_recall == pytest.approx(flagged[ys].mean(), rel=1e-12)
            prec = np.quantile(
                np.clip(p.precision + scale * (r.precision - r.held_precision), 0, 1), probs
            )
            rec = np.quantile(np.clip(p.recall + scale * (r.recall - r.held_recall), 0, 1), probs)
            assert (p.precision_interval.low, p.precision_interval.high) == tuple(prec)
            assert (p.recall_interval.low, p.recall_interval.high) == tuple(rec)
            # the threshold in rank coordinates: the share of rows at or above it
            ok = r.feasible
            sub_sorted = np.sort(ss)
            flagged = (ss.shape[0] - np.searchsorted(sub_sorted, r.thresholds[ok])) / ss.shape[0]
            own = np.mean(ss >= q.threshold)
            centre_share = np.mean(s >= p.threshold)
            shares = centre_share + scale * (flagged - own)
            q_lo, q_hi = np.quantile(shares, probs, method="inverted_cdf")
            distinct = np.unique(s)
            share_of = (N - np.searchsorted(np.sort(s), distinct)) / N  # share at or above each
            ti = p.threshold_interval
            assert ti.low in distinct and ti.high in distinct  # attainable thresholds
            assert ti.low == distinct[share_of >= q_hi].max()  # flags at least the upper share
            assert ti.high == distinct[share_of <= q_lo].min()  # flags at most the lower share
            assert ti.low <= p.threshold <= ti.high
            assert p.feasible_fraction == ok.mean()


def test_widths_agree_with_resampling_every_row(data, subsampled):
    """√(m/n)-rescaled widths from 12,000 of 40,000 rows against the bootstrap of all rows
    (both Monte Carlo with 200 replicates, ≈ 10 % noise each: within a factor 1.4)."""
    full = analyse(data, _settings(n_resamples=MIN_RESAMPLES))
    for step in full.inference:
        assert step.plan.rows == N
    for name in data.scores:
        for p, f in zip(
            subsampled.scorers[name].operating.points, full.scorers[name].operating.points,
            strict=True,
        ):  # fmt: skip
            for key in ("precision_interval", "recall_interval"):
                a, b = getattr(p, key), getattr(f, key)
                assert 1 / 1.4 < (a.high - a.low) / (b.high - b.low) < 1.4, (name, p.target, key)


def test_user_resamples_still_resample_every_row(data):
    with pytest.MonkeyPatch.context() as mp:
        _small_budget(mp)
        res = analyse(data, _settings(n_resamples=150))
    for step in res.inference:
        if step.key[1] == "operating_points":
            assert (step.plan.rows, step.plan.n_resamples) == (N, 150)


def test_one_or_two_processes_give_the_same_intervals(data, subsampled, monkeypatch):
    _small_budget(monkeypatch)
    monkeypatch.setattr(_parallel, "PARALLEL_MIN_SECONDS", 0)
    two = analyse(_unit_weights(data), _settings(n_resamples_auto=True, jobs=2))
    for name in data.scores:
        assert two.scorers[name].operating.points == subsampled.scorers[name].operating.points


def test_known_prevalence_is_subsampled_around_the_points_and_areas_of_all_rows(data, monkeypatch):
    from prcurve import auc_pr, compare, pr_confidence_band

    _small_budget(monkeypatch, compare=ROWS * 200)
    pi = 0.2  # above the data's 0.1: every target at π flags plenty of rows
    res = analyse(data, _settings(n_resamples_auto=True, prevalence=pi))
    steps = {s.key: s for s in res.inference}
    assert steps[("a", "operating_points")].plan.rows == N  # unweighted: every row
    assert steps[("a", "operating_at_prevalence")].plan.rows == ROWS
    at_pi = [s for s in res.inference if s.label == "compare a vs b at π"]
    assert len(at_pi) == 1 and at_pi[0].plan.rows == ROWS
    for name, s in data.scores.items():
        op = res.scorers[name].operating
        assert [p.prevalence for p in op.points] == [data.y.mean()] * 4 + [pi] * 4
        for p in op.points[4:]:  # the points at π are those of all rows
            _assert_point_of_all_rows(p, data.y, s, prevalence=pi)
        ci = op.deployed_ap_ci
        assert ci.estimate == pytest.approx(auc_pr(data.y, s, prevalence=pi), rel=1e-12)
        assert ci.interval.low < ci.estimate < ci.interval.high
        full_band = pr_confidence_band(
            data.y, s, method="bootstrap", prevalence=pi, n_resamples=200, rng=0
        )
        np.testing.assert_allclose(op.deployed_band.estimate, full_band.estimate, rtol=1e-12)
        assert 0.6 < op.deployed_band.radius / full_band.radius < 1.6
    ((_, _, cmp_pi),) = res.deployment_comparisons
    full_cmp = compare(
        data.y, data.scores["a"], data.scores["b"], prevalence=pi, n_resamples=200, rng=0
    )
    assert cmp_pi.difference == pytest.approx(full_cmp.difference, rel=1e-12)
    width, full_width = (
        cmp_pi.interval.high - cmp_pi.interval.low,
        full_cmp.interval.high - full_cmp.interval.low,
    )
    assert 0.6 < width / full_width < 1.6


def test_prevalence_from_a_count_resamples_every_row_and_says_so(data, monkeypatch):
    _small_budget(monkeypatch, compare=ROWS * 200)
    res = analyse(data, _settings(n_resamples_auto=True, prevalence=(200, 1000)))
    for step in res.inference:
        if step.key[1] == "operating_points" or step.label.endswith("at π"):
            assert step.plan.rows == N, step.label
    for name in data.scores:
        notes = res.scorers[name].operating.notes
        assert any("estimated from a count" in note and "every row" in note for note in notes)
    assert any("estimated from a count" in note for note in res.deployment_notes)


def test_weighted_rows_are_subsampled_with_their_weights(data, monkeypatch):
    """With sample weights the points are those of all weighted rows, and the intervals
    come from the subsample's rows with their weights (ends still scores of the data)."""
    from dataclasses import replace

    w = np.random.default_rng(3).uniform(0.5, 2.0, size=N)
    weighted = replace(data, weight=w, weight_column="w")
    _small_budget(monkeypatch)
    res = analyse(weighted, _settings(n_resamples_auto=True))
    steps = {s.key: s for s in res.inference}
    for name, s in data.scores.items():
        assert steps[(name, "operating_points")].plan.rows == ROWS
        for p in res.scorers[name].operating.points:
            _assert_point_of_all_rows(p, data.y, s, sample_weight=w)
            assert p.threshold_interval.low <= p.threshold <= p.threshold_interval.high
            for ci, value in ((p.precision_interval, p.precision), (p.recall_interval, p.recall)):
                assert ci.low <= value <= ci.high


def _assert_point_of_all_rows(p, y, s, **kw):
    """``p`` is the point ``operating_point`` chooses on all rows, and its threshold interval
    ends are scores of the data."""
    full = operating_point(y, s, **kw, **{p.criterion: p.target})
    assert (p.threshold, p.precision, p.recall) == (full.threshold, full.precision, full.recall)
    assert p.threshold_interval.low in s and p.threshold_interval.high in s


def test_unweighted_points_resample_every_row_coarse_to_fine(data, monkeypatch):
    """Unweighted: the points' intervals are those of the coarse-to-fine bootstrap of every row
    (the same draws as ``operating_points`` on the same stream), sized by the positives."""
    from prcurve._inference._operating_ci import operating_points
    from prcurve._reporting.analysis._sizing import plan_operating_exact

    _small_budget(monkeypatch)
    res = analyse(data, _settings(n_resamples_auto=True))
    steps = {s.key: s for s in res.inference}
    for index, (name, s) in enumerate(data.scores.items()):
        step = steps[(name, "operating_points")]
        want = plan_operating_exact(N, int(data.y.sum()))
        assert (step.plan.rows, step.plan.n_resamples) == (N, want.n_resamples)
        gen = np.random.default_rng(
            np.random.SeedSequence(4, spawn_key=(STREAM, index)).spawn(3)[0]
        )
        direct, _ = operating_points(
            data.y, s, _targets(), n_resamples=want.n_resamples, rng=gen, level=0.95
        )
        assert res.scorers[name].operating.points == direct
