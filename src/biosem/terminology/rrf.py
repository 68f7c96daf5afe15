"""UMLS Metathesaurus RRF adapter: MRCONSO, MRREL, MRSTY (and MRSAB) -> terminology intermediates.

Format (UMLS Reference Manual, §3.3 "Data Elements" and the file descriptions of MRCONSO, MRREL, MRSTY
and MRSAB): one row per line, fields separated by ``|``, every row terminated by a trailing ``|``, no
header, no quoting (a ``"`` is a literal character), UTF-8. Files are ``<NAME>.RRF`` or ``<NAME>.RRF.gz``.

Every row of a file has the field count of the file's layout: the count MRFILES (or MRCOLS) of the
release gives for it, otherwise that of the file's first row; every line, the last one too, ends with a
newline (a last line without one is a truncated file). So a stray ``|`` inside STR, or a last line cut
inside STR, is an error naming the file and line, never a truncated term. Some redistributed subsets
were exported with SQL*Loader ``trailing nullcols`` and omit the last, empty fields of most rows (and
then the trailing ``|``); only with ``trailing_nullcols=True`` are such short rows accepted, as long
as they hold every field this adapter needs (the missing fields are read as empty strings).

Full releases are large (MRCONSO ~16 M rows, MRREL ~60 M rows): files are streamed block by block with
:func:`pyarrow.csv.open_csv` (pyarrow's threads; a serial pass where a short row needs its line number),
every block is filtered (LAT, SAB) before it is kept, and only the columns needed downstream are kept,
as integer codes where they allow it (CUI numbers, SAB/TTY/LAT/REL/RELA dictionaries). :func:`write_rrf`
sorts and deduplicates on those codes and streams the intermediates to Parquet (peak memory of a
full release: ``bench/bench_ingest_umls.py``, docs/benchmarks.md); :func:`read_rrf` returns the same
tables whole.
"""

from __future__ import annotations

import bisect
import contextlib
import ctypes
import ctypes.util
import gzip
import logging
import queue
import re
import threading
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from functools import lru_cache, partial
from pathlib import Path
from typing import TypeVar

import numpy as np
import pyarrow as pa
import pyarrow.compute as pc
import pyarrow.csv as pacsv

from biosem.errors import SourceFormatError, SourceNotFoundError
from biosem.io import ROW_GROUP, TableSpec, atomic_path, write_row_groups
from biosem.logs import Progress
from biosem.terminology import rrf_kernels
from biosem.terminology.schemas import (
    ASSOCIATIONS,
    RELATIONS,
    TERMINOLOGY_TABLES,
)

log = logging.getLogger(__name__)
T = TypeVar("T")
A = TypeVar("A", np.ndarray, pa.Array)

# Column layouts, UMLS Reference Manual §3.3.
MRCONSO_COLUMNS: tuple[str, ...] = (
    "CUI", "LAT", "TS", "LUI", "STT", "SUI", "ISPREF", "AUI", "SAUI", "SCUI", "SDUI", "SAB", "TTY",
    "CODE", "STR", "SRL", "SUPPRESS", "CVF",
)  # fmt: skip
MRREL_COLUMNS: tuple[str, ...] = (
    "CUI1", "AUI1", "STYPE1", "REL", "CUI2", "AUI2", "STYPE2", "RELA", "RUI", "SRUI", "SAB", "SL",
    "RG", "DIR", "SUPPRESS", "CVF",
)  # fmt: skip
MRSTY_COLUMNS: tuple[str, ...] = ("CUI", "TUI", "STN", "STY", "ATUI", "CVF")
MRSAB_COLUMNS: tuple[str, ...] = (
    "VCUI", "RCUI", "VSAB", "RSAB", "SON", "SF", "SVER", "VSTART", "VEND", "IMETA", "RMETA", "SLC",
    "SCC", "SRL", "TFR", "CFR", "CXTY", "TTYL", "ATNL", "LAT", "CENC", "CURVER", "SABIN", "SSN", "SCIT",
)  # fmt: skip

CUI_PATTERN = r"C[0-9]{7}"
AUI_PATTERN = r"A[0-9]+"
TUI_PATTERN = r"T[0-9]{3}"

LAT_TO_ISO639_1: Mapping[str, str] = {
    "ENG": "en", "FRE": "fr", "SPA": "es", "GER": "de", "DUT": "nl", "ITA": "it", "POR": "pt",
    "JPN": "ja", "CZE": "cs", "RUS": "ru", "SWE": "sv", "KOR": "ko", "CHI": "zh",
}  # fmt: skip
"""UMLS LAT (ISO 639-2/B, upper case) -> ISO 639-1; any other LAT is lower-cased."""

ABBREVIATION_TTYS: frozenset[str] = frozenset({"AB", "ACR", "AA", "AM"})
"""UMLS term types read as abbreviations (abbreviation, acronym, attribute abbreviation, ...)."""

_NOCODE = "NOCODE"
_TRAILING = "__rrf_trailing__"  # the empty field after the row-terminating "|"

# The columns each file contributes, and how many leading fields a row must have (the last needed
# column that has no default). Fields after the minimum may be missing and are read as "".
_MRCONSO_READ = (
    "CUI",
    "LAT",
    "TS",
    "STT",
    "ISPREF",
    "AUI",
    "SAB",
    "TTY",
    "CODE",
    "STR",
    "SRL",
    "SUPPRESS",
)
_MRCONSO_REQUIRED = MRCONSO_COLUMNS.index("STR") + 1  # SUPPRESS may be missing -> "" (active)
_MRREL_READ = ("CUI1", "REL", "CUI2", "RELA", "SAB")
_MRREL_REQUIRED = MRREL_COLUMNS.index("SAB") + 1
_MRSTY_READ = ("CUI", "TUI")
_MRSTY_REQUIRED = MRSTY_COLUMNS.index("TUI") + 1
_MRSAB_READ = ("VSAB", "RSAB", "SVER", "SRL", "CURVER")

SRL_PATTERN = "[0-49]"
"""Source restriction level: 0-4 (License Agreement Appendix categories), or 9 (SNOMED CT, under the
SNOMED CT Affiliate License: SNOMEDCT_US has SRL 9 in current releases). UMLS Reference Manual,
MRSAB and MRCONSO SRL."""
SUPPRESS_PATTERN = "[NOEY]"
"""SUPPRESS: N (not suppressible), O (obsolete), E (suppressed by an editor), Y (by the source's TTY)."""
_MRSAB_REQUIRED = MRSAB_COLUMNS.index("CURVER") + 1


# --------------------------------------------------------------------------------------------------
# Streaming reader


class _SerialPassNeeded(Exception):
    """A threaded pass met a row it had to skip, whose line number only a serial pass knows."""


@dataclass
class _Problem:
    line: int
    expected: str
    found: str


def iter_rrf(
    path: str | Path,
    columns: Sequence[str],
    *,
    include: Sequence[str] | None = None,
    required: int | None = None,
    patterns: Mapping[str, str] | None = None,
    block_size: int = 8 << 20,
    fields: int | None = None,
    layout_source: str | None = None,
    trailing_nullcols: bool = False,
) -> Iterator[pa.RecordBatch]:
    """Stream a pipe-delimited RRF file (plain or ``.gz``) as record batches of string columns.

    Args:
        path: the ``.RRF`` or ``.RRF.gz`` file (gzip is detected from the ``.gz`` suffix).
        columns: the file's full column layout in order (e.g. :data:`MRCONSO_COLUMNS`), without the
            empty field after the trailing ``|``.
        include: the columns to return (default: all), in this order.
        required: how many leading fields the file's layout must have (default: all of ``columns``);
            the ``include`` columns after them may be absent from the layout and are read as "".
        patterns: column -> RE2 regular expression every value must match in full (e.g.
            ``{"CUI": CUI_PATTERN}``); the columns must be in ``include``. Columns the layout does
            not have (all "") and, with ``trailing_nullcols``, the padded fields of short rows are
            not checked.
        block_size: bytes parsed per block; memory use is a small multiple of it.
        fields: the field count of every row (the release's MRFILES or MRCOLS); default: the first
            row's (with ``trailing_nullcols``: ``len(columns)``). Must be in ``required``..``len(columns)``.
        layout_source: where ``fields`` comes from, for messages (e.g. ``"MRFILES.RRF line 10"``).
        trailing_nullcols: also accept rows with fewer fields than the layout but at least
            ``required`` (SQL*Loader "trailing nullcols" exports), padded with "".

    Yields:
        Record batches with exactly the ``include`` columns, all ``pa.string()``, never null. Rows of
        well-formed lines come in file order; padded short rows come in batches of their own (so the
        overall row order is not the file order).

    Raises:
        SourceFormatError: with the 1-based physical line number: a row with another field count
            than the layout's (fewer, but at least ``required``, allowed with ``trailing_nullcols``),
            a first row with more fields than ``columns`` or fewer than ``required``, an empty line,
            a value not matching its pattern, invalid UTF-8 (in an ``include`` column, or anywhere
            in a short row), a last line without a final newline ("truncated file"); with
            ``line=None``: an empty file. The first problem in file order is reported.
        ValueError: inconsistent arguments.

    Source: UMLS Reference Manual §3.3 (``|``-delimited, trailing ``|``, no quoting).
    """
    path = Path(path)
    columns = tuple(columns)
    include = columns if include is None else tuple(include)
    required = len(columns) if required is None else required
    patterns = dict(patterns or {})
    unknown = sorted(set(include) - set(columns))
    if unknown or len(set(columns)) != len(columns) or _TRAILING in columns:
        raise ValueError(f"include {unknown} not in the column layout {columns}, or bad layout")
    if not 1 <= required <= len(columns):
        raise ValueError(f"required must be in 1..{len(columns)}, got {required}")
    if set(patterns) - set(include):
        raise ValueError(f"patterns on columns not read: {sorted(set(patterns) - set(include))}")
    if block_size <= 0:
        raise ValueError(f"block_size must be positive, got {block_size}")
    if fields is not None and not required <= fields <= len(columns):
        raise SourceFormatError(
            path,
            None,
            f"a layout of {required} to {len(columns)} fields ({', '.join(columns)})",
            f"{fields} fields ({layout_source or 'the given layout'})",
        )
    try:
        if fields is None:
            first = _first_row_fields(path, columns, required)
            if trailing_nullcols:  # the first row may be short too: rows have up to the whole layout
                fields, layout_source = len(columns), f"the {path.name.split('.')[0]} layout"
            else:
                fields, layout_source = first, "as on line 1"
        stream = _RrfStream(path, columns, include, required, patterns, block_size)
        stream.set_layout(fields, layout_source or f"the layout of {path.name}", trailing_nullcols)
        yield from stream.batches()
    except pa.ArrowInvalid as exc:
        raise _diagnose(path, exc) from exc


