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


# A MeSH-like hierarchy ("subject PAR object": subject is the parent): Kidney Diseases > Renal
# Insufficiency > Acute Kidney Injury (grandparent two levels up, as in MeSH C12); Salts > Sodium
# Chloride > Sodium Chloride, Dietary; Cerebral Infarction and Stroke are not related by the tree.
# MeSH stores both directions (CHD too), as MRREL does.
KIDNEY, INSUFFICIENCY, AKI = "M0012014", "M0018614", "M0541307"
SALTS, NACL, DIETARY_NACL = "M0019407", "M0019880", "M0026729"
STROKE, INFARCTION = "M0328070", "M0003885"
PROGESTINS, PROGESTERONE = "M0017669", "M0017672"
PD_, JUVENILE = "M0015963", "M0328250"  # two concepts of the descriptor Parkinson Disease (D010300)
COLD_DISEASE, COLD_TEMPERATURE = "M0004859", "M0004858"

_TREE = [(KIDNEY, INSUFFICIENCY), (INSUFFICIENCY, AKI), (SALTS, NACL), (NACL, DIETARY_NACL)]
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
    a = [KIDNEY, AKI, SALTS, DIETARY_NACL, AKI, KIDNEY]
    b = [AKI, KIDNEY, DIETARY_NACL, SALTS, DIETARY_NACL, KIDNEY]
    assert ancestor_links(a, b, RELATIONS).tolist() == [True, True, True, True, False, False]
    # only the RELs of prune_relations are walked: without PAR (and CHD not listed) nothing links
    assert not ancestor_links(a, b, RELATIONS, ("SY", "RB")).any()
    # CHD alone walks the same tree from the other end; SY joins two concepts into one
    assert ancestor_links([KIDNEY], [AKI], RELATIONS, ("CHD",)).tolist() == [True]
    synonyms = pd.concat([RELATIONS, pd.DataFrame([("X", "SY", AKI)], columns=RELATIONS.columns)])
    assert ancestor_links(["X"], [KIDNEY], synonyms).tolist() == [True]


def test_synonym_link_after_surface_normalisation_keeps_recorded_homonyms() -> None:
    got = synonym_links(
        ["stroke", "Progestogens", "cold", "cerebral infarction"],
        [STROKE, PROGESTERONE, COLD_DISEASE, INFARCTION],
        ["Cerebro-vascular accidents", "progestins", "cold", "stroke"],
        [INFARCTION, PROGESTINS, COLD_TEMPERATURE, STROKE],
        TERMS,
    )
    # "cerebro-vascular accidents" is Stroke's term (hyphen, plural); "progestogens" is Progestins';
    # "cold" is a term of both cold concepts (a homonym: the corpus' senses stay a negative);
    # each string of the last pair names its own concept only
    assert got.tolist() == [True, True, False, False]


def test_same_record_pairs() -> None:
    assert same_record_pairs(RECORDS).values.tolist() == [[PD_, JUVENILE, "record"]]
    assert same_record_pairs(RECORDS, [PD_, STROKE]).empty


def test_prune_reasons_name_each_link_in_order() -> None:
    c1 = pd.Series([KIDNEY, SALTS, PD_, STROKE, "C1", COLD_DISEASE, KIDNEY])
    c2 = pd.Series([AKI, DIETARY_NACL, JUVENILE, INFARCTION, "C2", COLD_TEMPERATURE, INSUFFICIENCY])
    t1 = pd.Series(["renal injury", "salt", "pd", "stroke", "x", "cold", "kidney disease"])
    t2 = pd.Series(["renal injury", "salt", "juvenile pd", "cerebrovascular accident", "x", "cold", "renal failure"])
    kw = {"records": RECORDS, "term1": t1, "term2": t2, "term_sets": TERMS}
    got = prune_reasons(c1, c2, RELATIONS, MAPPINGS, links=LINKS, **kw).tolist()
    assert got == ["ancestor", "ancestor", "record", "synonym", "shared_code", None, "relation_PAR"]
    # the paper's rules alone (no link test): only the direct parent and the shared code
    paper = prune_reasons(c1, c2, RELATIONS, MAPPINGS, **kw).tolist()
    assert paper == [None, None, None, None, "shared_code", None, "relation_PAR"]
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
    """The four wrong negatives of issue 37's review, one per link reason, beside a true homonym."""
    selected = _selected(
        [
            ("renal injury", KIDNEY),  # ancestor: Kidney Diseases ... Acute Kidney Injury, two levels
            ("renal injury", AKI),
            ("PD", PD_),  # record: two concepts of one descriptor
            ("PD", JUVENILE),
            ("stroke", STROKE),  # synonym: "cerebrovascular accident" is an entry term of Stroke
            ("cerebrovascular accident", INFARCTION),
            ("x", "C1"),  # shared code
            ("x", "C2"),
            ("cold", COLD_DISEASE),  # a homonym both concepts record: a true negative
            ("cold", COLD_TEMPERATURE),
        ]
    )
    params = CandidateParams(max_pairs_per_block=None, negative_links=LINKS)
    # "stroke" / "cerebrovascular accident": both terms of Stroke, so a synonyms-group pair
    candidates, counts, stats = build_candidates(
        selected, TERMS, params, generator(0, "links"), RELATIONS, MAPPINGS, RECORDS
    )
    terms = selected.set_index("sentence_key")["term_lower"]
    negatives = {(terms[r.sentence1], terms[r.sentence2]) for r in candidates.itertuples() if r.label == 0}
    assert negatives == {("cold", "cold")}
    identity = counts.set_index(["group", "label"]).loc[("term_identity", 0)]
    assert identity["pruned_ancestor"] == identity["pruned_record"] == identity["pruned_shared_code"] == 1
    assert identity["pruned_synonym"] == 0 and identity["kept"] == 1
    synonyms = counts.set_index(["group", "label"]).loc[("synonyms", 0)]
    assert synonyms["pruned_synonym"] == synonyms["sentence_pairs"] == 1 and synonyms["kept"] == 0
    assert stats["unit_pairs_pruned_synonym"] == 1 and stats["unit_pairs_pruned_ancestor"] == 1
    # without the link test (the paper) the three linked negatives stay; the shared code is pruned
    candidates, counts, _ = build_candidates(
        selected, TERMS, CandidateParams(max_pairs_per_block=None), generator(0, "links"), RELATIONS, MAPPINGS, RECORDS
    )
    assert int((candidates["label"] == 0).sum()) == 4
    assert "pruned_ancestor" not in counts and counts["pruned_shared_code"].sum() == 1
