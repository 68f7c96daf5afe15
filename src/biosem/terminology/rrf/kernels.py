"""Compiled per-row passes of the RRF reader over Arrow string buffers: the dispatch and the numba twins.

Each kernel takes a string column as its two buffers, ``offsets`` (int32, n + 1, rebased to 0) and
``data`` (uint8), as :func:`biosem.terminology.rrf.reader.string_buffers` gives them, and reads every
value once, byte by byte: one loop where numpy needs a dozen whole-array passes and their
temporaries. The loops release the GIL (the RRF reader checks a batch in one thread while the next
is parsed in others).

They run in C (``_rrf.c`` beside this file, built by ``pip install``; no start-up cost), or, where that
extension could not be built, as the numba twins below (``_numba_*``: the same loops, the same results;
compiled on a process's first call and cached on disk, about 0.5 s to load in each process, so numba
is imported only then). :data:`KERNEL` says which; ``BIOSEM_KERNEL=numba`` forces the numba kernels.
The layout is that of :mod:`biosem.levenshtein.kernels` (its C source ``_lev512.c`` beside it).
"""

from __future__ import annotations

import os
from collections.abc import Callable
from functools import cache
from typing import TYPE_CHECKING

import numpy as np

if TYPE_CHECKING:
    import pyarrow as pa

try:  # the C kernels (_rrf.c beside this file); optional at install time
    from biosem.terminology.rrf import _rrf
except ImportError:  # pragma: no cover - a build without a C compiler
    _rrf = None  # type: ignore[assignment]

KERNEL = "c" if _rrf is not None and os.environ.get("BIOSEM_KERNEL") != "numba" else "numba"


def string_buffers(values: pa.Array) -> tuple[np.ndarray, np.ndarray]:
    """(offsets rebased to 0, data bytes) of a non-null string array."""
    n = len(values)
    offsets = np.frombuffer(values.buffers()[1], dtype=np.int32)[values.offset : values.offset + n + 1]
    data_buffer = values.buffers()[2]
    data = np.frombuffer(data_buffer, dtype=np.uint8) if data_buffer is not None else np.zeros(0, np.uint8)
    return offsets - offsets[0], data[offsets[0] : offsets[-1]]


def match_prefixed_class(
    offsets: np.ndarray,
    data: np.ndarray,
    prefix: bytes,
    in_class: np.ndarray,
    min_count: int,
    max_count: int | None,
    optional: bool,
) -> np.ndarray:
    """Per value: ``prefix``, then ``min_count`` .. ``max_count`` (None: any number) bytes ``b``
    with ``in_class[b]`` (bool, 256), and nothing else? ``optional``: "" matches too. bool array of n.
    """
    limit = -1 if max_count is None else max_count
    prefix_bytes = np.frombuffer(prefix, dtype=np.uint8)
    if KERNEL == "c":
        out = np.empty(len(offsets) - 1, dtype=bool)
        _rrf.match_prefixed_class(offsets, data, prefix_bytes, in_class, min_count, limit, optional, out)
        return out
    return _numba(_numba_match_prefixed_class)(offsets, data, prefix_bytes, in_class, min_count, limit, optional)


def equals(offsets: np.ndarray, data: np.ndarray, text: bytes) -> np.ndarray:
    """Per value: is it ``text``? bool array of n."""
    text_bytes = np.frombuffer(text, dtype=np.uint8)
    if KERNEL == "c":
        out = np.empty(len(offsets) - 1, dtype=bool)
        _rrf.equals(offsets, data, text_bytes, out)
        return out
    return _numba(_numba_equals)(offsets, data, text_bytes)


def gather_strings(
    offsets: np.ndarray,
    data: np.ndarray,
    rows: np.ndarray | None,
    base: int,
    out_offsets: np.ndarray,
    out_data: np.ndarray,
) -> int:
    """Append the values at ``rows`` (int64, ascending; None: all) to a string array being built:
    their bytes to ``out_data`` (uint8, from its start), their end offsets plus ``base`` to
    ``out_offsets[1:]`` (int32; ``out_offsets[0]`` is the start, already written). Returns the
    bytes written. ValueError: an output too short, or offsets past 2**31 - 1."""
    if rows is not None and not len(rows):
        return 0
    selected = np.zeros(0, dtype=np.int64) if rows is None else rows  # empty: every value
    if KERNEL == "c":
        return _rrf.gather_strings(offsets, data, selected, base, out_offsets, out_data)
    m = len(offsets) - 1 if rows is None else len(rows)
    need = int(offsets[-1]) if rows is None else int((offsets[rows + 1] - offsets[rows]).sum())
    if len(out_offsets) < m + 1 or need > len(out_data) or base + need > np.iinfo(np.int32).max:
        raise ValueError("out_offsets or out_data too short, or offsets past 2**31 - 1")
    return _numba(_numba_gather_strings)(offsets, data, selected, base, out_offsets, out_data)


