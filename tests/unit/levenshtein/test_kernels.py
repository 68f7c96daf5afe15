"""Tests of the bit-parallel Levenshtein kernel (biosem.levenshtein.kernels) against rapidfuzz.

Every word width is exercised: pool strings of up to 32 characters (32-bit lanes), up to 64 (one
64-bit word), and longer ones (several words with add and shift carries), with blocks wider and
narrower than ``LANES``, empty strings, and query symbols the pool never uses.
"""

from __future__ import annotations

import os
import shutil
from collections.abc import Callable

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from rapidfuzz import process
from rapidfuzz.distance import Levenshtein

from biosem.levenshtein import kernels as bitparallel
from biosem.levenshtein.kernels import (
    BAND_LIMIT,
    BUCKETS,
    KERNEL,
    LANES,
    PRUNED,
    Alphabet,
    codepoints,
    distances,
    histograms,
    screened_distances,
    screened_pairs,
)

# The compiled AVX-512 kernels where this machine runs them (the numba ones always).
KERNELS = ["numba"] + (["avx512"] if bitparallel._lev512 is not None and bitparallel._lev512.supported() else [])


def _encode(pool: list[str]) -> tuple[Alphabet, np.ndarray, np.ndarray]:
    codes, starts = codepoints(pool)
    alphabet = Alphabet(codes)
    return alphabet, alphabet.ids(codes), starts


def _kernel(queries: list[str], pool: list[str], lo: int = 0, hi: int | None = None) -> np.ndarray:
    alphabet, symbols, starts = _encode(pool)
    n = len(queries[0]) if queries else 0
    assert all(len(q) == n for q in queries)
    qsym = alphabet.ids(codepoints(queries)[0]).reshape(len(queries), n)
    return distances(qsym, symbols, starts, lo, len(pool) if hi is None else hi, alphabet.size)


def _reference(queries: list[str], pool: list[str]) -> np.ndarray:
    return process.cdist(queries, pool, scorer=Levenshtein.distance, dtype=np.int32)


def _screener(
    queries: list[str], pool: list[str]
) -> tuple[Callable[[int, int, np.ndarray], tuple[np.ndarray, int]], np.ndarray]:
    """(``screened(lo, hi, limit)``: :func:`screened_distances` of the queries, all of one length,
    against ``pool[lo:hi]`` with the pool's own histograms; rapidfuzz's distances, queries x pool)."""
    alphabet, symbols, starts = _encode(pool)
    n = len(queries[0])
    qsym = alphabet.ids(codepoints(queries)[0]).reshape(len(queries), n)
    hist = histograms(symbols, starts, alphabet)
    qhist = np.ascontiguousarray(histograms(qsym.ravel(), np.arange(len(queries) + 1) * n, alphabet).T)

    def screened(lo: int, hi: int, limit: np.ndarray) -> tuple[np.ndarray, int]:
        return screened_distances(qsym, symbols, starts, lo, hi, alphabet.size, hist, qhist, limit)

    return screened, _reference(queries, pool)


def test_known_distances() -> None:
    pool = ["kitten", "sitting", "", "flaw", "lawn", "ménière", "β-thalassemia"]
    got = _kernel(["sitting"], pool)
    assert got.tolist() == [[3, 0, 7, 7, 6, 7, 12]]
    assert _kernel(["lawn"], pool).tolist() == [[5, 6, 4, 2, 0, 7, 11]]
    # An empty query is as far from each string as its length.
    assert _kernel([""], pool).tolist() == [[len(s) for s in pool]]
    # A query symbol absent from the pool never matches.
    assert _kernel(["αβγ"], ["abc", "αbc", "β"]).tolist() == [[3, 2, 2]]


