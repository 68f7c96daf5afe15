"""BMASS construction on the open terminologies' relation conventions, on hand-made rows: OBO ids and
Typedef names (GO), MeSH's MRREL-style REL/RELA stored in both directions, answers that coincide with
a, b or c in a hierarchy."""

from __future__ import annotations

import pandas as pd
import pyarrow as pa
import pytest
from hypothesis import given
from hypothesis import strategies as st

from biosem.analogies.construct import (
    COUNT_COLUMNS,
    STATUS_FEW_ONE_TO_ONE,
    STATUS_KEPT,
    AnalogyParams,
    answers_in_abc,
    build_analogies,
    concept_terms,
    params_from_config,
    relation_instances,
    relation_label,
    relation_labels,
    relation_statistics,
)


def term_counts(rows: list[tuple[str, str, int]]) -> pd.DataFrame:
    """(concept_id, term, count) rows as term_counts; normalised = lowercased term."""
    frame = pd.DataFrame(rows, columns=["concept_id", "term", "count"])
    frame["source"] = "t"
    frame["term_id"] = [f"{c}#{i}" for i, c in enumerate(frame["concept_id"])]
    frame["term_type"] = "preferred"
    frame["language"] = "en"
    frame["scope"] = None
    frame["normalised"] = frame["term"].str.lower()
    frame["tokens"] = frame["normalised"].str.split().map(len)
    return frame


def relations(rows: list[tuple[str, str, str | None, str]]) -> pd.DataFrame:
    frame = pd.DataFrame(rows, columns=["subject_id", "rel", "rela", "object_id"])
    frame["source"] = "t"
    frame["sab"] = None
    return frame


# --------------------------------------------------------------------------------------------------
# Labels: OBO relationship ids and Typedef names
# --------------------------------------------------------------------------------------------------
@pytest.mark.parametrize(
    ("rel", "rela", "label"),
    [
        ("is_a", "is_a", "is_a"),  # the OBO reader's is_a rows
        ("part_of", "part of", "part_of"),  # GO Typedef id and name
        ("negatively_regulates", "negatively regulates", "negatively_regulates"),
        ("inverse(part_of)", "inverse(part of)", "inverse(part_of)"),
        ("BFO:0000050", "part of", "BFO:0000050/part of"),  # an id that is not its name
        ("IDO:0000664", "has material basis in", "IDO:0000664/has material basis in"),  # DOID Typedef
        ("RO", "has_pharmacologic_action", "RO/has_pharmacologic_action"),  # MeSH, UMLS style
        ("CHD", None, "CHD"),
        ("RN", "", "RN"),
        ("Part_of", "part of", "Part_of/part of"),  # case is not ignored
    ],
)
def test_relation_label_obo_id_and_name(rel: str, rela: str | None, label: str) -> None:
    assert relation_label(rel, rela) == label
    arrow = relation_labels(pa.array([rel]), pa.array([rela or None], pa.string()))
    assert arrow.to_pylist() == [label]


_names = st.text(st.sampled_from("ab _:/()"), min_size=1, max_size=6)


@given(st.lists(st.tuples(_names, st.one_of(st.none(), _names)), min_size=1, max_size=8))
def test_relation_labels_agree_with_relation_label(pairs: list[tuple[str, str | None]]) -> None:
    rel = pa.array([r for r, _ in pairs], pa.string())
    rela = pa.array([r for _, r in pairs], pa.string())
    assert relation_labels(rel, rela).to_pylist() == [relation_label(r, a) for r, a in pairs]


def go_like() -> tuple[pd.DataFrame, pd.DataFrame]:
    """GO-shaped rows as the OBO reader writes them: is_a (rel = rela = is_a) and relationships
    (rel = the Typedef id, rela = its name)."""
    rel = relations(
        [("GO:1", "is_a", "is_a", "GO:9"), ("GO:2", "is_a", "is_a", "GO:8"), ("GO:3", "is_a", "is_a", "GO:7"),
         ("GO:1", "part_of", "part of", "GO:7"), ("GO:2", "part_of", "part of", "GO:8"),
         ("GO:3", "negatively_regulates", "negatively regulates", "GO:9")]
    )  # fmt: skip
    counts = term_counts([(f"GO:{i}", f"process {i}", 5) for i in (1, 2, 3, 7, 8, 9)])
    return rel, counts


def test_go_relations_and_their_inverses_are_labelled_by_id() -> None:
    rel, counts = go_like()
    p = AnalogyParams(min_frequency=1, min_one_to_one=2, pairs_per_relation=2, inverse=True)
    stats, _ = relation_statistics(relation_instances(rel, inverse=True), concept_terms(counts, p), p)
    by = stats.set_index("relation")
    assert list(by.index) == [
        "inverse(is_a)", "inverse(negatively_regulates)", "inverse(part_of)", "is_a", "negatively_regulates",
        "part_of",
    ]  # fmt: skip
    assert by.loc["part_of", "rela"] == "part of" and by.loc["inverse(part_of)", "rela"] == "inverse(part of)"
    assert by.loc["part_of", "status"] == by.loc["inverse(part_of)", "status"] == STATUS_KEPT
    assert by.loc["negatively_regulates", "status"] == STATUS_FEW_ONE_TO_ONE
    # A relation and its inverse have the same instances, so the same one-to-one count.
    for label in ("is_a", "part_of", "negatively_regulates"):
        assert by.loc[label, "one_to_one"] == by.loc[f"inverse({label})", "one_to_one"]
        assert by.loc[label, "subjects"] == by.loc[f"inverse({label})", "objects"]


