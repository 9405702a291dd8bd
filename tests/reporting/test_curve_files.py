"""Curve files sized for use (issue 24 item 3): above 100,000 operating points ``prcurve report``
writes the thinned curve (both ends and the ROC hull vertices kept) and states the thinning's
precision-error bound; ``--all-points`` writes every point, also as Parquet.

Checked through the real entry point against independent values: scikit-learn's curve, a
brute-force upper hull and a brute-force Davis–Goadrich evaluation of both curves."""

from __future__ import annotations

import json
import os
import subprocess
import sys

import numpy as np
import pytest
from sklearn.metrics import precision_recall_curve

CAP = 100_000  # the documented size (docs/guide/report-files.md, --help)


def _run(*args: str) -> subprocess.CompletedProcess[str]:
    env = dict(os.environ, MPLBACKEND="Agg")
    return subprocess.run(
        [sys.executable, "-m", "prcurve", "report", *args, "--quiet", "--n-resamples", "20"],
        capture_output=True, text=True, env=env, timeout=600,
    )  # fmt: skip


@pytest.fixture(scope="module")
def big(tmp_path_factory):
    """120,000 rows of distinct scores (so 120,000 operating points), 5 % positives."""
    rng = np.random.default_rng(24)
    n = 120_000
    y = (rng.random(n) < 0.05).astype(int)
    s = rng.normal(size=n) + 1.5 * y
    path = tmp_path_factory.mktemp("big") / "big.csv"
    path.write_text("y,s\n" + "".join(f"{a},{b!r}\n" for a, b in zip(y, s.tolist(), strict=True)))
    return path, y, s


def _read(path):
    raw = np.genfromtxt(path, delimiter=",", names=True)
    return {k: raw[k] for k in raw.dtype.names}


def _full_curve(y, s):
    """Operating points (thresholds decreasing) from scikit-learn, as counts."""
    precision, recall, thresholds = precision_recall_curve(y, s)
    p, r, t = precision[:-1][::-1], recall[:-1][::-1], thresholds[::-1]
    n_pos = int(y.sum())
    tp = np.rint(r * n_pos)
    fp = np.rint(tp / p - tp)
    return t, tp, fp, p, r


def _upper_hull(fp, tp):
    """Vertices (fp, tp) of the upper ROC hull from (0, 0), collinear points dropped."""
    pts = sorted({(0.0, 0.0), *zip(fp.tolist(), tp.tolist(), strict=True)})
    hull: list[tuple[float, float]] = []
    for p in pts:
        while len(hull) >= 2:
            (x1, y1), (x2, y2) = hull[-2], hull[-1]
            if (x2 - x1) * (p[1] - y1) - (y2 - y1) * (p[0] - x1) >= 0:
                hull.pop()  # hull[-1] is not above the chord: not an upper vertex
            else:
                break
        hull.append(p)
    return [v for v in hull if v != (0.0, 0.0)]


def _dg_precision(tp, fp, targets):
    """Davis–Goadrich precision at true-positive counts ``targets`` (upper value at drops)."""
    i = np.searchsorted(tp, targets, side="left")  # first point with tp >= target
    first = i == 0
    j = np.maximum(i - 1, 0)
    slope = (fp[i] - fp[j]) / np.where(tp[i] > tp[j], tp[i] - tp[j], 1.0)
    f = fp[j] + (targets - tp[j]) * slope
    p = targets / (targets + f)
    return np.where(first, tp[0] / (tp[0] + fp[0]), p)


