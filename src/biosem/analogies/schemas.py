"""Arrow schemas of the analogies stage (BMASS; docs/design.md § analogies).

* ``TERM_COUNTS`` (``results/intermediate/term_counts/<terminology>.parquet``): one row per active term
  of the terminology: its surface form (SNOMED CT FSNs without their semantic tag), its normalised
  (lowercased) form (:func:`biosem.analogies.frequency.normalise`) and number of tokens, the rule that
  makes it counted with its case (``case_rule``; :mod:`biosem.analogies.matching`), the match mode and
  the form that was counted in it (``mode``, ``matched``), its occurrences in the corpus in that mode
  (``count_cased``), as counted (``count``: in the documents that name its concept by another term
  when ``in_context``, else ``count_cased``) and lowercased as BMASS counts (``count_folded``).
* ``PARTIAL_TERM_COUNTS``: one shard's nonzero counts per (counted form, mode) and per context (form,
  mode, concept), summed into ``TERM_COUNTS``.
* ``ANALOGIES`` (``results/datasets/analogies/<terminology>/<setting>.parquet``): one row per analogy
  a:b::c:d, in the order of the reference text file (relations sorted, then by a, then by c). ``b_*``
  and ``d_*`` are aligned lists (one element in Single-Answer; see :mod:`biosem.analogies.construct`).
"""

from __future__ import annotations

import pyarrow as pa

from biosem.io import TableSpec


def _s(name: str, nullable: bool = False) -> pa.Field:
    return pa.field(name, pa.string(), nullable=nullable)


def _list(name: str) -> pa.Field:
    return pa.field(name, pa.list_(pa.field("item", pa.string(), nullable=False)), nullable=False)


TERM_COUNTS = TableSpec(
    "term_counts",
    pa.schema(
        [
            _s("source"),
            _s("concept_id"),
            _s("term_id"),
            _s("term_type"),
            _s("language", nullable=True),
            _s("scope", nullable=True),
            _s("term"),  # surface form (FSN without semantic tag)
            _s("normalised"),  # lowercase, punctuation -> space, collapsed; "" if nothing is left
            pa.field("tokens", pa.int64(), nullable=False),  # tokens of `normalised`
            _s("case_rule", nullable=True),  # abbreviation | capitals | common_word; null: counted lowercased
            _s("mode"),  # folded | cased | exact (frequency.MATCH_MODES)
            _s("matched"),  # the form counted in `mode` (= normalised when folded); "" if nothing is left
            pa.field("in_context", pa.bool_(), nullable=False),  # counted only where its concept is named otherwise
            pa.field("count", pa.int64(), nullable=False),  # occurrences as counted (in context if in_context)
            pa.field("count_cased", pa.int64(), nullable=False),  # occurrences of `matched` in `mode`, anywhere
            pa.field("count_folded", pa.int64(), nullable=False),  # occurrences of `normalised` (BMASS)
        ]
    ),
    ("source", "concept_id", "term_id"),
)

PARTIAL_TERM_COUNTS = TableSpec(
    "term_counts_shard",
    pa.schema(
        [
            _s("normalised"),  # a counted form (frequency.match_forms in its mode) occurring in the shard
            _s("mode"),  # its match mode: folded | cased | exact
            _s("concept_id", nullable=True),  # a context count: only in documents naming this concept otherwise
            pa.field("count", pa.int64(), nullable=False),  # its occurrences in the shard's documents (> 0)
        ]
    ),
    ("mode", "normalised", "concept_id"),
)
"""One shard's counts (rule ``count_term_frequencies_shard``); rule ``count_term_frequencies`` sums them."""

ANALOGIES = TableSpec(
    "analogies",
    pa.schema(
        [
            _s("relation"),  # label: REL, or REL/RELA when RELA is given and differs
            _s("rel"),
            _s("rela", nullable=True),
            _s("a_id"),
            _s("a_term"),
            _list("b_ids"),
            _list("b_terms"),
            _s("c_id"),
            _s("c_term"),
            _list("d_ids"),
            _list("d_terms"),
        ]
    ),
    (),  # rows stay in construction order (the reference text order)
)

ANALOGY_COLUMNS = tuple(f.name for f in ANALOGIES.schema)