def base11_keys(
    offsets: np.ndarray, data: np.ndarray, keep: np.ndarray | None, skip: int, digits: int
) -> np.ndarray | None:
    """int64 keys ordered as the values, of the values where ``keep`` (bool, n; None: all), each
    ASCII digits after ``skip`` leading bytes; None when a kept value has more than ``digits``
    digits. A key reads the digits as a base-11 numeral of ``digits`` places (digit + 1, padded on
    the right with 0), so a prefix sorts first, as in string order ("A12" < "A120" < "A13");
    ``digits`` <= 18 (11**18 < 2**63)."""
    selected = np.zeros(0, dtype=bool) if keep is None else keep
    if KERNEL == "c":
        out = np.empty(len(offsets) - 1 if keep is None else int(np.count_nonzero(keep)), dtype=np.int64)
        return out if _rrf.base11_keys(offsets, data, selected, skip, digits, out) else None
    keys, ok = _numba(_numba_base11_keys)(offsets, data, selected, skip, digits)
    return keys if ok else None


def encode_spans(
    data: np.ndarray,
    starts: np.ndarray,
    ends: np.ndarray,
    slots: np.ndarray,
    store: np.ndarray,
    bounds: np.ndarray,
    n_codes: int,
    max_codes: int,
    dtype: type = np.uint16,
) -> tuple[np.ndarray, int]:
    """Dictionary codes of the values ``data[starts[i]:ends[i]]`` (int32, n each), continuing a
    dictionary held in the arrays given (updated in place): ``slots`` (int32, a power of two > 2 *
    ``max_codes``, -1 = free) is an open-addressing hash table of codes, probed linearly from a
    multiplicative hash of the value's bytes, 8 at a time; code ``c``'s bytes are
    ``store[bounds[c]:bounds[c + 1]]`` (``bounds``: int64, ``max_codes`` + 2); ``n_codes`` are in use.
    New values get the next codes, in order of first occurrence; ``store`` (uint8) must have room for
    all of ``data`` after ``bounds[n_codes]``.

    Returns (the codes of the n values, ``dtype`` uint16 or int32, the new ``n_codes``);
    ``n_codes`` is ``max_codes`` + 1, the codes undefined, when the values need more than
    ``max_codes`` codes (at most 65,535 for uint16)."""
    out = np.empty(len(starts), dtype=dtype)
    if KERNEL == "c":
        wide = dtype == np.int32
        return out, _rrf.encode_spans(data, starts, ends, slots, store, bounds, n_codes, max_codes, out, wide)
    return out, _numba(_numba_encode_spans)(data, starts, ends, slots, store, bounds, n_codes, max_codes, out)


def count_lines(data: np.ndarray) -> int:
    """How many newlines (``\\n``) ``data`` (uint8) holds."""
    if KERNEL == "c":
        return _rrf.count_lines(data)
    return int(np.count_nonzero(data == 10))


def split_fields(data: np.ndarray, n_fields: int, slot: np.ndarray, starts: np.ndarray, ends: np.ndarray) -> int:
    """The spans of the wanted fields of ``data`` (uint8), whole lines of an RRF file.

    A regular line is ``n_fields`` fields, each ended by ``|``, then ``\\n``: exactly ``n_fields``
    ``|``, the last one right before the newline, and no ``\\r`` (which pyarrow's CSV reader would
    take for a line end). ``slot`` (int32, ``n_fields``): the output row of each field, -1 for a field
    not wanted; ``starts`` and ``ends`` (int32, shape (outputs, rows), rows = :func:`count_lines`)
    receive, per wanted field and line, the offsets of its value in ``data``.

    Returns the number of lines, or ``-1 - i`` when line ``i`` (0-based) is not regular (another
    field count, an empty line, a ``\\r``, or a last line without newline); the spans of the lines
    before it are written. The C kernel finds ``|``, newline and ``\\r`` 64 bytes at a time (SSE2).
    """
    if KERNEL == "c":
        return _rrf.split_fields(data, n_fields, slot, starts, ends)
    return _numba(_numba_split_fields)(data, n_fields, slot, starts, ends)


def is_utf8(data: np.ndarray) -> bool:
    """Is all of ``data`` (uint8) UTF-8 (as :func:`gather_spans` checks)? Then so is every value
    of a block between its ASCII delimiters."""
    if KERNEL == "c":
        return _rrf.is_utf8(data)
    return _numba(_numba_first_invalid_utf8)(data, np.zeros(1, np.int64), np.full(1, data.size, np.int64)) < 0


