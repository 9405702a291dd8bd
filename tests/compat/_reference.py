"""Slow, literal re-implementations of other tools' AUC-PR, written from each tool's source.

Each function follows its tool's code step by step (per instance, per threshold, with the
tool's loops, insertions and special cases), independently of :mod:`prcurve.compat`, which
reads one vectorised count table.  Only the tools that do not install here are written out
(Spark, Keras/TensorFlow and torchmetrics are multi-GB or need Java; PRROC, precrec and
yardstick are not Debian packages; auc.jar is not distributed); ROCR is compared with ROCR
itself and scikit-learn with scikit-learn.  The source of each is named in its docstring.
"""

from __future__ import annotations

import math

import numpy as np


def _trapezoid(xs, ys) -> float:
    total = 0.0
    for i in range(1, len(xs)):
        total += (xs[i] - xs[i - 1]) * (ys[i] + ys[i - 1]) / 2
    return total


def spark(y, s, w=None, num_bins=0) -> float:
    """apache/spark BinaryClassificationMetrics.scala (cumulativeCounts, pr) +
    AreaUnderCurve.scala (of): one partition."""
    curve = spark_curve(y, s, w, num_bins)
    return _trapezoid([c[0] for c in curve], [c[1] for c in curve])


def spark_curve(y, s, w=None, num_bins=0) -> list[tuple[float, float]]:
    """Spark's ``pr()``: (recall, precision) points, the (0, first precision) start first."""
    w = np.ones(len(y)) if w is None else w
    bins: dict[float, list[float]] = {}
    for label, score, weight in zip(y, s, w, strict=True):
        c = bins.setdefault(float(score), [0.0, 0.0])
        c[0 if label else 1] += weight
    counts = sorted(bins.items(), key=lambda kv: -kv[0])
    if num_bins > 0 and len(counts) // num_bins >= 2:
        grouping = len(counts) // num_bins
        grouped, agg, cnt, score = [], [0.0, 0.0], 0, None
        for score, (p, n) in counts:
            agg = [agg[0] + p, agg[1] + n]
            cnt += 1
            if cnt == grouping:
                grouped.append((score, agg))
                agg, cnt = [0.0, 0.0], 0
        if cnt > 0:
            grouped.append((score, agg))
        counts = grouped
    total_pos = sum(c[0] for _, c in counts)
    tp = fp = 0.0
    curve = []
    for _, (p, n) in counts:
        tp, fp = tp + p, fp + n
        precision = 1.0 if tp + fp == 0 else tp / (tp + fp)
        curve.append((tp / total_pos, precision))
    curve.insert(0, (0.0, curve[0][1]))
    return curve


def keras(y, s, w=None, num_thresholds=200) -> float:
    """keras-team/keras confusion_metrics.py AUC (thresholds, interpolate_pr_auc) with the
    general ``pred > threshold`` comparison of metrics_utils.update_confusion_matrix_variables."""
    t = num_thresholds
    tps, fps, fns = keras_counts(y, s, w, num_thresholds)
    total = 0.0
    for i in range(t - 1):
        dtp = tps[i] - tps[i + 1]
        p_lo, p_hi = tps[i] + fps[i], tps[i + 1] + fps[i + 1]
        dp = p_lo - p_hi
        slope = dtp / max(dp, 0) if max(dp, 0) != 0 else 0.0
        intercept = tps[i + 1] - slope * p_hi
        ratio = p_lo / p_hi if (p_lo > 0 and p_hi > 0) else 1.0
        denominator = tps[i + 1] + fns[i + 1]
        total += slope * (dtp + intercept * math.log(ratio)) / denominator
    return total


