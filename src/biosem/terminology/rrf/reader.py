"""The RRF streaming reader: pipe-delimited files (plain or ``.gz``) as batches of checked string columns.

Format (UMLS Reference Manual, §3.3 "Data Elements"): one row per line, fields separated by ``|``,
every row terminated by a trailing ``|``, no header, no quoting (a ``"`` is a literal character), UTF-8.

Every row of a file has the field count of the file's layout: the count given by the caller (the
release's MRFILES or MRCOLS), otherwise that of the file's first row; every line, the last one too,
ends with a newline (a last line without one is a truncated file). So a stray ``|`` inside a value, or
a last line cut inside one, is an error naming the file and line, never a truncated value. Some
redistributed subsets were exported with SQL*Loader ``trailing nullcols`` and omit the last, empty
fields of most rows (and then the trailing ``|``); only with ``trailing_nullcols=True`` are such short
rows accepted, as long as they hold the ``required`` fields (the missing fields are read as "").

:func:`iter_rrf` reads an uncompressed file in blocks of whole lines split by compiled kernels
(:mod:`biosem.terminology.rrf.kernels`: ``|``, newline and ``\\r`` found 64 bytes at a time, each read
column copied or, for columns of few values, coded), in threads, each block checked (field count,
UTF-8, the values' patterns: :func:`full_match`) before it is given. At the first block with a line
that is not regular (another field count, an empty line, a ``\\r``, a last line without newline,
invalid UTF-8 in a read column), and for a ``.gz`` file, pyarrow's CSV reader takes over: block by
block with its threads (a serial pass where a short row needs its line number), one block ahead in a
background thread (:func:`_prefetch`), with the same checks, messages and line numbers.
:func:`string_buffers`, :func:`equals` and :func:`release_memory` serve the per-row passes of its
callers. What the files of a UMLS release mean is :mod:`biosem.terminology.rrf.umls`.
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
from collections import deque
from collections.abc import Callable, Generator, Iterable, Iterator, Mapping, Sequence
from concurrent.futures import Future, ThreadPoolExecutor
from dataclasses import dataclass
from functools import lru_cache, partial
from pathlib import Path
from typing import TypeVar

import numpy as np
import pyarrow as pa
import pyarrow.compute as pc
import pyarrow.csv as pacsv

from biosem.errors import SourceFormatError
from biosem.terminology.rrf import kernels
from biosem.terminology.rrf.columns import Codes, string_array
from biosem.terminology.rrf.kernels import string_buffers

log = logging.getLogger(__name__)
T = TypeVar("T")

_TRAILING = "__rrf_trailing__"  # the empty field after the row-terminating "|"
_BOM = b"\xef\xbb\xbf"  # a UTF-8 byte order mark, skipped at the start of a file


class _SerialPassNeeded(Exception):
    """A threaded pass met a row it had to skip, whose line number only a serial pass knows."""


@dataclass
class _Problem:
    line: int
    expected: str
    found: str


@dataclass
class _Block:
    """A block of the split path: its batch (None: a line is not regular, or a value not UTF-8) and
    its first problem, as (row, expected, found)."""

    batch: pa.RecordBatch | None
    problem: tuple[int, str, str] | None


def _scratch(local: threading.local, name: str, size: int, dtype: type) -> np.ndarray:
    """The first ``size`` items of a buffer the thread keeps in ``local`` under ``name`` and uses
    again for every block (grown, with a quarter to spare, when too small: blocks differ by a line or
    so): no new pages are touched per block."""
    buffer = getattr(local, name, None)
    if buffer is None or buffer.size < size:
        buffer = np.empty(max(size + size // 4, 1 << 16), dtype=dtype)
        setattr(local, name, buffer)
    return buffer[:size]


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
    coded: Sequence[str] = (),
) -> Iterator[pa.RecordBatch]:
    """Stream a pipe-delimited RRF file (plain or ``.gz``) as record batches of string columns.

    An uncompressed file is split by :func:`biosem.terminology.rrf.kernels.split_fields`, block by
    block in threads, as long as its lines are regular (the layout's field count, no ``\\r``, valid
    UTF-8 in the columns read); from the first block that is not, and for a ``.gz`` file, pyarrow's CSV
    reader takes over, with the same checks and messages.

    Args:
        path: the ``.RRF`` or ``.RRF.gz`` file (gzip is detected from the ``.gz`` suffix).
        columns: the file's full column layout in order (e.g.
            :data:`biosem.terminology.rrf.umls.MRCONSO_COLUMNS`), without the empty field after the trailing ``|``.
        include: the columns to return (default: all), in this order.
        required: how many leading fields the file's layout must have (default: all of ``columns``);
            the ``include`` columns after them may be absent from the layout and are read as "".
        patterns: column -> RE2 regular expression every value must match in full (e.g.
            ``{"CUI": r"C[0-9]{7}"}``); the columns must be in ``include``. Columns the layout does
            not have (all "") and, with ``trailing_nullcols``, the padded fields of short rows are
            not checked.
        block_size: bytes parsed per block; memory use is a small multiple of it.
        fields: the field count of every row (the release's MRFILES or MRCOLS); default: the first
            row's (with ``trailing_nullcols``: ``len(columns)``). Must be in ``required``..``len(columns)``.
        layout_source: where ``fields`` comes from, for messages (e.g. ``"MRFILES.RRF line 10"``).
        trailing_nullcols: also accept rows with fewer fields than the layout but at least
            ``required`` (SQL*Loader "trailing nullcols" exports), padded with "".
        coded: ``include`` columns of few distinct values (at most
            :data:`biosem.terminology.rrf.columns.MAX_CODES` per block) that the split path gives
            dictionary-encoded (uint16 indices, the block's values as dictionary), not as strings;
            their patterns are checked on the dictionary. Consumers take both forms
            (:class:`biosem.terminology.rrf.columns.Codes`, :func:`equals`).

    Yields:
        Record batches with exactly the ``include`` columns, all ``pa.string()`` (``coded`` ones
        possibly ``dictionary<uint16, string>``), never null. Rows of
        well-formed lines come in file order; padded short rows come in batches of their own (so the
        overall row order is not the file order).

    Raises:
        ValueError: a ``coded`` column with more than
            :data:`biosem.terminology.rrf.columns.MAX_CODES` values in a block.
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
    if set(patterns) - set(include) or set(coded) - set(include):
        raise ValueError(f"patterns or coded columns not read: {sorted((set(patterns) | set(coded)) - set(include))}")
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
        stream = _RrfStream(path, columns, include, required, patterns, block_size, tuple(coded))
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


def _piece_tables(
    path: Path, size: int, parse: Callable[[pa.BufferReader], pa.Table], start: int = 0
) -> Iterator[pa.Table]:
    """``parse`` of each piece of whole lines of the uncompressed file ``path`` from byte ``start``
    (a line start), in file order.

    A piece is about ``size`` bytes, ending after a newline (the last piece: at the end of the file,
    a last line without newline included). It is memory-mapped, not copied, and only while it is
    parsed, so the mapped file adds at most a piece to the resident memory.
    """
    total = path.stat().st_size
    while start < total:
        with pa.memory_map(str(path)) as mapped:
            end = _line_end(mapped, min(start + size, total) - 1, total)
            mapped.seek(start)
            table = parse(pa.BufferReader(mapped.read_buffer(end - start)))
        yield table
        start = end


def _line_end(mapped: pa.NativeFile, at: int, total: int) -> int:
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
        coded: tuple[str, ...] = (),
    ) -> None:
        self.path = path
        self.coded = coded
        # Where pyarrow's passes start: after the lines the split path gave (all rows, one per line).
        self.start = 0
        self.line_base = 0
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
        return SourceFormatError(self.path, p.line + self.line_base, p.expected, p.found)

    def _reset(self) -> None:
        self.pending = []
        self.valid_before_skipped = []
        self.n_valid = 0
        self.n_padded = 0
        self.problem = None
        self.unnumbered = False

    def batches(self) -> Iterator[pa.RecordBatch]:
        """Split the regular lines of an uncompressed file with the kernels; parse the rest with
        pyarrow's threads; a skipped row (a short row) has no line number then, so the rest is parsed
        again serially, without the rows already given."""
        if self.path.suffix != ".gz":
            if (yield from self._split_pass()):
                return
        given: list[int] = [0]
        try:
            yield from self._pass(threads=True, given=given)
        except _SerialPassNeeded:
            self._reset()
            yield from self._pass(threads=False, given=given)

    def _split_pass(self) -> Generator[pa.RecordBatch, None, bool]:
        """The file's blocks split by the kernels in threads, in file order, each checked before it
        is given. Returns True when the whole file was read so; otherwise (a block with a line that is
        not regular, or a value that is not UTF-8) sets :attr:`start` and :attr:`line_base` to that
        block, whose rows are not given, for pyarrow's passes to read the rest."""
        total = self.path.stat().st_size
        if not total:
            return False
        present = self.columns[: self.fields]
        wanted = [c for c in self.include if c in present]
        if not wanted:  # no field to split: pyarrow's passes count the rows
            return False
        slot = np.full(self.fields, -1, dtype=np.int32)
        for j, name in enumerate(wanted):
            slot[present.index(name)] = j
        local = threading.local()  # per worker: its buffers (_scratch) and code dictionaries

        def split(lo: int, hi: int) -> _Block:
            # Read into the worker's own buffer: no page of the file mapped per block.
            data = _scratch(local, "block", hi - lo, np.uint8)
            with self.path.open("rb", buffering=0) as handle:
                handle.seek(lo)
                if handle.readinto(data) != hi - lo:
                    raise OSError(f"{self.path}: a short read at byte {lo}")
            return self._split_block(data, wanted, slot, local)

        workers = max(pa.cpu_count(), 1)
        lines = 0
        with (
            pa.OSFile(str(self.path)) as bounds,  # read, not mapped: a lasting map would keep pages resident
            ThreadPoolExecutor(workers, thread_name_prefix="rrf-split") as pool,
        ):
            pending: deque[tuple[int, Future[_Block]]] = deque()
            lo = len(_BOM) if bounds.read_at(len(_BOM), 0) == _BOM else 0  # as pyarrow, which skips it
            try:
                while pending or lo < total:
                    while lo < total and len(pending) < 2 * workers:
                        hi = _line_end(bounds, min(lo + self.block_size, total) - 1, total)
                        pending.append((lo, pool.submit(split, lo, hi)))
                        lo = hi
                    at, future = pending.popleft()
                    block = future.result()
                    if block.batch is None:
                        self.start, self.line_base = at, lines
                        return False
                    if block.problem is not None:
                        row, expected, found = block.problem
                        self.problem = _Problem(lines + row + 1, expected, found)
                        raise self._error()
                    lines += block.batch.num_rows
                    yield self._complete(block.batch)
            finally:
                for _, future in pending:
                    future.cancel()
        self._log_read(lines)
        return True

    def _split_block(self, data: np.ndarray, wanted: list[str], slot: np.ndarray, local: threading.local) -> _Block:
        """One block of whole lines, split and checked (runs in a worker thread)."""
        rows = kernels.count_lines(data)
        starts = _scratch(local, "starts", len(wanted) * rows, np.int32).reshape(len(wanted), rows)
        ends = _scratch(local, "ends", len(wanted) * rows, np.int32).reshape(len(wanted), rows)
        if kernels.split_fields(data, self.fields, slot, starts, ends) != rows:
            return _Block(None, None)
        arrays: list[pa.Array] = []
        checked = kernels.is_utf8(data)  # else each value read is checked
        for j, name in enumerate(wanted):
            if name in self.coded:
                codes = local.__dict__.setdefault("codes", {}).setdefault(name, Codes())
                before = len(codes)
                indices = codes.encode_spans(data, starts[j], ends[j])
                if not checked and codes.first_invalid(before) >= 0:
                    return _Block(None, None)
                # Every code is one of the dictionary's: no bounds check.
                arrays.append(pa.DictionaryArray.from_arrays(pa.array(indices), codes.dictionary(), safe=False))
            else:
                gathered = kernels.gather_spans(data, starts[j], ends[j], check=not checked)
                if isinstance(gathered, int):
                    return _Block(None, None)
                arrays.append(string_array(*gathered))
        batch = pa.RecordBatch.from_arrays(arrays, names=wanted)
        return _Block(batch, self._find(batch, trailing=False))

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
            if self.start:
                stream.seek(self.start)
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
                    for table in _piece_tables(self.path, self.block_size * _PIECE_BLOCKS, read, self.start)
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
        if self.n_valid + self.n_padded + self.line_base == 0:
            raise SourceFormatError(self.path, None, "at least one RRF row", "an empty file")
        if padded is not None and padded.num_rows:
            yield padded
        self._log_read(self.line_base + self.n_valid + self.n_padded)

    def _log_read(self, rows: int) -> None:
        log.info("%s: %d rows read (%d short rows padded)", self.path.name, rows, self.n_padded)

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
            extra = np.diff(string_buffers(batch.column(_TRAILING))[0])
            if extra.any():
                i = int(np.argmax(extra > 0))
                value = batch.column(_TRAILING)[i].as_py()
                found.append(
                    (i, f"{self.fields} '|'-terminated fields ({self.layout_source})", f"an extra field {value!r}")
                )
            # An empty line parses as one row of empty fields.
            read = [c for c in self.read if c != _TRAILING]
            width = np.diff(string_buffers(batch.column(read[0]))[0])
            if not width.all():  # some first field is empty: sum all the fields' widths
                for name in read[1:]:
                    width = width + np.diff(string_buffers(batch.column(name))[0])
                if not width.all():
                    i = int(np.argmin(width))
                    found.append((i, f"{self.fields} '|'-terminated fields ({self.layout_source})", "an empty line"))
        for col, regex in self.patterns.items():
            ok = full_match(batch.column(col), regex)
            if present is not None:
                ok |= present <= self.columns.index(col)
            if not ok.all():
                i = int(np.argmin(ok))
                value = batch.column(col)[i].as_py()
                found.append((i, f"{col} matching {regex}", repr(value)))
        if not found:
            return None
        return min(found, key=lambda f: f[0])


def equals(values: pa.Array, text: bytes) -> np.ndarray:
    """Per value of a non-null string array (or a dictionary array of strings): is it ``text``? bool
    array, from the buffers."""
    if isinstance(values, pa.DictionaryArray):
        return equals(values.dictionary, text)[values.indices.to_numpy()]
    return kernels.equals(*string_buffers(values), text)


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
        offsets, data = string_buffers(values)
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
        return kernels.match_prefixed_class(
            offsets, data, self.prefix, in_class, self.min_count, self.max_count, self.optional
        )


_DIGITS = ((ord("0"), ord("9")),)
_ONES = 0x0101010101010101
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


def full_match(values: pa.Array, regex: str) -> np.ndarray:
    """Per value of a non-null string array (or a dictionary array of strings): does ``regex`` (RE2
    syntax) match it in full?"""
    if isinstance(values, pa.DictionaryArray):
        return full_match(values.dictionary, regex)[values.indices.to_numpy()]
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


def release_memory() -> None:
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
