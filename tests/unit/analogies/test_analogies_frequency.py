"""Term frequencies for BMASS: normalisation, token-boundary matching, backends, corpus readers."""

from __future__ import annotations

import gzip
from collections import Counter
from pathlib import Path

import numpy as np
import pandas as pd
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from biosem.analogies.frequency import (
    DOCUMENT_SEPARATOR,
    TermCounter,
    count_occurrences,
    document_chunks,
    normalise,
    normalise_many,
    resolve_backend,
    text_file_chunks,
)
from biosem.analogies.matching import attach_counts, prepare_terms, term_patterns
from biosem.analogies.schemas import TERM_COUNTS
from biosem.corpora.schemas import DOCUMENTS
from biosem.errors import SourceFormatError
from biosem.io import to_arrow, write_table

BACKENDS = ["pyahocorasick"] + (["ahocorasick_rs"] if resolve_backend("auto") == "ahocorasick_rs" else [])


def chunk(*documents: str) -> bytes:
    return DOCUMENT_SEPARATOR.join(d.encode("utf-8") for d in documents)


def count(patterns: list[str], text: bytes, backend: str) -> dict[str, int]:
    return dict(zip(patterns, TermCounter(patterns, backend).count(text).tolist()))


@pytest.mark.parametrize(
    ("raw", "expected"),
    [
        ("Crohn's Disease", "crohn s disease"),
        ("  Non-small-cell   lung\tcancer. ", "non small cell lung cancer"),
        ("IL-2/IL-4 (interleukin)", "il 2 il 4 interleukin"),
        ("ΑΒΓ–δ ±5 µg naïve", "αβγ δ 5 µg naïve"),  # Greek capitals lowercased, en dash and ± split
        ("Sjögren’s syndrome®", "sjögren s syndrome"),
        ("(+)", ""),
        ("a_b", "a b"),  # underscore is punctuation
    ],
)
def test_normalise(raw: str, expected: str) -> None:
    assert normalise(raw) == expected
    assert normalise_many([raw, "X"]) == [expected, "x"]


@settings(max_examples=200, deadline=None)
@given(st.lists(st.text(max_size=30), max_size=8))
def test_normalise_many_equals_normalise(texts: list[str]) -> None:
    assert normalise_many(texts) == [normalise(t) for t in texts]


@pytest.mark.parametrize("backend", BACKENDS)
def test_token_boundaries_and_punctuation(backend: str) -> None:
    patterns = ["ion", "asthma", "crohn s disease", "t cell", "cell", "t cell lymphoma", "a a"]
    text = chunk(
        "A lesion, an ionic bond; onion.",  # 'ion' only inside longer words: never counted
        "Asthma, asthma; ASTHMA. Asthmatic patients.",  # punctuation on the text side; 'asthmatic' no
        "Crohn's disease (Crohn’s Disease)",  # punctuation inside the term, both apostrophes
        "T-cell lymphoma",  # nested: 't cell', 'cell' and 't cell lymphoma' all occur once
        "a a a",  # overlapping occurrences of 'a a': 2
    )
    got = count(patterns, text, backend)
    assert got == {
        "ion": 0, "asthma": 3, "crohn s disease": 2, "t cell": 1, "cell": 1, "t cell lymphoma": 1, "a a": 2,
    }  # fmt: skip


@pytest.mark.parametrize("backend", BACKENDS)
def test_matches_never_span_documents(backend: str) -> None:
    patterns = ["heart failure", "failure"]
    got = count(patterns, chunk("the heart", "failure of the heart", "heart failure"), backend)
    assert got == {"heart failure": 1, "failure": 2}


def test_backends_agree_on_real_text() -> None:
    if len(BACKENDS) < 2:
        pytest.skip("ahocorasick_rs not installed")
    words = [
        "the",
        "of",
        "and",
        "in",
        "heart",
        "failure",
        "cell",
        "t",
        "b",
        "lymphoma",
        "acute",
        "renal",
        "injury",
        "cancer",
        "lung",
        "small",
        "non",
    ]
    rng = np.random.default_rng(3)
    docs = [" ".join(rng.choice(words, size=60)) + "." for _ in range(50)]
    patterns = sorted({" ".join(rng.choice(words, size=k)) for k in (1, 1, 2, 2, 3) for _ in range(40)})
    text = chunk(*docs)
    a = TermCounter(patterns, "pyahocorasick").count(text)
    b = TermCounter(patterns, "ahocorasick_rs").count(text)
    assert a.sum() > 100
    np.testing.assert_array_equal(a, b)


