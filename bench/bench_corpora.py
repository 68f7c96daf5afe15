#!/usr/bin/env python3
"""Benchmark: PubTator ingestion (read, check, pysbd segmentation) of the real and a MedMentions-scale corpus.

Times ``biosem.corpora.ingest.ingest_corpus`` on BC5CDR and NCBI Disease from the source mirror, then on
a MedMentions-scale corpus (default 4,392 abstracts, the size of MedMentions ST21pv) resampled from the
real BC5CDR and NCBI Disease documents (seeded; PMIDs renumbered, split lists written beside it), with
1 and ``--workers`` segmentation processes. Reports wall time, documents per second and peak RSS, and
checks that the outputs do not depend on the number of processes.

Usage::

    python bench/bench_corpora.py [--mirror ../shared/data] [--documents 4392] [--workers 2] \
        [--out bench/out/corpora.json]
"""

from __future__ import annotations

import argparse
import json
import resource
import sys
import tempfile
import time
from pathlib import Path

from biosem.corpora.ingest import ingest_corpus
from biosem.corpora.pubtator import read_pubtator
from biosem.corpora.sentences import Segmenter
from biosem.seeds import generator


def peak_rss_mb() -> float:
    """Peak resident memory of this process or of its largest worker, in MB."""
    own = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    workers = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss
    return max(own, workers) / 1024


def real_corpora(mirror: Path) -> dict[str, dict[str, Path]]:
    cdr = mirror / "bc5cdr"
    ncbi = mirror / "ncbi-disease"
    return {
        "bc5cdr": {
            "train": cdr / "CDR_TrainingSet.PubTator.txt",
            "dev": cdr / "CDR_DevelopmentSet.PubTator.txt",
            "test": cdr / "CDR_TestSet.PubTator.txt",
        },
        "ncbi_disease": {
            "train": ncbi / "NCBItrainset_corpus.txt",
            "dev": ncbi / "NCBIdevelopset_corpus.txt",
            "test": ncbi / "NCBItestset_corpus.txt",
        },
    }


def resampled_corpus(mirror: Path, n: int, folder: Path) -> tuple[Path, dict[str, Path]]:
    """A PubTator file of ``n`` documents drawn (seeded) from BC5CDR + NCBI, with 60/20/20 split lists."""
    blocks = []
    for files in real_corpora(mirror).values():
        for path in files.values():
            for doc in read_pubtator(path):
                d = doc.document
                blocks.append(
                    (
                        d.title,
                        d.abstract,
                        [(a.start, a.end, a.text, a.type, a.id) for a in d.annotations],
                    )
                )
    rng = generator(0, "bench_corpora")
    picks = rng.integers(0, len(blocks), size=n)
    out = folder / "corpus_pubtator.txt"
    pmids = [str(90_000_000 + i) for i in range(n)]
    with out.open("w", encoding="utf-8") as fh:
        for pmid, k in zip(pmids, picks.tolist(), strict=True):
            title, abstract, anns = blocks[k]
            fh.write(f"{pmid}|t|{title}\n{pmid}|a|{abstract}\n")
            for a in anns:
                fh.write("\t".join([pmid, str(a[0]), str(a[1]), a[2], a[3], a[4]]) + "\n")
            fh.write("\n")
    cut1, cut2 = int(n * 0.6), int(n * 0.8)
    lists = {}
    for split, ids in (("train", pmids[:cut1]), ("dev", pmids[cut1:cut2]), ("test", pmids[cut2:])):
        lists[split] = folder / f"pmids_{split}.txt"
        lists[split].write_text("\n".join(ids) + "\n", encoding="utf-8")
    return out, lists


def timed(label: str, results: dict, **kwargs) -> object:
    start = time.perf_counter()
    tables = ingest_corpus(**kwargs)
    wall = time.perf_counter() - start
    docs = len(tables.documents)
    results[label] = {
        "documents": docs,
        "sentences": len(tables.sentences),
        "mentions": len(tables.mentions),
        "wall_s": round(wall, 2),
        "documents_per_s": round(docs / wall, 1),
        "peak_rss_mb": round(peak_rss_mb(), 1),
    }
    print(label, json.dumps(results[label]), flush=True)
    return tables


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--mirror", type=Path, default=Path("../shared/data"))
    parser.add_argument("--documents", type=int, default=4392)
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--out", type=Path, default=Path("bench/out/corpora.json"))
    args = parser.parse_args(argv)
    seg = Segmenter()
    results: dict[str, dict] = {}
    for name, files in real_corpora(args.mirror).items():
        for procs in sorted({1, args.workers}):
            timed(
                f"{name} x{procs}",
                results,
                name=name,
                files=files,
                namespace="MESH",
                segmenter=seg,
                processes=procs,
            )
    with tempfile.TemporaryDirectory() as tmp:
        corpus, lists = resampled_corpus(args.mirror, args.documents, Path(tmp))
        outputs = []
        for procs in sorted({1, args.workers}):
            tables = timed(
                f"resampled {args.documents} x{procs}",
                results,
                name="resampled",
                files={"all": corpus},
                namespace="MESH",
                segmenter=seg,
                split_lists=lists,
                processes=procs,
            )
            outputs.append(tables.sentences)
        results["identical_across_processes"] = all(o.equals(outputs[0]) for o in outputs)
    args.out.parent.mkdir(parents=True, exist_ok=True)
    args.out.write_text(json.dumps(results, indent=2) + "\n", encoding="utf-8")
    return 0 if results["identical_across_processes"] else 1


if __name__ == "__main__":
    sys.exit(main())
