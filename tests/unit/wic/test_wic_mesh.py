"""BioWiC with MeSH as the terminology, on hand-made MeSH records: unification through the MeSH mappings
(descriptor, supplementary record, unmapped code, OMIM), synonym and abbreviation term sets from the
terminology, tree- and descriptor-based pruning, and cross-corpus PMID deduplication."""

from __future__ import annotations

import gzip

import numpy as np
import pandas as pd
import pyarrow.parquet as pq
import pyreadr
import pytest

from biosem.io import read_term_sets
from biosem.terminology.mesh import THESAURUS_COLUMNS
from biosem.wic.candidates import synonym_term_pairs, terminology_abbreviation_term_pairs
from biosem.wic.concepts import MAPPED_TO, deduplicate_documents, unify_concepts
from biosem.wic.prune import prune_reasons

# Parkinsonian Disorders (C10.228.662) is the tree parent of Parkinson Disease (C10.228.662.600) and of
# Parkinson Disease, Secondary (C10.228.662.700); Parkinson Disease holds a narrower concept
# (Parkinsonism, Juvenile). "PD" is an abbreviation (LexicalTag ABB) of Parkinson Disease; "RNAi
# Therapeutics" is tagged ABB though it is no short form; "PPE Protective Equipment" is an embedded
# abbreviation (ABX). Supplementary records: C000001 mapped to Parkinson Disease, C000002 to two headings.
THESAURUS = pd.DataFrame(
    [
        ("D020734", "Parkinsonian Disorders", "M0028726", "T001", "Parkinsonian Disorders", "Y", "N", "NON", "Y"),
        ("D020734", "Parkinsonian Disorders", "M0028726", "T002", "Parkinsonism", "N", "N", "NON", "N"),
        ("D010300", "Parkinson Disease", "M0015963", "T003", "Parkinson Disease", "Y", "N", "EPO", "Y"),
        ("D010300", "Parkinson Disease", "M0015963", "T004", "Parkinson's Disease", "N", "N", "EPO", "N"),
        ("D010300", "Parkinson Disease", "M0015963", "T005", "Paralysis Agitans", "N", "N", "NON", "N"),
        ("D010300", "Parkinson Disease", "M0015963", "T006", "PD", "N", "N", "ABB", "N"),
        ("D010300", "Parkinson Disease", "M0328250", "T007", "Parkinsonism, Juvenile", "Y", "N", "NON", "N"),
        ("D010302", "Parkinson Disease, Secondary", "M0015968", "T008", "Secondary Parkinsonism", "Y", "N", "NON", "Y"),
        ("D000001", "RNAi Therapeutics", "M0000001", "T009", "RNAi Therapeutics", "Y", "N", "NON", "Y"),
        ("D000001", "RNAi Therapeutics", "M0000001", "T010", "RNAi Based Therapy", "N", "N", "ABB", "N"),
        ("D000002", "Protective Equipment", "M0000002", "T011", "Protective Equipment", "Y", "N", "NON", "Y"),
        ("D000002", "Protective Equipment", "M0000002", "T012", "PPE Protective Equipment", "N", "N", "ABX", "N"),
        ("D000002", "Protective Equipment", "M0000002", "T013", "PPE", "N", "N", "ACR", "N"),
    ],
    columns=list(THESAURUS_COLUMNS),
)  # fmt: skip
TREES = pd.DataFrame(
    [
        ("D020734", "Parkinsonian Disorders", "C10.228.662", "C10", "Nervous System Diseases"),
        ("D010300", "Parkinson Disease", "C10.228.662.600", "C10", "Nervous System Diseases"),
        ("D010302", "Parkinson Disease, Secondary", "C10.228.662.700", "C10", "Nervous System Diseases"),
    ],
    columns=["DescriptorUI", "DescriptorName", "tree_location", "tree1", "mesh1"],
)
ACTIONS = pd.DataFrame(columns=["DescriptorUI", "DescriptorName", "PharmActionUI"], dtype=object)
SUPP_TSV = "C000001\tparkin-like agent\tPLA-1\tD010300\nC000002\tdual agent\t\tD010300,D010302\n"


