"""Compact columns of the UMLS adapter: CUI numbers, dictionary codes, packed sort keys.

MRCONSO and MRREL rows are kept as integers where the values allow it, so that a full release (MRCONSO
~16 M rows, MRREL ~60 M rows) is sorted and deduplicated on integers, not strings: a CUI ``C\\d{7}`` as
its number (:func:`cui_numbers`, :func:`cui_strings` back), SAB / TTY / LAT / REL / RELA as uint16
codes of a growing dictionary (:class:`Codes`), rows of such fields packed into uint64 words
(:func:`sort_distinct`). :func:`lookup` and :func:`repeat_value` build the dictionary columns of the written
tables from codes, as :func:`biosem.io.sorted_dictionary` would; :func:`gather` collects the kept
strings of many batches into one Arrow array. The per-row loops run in
:mod:`biosem.terminology.rrf.kernels`.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import TypeVar

import numpy as np
import pyarrow as pa
import pyarrow.compute as pc

from biosem.errors import SourceFormatError
from biosem.terminology.rrf import kernels
from biosem.terminology.rrf.kernels import string_buffers

A = TypeVar("A", np.ndarray, pa.Array)


MAX_CODES = int(np.iinfo(np.uint16).max)  # distinct values of a code column (SAB, TTY, LAT, REL, RELA)


class Codes:
    """A growing dictionary of strings: ``encode`` maps a string array to stable uint16 codes, in
    order of first occurrence (:func:`biosem.terminology.rrf.kernels.encode_spans`)."""

    def __init__(self) -> None:
        self._slots = np.full(2 << MAX_CODES.bit_length(), -1, dtype=np.int32)
        self._store = np.zeros(1 << 12, dtype=np.uint8)  # the distinct values' bytes
        self._bounds = np.zeros(MAX_CODES + 2, dtype=np.int64)
        self._n = 0
        self._values: list[str] | None = []

    def __len__(self) -> int:
        return self._n

    def encode(self, values: pa.Array) -> np.ndarray:
        """uint16 codes of a non-null string array, or of a dictionary array of strings (its
        dictionary coded, then its indices mapped); ValueError past :data:`MAX_CODES` distinct values."""
        if isinstance(values, pa.DictionaryArray):
            return self.encode(values.dictionary)[values.indices.to_numpy()]
        offsets, data = string_buffers(values)
        return self.encode_spans(data, offsets[:-1], offsets[1:])

    def encode_spans(self, data: np.ndarray, starts: np.ndarray, ends: np.ndarray) -> np.ndarray:
        """uint16 codes of the values ``data[starts[i]:ends[i]]`` (int32 spans); ValueError past
        :data:`MAX_CODES` distinct values."""
        used = int(self._bounds[self._n])
        if used + data.size > self._store.size:  # room for every value to be new
            store = np.zeros(max(used + data.size, 2 * self._store.size), dtype=np.uint8)
            store[:used] = self._store[:used]
            self._store = store
        codes, n = kernels.encode_spans(data, starts, ends, self._slots, self._store, self._bounds, self._n, MAX_CODES)
        if n > MAX_CODES:
            raise ValueError(f"more than {MAX_CODES} distinct values in a code column")
        if n != self._n:
            self._n, self._values = n, None
        return codes

    def first_invalid(self, since: int = 0) -> int:
        """The first code from ``since`` whose value is not UTF-8 (the values are bytes until
        decoded), or -1."""
        return kernels.first_invalid_utf8(self._bounds, self._store, since, self._n)

    def dictionary(self) -> pa.Array:
        """The values in code order, as a string array over the dictionary's own bytes (bytes that
        never change: new values are appended, and a grown store is a new array)."""
        return string_array(self._bounds[: self._n + 1].astype(np.int32), self._store[: int(self._bounds[self._n])])

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


def dictionary_encode(values: pa.Array) -> tuple[np.ndarray, pa.Array]:
    """(int32 indices, dictionary) of a non-null string array, as ``pyarrow.compute.dictionary_encode``
    gives them: the distinct values in order of first occurrence. A hash table of twice as many slots
    as values (:func:`biosem.terminology.rrf.kernels.encode_spans`), for columns of many values (CODE)."""
    offsets, data = string_buffers(values)
    n = len(values)
    slots = np.full(1 << (2 * max(n, 1)).bit_length(), -1, dtype=np.int32)
    bounds = np.zeros(max(n, 1) + 2, dtype=np.int64)
    store = np.empty(max(data.size, 1), dtype=np.uint8)
    codes, n_codes = kernels.encode_spans(data, offsets[:-1], offsets[1:], slots, store, bounds, 0, max(n, 1), np.int32)
    del slots
    return codes, string_array(bounds[: n_codes + 1].astype(np.int32), store[: int(bounds[n_codes])])


def string_array(offsets: np.ndarray, data: np.ndarray) -> pa.Array:
    """The string array of ``offsets`` (int32, n + 1, from 0) and ``data`` (uint8, the values' UTF-8
    bytes end to end), over these buffers (no copy): the inverse of :func:`string_buffers`."""
    return pa.Array.from_buffers(pa.string(), len(offsets) - 1, [None, pa.py_buffer(offsets), pa.py_buffer(data)])


_CUI_WIDTH = 8  # "C" and 7 digits


def cui_numbers(cui: pa.Array) -> np.ndarray:
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


def cui_strings(numbers: np.ndarray) -> pa.Array:
    """int CUI numbers (0 <= x < 10**7) -> ``C\\d{7}`` strings, built as Arrow buffers: each value is
    two 4-byte words, "C" + the first 3 digits and the last 4 digits, looked up in tables."""
    n = len(numbers)
    rest = np.asarray(numbers, dtype=np.int64)
    data = np.empty((n, 2), dtype=np.uint32)
    high, low = np.divmod(rest, 10_000)
    data[:, 0] = _C3[high]
    data[:, 1] = _D4[low]
    offsets = np.arange(0, _CUI_WIDTH * n + 1, _CUI_WIDTH, dtype=np.int32)
    return string_array(offsets, data.reshape(-1))


def distinct_cuis(cui: np.ndarray) -> np.ndarray:
    """The distinct CUI numbers (< 10**7), sorted, as int32: a bincount, not a sort."""
    return np.flatnonzero(np.bincount(cui)).astype(np.int32) if cui.size else np.zeros(0, np.int32)


def concat(parts: list[np.ndarray], dtype: type) -> np.ndarray:
    """The arrays of ``parts`` end to end; an empty array of ``dtype`` for none."""
    return np.concatenate(parts) if parts else np.zeros(0, dtype=dtype)


def lookup(values: Sequence[str | None], codes: np.ndarray) -> pa.DictionaryArray:
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


def repeat_value(value: str | None, n: int) -> pa.DictionaryArray:
    """``value`` ``n`` times as a dictionary column (see :func:`lookup`)."""
    return lookup([value], np.zeros(n, dtype=np.int32))


def intersect(a: np.ndarray | None, b: np.ndarray | None) -> np.ndarray | None:
    """``a & b`` of two row selections, where None selects every row."""
    return b if a is None else a if b is None else a & b


def kept_rows(keep: np.ndarray | None) -> np.ndarray | None:
    """The ascending indices of the rows where ``keep``; None (every row) for None or all True."""
    return None if keep is None or keep.all() else np.flatnonzero(keep)


def select(values: A, rows: np.ndarray | None) -> A:
    """``values`` (a numpy or Arrow array) at ``rows`` (:func:`kept_rows`); all of them for None.
    Gathering by index, unlike a numpy boolean mask, does not branch on each row."""
    if rows is None:
        return values
    return values.take(pa.array(rows)) if isinstance(values, pa.Array) else values.take(rows)


def gather(path: Path, name: str, parts: list[tuple[pa.Array, np.ndarray | None]]) -> pa.Array:
    """One string array of the values at the kept rows (None: all) of each part, in order; each
    part is released once copied, so the column is held about once, not twice.

    Raises:
        SourceFormatError: the kept values of the column exceed 2**31 - 1 bytes (Arrow's string offsets).
    """
    n_rows = n_bytes = 0
    for values, rows in parts:
        offsets, _ = string_buffers(values)
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
        offsets, data = string_buffers(values)
        m = len(values) if rows is None else len(rows)
        at += kernels.gather_strings(offsets, data, rows, at, out_offsets[row:], out_data[at:])
        row += m
        del values, offsets, data
    return string_array(out_offsets, out_data)


_WORD_MASKS = np.array([0] + [(1 << 64) - (1 << (64 - 8 * k)) for k in range(1, 9)], dtype=np.uint64)
_ORDER_WORDS = 4  # strings of at most 32 bytes are ordered with numpy, longer ones by Arrow


def distinct_string_order(values: pa.Array) -> np.ndarray:
    """The indices that sort ``values``, distinct non-null strings, in byte order, as
    ``pyarrow.compute.sort_indices`` gives them.

    Each string is read as big-endian 8-byte words, zero-padded; one sort of the first words orders
    all strings but those that share their first 8 bytes, which are then ordered by all their
    words and, last, their length (of two strings equal in their padded words, the shorter one is
    a prefix of the other). Strings of more than :data:`_ORDER_WORDS` words go to Arrow.
    """
    offsets, data = string_buffers(values)
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


@dataclass
class PackedRows:
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


def sort_distinct(fields: list[np.ndarray], sizes: Sequence[int]) -> PackedRows:
    """Sort rows of non-negative integer fields (``fields[i] < sizes[i]``; the first is the most
    significant) and drop repeated rows.

    Fields are packed into as few uint64 words as fit (a full release: one word for relations,
    CUI numbers < 2**23, ~1,000 REL/RELA pairs, ~150 SABs), which one ``sort`` (else ``lexsort``)
    orders. The arrays in ``fields`` are released (the list emptied) as they are packed.
    """
    n = len(fields[0]) if fields else 0
    part = list(fields)  # its arrays are released by sort_distinct_parts as they are packed
    fields.clear()
    return sort_distinct_parts([part], n, sizes)


def sort_distinct_parts(parts: Iterable[list[np.ndarray]], n: int, sizes: Sequence[int]) -> PackedRows:
    """:func:`sort_distinct` of the rows of ``parts`` end to end (each part: its fields, all of one
    length; ``n`` rows in all), packed part by part into the words as ``parts`` gives them: the
    fields are never concatenated, and a part's arrays are released once packed.

    Raises:
        ValueError: a field needs more than 64 bits, or the parts do not hold ``n`` rows.
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
    words = [np.zeros(n, dtype=np.uint64) for _ in groups]
    lo = 0
    for fields in parts:
        hi = lo + len(fields[0])
        if hi > n:
            raise ValueError(f"the parts hold more than {n} rows")
        for group, word in zip(groups, words, strict=True):
            key = word[lo:hi]
            for i in group:
                key <<= np.uint64(bits[i])
                # Cast block by block inside the ufunc, not as a whole temporary array.
                np.bitwise_or(key, fields[i], out=key, dtype=np.uint64, casting="unsafe")
                fields[i] = None  # type: ignore[call-overload]
        lo = hi
        del fields
    if lo != n:
        raise ValueError(f"the parts hold {lo} rows, not {n}")
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
    return PackedRows(words, groups, bits)
