"""The report's bands and comparisons hold the drawn curves, also under tied scores (issue 10)."""

from __future__ import annotations

import dataclasses

import numpy as np
import pytest

from prcurve._reporting.analysis._analysis import Settings, analyse
from prcurve._reporting.input._io import BUILTIN_EXAMPLE, read_labelled_scores


def _analysis(round_to: int | None):
    data = read_labelled_scores(None, BUILTIN_EXAMPLE.label, BUILTIN_EXAMPLE.scores)
    if round_to is not None:
        scores = {k: np.round(v, round_to) for k, v in data.scores.items()}
        data = dataclasses.replace(data, scores=scores)
    settings = Settings(
        data.source, data.label_column, tuple(data.scores), data.positive_label,
        n_resamples=150, seed=3,
    )  # fmt: skip
    return analyse(data, settings)


@pytest.mark.parametrize("round_to", [None, 1])
def test_report_bands_hold_the_drawn_curves(round_to):
    analysis = _analysis(round_to)
    for sc in analysis.scorers.values():
        assert sc.band is not None
        drawn = sc.pr.interpolate(sc.band.recall)[1]
        np.testing.assert_allclose(sc.band.estimate, drawn, rtol=1e-12)
        assert sc.band.contains(drawn), sc.name
    for a, b, res in analysis.comparisons:
        for band, name in ((res.band_a, a), (res.band_b, b)):
            drawn = analysis.scorers[name].pr.interpolate(band.recall)[1]
            np.testing.assert_allclose(band.estimate, drawn, rtol=1e-12)
            assert band.contains(drawn)
        # the case: logistic regression vs naive Bayes, AP differing by about 0.75
        gap = abs(res.estimate_a - res.estimate_b)
        if gap > 0.6:
            assert res.bands_separate, (a, b, gap)
    assert max(abs(r.estimate_a - r.estimate_b) for _, _, r in analysis.comparisons) > 0.6
