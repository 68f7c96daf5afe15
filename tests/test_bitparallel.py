"""Tests of the bit-parallel Levenshtein kernel (biosem.bitparallel) against rapidfuzz.

Every word width is exercised: pool strings of up to 32 characters (32-bit lanes), up to 64 (one
64-bit word), and longer ones (several words with add and shift carries), with blocks wider and
narrower than ``LANES``, empty strings, and query symbols the pool never uses.
"""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from rapidfuzz import process
from rapidfuzz.distance import Levenshtein

from biosem.bitparallel import LANES, Alphabet, codepoints, distances


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
