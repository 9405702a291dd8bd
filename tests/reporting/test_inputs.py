"""The inputs people really have, through the real entry point (``python -m prcurve``):
compressed, semicolon/tab-separated, Latin-1, weighted, colliding names, mixed line endings."""

from __future__ import annotations

import bz2
import codecs
import gzip
import io
import json
import lzma
import os
import subprocess
import sys

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from numpy.testing import assert_allclose, assert_array_equal
from sklearn.metrics import average_precision_score, roc_auc_score

import prcurve
from prcurve._reporting.input._csv import decode, read_csv_columns, read_csv_slow, read_header
from prcurve._reporting.input._io import InputError, _labels, read_labelled_scores
from prcurve._reporting.output._names import file_stems


def run(*args: str, stdin: bytes | None = None, cwd=None) -> subprocess.CompletedProcess:
    env = dict(os.environ, MPLBACKEND="Agg")
    return subprocess.run(
        [sys.executable, "-m", "prcurve", *args],
        capture_output=True, input=stdin, env=env, timeout=300, cwd=cwd,
    )  # fmt: skip


def _data(n=240, seed=5):
    rng = np.random.default_rng(seed)
    y = (rng.random(n) < 0.25).astype(int)
    s = np.round(rng.normal(size=n) + 1.2 * y, 6)
    return y, s


def _text(y, s, sep=",", header=("y", "s"), extra=None):
    cols = [y.tolist(), s.tolist()] + ([extra] if extra is not None else [])
    rows = [sep.join(map(str, r)) for r in zip(*cols, strict=True)]
    return "\n".join([sep.join(header), *rows]) + "\n"


def _ap(out, scorer="s"):
    return json.loads((out / "summary.json").read_text())["scorers"][scorer]["auc_pr"][
        "average_precision"
    ]


COMPRESSORS = {"gz": gzip.compress, "bz2": bz2.compress, "xz": lzma.compress}


@pytest.mark.parametrize("fmt", sorted(COMPRESSORS))
def test_compressed_csv_by_extension_by_magic_and_on_stdin(tmp_path, fmt):
    y, s = _data()
    packed = COMPRESSORS[fmt](_text(y, s).encode())
    expected = average_precision_score(y, s)
    for name in (f"scores.csv.{fmt}", "scores_without_suffix.csv"):
        (tmp_path / name).write_bytes(packed)
        out = tmp_path / f"out-{name}"
        proc = run("report", name, "--label", "y", "--score", "s", "--out", str(out),
                   "--n-resamples", "20", cwd=tmp_path)  # fmt: skip
        assert proc.returncode == 0, proc.stderr
        assert _ap(out) == pytest.approx(expected, rel=1e-12)
    out = tmp_path / "out-stdin"
    proc = run("report", "-", "--label", "y", "--score", "s", "--out", str(out),
               "--n-resamples", "20", stdin=packed)  # fmt: skip
    assert proc.returncode == 0, proc.stderr
    assert _ap(out) == pytest.approx(expected, rel=1e-12)


@pytest.mark.parametrize(("sep", "name"), [(";", "semicolon"), ("\t", "tab"), (",", "comma")])
def test_delimiter_is_detected(tmp_path, sep, name):
    y, s = _data()
    path = tmp_path / "d.csv"
    path.write_text(_text(y, s, sep=sep, header=("y", "s", "w"), extra=[1] * y.size))
    out = tmp_path / "out"
    proc = run("report", str(path), "--label", "y", "--score", "s", "--out", str(out),
               "--n-resamples", "20")  # fmt: skip
    assert proc.returncode == 0, proc.stderr
    assert _ap(out) == pytest.approx(average_precision_score(y, s), rel=1e-12)


