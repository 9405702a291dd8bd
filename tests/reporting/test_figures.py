"""The report's figures laid out without measuring text: nothing clipped, nothing overlapping."""

from __future__ import annotations

import numpy as np
import pytest

from prcurve._reporting._analysis import Settings, analyse
from prcurve._reporting._figures import draw_figures
from prcurve._reporting._io import BUILTIN_EXAMPLE, LabelledScores, read_labelled_scores


def _analysis(data: LabelledScores):
    settings = Settings(data.source, data.label_column, tuple(data.scores), data.positive_label,
                        n_resamples=50, seed=1)  # fmt: skip
    return analyse(data, settings)


@pytest.fixture(scope="module")
def example():
    return _analysis(read_labelled_scores(None, BUILTIN_EXAMPLE.label, BUILTIN_EXAMPLE.scores))


@pytest.fixture(scope="module")
def many():
    """Seven scorers at 1 % positives: a tall overview legend, a zoomed PRG panel."""
    rng = np.random.default_rng(4)
    n = 3000
    y = rng.random(n) < 0.01
    scores = {f"scorer_{k}": rng.normal(size=n) + 0.4 * k * y for k in range(7)}
    return _analysis(LabelledScores("many.csv", "y", y, scores, "1"))


def _boxes(fig):
    """Window extents, after drawing, of every panel's text and legend (name → Bbox)."""
    from matplotlib.backends.backend_agg import FigureCanvasAgg

    canvas = FigureCanvasAgg(fig)
    canvas.draw()
    renderer = canvas.get_renderer()
    out = []
    for i, ax in enumerate(fig.axes):
        parts = {
            "title": ax.title,
            "xlabel": ax.xaxis.label,
            "ylabel": ax.yaxis.label,
            "legend": ax.get_legend(),
        }
        for name, artist in parts.items():
            if artist is not None and (name == "legend" or artist.get_text()):
                out.append((f"panel {i} {name}", artist.get_window_extent(renderer)))
        for axis, which in (("xtick", ax.xaxis), ("ytick", ax.yaxis)):
            lo, hi = sorted(which.get_view_interval())
            for at, t in zip(which.get_ticklocs(), which.get_ticklabels(), strict=True):
                if lo <= at <= hi and t.get_visible() and t.get_text():  # drawn
                    box = t.get_window_extent(renderer)
                    out.append((f"panel {i} {axis} {t.get_text()}", box))
    return out, fig.bbox


@pytest.mark.parametrize("which", ["example", "many"])
def test_every_label_and_legend_is_inside_the_figure_and_none_overlap(which, request):
    analysis = request.getfixturevalue(which)
    for key, _, _, fig in draw_figures(analysis):
        boxes, page = _boxes(fig)
        for name, box in boxes:
            assert box.x0 >= page.x0 and box.x1 <= page.x1, f"{key}: {name} cut at a side"
            assert box.y0 >= page.y0 and box.y1 <= page.y1, f"{key}: {name} cut at top/bottom"
        texts = [(n, b) for n, b in boxes if "tick" not in n]
        for i, (name, box) in enumerate(texts):
            for other, box2 in texts[i + 1 :]:
                assert not box.overlaps(box2), f"{key}: {name} overlaps {other}"
        for name, box in boxes:  # each legend hangs below its panel's x label and x tick labels
            if name.endswith(" legend"):
                panel = name.removesuffix(" legend")
                above = [b for n, b in boxes if n.startswith((f"{panel} xlabel", f"{panel} xtick"))]
                assert above and all(box.y1 < b.y0 for b in above), f"{key}: {name} too high"


def test_panels_are_square_except_the_prg_panel_and_equally_tall(example):
    for key, _, _, fig in draw_figures(example):
        from matplotlib.backends.backend_agg import FigureCanvasAgg

        FigureCanvasAgg(fig).draw()
        boxes = [ax.get_window_extent() for ax in fig.axes]
        heights = {round(b.height) for b in boxes}
        assert len(heights) == 1, f"{key}: panels of heights {heights}"
        for ax, box in zip(fig.axes, boxes, strict=True):
            if ax.get_aspect() == 1.0:
                assert abs(box.width - box.height) <= 1.0
