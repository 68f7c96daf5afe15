"""The link test of label-0 pairs (issue 37): a negative whose two concepts are one record, an ancestor
and its descendant at any depth, concepts sharing a code, or whose one mention string is a term of the
other concept, is dropped and counted; a homonym the terminology records stays a negative."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest
from conftest import SHARED_DATA

from biosem.seeds import generator
from biosem.wic.candidates import CandidateParams, build_candidates
from biosem.wic.lexical import configure_nltk_data, lemmas
from biosem.wic.prune import (
    LINKS,
    ancestor_links,
    prune_reasons,
    reason_order,
    same_record_pairs,
    synonym_links,
)


@pytest.fixture(scope="module", autouse=True)
def wordnet() -> None:
    try:
        configure_nltk_data([SHARED_DATA / "nltk_data"])
    except FileNotFoundError:
        pytest.skip("WordNet not available")


# MeSH 2024 ("subject PAR object": subject is the parent; both directions stored, as MRREL): Kidney
# Diseases > Renal Insufficiency > Acute Kidney Injury, and Stroke > Brain Infarction > Cerebral
# Infarction, each two tree levels apart. "Salt" is an entry term of Salts, not of Sodium Chloride,
# Dietary (which is not under Salts); "Cerebrovascular Accident" one of Stroke; "Progestogens" one of
# Progestins. The cold homonym is made up: MeSH lists "Cold" under Cold Temperature only.
KIDNEY, INSUFFICIENCY, AKI = "M0012014", "M0480487", "M0541307"
STROKE, BRAIN_INFARCTION, INFARCTION = "M0328070", "M0328169", "M0003885"
SALTS, DIETARY_NACL = "M0019407", "M0026729"
PROGESTINS, PROGESTERONE = "M0017669", "M0017672"
PD_, JUVENILE = "M0015963", "M0332505"  # two concepts of the descriptor Parkinson Disease (D010300)
COLD_DISEASE, COLD_TEMPERATURE = "M0004864", "M0522559"

_TREE = [(KIDNEY, INSUFFICIENCY), (INSUFFICIENCY, AKI), (STROKE, BRAIN_INFARCTION), (BRAIN_INFARCTION, INFARCTION)]
RELATIONS = pd.DataFrame(
    [(p, "PAR", c) for p, c in _TREE] + [(c, "CHD", p) for p, c in _TREE],
    columns=["subject_id", "rel", "object_id"],
)
RECORDS = pd.DataFrame(
    {
        "concept_id": [PD_, JUVENILE, STROKE, INFARCTION],
        "record": ["D010300", "D010300", "D020521", "D002544"],
    }
)
TERMS = pd.DataFrame(
    [
        (STROKE, "stroke"),
        (STROKE, "cerebrovascular accident"),
        (INFARCTION, "cerebral infarction"),
        (SALTS, "salts"),
        (SALTS, "salt"),
        (DIETARY_NACL, "sodium chloride, dietary"),
        (DIETARY_NACL, "table salt"),
        (PROGESTINS, "progestins"),
        (PROGESTINS, "progestogens"),
        (PROGESTERONE, "progesterone"),
        (COLD_DISEASE, "common cold"),
        (COLD_DISEASE, "cold"),
        (COLD_TEMPERATURE, "cold temperature"),
        (COLD_TEMPERATURE, "cold"),
    ],
    columns=["concept_id", "term_lower"],
)
MAPPINGS = pd.DataFrame(
    {"concept_id": ["C1", "C2"], "code_system": ["SRC", "SRC"], "code": ["X1", "X1"]}
)  # two concepts of one source code (overlapping code sets)


def test_ancestor_at_any_depth_in_either_direction() -> None:
    a = [KIDNEY, AKI, STROKE, INFARCTION, AKI, KIDNEY, SALTS]
    b = [AKI, KIDNEY, INFARCTION, STROKE, INFARCTION, KIDNEY, DIETARY_NACL]
    assert ancestor_links(a, b, RELATIONS).tolist() == [True, True, True, True, False, False, False]
    # only the RELs of prune_relations are walked: without PAR (and CHD not listed) nothing links
    assert not ancestor_links(a, b, RELATIONS, ("SY", "RB")).any()
    # CHD alone walks the same tree from the other end; SY joins two concepts into one
    assert ancestor_links([KIDNEY], [AKI], RELATIONS, ("CHD",)).tolist() == [True]
    synonyms = pd.concat([RELATIONS, pd.DataFrame([("X", "SY", AKI)], columns=RELATIONS.columns)])
    assert ancestor_links(["X"], [KIDNEY], synonyms).tolist() == [True]


def test_synonym_link_after_surface_normalisation_keeps_recorded_homonyms() -> None:
    got = synonym_links(
        ["stroke", "Progestogens", "salt", "cold", "cerebral infarction"],
        [STROKE, PROGESTERONE, SALTS, COLD_DISEASE, INFARCTION],
        ["Cerebro-vascular accidents", "progestins", "Salt", "cold", "stroke"],
        [INFARCTION, PROGESTINS, DIETARY_NACL, COLD_TEMPERATURE, STROKE],
        TERMS,
    )
    # "cerebro-vascular accidents" is Stroke's term (hyphen, plural); "progestogens" is Progestins';
    # "salt" is Salts' and not Sodium Chloride, Dietary's; "cold" is a term of both cold concepts (a
    # homonym: the corpus' senses stay a negative); each string of the last pair names its own concept
    assert got.tolist() == [True, True, True, False, False]


def test_same_record_pairs() -> None:
    assert same_record_pairs(RECORDS).values.tolist() == [[PD_, JUVENILE, "record"]]
    assert same_record_pairs(RECORDS, [PD_, STROKE]).empty


def test_prune_reasons_name_each_link_in_order() -> None:
    c1 = pd.Series([KIDNEY, SALTS, PD_, STROKE, "C1", COLD_DISEASE, KIDNEY, PROGESTERONE])
    c2 = pd.Series([AKI, DIETARY_NACL, JUVENILE, INFARCTION, "C2", COLD_TEMPERATURE, INSUFFICIENCY, PROGESTINS])
    t1 = pd.Series(["renal injury", "salt", "pd", "stroke", "x", "cold", "kidney disease", "progestogens"])
    t2 = pd.Series(
        ["renal injury", "salt", "juvenile pd", "cerebrovascular accident", "x", "cold", "renal failure", "progestins"]
    )
    kw = {"records": RECORDS, "term1": t1, "term2": t2, "term_sets": TERMS}
    identity = np.array([False, False, False, False, False, True, False, False])  # cold / cold: a homonym
    got = prune_reasons(c1, c2, RELATIONS, MAPPINGS, links=LINKS, variant_scope=~identity, **kw).tolist()
    # stroke / cerebrovascular accident is linked twice (ancestor, then synonym): the first reason counts
    assert got == ["ancestor", "synonym", "record", "ancestor", "shared_code", None, "relation_PAR", "synonym"]
    # the paper's rules alone (no link test): only the direct parent and the shared code
    paper = prune_reasons(c1, c2, RELATIONS, MAPPINGS, **kw).tolist()
    assert paper == [None, None, None, None, "shared_code", None, "relation_PAR", None]
    with pytest.raises(ValueError, match="unknown negative link"):
        prune_reasons(c1, c2, RELATIONS, MAPPINGS, links=("siblings",))
    assert reason_order(("PAR",), ("synonym", "record")) == [
        "cross_namespace",
        "relation_PAR",
        "shared_code",
        "record",
        "synonym",
    ]


def _selected(rows: list[tuple[str, str]]) -> pd.DataFrame:
    terms = [t for t, _ in rows]
    sentences = [f"S{k}: {t} here." for k, t in enumerate(terms)]
    starts = [len(f"S{k}: ") for k in range(len(rows))]
    return pd.DataFrame(
        {
            "sentence_key": np.arange(len(rows)),
            "corpus": "c",
            "document_id": [str(k) for k in range(len(rows))],
            "sentence_id": 0,
            "sentence": sentences,
            "mention_id": 0,
            "term": terms,
            "start": starts,
            "end": [s + len(t) for s, t in zip(starts, terms)],
            "term_lower": [t.lower() for t in terms],
            "lemma": lemmas(terms),
            "concept_id": [c for _, c in rows],
            "type": None,
        }
    )


def test_each_planted_wrong_negative_is_dropped_and_counted() -> None:
    """The four wrong negatives of issue 37's review and one per link reason, beside a true homonym."""
    selected = _selected(
        [
            ("renal injury", KIDNEY),  # ancestor: Kidney Diseases ... Acute Kidney Injury, two levels
            ("renal injury", AKI),
            ("PD", PD_),  # record: two concepts of one descriptor
            ("PD", JUVENILE),
            ("salt", SALTS),  # synonym: "salt" is a term of Salts only
            ("salt", DIETARY_NACL),
            ("x", "C1"),  # shared code
            ("x", "C2"),
            ("cold", COLD_DISEASE),  # a homonym both concepts record: a true negative
            ("cold", COLD_TEMPERATURE),
            ("stroke", STROKE),  # synonyms group (both terms of Stroke); ancestor, two levels
            ("cerebrovascular accident", INFARCTION),
            ("progestins", PROGESTINS),  # synonyms group; synonym: "progestogens" is a term of Progestins
            ("progestogens", PROGESTERONE),
        ]
    )
    params = CandidateParams(max_pairs_per_block=None, negative_links=LINKS)
    candidates, counts, stats = build_candidates(
        selected, TERMS, params, generator(0, "links"), RELATIONS, MAPPINGS, RECORDS
    )
    terms = selected.set_index("sentence_key")["term_lower"]
    negatives = {(terms[r.sentence1], terms[r.sentence2]) for r in candidates.itertuples() if r.label == 0}
    assert negatives == {("cold", "cold")}
    table = counts.set_index(["group", "label"])
    identity, synonyms = table.loc[("term_identity", 0)], table.loc[("synonyms", 0)]
    assert identity["pruned_ancestor"] == identity["pruned_record"] == identity["pruned_synonym"] == 1
    assert identity["pruned_shared_code"] == 1 and identity["kept"] == 1
    assert synonyms["pruned_ancestor"] == synonyms["pruned_synonym"] == 1 and synonyms["kept"] == 0
    assert stats["unit_pairs_pruned_synonym"] == stats["unit_pairs_pruned_ancestor"] == 2
    assert stats["unit_pairs_pruned_record"] == 1
    # without the link test (the paper) the linked negatives stay; the shared code is pruned
    candidates, counts, _ = build_candidates(
        selected, TERMS, CandidateParams(max_pairs_per_block=None), generator(0, "links"), RELATIONS, MAPPINGS, RECORDS
    )
    assert int((candidates["label"] == 0).sum()) == 6
    assert "pruned_ancestor" not in counts and counts["pruned_shared_code"].sum() == 1


def test_variant_link_drops_one_term_written_twice_outside_term_identity() -> None:
    """WiC train had 'LN' / 'L-N' as a label-0 abbreviation pair: one string written two ways."""
    c1 = pd.Series(["D1", "D1", "D3", "D5"])
    c2 = pd.Series(["D2", "D2", "D4", "D6"])
    t1 = pd.Series(["ln", "ln", "renal injury", "cold"])
    t2 = pd.Series(["l-n", "l-n", "renal failure", "cold"])
    scope = np.array([True, False, True, False])  # the second and fourth pairs are in the term-identity group
    got = prune_reasons(c1, c2, None, None, links=("variant",), term1=t1, term2=t2, variant_scope=scope).tolist()
    assert got == ["variant", None, None, None]
    # without a scope every pair is tested; without the link none is
    assert prune_reasons(c1, c2, None, None, links=("variant",), term1=t1, term2=t2).tolist() == [
        "variant",
        "variant",
        None,
        "variant",
    ]
    assert prune_reasons(c1, c2, None, None, term1=t1, term2=t2).tolist() == [None] * 4
    assert reason_order((), LINKS)[-2:] == ["variant", "gene_family"]
