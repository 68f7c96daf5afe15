#!/usr/bin/env python3
"""Benchmark: all 20 term-pair datasets at SNOMED CT scale, and exact search vs brute force.

1. Reads a synthetic SNOMED-scale RF2 release (``bench/generate_snomed/``), builds the positives and
   the 20 datasets exactly as the workflow does (the joint first search of ``termpairs.joint_search``,
   ``biosem.termpairs.search.search_neighbours``, then ``biosem.termpairs.negatives.build_dataset``), and reports wall
   time per step and the peak RSS of the process.
2. On a 20,000-term subset of the FSN-SYN hard pool, compares ``biosem.levenshtein.index.LevenshteinIndex`` with
   brute-force ``rapidfuzz.process.cdist`` over all pairs: the nearest valid distances must be equal;
   the figure reported is the ratio of wall times (brute / biosem).

Usage::

    python -m bench.generate_snomed --out /tmp/snomed_scale
    python bench/bench_termpairs.py --release /tmp/snomed_scale [--workers 2] [--out bench/out/termpairs.json]
    # one or more datasets alone, without the brute-force comparison:
    python bench/bench_termpairs.py --release /tmp/snomed_scale --skip-subset \
        --datasets fsn_syn_hard_levenshtein --out bench/out/termpairs_fsn_syn_hard.json
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

from biosem.levenshtein.index import LevenshteinIndex, brute_force_nearest
from biosem.seeds import generator
from biosem.terminology.rf2 import read_rf2
from biosem.termpairs.negatives import build_dataset
from biosem.termpairs.params import TermPairParams
from biosem.termpairs.positives import (
    DIFFICULTIES,
    POSITIVE_KINDS,
    STRATEGIES,
    build_positive_pairs,
    similarity_components,
)
from biosem.termpairs.search import search_neighbours


def peak_rss_mb() -> float:
    """Peak resident set size of this process so far, in MB (Linux ru_maxrss is in KiB)."""
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024


def subset_ratio(
    positives: pd.DataFrame, components: pd.DataFrame, n_terms: int, n_queries: int, workers: int
) -> dict[str, float]:
    """Exact nearest search vs brute-force cdist on a subset; asserts identical minimum distances."""
    sel = positives[(positives["kind"] == "fsn_syn") & (positives["difficulty"] == "hard")]
    lower = np.unique(np.concatenate([sel["term1"].str.lower(), sel["term2"].str.lower()]))
    rng = np.random.default_rng(0)
    pool = sorted(rng.choice(lower, size=min(n_terms, lower.size), replace=False).tolist())
    comp = components.set_index("term_lower")["component"].reindex(pool).to_numpy()
    qi = np.sort(rng.choice(len(pool), size=min(n_queries, len(pool)), replace=False))
    queries = [pool[i] for i in qi]
    # Compile the kernels outside the timing (numba caches them on disk, but not across code changes).
    warm = qi[:20]
    LevenshteinIndex(pool[:200], workers=1).nearest(
        [pool[i] for i in warm], np.ones(warm.size, dtype=np.int64), comp[warm], comp[:200], np.random.default_rng(1)
    )
    t0 = time.perf_counter()
    index = LevenshteinIndex(pool, workers=workers)
    res = index.nearest(queries, np.ones(len(queries), dtype=np.int64), comp[qi], comp, np.random.default_rng(1))
    t_biosem = time.perf_counter() - t0
    t0 = time.perf_counter()
    best, _ = brute_force_nearest(queries, pool, comp[qi], comp, workers=workers)
    t_brute = time.perf_counter() - t0
    first = np.searchsorted(res.query, np.arange(len(queries)))
    got = np.where(first < res.query.size, res.distance[np.minimum(first, res.query.size - 1)], -1)
    if not np.array_equal(got, best):
        raise AssertionError("exact search disagrees with brute force")
    return {
        "subset_terms": len(pool),
        "subset_queries": len(queries),
        "biosem_s": round(t_biosem, 2),
        "brute_cdist_s": round(t_brute, 2),
        "speedup_brute_over_biosem": round(t_brute / t_biosem, 2),
        "pairs_verified": int(res.pairs_verified),
        "pairs_brute": len(pool) * len(queries),
    }


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--release", required=True, help="folder of the generated RF2 release")
    ap.add_argument("--workers", type=int, default=2)
    ap.add_argument("--subset-terms", type=int, default=20_000)
    ap.add_argument("--subset-queries", type=int, default=20_000)
    ap.add_argument("--out", default="bench/out/termpairs.json")
    ap.add_argument(
        "--datasets",
        nargs="+",
        metavar="NAME",
        help="build only these datasets (e.g. fsn_syn_hard_levenshtein); default: all 20",
    )
    ap.add_argument("--skip-subset", action="store_true", help="skip the brute-force comparison on the subset")
    ap.add_argument(
        "--joint-search",
        nargs="*",
        default=["fsn_syn", "syn_syn"],
        metavar="KIND",
        help="kinds whose Levenshtein datasets share one first search per difficulty, as the workflow's "
        "termpairs.joint_search (default: fsn_syn syn_syn; none: each dataset searches alone)",
    )
    args = ap.parse_args(argv)
    names = [
        (kind, difficulty, strategy)
        for kind in POSITIVE_KINDS
        for difficulty in DIFFICULTIES
        for strategy in STRATEGIES
    ]
    if args.datasets:
        every = {"_".join(n) for n in names}
        if set(args.datasets) - every:
            unknown = ", ".join(sorted(set(args.datasets) - every))
            ap.error(f"unknown dataset(s): {unknown}; choose from {', '.join(sorted(every))}")
        names = [n for n in names if "_".join(n) in args.datasets]
    report: dict[str, object] = {"release": args.release, "workers": args.workers}
    t_all = time.perf_counter()
    t0 = time.perf_counter()
    tables = read_rf2(args.release, "snomed_scale")
    concepts, terms, assoc = (tables[k].to_pandas() for k in ("concepts", "terms", "associations"))
    report["ingest_s"] = round(time.perf_counter() - t0, 1)
    report["concepts"], report["descriptions"] = len(concepts), len(terms)
    t0 = time.perf_counter()
    positives, _ = build_positive_pairs(concepts, terms, assoc, TermPairParams(synonym_scopes=None))
    components = similarity_components(positives)
    report["positives_s"] = round(time.perf_counter() - t0, 1)
    report["positives"] = positives.groupby(["kind", "difficulty"]).size().rename(lambda x: x).to_dict()
    report["positives"] = {f"{k}_{d}": int(v) for (k, d), v in report["positives"].items()}
    if not args.skip_subset:
        report["subset"] = subset_ratio(positives, components, args.subset_terms, args.subset_queries, args.workers)
    print(json.dumps(report, indent=1), flush=True)
    datasets: dict[str, dict[str, object]] = {}
    report["datasets"] = datasets
    # Smallest first, so that the figures of every other dataset are in hand before the largest
    # Levenshtein datasets run; the report is rewritten after each dataset.
    size = {(k, d): int(((positives["kind"] == k) & (positives["difficulty"] == d)).sum()) for k, d, _ in names}
    names.sort(key=lambda x: (x[2] == "levenshtein", size[x[0], x[1]], x))
    out = Path(args.out)
    out.parent.mkdir(parents=True, exist_ok=True)
    joint: dict[str, dict[str, object]] = {}
    report["joint_search"] = joint
    neighbours: dict[str, pd.DataFrame] = {}
    for kind, difficulty, strategy in names:
        name = f"{kind}_{difficulty}_{strategy}"
        nb = None
        if strategy == "levenshtein" and kind in args.joint_search:
            if difficulty not in neighbours:
                t0 = time.perf_counter()
                neighbours[difficulty], counts = search_neighbours(
                    positives, components, args.joint_search, difficulty, workers=args.workers
                )
                joint[difficulty] = {
                    **counts,
                    "seconds": round(time.perf_counter() - t0, 1),
                    "peak_rss_mb_so_far": round(peak_rss_mb(), 0),
                }
                print("joint search", difficulty, json.dumps(joint[difficulty]), flush=True)
            nb = neighbours[difficulty]
        t0 = time.perf_counter()
        rng = generator(0, "bench", name)
        _, stats = build_dataset(
            positives, components, kind, difficulty, strategy, rng, workers=args.workers, neighbours=nb
        )
        stats["seconds"] = round(time.perf_counter() - t0, 1)
        stats["peak_rss_mb_so_far"] = round(peak_rss_mb(), 0)
        datasets[name] = stats
        print(name, json.dumps(stats), flush=True)
        out.write_text(json.dumps(report, indent=1) + "\n")
    report["datasets"] = datasets
    report["joint_search_total_s"] = round(sum(float(j["seconds"]) for j in joint.values()), 1)  # type: ignore[arg-type]
    report["datasets_total_s"] = round(sum(s["seconds"] for s in datasets.values()), 1)
    report["total_s"] = round(time.perf_counter() - t_all, 1)
    report["peak_rss_mb"] = round(peak_rss_mb(), 0)
    out.write_text(json.dumps(report, indent=1) + "\n")
    print(json.dumps({k: v for k, v in report.items() if k != "datasets"}, indent=1))
    return 0


if __name__ == "__main__":
    sys.exit(main())
