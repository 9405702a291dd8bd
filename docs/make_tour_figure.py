"""Make ``docs/tour.png``, the figure of the README's tour, from the built-in example.

python docs/make_tour_figure.py
"""

from __future__ import annotations

from pathlib import Path

from matplotlib.figure import Figure

import prcurve
from prcurve._reporting._io import BUILTIN_EXAMPLE, read_labelled_scores
from prcurve.plot import PRCurveDisplay, PRCurvesDisplay

OUT = Path(__file__).resolve().parent / "tour.png"


def main() -> None:
    data = read_labelled_scores(None, BUILTIN_EXAMPLE.label, BUILTIN_EXAMPLE.scores)
    curves = {name: prcurve.pr_curve(data.y, s) for name, s in data.scores.items()}
    tree = curves["decision_tree"]
    band = prcurve.pr_confidence_band(data.y, data.scores["decision_tree"], n_resamples=500, rng=0)
    fig = Figure(figsize=(10, 4.8))
    left, right = fig.subplots(1, 2)
    PRCurvesDisplay(curves).plot(left)
    left.set_title("Three scorers, Davis–Goadrich interpolation")
    PRCurveDisplay(tree, name="decision_tree", achievable=tree.achievable(), band=band).plot(
        right, linear=True, iso_f=None, color=prcurve.plot.OKABE_ITO[2]
    )
    right.set_title("decision_tree: achievable curve and 95 % band")
    fig.tight_layout()
    fig.savefig(OUT, dpi=80)
    print(f"wrote {OUT} ({OUT.stat().st_size / 1000:.0f} kB)")


if __name__ == "__main__":
    main()
