"""Validity rows of analogy datasets (biosem.analogies.validity.analogy_validity; issue 37)."""

from __future__ import annotations

import pandas as pd
import pytest

from biosem.analogies.validity import analogy_validity
from biosem.validity import FLAG, INFO, PASS, validity_table

TERM_COUNTS = pd.DataFrame(
    [
        ("D:1", "Crouzon syndrome", "crouzon syndrome", "folded"),
        ("D:2", "CAN", "can", "folded"),  # an abbreviation counted by lowercasing: the verb "can"
        ("D:3", "acanthosis", "acanthosis", "folded"),
        ("D:4", "HD", "hd", "cased"),  # counted as written
        ("D:5", "chorea", "chorea", "folded"),
        ("D:6", "cold", "cold", "folded"),
        ("D:9", "Chorea", "chorea", "folded"),
    ],
    columns=["concept_id", "term", "normalised", "mode"],
)


def _analogy(a, b, c, d, relation="is_a"):
    return {
        "relation": relation,
        "rel": relation,
        "rela": relation,
        "a_id": a[0],
        "a_term": a[1],
        "b_ids": [b[0]],
        "b_terms": [b[1]],
        "c_id": c[0],
        "c_term": c[1],
        "d_ids": [x[0] for x in d],
        "d_terms": [x[1] for x in d],
    }


CROUZON, CAN, ACANTHOSIS = ("D:1", "Crouzon syndrome"), ("D:2", "CAN"), ("D:3", "acanthosis")
HD, CHOREA, COLD = ("D:4", "HD"), ("D:5", "chorea"), ("D:6", "cold")


def _rows(datasets, ambiguous=frozenset()):
    table = validity_table(analogy_validity(datasets, TERM_COUNTS, set(ambiguous)))
    return table.set_index(["dataset", "check"])


def test_a_lowercased_abbreviation_an_ambiguous_answer_and_a_duplicate_are_flagged() -> None:
    flawed = pd.DataFrame(
        [
            _analogy(CROUZON, ACANTHOSIS, HD, [CHOREA, COLD]),
            _analogy(HD, CHOREA, CROUZON, [CAN]),
            _analogy(HD, CHOREA, CROUZON, [CAN]),  # repeats (relation, a, c)
        ]
    )
    rows = _rows({"multi_answer": flawed}, ambiguous={"cold"})
    abbreviation = rows.loc[("multi_answer", "abbreviation_counted_share")]
    assert abbreviation["value"] == pytest.approx(1 / 6, abs=1e-6) and abbreviation["status"] == FLAG
    assert "CAN (D:2)" in abbreviation["detail"]
    ambiguous = rows.loc[("multi_answer", "ambiguous_answers")]
    assert ambiguous["value"] == 1 and ambiguous["status"] == FLAG and "cold" in ambiguous["detail"]
    assert rows.loc[("multi_answer", "duplicate_analogies"), "value"] == 1
    assert rows.loc[("multi_answer", "mean_answers"), "value"] == pytest.approx(4 / 3)
    assert rows.loc[("multi_answer", "mean_answers"), "status"] == INFO
    assert rows.loc[("multi_answer", "relations"), "value"] == 1


def test_a_clean_dataset_passes_and_answers_among_the_question_are_measured() -> None:
    clean = pd.DataFrame(
        [
            _analogy(CROUZON, ACANTHOSIS, HD, [CHOREA]),
            _analogy(HD, CHOREA, CROUZON, [("D:9", "Chorea")]),  # the answer is b written with a capital
        ]
    )
    rows = _rows({"single_answer": clean, "unigram_single_answer": clean.iloc[:0]})
    for check in ("abbreviation_counted_share", "ambiguous_answers", "duplicate_analogies"):
        assert rows.loc[("single_answer", check), "status"] == PASS
        assert rows.loc[("unigram_single_answer", check), "value"] == 0
    assert rows.loc[("single_answer", "answer_in_question_share"), "value"] == 0.5
    assert rows.loc[("unigram_single_answer", "mean_answers"), "value"] == 0
