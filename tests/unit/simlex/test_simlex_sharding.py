"""Word counting in shards: merged counts for N = 1, 3, 7 equal one count over the corpus (real abstracts,
and token-per-line corpora: GENIA-pos MEDLINE documents and Ex-PTM sentence blocks)."""

from __future__ import annotations

from pathlib import Path

import nltk
import pandas as pd
import pandas.testing as pdt
import pytest
from conftest import SHARED_DATA
from pubmed_fixture import write_pubmed

from biosem.corpora.conll import ingest_conll_corpus
from biosem.corpora.pubtator import read_pubtator
from biosem.corpora.shards import file_parts
from biosem.simlex.sharding import counts_table, documents_from_part, merge_counts, shard_documents
from biosem.simlex.vocabulary import (
    Analyser,
    VocabularyParams,
    documents_from_sentences,
    documents_from_text,
    filter_table,
    word_count_table,
    wordnet_multiwords,
)

NLTK_DATA = str(SHARED_DATA / "nltk_data")
if NLTK_DATA not in nltk.data.path:
    nltk.data.path.insert(0, NLTK_DATA)


def sentence_frame(docs: list[tuple[str, str]]) -> pd.DataFrame:
    rows = [
        (pmid, i, sentence + ".")
        for pmid, text in docs
        for i, sentence in enumerate(s for s in text.split(". ") if s.strip())
    ]
    return pd.DataFrame(rows, columns=["document_id", "sentence_id", "text"])


MTL = SHARED_DATA / "mtl-bioinformatics-2016"


def conll_frame(folder: str, unit: str, documents: int) -> pd.DataFrame:
    """The sentences of the first ``documents`` documents of a token-per-line corpus' test file."""
    tables = ingest_conll_corpus(folder, {"test": MTL / folder / "test.tsv.gz"}, unit, 10)
    keep = tables.documents["document_id"].head(documents)
    return tables.sentences[tables.sentences["document_id"].isin(keep)]


@pytest.fixture(scope="module")
def corpus(tmp_path_factory: pytest.TempPathFactory) -> tuple[list[pd.DataFrame], list[str]]:
    """Two sentence tables of real NCBI Disease abstracts (the second repeats 12 PMIDs of the first
    with other text, which must not count), the sentence tables of two token-per-line corpora as
    ingested (12 GENIA-pos abstracts, 8 Ex-PTM blocks of 10 sentences) and text files: plain, and
    PubMed XML."""
    docs = [(d.pmid, d.text) for d in read_pubtator(SHARED_DATA / "ncbi-disease" / "NCBIdevelopset_corpus.txt")]
    first = sentence_frame(docs[:40])
    second = sentence_frame(
        [(pmid, "The surgeons juggled oranges. Oranges were juggled.") for pmid, _ in docs[:12]] + docs[40:55]
    )
    conll = [conll_frame("GENIA-pos", "medline", 12), conll_frame("Ex-PTM-IOB", "sentences", 8)]
    root = tmp_path_factory.mktemp("text")
    (root / "a.txt").write_text("\n".join(text for _, text in docs[55:70]) + "\n\n", encoding="utf-8")
    write_pubmed(root / "b.xml.gz")
    return [first, second, *conll], [str(root / "a.txt"), str(root / "b.xml.gz")]


@pytest.fixture(scope="module")
def analyser() -> Analyser:
    return Analyser(VocabularyParams(), wordnet_multiwords())


def test_merged_counts_identical_for_any_shard_number(
    corpus: tuple[list[pd.DataFrame], list[str]], analyser: Analyser
) -> None:
    frames, texts = corpus
    whole = documents_from_sentences(frames) + documents_from_text(texts[0])
    whole += documents_from_part(file_parts(texts[1:], 0, 1)[0])
    assert len(whole) == 40 + 15 + 12 + 8 + 15 + 3
    expected = analyser.count_documents(whole)
    assert expected.counts[("tumor", "noun")] > 0 and expected.counts[("grow", "verb")] >= 1  # the XML abstract
    assert expected.counts[("phosphorylation", "noun")] > 0  # Ex-PTM
    assert (
        expected.counts[("juggle", "verb")] == expected.counts[("orange", "noun")] == 0
    )  # the repeated PMIDs' other text is not counted
    want_words = word_count_table(expected, 1, 0.1)
    want_filters = filter_table(expected, 1, 0.1)
    for n in (1, 3, 7):
        partial = []
        for k in range(n):
            documents, _ = shard_documents(frames, texts, k, n)
            partial.append(counts_table(analyser.count_documents(documents)))
        merged = merge_counts(partial)
        assert merged.documents == len(whole)
        pdt.assert_frame_equal(word_count_table(merged, 1, 0.1), want_words, obj=f"word counts, {n} shards")
        pdt.assert_frame_equal(filter_table(merged, 1, 0.1), want_filters, obj=f"filters, {n} shards")
        assert merged.step_types == expected.step_types


def test_documents_from_part(tmp_path: Path) -> None:
    articles = documents_from_part(file_parts([str(write_pubmed(tmp_path / "p.xml.gz"))], 0, 1)[0])
    assert [d.document_id for d in articles] == ["PMID:1001", "PMID:1002", "PMID:1004"]
    assert articles[0].texts == (
        "Effect of Escherichia coli on tumour growth.",
        "Tumours grow. We measured CO2 in mice. Growth slowed.",
    )
    assert not articles[0].split
    text = tmp_path / "t.txt"
    text.write_bytes("Cafe\u0301 one.\n\n  two  \n".encode())
    docs = documents_from_part(file_parts([str(text)], 0, 1)[0])
    assert [(d.document_id, d.texts) for d in docs] == [("t.txt@0", ("Caf\u00e9 one.",)), ("t.txt@13", ("two",))]
