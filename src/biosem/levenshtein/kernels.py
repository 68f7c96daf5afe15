"""Levenshtein distances of one query against many strings at once, bit-parallel across SIMD lanes.

The length-ordered scan of :mod:`biosem.levenshtein.index` compares each query with every pool string of a
length ring. This kernel is Myers' bit-vector algorithm (Myers 1999, J. ACM 46(3); global distance and
multi-word blocks after Hyyrö 2003, "A bit-vector algorithm for computing Levenshtein and Damerau edit
distances", Nord. J. Comput. 10(1)) with the *pool string* as the pattern and the query as the text:
for a block of ``LANES`` pool strings, the pattern match masks of the query's characters are built
once, and each query character then updates every lane with the same dozen word operations, a loop
that the compiler vectorises across lanes (no gathers: the lanes of one mask row are contiguous).
Pool strings of up to 32 characters use 32-bit words (every intermediate truncated to 32 bits, so that
the compiler keeps 16 lanes per register despite Numba's widening of integer arithmetic), up to 64
characters one 64-bit word, up to 128 two words with the carries in registers, longer ones
``ceil(len / 64)`` words with carries between them.

:func:`screened_distances` first screens each pair by its bag distance over character histograms
(:func:`histograms`) and computes only the pairs within a per-query limit: for each query, the lanes
of a block that pass get their match masks gathered into contiguous lanes, so the kernel stays
dense; a query that keeps most of a block (``NUMBA_DENSE_SHARE``) is compared with all of it.

A screened query's limit also bounds the diagonals an alignment within it can use: a path of at most
``L`` edits between strings whose lengths differ by ``d`` stays within ``L + 1`` diagonals around
``d / 2``. Where a band of 32 cells holds them for every string of a block over 32 characters
(:func:`band_offset`, limits up to ``BAND_LIMIT``), the block is compared by :func:`_band32`
(Hyyrö 2003's banded bit-vector; rapidfuzz uses it for small cutoffs) at one 32-bit word per lane
whatever the strings' length, exact within the limit and ``PRUNED`` beyond it: 8 lanes per AVX2
register instead of 4 for strings of 33-64 characters, and one word instead of two or more for
longer ones (``bench/bench_kernel.py``; see docs/benchmarks.md).

The final distance is read from the last column of the DP matrix: with ``VP`` / ``VN`` the vertical
+1 / -1 deltas of column ``n`` (query length) and row 0 equal to ``0..n``, ``D[m][n] = n +
popcount(VP) - popcount(VN)`` over the pattern's ``m`` bits, so no per-step score is kept.

Distances are exact (no cutoff) and equal to ``rapidfuzz.distance.Levenshtein.distance`` on the same
strings; ``tests/unit/levenshtein/test_kernels.py`` checks this on random and hand-made strings, long ones included.

The scan calls :func:`screened_pairs`, which runs the same algorithm compiled for AVX-512 where the
machine has it (``src/biosem/levenshtein/_lev512.c``, built by ``pip install``; :data:`KERNEL` says which is in
use, ``BIOSEM_KERNEL=numba`` forces the numba kernels): the bag-distance screen adds 64 lanes of
uint8 histogram differences per instruction, the passing
lanes' masks are compacted by a permute per 16 lanes instead of a scalar gather, the bit-vector state
of four registers of lanes stays in registers across the query's characters, pool strings over 32
characters go through the band wherever the limit allows one, and only the pairs within the limit
are written out. It computes the same rows as the numba kernels (``bench/bench_kernel.py`` compares
their speed; see docs/benchmarks.md). The numba kernels remain for machines
without AVX-512 (or without a C compiler at install time) and as the reference the tests compare the
compiled ones with.
"""

from __future__ import annotations

import os
from collections.abc import Sequence

import numba
import numpy as np

# Pool strings per block: each block's match masks (words x alphabet x LANES) stay in the L2 cache.
LANES = 256
_ALL = np.uint64(0xFFFFFFFFFFFFFFFF)
# Bins of the character histograms that screen pairs by bag distance (:func:`screened_distances`).
BUCKETS = 32
# A distance :func:`screened_distances` did not compute (its bag distance exceeds the limit).
PRUNED = np.int32(np.iinfo(np.int32).max)
# Share of a block's lanes past which a screened query is compared with all of them, per kernel
# (32-bit, one 64-bit word, two, more, banded), in these numba kernels. The AVX-512 kernels have their
# own, higher threshold (AVX512_DENSE_SHARE in _lev512.c): there a permute compacts 16 lanes at once,
# here each passing lane's masks are gathered one by one, about the cost of comparing the lane. Each
# value is tuned for its kernels (see docs/benchmarks.md).
NUMBA_DENSE_SHARE = np.array([0.45, 0.45, 0.45, 0.45, 0.45])