@pytest.mark.parametrize("backend", BACKENDS)
def test_workers_and_chunking_do_not_change_counts(backend: str) -> None:
    patterns = ["cell", "t cell", "renal injury"]
    chunks = [chunk("T cell and B cell.", "Acute renal injury.")] * 7
    one, stats = count_occurrences(patterns, chunks, workers=1, backend=backend)
    two, _ = count_occurrences(patterns, chunks, workers=2, backend=backend)
    np.testing.assert_array_equal(one, [14, 7, 7])
    np.testing.assert_array_equal(one, two)
    assert stats["chunks"] == 7 and stats["matches"] == 28
    small, _ = count_occurrences(patterns, chunks[:3], workers=2, backend=backend)  # counted inline
    np.testing.assert_array_equal(small, [6, 3, 3])


def test_token_code_beyond_single_code_points() -> None:
    """Vocabularies larger than the single-code range use two-code tokens; alignment still holds."""
    from biosem.analogies import frequency

    assert len(frequency._token_code(0)) == 1
    two = frequency._token_code(frequency._SINGLE_CAPACITY + 5)
    assert len(two) == 2 and frequency._LEAD[0] <= ord(two[0]) < frequency._LEAD[1]
    codes = {frequency._token_code(r) for r in range(0xD7F0, 0xD810)}  # around the surrogates
    assert all(not 0xD800 <= ord(c[0]) < 0xE000 for c in codes) and len(codes) == 32


def test_invalid_patterns_rejected() -> None:
    with pytest.raises(ValueError, match="normalised"):
        TermCounter(["heart  failure"], "pyahocorasick")
    with pytest.raises(ValueError, match="distinct"):
        TermCounter(["a", "a"], "pyahocorasick")


def test_prepare_terms_and_counts() -> None:
    terms = pd.DataFrame(
        {
            "source": "s",
            "concept_id": ["1", "1", "2", "3"],
            "term_id": ["a", "b", "c", "d"],
            "term": ["Malaria (disorder)", "Malaria", "Asthma", "(+)"],
            "term_type": ["fsn", "synonym", "preferred", "synonym"],
            "language": "en",
            "active": [True, True, True, True],
            "scope": None,
        }
    )
    prepared = prepare_terms(terms)
    assert prepared["term"].tolist() == ["Malaria", "Malaria", "Asthma", "(+)"]
    assert prepared["normalised"].tolist() == ["malaria", "malaria", "asthma", ""]
    patterns = term_patterns(prepared)
    assert patterns.forms == ["asthma", "malaria"] and patterns.modes == ["folded", "folded"]
    counts, _ = count_occurrences(patterns.forms, [chunk("Malaria and asthma; malaria.")], modes=patterns.modes)
    table = attach_counts(prepared, patterns, counts)
    assert table["count"].tolist() == [2, 2, 1, 0]
    assert table["count_folded"].tolist() == [2, 2, 1, 0]
    assert to_arrow(table, TERM_COUNTS).num_rows == 4


def test_text_file_chunks_plain_gzip_and_errors(tmp_path: Path) -> None:
    lines = ["First abstract about asthma.", "", "Second: asthma, again."]
    plain = tmp_path / "a.txt"
    plain.write_text("\n".join(lines) + "\n", encoding="utf-8")
    packed = tmp_path / "a.txt.gz"
    packed.write_bytes(gzip.compress(plain.read_bytes()))
    for path in (plain, packed):
        stats: Counter[str] = Counter()
        counts, _ = count_occurrences(["asthma", "abstract asthma"], text_file_chunks(path, 16, stats))
        assert counts.tolist() == [2, 0] and stats["documents"] == 2
    bad = tmp_path / "bad.txt"
    bad.write_bytes(b"fine line\nbad \xff byte\n")
    with pytest.raises(SourceFormatError) as err:
        list(text_file_chunks(bad))
    assert err.value.line == 2


def test_document_chunks_skip_repeated_ids(tmp_path: Path) -> None:
    def docs(corpus: str, ids: list[str], texts: list[str]) -> Path:
        frame = pd.DataFrame(
            {"corpus": corpus, "document_id": ids, "split": "train", "title": "", "abstract": "", "text": texts}
        )
        path = tmp_path / f"{corpus}.parquet"
        write_table(frame, path, DOCUMENTS)
        return path

    a = docs("a", ["1", "2"], ["asthma", "asthma asthma"])
    b = docs("b", ["2", "3"], ["asthma asthma", "Asthma!"])  # PMID 2 already counted in corpus a
    stats: Counter[str] = Counter()
    counts, _ = count_occurrences(["asthma"], document_chunks([a, b], 1, stats=stats))
    assert counts.tolist() == [4]
    assert stats["documents"] == 3 and stats["duplicate documents"] == 1
