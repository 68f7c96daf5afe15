"""The numba kernels of :mod:`biosem.terminology.rrf_kernels`, for where its C extension
(``_rrf.c``) is not built: the same loops, the same results. They release the GIL and are cached on
disk after their first compilation (a process's first call still costs about 0.5 s)."""

from __future__ import annotations

import numba
import numpy as np


@numba.njit(nogil=True, cache=True, boundscheck=False)
def match_prefixed_class(
    offsets: np.ndarray,
    data: np.ndarray,
    prefix: np.ndarray,
    in_class: np.ndarray,
    min_count: int,
    max_count: int,
    optional: bool,
) -> np.ndarray:
    """Per value: ``prefix`` (uint8), then ``min_count`` .. ``max_count`` (-1: any number) bytes
    ``b`` with ``in_class[b]`` (bool, 256), and nothing else? ``optional``: "" matches too.
    bool array of n."""
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


@numba.njit(nogil=True, cache=True, boundscheck=False)
def equals(offsets: np.ndarray, data: np.ndarray, text: np.ndarray) -> np.ndarray:
    """Per value: is it ``text`` (uint8)? bool array of n."""
    n = offsets.size - 1
    out = np.empty(n, dtype=np.bool_)
    for i in range(n):
        start = offsets[i]
        same = offsets[i + 1] - start == text.size
        for k in range(text.size):
            if not same:
                break
            same = data[start + k] == text[k]
        out[i] = same
    return out


@numba.njit(nogil=True, cache=True, boundscheck=False)
def gather_strings(
    offsets: np.ndarray, data: np.ndarray, rows: np.ndarray, base: int, out_offsets: np.ndarray, out_data: np.ndarray
) -> int:
    """See :func:`biosem.terminology.rrf_kernels.gather_strings`."""
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


@numba.njit(nogil=True, cache=True, boundscheck=False)
def base11_keys(
    offsets: np.ndarray, data: np.ndarray, keep: np.ndarray, skip: int, digits: int
) -> tuple[np.ndarray, bool]:
    """(int64 keys ordered as the values, True) for the values where ``keep`` (bool, n; empty:
    all), each ASCII digits after ``skip`` leading bytes; (undefined, False) when a kept value has
    more than ``digits`` digits. A key reads the digits as a base-11 numeral of ``digits`` places
    (digit + 1, padded on the right with 0), so a prefix sorts first, as in string order
    ("A12" < "A120" < "A13"); ``digits`` <= 18 (11**18 < 2**63)."""
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


@numba.njit(nogil=True, cache=True, boundscheck=False)
def encode_strings(
    offsets: np.ndarray,
    data: np.ndarray,
    slots: np.ndarray,
    store: np.ndarray,
    bounds: np.ndarray,
    n_codes: int,
    max_codes: int,
) -> tuple[np.ndarray, int]:
    """Dictionary codes of the values, continuing a dictionary held in the arrays given (updated
    in place): ``slots`` (int32, a power of two > 2 * ``max_codes``, -1 = free) is an open-addressing
    hash table of codes, probed linearly from a multiplicative hash of the value's bytes, 8 at a
    time; code ``c``'s bytes are ``store[bounds[c]:bounds[c + 1]]``; ``n_codes`` are in use. New
    values get the next codes, in order of first occurrence; ``store`` must have room for all of
    ``data`` after ``bounds[n_codes]``.

    Returns (uint16 codes of the n values, the new ``n_codes``); ``n_codes`` is ``max_codes`` + 1,
    the codes undefined, when the values need more than ``max_codes`` codes."""
    n = offsets.size - 1
    bits = 0
    while (1 << bits) < slots.size:
        bits += 1
    shift = np.uint64(64 - bits)
    codes = np.empty(n, dtype=np.uint16)
    previous, previous_start, previous_end = -1, 0, 0
    for i in range(n):
        start, end = offsets[i], offsets[i + 1]
        length = end - start
        if previous >= 0 and length == previous_end - previous_start:  # runs of one value are common
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
                    return codes, max_codes + 1
                at = bounds[n_codes]
                store[at : at + length] = data[start:end]
                bounds[n_codes + 1] = at + length
                slots[slot] = n_codes
                code = n_codes
                n_codes += 1
                break
            lo = bounds[code]
            if bounds[code + 1] - lo == length:
                same = True
                for k in range(length):
                    if store[lo + k] != data[start + k]:
                        same = False
                        break
                if same:
                    break
            slot = (slot + 1) & (slots.size - 1)
        codes[i] = code
        previous, previous_start, previous_end = code, start, end
    return codes, n_codes
