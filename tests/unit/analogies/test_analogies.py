"""BMASS analogy construction: usable concepts, one-to-one counting, bundling, n(n-1), settings, format."""

from __future__ import annotations

from pathlib import Path

import pandas as pd
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from biosem.analogies.construct import (
    DATASETS,
    STATUS_FEW_ONE_TO_ONE,
    STATUS_FEW_SUBJECTS,
    STATUS_KEPT,
    STATUS_NO_USABLE,
    STATUS_NOT_ALLOWED,
    AnalogyParams,
    build_analogies,
    concept_terms,
    params_from_config,
    relation_instances,
    relation_label,
    relation_statistics,
)
from biosem.analogies.formats import (
    TEXT_COLUMNS,
    format_analogies,
    parse_analogies,
    read_analogies,
    write_analogies,
)
from biosem.analogies.schemas import ANALOGIES
from biosem.errors import SourceFormatError
from biosem.io import to_arrow


def term_counts(rows: list[tuple[str, str, int]], **extra: object) -> pd.DataFrame:
    """Hand-made term_counts rows: (concept_id, term, count); normalised = lowercased term."""
    frame = pd.DataFrame(rows, columns=["concept_id", "term", "count"])
    frame["source"] = "t"
    frame["term_id"] = [f"{c}#{i}" for i, c in enumerate(frame["concept_id"])]
    frame["term_type"] = "preferred"
    frame["language"] = "en"
    frame["scope"] = None
    frame["normalised"] = frame["term"].str.lower()
    frame["tokens"] = frame["normalised"].str.split().map(len)
    for key, value in extra.items():
        frame[key] = value
    return frame


def relations(rows: list[tuple[str, str, str | None, str]]) -> pd.DataFrame:
    """(subject_id, rel, rela, object_id) rows as a relations intermediate."""
    frame = pd.DataFrame(rows, columns=["subject_id", "rel", "rela", "object_id"])
    frame["source"] = "t"
    frame["sab"] = None
    return frame


def params(**kw: object) -> AnalogyParams:
    base = {"min_frequency": 2, "min_one_to_one": 1, "pairs_per_relation": 2}
    return AnalogyParams(**{**base, **kw})  # type: ignore[arg-type]


# --------------------------------------------------------------------------------------------------
# Usable concepts and their frequent term
# --------------------------------------------------------------------------------------------------
def test_frequency_threshold_and_frequent_term() -> None:
    counts = term_counts(
        [
            ("C1", "Heart attack", 3), ("C1", "Myocardial infarction", 7), ("C1", "MI", 7),
            ("C2", "Asthma", 1),  # below the threshold: not usable
            ("C3", "beta", 2), ("C3", "alpha", 2),  # tie: string order picks "alpha"
        ]
    )  # fmt: skip
    out = concept_terms(counts, params(min_frequency=2)).set_index("concept_id")
    assert out.loc["C1", "normalised"] == "mi"  # count 7 ties with "myocardial infarction": "mi" < "myo..."
    assert out.loc["C3", "term"] == "alpha"
    assert out["usable"].to_dict() == {"C1": True, "C2": False, "C3": True}


def test_ineligible_terms_and_concepts() -> None:
    counts = term_counts([("C1", "Common word", 50), ("C1", "Rare name", 1), ("C2", "Meta", 50), ("C3", "x", 9)])
    counts.loc[0, "scope"] = "RELATED"  # OBO related synonym: not eligible under [EXACT]
    counts.loc[3, "language"] = "fr"
    concepts = pd.DataFrame({"concept_id": ["C1", "C2", "C3"], "active": True, "module": ["m", "model", "m"]})
    out = concept_terms(counts, params(exclude_modules=("model",)), concepts).set_index("concept_id")
    assert list(out.index) == ["C1"]
    assert out.loc["C1", "term"] == "Rare name" and not out.loc["C1", "usable"]
    relaxed = concept_terms(counts, params(synonym_scopes=None, languages=None))
    assert relaxed.set_index("concept_id")["usable"].to_dict() == {"C1": True, "C2": True, "C3": True}


# --------------------------------------------------------------------------------------------------
# Relations and one-to-one instances
# --------------------------------------------------------------------------------------------------
def test_relation_labels_and_instances() -> None:
    assert relation_label("RO", "has_finding_site") == "RO/has_finding_site"
    assert relation_label("CHD", None) == "CHD"
    assert relation_label("is_a", "is_a") == "is_a"
    rel = relations([("a", "RO", "x", "b"), ("a", "RO", "x", "b"), ("a", "RO", "", "a"), ("c", "RO", None, "d")])
    rel.loc[1, "sab"] = "OTHER"  # the same instance from another SAB counts once
    table = relation_instances(rel).to_pandas().sort_values(["subject_id"])
    assert table[["subject_id", "object_id"]].values.tolist() == [["a", "b"], ["c", "d"]]  # self-loop dropped
    assert table["rela"].isna().tolist() == [False, True]
    inverse = relation_instances(rel.iloc[:1], inverse=True).to_pandas().sort_values("rel")
    assert inverse[["rel", "rela", "subject_id", "object_id"]].values.tolist() == [
        ["RO", "x", "a", "b"], ["inverse(RO)", "inverse(x)", "b", "a"],
    ]  # fmt: skip