@pytest.fixture(scope="module")
def mesh(tmp_path_factory: pytest.TempPathFactory) -> dict[str, pd.DataFrame]:
    from biosem.terminology.mesh import read_mesh

    tmp = tmp_path_factory.mktemp("mesh")
    files = {
        "thesaurus": tmp / "thesaurus.rds",
        "trees": tmp / "trees.rds",
        "pharmacological_actions": tmp / "actions.rds",
        "supplementary_records": tmp / "supp.tsv.gz",
    }
    pyreadr.write_rds(files["thesaurus"], THESAURUS)
    pyreadr.write_rds(files["trees"], TREES)
    pyreadr.write_rds(files["pharmacological_actions"], ACTIONS)
    files["supplementary_records"].write_bytes(gzip.compress(SUPP_TSV.encode()))
    tables = read_mesh(files, "mesh", supplementary=True)
    pq.write_table(tables["terms"], tmp / "terms.parquet")
    out = {name: table.to_pandas() for name, table in tables.items()}
    out["terms_path"] = tmp / "terms.parquet"  # type: ignore[assignment]
    return out


def _mentions(ids: list[list[str]], corpus: str = "c", types: list[str] | None = None) -> pd.DataFrame:
    n = len(ids)
    return pd.DataFrame(
        {
            "corpus": [corpus] * n,
            "document_id": ["1"] * n,
            "mention_id": np.arange(n),
            "text": [f"m{i}" for i in range(n)],
            "type": types or ["Disease"] * n,
            "concept_ids": ids,
        }
    )


IDS = [["MESH:D010300"], ["MESH:C000001"], ["MESH:D999999"], ["OMIM:168600"], ["MESH:C000002"], ["MESH:C999999"]]


def test_descriptor_maps_to_its_preferred_concept_and_scr_to_its_record(mesh) -> None:
    out = unify_concepts(_mentions(IDS), mesh["mappings"], mesh["concepts"], {"MESH": "MESH"}, own_namespace=None)
    assert out["concept_id"].tolist() == ["M0015963", "C000001", None, None, "C000002", None]
    assert out["drop_reason"].tolist() == [
        None,
        None,
        "unmapped_code",  # a retired or unknown descriptor
        "unknown_namespace",  # MeSH maps no OMIM id
        None,
        "unmapped_code",
    ]
    assert out["unified"].tolist() == ["terminology", "terminology", None, None, "terminology", None]


def test_scr_follows_its_one_heading_when_configured(mesh) -> None:
    rel = mesh["relations"]
    headings = rel[rel["rela"] == MAPPED_TO].rename(columns={"subject_id": "concept_id", "object_id": "heading_id"})
    out = unify_concepts(
        _mentions(IDS), mesh["mappings"], mesh["concepts"], {"MESH": "MESH"}, own_namespace=None, headings=headings
    )
    assert out["concept_id"].tolist()[:2] == ["M0015963", "M0015963"]  # C000001 -> Parkinson Disease
    assert out["unified"].tolist()[:2] == ["terminology", "heading"]
    assert out["drop_reason"].tolist()[4] == "ambiguous_heading"  # C000002 is mapped to two headings


def test_unmapped_ids_kept_in_their_own_namespace_or_dropped(mesh) -> None:
    kept = unify_concepts(
        _mentions(IDS), mesh["mappings"], mesh["concepts"], {"MESH": "MESH"}, own_namespace=None, keep_unmapped=["OMIM"]
    )
    assert kept["concept_id"].tolist() == ["M0015963", "C000001", None, "OMIM:168600", "C000002", None]
    assert kept["unified"].tolist()[3] == "kept_unmapped"
    both = unify_concepts(
        _mentions(IDS),
        mesh["mappings"],
        mesh["concepts"],
        {"MESH": "MESH"},
        own_namespace=None,
        keep_unmapped=["OMIM", "MESH"],
    )
    assert both["concept_id"].tolist()[2] == "MESH:D999999" and both["drop_reason"].isna().all()
    # a kept id is never a negative of a MeSH concept: its label relation is unknown
    reasons = prune_reasons(pd.Series(["M0015963"]), pd.Series(["OMIM:168600"]), None, None)
    assert reasons.tolist() == ["cross_namespace"]


def test_mention_types_restrict_a_corpus(mesh) -> None:
    mentions = pd.concat(
        [
            _mentions([["MESH:D010300"], ["NCBIGene:5071"]], "biored", ["DiseaseOrPhenotypicFeature", "Gene"]),
            _mentions([["MESH:D010300"]], "bc5cdr", ["Gene"]),
        ],
        ignore_index=True,
    )
    out = unify_concepts(
        mentions,
        mesh["mappings"],
        mesh["concepts"],
        {"MESH": "MESH"},
        own_namespace=None,
        mention_types={"biored": ["DiseaseOrPhenotypicFeature", "ChemicalEntity"]},
    )
    assert out["drop_reason"].tolist() == [None, "mention_type", None]


