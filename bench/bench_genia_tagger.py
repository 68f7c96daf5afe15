#!/usr/bin/env python3
"""Check: the simlex vocabulary's POS tagger against GENIA-pos's gold Penn tags (docs/design.md § corpora).

GENIA-pos (MTL-Bioinformatics-2016 copy: 2,000 MEDLINE abstracts, gold Penn Treebank tags) is read with
``biosem.corpora.conll`` (MEDLINE field labels removed, the repeated abstract kept: every gold token
counts); each sentence's gold tokens are tagged as the vocabulary tags them
(``biosem.simlex.vocabulary.Analyser.tag``: NLTK's averaged perceptron on American-spelt forms, a
sentence-initial capital lowered) and compared (``biosem.simlex.tagging.tag_agreement``): exact-tag
accuracy and, per class (noun, verb, adjective, ...), recall and precision of the class.

Usage::

    NLTK_DATA=../shared/data/nltk_data python bench/bench_genia_tagger.py [--mirror ../shared/data] \
        [--out bench/out/genia_tagger.tsv]
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

from biosem.corpora.conll import gold_tagged_sentences
from biosem.simlex.tagging import tag_agreement
from biosem.simlex.vocabulary import Analyser, VocabularyParams, tag_class


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--mirror", type=Path, default=Path("../shared/data"))
    parser.add_argument("--out", type=Path, default=Path("bench/out/genia_tagger.tsv"))
    args = parser.parse_args(argv)
    folder = args.mirror / "mtl-bioinformatics-2016" / "GENIA-pos"
    files = [folder / f"{split}.tsv.gz" for split in ("train", "devel", "test")]
    start = time.perf_counter()
    sentences = [(s.tokens, s.tags) for s in gold_tagged_sentences(files)]
    analyser = Analyser(VocabularyParams(), None)
    table = tag_agreement(sentences, analyser.tag, tag_class)
    elapsed = time.perf_counter() - start
    args.out.parent.mkdir(parents=True, exist_ok=True)
    table.to_csv(args.out, sep="\t", index=False, float_format="%.4f")
    print(table.to_string(index=False, float_format=lambda v: f"{v:.4f}"))
    print(f"{len(sentences):,} sentences, {int(table.iloc[-1]['tokens']):,} tokens in {elapsed:.1f} s -> {args.out}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
