"""Tests of id resolution against a terminology (biosem.terminology.resolve): primary ids, alt_ids,
replaced_by chains and what does not resolve, on hand-made tables and through the OBO reader."""

from __future__ import annotations

import logging
from pathlib import Path

import pandas as pd
import pytest

from biosem.terminology.obo import ALT_ID_CODE_SYSTEM, read_obo
from biosem.terminology.resolve import RESOLUTIONS, IdResolver, log_resolution, resolution_counts, resolve_ids

# A active; B obsolete -> A; C obsolete, no replacement (only a consider); D obsolete -> B -> A;
# H obsolete -> A and K (two replacements); P <-> Q obsolete, replaced by each other; K active.
CONCEPTS = pd.DataFrame(
    {
        "concept_id": ["X:A", "X:B", "X:C", "X:D", "X:H", "X:K", "X:P", "X:Q"],
        "active": [True, False, False, False, False, True, False, False],
    }
)
ASSOCIATIONS = pd.DataFrame(
    [
        ("X:B", "X:A", "replaced_by"),
        ("X:C", "X:A", "possibly_equivalent_to"),  # consider: never followed
        ("X:D", "X:B", "replaced_by"),
        ("X:H", "X:A", "replaced_by"),
        ("X:H", "X:K", "replaced_by"),
        ("X:P", "X:Q", "replaced_by"),
        ("X:Q", "X:P", "replaced_by"),
    ],
    columns=["inactive_id", "target_id", "kind"],
)
# E alt_id of A; F alt_id of obsolete B; G alt_id of A and K; K is also written as an alt_id of A
# (a declared id is never read as an alt_id); an xref is no alt_id.
MAPPINGS = pd.DataFrame(
    [
        ("X:A", ALT_ID_CODE_SYSTEM, "X:E"),
        ("X:B", ALT_ID_CODE_SYSTEM, "X:F"),
        ("X:A", ALT_ID_CODE_SYSTEM, "X:G"),
        ("X:K", ALT_ID_CODE_SYSTEM, "X:G"),
        ("X:A", ALT_ID_CODE_SYSTEM, "X:K"),
        ("X:A", "UMLS", "C0000001"),
    ],
    columns=["concept_id", "code_system", "code"],
)


@pytest.mark.parametrize(
    ("given", "concept", "resolution", "steps"),
    [
        ("X:A", "X:A", "primary", 0),
        ("X:K", "X:K", "primary", 0),
        ("X:E", "X:A", "alt_id", 1),
        ("X:B", "X:A", "replaced_by", 1),
        ("X:D", "X:A", "replaced_by", 2),
        ("X:F", "X:A", "replaced_by", 2),  # alt_id of an obsolete term, then its replacement
        ("X:C", None, "obsolete", 0),
        ("X:P", None, "obsolete", 1),  # a replaced_by cycle ends
        ("X:G", None, "ambiguous", 0),
        ("X:H", None, "ambiguous", 0),
        ("X:Z", None, "unresolved", 0),
        ("UMLS:C0000001", None, "unresolved", 0),  # xrefs are not followed
        ("C0000001", None, "unresolved", 0),
        ("CHEBI:15377", None, "unresolved", 0),  # another namespace
    ],
)
def test_each_resolution(given, concept, resolution, steps):
    assert IdResolver(CONCEPTS, ASSOCIATIONS, MAPPINGS).resolve_one(given) == (concept, resolution, steps)


def test_resolve_ids_keeps_order_and_duplicates_and_counts():
    ids = ["X:E", "X:A", "X:Z", "X:E", "X:B", "X:C"]

    resolved = resolve_ids(ids, CONCEPTS, ASSOCIATIONS, MAPPINGS)

    assert list(resolved.columns) == ["id", "concept_id", "resolution", "steps"]
    assert resolved["id"].tolist() == ids
    assert resolved["concept_id"].tolist() == ["X:A", "X:A", None, "X:A", "X:A", None]
    assert resolved["resolution"].tolist() == ["alt_id", "primary", "unresolved", "alt_id", "replaced_by", "obsolete"]
    assert resolved["steps"].dtype == "int64"
    assert resolution_counts(resolved) == {
        "primary": 1,
        "alt_id": 1,
        "replaced_by": 1,
        "obsolete": 1,
        "ambiguous": 0,
        "unresolved": 1,
    }
    assert resolution_counts(resolved, distinct=False)["alt_id"] == 2
    assert tuple(resolution_counts(resolved)) == RESOLUTIONS


def test_log_resolution_names_what_does_not_resolve(caplog):
    resolved = resolve_ids(["X:A", "X:C", "X:Z", "X:Z"], CONCEPTS, ASSOCIATIONS, MAPPINGS)

    with caplog.at_level(logging.INFO, logger="biosem.terminology.resolve"):
        counts = log_resolution(resolved, "CRAFT GO_BP")

    assert counts["unresolved"] == 1 and counts["obsolete"] == 1
    assert "CRAFT GO_BP: 3 distinct ids (4 occurrences): primary 1 (1)" in caplog.text
    assert "unresolved 1 (2)" in caplog.text
    assert "2 distinct ids do not resolve, e.g. X:C (obsolete), X:Z (unresolved)" in caplog.text


def test_empty_input_gives_an_empty_table():
    resolved = resolve_ids([], CONCEPTS, ASSOCIATIONS, MAPPINGS)

    assert resolved.empty and list(resolved.columns) == ["id", "concept_id", "resolution", "steps"]
    assert set(resolution_counts(resolved).values()) == {0}


OBO = """\
format-version: 1.2
ontology: go

[Term]
id: GO:0000001
name: translation
alt_id: GO:0000011
alt_id: GO:0000012

[Term]
id: GO:0000002
name: obsolete protein biosynthesis
is_obsolete: true
alt_id: GO:0000022
replaced_by: GO:0000001

[Term]
id: GO:0000003
name: obsolete death
is_obsolete: true
consider: GO:0000001
"""


def test_resolution_through_the_obo_reader(tmp_path: Path):
    path = tmp_path / "go.obo"
    path.write_text(OBO, encoding="utf-8")
    tables = {name: table.to_pandas() for name, table in read_obo(path, "go").items()}

    alt = tables["mappings"][tables["mappings"]["code_system"] == ALT_ID_CODE_SYSTEM]
    assert sorted(zip(alt["code"], alt["concept_id"])) == [
        ("GO:0000011", "GO:0000001"),
        ("GO:0000012", "GO:0000001"),
        ("GO:0000022", "GO:0000002"),
    ]
    resolved = resolve_ids(
        ["GO:0000001", "GO:0000012", "GO:0000002", "GO:0000022", "GO:0000003", "GO:0009999"],
        tables["concepts"],
        tables["associations"],
        tables["mappings"],
    )
    assert list(zip(resolved["concept_id"], resolved["resolution"])) == [
        ("GO:0000001", "primary"),
        ("GO:0000001", "alt_id"),
        ("GO:0000001", "replaced_by"),
        ("GO:0000001", "replaced_by"),
        (None, "obsolete"),
        (None, "unresolved"),
    ]