def test_other_delimiters_need_sep_and_the_message_says_what_was_detected(tmp_path):
    y, s = _data()
    path = tmp_path / "pipe.csv"
    path.write_text(_text(y, s, sep="|"))
    proc = run("report", str(path), "--label", "y", "--score", "s", "--out", str(tmp_path / "o"))
    assert proc.returncode == 1
    assert proc.stderr.decode().splitlines() == [
        f"prcurve: error: {path}: no columns 'y', 's'; the columns are 'y|s' (split at comma, "
        "detected from the header line; pass --sep to choose)"
    ]
    out = tmp_path / "o2"
    proc = run("report", str(path), "--label", "y", "--score", "s", "--sep", "|", "--out",
               str(out), "--n-resamples", "20")  # fmt: skip
    assert proc.returncode == 0, proc.stderr
    assert _ap(out) == pytest.approx(average_precision_score(y, s), rel=1e-12)
    proc = run("report", str(path), "--label", "y", "--score", "s", "--sep", "||")
    assert proc.returncode == 2 and b"argument --sep: expected one character" in proc.stderr


def test_semicolon_file_with_decimal_commas_says_so(tmp_path):
    path = tmp_path / "eu.csv"
    path.write_text("y;s\n1;0,9\n0;0,1\n")
    proc = run("report", str(path), "--label", "y", "--score", "s", "--out", str(tmp_path / "o"))
    assert proc.returncode == 1
    assert proc.stderr.decode() == (
        f"prcurve: error: {path}: column 's' has '0,9' at line 2; expected a number with a "
        "decimal point\n"
    )


def test_latin1_needs_encoding_and_then_works(tmp_path):
    y, s = _data()
    labels = np.where(y == 1, "oui", "non")
    text = _text(labels, s, header=("étiquette", "s"))
    path = tmp_path / "latin.csv"
    path.write_bytes(text.encode("latin-1"))
    proc = run("report", str(path), "--label", "étiquette", "--score", "s",
               "--out", str(tmp_path / "o"))  # fmt: skip
    assert proc.returncode == 1
    assert proc.stderr.decode() == (
        f"prcurve: error: {path}: line 1 is not valid UTF-8 text (byte 0xe9); pass the file's "
        "encoding with --encoding, e.g. --encoding latin-1\n"
    )
    out = tmp_path / "o"
    proc = run("report", str(path), "--label", "étiquette", "--score", "s", "--pos-label", "oui",
               "--encoding", "latin-1", "--out", str(out), "--n-resamples", "20")  # fmt: skip
    assert proc.returncode == 0, proc.stderr
    assert _ap(out) == pytest.approx(average_precision_score(y, s), rel=1e-12)
    proc = run("report", str(path), "--label", "y", "--score", "s", "--encoding", "klingon")
    assert proc.returncode == 2 and b"argument --encoding: expected a text encoding" in proc.stderr


