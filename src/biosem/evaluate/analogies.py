"""Analogy completion a:b::c:?d (BMASS, Newman-Griffis et al. 2017; Levy & Goldberg 2014).

Candidates are the configured vocabulary of frequent terms plus every term of the analogies, each
a unit vector (multi-word term = mean of its word vectors). For analogy (a, {b_i}, c, {d_j}) with
``B`` the mean of the unit b vectors (one b in Single-/Multi-Answer, all of them in All-Info):

* **3CosAdd**: rank x by cos(x, B - a + c) (Mikolov et al. 2013), computed as x.B - x.a + x.c for
  unit x (the same order);
* **PairwiseDistance**: rank x by cos(x - c, B - a) (Levy & Goldberg's PairDirection; BMASS name);
* **3CosMul**: rank x by cos'(x,B) cos'(x,c) / (cos'(x,a) + eps) with cos' = (cos + 1) / 2 and
  eps = 0.001 (Levy & Goldberg 2014, Section 6).

a, every b and c are excluded from the ranking. An answer d_j that is itself a, b or c cannot be
found and is dropped; an analogy with a, c, a b or no answer outside the candidates is not
covered. Ranks are exact over the whole candidate list, ties broken by candidate order (the order
of a stable sort by descending score). With R the number of answers and r_1 < ... < r_R their ranks:

* **AccR** = #{j: r_j <= R} / R, the fraction of the top R that are correct (accuracy at R, i.e.
  R-precision; plain accuracy for one answer);
* **MAP** = mean over analogies of (1/R) sum_j j / r_j (average precision over all correct answers
  in the full ranking); **MRR** = mean of 1 / r_1.

Scores are reported per relation, macro-averaged over relations, and over all analogies.

Speed: BMASS analogies repeat their a, b and c (50 subjects per relation), so the products x.q of
every candidate x with every distinct query vector q (each a, c, and b mean) are computed once per
group of analogies with one matrix product, and all three methods are scored from them. Groups run in
worker threads (numpy and BLAS release the GIL; BLAS single-threaded per worker, so results do not
depend on the number of workers), a few analogies at a time in reusable buffers. Ranks cost one pass
over a row per answer; the top-k predictions come from the maxima of 64 interleaved column groups
(the k groups with the largest maxima hold the k best candidates), so only 64 k candidates per row
are sorted exactly.
"""

from __future__ import annotations

import itertools
import logging
import math
import time
from collections.abc import Callable, Mapping, Sequence
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from typing import Any

import numpy as np
import pandas as pd
from threadpoolctl import threadpool_limits

from biosem.evaluate.models import Representation, unit_rows
from biosem.evaluate.results import result_row

log = logging.getLogger(__name__)

METHODS = ("3CosAdd", "PairwiseDistance", "3CosMul")
MEASURES = ("AccR", "MAP", "MRR")
EPSILON = 0.001
VARIANTS = ("single_answer", "multi_answer", "all_info")


@dataclass(frozen=True)
class AnalogyParams:
    """Config ``evaluate.analogies`` (see config/README.md)."""

    methods: tuple[str, ...] = METHODS
    top_k: int = 10
    block_mb: int = 256
    candidate_min_count: int = 25
    require_all_words: bool = True


@dataclass(frozen=True)
class IndexedAnalogies:
    """Analogies as candidate indices; b and d lists in CSR layout (``b_idx[b_ptr[i]:b_ptr[i+1]]``)."""

    relation: np.ndarray
    a: np.ndarray
    c: np.ndarray
    b_ptr: np.ndarray
    b_idx: np.ndarray
    d_ptr: np.ndarray
    d_idx: np.ndarray

    def __len__(self) -> int:
        return len(self.a)


@dataclass(frozen=True)
class Rankings:
    """Per method: the rank (1-based) of each answer (aligned with ``d_idx``) and top-k candidates."""

    ranks: dict[str, np.ndarray]
    top: dict[str, np.ndarray]


# --------------------------------------------------------------------------------------------------
# Candidates and indexing
# --------------------------------------------------------------------------------------------------
def candidate_key(model: Representation, term: str) -> str:
    """The string a term is matched by: its words (model's case rule) joined by single spaces."""
    tokens = getattr(model, "tokens", None)
    return " ".join(tokens(term)) if tokens is not None else " ".join(term.lower().split())


