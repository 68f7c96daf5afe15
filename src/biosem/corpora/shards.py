"""Split a corpus into N shards for counting: exact, so merged counts never depend on N.

A count over a corpus is split into N jobs (Snakemake ``scattergather``, item ``"<k>-of-<N>"``,
docs/design.md § Sharded counting). Every document is counted in exactly one shard, and never split:

* **Tables** (``sentences`` or ``documents`` intermediates, deduplicated by ``document_id`` across
  corpora): a document belongs to shard ``hash(document_id) mod N`` (:func:`shard_mask`; pandas'
  SipHash with its fixed key, so the same on every machine and run). All copies of a document id meet
  in one shard, where the first one (in corpus order) is kept, as without sharding.
* **Text files** (:func:`expand_corpus_files`: paths or globs, sorted): the files are laid end to end,
  ``T`` bytes in all, and shard ``k`` (0-based) owns the bytes ``[k T / N, (k + 1) T / N)``
  (:func:`file_parts`). A plain (uncompressed) text file of one document per line is cut inside: a
  line belongs to the shard owning its first byte (:func:`read_lines`). A gzipped file or a PubMed
  XML file cannot be entered in the middle and belongs whole to the shard owning its first byte (a
  PubMed baseline is about 1,200 files of 20–40 MB, so shards stay balanced).
"""

from __future__ import annotations

import glob
import os
import re
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path

import numpy as np
import pandas as pd

from biosem.errors import SourceNotFoundError
from biosem.sources import is_gzip, open_binary

_ITEM = re.compile(r"^(\d+)-of-(\d+)$")
_GLOB_CHARS = re.compile(r"[*?\[]")
PUBMED_XML_SUFFIXES = (".xml", ".xml.gz")
"""File names ending so are read as PubMed XML (:mod:`biosem.corpora.pubmed_xml`), others as text."""


def parse_scatter_item(item: str) -> tuple[int, int]:
    """``"3-of-7"`` (Snakemake's ``{scatteritem}``) -> ``(2, 7)``: the 0-based shard and N.

    Raises:
        ValueError: not ``"<k>-of-<N>"`` with ``1 <= k <= N``.
    """
    match = _ITEM.match(item)
    if not match or not 1 <= int(match.group(1)) <= int(match.group(2)):
        raise ValueError(f"scatter item must be '<k>-of-<N>' with 1 <= k <= N, not {item!r}")
    return int(match.group(1)) - 1, int(match.group(2))


def expand_corpus_files(patterns: Sequence[str]) -> list[str]:
    """Config ``text_files`` entries as files: a path stays, a glob (``pubmed/*.xml.gz``) becomes its
    matches in sorted order. The order of the entries is kept; a file named twice is kept once.

    Raises:
        SourceNotFoundError: a glob matches no file (the message names it).
    """
    out: list[str] = []
    for pattern in patterns:
        pattern = str(pattern)
        if _GLOB_CHARS.search(pattern):
            matches = sorted(p for p in glob.glob(pattern, recursive=True) if os.path.isfile(p))
            if not matches:
                raise SourceNotFoundError(f"corpus text_files pattern {pattern!r} matches no file")
            out += matches
        else:
            out.append(pattern)
    return list(dict.fromkeys(out))


def is_pubmed_xml(path: str | os.PathLike[str]) -> bool:
    """True for a file named ``*.xml`` or ``*.xml.gz`` (read as PubMed XML)."""
    return str(path).lower().endswith(PUBMED_XML_SUFFIXES)


def shard_mask(document_ids: Sequence[str] | pd.Series, index: int, n: int) -> np.ndarray:
    """Boolean mask of the documents of shard ``index`` (0-based) of ``n``: ``hash(id) mod n == index``.

    The hash is :func:`pandas.util.hash_array` (SipHash-2-4 with pandas' fixed key) of the id as a
    string: stable across processes, machines and runs.
    """
    if n == 1:
        return np.ones(len(document_ids), dtype=bool)
    ids = np.asarray(pd.Series(document_ids, dtype=object).astype(str), dtype=object)
    return pd.util.hash_array(ids, categorize=False) % np.uint64(n) == np.uint64(index)


@dataclass(frozen=True)
class FilePart:
    """The part of a corpus file one shard reads.

    ``start``/``end``: the byte range of a plain text file whose lines (by their first byte) the shard
    owns; ``end`` None: to the end of the file. ``pubmed``: the file is PubMed XML (read whole).
    """

    path: str
    start: int = 0
    end: int | None = None
    pubmed: bool = False

    @property
    def whole(self) -> bool:
        return self.start == 0 and self.end is None


def _splittable(path: str) -> bool:
    return not is_pubmed_xml(path) and not is_gzip(path)


def file_parts(paths: Sequence[str], index: int, n: int) -> list[FilePart]:
    """The parts of ``paths`` (in order) that shard ``index`` (0-based) of ``n`` reads.

    Files laid end to end make ``T`` bytes (sizes on disk); the shard owns ``[index T / n,
    (index + 1) T / n)``. A plain text file is cut at those bounds (lines go by their first byte, see
    :func:`read_lines`); a gzipped or XML file goes whole to the shard owning its first byte. Every
    byte, line and file is in exactly one shard's parts.

    Raises:
        FileNotFoundError: a path does not exist.
    """
    sizes = [os.path.getsize(p) for p in paths]
    total = sum(sizes)
    lo, hi = total * index // n, total * (index + 1) // n
    out: list[FilePart] = []
    offset = 0
    for path, size in zip(paths, sizes, strict=True):
        path = str(path)
        if _splittable(path):
            start, end = max(lo, offset) - offset, min(hi, offset + size) - offset
            if start < end:
                out.append(FilePart(path, start, None if end == size else end))
        elif lo <= offset < hi:
            out.append(FilePart(path, pubmed=is_pubmed_xml(path)))
        offset += size
    return out


def read_lines(part: FilePart) -> Iterator[tuple[int, bytes]]:
    """(byte offset, line) of every line (newline included) whose first byte lies in ``part``.

    A whole part may be gzipped (offsets are then in the decompressed text); a byte range is of a
    plain file: reading starts at ``start`` (after the end of a line begun before it) and stops at the
    first line starting at or after ``end``.
    """
    if part.whole:
        with open_binary(part.path) as handle:
            offset = 0
            for line in handle:
                yield offset, line
                offset += len(line)
        return
    with open(part.path, "rb") as handle:
        offset = part.start
        if offset > 0:
            handle.seek(offset - 1)
            if handle.read(1) != b"\n":
                offset += len(handle.readline())  # the line begun before start is another shard's
        while part.end is None or offset < part.end:
            line = handle.readline()
            if not line:
                return
            yield offset, line
            offset += len(line)


def part_label(part: FilePart) -> str:
    """``"<file name>"`` or ``"<file name>[start:end]"`` for logs."""
    name = Path(part.path).name
    return name if part.whole else f"{name}[{part.start}:{'' if part.end is None else part.end}]"
