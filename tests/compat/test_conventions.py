"""One conformance test per tool convention (``prcurve.compat``).

scikit-learn is compared with scikit-learn itself (here and in CI); ROCR with ROCR itself in
``test_rocr_r.py``; torchmetrics and Keras 3 with themselves in ``test_torch_tools.py`` (the
torch CI job).  All are also compared with a slow, literal re-implementation of the tool's
source (``_reference.py``): Spark needs Java; PRROC, precrec and yardstick have no Debian
package; auc.jar is not distributed.  The cases expose ties, the start point (a negative ranked
first) and each binning rule; the vectorised code must agree with the literal one to rounding
(1e-12; 1e-9 for precrec, whose recall grid accumulates ``+= 1/x_bins``).
"""

import numpy as np
import pytest

from prcurve import auc_pr as prcurve_auc_pr
from prcurve import compat

from . import _reference as ref


def _cases():
    rng = np.random.default_rng(20270127)
    out = {}
    for name, n, prevalence, digits in (
        ("continuous", 120, 0.3, None),
        ("ties", 150, 0.35, 1),  # rounded: tie groups with several positives (TP jumps > 2)
        ("heavy_ties", 200, 0.5, 0),
        ("rare", 300, 0.05, 2),
    ):
        y = rng.random(n) < prevalence
        y[:2] = True, False
        s = rng.normal(size=n) + 1.2 * y
        if digits is not None:
            s = np.round(s, digits)
        out[name] = (y, 1 / (1 + np.exp(-s)))  # probabilities in (0, 1), ties kept
    # a negative ranked first, then two positives: exposes each tool's start point
    y = np.array([0, 1, 1, 0, 1, 0, 0, 1, 0, 0], dtype=bool)
    s = np.array([0.95, 0.9, 0.85, 0.8, 0.7, 0.6, 0.5, 0.4, 0.3, 0.2])
    out["negative_first"] = (y, s)
    return out


CASES = _cases()


@pytest.fixture(params=sorted(CASES))
def case(request):
    return CASES[request.param]


def test_sklearn_against_scikit_learn(case):
    from sklearn.metrics import average_precision_score

    y, s = case
    w = np.random.default_rng(3).uniform(0.5, 2.0, size=y.shape[0])
    assert compat.auc_pr(y, s, tool="sklearn") == pytest.approx(
        average_precision_score(y, s), abs=1e-12
    )
    assert compat.auc_pr(y, s, tool="sklearn", sample_weight=w) == pytest.approx(
        average_precision_score(y, s, sample_weight=w), abs=1e-12
    )


@pytest.mark.parametrize("num_bins", [0, 1000, 7, 3])
def test_spark(case, num_bins):
    y, s = case
    expected = ref.spark(y, s, num_bins=num_bins)
    assert compat.auc_pr(y, s, tool="spark", num_bins=num_bins) == pytest.approx(
        expected, abs=1e-12
    )


def test_spark_binning_and_start_point_change_the_value():
    """7 distinct scores with num_bins=3: chunks of 2, the last of 1 (its own point)."""
    y = np.array([1, 0, 1, 1, 0, 1, 0])
    s = np.arange(7.0, 0.0, -1.0)
    # unbinned points (recall, precision): (1/4, 1), (1/4, 1/2), (2/4, 2/3), (3/4, 3/4), ...
    binned = ref.spark(y, s, num_bins=3)
    assert compat.auc_pr(y, s, tool="spark", num_bins=3) == pytest.approx(binned, abs=1e-15)
    # by hand: chunks end at the 2nd, 4th, 6th and 7th scores: (1/4, 1/2), (3/4, 3/4),
    # (1, 4/6), (1, 4/7); start (0, 1/2)
    by_hand = 0.25 * (0.5 + 0.5) / 2 + 0.5 * (0.5 + 0.75) / 2 + 0.25 * (0.75 + 4 / 6) / 2
    assert binned == pytest.approx(by_hand, abs=1e-15)
    assert compat.auc_pr(y, s, tool="spark", num_bins=0) != pytest.approx(by_hand)


@pytest.mark.parametrize("num_thresholds", [200, 5, 2])
def test_keras(case, num_thresholds):
    y, s = case
    expected = ref.keras(y, s, num_thresholds=num_thresholds)
    got = compat.auc_pr(y, s, tool="keras", num_thresholds=num_thresholds)
    assert got == pytest.approx(expected, abs=1e-12)


def test_keras_weights_and_clipping():
    y, s = CASES["ties"]
    w = np.random.default_rng(4).uniform(0.2, 3.0, size=y.shape[0])
    logits = np.log(s / (1 - s)) * 2  # outside [0, 1]: Keras clips
    assert compat.auc_pr(y, logits, tool="keras", sample_weight=w) == pytest.approx(
        ref.keras(y, logits, w), abs=1e-12
    )


