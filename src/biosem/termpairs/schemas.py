"""Arrow schemas of the term-pair tables: positives, similarity components, neighbours, datasets."""

from __future__ import annotations

import pyarrow as pa

from biosem.io import TableSpec, string_field

TERMPAIR_POSITIVES = TableSpec(
    "termpair_positives",
    pa.schema(
        [
            string_field("kind"),  # fsn_syn | syn_syn | possibly_equivalent_to | replaced_by | same_as
            string_field("difficulty"),  # easy | hard
            string_field("term1"),
            string_field("term2"),
            string_field("concept_id1"),
            string_field("concept_id2"),
            pa.field("levenshtein", pa.int64(), nullable=False),  # on lowercased terms, characters
        ]
    ),
    ("kind", "difficulty", "concept_id1", "concept_id2", "term1", "term2"),
)

SIMILARITY_COMPONENTS = TableSpec(
    "similarity_components",
    pa.schema(
        [
            string_field("term_lower"),
            # what a negative's partner must lie outside of (biosem.termpairs.positives.similarity_components)
            pa.field("component", pa.int64(), nullable=False),
            pa.field("synonym_component", pa.int64(), nullable=False),  # the positives' graph alone
            pa.field("group_component", pa.int64(), nullable=False),  # + concepts of one group (MeSH descriptor)
            string_field("surface_key", nullable=True),  # biosem.surface key; null when variants are not joined
        ]
    ),
    ("term_lower",),
)

TERMPAIR_NEIGHBOURS = TableSpec(
    "termpair_neighbours",
    pa.schema(
        [
            string_field("kind"),  # the dataset (of one difficulty) whose first term and pool these are
            string_field("term1"),  # a first term of the dataset, lowercased
            pa.field("need", pa.int64(), nullable=False),  # its positives in the dataset
            # a valid pool term within the first term's need-th distance B, or within reach and B
            # characters in length (biosem.termpairs.search._settle); lowercased
            string_field("term2"),
            pa.field("levenshtein", pa.int64(), nullable=False),  # characters
            # the first term's rows hold every valid pool term within B characters in length up to
            # this distance (B to B + biosem.termpairs.search.RESUME_SLACK; 2**40: all of them)
            pa.field("reach", pa.int64(), nullable=False),
        ]
    ),
    ("kind", "term1", "levenshtein", "term2"),
)

TERMPAIR_DATASET = TableSpec(
    "termpair_dataset",
    pa.schema(
        [
            string_field("term1"),
            string_field("term2"),
            pa.field("label", pa.int64(), nullable=False),  # 1 similar, 0 dissimilar
            string_field("concept_id1"),
            string_field("concept_id2", nullable=True),  # null for negatives
            pa.field("levenshtein", pa.int64(), nullable=False),
        ]
    ),
    (),  # rows stay in their seeded shuffled order (the reference TSV order)
)