def test_weights_match_repeated_rows_and_scikit_learn(tmp_path):
    """Integer weights = rows repeated: every curve and area agrees; AP/ROC AUC = sklearn."""
    y, s = _data(n=160, seed=8)
    rng = np.random.default_rng(2)
    b = np.round(s + rng.normal(size=y.size), 6)
    w = rng.integers(0, 4, size=y.size)
    table = zip(y.tolist(), s.tolist(), b.tolist(), w.tolist(), strict=True)
    rows = [f"{yi},{si!r},{bi!r},{wi}" for yi, si, bi, wi in table]
    (tmp_path / "w.csv").write_text("y,s,b,w\n" + "\n".join(rows) + "\n")
    reps = [r for r, k in zip(rows, w.tolist(), strict=True) for _ in range(k)]
    (tmp_path / "rep.csv").write_text("y,s,b,w\n" + "\n".join(reps) + "\n")
    common = ["--label", "y", "--score", "s", "--score", "b", "--n-resamples", "30"]
    proc = run("report", "w.csv", *common, "--weight", "w", "--out", "ow", cwd=tmp_path)
    assert proc.returncode == 0, proc.stderr
    proc = run("report", "rep.csv", *common, "--out", "orep", cwd=tmp_path)
    assert proc.returncode == 0, proc.stderr
    weighted = json.loads((tmp_path / "ow" / "summary.json").read_text())
    repeated = json.loads((tmp_path / "orep" / "summary.json").read_text())
    for name, score in (("s", s), ("b", b)):
        sw, sr = weighted["scorers"][name], repeated["scorers"][name]
        for method, value in sr["auc_pr"].items():
            assert sw["auc_pr"][method] == pytest.approx(value, rel=1e-12, abs=1e-15), method
        assert sw["auc_pr"]["average_precision"] == pytest.approx(
            average_precision_score(y, score, sample_weight=w), rel=1e-12
        )
        assert sw["roc_auc"] == pytest.approx(roc_auc_score(y, score, sample_weight=w), rel=1e-12)
        curve_w = np.loadtxt(tmp_path / "ow" / sw["files"]["curve"], delimiter=",", skiprows=1)
        curve_r = np.loadtxt(tmp_path / "orep" / sr["files"]["curve"], delimiter=",", skiprows=1)
        assert_allclose(curve_w, curve_r, rtol=1e-12)
        # binomial interval with Kish's effective number of positives (independent formula)
        wp = w[y == 1].astype(float)
        n_eff = wp.sum() ** 2 / (wp**2).sum()
        ap = sw["auc_pr"]["average_precision"]
        half = 1.959963984540054 * np.sqrt(ap * (1 - ap) / n_eff)
        ci = sw["auc_pr_ci"]["average_precision"]["binomial"]
        assert ci["low"] == pytest.approx(max(ap - half, 0), rel=1e-9)
        assert "bootstrap_percentile" in sw["auc_pr_ci"]["average_precision"]
        assert "confidence_band" not in sw and "band" not in sw["files"]
        assert any("confidence band: not computed" in n for n in sw["notes"])
    assert weighted["settings"]["weight_column"] == "w"
    assert weighted["data"]["weighted_prevalence"] == pytest.approx(
        w[y == 1].sum() / w.sum(), rel=1e-12
    )
    assert "sample weights (column 'w')" in weighted["notes"][0]
    comp = weighted["comparisons"][0]
    assert comp["estimate_a"] == pytest.approx(
        weighted["scorers"]["s"]["auc_pr"]["average_precision"]
    )
    page = (tmp_path / "ow" / "report.html").read_text()
    assert "sample weights" in page and "confidence band: not computed" in page


@pytest.mark.parametrize(
    ("text", "match"),
    [
        ("y,s,w\n1,0.5,1\n0,0.2,-2\n", r"column 'w' has -2.0 at line 3; expected a weight >= 0"),
        ("y,s,w\n1,0.5,1\n0,0.2,x\n", r"column 'w' has 'x' at line 3; expected a weight"),
        ("y,s,w\n1,0.5,0\n0,0.2,1\n", r"column 'w' gives every positive row weight 0"),
        ("y,s,w\n1,0.5,1\n0,0.2,nan\n", r"column 'w' has nan at line 3; expected a finite weight"),
    ],
)
def test_bad_weights_are_one_line(tmp_path, text, match):
    path = tmp_path / "w.csv"
    path.write_text(text)
    proc = run("report", str(path), "--label", "y", "--score", "s", "--weight", "w",
               "--out", str(tmp_path / "o"))  # fmt: skip
    err = proc.stderr.decode()
    assert proc.returncode == 1 and err.count("\n") == 1, err
    assert err.startswith(f"prcurve: error: {path}: ") and __import__("re").search(match, err)
    assert not (tmp_path / "o").exists()


