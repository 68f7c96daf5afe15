#!/usr/bin/env python3
"""Benchmark: sharded corpus counting (issue 26): throughput at N = 1 and N = 2 shards, scaling, projection.

Each shard is what one Snakemake job of the workflow does, run here as its own process with one
worker (``threads: 1``), all N shards at once:

* **term counting** (rule ``count_term_frequencies_shard``): the shard's byte range of the text file
  (:func:`biosem.corpora.shards.file_parts`), read in chunks (:func:`biosem.analogies.frequency.part_chunks`)
  in 4 MB chunks (config ``analogies.chunk_mb``) counted by
  :func:`~biosem.analogies.frequency.count_occurrences` with the default backend; the
  automaton of ``--patterns`` normalised terms (built as in ``bench_term_frequency.py``: HPO + GO-slim
  names, word n-grams of real abstracts, term variants) is built in every shard, as in the workflow;
* **word counting** (rule ``count_corpus_words_shard``): the shard's documents of the text file
  (:func:`biosem.simlex.sharding.shard_documents`: one document per line, segmented with pysbd) counted
  by :func:`biosem.simlex.vocabulary.count_corpus` with the default ``simlex.vocabulary`` parameters,
  on the first ``--word-mb`` MB of the text (the whole text would take hours of CPU per run).

The merged counts of N = 2 (summed term counts; :func:`biosem.simlex.sharding.merge_counts`) must equal
those of N = 1 (asserted). Figures: wall time of the whole run (all shards), CPU seconds (user + system
of every shard process), MB/s of text for term counting and word tokens per CPU-second for word
counting; **scaling efficiency** at N = 2 = wall(N = 1) / (2 x wall(N = 2)); and the **projected cluster
time** for ``--project-gb`` GB on ``--project-cores`` cores: the work measured per core at N = 1,
divided by cores x the measured efficiency (one shard per core, shards of equal size; scheduling,
staging and the merge not included: the merge of the N = 2 run is reported).

Usage::

    python bench/generate_abstracts.py --out /tmp/abstracts-2g.txt --size-gb 2.0
    python bench/bench_corpus_shards.py --text /tmp/abstracts-2g.txt [--out bench/out/corpus_shards.json]
"""

from __future__ import annotations

import argparse
import json
import os
import pickle
import resource
import subprocess
import sys
import tempfile
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent


def cpu_seconds() -> float:
    usage = resource.getrusage(resource.RUSAGE_SELF)
    return usage.ru_utime + usage.ru_stime


def peak_rss_gb() -> float:
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 2**20


# --------------------------------------------------------------------------------------------------
# One shard (a subprocess)


def shard_terms(text: Path, patterns_file: Path, index: int, n: int, out: Path) -> dict:
    import numpy as np

    from biosem.analogies.frequency import count_occurrences, part_chunks, resolve_backend
    from biosem.corpora.shards import file_parts

    patterns = pickle.loads(patterns_file.read_bytes())
    chunks = (chunk for part in file_parts([str(text)], index, n) for chunk in part_chunks(part, 4 * 2**20))
    counts, run = count_occurrences(patterns, chunks, workers=1, backend=resolve_backend("auto"))
    np.save(out, counts)
    return {"mb": run["bytes"] / 1e6, "matches": int(run["matches"])}


def shard_words(text: Path, index: int, n: int, out: Path) -> dict:
    from biosem.io import write_table
    from biosem.simlex.sharding import PARTIAL_COUNTS, counts_table, shard_documents
    from biosem.simlex.vocabulary import VocabularyParams, configure_nltk_data, count_corpus

    configure_nltk_data([])
    documents, parts = shard_documents([], [str(text)], index, n)
    counts = count_corpus(documents, VocabularyParams(), workers=1)
    write_table(counts_table(counts), out, PARTIAL_COUNTS)
    size = sum((text.stat().st_size if p.end is None else p.end) - p.start for p in parts)
    return {"documents": counts.documents, "word_tokens": counts.word_tokens, "mb": size / 1e6}


def worker(args: argparse.Namespace) -> int:
    wall0, cpu0 = time.perf_counter(), cpu_seconds()
    if args.kind == "terms":
        result = shard_terms(args.text, args.patterns_file, args.index, args.n, args.partial)
    else:
        result = shard_words(args.text, args.index, args.n, args.partial)
    result |= {"wall_s": time.perf_counter() - wall0, "cpu_s": cpu_seconds() - cpu0, "peak_rss_gb": peak_rss_gb()}
    print(json.dumps(result))
    return 0


# --------------------------------------------------------------------------------------------------
# Runs


def run_shards(kind: str, text: Path, n: int, work: Path, patterns_file: Path | None) -> dict:
    """Start the N shard processes together; wait for all; return their results and the run's wall time."""
    procs = []
    start = time.perf_counter()
    for index in range(n):
        partial = work / f"{kind}-{index + 1}-of-{n}.{'npy' if kind == 'terms' else 'parquet'}"
        cmd = [sys.executable, __file__, "--worker", kind, "--text", str(text), "--index", str(index)]
        cmd += ["--n", str(n), "--partial", str(partial)]
        if patterns_file is not None:
            cmd += ["--patterns-file", str(patterns_file)]
        procs.append((partial, subprocess.Popen(cmd, stdout=subprocess.PIPE, text=True)))
    shards = []
    for partial, proc in procs:
        out, _ = proc.communicate()
        if proc.returncode:
            raise SystemExit(f"shard {partial.name} failed with exit code {proc.returncode}")
        shards.append(json.loads(out.strip().splitlines()[-1]) | {"partial": str(partial)})
    wall = time.perf_counter() - start
    return {"n": n, "wall_s": wall, "cpu_s": sum(s["cpu_s"] for s in shards), "shards": shards}


