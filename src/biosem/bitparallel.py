"""Levenshtein distances of one query against many strings at once, bit-parallel across SIMD lanes.

The length-ordered scan of :mod:`biosem.nearest` compares each query with every pool string of a
length ring. This kernel is Myers' bit-vector algorithm (Myers 1999, J. ACM 46(3); global distance and
multi-word blocks after Hyyrö 2003, "A bit-vector algorithm for computing Levenshtein and Damerau edit
distances", Nord. J. Comput. 10(1)) with the *pool string* as the pattern and the query as the text:
for a block of ``LANES`` pool strings, the pattern match masks of the query's characters are built
once, and each query character then updates every lane with the same dozen word operations, a loop
that the compiler vectorises across lanes (no gathers: the lanes of one mask row are contiguous).
Pool strings of up to 32 characters use 32-bit words (about 5 % faster than 64-bit ones on the project
machine, not the 2x their lane count suggests), up to 64 characters one 64-bit word, longer ones
``ceil(len / 64)`` words with carries between them.

The final distance is read from the last column of the DP matrix: with ``VP`` / ``VN`` the vertical
+1 / -1 deltas of column ``n`` (query length) and row 0 equal to ``0..n``, ``D[m][n] = n +
popcount(VP) - popcount(VN)`` over the pattern's ``m`` bits, so no per-step score is kept.

Distances are exact (no cutoff) and equal to ``rapidfuzz.distance.Levenshtein.distance`` on the same
strings; ``tests/test_bitparallel.py`` checks this on random and hand-made strings, long ones included.
"""

from __future__ import annotations

from collections.abc import Sequence

import numba
import numpy as np

# Pool strings per block: each block's match masks (words x alphabet x LANES) stay in the L2 cache.
LANES = 256
_ALL = np.uint64(0xFFFFFFFFFFFFFFFF)


@numba.njit(inline="always")
def _popcount64(x: np.uint64) -> np.int64:
    x = x - ((x >> np.uint64(1)) & np.uint64(0x5555555555555555))
    x = (x & np.uint64(0x3333333333333333)) + ((x >> np.uint64(2)) & np.uint64(0x3333333333333333))
    x = (x + (x >> np.uint64(4))) & np.uint64(0x0F0F0F0F0F0F0F0F)
    return np.int64((x * np.uint64(0x0101010101010101)) >> np.uint64(56))


@numba.njit(nogil=True, cache=True, boundscheck=False)
def _one_word(query: np.ndarray, nq: int, n: int, peq: np.ndarray, lens: np.ndarray, width: int,
              out: np.ndarray, col0: int, one: np.unsignedinteger, ones: np.unsignedinteger) -> None:
    """One word per lane (pattern length <= the word's bits); the word type is that of ``peq``,
    ``one`` and ``ones`` (1 and all bits set: np.uint32 or np.uint64), compiled once for each."""
    vp_row = np.empty(width, peq.dtype)
    vn_row = np.empty(width, peq.dtype)
    for qi in range(nq):
        for lane in range(width):
            vp_row[lane] = ones
            vn_row[lane] = one ^ one
        for j in range(n):
            row = peq[0, query[qi, j], :width]
            for lane in range(width):
                vp = vp_row[lane]
                vn = vn_row[lane]
                x = row[lane] | vn
                d0 = (((x & vp) + vp) ^ vp) | x
                hp = vn | ~(d0 | vp)
                hn = vp & d0
                x = (hp << one) | one
                vn_row[lane] = x & d0
                vp_row[lane] = (hn << one) | ~(x | d0)
        for lane in range(width):
            m = lens[lane]
            mask = _ALL >> np.uint64(64 - m) if m > 0 else np.uint64(0)
            out[qi, col0 + lane] = n + _popcount64(np.uint64(vp_row[lane]) & mask) - _popcount64(
                np.uint64(vn_row[lane]) & mask
            )


@numba.njit(nogil=True, cache=True, boundscheck=False)
def _many_words(query: np.ndarray, nq: int, n: int, peq: np.ndarray, lens: np.ndarray, width: int,
                words: int, out: np.ndarray, col0: int) -> None:
    """``words`` 64-bit words per lane, least significant first, with add and shift carries."""
    one = np.uint64(1)
    top = np.uint64(63)
    vp = np.empty((words, width), np.uint64)
    vn = np.empty((words, width), np.uint64)
    add_c = np.empty(width, np.uint64)
    hp_c = np.empty(width, np.uint64)
    hn_c = np.empty(width, np.uint64)
    for qi in range(nq):
        vp[:, :] = _ALL
        vn[:, :] = np.uint64(0)
        for j in range(n):
            c = query[qi, j]
            for lane in range(width):
                add_c[lane] = np.uint64(0)
                hp_c[lane] = one  # row 0 of the DP matrix grows by 1 per query character
                hn_c[lane] = np.uint64(0)
            for w in range(words):
                row = peq[w, c, :width]
                vp_w = vp[w]
                vn_w = vn[w]
                for lane in range(width):
                    p = vp_w[lane]
                    v = vn_w[lane]
                    x = row[lane] | v
                    t = x & p
                    s1 = t + p
                    s = s1 + add_c[lane]
                    add_c[lane] = np.uint64(s1 < t) | np.uint64(s < s1)
                    d0 = (s ^ p) | x
                    hp = v | ~(d0 | p)
                    hn = p & d0
                    hps = (hp << one) | hp_c[lane]
                    hns = (hn << one) | hn_c[lane]
                    hp_c[lane] = hp >> top
                    hn_c[lane] = hn >> top
                    vn_w[lane] = hps & d0
                    vp_w[lane] = hns | ~(hps | d0)
        for lane in range(width):
            m = lens[lane]
            d = np.int64(n)
            for w in range(words):
                bits = min(max(m - 64 * w, 0), 64)
                if bits > 0:
                    mask = _ALL >> np.uint64(64 - bits)
                    d += _popcount64(vp[w, lane] & mask) - _popcount64(vn[w, lane] & mask)
            out[qi, col0 + lane] = d