def test_thinned_curve_file(big, tmp_path):
    path, y, s = big
    out = tmp_path / "rep"
    res = _run(str(path), "--label", "y", "--score", "s", "--out", str(out))
    assert res.returncode == 0, res.stderr
    thin = _read(out / "curves" / "s.csv")
    t, tp, fp, p, _ = _full_curve(y, s)
    assert tp.shape[0] == 120_000 > CAP
    assert 2 <= thin["tp"].shape[0] <= CAP
    kept = set(zip(thin["fp"].tolist(), thin["tp"].tolist(), strict=True))
    assert (fp[0], tp[0]) in kept and (fp[-1], tp[-1]) in kept  # both ends
    hull = _upper_hull(fp, tp)
    assert len(hull) > 10 and set(hull) <= kept
    # the stated bound holds at every recall: every TP step and between them
    entry = json.loads((out / "summary.json").read_text())["curve_files"]["scorers"]["s"]
    assert entry["thinned"] and entry["operating_points"] == 120_000
    assert entry["points"] == thin["tp"].shape[0]
    bound = entry["max_precision_error"]
    targets = np.arange(1, 2 * tp[-1] + 1) / 2
    gap = np.abs(_dg_precision(tp, fp, targets) - _dg_precision(thin["tp"], thin["fp"], targets))
    assert 0 < gap.max() <= bound + 1e-12  # rounding of two float64 evaluations
    assert bound < 0.01
    # the page says what the file holds and the bound
    page = (out / "report.html").read_text()
    assert f"holds {thin['tp'].shape[0]:,} of the 120,000 operating points" in page
    assert f"precision within {bound:.2g}" in page
    # the thinned rows are exact operating points of the full curve
    row = np.searchsorted(-t, -thin["threshold"])
    np.testing.assert_array_equal(t[row], thin["threshold"])
    np.testing.assert_array_equal(tp[row], thin["tp"])
    np.testing.assert_allclose(thin["precision"], p[row], rtol=1e-15)


def test_all_points(big, tmp_path):
    pq = pytest.importorskip("pyarrow.parquet")
    path, y, s = big
    out = tmp_path / "all"
    res = _run(str(path), "--label", "y", "--score", "s", "--out", str(out), "--all-points")
    assert res.returncode == 0, res.stderr
    t, tp, fp, p, r = _full_curve(y, s)
    full = _read(out / "curves" / "s.csv")
    table = pq.read_table(out / "curves" / "s.parquet").to_pydict()
    for got in (full, {k: np.asarray(v) for k, v in table.items()}):
        np.testing.assert_array_equal(got["threshold"], t)
        np.testing.assert_array_equal(got["tp"], tp)
        np.testing.assert_array_equal(got["fp"], fp)
        np.testing.assert_allclose(got["precision"], p, rtol=1e-15)
        np.testing.assert_allclose(got["recall"], r, rtol=1e-15)
    summary = json.loads((out / "summary.json").read_text())
    entry = summary["curve_files"]["scorers"]["s"]
    assert entry["points"] == 120_000 and not entry["thinned"]
    assert entry["max_precision_error"] == 0.0
    assert "curves/s.parquet" in summary["files"]


def test_a_curve_on_disk_is_written_in_chunks_with_the_same_bytes(tmp_path, monkeypatch):
    """``--all-points`` on the Dask engine: the curve is on disk (``prcurve._core._disk``) and
    its files are written a chunk of rows at a time (each chunk's pages handed back): the same
    CSV bytes and the same Parquet table as the curve in memory."""
    pq = pytest.importorskip("pyarrow.parquet")
    from prcurve._core._counts import BinaryCounts, count_sorted
    from prcurve._core._disk import counts_from_files
    from prcurve._core._empirical import PRCurve
    from prcurve._reporting.output import _sized
    from prcurve._reporting.output._write import _csv_bytes, _curve_columns

    rng = np.random.default_rng(8)
    y = rng.random(5000) < 0.2
    s = np.round(rng.normal(size=5000) + y, 2)
    mem = count_sorted(y, s)
    for name in ("thresholds", "tp", "fp"):
        np.save(tmp_path / f"{name}.npy", getattr(mem, name))
    disk = BinaryCounts(
        *counts_from_files(tmp_path, ("thresholds", "tp", "fp")), mem.n_pos, mem.n_neg
    )
    monkeypatch.setattr(_sized, "FILE_CHUNK", 37)  # many chunks, the last one short
    in_memory = _curve_columns(PRCurve.from_counts(mem))
    on_disk = _curve_columns(PRCurve.from_counts(disk))
    assert len(_sized.row_chunks(on_disk)) > 1 and _sized.row_chunks(in_memory) == [slice(None)]
    assert _csv_bytes(on_disk) == _csv_bytes(in_memory)
    paths = {}
    for key, cols in (("disk", on_disk), ("memory", in_memory)):
        paths[key] = tmp_path / f"{key}.parquet"
        with open(paths[key], "wb") as f:
            _sized.parquet_writer(lambda cols=cols: cols)(f)
    assert pq.read_table(paths["disk"]).equals(pq.read_table(paths["memory"]))
