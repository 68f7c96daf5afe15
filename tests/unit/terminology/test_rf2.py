"""Tests of the SNOMED CT RF2 adapter (biosem.terminology.rf2).

Real data: the MiniCT sample (SNOMED International, via IHTSDO/snowstorm) and Snowstorm's dummy
content in ``../shared/data/snomed-rf2-samples``, read in place. Everything else is hand-made in
``tmp_path``.
"""

from __future__ import annotations

import tempfile
from pathlib import Path

import pyarrow as pa
import pyarrow.compute as pc
import pytest
from conftest import SHARED_DATA
from hypothesis import given, settings
from hypothesis import strategies as st

from biosem.errors import SourceFormatError, SourceNotFoundError
from biosem.terminology.rf2 import read_rf2, strip_final_parenthesised_group
from biosem.terminology.schemas import TERMINOLOGY_TABLES

SAMPLES = SHARED_DATA / "snomed-rf2-samples"
MINICT = SAMPLES / "MiniCT_INT_GB_20140131"
SNOWSTORM = SAMPLES / "dummy-snomed-content" / "SnomedCT_MiniRF2" / "Snapshot"

FSN, SYN, DEF = "900000000000003001", "900000000000013009", "900000000000550004"
PREF, ACC = "900000000000548007", "900000000000549004"
US, GB = "900000000000509007", "900000000000508004"
CORE, MODEL = "900000000000207008", "900000000000012004"
PRIMITIVE, CASE = "900000000000074008", "900000000000448009"
INFERRED, EXISTENTIAL = "900000000000011006", "900000000000451002"
IS_A = "116680003"
POSSIBLY_EQUIVALENT, REPLACED_BY, SAME_AS, MOVED_TO = (
    "900000000000523009",
    "900000000000526001",
    "900000000000527005",
    "900000000000524003",
)

CONCEPT_HEADER = ["id", "effectiveTime", "active", "moduleId", "definitionStatusId"]
DESCRIPTION_HEADER = [
    "id",
    "effectiveTime",
    "active",
    "moduleId",
    "conceptId",
    "languageCode",
    "typeId",
    "term",
    "caseSignificanceId",
]
RELATIONSHIP_HEADER = [
    "id",
    "effectiveTime",
    "active",
    "moduleId",
    "sourceId",
    "destinationId",
    "relationshipGroup",
    "typeId",
    "characteristicTypeId",
    "modifierId",
]
LANGUAGE_HEADER = [
    "id",
    "effectiveTime",
    "active",
    "moduleId",
    "refsetId",
    "referencedComponentId",
    "acceptabilityId",
]
ASSOCIATION_HEADER = [*LANGUAGE_HEADER[:-1], "targetComponentId"]


def uuid(n: int) -> str:
    return f"00000000-0000-4000-8000-{n:012d}"


def write_rf2(path: Path, header: list[str], rows: list[list[str]], newline: str = "\n") -> Path:
    """Write an RF2 file: tab-separated header and rows, each line ended by ``newline``."""
    path.parent.mkdir(parents=True, exist_ok=True)
    lines = ["\t".join(header)] + ["\t".join(row) for row in rows]
    path.write_bytes("".join(line + newline for line in lines).encode("utf-8"))
    return path


def concept(cid: str, time: str = "20200131", active: str = "1") -> list[str]:
    return [cid, time, active, CORE, PRIMITIVE]


def description(
    did: str,
    cid: str,
    term: str,
    type_id: str = SYN,
    time: str = "20200131",
    active: str = "1",
    lang: str = "en",
) -> list[str]:
    return [did, time, active, CORE, cid, lang, type_id, term, CASE]


def member(n: int, refset: str, component: str, value: str, time="20200131", active="1") -> list[str]:
    return [uuid(n), time, active, CORE, refset, component, value]


def minimal_release(root: Path, kind: str = "Snapshot") -> Path:
    """A valid two-concept release with one FSN each (no optional files)."""
    term = root / "Terminology"
    write_rf2(
        term / f"sct2_Concept_{kind}_INT_20200131.txt",
        CONCEPT_HEADER,
        [concept("404684003"), concept("138875005")],
    )
    write_rf2(
        term / f"sct2_Description_{kind}-en_INT_20200131.txt",
        DESCRIPTION_HEADER,
        [
            description("2148514019", "404684003", "Clinical finding (finding)", FSN),
            description("517382016", "138875005", "SNOMED CT Concept (SNOMED RT+CTV3)", FSN),
        ],
    )
    return root


