"""The coarse-to-fine operating-point bootstrap: exact choices, and the law of the ordinary one."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from scipy import stats

from prcurve._core._operating import choose_rows
from prcurve._inference import _coarse_fine as coarse_fine
from prcurve._inference._coarse_fine import (
    Blocks,
    choose_in_block,
    coarse_fine_replicates,
    negative_blocks,
)
from prcurve._inference._operating_ci import _replicates
from prcurve._inference._partial_ci import check_deployment_prevalence
from prcurve._inference._resample import (
    positional_cumulative,
    positive_columns,
    prepare,
    replicate_counts,
)


def _problem(seed: int, n: int, prevalence: float, levels: int | None):
    gen = np.random.default_rng(seed)
    y = gen.random(n) < prevalence
    y[:2] = [True, False]
    s = gen.normal(size=n) + 1.5 * y
    if levels is not None:  # ties
        s = np.round(s * levels) / levels
    return y, s


def _ground_truth_check(y, s, specs, width, seed, b=7):
    """choose_in_block, refining from full multiplicities, equals choose_rows on them."""
    sample = prepare(y, s)
    gen = np.random.default_rng(seed)
    n_p, n_n = sample.n_pos_instances, sample.n_neg_instances
    held = np.array([c for _, _, c, _ in specs])
    cols = np.union1d(positive_columns(sample), held)
    at = np.searchsorted(cols, held)
    blocks = negative_blocks(sample.neg_ge[cols].astype(np.int64), n_n, sample.neg_ge[held], width)
    # any multiplicities at all: the choice must not depend on blocks left unrefined
    mp = gen.multinomial(gen.integers(1, 3 * n_p + 1), np.full(n_p, 1 / n_p), size=b)
    mn = gen.poisson(gen.uniform(0.2, 3.0), size=(b, n_n))
    mn[:, -1] += 1  # at least one negative (the factor at π divides by their count)
    tp, fp, npos, nneg = replicate_counts(sample, mp, mn, columns=cols)
    cn = positional_cumulative(mn)
    edge = cn[:, np.append(blocks.edges, n_n)]  # the last block is empty
    refined: list[int] = []

    def refine(rows, which):
        refined.append(rows.shape[0])

        def exact_fp(pair, column):
            assert np.all(blocks.block[column] == which[pair])
            return cn[rows[pair], sample.neg_ge[cols][column]]

        return exact_fp

    factors = {}
    for _, _, _, pi in specs:
        f = 1.0 if pi is None else (npos / nneg) * (1 - pi.value) / pi.value
        drawn = None if pi is None else np.full(b, pi.value)
        factors[id(pi)] = (np.broadcast_to(np.asarray(f, dtype=np.float64), (b,)), drawn)
    local = [(c, t, int(a), pi) for (c, t, _, pi), a in zip(specs, at, strict=True)]
    got = choose_in_block(
        local, tp.astype(np.float64), npos.astype(np.float64), edge, blocks, refine, factors
    )
    for (criterion, target, col, pi), (idx, ok, held_fp) in zip(local, got, strict=True):
        f, drawn = factors[id(pi)]
        want_idx, want_ok = choose_rows(tp, fp, npos, nneg, criterion, target, prevalence=drawn)
        np.testing.assert_array_equal(ok, want_ok)
        np.testing.assert_array_equal(np.where(want_ok, idx, 0), np.where(want_ok, want_idx, 0))
        np.testing.assert_array_equal(held_fp, fp[:, col] * f)
    return sum(refined)


CRITERIA = st.sampled_from(["min_precision", "min_recall"])


@settings(max_examples=80, deadline=None)
@given(
    seed=st.integers(0, 10**6),
    n=st.integers(4, 400),
    prevalence=st.floats(0.05, 0.6),
    levels=st.one_of(st.none(), st.integers(1, 8)),
    width=st.integers(1, 40),
    targets=st.lists(st.tuples(CRITERIA, st.floats(0.01, 1.0)), min_size=1, max_size=4),
    with_pi=st.booleans(),
)
def test_choices_equal_choose_rows_on_the_full_counts(
    seed, n, prevalence, levels, width, targets, with_pi
):
    y, s = _problem(seed, n, prevalence, levels)
    sample = prepare(y, s)
    k = sample.n_groups
    gen = np.random.default_rng(seed + 1)
    pi = check_deployment_prevalence(0.01) if with_pi else None
    specs = [(c, t, int(gen.integers(0, k)), pi) for c, t in targets]
    _ground_truth_check(y, s, specs, width, seed)


def test_refines_few_blocks_on_a_large_problem():
    """The point of the method: most blocks are decided by their edges."""
    y, s = _problem(3, 20_000, 0.05, None)
    sample = prepare(y, s)
    specs = [("min_precision", 0.8, 0, None), ("min_recall", 0.5, 0, None)]
    width = 140  # ≈ √n₋: 136 blocks
    refined = _ground_truth_check(y, s, specs, width, 5, b=20)
    n_blocks = sample.n_neg_instances // width
    assert 0 < refined <= 20 * 2 * 4  # a few blocks per criterion and replicate
    assert refined < 20 * n_blocks / 10


def test_negative_blocks_put_every_column_in_its_block():
    positions = np.sort(np.random.default_rng(0).integers(0, 1000, 300))
    b = negative_blocks(positions, 1000, positions[[5, 100]], 37)
    assert isinstance(b, Blocks)
    assert b.edges[0] == 0 and b.edges[-1] == 1000 and np.all(np.diff(b.edges) > 0)
    end = np.append(b.edges, 1001)  # the last block, at 1000, is empty and holds 1000 itself
    assert np.all(b.edges[b.block] <= positions) and np.all(positions < end[b.block + 1])
    assert np.all(b.exact[[5, 100]])
    for beta in range(b.edges.shape[0]):
        inside = np.flatnonzero(b.block == beta)
        want = (inside[0], inside[-1]) if inside.size else None
        got = (b.first[beta], b.last[beta]) if b.last[beta] >= b.first[beta] else None
        assert got == want


@pytest.mark.parametrize("width", [None, 1])
@pytest.mark.parametrize("sampling", ["instances", "stratified"])
def test_same_law_as_the_ordinary_bootstrap(sampling, width):
    """Chosen thresholds and held precision/recall: two-sample tests against the ordinary
    bootstrap (which draws every instance), many replicates, fixed seeds; blocks of about √n₋
    ranks with a known π, and blocks of one rank with π estimated from a count."""
    y, s = _problem(11, 600, 0.2, 10)
    sample = prepare(y, s)
    pi = (
        check_deployment_prevalence(0.05) if width is None else check_deployment_prevalence((3, 60))
    )
    specs = [
        ("min_precision", 0.7, 10, None),
        ("min_recall", 0.6, 20, None),
        ("min_precision", 0.5, 15, pi),
    ]
    b = 6000
    fast = coarse_fine_replicates(
        sample, specs, b, np.random.default_rng(1), sampling=sampling, width=width
    )
    # the ordinary bootstrap, forced by a criterion the coarse-to-fine path does not take
    slow = _replicates(
        sample, [*specs, ("top_k", 50.0, 0, None)], b, np.random.default_rng(2), None, sampling
    )[:3]
    for (thr_a, ok_a, p_a, r_a), (thr_b, ok_b, p_b, r_b) in zip(fast, slow, strict=True):
        assert abs(ok_a.mean() - ok_b.mean()) < 0.03
        values = np.union1d(thr_a[ok_a], thr_b[ok_b])
        pairs = ((thr_a, ok_a), (thr_b, ok_b))
        table = np.array([[np.count_nonzero(t[ok] == v) for v in values] for t, ok in pairs])
        table = table[:, table.sum(axis=0) >= 10]  # chi-square needs populated cells
        assert stats.chi2_contingency(table).pvalue > 1e-3
        for a, c in ((p_a, p_b), (r_a, r_b)):
            a, c = a[np.isfinite(a)], c[np.isfinite(c)]
            assert stats.ks_2samp(a, c).pvalue > 1e-3


def _refine_everything_then_choose(checked: list[int]):
    """A ``choose_in_block`` that first draws every block in full through the real refinement,
    then checks the lazy choices against ``choose_rows`` on those full counts."""
    lazy = coarse_fine.choose_in_block

    def choose(specs, tp, n_pos, edge, blocks, refine, factors):
        b, n_blocks = tp.shape[0], edge.shape[1] - 1
        rows, which = np.repeat(np.arange(b), n_blocks), np.tile(np.arange(n_blocks), b)
        exact_all = refine(rows, which)  # the same law: refinement given the block counts
        pair_of = np.arange(b * n_blocks).reshape(b, n_blocks)
        r, c = np.divmod(np.arange(tp.size), tp.shape[1])
        fp = exact_all(pair_of[r, blocks.block[c]], c).reshape(tp.shape).astype(np.float64)

        def sub_refine(rr, ww):
            pairs = pair_of[rr, ww]
            return lambda pair, column: exact_all(pairs[pair], column)

        got = lazy(specs, tp, n_pos, edge, blocks, sub_refine, factors)
        nneg = edge[:, -1].astype(np.float64)
        for (criterion, target, col, pi), (idx, ok, held) in zip(specs, got, strict=True):
            f, drawn = factors[id(pi)]
            want_idx, want_ok = choose_rows(
                tp, fp, n_pos, nneg, criterion, target, prevalence=drawn
            )
            np.testing.assert_array_equal(ok, want_ok)
            np.testing.assert_array_equal(idx, np.where(want_ok, want_idx, 0))
            np.testing.assert_array_equal(held, fp[:, col] * f)
        checked.append(b)
        return got

    return choose


@pytest.mark.parametrize("width", [1, 3, 10**6])
@pytest.mark.parametrize("sampling", ["instances", "stratified"])
def test_real_draws_refined_everywhere_give_the_same_choices(monkeypatch, width, sampling):
    """Through the real block counts and refinement (every block drawn), with known and
    estimated π, ties, targets at attainable precisions and held columns at both ends."""
    checked: list[int] = []
    monkeypatch.setattr(coarse_fine, "choose_in_block", _refine_everything_then_choose(checked))
    gen = np.random.default_rng(width + len(sampling))
    fractions = [a / q for q in range(1, 7) for a in range(1, q + 1)]
    for seed in range(40):
        y, s = _problem(seed, int(gen.integers(3, 90)), float(gen.uniform(0.05, 0.9)), 3)
        sample = prepare(y, s)
        k = sample.n_groups
        pis = [None, check_deployment_prevalence(1 / 3), check_deployment_prevalence((3, 11))]
        specs = [
            (str(gen.choice(["min_precision", "min_recall"])), float(gen.choice(fractions)),
             int(gen.choice([0, k - 1, int(gen.integers(0, k))])), pis[int(gen.integers(0, 3))])
            for _ in range(3)
        ]  # fmt: skip
        coarse_fine_replicates(sample, specs, 20, gen, sampling=sampling, width=width)
    assert sum(checked) == 40 * 20


def test_prepare_counted_takes_only_the_counts_of_these_rows():
    from prcurve import pr_curve
    from prcurve._inference._resample import prepare_counted

    y, s = _problem(2, 300, 0.2, 5)
    same = prepare_counted(pr_curve(y, s), y, s)
    full = prepare(y, s)
    np.testing.assert_array_equal(same.pos_ge, full.pos_ge)
    np.testing.assert_array_equal(same.neg_ge, full.neg_ge)
    with pytest.raises(ValueError, match="counts: expected the unthinned counts of these rows"):
        prepare_counted(pr_curve(y[:200], s[:200]), y, s)
    with pytest.raises(ValueError, match="counts: expected the unthinned counts"):
        prepare_counted(pr_curve(y, s, threshold_rule="gt"), y, s)
