"""Term frequencies in a corpus: every terminology term counted at once with one Aho–Corasick automaton.

BMASS (Newman-Griffis et al. 2017, § 3) keeps a concept when one of its strings occurs at least 25 times
in PubMed, counted as exact matches after lowercasing and stripping punctuation. biosem makes the rule
explicit and applies it identically to terms and text:

* **Normalisation** (:func:`normalise`): lowercase (full Unicode), every character that is not a letter,
  mark or digit (Unicode categories P*, S*, Z*, Cc, Cf: punctuation, symbols, spaces, controls) becomes
  a space, runs of spaces collapse to one, no leading or trailing space. ``"Crohn's disease"`` ->
  ``"crohn s disease"``; ``"non-small-cell"`` -> ``"non small cell"``; ``"IL-2"`` -> ``"il 2"``.
  Punctuation separates tokens rather than disappearing, so two words joined by a hyphen or slash
  never fuse into a third word.
* **Matching**: a term occurs where its normalised token sequence occurs in the normalised text on token
  boundaries: a term inside a longer word does not count (``"ion"`` is not found in ``"lesion"``).
  Every occurrence counts, nested and overlapping ones included (``"cell"`` is counted inside
  ``"t cell lymphoma"`` as well as ``"t cell"`` and ``"t cell lymphoma"``), so each term's count is
  what a search for that term alone would give. Matches never span two documents.
* **Automaton**: one Aho–Corasick automaton over all distinct normalised terms (never a regex per term).
  Backend ``ahocorasick_rs`` (Rust; the default when installed) runs over *token codes*: each token of
  the terms' vocabulary gets a prefix-free code (one code point for the ~520,000 most frequent, two
  beyond), every other token of the text one "unknown" code, and the automaton runs over the UTF-8
  bytes of the coded text: about 2 bytes per token instead of about 7 characters, and token boundaries
  hold by construction (UTF-8 is self-synchronising and the code is prefix-free). Single-token terms
  are counted by a histogram of the coded text, so the automaton reports multi-token matches only.
  Backend ``pyahocorasick`` (C; its nodes scan their children linearly, so it runs on characters:
  ``" term "`` patterns over ``" text "``) gives identical counts and serves where the Rust wheel is
  unavailable.

Throughput: corpora are processed in chunks of whole documents (default 4 MB), in parallel worker
processes that each build the automaton once; counts are integers summed per chunk, so the result
does not depend on the number of workers or on chunk order. See ``bench/bench_term_frequency.py``.
"""

from __future__ import annotations

import concurrent.futures as cf
import functools
import itertools
import logging
import multiprocessing
import operator
import os
import re
import unicodedata
from collections import Counter
from collections.abc import Iterable, Iterator, Sequence
from pathlib import Path

import numpy as np
import pandas as pd
import pyarrow as pa
import pyarrow.compute as pc
import pyarrow.parquet as pq

from biosem.corpora.pubmed_xml import read_pubmed_xml
from biosem.corpora.shards import FilePart, read_lines, shard_mask
from biosem.errors import SourceFormatError
from biosem.logs import Progress
from biosem.sources import open_binary
from biosem.termpairs.positives import strip_semantic_tag

log = logging.getLogger(__name__)

BACKENDS = ("auto", "ahocorasick_rs", "pyahocorasick")
DOCUMENT_SEPARATOR = b" \x00 "
"""Joins documents inside a chunk: the NUL token is never part of a term, so no match spans it."""

# ASCII: letters lowercased, digits kept, every other byte (punctuation, symbols, space, controls)
# becomes a space, except NUL (the document separator). Bytes >= 0x80 (non-ASCII UTF-8) are left
# for _fix_non_ascii.
_ASCII_TABLE = bytes(
    (ord(chr(b).lower()) if chr(b).isalnum() else 0 if b == 0 else 0x20) if b < 0x80 else b for b in range(256)
)
_NON_ASCII_RUN = re.compile(rb"[\x80-\xff]+")
_SEPARATOR_CATEGORIES = frozenset({"Cc", "Cf"})


@functools.lru_cache(maxsize=1 << 16)
def _normalise_non_ascii_run(run: bytes) -> bytes:
    """Lowercase a maximal run of non-ASCII UTF-8 characters; separators (P*, S*, Z*, Cc, Cf) -> space."""
    text = run.decode("utf-8").lower()
    return "".join(
        " " if (cat := unicodedata.category(ch))[0] in "PSZ" or cat in _SEPARATOR_CATEGORIES else ch for ch in text
    ).encode("utf-8")


