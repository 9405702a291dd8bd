"""What the user asked of ``prcurve report``: the settings the analysis runs with and the page
records (one :class:`Settings` whatever the engine)."""

from __future__ import annotations

from dataclasses import dataclass

from ._operating import DEFAULT_MIN_PRECISION, DEFAULT_MIN_RECALL

__all__ = ["Settings"]


@dataclass(frozen=True)
class Settings:
    """What the user asked for; written into the report."""

    source: str
    label: str
    scores: tuple[str, ...]
    positive_label: str
    level: float = 0.95
    n_resamples: int = 1000
    seed: int | None = 0
    out: str = "prcurve-report"
    n_resamples_auto: bool = False
    jobs: int = 1
    #: ``--jobs`` not given: ``jobs`` is the CPUs available, and the main process keeps one of
    #: them for its own work (see ``_parallel.worker_count``).
    jobs_auto: bool = False
    min_precision: tuple[float, ...] = DEFAULT_MIN_PRECISION
    min_recall: tuple[float, ...] = DEFAULT_MIN_RECALL
    prevalence: float | tuple[int, int] | None = None  # --prevalence or --prevalence-count
    weight: str | None = None
    cost_ratio: float | None = None  # --cost-ratio: c_FP/c_FN
    top_k: int | float | None = None  # --top-k: rows, or a fraction of them
    #: The "Choosing a threshold" step (threshold view, cost-optimal threshold, top K); the
    #: Dask engine's subsample analysis leaves it out (its options are refused there).
    threshold_choice: bool = True
    #: The engine that read the data (``"memory"``, ``"dask"``), and why when ``--engine auto``
    #: chose it (announced on stderr and on the page).
    engine: str = "memory"
    engine_reason: str = ""