def as_dicts(table: pa.Table, *columns: str) -> list[dict]:
    return table.select(list(columns)).to_pylist()


# ---------------------------------------------------------------------------------------- real data


@pytest.fixture(scope="module")
def minict_snapshot() -> dict[str, pa.Table]:
    return read_rf2(MINICT, "snomedct_minict", release_type="Snapshot")


@pytest.fixture(scope="module")
def minict_full() -> dict[str, pa.Table]:
    return read_rf2(MINICT, "snomedct_minict", release_type="Full")


def test_minict_tables_have_the_intermediate_schemas(minict_snapshot):
    assert set(minict_snapshot) == set(TERMINOLOGY_TABLES)
    for name, table in minict_snapshot.items():
        assert table.schema == TERMINOLOGY_TABLES[name].schema
    assert minict_snapshot["mappings"].num_rows == 0
    assert set(minict_snapshot["terms"]["source"].to_pylist()) == {"snomedct_minict"}


def test_minict_full_and_snapshot_agree_after_latest_by_effective_time(minict_snapshot, minict_full):
    for name in TERMINOLOGY_TABLES:
        assert minict_full[name].equals(minict_snapshot[name]), name
    concepts = minict_full["concepts"].to_pandas()
    terms = minict_full["terms"].to_pandas()
    assert len(concepts) == 102 and concepts["active"].sum() == 100
    assert set(concepts.loc[~concepts["active"], "concept_id"]) == {"118225008", "246188002"}
    active_terms = terms[terms["active"]]
    assert active_terms["term_type"].value_counts().to_dict() == {
        "fsn": 102,
        "preferred": 101,
        "synonym": 64,
    }
    assert len(terms) == 329 and (~terms["active"]).sum() == 62
    # Active in 2013, inactivated in 2014: the Full file's latest row wins.
    by_id = {row["term_id"]: row for row in minict_full["terms"].to_pylist()}
    assert by_id["2957222010"]["active"] is False
    assert by_id["2957222010"]["acceptability"] is None


def test_minict_term_types_follow_the_gb_language_refset(minict_snapshot):
    terms = {row["term_id"]: row for row in minict_snapshot["terms"].to_pylist()}
    expected = {
        "697810018": (
            "General finding of observation of patient (finding)",
            "fsn",
            "preferred",
            True,
        ),
        "443465018": ("General finding of observation of patient", "preferred", "preferred", True),
        "443466017": ("General observation of patient", "synonym", "acceptable", True),
        "179119011": ("General patient finding", "synonym", None, False),
        "680946014": ("Is a (attribute)", "fsn", "preferred", True),
        "181114011": ("Is a", "preferred", "preferred", True),
    }
    for term_id, (term, term_type, acceptability, active) in expected.items():
        row = terms[term_id]
        assert (row["term"], row["term_type"], row["acceptability"], row["active"]) == (
            term,
            term_type,
            acceptability,
            active,
        ), term_id
        assert row["language"] == "en"


def test_minict_associations_are_mapped_to_kinds(minict_snapshot):
    assert as_dicts(minict_snapshot["associations"], "kind", "inactive_id", "target_id") == [
        {"kind": "possibly_equivalent_to", "inactive_id": "118225008", "target_id": "118222006"},
        {"kind": "possibly_equivalent_to", "inactive_id": "118225008", "target_id": "250171008"},
        {"kind": "possibly_equivalent_to", "inactive_id": "118225008", "target_id": "413350009"},
        {"kind": "replaced_by", "inactive_id": "246188002", "target_id": "404684003"},
    ]


def test_minict_relations_carry_type_names_without_semantic_tag(minict_snapshot):
    relations = minict_snapshot["relations"].to_pandas()
    assert len(relations) == 116
    assert relations.groupby(["rel", "rela"]).size().to_dict() == {
        ("116676008", "Associated morphology"): 2,
        (IS_A, "Is a"): 112,
        ("408729009", "Finding context"): 1,
        ("408731000", "Temporal context"): 1,
    }
    assert {"subject_id": "404684003", "object_id": "138875005"} in as_dicts(
        minict_snapshot["relations"].filter(pc.equal(minict_snapshot["relations"]["rel"], IS_A)),
        "subject_id",
        "object_id",
    )


