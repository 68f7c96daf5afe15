"""PubTator corpora (BC5CDR, NCBI Disease, MedMentions) into documents / sentences / mentions tables.

Corpus quirks handled here (each counted in :class:`CorpusStats` and logged by the rule):

* Concept ids: composite ids are split on ``|`` (alternatives; BC5CDR, NCBI Disease) and ``+``
  (conjunctions; NCBI Disease ``D007674+D006222``), components trimmed (NCBI has ``" D008661"`` and
  ``"OMIM:106210 "``), ``-1``/``-`` components dropped (BC5CDR marks unnormalisable mentions with
  ``-1``, composite ones with ``D...|-``), duplicates removed keeping the corpus' order. Bare ids get
  the corpus' namespace (``D014262`` -> ``MESH:D014262`` for BC5CDR and NCBI Disease; ``C0011849``
  -> ``UMLS:C0011849`` for MedMentions); prefixed ids keep theirs (NCBI ``OMIM:608089``,
  ``MESH:C535662``; MedMentions ``UMLS:C0854135``). Every component is checked against the pattern of
  its namespace (MESH ``[CD]\\d+``, OMIM ``\\d+``, UMLS ``C\\d{7}``).
* BC5CDR relation lines (``CID``) are read and counted, not stored; the 7th column of a BC5CDR
  composite mention (component texts) is checked by ``bioc`` and not stored.
* MedMentions' 5th column (semantic type ids, comma-separated, or ``UnknownType``) is the ``type``.
* A PMID read twice: an identical duplicate is dropped and counted; a conflicting one (other title,
  abstract or annotations) is an error, since no rule can say which copy is right. Files are read
  held-out first (test, dev, train), so a document in both a held-out file and the training file
  stays held out: the mirrored BC5CDR ``CDR_TrainingSet.PubTator.txt`` (cryptoradon/biomedRelExt)
  holds the 500 official training abstracts followed by the 500 development abstracts, byte for byte;
  NCBI Disease train has PMID 8528200 twice, identically.
* Mention text must equal ``text[start:end]`` of ``text = title + " " + abstract``; a mention text
  column with surrounding whitespace that equals the span once trimmed (NCBI Disease 10923035:
  ``'... " plus "  '``) is accepted and counted as ``mention_text_trimmed``.
"""

from __future__ import annotations

import logging
import re
from collections import Counter
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd

from biosem.corpora.pubtator import PubTatorDocument, read_pmid_list, read_pubtator
from biosem.corpora.schemas import SPLITS
from biosem.corpora.sentences import SegmentationStats, Segmenter, segment_documents
from biosem.errors import SourceFormatError

log = logging.getLogger(__name__)

NAMESPACE_PATTERNS: dict[str, re.Pattern[str]] = {
    "MESH": re.compile(r"[CD][0-9]+"),
    "OMIM": re.compile(r"[0-9]+"),
    "UMLS": re.compile(r"C[0-9]{7}"),
    "NCBIGene": re.compile(r"[0-9]+"),
    "NCBITaxon": re.compile(r"[0-9]+"),
    "Cellosaurus": re.compile(r"CVCL_[A-Z0-9]+"),
    "tmVar": re.compile(r"\S(.*\S)?"),
}
"""Id pattern of each namespace. BioRED (Luo et al. 2022) adds genes (NCBI Gene ids), species (NCBI
Taxonomy ids), cell lines (Cellosaurus accessions) and sequence variants (dbSNP ``rs`` ids or tmVar
descriptions such as ``p|SUB|E|75|D``, kept whole as ``tmVar`` ids)."""

ID_SEPARATORS: dict[str, re.Pattern[str] | None] = {
    "tmVar": None,  # tmVar descriptions contain '|' and '+' (c|DEL|1181_1186+20|26): never split
}
"""Separators of composite id columns per namespace of bare ids; default :data:`_SEPARATORS`."""
_SEPARATORS = re.compile(r"[|+,]")  # '|' alternatives, '+' conjunctions (NCBI Disease), ',' lists (BioRED)
_NAMESPACE_ALIASES = {
    "MESH": "MESH",
    "MSH": "MESH",
    "OMIM": "OMIM",
    "MIM": "OMIM",
    "UMLS": "UMLS",
    "CUI": "UMLS",
}
_PREFIXED = re.compile(r"([A-Za-z][A-Za-z0-9_]*):(.+)")
_NULL_IDS = {"-1", "-", ""}