def _first_row_fields(path: Path, columns: tuple[str, ...], required: int) -> int:
    """The field count of the first row (its trailing ``|`` not counted); checked against the layout."""
    head = b""
    with pa.input_stream(str(path), compression="detect") as stream:
        while b"\n" not in head:
            block = stream.read(1 << 16)
            if not block:
                break
            head += block
    if not head:
        raise SourceFormatError(path, None, "at least one RRF row", "an empty file")
    text = head.split(b"\n", 1)[0].rstrip(b"\r").decode("utf-8", "backslashreplace")
    pieces = text.split("|")
    n = len(pieces) - 1 if pieces[-1] == "" else len(pieces)
    if not required <= n <= len(columns):
        raise SourceFormatError(
            path,
            1,
            f"{required} to {len(columns)} '|'-terminated fields ({', '.join(columns)})",
            f"{n} fields: {text}",
        )
    return n


class _TailReader:
    """A file-like reader over a (decompressed) pyarrow stream that keeps the last bytes read, so the
    end of a ``.gz`` file is known without decompressing it twice."""

    def __init__(self, stream: pa.NativeFile, keep: int = 1 << 16) -> None:
        self.stream = stream
        self.keep = keep
        self.tail = b""

    def read(self, n: int = -1) -> bytes:
        data = self.stream.read(n)
        if data:
            self.tail = bytes(data[-self.keep :]) if len(data) >= self.keep else (self.tail + data)[-self.keep :]
        return data

    @property
    def closed(self) -> bool:
        return self.stream.closed

    def readable(self) -> bool:
        return True

    def close(self) -> None:
        """The stream is closed by its owner."""


_PIECE_BLOCKS = 8
"""A threaded pass over an uncompressed file parses it in pieces of this many blocks."""


def _piece_tables(path: Path, size: int, parse: Callable[[pa.BufferReader], pa.Table]) -> Iterator[pa.Table]:
    """``parse`` of each piece of whole lines of the uncompressed file ``path``, in file order.

    A piece is about ``size`` bytes, ending after a newline (the last piece: at the end of the file,
    a last line without newline included). It is memory-mapped, not copied, and only while it is
    parsed, so the mapped file adds at most a piece to the resident memory.
    """
    total = path.stat().st_size
    start = 0
    while start < total:
        with pa.memory_map(str(path)) as mapped:
            end = _line_end(mapped, min(start + size, total) - 1, total)
            mapped.seek(start)
            table = parse(pa.BufferReader(mapped.read_buffer(end - start)))
        yield table
        start = end


def _line_end(mapped: pa.MemoryMappedFile, at: int, total: int) -> int:
    """The offset after the first newline at or after offset ``at``; ``total`` if there is none."""
    while at < total:
        window = mapped.read_at(min(1 << 16, total - at), at)
        newline = window.find(b"\n")
        if newline >= 0:
            return at + newline + 1
        at += len(window)
    return total


def _file_tail(path: Path, n: int) -> bytes:
    """The last ``n`` bytes of an uncompressed file (all of it if shorter)."""
    with path.open("rb") as handle:
        handle.seek(max(path.stat().st_size - n, 0))
        return handle.read()


_PARSE_POOL = pa.system_memory_pool()
"""The allocator of the parsed blocks. Most of a block is freed once its batch is coded; the system
allocator gives such memory back at once, where Arrow's default (mimalloc) holds it for a while
across its parsing threads (a full MRCONSO: a peak of 3.4 GB instead of 2.5 GB)."""


class _RrfStream:
    """State of one pass over an RRF file: rows skipped by the fast path, counters, first problem."""

    def __init__(
        self,
        path: Path,
        columns: tuple[str, ...],
        include: tuple[str, ...],
        required: int,
        patterns: dict[str, str],
        block_size: int,
    ) -> None:
        self.path = path
        self.columns = columns
        self.include = include
        self.required = required
        self.patterns = patterns
        self.block_size = block_size
        self.names = [*columns, _TRAILING]
        self.read = [*include, _TRAILING]
        # Rows the fast path skipped (wrong field count), as (line, text); handled in Python.
        self.pending: list[tuple[int, str]] = []
        # For the j-th skipped row (0-based) at line s: the number of well-formed rows before it,
        # s - 1 - j. Non-decreasing, so the line of well-formed row k is k + 1 + bisect_right(., k).
        self.valid_before_skipped: list[int] = []
        self.n_valid = 0
        self.n_padded = 0
        self.problem: _Problem | None = None
        self.unnumbered = False
        self.fields = len(columns)
        self.layout_source = ""
        self.trailing_nullcols = False
        self.absent: tuple[str, ...] = ()

    def set_layout(self, fields: int, layout_source: str, trailing_nullcols: bool) -> None:
        """Rows have ``fields`` fields (then the trailing ``|``); the ``include`` columns after them
        are absent from the file, read as "" and not checked."""
        self.fields = fields
        self.layout_source = layout_source
        self.trailing_nullcols = trailing_nullcols
        present = self.columns[:fields]
        self.names = [*present, _TRAILING]
        self.read = [c for c in self.include if c in present] + [_TRAILING]
        self.absent = tuple(c for c in self.include if c not in present)
        self.patterns = {c: p for c, p in self.patterns.items() if c in present}

    def _complete(self, batch: pa.RecordBatch) -> pa.RecordBatch:
        """The ``include`` columns in order, those absent from the layout as ""."""
        if not self.absent:
            return batch
        empty = pa.array([""] * batch.num_rows, pa.string())
        arrays = [empty if c in self.absent else batch.column(c) for c in self.include]
        return pa.RecordBatch.from_arrays(arrays, names=list(self.include))

    def _on_invalid_row(self, row: pacsv.InvalidRow) -> str:
        # pyarrow knows row numbers only when parsing serially (use_threads=False). An exception
        # raised here would be swallowed by pyarrow, so a missing number is noted.
        if row.number is None:
            self.unnumbered = True
            return "skip"
        self.valid_before_skipped.append(row.number - 1 - len(self.valid_before_skipped))
        self.pending.append((row.number, row.text))
        return "skip"

    def _line_of_valid(self, k: int) -> int:
        """The physical line of the k-th (0-based) row the fast path parsed."""
        return k + 1 + bisect.bisect_right(self.valid_before_skipped, k)

    def _note(self, problem: _Problem | None) -> None:
        if problem is not None and (self.problem is None or problem.line < self.problem.line):
            self.problem = problem

    def _error(self) -> SourceFormatError:
        assert self.problem is not None
        p = self.problem
        return SourceFormatError(self.path, p.line, p.expected, p.found)

    def _reset(self) -> None:
        self.pending = []
        self.valid_before_skipped = []
        self.n_valid = 0
        self.n_padded = 0
        self.problem = None
        self.unnumbered = False

    def batches(self) -> Iterator[pa.RecordBatch]:
        """Parse with pyarrow's threads; a skipped row (a short row) has no line number then, so
        the file is parsed again serially, without the rows already given."""
        given: list[int] = [0]
        try:
            yield from self._pass(threads=True, given=given)
        except _SerialPassNeeded:
            self._reset()
            yield from self._pass(threads=False, given=given)

    def _pass(self, *, threads: bool, given: list[int]) -> Iterator[pa.RecordBatch]:
        """One pass over the file; ``given[0]`` counts the well-formed rows yielded, across passes
        (a serial pass after a threaded one skips them)."""
        skip = given[0]
        read_options = pacsv.ReadOptions(column_names=self.names, block_size=self.block_size, use_threads=threads)
        parse_options = pacsv.ParseOptions(
            delimiter="|",
            quote_char=False,
            double_quote=False,
            escape_char=False,
            newlines_in_values=False,
            ignore_empty_lines=False,
            invalid_row_handler=self._on_invalid_row,
        )
        convert_options = pacsv.ConvertOptions(
            column_types={name: pa.string() for name in self.names},
            include_columns=self.read,
            strings_can_be_null=False,
            check_utf8=True,
        )
        checked_through = 0  # every row on lines <= this has been checked
        with pa.input_stream(str(self.path), compression="detect") as stream:
            tail = _TailReader(stream)
            if threads and self.path.suffix != ".gz":
                # Pieces of whole lines, the blocks of each parsed by pyarrow's threads in parallel
                # (its streaming reader parses one block at a time).
                read = partial(
                    pacsv.read_csv,
                    read_options=read_options,
                    parse_options=parse_options,
                    convert_options=convert_options,
                    memory_pool=_PARSE_POOL,
                )
                batches: Iterator[pa.RecordBatch] = (
                    batch
                    for table in _piece_tables(self.path, self.block_size * _PIECE_BLOCKS, read)
                    for batch in table.to_batches()
                )
                tail.tail = _file_tail(self.path, tail.keep)
            else:
                batches = pacsv.open_csv(
                    tail,
                    read_options=read_options,
                    parse_options=parse_options,
                    convert_options=convert_options,
                    memory_pool=_PARSE_POOL,
                )
            # Parsed and checked in a thread while the consumer works on the batches before.
            checked = ((batch, self._find(batch)) for batch in batches)
            with contextlib.closing(_prefetch(checked, depth=_PIECE_BLOCKS)) as parsed:
                for batch, found in parsed:
                    if self.unnumbered:
                        if threads:
                            raise _SerialPassNeeded
                        raise RuntimeError("pyarrow did not report the line number of a skipped row")
                    padded = self._take_pending()
                    if batch.num_rows:
                        k0 = self.n_valid
                        self.n_valid += batch.num_rows
                        if found is not None:
                            self._note(_Problem(self._line_of_valid(k0 + found[0]), *found[1:]))
                        checked_through = self._line_of_valid(self.n_valid - 1)
                    if self.problem is not None:
                        if self.problem.line <= checked_through:
                            raise self._error()
                        continue  # a row before the problem may still be malformed: keep checking
                    if padded is not None and padded.num_rows:
                        yield padded
                    new = batch.slice(max(0, skip - (self.n_valid - batch.num_rows)))
                    if new.num_rows:
                        given[0] += new.num_rows
                        yield self._complete(new.drop_columns([_TRAILING]))
        if self.unnumbered:
            if threads:
                raise _SerialPassNeeded
            raise RuntimeError("pyarrow did not report the line number of a skipped row")
        padded = self._take_pending()
        if tail.tail and not tail.tail.endswith(b"\n"):
            # Every line is a row (empty lines included): the last line's number is the row count.
            last = self.n_valid + len(self.valid_before_skipped)
            if self.problem is None or self.problem.line >= last:
                text = tail.tail.rsplit(b"\n", 1)[-1].rstrip(b"\r").decode("utf-8", "backslashreplace")
                self.problem = _Problem(last, "every line ended by a newline (no final newline: truncated file)", text)
        if self.problem is not None:
            raise self._error()
        if self.n_valid + self.n_padded == 0:
            raise SourceFormatError(self.path, None, "at least one RRF row", "an empty file")
        if padded is not None and padded.num_rows:
            yield padded
        log.info(
            "%s: %d rows read (%d short rows padded)",
            self.path.name,
            self.n_valid + self.n_padded,
            self.n_padded,
        )

    def _take_pending(self) -> pa.RecordBatch | None:
        """Parse the rows the fast path skipped: pad short rows, note malformed ones."""
        if not self.pending:
            return None
        rows = list(self.pending)
        del self.pending[: len(rows)]
        n_fields = self.fields
        positions = [self.columns.index(c) for c in self.include]
        values: list[list[str]] = [[] for _ in self.include]
        lines: list[int] = []
        counts: list[int] = []
        for line, text in rows:
            fields = text.split("|")
            if fields and fields[-1] == "":
                fields.pop()  # the row-terminating "|"
            n = len(fields)
            if n != n_fields and not (self.trailing_nullcols and self.required <= n < n_fields):
                if self.trailing_nullcols:
                    expected = f"{self.required} to {n_fields} '|'-separated fields ({self.layout_source})"
                else:
                    expected = f"{n_fields} '|'-terminated fields ({self.layout_source})"
                found = "an empty line" if not text.strip() else f"{n} fields: {text}"
                self._note(_Problem(line, expected, found))
                continue
            fields.extend([""] * (len(self.columns) - n))
            for out, pos in zip(values, positions, strict=True):
                out.append(fields[pos])
            lines.append(line)
            counts.append(n)
        batch = pa.RecordBatch.from_arrays([pa.array(v, type=pa.string()) for v in values], names=list(self.include))
        self.n_padded += batch.num_rows
        found = self._find(batch, trailing=False, present=np.array(counts, dtype=np.int64))
        if found is not None:
            self._note(_Problem(lines[found[0]], *found[1:]))
        return batch

    def _find(
        self,
        batch: pa.RecordBatch,
        *,
        trailing: bool = True,
        present: np.ndarray | None = None,
    ) -> tuple[int, str, str] | None:
        """First problem (in row order) of a parsed batch, as (row index, expected, found): extra
        field, empty line, bad value. Reads only the layout, so it may run in another thread.

        ``present``: per row, how many fields the line had (short rows); later fields are padding
        and are not checked against their patterns."""
        if not batch.num_rows:
            return None
        found: list[tuple[int, str, str]] = []  # (row index, expected, found)
        if trailing:
            extra = np.diff(_string_buffers(batch.column(_TRAILING))[0])
            if extra.any():
                i = int(np.argmax(extra > 0))
                value = batch.column(_TRAILING)[i].as_py()
                found.append(
                    (i, f"{self.fields} '|'-terminated fields ({self.layout_source})", f"an extra field {value!r}")
                )
            # An empty line parses as one row of empty fields.
            read = [c for c in self.read if c != _TRAILING]
            width = np.diff(_string_buffers(batch.column(read[0]))[0])
            if not width.all():  # some first field is empty: sum all the fields' widths
                for name in read[1:]:
                    width = width + np.diff(_string_buffers(batch.column(name))[0])
                if not width.all():
                    i = int(np.argmin(width))
                    found.append((i, f"{self.fields} '|'-terminated fields ({self.layout_source})", "an empty line"))
        for col, regex in self.patterns.items():
            ok = _full_match(batch.column(col), regex)
            if present is not None:
                ok |= present <= self.columns.index(col)
            if not ok.all():
                i = int(np.argmin(ok))
                value = batch.column(col)[i].as_py()
                found.append((i, f"{col} matching {regex}", repr(value)))
        if not found:
            return None
        return min(found, key=lambda f: f[0])