def test_keras_score_on_a_threshold_is_not_counted_there():
    """score > threshold: 0.5 with T = 3 counts at −ε only, a one-bin curve."""
    y, s = np.array([1, 0, 1]), np.array([0.5, 0.5, 1.0])
    got = compat.auc_pr(y, s, tool="keras", num_thresholds=3)
    assert got == pytest.approx(ref.keras(y, s, num_thresholds=3), abs=1e-15)
    # threshold 0.5 admits only the 1.0 (precision 1), −ε all: DG from (1, 0) to (2, 1)
    assert got == pytest.approx(
        (1 + prcurve_auc_pr([1, 1, 0], [2, 1, 1], method="davis_goadrich") * 2 - 1) / 2, abs=1e-12
    )


@pytest.mark.parametrize("thresholds", [None, 100, 5])
def test_torchmetrics(case, thresholds):
    y, s = case
    tool = "torchmetrics" if thresholds is None else "torchmetrics_binned"
    got = compat.auc_pr(y, s, tool=tool, thresholds=thresholds)
    assert got == pytest.approx(ref.torchmetrics(y, s, thresholds), abs=1e-12)


def test_torchmetrics_sigmoid_and_saturation():
    """Logits go through a sigmoid; in float32 the large ones saturate into one tie."""
    y = np.array([1, 0, 1, 0, 1, 0])
    logits = np.array([30.0, 25.0, 20.0, 1.0, -1.0, -3.0], dtype=np.float32)
    got = compat.auc_pr(y, logits, tool="torchmetrics")
    assert got == pytest.approx(ref.torchmetrics(y, logits), abs=1e-12)
    assert got != pytest.approx(compat.auc_pr(y, logits, tool="sklearn"))  # the tie changes it
    binned = compat.auc_pr(y, logits, tool="torchmetrics_binned", thresholds=5)
    assert binned == pytest.approx(ref.torchmetrics(y, logits, 5), abs=1e-12)


@pytest.mark.parametrize("x_bins", [1000, 7, 0])
def test_precrec(case, x_bins):
    y, s = case
    got = compat.auc_pr(y, s, tool="precrec", x_bins=x_bins)
    assert got == pytest.approx(ref.precrec(list(y), list(s), x_bins), abs=1e-9)


def test_prroc(case):
    y, s = case
    integral, dg = ref.prroc(list(y), list(s))
    assert compat.auc_pr(y, s, tool="prroc_integral") == pytest.approx(integral, abs=1e-12)
    assert compat.auc_pr(y, s, tool="prroc_dg") == pytest.approx(dg, abs=1e-12)
    w = np.random.default_rng(5).uniform(0.5, 2.0, size=y.shape[0])
    weighted, _ = ref.prroc(list(y), list(s), w)
    assert compat.auc_pr(y, s, tool="prroc_integral", sample_weight=w) == pytest.approx(
        weighted, abs=1e-12
    )


def test_rocr_formula(case):
    y, s = case
    assert compat.auc_pr(y, s, tool="rocr") == pytest.approx(ref.rocr(list(y), list(s)), abs=1e-12)


def test_yardstick(case):
    y, s = case
    w = np.random.default_rng(6).uniform(0.5, 2.0, size=y.shape[0])
    assert compat.auc_pr(y, s, tool="yardstick") == pytest.approx(ref.yardstick(y, s), abs=1e-12)
    assert compat.auc_pr(y, s, tool="yardstick", sample_weight=w) == pytest.approx(
        ref.yardstick(y, s, w), abs=1e-12
    )


def test_auc_jar(case):
    y, s = case
    assert compat.auc_pr(y, s, tool="auc_jar") == pytest.approx(
        ref.auc_jar(list(y), list(s)), abs=1e-12
    )


def test_start_points_differ_as_documented():
    """Negative first: auc.jar drops the (TP 0, FP 1) point, PRROC's DG keeps it."""
    y, s = CASES["negative_first"]
    jar, dg = compat.auc_pr(y, s, tool="auc_jar"), compat.auc_pr(y, s, tool="prroc_dg")
    # up to the first positive (TP 1, FP 1, precision 1/2): auc.jar a rectangle 1/4 · 1/2,
    # PRROC a trapezoid from (0, 0) to (1/4, 1/2); every later segment is the same
    assert jar - dg == pytest.approx(1 / 4 * 1 / 2 - 1 / 4 * (0 + 1 / 2) / 2, abs=1e-15)
    # a tie at the top (precision 1/2 at recall 1/2): yardstick starts at (0, 1), Spark at
    # (0, 1/2); the first trapezoid differs by 1/2 · (1 − 1/2) / 2
    y, s = np.array([1, 0, 1, 0]), np.array([0.9, 0.9, 0.5, 0.1])
    yard, spark = compat.auc_pr(y, s, tool="yardstick"), compat.auc_pr(y, s, tool="spark")
    assert yard - spark == pytest.approx(0.125, abs=1e-15)
    assert yard == pytest.approx(0.375 + 0.5 * (0.5 + 2 / 3) / 2, abs=1e-15)
