#!/usr/bin/env python3
"""Benchmark: BioWiC candidate pairs on a MedMentions-scale corpus (>= 60,000 sentences).

Runs the workflow's steps on the corpus written by ``bench/generate_wic.py``: concept unification and
mention choice, candidate pairs by blocking (the step the reference runs as a 1.8-billion-pair Python
loop), and the splits; reports wall time per step and the peak RSS of the process. For the ratio, a
re-implementation of the reference's per-pair test (lowercase / lemma / initials / term-index checks
and its numpy Levenshtein-ratio matrix) is timed on a random sample of sentence pairs and extrapolated
to all N (N - 1) / 2 pairs.

Resampling repeats the corpora's terms, so the resampled corpus has fewer distinct terms than a real
MedMentions-scale one. The label-similarity search is the part that grows with the vocabulary; with
``--extra-terms`` (a Parquet file with a ``term`` column, e.g. the HPO ``terms`` intermediate) it is also
timed alone on ``--vocabulary`` distinct lowercase strings (corpus mentions first, then extra terms).

Usage::

    python bench/generate_wic.py --intermediate results/intermediate --out /tmp/wic_scale
    python bench/bench_wic.py --corpus /tmp/wic_scale [--workers 2] [--cap 1000] \
        [--extra-terms results/intermediate/terms/hpo.parquet --vocabulary 30000] [--out bench/out/wic.json]
"""

from __future__ import annotations

import argparse
import json
import resource
import sys
import time
from pathlib import Path

import numpy as np
import pandas as pd

from biosem.seeds import generator
from biosem.wic.candidates import CandidateParams, build_candidates, label_similarity_term_pairs
from biosem.wic.concepts import select_mentions, unify_concepts
from biosem.wic.lexical import configure_nltk_data
from biosem.wic.splits import SplitParams, split_candidates


def peak_rss_mb() -> float:
    """Peak resident set size of this process so far, in MB (Linux ru_maxrss is in KiB)."""
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024


def _reference_ratio(s: str, t: str) -> float:
    """The reference's Levenshtein ratio: a numpy DP matrix with substitution cost 2."""
    rows, cols = len(s) + 1, len(t) + 1
    d = np.zeros((rows, cols), dtype=int)
    d[:, 0] = np.arange(rows)
    d[0, :] = np.arange(cols)
    for c in range(1, cols):
        for r in range(1, rows):
            cost = 0 if s[r - 1] == t[c - 1] else 2
            d[r][c] = min(d[r - 1][c] + 1, d[r][c - 1] + 1, d[r - 1][c - 1] + cost)
    return ((len(s) + len(t)) - d[rows - 1][cols - 1]) / (len(s) + len(t))


