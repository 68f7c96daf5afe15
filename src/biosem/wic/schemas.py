"""Arrow schemas of the wic tables (intermediates and the Parquet copies of the splits)."""

from __future__ import annotations

import pyarrow as pa

from biosem.io import TableSpec


def _s(name: str, nullable: bool = False) -> pa.Field:
    return pa.field(name, pa.string(), nullable=nullable)


def _i(name: str) -> pa.Field:
    return pa.field(name, pa.int64(), nullable=False)


SELECTED = TableSpec(
    "wic_selected",
    pa.schema(
        [
            _i("sentence_key"),  # 0-based row number in (corpus, document_id, sentence_id) order
            _s("corpus"),
            _s("document_id"),
            _i("sentence_id"),
            _s("sentence"),  # sentence text; unique over the table
            _i("mention_id"),
            _s("term"),  # mention text as written; sentence[start:end] == term
            _i("start"),  # sentence-relative character offsets
            _i("end"),
            _s("term_lower"),
            _s("lemma"),  # biosem.wic.lexical.lemma(term)
            _s("concept_id"),  # unified concept id (a CUI, or the corpus' namespaced id)
            _s("type", nullable=True),
        ]
    ),
    ("sentence_key",),
)
"""One mention per sentence (the chosen one), for every sentence that has an eligible mention."""

CORPUS_TERMS = TableSpec(
    "wic_corpus_terms",
    pa.schema([_s("concept_id"), _s("term_lower"), _i("mentions"), _i("documents")]),
    ("concept_id", "term_lower"),
)
"""Term set of each concept as annotated in the corpora (every eligible mention, lowercased), with the
number of mentions and of distinct documents (PMIDs) that annotate the string with the concept."""

DEFINITIONS = TableSpec(
    "wic_abbreviation_definitions",
    pa.schema([_s("short_lower"), _s("long_lower"), _i("mentions"), _i("documents")]),
    ("short_lower", "long_lower"),
)
"""Abbreviations the corpora's texts define, "long form (SF)" between two mentions
(:func:`biosem.wic.lexical.parenthesised_definitions`): lowercase short and long form, the number of
definitions and of distinct documents."""

CANDIDATES = TableSpec(
    "wic_candidates",
    pa.schema([_i("sentence1"), _i("sentence2"), _s("group"), _i("label")]),
    ("group", "sentence1", "sentence2"),
)
"""Candidate sentence pairs: sentence keys (sentence1 < sentence2), group, label (1 = same concept)."""

SPLIT = TableSpec(
    "wic_split",
    pa.schema(
        [
            _s("term1"),
            _s("term2"),
            _s("sentence1"),
            _s("sentence2"),
            _i("start1"),
            _i("start2"),
            _i("end1"),
            _i("end2"),
            _s("cat"),
            _i("label"),
            _s("concept_id1"),
            _s("concept_id2"),
            _s("corpus1"),
            _s("document_id1"),
            _s("corpus2"),
            _s("document_id2"),
        ]
    ),
    (),  # rows stay in the seeded shuffled order of the JSON file
)
"""A split: the released BioWiC columns, then provenance (concepts, corpus, PMID of each side)."""

RELEASED_COLUMNS = (
    "term1",
    "term2",
    "sentence1",
    "sentence2",
    "start1",
    "start2",
    "end1",
    "end2",
    "cat",
    "label",
)
"""Keys of a released BioWiC JSON record, in the order of the published files (Rouhizadeh et al. 2024,
github.com/hrouhizadeh/BioWiC data/*.json): both starts, then both ends."""