def _fix_non_ascii(match: re.Match[bytes]) -> bytes:
    return _normalise_non_ascii_run(match.group())


def normalise_bytes(raw: bytes) -> bytes:
    """Normalise UTF-8 text (see the module docstring) without collapsing spaces; NUL bytes are kept.

    Works on bytes so that ASCII text takes one ``bytes.translate`` pass; runs of non-ASCII characters
    (complete UTF-8 sequences, since every byte of a multi-byte character is >= 0x80) are decoded and
    normalised one run at a time (cached).

    Raises:
        UnicodeDecodeError: ``raw`` is not valid UTF-8.
    """
    out = raw.translate(_ASCII_TABLE)
    if not out.isascii():
        out = _NON_ASCII_RUN.sub(_fix_non_ascii, out)
    return out


def tokens(raw: bytes) -> list[bytes]:
    """The normalised tokens of UTF-8 text (document separators appear as ``b"\\x00"`` tokens)."""
    return normalise_bytes(raw).replace(b"\x00", DOCUMENT_SEPARATOR).split()


def normalise(text: str) -> str:
    """Lowercase, punctuation and symbols -> spaces, whitespace collapsed: ``"Crohn's  Disease"`` ->
    ``"crohn s disease"``. The same function normalises terms and corpus text."""
    return b" ".join(tokens(text.replace("\x00", " ").encode("utf-8"))).decode("utf-8")


def normalise_many(texts: Sequence[str]) -> list[str]:
    """:func:`normalise` of each string, in one pass over their concatenation (fast for millions)."""
    if not texts:
        return []
    joined = "\x00".join(texts)
    if joined.count("\x00") != len(texts) - 1:  # a NUL inside a string: normalise one by one
        return [normalise(t) for t in texts]
    parts = normalise_bytes(joined.encode("utf-8")).split(b"\x00")
    return [b" ".join(part.split()).decode("utf-8") for part in parts]


def prepare_terms(terms: pd.DataFrame) -> pd.DataFrame:
    """The active terms of a terminology with the form that is counted.

    Args:
        terms: the ``terms`` intermediate (columns source, concept_id, term_id, term, term_type,
            language, active, scope; :data:`biosem.terminology.schemas.TERMS`).

    Returns:
        Columns of :data:`~biosem.analogies.schemas.TERM_COUNTS` except ``count``: ``term`` is the
        surface form (a SNOMED CT FSN without its semantic tag, ``"Malaria (disorder)"`` ->
        ``"Malaria"``), ``normalised`` its :func:`normalise` form ("" when nothing is left, e.g.
        ``"(+)"``), ``tokens`` the number of tokens of ``normalised``.
    """
    t = terms.loc[
        terms["active"].astype(bool), ["source", "concept_id", "term_id", "term_type", "language", "scope", "term"]
    ]
    t = t.reset_index(drop=True)
    is_fsn = (t["term_type"] == "fsn").to_numpy()
    if is_fsn.any():
        t.loc[is_fsn, "term"] = strip_semantic_tag(t.loc[is_fsn, "term"]).to_numpy()
    t["normalised"] = normalise_many(t["term"].astype(str).tolist())
    t["tokens"] = np.fromiter((len(n.split()) for n in t["normalised"]), dtype=np.int64, count=len(t))
    return t


def term_patterns(prepared: pd.DataFrame) -> list[str]:
    """The distinct non-empty normalised terms, sorted: the automaton's patterns."""
    return sorted(set(prepared["normalised"]) - {""})


def merge_partial_counts(patterns: Sequence[str], partial: Iterable[pd.DataFrame]) -> np.ndarray:
    """Occurrences of each pattern summed over shards' partial counts (columns ``normalised``, ``count``).

    Returns an int64 array aligned with ``patterns``.

    Raises:
        ValueError: a partial table names a form that is not among ``patterns`` (shards counted other terms).
    """
    counts = np.zeros(len(patterns), dtype=np.int64)
    index = pd.Index(patterns)
    for table in partial:
        position = index.get_indexer(table["normalised"])
        if (position < 0).any():
            unknown = table["normalised"][position < 0].iloc[0]
            raise ValueError(f"partial counts name {unknown!r}, which is not a pattern of these terms")
        np.add.at(counts, position, table["count"].to_numpy(dtype=np.int64))
    return counts


