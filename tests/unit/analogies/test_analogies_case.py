"""Issue 37: terms counted with their case (abbreviations, capitals, common words), abbreviations only
in the documents that name their concept otherwise, ambiguous terms never answers, what each rule
removed, and the abbreviation-count validity measure. Hand-made terms and texts."""

from __future__ import annotations

import dataclasses

import numpy as np
import pandas as pd
import pytest
from conftest import SHARED_DATA

from biosem.analogies.construct import RULE_COLUMNS, AnalogyParams, ambiguous_forms, build_analogies, concept_terms
from biosem.analogies.frequency import (
    DOCUMENT_SEPARATOR,
    TermCounter,
    case_key,
    case_variants,
    count_occurrences,
    lower_sentence_starts,
    match_forms,
    resolve_backend,
)
from biosem.analogies.matching import (
    BMASS_RULES,
    CaseRules,
    attach_counts,
    attribute_words,
    common_words,
    prepare_terms,
    term_patterns,
    written_in_capitals,
)
from biosem.analogies.schemas import TERM_COUNTS
from biosem.analogies.validity import abbreviation_counts, all_capitals
from biosem.io import to_arrow
from biosem.wic.lexical import configure_nltk_data

BACKENDS = ["pyahocorasick"] + (["ahocorasick_rs"] if resolve_backend("auto") == "ahocorasick_rs" else [])
NO_COMMON_WORDS = CaseRules(common_word_zipf=None, common_word_attributes=False)
"""The case rules without WordNet and wordfreq (tests of the other rules)."""


@pytest.fixture(scope="module", autouse=True)
def wordnet() -> None:
    configure_nltk_data([SHARED_DATA / "nltk_data"])


def chunk(*documents: str) -> bytes:
    return DOCUMENT_SEPARATOR.join(d.encode("utf-8") for d in documents)


def terms(rows: list[tuple[str, str, str]]) -> pd.DataFrame:
    """(concept_id, term, term_type) rows as a terms intermediate."""
    frame = pd.DataFrame(rows, columns=["concept_id", "term", "term_type"])
    frame["source"] = "t"
    frame["term_id"] = [f"{c}#{i}" for i, c in enumerate(frame["concept_id"])]
    frame["language"] = "en"
    frame["active"] = True
    frame["scope"] = None
    return frame


def counted(rows: list[tuple[str, str, str]], text: bytes, rules: CaseRules, backend: str) -> pd.DataFrame:
    """term_counts of hand-made terms in one chunk of text, indexed by term."""
    prepared = prepare_terms(terms(rows), rules)
    patterns = term_patterns(prepared)
    counts = TermCounter(patterns.forms, backend, patterns.modes, patterns.counter_contexts()).count(text)
    table = attach_counts(prepared, patterns, counts)
    assert to_arrow(table, TERM_COUNTS).num_rows == len(rows)
    return table.set_index("term")


# --------------------------------------------------------------------------------------------------
# What "written in capitals or mixed case" means, and the case key
# --------------------------------------------------------------------------------------------------
def test_written_in_capitals() -> None:
    forms = ["CAN", "IgM", "mRNA", "HIV Infections", "Type IIb", "Crohn disease", "Alzheimer Disease", "Vitamin B"]
    assert written_in_capitals(forms).tolist() == [True, True, True, True, True, False, False, False]
    assert written_in_capitals(["Sjögren Syndrome", "ΑΒΓ", "naïve T cell"]).tolist() == [False, True, False]
    keys = [case_key(t) for t in ("CAN", "Can", "can", "IgM", "Infections")]
    assert keys == ["CAN", "can", "can", "IgM", "infections"]
    assert case_variants("infections") == ("infections", "Infections") and case_variants("CAN") == ("CAN",)
    assert match_forms(["HIV Infections", "A-DNA", "Crohn's"], "cased") == ["HIV infections", "a DNA", "crohn s"]
    assert match_forms(["HIV Infections", "A-DNA"], "exact") == ["HIV Infections", "A DNA"]


def test_sentence_starts_lose_their_capital() -> None:
    got = lower_sentence_starts(chunk("All patients. The CAN test! (Severe) cases; Left", "RESULTS: Stroke. e.g. IgM"))
    assert got == chunk("all patients. the CAN test! (severe) cases; Left", "RESULTS: stroke. e.g. IgM")


