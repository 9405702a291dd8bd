"""The training-loop metric: batches in, the exact PR curve of everything seen out.

:class:`PRCurveMetric` follows torchmetrics' protocol -- ``update`` per batch, ``compute`` at
the end of an epoch (syncing across processes), ``reset`` before the next -- and holds one
accumulator as its state: by default the exact :class:`prcurve.PRAccumulator` (24 bytes per
distinct score, not per row; half-precision scores have at most 65,536 distinct values).
Syncing merges the processes' accumulators (:mod:`._sync`) instead of concatenating every score,
so the result is the curve of the pooled data, equal to :func:`prcurve.pr_curve` on it.

The state is whatever ``accumulator()`` builds: any object with ``update(y_true, y_score, *,
sample_weight=, pos_label=)``, ``merge(other)`` (both in place), ``curve()`` and pickling.
``max_bins=`` is the one built in with capped memory: :class:`prcurve.BoundedPRAccumulator`,
exact while the distinct scores fit, otherwise returning with its areas a proven bound on their
error (:attr:`PRMetricResult.error_bounds`).  ``compute`` reads the curve's ``auc(method)``;
operating points are chosen on the curve's counts.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from functools import partial
from typing import Any

from .._core._accumulator import PRAccumulator
from .._core._bounded import BoundedPRAccumulator
from .._core._bounded_curve import BoundedPRCurve
from .._core._empirical import PRCurve
from .._core._operating import OperatingPoint
from .._core._results import compact_repr
from .._inference._operating_ci import _checked_targets, _points_from_counts
from ._sync import distributed_world_size, gather_accumulators, merged
from ._tensors import batch_arrays

__all__ = ["PRCurveMetric", "PRMetricResult"]

#: The quantities :attr:`PRMetricResult.error_bounds` bounds.
BOUNDED = ("average_precision", "davis_goadrich", "precision")


@compact_repr
@dataclass(frozen=True)
class PRMetricResult:
    """What :meth:`PRCurveMetric.compute` returns: the curve of all data seen, its areas, points.

    Attributes
    ----------
    curve : PRCurve
        The curve of every batch seen by every process (the accumulator's ``curve()``: a
        :class:`prcurve.PRCurve`, equal to :func:`prcurve.pr_curve` on the pooled data, with the
        exact accumulator).
    average_precision : float
        ``curve.auc("average_precision")`` (scikit-learn's and torchmetrics' exact AP).
    davis_goadrich : float
        ``curve.auc("davis_goadrich")``: the exact area of the interpolated curve.
    operating_points : tuple of OperatingPoint
        One per ``(criterion, target)`` given to the metric, in that order, chosen by the rules
        of :func:`prcurve.operating_point` (no intervals).
    error_bounds : dict
        The most ``average_precision``, ``davis_goadrich`` and ``precision`` (at any recall)
        can be from their exact values: all 0 with an exact state; with ``max_bins`` once the
        distinct scores overflowed, the proven bounds of :class:`prcurve.BoundedPRCurve` (whose
        ``binned`` curve is then :attr:`curve`, and whose operating points are bin edges).
    bounded : BoundedPRCurve or None
        The bounded accumulator's whole result (None with an exact accumulator).
    """

    curve: PRCurve
    average_precision: float
    davis_goadrich: float
    operating_points: tuple[OperatingPoint, ...]
    error_bounds: dict[str, float] = field(
        default_factory=lambda: dict.fromkeys(
            ("average_precision", "davis_goadrich", "precision"), 0.0
        )
    )
    bounded: BoundedPRCurve | None = None


def _check_factory(accumulator: Any) -> tuple[Callable[[], Any], Any]:
    """The factory and its first accumulator, checked for the protocol the metric uses."""
    factory = PRAccumulator if accumulator is None else accumulator
    if not callable(factory):
        raise TypeError(
            "accumulator: expected a callable returning a new accumulator (e.g. "
            f"prcurve.PRAccumulator), got {type(factory).__name__}"
        )
    state = factory()
    missing = [m for m in ("update", "merge", "curve") if not callable(getattr(state, m, None))]
    if missing:
        raise TypeError(
            "accumulator: expected it to build an object with update, merge and curve methods, "
            f"got {type(state).__name__} without {', '.join(missing)}"
        )
    return factory, state


class PRCurveMetric:
    """Exact precision-recall analysis in a training or evaluation loop, synced across processes.

    A torchmetrics-style metric (``update``, ``compute``, ``reset``, ``merge_state``) for binary
    scores: ``compute`` gives the curve of every batch seen by every process, its AP, its
    Davis–Goadrich area and the operating points asked for.  torch is imported when a tensor is
    first seen, and torchmetrics is not needed.

    Parameters
    ----------
    operating_points : sequence of (criterion, target), optional
        Points to choose at each ``compute``, e.g. ``[("min_precision", 0.9), ("top_k", 100)]``;
        criteria as :func:`prcurve.operating_point` (``min_precision``, ``min_recall``,
        ``max_fpr``, ``top_k``).
    pos_label : optional
        The label of the positive class (default: 1 / True).
    accumulator : callable, optional
        Builds an empty state (default :class:`prcurve.PRAccumulator`, exact).  Any object with
        in-place ``update``/``merge``, ``curve()`` and pickling fits (see the module notes).
    max_bins : int, optional
        Cap the state at ``max_bins`` bins (32 bytes each) with
        :class:`prcurve.BoundedPRAccumulator`: exact while the distinct scores fit, otherwise
        the result carries proven error bounds.  Not together with ``accumulator``.
    sync_on_compute : bool
        Merge every process's state in ``compute`` when ``torch.distributed`` is initialised
        (default True).  ``compute`` is then a collective: every process must call it.
    process_group : optional
        The ``torch.distributed`` group to sync over (default: the whole world).

    Notes
    -----
    ``update(preds, target, weight=None)`` takes tensors of one shape (any shape: every element
    is an instance), on any device and of any real dtype; scores keep their units -- no sigmoid
    is applied, so thresholds are logits if the model gives logits (see
    ``prcurve.torch._tensors``).  Each update copies the batch to host memory (a device sync).
    Memory is the accumulator's: 24 bytes per distinct score (20 for float32 or half-precision
    scores), whatever the number of rows.  Processes may see different numbers of batches, or
    none.  ``compute`` does not change the local state, so training can go on after it.
    """

    def __init__(
        self,
        *,
        operating_points: Sequence[tuple[str, float]] = (),
        pos_label: Any = None,
        accumulator: Callable[[], Any] | None = None,
        max_bins: int | None = None,
        sync_on_compute: bool = True,
        process_group: Any = None,
    ) -> None:
        if isinstance(operating_points, str) or not isinstance(operating_points, Sequence):
            raise TypeError(
                "operating_points: expected a sequence of (criterion, target) pairs, got "
                f"{type(operating_points).__name__}"
            )
        for i, pair in enumerate(operating_points):
            if not (isinstance(pair, tuple | list) and len(pair) == 2):
                raise ValueError(
                    "operating_points: expected (criterion, target) pairs, got "
                    f"{pair!r} at index {i}"
                )
        pairs = [(p[0], p[1]) for p in operating_points]
        checked, _ = _checked_targets(pairs, (None,))
        if not isinstance(sync_on_compute, bool):
            raise TypeError(f"sync_on_compute: expected True or False, got {sync_on_compute!r}")
        self.operating_points: tuple[tuple[str, float], ...] = tuple(checked)
        self.pos_label = pos_label
        self.sync_on_compute = sync_on_compute
        self.process_group = process_group
        if max_bins is not None:
            if accumulator is not None:
                raise TypeError("max_bins: give accumulator or max_bins, not both")
            BoundedPRAccumulator(max_bins=max_bins)  # checks max_bins
            accumulator = partial(BoundedPRAccumulator, max_bins=max_bins)
        self._factory, self._state = _check_factory(accumulator)

    def __repr__(self) -> str:
        return f"PRCurveMetric(state={self._state!r})"

    @property
    def accumulator(self) -> Any:
        """This process's state (not synced): the accumulator the batches went into."""
        return self._state

    def update(self, preds: Any, target: Any, weight: Any = None) -> None:
        """Add one batch: scores ``preds``, labels ``target``, optional sample ``weight``."""
        labels, scores, weights = batch_arrays(preds, target, weight)
        self._state.update(labels, scores, sample_weight=weights, pos_label=self.pos_label)

    def reset(self) -> None:
        """Forget every batch (a new, empty accumulator)."""
        self._state = self._factory()

    def merge_state(self, other: PRCurveMetric) -> None:
        """Add the state of another metric of this process, in place (``other`` unchanged)."""
        if not isinstance(other, PRCurveMetric):
            raise TypeError(f"other: expected a PRCurveMetric, got {type(other).__name__}")
        self._state.merge(other._state)

    def synced_accumulator(self) -> Any:
        """A new accumulator holding every process's batches (a collective when distributed).

        Without ``torch.distributed`` (or with ``sync_on_compute=False``) it is a copy of the
        local state.  The local state does not change.
        """
        return merged(self._factory, self._gathered())

    def _gathered(self) -> list[Any]:
        """Every process's state in rank order, or just this one's (not copied)."""
        if self.sync_on_compute and distributed_world_size(self.process_group) > 1:
            return gather_accumulators(self._state, process_group=self.process_group)
        return [self._state]

    def compute(self) -> PRMetricResult:
        """The curve, AP, Davis–Goadrich area and operating points of all data seen.

        Raises the accumulator's ValueError when the pooled data lack a class (or are empty).
        """
        states = self._gathered()
        # one process: read the local state in place (curve() does not change it)
        pooled = states[0] if len(states) == 1 else merged(self._factory, states)
        result = pooled.curve()
        curve = result.binned if isinstance(result, BoundedPRCurve) else result
        points = _points_from_counts(curve, self.operating_points) if self.operating_points else []
        if not isinstance(result, BoundedPRCurve):
            return PRMetricResult(
                curve=curve,
                average_precision=float(curve.auc("average_precision")),
                davis_goadrich=float(curve.auc("davis_goadrich")),
                operating_points=tuple(points),
            )
        return PRMetricResult(
            curve=curve,
            average_precision=float(result.auc("average_precision")),
            davis_goadrich=float(result.auc("davis_goadrich")),
            operating_points=tuple(points),
            error_bounds={
                "average_precision": result.ap_bound,
                "davis_goadrich": result.dg_bound,
                "precision": result.precision_bound,
            },
            bounded=result,
        )