@dataclass
class CorpusStats:
    """Counters of one corpus split (``split == "all"`` for the whole corpus)."""

    corpus: str
    split: str
    records: int = 0  # documents read, duplicates included
    duplicates_dropped: int = 0
    documents: int = 0
    sentences: int = 0
    mentions: int = 0
    mentions_with_ids: int = 0
    mentions_without_ids: int = 0  # -1, '-' or nothing
    composite_ids: int = 0  # raw id column holds several ids ('|' or '+')
    concept_ids: int = 0  # namespaced ids kept (over all mentions)
    null_components: int = 0  # '-1' / '-' parts of composite ids dropped
    ids_trimmed: int = 0  # id components with surrounding whitespace
    ids_prefixed: int = 0  # bare ids given the corpus namespace
    mention_text_trimmed: int = 0
    relations: int = 0
    segmentation: SegmentationStats = field(default_factory=SegmentationStats)

    def as_row(self) -> dict[str, object]:
        row = {k: v for k, v in self.__dict__.items() if k != "segmentation"}
        row.update(
            {f"sentences_{k}": v for k, v in self.segmentation.__dict__.items() if k not in ("documents", "sentences")}
        )
        return row


@dataclass
class CorpusTables:
    """The three intermediates of one corpus plus per-split counts (one row per split and ``all``)."""

    documents: pd.DataFrame
    sentences: pd.DataFrame
    mentions: pd.DataFrame
    counts: pd.DataFrame


def normalise_concept_ids(raw: str, namespace: str, stats: CorpusStats | None = None) -> list[str]:
    """Namespaced concept ids of a PubTator id column (see the module docstring for the rules).

    Args:
        raw: the id column (``"D014262"``, ``"-1"``, ``"D001943|D010051"``, ``"OMIM:300322+OMIM:102600"``,
            ``"UMLS:C0010674"``, BioRED ``"C080122,D019335"``).
        namespace: namespace of bare ids (a key of :data:`NAMESPACE_PATTERNS`). Composite columns are
            split at ``|``, ``+`` and ``,``, except for ``tmVar`` (a variant description is one id).

    Returns:
        ids like ``["MESH:D001943", "MESH:D010051"]``; ``[]`` for ``-1`` or an empty column.

    Raises:
        ValueError: a component that does not match its namespace's id pattern (the caller turns it
            into a :class:`SourceFormatError` with the line).
    """
    separators = ID_SEPARATORS.get(namespace, _SEPARATORS)
    parts = separators.split(raw) if separators is not None else [raw]
    if stats is not None and len(parts) > 1:
        stats.composite_ids += 1
    out: list[str] = []
    for part in parts:
        value = part.strip()
        if stats is not None and value != part:
            stats.ids_trimmed += 1
        if value in _NULL_IDS:
            if stats is not None and len(parts) > 1 and value:
                stats.null_components += 1
            continue
        match = _PREFIXED.fullmatch(value) if separators is not None else None
        if match:
            ns = _NAMESPACE_ALIASES.get(match.group(1).upper(), match.group(1))
            local = match.group(2)
        else:
            ns, local = namespace, value
            if stats is not None:
                stats.ids_prefixed += 1
        pattern = NAMESPACE_PATTERNS.get(ns)
        if pattern is None or not pattern.fullmatch(local):
            known = ", ".join(f"{k}:{v.pattern}" for k, v in NAMESPACE_PATTERNS.items())
            raise ValueError(f"concept id {value!r}: expected a bare {namespace} id or one of {known}")
        cid = f"{ns}:{local}"
        if cid not in out:
            out.append(cid)
    return out


