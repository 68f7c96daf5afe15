"""Compiled per-row passes of the RRF reader over Arrow string buffers.

Each kernel takes a string column as its two buffers, ``offsets`` (int32, n + 1, rebased to 0) and
``data`` (uint8), as :func:`biosem.terminology.rrf._string_buffers` gives them, and reads every
value once, byte by byte: one loop where numpy needs a dozen whole-array passes and their
temporaries. The loops release the GIL (the RRF reader checks a batch in one thread while the next
is parsed in others).

They run in C (``src/biosem/terminology/_rrf.c``, built by ``pip install``; no start-up cost), or,
where that extension could not be built, as numba kernels (:mod:`biosem.terminology._rrf_numba`;
the same results; about 0.5 s to load in each process). :data:`KERNEL` says which;
``BIOSEM_KERNEL=numba`` forces the numba kernels.
"""

from __future__ import annotations

import os

import numpy as np

try:  # the C kernels (src/biosem/terminology/_rrf.c); optional at install time
    from biosem.terminology import _rrf
except ImportError:  # pragma: no cover - a build without a C compiler
    _rrf = None  # type: ignore[assignment]

KERNEL = "c" if _rrf is not None and os.environ.get("BIOSEM_KERNEL") != "numba" else "numba"


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
    from biosem.terminology import _rrf_numba

    return _rrf_numba.match_prefixed_class(offsets, data, prefix_bytes, in_class, min_count, limit, optional)


def equals(offsets: np.ndarray, data: np.ndarray, text: bytes) -> np.ndarray:
    """Per value: is it ``text``? bool array of n."""
    text_bytes = np.frombuffer(text, dtype=np.uint8)
    if KERNEL == "c":
        out = np.empty(len(offsets) - 1, dtype=bool)
        _rrf.equals(offsets, data, text_bytes, out)
        return out
    from biosem.terminology import _rrf_numba

    return _rrf_numba.equals(offsets, data, text_bytes)


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
    from biosem.terminology import _rrf_numba

    m = len(offsets) - 1 if rows is None else len(rows)
    need = int(offsets[-1]) if rows is None else int((offsets[rows + 1] - offsets[rows]).sum())
    if len(out_offsets) < m + 1 or need > len(out_data) or base + need > np.iinfo(np.int32).max:
        raise ValueError("out_offsets or out_data too short, or offsets past 2**31 - 1")
    return _rrf_numba.gather_strings(offsets, data, selected, base, out_offsets, out_data)


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
    from biosem.terminology import _rrf_numba

    keys, ok = _rrf_numba.base11_keys(offsets, data, selected, skip, digits)
    return keys if ok else None


def encode_strings(
    offsets: np.ndarray,
    data: np.ndarray,
    slots: np.ndarray,
    store: np.ndarray,
    bounds: np.ndarray,
    n_codes: int,
    max_codes: int,
) -> tuple[np.ndarray, int]:
    """Dictionary codes of the values, continuing a dictionary held in the arrays given (updated in
    place): ``slots`` (int32, a power of two > 2 * ``max_codes``, -1 = free) is an open-addressing
    hash table of codes, probed linearly from a multiplicative hash of the value's bytes, 8 at a
    time; code ``c``'s bytes are ``store[bounds[c]:bounds[c + 1]]`` (``bounds``: int64,
    ``max_codes`` + 2); ``n_codes`` are in use. New values get the next codes, in order of first
    occurrence; ``store`` (uint8) must have room for all of ``data`` after ``bounds[n_codes]``.

    Returns (uint16 codes of the n values, the new ``n_codes``); ``n_codes`` is ``max_codes`` + 1,
    the codes undefined, when the values need more than ``max_codes`` codes."""
    if KERNEL == "c":
        out = np.empty(len(offsets) - 1, dtype=np.uint16)
        return out, _rrf.encode_strings(offsets, data, slots, store, bounds, n_codes, max_codes, out)
    from biosem.terminology import _rrf_numba

    return _rrf_numba.encode_strings(offsets, data, slots, store, bounds, n_codes, max_codes)