def gather_spans(
    data: np.ndarray, starts: np.ndarray, ends: np.ndarray, check: bool = True
) -> tuple[np.ndarray, np.ndarray] | int:
    """The values ``data[starts[i]:ends[i]]`` (int32, n each) as the two buffers of a string column,
    (offsets: int32, n + 1, from 0; data: uint8), with ``check`` each value checked to be UTF-8
    (Unicode §3.9, Table 3-7: no overlong forms, surrogates or code points past U+10FFFF); the index
    of the first value that is not, instead, when there is one."""
    need = int((ends - starts).sum(dtype=np.int64))
    out_offsets = np.empty(len(starts) + 1, dtype=np.int32)
    out_data = np.empty(need, dtype=np.uint8)
    if KERNEL == "c":
        done = _rrf.gather_spans(data, starts, ends, check, out_offsets, out_data)
    else:
        if need > np.iinfo(np.int32).max:
            raise ValueError("out_data: past 2**31 - 1 bytes")
        bad = _numba(_numba_first_invalid_utf8)(data, starts, ends) if check else -1
        done = -1 - bad if bad >= 0 else _numba(_numba_gather_spans)(data, starts, ends, out_offsets, out_data)
    return (out_offsets, out_data) if done >= 0 else -1 - done


def first_invalid_utf8(bounds: np.ndarray, data: np.ndarray, lo: int, hi: int) -> int:
    """Of the values ``data[bounds[i]:bounds[i + 1]]`` (``bounds``: int64), the first ``i`` in
    ``lo`` .. ``hi`` - 1 that is not UTF-8 (as :func:`gather_spans` checks), or -1."""
    if KERNEL == "c":
        return _rrf.first_invalid_utf8(bounds, data, lo, hi)
    bad = _numba(_numba_first_invalid_utf8)(data, bounds[lo:hi], bounds[lo + 1 : hi + 1])
    return bad + lo if bad >= 0 else -1


# --------------------------------------------------------------------------------------------------
# The numba twins of the C kernels: plain Python here, compiled by :func:`_numba` on first use.


@cache
def _numba(kernel: Callable) -> Callable:
    """``kernel`` compiled by numba (nopython, without the GIL, cached on disk): numba is imported
    here, on the first call of a numba kernel, so a process that runs the C kernels never loads it."""
    import numba

    return numba.njit(nogil=True, cache=True, boundscheck=False)(kernel)


def _numba_match_prefixed_class(
    offsets: np.ndarray,
    data: np.ndarray,
    prefix: np.ndarray,
    in_class: np.ndarray,
    min_count: int,
    max_count: int,
    optional: bool,
) -> np.ndarray:
    """See :func:`match_prefixed_class`; ``prefix`` as uint8, ``max_count`` -1 for any."""
    n = offsets.size - 1
    p = prefix.size
    out = np.empty(n, dtype=np.bool_)
    for i in range(n):
        start, end = offsets[i], offsets[i + 1]
        count = end - start - p
        ok = count >= min_count and (max_count < 0 or count <= max_count)
        if ok:
            for k in range(p):
                if data[start + k] != prefix[k]:
                    ok = False
                    break
        if ok:
            for j in range(start + p, end):
                if not in_class[data[j]]:
                    ok = False
                    break
        out[i] = ok or (optional and end == start)
    return out


def _numba_equals(offsets: np.ndarray, data: np.ndarray, text: np.ndarray) -> np.ndarray:
    """See :func:`equals`."""
    n = offsets.size - 1
    out = np.empty(n, dtype=np.bool_)
    for i in range(n):
        start = offsets[i]
        ok = offsets[i + 1] - start == text.size
        if ok:
            for k in range(text.size):
                if data[start + k] != text[k]:
                    ok = False
                    break
        out[i] = ok
    return out


def _numba_gather_strings(
    offsets: np.ndarray, data: np.ndarray, rows: np.ndarray, base: int, out_offsets: np.ndarray, out_data: np.ndarray
) -> int:
    """See :func:`gather_strings`."""
    every = rows.size == 0
    m = offsets.size - 1 if every else rows.size
    at = 0
    for k in range(m):
        i = k if every else rows[k]
        start, end = offsets[i], offsets[i + 1]
        out_data[at : at + end - start] = data[start:end]
        at += end - start
        out_offsets[k + 1] = base + at
    return at


def _numba_base11_keys(
    offsets: np.ndarray, data: np.ndarray, keep: np.ndarray, skip: int, digits: int
) -> tuple[np.ndarray, bool]:
    """See :func:`base11_keys`: (keys, True), or (undefined, False) for its None."""
    n = offsets.size - 1
    every = keep.size == 0
    m = n if every else int(np.count_nonzero(keep))
    keys = np.empty(m, dtype=np.int64)
    r = 0
    for i in range(n):
        if not every and not keep[i]:
            continue
        start, end = offsets[i] + skip, offsets[i + 1]
        if end - start > digits:
            return keys, False
        key = 0
        for j in range(start, start + digits):
            key = key * 11 + (np.int64(data[j]) - 47 if j < end else 0)
        keys[r] = key
        r += 1
    return keys, True