def read_corpus_documents(
    name: str,
    files: Mapping[str, str | Path],
    split_lists: Mapping[str, str | Path] | None = None,
) -> tuple[list[tuple[str, PubTatorDocument]], dict[str, CorpusStats]]:
    """Read a corpus' PubTator files into ``(split, document)`` pairs, dropping identical duplicates.

    Two layouts: one file per split (``files = {"train": ..., "dev": ..., "test": ...}``; BC5CDR,
    NCBI Disease) or one file (``files = {"all": ...}``) plus one PMID list per split
    (``split_lists``; MedMentions). With split lists, a document listed in no split, or in several,
    is an error; listed PMIDs absent from the file are counted (the 3-document MedMentions sample).

    Raises:
        SourceFormatError: a malformed file (see :func:`read_pubtator`), a PMID read twice with
            different content (both places named), a document in no split list or in several.
    """
    expected = {"all"} if split_lists else set(SPLITS)
    if not files or set(files) - expected:
        raise ValueError(f"{name}: files must be keyed by {sorted(expected)}; got {sorted(files)}")
    stats = {s: CorpusStats(name, s) for s in SPLITS}
    split_of: dict[str, str] = {}
    list_source: dict[str, Path] = {}
    if split_lists:
        for split in SPLITS:
            if split not in split_lists:
                continue
            for pmid in read_pmid_list(split_lists[split]):
                if pmid in split_of:
                    raise SourceFormatError(
                        split_lists[split],
                        None,
                        f"PMID {pmid} in one split list only",
                        f"also in {list_source[pmid]}",
                    )
                split_of[pmid] = split
                list_source[pmid] = Path(split_lists[split])
    seen: dict[str, tuple[str, PubTatorDocument]] = {}
    out: list[tuple[str, PubTatorDocument]] = []
    dropped: Counter[tuple[str, str, str, str]] = Counter()
    # Held-out files first: a document that is also in the training file stays held out (the
    # mirrored BC5CDR training file repeats the 500 development abstracts after its own 500).
    for file_split in sorted(files, key=_split_order, reverse=True):
        for doc in read_pubtator(files[file_split]):
            if split_lists:
                if doc.pmid not in split_of:
                    raise SourceFormatError(doc.path, doc.line, "a document listed in a split PMID list", doc.pmid)
                split = split_of[doc.pmid]
            else:
                split = file_split
            stats[split].records += 1
            if doc.pmid in seen:
                first_split, first = seen[doc.pmid]
                if first.key() != doc.key():
                    raise SourceFormatError(
                        doc.path,
                        doc.line,
                        f"document {doc.pmid} once, or identical to its first copy at {first.path}:{first.line}",
                        "a second copy with different title, abstract or annotations",
                    )
                stats[split].duplicates_dropped += 1
                dropped[(split, str(doc.path), first_split, str(first.path))] += 1
                if dropped[(split, str(doc.path), first_split, str(first.path))] <= 3:
                    log.info(
                        "%s: PMID %s at %s:%d is an identical copy of %s:%d; dropped",
                        name,
                        doc.pmid,
                        doc.path,
                        doc.line,
                        first.path,
                        first.line,
                    )
                continue
            seen[doc.pmid] = (split, doc)
            out.append((split, doc))
    for (split, path, first_split, first_path), n in sorted(dropped.items()):
        log.warning(
            "%s: %d %s documents of %s are identical copies of %s documents of %s; dropped from %s",
            name,
            n,
            split,
            path,
            first_split,
            first_path,
            split,
        )
    if split_lists:
        absent = Counter(split_of[p] for p in split_of if p not in seen)
        for split in SPLITS:
            if absent[split]:
                log.info(
                    "%s: %d PMIDs listed for %s are not in the corpus file",
                    name,
                    absent[split],
                    split,
                )
    return out, stats


def _split_order(split: str) -> int:
    return SPLITS.index(split) if split in SPLITS else -1


def check_mentions(doc: PubTatorDocument, stats: CorpusStats) -> list[tuple[int, int, str, str, str, int]]:
    """The document's mentions as ``(start, end, text, type, id column, file order)``, offsets checked.

    Raises:
        SourceFormatError: a mention whose text is not ``text[start:end]`` (also after trimming the
            mention column's surrounding whitespace), whose span exceeds the text, or whose text is
            empty or blank; named by file and line.
    """
    text = doc.text
    rows = []
    for order, (ann, lineno) in enumerate(zip(doc.document.annotations, doc.annotation_lines, strict=True)):
        span = text[ann.start : ann.end]
        if ann.end > len(text):
            raise SourceFormatError(
                doc.path,
                lineno,
                f"offsets within the document text (length {len(text)})",
                f"{ann.start}-{ann.end} {ann.text}",
            )
        if span != ann.text:
            if span and span == ann.text.strip():
                stats.mention_text_trimmed += 1
            else:
                raise SourceFormatError(
                    doc.path,
                    lineno,
                    f"mention text == text[{ann.start}:{ann.end}] = {span!r}",
                    ann.text,
                )
        if not span.strip():
            raise SourceFormatError(doc.path, lineno, "a mention with non-blank text", repr(span))
        rows.append((ann.start, ann.end, span, ann.type, ann.id, order))
    rows.sort(key=lambda r: (r[0], r[1], r[5]))
    return rows