def keras_counts(y, s, w=None, num_thresholds=200):
    """The true/false positives and false negatives at Keras's thresholds (increasing)."""
    t = num_thresholds
    eps = 1e-7
    thresholds = [0.0 - eps] + [(i + 1) / (t - 1) for i in range(t - 2)] + [1.0 + eps]
    w = np.ones(len(y)) if w is None else w
    pred = [min(max(float(np.float32(v)), 0.0), 1.0) for v in s]
    tps, fps, fns = [], [], []
    for th in thresholds:
        tps.append(sum(wi for yi, p, wi in zip(y, pred, w, strict=True) if yi and p > th))
        fps.append(sum(wi for yi, p, wi in zip(y, pred, w, strict=True) if not yi and p > th))
        fns.append(sum(wi for yi, p, wi in zip(y, pred, w, strict=True) if yi and not p > th))
    return tps, fps, fns


def _sigmoid_if_needed(s):
    s = np.asarray(s)
    s = s if s.dtype.kind == "f" else s.astype(np.float64)
    if ((s < 0) | (s > 1)).any():
        one = s.dtype.type(1)  # in the scores' dtype, as torch: numpy 1.x would widen
        return [float(one / (one + np.exp(-v))) for v in s]  # 1 + float32 to float64
    return [float(v) for v in s]


def torchmetrics(y, s, thresholds=None) -> float:
    """Lightning-AI/torchmetrics precision_recall_curve.py (_binary_clf_curve, the binned
    confusion matrices, _binary_precision_recall_curve_compute) + average_precision.py
    (_binary_average_precision_compute)."""
    precision, recall = torchmetrics_curve(y, s, thresholds)
    return -sum((recall[i + 1] - recall[i]) * precision[i] for i in range(len(recall) - 1))


def torchmetrics_curve(y, s, thresholds=None) -> tuple[list[float], list[float]]:
    """torchmetrics's (precision, recall), thresholds increasing, the (1, 0) end point last
    (empty bins' NaN precision already 0, as the average precision reads it)."""
    pred = _sigmoid_if_needed(s)
    if thresholds is None:
        order = sorted(range(len(pred)), key=lambda i: -pred[i])
        precision, recall = [], []
        tp = fp = 0
        n_pos = sum(1 for v in y if v)
        for k, i in enumerate(order):
            tp, fp = tp + (1 if y[i] else 0), fp + (0 if y[i] else 1)
            if k == len(order) - 1 or pred[order[k + 1]] != pred[i]:
                precision.append(tp / (tp + fp))
                recall.append(tp / n_pos)
        precision, recall = [*precision[::-1], 1.0], [*recall[::-1], 0.0]
    else:
        grid = np.linspace(0, 1, thresholds, dtype=np.float32).astype(np.float64)
        precision, recall = [], []
        n_pos = sum(1 for v in y if v)
        for th in grid:
            tp = sum(1 for yi, p in zip(y, pred, strict=True) if yi and p >= th)
            fp = sum(1 for yi, p in zip(y, pred, strict=True) if not yi and p >= th)
            precision.append(0.0 if tp + fp == 0 else tp / (tp + fp))  # NaN -> 0
            recall.append(tp / n_pos)
        precision, recall = [*precision, 1.0], [*recall, 0.0]
    return precision, recall


