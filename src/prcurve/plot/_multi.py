"""Displays of several related curves: one-vs-rest classes, and cross-validation folds."""

from __future__ import annotations

from typing import Any

import numpy as np

from .._core._validation import check_choice
from .._multi._curves import MultiPRCurves, pr_curves
from .._multi._folds import CVPRCurves, cv_pr_curves
from .._multi._sklearn import fold_scores_from_cv_results
from ._pr import AUC_LABELS
from ._style import OKABE_ITO, REFERENCE_GREY, color_cycle, get_axes, plain_text, unit_square

__all__ = ["CVPRCurvesDisplay", "MultiPRCurvesDisplay"]

#: Line styles of classes beyond the palette (colours repeat, styles tell them apart).
CLASS_STYLES = ("-", "-.", ":")


class MultiPRCurvesDisplay:
    """Draw every class's one-vs-rest PR curve and the micro-averaged curve.

    Parameters
    ----------
    result : MultiPRCurves
        From :func:`prcurve.pr_curves`.

    Attributes
    ----------
    ax_, figure_ : matplotlib Axes and Figure
    lines_ : dict
        One line per class label, and ``"micro"``.

    Notes
    -----
    Curves are Davis–Goadrich interpolated (:meth:`PRCurve.interpolate`).  The legend quotes
    each class's area, and the title the macro and micro averages.

    Examples
    --------
    >>> import numpy as np
    >>> from prcurve.plot import MultiPRCurvesDisplay
    >>> rng = np.random.default_rng(0)
    >>> y = rng.integers(0, 3, size=300)
    >>> scores = rng.normal(size=(300, 3)) + 1.5 * (y[:, None] == np.arange(3))
    >>> sorted(MultiPRCurvesDisplay.from_predictions(y, scores).lines_, key=str)
    [0, 1, 2, 'micro']
    """

    def __init__(self, result: MultiPRCurves) -> None:
        if not isinstance(result, MultiPRCurves):
            raise TypeError(f"result: expected a MultiPRCurves, got {type(result).__name__}")
        self.result = result

    @classmethod
    def from_predictions(
        cls, y_true: Any, y_score: Any, *, labels: Any = None, sample_weight: Any = None,
        **kwargs: Any,
    ) -> MultiPRCurvesDisplay:  # fmt: skip
        """Compute with :func:`prcurve.pr_curves`, then plot (``kwargs`` go to :meth:`plot`)."""
        return cls(pr_curves(y_true, y_score, labels=labels, sample_weight=sample_weight)).plot(
            **kwargs
        )

    @classmethod
    def from_estimator(
        cls, estimator: Any, X: Any, y: Any, *, response_method: str = "auto", **kwargs: Any
    ) -> MultiPRCurvesDisplay:
        """Score ``X`` with a fitted classifier's ``predict_proba`` (or ``decision_function``),
        the columns labelled by ``estimator.classes_``, then :meth:`from_predictions`."""
        check_choice(response_method, "response_method", ("auto", "predict_proba",
                                                          "decision_function"))  # fmt: skip
        names = (
            ("predict_proba", "decision_function")
            if response_method == "auto"
            else (response_method,)
        )
        fn = next((getattr(estimator, n) for n in names if hasattr(estimator, n)), None)
        if fn is None:
            raise TypeError(
                f"estimator: {type(estimator).__name__} has no {' or '.join(names)} method"
            )
        return cls.from_predictions(y, fn(X), labels=estimator.classes_, **kwargs)

    def plot(
        self,
        ax: Any = None,
        *,
        auc_method: str = "average_precision",
        micro: bool = True,
        legend: bool = True,
    ) -> MultiPRCurvesDisplay:
        """Draw on ``ax`` (a new figure when None) and return ``self``."""
        check_choice(auc_method, "auc_method", tuple(AUC_LABELS))
        ax = get_axes(ax)
        res = self.result
        short = AUC_LABELS[auc_method]
        areas = np.asarray(res.auc(auc_method, average=None))
        lines: dict[Any, Any] = {}
        for j, (label, curve) in enumerate(zip(res.classes.tolist(), res.curves, strict=True)):
            r, p = curve.interpolate()
            (lines[label],) = ax.plot(
                r, p, color=color_cycle(j), linewidth=1.1, alpha=0.85,
                linestyle=CLASS_STYLES[j // len(OKABE_ITO) % len(CLASS_STYLES)],
                label=f"{plain_text(label)} ({short} = {areas[j]:.3f})",
            )  # fmt: skip
        if micro:
            r, p = res.micro.interpolate()
            (lines["micro"],) = ax.plot(
                r, p, color="black", linewidth=2.2, linestyle="--",
                label=f"micro ({short} = {res.auc(auc_method, average='micro'):.3f})",
            )  # fmt: skip
        ax.set_title(
            f"macro {short} = {res.auc(auc_method, average='macro'):.3f} · "
            f"weighted = {res.auc(auc_method, average='weighted'):.3f}",
            fontsize="medium",
        )
        unit_square(ax, "Recall", "Precision")
        if legend:
            ax.legend(loc="lower left", fontsize="x-small", framealpha=0.9, ncol=2)
        self.ax_, self.figure_, self.lines_ = ax, ax.figure, lines
        return self


class CVPRCurvesDisplay:
    """Draw cross-validation fold curves, their vertical average and its band.

    Parameters
    ----------
    result : CVPRCurves
        From :func:`prcurve.cv_pr_curves`.

    Attributes
    ----------
    ax_, figure_ : matplotlib Axes and Figure
    artists_ : dict of str to Artist
        ``"folds"`` (a list), ``"mean"``, ``"band"``, and optionally ``"pooled"``,
        ``"threshold_average"``, ``"chance"``.

    Examples
    --------
    >>> import numpy as np
    >>> from prcurve.plot import CVPRCurvesDisplay
    >>> rng = np.random.default_rng(0)
    >>> y = rng.random(600) < 0.2
    >>> disp = CVPRCurvesDisplay.from_predictions(y, rng.normal(size=600) + 1.5 * y,
    ...                                           folds=np.arange(600) % 5)
    >>> sorted(disp.artists_)
    ['band', 'chance', 'folds', 'mean', 'pooled']
    """

    def __init__(self, result: CVPRCurves, *, name: str | None = None) -> None:
        if not isinstance(result, CVPRCurves):
            raise TypeError(f"result: expected a CVPRCurves, got {type(result).__name__}")
        self.result, self.name = result, name

    @classmethod
    def from_predictions(
        cls, y_true: Any, y_score: Any, folds: Any = None, *, sample_weight: Any = None,
        name: str | None = None, **kwargs: Any,
    ) -> CVPRCurvesDisplay:  # fmt: skip
        """Compute with :func:`prcurve.cv_pr_curves`, then plot (``kwargs`` go to :meth:`plot`)."""
        res = cv_pr_curves(y_true, y_score, folds, sample_weight=sample_weight)
        return cls(res, name=name).plot(**kwargs)

    @classmethod
    def from_cv_results(
        cls, cv_results: Any, X: Any, y: Any, *, response_method: str = "auto",
        pos_label: Any = None, name: str | None = None, **kwargs: Any,
    ) -> CVPRCurvesDisplay:  # fmt: skip
        """From ``cross_validate(..., return_estimator=True, return_indices=True)`` output:
        each fold's estimator scores its test indices (see :meth:`PRCurveDisplay.from_estimator`
        for the scores; the positive class is ``pos_label``, by default ``classes_[1]``), then
        :meth:`from_predictions` on the per-fold arrays.  ``X`` and ``y`` may be pandas objects
        (rows are taken by position)."""
        ys, ss = fold_scores_from_cv_results(
            cv_results, X, y, response_method=response_method, pos_label=pos_label
        )
        if pos_label is None:  # scikit-learn's default positive class: classes_[1]
            pos_label = np.asarray(cv_results["estimator"][0].classes_)[1]
        ys = [np.asarray(v) == pos_label for v in ys]
        if name is None:
            name = type(cv_results["estimator"][0]).__name__
        return cls.from_predictions(ys, ss, name=name, **kwargs)

    def plot(
        self,
        ax: Any = None,
        *,
        auc_method: str = "average_precision",
        pooled: bool = True,
        threshold_average: bool = False,
        chance: bool = True,
        legend: bool = True,
    ) -> CVPRCurvesDisplay:
        """Draw on ``ax`` (a new figure when None) and return ``self``."""
        check_choice(auc_method, "auc_method", tuple(AUC_LABELS))
        ax = get_axes(ax)
        res = self.result
        fa = res.auc[auc_method]
        short = AUC_LABELS[auc_method]
        artists: dict[str, Any] = {"folds": []}
        for f, curve in zip(res.folds.tolist(), res.curves, strict=True):
            r, p = curve.interpolate()
            (line,) = ax.plot(
                r, p, color="#9A9A9A", linewidth=0.8, alpha=0.8,
                label="folds" if not artists["folds"] else f"_fold {f}",
            )  # fmt: skip
            artists["folds"].append(line)
        color = color_cycle(0)
        artists["band"] = ax.fill_between(
            res.recall, res.band.low, res.band.high, color=color, alpha=0.2, linewidth=0,
            label=f"{res.level:.0%} t-band over {res.folds.shape[0]} folds",
        )  # fmt: skip
        lo, hi = fa.interval
        title = f"{plain_text(self.name)}: " if self.name else ""
        (artists["mean"],) = ax.plot(
            res.recall, res.mean_precision, color=color, linewidth=2.2,
            label=f"vertical average (mean {short} = {fa.mean:.3f} [{lo:.3f}, {hi:.3f}])",
        )  # fmt: skip
        if pooled:
            r, p = res.pooled.interpolate()
            (artists["pooled"],) = ax.plot(
                r, p, color=color_cycle(5), linewidth=1.2, linestyle="--",
                label=f"pooled out-of-fold ({short} = {fa.pooled:.3f})",
            )  # fmt: skip
        if threshold_average:
            (artists["threshold_average"],) = ax.plot(
                res.threshold_recall, res.threshold_precision, color=color_cycle(2),
                linewidth=1.2, marker=".", markersize=3, label="threshold average",
            )  # fmt: skip
        if chance:
            artists["chance"] = ax.axhline(
                res.pooled.prevalence, color=REFERENCE_GREY, linestyle=":", linewidth=0.9,
                label=f"chance (π₊ = {res.pooled.prevalence:.3g})",
            )  # fmt: skip
        if title:
            ax.set_title(title.rstrip(": "), fontsize="medium")
        unit_square(ax, "Recall", "Precision")
        if legend:
            ax.legend(loc="best", fontsize="x-small", framealpha=0.9)
        self.ax_, self.figure_, self.artists_ = ax, ax.figure, artists
        return self
