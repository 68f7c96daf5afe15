"""The numba kernels of :mod:`biosem.terminology.rrf_kernels`, for where its C extension
(``_rrf.c``) is not built: the same loops, the same results. They release the GIL and are cached on
disk after their first compilation (a process's first call still costs about 0.5 s)."""

from __future__ import annotations

import numba
import numpy as np


@numba.njit(inline="always")
def _same(a: np.ndarray, a_start: int, b: np.ndarray, b_start: int, n: int) -> bool:
    for k in range(n):
        if a[a_start + k] != b[b_start + k]:
            return False
    return True


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
    """See :func:`biosem.terminology.rrf_kernels.match_prefixed_class`; ``prefix`` as uint8,
    ``max_count`` -1 for any."""
    n = offsets.size - 1
    p = prefix.size
    out = np.empty(n, dtype=np.bool_)
    for i in range(n):
        start, end = offsets[i], offsets[i + 1]
        count = end - start - p
        ok = count >= min_count and (max_count < 0 or count <= max_count) and _same(data, start, prefix, 0, p)
        if ok:
            for j in range(start + p, end):
                if not in_class[data[j]]:
                    ok = False
                    break
        out[i] = ok or (optional and end == start)
    return out


@numba.njit(nogil=True, cache=True, boundscheck=False)
def equals(offsets: np.ndarray, data: np.ndarray, text: np.ndarray) -> np.ndarray:
    """See :func:`biosem.terminology.rrf_kernels.equals`."""
    n = offsets.size - 1
    out = np.empty(n, dtype=np.bool_)
    for i in range(n):
        start = offsets[i]
        out[i] = offsets[i + 1] - start == text.size and _same(data, start, text, 0, text.size)
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
    """See :func:`biosem.terminology.rrf_kernels.base11_keys`: (keys, True), or (undefined, False) for its None."""
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
    """See :func:`biosem.terminology.rrf_kernels.encode_strings`."""
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
        # Runs of one value are common.
        if (
            previous >= 0
            and length == previous_end - previous_start
            and _same(data, start, data, previous_start, length)
        ):
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
            if bounds[code + 1] - lo == length and _same(store, lo, data, start, length):
                break
            slot = (slot + 1) & (slots.size - 1)
        codes[i] = code
        previous, previous_start, previous_end = code, start, end
    return codes, n_codes
