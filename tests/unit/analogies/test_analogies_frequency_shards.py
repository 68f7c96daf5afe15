"""Term counting in shards: counts merged over N = 1, 3, 7 shards equal the unsharded count (real corpora,
PubTator and token-per-line), in every match mode and for abbreviations counted in context, with either
backend."""

from __future__ import annotations

import gzip
import itertools
from collections import Counter

import numpy as np
import pandas as pd
import pytest
from conftest import SHARED_DATA
from pubmed_fixture import write_pubmed

from biosem.analogies.frequency import (
    TermCounter,
    count_occurrences,
    document_chunks,
    merge_partial_counts,
    normalise_many,
    part_chunks,
    resolve_backend,
    text_file_chunks,
)
from biosem.analogies.matching import CaseRules, Patterns, attach_counts, prepare_terms, term_patterns
from biosem.corpora.conll import ingest_conll_corpus
from biosem.corpora.pubtator import read_pubtator
from biosem.corpora.schemas import DOCUMENTS
from biosem.corpora.shards import file_parts
from biosem.io import write_table
from biosem.wic.lexical import configure_nltk_data

BACKENDS = ["pyahocorasick"] + (["ahocorasick_rs"] if resolve_backend("auto") == "ahocorasick_rs" else [])

CORPORA = {
    "bc5cdr": SHARED_DATA / "bc5cdr" / "CDR_TrainingSet.PubTator.txt",
    "ncbi_disease": SHARED_DATA / "ncbi-disease" / "NCBItrainset_corpus.txt",
}
CONLL = {"GENIA-pos": "medline", "Ex-PTM-IOB": "sentences"}  # test files: 210 abstracts, 184 blocks
MTL = SHARED_DATA / "mtl-bioinformatics-2016"


@pytest.fixture(scope="module")
def corpus(tmp_path_factory: pytest.TempPathFactory) -> tuple[list[str], list[str], list[str]]:
    """Documents Parquet of two real corpora (the second repeats 40 PMIDs of the first with other
    text, which must not count) and of two token-per-line corpora as ingested, text files (plain,
    gzipped, PubMed XML) and the mention texts as patterns."""
    root = tmp_path_factory.mktemp("corpus")
    tables, mentions = [], []
    for name, path in CORPORA.items():
        docs = list(read_pubtator(path))
        tables.append(pd.DataFrame({"document_id": [d.pmid for d in docs], "text": [d.text for d in docs]}))
        mentions += [a.text for d in docs for a in d.document.annotations]
    repeated = tables[0].head(40).assign(text="tumor tumor tumor cancer")
    tables[1] = pd.concat([tables[1], repeated], ignore_index=True)
    documents = []
    for name, table in zip(CORPORA, tables, strict=True):
        documents.append(str(root / f"{name}.parquet"))
        table.to_parquet(documents[-1])
    for folder, unit in CONLL.items():
        documents.append(str(root / f"{folder}.parquet"))
        write_table(
            ingest_conll_corpus(folder, {"test": MTL / folder / "test.tsv.gz"}, unit).documents,
            documents[-1],
            DOCUMENTS,
        )
    lines = tables[1]["text"].head(300).tolist()
    (root / "a.txt").write_text("\n".join(lines[:200]) + "\n\n", encoding="utf-8")
    with gzip.open(root / "b.txt.gz", "wt", encoding="utf-8") as fh:
        fh.write("\n".join(lines[200:]))
    write_pubmed(root / "c.xml.gz")
    texts = [str(root / "a.txt"), str(root / "b.txt.gz"), str(root / "c.xml.gz")]
    extra = ["tumor", "coli on tumour growth", "measured CO2 in mice", "protein phosphorylation"]  # the last: Ex-PTM
    patterns = sorted(set(normalise_many(mentions + extra)) - {""})
    return documents, texts, patterns


def sharded_counts(documents: list[str], texts: list[str], patterns: list[str], n: int) -> tuple[np.ndarray, Counter]:
    partial, stats = [], Counter()
    for k in range(n):
        chunks = itertools.chain(
            document_chunks(documents, 1 << 16, stats=stats, shard=(k, n)),
            *(part_chunks(p, 1 << 16, stats=stats) for p in file_parts(texts, k, n)),
        )
        counts, _ = count_occurrences(patterns, chunks)
        hit = counts > 0
        partial.append(pd.DataFrame({"normalised": np.array(patterns, dtype=object)[hit], "count": counts[hit]}))
    return merge_partial_counts(patterns, partial), stats


def chunks_of(documents: list[str], texts: list[str], k: int = 0, n: int = 1) -> itertools.chain[bytes]:
    return itertools.chain(
        document_chunks(documents, 1 << 16, shard=(k, n)),
        *(part_chunks(p, 1 << 16) for p in file_parts(texts, k, n)),
    )


def sharded_slot_counts(documents: list[str], texts: list[str], patterns: Patterns, n: int, backend: str) -> np.ndarray:
    """Counts of every slot (patterns in their modes, then contexts) merged over ``n`` shards, each
    written as the shard rule writes its partial table."""
    forms, modes, concepts = patterns.slots()
    partial = []
    for k in range(n):
        counts, _ = count_occurrences(
            patterns.forms, chunks_of(documents, texts, k, n), 1, backend, patterns.modes, patterns.counter_contexts()
        )
        hit = counts > 0
        partial.append(
            pd.DataFrame(
                {
                    "normalised": np.array(forms, dtype=object)[hit],
                    "mode": np.array(modes, dtype=object)[hit],
                    "concept_id": np.array(concepts, dtype=object)[hit],
                    "count": counts[hit],
                }
            )
        )
    return merge_partial_counts(forms, partial, modes, concepts)