def test_auto_prefers_snapshot_when_both_release_types_exist(tmp_path, minict_snapshot):
    auto = read_rf2(MINICT, "snomedct_minict")
    for name in TERMINOLOGY_TABLES:
        assert auto[name].equals(minict_snapshot[name])
    # Only a Full release present: auto reads it.
    full_only = minimal_release(tmp_path / "full_only", kind="Full")
    assert read_rf2(full_only, "x")["concepts"].num_rows == 2


def test_snowstorm_fixture_comments_are_rejected_by_default_and_skippable(tmp_path):
    with pytest.raises(SourceFormatError) as error:
        read_rf2(SNOWSTORM, "snowstorm")
    assert error.value.line == 1 and error.value.found == "#"
    # The fixture's files lack a final newline: a truncated file, also when comments are skipped.
    with pytest.raises(SourceFormatError, match="truncated file") as error:
        read_rf2(SNOWSTORM, "snowstorm", skip_comments=True)
    assert error.value.path.name == "sct2_Concept_Snapshot_INT_20210131.txt"
    assert error.value.line == error.value.path.read_bytes().count(b"\n") + 1

    # The same content with the final newlines restored, in a copy.
    fixed = tmp_path / "Snapshot"
    for path in SNOWSTORM.rglob("*.txt"):
        copy = fixed / path.relative_to(SNOWSTORM)
        copy.parent.mkdir(parents=True, exist_ok=True)
        data = path.read_bytes()
        copy.write_bytes(data if data.endswith(b"\n") else data + b"\n")
    tables = read_rf2(fixed, "snowstorm", skip_comments=True)
    assert tables["concepts"].num_rows == 13
    assert pc.all(tables["concepts"]["active"]).as_py()
    assert tables["associations"].num_rows == 0  # no association refset: an empty contribution
    relations = as_dicts(tables["relations"], "subject_id", "rel", "rela", "object_id")
    assert len(relations) == 10
    assert {
        "subject_id": "362969004",
        "rel": "363698007",
        "rela": "Finding site",
        "object_id": "113331007",
    } in relations
    terms = tables["terms"].to_pandas().set_index("term_id")
    assert terms.loc["680946014", ["term_type", "acceptability"]].tolist() == ["fsn", "acceptable"]
    assert terms.loc["3977121010", ["term", "term_type"]].tolist() == [
        "Meningitis C vaccine",
        "synonym",
    ]


# ------------------------------------------------------------------------------- hand-made releases


def test_full_release_keeps_the_latest_row_per_id(tmp_path):
    term = tmp_path / "Full" / "Terminology"
    lang = tmp_path / "Full" / "Refset" / "Language"
    write_rf2(
        term / "sct2_Concept_Full_INT_20200131.txt",
        CONCEPT_HEADER,
        [
            concept("22298006", "20180131"),
            concept("22298006", "20200131", active="0"),  # inactivated
            concept("404684003", "20020131"),
        ],
    )
    write_rf2(
        term / "sct2_Description_Full-en_INT_20200131.txt",
        DESCRIPTION_HEADER,
        [
            # Rows out of time order: the latest (2020, inactive, "Heart attack") must win.
            description("37436014", "22298006", "Cardiac infarction", time="20190131"),
            description("37436014", "22298006", "Heart attack", time="20200131", active="0"),
            description("37436014", "22298006", "Myocardial infarct", time="20020131"),
            description("751689013", "22298006", "Myocardial infarction (disorder)", FSN, "20020131"),
            description("1784872019", "22298006", "MI - Myocardial infarction", time="20020131"),
            description("2148514019", "404684003", "Clinical finding (finding)", FSN),
            description("2148514019", "404684003", "Clinical finding (finding)", FSN, "20020131"),
            description("12345015", "404684003", "A text definition", DEF),
        ],
    )
    write_rf2(
        lang / "der2_cRefset_LanguageFull-en_INT_20200131.txt",
        LANGUAGE_HEADER,
        [
            member(1, US, "37436014", PREF, "20020131"),
            member(1, US, "37436014", PREF, "20200131", active="0"),  # member retired with the term
            member(2, US, "751689013", PREF, "20020131"),
            member(3, US, "1784872019", PREF, "20020131"),
            member(3, US, "1784872019", ACC, "20190131"),  # demoted: preferred -> acceptable
            member(4, GB, "1784872019", PREF, "20020131"),
            member(5, GB, "2148514019", PREF, "20020131"),
        ],
    )
    tables = read_rf2(tmp_path, "t")
    assert as_dicts(tables["concepts"], "concept_id", "active") == [
        {"concept_id": "22298006", "active": False},
        {"concept_id": "404684003", "active": True},
    ]
    terms = {row["term_id"]: row for row in tables["terms"].to_pylist()}
    assert set(terms) == {"37436014", "751689013", "1784872019", "2148514019"}  # no definition
    heart = terms["37436014"]
    assert (heart["term"], heart["active"], heart["term_type"], heart["acceptability"]) == (
        "Heart attack",
        False,
        "synonym",
        None,
    )
    # US is consulted first (acceptable in its latest row) although GB still prefers the term.
    assert terms["1784872019"]["acceptability"] == "acceptable"
    assert terms["1784872019"]["term_type"] == "synonym"
    # Falls back to GB when US has no member.
    assert terms["2148514019"]["acceptability"] == "preferred"
    assert terms["2148514019"]["term_type"] == "fsn"
    assert all(row["scope"] is None and row["sab"] is None and row["tty"] is None for row in terms.values())

    gb_first = read_rf2(tmp_path, "t", language_refsets=(GB, US))
    gb_terms = {row["term_id"]: row for row in gb_first["terms"].to_pylist()}
    assert gb_terms["1784872019"]["term_type"] == "preferred"