def ingest_corpus(
    name: str,
    files: Mapping[str, str | Path],
    namespace: str,
    segmenter: Segmenter,
    split_lists: Mapping[str, str | Path] | None = None,
    processes: int = 1,
    type_namespaces: Mapping[str, str] | None = None,
) -> CorpusTables:
    """Read, check and segment one PubTator corpus (docs/design.md § Intermediates, corpora; § wic).

    Args:
        name: corpus name (the ``corpus`` column).
        files: PubTator file per split, or ``{"all": file}`` with ``split_lists``.
        namespace: namespace of bare concept ids (``MESH``, ``UMLS``, ``OMIM``).
        segmenter: the sentence segmenter (:class:`biosem.corpora.sentences.Segmenter`).
        split_lists: PMID list per split when ``files`` is a single file.
        processes: worker processes for sentence segmentation (output does not depend on it).
        type_namespaces: namespace of bare ids per mention type, where it is not ``namespace``
            (BioRED: ``{"GeneOrGeneProduct": "NCBIGene", "SequenceVariant": "tmVar", ...}``).

    Returns:
        :class:`CorpusTables` with the columns of ``biosem.corpora.schemas`` DOCUMENTS, SENTENCES and
        MENTIONS (rows in reading order; ``write_table`` sorts them) and a counts frame (one row per
        split plus ``all``).

    Raises:
        SourceFormatError: malformed PubTator, wrong offsets, conflicting duplicates, bad ids.
    """
    type_namespaces = dict(type_namespaces or {})
    for ns in (namespace, *type_namespaces.values()):
        if ns not in NAMESPACE_PATTERNS:
            raise ValueError(f"namespace {ns!r}: expected one of {sorted(NAMESPACE_PATTERNS)}")
    docs, stats = read_corpus_documents(name, files, split_lists)
    checked = []
    for split, doc in docs:
        st = stats[split]
        mentions = check_mentions(doc, st)
        ids = []
        for ms, me, _, mtype, raw_id, order in mentions:
            try:
                ids.append(normalise_concept_ids(raw_id, type_namespaces.get(mtype, namespace), st))
            except ValueError as exc:
                raise SourceFormatError(doc.path, doc.annotation_lines[order], str(exc), raw_id) from None
        checked.append((split, doc, mentions, ids))
    segmented = segment_documents(
        segmenter,
        [(doc.text, [(m[0], m[1]) for m in mentions], len(doc.document.title)) for _, doc, mentions, _ in checked],
        processes,
    )
    doc_rows: list[tuple[str, str, str, str, str]] = []
    sent_cols: dict[str, list] = {k: [] for k in ("document_id", "sentence_id", "start", "end", "text")}
    ment_cols: dict[str, list] = {
        k: []
        for k in (
            "document_id",
            "mention_id",
            "start",
            "end",
            "text",
            "type",
            "concept_ids",
            "sentence_id",
            "sentence_start",
            "sentence_end",
            "spans",
            "discontinuous",
        )
    }
    for (split, doc, mentions, ids), (spans, seg_stats) in zip(checked, segmented, strict=True):
        st = stats[split]
        st.segmentation.add(seg_stats)
        text = doc.text
        st.documents += 1
        st.relations += len(doc.document.relations)
        st.sentences += len(spans)
        doc_rows.append((doc.pmid, split, doc.document.title, doc.document.abstract, text))
        for sid, (s, e) in enumerate(spans):
            sent_cols["document_id"].append(doc.pmid)
            sent_cols["sentence_id"].append(sid)
            sent_cols["start"].append(s)
            sent_cols["end"].append(e)
            sent_cols["text"].append(text[s:e])
        starts = np.array([s for s, _ in spans], dtype=np.int64)
        for mid, ((ms, me, mtext, mtype, _, _), cids) in enumerate(zip(mentions, ids, strict=True)):
            sid = int(np.searchsorted(starts, ms, side="right")) - 1
            s, e = spans[sid]
            if not (s <= ms and me <= e):  # merge_crossing guarantees this; a bug if not
                raise AssertionError(f"{doc.pmid}: mention {ms}-{me} outside its sentence {s}-{e}")
            st.mentions += 1
            st.mentions_with_ids += bool(cids)
            st.mentions_without_ids += not cids
            st.concept_ids += len(cids)
            ment_cols["document_id"].append(doc.pmid)
            ment_cols["mention_id"].append(mid)
            ment_cols["start"].append(ms)
            ment_cols["end"].append(me)
            ment_cols["text"].append(mtext)
            ment_cols["type"].append(mtype)
            ment_cols["concept_ids"].append(cids)
            ment_cols["sentence_id"].append(sid)
            ment_cols["sentence_start"].append(ms - s)
            ment_cols["sentence_end"].append(me - s)
            ment_cols["spans"].append([{"start": ms, "end": me}])  # PubTator mentions are continuous
            ment_cols["discontinuous"].append(False)
    documents = pd.DataFrame(doc_rows, columns=["document_id", "split", "title", "abstract", "text"])
    documents.insert(0, "corpus", name)
    sentences = pd.DataFrame(sent_cols)
    sentences.insert(0, "corpus", name)
    mentions_frame = pd.DataFrame(ment_cols)
    mentions_frame.insert(0, "corpus", name)
    return CorpusTables(documents, sentences, mentions_frame, counts_frame(stats.values()))


