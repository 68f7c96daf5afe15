"""Validity rows of the simlex pair sets (issue 37): POS check, weak corpus evidence, variant pairs,
duplicates, and the published sets for comparison."""

from __future__ import annotations

import nltk
import pandas as pd
import pytest
from conftest import SHARED_DATA

from biosem.simlex.checks import MAX_WRONG_POS_SHARE, simlex_validity, word_pos_flag
from biosem.validity import validity_table

NLTK_DATA = str(SHARED_DATA / "nltk_data")
if NLTK_DATA not in nltk.data.path:
    nltk.data.path.insert(0, NLTK_DATA)


@pytest.mark.parametrize(
    ("word", "pos", "flag"),
    [
        ("warfarin", "verb", "wordnet_other_pos"),  # a noun only
        ("acute", "verb", "wordnet_other_pos"),
        ("twelve", "verb", "number"),
        ("phosphorylate", "verb", None),  # not in WordNet: not flagged
        ("treat", "verb", None),
        ("ventricular", "noun", "wordnet_other_pos"),  # an adjective only
        ("million", "noun", "number"),
        ("blotting", "noun", None),  # a gerund: WordNet has it as a verb, not as an adjective
        ("tumor", "noun", None),
    ],
)
def test_word_pos_flag(word: str, pos: str, flag: str | None) -> None:
    assert word_pos_flag(word, pos) == flag


def test_word_pos_flag_rejects_other_pos() -> None:
    with pytest.raises(ValueError, match="noun or verb"):
        word_pos_flag("red", "adjective")


def _pairs(rows: list[tuple[str, str, str]]) -> pd.DataFrame:
    return pd.DataFrame(rows, columns=["word1", "word2", "quarter"])


def test_validity_rows() -> None:
    verbs = _pairs(
        [
            ("phosphorylate", "acetylate", "associated_biomedical"),
            ("excrete", "warfarin", "unassociated_biomedical"),  # a drug name
            ("score", "twelve", "unassociated_general"),  # a number
            ("treat", "cure", "associated_general"),
            ("treat", "cure", "associated_general"),  # a duplicate
            ("administer", "administrate", "associated_biomedical"),  # a derivational variant
        ]
    )
    nouns = _pairs(
        [
            ("apnoea", "apnea", "associated_biomedical"),  # a surface variant
            ("stimulant", "stimulation", "associated_biomedical"),
            ("dosage", "dose", "associated_biomedical"),
            ("neoplasia", "neoplasm", "associated_biomedical"),
            ("actin", "ventricular", "unassociated_biomedical"),  # an adjective
        ]
    )
    counts = pd.DataFrame(
        [
            ("phosphorylate", "verb", 8, 9),
            ("acetylate", "verb", 5, 5),
            ("excrete", "verb", 8, 8),
            ("warfarin", "verb", 6, 55),  # tagged a verb in 11 % of its tokens: weak evidence
            ("treat", "verb", 90, 100),
            ("cure", "verb", 9, 10),
        ],
        columns=["lemma", "pos", "pos_tokens", "evidence_tokens"],
    )
    published = {"verbs": _pairs([("grow", "pellet", ""), ("filter", "filtrate", ""), ("reduce", "inhibit", "")])}
    table = validity_table(simlex_validity({"verbs": verbs, "nouns": nouns}, counts, published))
    whole = table[table["stratum"] == ""].set_index(["dataset", "check"])

    wrong = whole.loc[("verbs", "wrong_pos_pairs")]
    assert wrong["value"] == pytest.approx(2 / 6) and wrong["threshold"] == f"<= {MAX_WRONG_POS_SHARE}"
    assert wrong["status"] == "flag" and "number: 1" in wrong["detail"] and "wordnet_other_pos: 1" in wrong["detail"]
    # weak evidence: excrete / warfarin (warfarin tagged a verb in 0.11 of its tokens), and score / twelve
    # and administer / administrate, absent from the counts
    weak = whole.loc[("verbs", "weak_pos_evidence_pairs")]
    assert weak["value"] == pytest.approx(3 / 6) and weak["status"] == "info"
    assert whole.loc[("verbs", "duplicate_pairs"), "value"] == 1
    assert whole.loc[("verbs", "surface_variant_pairs"), "value"] == 0
    derived = whole.loc[("verbs", "derivational_variant_pairs")]
    assert derived["value"] == 1 and derived["status"] == "flag" and "administrate" in derived["detail"]
    assert whole.loc[("verbs", "published_wrong_pos_pairs"), "value"] == pytest.approx(1 / 3)  # pellet
    assert whole.loc[("verbs", "published_derivational_variant_pairs"), "value"] == 1  # filter / filtrate
    assert whole.loc[("verbs", "published_wrong_pos_pairs"), "status"] == "info"

    assert whole.loc[("nouns", "wrong_pos_pairs"), "value"] == pytest.approx(1 / 5)
    surface = whole.loc[("nouns", "surface_variant_pairs")]
    assert surface["value"] == 1 and "spelling: 1" in surface["detail"]
    assert whole.loc[("nouns", "derivational_variant_pairs"), "value"] == 3
    assert ("nouns", "published_wrong_pos_pairs") not in whole.index  # no published set given

    quarters = table[(table["dataset"] == "verbs") & (table["check"] == "wrong_pos_pairs") & (table["stratum"] != "")]
    by_quarter = quarters.set_index("stratum")["value"].to_dict()
    assert by_quarter == {
        "associated_biomedical": 0.0,
        "unassociated_biomedical": 1.0,
        "associated_general": 0.0,
        "unassociated_general": 1.0,
    }
    assert (quarters["status"] == "info").all()


def test_unknown_dataset() -> None:
    with pytest.raises(ValueError, match="simlex datasets"):
        empty = pd.DataFrame(columns=["lemma", "pos", "pos_tokens", "evidence_tokens"])
        simlex_validity({"adjectives": _pairs([])}, empty)
