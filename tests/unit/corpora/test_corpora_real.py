"""The real corpora in the source mirror: sizes against the corpus documentation (no segmentation here)."""

from __future__ import annotations

from collections import Counter

import pytest
from conftest import SHARED_DATA

from biosem.corpora.ingest import (
    CorpusStats,
    check_mentions,
    normalise_concept_ids,
    read_corpus_documents,
)
from biosem.corpora.pubtator import read_pubtator

BC5CDR = {
    s: SHARED_DATA / "bc5cdr" / f"CDR_{f}Set.PubTator.txt"
    for s, f in (("train", "Training"), ("dev", "Development"), ("test", "Test"))
}
NCBI = {
    s: SHARED_DATA / "ncbi-disease" / f"NCBI{f}set_corpus.txt"
    for s, f in (("train", "train"), ("dev", "develop"), ("test", "test"))
}
MEDMENTIONS = SHARED_DATA / "medmentions" / "scispacy_fixture_med_mentions.txt"
MM_LISTS = {
    s: SHARED_DATA / "medmentions" / "full" / "data" / f"corpus_pubtator_pmids_{f}.txt"
    for s, f in (("train", "trng"), ("dev", "dev"), ("test", "test"))
}

pytestmark = pytest.mark.skipif(not BC5CDR["train"].is_file(), reason="source mirror not available")


def _mentions_per_split(docs: list) -> Counter[str]:
    counts: Counter[str] = Counter()
    for split, doc in docs:
        stats = CorpusStats("x", split)
        counts[split] += len(check_mentions(doc, stats))  # every offset checked against the text
    return counts


def test_bc5cdr_files_and_splits() -> None:
    # The mirrored training file holds the 500 training abstracts followed by the 500 development ones.
    records = {s: sum(1 for _ in read_pubtator(p)) for s, p in BC5CDR.items()}
    assert records == {"train": 1000, "dev": 500, "test": 500}
    docs, stats = read_corpus_documents("bc5cdr", BC5CDR)
    # README.txt: "The annotated CDR corpus of 1500 PubMed articles"; BioCreative V CDR: 500/500/500.
    assert Counter(split for split, _ in docs) == {"train": 500, "dev": 500, "test": 500}
    assert stats["train"].duplicates_dropped == 500
    # Published mention counts (chemicals + diseases): 4,182 + 5,203 / 4,244 + 5,347 / 4,424 + 5,385.
    assert _mentions_per_split(docs) == {"train": 9385, "dev": 9591, "test": 9809}
    cid = Counter(r.type for _, d in docs for r in d.document.relations)
    assert cid == {"CID": 1038 + 1012 + 1066}  # 3,116 chemical-induced-disease pairs


def test_ncbi_disease_files_and_splits() -> None:
    records = {s: sum(1 for _ in read_pubtator(p)) for s, p in NCBI.items()}
    assert records == {
        "train": 593,
        "dev": 100,
        "test": 100,
    }  # Dogan et al. 2014: 793 = 593/100/100
    docs, stats = read_corpus_documents("ncbi_disease", NCBI)
    assert Counter(split for split, _ in docs) == {"train": 592, "dev": 100, "test": 100}
    assert stats["train"].duplicates_dropped == 1  # PMID 8528200 twice, identically (11 mentions)
    assert _mentions_per_split(docs) == {
        "train": 5145 - 11,
        "dev": 787,
        "test": 960,
    }  # 6,892 published
    stats_all = CorpusStats("ncbi_disease", "all")
    ids = [normalise_concept_ids(a.id, "MESH", stats_all) for _, d in docs for a in d.document.annotations]
    namespaces = Counter(cid.split(":")[0] for row in ids for cid in row)
    assert set(namespaces) == {"MESH", "OMIM"}
    assert all(ids)  # every NCBI mention is normalised
    assert stats_all.composite_ids == 160
    assert stats_all.ids_trimmed == 5


def test_medmentions_sample() -> None:
    docs, _ = read_corpus_documents("medmentions_sample", {"all": MEDMENTIONS}, MM_LISTS)
    assert {doc.pmid: split for split, doc in docs} == {
        "25763772": "train",
        "26316050": "train",
        "25847295": "test",
    }
    assert sum(_mentions_per_split(docs).values()) == 115
    types = Counter(a.type for _, d in docs for a in d.document.annotations)
    assert all(t.startswith("T") and len(t) == 4 for t in types)  # ST21pv semantic type ids
    assert all(a.id.startswith("UMLS:C") for _, d in docs for a in d.document.annotations)