def attach_counts(prepared: pd.DataFrame, patterns: Sequence[str], counts: np.ndarray) -> pd.DataFrame:
    """``prepared`` plus ``count`` (occurrences of its normalised form; 0 for an empty form)."""
    position = pd.Index(patterns).get_indexer(prepared["normalised"])
    padded = np.append(np.asarray(counts, dtype=np.int64), 0)  # position -1 (no pattern) -> 0
    out = prepared.copy()
    out["count"] = padded[position]
    return out


# --------------------------------------------------------------------------------------------------
# The automaton
# --------------------------------------------------------------------------------------------------
def resolve_backend(backend: str = "auto") -> str:
    """``auto`` -> ``ahocorasick_rs`` when importable, else ``pyahocorasick``.

    Raises:
        ValueError: unknown backend name.
        ImportError: the requested backend is not installed.
    """
    if backend not in BACKENDS:
        raise ValueError(f"unknown Aho-Corasick backend {backend!r}; expected one of {BACKENDS}")
    if backend == "auto":
        try:
            import ahocorasick_rs
        except ImportError:
            return "pyahocorasick"
        return "ahocorasick_rs"
    if backend == "ahocorasick_rs":
        import ahocorasick_rs  # noqa: F401
    else:
        import ahocorasick  # noqa: F401
    return backend


_UNKNOWN = "\x01"  # the code of every text token outside the terms' vocabulary (and of separators)
_FIRST_CODE = 2
_SINGLE_END = 0x80000  # single-code range [2, 0x80000) minus surrogates
_LEAD = (0x80000, 0xC0000)  # two-code tokens: a lead code point, then a trail code point
_TRAIL = (0xC0000, 0x110000)
_SURROGATES = (0xD800, 0xE000)
_SINGLE_CAPACITY = _SINGLE_END - _FIRST_CODE - (_SURROGATES[1] - _SURROGATES[0])


def _token_code(rank: int) -> str:
    """Prefix-free code of the token of frequency rank ``rank`` (0 = most frequent)."""
    if rank < _SINGLE_CAPACITY:
        cp = _FIRST_CODE + rank
        if cp >= _SURROGATES[0]:
            cp += _SURROGATES[1] - _SURROGATES[0]
        return chr(cp)
    lead, trail = divmod(rank - _SINGLE_CAPACITY, _TRAIL[1] - _TRAIL[0])
    if lead >= _LEAD[1] - _LEAD[0]:
        raise ValueError("more distinct term tokens than the token code can hold (8.6e10)")
    return chr(_LEAD[0] + lead) + chr(_TRAIL[0] + trail)