def test_colliding_column_names_get_distinct_stable_files(tmp_path):
    y, s = _data()
    rng = np.random.default_rng(0)
    cols = {c: np.round(s + rng.normal(size=y.size), 6) for c in ("a/b", "a_b", "S", "s", "x")}
    header = ["y", *cols]
    body = [",".join(map(str, r)) for r in zip(y.tolist(), *(v.tolist() for v in cols.values()),
                                                strict=True)]  # fmt: skip
    (tmp_path / "c.csv").write_text(",".join(header) + "\n" + "\n".join(body) + "\n")
    args = ["report", "c.csv", "--label", "y", "--n-resamples", "20", "--out", "o"]
    proc = run(*args, *(a for c in cols for a in ("--score", c)), cwd=tmp_path)
    assert proc.returncode == 0, proc.stderr
    data = json.loads((tmp_path / "o" / "summary.json").read_text())
    files = {name: sc["files"] for name, sc in data["scorers"].items()}
    paths = [p for f in files.values() for p in f.values()]
    assert len({p.casefold() for p in paths}) == len(paths) == 3 * len(cols)
    assert sorted(os.listdir(tmp_path / "o" / "curves")) == sorted(p[7:] for p in paths)
    assert files["x"]["curve"] == "curves/x.csv"  # a safe, unique name is kept as it is
    for name, f in files.items():  # each file holds its own scorer's curve
        got = np.loadtxt(tmp_path / "o" / f["curve"], delimiter=",", skiprows=1)
        curve = prcurve.pr_curve(y, cols[name])
        assert_allclose(got[:, 4], curve.recall) and assert_allclose(got[:, 3], curve.precision)
    # stable: the same names whatever the order and the run
    again = file_stems(list(reversed(cols)))
    assert again == {n: f["curve"][7:-4] for n, f in files.items()}


def test_file_stems_rules():
    assert file_stems(["model_a", "b"]) == {"model_a": "model_a", "b": "b"}
    stems = file_stems(["a", "a_band"])  # a's band file would be a_band.csv
    assert len({f"{v}{x}" for v in stems.values() for x in ("", "_band", "_achievable")}) == 6
    long = file_stems(["é" * 300])["é" * 300]
    assert len(long) < 100 and long.startswith("score-")


def test_mixed_line_endings_issue_16(tmp_path):
    path = tmp_path / "mixed.csv"
    path.write_bytes(b"y,s\r\n1,0.9\n0,0.1\r\n1,0.7\r0,0.3\n")
    out = tmp_path / "o"
    proc = run("report", str(path), "--label", "y", "--score", "s", "--out", str(out),
               "--n-resamples", "20")  # fmt: skip
    assert proc.returncode == 0, proc.stderr
    got = json.loads((out / "summary.json").read_text())
    assert got["data"]["n"] == 4
    assert _ap(out) == pytest.approx(average_precision_score([1, 0, 1, 0], [0.9, 0.1, 0.7, 0.3]))


CSV_PROBLEMS = [
    (b'y,s\n1,0.5\n0,"0.2\n1,0.3\n', "line 3: a quoted field starting on this line is not closed"),
    (b'y,s\n1,0.5\n0,"0"2\n', "line 3: ',' expected after '\"'"),
    (b"y,s\n1,0.5\r0,0.2,9\r\n", r"line 3 has 3 fields, the header has 2 \(split at comma\)"),
    (b"y,s\n1,0.5\n\n0\n", "line 4 has 1 field, the header has 2"),
    (b"y,s\n1,0.5\n0,\xff\n", r"line 3 is not valid UTF-8 text \(byte 0xff\)"),
    (b"y,s\n1,0.5\n\n\n0,abc\n", "column 's' has 'abc' at line 5; expected a number"),
    (b'y,s\n1,"0.5\n7"\n0,0.1\n', r"column 's' has '0.5\\n7' at line 2"),
    (gzip.compress(b"y,s\n1,0.5\n0,0.1\n")[:-6], "cannot decompress the gzip data"),
    (b"y,s\n1,0.5\n", "column 'y' has 1 distinct label"),
    (b"\n\n", "empty file"),
    (b"y,s\n", "no data rows after the header"),
    (b"PK\x03\x04rest", "a zip archive, expected a CSV file"),
]


@pytest.mark.parametrize(("content", "match"), CSV_PROBLEMS)
def test_every_csv_problem_is_one_line_naming_file_and_line(tmp_path, content, match):
    path = tmp_path / "bad.csv"
    path.write_bytes(content)
    proc = run("report", str(path), "--label", "y", "--score", "s", "--out", str(tmp_path / "o"))
    err = proc.stderr.decode()
    assert proc.returncode == 1 and err.count("\n") == 1 and "Traceback" not in err, err
    assert err.startswith(f"prcurve: error: {path}: ")
    assert __import__("re").search(match, err), err
    assert sorted(os.listdir(tmp_path)) == ["bad.csv"]


