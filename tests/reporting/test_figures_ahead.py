"""The page's figures drawn while the other steps resample (``_figures.FiguresAhead``): drawn
once, from what the final analysis holds, the same PNGs, and no thread left behind."""

from __future__ import annotations

import threading

import pytest

import prcurve._reporting.analysis._analysis as analysis_module
import prcurve._reporting.analysis._parallel as parallel_module
import prcurve._reporting.analysis._steps as steps_module
import prcurve._reporting.render._figures as figures_module
from prcurve._reporting.analysis._analysis import Settings, analyse
from prcurve._reporting.input._io import read_labelled_scores
from prcurve._reporting.render._figures import FiguresAhead, render_figures
from prcurve.cli import main

from ._helpers import two_scorer_csv


def _figure_threads() -> list[threading.Thread]:
    return [t for t in threading.enumerate() if t.name.startswith("prcurve-figures")]


@pytest.mark.parametrize("parallel", [False, True])
def test_figures_ready_once_bands_are_in_and_they_draw_the_final_figures(
    tmp_path, monkeypatch, parallel
):
    if parallel:
        monkeypatch.setattr(parallel_module, "PARALLEL_MIN_SECONDS", 0.0)
    src = two_scorer_csv(tmp_path / "in.csv")
    data = read_labelled_scores(str(src), "y", ["a", "b"])
    settings = Settings(data.source, "y", ("a", "b"), data.positive_label, n_resamples=40,
                        seed=7, jobs=2 if parallel else 1, out=str(tmp_path / "r"))  # fmt: skip
    calls = []
    real_run = analysis_module._run_tasks

    def spy_run(*args, **kwargs):
        out = real_run(*args, **kwargs)
        calls.append(("done", len(out)))
        return out

    monkeypatch.setattr(analysis_module, "_run_tasks", spy_run)
    final = analyse(data, settings, figures_ready=lambda view: calls.append(("ready", view)))
    (ready,) = [c for c in calls if c[0] == "ready"]
    assert calls.index(ready) < len(calls) - 1  # before every step was done
    view = ready[1]
    for name, sc in final.scorers.items():
        early = view.scorers[name]
        assert early.band is not None and early.band == sc.band
        assert early.pr is sc.pr and early.auc_pr == sc.auc_pr
    # the figures of the view are those of the final analysis, byte for byte
    assert render_figures(view) == render_figures(final)


def test_the_report_draws_its_figures_once_in_the_background(tmp_path, monkeypatch):
    threads: list[str] = []
    real = figures_module.render_figures

    def spy(analysis, **kwargs):
        threads.append(threading.current_thread().name)
        return real(analysis, **kwargs)

    monkeypatch.setattr(figures_module, "render_figures", spy)
    monkeypatch.setattr(parallel_module, "PARALLEL_MIN_SECONDS", 0.0)
    src = two_scorer_csv(tmp_path / "in.csv")
    argv = ["report", str(src), "--label", "y", "--score", "a", "--score", "b", "--quiet",
            "--n-resamples", "40", "--jobs", "2", "--out", str(tmp_path / "r")]  # fmt: skip
    assert main(argv) == 0
    assert len(threads) == 1 and threads[0].startswith("prcurve-figures")
    assert (tmp_path / "r" / "report.html").read_text().count("data:image/png;base64") >= 3
    assert _figure_threads() == []


@pytest.mark.parametrize("error", [RuntimeError, KeyboardInterrupt])
def test_an_error_after_the_figures_started_joins_their_thread(tmp_path, monkeypatch, error):
    started = []
    real_start = FiguresAhead.start

    def start(self, analysis):
        real_start(self, analysis)
        started.append(True)

    def failing_bootstrap(*args, **kwargs):
        raise error("while resampling")

    monkeypatch.setattr(FiguresAhead, "start", start)
    monkeypatch.setattr(steps_module, "_bootstrap_task", failing_bootstrap)
    src = two_scorer_csv(tmp_path / "in.csv")
    argv = ["report", str(src), "--label", "y", "--score", "a", "--quiet", "--jobs", "1",
            "--n-resamples", "40", "--out", str(tmp_path / "r")]  # fmt: skip
    # the steps run costliest first here: the band (its figures start) before the bootstrap
    if error is KeyboardInterrupt:
        assert main(argv) == 130
    else:
        with pytest.raises(RuntimeError, match="while resampling"):
            main(argv)
    assert started == [True]
    assert _figure_threads() == []
    assert not (tmp_path / "r" / "report.html").exists()


def test_figures_ahead_starts_once():
    with FiguresAhead() as ahead:
        assert ahead.figures() is None  # never started: the page draws them itself
        ahead._future = object()  # as if started
        with pytest.raises(ValueError, match="analysis: the figures are being drawn already"):
            ahead.start(None)  # type: ignore[arg-type]


def test_figures_ahead_outside_its_block_is_refused():
    with pytest.raises(ValueError, match="figures: FiguresAhead is used as a context manager"):
        FiguresAhead().start(None)  # type: ignore[arg-type]
