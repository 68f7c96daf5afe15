"""Arrow schemas of the analogies stage (BMASS; docs/design.md § analogies).

* ``TERM_COUNTS`` (``results/intermediate/term_counts/<terminology>.parquet``): one row per active term
  of the terminology: its surface form (SNOMED CT FSNs without their semantic tag), the normalised form
  that was counted (:func:`biosem.analogies.frequency.normalise`), its number of tokens, and its
  occurrences in the corpus. Terms sharing a normalised form share its count.
* ``PARTIAL_TERM_COUNTS``: one shard's nonzero counts per normalised term, summed into ``TERM_COUNTS``.
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
            pa.field("count", pa.int64(), nullable=False),  # occurrences in the corpus
        ]
    ),
    ("source", "concept_id", "term_id"),
)

PARTIAL_TERM_COUNTS = TableSpec(
    "term_counts_shard",
    pa.schema(
        [
            _s("normalised"),  # a normalised term (frequency.normalise) occurring in the shard
            pa.field("count", pa.int64(), nullable=False),  # its occurrences in the shard's documents (> 0)
        ]
    ),
    ("normalised",),
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
