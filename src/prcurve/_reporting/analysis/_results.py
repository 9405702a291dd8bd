"""The report's results as plain frozen types: one :class:`Analysis` whatever the engine.

The rendering and output stages read these; nothing here computes (the ROC, PRG and threshold
views of a scorer are derived from its PR curve on access).
"""

from __future__ import annotations

from dataclasses import dataclass, field

from ..._core._empirical import PRCurve, ROCCurve
from ..._decision._threshold_view import ThresholdView
from ..._inference._auc_ci import AUCPRInterval
from ..._inference._band import PRConfidenceBand
from ..._inference._chance import BelowChanceTest
from ..._inference._compare import ComparisonResult
from ..._prg._curve import FBetaOptimum, PRGCurve
from ._choice import ThresholdChoice, ViewBands, full_view
from ._operating import OperatingAnalysis
from ._other_tools import OtherTools
from ._roc_delong import RocDeLong
from ._settings import Settings
from ._sizing import Plan

__all__ = ["Analysis", "EngineFacts", "InferenceStep", "ScorerAnalysis", "prg_of", "roc_of"]


def roc_of(pr: PRCurve) -> ROCCurve:
    """``pr.to_roc()`` (a curve on disk: columns computed from its counts where read)."""
    return pr.to_roc()


def prg_of(pr: PRCurve) -> PRGCurve:
    """``PRGCurve.from_pr(pr)`` (a curve on disk: columns computed from its counts)."""
    return PRGCurve.from_pr(pr)


@dataclass(frozen=True)
class ScorerAnalysis:
    """Every computed result for one score column.

    The ROC and PRG curves are not kept: each has as many points as the PR curve, and on
    millions of rows keeping both for every scorer would double the report's memory.  They are
    derived from ``pr`` when drawn or written (:attr:`roc`, :attr:`prg`; cheap, no sort), while
    the numbers quoted from them (``roc_auc``, ``auprg``, ``best_f1``) and their hulls are kept.
    """

    name: str
    pr: PRCurve
    achievable: PRCurve
    roc_hull: ROCCurve
    prg_hull: PRGCurve
    roc_auc: float
    auprg: float
    best_f1: FBetaOptimum
    auc_pr: dict[str, float]
    auc_pr_ci: dict[str, dict[str, AUCPRInterval]] = field(default_factory=dict)
    band: PRConfidenceBand | None = None
    band_reason: str = ""  # why the band has its method (see band_method)
    notes: list[str] = field(default_factory=list)
    timings: dict[str, float] = field(default_factory=dict)
    operating: OperatingAnalysis | None = None
    #: The one-sided test of "worse than chance" (:mod:`.._inference._chance`).
    chance: BelowChanceTest | None = None
    #: "Choosing a threshold" (:mod:`._choice`): the threshold view with bands, and with
    #: ``--cost-ratio``/``--prevalence``/``--top-k`` the cost-optimal threshold and top K.
    view_bands: ViewBands | None = None
    choice: ThresholdChoice | None = None

    @property
    def roc(self) -> ROCCurve:
        """The ROC curve of ``pr`` (computed on each access; once for a curve on disk)."""
        return roc_of(self.pr)

    @property
    def threshold_view(self) -> ThresholdView | None:
        """The threshold view of ``pr`` with its bands (computed on each access; None
        without the "Choosing a threshold" step)."""
        return None if self.view_bands is None else full_view(self.pr, self.view_bands)

    @property
    def prg(self) -> PRGCurve:
        """The precision-recall-gain curve of ``pr`` (computed on each access; once for a
        curve on disk)."""
        return prg_of(self.pr)


@dataclass(frozen=True)
class InferenceStep:
    """One resampling step of the report: what it resampled and how long it took.

    ``key`` is ``(scorer, "band")``, ``(scorer, "auc_pr_bootstrap")``,
    ``(scorer, "operating_points")``, ``(scorer, "threshold_view")``,
    ``(scorer, "threshold_choice")``, ``(scorer, "operating_at_prevalence")`` (its interval
    and band at π), ``(a, b)`` for the comparison of scorers a and b, or
    ``("a vs b", "compare_at_prevalence")`` for their comparison at π (``--prevalence``; its
    seconds are the stage's, shared equally among the pairs).
    """

    key: tuple[str, str]
    label: str
    plan: Plan
    seconds: float


@dataclass(frozen=True)
class EngineFacts:
    """Which engine read the data and which rows the resampling drew from."""

    name: str = "memory"
    #: Rows the engine handed the resampling (all rows of positive weight in memory; a
    #: stratified subsample of at most ``--subsample`` rows on Dask).
    rows_at_hand: int = 0
    #: What was exact and what was resampled, and why ``--engine auto`` chose the engine.
    note: str = ""


@dataclass(frozen=True)
class Analysis:
    """The whole report's results."""

    settings: Settings
    n: int
    n_pos: int
    n_neg: int
    scorers: dict[str, ScorerAnalysis]
    comparisons: list[tuple[str, str, ComparisonResult]] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)
    timings: dict[str, float] = field(default_factory=dict)
    inference: list[InferenceStep] = field(default_factory=list)
    #: Paired comparisons at the deployment prevalence (``--prevalence``) and their notes.
    deployment_comparisons: list[tuple[str, str, ComparisonResult]] = field(default_factory=list)
    deployment_notes: list[str] = field(default_factory=list)
    engine: EngineFacts = field(default_factory=EngineFacts)
    #: "What other tools would report" and DeLong's ROC inference, from the exact counts.
    other_tools: OtherTools | None = None
    roc_delong: RocDeLong | None = None