def test_explicit_release_type_and_delta_files(tmp_path):
    minimal_release(tmp_path / "Snapshot")
    write_rf2(
        tmp_path / "Full" / "sct2_Concept_Full_INT_20200131.txt",
        CONCEPT_HEADER,
        [concept("404684003")],
    )
    write_rf2(
        tmp_path / "Full" / "sct2_Description_Full-en_INT_20200131.txt",
        DESCRIPTION_HEADER,
        [description("2148514019", "404684003", "Clinical finding (finding)", FSN)],
    )
    # Delta files are never read, even when broken.
    (tmp_path / "Delta").mkdir()
    (tmp_path / "Delta" / "sct2_Concept_Delta_INT_20200131.txt").write_text("garbage\n")
    assert read_rf2(tmp_path, "t", release_type="full")["concepts"].num_rows == 1
    assert read_rf2(tmp_path, "t", release_type="Snapshot")["concepts"].num_rows == 2
    with pytest.raises(ValueError, match="release_type"):
        read_rf2(tmp_path, "t", release_type="Delta")


def test_several_description_files_are_concatenated(tmp_path):
    root = minimal_release(tmp_path)
    write_rf2(
        root / "Terminology" / "sct2_Description_Snapshot-fr_INT_20200131.txt",
        DESCRIPTION_HEADER,
        [description("999001015", "404684003", "Constatation clinique", lang="fr")],
    )
    terms = read_rf2(root, "t")["terms"]
    assert as_dicts(terms, "term_id", "language") == [
        {"term_id": "517382016", "language": "en"},
        {"term_id": "2148514019", "language": "en"},
        {"term_id": "999001015", "language": "fr"},
    ]


def test_associations_old_and_new_file_names_and_ignored_refsets(tmp_path):
    root = minimal_release(tmp_path)
    content = root / "Refset" / "Content"
    write_rf2(
        content / "der2_cRefset_AssociationReferenceSnapshot_INT_20200131.txt",
        ASSOCIATION_HEADER,
        [
            [uuid(1), "20200131", "1", CORE, SAME_AS, "200001009", "404684003"],
            [uuid(2), "20200131", "0", CORE, REPLACED_BY, "200002003", "404684003"],
        ],
    )
    write_rf2(
        content / "der2_cRefset_AssociationSnapshot_INT_20210131.txt",
        ASSOCIATION_HEADER,
        [
            [uuid(3), "20210131", "1", CORE, REPLACED_BY, "200003008", "138875005"],
            [uuid(4), "20210131", "1", CORE, MOVED_TO, "200004002", "370136006"],  # ignored refset
            [uuid(5), "20210131", "1", CORE, POSSIBLY_EQUIVALENT, "200005001", "404684003"],
        ],
    )
    assert as_dicts(read_rf2(root, "t")["associations"], "kind", "inactive_id", "target_id") == [
        {"kind": "possibly_equivalent_to", "inactive_id": "200005001", "target_id": "404684003"},
        {"kind": "replaced_by", "inactive_id": "200003008", "target_id": "138875005"},
        {"kind": "same_as", "inactive_id": "200001009", "target_id": "404684003"},
    ]


