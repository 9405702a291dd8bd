"""Drawing for prcurve: Display objects that take computed results and draw them.

Nothing here computes statistics; matplotlib is imported only when something is drawn.
Each Display follows scikit-learn's pattern: build it from a computed result, call
``plot(ax=None, ...)`` (which returns the Display), or use the ``from_curve`` /
``from_predictions`` class methods.

The Displays load on first use (PEP 562), so ``from prcurve.plot import PRCurveDisplay`` does
not import the population models or the multiclass part (and with them ``scipy.stats``).

May import: the statistics layers (:mod:`prcurve._core`, ``_population``, ``_prg``,
``_inference``) for their result types; never :mod:`prcurve._reporting`.  No statistics layer
imports this package.
"""

from typing import TYPE_CHECKING, Any

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
    "ThresholdDisplay",
]

#: The module of each public name.
_HOME = {
    "OKABE_ITO": "_style",
    "CVPRCurvesDisplay": "_multi",
    "MultiPRCurvesDisplay": "_multi",
    "PRCurveDisplay": "_pr",
    "PRCurvesDisplay": "_pr",
    "PRGCurveDisplay": "_prg",
    "PRSimulationDisplay": "_population",
    "PopulationCurvesDisplay": "_population",
    "ROCCurveDisplay": "_roc",
    "ThresholdDisplay": "_threshold",
}


def __getattr__(name: str) -> Any:
    """Load a Display on first use."""
    if name in _HOME:
        from importlib import import_module

        value = getattr(import_module(f"{__name__}.{_HOME[name]}"), name)
        globals()[name] = value
        return value
    raise AttributeError(f"module 'prcurve.plot' has no attribute {name!r}")


def __dir__() -> list[str]:
    return sorted(set(globals()) | set(__all__))


if TYPE_CHECKING:
    from ._multi import CVPRCurvesDisplay, MultiPRCurvesDisplay
    from ._population import PopulationCurvesDisplay, PRSimulationDisplay
    from ._pr import PRCurveDisplay, PRCurvesDisplay
    from ._prg import PRGCurveDisplay
    from ._roc import ROCCurveDisplay
    from ._style import OKABE_ITO
    from ._threshold import ThresholdDisplay
