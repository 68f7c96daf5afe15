"""BioWiC over CRAFT (issue 38) on hand-made OBO files and CRAFT-like mentions: CRAFT ids unified through
their own OBO terminology (alt_id and replaced_by followed), namespaces kept apart, abbreviations from an
OBO synonym type and from the texts' parenthesised definitions, the is_a / part_of link test, and the
articles whose open-access notice does not permit redistribution left out."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pyarrow.parquet as pq
import pytest
import yaml
from conftest import REPO

from biosem.corpora.notices import (
    ALL_RIGHTS_RESERVED,
    NO_PERMISSION_STATED,
    PERMITTING_CLASSES,
    classify_notice,
    classify_notices,
)
from biosem.io import read_term_sets
from biosem.seeds import generator
from biosem.terminology.obo import read_obo
from biosem.wic.candidates import CandidateParams, build_candidates, terminology_abbreviation_term_pairs
from biosem.wic.concepts import (
    exclude_by_notice,
    inside_word,
    namespace_ids,
    resolve_namespace_ids,
    unify_concepts,
)
from biosem.wic.lexical import parenthesised_definitions, short_form_of
from biosem.wic.prune import ancestor_links, gene_family_links, prune_reasons
from biosem.wic.splits import term_classes, term_pair_keys
from biosem.workflow.wic import Wic

# GO (as the mirror's release): GO:0006416 was merged into translation (alt_id); GO:0006413 is obsolete
# and replaced by translation; GO:0000187 is obsolete without a replacement (CRAFT annotates 12 such ids).
GO_OBO = """format-version: 1.2
ontology: go

[Term]
id: GO:0008150
name: biological_process

[Term]
id: GO:0010467
name: gene expression
synonym: "expression" EXACT []
is_a: GO:0008150

[Term]
id: GO:0006412
name: translation
alt_id: GO:0006416
synonym: "protein biosynthesis" EXACT []
synonym: "protein anabolism" RELATED []
is_a: GO:0010467

[Term]
id: GO:0006413
name: obsolete translational initiation
is_obsolete: true
replaced_by: GO:0006412

[Term]
id: GO:0000187
name: obsolete activation of MAPK activity
is_obsolete: true
"""

# UBERON: "CNS" is an ABBREVIATION-typed EXACT synonym, "Hp" a BROAD one (UBERON files some so);
# the brain is part_of the central nervous system.
UBERON_OBO = """format-version: 1.2
ontology: uberon
synonymtypedef: ABBREVIATION "abbreviation"

[Term]
id: UBERON:0001017
name: central nervous system
synonym: "CNS" EXACT ABBREVIATION []
synonym: "neuraxis" RELATED []

[Term]
id: UBERON:0000955
name: brain
relationship: part_of UBERON:0001017

[Term]
id: UBERON:0000007
name: pituitary gland
synonym: "Hp" BROAD ABBREVIATION []
synonym: "hypophysis" EXACT []

