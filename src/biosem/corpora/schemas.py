"""Arrow schemas of the corpus intermediates (docs/design.md § Intermediates, corpora; BigBIO-KB-like).

Three tables per corpus, written to ``results/intermediate/{documents,sentences,mentions}/<corpus>.parquet``
through :func:`biosem.io.write_table`:

* ``DOCUMENTS``: one row per document. ``text`` is ``title + " " + abstract``, the string that PubTator
  offsets index (also when the abstract is empty).
* ``SENTENCES``: one row per sentence; ``start``/``end`` are character offsets into the document
  ``text`` (Python string indices, end exclusive) and ``text == document.text[start:end]``. Sentences
  never begin or end with whitespace and never overlap; ``sentence_id`` is 0-based in document order.
* ``MENTIONS``: one row per annotated mention; ``start``/``end`` index the document ``text``;
  ``sentence_start``/``sentence_end`` index the sentence ``text`` (``sentence.text[sentence_start:
  sentence_end] == mention.text``); ``mention_id`` is 0-based in document order (by start, end, then
  file order). ``concept_ids`` are namespaced (``MESH:D014262``, ``OMIM:608089``, ``UMLS:C0011849``, BioRED's
  ``NCBIGene:3175``, ``NCBITaxon:9606``, ``Cellosaurus:CVCL_0030``, ``tmVar:p|SUB|E|75|D``),
  in the order the corpus gives them, without duplicates; empty when the corpus gives ``-1`` or nothing.

Offsets are counted in Unicode code points (Python ``str`` indices), as the corpora define them.
"""

from __future__ import annotations

import pyarrow as pa

from biosem.io import TableSpec

SPLITS = ("train", "dev", "test")
NAMESPACES = ("MESH", "OMIM", "UMLS", "NCBIGene", "NCBITaxon", "Cellosaurus", "tmVar")
TABLES = ("documents", "sentences", "mentions")


def _s(name: str) -> pa.Field:
    return pa.field(name, pa.string(), nullable=False)


def _i(name: str) -> pa.Field:
    return pa.field(name, pa.int64(), nullable=False)


DOCUMENTS = TableSpec(
    "documents",
    pa.schema(
        [
            _s("corpus"),
            _s("document_id"),  # PMID as a string
            _s("split"),  # one of SPLITS
            _s("title"),
            _s("abstract"),
            _s("text"),  # title + " " + abstract
        ]
    ),
    ("corpus", "document_id"),
)

SENTENCES = TableSpec(
    "sentences",
    pa.schema(
        [
            _s("corpus"),
            _s("document_id"),
            _i("sentence_id"),  # 0-based, document order
            _i("start"),  # offset into the document text
            _i("end"),  # exclusive
            _s("text"),  # == document text[start:end]
        ]
    ),
    ("corpus", "document_id", "sentence_id"),
)

MENTIONS = TableSpec(
    "mentions",
    pa.schema(
        [
            _s("corpus"),
            _s("document_id"),
            _i("mention_id"),  # 0-based, document order (start, end, file order)
            _i("start"),  # offset into the document text
            _i("end"),  # exclusive
            _s("text"),  # == document text[start:end]
            _s("type"),  # entity type (Chemical, SpecificDisease, ...) or MedMentions semantic types (T047,T191)
            pa.field("concept_ids", pa.list_(pa.string()), nullable=False),  # namespaced; [] for -1 / none
            _i("sentence_id"),
            _i("sentence_start"),  # offset into the sentence text
            _i("sentence_end"),  # exclusive
        ]
    ),
    ("corpus", "document_id", "mention_id"),
)

CORPUS_TABLES: dict[str, TableSpec] = {spec.name: spec for spec in (DOCUMENTS, SENTENCES, MENTIONS)}