class TermCounter:
    """One Aho–Corasick automaton over normalised patterns; counts their occurrences in text chunks.

    With the ``ahocorasick_rs`` backend, single-token patterns whose token has a one-code-point code
    are counted by a vectorised histogram of the coded text (``numpy.bincount``), and the automaton
    holds the multi-token patterns (plus any single-token pattern left with a two-code-point code):
    the automaton then reports the long matches only, which is where its time goes.

    Args:
        patterns: distinct, non-empty normalised terms (tokens separated by single spaces, as
            :func:`normalise` returns them); pattern ``i`` is counted in slot ``i``.
        backend: ``auto``, ``ahocorasick_rs`` or ``pyahocorasick`` (identical counts).

    Raises:
        ValueError: a pattern is empty, not normalised, or repeated.
    """

    def __init__(self, patterns: Sequence[str], backend: str = "auto") -> None:
        self.n_patterns = len(patterns)
        self.backend = resolve_backend(backend)
        split = [p.split(" ") for p in patterns]
        for pattern, toks in zip(patterns, split):
            if not pattern or "" in toks or "\x00" in pattern:
                raise ValueError(f"pattern {pattern!r} is not a normalised non-empty term")
        if len(set(patterns)) != len(patterns):
            raise ValueError("patterns must be distinct")
        self._automaton: object | None = None
        self._automaton_ids = np.zeros(0, dtype=np.int64)  # automaton pattern index -> pattern id
        self._unigram_of_code = np.zeros(0, dtype=np.int64)  # code point -> pattern id (-1: none)
        if not patterns:
            return
        if self.backend == "ahocorasick_rs":
            import ahocorasick_rs

            frequency = Counter(itertools.chain.from_iterable(split))
            ranked = sorted(frequency, key=lambda t: (-frequency[t], t))
            code = {tok: _token_code(rank) for rank, tok in enumerate(ranked)}
            self._codes = {tok.encode("utf-8"): c for tok, c in code.items()}
            single = [i for i, toks in enumerate(split) if len(toks) == 1 and len(code[toks[0]]) == 1]
            if single:
                points = np.array([ord(code[split[i][0]]) for i in single], dtype=np.int64)
                self._unigram_of_code = np.full(int(points.max()) + 1, -1, dtype=np.int64)
                self._unigram_of_code[points] = single
            in_automaton = np.setdiff1d(np.arange(len(patterns)), np.array(single, dtype=np.int64))
            self._automaton_ids = in_automaton
            if len(in_automaton):
                coded = ["".join(code[t] for t in split[i]).encode("utf-8") for i in in_automaton]
                self._automaton = ahocorasick_rs.BytesAhoCorasick(coded, matchkind=ahocorasick_rs.MatchKind.Standard)
        else:
            import ahocorasick

            automaton = ahocorasick.Automaton(ahocorasick.STORE_INTS)
            for i, pattern in enumerate(patterns):
                automaton.add_word(f" {pattern} ", i)
            automaton.make_automaton()
            self._automaton = automaton
            self._automaton_ids = np.arange(len(patterns), dtype=np.int64)

    def sparse_counts(self, chunk: bytes) -> tuple[np.ndarray, np.ndarray]:
        """(pattern ids, occurrences) of the patterns occurring in ``chunk`` (UTF-8 text; documents
        joined by :data:`DOCUMENT_SEPARATOR`); ids ascending, occurrences > 0.

        Raises:
            UnicodeDecodeError: ``chunk`` is not valid UTF-8.
        """
        if not self.n_patterns:
            return np.zeros(0, dtype=np.int64), np.zeros(0, dtype=np.int64)
        toks = tokens(chunk)
        if self.backend == "ahocorasick_rs":
            coded = "".join(map(self._codes.get, toks, itertools.repeat(_UNKNOWN)))
            parts_ids: list[np.ndarray] = []
            parts_n: list[np.ndarray] = []
            if len(self._unigram_of_code):
                points = np.frombuffer(coded.encode("utf-32-le"), dtype=np.uint32)
                hist = np.bincount(points[points < len(self._unigram_of_code)], minlength=len(self._unigram_of_code))
                hit = np.flatnonzero(hist)
                ids = self._unigram_of_code[hit]
                keep = ids >= 0
                parts_ids.append(ids[keep])
                parts_n.append(hist[hit][keep].astype(np.int64))
            if self._automaton is not None:
                found = self._automaton.find_matches_as_indexes(coded.encode("utf-8"), overlapping=True)  # type: ignore[attr-defined]
                index = np.fromiter(map(operator.itemgetter(0), found), dtype=np.int64, count=len(found))
                ids, n = np.unique(index, return_counts=True)
                parts_ids.append(self._automaton_ids[ids])
                parts_n.append(n.astype(np.int64))
            ids = np.concatenate(parts_ids)
            order = np.argsort(ids, kind="stable")
            return ids[order], np.concatenate(parts_n)[order]
        text = " " + b" ".join(toks).decode("utf-8") + " "
        index = np.fromiter(
            map(operator.itemgetter(1), self._automaton.iter(text)),  # type: ignore[attr-defined]
            dtype=np.int64,
        )
        ids, n = np.unique(index, return_counts=True)
        return ids, n.astype(np.int64)

    def count(self, chunk: bytes) -> np.ndarray:
        """Occurrences of each pattern in ``chunk``: int64 array of length ``n_patterns``."""
        counts = np.zeros(self.n_patterns, dtype=np.int64)
        ids, n = self.sparse_counts(chunk)
        counts[ids] = n
        return counts


# --------------------------------------------------------------------------------------------------
# Parallel counting over a stream of chunks
# --------------------------------------------------------------------------------------------------
_WORKER: TermCounter | None = None


def _init_worker(patterns: Sequence[str], backend: str) -> None:
    global _WORKER
    _WORKER = TermCounter(patterns, backend)


def _sparse_counts(counter: TermCounter, chunk: bytes) -> tuple[np.ndarray, np.ndarray, int]:
    ids, counts = counter.sparse_counts(chunk)
    return ids, counts, len(chunk)


def _count_in_worker(chunk: bytes) -> tuple[np.ndarray, np.ndarray, int]:
    assert _WORKER is not None, "worker not initialised"
    return _sparse_counts(_WORKER, chunk)