# --------------------------------------------------------------------------------------------------
# Rules 1-3: counted with the case
# --------------------------------------------------------------------------------------------------
@pytest.mark.parametrize("backend", BACKENDS)
def test_can_is_not_the_verb(backend: str) -> None:
    rows = [("D1", "Crouzon syndrome with acanthosis nigricans", "preferred"), ("D1", "CAN", "synonym")]
    text = chunk("We can treat it. Can we? It can.", "CAN was seen; CAN. Cases of CAN.")
    new = counted(rows, text, dataclasses.replace(NO_COMMON_WORDS, abbreviation_context=False), backend)
    assert new.loc["CAN", ["case_rule", "mode", "matched"]].tolist() == ["capitals", "cased", "CAN"]
    assert new.loc["CAN", "count"] == 3 and new.loc["CAN", "count_folded"] == 6  # "can" x3 are the verb
    bmass = counted(rows, text, BMASS_RULES, backend)
    assert bmass.loc["CAN", "case_rule"] is None and bmass.loc["CAN", "count"] == 6  # the paper's count


@pytest.mark.parametrize("backend", BACKENDS)
def test_mixed_case_and_title_case(backend: str) -> None:
    rows = [
        ("I", "IgM", "preferred"), ("R", "mRNA", "preferred"), ("H", "HIV Infections", "preferred"),
        ("C", "Crohn Disease", "preferred"), ("A", "A-DNA", "abbreviation"),
    ]  # fmt: skip
    text = chunk(
        "IgM and IGM and igm; mRNA, MRNA, mrna.",
        "HIV infections, HIV Infections, hiv infections, Hiv infections.",
        "Crohn disease, CROHN DISEASE; A-DNA and a DNA sample.",
    )
    got = counted(rows, text, rules=NO_COMMON_WORDS, backend=backend)
    assert got["count"].to_dict() == {"IgM": 1, "mRNA": 1, "HIV Infections": 2, "Crohn Disease": 2, "A-DNA": 1}
    assert got["count_folded"].to_dict() == {
        "IgM": 3, "mRNA": 3, "HIV Infections": 4, "Crohn Disease": 2, "A-DNA": 2,
    }  # fmt: skip
    assert got["case_rule"].to_dict() == {
        "IgM": "capitals", "mRNA": "capitals", "HIV Infections": "capitals", "Crohn Disease": None,
        "A-DNA": "abbreviation",
    }  # fmt: skip


def test_attribute_words() -> None:
    words = {"allergic", "severe", "acute", "diabetic", "fever", "renal", "zzzq"}
    assert attribute_words(words) == {"allergic", "severe", "renal"}  # acute, diabetic: also nouns


@pytest.mark.parametrize("backend", BACKENDS)
def test_adjective_synonym_does_not_count(backend: str) -> None:
    rows = [("AD", "atopic dermatitis", "preferred"), ("AD", "Allergic", "synonym")]
    text = chunk("Allergic rhinitis and allergic reactions. Atopic dermatitis.", "Seasonal allergic rhinitis.")
    got = counted(rows, text, CaseRules(common_word_zipf=None), backend)
    assert got.loc["Allergic", "case_rule"] == "common_word" and got.loc["Allergic", "count_folded"] == 3
    assert got.loc["Allergic", "count"] == 0  # sentence-initial "Allergic" is the adjective too


def test_common_words() -> None:
    words = {"can", "march", "lead", "left", "all", "pain", "fever", "hepatitis", "cancer"}
    assert common_words(words, 4.0) == {"can", "march", "lead", "left", "all"}  # pain, fever, cancer: biomedical
    assert common_words(words, 4.0, lexnames=None) == words - {"hepatitis"}  # Zipf alone: 3.5 < 4
    assert common_words({"2", "the"}, 4.0) == {"the"}  # a number is not a word


@pytest.mark.parametrize("backend", BACKENDS)
def test_common_word_counted_only_as_cased(backend: str) -> None:
    rows = [("M1", "Lead", "preferred"), ("M2", "Fever", "preferred"), ("G1", "lead", "synonym")]
    text = chunk("Lead poisoning. It may lead to Lead levels; LEAD.", "Fever and fever.", "Lead was measured.")
    got = counted(rows, text, CaseRules(), backend)
    assert got["case_rule"].to_dict() == {"Lead": "common_word", "Fever": None, "lead": "common_word"}
    # "Lead" mid-sentence once; sentence-initial "Lead" x2 become "lead"; "LEAD" is neither
    assert got["count"].to_dict() == {"Lead": 1, "Fever": 2, "lead": 3}
    assert got.loc["Lead", "count_folded"] == 5


