#!/usr/bin/env python3
"""Generate a MedMentions-scale corpus for the BioWiC benchmark by resampling the real corpora.

BioWiC (Rouhizadeh et al. 2024) pairs ~60,000 selected sentences from MedMentions ST21pv, BC5CDR and
NCBI Disease (the reference compares 1.8 billion sentence pairs). The full MedMentions corpus is not in
the mirror, so this script builds a corpus of at least ``--sentences`` sentences from the corpora
intermediates the workflow wrote (``results/intermediate/{sentences,mentions}/<corpus>.parquet``):
documents are drawn with replacement (seeded); the ``r``-th copy of a document gets the id
``<PMID>-r<r>`` and, for ``r > 0``, the suffix `` [r<r>]`` on each sentence so that sentence texts stay
unique (biosem keeps one copy of a repeated sentence). Mention offsets are sentence-relative and stay
valid. Term and concept frequencies scale with the number of copies, so the identity blocks are
larger than in a real corpus of that size: a pessimistic benchmark.

Output: ``<out>/{sentences,mentions}/resampled.parquet`` in the corpora schema. Deterministic.

Usage::

    python bench/generate_wic.py --intermediate results/intermediate --out /tmp/wic_scale [--sentences 60000]
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

import numpy as np
import pandas as pd


def resample(
    sentences: pd.DataFrame,
    mentions: pd.DataFrame,
    target: int,
    seed: int = 0,
    corpus: str = "resampled",
) -> tuple[pd.DataFrame, pd.DataFrame]:
    """Documents drawn with replacement until at least ``target`` sentences (see module docstring)."""
    keys = ["corpus", "document_id"]
    docs = sentences[keys].drop_duplicates().sort_values(keys).reset_index(drop=True)
    size = sentences.groupby(keys, sort=True).size().reindex(pd.MultiIndex.from_frame(docs)).to_numpy()
    rng = np.random.default_rng(seed)
    picks: list[int] = []
    total = 0
    while total < target:
        batch = rng.integers(0, len(docs), size=max(64, (target - total) // max(int(size.mean()), 1) + 1))
        for i in batch:
            picks.append(int(i))
            total += int(size[i])
            if total >= target:
                break
    copy = pd.Series(picks).groupby(picks).cumcount().to_numpy()
    plan = (
        docs.iloc[picks]
        .reset_index(drop=True)
        .assign(copy=copy, new_id=lambda d: d["document_id"] + "-r" + pd.Series(copy).astype(str))
    )
    s = plan.merge(sentences, on=keys, how="left", validate="m:m")
    suffix = np.where(s["copy"].to_numpy() > 0, " [r" + s["copy"].astype(str) + "]", "")
    s["text"] = s["text"] + suffix
    s["end"] = s["start"] + s["text"].str.len()
    m = plan.merge(mentions, on=keys, how="inner", validate="m:m")
    out_s = s.assign(corpus=corpus, document_id=s["new_id"])[
        ["corpus", "document_id", "sentence_id", "start", "end", "text"]
    ]
    cols = list(mentions.columns)
    out_m = m.assign(corpus=corpus, document_id=m["new_id"])[cols]
    return (
        out_s.sort_values(["document_id", "sentence_id"], kind="stable").reset_index(drop=True),
        out_m.sort_values(["document_id", "mention_id"], kind="stable").reset_index(drop=True),
    )


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument(
        "--intermediate",
        required=True,
        help="folder with sentences/ and mentions/ Parquet per corpus",
    )
    ap.add_argument("--corpora", default="bc5cdr,ncbi_disease,medmentions_sample")
    ap.add_argument("--sentences", type=int, default=60_000)
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--out", required=True)
    args = ap.parse_args(argv)
    root = Path(args.intermediate)
    names = [c for c in args.corpora.split(",") if c]
    sentences = pd.concat([pd.read_parquet(root / "sentences" / f"{c}.parquet") for c in names], ignore_index=True)
    mentions = pd.concat([pd.read_parquet(root / "mentions" / f"{c}.parquet") for c in names], ignore_index=True)
    s, m = resample(sentences, mentions, args.sentences, args.seed)
    out = Path(args.out)
    for kind, frame in (("sentences", s), ("mentions", m)):
        (out / kind).mkdir(parents=True, exist_ok=True)
        frame.to_parquet(out / kind / "resampled.parquet", index=False)
    print(f"{len(s)} sentences, {len(m)} mentions, {s['document_id'].nunique()} documents -> {out}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