def count_occurrences(
    patterns: Sequence[str],
    chunks: Iterable[bytes],
    workers: int = 1,
    backend: str = "auto",
) -> tuple[np.ndarray, dict[str, int]]:
    """Count every pattern over a stream of text chunks.

    Args:
        patterns: distinct normalised terms (see :class:`TermCounter`).
        chunks: UTF-8 byte strings of whole documents joined by :data:`DOCUMENT_SEPARATOR` (as
            :func:`document_chunks` and :func:`text_file_chunks` yield them).
        workers: worker processes (``spawn``ed; each builds its own automaton from ``patterns``). At
            most ``2 * workers`` chunks are in flight, so memory stays bounded on corpora of any
            size. 1, or a corpus of fewer than ``2 * workers`` chunks: count in this process.
        backend: see :class:`TermCounter`.

    Progress (MB of text counted and the rate; the corpus is a stream of unknown size) is logged at
    a bounded rate (:class:`biosem.logs.Progress`).

    Returns:
        (counts, stats): int64 occurrences per pattern (independent of ``workers`` and chunking), and
        ``{"bytes", "chunks", "matches"}``.
    """
    counts = np.zeros(len(patterns), dtype=np.int64)
    stats = {"bytes": 0, "chunks": 0, "matches": 0}
    progress = Progress(log, f"counting {len(patterns):,} terms in the corpus", None, unit="MB", scale=1e6)

    def add(result: tuple[np.ndarray, np.ndarray, int]) -> None:
        ids, n, size = result
        counts[ids] += n
        stats["bytes"] += size
        stats["chunks"] += 1
        stats["matches"] += int(n.sum())
        progress.advance(size)

    # A corpus of at most 2 * workers chunks is counted in this process: starting workers (each
    # importing numpy and building its automaton) would cost more than it saves.
    stream = iter(chunks)
    head = list(itertools.islice(stream, 2 * workers)) if workers > 1 else []
    if workers <= 1 or not patterns or len(head) < 2 * workers:
        counter = TermCounter(patterns, backend)
        for chunk in itertools.chain(head, stream):
            add(_sparse_counts(counter, chunk))
        progress.finish()
        return counts, stats

    context = multiprocessing.get_context("spawn")
    with cf.ProcessPoolExecutor(
        max_workers=workers,
        mp_context=context,
        initializer=_init_worker,
        initargs=(list(patterns), backend),
    ) as pool:
        pending: set[cf.Future[tuple[np.ndarray, np.ndarray, int]]] = set()
        for chunk in itertools.chain(head, stream):
            if len(pending) >= 2 * workers:
                done, pending = cf.wait(pending, return_when=cf.FIRST_COMPLETED)
                for future in done:
                    add(future.result())
            pending.add(pool.submit(_count_in_worker, chunk))
        for future in cf.as_completed(pending):
            add(future.result())
    progress.finish()
    return counts, stats


# --------------------------------------------------------------------------------------------------
# Corpus readers: whole documents in chunks of about ``chunk_bytes``
# --------------------------------------------------------------------------------------------------
def document_chunks(
    paths: Sequence[str | os.PathLike[str]],
    chunk_bytes: int = 4 * 2**20,
    seen: set[str] | None = None,
    stats: Counter[str] | None = None,
    shard: tuple[int, int] = (0, 1),
) -> Iterator[bytes]:
    """Chunks of the ``text`` column of corpus ``documents`` Parquet files, in file and row order.

    A ``document_id`` already seen (in an earlier file or row, tracked in ``seen``) is skipped, so a
    PMID present in two corpora counts once. ``stats`` (if given) receives ``documents`` and
    ``duplicate documents``. ``shard`` ``(k, N)``: only the documents of shard ``k`` (0-based) of
    ``N`` (:func:`biosem.corpora.shards.shard_mask` of the id), which holds every copy of its ids, so
    deduplication stays exact.

    Raises:
        SourceFormatError: a file lacks the ``document_id`` or ``text`` column.
    """
    seen = set() if seen is None else seen
    stats = Counter() if stats is None else stats
    for path in paths:
        parquet = pq.ParquetFile(path)
        missing = {"document_id", "text"} - set(parquet.schema_arrow.names)
        if missing:
            raise SourceFormatError(
                path, None, "a documents table with columns document_id, text", str(sorted(missing))
            )
        buffer: list[bytes] = []
        size = 0
        for batch in parquet.iter_batches(columns=["document_id", "text"], batch_size=4096):
            ids = batch.column("document_id").to_pylist()
            mine = np.flatnonzero(shard_mask(ids, *shard)).tolist()
            keep = [i for i in mine if ids[i] not in seen]
            seen.update(ids[i] for i in keep)
            stats["duplicate documents"] += len(mine) - len(keep)
            stats["documents"] += len(keep)
            text = (
                batch.column("text").take(pa.array(keep, pa.int64())) if len(keep) < len(ids) else batch.column("text")
            )
            for value in pc.fill_null(text, "").cast(pa.binary()).to_pylist():
                buffer.append(value)
                size += len(value) + len(DOCUMENT_SEPARATOR)
                if size >= chunk_bytes:
                    yield DOCUMENT_SEPARATOR.join(buffer)
                    buffer, size = [], 0
        if buffer:
            yield DOCUMENT_SEPARATOR.join(buffer)


