"""Embedding tables of sentence encoders: each distinct string of every dataset a model is scored on is
encoded once (rule ``encode_strings``), and the evaluate rules look the vectors up instead of encoding.

A table (:data:`EMBEDDINGS`) has one row per distinct string, sorted by string (code-point order), with its
float32 vector as the encoder returned it (sentence-transformers ``encode``; not normalised unless the model's
own modules normalise). An empty table stands for an encoder that could not be loaded (logged by the rule
that encoded), and its evaluations are skipped as the encoder's would be.
"""

from __future__ import annotations

import logging
from collections.abc import Iterable, Sequence
from pathlib import Path

import numpy as np
import pyarrow as pa
import pyarrow.parquet as pq

from biosem.io import TableSpec, string_field

log = logging.getLogger(__name__)

EMBEDDINGS = TableSpec(
    "embeddings",
    pa.schema([string_field("string"), pa.field("vector", pa.list_(pa.float32()), nullable=False)]),
    ("string",),
)


def encode_distinct(encoder: object, strings: Iterable[str]) -> pa.Table:
    """Encode each distinct string of ``strings`` once, in sorted order (one ``phrase_vectors`` call; a
    :class:`biosem.evaluate.models.SentenceEncoder` logs the strings encoded at every tenth of them).

    ``encoder``: a representation with ``phrase_vectors`` (a :class:`biosem.evaluate.models.SentenceEncoder`).
    Returns an :data:`EMBEDDINGS` table (``string``, ``vector`` float32 [dim]).
    """
    distinct = sorted(set(strings))
    log.info("%s: encoding %d distinct strings", getattr(encoder, "name", "encoder"), len(distinct))
    vectors, _ = encoder.phrase_vectors(distinct)  # type: ignore[attr-defined]
    vectors = np.ascontiguousarray(vectors, dtype=np.float32)
    dim = int(vectors.shape[1]) if vectors.ndim == 2 else 0
    log.info("%s: %d distinct strings encoded, dimension %d", getattr(encoder, "name", "encoder"), len(distinct), dim)
    flat = pa.array(vectors.reshape(-1), type=pa.float32())
    offsets = pa.array(np.arange(len(distinct) + 1, dtype=np.int32) * dim, type=pa.int32())
    return pa.Table.from_arrays(
        [pa.array(distinct, type=pa.string()), pa.ListArray.from_arrays(offsets, flat)], schema=EMBEDDINGS.schema
    )


class EmbeddingTable:
    """A sentence encoder's vectors read from its embedding table: ``phrase_vectors`` looks strings up.

    Like :class:`biosem.evaluate.models.SentenceEncoder`, every string is covered and there are no word-level
    metrics; a string that is not in the table is an error (the table was built from other datasets).
    """

    word_level = False

    def __init__(self, name: str, strings: Sequence[str], vectors: np.ndarray) -> None:
        self.name = name
        self.index = {s: i for i, s in enumerate(strings)}
        self.vectors = np.asarray(vectors, dtype=np.float32)

    @classmethod
    def from_arrow(cls, name: str, table: pa.Table, where: str = "embedding table") -> EmbeddingTable:
        """The representation of an :data:`EMBEDDINGS` table (as :func:`encode_distinct` returns it).

        Raises:
            ValueError: rows whose vectors differ in length (``where`` names the table).
        """
        vectors = table.column("vector").combine_chunks()
        lengths = np.diff(vectors.offsets.to_numpy())
        if len(set(lengths.tolist())) > 1:
            raise ValueError(f"{where}: vectors of lengths {sorted(set(lengths.tolist()))}; expected one dimension")
        dim = int(lengths[0]) if len(lengths) else 0
        matrix = vectors.flatten().to_numpy().reshape(table.num_rows, dim)
        return cls(name, table.column("string").to_pylist(), matrix)

    def __len__(self) -> int:
        return len(self.index)

    def phrase_vectors(self, phrases: Sequence[str], require_all: bool = True) -> tuple[np.ndarray, np.ndarray]:
        """``(vectors float32 [n, dim], covered bool [n])`` of ``phrases``, all covered.

        Raises:
            KeyError: a phrase is not in the table (names how many and the first few).
        """
        rows = np.fromiter((self.index.get(p, -1) for p in phrases), dtype=np.int64, count=len(phrases))
        missing = [p for p, r in zip(phrases, rows) if r < 0]
        if missing:
            raise KeyError(
                f"{len(missing)} strings are not in the embedding table of model {self.name} (built by rule "
                f"encode_strings from the datasets it is scored on), e.g. {sorted(set(missing))[:5]}"
            )
        return self.vectors[rows], np.ones(len(phrases), dtype=bool)


def read_embedding_table(path: str | Path, name: str) -> EmbeddingTable | None:
    """The :class:`EmbeddingTable` of model ``name`` in ``path`` (:data:`EMBEDDINGS`); None for an empty table
    (the encoder could not be loaded: logged here and by the rule that encoded).

    Raises:
        ValueError: rows whose vectors differ in length.
    """
    table = pq.read_table(path, schema=EMBEDDINGS.schema)
    if table.num_rows == 0:
        log.warning("model %s skipped: its embedding table %s is empty (see the encode_strings log)", name, path)
        return None
    model = EmbeddingTable.from_arrow(name, table, str(path))
    log.info("model %s: %d strings, dimension %d (%s)", name, len(model), model.vectors.shape[1], path)
    return model
