"""Sizing of the report's resampling: plans, stratified subsamples, and rescaled widths."""

from __future__ import annotations

import numpy as np
import pytest

from prcurve._reporting.analysis import _sizing
from prcurve._reporting.analysis._analysis import Settings, analyse, auto_resamples
from prcurve._reporting.analysis._sizing import MAX_RESAMPLES, MIN_RESAMPLES, WORK, plan, subsample
from prcurve._reporting.input._io import LabelledScores


@pytest.mark.parametrize("task", sorted(WORK))
def test_small_data_resamples_all_rows_with_at_most_1000_replicates(task):
    p = plan(task, 1797, 60)
    assert (p.rows, p.n, p.n_resamples) == (1797, 1797, MAX_RESAMPLES)
    assert not p.subsampled and p.scale == 1.0


@pytest.mark.parametrize("task", sorted(WORK))
def test_budget_decides_replicates_then_rows(task):
    n = WORK[task] // 300  # 300 replicates fit the budget
    p = plan(task, n, n // 10)
    assert (p.rows, p.n_resamples) == (n, 300)
    big = plan(task, 10**7, 10**6)  # many positives: subsample of budget / 200 rows
    assert (big.rows, big.n_resamples) == (WORK[task] // MIN_RESAMPLES, MIN_RESAMPLES)
    assert big.scale == pytest.approx(np.sqrt(big.rows / 10**7))
    assert big.work <= WORK[task]


def test_subsample_keeps_enough_positives_or_all_rows():
    p = plan("band", 10**6, 10**4)  # 1 % positives: 1000 positives need 100,000 rows
    assert p.rows == 100_000 and p.n_resamples == MIN_RESAMPLES
    few = plan("band", 10**6, 500)  # fewer positives than the minimum: every row
    assert few.rows == 10**6 and not few.subsampled


def test_plans_of_the_million_row_report():
    """The subsample sizes the docs quote for 10⁶ rows with 5 % positives (``_sizing.WORK``)."""
    n, n_pos = 10**6, 49_915
    sizes = {task: plan(task, n, n_pos) for task in ("auc_pr_bootstrap", "compare", "band")}
    assert {t: (p.rows, p.n_resamples) for t, p in sizes.items()} == {
        "auc_pr_bootstrap": (75_000, 200),
        "compare": (25_000, 200),
        "band": (20_035, 200),  # the MIN_POSITIVES floor: ⌈1000 n / n₊⌉ rows
    }
    assert plan("band", n, 3 * 10**5).rows == 10_000  # 30 % positives: the budget decides


def test_user_resamples_use_every_row():
    p = plan("compare", 10**7, 10**5, 50)
    assert (p.rows, p.n_resamples) == (10**7, 50)


def test_auto_resamples_is_the_largest_step():
    assert auto_resamples(1677) == MAX_RESAMPLES
    n = 10**5
    expected = max(min(MAX_RESAMPLES, w // n) if w // n >= MIN_RESAMPLES else MIN_RESAMPLES
                   for w in WORK.values())  # fmt: skip
    assert auto_resamples(n) == expected


def test_stratified_subsample_keeps_prevalence_without_repeats():
    rng = np.random.default_rng(0)
    y = rng.random(50_000) < 0.03
    idx = subsample(y, 5000, np.random.SeedSequence(1))
    assert idx is not None and idx.shape[0] in (4999, 5000, 5001)
    assert np.all(np.diff(idx) > 0)  # sorted, no row twice
    assert abs(y[idx].mean() - y.mean()) <= 1 / 5000
    assert subsample(y, 50_000, np.random.SeedSequence(1)) is None


def test_subsampled_widths_match_resampling_every_row(monkeypatch):
    """The √(m/n)-rescaled widths from a subsample agree with the bootstrap of all rows.

    Both are Monte Carlo estimates with 200 replicates (relative noise ≈ 10 %), so they must
    agree to within a third; the centres must be the full-data estimates exactly.
    """
    rng = np.random.default_rng(1)
    n = 60_000
    y = rng.random(n) < 0.05
    data = LabelledScores(
        "sim", "y", y, {"a": rng.normal(size=n) + 2 * y, "b": rng.normal(size=n) + 1.6 * y}, "1"
    )
    full = analyse(data, Settings("sim", "y", ("a", "b"), "1", n_resamples=200, seed=3))
    monkeypatch.setattr(_sizing, "WORK", {k: 20_000 * 200 for k in WORK})
    sub = analyse(data, Settings("sim", "y", ("a", "b"), "1", n_resamples_auto=True, seed=3))
    steps = [step for step in sub.inference if step.key[1] != "operating_points"]
    assert len(steps) == 7 and all(step.plan.rows == 20_000 for step in steps)
    for name in ("a", "b"):
        f, s = full.scorers[name], sub.scorers[name]
        # the threshold view: values of all rows, band widths as when every row is resampled
        fv, sv = f.threshold_view, s.threshold_view
        assert fv is not None and sv is not None and sv.n_resamples == 200
        np.testing.assert_array_equal(sv.precision, fv.precision)
        for metric in ("precision", "recall", "queue_rate"):
            fb, sb = fv.band(metric), sv.band(metric)
            assert fb is not None and sb is not None
            assert np.all(sb.low <= sv.metric(metric)[sv.band_index] + 1e-12)
            assert np.all(sb.high >= sv.metric(metric)[sv.band_index] - 1e-12)
            mid = (fv.queue_rate[fv.band_index] > 0.03) & (fv.queue_rate[fv.band_index] < 0.5)
            at = fv.band_thresholds[mid][::-1]  # increasing, for np.interp
            sub_width = np.interp(at, sv.band_thresholds[::-1], (sb.high - sb.low)[::-1])
            full_width = (fb.high - fb.low)[mid][::-1]
            assert 0.75 < np.median(sub_width / full_width) < 1.33
        fi = f.auc_pr_ci["average_precision"]["bootstrap_percentile"]
        si = s.auc_pr_ci["average_precision"]["bootstrap_percentile"]
        assert si.estimate == fi.estimate == f.auc_pr["average_precision"]
        ratio = (si.interval.high - si.interval.low) / (fi.interval.high - fi.interval.low)
        assert 0.75 < ratio < 1.33
        assert f.band is not None and s.band is not None
        np.testing.assert_allclose(s.band.estimate, f.band.estimate)
        assert 0.75 < s.band.radius / f.band.radius < 1.33
    (_, _, fc), (_, _, sc) = full.comparisons[0], sub.comparisons[0]
    assert sc.difference == fc.difference
    ratio = (sc.interval.high - sc.interval.low) / (fc.interval.high - fc.interval.low)
    assert 0.75 < ratio < 1.33


def test_coverage_of_the_subsampled_ap_interval():
    """Coverage of the √(m/n)-rescaled percentile interval of AP, by simulation.

    Case A of Hughes-Oliver at prevalence 1/11 (binormal; population AP = ∫PR known by
    quadrature), samples of n = 8000 rows, each interval from a stratified subsample of
    m = 2000 rows with 200 replicates.  Over 200 samples the coverage must be within three
    binomial standard errors of the nominal 95 % (≥ 0.904); measured 0.935 (187 of 200).
    """
    from prcurve import auc_pr, auc_pr_ci, cases
    from prcurve._reporting.analysis._sizing import Plan, rescale_interval

    model = cases.A(1 / 11)
    truth = model.auc_pr()
    gen = np.random.default_rng(2026)
    p = Plan("auc_pr_bootstrap", 200, 2000, 8000)
    reps, hits = 200, 0
    for _ in range(reps):
        y, s = model.sample(8000, rng=gen)
        idx = subsample(y, p.rows, np.random.SeedSequence(int(gen.integers(2**32))))
        assert idx is not None
        res = auc_pr_ci(y[idx], s[idx], interval="bootstrap_percentile", n_resamples=200, rng=gen)
        full = rescale_interval(res, auc_pr(y, s), float(y.sum()), p)
        hits += full.interval.low <= truth <= full.interval.high
    coverage = hits / reps
    bound = 0.95 - 3 * np.sqrt(0.95 * 0.05 / reps)
    assert coverage >= bound, f"coverage {coverage:.3f} below {bound:.3f}"