def test_one_to_one_counting() -> None:
    # R: s1->o1 (one-to-one), s2->o2 & s2->o3 (subject with two objects), s3->o4 & s4->o4 (object with
    # two subjects), s5->o5 (one-to-one), s6->rare (object not usable: ignored, so s6 has no instance).
    rel = relations(
        [("s1", "R", None, "o1"), ("s2", "R", None, "o2"), ("s2", "R", None, "o3"), ("s3", "R", None, "o4"),
         ("s4", "R", None, "o4"), ("s5", "R", None, "o5"), ("s6", "R", None, "rare"), ("s1", "Q", None, "o1")]
    )  # fmt: skip
    ids = ["s1", "s2", "s3", "s4", "s5", "s6", "o1", "o2", "o3", "o4", "o5"]
    counts = term_counts([(i, f"term {i}", 5) for i in ids] + [("rare", "rare", 1)])
    p = params(min_one_to_one=2, pairs_per_relation=2)
    stats, usable = relation_statistics(relation_instances(rel), concept_terms(counts, p), p)
    stats = stats.set_index("relation")
    assert stats.loc["R", ["instances", "usable_instances", "subjects", "objects", "one_to_one"]].tolist() == [
        7,
        6,
        5,
        5,
        2,
    ]
    assert stats.loc["R", "status"] == STATUS_KEPT
    assert stats.loc["Q", "one_to_one"] == 1 and stats.loc["Q", "status"] == STATUS_FEW_ONE_TO_ONE
    assert "rare" not in set(usable["object_id"])


def test_relation_filters_in_order() -> None:
    rel = relations(
        [("a", "RO", "has_x", "b"), ("c", "RO", "has_x", "d"),  # 2 one-to-one, 2 subjects
         ("a", "RB", None, "b"), ("c", "RB", None, "d"),
         ("a", "RN", None, "b"),  # 1 subject
         ("a", "SY", None, "zz")]  # object unknown: no usable instance
    )  # fmt: skip
    counts = term_counts([(i, i, 9) for i in "abcd"])
    p = params(min_one_to_one=1, pairs_per_relation=2, relations=("has_x", "RN"))
    stats, _ = relation_statistics(relation_instances(rel), concept_terms(counts, p), p)
    assert stats.set_index("relation")["status"].to_dict() == {
        "RB": STATUS_NOT_ALLOWED, "RN": STATUS_FEW_SUBJECTS, "RO/has_x": STATUS_KEPT, "SY": STATUS_NO_USABLE,
    }  # fmt: skip
    by_label = params(min_one_to_one=1, relations=("RO/has_x",))
    stats, _ = relation_statistics(relation_instances(rel), concept_terms(counts, by_label), by_label)
    assert stats.set_index("relation").loc["RO/has_x", "status"] == STATUS_KEPT


# --------------------------------------------------------------------------------------------------
# Sampling, bundling, the three settings
# --------------------------------------------------------------------------------------------------
def drug_example() -> tuple[pd.DataFrame, pd.DataFrame]:
    """has_tradename: aspirin has three brands, the others one each; 6 subjects in all."""
    rows = [("aspirin", "bayer", 30), ("aspirin", "ecotrin", 50), ("aspirin", "bufferin", 30)]
    rows += [(f"drug{i}", f"brand{i}", 10 + i) for i in range(5)]
    rel = relations([(s, "RO", "has_tradename", o) for s, o, _ in rows])
    counts = term_counts(
        [(s, s.capitalize(), 40) for s in {r[0] for r in rows}] + [(o, o.capitalize(), c) for _, o, c in rows]
    )
    return rel, counts


@pytest.mark.parametrize("n", [2, 3, 6])
def test_exact_n_times_n_minus_one(n: int) -> None:
    rel, counts = drug_example()
    datasets, table = build_analogies(rel, counts, params(pairs_per_relation=n), "t")
    for name in ("single_answer", "multi_answer", "all_info"):
        assert len(datasets[name]) == n * (n - 1)
        pairs = datasets[name][["a_id", "c_id"]]
        assert not pairs.duplicated().any() and (pairs["a_id"] != pairs["c_id"]).all()
        assert pairs["a_id"].nunique() == n
    row = table.set_index("relation").loc["RO/has_tradename"]
    assert row["sampled_pairs"] == n and row["single_answer"] == n * (n - 1)