@numba.njit(inline="always")
def _popcount64(x: np.uint64) -> np.int64:
    x = x - ((x >> np.uint64(1)) & np.uint64(0x5555555555555555))
    x = (x & np.uint64(0x3333333333333333)) + ((x >> np.uint64(2)) & np.uint64(0x3333333333333333))
    x = (x + (x >> np.uint64(4))) & np.uint64(0x0F0F0F0F0F0F0F0F)
    return np.int64((x * np.uint64(0x0101010101010101)) >> np.uint64(56))


@numba.njit(nogil=True, cache=True, boundscheck=False)
def _one_word(
    qrow: np.ndarray,
    n: int,
    peq: np.ndarray,
    lens: np.ndarray,
    width: int,
    vp_row: np.ndarray,
    vn_row: np.ndarray,
    res: np.ndarray,
    one: np.unsignedinteger,
    ones: np.unsignedinteger,
) -> None:
    """Distances of one query (symbol ids ``qrow[:n]``) to ``width`` lanes of one 64-bit word each
    (pattern length <= 64) into ``res[:width]``; ``one`` and ``ones`` are 1 and all bits set (the
    word type), ``vp_row`` / ``vn_row`` scratch."""
    for lane in range(width):
        vp_row[lane] = ones
        vn_row[lane] = one ^ one
    for j in range(n):
        row = peq[0, qrow[j], :width]
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
        res[lane] = n + _popcount64(np.uint64(vp_row[lane]) & mask) - _popcount64(np.uint64(vn_row[lane]) & mask)


_U32 = np.uint32


@numba.njit(nogil=True, cache=True, boundscheck=False)
def _one_word32(
    qrow: np.ndarray,
    n: int,
    peq: np.ndarray,
    lens: np.ndarray,
    width: int,
    vp_row: np.ndarray,
    vn_row: np.ndarray,
    res: np.ndarray,
) -> None:
    """:func:`_one_word` on 32-bit words (pattern length <= 32). Numba widens integer arithmetic
    to 64 bits; truncating every intermediate back to 32 (the same values modulo 2^32) lets the
    compiler keep 16 lanes per 512-bit register instead of 8."""
    one = _U32(1)
    for lane in range(width):
        vp_row[lane] = _U32(0xFFFFFFFF)
        vn_row[lane] = _U32(0)
    for j in range(n):
        row = peq[0, qrow[j], :width]
        for lane in range(width):
            vp = vp_row[lane]
            vn = vn_row[lane]
            x = _U32(row[lane] | vn)
            d0 = _U32(_U32(_U32(_U32(x & vp) + vp) ^ vp) | x)
            hp = _U32(vn | _U32(~_U32(d0 | vp)))
            hn = _U32(vp & d0)
            x = _U32(_U32(hp << one) | one)
            vn_row[lane] = _U32(x & d0)
            vp_row[lane] = _U32(_U32(hn << one) | _U32(~_U32(x | d0)))
    for lane in range(width):
        m = lens[lane]
        mask = _ALL >> np.uint64(64 - m) if m > 0 else np.uint64(0)
        res[lane] = n + _popcount64(np.uint64(vp_row[lane]) & mask) - _popcount64(np.uint64(vn_row[lane]) & mask)


# Largest limit the banded kernel (:func:`_band32`) can serve: a path of at most ``limit`` edits
# between strings whose lengths differ by ``d`` stays within diagonals ceil((d - limit) / 2) ..
# floor((d + limit) / 2), ``limit + 1`` of them, and the band holds 31 (:func:`band_offset`).
BAND_LIMIT = 31