def test_allow_list_matches_obo_id_name_or_label() -> None:
    rel, counts = go_like()
    for entry in ("part_of", "part of"):
        p = AnalogyParams(min_frequency=1, min_one_to_one=2, pairs_per_relation=2, relations=(entry,))
        stats, _ = relation_statistics(relation_instances(rel), concept_terms(counts, p), p)
        assert stats.loc[stats["status"] == STATUS_KEPT, "relation"].tolist() == ["part_of"]


# --------------------------------------------------------------------------------------------------
# MeSH: MRREL conventions, both directions stored
# --------------------------------------------------------------------------------------------------
def mesh_like() -> tuple[pd.DataFrame, pd.DataFrame]:
    """MeSH-shaped rows as biosem.terminology.mesh writes them: tree CHD/PAR between descriptors'
    preferred concepts, RN/RB between a non-preferred concept and its descriptor's preferred concept,
    and RO/has_pharmacologic_action with its inverse. Both directions are stored."""
    rows: list[tuple[str, str, str | None, str]] = []

    def both(s: str, rel: str, rela: str | None, o: str, inv: str, inv_rela: str | None) -> None:
        rows.extend([(s, rel, rela, o), (o, inv, inv_rela, s)])

    both("M_hodgkin", "CHD", None, "M_lymphoma", "PAR", None)
    both("M_gout", "CHD", None, "M_arthritis", "PAR", None)
    both("M_rheumatoid", "CHD", None, "M_arthritis", "PAR", None)  # arthritis has two children
    both("M_green_tea", "RN", None, "M_tea", "RB", None)
    both("M_pulse", "RN", None, "M_heart_rate", "RB", None)
    # Pharmacological action: many drugs per action class, so few one-to-one instances.
    for drug in ("M_ibuprofen", "M_naproxen", "M_aspirin"):
        both(drug, "RO", "has_pharmacologic_action", "M_nsaid", "RO", "pharmacologic_action_of")
    both("M_sotalol", "RO", "has_pharmacologic_action", "M_beta_blocker", "RO", "pharmacologic_action_of")
    ids = sorted({r[0] for r in rows})
    return relations(rows), term_counts([(i, i[2:].replace("_", " "), 9) for i in ids])


def test_mesh_relations_as_stored() -> None:
    rel, counts = mesh_like()
    section = {
        "min_frequency": 1, "min_one_to_one": 2, "pairs_per_relation": 2, "relations": None,
        "add_inverses": ["obo"], "languages": ["en"], "synonym_scopes": ["EXACT"], "exclude_modules": [],
        "exclude_ambiguous_terms": True, "overrides": {},
    }  # fmt: skip
    p = params_from_config(section, "mesh", "mesh", 0)
    assert p.inverse is False  # MeSH stores both directions: add_inverses never applies to it
    datasets, counts_table = build_analogies(rel, counts, p, "mesh")
    by = counts_table.set_index("relation")
    assert sorted(by.index[:-1]) == [
        "CHD", "PAR", "RB", "RN", "RO/has_pharmacologic_action", "RO/pharmacologic_action_of",
    ]  # fmt: skip
    assert by.loc["CHD", "one_to_one"] == by.loc["PAR", "one_to_one"] == 1  # hodgkin -> lymphoma only
    assert by.loc["CHD", "status"] == STATUS_FEW_ONE_TO_ONE
    assert by.loc["RN", "status"] == by.loc["RB", "status"] == STATUS_KEPT
    assert by.loc["RN", "one_to_one"] == 2
    assert by.loc["RO/has_pharmacologic_action", "one_to_one"] == 1  # sotalol; the NSAIDs share a class
    assert by.loc["RO/has_pharmacologic_action", "status"] == STATUS_FEW_ONE_TO_ONE
    multi = datasets["multi_answer"]
    assert set(multi["relation"]) == {"RB", "RN"}
    assert multi.loc[multi["relation"] == "RN", "rel"].eq("RN").all()
    assert multi.loc[multi["relation"] == "RN", "rela"].isna().all()


def test_mesh_pharmacologic_action_of_bundles_every_drug() -> None:
    rel, counts = mesh_like()
    p = AnalogyParams(min_frequency=1, min_one_to_one=0, pairs_per_relation=2, relations=("pharmacologic_action_of",))
    datasets, table = build_analogies(rel, counts, p, "mesh")
    multi = datasets["multi_answer"]
    assert set(multi["relation"]) == {"RO/pharmacologic_action_of"}
    nsaid = multi.loc[multi["c_id"] == "M_nsaid", "d_ids"].iloc[0]
    assert sorted(nsaid) == ["M_aspirin", "M_ibuprofen", "M_naproxen"]
    # Amb: two subjects (nsaid: 3 answers, beta blocker: 1), each c once -> (3 + 1) / 2.
    assert table.set_index("relation").loc["RO/pharmacologic_action_of", "amb"] == pytest.approx(2.0)