def test_bundling_and_settings() -> None:
    rel, counts = drug_example()
    datasets, table = build_analogies(rel, counts, params(pairs_per_relation=6), "t")
    single, multi, info = (datasets[k] for k in ("single_answer", "multi_answer", "all_info"))
    aspirin_objects = ["ecotrin", "bayer", "bufferin"]  # by frequency (50, 30, 30), ties by term
    as_c = multi[multi["c_id"] == "aspirin"]
    assert all(d == aspirin_objects for d in as_c["d_ids"])
    assert all(d == ["Ecotrin", "Bayer", "Bufferin"] for d in as_c["d_terms"])
    assert all(b == ["ecotrin"] for b in multi.loc[multi["a_id"] == "aspirin", "b_ids"])  # primary object
    assert all(d == ["ecotrin"] for d in single.loc[single["c_id"] == "aspirin", "d_ids"])
    assert all(b == aspirin_objects for b in info.loc[info["a_id"] == "aspirin", "b_ids"])
    assert single["b_ids"].map(len).eq(1).all() and single["d_ids"].map(len).eq(1).all()
    # Amb: every subject is c in 5 analogies; answers 3 (aspirin) or 1 -> (3 + 5) / 6.
    row = table.set_index("relation").loc["RO/has_tradename"]
    assert row["amb"] == pytest.approx(8 / 6)
    assert row["one_to_one"] == 5  # aspirin has three objects
    assert table.iloc[-1]["relation"] == "(all)" and table.iloc[-1]["status"] == "ok"
    for frame in datasets.values():
        to_arrow(frame, ANALOGIES)  # schema-valid


def test_unigram_subset() -> None:
    rel = relations([("a", "R", None, "b"), ("c", "R", None, "d"), ("e", "R", None, "f")])
    counts = term_counts(
        [
            ("a", "alpha", 5),
            ("b", "beta", 5),
            ("c", "gamma", 5),
            ("d", "delta", 5),
            ("e", "two words", 5),
            ("f", "zeta", 5),
        ]
    )
    datasets, _ = build_analogies(rel, counts, params(pairs_per_relation=3), "t")
    uni = datasets["unigram_all_info"]
    assert len(datasets["all_info"]) == 6 and len(uni) == 2  # every analogy with "two words" dropped
    assert set(uni["a_id"]) == {"a", "c"}


def test_deterministic_and_seeded() -> None:
    rel, counts = drug_example()
    one = build_analogies(rel, counts, params(pairs_per_relation=3, seed=1), "t")
    two = build_analogies(rel, counts, params(pairs_per_relation=3, seed=1), "t")
    for name in DATASETS:
        pd.testing.assert_frame_equal(one[0][name], two[0][name])
    pd.testing.assert_frame_equal(one[1], two[1])
    samples = {
        tuple(
            sorted(
                set(build_analogies(rel, counts, params(pairs_per_relation=3, seed=s), "t")[0]["single_answer"]["a_id"])
            )
        )
        for s in range(8)
    }
    assert len(samples) > 1  # the seed drives the sample


def test_no_relation_survives_writes_empty_and_says_so(tmp_path: Path) -> None:
    rel, counts = drug_example()
    datasets, table = build_analogies(rel, counts, params(min_one_to_one=99), "t")
    assert all(len(frame) == 0 for frame in datasets.values())
    assert table.iloc[-1]["status"] == "empty"
    assert table.iloc[0]["status"] == STATUS_FEW_ONE_TO_ONE
    write_analogies(datasets["single_answer"], tmp_path / "x.txt")
    assert (tmp_path / "x.txt").read_text() == ""
    assert to_arrow(datasets["all_info"], ANALOGIES).num_rows == 0
    empty_rel = relations([])
    _, table = build_analogies(empty_rel, counts, params(), "t")
    assert table["relation"].tolist() == ["(all)"] and table.iloc[0]["status"] == "empty"


def test_params_from_config_overrides() -> None:
    section = {
        "min_frequency": 25, "min_one_to_one": 50, "pairs_per_relation": 50, "relations": None,
        "add_inverses": ["obo"], "languages": ["en"], "synonym_scopes": ["EXACT"], "exclude_modules": [],
        "exclude_ambiguous_terms": True, "overrides": {"hpo": {"min_frequency": 3, "relations": ["is_a"]}},
    }  # fmt: skip
    hpo = params_from_config(section, "hpo", "obo", 7)
    assert (hpo.min_frequency, hpo.min_one_to_one, hpo.relations, hpo.inverse, hpo.seed) == (3, 50, ("is_a",), True, 7)
    umls = params_from_config(section, "umls", "rrf", 7)
    assert (umls.min_frequency, umls.relations, umls.inverse) == (25, None, False)
    with pytest.raises(ValueError):
        AnalogyParams(pairs_per_relation=1)