[Typedef]
id: part_of
name: part of
"""


def _obo(tmp_path, text: str, name: str) -> dict[str, pd.DataFrame]:
    path = tmp_path / f"{name}.obo"
    path.write_text(text)
    tables = read_obo(path, name)
    pq.write_table(tables["terms"], tmp_path / f"{name}_terms.parquet")
    return {k: v.to_pandas() for k, v in tables.items()}


def _mentions(ids: list[list[str]], discontinuous: list[bool] | None = None) -> pd.DataFrame:
    n = len(ids)
    return pd.DataFrame(
        {
            "corpus": ["craft"] * n,
            "document_id": ["11319941"] * n,
            "mention_id": np.arange(n),
            "text": [f"m{i}" for i in range(n)],
            "type": ["GO_BP"] * n,
            "concept_ids": ids,
            "discontinuous": discontinuous or [False] * n,
        }
    )


def test_craft_go_ids_unify_through_go_with_alt_id_and_replaced_by(tmp_path) -> None:
    go = _obo(tmp_path, GO_OBO, "go")
    ids = [
        ["GO:0010467"],  # current
        ["GO:0006416"],  # alt_id of translation
        ["GO:0006413"],  # obsolete, replaced_by translation
        ["GO:0000187"],  # obsolete, no replacement
        ["GO:9999999"],  # not in GO
        ["CHEBI:15377"],  # no terminology: its own namespace
        ["MESH:D010300"],  # the main terminology's (MeSH)
        ["GO:0010467"],  # discontinuous: never a target
    ]
    mentions = _mentions(ids, discontinuous=[False] * 7 + [True])
    found = namespace_ids(mentions, ["GO", "CL"])
    assert found == {"CL": [], "GO": ["GO:0000187", "GO:0006413", "GO:0006416", "GO:0010467", "GO:9999999"]}
    tables = (go["concepts"], go["associations"], go["mappings"])
    resolved = resolve_namespace_ids(found, {"GO": tables, "CL": tables})  # no CL id: nothing looked up
    by_id = resolved.set_index("id")["resolution"].to_dict()
    assert by_id == {
        "GO:0000187": "obsolete",
        "GO:0006413": "replaced_by",
        "GO:0006416": "alt_id",
        "GO:0010467": "primary",
        "GO:9999999": "unresolved",
    }
    mesh_mappings = pd.DataFrame({"concept_id": ["M0015963"], "code_system": ["MESH"], "code": ["D010300"]})
    mesh_concepts = pd.DataFrame({"concept_id": ["M0015963"]})
    out = unify_concepts(
        mentions,
        mesh_mappings,
        mesh_concepts,
        {"MESH": "MESH"},
        own_namespace=None,
        keep_unmapped=["CHEBI"],
        resolved=resolved,
    )
    assert out["concept_id"].tolist() == [
        "GO:0010467",
        "GO:0006412",
        "GO:0006412",
        None,
        None,
        "CHEBI:15377",
        "M0015963",
        None,
    ]
    assert out["drop_reason"].tolist() == [
        None,
        None,
        None,
        "obsolete_id",
        "unresolved_id",
        None,
        None,
        "discontinuous",
    ]
    assert out["unified"].tolist()[:3] == ["namespace_terminology"] * 3
    assert out["unified"].tolist()[5:7] == ["kept_unmapped", "terminology"]
    assert out["resolution"].tolist()[:5] == ["primary", "alt_id", "replaced_by", "obsolete", "unresolved"]
    # without a main terminology the namespace terminologies still unify their ids
    alone = unify_concepts(mentions, resolved=resolved)
    assert alone["concept_id"].tolist()[:3] == ["GO:0010467", "GO:0006412", "GO:0006412"]
    assert alone["unified"].tolist()[5] == "corpus"
    with pytest.raises(ValueError, match="not resolved"):
        unify_concepts(mentions, resolved=resolved[resolved["id"] != "GO:0010467"])


def _selected(rows: list[tuple[str, str, str]]) -> pd.DataFrame:
    """(corpus, term, concept) per sentence; lemma = lowercase term (no WordNet needed)."""
    terms = [t for _, t, _ in rows]
    sentences = [f"S{k}: the {t} here." for k, t in enumerate(terms)]
    starts = [len(f"S{k}: the ") for k in range(len(rows))]
    return pd.DataFrame(
        {
            "sentence_key": np.arange(len(rows)),
            "corpus": [c for c, _, _ in rows],
            "document_id": [str(k) for k in range(len(rows))],
            "sentence_id": 0,
            "sentence": sentences,
            "mention_id": 0,
            "term": terms,
            "start": starts,
            "end": [s + len(t) for s, t in zip(starts, terms)],
            "term_lower": [t.lower() for t in terms],
            "lemma": [t.lower() for t in terms],
            "concept_id": [c for _, _, c in rows],
            "type": None,
        }
    )


def test_namespaces_stay_apart(tmp_path) -> None:
    """A CRAFT mention of GO:0010467 and a PubTator (MeSH) mention of "expression" never share a concept,
    and their pair is never a negative: its label is unknown (cross_namespace)."""
    selected = _selected(
        [
            ("craft", "expression", "GO:0010467"),
            ("craft", "expression", "GO:0010467"),
            ("bc5cdr", "expression", "M0025939"),
            ("bc5cdr", "expression", "M0025939"),
        ]
    )
    term_sets = pd.DataFrame({"concept_id": ["GO:0010467"], "term_lower": ["expression"], "abbreviation": [False]})
    cand, counts, stats = build_candidates(selected, term_sets, CandidateParams(), generator(0, "t"))
    corpus = selected["corpus"].to_numpy()
    assert len(cand) == 2 and (cand["label"] == 1).all()
    assert (corpus[cand["sentence1"]] == corpus[cand["sentence2"]]).all()
    assert stats["unit_pairs_pruned_cross_namespace"] == 1
    reasons = prune_reasons(pd.Series(["GO:0010467", "CL:0000540"]), pd.Series(["M0025939", "GO:0010467"]), None, None)
    assert reasons.tolist() == ["cross_namespace", "cross_namespace"]


def test_abbreviation_from_an_obo_synonym_type_and_synonym_scopes(tmp_path) -> None:
    _obo(tmp_path, UBERON_OBO, "uberon")
    path = tmp_path / "uberon_terms.parquet"
    wanted = ["cns", "central nervous system", "neuraxis", "hp", "pituitary gland", "hypophysis", "brain"]
    exact = read_term_sets(path, wanted, ["ABBREVIATION"], scopes=["EXACT"])
    pairs = set(zip(exact["concept_id"], exact["term_lower"], exact["abbreviation"]))
    assert ("UBERON:0001017", "cns", True) in pairs
    assert ("UBERON:0000007", "hp", True) in pairs  # an abbreviation whatever its scope
    assert ("UBERON:0000007", "hypophysis", False) in pairs
    assert not any(t == "neuraxis" for _, t, _ in pairs)  # RELATED: another meaning
    every = read_term_sets(path, wanted, ["ABBREVIATION"])
    assert "neuraxis" in set(every["term_lower"])
    terms = np.array(sorted(wanted), dtype=object)
    got = terminology_abbreviation_term_pairs(terms, exact)
    named = {tuple(sorted((terms[a], terms[b]))) for a, b in zip(got["t1"], got["t2"])}
    assert ("central nervous system", "cns") in named and ("hp", "pituitary gland") in named


def test_obo_ancestor_link_through_is_a_and_part_of(tmp_path) -> None:
    go = _obo(tmp_path, GO_OBO, "go")
    uberon = _obo(tmp_path, UBERON_OBO, "uberon")
    relations = pd.concat([go["relations"], uberon["relations"]], ignore_index=True)
    hit = ancestor_links(
        ["GO:0006412", "UBERON:0000955", "GO:0010467", "UBERON:0000007"],
        ["GO:0008150", "UBERON:0001017", "GO:0006412", "UBERON:0001017"],
        relations,
        ["is_a", "part_of"],
    )
    assert hit.tolist() == [True, True, True, False]  # two is_a levels; part_of; either direction; unrelated
    assert not ancestor_links(["UBERON:0000955"], ["UBERON:0001017"], relations, ["is_a"]).any()


def test_parenthesised_definitions() -> None:
    assert short_form_of("QTLs", "quantitative trait loci")
    assert short_form_of("CNS", "central nervous system")
    assert not short_form_of("ES", "mouse cells")  # its first letter must start a word of the long form
    assert not short_form_of("CNS", "nervous system")  # the whole long form must be spelled: C is missing
    assert not short_form_of("central", "CNS") and not short_form_of("1", "one")
    sentence = "We mapped two quantitative trait loci (QTLs) in the CNS (central nervous system) (Figure 1)."
    spans = [("quantitative trait loci", "SO"), ("QTLs", "SO"), ("CNS", "UB"), ("central nervous system", "UB")]
    starts = [sentence.index(t) for t, _ in spans]
    mentions = pd.DataFrame(
        {
            "corpus": "craft",
            "document_id": "1",
            "sentence_id": 0,
            "sentence": sentence,
            "sentence_start": starts,
            "sentence_end": [s + len(t) for s, (t, _) in zip(starts, spans)],
            "text": [t for t, _ in spans],
        }
    )
    got = parenthesised_definitions(mentions)
    assert got[["short_lower", "long_lower"]].values.tolist() == [
        ["cns", "central nervous system"],
        ["qtls", "quantitative trait loci"],
    ]
    assert got["documents"].tolist() == [1, 1]


CRAFT_STATEMENTS = {
    "15784609": "© The Author 2005. Published by Oxford University Press. All rights reserved",
    "11319941": (
        "Copyright © 2001 Rosen and Williams; licensee BioMed Central Ltd. This is an Open Access article: "
        "verbatim copying and redistribution of this article are permitted in all media for any purpose, "
        "provided this notice is preserved along with the article's original URL."
    ),
    "14611658": (
        "Copyright: © 2003 Lee et al. This is an open-access article distributed under the terms of the "
        "Public Library of Science Open-Access License, which permits unrestricted use, distribution, and "
        "reproduction in any medium, provided the original work is properly cited"
    ),
    "15207008": (
        "Copyright © 2004 Yu et al; licensee BioMed Central Ltd. This is an Open Access article distributed under "
        "the terms of the Creative Commons Attribution License (), which permits unrestricted use, distribution, "
        "and reproduction in any medium, provided the original work is properly cited."
    ),
    "15560850": "Copyright © 2004 Götz et al; licensee BioMed Central Ltd.",
    "16110338": (
        "This is an open-access article distributed under the terms of the Creative Commons Public Domain "
        "declaration which stipulates that, once placed in the public domain, this work may be freely reproduced."
    ),
}


def test_notice_classes() -> None:
    got = {pmid: classify_notice(s) for pmid, s in CRAFT_STATEMENTS.items()}
    assert got == {
        "15784609": ALL_RIGHTS_RESERVED,
        "11319941": "bmc_verbatim",
        "14611658": "plos_open_access",
        "15207008": "cc_by",
        "15560850": NO_PERMISSION_STATED,
        "16110338": "cc_public_domain",
    }
    assert classify_notice("  © The Author 2006.\nPublished by Oxford University Press.  ALL RIGHTS\nRESERVED") == (
        ALL_RIGHTS_RESERVED
    )


def test_articles_whose_notice_forbids_redistribution_are_left_out() -> None:
    docs = ["15784609", "11319941", "15560850"]
    sentences = pd.DataFrame(
        {"corpus": ["craft"] * 6 + ["bc5cdr"], "document_id": [d for d in docs for _ in (0, 1)] + ["123"]}
    )
    mentions = pd.DataFrame({"corpus": ["craft"] * 3 + ["bc5cdr"], "document_id": [*docs, "123"]})
    notices = pd.DataFrame({"corpus": "craft", "document_id": docs, "statement": [CRAFT_STATEMENTS[d] for d in docs]})
    notices["notice_class"] = classify_notices(notices)
    kept_s, kept_m, counts = exclude_by_notice(sentences, mentions, notices, PERMITTING_CLASSES)
    assert sorted(set(kept_s["document_id"])) == ["11319941", "123"]
    assert sorted(kept_m["document_id"]) == ["11319941", "123"]
    assert counts.set_index("step")["n"].to_dict() == {
        "documents_excluded_notice_all_rights_reserved": 1,
        "documents_excluded_notice_no_permission_stated": 1,
        "sentences_excluded_notice": 4,
        "mentions_excluded_notice": 2,
    }
    # permitting "no permission stated" (configurable) keeps that article
    _, kept_m, _ = exclude_by_notice(sentences, mentions, notices, [*PERMITTING_CLASSES, NO_PERMISSION_STATED])
    assert "15560850" in set(kept_m["document_id"]) and "15784609" not in set(kept_m["document_id"])
    with pytest.raises(ValueError, match="no notice"):
        exclude_by_notice(sentences, mentions, notices.iloc[1:], PERMITTING_CLASSES)


def test_default_config_unifies_craft_through_the_obo_terminologies() -> None:
    config = yaml.safe_load((REPO / "config" / "config.yaml").read_text())
    wic = Wic(config)
    assert "craft" in wic.corpora and wic.notice_corpora == ["craft"]
    assert wic.namespaces == {"CL": "cl", "GO": "go", "MOP": "mop", "SO": "so", "UBERON": "uberon"}
    assert wic.select_params["permitted_notices"] == list(PERMITTING_CLASSES)
    assert wic.candidate_params["prune_relations"] == ["SY", "RB", "PAR", "is_a", "part_of"]
    inputs = wic.select_inputs(None)
    assert inputs["notices"] == ["results/intermediate/notices/craft.parquet"]
    assert inputs["namespace_associations"][1] == "results/intermediate/associations/go.parquet"
    bad = yaml.safe_load((REPO / "config" / "config.yaml").read_text())
    bad["wic"]["namespace_terminologies"]["MESH"] = "go"
    with pytest.raises(ValueError, match="namespace MESH is already unified"):
        Wic(bad)
    bad["wic"]["namespace_terminologies"] = {"GO": "nope"}
    with pytest.raises(ValueError, match="not a configured terminology"):
        Wic(bad)
    bad["wic"]["namespace_terminologies"] = {"DOID": "doid"}
    with pytest.raises(ValueError, match="wic.prune_relations has no entry for the terminology 'doid'"):
        Wic(bad)


def test_a_part_of_a_word_is_never_a_target() -> None:
    sentence = "Overexpression of Mtf1Mx-cre and gene expression (postnatal)."
    spans = ["expression", "Mtf1", "gene expression", "natal", "Overexpression"]
    starts = [sentence.index("expression"), sentence.index("Mtf1"), sentence.index("gene"), 54, 0]
    mentions = pd.DataFrame(
        {
            "sentence": sentence,
            "sentence_start": starts,
            "sentence_end": [a + len(t) for a, t in zip(starts, spans)],
        }
    )
    assert [sentence[a : a + len(t)] for a, t in zip(starts, spans)] == spans
    assert inside_word(mentions).tolist() == [True, True, False, True, False]


def test_gene_family_and_member_are_no_negative() -> None:
    """PR has no ontology here: a family and its member ("BMP" / "Bmp7") or a gene and its isoform
    ("E2f3" / "E2f3a") are linked by name; siblings ("Capn2" / "Capn4") stay negatives."""
    pairs = [
        ("BMP", "PR:000000034", "Bmp7", "PR:000000168"),
        ("TGF-β2", "PR:000000183", "TGF-β", "PR:000000046"),
        ("ephrin", "PR:000025844", "ephrin-B1", "PR:000006921"),
        ("E2f3", "PR:000006854", "E2f3a", "PR:000028775"),
        ("Capn2", "PR:000005015", "Capn4", "PR:000005022"),
        ("Brn3a", "PR:000013041", "Brn3c", "PR:000013043"),
        ("limb", "UBERON:0002101", "limbic", "UBERON:0000349"),  # not a PR pair
        ("BMP", "PR:000000034", "BMP receptor", "PR:000000035"),  # a longer name, not a member suffix
        ("APC", "PR:000004122", "Apcs", "PR:000004126"),  # a plural s is no member: two genes
        ("Shh", "PR:000014841", "cShh", "PR:Q91035"),  # the chick form of a protein
        ("mPygo1", "PR:Q9D0P5", "Pygo1", "PR:000013523"),  # the mouse form
        ("Shh", "PR:000014841", "Ihh", "PR:000009137"),  # two hedgehogs: no prefix, a sibling
    ]
    t1, c1, t2, c2 = (list(x) for x in zip(*pairs))
    got = gene_family_links(t1, c1, t2, c2, ["PR"])
    assert got.tolist() == [True, True, True, True, False, False, False, False, False, True, True, False]
    reasons = prune_reasons(
        pd.Series(c1),
        pd.Series(c2),
        None,
        None,
        links=["variant", "gene_family"],
        term1=pd.Series(t1),
        term2=pd.Series(t2),
        family_namespaces=["PR"],
    )
    assert reasons.tolist()[:5] == ["gene_family"] * 4 + [None]
    assert prune_reasons(pd.Series(c1), pd.Series(c2), None, None, links=["gene_family"]).isna().all()


def test_term_pairs_equal_by_lemma_or_lowercase_are_one() -> None:
    """WordNet reads "ps" as the plural of "p"; "PS", an acronym, keeps "ps": one term lowercased, so the
    test term pair ("PS", "pseudogene") must keep ("ps", "pseudogene") out of train (validate-wic)."""
    selected = pd.DataFrame(
        {
            "sentence_key": [0, 1, 2, 3, 4, 5],
            "term_lower": ["ps", "ps", "pseudogene", "pseudogenes", "p", "gene"],
            "lemma": ["ps", "p", "pseudogene", "pseudogene", "p", "gene"],
        }
    )
    classes = term_classes(selected)
    assert classes[0] == classes[1] == classes[4] and classes[2] == classes[3] and classes[0] != classes[2]
    keys = term_pair_keys(selected, np.array([0, 1, 3, 0]), np.array([2, 2, 4, 5]))
    assert keys[0] == keys[1] == keys[2] != keys[3]  # (pseudogenes, p) is the pair (ps, pseudogene) too
