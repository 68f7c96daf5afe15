"""The MTL-Bioinformatics-2016 corpora in the source mirror: token counts against the mirror's README
(../shared/data/README.md), GENIA-pos documents, and the vocabulary's tagger against GENIA's gold tags."""

from __future__ import annotations

import nltk
import pytest
from conftest import SHARED_DATA

from biosem.corpora.conll import gold_tagged_sentences, read_conll_corpus
from biosem.simlex.tagging import tag_agreement
from biosem.simlex.vocabulary import Analyser, VocabularyParams, tag_class

MTL = SHARED_DATA / "mtl-bioinformatics-2016"
FILES = {"train": "train.tsv.gz", "dev": "devel.tsv.gz", "test": "test.tsv.gz"}
# Tokens (non-blank lines) per corpus as the mirror's README gives them: 2.83 M in all.
TOKENS = {
    "AnatEM-IOB": 312_584,
    "BC2GM-IOB": 569_912,
    "BioNLP11EPI-IOB": 332_441,
    "BioNLP11ID-IOB": 166_416,
    "BioNLP13CG-IOB": 163_837,
    "BioNLP13PC-IOB": 139_086,
    "Ex-PTM-IOB": 105_572,
    "GENIA-pos": 500_943,
    "linnaeus-IOB": 539_428,
}

pytestmark = pytest.mark.skipif(not MTL.is_dir(), reason="source mirror not available")


@pytest.mark.parametrize("corpus", sorted(TOKENS))
def test_token_counts_equal_the_readme(corpus: str) -> None:
    unit = "medline" if corpus == "GENIA-pos" else "sentences"
    docs, stats = read_conll_corpus(corpus, {s: MTL / corpus / f for s, f in FILES.items()}, unit, 10)
    total = sum(s.token_lines for s in stats.values())
    assert total == TOKENS[corpus]
    text = sum(len(sent.tokens) for _, doc in docs for sent in doc.sentences)
    if corpus == "GENIA-pos":
        # 2,000 MEDLINE abstracts: 7 field lines each (UI - <id>, TI -, AB -); UI 97218353 twice in train
        assert sum(s.records for s in stats.values()) == 2000 and len(docs) == 1999
        assert stats["train"].duplicates_dropped == 1
        assert sum(s.field_lines for s in stats.values()) == 14_000
        assert text == 500_943 - 14_000 - 250  # the duplicate's 257 lines less its 7 field lines
        assert all(doc.title and doc.abstract for _, doc in docs)
    else:
        assert text == total and sum(s.field_lines for s in stats.values()) == 0


def test_tagger_against_genia_gold_tags() -> None:
    """The vocabulary's tagger (NLTK's perceptron on American-spelt forms) on GENIA-pos devel: the
    noun and verb classes, which decide the simlex vocabulary, agree with the gold tags for over 90 %
    of tokens (whole corpus, measured: nouns 0.92 recall / 0.94 precision, verbs 0.92 / 0.90; exact
    tags 0.84, GENIA writing NN where NLTK writes NNP)."""
    path = str(SHARED_DATA / "nltk_data")
    if path not in nltk.data.path:
        nltk.data.path.insert(0, path)
    analyser = Analyser(VocabularyParams(), None)
    sentences = [(s.tokens, s.tags) for s in gold_tagged_sentences([MTL / "GENIA-pos" / "devel.tsv.gz"])]
    table = tag_agreement(sentences, analyser.tag, tag_class).set_index("class")
    assert table.loc["all", "tokens"] == 52_697 - 1_470  # devel: token lines less its field lines
    for cls in ("noun", "verb"):
        assert table.loc[cls, "recall"] > 0.9 and table.loc[cls, "precision"] > 0.85
    assert 0.8 < table.loc["all", "accuracy"] < 0.9


def test_bionlp13cg_is_inside_anatem() -> None:
    """Why the default counts AnatEM and not BioNLP13CG: every sentence of BioNLP13CG is also in AnatEM."""
    sentences = {}
    for corpus in ("AnatEM-IOB", "BioNLP13CG-IOB"):
        docs, _ = read_conll_corpus(corpus, {s: MTL / corpus / f for s, f in FILES.items()}, "sentences", 10)
        sentences[corpus] = [sent.tokens for _, doc in docs for sent in doc.sentences]
    assert len(sentences["BioNLP13CG-IOB"]) == 5942
    assert set(sentences["BioNLP13CG-IOB"]) <= set(sentences["AnatEM-IOB"])