@pytest.mark.parametrize("qlen", [0, 1, 7, 32, 33, 64, 65, 150])
def test_every_word_width_matches_rapidfuzz(qlen: int) -> None:
    rng = np.random.default_rng(qlen)
    alphabet = list("abcde fgé-")
    lengths = np.concatenate([rng.integers(0, 200, size=700), [0, 1, 31, 32, 33, 63, 64, 65, 127, 128, 129]])
    pool = sorted(("".join(rng.choice(alphabet, size=int(n))) for n in lengths), key=len)
    queries = ["".join(rng.choice(alphabet, size=qlen)) for _ in range(9)]
    if qlen:
        queries.append("z" * qlen)  # shares no symbol with the pool
    want = _reference(queries, pool)
    assert (_kernel(queries, pool) == want).all()
    # A sub-range of the pool, narrower and wider than one block of lanes.
    for lo, hi in ((3, 3 + LANES // 2), (10, 10 + 2 * LANES + 5), (700, 711)):
        assert (_kernel(queries, pool, lo, hi) == want[:, lo:hi]).all()


def test_blocks_mixing_word_widths() -> None:
    """A block whose longest string needs two words while most fit in one: every lane is exact."""
    rng = np.random.default_rng(5)
    pool = ["".join(rng.choice(list("acgt"), size=int(n))) for n in rng.integers(1, 40, size=300)]
    pool += ["a" * 100, "acgt" * 40]
    rng.shuffle(pool)
    queries = ["".join(rng.choice(list("acgt"), size=45)) for _ in range(6)]
    assert (_kernel(queries, pool) == _reference(queries, pool)).all()


def test_empty_inputs() -> None:
    pool = ["abc", "abd"]
    assert _kernel([], pool).shape == (0, 2)
    assert _kernel(["abc"], pool, 1, 1).shape == (1, 0)


@settings(max_examples=200, deadline=None)
@given(
    st.lists(st.text(alphabet="abcé β", max_size=140), min_size=1, max_size=40),
    st.text(alphabet="abcxé β", max_size=140),
)
def test_matches_rapidfuzz_on_any_strings(pool: list[str], query: str) -> None:
    assert _kernel([query], pool).tolist() == _reference([query], pool).tolist()


@pytest.mark.parametrize("qlen", [5, 30, 50, 90])
def test_screened_distances_are_exact_within_the_limit(qlen: int) -> None:
    """Pairs within a query's limit get their exact distance; the others are exact too or PRUNED,
    and PRUNED only when the distance exceeds the limit (the bag distance is a lower bound)."""
    rng = np.random.default_rng(100 + qlen)
    alphabet = list("abcdefghij klmnoé")
    lengths = np.sort(np.concatenate([rng.integers(max(0, qlen - 15), qlen + 15, size=600), [0, 32, 33, 64, 65, 129]]))
    pool = ["".join(rng.choice(alphabet, size=int(n))) for n in lengths]
    # Queries near some pool strings (a few edits away) and far from the rest.
    queries = []
    for i in rng.choice(len(pool), size=12, replace=False):
        s = list((pool[i] + "abc" * qlen)[:qlen])
        for p in rng.choice(qlen, size=min(qlen, 3), replace=False):
            s[p] = str(rng.choice(alphabet))
        queries.append("".join(s))
    queries.append("z" * qlen)  # shares no symbol with the pool
    screened, want = _screener(queries, pool)
    limit = np.concatenate([np.full(len(queries) - 1, 6), [10**6]])
    got, computed = screened(0, len(pool), limit)
    pruned = got == PRUNED
    assert (got[~pruned] == want[~pruned]).all()
    assert (want[pruned] > limit[np.nonzero(pruned)[0]]).all()
    # Banded lanes (strings over 32 characters, limit <= BAND_LIMIT) are computed and may be PRUNED.
    assert computed >= int((~pruned).sum())
    assert pruned[:-1].mean() > 0.5 and not pruned[-1].any()
    # Every limit the scan can pass, from nothing to everything, on a sub-range.
    for lim in (0, 3, 12, 40):
        got, _ = screened(5, 5 + LANES + 7, np.full(len(queries), lim))
        ok = got != PRUNED
        assert (got[ok] == want[:, 5 : 5 + LANES + 7][ok]).all()
        assert (want[:, 5 : 5 + LANES + 7][~ok] > lim).all()


@pytest.mark.parametrize("qlen", [20, 33, 47, 64, 90, 140])
def test_banded_distances_are_exact_within_the_limit(qlen: int) -> None:
    """The 32-cell band (limits up to BAND_LIMIT, pool strings over 32 characters, blocks of one
    length and of many): every distance within the limit is exact and every other one PRUNED or
    exact, near strings (up to 20 edits of the query, insertions and deletions included, so paths
    leave the main diagonal) and far ones, on a two-letter alphabet (many equal-cost paths) and a
    larger one."""
    rng = np.random.default_rng(7 + qlen)
    for letters in ("ab", "abcdefgh é"):
        alphabet = list(letters)
        base = ["".join(rng.choice(alphabet, size=qlen)) for _ in range(6)]
        pool = []
        for i in range(700):
            s = list(base[i % len(base)])
            for _ in range(int(rng.integers(0, 20))):
                op, at = int(rng.integers(0, 3)), int(rng.integers(0, len(s) + 1))
                if op == 0:
                    s.insert(at, str(rng.choice(alphabet)))
                elif s and at < len(s):
                    s[at] = str(rng.choice(alphabet)) if op == 1 else ""
            pool.append("".join(s))
        pool += ["".join(rng.choice(alphabet, size=int(n))) for n in rng.integers(max(0, qlen - 20), qlen + 20, 100)]
        pool.sort(key=len)
        screened, want = _screener(base, pool)
        lengths = np.array([len(s) for s in pool])
        for lim in range(BAND_LIMIT + 2):
            limit = np.full(len(base), lim)
            limit[0] = BAND_LIMIT - lim // 2  # queries of one call with different limits
            # The whole pool (blocks of many lengths) and the strings of one length difference.
            for d in (None, lim // 3, -(lim // 2)):
                cols = np.arange(len(pool)) if d is None else np.flatnonzero(lengths == qlen + d)
                if cols.size == 0:
                    continue
                lo, hi = int(cols[0]), int(cols[-1]) + 1
                got, _ = screened(lo, hi, limit)
                sub = want[:, lo:hi]
                inside = sub <= limit[:, None]
                assert (got[inside] == sub[inside]).all()
                computed = got != PRUNED
                assert (got[computed] == sub[computed]).all()


def test_band_holds_the_paths_that_leave_the_diagonal_most() -> None:
    """Strings whose only cheap alignments run far off the main diagonal (a block moved from one end
    to the other: ``k`` deletions then ``k`` insertions, diagonal ``-k`` or ``+k``; with a length
    difference on top): the band must reach the extreme diagonals of every limit."""
    rng = np.random.default_rng(11)
    for qlen in (40, 70):
        queries = ["".join(rng.choice(list("abcdefghijklmnopqrstuvwxyz"), size=qlen)) for _ in range(4)]
        pool = []
        for q in queries:
            for k in range(1, 16):
                pool += [q[k:] + q[:k], q[-k:] + q[:-k]]  # rotations: distance 2k at most
                for extra in range(1, 4):
                    pool += [q[k:] + q[:k] + "x" * extra, q[-k:] + q[:-k][extra:]]
        pool.sort(key=len)
        screened, want = _screener(queries, pool)
        lengths = np.array([len(s) for s in pool])
        for lim in range(BAND_LIMIT + 1):
            for d in range(-3, 4):
                cols = np.flatnonzero(lengths == qlen + d)
                if cols.size == 0:
                    continue
                lo, hi = int(cols[0]), int(cols[-1]) + 1
                got, _ = screened(lo, hi, np.full(len(queries), lim))
                sub = want[:, lo:hi]
                inside = sub <= lim
                assert (got[inside] == sub[inside]).all(), (qlen, lim, d)
                computed = got != PRUNED
                assert (got[computed] == sub[computed]).all(), (qlen, lim, d)


def test_bag_distance_histograms() -> None:
    """Histogram bins: the most frequent pool symbols get a bin each; counts saturate at 255."""
    pool = ["aab", "b" * 300, "", "ca"]
    alphabet, symbols, starts = _encode(pool)
    hist = histograms(symbols, starts, alphabet)
    assert hist.shape == (BUCKETS, 4) and hist.dtype == np.uint8
    b_bin, a_bin, c_bin = (alphabet.bucket[alphabet.ids(np.array([ord(x)], np.uint32))[0]] for x in "bac")
    assert (b_bin, a_bin, c_bin) == (0, 1, 2)  # 301 b, 3 a, 1 c
    assert hist[:, 0].tolist()[:3] == [1, 2, 0] and hist[b_bin, 1] == 255 and hist[:, 2].sum() == 0


def _pairs(
    queries: list[str], pool: list[str], lo: int, hi: int, limit: np.ndarray, kernel: str
) -> tuple[set[tuple[int, int, int]], int]:
    alphabet, symbols, starts = _encode(pool)
    n = len(queries[0])
    qsym = alphabet.ids(codepoints(queries)[0]).reshape(len(queries), n)
    hist = histograms(symbols, starts, alphabet)
    qhist = np.ascontiguousarray(histograms(qsym.ravel(), np.arange(len(queries) + 1) * n, alphabet).T)
    row, col, d, computed = screened_pairs(
        qsym, symbols, starts, lo, hi, alphabet.size, hist, qhist, limit, kernel=kernel
    )
    assert row.dtype == col.dtype == d.dtype == np.int32
    return set(zip(row.tolist(), col.tolist(), d.tolist())), computed


def _within(queries: list[str], pool: list[str], lo: int, hi: int, limit: np.ndarray) -> set[tuple[int, int, int]]:
    want = _reference(queries, pool[lo:hi])
    return {(int(i), int(j), int(want[i, j])) for i, j in zip(*np.nonzero(want <= limit[:, None]))}


@pytest.mark.parametrize("kernel", KERNELS)
@pytest.mark.parametrize("qlen", [0, 1, 9, 31, 32, 33, 47, 64, 65, 100, 128, 129, 200])
def test_screened_pairs_are_exactly_those_within_the_limit(kernel: str, qlen: int) -> None:
    """Every word width of both kernels (32-bit, one and two 64-bit words, more), blocks wider and
    narrower than LANES, ranges starting mid-pool, limits from none (negative) to every pair: the rows
    are exactly the pairs within each query's limit, with rapidfuzz's distances."""
    rng = np.random.default_rng(7 + qlen)
    alphabet = list("abcdefgh ij-é")
    lengths = np.sort(
        np.concatenate(
            [
                rng.integers(max(0, qlen - 20), qlen + 20, size=700),
                [0, 1, 32, 33, 64, 65],
                rng.integers(0, 200, size=300),
            ]
        )
    )
    pool = ["".join(rng.choice(alphabet, size=int(n))) for n in lengths]
    queries = []
    for i in rng.choice(len(pool), size=10, replace=False):  # near some pool strings
        s = list((pool[i] + "abc" * (qlen + 1))[:qlen])
        for p in rng.choice(max(qlen, 1), size=min(qlen, 3), replace=False):
            s[p] = str(rng.choice(alphabet))
        queries.append("".join(s))
    if qlen:  # a symbol the pool never uses, in a query near pool strings of every word width
        queries[0] = "ζ" + queries[0][1:]
    queries.append("ζ" * qlen)  # shares no symbol with the pool
    limit = rng.integers(-1, qlen // 3 + 4, size=len(queries)).astype(np.int64)
    limit[-2] = 1 << 40  # every pair
    # The scan passes length-sorted ranges; any order must do (longest first here).
    for lo, hi, order in ((0, len(pool), 1), (0, len(pool), -1), (3, 3 + LANES + 9, 1), (100, 101, 1), (50, 50, 1)):
        got, computed = _pairs(queries, pool[::order], lo, hi, limit, kernel)
        assert got == _within(queries, pool[::order], lo, hi, limit), (lo, hi, order)
        assert computed >= len(got)
        if hi - lo > LANES:  # the screen leaves pairs out
            assert computed < len(queries) * (hi - lo)


@pytest.mark.parametrize("kernel", KERNELS)
def test_screened_pairs_on_real_terms(kernel: str) -> None:
    """SNOMED-like terms of 20-130 characters against each other at the term pairs' limits (a
    quarter of the length, a third and more of the pairs passing the bag-distance screen)."""
    words = [
        "fracture",
        "of",
        "left",
        "femur",
        "structure",
        "disorder",
        "chronic",
        "acute",
        "kidney",
        "injury",
        "the",
        "upper",
        "lobe",
        "right",
        "lung",
        "neoplasm",
        "malignant",
        "primary",
        "secondary",
        "degenerative",
        "joint",
        "disease",
        "lumbar",
        "spine",
    ]
    rng = np.random.default_rng(3)
    terms = set()
    for _ in range(150):  # a term and variants a word apart (replaced, dropped, added)
        base = list(rng.choice(words, size=int(rng.integers(3, 16))))
        terms.add(" ".join(base))
        for _ in range(5):
            v = list(base)
            at = int(rng.integers(len(v)))
            change = rng.integers(3)
            if change == 0:
                v[at] = str(rng.choice(words))
            elif change == 1 and len(v) > 1:
                del v[at]
            else:
                v.insert(at, str(rng.choice(words)))
            terms.add(" ".join(v))
    pool = sorted(terms, key=len)
    by_len: dict[int, list[str]] = {}
    for s in pool:
        by_len.setdefault(len(s), []).append(s)
    others = 0
    for qlen in (25, 40, 60, 90):
        near = min(by_len, key=lambda n: abs(n - qlen))
        queries = by_len[near][:8]
        limit = np.full(len(queries), max(3, near // 3), dtype=np.int64)
        got, _ = _pairs(queries, pool, 0, len(pool), limit, kernel)
        want = _within(queries, pool, 0, len(pool), limit)
        assert got == want
        others += len(want) - len(queries)  # beyond each query itself
    assert others > 30


def test_default_kernel_and_unknown_kernel() -> None:
    assert KERNEL == ("avx512" if "avx512" in KERNELS else "numba")
    with pytest.raises(ValueError, match="unknown kernel 'avx2'"):
        _pairs(["abc"], ["abd"], 0, 1, np.array([5]), "avx2")
    if "avx512" not in KERNELS:
        with pytest.raises(RuntimeError, match="AVX-512"):
            _pairs(["abc"], ["abd"], 0, 1, np.array([5]), "avx512")


@settings(max_examples=150, deadline=None)
@given(
    st.lists(st.text(alphabet="abcé β", max_size=140), min_size=1, max_size=40),
    st.lists(st.text(alphabet="abcxé β", min_size=0, max_size=140), min_size=1, max_size=3),
    st.integers(-1, 60),
)
def test_screened_pairs_match_rapidfuzz_on_any_strings(pool: list[str], queries: list[str], lim: int) -> None:
    queries = [q.ljust(len(queries[0]), "a")[: len(queries[0])] for q in queries]
    limit = np.full(len(queries), lim, dtype=np.int64)
    want = _within(queries, pool, 0, len(pool), limit)
    for kernel in KERNELS:
        assert _pairs(queries, pool, 0, len(pool), limit, kernel)[0] == want


def test_compiled_kernels_are_built_where_a_compiler_is() -> None:
    """``pip install`` compiles the AVX-512 extension (optional in pyproject.toml, so that an install
    without a C compiler still works on the numba kernels); where a compiler exists it must be there,
    or every search silently runs several times slower."""
    if shutil.which("cc") is None and shutil.which("gcc") is None:
        pytest.skip("no C compiler on this machine")
    assert bitparallel._lev512 is not None
    assert bitparallel._lev512.supported() == (KERNEL == "avx512") or os.environ.get("BIOSEM_KERNEL") == "numba"


@pytest.mark.skipif("avx512" not in KERNELS, reason="the AVX-512 kernels are not available here")
def test_screened_pairs_outgrow_the_first_buffer(monkeypatch: pytest.MonkeyPatch) -> None:
    """The compiled kernels write into a small buffer first (pairs within the limits are few); a call
    with more pairs than it holds is made again with room for every pair, and gives the same rows."""
    rng = np.random.default_rng(11)
    pool = ["".join(rng.choice(list("abcd"), size=int(n))) for n in np.sort(rng.integers(5, 40, size=900))]
    queries = ["".join(rng.choice(list("abcd"), size=20)) for _ in range(3)]
    limit = np.full(3, 120, dtype=np.int64)  # under the screen's ceiling (127), over every distance here
    want = _within(queries, pool, 0, len(pool), limit)
    assert len(want) == 3 * len(pool)
    monkeypatch.setattr(bitparallel, "SPARSE_ROWS", 0)  # room for 64 rows per query at first
    assert _pairs(queries, pool, 0, len(pool), limit, "avx512")[0] == want