def text_file_chunks(
    path: str | os.PathLike[str], chunk_bytes: int = 4 * 2**20, stats: Counter[str] | None = None
) -> Iterator[bytes]:
    """Chunks of a plain or gzipped UTF-8 text file holding one document (abstract) per line.

    Empty lines are skipped. ``stats`` (if given) receives ``documents``.

    Raises:
        SourceFormatError: the file is not valid UTF-8 (names the line).
    """
    path = Path(path)
    stats = Counter() if stats is None else stats
    line_no = 0
    with open_binary(path) as handle:
        while True:
            lines = handle.readlines(chunk_bytes)
            if not lines:
                return
            kept = [line for line in lines if line.strip()]
            chunk = DOCUMENT_SEPARATOR.join(kept)
            try:
                chunk.decode("utf-8")
            except UnicodeDecodeError:
                for offset, line in enumerate(lines, start=line_no + 1):
                    try:
                        line.decode("utf-8")
                    except UnicodeDecodeError as err:
                        raise SourceFormatError(
                            path,
                            offset,
                            "UTF-8 text, one document per line",
                            repr(line[max(0, err.start - 20) : err.end + 20]),
                        ) from None
            line_no += len(lines)
            stats["documents"] += len(kept)
            if kept:
                yield chunk


def part_chunks(part: FilePart, chunk_bytes: int = 4 * 2**20, stats: Counter[str] | None = None) -> Iterator[bytes]:
    """Chunks of one shard's part of a corpus file (:func:`biosem.corpora.shards.file_parts`).

    A whole text file: :func:`text_file_chunks`. A byte range of a plain text file: its lines
    (:func:`biosem.corpora.shards.read_lines`), one document per non-empty line. PubMed XML: one
    document per article, title and abstract joined by a space (:mod:`biosem.corpora.pubmed_xml`);
    articles with neither are skipped. ``stats`` (if given) receives ``documents``.

    Raises:
        SourceFormatError: a line is not UTF-8 (names its line, or its byte offset in a range), or bad
            PubMed XML.
    """
    stats = Counter() if stats is None else stats
    if part.pubmed:
        texts = (a.text.encode("utf-8") for a in read_pubmed_xml(part.path))
        yield from _join_documents((t for t in texts if t), chunk_bytes, stats)
        return
    if part.whole:
        yield from text_file_chunks(part.path, chunk_bytes, stats)
        return

    def lines() -> Iterator[bytes]:
        for offset, line in read_lines(part):
            try:
                line.decode("utf-8")
            except UnicodeDecodeError as err:
                found = f"byte offset {offset + err.start}: {line[:60]!r}"
                raise SourceFormatError(part.path, None, "UTF-8 text, one document per line", found) from None
            if line.strip():
                yield line

    yield from _join_documents(lines(), chunk_bytes, stats)


def _join_documents(documents: Iterable[bytes], chunk_bytes: int, stats: Counter[str]) -> Iterator[bytes]:
    """Documents joined by :data:`DOCUMENT_SEPARATOR` into chunks of about ``chunk_bytes``."""
    buffer: list[bytes] = []
    size = 0
    for document in documents:
        buffer.append(document)
        stats["documents"] += 1
        size += len(document) + len(DOCUMENT_SEPARATOR)
        if size >= chunk_bytes:
            yield DOCUMENT_SEPARATOR.join(buffer)
            buffer, size = [], 0
    if buffer:
        yield DOCUMENT_SEPARATOR.join(buffer)
