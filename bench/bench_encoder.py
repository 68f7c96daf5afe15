#!/usr/bin/env python3
"""Benchmark: sentence-encoder throughput (strings per second) by batch size.

Encodes the same sample of distinct term strings (``term1`` and ``term2`` of the term-pair datasets of a
built checkout, sorted, every k-th taken so that short and long terms are both in it) with a local
sentence-transformers model at each batch size, interleaved over ``--repeat`` rounds, as
:class:`biosem.evaluate.models.SentenceEncoder` does in ``encode_strings``. Reports, per batch size, the
median strings per second and the string count; torch's intra-op threads are ``--threads``.

Usage::

    python bench/bench_encoder.py MODEL_FOLDER --results results/datasets/termpairs/mesh \
        [--strings 4000] [--batch-sizes 32 64 128 256] [--repeat 3] [--threads 2] [--out F.json]
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import time
from pathlib import Path

import numpy as np
import pandas as pd


def sample_strings(folder: Path, n: int) -> list[str]:
    """``n`` distinct term strings of the term-pair datasets (``*.parquet`` with ``term1``/``term2``) under
    ``folder``, evenly spaced over their sorted order."""
    terms: set[str] = set()
    for path in sorted(folder.glob("*.parquet")):
        columns = pd.read_parquet(path).columns
        if {"term1", "term2"} <= set(columns):
            frame = pd.read_parquet(path, columns=["term1", "term2"])
            terms.update(frame["term1"].dropna())
            terms.update(frame["term2"].dropna())
    ordered = sorted(terms)
    if not ordered:
        sys.exit(f"{folder}: no term-pair dataset (a .parquet with term1 and term2)")
    step = max(1, len(ordered) // n)
    return ordered[::step][:n]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("model", help="local sentence-transformers folder")
    parser.add_argument("--results", type=Path, required=True, help="a term-pair dataset folder")
    parser.add_argument("--strings", type=int, default=4000)
    parser.add_argument("--batch-sizes", type=int, nargs="+", default=[32, 64, 128, 256])
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--threads", type=int, default=2)
    parser.add_argument("--out", type=Path)
    args = parser.parse_args(argv)

    import torch
    from sentence_transformers import SentenceTransformer

    torch.set_num_threads(args.threads)
    strings = sample_strings(args.results, args.strings)
    model = SentenceTransformer(args.model, device="cpu", local_files_only=True)
    model.encode(strings[:64], batch_size=64, show_progress_bar=False)  # warm-up
    rates: dict[int, list[float]] = {b: [] for b in args.batch_sizes}
    for round_ in range(args.repeat):
        for batch in args.batch_sizes:
            start = time.perf_counter()
            vectors = model.encode(strings, batch_size=batch, convert_to_numpy=True, show_progress_bar=False)
            seconds = time.perf_counter() - start
            assert np.asarray(vectors).shape[0] == len(strings)
            rates[batch].append(len(strings) / seconds)
            print(f"round {round_ + 1} batch {batch}: {len(strings) / seconds:.0f} strings/s", file=sys.stderr)
    mean_chars = float(np.mean([len(s) for s in strings]))
    summary = {
        "model": args.model,
        "strings": len(strings),
        "mean_characters": round(mean_chars, 1),
        "threads": args.threads,
        "torch": torch.__version__,
        "strings_per_second": {str(b): round(statistics.median(r), 1) for b, r in rates.items()},
    }
    print(json.dumps(summary, indent=2))
    if args.out:
        args.out.parent.mkdir(parents=True, exist_ok=True)
        args.out.write_text(json.dumps(summary, indent=2) + "\n")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
