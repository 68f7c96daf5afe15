"""Arrow schemas of the five terminology intermediates (docs/design.md § Intermediates).

Every reader (RF2, RRF, OBO) writes ``concepts``, ``terms``, ``relations``, ``associations`` and
``mappings`` through :func:`biosem.io.write_table`, which casts to these schemas, checks the
non-nullable columns and sorts rows by the table's key, so that files are byte-identical for
identical content. The columns of few distinct values (``dictionary``) are written
dictionary-encoded and read back as plain strings.
"""

from __future__ import annotations

import pyarrow as pa

from biosem.io import TableSpec, string_field

TERM_TYPES = ("fsn", "preferred", "synonym", "abbreviation")
ASSOCIATION_KINDS = ("same_as", "replaced_by", "possibly_equivalent_to")
"""The ``kind`` values of ``associations``; the term-pair datasets order them alphabetically
(:data:`biosem.termpairs.positives.POSITIVE_KINDS`)."""

CONCEPTS = TableSpec(
    "concepts",
    pa.schema(
        [
            string_field("source"),
            string_field("concept_id"),
            pa.field("active", pa.bool_(), nullable=False),
            # SNOMED CT moduleId, OBO namespace, UMLS: first semantic type (MRSTY TUI) or null.
            string_field("module", nullable=True),
        ]
    ),
    ("source", "concept_id"),
    dictionary=("source", "module"),
)

TERMS = TableSpec(
    "terms",
    pa.schema(
        [
            string_field("source"),
            string_field("concept_id"),
            string_field("term_id"),  # SNOMED description id, UMLS AUI, OBO "<id>#name" / "<id>#syn<k>"
            string_field("term"),
            string_field("term_type"),  # one of TERM_TYPES
            string_field("language", nullable=True),  # ISO 639-1 ("en") where known
            pa.field("active", pa.bool_(), nullable=False),
            string_field("scope", nullable=True),  # OBO synonym scope: EXACT|RELATED|BROAD|NARROW
            string_field("acceptability", nullable=True),  # SNOMED language refset: preferred|acceptable
            string_field("sab", nullable=True),  # UMLS source abbreviation
            string_field("tty", nullable=True),  # UMLS term type; OBO synonym type (UBERON ABBREVIATION)
        ]
    ),
    ("source", "concept_id", "term_id"),
    dictionary=("source", "term_type", "language", "scope", "acceptability", "sab", "tty"),
)

RELATIONS = TableSpec(
    "relations",
    pa.schema(
        [
            string_field("source"),
            string_field("subject_id"),
            string_field("rel"),  # UMLS REL; SNOMED typeId; OBO "is_a" or relationship id
            string_field("rela", nullable=True),  # UMLS RELA; SNOMED type FSN without tag; OBO relation name
            string_field("object_id"),
            string_field("sab", nullable=True),
        ]
    ),
    ("source", "subject_id", "rel", "rela", "object_id", "sab"),
    dictionary=("source", "rel", "rela", "sab"),
)

ASSOCIATIONS = TableSpec(
    "associations",
    pa.schema(
        [
            string_field("source"),
            string_field("inactive_id"),
            string_field("target_id"),
            string_field("kind"),  # one of ASSOCIATION_KINDS
        ]
    ),
    ("source", "kind", "inactive_id", "target_id"),
    dictionary=("source", "kind"),
)

MAPPINGS = TableSpec(
    "mappings",
    pa.schema(
        [
            string_field("source"),
            string_field("concept_id"),
            # UMLS SAB (e.g. MSH), OBO xref prefix (e.g. UMLS, MSH), or "alt_id" (OBO alt_id, code = the full id)
            string_field("code_system"),
            string_field("code"),  # the code in that system (UMLS CODE, xref local id); never "NOCODE"
        ]
    ),
    ("source", "code_system", "code", "concept_id"),
    dictionary=("source", "code_system"),
)

TERMINOLOGY_TABLES: dict[str, TableSpec] = {
    spec.name: spec for spec in (CONCEPTS, TERMS, RELATIONS, ASSOCIATIONS, MAPPINGS)
}