def _equals(values: pa.Array, text: bytes) -> np.ndarray:
    """Per value of a non-null string array: is it ``text``? bool array, from the buffers."""
    return rrf_kernels.equals(*_string_buffers(values), text)


def _string_buffers(values: pa.Array) -> tuple[np.ndarray, np.ndarray]:
    """(offsets rebased to 0, data bytes) of a non-null string array."""
    n = len(values)
    offsets = np.frombuffer(values.buffers()[1], dtype=np.int32)[values.offset : values.offset + n + 1]
    data_buffer = values.buffers()[2]
    data = np.frombuffer(data_buffer, dtype=np.uint8) if data_buffer is not None else np.zeros(0, np.uint8)
    return offsets - offsets[0], data[offsets[0] : offsets[-1]]


# A pattern of the form PREFIX[CLASS]{n} (or + or nothing), possibly wrapped in (?:...)? : what
# every pattern of the RRF reader is. Such a pattern is checked on the UTF-8 bytes with numpy; any
# other pattern falls back to RE2. The class holds ASCII characters only, so a byte test is exact.
_BYTE_PATTERN = re.compile(
    r"(?P<optional>\(\?:)?(?P<prefix>[A-Za-z0-9:_ -]*)\[(?P<cls>(?:[A-Za-z0-9](?:-[A-Za-z0-9])?)+)\]"
    r"(?:\{(?P<count>[0-9]+)\}|(?P<plus>\+))?(?(optional)\)\?)"
)


@dataclass(frozen=True)
class _BytePattern:
    """A compiled :data:`_BYTE_PATTERN`: ``prefix``, then ``min_count``..``max_count`` (None: any
    number) bytes in the class ``ranges`` (inclusive byte ranges)."""

    prefix: bytes
    ranges: tuple[tuple[int, int], ...]
    min_count: int
    max_count: int | None
    optional: bool  # "" matches too

    def in_class(self, data: np.ndarray) -> np.ndarray:
        """Per byte (uint8 array of any shape): is it in the class? (uint8 arithmetic, no lookup.)"""
        ok = np.zeros(data.shape, dtype=bool)
        for lo, hi in self.ranges:
            ok |= (data - np.uint8(lo)) <= np.uint8(hi - lo)
        return ok

    def full_match(self, values: pa.Array) -> np.ndarray:
        """Per value of a non-null string array: does it match in full? bool array."""
        offsets, data = _string_buffers(values)
        width = len(self.prefix) + self.min_count
        if self.min_count == self.max_count and data.size == width * len(values) and (np.diff(offsets) == width).all():
            if self.ranges == _DIGITS and width in (4, 8):  # e.g. CUIs, TUIs: one word per value
                return _prefixed_digits(data.view(f">u{width}").astype(np.uint64), self.prefix, width)
            # Every value has the one length: a (values x width) matrix of bytes.
            matrix = data.reshape(len(values), width)
            ok = self.in_class(matrix[:, len(self.prefix) :]).all(axis=1)
            for k, byte in enumerate(self.prefix):
                ok &= matrix[:, k] == byte
            return ok
        in_class = self.in_class(np.arange(256, dtype=np.uint8))
        return rrf_kernels.match_prefixed_class(
            offsets, data, self.prefix, in_class, self.min_count, self.max_count, self.optional
        )


_DIGITS = ((ord("0"), ord("9")),)
_ONES = 0x0101010101010101
_WORD_MASKS = np.array([0] + [(1 << 64) - (1 << (64 - 8 * k)) for k in range(1, 9)], dtype=np.uint64)
"""The high ``k`` bytes of a uint64 set, for ``k`` = 0 .. 8."""


def _prefixed_digits(words: np.ndarray, prefix: bytes, width: int) -> np.ndarray:
    """Per value of ``width`` bytes, read as a big-endian word: ``prefix``, then ASCII digits only?

    A byte is a digit when its high nibble is 3 and stays 3 when 6 is added; on all digit bytes of a
    word at once (a carry out of a byte only comes from a byte that is not a digit anyway).
    """
    digit_bits = 8 * (width - len(prefix))
    low = (1 << digit_bits) - 1
    ones = np.uint64(_ONES & low)
    nibbles, threes = np.uint64(0xF0) * ones, np.uint64(0x30) * ones
    digits = words & np.uint64(low)
    ok = (digits & nibbles) == threes
    ok &= ((digits + np.uint64(0x06) * ones) & nibbles) == threes
    if prefix:
        ok &= (words >> np.uint64(digit_bits)) == np.uint64(int.from_bytes(prefix, "big"))
    return ok


@lru_cache(maxsize=64)
def _compile_pattern(regex: str) -> _BytePattern | None:
    m = _BYTE_PATTERN.fullmatch(regex)
    if m is None:
        return None
    ranges = tuple((ord(lo), ord(hi or lo)) for lo, hi in re.findall(r"([A-Za-z0-9])(?:-([A-Za-z0-9]))?", m["cls"]))
    count = int(m["count"]) if m["count"] is not None else None
    return _BytePattern(
        prefix=m["prefix"].encode("ascii"),
        ranges=ranges,
        min_count=count if count is not None else 1,
        max_count=count if count is not None else (None if m["plus"] else 1),
        optional=m["optional"] is not None,
    )


def _full_match(values: pa.Array, regex: str) -> np.ndarray:
    """Per value of a non-null string array: does ``regex`` (RE2 syntax) match it in full?"""
    compiled = _compile_pattern(regex)
    if compiled is not None:
        return compiled.full_match(values)
    return pc.match_substring_regex(values, f"^(?:{regex})$").to_numpy(zero_copy_only=False)


_DONE = object()


def _prefetch(items: Iterable[T], depth: int = 2) -> Iterator[T]:
    """Iterate ``items`` in a background thread, up to ``depth`` items ahead.

    Parsing the next block of a file (pyarrow releases the GIL) then overlaps the checks and
    conversions of the current one. Exceptions of the iteration are re-raised in the consumer;
    closing the generator stops the thread.
    """
    buffer: queue.Queue[tuple[object, BaseException | None]] = queue.Queue(maxsize=depth)
    stop = threading.Event()

    def put(entry: tuple[object, BaseException | None]) -> bool:
        while not stop.is_set():
            try:
                buffer.put(entry, timeout=0.05)
                return True
            except queue.Full:
                continue
        return False

    def run() -> None:
        try:
            for item in items:
                if not put((item, None)):
                    return
            put((_DONE, None))
        except BaseException as exc:  # noqa: BLE001 - re-raised in the consumer
            put((_DONE, exc))

    thread = threading.Thread(target=run, name="rrf-prefetch", daemon=True)
    thread.start()
    try:
        while True:
            item, exc = buffer.get()
            if item is _DONE:
                if exc is not None:
                    raise exc
                return
            yield item  # type: ignore[misc]
    finally:
        stop.set()
        thread.join()


