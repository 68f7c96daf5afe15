"""Word counting in shards: a shard's documents, its partial counts as a table, and the exact merge.

Rules ``count_corpus_words_shard`` (one job per shard) and ``count_corpus_words`` (the merge). How
documents are assigned to shards: :mod:`biosem.corpora.shards`. Counts of
:class:`~biosem.simlex.vocabulary.CorpusCounts` are sums and its per-step lemma sets unions, so the
merge of the shards' partial tables equals the count over the whole corpus for any number of shards.
"""

from __future__ import annotations

import unicodedata
from collections import Counter
from collections.abc import Iterable, Sequence
from pathlib import Path

import pandas as pd
import pyarrow as pa

from biosem.corpora.pubmed_xml import read_pubmed_xml
from biosem.corpora.shards import FilePart, file_parts, read_lines, shard_mask
from biosem.errors import SourceFormatError
from biosem.io import TableSpec, string_field
from biosem.simlex.vocabulary import CorpusCounts, Document, documents_from_sentences

PARTIAL_COUNTS = TableSpec(
    "word_counts_shard",
    pa.schema(
        [
            string_field("record"),  # total | lemma | step | step_lemma | tag | after_number | in_term
            string_field("pos"),  # noun | verb | all (totals); the tag class (tag rows)
            string_field("step"),  # step name (step, step_lemma), documents | word_tokens (total), "" (others)
            string_field("lemma"),  # "" for total and step rows; the evidence key (tag rows)
            pa.field("tokens", pa.int64(), nullable=False),  # total value, tokens kept, at step, of the tag class,
            # kept right after a number or inside a multi-word term; 0
            pa.field("documents", pa.int64(), nullable=False),  # documents with the lemma (lemma rows); 0
        ]
    ),
    ("record", "pos", "step", "lemma"),
)
"""A shard's :class:`CorpusCounts` as one long table (rows sorted by record, pos, step, lemma)."""


def documents_from_part(part: FilePart) -> list[Document]:
    """Documents of one shard's part of a text corpus file.

    Plain or gzipped UTF-8 text: one document per non-empty line (NFC, passages split with pysbd),
    id ``"<file name>@<byte offset>"``. PubMed XML: one document per article with a title or an
    abstract, id ``"PMID:<pmid>"``, texts (title, abstract) split with pysbd.

    Raises:
        SourceFormatError: a line is not UTF-8 (names the byte offset), or bad PubMed XML.
    """
    name = Path(part.path).name
    if part.pubmed:
        articles = (a for a in read_pubmed_xml(part.path) if a.title or a.abstract)
        return [
            Document(
                f"PMID:{a.pmid}", tuple(unicodedata.normalize("NFC", t) for t in (a.title, a.abstract) if t), False
            )
            for a in articles
        ]
    out = []
    for offset, raw in read_lines(part):
        try:
            line = unicodedata.normalize("NFC", raw.decode("utf-8").strip())
        except UnicodeDecodeError as err:
            raise SourceFormatError(
                part.path, None, "UTF-8 text, one document per line", f"byte offset {offset + err.start}: {raw[:60]!r}"
            ) from None
        if line:
            out.append(Document(f"{name}@{offset}", (line,), split=False))
    return out


def shard_documents(
    sentence_frames: Iterable[pd.DataFrame],
    text_files: Sequence[str],
    index: int,
    n: int,
    deduplicate: bool = True,
) -> tuple[list[Document], list[FilePart]]:
    """The documents shard ``index`` (0-based) of ``n`` counts, and the text-file parts it read.

    ``sentence_frames``: ``sentences`` tables (document_id, sentence_id, text) in corpus order; the
    shard keeps the rows of its document ids (:func:`~biosem.corpora.shards.shard_mask`) and then
    deduplicates as :func:`~biosem.simlex.vocabulary.documents_from_sentences` does, which is exact
    because every copy of an id is in the same shard. Then the documents of its parts of
    ``text_files`` (:func:`~biosem.corpora.shards.file_parts`, :func:`documents_from_part`).
    """
    frames = [f.loc[shard_mask(f["document_id"], index, n)] for f in sentence_frames]
    documents = documents_from_sentences(frames, deduplicate=deduplicate)
    parts = file_parts(text_files, index, n)
    for part in parts:
        documents += documents_from_part(part)
    return documents, parts


