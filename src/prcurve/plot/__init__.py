"""Drawing for prcurve: Display objects that take computed results and draw them.

Nothing here computes statistics; matplotlib is imported only when something is drawn.
Each Display follows scikit-learn's pattern: build it from a computed result, call
``plot(ax=None, ...)`` (which returns the Display), or use the ``from_curve`` /
``from_predictions`` class methods.

May import: the statistics layers (:mod:`prcurve._core`, ``_population``, ``_prg``,
``_inference``) for their result types; never :mod:`prcurve._reporting`.  No statistics layer
imports this package.
"""

from ._multi import CVPRCurvesDisplay, MultiPRCurvesDisplay
from ._population import PopulationCurvesDisplay, PRSimulationDisplay
from ._pr import PRCurveDisplay, PRCurvesDisplay
from ._prg import PRGCurveDisplay
from ._roc import ROCCurveDisplay
from ._style import OKABE_ITO

__all__: list[str] = [
    "OKABE_ITO",
    "CVPRCurvesDisplay",
    "MultiPRCurvesDisplay",
    "PRCurveDisplay",
    "PRCurvesDisplay",
    "PRGCurveDisplay",
    "PRSimulationDisplay",
    "PopulationCurvesDisplay",
    "ROCCurveDisplay",
]
