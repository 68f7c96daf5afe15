"""Arrow schemas of the evaluate stage's side tables (the results table is in :mod:`.results`)."""

from __future__ import annotations

import pyarrow as pa

from biosem.io import TableSpec

# results/evaluation/models/token_counts.parquet: tokens of the frequency-band corpus (evaluate.rated).
TOKEN_COUNTS = TableSpec(
    "token_counts",
    pa.schema(
        [
            pa.field("token", pa.string(), nullable=False),
            pa.field("count", pa.int64(), nullable=False),  # occurrences
            pa.field("document_count", pa.int64(), nullable=False),  # documents containing it
        ]
    ),
    (),  # most frequent first, then token (biosem.evaluate.models.count_tokens)
)

# results/evaluation/termpairs/<model>.predictions.parquet: held-out correctness per pair (McNemar).
TERMPAIR_PREDICTIONS = TableSpec(
    "termpair_predictions",
    pa.schema(
        [
            pa.field("dataset", pa.string(), nullable=False),
            pa.field("similarity", pa.string(), nullable=False),
            pa.field("pair", pa.int64(), nullable=False),  # row of the dataset Parquet (0-based)
            pa.field("correct", pa.bool_(), nullable=False),
        ]
    ),
    ("dataset", "similarity", "pair"),
)

# results/evaluation/analogies/<model>.predictions.parquet: top-k candidates per covered analogy.
ANALOGY_PREDICTIONS = TableSpec(
    "analogy_predictions",
    pa.schema(
        [
            pa.field("dataset", pa.string(), nullable=False),
            pa.field("method", pa.string(), nullable=False),
            pa.field("analogy", pa.int64(), nullable=False),  # index among the covered analogies
            pa.field("relation", pa.string(), nullable=False),
            pa.field("a", pa.string(), nullable=False),
            pa.field("c", pa.string(), nullable=False),
            pa.field("first_answer_rank", pa.int64(), nullable=False),
            pa.field("top", pa.list_(pa.field("item", pa.string(), nullable=False)), nullable=False),
        ]
    ),
    ("dataset", "method", "analogy"),
)