def _diagnose(path: Path, exc: pa.ArrowInvalid) -> SourceFormatError:
    """Turn a pyarrow parse failure into a located SourceFormatError."""
    with pa.input_stream(str(path), compression="detect") as stream:
        if not stream.read(1):
            return SourceFormatError(path, None, "at least one RRF row", "an empty file")
    opener = gzip.open if path.suffix == ".gz" else open
    with opener(path, "rb") as handle:
        for line, raw in enumerate(handle, start=1):
            try:
                raw.decode("utf-8")
            except UnicodeDecodeError as err:
                return SourceFormatError(path, line, "UTF-8 text", f"{raw[max(err.start - 20, 0) : err.end + 20]!r}")
    return SourceFormatError(path, None, "a pipe-delimited RRF file", str(exc))


# --------------------------------------------------------------------------------------------------
# The Metathesaurus

_ROW_GROUP = ROW_GROUP
"""Rows per written chunk: the row group of :func:`biosem.io.write_table`, so the files
:func:`write_rrf` streams are byte-identical to ``write_table`` of the whole table (a test makes both
smaller)."""


def read_rrf(
    meta_dir: str | Path,
    source: str,
    *,
    languages: Sequence[str] | None = ("ENG",),
    sabs: Sequence[str] | None = None,
    block_size: int = 8 << 20,
    trailing_nullcols: bool = False,
) -> dict[str, pa.Table]:
    """Read a UMLS ``META`` directory into the five terminology tables.

    Reads ``MRCONSO`` (required), ``MRREL``, ``MRSTY`` and ``MRSAB`` (optional), each as ``.RRF`` or
    ``.RRF.gz``. ``languages`` (UMLS LAT codes; ``None`` = all) and ``sabs`` (source abbreviations;
    ``None`` = all) filter MRCONSO rows; ``sabs`` also filters MRREL rows. Every row of a file has
    the field count MRFILES.RRF (else MRCOLS.RRF) of the release gives the file, or without either
    that of its first row; ``trailing_nullcols=True`` also accepts shorter rows holding at least the
    fields read (SQL*Loader "trailing nullcols" subsets, see :func:`iter_rrf`). SRL (MRCONSO, MRSAB)
    must be 0-4 or 9 (SNOMED CT) and SUPPRESS (MRCONSO) one of N, O, E, Y where the row has them.

    Returns:
        ``{"concepts", "terms", "relations", "associations", "mappings"}`` -> Arrow tables cast and
        sorted by :func:`biosem.io.to_arrow` with the ``biosem.terminology.schemas`` specs; ``source`` fills the
        ``source`` column of each.

        * concepts: one row per CUI with a kept MRCONSO row; ``active`` True; ``module`` = the
          smallest TUI of the CUI in MRSTY, null without MRSTY.
        * terms: one row per kept MRCONSO row (AUI): ``term_id`` = AUI, ``term`` = STR, ``language`` =
          ISO 639-1 of LAT (:data:`LAT_TO_ISO639_1`, else LAT lower-cased), ``active`` = SUPPRESS in
          {"N", ""}, ``sab`` = SAB, ``tty`` = TTY, ``scope``/``acceptability`` null. ``term_type``:
          "preferred" for exactly one term per CUI, the concept's preferred name: the first of its
          rows ordered by TS == "P", then STT == "PF", then ISPREF == "Y" (each true first), then
          AUI (string order). This follows how MRCONSO marks the preferred term (TS), string (STT)
          and atom (ISPREF); it is not the UMLS preferred name, which follows MRRANK's source
          precedence (an optional MRRANK ordering is future work). Else "abbreviation" if TTY in
          :data:`ABBREVIATION_TTYS`, else "synonym".
        * relations: the distinct (CUI2, REL, RELA, CUI1, SAB) of MRREL rows with both CUIs. UMLS
          defines REL as the relationship of the second concept or atom to the first (MRREL rows
          are "read from right to left"), so the triple reads ``subject_id = CUI2, rel = REL,
          object_id = CUI1`` (e.g. CUI2 CHD CUI1: CUI2 is a child of CUI1; CUI2 RELA=isa CUI1);
          ``rela`` = RELA or null; ``sab`` = SAB. AUI-level rows count at their CUIs;
          rows repeated at CUI level are kept once; CUI1 == CUI2 rows are kept. Empty without MRREL.
        * associations: empty: UMLS history (MRCUI: merged, deleted, split CUIs) is out of scope.
        * mappings: the distinct (CUI, SAB, CODE) of kept MRCONSO rows, CODE not "" nor "NOCODE";
          ``code_system`` = SAB.

        A full release gives tables of several GB (relations: tens of millions of rows); to write
        the intermediates of one, use :func:`write_rrf`, which streams them.

    Raises:
        SourceNotFoundError: ``meta_dir`` or its MRCONSO is missing.
        SourceFormatError: a malformed file (see :func:`iter_rrf`: a row with another field count
            than its file's layout, a last line without newline; CUIs must match ``C\\d{7}``, AUIs
            ``A\\d+``, TUIs ``T\\d{3}``, SRL 0-4 or 9, SUPPRESS N/O/E/Y), an AUI on two MRCONSO rows, an
            MRFILES layout that is not the adapter's, or both ``X.RRF`` and ``X.RRF.gz`` present.
        ValueError: empty ``languages`` or ``sabs``.

    Source: UMLS Reference Manual §3.3 (MRCONSO, MRREL, MRSTY, MRSAB).
    """
    tables = {}
    for group in _rrf_tables(meta_dir, source, languages, sabs, block_size, trailing_nullcols):
        for name, chunks in group.items():
            spec = TERMINOLOGY_TABLES[name]
            parts = [chunk.cast(spec.schema) for chunk in chunks]  # dictionary columns as strings
            tables[name] = pa.concat_tables(parts) if parts else spec.schema.empty_table()
    _log_counts(meta_dir, {name: t.num_rows for name, t in tables.items()})
    return {name: tables[name] for name in TERMINOLOGY_TABLES}


def write_rrf(
    meta_dir: str | Path,
    source: str,
    outputs: Mapping[str, str | Path],
    *,
    languages: Sequence[str] | None = ("ENG",),
    sabs: Sequence[str] | None = None,
    block_size: int = 8 << 20,
    trailing_nullcols: bool = False,
) -> dict[str, int]:
    """Read a UMLS ``META`` directory and write the five terminology intermediates, streaming.

    The files (``outputs[table]`` for each table of :data:`biosem.terminology.schemas.TERMINOLOGY_TABLES`)
    are byte-identical to ``biosem.terminology.write.write_terminology(read_rrf(...), outputs, source)``, but
    no table is held whole: MRCONSO and MRREL are kept as integer codes (CUI numbers, dictionary
    codes of SAB, TTY, LAT, REL, RELA) plus the AUI, STR and CODE strings, sorted and deduplicated
    on those, and written in row groups of 2**20 rows (a full release: MRCONSO ~16 M rows, MRREL
    ~60 M rows). Every file is written
    to a temporary name and renamed only when all five are complete.

    Returns:
        Rows written per table.

    Raises:
        As :func:`read_rrf`; KeyError: a table missing from ``outputs``.

    Source: UMLS Reference Manual §3.3; the table contents are documented in :func:`read_rrf`.
    """
    missing = sorted(set(TERMINOLOGY_TABLES) - set(outputs))
    if missing:
        raise KeyError(f"no output path for {missing}")
    counts: dict[str, int] = {}
    with contextlib.ExitStack() as stack:
        for group in _rrf_tables(meta_dir, source, languages, sabs, block_size, trailing_nullcols):
            # The tables of a group are built from the same codes, each in its own thread.
            with ThreadPoolExecutor(len(group), thread_name_prefix="rrf-table") as pool:
                written = {
                    name: pool.submit(
                        _write_chunks,
                        chunks,
                        stack.enter_context(atomic_path(outputs[name])),
                        TERMINOLOGY_TABLES[name],
                    )
                    for name, chunks in group.items()
                }
                for name, future in written.items():
                    counts[name] = future.result()
                    log.info("%s: %s %d rows", source, name, counts[name])
            del group, written
    _log_counts(meta_dir, counts)
    return {name: counts[name] for name in TERMINOLOGY_TABLES}


def _write_chunks(chunks: Iterable[pa.Table], path: Path, spec: TableSpec) -> int:
    """Write the sorted chunks of a table as :func:`biosem.io.write_table` writes the whole table
    (:func:`biosem.io.write_row_groups`), logging progress; return the row count."""
    with Progress(log, f"RRF table {spec.name}", None, unit="rows") as progress:

        def counted() -> Iterator[pa.Table]:
            for chunk in chunks:
                yield chunk
                progress.advance(chunk.num_rows)

        return write_row_groups(counted(), path, spec)


def _log_counts(meta_dir: str | Path, counts: Mapping[str, int]) -> None:
    log.info(
        "%s: %s",
        meta_dir,
        ", ".join(f"{counts[n]} {n}" for n in ("concepts", "terms", "relations", "mappings")),
    )


def _rrf_tables(
    meta_dir: str | Path,
    source: str,
    languages: Sequence[str] | None,
    sabs: Sequence[str] | None,
    block_size: int,
    trailing_nullcols: bool = False,
) -> Iterator[dict[str, Iterator[pa.Table]]]:
    """The five tables in two groups, as table name -> its chunks.

    Each table is an iterator of chunks of at most :data:`_ROW_GROUP` rows in its final sort order,
    with the columns of its schema (the dictionary columns as built by :func:`_lookup`). The tables
    of a group may be consumed concurrently; a group must be consumed before the next is asked for,
    which is when the codes it needed are released: first what MRCONSO (and MRSTY) give, then what
    MRREL gives.
    """
    meta = Path(meta_dir)
    if not meta.is_dir():
        raise SourceNotFoundError(f"UMLS META directory not found: {meta}")
    if languages is not None and not languages:
        raise ValueError("languages must be None (all) or a non-empty sequence of LAT codes")
    if sabs is not None and not sabs:
        raise ValueError("sabs must be None (all) or a non-empty sequence of SABs")
    mrconso = _find(meta, "MRCONSO")
    if mrconso is None:
        raise SourceNotFoundError(f"no MRCONSO.RRF or MRCONSO.RRF.gz in {meta}")
    reading = _Reading(block_size, _release_layouts(meta, block_size), trailing_nullcols)
    mrsab = _find(meta, "MRSAB")
    if mrsab is not None:
        _log_mrsab(mrsab, sabs, reading)
    mrsty, mrrel = _find(meta, "MRSTY"), _find(meta, "MRREL")

    atoms = _read_mrconso(mrconso, languages, sabs, reading)
    _release_memory()
    yield {
        "concepts": _concept_chunks(_distinct_cuis(atoms.cui), mrsty, reading, source),
        "terms": _term_chunks(atoms, source),
        "mappings": _mapping_chunks(atoms, source),
    }
    del atoms
    _release_memory()
    relations = _read_mrrel(mrrel, sabs, reading) if mrrel is not None else None
    _release_memory()
    yield {
        "relations": _relation_chunks(relations, source),
        "associations": iter([ASSOCIATIONS.schema.empty_table()]),
    }


