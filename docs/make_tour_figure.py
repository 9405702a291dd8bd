"""Make ``docs/tour.png``, the figure of the README's tour, from the built-in example.

python docs/make_tour_figure.py

Each panel's legend goes below it, where it cannot cover the band, the chance line or a curve
(inside the panel, the lower-left corner it would take is where the band and the chance and
lowest-achievable lines lie).
"""

from __future__ import annotations

from pathlib import Path

from matplotlib.figure import Figure

import prcurve
from prcurve._reporting.input._io import BUILTIN_EXAMPLE, read_labelled_scores
from prcurve.plot import PRCurveDisplay, PRCurvesDisplay

OUT = Path(__file__).resolve().parent / "tour.png"


def make_figure() -> Figure:
    """The tour's two panels, legends below them."""
    data = read_labelled_scores(None, BUILTIN_EXAMPLE.label, BUILTIN_EXAMPLE.scores)
    curves = {name: prcurve.pr_curve(data.y, s) for name, s in data.scores.items()}
    tree = curves["decision_tree"]
    band = prcurve.pr_confidence_band(data.y, data.scores["decision_tree"], n_resamples=500, rng=0)
    fig = Figure(figsize=(10, 5.6))
    left, right = fig.subplots(1, 2)
    PRCurvesDisplay(curves).plot(left, legend=False)
    left.set_title("Three scorers, Davis–Goadrich interpolation")
    PRCurveDisplay(tree, name="decision_tree", achievable=tree.achievable(), band=band).plot(
        right, linear=True, iso_f=None, color=prcurve.plot.OKABE_ITO[2], legend=False
    )
    right.set_title("decision_tree: achievable curve and 95 % band")
    for ax in (left, right):
        ax.legend(
            loc="upper center", bbox_to_anchor=(0.5, -0.11), ncols=2, fontsize="small",
            frameon=False,
        )  # fmt: skip
    fig.subplots_adjust(left=0.07, right=0.98, top=0.94, bottom=0.25, wspace=0.2)
    return fig


def main() -> None:
    make_figure().savefig(OUT, dpi=80, bbox_inches="tight", pad_inches=0.1)
    print(f"wrote {OUT} ({OUT.stat().st_size / 1000:.0f} kB)")


if __name__ == "__main__":
    main()