def counts_table(counts: CorpusCounts) -> pd.DataFrame:
    """``counts`` as a :data:`PARTIAL_COUNTS` table (lossless: :func:`merge_counts` reads it back)."""
    rows: list[tuple[str, str, str, str, int, int]] = [
        ("total", "all", "documents", "", counts.documents, 0),
        ("total", "all", "word_tokens", "", counts.word_tokens, 0),
    ]
    documents = counts.document_counts
    rows += [("lemma", pos, "", lemma, n, documents[(lemma, pos)]) for (lemma, pos), n in counts.counts.items()]
    rows += [("step", pos, step, "", n, 0) for (pos, step), n in counts.step_tokens.items()]
    rows += [
        ("step_lemma", pos, step, lemma, 0, 0) for (pos, step), lemmas in counts.step_types.items() for lemma in lemmas
    ]
    rows += [("tag", cls, "", key, n, 0) for (key, cls), n in counts.tag_counts.items()]
    rows += [("after_number", pos, "", lemma, n, 0) for (lemma, pos), n in counts.after_number.items()]
    rows += [("in_term", pos, "", lemma, n, 0) for (lemma, pos), n in counts.in_term.items()]
    return pd.DataFrame(rows, columns=PARTIAL_COUNTS.schema.names)


def merge_counts(tables: Iterable[pd.DataFrame]) -> CorpusCounts:
    """The :class:`CorpusCounts` of the union of the shards whose :data:`PARTIAL_COUNTS` tables are given.

    Sums ``tokens`` and ``documents`` per (record, pos, step, lemma) in one vectorised group-by; step
    lemmas are the union. Equal to counting all the shards' documents at once.
    """
    frame = pd.concat(list(tables), ignore_index=True)
    keys = ["record", "pos", "step", "lemma"]
    frame = frame.groupby(keys, sort=True, as_index=False)[["tokens", "documents"]].sum()
    out = CorpusCounts()
    by_record = {record: group for record, group in frame.groupby("record", sort=True)}
    totals = by_record.get("total", frame.iloc[:0])
    value = dict(zip(totals["step"], totals["tokens"], strict=True))
    out.documents = int(value.get("documents", 0))
    out.word_tokens = int(value.get("word_tokens", 0))
    lemmas = by_record.get("lemma", frame.iloc[:0])
    keys_lp = list(zip(lemmas["lemma"], lemmas["pos"], strict=True))
    out.counts = Counter(dict(zip(keys_lp, map(int, lemmas["tokens"]), strict=True)))
    out.document_counts = Counter(dict(zip(keys_lp, map(int, lemmas["documents"]), strict=True)))
    steps = by_record.get("step", frame.iloc[:0])
    out.step_tokens = Counter(
        dict(zip(zip(steps["pos"], steps["step"], strict=True), map(int, steps["tokens"]), strict=True))
    )
    step_lemmas = by_record.get("step_lemma", frame.iloc[:0])
    for (pos, step), group in step_lemmas.groupby(["pos", "step"], sort=True):
        out.step_types[(pos, step)] = set(group["lemma"])
    tags = by_record.get("tag", frame.iloc[:0])
    out.tag_counts = Counter(
        dict(zip(zip(tags["lemma"], tags["pos"], strict=True), map(int, tags["tokens"]), strict=True))
    )
    for record in ("after_number", "in_term"):
        rows = by_record.get(record, frame.iloc[:0])
        setattr(
            out,
            record,
            Counter(dict(zip(zip(rows["lemma"], rows["pos"], strict=True), map(int, rows["tokens"]), strict=True))),
        )
    return out