@numba.njit(inline="always")
def band_offset(lens: np.ndarray, width: int, n: int, limit: int) -> int:
    """The bottom diagonal of a 32-cell band that holds every path of at most ``limit`` edits from a
    query of length ``n`` to each of ``lens[:width]`` within ``limit`` of ``n`` in length (the others
    are beyond the limit): ``floor((d_max + limit) / 2)`` over their length differences ``d = m -
    n``, provided ``ceil((d_min - limit) / 2)`` is at most 30 diagonals above it (the band's top
    diagonal gets no carry from above and is never relied on, as in rapidfuzz's small-band
    Levenshtein). Returns -1 where no band holds them all, -2 where no lane is within the limit.
    """
    d_min = 1 << 30
    d_max = -(1 << 30)
    for lane in range(width):
        d = lens[lane] - n
        if -limit <= d <= limit:
            d_min = min(d_min, d)
            d_max = max(d_max, d)
    if d_max < d_min:
        return -2
    bottom = (d_max + limit) // 2
    if limit > BAND_LIMIT or bottom > 31 or -((limit - d_min) // 2) < bottom - 30 or d_min < bottom - 30:
        return -1
    return bottom


@numba.njit(inline="always")
def _band_step(x: np.uint32, vp: np.uint32, vn: np.uint32) -> tuple[np.uint32, np.uint32, np.uint32]:
    """One query character of the banded kernel (Hyyrö 2003) on one lane: the band's match mask
    ``x`` and vertical deltas ``vp`` / ``vn`` give the next ``vp`` / ``vn`` (shifted one row down
    the band) and 1 where the bottom cell's diagonal delta is 0 (0 where it is +1)."""
    d0 = _U32(_U32(_U32(_U32(_U32(x & vp) + vp) ^ vp) | x) | vn)
    hp = _U32(vn | _U32(~_U32(d0 | vp)))
    hn = _U32(d0 & vp)
    d1 = _U32(d0 >> _U32(1))
    return _U32(hn | _U32(~_U32(d1 | hp))), _U32(d1 & hp), _U32(d0 >> _U32(31))


@numba.njit(nogil=True, cache=True, boundscheck=False)
def _band32(
    qrow: np.ndarray,
    n: int,
    peq: np.ndarray,
    lens: np.ndarray,
    width: int,
    limit: int,
    bottom: int,
    vp_row: np.ndarray,
    vn_row: np.ndarray,
    zeros: np.ndarray,
    res: np.ndarray,
) -> None:
    """Distances of one query to ``width`` lanes within a diagonal band of 32 cells (Hyyrö 2003,
    § banded computation): exact where they are at most ``limit``, ``PRUNED`` elsewhere, at one
    32-bit word per lane whatever the pattern's length. ``bottom`` is :func:`band_offset` of the
    lanes (>= 0): the band then holds every path of at most ``limit`` edits.

    ``peq`` (uint32, words x symbols x lanes) holds the patterns' match masks, bit ``p & 31`` of
    word ``p >> 5`` for pattern position ``p``, zero past each pattern's end, and at least
    ``(n - 1) // 32 + 2`` words. Before query character ``j`` the band's bit ``b`` is pattern
    row ``b + bottom - 30 + j``: its bottom bit runs down diagonal ``bottom`` from ``D[bottom][0] =
    bottom`` (``zeros`` counts the steps where that cell's diagonal delta is 0, the others add 1),
    and the match masks of the band are the pattern's masks shifted by the same amount in every
    lane. At the end ``D[m][n]`` is the bottom cell's value less the vertical deltas of the rows
    below ``m``; a lane whose length differs from ``n`` by more than ``limit`` is ``PRUNED``
    outright."""
    init = _U32(_U32(0xFFFFFFFF) << _U32(31 - bottom))
    for lane in range(width):
        vp_row[lane] = init
        vn_row[lane] = _U32(0)
        zeros[lane] = _U32(0)
    for j in range(n):
        c = qrow[j]
        # The band's masks: pattern positions start .. start + 31 of every lane. Two loops, so
        # that each has the fewest shifts (the step is a dozen operations).
        start = bottom - 31 + j
        if start < 0:
            row = peq[0, c, :width]
            left = _U32(-start)
            for lane in range(width):
                x = _U32(row[lane] << left)
                vp_row[lane], vn_row[lane], zero = _band_step(x, vp_row[lane], vn_row[lane])
                zeros[lane] = _U32(zeros[lane] + zero)
        else:
            right = _U32(start & 31)
            rest = _U32(31) - right
            row = peq[start >> 5, c, :width]
            nxt = peq[(start >> 5) + 1, c, :width]
            for lane in range(width):
                x = _U32(_U32(row[lane] >> right) | _U32(_U32(nxt[lane] << rest) << _U32(1)))
                vp_row[lane], vn_row[lane], zero = _band_step(x, vp_row[lane], vn_row[lane])
                zeros[lane] = _U32(zeros[lane] + zero)
    below = np.uint64(0x7FFFFFFF)
    for lane in range(width):
        m = lens[lane]
        if abs(m - n) > limit:
            res[lane] = PRUNED
            continue
        # Rows m + 1 .. bottom + n are bits 31 - bottom + (m - n) .. 30.
        mask = below & ~((np.uint64(1) << np.uint64(31 - bottom + m - n)) - np.uint64(1))
        d = (
            bottom
            + n
            - np.int64(zeros[lane])
            - _popcount64(np.uint64(vp_row[lane]) & mask)
            + _popcount64(np.uint64(vn_row[lane]) & mask)
        )
        res[lane] = d if d <= limit else PRUNED


@numba.njit(nogil=True, cache=True, boundscheck=False)
def _two_words(
    qrow: np.ndarray,
    n: int,
    peq: np.ndarray,
    lens: np.ndarray,
    width: int,
    vp: np.ndarray,
    vn: np.ndarray,
    res: np.ndarray,
) -> None:
    """:func:`_many_words` for two words (pattern length 65-128), the carries between them held in
    registers within one lane's step (twice as fast as the general loop on the project machine)."""
    one = np.uint64(1)
    top = np.uint64(63)
    vp[:2, :width] = _ALL
    vn[:2, :width] = np.uint64(0)
    vp0 = vp[0]
    vp1 = vp[1]
    vn0 = vn[0]
    vn1 = vn[1]
    for j in range(n):
        c = qrow[j]
        row0 = peq[0, c, :width]
        row1 = peq[1, c, :width]
        for lane in range(width):
            p = vp0[lane]
            v = vn0[lane]
            x = row0[lane] | v
            t = x & p
            s = t + p
            add_c = np.uint64(s < t)
            d0 = (s ^ p) | x
            hp = v | ~(d0 | p)
            hn = p & d0
            hps = (hp << one) | one
            hns = hn << one
            hp_c = hp >> top
            hn_c = hn >> top
            vn0[lane] = hps & d0
            vp0[lane] = hns | ~(hps | d0)
            p = vp1[lane]
            v = vn1[lane]
            x = row1[lane] | v
            t = x & p
            s = t + p + add_c
            d0 = (s ^ p) | x
            hp = v | ~(d0 | p)
            hn = p & d0
            hps = (hp << one) | hp_c
            hns = (hn << one) | hn_c
            vn1[lane] = hps & d0
            vp1[lane] = hns | ~(hps | d0)
    for lane in range(width):
        m = lens[lane]
        d = np.int64(n)
        for w in range(2):
            bits = min(max(m - 64 * w, 0), 64)
            if bits > 0:
                mask = _ALL >> np.uint64(64 - bits)
                d += _popcount64(vp[w, lane] & mask) - _popcount64(vn[w, lane] & mask)
        res[lane] = d


@numba.njit(nogil=True, cache=True, boundscheck=False)
def _many_words(
    qrow: np.ndarray,
    n: int,
    peq: np.ndarray,
    lens: np.ndarray,
    width: int,
    words: int,
    vp: np.ndarray,
    vn: np.ndarray,
    carries: np.ndarray,
    res: np.ndarray,
) -> None:
    """``words`` 64-bit words per lane, least significant first, with add and shift carries; scratch
    ``vp`` / ``vn`` (>= words, >= width) and ``carries`` (3, >= width), all uint64."""
    one = np.uint64(1)
    top = np.uint64(63)
    add_c = carries[0]
    hp_c = carries[1]
    hn_c = carries[2]
    vp[:words, :width] = _ALL
    vn[:words, :width] = np.uint64(0)
    for j in range(n):
        c = qrow[j]
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
        res[lane] = d


@numba.njit(nogil=True, cache=True, boundscheck=False)
def _masks32(
    peq32: np.ndarray, symbols: np.ndarray, starts: np.ndarray, local: np.ndarray, b: int, lens: np.ndarray, width: int
) -> None:
    """The 32-bit match masks of the pool strings ``b .. b + width - 1`` (lengths ``lens``), up to
    the ``32 * peq32.shape[0]`` positions the words hold."""
    peq32[:, :, :] = np.uint32(0)
    reach = 32 * peq32.shape[0]
    for lane in range(width):
        s = starts[b + lane]
        for p in range(min(lens[lane], reach)):
            k = local[symbols[s + p]]
            if k >= 0:
                peq32[p >> 5, k, lane] |= np.uint32(1) << np.uint32(p & 31)


@numba.njit(nogil=True, cache=True, boundscheck=False)
def _masks64(
    peq64: np.ndarray,
    block_words: int,
    symbols: np.ndarray,
    starts: np.ndarray,
    local: np.ndarray,
    b: int,
    lens: np.ndarray,
    width: int,
) -> None:
    """The 64-bit match masks of the pool strings ``b .. b + width - 1`` (lengths ``lens``)."""
    peq64[:block_words, :, :] = np.uint64(0)
    for lane in range(width):
        s = starts[b + lane]
        for p in range(lens[lane]):
            k = local[symbols[s + p]]
            if k >= 0:
                peq64[p >> 6, k, lane] |= np.uint64(1) << np.uint64(p & 63)


@numba.njit(nogil=True, cache=True, boundscheck=False)
def _distances(
    query: np.ndarray,
    symbols: np.ndarray,
    starts: np.ndarray,
    lo: int,
    hi: int,
    local: np.ndarray,
    n_local: int,
    out: np.ndarray,
    hist: np.ndarray,
    query_hist: np.ndarray,
    limit: np.ndarray,
    dense_share: np.ndarray,
) -> int:
    """Fill ``out[q, c - lo]`` with the distance of query ``q`` to pool string ``c`` in ``lo:hi``;
    with a non-empty ``limit``, lanes whose bag distance exceeds ``limit[q]`` get ``PRUNED`` instead,
    and a query with ``limit[q] <= BAND_LIMIT`` has the blocks of pool strings over 32 characters
    that a band holds (:func:`band_offset`) compared by :func:`_band32` (``PRUNED`` beyond the
    limit too). ``dense_share[kernel]`` is the share of a block's lanes past which a screened query
    is compared with all of them (kernels: 32-bit, one word, two words, more, band). Returns the
    number of distances computed."""
    nq, n = query.shape
    screen = limit.size > 0
    # The banded kernel's masks (built for blocks over 32 characters when a query may use them);
    # the 64-bit masks are built for a block once a query needs them.
    band_queries = 0
    for qi in range(limit.size):
        band_queries += limit[qi] <= BAND_LIMIT
    use_band = n > 0 and band_queries > 0
    band_words = (n - 1) // 32 + 2 if use_band else 2  # the band reads words up to (n - 1) // 32 + 1
    peqb = np.zeros((band_words, n_local + 1, LANES if use_band else 1), np.uint32)
    cpeqb = np.zeros((band_words, n_local + 1, LANES if use_band else 1), np.uint32)
    zeros32 = np.empty(LANES, np.uint32)
    most = 0
    for c in range(lo, hi):
        most = max(most, starts[c + 1] - starts[c])
    words = max(1, (most + 63) // 64)
    peq64 = np.zeros((words, n_local + 1, LANES), np.uint64)
    peq32 = np.zeros((1, n_local + 1, LANES), np.uint32)
    # The screened lanes of one query, their match masks gathered into contiguous lanes.
    cpeq64 = np.zeros((words, n_local + 1, LANES), np.uint64)
    cpeq32 = np.zeros((1, n_local + 1, LANES), np.uint32)
    lens = np.empty(LANES, np.int64)
    clens = np.empty(LANES, np.int64)
    gap = np.empty(LANES, np.int64)
    l1 = np.empty(LANES, np.uint16)
    sel = np.empty(LANES, np.int64)
    res = np.empty(LANES, np.int64)
    vp32 = np.empty(LANES, np.uint32)
    vn32 = np.empty(LANES, np.uint32)
    vp64 = np.empty((max(words, 2), LANES), np.uint64)
    vn64 = np.empty((max(words, 2), LANES), np.uint64)
    carries = np.empty((3, LANES), np.uint64)
    # Each query's distinct symbols (local ids, -1 after the last): the mask rows it reads.
    distinct = np.full((nq, max(n, 1)), -1, np.int64)
    seen = np.full(n_local + 1, -1, np.int64)
    for qi in range(nq):
        u = 0
        for j in range(n):
            k = query[qi, j]
            if seen[k] != qi:
                seen[k] = qi
                distinct[qi, u] = k
                u += 1
    computed = 0
    for b in range(lo, hi, LANES):
        width = min(LANES, hi - b)
        longest = 0
        for lane in range(width):
            lens[lane] = starts[b + lane + 1] - starts[b + lane]
            longest = max(longest, lens[lane])
            gap[lane] = abs(lens[lane] - n)
        short = longest <= 32
        block_words = max(1, (longest + 63) // 64)
        if short:
            _masks32(peq32, symbols, starts, local, b, lens, width)
        elif use_band:
            _masks32(peqb, symbols, starts, local, b, lens, width)
        built64 = False
        block_hist = hist[:, b : b + width]
        for qi in range(nq):
            qrow = query[qi]
            r = width
            bottom = band_offset(lens, width, n, limit[qi]) if use_band and not short else -1
            if bottom == -2:  # every lane is beyond the limit by its length alone
                for lane in range(width):
                    out[qi, b - lo + lane] = PRUNED
                continue
            band = bottom >= 0
            kernel = 4 if band else (0 if short else min(block_words, 3))
            if not short and not band and not built64:
                _masks64(peq64, block_words, symbols, starts, local, b, lens, width)
                built64 = True
            if screen and limit[qi] < max(n, longest):
                # Bag distance (Bartolini et al. 2002): max(pos, neg) = (L1 + |len difference|) / 2
                # over the symbol-bucket histograms, a lower bound of the Levenshtein distance.
                for lane in range(width):
                    l1[lane] = 0
                for a in range(hist.shape[0]):
                    h = query_hist[qi, a]
                    row_h = block_hist[a]
                    for lane in range(width):
                        x = row_h[lane]
                        l1[lane] = np.uint16(l1[lane] + np.uint8(max(x, h) - min(x, h)))
                most_l1 = 2 * limit[qi]
                r = 0
                for lane in range(width):
                    sel[r] = lane
                    r += np.int64(l1[lane]) + gap[lane] <= most_l1
                # Gathering a lane's masks costs about as much as comparing it: past dense_share of
                # the lanes, every lane is compared.
                if r > dense_share[kernel] * width:
                    r = width
                if r < width:
                    for lane in range(width):
                        out[qi, b - lo + lane] = PRUNED
                    if r == 0:
                        continue
            computed += r
            if r == width:
                if band:
                    _band32(qrow, n, peqb, lens, width, limit[qi], bottom, vp32, vn32, zeros32, res)
                elif short:
                    _one_word32(qrow, n, peq32, lens, width, vp32, vn32, res)
                elif block_words == 1:
                    _one_word(qrow, n, peq64, lens, width, vp64[0], vn64[0], res, np.uint64(1), _ALL)
                elif block_words == 2:
                    _two_words(qrow, n, peq64, lens, width, vp64, vn64, res)
                else:
                    _many_words(qrow, n, peq64, lens, width, block_words, vp64, vn64, carries, res)
                for lane in range(width):
                    out[qi, b - lo + lane] = res[lane]
                continue
            kept_longest = 0
            for t in range(r):
                clens[t] = lens[sel[t]]
                kept_longest = max(kept_longest, clens[t])
            kept_words = max(1, (kept_longest + 63) // 64)
            for u in range(n):
                k = distinct[qi, u]
                if k < 0:
                    break
                if band:
                    for w in range(band_words):
                        src32 = peqb[w, k]
                        dst32 = cpeqb[w, k]
                        for t in range(r):
                            dst32[t] = src32[sel[t]]
                elif short:
                    src32 = peq32[0, k]
                    dst32 = cpeq32[0, k]
                    for t in range(r):
                        dst32[t] = src32[sel[t]]
                else:
                    for w in range(kept_words):
                        src64 = peq64[w, k]
                        dst64 = cpeq64[w, k]
                        for t in range(r):
                            dst64[t] = src64[sel[t]]
            if band:
                _band32(qrow, n, cpeqb, clens, r, limit[qi], bottom, vp32, vn32, zeros32, res)
            elif short:
                _one_word32(qrow, n, cpeq32, clens, r, vp32, vn32, res)
            elif kept_words == 1:
                _one_word(qrow, n, cpeq64, clens, r, vp64[0], vn64[0], res, np.uint64(1), _ALL)
            elif kept_words == 2:
                _two_words(qrow, n, cpeq64, clens, r, vp64, vn64, res)
            else:
                _many_words(qrow, n, cpeq64, clens, r, kept_words, vp64, vn64, carries, res)
            for t in range(r):
                out[qi, b - lo + sel[t]] = res[t]
    return computed


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
    rank among the pool's distinct code points, or to ``size`` (never in the pool) for others.

    ``bucket`` (int64, ``size + 1``) maps symbol ids to the ``BUCKETS`` bins of the character
    histograms (:func:`histograms`): the ``BUCKETS - 1`` most frequent pool symbols get a bin each
    (ties by code point), the rest and the absent symbol share the last."""

    def __init__(self, codes: np.ndarray) -> None:
        counts = np.bincount(codes, minlength=1)
        self.points = np.flatnonzero(counts).astype(np.uint32)
        self.size = int(self.points.size)
        top = int(self.points[-1]) + 1 if self.size else 0
        # Code point -> id table (at most 0x110000 entries, 4.4 MB): a gather instead of a search.
        self._table = np.full(top + 1, self.size, dtype=np.int32)
        self._table[self.points] = np.arange(self.size, dtype=np.int32)
        by_count = np.argsort(-counts[self.points], kind="stable")
        self.bucket = np.full(self.size + 1, BUCKETS - 1, dtype=np.int64)
        self.bucket[by_count] = np.minimum(np.arange(self.size), BUCKETS - 1)

    def ids(self, codes: np.ndarray) -> np.ndarray:
        """int32 symbol ids for uint32 code points (same shape)."""
        top = self._table.size - 1
        return self._table[np.minimum(codes, top)]


@numba.njit(nogil=True, cache=True, boundscheck=False)
def _histograms(symbols: np.ndarray, starts: np.ndarray, bucket: np.ndarray) -> np.ndarray:
    n = starts.size - 1
    out = np.zeros((BUCKETS, n), np.uint8)
    for c in range(n):
        for p in range(starts[c], starts[c + 1]):
            a = bucket[symbols[p]]
            if out[a, c] < 255:
                out[a, c] += 1
    return out


def histograms(symbols: np.ndarray, starts: np.ndarray, alphabet: Alphabet) -> np.ndarray:
    """Character histograms of the strings ``starts[c]:starts[c + 1]`` of ``symbols`` (ids of
    ``alphabet``): uint8 array (BUCKETS, n_strings) of counts per bin of ``alphabet.bucket``,
    saturated at 255 (a saturated count still bounds the bag distance from below)."""
    return _histograms(np.asarray(symbols, dtype=np.int64), np.asarray(starts, dtype=np.int64), alphabet.bucket)


def _prepare(query: np.ndarray, alphabet_size: int) -> tuple[np.ndarray, np.ndarray, int]:
    """The queries' own symbols get dense local ids (mask rows); the rest of the pool's symbols never
    match a query character and get no row. A query symbol absent from the pool maps to the last
    (all-zero) row. Returns (query local ids, pool symbol -> local id or -1, number of local ids)."""
    used = np.unique(query)
    used = used[used < alphabet_size]
    local = np.full(alphabet_size + 1, -1, dtype=np.int32)
    local[used] = np.arange(used.size, dtype=np.int32)
    local[alphabet_size] = used.size
    q_local = local[query]
    local[alphabet_size] = -1
    return q_local, local, int(used.size)


_NO_HIST = np.zeros((BUCKETS, 0), np.uint8)
_NO_QUERY_HIST = np.zeros((0, BUCKETS), np.uint8)
_NO_LIMIT = np.zeros(0, np.int64)


def distances(
    query: np.ndarray, symbols: np.ndarray, starts: np.ndarray, lo: int, hi: int, alphabet_size: int
) -> np.ndarray:
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
    out = np.empty((query.shape[0], max(0, hi - lo)), dtype=np.int32)
    if out.size:
        q_local, local, n_local = _prepare(query, alphabet_size)
        _distances(
            q_local,
            symbols,
            starts,
            lo,
            hi,
            local,
            n_local,
            out,
            _NO_HIST,
            _NO_QUERY_HIST,
            _NO_LIMIT,
            NUMBA_DENSE_SHARE,
        )
    return out


def screened_distances(
    query: np.ndarray,
    symbols: np.ndarray,
    starts: np.ndarray,
    lo: int,
    hi: int,
    alphabet_size: int,
    hist: np.ndarray,
    query_hist: np.ndarray,
    limit: np.ndarray,
) -> tuple[np.ndarray, int]:
    """:func:`distances`, computed only where they may be within each query's ``limit``.

    A pair whose bag distance (Bartolini et al. 2002, "String matching with metric trees using an
    approximate distance", SPIRE; ``max`` of the characters each string has in excess of the
    other, here over histogram bins) exceeds ``limit[q]`` is at a larger Levenshtein distance and
    gets ``PRUNED`` instead; the others are exact, except that a pair compared in a band (limits up
    to ``BAND_LIMIT``, see the module docstring) is ``PRUNED`` too where its distance exceeds the
    limit. The bag distance is one pass over the histogram bins, much cheaper than a distance (how
    many pairs pass at the term pairs' bounds: docs/benchmarks.md).

    Args:
        query, symbols, starts, lo, hi, alphabet_size: as for :func:`distances`.
        hist: uint8 array (BUCKETS, n_pool), the pool strings' :func:`histograms`.
        query_hist: uint8 array (nq, BUCKETS), the queries' (same bins).
        limit: int64 array (nq,), the largest distance wanted per query (characters).

    Returns:
        (int32 array (nq, hi - lo): the distance where it is at most ``limit[q]``, the distance or
        ``PRUNED`` elsewhere; number of distances computed).
    """
    query = np.ascontiguousarray(query, dtype=np.int32)
    out = np.empty((query.shape[0], max(0, hi - lo)), dtype=np.int32)
    if not out.size:
        return out, 0
    if hist.shape[0] != BUCKETS or query_hist.shape != (query.shape[0], BUCKETS) or limit.shape != (query.shape[0],):
        raise ValueError(
            f"histograms {hist.shape} / {query_hist.shape} or limit {limit.shape} do not match "
            f"{query.shape[0]} queries and {BUCKETS} bins"
        )
    q_local, local, n_local = _prepare(query, alphabet_size)
    computed = _distances(
        q_local,
        symbols,
        starts,
        lo,
        hi,
        local,
        n_local,
        out,
        np.ascontiguousarray(hist),
        np.ascontiguousarray(query_hist, dtype=np.uint8),
        np.ascontiguousarray(limit, dtype=np.int64),
        NUMBA_DENSE_SHARE,
    )
    return out, int(computed)


try:  # the compiled AVX-512 kernels (src/biosem/levenshtein/_lev512.c); optional at install time
    from biosem.levenshtein import _lev512
except ImportError:  # pragma: no cover - a build without a C compiler
    _lev512 = None  # type: ignore[assignment]
# Rows :func:`screened_pairs` makes room for at first (plus 64 per query).
SPARSE_ROWS = 1 << 16
# Which implementation :func:`screened_pairs` uses: "avx512" where the extension is built and the CPU
# has AVX-512 (F, BW, VL, DQ, VPOPCNTDQ), else "numba". BIOSEM_KERNEL=numba forces the numba kernels.
KERNEL = (
    "avx512" if _lev512 is not None and _lev512.supported() and os.environ.get("BIOSEM_KERNEL") != "numba" else "numba"
)


def screened_pairs(
    query: np.ndarray,
    symbols: np.ndarray,
    starts: np.ndarray,
    lo: int,
    hi: int,
    alphabet_size: int,
    hist: np.ndarray,
    query_hist: np.ndarray,
    limit: np.ndarray,
    kernel: str | None = None,
) -> tuple[np.ndarray, np.ndarray, np.ndarray, int]:
    """The pairs of :func:`screened_distances` within each query's limit, as sparse rows.

    Same arguments as :func:`screened_distances` (``limit[q]`` may be huge: every pair is then
    computed and returned). Every pair (q, c) whose Levenshtein distance is at most ``limit[q]`` is
    returned with its exact distance; none beyond the limit is.

    ``kernel``: "avx512" (the compiled kernels, :data:`KERNEL` where available) or "numba"
    (:func:`screened_distances`); None: :data:`KERNEL`. Both give the same rows; the AVX-512 one
    screens 64 pairs per instruction, compacts the passing lanes by permutes and writes only the rows
    within the limit (module docstring).

    Returns:
        (query row int32, column ``c - lo`` int32, distance int32, number of distances computed);
        rows grouped by blocks of ``LANES`` columns, then by query.

    Raises:
        ValueError: shapes disagree, or an unknown kernel; RuntimeError: "avx512" asked for where it is
            not available.
    """
    kernel = kernel or KERNEL
    if kernel not in ("avx512", "numba"):
        raise ValueError(f"unknown kernel {kernel!r}: expected 'avx512' or 'numba'")
    query = np.ascontiguousarray(query, dtype=np.int32)
    nq = query.shape[0]
    width = max(0, hi - lo)
    limit = np.ascontiguousarray(limit, dtype=np.int64)
    if hist.shape[0] != BUCKETS or query_hist.shape != (nq, BUCKETS) or limit.shape != (nq,):
        raise ValueError(
            f"histograms {hist.shape} / {query_hist.shape} or limit {limit.shape} do not match "
            f"{nq} queries and {BUCKETS} bins"
        )
    if nq == 0 or width == 0:
        empty = np.zeros(0, np.int32)
        return empty, empty, empty, 0
    if kernel == "numba":
        out, computed = screened_distances(
            query,
            symbols,
            starts,
            lo,
            hi,
            alphabet_size,
            hist,
            query_hist,
            np.minimum(limit, np.int64(np.iinfo(np.int32).max)),
        )
        row, col = np.nonzero(out <= limit[:, None])
        return row.astype(np.int32), col.astype(np.int32), out[row, col], computed
    if _lev512 is None or not _lev512.supported():
        raise RuntimeError("the AVX-512 kernels are not available on this machine (kernel='numba' is)")
    q_local, local, n_local = _prepare(query, alphabet_size)
    args = (
        np.ascontiguousarray(q_local, dtype=np.int32),
        nq,
        query.shape[1],
        np.ascontiguousarray(symbols, dtype=np.int32),
        np.ascontiguousarray(starts, dtype=np.int64),
        lo,
        hi,
        np.ascontiguousarray(local, dtype=np.int32),
        n_local,
        np.ascontiguousarray(hist, dtype=np.uint8),
        hist.shape[1],
        np.ascontiguousarray(query_hist, dtype=np.uint8),
        limit,
    )
    # Pairs within the limits are few (a few per query and ring at the term pairs' bounds): a small
    # buffer first, every pair's room only if it fills up (or a limit takes every pair).
    every = nq * width + 64
    cap = every if (limit >= 127).any() else min(every, SPARSE_ROWS + 64 * nq)
    while True:
        out_q, out_c, out_d = (np.empty(cap, np.int32) for _ in range(3))
        rows, computed = _lev512.screened_pairs(*args, out_q, out_c, out_d)
        if rows >= 0:
            return out_q[:rows], out_c[:rows], out_d[:rows], int(computed)
        if cap == every:  # room for every pair cannot fill up
            raise AssertionError("the AVX-512 kernels wrote more rows than there are pairs")
        cap = every