@pytest.fixture(scope="module")
def mention_terms() -> pd.DataFrame:
    """Every mention text of the two corpora as a term of its concept, as written (HD, DMD, Huntington
    disease; IgM; common words), the first text of a concept its preferred term."""
    rows = []
    for path in CORPORA.values():
        for doc in read_pubtator(path):
            rows += [(a.id, a.text) for a in doc.document.annotations if a.id and a.id != "-1"]
    frame = pd.DataFrame(rows, columns=["concept_id", "term"]).drop_duplicates().reset_index(drop=True)
    frame["term_type"] = np.where(frame.duplicated("concept_id"), "synonym", "preferred")
    frame["source"] = "mentions"
    frame["term_id"] = [f"{c}#{i}" for i, c in enumerate(frame["concept_id"])]
    frame["language"] = "en"
    frame["active"] = True
    frame["scope"] = None
    return frame


def test_cased_and_context_counts_identical_for_any_shard_number_and_backend(
    corpus: tuple[list[str], list[str], list[str]], mention_terms: pd.DataFrame
) -> None:
    documents, texts, _ = corpus
    configure_nltk_data([SHARED_DATA / "nltk_data"])
    prepared = prepare_terms(mention_terms, CaseRules())
    patterns = term_patterns(prepared)
    assert {"folded", "cased", "exact"} <= set(patterns.modes) and len(patterns.contexts) > 50
    expected = None
    for backend in BACKENDS:
        plain, _ = count_occurrences(
            patterns.forms, chunks_of(documents, texts), 1, backend, patterns.modes, patterns.counter_contexts()
        )
        if expected is None:
            expected = plain
        np.testing.assert_array_equal(plain, expected, err_msg=backend)
        for n in (1, 3, 7):
            merged = sharded_slot_counts(documents, texts, patterns, n, backend)
            np.testing.assert_array_equal(merged, expected, err_msg=f"{backend}, {n} shards")
    table = attach_counts(prepared, patterns, expected)
    cased = table[table["mode"] != "folded"]
    assert (cased["count_cased"] <= cased["count_folded"]).all() and (cased["count"] < cased["count_folded"]).any()
    context = table[table["in_context"]]
    assert (context["count"] <= context["count_cased"]).all()
    assert (context["count"] > 0).any() and (context["count"] < context["count_cased"]).any()


def test_counts_identical_for_any_shard_number(corpus: tuple[list[str], list[str], list[str]]) -> None:
    documents, texts, patterns = corpus
    stats: Counter = Counter()
    plain = itertools.chain(
        document_chunks(documents, stats=stats),
        text_file_chunks(texts[0], stats=stats),
        text_file_chunks(texts[1], stats=stats),
        part_chunks(file_parts(texts[2:], 0, 1)[0], stats=stats),
    )
    expected, _ = count_occurrences(patterns, plain)
    assert stats["duplicate documents"] == 40
    # BC5CDR train, NCBI train, GENIA-pos and Ex-PTM test, text lines, XML articles
    assert stats["documents"] == 1000 + 593 + 210 + 184 + 300 + 3
    assert expected.sum() > 10_000
    tumor = patterns.index("tumor")
    assert expected[tumor] > 0
    assert expected[patterns.index("coli on tumour growth")] == 1  # the PubMed XML title (inline markup)
    assert expected[patterns.index("measured co2 in mice")] == 1  # a section of its structured abstract
    assert expected[patterns.index("protein phosphorylation")] > 0
    for n in (1, 3, 7):
        merged, shard_stats = sharded_counts(documents, texts, patterns, n)
        assert shard_stats == stats, n
        np.testing.assert_array_equal(merged, expected, err_msg=f"{n} shards")


def test_merge_rejects_foreign_forms() -> None:
    with pytest.raises(ValueError, match="not a pattern"):
        merge_partial_counts(["a b"], [pd.DataFrame({"normalised": ["c"], "count": [1]})])
    with pytest.raises(ValueError, match="not a pattern"):  # the right form in another mode
        merge_partial_counts(["a"], [pd.DataFrame({"normalised": ["a"], "mode": ["cased"], "count": [1]})])
    context = pd.DataFrame({"normalised": ["HD", "HD"], "mode": "cased", "concept_id": [None, "D1"], "count": [5, 3]})
    assert merge_partial_counts(["HD", "HD"], [context], ["cased", "cased"], [None, "D1"]).tolist() == [5, 3]
    with pytest.raises(ValueError, match="not a pattern"):  # a context of another concept
        merge_partial_counts(["HD", "HD"], [context], ["cased", "cased"], [None, "D2"])
    merged = merge_partial_counts(
        ["a", "b"],
        [pd.DataFrame({"normalised": ["b"], "count": [2]}), pd.DataFrame({"normalised": ["b", "a"], "count": [1, 5]})],
    )
    assert merged.tolist() == [5, 3]
    assert TermCounter(["a"]).count(b"a a").tolist() == [2]