# --------------------------------------------------------------------------------------------------
# Answers that are a, b or c
# --------------------------------------------------------------------------------------------------
def test_answers_in_abc() -> None:
    frame = pd.DataFrame(
        {
            "a_id": ["x", "x", "x", "x"],
            "b_ids": [["P"], ["P"], ["P", "Q"], ["P"]],
            "c_id": ["y", "y", "y", "y"],
            "d_ids": [["P"], ["P", "R"], ["Q"], ["x"]],
        }
    )
    assert answers_in_abc(frame).tolist() == [True, False, True, True]
    assert answers_in_abc(frame.iloc[:0]).tolist() == []


def test_siblings_sharing_a_parent_are_counted() -> None:
    # is_a: s1, s2 -> P (siblings), s3 -> Q. Sampling all three: 6 analogies; (s1, s2) and (s2, s1)
    # have d = b = P, so their answer cannot be found once a, b, c are excluded.
    rel = relations([("s1", "is_a", "is_a", "P"), ("s2", "is_a", "is_a", "P"), ("s3", "is_a", "is_a", "Q")])
    counts = term_counts([(i, f"term {i}", 4) for i in ("s1", "s2", "s3", "P", "Q")])
    p = AnalogyParams(min_frequency=1, min_one_to_one=0, pairs_per_relation=3)
    datasets, table = build_analogies(rel, counts, p, "t")
    assert list(table.columns) == list(COUNT_COLUMNS)
    row = table.set_index("relation").loc["is_a"]
    assert row["single_answer"] == 6 and row["single_answer_abc"] == 2 and row["multi_answer_abc"] == 2
    assert table.iloc[-1]["single_answer_abc"] == 2  # (all)
    single = datasets["single_answer"]
    same = single[[b == d for b, d in zip(single["b_ids"], single["d_ids"])]]
    assert sorted(zip(same["a_id"], same["c_id"])) == [("s1", "s2"), ("s2", "s1")]


# --------------------------------------------------------------------------------------------------
# UBERON: a non-hierarchical relation (develops_from) read by the OBO reader, kept with its inverse
# --------------------------------------------------------------------------------------------------
UBERON_LIKE = """\
format-version: 1.2
default-namespace: uberon

[Term]
id: UBERON:0000001
name: anatomical entity

[Term]
id: UBERON:0000010
name: mesoderm
is_a: UBERON:0000001

[Term]
id: UBERON:0000011
name: ectoderm
is_a: UBERON:0000001

[Term]
id: UBERON:0000012
name: neural crest
is_a: UBERON:0000001

[Term]
id: UBERON:0000020
name: heart
is_a: UBERON:0000001
relationship: develops_from UBERON:0000010

[Term]
id: UBERON:0000021
name: epidermis
is_a: UBERON:0000001
relationship: develops_from UBERON:0000011

[Term]
id: UBERON:0000022
name: adrenal medulla
is_a: UBERON:0000001
relationship: develops_from UBERON:0000012
relationship: part_of UBERON:0000023

[Term]
id: UBERON:0000023
name: adrenal gland
is_a: UBERON:0000001

[Typedef]
id: develops_from
name: develops_from

[Typedef]
id: part_of
name: part_of
"""


def test_uberon_develops_from_is_read_and_kept_with_its_inverse(tmp_path) -> None:
    from biosem.terminology.obo import read_obo

    path = tmp_path / "uberon.obo"
    path.write_text(UBERON_LIKE, encoding="utf-8")
    tables = read_obo(path, "uberon")
    names = tables["terms"].to_pandas()
    counts = term_counts([(c, t, 9) for c, t in zip(names["concept_id"], names["term"])])
    p = AnalogyParams(min_frequency=1, min_one_to_one=3, pairs_per_relation=3, inverse=True)

    datasets, stats = build_analogies(tables["relations"], counts, p, "uberon", tables["concepts"].to_pandas())

    by = stats.set_index("relation")
    assert by.loc["develops_from", "status"] == by.loc["inverse(develops_from)", "status"] == STATUS_KEPT
    assert by.loc["develops_from", "one_to_one"] == 3
    assert by.loc["part_of", "status"] == STATUS_FEW_ONE_TO_ONE
    single = datasets["single_answer"]
    assert set(single["relation"]) == {"develops_from", "inverse(develops_from)"}
    assert len(single) == 2 * 3 * 2  # two relations, 3 subjects, every ordered pair
    develops = single[single["relation"] == "develops_from"]
    assert {(a, tuple(b)) for a, b in zip(develops["a_term"], develops["b_terms"])} == {
        ("adrenal medulla", ("neural crest",)),
        ("epidermis", ("ectoderm",)),
        ("heart", ("mesoderm",)),
    }