def test_relations_from_the_inferred_file_only(tmp_path):
    root = minimal_release(tmp_path)
    terms = root / "Terminology"
    write_rf2(
        terms / "sct2_Description_Snapshot-en_INT_20210131.txt",
        DESCRIPTION_HEADER,
        [
            description("680946014", IS_A, "Is a (attribute)", FSN),
            description("181114011", IS_A, "Is a", SYN),
            description("762921011", "363698007", "Finding site (attribute)", FSN, active="0"),
        ],
    )

    def rel(rid: str, source: str, dest: str, type_id: str, group="0", active="1") -> list[str]:
        return [rid, "20200131", active, CORE, source, dest, group, type_id, INFERRED, EXISTENTIAL]

    write_rf2(
        terms / "sct2_Relationship_Snapshot_INT_20200131.txt",
        RELATIONSHIP_HEADER,
        [
            rel("100001025", "404684003", "138875005", IS_A),
            rel("100002020", "404684003", "113331007", "363698007", group="1"),
            rel("100003026", "404684003", "113331007", "363698007", group="2"),  # same triple
            rel("100004021", "404684003", "64572001", IS_A, active="0"),
        ],
    )
    # Neither the stated file nor concrete values are read (they would add a relation or fail).
    write_rf2(
        terms / "sct2_StatedRelationship_Snapshot_INT_20200131.txt",
        RELATIONSHIP_HEADER,
        [rel("100005027", "138875005", "404684003", IS_A)],
    )
    (terms / "sct2_RelationshipConcreteValues_Snapshot_INT_20200131.txt").write_text("other\n")
    assert as_dicts(read_rf2(root, "t")["relations"], "subject_id", "rel", "rela", "object_id") == [
        {"subject_id": "404684003", "rel": IS_A, "rela": "Is a", "object_id": "138875005"},
        # The only FSN of the type is inactive: no name.
        {"subject_id": "404684003", "rel": "363698007", "rela": None, "object_id": "113331007"},
    ]


def test_strip_final_parenthesised_group():
    names = pa.array(
        [
            "Is a (attribute)",
            "Malaria (disorder)",
            "Hepatitis A virus (organism)",
            "Finding site",
            "Ca (calcium) level (observable entity)",
            None,
            "Plain (not a tag) here",
        ]
    )
    assert strip_final_parenthesised_group(names).to_pylist() == [
        "Is a",
        "Malaria",
        "Hepatitis A virus",
        "Finding site",
        "Ca (calcium) level",
        None,
        "Plain (not a tag) here",
    ]


def test_crlf_line_ends_are_accepted(tmp_path):
    term = tmp_path / "Terminology"
    write_rf2(
        term / "sct2_Concept_Snapshot_INT_20200131.txt",
        CONCEPT_HEADER,
        [concept("404684003")],
        newline="\r\n",
    )
    write_rf2(
        term / "sct2_Description_Snapshot-en_INT_20200131.txt",
        DESCRIPTION_HEADER,
        [description("2148514019", "404684003", "Clinical finding (finding)", FSN)],
        newline="\r\n",
    )
    tables = read_rf2(tmp_path, "t")
    assert tables["terms"]["term"].to_pylist() == ["Clinical finding (finding)"]
    assert tables["terms"]["term_type"].to_pylist() == ["fsn"]


# ---------------------------------------------------------------------------------- malformed input


def broken_concept_release(root: Path, content: bytes) -> Path:
    """A release whose concept file has the given bytes (and a valid description file)."""
    minimal_release(root)
    (root / "Terminology" / "sct2_Concept_Snapshot_INT_20200131.txt").write_bytes(content)
    return root


def concept_bytes(*lines: str) -> bytes:
    return "".join(line + "\n" for line in ["\t".join(CONCEPT_HEADER), *lines]).encode("utf-8")


GOOD = "\t".join(concept("404684003"))