def test_synonym_sets_are_the_terms_of_each_mesh_concept(mesh) -> None:
    terms = np.array(sorted(["parkinson disease", "paralysis agitans", "parkinsonism, juvenile", "parkinsonism"]))
    sets = read_term_sets(mesh["terms_path"], terms.tolist(), ["ABB", "ACR"])
    pairs = synonym_term_pairs(terms, sets)
    got = {(terms[a], terms[b]) for a, b in zip(pairs["t1"], pairs["t2"])}
    # one concept's terms only: the narrower concept of the same descriptor is not a synonym
    assert got == {("paralysis agitans", "parkinson disease")}


def test_abbreviations_from_the_term_types(mesh) -> None:
    strings = ["pd", "parkinson disease", "parkinson's disease", "ppe", "ppe protective equipment"]
    terms = np.array(sorted(strings + ["rnai based therapy", "protective equipment", "rnai therapeutics"]))
    sets = read_term_sets(mesh["terms_path"], terms.tolist(), ["ABB", "ACR"])
    assert sets.set_index("term_lower")["abbreviation"].to_dict()["pd"]
    pairs = terminology_abbreviation_term_pairs(terms, sets)
    got = {(terms[a], terms[b]) for a, b in zip(pairs["t1"], pairs["t2"])}
    assert got == {
        ("parkinson disease", "pd"),
        ("parkinson's disease", "pd"),
        ("ppe", "ppe protective equipment"),  # an ABX term is a long form of the ACR "PPE"
        ("ppe", "protective equipment"),
    }  # "RNAi Based Therapy" (tagged ABB, several words) is no short form
    # with ABX among the abbreviation types, an embedded abbreviation is still no one-token short form
    sets = read_term_sets(mesh["terms_path"], terms.tolist(), ["ABB", "ACR", "ABX", "ACX"])
    assert len(terminology_abbreviation_term_pairs(terms, sets)) == 3


def test_tree_parent_child_and_concepts_of_one_descriptor_are_pruned(mesh) -> None:
    disorders, pd_, juvenile, secondary = "M0028726", "M0015963", "M0328250", "M0015968"
    a = pd.Series([pd_, disorders, pd_, pd_, "C000001", pd_])
    b = pd.Series([disorders, secondary, juvenile, secondary, pd_, pd_])
    got = prune_reasons(a, b, mesh["relations"], mesh["mappings"], ("SY", "RB", "PAR"))
    assert got.tolist() == [
        "relation_PAR",  # tree parent / child (CHD/PAR both stored)
        "relation_PAR",
        "relation_RB",  # a narrower concept of the same descriptor (RN/RB)
        None,  # siblings in the tree stay a negative
        "relation_RB",  # SCR mapped to its heading (RN mapped_to / RB mapped_from)
        None,  # same concept: never pruned
    ]
    # without the relations the same pairs stay
    assert prune_reasons(a, b, mesh["relations"], None, ()).isna().all()


def test_a_pmid_in_several_corpora_stays_in_the_first() -> None:
    sentences = pd.DataFrame(
        {
            "corpus": ["bc5cdr", "bc5cdr", "biored", "biored", "biored", "ncbi_disease"],
            "document_id": ["1", "2", "2", "3", "1", "3"],
            "sentence_id": [0, 0, 0, 0, 0, 0],
            "text": ["a", "b", "b'", "c", "a'", "c"],
        }
    )
    mentions = sentences.assign(mention_id=0)[["corpus", "document_id", "sentence_id", "mention_id"]]
    s, m, counts = deduplicate_documents(sentences, mentions, ["bc5cdr", "ncbi_disease", "biored"])
    assert sorted(zip(s["corpus"], s["document_id"])) == [("bc5cdr", "1"), ("bc5cdr", "2"), ("ncbi_disease", "3")]
    assert sorted(zip(m["corpus"], m["document_id"])) == sorted(zip(s["corpus"], s["document_id"]))
    table = counts.set_index(["corpus", "step"])["n"]
    assert table[("biored", "documents")] == 3
    assert table[("biored", "documents_dropped_in_bc5cdr")] == 2
    assert table[("biored", "documents_dropped_in_ncbi_disease")] == 1
    with pytest.raises(ValueError, match="priority"):
        deduplicate_documents(sentences, mentions, ["bc5cdr"])