MRFILES_COLUMNS: tuple[str, ...] = ("FIL", "DES", "FMT", "CLS", "RWS", "BTS")
MRCOLS_COLUMNS: tuple[str, ...] = ("COL", "DES", "REF", "MIN", "AV", "MAX", "FIL", "DTY")


@dataclass(frozen=True)
class _Layout:
    fields: int
    source: str  # for messages: "the layout of MRCONSO.RRF in MRFILES.RRF"


def _release_layouts(meta: Path, block_size: int) -> dict[str, tuple[_Layout, tuple[str, ...] | None]]:
    """File name (``MRCONSO.RRF``) -> its layout (field count, and the column names where known)
    from MRFILES.RRF (FIL|DES|FMT|CLS|...), else the column count per file of MRCOLS.RRF; {} without
    either (UMLS Reference Manual §3.3, "MRFILES", "MRCOLS")."""
    layouts: dict[str, tuple[_Layout, tuple[str, ...] | None]] = {}
    mrfiles = _find(meta, "MRFILES")
    if mrfiles is not None:
        for batch in iter_rrf(
            mrfiles, MRFILES_COLUMNS, include=("FIL", "FMT", "CLS"), patterns={"CLS": "[0-9]+"}, block_size=block_size
        ):
            for fil, fmt, cls in zip(*(batch.column(c).to_pylist() for c in ("FIL", "FMT", "CLS")), strict=True):
                source = f"the layout of {fil} in {mrfiles.name}"
                layouts[fil] = (_Layout(int(cls), source), tuple(fmt.split(",")))
        return layouts
    mrcols = _find(meta, "MRCOLS")
    if mrcols is not None:
        counts: dict[str, int] = {}
        for batch in iter_rrf(mrcols, MRCOLS_COLUMNS, include=("FIL",), block_size=block_size):
            for fil in batch.column("FIL").to_pylist():
                counts[fil] = counts.get(fil, 0) + 1
        layouts = {fil: (_Layout(n, f"the columns of {fil} in {mrcols.name}"), None) for fil, n in counts.items()}
    return layouts


@dataclass(frozen=True)
class _Reading:
    """How every file of one release is read: block size, the release's layouts, short rows."""

    block_size: int
    layouts: Mapping[str, tuple[_Layout, tuple[str, ...] | None]]
    trailing_nullcols: bool

    def options(self, path: Path, columns: tuple[str, ...]) -> dict[str, object]:
        """The :func:`iter_rrf` keyword arguments of ``path``; checks the release's column names."""
        name = path.name.removesuffix(".gz")
        options: dict[str, object] = {"block_size": self.block_size, "trailing_nullcols": self.trailing_nullcols}
        if name in self.layouts:
            layout, names = self.layouts[name]
            if names is not None and names != columns[: len(names)]:
                raise SourceFormatError(
                    path.parent / "MRFILES.RRF",
                    None,
                    f"{name} with the columns {','.join(columns)} (or a prefix of them)",
                    ",".join(names),
                )
            options.update(fields=layout.fields, layout_source=layout.source)
        return options


def _release_memory() -> None:
    """Give back to the system the memory the allocators keep after the per-block arrays of a
    pass are freed (Arrow's pool; glibc's heap, where blocks of a few MB land), so it does not add
    to the next peak."""
    pa.default_memory_pool().release_unused()
    if _LIBC is not None:
        _LIBC.malloc_trim(0)


def _load_libc() -> ctypes.CDLL | None:
    try:
        libc = ctypes.CDLL(ctypes.util.find_library("c") or "libc.so.6")
        return libc if hasattr(libc, "malloc_trim") else None
    except OSError:  # not glibc
        return None


_LIBC = _load_libc()


def _find(meta: Path, name: str) -> Path | None:
    found = [p for p in (meta / f"{name}.RRF", meta / f"{name}.RRF.gz") if p.is_file()]
    if len(found) > 1:
        raise SourceFormatError(meta, None, f"one of {name}.RRF, {name}.RRF.gz", "both")
    return found[0] if found else None


def _both(a: np.ndarray | None, b: np.ndarray | None) -> np.ndarray | None:
    return b if a is None else a if b is None else a & b


def _kept_rows(keep: np.ndarray | None) -> np.ndarray | None:
    """The ascending indices of the rows where ``keep``; None (every row) for None or all True."""
    return None if keep is None or keep.all() else np.flatnonzero(keep)


def _select(values: A, rows: np.ndarray | None) -> A:
    """``values`` (a numpy or Arrow array) at ``rows`` (:func:`_kept_rows`); all of them for None.
    Gathering by index, unlike a numpy boolean mask, does not branch on each row."""
    if rows is None:
        return values
    return values.take(pa.array(rows)) if isinstance(values, pa.Array) else values.take(rows)


# --------------------------------------------------------------------------------------------------
# Compact columns: CUI numbers and dictionary codes


_MAX_CODES = int(np.iinfo(np.uint16).max)  # distinct values of a code column (SAB, TTY, LAT, REL, RELA)


class _Codes:
    """A growing dictionary of strings: ``encode`` maps a string array to stable uint16 codes, in
    order of first occurrence (:func:`biosem.terminology.rrf_kernels.encode_strings`)."""

    def __init__(self) -> None:
        self._slots = np.full(2 << _MAX_CODES.bit_length(), -1, dtype=np.int32)
        self._store = np.zeros(1 << 12, dtype=np.uint8)  # the distinct values' bytes
        self._bounds = np.zeros(_MAX_CODES + 2, dtype=np.int64)
        self._n = 0
        self._values: list[str] | None = []

    def __len__(self) -> int:
        return self._n

    def encode(self, values: pa.Array) -> np.ndarray:
        """uint16 codes of a non-null string array; ValueError past :data:`_MAX_CODES` distinct values."""
        offsets, data = _string_buffers(values)
        used = int(self._bounds[self._n])
        if used + data.size > self._store.size:  # room for every value to be new
            store = np.zeros(max(used + data.size, 2 * self._store.size), dtype=np.uint8)
            store[:used] = self._store[:used]
            self._store = store
        codes, n = rrf_kernels.encode_strings(
            offsets, data, self._slots, self._store, self._bounds, self._n, _MAX_CODES
        )
        if n > _MAX_CODES:
            raise ValueError(f"more than {_MAX_CODES} distinct values in a code column")
        if n != self._n:
            self._n, self._values = n, None
        return codes

    def among(self, codes: np.ndarray, values: Sequence[str] | None) -> np.ndarray | None:
        """Per code of ``codes``: is its string in ``values``? None (no selection) for None."""
        if values is None:
            return None
        wanted = set(values)
        selected = np.array([v in wanted for v in self.values()], dtype=bool)
        return selected[codes]

    def values(self) -> list[str]:
        """The strings in code order."""
        if self._values is None:
            store, bounds = self._store.tobytes(), self._bounds
            self._values = [store[bounds[c] : bounds[c + 1]].decode() for c in range(self._n)]
        return list(self._values)

    def ranks(self, *, empty_last: bool = False) -> np.ndarray:
        """Code -> rank of its string in ascending (byte) order; "" last if ``empty_last``."""
        values = self.values()
        order = sorted(range(len(values)), key=lambda i: (empty_last and values[i] == "", values[i].encode()))
        ranks = np.empty(len(values), dtype=np.int64)
        ranks[order] = np.arange(len(values))
        return ranks


_CUI_WIDTH = 8  # "C" and 7 digits


def _cui_numbers(cui: pa.Array) -> np.ndarray:
    """``C\\d{7}`` strings (validated by :data:`CUI_PATTERN`, none empty) -> int32 numbers.

    Reads the digits straight from the Arrow buffers: every value is 8 bytes.
    """
    n = len(cui)
    if n == 0:
        return np.zeros(0, dtype=np.int32)
    if isinstance(cui, pa.ChunkedArray):
        cui = cui.combine_chunks()
    offsets = np.frombuffer(cui.buffers()[1], dtype=np.int32)[cui.offset : cui.offset + n + 1]
    if cui.null_count or offsets[-1] - offsets[0] != _CUI_WIDTH * n:
        raise ValueError("CUIs must be non-null 'C' + 7 digits")
    data = np.frombuffer(cui.buffers()[2], dtype=np.uint8)[offsets[0] : offsets[-1]]
    # Each value is one big-endian 8-byte word "Cddddddd": its digits' values are the low nibbles of
    # the low 7 bytes, "C" counting as a leading 0.
    words = data.view(">u8").astype(np.uint64) & np.uint64(0x000F0F0F0F0F0F0F)
    return _byte_numeral(words, 10).astype(np.int32)


_LANES = (np.uint64(0x00FF00FF00FF00FF), np.uint64(0x0000FFFF0000FFFF), np.uint64(0xFFFFFFFF))


def _byte_numeral(words: np.ndarray, base: int) -> np.ndarray:
    """uint64 words whose 8 bytes are digits (values < ``base``, most significant byte first) -> the
    numbers they write in ``base`` (int64; ``base`` <= 11): adjacent bytes, then pairs, then
    quadruples are combined in place."""
    pairs = ((words >> np.uint64(8)) & _LANES[0]) * np.uint64(base) + (words & _LANES[0])
    quads = ((pairs >> np.uint64(16)) & _LANES[1]) * np.uint64(base**2) + (pairs & _LANES[1])
    return ((quads >> np.uint64(32)) * np.uint64(base**4) + (quads & _LANES[2])).astype(np.int64)


def _digit_words(width: int, prefix: bytes = b"") -> np.ndarray:
    """``prefix`` + the ``width``-digit zero-padded decimal of 0 .. 10**width - 1, as uint32 words."""
    text = b"".join(prefix + str(i).zfill(width).encode() for i in range(10**width))
    return np.frombuffer(text, dtype=np.uint32)