@pytest.mark.parametrize(
    ("content", "line", "expected", "found"),
    [
        (b"", None, "header", "empty file"),
        (concept_bytes().replace(b"moduleId", b"module"), 1, "definitionStatusId", "module"),
        (concept_bytes(GOOD, "138875005\t20200131\t1\t" + CORE), 3, "5 tab-separated", "4 columns"),
        (concept_bytes(GOOD, GOOD.replace("404684003", "40468400X")), 3, "SCTID", "40468400X"),
        (concept_bytes(GOOD.replace("404684003", "0404684003")), 2, "SCTID", "0404684003"),
        (concept_bytes(GOOD.replace("404684003", "40468")), 2, "SCTID", "40468"),
        (
            concept_bytes(GOOD, GOOD, GOOD.replace(CORE, "1234567890123456789")),
            4,
            "moduleId",
            "1234567890123456789",
        ),
        (concept_bytes(GOOD.replace("20200131", "2020-01-31")), 2, "effectiveTime", "2020-01-31"),
        (concept_bytes(GOOD, GOOD.replace("\t1\t", "\tyes\t")), 3, "active", "yes"),
        (concept_bytes(GOOD, ""), 3, "SCTID", ""),  # a blank line is a row, not skipped
        # The first bad row wins over a bad row later in an earlier-checked column.
        (
            concept_bytes(GOOD, GOOD.replace("\t1\t", "\t2\t"), GOOD.replace("404", "x04")),
            3,
            "active",
            "2",
        ),
    ],
    ids=[
        "empty",
        "header",
        "columns",
        "sctid",
        "leading-zero",
        "short-sctid",
        "long-sctid",
        "effective-time",
        "active",
        "blank-line",
        "first-row-wins",
    ],
)
def test_malformed_concept_file(tmp_path, content, line, expected, found):
    root = broken_concept_release(tmp_path, content)
    with pytest.raises(SourceFormatError) as error:
        read_rf2(root, "t")
    assert error.value.path.name == "sct2_Concept_Snapshot_INT_20200131.txt"
    assert error.value.line == line
    assert expected in error.value.expected
    assert found in error.value.found


def test_a_last_line_without_newline_is_a_truncated_file(tmp_path):
    root = minimal_release(tmp_path)
    path = root / "Refset" / "der2_cRefset_AssociationSnapshot_INT_20200131.txt"
    write_rf2(path, ASSOCIATION_HEADER, [member(1, "900000000000527005", "138875005", "404684003")])
    read_rf2(root, "t")  # complete
    # Cut inside the last column: the row keeps every column, the target id loses three digits.
    path.write_bytes(path.read_bytes()[: -len("003\n")])
    with pytest.raises(SourceFormatError, match="truncated file") as error:
        read_rf2(root, "t")
    assert (error.value.path, error.value.line) == (path, 2)
    assert error.value.found.endswith("\t404684")
    assert f"{path}:2" in str(error.value)


def test_a_cut_row_with_fewer_columns_names_its_line(tmp_path):
    root = minimal_release(tmp_path)
    path = root / "Terminology" / "sct2_Description_Snapshot-en_INT_20200131.txt"
    data = path.read_bytes()
    path.write_bytes(data[: data.index(b"\ten\t", data.index(b"517382016"))])  # line 3 cut after conceptId
    with pytest.raises(SourceFormatError) as error:
        read_rf2(root, "t")
    assert error.value.path == path and error.value.line == 3
    assert "9 tab-separated columns" in error.value.expected
    assert error.value.found.startswith("5 columns: 517382016")


@pytest.mark.parametrize("kind", ["Concept", "Description"])
def test_a_header_only_required_file_is_an_error(tmp_path, kind):
    root = minimal_release(tmp_path)
    (path,) = root.rglob(f"sct2_{kind}_*")
    path.write_bytes(path.read_bytes().split(b"\n", 1)[0] + b"\n")
    with pytest.raises(SourceFormatError, match="the header only") as error:
        read_rf2(root, "t")
    assert error.value.path == path and error.value.line is None
    assert f"{kind.lower()} rows after the header" in str(error.value)


def test_a_header_only_optional_file_contributes_no_rows(tmp_path):
    root = minimal_release(tmp_path)
    write_rf2(root / "Refset" / "der2_cRefset_AssociationSnapshot_INT_20200131.txt", ASSOCIATION_HEADER, [])
    assert read_rf2(root, "t")["associations"].num_rows == 0