def merged_terms(run: dict):
    import numpy as np

    return sum(np.load(s["partial"]) for s in run["shards"])


def merged_words(run: dict):
    from biosem.io import read_table
    from biosem.simlex.sharding import merge_counts

    start = time.perf_counter()
    merged = merge_counts(read_table(s["partial"]) for s in run["shards"])
    run["merge_s"] = time.perf_counter() - start
    return merged


def text_slice(text: Path, mb: float, out: Path) -> Path:
    """The first ``mb`` MB of ``text``, cut after a line end."""
    with text.open("rb") as src:
        head = src.read(int(mb * 1e6))
        head += src.readline()
    out.write_bytes(head)
    return out


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--text", type=Path, required=True, help="one abstract per line, plain text")
    parser.add_argument("--patterns", type=int, default=1_000_000)
    parser.add_argument("--ngrams", type=int, default=100_000)
    parser.add_argument("--word-mb", type=float, default=24.0, help="text for the word-counting runs")
    parser.add_argument("--project-gb", type=float, default=30.0)
    parser.add_argument("--project-cores", type=int, default=100)
    parser.add_argument("--skip", choices=("terms", "words"), action="append", default=[])
    parser.add_argument("--out", type=Path, default=Path("bench/out/corpus_shards.json"))
    # Worker mode (internal).
    parser.add_argument("--worker", choices=("terms", "words"), dest="kind", help=argparse.SUPPRESS)
    parser.add_argument("--index", type=int, help=argparse.SUPPRESS)
    parser.add_argument("--n", type=int, help=argparse.SUPPRESS)
    parser.add_argument("--partial", type=Path, help=argparse.SUPPRESS)
    parser.add_argument("--patterns-file", type=Path, help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    if args.kind:
        return worker(args)

    import numpy as np

    project_mb = args.project_gb * 1e3
    report: dict = {"text": str(args.text), "text_mb": args.text.stat().st_size / 1e6, "cpus": os.cpu_count()}
    with tempfile.TemporaryDirectory(prefix="bench-shards-") as tmp:
        work = Path(tmp)
        if "terms" not in args.skip:
            sys.path.insert(0, str(HERE))
            from bench_term_frequency import build_patterns

            patterns, kinds = build_patterns(args.patterns, args.ngrams, seed=1)
            patterns_file = work / "patterns.pickle"
            patterns_file.write_bytes(pickle.dumps(patterns))
            runs = {n: run_shards("terms", args.text, n, work, patterns_file) for n in (1, 2)}
            equal = bool(np.array_equal(merged_terms(runs[1]), merged_terms(runs[2])))
            assert equal, "term counts differ between N = 1 and N = 2"
            mb = sum(s["mb"] for s in runs[1]["shards"])
            efficiency = runs[1]["wall_s"] / (2 * runs[2]["wall_s"])
            core_mb_per_s = mb / runs[1]["wall_s"]
            report["terms"] = {
                "patterns": len(patterns),
                "pattern_kinds": kinds,
                "mb": mb,
                "runs": {str(n): run | {"mb_per_s": mb / run["wall_s"]} for n, run in runs.items()},
                "counts_equal": equal,
                "scaling_efficiency": efficiency,
                "projected_hours": project_mb / (core_mb_per_s * args.project_cores * efficiency) / 3600,
            }
            print(json.dumps({"terms": report["terms"]}, indent=1), flush=True)
        if "words" not in args.skip:
            part = text_slice(args.text, args.word_mb, work / "slice.txt")
            runs = {n: run_shards("words", part, n, work, None) for n in (1, 2)}
            one, two = merged_words(runs[1]), merged_words(runs[2])
            equal = one == two  # every field of CorpusCounts
            assert equal, "word counts differ between N = 1 and N = 2"
            tokens = one.word_tokens
            mb = part.stat().st_size / 1e6
            efficiency = runs[1]["wall_s"] / (2 * runs[2]["wall_s"])
            tokens_per_cpu_s = tokens / runs[1]["cpu_s"]
            projected_tokens = tokens / mb * project_mb
            report["words"] = {
                "mb": mb,
                "documents": one.documents,
                "word_tokens": tokens,
                "runs": {
                    str(n): run | {"word_tokens_per_cpu_s": tokens / run["cpu_s"], "mb_per_s": mb / run["wall_s"]}
                    for n, run in runs.items()
                },
                "counts_equal": equal,
                "scaling_efficiency": efficiency,
                "projected_word_tokens": projected_tokens,
                "projected_hours": projected_tokens
                / (tokens / runs[1]["wall_s"] * args.project_cores * efficiency)
                / 3600,
                "projected_cpu_hours": projected_tokens / tokens_per_cpu_s / 3600,
            }
            print(json.dumps({"words": report["words"]}, indent=1), flush=True)
    report["project"] = {"gb": args.project_gb, "cores": args.project_cores}
    args.out.parent.mkdir(parents=True, exist_ok=True)
    args.out.write_text(json.dumps(report, indent=1) + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