_GOLDEN = np.uint64(0x9E3779B97F4A7C15)  # Fibonacci hashing: 2**64 / golden ratio


def _numba_encode_spans(
    data: np.ndarray,
    starts: np.ndarray,
    ends: np.ndarray,
    slots: np.ndarray,
    store: np.ndarray,
    bounds: np.ndarray,
    n_codes: int,
    max_codes: int,
    codes: np.ndarray,
) -> int:
    """See :func:`encode_spans`: the new ``n_codes``, the codes written to ``codes``."""
    n = starts.size
    bits = 0
    while (1 << bits) < slots.size:
        bits += 1
    shift = np.uint64(64 - bits)
    previous, previous_start, previous_end = -1, 0, 0
    for i in range(n):
        start, end = starts[i], ends[i]
        length = end - start
        # Runs of one value are common.
        if previous >= 0 and length == previous_end - previous_start:
            same = True
            for k in range(length):
                if data[start + k] != data[previous_start + k]:
                    same = False
                    break
            if same:
                codes[i] = previous
                continue
        h = np.uint64(length)
        for j in range(start, end, 8):  # the value 8 bytes at a time
            word = np.uint64(0)
            for k in range(j, min(end, j + 8)):
                word = (word << np.uint64(8)) | np.uint64(data[k])
            h = (h ^ word) * _GOLDEN
            h ^= h >> np.uint64(29)
        slot = np.int64((h * _GOLDEN) >> shift)
        while True:
            code = slots[slot]
            if code < 0:  # a new value
                if n_codes == max_codes:
                    return max_codes + 1
                at = bounds[n_codes]
                store[at : at + length] = data[start:end]
                bounds[n_codes + 1] = at + length
                slots[slot] = n_codes
                code = n_codes
                n_codes += 1
                break
            lo = bounds[code]
            found = bounds[code + 1] - lo == length
            if found:
                for k in range(length):
                    if store[lo + k] != data[start + k]:
                        found = False
                        break
            if found:
                break
            slot = (slot + 1) & (slots.size - 1)
        codes[i] = code
        previous, previous_start, previous_end = code, start, end
    return n_codes


def _numba_split_fields(data: np.ndarray, n_fields: int, slot: np.ndarray, starts: np.ndarray, ends: np.ndarray) -> int:
    """See :func:`split_fields` (a byte loop)."""
    rows = starts.shape[1] if starts.ndim == 2 else 0
    line = 0
    field = 0
    field_start = 0
    for pos in range(data.size):
        c = data[pos]
        if c == 124:  # "|"
            if field == n_fields:
                return -1 - line
            s = slot[field]
            if s >= 0:
                if line >= rows:
                    return -1 - line
                starts[s, line] = field_start
                ends[s, line] = pos
            field += 1
            field_start = pos + 1
        elif c == 10 or c == 13:
            if c == 13 or field != n_fields or field_start != pos:
                return -1 - line
            line += 1
            field = 0
            field_start = pos + 1
    if field_start != data.size or field:  # a last line without newline
        return -1 - line
    return line


def _numba_first_invalid_utf8(data: np.ndarray, starts: np.ndarray, ends: np.ndarray) -> int:
    """The first ``i`` whose value ``data[starts[i]:ends[i]]`` is not UTF-8 (see :func:`gather_spans`), or -1."""
    for v in range(starts.size):
        i, hi = starts[v], ends[v]
        while i < hi:
            c = data[i]
            if c < 0x80:
                i += 1
                continue
            low, high, more = 0x80, 0xBF, 0
            if 0xC2 <= c <= 0xDF:
                more = 1
            elif 0xE0 <= c <= 0xEF:
                more = 2
                low = 0xA0 if c == 0xE0 else low
                high = 0x9F if c == 0xED else high
            elif 0xF0 <= c <= 0xF4:
                more = 3
                low = 0x90 if c == 0xF0 else low
                high = 0x8F if c == 0xF4 else high
            if more == 0 or i + more >= hi or not low <= data[i + 1] <= high:
                return v
            for k in range(2, more + 1):
                if not 0x80 <= data[i + k] <= 0xBF:
                    return v
            i += more + 1
    return -1


def _numba_gather_spans(
    data: np.ndarray, starts: np.ndarray, ends: np.ndarray, out_offsets: np.ndarray, out_data: np.ndarray
) -> int:
    """See :func:`gather_spans` (the values already checked): the bytes written."""
    at = 0
    out_offsets[0] = 0
    for i in range(starts.size):
        start, end = starts[i], ends[i]
        out_data[at : at + end - start] = data[start:end]
        at += end - start
        out_offsets[i + 1] = at
    return at
