"""Arrow schemas of the Parquet intermediates (DESIGN.md § Intermediates).

Every intermediate is written through :func:`biosem.io.write_table`, which casts to these schemas,
checks the non-nullable columns and sorts rows by the table's key so that files are byte-identical
for identical content.
"""

from __future__ import annotations

from dataclasses import dataclass

import pyarrow as pa

TERM_TYPES = ("fsn", "preferred", "synonym", "abbreviation")
ASSOCIATION_KINDS = ("same_as", "replaced_by", "possibly_equivalent_to")


@dataclass(frozen=True)
class TableSpec:
    """A Parquet table: its Arrow schema and the columns that order its rows."""

    name: str
    schema: pa.Schema
    sort_keys: tuple[str, ...]


def _s(name: str, nullable: bool = False) -> pa.Field:
    return pa.field(name, pa.string(), nullable=nullable)


CONCEPTS = TableSpec(
    "concepts",
    pa.schema(
        [
            _s("source"),
            _s("concept_id"),
            pa.field("active", pa.bool_(), nullable=False),
            # SNOMED CT moduleId, OBO namespace, UMLS: first semantic type (MRSTY TUI) or null.
            _s("module", nullable=True),
        ]
    ),
    ("source", "concept_id"),
)

TERMS = TableSpec(
    "terms",
    pa.schema(
        [
            _s("source"),
            _s("concept_id"),
            _s("term_id"),  # SNOMED description id, UMLS AUI, OBO "<id>#name" / "<id>#syn<k>"
            _s("term"),
            _s("term_type"),  # one of TERM_TYPES
            _s("language", nullable=True),  # ISO 639-1 ("en") where known
            pa.field("active", pa.bool_(), nullable=False),
            _s("scope", nullable=True),  # OBO synonym scope: EXACT|RELATED|BROAD|NARROW
            _s("acceptability", nullable=True),  # SNOMED language refset: preferred|acceptable
            _s("sab", nullable=True),  # UMLS source abbreviation
            _s("tty", nullable=True),  # UMLS term type
        ]
    ),
    ("source", "concept_id", "term_id"),
)

RELATIONS = TableSpec(
    "relations",
    pa.schema(
        [
            _s("source"),
            _s("subject_id"),
            _s("rel"),  # UMLS REL; SNOMED typeId; OBO "is_a" or relationship id
            _s("rela", nullable=True),  # UMLS RELA; SNOMED type FSN without tag; OBO relation name
            _s("object_id"),
            _s("sab", nullable=True),
        ]
    ),
    ("source", "subject_id", "rel", "rela", "object_id", "sab"),
)

ASSOCIATIONS = TableSpec(
    "associations",
    pa.schema(
        [
            _s("source"),
            _s("inactive_id"),
            _s("target_id"),
            _s("kind"),  # one of ASSOCIATION_KINDS
        ]
    ),
    ("source", "kind", "inactive_id", "target_id"),
)

MAPPINGS = TableSpec(
    "mappings",
    pa.schema(
        [
            _s("source"),
            _s("concept_id"),
            _s("code_system"),  # UMLS SAB (e.g. MSH), OBO xref prefix (e.g. UMLS, MSH)
            _s("code"),  # the code in that system (UMLS CODE, xref local id); never "NOCODE"
        ]
    ),
    ("source", "code_system", "code", "concept_id"),
)

TERMINOLOGY_TABLES: dict[str, TableSpec] = {
    spec.name: spec for spec in (CONCEPTS, TERMS, RELATIONS, ASSOCIATIONS, MAPPINGS)
}

# --------------------------------------------------------------------------------------------------
# termpairs family
# --------------------------------------------------------------------------------------------------
TERMPAIR_POSITIVES = TableSpec(
    "termpair_positives",
    pa.schema(
        [
            _s("kind"),  # fsn_syn | syn_syn | possibly_equivalent_to | replaced_by | same_as
            _s("difficulty"),  # easy | hard
            _s("term1"),
            _s("term2"),
            _s("concept_id1"),
            _s("concept_id2"),
            pa.field("levenshtein", pa.int64(), nullable=False),  # on lowercased terms, characters
        ]
    ),
    ("kind", "difficulty", "concept_id1", "concept_id2", "term1", "term2"),
)

SIMILARITY_COMPONENTS = TableSpec(
    "similarity_components",
    pa.schema([_s("term_lower"), pa.field("component", pa.int64(), nullable=False)]),
    ("term_lower",),
)

TERMPAIR_NEIGHBOURS = TableSpec(
    "termpair_neighbours",
    pa.schema(
        [
            _s("kind"),  # the dataset (of one difficulty) whose first term and pool these are
            _s("term1"),  # a first term of the dataset, lowercased
            pa.field("need", pa.int64(), nullable=False),  # its positives in the dataset
            # a valid pool term within the first term's need-th distance B, or within reach and B
            # characters in length (biosem.termpairs._settle); lowercased
            _s("term2"),
            pa.field("levenshtein", pa.int64(), nullable=False),  # characters
            # the first term's rows hold every valid pool term within B characters in length up to
            # this distance (B to B + biosem.termpairs.RESUME_SLACK; 2**40: all of them)
            pa.field("reach", pa.int64(), nullable=False),
        ]
    ),
    ("kind", "term1", "levenshtein", "term2"),
)

TERMPAIR_DATASET = TableSpec(
    "termpair_dataset",
    pa.schema(
        [
            _s("term1"),
            _s("term2"),
            pa.field("label", pa.int64(), nullable=False),  # 1 similar, 0 dissimilar
            _s("concept_id1"),
            _s("concept_id2", nullable=True),  # null for negatives
            pa.field("levenshtein", pa.int64(), nullable=False),
        ]
    ),
    (),  # rows stay in their seeded shuffled order (the reference TSV order)
)