@numba.njit(nogil=True, cache=True, boundscheck=False)
def _distances(query: np.ndarray, symbols: np.ndarray, starts: np.ndarray, lo: int, hi: int,
               local: np.ndarray, n_local: int, out: np.ndarray) -> None:
    """Fill ``out[q, c - lo]`` with the distance of query ``q`` to pool string ``c`` in ``lo:hi``."""
    nq, n = query.shape
    most = 0
    for c in range(lo, hi):
        most = max(most, starts[c + 1] - starts[c])
    words = max(1, (most + 63) // 64)
    peq64 = np.zeros((words, n_local + 1, LANES), np.uint64)
    peq32 = np.zeros((1, n_local + 1, LANES), np.uint32)
    lens = np.empty(LANES, np.int64)
    for b in range(lo, hi, LANES):
        width = min(LANES, hi - b)
        longest = 0
        for lane in range(width):
            lens[lane] = starts[b + lane + 1] - starts[b + lane]
            longest = max(longest, lens[lane])
        block_words = max(1, (longest + 63) // 64)
        if longest <= 32:
            peq32[:, :, :] = np.uint32(0)
            for lane in range(width):
                s = starts[b + lane]
                for p in range(lens[lane]):
                    k = local[symbols[s + p]]
                    if k >= 0:
                        peq32[0, k, lane] |= np.uint32(1) << np.uint32(p)
            _one_word(query, nq, n, peq32, lens, width, out, b - lo, np.uint32(1), np.uint32(0xFFFFFFFF))
            continue
        peq64[:block_words, :, :] = np.uint64(0)
        for lane in range(width):
            s = starts[b + lane]
            for p in range(lens[lane]):
                k = local[symbols[s + p]]
                if k >= 0:
                    peq64[p >> 6, k, lane] |= np.uint64(1) << np.uint64(p & 63)
        if block_words == 1:
            _one_word(query, nq, n, peq64, lens, width, out, b - lo, np.uint64(1), _ALL)
        else:
            _many_words(query, nq, n, peq64, lens, width, block_words, out, b - lo)


def codepoints(strings: Sequence[str]) -> tuple[np.ndarray, np.ndarray]:
    """The strings concatenated as UTF-32 code points: (uint32 codes, int64 start offsets of shape
    (len(strings) + 1,), the last one the end), the ``symbols`` / ``starts`` layout of
    :func:`distances` once mapped by :meth:`Alphabet.ids`."""
    lengths = np.fromiter((len(s) for s in strings), dtype=np.int64, count=len(strings))
    starts = np.zeros(len(strings) + 1, dtype=np.int64)
    np.cumsum(lengths, out=starts[1:])
    codes = np.frombuffer("".join(strings).encode("utf-32-le"), dtype=np.uint32)
    return codes, starts


class Alphabet:
    """Dense symbol ids for the code points of a pool: ``ids(codes)`` maps each code point to its
    rank among the pool's distinct code points, or to ``size`` (never in the pool) for others."""

    def __init__(self, codes: np.ndarray) -> None:
        self.points = np.flatnonzero(np.bincount(codes, minlength=1)).astype(np.uint32)
        self.size = int(self.points.size)
        top = int(self.points[-1]) + 1 if self.size else 0
        # Code point -> id table (at most 0x110000 entries, 4.4 MB): a gather instead of a search.
        self._table = np.full(top + 1, self.size, dtype=np.int32)
        self._table[self.points] = np.arange(self.size, dtype=np.int32)

    def ids(self, codes: np.ndarray) -> np.ndarray:
        """int32 symbol ids for uint32 code points (same shape)."""
        top = self._table.size - 1
        return self._table[np.minimum(codes, top)]


def distances(query: np.ndarray, symbols: np.ndarray, starts: np.ndarray, lo: int, hi: int,
              alphabet_size: int) -> np.ndarray:
    """Levenshtein distance of each query to each pool string ``lo .. hi - 1`` (exact, unit costs).

    Args:
        query: int32 array (nq, n): symbol ids of ``nq`` queries of equal length ``n`` (ids from
            :meth:`Alphabet.ids`; ``alphabet_size`` marks a symbol absent from the pool).
        symbols: int32 array of the pool's symbol ids, strings concatenated.
        starts: int64 array (n_pool + 1,): offset of each pool string in ``symbols``, then the end.
        lo, hi: the pool strings compared (a range of positions in ``starts``).
        alphabet_size: number of distinct pool symbols (ids ``0 .. alphabet_size - 1``).

    Returns:
        int32 array (nq, hi - lo) of edit distances (characters).
    """
    query = np.ascontiguousarray(query, dtype=np.int32)
    nq = query.shape[0]
    out = np.empty((nq, max(0, hi - lo)), dtype=np.int32)
    if nq == 0 or hi <= lo:
        return out
    # The queries' own symbols get dense local ids (mask rows); the rest of the pool's symbols never
    # match a query character and get no row. A query symbol absent from the pool maps to the last
    # (all-zero) row.
    used = np.unique(query)
    used = used[used < alphabet_size]
    local = np.full(alphabet_size + 1, -1, dtype=np.int32)
    local[used] = np.arange(used.size, dtype=np.int32)
    local[alphabet_size] = used.size
    q_local = local[query]
    local[alphabet_size] = -1
    _distances(q_local, symbols, starts, lo, hi, local, int(used.size), out)
    return out
