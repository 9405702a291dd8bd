"""Thinning long lines for drawing: the kept points, and the drawn image, against the full line."""

from __future__ import annotations

import io

import numpy as np
import pytest
from matplotlib.figure import Figure

from prcurve.plot._thin import thin_axes, thin_indices, thin_lines


@pytest.mark.parametrize("seed", [0, 1])
def test_every_column_keeps_its_first_last_lowest_and_highest_point(seed):
    rng = np.random.default_rng(seed)
    n, columns = 50_000, 100
    x = np.sort(rng.random(n))
    y = np.round(rng.random(n), 2)  # ties in y
    y[123] = np.nan  # a gap in the line
    keep = thin_indices(x, y, 0.0, 1.0, columns)
    assert keep.shape[0] < n // 20 and np.all(np.diff(keep) > 0) and 123 in keep
    col = np.floor(x * columns)
    for c in range(columns):  # brute force, column by column (the gap splits one run)
        members = np.flatnonzero((col == c) & np.isfinite(y))
        kept = np.intersect1d(keep, members)
        assert kept[0] == members[0] or members[0] == 124
        assert kept[-1] == members[-1] or members[-1] == 122
        assert np.nanmin(y[kept]) == np.nanmin(y[members])
        assert np.nanmax(y[kept]) == np.nanmax(y[members])


def _png_pixels(thin: bool, x, y, drawstyle="default"):
    from PIL import Image

    fig = Figure(figsize=(5, 4))
    ax = fig.subplots()
    ax.plot(x, y, drawstyle=drawstyle, linewidth=1.2)
    ax.set_xlim(0, 1)
    ax.set_ylim(0, 1)
    if thin:
        thin_axes(ax)
        assert ax.get_lines()[0].get_xdata().shape[0] < x.shape[0] / 4
    buf = io.BytesIO()
    fig.savefig(buf, format="png", dpi=100)
    return np.asarray(Image.open(buf).convert("L"), dtype=float)


@pytest.mark.parametrize("drawstyle", ["default", "steps-pre"])
def test_thinned_line_draws_the_same_image(drawstyle):
    rng = np.random.default_rng(2)
    n = 200_000
    x = np.sort(rng.random(n))
    y = np.clip(0.5 + 0.3 * np.sin(8 * x) + 0.05 * rng.standard_normal(n), 0, 1)
    full, thinned = _png_pixels(False, x, y, drawstyle), _png_pixels(True, x, y, drawstyle)
    # antialiasing may differ by a few grey levels along the line; no pixel changes much
    assert np.mean(np.abs(full - thinned)) < 0.5
    assert np.mean(np.abs(full - thinned) > 64) < 1e-3


@pytest.mark.parametrize("weighted", [False, True])
def test_thinned_pr_path_is_the_thinned_interpolated_path(weighted):
    from prcurve import pr_curve
    from prcurve.plot._thin import thin_pr_path

    rng = np.random.default_rng(7)
    n = 120_000
    y = rng.random(n) < 0.1
    s = np.round(rng.normal(size=n) + 1.2 * y, 3)  # ties: vertical drops
    w = rng.exponential(size=n) if weighted else None
    curve = pr_curve(y, s, sample_weight=w)
    r_full, p_full = curve.interpolate()
    r, p = thin_pr_path(curve, -0.02, 1.02, columns=500)
    # the grid points are read exactly as on the full path; the operating points are those
    # thin_indices keeps, in the full path's order
    grid = np.linspace(0.0, 1.0, 200)
    is_grid = np.isin(r, grid) & np.r_[True, np.diff(r) >= 0]
    _, grid_p = curve.interpolate(grid)
    key = np.concatenate([np.zeros(200), np.arange(1, curve.recall.shape[0] + 1)])
    order = np.lexsort((key, np.concatenate([grid, curve.recall])))
    from_grid = order < 200  # positions of the grid points on the full path
    keep = thin_indices(curve.recall, curve.precision, -0.02, 1.02, 500)
    chosen = from_grid | np.isin(order - 200, keep)
    np.testing.assert_array_equal(r, r_full[chosen])
    np.testing.assert_array_equal(p, p_full[chosen])
    assert np.array_equal(p_full[from_grid], grid_p) and is_grid.sum() >= 200
    assert r.shape[0] < n / 20
    # and thinning the full path keeps no point the thinned path lacks
    full_keep = thin_indices(r_full, p_full, -0.02, 1.02, 500)
    assert np.isin(full_keep, np.flatnonzero(chosen)).all()


def test_thinning_reads_long_lines_in_blocks_with_the_same_result():
    rng = np.random.default_rng(8)
    n = 30_000
    x = np.sort(rng.random(n))
    x[1000:9000] = 0.5  # one long run across blocks
    y = np.round(rng.random(n), 1)
    y[[17, 4099, 20_000]] = np.nan
    whole = thin_indices(x, y, 0.0, 1.0, 200, block=n)
    for block in (1000, 4096, 7):
        np.testing.assert_array_equal(thin_indices(x, y, 0.0, 1.0, 200, block=block), whole)


@pytest.mark.parametrize("block", [7, 1000, 30_000])
def test_several_lines_thinned_together_keep_the_union_of_each_line(block):
    """thin_lines reads x and every y once per block; it keeps exactly the points that
    thinning each line on its own keeps (the union), whatever the block size."""
    rng = np.random.default_rng(9)
    n = 30_000
    x = np.sort(rng.random(n))
    ys = [np.round(rng.random(n), 1), np.cumsum(rng.normal(size=n)), np.sin(x * 40)]
    ys[1][[5, 12_000]] = np.inf
    reads = []

    def read(part):
        reads.append(part)
        return x[part], [y[part] for y in ys]

    got = thin_lines(n, read, 0.0, 1.0, 200, block=block)
    want = np.unique(np.concatenate([thin_indices(x, y, 0.0, 1.0, 200, block=block) for y in ys]))
    np.testing.assert_array_equal(got, want)
    assert [(p.start, p.stop) for p in reads] == [
        (lo, min(lo + block, n)) for lo in range(0, n, block)
    ]  # each block read once