def precrec(y, s, x_bins=1000) -> float:
    """evalclass/precrec src/precrec_plx.cpp: calc_tp_fp + solve_ties (ties_method 'equiv'),
    calc_basic_measures, create_prc_curve + interpolate_prc, calc_auc."""
    order = sorted(range(len(s)), key=lambda i: -s[i])  # rank 1 = the highest score
    n = len(s)
    tp, fp = [0.0] * (n + 1), [0.0] * (n + 1)
    n_pos = n_neg = 0
    ties, prev = 0, None
    for i, idx in enumerate(order):
        if y[idx]:
            n_pos += 1
        else:
            n_neg += 1
        tp[i + 1], fp[i + 1] = n_pos, n_neg
        if s[idx] == prev:
            ties += 1
        elif ties:
            _solve_ties(tp, fp, i, ties)
            ties = 0
        prev = s[idx]
    if ties:
        _solve_ties(tp, fp, n, ties)
    sn = [t / n_pos for t in tp]
    pr = [0.0] + [tp[i] / (tp[i] + fp[i]) for i in range(1, n + 1)]
    pr[0] = pr[1]
    interval = 1.0 / x_bins if x_bins > 0 else 0.0
    rec, prec = [], []
    for i in range(n + 1):
        if i and sn[i] == sn[i - 1] and pr[i] == pr[i - 1]:
            continue
        if interval > 0 and i > 0:
            tmp = interval * int(sn[i - 1] / interval)
            while tmp < 1:
                tmp += interval
                if tmp >= sn[i]:
                    break
                if pr[i] == pr[i - 1]:
                    p = pr[i]
                else:
                    x = (tmp - sn[i - 1]) * tp[i] / sn[i]
                    p = (tp[i - 1] + x) / (
                        tp[i - 1] + x + fp[i - 1] + (fp[i] - fp[i - 1]) * x / (tp[i] - tp[i - 1])
                    )
                if rec[-1] == tmp and prec[-1] == p:
                    continue
                rec.append(tmp)
                prec.append(p)
        rec.append(sn[i])
        prec.append(pr[i])
    return _trapezoid(rec, prec)


def _solve_ties(tp, fp, cur, ties):
    step_tp = (tp[cur] - tp[cur - ties - 1]) / (ties + 1)
    step_fp = (fp[cur] - fp[cur - ties - 1]) / (ties + 1)
    for i in range(ties):
        tp[cur - ties + i] = tp[cur - ties + i - 1] + step_tp
        fp[cur - ties + i] = fp[cur - ties + i - 1] + step_fp


def _distinct_counts(y, s, w=None):
    """Cumulative (tp, fp) at each distinct score, decreasing (R's order + cumsum + last of
    each run of equal scores, as PRROC and yardstick do)."""
    w = np.ones(len(y)) if w is None else np.asarray(w, dtype=float)
    order = sorted(range(len(s)), key=lambda i: -s[i])
    tp = fp = 0.0
    out = []
    for k, i in enumerate(order):
        tp, fp = tp + (w[i] if y[i] else 0.0), fp + (0.0 if y[i] else w[i])
        if k == len(order) - 1 or s[order[k + 1]] != s[i]:
            out.append((tp, fp))
    return out


def prroc(y, s, w=None) -> tuple[float, float]:
    """cran/PRROC R/PRROC.R compute.pr: (auc.integral, auc.davis.goadrich)."""
    pts = _distinct_counts(y, s, w)
    r = pts[-1][0]
    integral = 0.0
    dg_terms = []
    prev = (0.0, 0.0)
    for k, (tp, fp) in enumerate(pts):
        tpp, fpp = prev
        if tp == tpp:
            v = 0.0
        else:
            h = (fp - fpp) / (tp - tpp)
            a = 1 + h
            b = (fpp - h * tpp) / r
            if b == 0:
                v = (tp / r - tpp / r) / a
            else:
                v = (
                    tp / r
                    - tpp / r
                    - b / a * (math.log(a * tp / r + b) - math.log(a * tpp / r + b))
                ) / a
        integral += v
        p = tp / (tp + fp)
        p_prev = tpp / (tpp + fpp) if tpp + fpp > 0 else float("nan")
        if k > 0 and tp - tpp > 1 and p != p_prev:
            h2 = (fp - fpp) / (tp - tpp)
            prcs = [(tpp + x) / (tpp + x + fpp + h2 * x) for x in range(int(tp - tpp) + 1)]
            dg_terms.append(sum((prcs[j + 1] + prcs[j]) / 2 / r for j in range(len(prcs) - 1)))
        else:
            term = (tp - tpp) / r * (p_prev + p) / 2
            if k == 0 and math.isnan(term):
                term = (tp - tpp) / r * p
            dg_terms.append(term)
        prev = (tp, fp)
    return integral, sum(dg_terms)


