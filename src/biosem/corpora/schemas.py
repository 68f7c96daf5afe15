"""Arrow schemas of the corpus intermediates (docs/design.md § Intermediates, corpora; BigBIO-KB-like).

Three tables per corpus, whatever its format (PubTator, CRAFT), written to
``results/intermediate/{documents,sentences,mentions}/<corpus>.parquet`` through
:func:`biosem.io.write_table`:

* ``DOCUMENTS``: one row per document. ``text`` is the string the offsets index: ``title + " " +
  abstract`` for PubTator (also when the abstract is empty); the article's ``.txt`` for CRAFT, a full
  text whose first line is the ``title`` (``abstract`` is then ``""``: a full text gives no abstract
  apart).
* ``SENTENCES``: one row per sentence; ``start``/``end`` are character offsets into the document
  ``text`` (Python string indices, end exclusive) and ``text == document.text[start:end]``. Sentences
  never begin or end with whitespace and never overlap; ``sentence_id`` is 0-based in document order.
* ``MENTIONS``: one row per annotated mention; ``start``/``end`` index the document ``text``;
  ``sentence_start``/``sentence_end`` index the sentence ``text`` (``sentence.text[sentence_start:
  sentence_end] == mention.text``); ``mention_id`` is 0-based in document order (by start, end, then
  file order; CRAFT: start, end, module, file order). ``type`` is the entity type (PubTator) or the
  CRAFT module (``GO_BP``, ``UBERON``, ``MONDO``). ``concept_ids`` are namespaced (``MESH:D014262``,
  ``OMIM:608089``, ``UMLS:C0011849``, BioRED's ``NCBIGene:3175``, ``NCBITaxon:9606``,
  ``Cellosaurus:CVCL_0030``, ``tmVar:p|SUB|E|75|D``; CRAFT's ontology classes ``GO:0030900``,
  ``MONDO:0009022``, extension classes ``GO_EXT:…``), in the order the corpus gives them, without
  duplicates; empty when the corpus gives ``-1`` or nothing. ``spans`` are the mention's annotated
  spans (document offsets, in text order, overlapping spans joined); ``start``/``end`` is their extent,
  so ``text`` of a discontinuous mention ("agenesis of ... corpus callosum", several spans,
  ``discontinuous`` true) includes the words between its spans. A discontinuous mention is kept for
  counting and never used as a WiC target (:func:`biosem.wic.concepts.unify_concepts`).

A fourth table for corpora whose documents carry their own licence notices (CRAFT: each article's
``<PMID>.copyright``): ``NOTICES`` (``results/intermediate/notices/<corpus>.parquet``), one row per
document, joined to the others by ``(corpus, document_id)``.

Offsets are counted in Unicode code points (Python ``str`` indices), as the corpora define them.
"""

from __future__ import annotations

import pyarrow as pa

from biosem.io import TableSpec

SPLITS = ("train", "dev", "test")
NAMESPACES = ("MESH", "OMIM", "UMLS", "NCBIGene", "NCBITaxon", "Cellosaurus", "tmVar")
TABLES = ("documents", "sentences", "mentions")


SPAN = pa.struct([pa.field("start", pa.int64(), nullable=False), pa.field("end", pa.int64(), nullable=False)])
"""One span of a mention: document character offsets, end exclusive."""


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
            _s("abstract"),  # "" for a full text (CRAFT)
            _s("text"),  # PubTator: title + " " + abstract; CRAFT: the article .txt
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
            _s("type"),  # entity type (Chemical, ...), MedMentions semantic types (T047,T191), CRAFT module (GO_BP)
            pa.field("concept_ids", pa.list_(pa.string()), nullable=False),  # namespaced; [] for -1 / none
            _i("sentence_id"),
            _i("sentence_start"),  # offset into the sentence text
            _i("sentence_end"),  # exclusive
            pa.field("spans", pa.list_(SPAN), nullable=False),  # document offsets; [(start, end)] if continuous
            pa.field("discontinuous", pa.bool_(), nullable=False),  # several spans: never a WiC target
        ]
    ),
    ("corpus", "document_id", "mention_id"),
)

CORPUS_TABLES: dict[str, TableSpec] = {spec.name: spec for spec in (DOCUMENTS, SENTENCES, MENTIONS)}
"""The three tables every corpus has, by name."""

NOTICES = TableSpec(
    "notices",
    pa.schema(
        [
            _s("corpus"),
            _s("document_id"),  # PMID, as in DOCUMENTS
            _s("pmcid"),  # PMC id (CRAFT articles/ids/craft-idmappings.txt)
            _s("url"),  # the article's URL, which the notice asks to keep with it
            _s("citation"),  # the notice's first line: journal, year, volume, article
            _s("statement"),  # the copyright / open-access statement (the text after the URL)
            _s("notice"),  # the whole notice, verbatim (trailing whitespace removed)
        ]
    ),
    ("corpus", "document_id"),
)
"""Per-document open-access notices (CRAFT's ``articles/txt/<PMID>.copyright``); the notice must travel
with any text of its article that is released (its own terms: BMC, PLoS, OUP, ...)."""