# --------------------------------------------------------------------------------------------------
# Rule 4: abbreviations in the documents that name their concept otherwise
# --------------------------------------------------------------------------------------------------
@pytest.mark.parametrize("backend", BACKENDS)
def test_abbreviation_counted_where_its_concept_is_named(backend: str) -> None:
    rows = [
        ("HD", "Huntington disease", "preferred"), ("HD", "HD", "synonym"),
        ("G", "tetraspanin-enriched microdomain", "preferred"), ("G", "TEM", "synonym"),
        ("M", "DNA", "preferred"), ("M", "Deoxyribonucleic Acid", "synonym"),
    ]  # fmt: skip
    text = chunk(
        "Huntington's disease? No: Huntington disease (HD). HD is inherited; HD.",
        "HD (haemodialysis) patients. HD.",
        "TEM images of the DNA.",
        "Tetraspanin-enriched microdomains; TEM.",  # the plural: not the term
    )
    got = counted(rows, text, NO_COMMON_WORDS, backend)
    assert got["in_context"].to_dict() == {
        "Huntington disease": False, "HD": True, "tetraspanin-enriched microdomain": False, "TEM": True,
        "DNA": False, "Deoxyribonucleic Acid": False,  # DNA is the concept's name: counted everywhere
    }  # fmt: skip
    assert got.loc["HD", "count_cased"] == 5 and got.loc["HD", "count"] == 3
    assert got.loc["TEM", "count_cased"] == 2 and got.loc["TEM", "count"] == 0
    assert got.loc["DNA", "count"] == 1


def test_workers_and_contexts() -> None:
    prepared = prepare_terms(terms([("H", "Huntington disease", "preferred"), ("H", "HD", "synonym")]), CaseRules())
    patterns = term_patterns(prepared)
    chunks = [chunk("Huntington disease (HD); HD.", "HD dialysis.")] * 5
    for backend in BACKENDS:
        one, _ = count_occurrences(patterns.forms, chunks, 1, backend, patterns.modes, patterns.counter_contexts())
        two, _ = count_occurrences(patterns.forms, chunks, 2, backend, patterns.modes, patterns.counter_contexts())
        np.testing.assert_array_equal(one, two)
        table = attach_counts(prepared, patterns, one).set_index("term")
        assert table.loc["HD", "count"] == 10 and table.loc["HD", "count_cased"] == 15


# --------------------------------------------------------------------------------------------------
# Ambiguous strings, what each rule removed
# --------------------------------------------------------------------------------------------------
def term_counts(rows: list[tuple[str, str, int, int]], case_rule: list[str | None] | None = None) -> pd.DataFrame:
    """term_counts rows (concept_id, term, count, count_folded); normalised = lowercased term."""
    frame = pd.DataFrame(rows, columns=["concept_id", "term", "count", "count_folded"])
    frame["source"] = "t"
    frame["term_id"] = [f"{c}#{i}" for i, c in enumerate(frame["concept_id"])]
    frame["term_type"] = "preferred"
    frame["language"] = "en"
    frame["scope"] = None
    frame["normalised"] = frame["term"].str.lower()
    frame["tokens"] = frame["normalised"].str.split().map(len)
    frame["case_rule"] = case_rule if case_rule is not None else [None] * len(frame)
    frame["in_context"] = False
    frame["count_cased"] = frame["count"]
    return frame


