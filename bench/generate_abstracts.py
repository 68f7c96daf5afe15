#!/usr/bin/env python3
"""Generate a large corpus of biomedical abstracts (one per line) by resampling real ones.

The real abstracts are the BC5CDR and NCBI Disease PubTator files of the source mirror (title + abstract,
2,292 distinct PMIDs). A synthetic abstract is a title and 6-12 sentences; each sentence is either a real
sentence drawn at random (seeded) or, with probability ``--novel``, a new word sequence of the same
length drawn from the word-bigram model of the real text, so the corpus holds both the real phrase
statistics and token sequences never seen before (the automaton does not just replay a few MB of
text). Sentences are split at ". " for speed; that is enough for a throughput corpus.

Usage::

    python bench/generate_abstracts.py --out /tmp/abstracts-1g.txt --size-gb 1.0 [--gzip]
"""

from __future__ import annotations

import argparse
import gzip
import itertools
import re
import sys
import time
from pathlib import Path

import numpy as np

MIRROR = Path(__file__).resolve().parents[2] / "shared" / "data"
PUBTATOR = [
    "bc5cdr/CDR_TrainingSet.PubTator.txt",
    "bc5cdr/CDR_DevelopmentSet.PubTator.txt",
    "bc5cdr/CDR_TestSet.PubTator.txt",
    "ncbi-disease/NCBItrainset_corpus.txt",
    "ncbi-disease/NCBIdevelopset_corpus.txt",
    "ncbi-disease/NCBItestset_corpus.txt",
]


def real_abstracts(mirror: Path = MIRROR) -> list[str]:
    """Title + " " + abstract of every distinct PMID in the mirror's PubTator files, in PMID order."""
    docs: dict[str, dict[str, str]] = {}
    for rel in PUBTATOR:
        for line in (mirror / rel).read_text(encoding="utf-8").splitlines():
            parts = line.split("|", 2)
            if len(parts) == 3 and parts[1] in ("t", "a"):
                docs.setdefault(parts[0], {}).setdefault(parts[1], parts[2])
    return [f"{d.get('t', '')} {d.get('a', '')}".strip() for _, d in sorted(docs.items())]


class BigramModel:
    """Word bigrams of the real sentences as CSR arrays, sampled vectorised."""

    def __init__(self, sentences: list[list[str]]) -> None:
        vocab: dict[str, int] = {}
        pairs: list[tuple[int, int]] = []
        for words in sentences:
            ids = [vocab.setdefault(w, len(vocab)) for w in words]
            pairs.extend(itertools.pairwise(ids))
        self.words = np.array(list(vocab), dtype=object)
        src, dst = np.array(pairs, dtype=np.int64).T
        order = np.argsort(src, kind="stable")
        self.successors = dst[order]
        self.offsets = np.searchsorted(src[order], np.arange(len(vocab) + 1))
        self.starts = np.array([vocab[w[0]] for w in sentences if w], dtype=np.int64)

    def sample(self, lengths: np.ndarray, rng: np.random.Generator) -> list[str]:
        """One sentence per length: a real first word, then bigram successors (restart at dead ends)."""
        steps = int(lengths.max())
        cur = rng.choice(self.starts, size=len(lengths))
        out = np.empty((len(lengths), steps), dtype=np.int64)
        for t in range(steps):
            out[:, t] = cur
            degree = self.offsets[cur + 1] - self.offsets[cur]
            pick = self.offsets[cur] + (rng.random(len(cur)) * np.maximum(degree, 1)).astype(np.int64)
            nxt = self.successors[np.minimum(pick, len(self.successors) - 1)]
            cur = np.where(degree > 0, nxt, rng.choice(self.starts, size=len(cur)))
        words = self.words[out]
        return [" ".join(row[:n]) + "." for row, n in zip(words, lengths)]


def generate(out: Path, size_bytes: int, novel: float, seed: int, compress: bool) -> dict[str, float]:
    docs = real_abstracts()
    sentences = [s for d in docs for s in re.split(r"(?<=\.) ", d) if s]
    tokens = [s.rstrip(".").split() for s in sentences]
    model = BigramModel(tokens)
    lengths = np.array([len(t) for t in tokens], dtype=np.int64)
    rng = np.random.default_rng(seed)
    opener = gzip.open if compress else open
    written = n_docs = 0
    start = time.perf_counter()
    with opener(out, "wb") as handle:
        while written < size_bytes:
            batch = 2000
            per_doc = rng.integers(6, 13, size=batch)
            total = int(per_doc.sum())
            real = rng.integers(0, len(sentences), size=total)
            is_novel = rng.random(total) < novel
            text = np.array([sentences[i] for i in real], dtype=object)
            if is_novel.any():
                text[is_novel] = model.sample(np.maximum(lengths[real[is_novel]], 3), rng)
            bounds = np.concatenate([[0], np.cumsum(per_doc)])
            lines = [" ".join(text[bounds[k] : bounds[k + 1]]) for k in range(batch)]
            data = ("\n".join(lines) + "\n").encode("utf-8")
            handle.write(data)
            written += len(data)
            n_docs += batch
    return {
        "real_abstracts": len(docs),
        "real_sentences": len(sentences),
        "documents": n_docs,
        "bytes": written,
        "seconds": time.perf_counter() - start,
    }


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--out", type=Path, required=True)
    parser.add_argument("--size-gb", type=float, default=1.0, help="uncompressed size to reach (GB = 1e9 bytes)")
    parser.add_argument("--novel", type=float, default=0.5, help="share of bigram-generated sentences")
    parser.add_argument("--seed", type=int, default=20170803)
    parser.add_argument("--gzip", action="store_true")
    args = parser.parse_args(argv)
    args.out.parent.mkdir(parents=True, exist_ok=True)
    stats = generate(args.out, int(args.size_gb * 1e9), args.novel, args.seed, args.gzip)
    print(" ".join(f"{k}={v:.1f}" if isinstance(v, float) else f"{k}={v}" for k, v in stats.items()))
    return 0


if __name__ == "__main__":
    sys.exit(main())