_C3 = _digit_words(3, b"C")  # "C000" .. "C999"
_D4 = _digit_words(4)  # "0000" .. "9999"


def _cui_strings(numbers: np.ndarray) -> pa.Array:
    """int CUI numbers (0 <= x < 10**7) -> ``C\\d{7}`` strings, built as Arrow buffers: each value is
    two 4-byte words, "C" + the first 3 digits and the last 4 digits, looked up in tables."""
    n = len(numbers)
    rest = np.asarray(numbers, dtype=np.int64)
    data = np.empty((n, 2), dtype=np.uint32)
    high, low = np.divmod(rest, 10_000)
    data[:, 0] = _C3[high]
    data[:, 1] = _D4[low]
    offsets = np.arange(0, _CUI_WIDTH * n + 1, _CUI_WIDTH, dtype=np.int32)
    return pa.Array.from_buffers(pa.string(), n, [None, pa.py_buffer(offsets), pa.py_buffer(data.reshape(-1))])


def _distinct_cuis(cui: np.ndarray) -> np.ndarray:
    """The distinct CUI numbers (< 10**7), sorted, as int32: a bincount, not a sort."""
    return np.flatnonzero(np.bincount(cui)).astype(np.int32) if cui.size else np.zeros(0, np.int32)


def _concat(parts: list[np.ndarray], dtype: type) -> np.ndarray:
    return np.concatenate(parts) if parts else np.zeros(0, dtype=dtype)


def _chunk_bounds(n: int) -> Iterator[tuple[int, int]]:
    """Row ranges of at most :data:`_ROW_GROUP` rows; one empty range for an empty table (as
    ``write_table`` writes one empty row group for it)."""
    if n == 0:
        yield 0, 0
    for lo in range(0, n, _ROW_GROUP):
        yield lo, min(lo + _ROW_GROUP, n)


def _lookup(values: Sequence[str | None], codes: np.ndarray) -> pa.DictionaryArray:
    """``values[codes]`` (None: null) as the dictionary array :func:`biosem.io.sorted_dictionary`
    would make of it (the distinct values present, in byte order), built from the codes without
    hashing a string: what a dictionary column of a terminology table is written from."""
    codes = np.asarray(codes, dtype=np.int64)
    used = np.flatnonzero(np.bincount(codes, minlength=len(values))) if codes.size else np.zeros(0, np.int64)
    present = sorted({values[c] for c in used.tolist()} - {None}, key=str.encode)
    position = {v: i for i, v in enumerate(present)}
    index_of = np.array([position.get(v, -1) if v is not None else -1 for v in values], dtype=np.int32)
    indices = index_of[codes] if codes.size else np.zeros(0, np.int32)
    null = indices < 0
    return pa.DictionaryArray.from_arrays(
        np.maximum(indices, 0), pa.array(present, type=pa.string()), mask=null if null.any() else None
    )


def _repeat(value: str | None, n: int) -> pa.DictionaryArray:
    """``value`` ``n`` times as a dictionary column (see :func:`_lookup`)."""
    return _lookup([value], np.zeros(n, dtype=np.int32))


# --------------------------------------------------------------------------------------------------
# MRCONSO: terms, mappings, the kept CUIs


@dataclass
class _Atoms:
    """Kept MRCONSO rows, compact: one entry per row in file order (short rows last)."""

    path: Path
    cui: np.ndarray  # int32 CUI numbers
    aui: pa.Array  # AUI strings
    aui_key: np.ndarray | None  # :func:`_aui_order_keys`; None if an AUI has > 10 digits
    string: pa.Array  # STR
    code: pa.Array  # CODE
    sab: np.ndarray  # codes into sab_values
    tty: np.ndarray
    lat: np.ndarray
    active: np.ndarray  # SUPPRESS in {"N", ""}
    rank: np.ndarray  # int8: 4 (TS != P) + 2 (STT != PF) + (ISPREF != Y); 0 = best
    sab_codes: _Codes
    tty_codes: _Codes
    lat_codes: _Codes


def _read_mrconso(path: Path, languages: Sequence[str] | None, sabs: Sequence[str] | None, reading: _Reading) -> _Atoms:
    cols: dict[str, list] = {k: [] for k in ("cui", "aui_key", "sab", "tty", "lat", "active", "rank")}
    # The AUI, STR and CODE columns of each batch with its kept rows, gathered at the end.
    strings: dict[str, list[tuple[pa.Array, np.ndarray | None]]] = {"AUI": [], "STR": [], "CODE": []}
    sab_codes, tty_codes, lat_codes = _Codes(), _Codes(), _Codes()
    n_read = 0
    fast_keys = True
    for batch in iter_rrf(
        path,
        MRCONSO_COLUMNS,
        include=_MRCONSO_READ,
        required=_MRCONSO_REQUIRED,
        patterns={"CUI": CUI_PATTERN, "AUI": AUI_PATTERN, "SRL": SRL_PATTERN, "SUPPRESS": SUPPRESS_PATTERN},
        **reading.options(path, MRCONSO_COLUMNS),
    ):
        n_read += batch.num_rows
        # Codes and flags are computed on the whole batch, then gathered at the kept rows.
        lat = lat_codes.encode(batch.column("LAT"))
        sab = sab_codes.encode(batch.column("SAB"))
        keep = _both(lat_codes.among(lat, languages), sab_codes.among(sab, sabs))
        if keep is not None and not keep.any():
            continue
        kept = _kept_rows(keep)
        # 4 (TS != P) + 2 (STT != PF) + (ISPREF != Y), in int8 (a bool is one byte of 0 or 1).
        rank = (~_equals(batch.column("TS"), b"P")).view(np.int8) << 2
        rank |= (~_equals(batch.column("STT"), b"PF")).view(np.int8) << 1
        rank |= (~_equals(batch.column("ISPREF"), b"Y")).view(np.int8)
        active = _equals(batch.column("SUPPRESS"), b"N") | _equals(batch.column("SUPPRESS"), b"")
        cols["cui"].append(_select(_cui_numbers(batch.column("CUI")), kept))
        if fast_keys:
            keys = _aui_order_keys(batch.column("AUI"), keep)
            fast_keys = keys is not None
            cols["aui_key"].append(keys)
        for name, parts in strings.items():
            parts.append((batch.column(name), kept))
        cols["sab"].append(_select(sab, kept))
        cols["tty"].append(_select(tty_codes.encode(batch.column("TTY")), kept))
        cols["lat"].append(_select(lat, kept))
        cols["active"].append(_select(active, kept))
        cols["rank"].append(_select(rank, kept))
    _release_memory()  # the per-batch arrays freed, before the strings are gathered
    # The kept strings of each column into one array, in threads (STR: ~500 MB in a full release).
    with ThreadPoolExecutor(len(strings), thread_name_prefix="rrf-gather") as pool:
        gathered = {name: pool.submit(_gather, path, name, parts) for name, parts in strings.items()}
        del strings
        aui, string, code = (gathered[name].result() for name in ("AUI", "STR", "CODE"))
    atoms = _Atoms(
        path=path,
        cui=_concat(cols.pop("cui"), np.int32),
        aui=aui,
        aui_key=_concat(cols.pop("aui_key"), np.int64) if fast_keys else None,
        string=string,
        code=code,
        sab=_concat(cols.pop("sab"), np.uint16),
        tty=_concat(cols.pop("tty"), np.uint16),
        lat=_concat(cols.pop("lat"), np.uint16),
        active=_concat(cols.pop("active"), np.bool_),
        rank=_concat(cols.pop("rank"), np.int8),
        sab_codes=sab_codes,
        tty_codes=tty_codes,
        lat_codes=lat_codes,
    )
    del cols
    log.info(
        "%s: %d rows kept of %d (LAT in %s, SAB in %s)",
        path.name,
        len(atoms.cui),
        n_read,
        "any" if languages is None else list(languages),
        "any" if sabs is None else list(sabs),
    )
    return atoms


def _gather(path: Path, name: str, parts: list[tuple[pa.Array, np.ndarray | None]]) -> pa.Array:
    """One string array of the values at the kept rows (None: all) of each part, in order; each
    part is released once copied, so the column is held about once, not twice.

    Raises:
        SourceFormatError: the kept values of the column exceed 2**31 - 1 bytes (Arrow's string offsets).
    """
    n_rows = n_bytes = 0
    for values, rows in parts:
        offsets, _ = _string_buffers(values)
        n_rows += len(values) if rows is None else len(rows)
        n_bytes += int(offsets[-1]) if rows is None else int((offsets[rows + 1] - offsets[rows]).sum())
    if n_bytes > np.iinfo(np.int32).max:
        raise SourceFormatError(path, None, f"{name} values of at most 2 GiB in all (kept rows)", f"{n_bytes:,} bytes")
    out_offsets = np.empty(n_rows + 1, dtype=np.int32)
    out_data = np.empty(n_bytes, dtype=np.uint8)
    out_offsets[0] = 0
    row = at = 0
    parts.reverse()
    while parts:
        values, rows = parts.pop()
        offsets, data = _string_buffers(values)
        m = len(values) if rows is None else len(rows)
        at += rrf_kernels.gather_strings(offsets, data, rows, at, out_offsets[row:], out_data[at:])
        row += m
        del values, offsets, data
    return pa.Array.from_buffers(pa.string(), n_rows, [None, pa.py_buffer(out_offsets), pa.py_buffer(out_data)])


_AUI_DIGITS = 10  # 11**10 < 2**35: a key packs with a CUI number (< 2**24) into 64 bits


def _aui_order_keys(aui: pa.Array, keep: np.ndarray | None = None) -> np.ndarray | None:
    """int64 keys ordered as the AUI strings ("A" + digits, validated), of the values where ``keep``
    (default: all), or None when one of them has more than :data:`_AUI_DIGITS` digits
    (:func:`biosem.terminology.rrf_kernels.base11_keys`)."""
    offsets, data = _string_buffers(aui)
    return rrf_kernels.base11_keys(offsets, data, keep, 1, _AUI_DIGITS)