def test_gz_name_without_gzip_content(tmp_path):
    path = tmp_path / "plain.csv.gz"
    path.write_text("y,s\n1,0.5\n0,0.1\n")
    with pytest.raises(InputError, match=r"name ends in \.gz but the content is not gzip data"):
        read_labelled_scores(str(path), "y", ["s"])


#: Rows of (label, score) for the reader properties.
ROWS = st.lists(
    st.tuples(st.booleans(), st.floats(allow_nan=False, allow_infinity=False)),
    min_size=2,
    max_size=30,
)

AWKWARD = b'\xef\xbb\xbf id ; y ; "s;1"\r\n1; 1 ; 0.5\r\n\r\n2;0;-1e-3\r\n3;1; +2.5 \n4;0;7\r'


def test_fast_and_csv_module_paths_agree(monkeypatch):
    text = decode(AWKWARD, "x", None)
    header, delimiter, _ = read_header(text, "x", None)
    assert read_csv_columns(text, "x", header, delimiter, ["y", "s;1"]).lines is None  # fast
    fast = read_labelled_scores("-", "y", ["s;1"], stdin=io.BytesIO(AWKWARD))
    monkeypatch.setitem(sys.modules, "pyarrow", None)  # no pyarrow: the csv module reads
    assert read_csv_columns(text, "x", header, delimiter, ["y", "s;1"]).lines is not None
    slow = read_labelled_scores("-", "y", ["s;1"], stdin=io.BytesIO(AWKWARD))
    assert_array_equal(fast.y, [True, False, True, False])
    assert_array_equal(fast.y, slow.y)
    assert_array_equal(fast.scores["s;1"], [0.5, -1e-3, 2.5, 7.0])
    assert_array_equal(fast.scores["s;1"], slow.scores["s;1"])
    with pytest.raises(InputError, match=r"column 's;1' has 'x' at line 5"):
        read_labelled_scores("-", "y", ["s;1"], stdin=io.BytesIO(AWKWARD.replace(b"+2.5", b"x")))


@settings(max_examples=40, deadline=None, derandomize=True)
@given(
    ROWS,
    st.sampled_from([",", ";", "\t", "|"]),
    st.lists(st.sampled_from(["\n", "\r\n", "\r"]), min_size=1, max_size=3),
    st.sampled_from(["", " ", '"']),
    st.sampled_from([("0", "1"), ("0.0", "1"), ("no", "yes"), ("nan", "1"), ("-1", "inf")]),
)
def test_fast_and_slow_readers_give_identical_arrays(rows, sep, ends, pad, classes):
    """Property: whatever pyarrow's reader accepts, it reads exactly as the csv module does."""
    lines = [f"y{sep}s"] + [
        f"{classes[y]}{sep}{pad}{s!r}{pad}" for y, s in rows
    ]  # pad '"' quotes every score
    text = "".join(line + ends[i % len(ends)] for i, line in enumerate(lines))
    header, delimiter, _ = read_header(text, "x", sep if sep == "|" else None)
    fast = read_csv_columns(text, "x", header, delimiter, ["y", "s"])
    slow = read_csv_slow(text, "x", header, delimiter, ["y", "s"])
    assert (fast.lines is None) == (pad != '"' and _has_pyarrow())
    y_slow = slow.values["y"]
    if fast.values["y"].dtype.kind == "f":  # all finite numbers: read as numbers directly
        assert set(classes) & {"nan", "inf"} == set()
        assert_array_equal(fast.values["y"], y_slow.astype(float))
    else:
        assert_array_equal(fast.values["y"], y_slow)
    assert_array_equal(np.asarray(fast.values["s"], dtype=float), [s for _, s in rows])
    assert_array_equal(slow.values["s"].astype(float), [s for _, s in rows])
    if "1" in classes:  # the same classes and positives (or the same error) from either path
        fast_y, slow_y = (_labels_or_error(v) for v in (fast.values["y"], y_slow))
        assert type(fast_y) is type(slow_y)
        if isinstance(fast_y, str):
            assert fast_y == slow_y
        else:
            assert_array_equal(fast_y, slow_y)


