"""``prcurve.compat`` against the real torchmetrics and Keras 3 (``KERAS_BACKEND=torch``).

torch, torchmetrics and keras are a few GB: the torch CI job installs them and sets
``PRCURVE_CI_TORCH``, so there a missing tool fails; the other jobs skip these tests.

Tolerance: both tools compute in float32 (counts exact below 2**24; precision, recall and the
sum rounded to float32), so they differ from prcurve's float64 value by a few float32 ulps per
term -- measured below 1.1e-7 on every case here.  ``abs=1e-6`` is far below what one instance
counted differently changes (at least 1/(n₊·n) > 2e-5 for these sizes), so a convention that
bins, orders or saturates one score differently fails.
"""

import os

import numpy as np
import pytest

from prcurve import compat

from ..conftest import import_reference
from .test_conventions import CASES

pytestmark = pytest.mark.reference

TOL = 1e-6


def _tool(name):
    return import_reference(name, required_by="PRCURVE_CI_TORCH", install="'.[torch,test]' " + name)


@pytest.fixture(scope="module")
def torch():
    return _tool("torch")


@pytest.fixture(scope="module")
def average_precision(torch):
    tm = _tool("torchmetrics")

    def run(y, s, thresholds=None):
        metric = tm.classification.BinaryAveragePrecision(thresholds=thresholds)
        scores = s if isinstance(s, torch.Tensor) else torch.from_numpy(np.asarray(s))
        metric.update(scores, torch.from_numpy(np.asarray(y).astype(np.int64)))
        return float(metric.compute())

    return run


@pytest.fixture(scope="module")
def keras_auc(torch):
    os.environ.setdefault("KERAS_BACKEND", "torch")
    keras = _tool("keras")
    assert keras.backend.backend() == "torch"

    def run(y, s, num_thresholds=200, sample_weight=None):
        metric = keras.metrics.AUC(curve="PR", num_thresholds=num_thresholds)
        metric.update_state(np.asarray(y, dtype=np.float32), s, sample_weight=sample_weight)
        return float(metric.result())

    return run


def _logits(n=400, seed=5):
    rng = np.random.default_rng(seed)
    y = rng.random(n) < 0.3
    y[:2] = True, False
    return y, rng.normal(size=n) * 12 + 8 * y  # many beyond the float16/float32 saturation


@pytest.mark.parametrize("name", sorted(CASES))
@pytest.mark.parametrize("thresholds", [None, 100, 1000])
@pytest.mark.parametrize("dtype", [np.float32, np.float64])
def test_torchmetrics_exact_and_binned(average_precision, name, thresholds, dtype):
    y, s = CASES[name]
    s = s.astype(dtype)
    tool = "torchmetrics" if thresholds is None else "torchmetrics_binned"
    expected = average_precision(y, s, thresholds)
    assert compat.auc_pr(y, s, tool=tool, thresholds=thresholds) == pytest.approx(expected, abs=TOL)


@pytest.mark.parametrize("dtype", ["float16", "float32", "float64"])
@pytest.mark.parametrize("thresholds", [None, 100])
def test_torchmetrics_sigmoid_saturates_in_the_scores_dtype(
    torch, average_precision, dtype, thresholds
):
    """Half-precision logits: torch's sigmoid gives 1.0 from about 8 on (float32: 17)."""
    y, z = _logits()
    s = z.astype(dtype)
    tool = "torchmetrics" if thresholds is None else "torchmetrics_binned"
    value = compat.auc_pr(y, s, tool=tool, thresholds=thresholds)
    assert value == pytest.approx(average_precision(y, s, thresholds), abs=TOL)
    # a half tensor is read as half too
    tensor = torch.from_numpy(s)
    assert compat.auc_pr(y, tensor, tool=tool, thresholds=thresholds) == value


@pytest.mark.parametrize("steps", [100, 101, 1000])
def test_torchmetrics_scores_exactly_on_the_threshold_grid(torch, average_precision, steps):
    """Scores equal to grid points of torch.linspace(0, 1, T), which NumPy's float32 linspace
    misses by one ulp at some points: each such score must be counted as torch counts it."""
    rng = np.random.default_rng(steps)
    grid = torch.linspace(0, 1, steps).numpy()
    y = rng.random(600) < 0.4
    y[:2] = True, False
    s = grid[rng.integers(0, steps, size=600)]
    assert compat.auc_pr(y, s, tool="torchmetrics_binned", thresholds=steps) == pytest.approx(
        average_precision(y, s, steps), abs=TOL
    )


@pytest.mark.parametrize("grid", [[0.1, 0.5, 0.9], [0.9, 0.1, 0.5], [0.3, 0.3, 0.7]])
@pytest.mark.parametrize("dtype", [np.float32, np.float64])
def test_torchmetrics_threshold_lists_in_their_order(average_precision, grid, dtype):
    """A list becomes a float32 tensor, used in the order given (unsorted: an unsorted sum)."""
    y, z = _logits(seed=7)
    s = np.round(1 / (1 + np.exp(-z / 5)), 1).astype(dtype)  # 0.1, 0.3, ...: on the list
    assert compat.auc_pr(y, s, tool="torchmetrics_binned", thresholds=grid) == pytest.approx(
        average_precision(y, s, grid), abs=TOL
    )


@pytest.mark.parametrize("name", sorted(CASES))
@pytest.mark.parametrize("num_thresholds", [200, 50])
def test_keras_auc_pr(keras_auc, name, num_thresholds):
    y, s = CASES[name]
    w = np.random.default_rng(3).uniform(0.5, 2.0, size=y.shape[0]).astype(np.float32)
    for weight in (None, w):
        expected = keras_auc(y, s.astype(np.float32), num_thresholds, weight)
        value = compat.auc_pr(
            y, s, tool="keras", num_thresholds=num_thresholds, sample_weight=weight
        )
        assert value == pytest.approx(expected, abs=TOL)


@pytest.mark.parametrize("scores", ["grid", "logits"])
def test_keras_on_its_grid_and_outside_the_unit_interval(keras_auc, scores):
    """Scores exactly at i/(T−1) (the bucket edges) and scores clipped to [0, 1]."""
    y, z = _logits(seed=11)
    rng = np.random.default_rng(11)
    s = (rng.integers(0, 200, size=y.shape[0]) / 199) if scores == "grid" else z
    s = s.astype(np.float32)
    assert compat.auc_pr(y, s, tool="keras") == pytest.approx(keras_auc(y, s), abs=TOL)