def reference_pair_seconds(
    selected: pd.DataFrame, term_index: dict[str, set[str]], n_pairs: int, seed: int = 0
) -> float:
    """Mean seconds per sentence pair of the reference's all-pairs test, on a random sample."""
    rng = np.random.default_rng(seed)
    a = rng.integers(0, len(selected), n_pairs)
    b = rng.integers(0, len(selected), n_pairs)
    terms = selected["term_lower"].tolist()
    lem = selected["lemma"].tolist()
    hits = 0
    t0 = time.perf_counter()
    for i, j in zip(a.tolist(), b.tolist()):
        t1, t2 = terms[i], terms[j]
        if lem[i] == lem[j] or t1 == t2:
            continue
        if "".join(w[0] for w in t1.split()) == t2 or "".join(w[0] for w in t2.split()) == t1:
            continue
        if term_index.get(t1, set()) & term_index.get(t2, set()):
            continue
        hits += _reference_ratio(t1, t2) > 0.75
    return (time.perf_counter() - t0) / n_pairs


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--corpus", required=True, help="output folder of bench/generate_wic.py")
    ap.add_argument("--workers", type=int, default=2)
    ap.add_argument("--cap", type=int, default=1000, help="max_pairs_per_block (0: no cap)")
    ap.add_argument("--threshold", type=float, default=0.75)
    ap.add_argument("--reference-sample", type=int, default=2000)
    ap.add_argument("--extra-terms", help="Parquet with a 'term' column to widen the vocabulary benchmark")
    ap.add_argument("--vocabulary", type=int, default=30_000)
    ap.add_argument(
        "--nltk-data",
        default=str(Path(__file__).resolve().parents[2] / "shared" / "data" / "nltk_data"),
    )
    ap.add_argument("--out", default="bench/out/wic.json")
    args = ap.parse_args(argv)
    configure_nltk_data([args.nltk_data])
    root = Path(args.corpus)
    report: dict[str, object] = {
        "corpus": str(root),
        "workers": args.workers,
        "cap": args.cap,
        "threshold": args.threshold,
    }
    t_all = time.perf_counter()
    sentences = pd.read_parquet(root / "sentences" / "resampled.parquet")
    mentions = pd.read_parquet(root / "mentions" / "resampled.parquet")
    report["sentences"], report["mentions"] = len(sentences), len(mentions)

    t0 = time.perf_counter()
    selected, corpus_terms, _ = select_mentions(sentences, unify_concepts(mentions), seed=0)
    report["select_s"] = round(time.perf_counter() - t0, 1)
    report["selected_sentences"] = len(selected)
    report["distinct_terms"] = int(selected["term_lower"].nunique())
    report["distinct_concepts"] = int(selected["concept_id"].nunique())

    term_sets = corpus_terms[corpus_terms["documents"] >= 2]
    params = CandidateParams(
        label_similarity_threshold=args.threshold,
        max_pairs_per_block=args.cap or None,
        workers=args.workers,
    )
    t0 = time.perf_counter()
    candidates, counts, stats = build_candidates(selected, term_sets, params, generator(0, "bench", "candidates"))
    report["candidates_s"] = round(time.perf_counter() - t0, 1)
    report["candidates_peak_rss_mb"] = round(peak_rss_mb())
    report["blocking"] = stats
    report["candidate_sentence_pairs"] = len(candidates)
    report["counts"] = {
        f"{r['group']}_{r['label']}": {k: int(v) for k, v in r.items() if k not in ("group", "label")}
        for r in counts.to_dict("records")
    }
    print(json.dumps({k: v for k, v in report.items() if k != "counts"}, indent=1), flush=True)

    t0 = time.perf_counter()
    result = split_candidates(candidates, selected, SplitParams(quota_policy="scale"), generator(0, "bench", "split"))
    report["split_s"] = round(time.perf_counter() - t0, 1)
    report["split_sizes"] = {k: int(v.size) for k, v in result.indices.items()}
    report["split_quotas"] = result.quotas
    report["total_s"] = round(time.perf_counter() - t_all, 1)
    report["peak_rss_mb"] = round(peak_rss_mb())

    if args.extra_terms:
        own = mentions["text"].str.lower().drop_duplicates()
        extra = pd.read_parquet(args.extra_terms, columns=["term"])["term"].str.lower().drop_duplicates()
        vocab = pd.concat([own, extra[~extra.isin(set(own))]]).head(args.vocabulary)
        terms = np.array(sorted(vocab), dtype=object)
        t0 = time.perf_counter()
        found = label_similarity_term_pairs(terms, args.threshold, args.workers)
        report["vocabulary"] = {
            "distinct_terms": int(terms.size),
            "label_similarity_s": round(time.perf_counter() - t0, 1),
            "term_pairs_found": len(found),
            "term_pairs_all": int(terms.size * (terms.size - 1) // 2),
        }
        report["peak_rss_mb"] = round(peak_rss_mb())

    n = len(selected)
    all_pairs = n * (n - 1) // 2
    index: dict[str, set[str]] = {}
    for c, t in zip(term_sets["concept_id"], term_sets["term_lower"]):
        index.setdefault(t, set()).add(c)
    per_pair = reference_pair_seconds(selected, index, args.reference_sample)
    report["reference"] = {
        "all_sentence_pairs": all_pairs,
        "sampled_pairs": args.reference_sample,
        "seconds_per_pair": per_pair,
        "extrapolated_hours": round(per_pair * all_pairs / 3600, 1),
        "ratio_reference_over_biosem_candidates": round(per_pair * all_pairs / max(report["candidates_s"], 0.1)),
    }
    Path(args.out).parent.mkdir(parents=True, exist_ok=True)
    Path(args.out).write_text(json.dumps(report, indent=1) + "\n")
    print(json.dumps({k: v for k, v in report.items() if k not in ("counts", "blocking")}, indent=1))
    return 0


if __name__ == "__main__":
    sys.exit(main())
