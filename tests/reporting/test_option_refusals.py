"""Every ``report`` option works or is refused with one line (QA findings 2 and 4): options
whose meaning the report's shape or engine does not have are named, never silently dropped."""

from __future__ import annotations

import json

import numpy as np
import pytest

from prcurve.cli import main

from .test_multi_options import SHAPE_TEXT, SHAPES, data  # noqa: F401 (the module fixture)


def _refused(args: list[str], out, capsys) -> str:
    """Run ``args`` into ``out``: exit 1, one line on stderr, nothing written; the line."""
    assert main([*args, "--out", str(out), "--quiet"]) == 1
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and not out.exists(), err
    return err


@pytest.mark.parametrize("shape", ["multiclass", "multiclass_folds"])
def test_pos_label_refused_on_multiclass(data, tmp_path, capsys, shape):  # noqa: F811
    """Each class is the positive one in turn: a single positive label has no meaning there."""
    err = _refused(["report", str(data[0]), *SHAPES[shape], "--pos-label", "cat"],
                   tmp_path / "no", capsys)  # fmt: skip
    assert err == (
        f"prcurve: error: --pos-label: a {SHAPE_TEXT[shape]} report has no single positive "
        "class (each class is positive in turn, one against the rest); drop --pos-label\n"
    )


@pytest.mark.parametrize("shape", ["folds", "multiclass_folds"])
def test_seed_refused_on_folds(data, tmp_path, capsys, shape):  # noqa: F811
    """The fold reports do not resample: a seed would change nothing."""
    err = _refused(["report", str(data[0]), *SHAPES[shape], "--seed", "3"],
                   tmp_path / "no", capsys)  # fmt: skip
    assert err == (
        f"prcurve: error: --seed: a {SHAPE_TEXT[shape]} report does not resample (its "
        "intervals are Student-t over folds); drop --seed\n"
    )


def test_seed_still_steers_the_multiclass_bootstrap(data, tmp_path):  # noqa: F811
    """Multiclass (no folds) resamples: --seed is used and recorded, 0 when not given."""
    runs = {}
    for seed in (None, "0", "3"):
        out = tmp_path / f"s{seed}"
        extra = [] if seed is None else ["--seed", seed]
        args = ["report", str(data[0]), *SHAPES["multiclass"], *extra, "--out", str(out)]
        assert main([*args, "--quiet"]) == 0
        runs[seed] = json.loads((out / "summary.json").read_text())
    assert runs[None]["settings"]["seed"] == 0 and runs["3"]["settings"]["seed"] == 3
    assert json.dumps(runs[None]["classes"]) == json.dumps(runs["0"]["classes"])
    assert json.dumps(runs["3"]["classes"]) != json.dumps(runs["0"]["classes"])


@pytest.mark.parametrize("shape", ["multiclass", "folds", "multiclass_folds"])
def test_memory_budget_refused_on_multi_shapes(data, tmp_path, capsys, shape):  # noqa: F811
    err = _refused(["report", str(data[0]), *SHAPES[shape], "--memory-budget", "1"],
                   tmp_path / "no", capsys)  # fmt: skip
    assert err == (
        f"prcurve: error: --memory-budget: steers only the binary report's --engine auto, which "
        f"a {SHAPE_TEXT[shape]} report does not use (it reads in memory); drop --memory-budget\n"
    )


@pytest.mark.parametrize("engine", ["memory", "dask", "spark"])
def test_memory_budget_refused_with_a_chosen_engine(tmp_path, capsys, engine):
    """--memory-budget only tells --engine auto which engine to use."""
    src = tmp_path / "d.csv"
    src.write_text("y,s\n1,0.9\n0,0.1\n1,0.8\n0,0.3\n")
    err = _refused(["report", str(src), "--label", "y", "--score", "s", "--engine", engine,
                    "--memory-budget", "1"], tmp_path / "no", capsys)  # fmt: skip
    assert err == (
        "prcurve: error: --memory-budget: steers only --engine auto (which engine reads the "
        f"file), but --engine {engine} was given; drop one of them\n"
    )


def test_binary_seed_default_is_zero_and_recorded(tmp_path):
    src = tmp_path / "d.csv"
    rng = np.random.default_rng(5)
    y = rng.random(300) < 0.3
    s = rng.normal(size=300) + y
    src.write_text("y,s\n" + "".join(f"{int(a)},{float(b)!r}\n" for a, b in zip(y, s, strict=True)))
    got = {}
    for seed in (None, "0"):
        out = tmp_path / f"o{seed}"
        extra = [] if seed is None else ["--seed", seed]
        args = ["report", str(src), "--label", "y", "--score", "s", "--n-resamples", "30"]
        assert main([*args, *extra, "--out", str(out), "--quiet"]) == 0
        got[seed] = (out / "summary.json").read_bytes()
    assert got[None] == got["0"]
    assert json.loads(got[None])["settings"]["seed"] == 0
