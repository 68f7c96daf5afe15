"""BioWiC construction: lexical rules, concept unification, mention choice, groups, pruning, caps."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest
from conftest import REPO, SHARED_DATA
from rapidfuzz import fuzz, process

from biosem.seeds import generator
from biosem.wic import GROUPS
from biosem.wic.candidates import (
    CandidateParams,
    build_candidates,
    build_units,
    label_similarity_term_pairs,
    triangle_pairs,
)
from biosem.wic.concepts import select_mentions, unify_concepts
from biosem.wic.lexical import configure_nltk_data, initials, lemmas
from biosem.wic.prune import prune_reasons, related_concept_pairs, shared_code_pairs


@pytest.fixture(scope="module", autouse=True)
def wordnet() -> None:
    try:
        configure_nltk_data([SHARED_DATA / "nltk_data"])
    except FileNotFoundError:
        pytest.skip("WordNet not available")


# --------------------------------------------------------------------------------------------------
# lexical
# --------------------------------------------------------------------------------------------------
def test_lemmas_nouns_acronyms_and_punctuation() -> None:
    got = lemmas(["Spines", "spine", "AIDS", "aids", "Lesch-Nyhan", "mice", "Patients", "mRNAs"])
    assert got == ["spine", "spine", "aids", "aid", "lesch - nyhan", "mouse", "patient", "mrna"]


def test_initials_split_on_whitespace_and_hyphens() -> None:
    got = initials(["blood-brain barrier", "cystic fibrosis", "asthma", "  non  small-cell lung cancer"], 2)
    assert list(got) == ["bbb", "cf", None, "nsclc"]
    assert list(initials(["asthma"], 1)) == ["a"]


# --------------------------------------------------------------------------------------------------
# concept unification
# --------------------------------------------------------------------------------------------------
def _mentions(ids: list[list[str]]) -> pd.DataFrame:
    n = len(ids)
    return pd.DataFrame(
        {
            "corpus": ["c"] * n,
            "document_id": ["1"] * n,
            "mention_id": np.arange(n),
            "text": [f"m{i}" for i in range(n)],
            "concept_ids": ids,
        }
    )


def test_unify_without_terminology_keeps_namespaced_ids_and_drops_composites() -> None:
    out = unify_concepts(
        _mentions([["MESH:D014262"], [], ["MESH:D001", "MESH:D002"], ["OMIM:608089"], ["UMLS:C0011849"]])
    )
    assert out["concept_id"].tolist() == [
        "MESH:D014262",
        None,
        None,
        "OMIM:608089",
        "UMLS:C0011849",
    ]
    assert out["drop_reason"].tolist() == [None, "no_concept", "composite", None, None]
    # a repeated id is one concept, not a composite
    assert unify_concepts(_mentions([["MESH:D1", "MESH:D1"]]))["concept_id"].tolist() == ["MESH:D1"]


def test_a_discontinuous_mention_is_never_a_target() -> None:
    # CRAFT: "agenesis of ... corpus callosum" (two spans; its text is their extent) is kept in the
    # corpus tables and counted, but unification drops it, with or without a terminology.
    mentions = _mentions([["MONDO:0009022"], ["UBERON:0002336"], ["GO:0007420"]]).assign(
        discontinuous=[True, False, False], type=["MONDO", "UBERON", "GO_BP"]
    )
    out = unify_concepts(mentions)
    assert out["drop_reason"].tolist() == ["discontinuous", None, None]
    assert out["concept_id"].tolist() == [None, "UBERON:0002336", "GO:0007420"]
    typed = unify_concepts(mentions, mention_types={"c": ["MONDO", "UBERON"]})
    assert typed["drop_reason"].tolist() == ["discontinuous", None, "mention_type"]
    assert unify_concepts(_mentions([["GO:1"]]))["drop_reason"].tolist() == [None]  # no column: PubTator-era tables


def test_unify_with_umls_maps_codes_with_exactly_one_cui() -> None:
    mappings = pd.DataFrame(
        {
            "source": "umls",
            "concept_id": ["C1", "C2", "C3", "C4", "C5", "C6"],
            "code_system": ["MSH", "MSH", "MSH", "OMIM", "MSH", "MSH"],
            "code": ["D1", "D2", "D2", "608089", "D5", "NOCODE"],
        }
    )
    concepts = pd.DataFrame({"concept_id": ["C1", "C2", "C3", "C4", "C5", "C6", "C9"]})
    ids = [
        ["MESH:D1"],
        ["MESH:D2"],
        ["MESH:D3"],
        ["OMIM:608089"],
        ["UMLS:C9"],
        ["UMLS:C8"],
        ["FOO:1"],
        ["MESH:NOCODE"],
    ]
    out = unify_concepts(_mentions(ids), mappings, concepts)
    assert out["concept_id"].tolist() == ["C1", None, None, "C4", "C9", None, None, None]
    assert out["drop_reason"].tolist() == [
        None,
        "ambiguous_code",  # D2 -> C2 and C3
        "unmapped_code",
        None,
        None,
        "not_in_terminology",
        "unknown_namespace",
        "unmapped_code",  # NOCODE is never a code
    ]


def _corpus() -> tuple[pd.DataFrame, pd.DataFrame]:
    """Two documents; the first sentence is repeated in the second document; one sentence without mentions."""
    s = [
        ("c", "1", 0, "Aspirin relieves headache."),
        ("c", "1", 1, "No mention here."),
        ("c", "2", 0, "Aspirin relieves headache."),
        ("c", "2", 1, "Headache and aspirin again, aspirin."),
    ]
    sentences = pd.DataFrame(s, columns=["corpus", "document_id", "sentence_id", "text"])
    m = [
        ("c", "1", 0, 0, 0, 7, "Aspirin", ["MESH:D001241"]),
        ("c", "1", 1, 0, 17, 25, "headache", ["MESH:D006261"]),
        ("c", "2", 0, 0, 0, 7, "Aspirin", ["MESH:D001241"]),
        ("c", "2", 1, 0, 17, 25, "headache", ["MESH:D006261"]),
        ("c", "2", 2, 1, 0, 8, "Headache", ["MESH:D006261"]),
        ("c", "2", 3, 1, 13, 20, "aspirin", ["MESH:D001241"]),
        ("c", "2", 4, 1, 28, 35, "aspirin", []),
    ]
    mentions = pd.DataFrame(
        m,
        columns=[
            "corpus",
            "document_id",
            "mention_id",
            "sentence_id",
            "sentence_start",
            "sentence_end",
            "text",
            "concept_ids",
        ],
    )
    mentions["type"] = "Chemical"
    return sentences, mentions


def test_select_one_mention_per_sentence_dedup_and_counts() -> None:
    sentences, mentions = _corpus()
    selected, corpus_terms, counts = select_mentions(sentences, unify_concepts(mentions), seed=1)
    # the repeated sentence is kept once (its first occurrence), the sentence without mentions is absent
    assert selected["sentence"].tolist() == [
        "Aspirin relieves headache.",
        "Headache and aspirin again, aspirin.",
    ]
    assert selected["sentence_key"].tolist() == [0, 1]
    for row in selected.itertuples():
        assert row.sentence[row.start : row.end] == row.term
    c = counts.set_index("step")["n"]
    assert c["sentences"] == 4 and c["mentions"] == 7 and c["mentions_dropped_no_concept"] == 1
    assert c["sentences_dropped_duplicate_sentence"] == 1 and c["sentences_selected"] == 2
    terms = corpus_terms.set_index(["concept_id", "term_lower"])
    assert terms.loc[("MESH:D006261", "headache"), "mentions"] == 3
    assert terms.loc[("MESH:D006261", "headache"), "documents"] == 2


def test_select_is_seeded_and_uses_every_candidate_mention() -> None:
    sentences, mentions = _corpus()
    unified = unify_concepts(mentions)
    first = select_mentions(sentences, unified, seed=1)[0]
    assert first.equals(select_mentions(sentences, unified, seed=1)[0])
    chosen = {select_mentions(sentences, unified, seed=s)[0].iloc[1]["mention_id"] for s in range(30)}
    assert chosen == {2, 3}  # both eligible mentions of the last sentence get chosen for some seed


def test_select_rejects_offsets_that_do_not_match() -> None:
    sentences, mentions = _corpus()
    mentions.loc[0, "sentence_end"] = 6
    with pytest.raises(ValueError, match="do not match their sentence offsets"):
        select_mentions(sentences, unify_concepts(mentions), seed=1)


# --------------------------------------------------------------------------------------------------
# candidates
# --------------------------------------------------------------------------------------------------
def _selected(rows: list[tuple[str, str]]) -> pd.DataFrame:
    """One sentence per (term, concept); sentence text = 'S<k>: <term> here.'."""
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


NO_TERMS = pd.DataFrame({"concept_id": pd.Series(dtype=object), "term_lower": pd.Series(dtype=object)})


def _pairs(selected: pd.DataFrame, term_sets: pd.DataFrame = NO_TERMS, **kw) -> dict[tuple[str, str], tuple[str, int]]:
    params = CandidateParams(**{"max_pairs_per_block": None, **kw})
    cand, _, _ = build_candidates(selected, term_sets, params, generator(0, "t"))
    terms = selected.set_index("sentence_key")["term"]
    return {(terms[r.sentence1], terms[r.sentence2]): (r.group, r.label) for r in cand.itertuples()}


def test_identity_by_lowercase_and_lemma_with_both_labels() -> None:
    sel = _selected(
        [
            ("Aspirin", "A"),
            ("aspirin", "A"),
            ("spine", "S"),
            ("spines", "S"),
            ("cold", "C1"),
            ("cold", "C2"),
        ]
    )
    got = _pairs(sel)
    assert got[("Aspirin", "aspirin")] == ("term_identity", 1)
    assert got[("spine", "spines")] == ("term_identity", 1)
    assert got[("cold", "cold")] == ("term_identity", 0)
    assert len(got) == 3  # no other pair is in any group


def test_abbreviation_group_case_insensitive_with_hyphens() -> None:
    sel = _selected(
        [
            ("CF", "CF"),
            ("cystic fibrosis", "CF"),
            ("BBB", "B1"),
            ("blood-brain barrier", "B2"),
            ("A", "x"),
            ("asthma", "y"),
        ]
    )
    got = _pairs(sel)
    assert got[("CF", "cystic fibrosis")] == ("abbreviations", 1)
    assert got[("BBB", "blood-brain barrier")] == ("abbreviations", 0)
    assert ("A", "asthma") not in got  # one-token long forms make no abbreviation (min 2 tokens)
    assert _pairs(sel, abbreviation_min_tokens=1)[("A", "asthma")] == ("abbreviations", 0)


def test_synonym_group_from_term_sets() -> None:
    sel = _selected([("kidney disease", "K"), ("nephropathy", "K"), ("renal disorder", "R")])
    term_sets = pd.DataFrame(
        {
            "concept_id": ["K", "K", "K"],
            "term_lower": ["kidney disease", "nephropathy", "renal disorder"],
        }
    )
    got = _pairs(sel, term_sets)
    assert got[("kidney disease", "nephropathy")] == ("synonyms", 1)
    assert got[("kidney disease", "renal disorder")] == (
        "synonyms",
        0,
    )  # in K's set, but annotated R
    assert ("kidney disease", "nephropathy") not in _pairs(sel)


def test_label_similarity_threshold_is_strict() -> None:
    sel = _selected([("abcdefgh", "X"), ("abcdefxy", "Y"), ("abcdefghij", "Z"), ("abcdefghxy", "Z")])
    got = _pairs(sel)
    assert ("abcdefgh", "abcdefxy") not in got  # ratio exactly 75: not > 0.75
    assert got[("abcdefghij", "abcdefghxy")] == ("label_similarity", 1)  # ratio 80
    assert _pairs(sel, label_similarity_threshold=0.70)[("abcdefgh", "abcdefxy")] == (
        "label_similarity",
        0,
    )


def test_first_matching_group_wins() -> None:
    # "CF"/"cystic fibrosis" are also synonyms in the term set: abbreviation comes first.
    sel = _selected([("CF", "CF"), ("cystic fibrosis", "CF"), ("tumour", "T"), ("tumours", "T")])
    term_sets = pd.DataFrame(
        {
            "concept_id": ["CF", "CF", "T", "T"],
            "term_lower": ["cf", "cystic fibrosis", "tumour", "tumours"],
        }
    )
    got = _pairs(sel, term_sets)
    assert got[("CF", "cystic fibrosis")] == ("abbreviations", 1)
    assert got[("tumour", "tumours")] == (
        "term_identity",
        1,
    )  # identity before synonym and label similarity


def test_label_similarity_blocking_equals_brute_force() -> None:
    rng = np.random.default_rng(3)
    alphabet = np.array(list("abcde "))
    words = {"".join(rng.choice(alphabet, size=int(rng.integers(1, 14)))) for _ in range(600)}
    terms = np.array(sorted(w for w in words if w.strip()), dtype=object)
    for threshold in (0.75, 0.7, 0.5):
        got = label_similarity_term_pairs(terms, threshold, workers=1, block_rows=37)
        full = process.cdist(list(terms), list(terms), scorer=fuzz.ratio)
        i, j = np.nonzero(full > threshold * 100 + 1e-9)
        want = {(a, b) for a, b in zip(i, j) if a < b}
        assert set(zip(got["t1"], got["t2"])) == want
        assert len(want) > 50


def test_triangle_decoding_matches_triu() -> None:
    for n in (2, 3, 7, 50, 1001):
        i, j = np.triu_indices(n, k=1)
        k = np.arange(i.size)
        gi, gj = triangle_pairs(k, np.full(k.size, n))
        assert np.array_equal(gi, i) and np.array_equal(gj, j)


def test_cap_samples_distinct_pairs_and_counts_stay_exact() -> None:
    rows = [("drug", "D")] * 30 + [("drugs", "E")] * 20
    sel = _selected(rows)
    params = CandidateParams(max_pairs_per_block=50)
    cand, counts, _ = build_candidates(sel, NO_TERMS, params, generator(0, "cap"))
    c = counts.set_index(["group", "label"])
    # units: (drug, D) 30 sentences, (drugs, E) 20 sentences; all one identity block by lemma
    assert c.loc[("term_identity", 1), "sentence_pairs"] == 30 * 29 // 2 + 20 * 19 // 2
    assert c.loc[("term_identity", 0), "sentence_pairs"] == 600
    assert c.loc[("term_identity", 1), "materialised"] == 100  # two unit pairs, 50 each
    assert c.loc[("term_identity", 0), "materialised"] == 50
    assert not cand.duplicated(["sentence1", "sentence2"]).any()
    assert (cand["sentence1"] < cand["sentence2"]).all()
    concept = sel.set_index("sentence_key")["concept_id"]
    same = concept[cand["sentence1"]].to_numpy() == concept[cand["sentence2"]].to_numpy()
    assert np.array_equal(same.astype(int), cand["label"].to_numpy())
    again, _, _ = build_candidates(sel, NO_TERMS, params, generator(0, "cap"))
    assert cand.equals(again)
    full, _, _ = build_candidates(sel, NO_TERMS, CandidateParams(max_pairs_per_block=None), generator(0, "cap"))
    assert len(full) == 30 * 29 // 2 + 20 * 19 // 2 + 600


def test_units_group_sentences() -> None:
    units = build_units(_selected([("b", "X"), ("a", "X"), ("b", "X"), ("B", "Y")]))
    assert units.table[["term_lower", "concept_id", "n"]].values.tolist() == [
        ["a", "X", 1],
        ["b", "X", 2],
        ["b", "Y", 1],
    ]
    assert units.members.tolist() == [1, 0, 2, 3]


# --------------------------------------------------------------------------------------------------
# pruning
# --------------------------------------------------------------------------------------------------
RELATIONS = pd.DataFrame(
    {
        "source": "umls",
        "subject_id": ["C2", "C3", "C5", "C7", "C1"],
        "rel": ["SY", "RB", "PAR", "CHD", "RO"],
        "rela": None,
        "object_id": ["C1", "C1", "C1", "C1", "C8"],
    }
)
MAPPINGS = pd.DataFrame(
    {
        "source": "umls",
        "concept_id": ["C1", "C4", "C1", "C6", "C9"],
        "code_system": ["MSH", "MSH", "SRC", "SRC", "SRC"],
        "code": ["D1", "D1", "NOCODE", "NOCODE", ""],
    }
)


def test_related_and_shared_code_pairs() -> None:
    rel = related_concept_pairs(RELATIONS)
    assert rel.values.tolist() == [
        ["C1", "C2", "relation_SY"],
        ["C1", "C3", "relation_RB"],
        ["C1", "C5", "relation_PAR"],
    ]
    assert shared_code_pairs(MAPPINGS).values.tolist() == [["C1", "C4", "shared_code"]]  # NOCODE / "" never shared


def test_prune_reasons_each_rule_both_directions() -> None:
    a = pd.Series(["C1", "C1", "C3", "C1", "C1", "C6", "C1", "C7", "C1"])
    b = pd.Series(["C2", "C3", "C1", "C5", "C4", "C1", "C1", "C1", "C8"])
    got = prune_reasons(a, b, RELATIONS, MAPPINGS).tolist()
    assert got == [
        "relation_SY",
        "relation_RB",
        "relation_RB",
        "relation_PAR",
        "shared_code",
        None,
        None,
        None,
        None,
    ]
    assert prune_reasons(a, b, None, None).isna().all()


def test_pruning_removes_pairs_and_is_counted() -> None:
    # cold/C1 vs cold/C2 (SY), cold/C1 vs cold/C3 (RB), cold/C4 vs colds/C1 (shared code), cold/C6 (NOCODE only)
    sel = _selected(
        [
            ("cold", "C1"),
            ("cold", "C2"),
            ("cold", "C3"),
            ("cold", "C4"),
            ("cold", "C6"),
            ("colds", "C1"),
        ]
    )
    cand, counts, _ = build_candidates(
        sel,
        NO_TERMS,
        CandidateParams(max_pairs_per_block=None),
        generator(0, "p"),
        RELATIONS,
        MAPPINGS,
    )
    concept = sel.set_index("sentence_key")["concept_id"]
    kept = {tuple(sorted((concept[r.sentence1], concept[r.sentence2]))) for r in cand.itertuples()}
    assert ("C1", "C2") not in kept and ("C1", "C3") not in kept and ("C1", "C4") not in kept
    assert ("C1", "C6") in kept and ("C4", "C6") in kept and ("C1", "C1") in kept
    c = counts.set_index(["group", "label"]).loc[("term_identity", 0)]
    assert c["pruned_relation_SY"] == 2 and c["pruned_relation_RB"] == 2 and c["pruned_shared_code"] == 2
    assert c["kept"] == c["sentence_pairs"] - 6 == c["materialised"]


def test_groups_constant_matches_released_cats() -> None:
    assert GROUPS == ("term_identity", "abbreviations", "synonyms", "label_similarity")


def test_ids_of_different_namespaces_are_never_paired() -> None:
    # Without UMLS, MeSH and UMLS (or OMIM) ids cannot be compared: the label would be a guess.
    sel = _selected(
        [
            ("diabetes", "MESH:D003920"),
            ("diabetes", "UMLS:C0011849"),
            ("diabetes", "MESH:D003920"),
            ("diabetes", "OMIM:1"),
        ]
    )
    cand, counts, _ = build_candidates(sel, NO_TERMS, CandidateParams(max_pairs_per_block=None), generator(0, "n"))
    assert cand[["sentence1", "sentence2", "label"]].values.tolist() == [[0, 2, 1]]
    c = counts.set_index(["group", "label"]).loc[("term_identity", 0)]
    assert c["pruned_cross_namespace"] == c["sentence_pairs"] == 5


def test_bench_generator_resamples_with_unique_sentences_and_valid_offsets() -> None:
    import importlib.util

    script = REPO / "bench" / "generate_wic.py"
    spec = importlib.util.spec_from_file_location("bench_generate_wic", script)
    assert spec is not None
    module = importlib.util.module_from_spec(spec)
    assert spec.loader is not None
    spec.loader.exec_module(module)
    sentences, mentions = _corpus()
    sentences["start"] = 0
    sentences["end"] = sentences["text"].str.len()
    mentions["start"] = mentions["sentence_start"]
    mentions["end"] = mentions["sentence_end"]
    s, m = module.resample(sentences, mentions, target=20, seed=1)
    assert len(s) >= 20 and s["document_id"].str.contains("-r").all()
    copies = s[~s["document_id"].str.endswith("-r0")]
    assert copies["text"].str.contains(r" \[r\d+\]$").all()
    assert not s.duplicated(["document_id", "sentence_id"]).any()
    merged = m.merge(s, on=["corpus", "document_id", "sentence_id"], suffixes=("", "_s"))
    assert len(merged) == len(m)
    assert all(
        t[a:b] == x
        for t, a, b, x in zip(merged["text_s"], merged["sentence_start"], merged["sentence_end"], merged["text"])
    )
    s2, m2 = module.resample(sentences, mentions, target=20, seed=1)
    assert s.equals(s2) and m.equals(m2)
