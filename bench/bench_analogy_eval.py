#!/usr/bin/env python3
"""Benchmark: analogy evaluation at BMASS scale (61,250 analogies x 230,000 candidates x 200 dims).

Random unit vectors (float32) stand in for the candidate vocabulary (BMASS: 229,898 phrases). The
analogies have BMASS's shape: 25 relations, 50 subjects per relation, every ordered pair of distinct
subjects (50 x 49 = 2,450 per relation), each subject with 1-3 objects (All-Info: every b and every
d), so a, b and c repeat exactly as in the real dataset. All three methods (3CosAdd,
PairwiseDistance, 3CosMul) are run with exact ranks of every answer (AccR, MAP, MRR) and the top 10
candidates per analogy, as ``evaluate_analogies`` does. Reports wall time per step and peak RSS.

A check run (``--check 200``) compares the ranks and top-10 of that many analogies with the
textbook formulas (:func:`biosem.evaluate.analogies.reference_scores`) first.

Usage::

    python bench/bench_analogy_eval.py [--workers 2] [--candidates 230000] [--dim 200] \
        [--relations 25] [--subjects 50] [--out bench/out/analogy_eval.json]
"""

from __future__ import annotations

import argparse
import json
import resource
import sys
import time
from pathlib import Path

import numpy as np

from biosem.evaluate.analogies import (
    METHODS,
    IndexedAnalogies,
    analogy_measures,
    rank_analogies,
    reference_scores,
)


def peak_rss_mb() -> float:
    """Peak resident set size of this process so far, in MB (Linux ru_maxrss is in KiB)."""
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024


def random_unit_vectors(n: int, dim: int, rng: np.random.Generator, block: int = 50_000) -> np.ndarray:
    out = np.empty((n, dim), dtype=np.float32)
    for start in range(0, n, block):
        v = rng.standard_normal((min(block, n - start), dim), dtype=np.float32)
        v /= np.linalg.norm(v, axis=1, keepdims=True)
        out[start : start + len(v)] = v
    return out


def bmass_shaped(n: int, relations: int, subjects: int, rng: np.random.Generator) -> IndexedAnalogies:
    """All-Info analogies: per relation, subjects with 1-3 objects, every ordered subject pair."""
    rel, a, c, b_idx, b_ptr, d_idx, d_ptr = [], [], [], [], [0], [], [0]
    for r in range(relations):
        ids = rng.choice(n, size=subjects * 4, replace=False)
        subj = ids[:subjects]
        objs = [ids[subjects + 3 * i : subjects + 3 * i + rng.integers(1, 4)] for i in range(subjects)]
        for i in range(subjects):
            for j in range(subjects):
                if i == j:
                    continue
                rel.append(f"R{r}")
                a.append(subj[i])
                c.append(subj[j])
                b_idx.extend(objs[i])
                b_ptr.append(len(b_idx))
                d_idx.extend(objs[j])
                d_ptr.append(len(d_idx))

    def arr(x):
        return np.asarray(x, dtype=np.int64)

    return IndexedAnalogies(
        np.asarray(rel, dtype=object), arr(a), arr(c), arr(b_ptr), arr(b_idx), arr(d_ptr), arr(d_idx)
    )


def check(E: np.ndarray, analogies: IndexedAnalogies, count: int, workers: int, tol: float = 1e-5) -> int:
    """Ranks and top-10 of the first ``count`` analogies against the textbook formulas (float64).

    The fast path scores in float32, so a rank may differ from the float64 reference only among
    candidates whose reference scores lie within ``tol`` of the answer's.
    """
    sub = IndexedAnalogies(
        analogies.relation[:count],
        analogies.a[:count],
        analogies.c[:count],
        analogies.b_ptr[: count + 1],
        analogies.b_idx[: analogies.b_ptr[count]],
        analogies.d_ptr[: count + 1],
        analogies.d_idx[: analogies.d_ptr[count]],
    )
    got = rank_analogies(E, sub, METHODS, top_k=10, workers=workers)
    E64 = E.astype(np.float64)
    for method in METHODS:
        for i in range(count):
            bs = sub.b_idx[sub.b_ptr[i] : sub.b_ptr[i + 1]]
            s = reference_scores(method, E64, int(sub.a[i]), list(bs), int(sub.c[i]))
            ds = sub.d_idx[sub.d_ptr[i] : sub.d_ptr[i + 1]]
            ranks = got.ranks[method][sub.d_ptr[i] : sub.d_ptr[i + 1]]
            for d, r in zip(ds, ranks):
                lo = 1 + np.count_nonzero(s > s[d] + tol)
                hi = np.count_nonzero(s >= s[d] - tol)
                if not lo <= r <= hi:
                    raise AssertionError(f"{method}: analogy {i} answer rank {r} outside reference [{lo}, {hi}]")
            best = np.sort(s)[::-1][:10]
            if not np.allclose(s[got.top[method][i]], best, atol=tol, rtol=0):
                raise AssertionError(f"{method}: top-10 of analogy {i} differs from the reference")
    return count


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--workers", type=int, default=2)
    ap.add_argument("--candidates", type=int, default=230_000)
    ap.add_argument("--dim", type=int, default=200)
    ap.add_argument("--relations", type=int, default=25)
    ap.add_argument("--subjects", type=int, default=50)
    ap.add_argument("--top-k", type=int, default=10)
    ap.add_argument("--block-mb", type=int, default=256)
    ap.add_argument("--check", type=int, default=200, help="analogies checked against the reference (0: none)")
    ap.add_argument("--out", default="bench/out/analogy_eval.json")
    args = ap.parse_args(argv)
    rng = np.random.default_rng(20170801)
    report: dict[str, object] = vars(args).copy()
    t0 = time.perf_counter()
    E = random_unit_vectors(args.candidates, args.dim, rng)
    analogies = bmass_shaped(args.candidates, args.relations, args.subjects, rng)
    report["analogies"] = len(analogies)
    report["answers"] = len(analogies.d_idx)
    report["setup_s"] = round(time.perf_counter() - t0, 2)
    if args.check:
        t0 = time.perf_counter()
        report["checked_against_reference"] = check(E, analogies, args.check, args.workers)
        report["check_s"] = round(time.perf_counter() - t0, 2)
    t0 = time.perf_counter()
    rankings = rank_analogies(E, analogies, METHODS, top_k=args.top_k, block_mb=args.block_mb, workers=args.workers)
    report["rank_s"] = round(time.perf_counter() - t0, 2)
    t0 = time.perf_counter()
    for method in METHODS:
        measures = analogy_measures(rankings.ranks[method], analogies.d_ptr)
        report[f"{method}_MAP"] = round(float(measures["MAP"].mean()), 6)
    report["measures_s"] = round(time.perf_counter() - t0, 2)
    report["peak_rss_mb"] = round(peak_rss_mb(), 1)
    out = Path(args.out)
    out.parent.mkdir(parents=True, exist_ok=True)
    out.write_text(json.dumps(report, indent=1) + "\n")
    json.dump(report, sys.stdout, indent=1)
    print()
    return 0


if __name__ == "__main__":
    sys.exit(main())
