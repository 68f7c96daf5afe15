"""Integration: the corpus intermediates of the embedded default, checked on their contents."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pandas as pd
import pyarrow.parquet as pq
import pytest

from biosem.corpora.schemas import DOCUMENTS, MENTIONS, SENTENCES

pytestmark = pytest.mark.workflow

# Measured on the mirror (documents / sentences / mentions per split: train, dev, test).
EXPECTED = {
    "bc5cdr": {
        "documents": (500, 500, 500),
        "sentences": (4577, 4611, 4806),
        "mentions": (9385, 9591, 9809),
    },
    "ncbi_disease": {
        "documents": (592, 100, 100),
        "sentences": (5836, 998, 1018),
        "mentions": (5134, 787, 960),
    },
    "biored": {
        "documents": (400, 100, 100),
        "sentences": (4352, 1121, 1094),
        "mentions": (13351, 3533, 3535),
    },
    "medmentions_sample": {
        "documents": (2, 0, 1),
        "sentences": (20, 0, 13),
        "mentions": (82, 0, 33),
    },
}


def _tables(root: Path, corpus: str) -> tuple[pd.DataFrame, pd.DataFrame, pd.DataFrame]:
    out = []
    for spec in (DOCUMENTS, SENTENCES, MENTIONS):
        path = root / "results" / "intermediate" / spec.name / f"{corpus}.parquet"
        assert pq.read_schema(path).equals(spec.schema), path
        out.append(pq.read_table(path).to_pandas())
    return out[0], out[1], out[2]


@pytest.mark.parametrize("corpus", sorted(EXPECTED))
def test_counts_per_split(workflow_runs: dict[int, Path], corpus: str) -> None:
    docs, sents, ments = _tables(workflow_runs[2], corpus)
    split = docs.set_index("document_id")["split"]
    got = {
        "documents": docs["split"].value_counts(),
        "sentences": sents["document_id"].map(split).value_counts(),
        "mentions": ments["document_id"].map(split).value_counts(),
    }
    for kind, expected in EXPECTED[corpus].items():
        assert tuple(int(got[kind].get(s, 0)) for s in ("train", "dev", "test")) == expected, kind
    counts = pd.read_csv(workflow_runs[2] / "results/intermediate/corpus_counts" / f"{corpus}.tsv", sep="\t").set_index(
        "split"
    )
    assert counts.loc["all", "documents"] == len(docs)
    assert counts.loc["all", "sentences"] == len(sents)
    assert counts.loc["all", "mentions"] == len(ments)
    assert counts.loc["all", "mentions_with_ids"] + counts.loc["all", "mentions_without_ids"] == len(ments)
    assert counts.loc["all", "mentions_with_ids"] == int((ments["concept_ids"].map(len) > 0).sum())


@pytest.mark.parametrize("corpus", sorted(EXPECTED))
def test_offsets_and_ids(workflow_runs: dict[int, Path], corpus: str) -> None:
    docs, sents, ments = _tables(workflow_runs[2], corpus)
    text = docs.set_index("document_id")["text"]
    assert (docs["text"] == docs["title"] + " " + docs["abstract"]).all()
    assert not docs["document_id"].duplicated().any()
    # sentences: exact substrings, trimmed, disjoint and ordered, ids 0..n-1 per document
    doc_text = sents["document_id"].map(text)
    assert all(t[s:e] == x for t, s, e, x in zip(doc_text, sents["start"], sents["end"], sents["text"], strict=True))
    assert (sents["text"] == sents["text"].str.strip()).all()
    assert (
        sents.groupby("document_id")["sentence_id"].transform(lambda x: np.arange(len(x))) == sents["sentence_id"]
    ).all()
    prev_end = sents.groupby("document_id")["end"].shift(1).fillna(0)
    assert (sents["start"] >= prev_end).all()
    # mentions: exact substrings of the document and of their sentence
    sent = sents.set_index(["document_id", "sentence_id"])
    keys = pd.MultiIndex.from_frame(ments[["document_id", "sentence_id"]])
    s_start = sent["start"].reindex(keys).to_numpy()
    s_text = sent["text"].reindex(keys).to_numpy()
    assert (ments["start"].to_numpy() - s_start == ments["sentence_start"].to_numpy()).all()
    m_doc_text = ments["document_id"].map(text)
    assert all(t[s:e] == x for t, s, e, x in zip(m_doc_text, ments["start"], ments["end"], ments["text"], strict=True))
    assert all(
        t[s:e] == x
        for t, s, e, x in zip(s_text, ments["sentence_start"], ments["sentence_end"], ments["text"], strict=True)
    )
    ids = ments["concept_ids"].explode().dropna()
    prefix = {
        "bc5cdr": {"MESH"},
        "ncbi_disease": {"MESH", "OMIM"},
        "biored": {"MESH", "OMIM", "NCBIGene", "NCBITaxon", "Cellosaurus", "tmVar"},
        "medmentions_sample": {"UMLS"},
    }[corpus]
    assert set(ids.str.split(":").str[0]) == prefix


def test_bc5cdr_without_ids_and_composites(workflow_runs: dict[int, Path]) -> None:
    _, _, ments = _tables(workflow_runs[2], "bc5cdr")
    n_ids = ments["concept_ids"].map(len)
    assert int((n_ids == 0).sum()) == 226  # "-1" mentions
    # 273 composite id columns; "D002544|-1" keeps one id, "D020258|D020258|D020258" one distinct id
    assert int((n_ids > 1).sum()) == 271


def test_craft(workflow_runs: dict[int, Path]) -> None:
    """CRAFT (proper set, all modules): the shared tables and its notices, counts as measured
    (docs/embedded-default.md § corpora); a discontinuous mention's text is its spans' extent."""
    root = workflow_runs[2]
    docs, sents, ments = _tables(root, "craft")
    split = docs.set_index("document_id")["split"]
    assert tuple(int(docs["split"].value_counts()[s]) for s in ("train", "dev", "test")) == (60, 7, 30)
    assert tuple(int(sents["document_id"].map(split).value_counts()[s]) for s in ("train", "dev", "test")) == (
        19294,
        2857,
        9365,
    )
    assert len(ments) == 99623 and int(ments["discontinuous"].sum()) == 2014
    assert ments["type"].value_counts()["MONDO"] == 3080
    text = ments["document_id"].map(docs.set_index("document_id")["text"])
    assert all(t[s:e] == x for t, s, e, x in zip(text, ments["start"], ments["end"], ments["text"], strict=True))
    spans = ments["spans"]
    assert (ments["discontinuous"] == (spans.map(len) > 1)).all()
    assert (ments["start"] == spans.map(lambda x: x[0]["start"])).all()
    assert (ments["end"] == spans.map(lambda x: x[-1]["end"])).all()
    notices = pq.read_table(root / "results" / "intermediate" / "notices" / "craft.parquet").to_pandas()
    assert sorted(notices["document_id"]) == sorted(docs["document_id"])
    assert notices["url"].str.startswith("http://www.ncbi.nlm.nih.gov/pmc/articles/PMC").all()
    counts = pd.read_csv(root / "results/intermediate/corpus_counts/craft.tsv", sep="\t").set_index("split")
    assert counts.loc["all", ["documents", "sentences", "mentions", "discontinuous"]].tolist() == [
        97,
        31516,
        99623,
        2014,
    ]
    modules = pd.read_csv(root / "results/intermediate/corpus_module_counts/craft.tsv", sep="\t")
    assert modules[modules["split"] == "all"].set_index("module")["annotations"].to_dict()["UBERON"] == 18820


# Token-per-line corpora of the default (documents / sentences / text tokens per split: train, dev, test);
# text tokens equal the mirror README's token counts except GENIA-pos (MEDLINE field lines, one repeat).
EXPECTED_CONLL = {
    "genia_pos": {
        "documents": (1579, 210, 210),
        "sentences": (14743, 1964, 1826),
        "tokens": (386380, 51227, 49086),
    },
    "ex_ptm": {
        "documents": (138, 44, 184),
        "sentences": (1377, 437, 1839),
        "tokens": (39888, 12664, 53020),
    },
}


@pytest.mark.parametrize("corpus", sorted(EXPECTED_CONLL))
def test_token_per_line_corpora(workflow_runs: dict[int, Path], corpus: str) -> None:
    docs, sents, ments = _tables(workflow_runs[2], corpus)
    assert ments.empty  # no concept annotations
    split = docs.set_index("document_id")["split"]
    counts = pd.read_csv(workflow_runs[2] / "results/intermediate/corpus_counts" / f"{corpus}.tsv", sep="\t")
    counts = counts.set_index("split")
    got = {
        "documents": docs["split"].value_counts(),
        "sentences": sents["document_id"].map(split).value_counts(),
        "tokens": counts["tokens"],
    }
    for kind, expected in EXPECTED_CONLL[corpus].items():
        assert tuple(int(got[kind].get(s, 0)) for s in ("train", "dev", "test")) == expected, kind
    assert counts.loc["all", "documents"] == len(docs) and counts.loc["all", "sentences"] == len(sents)
    assert counts.loc["all", "mentions"] == 0
    # text: the sentences joined by single spaces; title and abstract joined likewise when both exist
    joined = sents.sort_values(["document_id", "sentence_id"]).groupby("document_id")["text"].agg(" ".join)
    assert (docs.set_index("document_id")["text"] == joined.reindex(docs["document_id"]).to_numpy()).all()
    with_title = docs["title"] != ""
    assert (
        docs.loc[with_title, "text"] == docs.loc[with_title, "title"] + " " + docs.loc[with_title, "abstract"]
    ).all()
    assert (docs.loc[~with_title, "text"] == docs.loc[~with_title, "abstract"]).all()
    assert with_title.all() if corpus == "genia_pos" else not with_title.any()
    text = sents["document_id"].map(docs.set_index("document_id")["text"])
    assert all(t[s:e] == x for t, s, e, x in zip(text, sents["start"], sents["end"], sents["text"], strict=True))
    assert (sents["text"].str.split(" ").map(len).sum()) == counts.loc["all", "tokens"]