def counts_frame(per_split: Iterable[CorpusStats]) -> pd.DataFrame:
    """One row per split (in SPLITS order) plus an ``all`` row summing them."""
    rows = [s.as_row() for s in per_split]
    frame = pd.DataFrame(rows)
    ints = [c for c in frame.columns if c not in ("corpus", "split")]
    total = {"corpus": frame["corpus"].iloc[0], "split": "all", **frame[ints].sum().to_dict()}
    frame = pd.concat([frame, pd.DataFrame([total])], ignore_index=True)
    frame[ints] = frame[ints].astype("int64")
    return frame


def log_counts(counts: pd.DataFrame, logger: logging.Logger = log) -> None:
    """Log the per-split counts (documents, sentences, mentions, ids) in one line each."""
    for row in counts.itertuples(index=False):
        logger.info(
            "%s %s: %d documents (%d read, %d identical duplicates dropped), %d sentences "
            "(%d recovered from pysbd, %d merged over %d crossing mentions, %d masked mentions), "
            "%d mentions (%d with ids, %d without: -1/none; %d composite; %d ids kept; %d '-1' parts dropped; "
            "%d ids trimmed; %d bare ids prefixed; %d mention texts trimmed), %d relations",
            row.corpus,
            row.split,
            row.documents,
            row.records,
            row.duplicates_dropped,
            row.sentences,
            row.sentences_recovered,
            row.sentences_merged,
            row.sentences_crossing_mentions,
            row.sentences_masked_mentions,
            row.mentions,
            row.mentions_with_ids,
            row.mentions_without_ids,
            row.composite_ids,
            row.concept_ids,
            row.null_components,
            row.ids_trimmed,
            row.ids_prefixed,
            row.mention_text_trimmed,
            row.relations,
        )


def write_corpus_tables(tables: Any, output: Any, corpus: str, logger: logging.Logger = log) -> None:
    """Write an ingested corpus: ``tables.documents``, ``.sentences`` and ``.mentions`` (the schemas of
    :mod:`biosem.corpora.schemas`) to ``output.documents`` / ``.sentences`` / ``.mentions`` as Parquet,
    logging the rows written, and ``tables.counts`` to ``output.counts`` as TSV (the PubTator and
    token-per-line ingest scripts end with it; CRAFT's writes its notices and module counts too).

    Raises:
        OSError: an output cannot be written.
    """
    from biosem.corpora.schemas import DOCUMENTS, MENTIONS, SENTENCES
    from biosem.io import write_table, write_text

    for table, spec, path in (
        (tables.documents, DOCUMENTS, output.documents),
        (tables.sentences, SENTENCES, output.sentences),
        (tables.mentions, MENTIONS, output.mentions),
    ):
        n = write_table(table, path, spec)
        logger.info("%s: wrote %d %s rows to %s", corpus, n, spec.name, path)
    write_text(tables.counts.to_csv(sep="\t", index=False, lineterminator="\n"), output.counts)
