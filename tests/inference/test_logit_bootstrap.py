"""The logit-scale bootstrap candidates measured (and not offered) for issue 17."""

from __future__ import annotations

import numpy as np
import pytest
from scipy.special import expit, logit
from scipy.stats import norm

from prcurve import cases
from prcurve._inference._interval_coverage import _logit_bootstrap, interval_coverage


def test_logit_se_interval_is_the_normal_interval_on_the_logit_scale():
    reps = expit(np.random.default_rng(0).normal(logit(0.6), 0.2, size=4000))
    lo, hi = _logit_bootstrap(0.6, reps, 50.0, 0.95, "logit_se")
    sd = np.std(logit(reps), ddof=1)
    assert lo == pytest.approx(expit(logit(0.6) - norm.ppf(0.975) * sd))
    assert hi == pytest.approx(expit(logit(0.6) + norm.ppf(0.975) * sd))


def test_logit_t_interval_inverts_the_studentized_quantiles():
    gen = np.random.default_rng(1)
    reps = expit(gen.normal(logit(0.3), 0.3, size=3000))
    n_pos, theta = 40.0, 0.3
    lo, hi = _logit_bootstrap(theta, reps, n_pos, 0.9, "logit_t")
    t = (logit(reps) - logit(theta)) * np.sqrt(n_pos * reps * (1 - reps))
    q = np.quantile(t, [0.05, 0.95])
    se = 1 / np.sqrt(n_pos * theta * (1 - theta))
    assert [lo, hi] == pytest.approx(list(expit(logit(theta) - q[::-1] * se)))
    assert lo < theta < hi


def test_candidate_rows_only_when_asked():
    kw = dict(n_repetitions=2, groups=("auc",), n_resamples=30, rng=0)
    plain = {r.interval for r in interval_coverage(cases.A(0.3), 200, **kw)}
    more = {r.interval for r in interval_coverage(cases.A(0.3), 200, candidates=True, **kw)}
    assert not any("logit-" in name for name in plain)
    assert more - plain == {
        f"auc {k} [{s}]" for k in ("logit-se", "logit-t") for s in ("instances", "stratified")
    }