def _aui_ranks(atoms: _Atoms) -> tuple[np.ndarray, int]:
    """(a key per atom ordered as its AUI string, the key's bits); SourceFormatError if an AUI
    is repeated."""
    n = len(atoms.cui)
    if atoms.aui_key is not None:
        keys = atoms.aui_key
        ordered_keys = np.sort(keys)  # an unstable sort: only the repeats are wanted
        repeated = ordered_keys[1:][ordered_keys[1:] == ordered_keys[:-1]]
        repeat = int(np.flatnonzero(keys == repeated[0])[0]) if repeated.size else None
        bits = 35
    else:  # an AUI with more digits than the keys hold: rank the strings
        aui = atoms.aui
        by_aui = pc.sort_indices(aui).to_numpy()
        ordered = aui.take(pa.array(by_aui))
        same = np.flatnonzero(
            pc.equal(ordered.slice(1), ordered.slice(0, max(n - 1, 0))).to_numpy(zero_copy_only=False)
        )
        repeat = int(by_aui[same[0]]) if same.size else None
        keys = np.empty(n, dtype=np.int64)
        keys[by_aui] = np.arange(n)
        bits = max(n - 1, 1).bit_length()
    if repeat is not None:
        dup = atoms.aui[repeat].as_py()
        raise SourceFormatError(atoms.path, None, "one MRCONSO row per AUI", f"AUI {dup} repeated")
    return keys, bits


def _iso639_1(lat: str) -> str | None:
    return LAT_TO_ISO639_1.get(lat, lat.lower()) or None


def _term_chunks(atoms: _Atoms, source: str) -> Iterator[pa.Table]:
    """Terms in (concept_id, term_id) order; the preferred-name rule of :func:`read_rrf`."""
    n = len(atoms.cui)
    # The output order, (concept_id, term_id), as one uint64 key: CUI number, then AUI.
    aui_keys, bits = _aui_ranks(atoms)
    order = np.argsort(
        (atoms.cui.astype(np.uint64) << np.uint64(bits)) | aui_keys.astype(np.uint64),
        kind="stable",
    )
    del aui_keys
    # Preferred: per CUI (contiguous in this order) the first row of the smallest rank.
    cui_sorted = atoms.cui[order]
    rank = atoms.rank[order]
    preferred = np.zeros(n, dtype=bool)
    if n:
        starts = np.flatnonzero(np.r_[True, cui_sorted[1:] != cui_sorted[:-1]])
        lengths = np.diff(np.r_[starts, n])
        best = np.repeat(np.minimum.reduceat(rank, starts), lengths)
        candidates = np.flatnonzero(rank == best)
        group = np.repeat(np.arange(len(starts)), lengths)[candidates]
        preferred[candidates[np.r_[True, group[1:] != group[:-1]]]] = True
        del starts, lengths, best, candidates, group
    del rank
    tty_values = atoms.tty_codes.values()
    abbreviation = np.array([v in ABBREVIATION_TTYS for v in tty_values], dtype=bool)
    language = [_iso639_1(v) for v in atoms.lat_codes.values()]
    sab_values, types = atoms.sab_codes.values(), ["preferred", "abbreviation", "synonym"]
    for lo, hi in _chunk_bounds(n):
        rows = order[lo:hi]
        m = hi - lo
        tty = atoms.tty[rows]
        kind = np.where(preferred[lo:hi], 0, np.where(abbreviation[tty] if tty.size else False, 1, 2))
        nulls = _repeat(None, m)
        index = pa.array(rows)
        chunk = pa.table(
            {
                "source": _repeat(source, m),
                "concept_id": _cui_strings(cui_sorted[lo:hi]),
                "term_id": atoms.aui.take(index),
                "term": atoms.string.take(index),
                "term_type": _lookup(types, kind),
                "language": _lookup(language, atoms.lat[rows]),
                "active": pa.array(atoms.active[rows]),
                "scope": nulls,
                "acceptability": nulls,
                "sab": _lookup(sab_values, atoms.sab[rows]),
                "tty": _lookup(tty_values, tty),
            }
        )
        yield chunk


_MAPPING_PARTS = 2  # the threads of rule ingest_umls


def _mapping_chunks(atoms: _Atoms, source: str) -> Iterator[pa.Table]:
    """Distinct (CUI, SAB, CODE), CODE not "" nor NOCODE, in (code_system, code, concept_id) order.

    The rows are split into :data:`_MAPPING_PARTS` consecutive ranges of (SAB rank, first byte of CODE), about
    equal in size; every row of a range sorts before every row of the next, so the ranges are
    sorted independently (in threads: Arrow and numpy release the GIL) and then concatenated. In
    a range, CODE strings are dictionary-encoded and the dictionary sorted once (by
    :func:`_distinct_string_order`), so rows are sorted and deduplicated on integers (SAB rank,
    CODE rank, CUI number).
    """
    parts = _MAPPING_PARTS
    uncoded = _equals(atoms.code, b"") | _equals(atoms.code, _NOCODE.encode())
    coded = np.flatnonzero(~uncoded)
    sab_ranks = atoms.sab_codes.ranks()
    offsets, data = _string_buffers(atoms.code)
    key = sab_ranks[atoms.sab[coded]] * 256 + data[offsets[coded]] if coded.size else np.zeros(0, np.int64)
    # Range bounds at the quantiles of the key (a range may be empty, e.g. one SAB and one first byte).
    bounds = np.unique(np.quantile(key, np.arange(1, parts) / parts, method="lower")) if key.size else []
    part_of = np.searchsorted(bounds, key, side="right")
    ranges = [coded[part_of == i] for i in range(parts)]
    del coded, key, part_of
    with ThreadPoolExecutor(parts, thread_name_prefix="rrf-mappings") as pool:
        sorted_ranges = list(pool.map(partial(_sorted_mappings, atoms, sab_ranks), ranges))
    del ranges
    by_rank = sorted(atoms.sab_codes.values(), key=str.encode)
    starts = np.cumsum([0, *(len(rows) for rows, _ in sorted_ranges)]).tolist()
    for lo, hi in _chunk_bounds(starts[-1]):
        # The part of each range in this row group (an empty table of each for an empty file).
        spans = [(max(lo - start, 0), min(hi - start, len(r[0]))) for r, start in zip(sorted_ranges, starts)]
        pieces = [
            (rows.fields(a, max(a, b)), codes)
            for (rows, codes), (a, b) in zip(sorted_ranges, spans)
            if a < b or hi == 0
        ]
        sab, cui = (np.concatenate([fields[i] for fields, _ in pieces]) for i in (0, 2))
        # One chunk per row group, each column in one piece, as write_table would write it.
        yield pa.table(
            {
                "source": _repeat(source, len(cui)),
                "concept_id": _cui_strings(cui),
                "code_system": _lookup(by_rank, sab),
                "code": pa.concat_arrays([codes.take(pa.array(fields[1])) for fields, codes in pieces]),
            }
        )


_ORDER_WORDS = 4  # strings of at most 32 bytes are ordered with numpy, longer ones by Arrow