# --------------------------------------------------------------------------------------------------
# Reference text format
# --------------------------------------------------------------------------------------------------
def analogy_frame(rows: list[tuple]) -> pd.DataFrame:
    return pd.DataFrame(rows, columns=list(TEXT_COLUMNS))


def test_format_layout_and_round_trip(tmp_path: Path) -> None:
    frame = analogy_frame(
        [
            ("RO/has_tradename", "C1", "aspirin", ["C2"], ["Bayer"],
             "C3", "ibuprofen", ["C4", "C5"], ["Advil", "Motrin"]),
            ("RO/has_tradename", "C3", "ibuprofen", ["C4"], ["Advil"], "C1", "aspirin", ["C2"], ["Bayer"]),
            ("is_a", "HP:0000001", 'a "quoted": term, with comma', ["HP:2"], ["back\\slash\tand tab"],
             "HP:3", "colon: here", ["HP:4"], ['x:"y",z']),
        ]
    )  # fmt: skip
    text = format_analogies(frame)
    lines = text.splitlines()
    assert lines[0] == "# RO/has_tradename"
    assert lines[1] == 'C1:"aspirin"\tC2:"Bayer"\tC3:"ibuprofen"\tC4:"Advil",C5:"Motrin"'
    assert lines[3] == "# is_a" and len(lines) == 5
    assert lines[4].count("\t") == 3  # the tab inside a term is escaped
    parsed = parse_analogies(text)
    pd.testing.assert_frame_equal(parsed, frame)
    write_analogies(frame, tmp_path / "a.txt")
    pd.testing.assert_frame_equal(read_analogies(tmp_path / "a.txt"), frame)


_ids = st.text(
    st.characters(blacklist_characters='\t\n\r",', blacklist_categories=("Cs",)), min_size=1, max_size=8
).filter(lambda s: ':"' not in s)
_terms = st.text(st.characters(blacklist_categories=("Cs",)), max_size=12)
_lists = st.integers(1, 3).flatmap(
    lambda k: st.tuples(st.lists(_ids, min_size=k, max_size=k), st.lists(_terms, min_size=k, max_size=k))
)
_rows = st.tuples(
    st.sampled_from(["RO/has_tradename", "is_a", "116680003/Is a"]), _ids, _terms, _lists, _ids, _terms, _lists
).map(lambda r: (r[0], r[1], r[2], r[3][0], r[3][1], r[4], r[5], r[6][0], r[6][1]))


@settings(max_examples=300, deadline=None)
@given(st.lists(_rows, max_size=6))
def test_format_round_trip_property(rows: list[tuple]) -> None:
    frame = analogy_frame(rows)
    parsed = parse_analogies(format_analogies(frame))
    assert parsed.values.tolist() == frame.values.tolist()


@pytest.mark.parametrize(
    ("text", "line", "what"),
    [
        ('C1:"a"\tC2:"b"\tC3:"c"\tC4:"d"\n', 1, "header"),
        ('# R\nC1:"a"\tC2:"b"\tC3:"c"\n', 2, "four tab-separated"),
        ('# R\nC1:"a"\tC2:"b"\tC3:"c"\tC4:"d" \n', 2, "field d"),
        ('# R\nC1:"a",C9:"z"\tC2:"b"\tC3:"c"\tC4:"d"\n', 2, "field a"),
        ('# R\nC1:"a"\tC2:"b\\q"\tC3:"c"\tC4:"d"\n', 2, "field b"),
    ],
)
def test_parse_errors_name_the_line(text: str, line: int, what: str) -> None:
    with pytest.raises(SourceFormatError) as err:
        parse_analogies(text, "x.txt")
    assert err.value.line == line and what in err.value.expected


def test_unwritable_ids_rejected() -> None:
    frame = analogy_frame([("R", 'C"1', "a", ["C2"], ["b"], "C3", "c", ["C4"], ["d"])])
    with pytest.raises(ValueError, match="cannot be written"):
        format_analogies(frame)


def test_built_datasets_round_trip_through_both_formats(tmp_path: Path) -> None:
    from biosem.io import read_table, write_table

    rel, counts = drug_example()
    datasets, _ = build_analogies(rel, counts, params(pairs_per_relation=4), "t")
    for name, frame in datasets.items():
        write_table(frame, tmp_path / f"{name}.parquet", ANALOGIES)
        write_analogies(frame, tmp_path / f"{name}.txt")
        stored = read_table(tmp_path / f"{name}.parquet")
        text = read_analogies(tmp_path / f"{name}.txt")
        assert len(text) == len(stored) == len(frame)
        for column in TEXT_COLUMNS:
            as_lists = [v if isinstance(v, str) else list(v) for v in stored[column]]
            assert as_lists == text[column].tolist() == [v if isinstance(v, str) else list(v) for v in frame[column]]