def test_ambiguous_string_is_never_an_answer() -> None:
    # "scleroderma" names D1 and D2; D1 keeps another frequent term, D2 has none left
    counts = term_counts(
        [("D1", "scleroderma", 9, 9), ("D1", "systemic sclerosis", 5, 5), ("D2", "Scleroderma", 9, 9),
         ("D3", "lupus", 9, 9), ("S1", "a", 9, 9), ("S2", "b", 9, 9), ("S3", "c", 9, 9)]
    )  # fmt: skip
    params = AnalogyParams(min_frequency=3, min_one_to_one=0, pairs_per_relation=2)
    assert ambiguous_forms(counts, params) == {"scleroderma"}
    out = concept_terms(counts, params).set_index("concept_id")
    assert out.loc["D1", "term"] == "systemic sclerosis" and "D2" not in out.index
    relations = pd.DataFrame(
        {"subject_id": ["S1", "S2", "S3"], "rel": "r", "rela": "r", "object_id": ["D1", "D2", "D3"], "source": "t",
         "sab": None}
    )  # fmt: skip
    datasets, table = build_analogies(relations, counts, params, "t")
    answers = {t for ts in datasets["all_info"]["d_terms"] for t in ts}
    assert answers == {"systemic sclerosis", "lupus"}  # S2 -> D2 has no usable answer: never sampled
    row = table.set_index("relation").loc["r"]
    assert (row["ambiguous_terms"], row["ambiguous_concepts"]) == (2, 1)  # both "scleroderma" rows; D2
    bmass = build_analogies(relations, counts, dataclasses.replace(params, exclude_ambiguous=False), "t")
    single = bmass[0]["single_answer"]
    with_d2 = single["b_ids"].map(lambda b: "D2" in b) | single["d_ids"].map(lambda d: "D2" in d)
    assert row["bmass_analogies"] == len(single) == 2 and row["ambiguous_analogies"] == with_d2.sum()
    assert "scleroderma" in {t for ts in bmass[0]["all_info"]["d_terms"] for t in ts} or not with_d2.any()


def test_counts_table_says_what_each_rule_removed() -> None:
    # CAN counted 30 times lowercased (the verb), 0 with its case; A still qualifies by its name
    counts = term_counts(
        [("P", "syndrome", 9, 9), ("C", "CAN", 0, 30), ("A", "Apert syndrome", 5, 5), ("A", "ACS", 1, 8),
         ("B", "Bart syndrome", 9, 9)],
        case_rule=[None, "capitals", None, "capitals", None],
    )  # fmt: skip
    params = AnalogyParams(min_frequency=3, min_one_to_one=0, pairs_per_relation=3)
    relations = pd.DataFrame(
        {"subject_id": ["C", "A", "B"], "rel": "is_a", "rela": "is_a", "object_id": "P", "source": "t", "sab": None}
    )
    _, table = build_analogies(relations, counts, params, "t")
    assert set(RULE_COLUMNS) <= set(table.columns)
    row = table.set_index("relation").loc["is_a"]
    assert (row["capitals_terms"], row["capitals_concepts"]) == (2, 1)  # CAN and ACS; concept C
    # BMASS: 3 subjects, 3 x 2 analogies, C as a or c in 4; now 2 subjects < 3: dropped
    assert (row["bmass_analogies"], row["capitals_analogies"], row["single_answer"]) == (6, 4, 0)
    assert row[[f"{r}_concepts" for r in ("abbreviation", "common_word", "context", "ambiguous")]].sum() == 0
    total = table.set_index("relation").loc["(all)"]
    assert (total["capitals_terms"], total["capitals_concepts"], total["capitals_analogies"]) == (2, 1, 4)


# --------------------------------------------------------------------------------------------------
# The abbreviation-count validity measure
# --------------------------------------------------------------------------------------------------
def test_abbreviation_count_measure_on_a_planted_case() -> None:
    analogies = pd.DataFrame(
        {
            "relation": "is_a", "rel": "is_a", "rela": "is_a",
            "a_id": ["C", "A"], "a_term": ["CAN", "Apert syndrome"],
            "b_ids": [["P"], ["P"]], "b_terms": [["syndrome"], ["syndrome"]],
            "c_id": ["A", "H"], "c_term": ["Apert syndrome", "HD"],
            "d_ids": [["P"], ["P", "Q"]], "d_terms": [["syndrome"], ["syndrome", "IgM"]],
        }
    )  # fmt: skip
    rows = [("C", "CAN"), ("A", "Apert syndrome"), ("P", "syndrome"), ("H", "HD"), ("Q", "IgM")]
    bmass = pd.DataFrame(rows, columns=["concept_id", "term"])  # no mode: counted lowercased (BMASS)
    got = abbreviation_counts(analogies, bmass)
    assert (got.count, got.total, got.examples) == (2, 5, ("CAN (C)", "HD (H)"))  # IgM is mixed case
    assert got.value == pytest.approx(0.4) and not got.passed
    fixed = bmass.assign(mode=["cased", "folded", "folded", "exact", "cased"])
    assert abbreviation_counts(analogies, fixed).value == 0.0 and abbreviation_counts(analogies, fixed).passed
    assert all_capitals("IL-2") and not all_capitals("A") and not all_capitals("IgM")
    with pytest.raises(ValueError, match="not a term of its concept"):
        abbreviation_counts(analogies, bmass.iloc[:4])