def test_bad_utf8_reports_its_line(tmp_path):
    root = minimal_release(tmp_path)
    path = root / "Terminology" / "sct2_Description_Snapshot-en_INT_20200131.txt"
    rows = [description(f"{n}015", "404684003", f"Term {n}") for n in range(100001, 100006)]
    write_rf2(path, DESCRIPTION_HEADER, rows)
    data = path.read_bytes().replace(b"Term 100003", b"Term \xe9 100003")  # Latin-1, line 4
    path.write_bytes(data)
    with pytest.raises(SourceFormatError) as error:
        read_rf2(root, "t")
    assert error.value.line == 4
    assert error.value.expected == "UTF-8 text"
    assert "\\xe9" in error.value.found


def test_bad_refset_member_id_and_acceptability(tmp_path):
    root = minimal_release(tmp_path)
    path = root / "Refset" / "der2_cRefset_LanguageSnapshot-en_INT_20200131.txt"
    write_rf2(
        path,
        LANGUAGE_HEADER,
        [member(1, US, "2148514019", PREF), ["not-a-uuid", *member(2, US, "517382016", PREF)[1:]]],
    )
    with pytest.raises(SourceFormatError) as error:
        read_rf2(root, "t")
    assert (error.value.line, error.value.found) == (3, "not-a-uuid")
    write_rf2(path, LANGUAGE_HEADER, [member(1, US, "2148514019", "900000000000207008")])
    with pytest.raises(SourceFormatError) as error:
        read_rf2(root, "t")
    assert error.value.line == 2 and "acceptabilityId" in error.value.expected


def test_comment_skipping_keeps_physical_line_numbers(tmp_path):
    root = minimal_release(tmp_path)
    path = root / "Terminology" / "sct2_Concept_Snapshot_INT_20200131.txt"
    path.write_bytes(
        concept_bytes(
            "# a comment",
            "",
            GOOD,
            "",
            "# bad next",
            "12x\t20200131\t1\t" + CORE + "\t" + PRIMITIVE,
        )
    )
    with pytest.raises(SourceFormatError) as error:
        read_rf2(root, "t", skip_comments=True)
    assert error.value.line == 7 and error.value.found == "12x"


def test_missing_required_files_and_folder(tmp_path):
    minimal_release(tmp_path / "no_descriptions")
    for path in (tmp_path / "no_descriptions").rglob("sct2_Description_*"):
        path.unlink()
    with pytest.raises(SourceFormatError) as error:
        read_rf2(tmp_path / "no_descriptions", "t")
    assert error.value.line is None and "description" in error.value.expected
    assert error.value.path == tmp_path / "no_descriptions"

    (tmp_path / "empty_release").mkdir()
    with pytest.raises(SourceFormatError) as error:
        read_rf2(tmp_path / "empty_release", "t")
    assert error.value.line is None and "concept" in error.value.expected

    with pytest.raises(SourceNotFoundError):
        read_rf2(tmp_path / "absent", "t")


# --------------------------------------------------------------------------------------- properties


@settings(max_examples=25, deadline=None)
@given(
    st.lists(
        st.tuples(
            st.sampled_from(["100000010", "100001018", "100002011"]),  # description ids
            st.integers(20020131, 20201231).map(str),
            st.sampled_from(["0", "1"]),
            st.text("abc xyz", min_size=1, max_size=8),
        ),
        min_size=1,
        max_size=12,
        unique_by=lambda row: (row[0], row[1]),
    )
)
def test_latest_row_per_description_matches_a_reference(rows):
    with tempfile.TemporaryDirectory() as tmp:
        root = Path(tmp)
        write_rf2(root / "sct2_Concept_Full_INT_20210131.txt", CONCEPT_HEADER, [concept("404684003")])
        write_rf2(
            root / "sct2_Description_Full-en_INT_20210131.txt",
            DESCRIPTION_HEADER,
            [description(did, "404684003", term, time=time, active=active) for did, time, active, term in rows],
        )
        terms = read_rf2(root, "t", release_type="Full")["terms"]
    latest: dict[str, tuple[str, str, str]] = {}
    for did, time, active, term in rows:
        if did not in latest or time > latest[did][0]:
            latest[did] = (time, active, term)
    assert {r["term_id"]: (r["active"], r["term"]) for r in terms.to_pylist()} == {
        did: (active == "1", term) for did, (_, active, term) in latest.items()
    }