def build_candidates(
    model: Representation, phrases: Sequence[str], require_all_words: bool = True
) -> tuple[list[str], np.ndarray]:
    """Distinct candidate keys (sorted) the model can represent, and their unit vectors (float32)."""
    keys = sorted({k for k in (candidate_key(model, p) for p in phrases) if k})
    vectors, covered = model.phrase_vectors(keys, require_all=require_all_words)
    norms = np.linalg.norm(vectors, axis=1)
    ok = covered & (norms > 0)
    return [k for k, o in zip(keys, ok) if o], unit_rows(vectors[ok])


def _as_list(value: Any) -> list[str]:
    if value is None:
        return []
    if isinstance(value, str):
        return [value]
    return [str(v) for v in value]


def index_analogies(
    frame: pd.DataFrame, model: Representation, candidates: Mapping[str, int]
) -> tuple[IndexedAnalogies, dict[str, int]]:
    """Map analogies (columns ``relation, a_term, b_terms, c_term, d_terms``) to candidate indices.

    Returns the covered analogies (in input order) and counts: ``analogies``, ``covered``,
    ``answers_dropped_abc`` (answers equal to a, b or c), ``answers_unknown``.
    """
    rel, a_out, c_out, b_ptr, b_idx, d_ptr, d_idx = [], [], [], [0], [], [0], []
    counts = {"analogies": len(frame), "covered": 0, "answers_dropped_abc": 0, "answers_unknown": 0}
    for row in frame.itertuples(index=False):
        a = candidates.get(candidate_key(model, str(row.a_term)), -1)
        c = candidates.get(candidate_key(model, str(row.c_term)), -1)
        bs = [candidates.get(candidate_key(model, t), -1) for t in _as_list(row.b_terms)]
        bs = sorted({b for b in bs if b >= 0})
        ds_all = [candidates.get(candidate_key(model, t), -1) for t in _as_list(row.d_terms)]
        counts["answers_unknown"] += sum(d < 0 for d in ds_all)
        excluded = {a, c, *bs}
        ds = sorted({d for d in ds_all if d >= 0} - excluded)
        counts["answers_dropped_abc"] += len({d for d in ds_all if d >= 0} & excluded)
        if a < 0 or c < 0 or not bs or not ds:
            continue
        rel.append(str(row.relation))
        a_out.append(a)
        c_out.append(c)
        b_idx.extend(bs)
        b_ptr.append(len(b_idx))
        d_idx.extend(ds)
        d_ptr.append(len(d_idx))
    counts["covered"] = len(a_out)

    def i64(x):
        return np.asarray(x, dtype=np.int64)

    return IndexedAnalogies(
        np.asarray(rel, dtype=object), i64(a_out), i64(c_out), i64(b_ptr), i64(b_idx), i64(d_ptr), i64(d_idx)
    ), counts


# --------------------------------------------------------------------------------------------------
# Scoring
# --------------------------------------------------------------------------------------------------
def reference_scores(method: str, E: np.ndarray, a: int, bs: Sequence[int], c: int) -> np.ndarray:
    """Scores of every candidate for one analogy by the textbook formula (slow; for checking).

    ``E``: unit candidate vectors. Excluded candidates (a, b, c) get -inf.
    """
    E = np.asarray(E, dtype=np.float64)
    B = E[list(bs)].mean(axis=0)

    def cos(M: np.ndarray, v: np.ndarray) -> np.ndarray:
        den = np.linalg.norm(M, axis=-1) * np.linalg.norm(v)
        return np.divide(M @ v, den, out=np.zeros(len(M)), where=den > 0)

    if method == "3CosAdd":
        s = cos(E, B - E[a] + E[c])
    elif method == "PairwiseDistance":
        s = cos(E - E[c], B - E[a])
    elif method == "3CosMul":

        def sh(v):
            return (cos(E, v) + 1.0) / 2.0

        s = sh(B) * sh(E[c]) / (sh(E[a]) + EPSILON)
    else:
        raise ValueError(f"unknown analogy method {method!r}; expected one of {METHODS}")
    s[[a, c, *bs]] = -np.inf
    return s


GROUP = 64  # columns per top-k group (see top_k_candidates)