def _distinct_string_order(values: pa.Array) -> np.ndarray:
    """The indices that sort ``values``, distinct non-null strings, in byte order, as
    ``pyarrow.compute.sort_indices`` gives them.

    Each string is read as big-endian 8-byte words, zero-padded; one sort of the first words orders
    all strings but those that share their first 8 bytes, which are then ordered by all their
    words and, last, their length (of two strings equal in their padded words, the shorter one is
    a prefix of the other). Strings of more than :data:`_ORDER_WORDS` words go to Arrow.
    """
    offsets, data = _string_buffers(values)
    lengths = np.diff(offsets)
    n_words = -(-int(lengths.max(initial=0)) // 8)
    if n_words > _ORDER_WORDS:
        return pc.sort_indices(values).to_numpy()
    padded = np.zeros(len(data) + 8 * max(n_words, 1), dtype=np.uint8)
    padded[: len(data)] = data
    # Every 8-byte window of the data, as a view: row i is bytes i .. i + 7.
    windows = np.lib.stride_tricks.as_strided(padded, shape=(len(padded) - 7, 8), strides=(1, 1), writeable=False)
    words = []
    for k in range(n_words):
        word = windows[offsets[:-1] + 8 * k].view(">u8")[:, 0].astype(np.uint64)
        word &= _WORD_MASKS[np.clip(lengths - 8 * k, 0, 8)]
        words.append(word)
    if not words:
        return np.arange(len(values))
    order = np.argsort(words[0])  # unstable: the strings are distinct, ties are ordered below
    first = words[0][order]
    tied = np.r_[False, first[1:] == first[:-1]]
    tied[:-1] |= tied[1:]
    at = np.flatnonzero(tied)
    if at.size:
        rows = order[at]
        order[at] = rows[np.lexsort([lengths[rows], *(word[rows] for word in reversed(words))])]
    return order


def _sorted_mappings(atoms: _Atoms, sab_ranks: np.ndarray, rows: np.ndarray) -> tuple[_PackedRows, pa.Array]:
    """The distinct (SAB rank, CODE rank, CUI number) of the atoms ``rows``, sorted; the CODE
    strings in rank order."""
    encoded = pc.dictionary_encode(atoms.code.take(pa.array(rows)))
    by_code = _distinct_string_order(encoded.dictionary)
    code_rank = np.empty(len(by_code), dtype=np.int32)
    code_rank[by_code] = np.arange(len(by_code), dtype=np.int32)
    sorted_codes = encoded.dictionary.take(pa.array(by_code))
    fields = [
        sab_ranks[atoms.sab[rows]] if rows.size else np.zeros(0, np.int64),
        code_rank[encoded.indices.to_numpy(zero_copy_only=False)],
        atoms.cui[rows],
    ]
    del encoded, by_code, code_rank
    sizes = [len(atoms.sab_codes), len(sorted_codes), int(atoms.cui.max(initial=0)) + 1]
    return _sort_distinct(fields, sizes), sorted_codes


# --------------------------------------------------------------------------------------------------
# MRSTY: concepts


def _read_mrsty(path: Path, cuis: np.ndarray, reading: _Reading) -> np.ndarray:
    """The smallest TUI number of each CUI of ``cuis`` (sorted) in MRSTY; -1 where MRSTY has none."""
    smallest = np.full(len(cuis), np.iinfo(np.int32).max, dtype=np.int32)
    n_rows = 0
    for batch in iter_rrf(
        path,
        MRSTY_COLUMNS,
        include=_MRSTY_READ,
        required=_MRSTY_REQUIRED,
        patterns={"CUI": CUI_PATTERN, "TUI": TUI_PATTERN},
        **reading.options(path, MRSTY_COLUMNS),
    ):
        cui = _cui_numbers(batch.column("CUI"))
        pos = np.searchsorted(cuis, cui)
        known = pos < len(cuis)
        known[known] = cuis[pos[known]] == cui[known]
        if not known.any():
            continue
        tui = pc.cast(pc.utf8_slice_codeunits(batch.column("TUI"), 1), pa.int32()).to_numpy()
        np.minimum.at(smallest, pos[known], tui[known])
        n_rows += int(known.sum())
    found = smallest != np.iinfo(np.int32).max
    log.info("%s: %d rows for %d kept CUIs", path.name, n_rows, int(found.sum()))
    return np.where(found, smallest, -1)


def _concept_chunks(cuis: np.ndarray, mrsty: Path | None, reading: _Reading, source: str) -> Iterator[pa.Table]:
    """Concepts of the kept CUIs (sorted); ``module`` = smallest TUI in MRSTY (read here)."""
    modules = _read_mrsty(mrsty, cuis, reading) if mrsty is not None else None
    for lo, hi in _chunk_bounds(len(cuis)):
        m = hi - lo
        if modules is None:
            module = pa.nulls(m, type=pa.string())
        else:
            tui = modules[lo:hi]
            text = pc.utf8_lpad(pc.cast(pa.array(tui), pa.string()), width=3, padding="0")
            module = pc.if_else(
                pa.array(tui < 0),
                pa.scalar(None, pa.string()),
                pc.binary_join_element_wise("T", text, ""),
            )
        chunk = pa.table(
            {
                "source": _repeat(source, m),
                "concept_id": _cui_strings(cuis[lo:hi]),
                "active": pa.repeat(True, m),
                "module": module,
            }
        )
        yield chunk


# --------------------------------------------------------------------------------------------------
# MRREL: relations


@dataclass
class _Relations:
    """Distinct CUI-level MRREL rows in output order, as (CUI2, REL, RELA, CUI1, SAB) codes."""

    rows: _PackedRows  # fields: CUI2 number, rel_rela index, CUI1 number, sab index
    rel_rela_values: list[tuple[str, str | None]]  # (REL, RELA or None) in sort order
    sab_values: list[str | None]  # SAB or None, in sort order


def _read_mrrel(path: Path, sabs: Sequence[str] | None, reading: _Reading) -> _Relations:
    """Distinct CUI-level MRREL triples, sorted as the relations table (see :func:`read_rrf`)."""
    parts: dict[str, list[np.ndarray]] = {k: [] for k in ("cui1", "cui2", "rel", "rela", "sab")}
    codes = {k: _Codes() for k in ("rel", "rela", "sab")}
    n_read = n_sab = 0
    optional_cui = f"(?:{CUI_PATTERN})?"
    for batch in iter_rrf(
        path,
        MRREL_COLUMNS,
        include=_MRREL_READ,
        required=_MRREL_REQUIRED,
        patterns={"CUI1": optional_cui, "CUI2": optional_cui},
        **reading.options(path, MRREL_COLUMNS),
    ):
        n_read += batch.num_rows
        # As in MRCONSO: codes on the whole batch, then one numpy selection (SAB, both CUIs present).
        sab = codes["sab"].encode(batch.column("SAB"))
        by_sab = codes["sab"].among(sab, sabs)
        n_sab += batch.num_rows if by_sab is None else int(by_sab.sum())
        cui1, cui2 = batch.column("CUI1"), batch.column("CUI2")
        both = (np.diff(_string_buffers(cui1)[0]) > 0) & (np.diff(_string_buffers(cui2)[0]) > 0)
        keep = _both(by_sab, None if both.all() else both)  # most releases have both CUIs on every row
        if keep is not None and not keep.any():
            continue
        kept = _kept_rows(keep)
        parts["cui1"].append(_cui_numbers(_select(cui1, kept)))
        parts["cui2"].append(_cui_numbers(_select(cui2, kept)))
        parts["rel"].append(_select(codes["rel"].encode(batch.column("REL")), kept))
        parts["rela"].append(_select(codes["rela"].encode(batch.column("RELA")), kept))
        parts["sab"].append(_select(sab, kept))
    cui1, cui2 = (_concat(parts.pop(k), np.int32) for k in ("cui1", "cui2"))
    rel, rela, sab = (_concat(parts.pop(k), np.uint16) for k in ("rel", "rela", "sab"))
    n_both = len(cui1)
    # Sort keys: REL then RELA (null last) combined into one rank; SAB (null last).
    rel_rank = codes["rel"].ranks()
    rela_rank = codes["rela"].ranks(empty_last=True)
    n_rela = max(len(rela_rank), 1)
    pair = (rel_rank * n_rela).astype(np.int32)[rel] + rela_rank.astype(np.int32)[rela]
    del rel, rela
    # Dense ranks of the (REL, RELA) pairs present: a full release has ~1,000 of them.
    present = np.flatnonzero(np.bincount(pair, minlength=max(len(rel_rank), 1) * n_rela))
    dense = np.zeros(max(len(rel_rank), 1) * n_rela, dtype=np.int32)
    dense[present] = np.arange(len(present), dtype=np.int32)
    rel_rela = dense[pair]
    del pair, dense
    sab_rank = codes["sab"].ranks(empty_last=True).astype(np.int32)[sab]
    del sab
    cuis = max(int(cui1.max(initial=0)), int(cui2.max(initial=0))) + 1
    sizes = [cuis, max(len(present), 1), cuis, max(len(codes["sab"]), 1)]
    fields = [cui2, rel_rela, cui1, sab_rank]
    del cui1, cui2, rel_rela, sab_rank
    _release_memory()
    rows = _sort_distinct(fields, sizes)
    log.info(
        "%s: %d rows read, %d kept by SAB, %d with both CUIs, %d distinct at CUI level",
        path.name,
        n_read,
        n_sab,
        n_both,
        len(rows),
    )
    rel_values = sorted(codes["rel"].values(), key=str.encode)
    rela_values = sorted(codes["rela"].values(), key=lambda v: (v == "", v.encode()))
    sab_values = sorted(codes["sab"].values(), key=lambda v: (v == "", v.encode()))
    return _Relations(
        rows=rows,
        rel_rela_values=[(rel_values[c // n_rela], rela_values[c % n_rela] or None) for c in present] or [("", None)],
        sab_values=[v or None for v in sab_values] or [None],
    )


@dataclass
class _PackedRows:
    """Rows of small non-negative integer fields packed into uint64 words, sorted and distinct;
    :meth:`fields` unpacks a slice (so the whole table is never unpacked at once)."""

    words: list[np.ndarray]
    groups: list[list[int]]  # field indices per word, most significant first
    bits: list[int]  # width of each field

    def __len__(self) -> int:
        return len(self.words[0])

    def fields(self, lo: int, hi: int) -> list[np.ndarray]:
        out: list[np.ndarray] = [np.zeros(0)] * len(self.bits)
        for group, word in zip(self.groups, self.words, strict=True):
            key = word[lo:hi]
            shift = sum(self.bits[i] for i in group)
            for i in group:
                shift -= self.bits[i]
                value = (key >> np.uint64(shift)) & np.uint64((1 << self.bits[i]) - 1)
                out[i] = value.astype(np.int32 if self.bits[i] < 32 else np.int64)
        return out


def _sort_distinct(fields: list[np.ndarray], sizes: Sequence[int]) -> _PackedRows:
    """Sort rows of non-negative integer fields (``fields[i] < sizes[i]``; the first is the most
    significant) and drop repeated rows.

    Fields are packed into as few uint64 words as fit (a full release: one word for relations,
    CUI numbers < 2**23, ~1,000 REL/RELA pairs, ~150 SABs), which one ``sort`` (else ``lexsort``)
    orders. The arrays in ``fields`` are released (the list emptied) as they are packed.
    """
    bits = [max(int(size) - 1, 1).bit_length() for size in sizes]
    if max(bits, default=0) > 64:
        raise ValueError(f"a field needs more than 64 bits: {bits}")
    groups: list[list[int]] = [[]]
    used = 0
    for i, width in enumerate(bits):
        if used + width > 64:
            groups.append([])
            used = 0
        groups[-1].append(i)
        used += width
    words = []
    for group in groups:
        key = np.zeros(len(fields[group[0]]), dtype=np.uint64)
        for i in group:
            key <<= np.uint64(bits[i])
            # Cast block by block inside the ufunc, not as a whole temporary array.
            np.bitwise_or(key, fields[i], out=key, dtype=np.uint64, casting="unsafe")
            fields[i] = None  # type: ignore[call-overload]
        words.append(key)
    fields.clear()
    n = len(words[0])
    if len(words) == 1:
        words[0].sort()
        changed = words[0][1:] != words[0][:-1]
    else:
        order = np.lexsort(words[::-1])
        words = [w[order] for w in words]
        del order
        changed = np.zeros(max(n - 1, 0), dtype=bool)
        for w in words:
            changed |= w[1:] != w[:-1]
    if not changed.all():
        distinct = np.r_[True, changed] if n else np.zeros(0, dtype=bool)
        words = [w[distinct] for w in words]
    return _PackedRows(words, groups, bits)


def _relation_chunks(relations: _Relations | None, source: str) -> Iterator[pa.Table]:
    if relations is None:
        yield RELATIONS.schema.empty_table()
        return
    rel = [r for r, _ in relations.rel_rela_values]
    rela = [a for _, a in relations.rel_rela_values]
    for lo, hi in _chunk_bounds(len(relations.rows)):
        subject, rr, object_, sab = relations.rows.fields(lo, hi)
        chunk = pa.table(
            {
                "source": _repeat(source, hi - lo),
                "subject_id": _cui_strings(subject),
                "rel": _lookup(rel, rr),
                "rela": _lookup(rela, rr),
                "object_id": _cui_strings(object_),
                "sab": _lookup(relations.sab_values, sab),
            }
        )
        yield chunk


# --------------------------------------------------------------------------------------------------
# MRSAB


def _log_mrsab(path: Path, sabs: Sequence[str] | None, reading: _Reading) -> None:
    """Validate MRSAB and log the current (CURVER = Y) SAB/version pairs; warn on unknown ``sabs``."""
    current: dict[str, str] = {}
    for batch in iter_rrf(
        path,
        MRSAB_COLUMNS,
        include=_MRSAB_READ,
        required=_MRSAB_REQUIRED,
        patterns={"RSAB": r"[^\s]+", "SRL": SRL_PATTERN, "CURVER": "[YN]"},
        **reading.options(path, MRSAB_COLUMNS),
    ):
        cur = batch.filter(pc.equal(batch.column("CURVER"), "Y"))
        for rsab, vsab, sver in zip(
            cur.column("RSAB").to_pylist(),
            cur.column("VSAB").to_pylist(),
            cur.column("SVER").to_pylist(),
            strict=True,
        ):
            current[rsab] = f"{vsab} ({sver})" if sver else vsab
    log.info(
        "%s: %d current sources: %s",
        path.name,
        len(current),
        ", ".join(f"{rsab}={version}" for rsab, version in sorted(current.items())),
    )
    missing = sorted(set(sabs or ()) - set(current))
    if missing:
        log.warning("%s: requested SABs not current in this release: %s", path.name, missing)
