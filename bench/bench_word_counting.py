#!/usr/bin/env python3
"""Benchmark: word counting of the Bio-SimLex vocabulary (``count_corpus_words``) in tokens per CPU-second.

Reads the corpora stage's ``sentences`` intermediates (default: BC5CDR and NCBI Disease of the embedded
default, built by ``snakemake results/intermediate/sentences/{bc5cdr,ncbi_disease}.parquet``) and measures
in one process, with CPU time (user + system of this process, robust to other jobs on the machine):

* **end to end, pre-segmented**: :func:`biosem.simlex.vocabulary.count_corpus` on the documents as the
  rule builds them (one worker; run first, so it pays every model load as a worker does);
* **end to end, with segmentation**: the same documents given as their joined sentences, which pysbd
  segments again (``Document.split=False``, as for plain-text corpora);
* **where a token's time goes** (pre-segmented, one pass, caches cold at the start as in a worker):
  tokenisation, tagging forms (spelling), tagging, lemmatisation (with its cache), multi-word
  expressions, filters and counting; and NLTK's own tokenizer and tagger on the same sentences, which
  the vocabulary used before (``nltk.tokenize.NLTKWordTokenizer``, ``nltk.tag.PerceptronTagger.tag``).

The rate is word tokens (tokens holding a letter, the ``word_tokens`` row of the filters table) per
CPU-second. pysbd may split the joined sentences a little differently from the corpora stage (which
protects mentions), so the two end-to-end runs' counts need not be equal; the report says whether they are.

Usage::

    python bench/bench_word_counting.py [--sentences a.parquet b.parquet] [--out bench/out/word_counting.json]
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import sys
import time
from pathlib import Path

import nltk

from biosem.io import read_table
from biosem.simlex.vocabulary import (
    Analyser,
    Document,
    VocabularyParams,
    configure_nltk_data,
    count_corpus,
    documents_from_sentences,
    wordnet_multiwords,
)

DEFAULT_SENTENCES = [
    Path("results/intermediate/sentences/bc5cdr.parquet"),
    Path("results/intermediate/sentences/ncbi_disease.parquet"),
]


def cpu() -> float:
    usage = resource.getrusage(resource.RUSAGE_SELF)
    return usage.ru_utime + usage.ru_stime


def end_to_end(documents: list[Document], params: VocabularyParams) -> dict:
    c0, w0 = cpu(), time.perf_counter()
    counts = count_corpus(documents, params, workers=1)
    seconds, wall = cpu() - c0, time.perf_counter() - w0
    return {
        "documents": counts.documents,
        "word_tokens": counts.word_tokens,
        "cpu_s": round(seconds, 2),
        "wall_s": round(wall, 2),
        "word_tokens_per_cpu_s": round(counts.word_tokens / seconds),
        "_counts": counts,
    }


def breakdown(documents: list[Document], params: VocabularyParams) -> dict:
    """CPU seconds per step of :meth:`Analyser.count_documents`, one pass with cold caches."""
    from nltk.tag.perceptron import PerceptronTagger
    from nltk.tokenize import NLTKWordTokenizer

    steps = dict.fromkeys(
        ("load", "tokenise", "tagging_forms", "tag", "lemma", "multiword", "filter_count", "total"), 0.0
    )
    c0 = cpu()
    analyser = Analyser(params, wordnet_multiwords())
    steps["load"] = cpu() - c0
    sentences = [text for d in documents for text in d.texts]
    c = cpu()
    tokenised = [t for t in (analyser._tokenizer.tokenize(s.strip()) for s in sentences) if t]
    steps["tokenise"] = cpu() - c
    c = cpu()
    forms = [analyser.tagging_forms(t) for t in tokenised]
    steps["tagging_forms"] = cpu() - c
    c = cpu()
    tags = [analyser._tagger.tag(f) for f in forms]
    steps["tag"] = cpu() - c
    c = cpu()
    lemmas = [
        [analyser._lemma_or_lower(w, g) for w, g in zip(t, g_, strict=True)]
        for t, g_ in zip(tokenised, tags, strict=True)
    ]
    steps["lemma"] = cpu() - c
    c = cpu()
    masks = [analyser.multiword_mask(t, lem) for t, lem in zip(tokenised, lemmas, strict=True)]
    steps["multiword"] = cpu() - c
    c = cpu()
    kept = 0
    for t, g_, lem, m in zip(tokenised, tags, lemmas, masks, strict=True):
        for token, tag, _lemma, mw in zip(t, g_, lem, m, strict=True):
            analyser._has_letter(token)
            if tag in analyser._pos_of_tag:
                key = (token, tag, mw)
                step = analyser._outcome.get(key)
                if step is None:
                    step = analyser._outcome[key] = analyser.token_filter(token, _lemma, tag, mw) or "kept"
                kept += step == "kept"
    steps["filter_count"] = cpu() - c
    steps["total"] = cpu() - c0
    tokens = sum(map(len, tokenised))
    nltk_tokenizer, nltk_tagger = NLTKWordTokenizer(), PerceptronTagger(lang="eng")
    c = cpu()
    reference_tokens = [nltk_tokenizer.tokenize(s.strip()) for s in sentences]
    nltk_tokenise = cpu() - c
    c = cpu()
    reference_tags = [[tag for _, tag in nltk_tagger.tag(f)] for f in forms]
    nltk_tag = cpu() - c
    return {
        "sentences": len(tokenised),
        "tokens": tokens,
        "cpu_s": {k: round(v, 2) for k, v in steps.items()},
        "tokens_per_cpu_s": {k: round(tokens / v) for k, v in steps.items() if v and k not in ("load", "total")},
        "nltk_tokenise_tokens_per_cpu_s": round(tokens / nltk_tokenise),
        "nltk_tag_tokens_per_cpu_s": round(tokens / nltk_tag),
        "same_tokens_as_nltk": [t for t in reference_tokens if t] == tokenised,
        "same_tags_as_nltk": reference_tags == tags,
    }


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--sentences", nargs="+", type=Path, default=DEFAULT_SENTENCES)
    ap.add_argument("--out", type=Path, default=Path("bench/out/word_counting.json"))
    args = ap.parse_args(argv)
    configure_nltk_data([])
    frames = [read_table(p, columns=["document_id", "sentence_id", "text"]) for p in args.sentences]
    documents = documents_from_sentences(frames)
    params = VocabularyParams()
    report: dict = {"sentences": [str(p) for p in args.sentences], "cpus": os.cpu_count(), "nltk": nltk.__version__}
    # First, so that it pays every one-off load (tagger, WordNet, lemminflect) as a worker does.
    presegmented = end_to_end(documents, params)
    print(json.dumps({"presegmented": {k: v for k, v in presegmented.items() if k != "_counts"}}), flush=True)
    joined = [Document(d.document_id, (" ".join(d.texts),), split=False) for d in documents]
    segmented = end_to_end(joined, params)
    report["breakdown"] = breakdown(documents, params)
    same = presegmented.pop("_counts").counts == segmented.pop("_counts").counts
    report["presegmented"], report["with_segmentation"] = presegmented, segmented
    report["segmented_counts_equal_presegmented"] = same  # pysbd may split a little differently
    args.out.parent.mkdir(parents=True, exist_ok=True)
    args.out.write_text(json.dumps(report, indent=1) + "\n")
    print(json.dumps(report, indent=1))
    return 0


if __name__ == "__main__":
    sys.exit(main())