def _labels_or_error(values):
    try:
        return _labels(values, "y", "x", str, "1")[0]
    except InputError as exc:
        return str(exc)


def _has_pyarrow() -> bool:
    try:
        import pyarrow.csv  # noqa: F401
    except ImportError:
        return False
    return True


def test_predict_proba_matrix_says_take_the_positive_column():
    y, s = _data()
    proba = np.column_stack([1 - s, s])
    for call in (
        lambda: prcurve.pr_curve(y, proba),
        lambda: prcurve.auc_pr(y, proba),
        lambda: prcurve.compare(y, s, proba, n_resamples=10, rng=0),
    ):
        with pytest.raises(ValueError, match=r"two columns, like predict_proba.*\[:, 1\]"):
            call()


def _both_paths(content: bytes, scores=("s",)):
    """read_labelled_scores on stdin ``content`` as a small file (decoded whole) and as a large
    one (only its head decoded: ``HEAD_BYTES`` shrunk), each result or error message."""
    from prcurve._reporting.input import _csv, _io

    out = []
    for head in (_csv.HEAD_BYTES, 8):
        with pytest.MonkeyPatch.context() as mp:
            mp.setattr(_csv, "HEAD_BYTES", head)
            mp.setattr(_io, "HEAD_BYTES", head)
            try:
                out.append(read_labelled_scores("-", "y", list(scores), stdin=io.BytesIO(content)))
            except InputError as exc:
                out.append(str(exc))
    return out


@settings(max_examples=40, deadline=None, derandomize=True)
@given(
    ROWS,
    st.sampled_from([",", ";", "\t"]),
    st.lists(st.sampled_from(["\n", "\r\n", "\r"]), min_size=1, max_size=3),
    st.sampled_from(["", " ", '"']),
    st.sampled_from([("0", "1"), ("no", "yes"), ("nan", "1")]),
    st.sampled_from([b"", codecs.BOM_UTF8]),
    st.sampled_from(["", "é", "x"]),  # a non-ASCII header, or a bad score
)
def test_large_file_path_reads_exactly_as_the_whole_text_path(
    rows, sep, ends, pad, classes, bom, extra
):
    """A large UTF-8 file is read without decoding it whole; arrays and messages are the same."""
    score = "s" + ("é" if extra == "é" else "")
    lines = [f"y{sep}{score}"] + [f"{classes[y]}{sep}{pad}{s!r}{pad}" for y, s in rows]
    if extra == "x":
        lines[-1] = f"{classes[0]}{sep}x"
    text = "".join(line + ends[i % len(ends)] for i, line in enumerate(lines))
    small, large = _both_paths(bom + text.encode("utf-8"), scores=(score,))
    assert type(small) is type(large)
    if isinstance(small, str):
        assert small == large
    else:
        assert_array_equal(small.y, large.y)
        assert_array_equal(small.scores[score], large.scores[score])


def test_large_file_path_names_a_bad_byte_and_a_bad_header_as_usual(monkeypatch):
    from prcurve._reporting.input import _io

    taken = []
    real = _io.read_utf8_columns
    monkeypatch.setattr(_io, "read_utf8_columns", lambda *a: taken.append(real(*a)) or taken[-1])
    body = b"y,s\n" + b"1,0.5\n0,0.25\n" * 20
    small, large = _both_paths(body)
    assert isinstance(taken[-1][0].values["s"], np.ndarray)  # the large path read it
    assert_array_equal(small.scores["s"], large.scores["s"])
    small, large = _both_paths(body + b"1,0.\xff\n")
    assert small == large and "is not valid UTF-8 text (byte 0xff)" in small
    small, large = _both_paths(body.replace(b"y,s", b"y,t"))
    assert small == large and "'s'" in small