class _Workspace:
    """Reusable per-thread buffers for a chunk of analogies (no large allocations per chunk).

    ``S`` is padded to a multiple of :data:`GROUP` columns; the padding stays -inf.
    """

    def __init__(self, rows: int, n: int) -> None:
        self.n = n
        width = -(-n // GROUP) * GROUP
        self.Ca = np.empty((rows, n), dtype=np.float32)
        self.Cb = np.empty((rows, n), dtype=np.float32)
        self.Cc = np.empty((rows, n), dtype=np.float32)
        self.T = np.empty((rows, n), dtype=np.float32)
        self.S_padded = np.full((rows, width), -np.inf, dtype=np.float32)
        self.mask = np.empty((rows, n), dtype=bool)

    def gather(self, buffer: np.ndarray, U: np.ndarray, local: np.ndarray) -> np.ndarray:
        """Rows ``U[local]``: a broadcast view when all equal, else copied into ``buffer``."""
        if (local == local[0]).all():
            return U[local[0]][None, :]
        k = len(local)
        np.take(U, local, axis=0, out=buffer[:k])
        return buffer[:k]


def _chunk_scores(
    method: str,
    Ca: np.ndarray,
    Cb: np.ndarray,
    Cc: np.ndarray,
    S: np.ndarray,
    T: np.ndarray,
    cv: np.ndarray,
    inv_norm_b: np.ndarray,
) -> np.ndarray:
    """Scores of ``method`` into ``S`` [k, n] from Ca = x.a, Cb = x.B, Cc = x.c (rows or broadcast
    rows) for every candidate x; ``T`` is scratch of S's shape."""
    if method == "3CosAdd":
        np.subtract(Cb, Ca, out=S)
        S += Cc
    elif method == "PairwiseDistance":
        # cos(x - c, B - a) up to the row constant |B - a|: (x.B - x.a - c.(B - a)) / |x - c|.
        np.subtract(Cb, Ca, out=S)
        S -= cv[:, None]
        np.multiply(Cc, np.float32(-2.0), out=T)
        T += np.float32(2.0)
        np.maximum(T, np.float32(1e-12), out=T)
        np.sqrt(T, out=T)
        S /= T
    elif method == "3CosMul":
        # ((cos_b + 1)/2)((cos_c + 1)/2) / ((cos_a + 1)/2 + eps) = (1/2)(cos_b + 1)(cos_c + 1) / (cos_a + 1 + 2 eps)
        np.multiply(Cb, inv_norm_b[:, None], out=S)
        S += np.float32(1.0)
        np.add(Cc, np.float32(1.0), out=T)
        S *= T
        np.add(Ca, np.float32(1.0 + 2.0 * EPSILON), out=T)
        S /= T
    else:
        raise ValueError(f"unknown analogy method {method!r}; expected one of {METHODS}")
    return S


def top_k_candidates(S_padded: np.ndarray, n: int, k: int) -> np.ndarray:
    """Indices of the k best of the first ``n`` columns per row, best first, ties by index.

    ``S_padded`` [b, G * 64] holds the scores in columns < n and -inf after. Column j belongs to
    group j mod G; the k groups with the largest maxima (``np.argpartition``-style selection by
    ``np.partition`` on the G maxima) hold the row's k best scores, so only their 64 k members are
    sorted exactly (int64 [b, k]).
    """
    b, width = S_padded.shape
    k = min(k, n)
    out = np.full((b, k), -1, dtype=np.int64)
    if k == 0 or b == 0:
        return out
    groups = width // GROUP
    gmax = S_padded.reshape(b, GROUP, groups).max(axis=1)  # [b, G]: max of columns g, g+G, ...
    kk = min(k, groups)
    bound = np.partition(gmax, groups - kk, axis=1)[:, groups - kk]
    rows, sel = np.nonzero(gmax >= bound[:, None])
    cols = sel[:, None] + groups * np.arange(GROUP)[None, :]
    rows = np.repeat(rows, GROUP)
    cols = cols.ravel()
    vals = S_padded[rows, cols]
    keep = cols < n
    rows, cols, vals = rows[keep], cols[keep], vals[keep]
    order = np.lexsort((cols, -vals, rows))
    rows, cols = rows[order], cols[order]
    first = np.searchsorted(rows, np.arange(b))
    position = np.arange(len(rows)) - first[rows]
    take = position < k
    out[rows[take], position[take]] = cols[take]
    return out


def _answer_ranks(S: np.ndarray, rows: np.ndarray, cols: np.ndarray, mask: np.ndarray) -> np.ndarray:
    """Rank of candidate cols[j] in row rows[j] of S: 1 + #higher + #equal with smaller index."""
    out = np.empty(len(rows), dtype=np.int64)
    for j, (r, d) in enumerate(zip(rows, cols)):
        row, buf = S[r], mask[r]
        s = row[d]
        np.greater_equal(row[:d], s, out=buf[:d])
        np.greater(row[d + 1 :], s, out=buf[d + 1 :])
        out[j] = 1 + np.count_nonzero(buf[:d]) + np.count_nonzero(buf[d + 1 :])
    return out


@dataclass(frozen=True)
class _Group:
    analogies: np.ndarray  # analogy positions, processing order
    rows: np.ndarray  # query-table rows this group needs (sorted)


def _groups(qa: np.ndarray, qb: np.ndarray, qc: np.ndarray, relation_code: np.ndarray, max_rows: int) -> list[_Group]:
    """Cut the analogies, ordered by (relation, B, a, c), into groups needing <= max_rows query rows."""
    order = np.lexsort((qc, qa, qb, relation_code))
    groups: list[_Group] = []
    current: list[int] = []
    rows: set[int] = set()
    for i in order:
        new = {int(qa[i]), int(qb[i]), int(qc[i])} - rows
        if current and len(rows) + len(new) > max_rows:
            groups.append(_Group(np.asarray(current, dtype=np.int64), np.asarray(sorted(rows), dtype=np.int64)))
            current, rows = [], set()
            new = {int(qa[i]), int(qb[i]), int(qc[i])}
        current.append(int(i))
        rows |= new
    if current:
        groups.append(_Group(np.asarray(current, dtype=np.int64), np.asarray(sorted(rows), dtype=np.int64)))
    return groups


def rank_analogies(
    E: np.ndarray,
    analogies: IndexedAnalogies,
    methods: Sequence[str] = METHODS,
    top_k: int = 10,
    block_mb: int = 256,
    workers: int = 1,
    chunk_rows: int | None = None,
    progress: Callable[[int, int], None] | None = None,
) -> Rankings:
    """Rank every candidate for every analogy under each method (see the module docstring).

    The query vectors (a, c and the b means) repeat across analogies (BMASS combines 50 subjects
    per relation), so products are computed once per distinct query vector: analogies are grouped
    so that a group's distinct queries fit ``block_mb``, one matrix product per group gives x.q for
    every candidate x, and the analogies of the group are scored ``chunk_rows`` at a time in
    reusable buffers.

    Args:
        E: unit candidate vectors, float32 [n, dim].
        analogies: from :func:`index_analogies`.
        top_k: how many best candidates to keep per analogy (0: none).
        block_mb: memory budget of one group's products, MB.
        workers: threads scoring groups in parallel (each with single-threaded BLAS).
        chunk_rows: analogies scored at once (default: about 2 million scores per buffer).

    Returns:
        Rankings: ranks aligned with ``analogies.d_idx`` and ``[m, top_k]`` candidate indices.
    """
    for method in methods:
        if method not in METHODS:
            raise ValueError(f"unknown analogy method {method!r}; expected one of {METHODS}")
    E = np.ascontiguousarray(E, dtype=np.float32)
    n = E.shape[0]
    m = len(analogies)
    ranks = {meth: np.zeros(len(analogies.d_idx), dtype=np.int64) for meth in methods}
    top = {meth: np.full((m, min(top_k, n)), -1, dtype=np.int64) for meth in methods}
    if m == 0:
        return Rankings(ranks, top)
    if chunk_rows is None:  # about 2 M scores per chunk buffer: cache-sized for large n, few chunks for small
        chunk_rows = int(min(4096, max(8, 2_000_000 // max(1, n))))
    # Query table: distinct a/c candidates, then distinct b-sets (their mean unit vector).
    b_counts = np.diff(analogies.b_ptr)
    b_sets = [tuple(analogies.b_idx[p : p + k]) for p, k in zip(analogies.b_ptr[:-1], b_counts)]
    b_unique: dict[tuple[int, ...], int] = {}
    qb_local = np.fromiter((b_unique.setdefault(t, len(b_unique)) for t in b_sets), dtype=np.int64, count=m)
    ac = np.unique(np.concatenate([analogies.a, analogies.c]))
    B = np.stack([E[list(t)].astype(np.float64).mean(axis=0) for t in b_unique])
    Q = np.concatenate([E[ac], B.astype(np.float32)])
    qa = np.searchsorted(ac, analogies.a)
    qc = np.searchsorted(ac, analogies.c)
    qb = qb_local + len(ac)
    norm_b = np.linalg.norm(B, axis=1)[qb_local]
    A64, C64 = E[analogies.a].astype(np.float64), E[analogies.c].astype(np.float64)
    cv = np.einsum("ij,ij->i", C64, B[qb_local] - A64).astype(np.float32)
    inv_norm_b = np.divide(1.0, norm_b, out=np.zeros_like(norm_b), where=norm_b > 0).astype(np.float32)
    _, relation_code = np.unique(analogies.relation.astype(str), return_inverse=True)
    max_rows = int(max(3, block_mb * 2**20 // (4 * n)))
    groups = _groups(qa, qb, qc, relation_code, max_rows)
    d_counts = np.diff(analogies.d_ptr)
    b_rows_all = np.repeat(np.arange(m), b_counts)
    log.info("%d analogies, %d candidates: %d distinct query vectors in %d groups", m, n, len(Q), len(groups))
    done = [0]

    def chunks(la: np.ndarray, lb: np.ndarray) -> list[slice]:
        """Runs of equal (a, B) cut into pieces of <= chunk_rows; short pieces merged."""
        change = np.flatnonzero((la[1:] != la[:-1]) | (lb[1:] != lb[:-1])) + 1
        bounds = np.concatenate([[0], change, [len(la)]])
        pieces = []
        for lo, hi in itertools.pairwise(bounds):
            pieces += [(s0, min(s0 + chunk_rows, hi)) for s0 in range(lo, hi, chunk_rows)]
        merged: list[slice] = []
        for lo, hi in pieces:
            if merged and merged[-1].stop == lo and hi - merged[-1].start <= chunk_rows and (hi - lo) < chunk_rows:
                merged[-1] = slice(merged[-1].start, hi)
            else:
                merged.append(slice(lo, hi))
        return merged

    def run(group: _Group, w: _Workspace) -> None:
        U = Q[group.rows] @ E.T
        la = np.searchsorted(group.rows, qa[group.analogies])
        lb = np.searchsorted(group.rows, qb[group.analogies])
        lc = np.searchsorted(group.rows, qc[group.analogies])
        for sl in chunks(la, lb):
            idx = group.analogies[sl]
            k = len(idx)
            Ca = w.gather(w.Ca, U, la[sl])
            Cb = w.gather(w.Cb, U, lb[sl])
            Cc = w.gather(w.Cc, U, lc[sl])
            S = w.S_padded[:k, :n]
            T = w.T[:k]
            # Excluded candidates (a, every b, c) and answers, as (row in chunk, candidate) pairs.
            ex_rows = [np.arange(k), np.arange(k)]
            ex_cols = [analogies.a[idx], analogies.c[idx]]
            ans_rows, ans_cols, ans_pos = [], [], []
            for j, i in enumerate(idx):
                b0, b1 = analogies.b_ptr[i], analogies.b_ptr[i + 1]
                ex_rows.append(np.full(b1 - b0, j))
                ex_cols.append(analogies.b_idx[b0:b1])
                d0, d1 = analogies.d_ptr[i], analogies.d_ptr[i + 1]
                ans_rows.append(np.full(d1 - d0, j))
                ans_cols.append(analogies.d_idx[d0:d1])
                ans_pos.append(np.arange(d0, d1))
            er, ec = np.concatenate(ex_rows), np.concatenate(ex_cols)
            ar, acol, apos = np.concatenate(ans_rows), np.concatenate(ans_cols), np.concatenate(ans_pos)
            for method in methods:
                _chunk_scores(method, Ca, Cb, Cc, S, T, cv[idx], inv_norm_b[idx])
                S[er, ec] = -np.inf
                ranks[method][apos] = _answer_ranks(S, ar, acol, w.mask)
                if top_k:
                    top[method][idx] = top_k_candidates(w.S_padded[:k], n, top_k)
        done[0] += len(group.analogies)
        if progress is not None:
            progress(done[0], m)

    del b_rows_all, d_counts
    with threadpool_limits(limits=1, user_api="blas"):
        if workers <= 1:
            w = _Workspace(chunk_rows, n)
            for group in groups:
                run(group, w)
        else:
            import threading

            local = threading.local()

            def task(group: _Group) -> None:
                if not hasattr(local, "w"):
                    local.w = _Workspace(chunk_rows, n)
                run(group, local.w)

            with ThreadPoolExecutor(max_workers=workers) as pool:
                for _ in pool.map(task, groups):
                    pass
    return Rankings(ranks, top)


# --------------------------------------------------------------------------------------------------
# Measures
# --------------------------------------------------------------------------------------------------
def analogy_measures(ranks: np.ndarray, d_ptr: np.ndarray) -> dict[str, np.ndarray]:
    """Per-analogy AccR, AP and reciprocal rank from answer ranks in CSR layout (float64 [m])."""
    m = len(d_ptr) - 1
    counts = np.diff(d_ptr)
    rows = np.repeat(np.arange(m), counts)
    order = np.lexsort((ranks, rows))
    r = ranks[order].astype(np.float64)
    position = np.arange(len(r)) - np.repeat(d_ptr[:-1], counts) + 1.0  # j within the analogy
    R = np.repeat(counts, counts).astype(np.float64)
    acc_r = np.bincount(rows, weights=(r <= R).astype(np.float64), minlength=m) / np.maximum(counts, 1)
    ap = np.bincount(rows, weights=position / r, minlength=m) / np.maximum(counts, 1)
    first = r[d_ptr[:-1][counts > 0]]
    rr = np.zeros(m)
    rr[counts > 0] = 1.0 / first
    return {"AccR": acc_r, "MAP": ap, "MRR": rr}


def summary_rows(
    model: str,
    dataset: str,
    analogies: IndexedAnalogies,
    rankings: Rankings,
    totals: Mapping[str, int],
) -> list[dict[str, object]]:
    """Result rows per method and measure: one per relation, ``macro`` (mean of relation means)
    and ``all`` (mean over analogies). ``totals``: analogies per relation before coverage."""
    rows = []
    relations = sorted(totals)
    grand_total = sum(totals.values())
    for method in rankings.ranks:
        measures = analogy_measures(rankings.ranks[method], analogies.d_ptr)
        for measure in MEASURES:
            values = measures[measure]
            metric = f"{method}:{measure}"
            per_relation = []
            for relation in relations:
                sel = analogies.relation == relation
                n = int(sel.sum())
                value = float(values[sel].mean()) if n else float("nan")
                if n:
                    per_relation.append(value)
                rows.append(
                    result_row(
                        model,
                        dataset,
                        relation,
                        metric,
                        value,
                        n,
                        n / totals[relation] if totals[relation] else float("nan"),
                    )
                )
            n_all = len(analogies)
            coverage = n_all / grand_total if grand_total else float("nan")
            macro = float(np.mean(per_relation)) if per_relation else float("nan")
            rows.append(result_row(model, dataset, "macro", metric, macro, n_all, coverage))
            rows.append(
                result_row(
                    model, dataset, "all", metric, float(values.mean()) if n_all else float("nan"), n_all, coverage
                )
            )
    return rows


def predictions_frame(
    dataset: str, analogies: IndexedAnalogies, rankings: Rankings, candidates: Sequence[str]
) -> pd.DataFrame:
    """Per covered analogy and method: its rank of the best answer and the top-k candidate keys."""
    frames = []
    cand = np.asarray(candidates, dtype=object)
    counts = np.diff(analogies.d_ptr)
    rows = np.repeat(np.arange(len(analogies)), counts)
    for method in rankings.ranks:
        best = np.full(len(analogies), np.iinfo(np.int64).max, dtype=np.int64)
        np.minimum.at(best, rows, rankings.ranks[method])
        top = rankings.top[method]
        frames.append(
            pd.DataFrame(
                {
                    "dataset": dataset,
                    "method": method,
                    "analogy": np.arange(len(analogies), dtype=np.int64),
                    "relation": analogies.relation,
                    "a": cand[analogies.a],
                    "c": cand[analogies.c],
                    "first_answer_rank": best,
                    "top": [list(cand[t[t >= 0]]) for t in top]
                    if top.shape[1]
                    else [[] for _ in range(len(analogies))],
                }
            )
        )
    return pd.concat(frames, ignore_index=True) if frames else pd.DataFrame()


def log_progress(label: str) -> Callable[[int, int], None]:
    """A progress callback that logs about every 10% (and the end)."""
    start = time.monotonic()
    state = {"next": 0.1}

    def report(done: int, total: int) -> None:
        if done >= total or done / total >= state["next"]:
            state["next"] = math.floor(done / total * 10 + 1) / 10
            log.info("%s: %d / %d analogies ranked (%.0f s)", label, done, total, time.monotonic() - start)

    return report


def analogy_phrases(datasets: Mapping[str, pd.DataFrame], candidate_terms: Sequence[str]) -> list[str]:
    """The phrases a terminology's candidate vocabulary is built from (:func:`build_candidates`): the candidate
    terms, then every a, c, b and d term of the datasets (columns ``a_term, b_terms, c_term, d_terms``)."""
    phrases = list(candidate_terms)
    for frame in datasets.values():
        phrases += list(frame["a_term"]) + list(frame["c_term"])
        phrases += [t for ts in frame["b_terms"] for t in ts] + [t for ts in frame["d_terms"] for t in ts]
    return phrases


def evaluate_analogy_datasets(
    model: Representation,
    datasets: Mapping[str, pd.DataFrame],
    candidate_terms: Sequence[str],
    params: AnalogyParams,
    workers: int = 1,
) -> tuple[list[dict[str, object]], pd.DataFrame]:
    """Scores of one model on analogy datasets sharing one candidate vocabulary.

    ``datasets``: name -> analogies (columns ``relation, a_term, b_terms, c_term, d_terms``);
    ``candidate_terms``: the frequent terms of the terminology; every term of the datasets is added.
    Returns result rows (per relation, ``macro``, ``all``) and top-k predictions.
    """
    phrases = analogy_phrases(datasets, candidate_terms)
    keys, E = build_candidates(model, phrases, params.require_all_words)
    index = {k: i for i, k in enumerate(keys)}
    log.info(
        "%s: %d candidate terms represented (of %d distinct)",
        model.name,
        len(keys),
        len({candidate_key(model, p) for p in phrases}),
    )
    rows: list[dict[str, object]] = []
    predictions = []
    for name in sorted(datasets):
        frame = datasets[name]
        analogies, counts = index_analogies(frame, model, index)
        log.info("%s on %s: %s", model.name, name, ", ".join(f"{k} {v}" for k, v in counts.items()))
        totals = {str(k): int(v) for k, v in frame.groupby("relation").size().items()} if len(frame) else {}
        if not totals:
            continue
        rankings = rank_analogies(
            E,
            analogies,
            params.methods,
            params.top_k,
            params.block_mb,
            workers,
            progress=log_progress(f"{model.name} {name}"),
        )
        summary = summary_rows(model.name, name, analogies, rankings, totals)
        rows += summary
        predictions.append(predictions_frame(name, analogies, rankings, keys))
        for row in summary:
            if row["subset"] == "macro" and str(row["metric"]).endswith(":MAP") and row["n"]:
                log.info(
                    "%s %s %s: macro %.4f over %d analogies", model.name, name, row["metric"], row["value"], row["n"]
                )
    pred = (
        pd.concat(predictions, ignore_index=True)
        if predictions
        else pd.DataFrame(
            {
                "dataset": pd.Series(dtype=object),
                "method": pd.Series(dtype=object),
                "analogy": pd.Series(dtype=np.int64),
                "relation": pd.Series(dtype=object),
                "a": pd.Series(dtype=object),
                "c": pd.Series(dtype=object),
                "first_answer_rank": pd.Series(dtype=np.int64),
                "top": pd.Series(dtype=object),
            }
        )
    )
    return rows, pred