def rocr(y, s) -> float:
    """ipa-tys/ROCR R/performance_measures.R .performance.aucpr, with R's append(after = i)."""
    return _trapezoid(*rocr_curve(y, s))


def rocr_curve(y, s) -> tuple[list[float], list[float]]:
    """The (recall, precision) vectors of ROCR's aucpr, in ROCR's order."""
    pts = [(0.0, 0.0), *_distinct_counts(y, s)]
    n_pos = pts[-1][0]
    fewest: dict[float, float] = {}
    for tp, fp in pts:
        fewest[tp] = min(fp, fewest.get(tp, math.inf))
    tp = sorted(fewest)
    fp = [fewest[t] for t in tp]
    prec = [t / (f + t) if f + t > 0 else 1.0 for t, f in zip(tp, fp, strict=True)]
    rec = [t / n_pos for t in tp]
    for i in range(len(tp) - 1):  # 0-based i is R's i + 1
        if tp[i + 1] - tp[i] > 2:
            skew = (fp[i + 1] - fp[i]) / (tp[i + 1] - tp[i])
            xs = range(1, int(tp[i + 1] - tp[i]) + 1)
            rec[i + 1 : i + 1] = [(x + tp[i]) / n_pos for x in xs]
            prec[i + 1 : i + 1] = [(x + tp[i]) / (tp[i] + fp[i] + x + skew * x) for x in xs]
    return rec, prec


def yardstick(y, s, w=None) -> float:
    """tidymodels/yardstick probcurve-pr_curve.R pr_curve_binary + prob-helpers.R auc."""
    return _trapezoid(*yardstick_curve(y, s, w))


def yardstick_curve(y, s, w=None) -> tuple[list[float], list[float]]:
    """yardstick's pr_curve: (recall, precision), (0, 1) first."""
    pts = _distinct_counts(y, s, w)
    total = pts[-1][0]
    rec = [0.0] + [tp / total for tp, _ in pts]
    prec = [1.0] + [tp / (tp + fp) for tp, fp in pts]
    return rec, prec


def auc_jar(y, s) -> float:
    """aucroc/AUCCalculator Confusion.java: classSortToConfusion, sort, interpolate,
    calculateAUCPR(0)."""
    items = sorted(zip(s, y, strict=True), key=lambda t: (t[0], -int(t[1])))
    pos = neg = 0
    last_prob = items[-1][0]
    if items[-1][1]:
        pos += 1
    else:
        neg += 1
    points = []
    for prob, label in reversed(items[:-1]):
        if prob != last_prob:
            points.append((pos, neg))
        last_prob = prob
        if label:
            pos += 1
        else:
            neg += 1
    points.append((pos, neg))
    tot_pos = pos
    points = sorted(set(points))
    while abs(points[0][0]) < 0.001:
        points.pop(0)
    first = points[0]
    if first[0] > 1:
        points.insert(0, (1.0, first[1] / first[0]))
    i = 0
    while i < len(points) - 1:
        p, nxt = points[i], points[i + 1]
        # Java's division by zero gives ±Infinity/NaN, never used: no points are inserted
        margin = (nxt[1] - p[1]) / (nxt[0] - p[0]) if nxt[0] != p[0] else math.nan
        init_pos, init_neg = p
        while abs(p[0] - nxt[0]) > 1.001:
            p = (p[0] + 1, init_neg + (p[0] - init_pos + 1) * margin)
            i += 1
            points.insert(i, p)
        i += 1
    r0 = points[0][0] / tot_pos
    p0 = points[0][0] / (points[0][0] + points[0][1])
    area = r0 * p0
    for tp, fp in points[1:]:
        r, p = tp / tot_pos, tp / (tp + fp)
        area += (r - r0) * p + 0.5 * (r - r0) * (p0 - p)
        r0, p0 = r, p
    return area
