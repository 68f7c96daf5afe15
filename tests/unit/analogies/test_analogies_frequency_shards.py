"""Term counting in shards: counts merged over N = 1, 3, 7 shards equal the unsharded count (real corpora)."""

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
    text_file_chunks,
)
from biosem.corpora.pubtator import read_pubtator
from biosem.corpora.shards import file_parts

CORPORA = {
    "bc5cdr": SHARED_DATA / "bc5cdr" / "CDR_TrainingSet.PubTator.txt",
    "ncbi_disease": SHARED_DATA / "ncbi-disease" / "NCBItrainset_corpus.txt",
}


@pytest.fixture(scope="module")
def corpus(tmp_path_factory: pytest.TempPathFactory) -> tuple[list[str], list[str], list[str]]:
    """Documents Parquet of two real corpora (the second repeats 40 PMIDs of the first with other
    text, which must not count), text files (plain, gzipped, PubMed XML) and the mention texts as patterns."""
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
    lines = tables[1]["text"].head(300).tolist()
    (root / "a.txt").write_text("\n".join(lines[:200]) + "\n\n", encoding="utf-8")
    with gzip.open(root / "b.txt.gz", "wt", encoding="utf-8") as fh:
        fh.write("\n".join(lines[200:]))
    write_pubmed(root / "c.xml.gz")
    texts = [str(root / "a.txt"), str(root / "b.txt.gz"), str(root / "c.xml.gz")]
    patterns = sorted(set(normalise_many(mentions + ["tumor", "coli on tumour growth", "measured CO2 in mice"])) - {""})
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
    assert stats["documents"] == 1000 + 593 + 300 + 3  # BC5CDR train, NCBI train, text lines, XML articles
    assert expected.sum() > 10_000
    tumor = patterns.index("tumor")
    assert expected[tumor] > 0
    assert expected[patterns.index("coli on tumour growth")] == 1  # the PubMed XML title (inline markup)
    assert expected[patterns.index("measured co2 in mice")] == 1  # a section of its structured abstract
    for n in (1, 3, 7):
        merged, shard_stats = sharded_counts(documents, texts, patterns, n)
        assert shard_stats == stats, n
        np.testing.assert_array_equal(merged, expected, err_msg=f"{n} shards")


def test_merge_rejects_foreign_forms() -> None:
    with pytest.raises(ValueError, match="not a pattern"):
        merge_partial_counts(["a b"], [pd.DataFrame({"normalised": ["c"], "count": [1]})])
    merged = merge_partial_counts(
        ["a", "b"],
        [pd.DataFrame({"normalised": ["b"], "count": [2]}), pd.DataFrame({"normalised": ["b", "a"], "count": [1, 5]})],
    )
    assert merged.tolist() == [5, 3]
    assert TermCounter(["a"]).count(b"a a").tolist() == [2]
