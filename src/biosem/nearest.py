"""Exact k-nearest neighbours under Levenshtein distance, with validity constraints.

The term-pair "Levenshtein negatives" (Schulz & Juric, AAAI 2020; DESIGN.md § termpairs) need, for
every first term of a positive pair, the k nearest terms of a pool that are *valid* partners (not in
the similarity component of the query). The reference code compares every query with every pool term
in Python; at SNOMED CT scale that is ~10^11 distance computations.

This module finds the same answer exactly with two complete filters and rapidfuzz verification:

* **Pigeonhole q-gram filter** (phase 1). If ``lev(q, s) <= r``, split ``q`` into ``r + m`` disjoint
  segments: ``r`` edits touch at most ``r`` of them, so ``m`` segments of ``q`` occur unchanged in
  ``s`` and so does every q-gram inside them. For each segment we take its rarest q-gram in the pool's
  inverted index; the strings in at least ``m`` of those posting lists are a superset of the strings
  within distance ``r``. A query is resolved at the first radius where it has ``need`` valid strings.
* **Length-ordered scan** (phase 2, ``lev(q, s) >= | |q| - |s| |``). Queries of one length meet the
  pool strings of the same length, then one longer or shorter, and so on, in batched SIMD ``cdist``
  calls; each keeps its ``need``-th valid distance so far and leaves once the length difference
  exceeds it.

Which phase pays depends on rapidfuzz: queries of up to 64 characters are packed into SIMD words, so
a scanned pair costs about a quarter of a filter candidate verified on its own; on SNOMED-like pools
(nearest valid term ~8 edits away) they go straight to the scan. Longer queries are compared pair by
pair with a banded algorithm whose cost grows with the cutoff: they take the filter up to r = 8 and
scan under a cutoff ceiling that doubles for the rows it leaves short. Both filters are complete, so
the returned top-``need`` by (distance, seeded tie key) is exact. Ties at equal distance are ordered
by a per-query key drawn from the caller's ``numpy.random.Generator`` mixed with the candidate index
(splitmix64), so the order does not depend on batch, thread or core count.

All distances are Levenshtein (unit costs) on the strings as given: callers pass lowercased strings.
"""

from __future__ import annotations

import functools
import logging
import os
import threading
from collections.abc import Callable, Iterable, Iterator, Sequence
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from typing import TypeVar

import numpy as np
from rapidfuzz import process
from rapidfuzz.distance import Levenshtein

log = logging.getLogger(__name__)
_T = TypeVar("_T")

MIN_GRAM = 3
MAX_GRAM = 5
# Multi-match pigeonhole: up to MAX_MATCHES segments must match while segments keep STRONG_GRAM chars.
STRONG_GRAM = 4
MAX_MATCHES = 3
_HASH_BASE = np.uint64(1_000_003)
# Phase 1 radii (pigeonhole filter) by query length; larger distances go to the length-ordered scan.
# Queries of up to SIMD_MAX_LEN characters skip it: a SIMD scan pair costs a quarter of a verified
# candidate, and on SNOMED-like pools few of them have k valid neighbours within 4 edits. Longer
# queries are verified pair by pair either way, so the filter's fewer candidates win up to r = 8; at
# r = 16 a segment is a 3-gram held by much of the pool, and the filter cost more than the scan it
# saved (long first terms of FSN-SYN / SYN-SYN hard at SNOMED scale: 56 / 58 ms each with r = 16 and a
# first ceiling of 32, 30 / 32 ms with r <= 8 and a ceiling of 64).
FILTER_RADII: tuple[int, ...] = ()
LONG_FILTER_RADII: tuple[int, ...] = (4, 8)
# Distance-matrix cells per cdist call in the scan (int32: 4 bytes each).
SCAN_CELLS = 8_000_000
# rapidfuzz packs queries of up to 64 characters into SIMD words (cost independent of score_cutoff);
# longer queries are compared pair by pair with a banded algorithm whose cost grows with the cutoff.
SIMD_MAX_LEN = 64
# First distance ceiling for those long queries in the scan (doubled for the rows it leaves short);
# they reach the scan without k valid strings within the last LONG_FILTER_RADII radius. A ceiling only
# binds the first ring of a row (later blocks run at the row's own bound); one that is too low makes
# rows short and scans them again.
LONG_CEILING = 64
# Most posting-list entries the pigeonhole filter expands at once (int64 arrays of this length).
FILTER_POSTINGS = 16_000_000
# Fewest pool strings per scan ring (lengths are merged until a ring holds this many).
RING_MIN = 2048


def splitmix64(x: np.ndarray) -> np.ndarray:
    """Vectorised splitmix64 finaliser on uint64 (wrapping arithmetic); a fast, well-mixed hash."""
    z = x.astype(np.uint64, copy=True)
    with np.errstate(over="ignore"):
        z += np.uint64(0x9E3779B97F4A7C15)
        z = (z ^ (z >> np.uint64(30))) * np.uint64(0xBF58476D1CE4E5B9)
        z = (z ^ (z >> np.uint64(27))) * np.uint64(0x94D049BB133111EB)
        z = z ^ (z >> np.uint64(31))
    return z


def _fold32(h: np.ndarray) -> np.ndarray:
    """Gram hash folded to 32 bits (top bits of splitmix64), as uint64 values below 2**32."""
    return splitmix64(h) >> np.uint64(32)


def _codepoints(strings: Sequence[str]) -> tuple[np.ndarray, np.ndarray]:
    """Concatenate strings as UTF-32 code points; return (codes, start offsets incl. the end)."""
    lengths = np.fromiter((len(s) for s in strings), dtype=np.int64, count=len(strings))
    starts = np.zeros(len(strings) + 1, dtype=np.int64)
    np.cumsum(lengths, out=starts[1:])
    codes = np.frombuffer("".join(strings).encode("utf-32-le"), dtype=np.uint32)
    return codes, starts


def _gram_hashes(codes: np.ndarray, g: int) -> np.ndarray:
    """Polynomial hash of every window of ``g`` code points (length ``len(codes) - g + 1``)."""
    n = codes.size - g + 1
    if n <= 0:
        return np.zeros(0, dtype=np.uint64)
    c = codes.astype(np.uint64)
    h = c[:n].copy()
    with np.errstate(over="ignore"):
        for i in range(1, g):
            h *= _HASH_BASE
            h += c[i : i + n]
    return h


@dataclass
class _GramIndex:
    """Inverted index: q-gram hash -> sorted ids of pool strings containing it (CSR layout)."""

    hashes: np.ndarray  # distinct folded (32-bit) gram hashes, sorted
    offsets: np.ndarray  # len(hashes) + 1
    postings: np.ndarray  # pool ids (int32), grouped by hash, each group sorted

    @classmethod
    def build(cls, codes: np.ndarray, starts: np.ndarray, g: int) -> _GramIndex:
        h = _gram_hashes(codes, g)
        # Windows lying inside one string: string k owns positions starts[k] .. starts[k+1] - g.
        count = np.maximum(np.diff(starts) - g + 1, 0)
        total = int(count.sum())
        sid = np.repeat(np.arange(count.size, dtype=np.uint64), count)
        first_of = np.repeat(starts[:-1] - (np.cumsum(count) - count), count)
        h = h[first_of + np.arange(total)] if total else np.zeros(0, dtype=np.uint64)
        # One packed key per (gram, string): 32-bit folded gram hash above the string id. A plain
        # (SIMD) sort then groups postings by gram, each sorted by string id; equal keys are one
        # string holding a gram twice. Folding can merge two grams' lists: a superset, still exact.
        key = (_fold32(h) << np.uint64(32)) | sid
        key.sort()
        keep = np.ones(key.size, dtype=bool)
        keep[1:] = key[1:] != key[:-1]
        key = key[keep]
        gram = key >> np.uint64(32)
        new_gram = np.ones(key.size, dtype=bool)
        new_gram[1:] = gram[1:] != gram[:-1]
        first = np.flatnonzero(new_gram)
        offsets = np.append(first, key.size).astype(np.int64)
        postings = (key & np.uint64(0xFFFFFFFF)).astype(np.int32)
        return cls(gram[first], offsets, postings)

    def lookup(self, h: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """Return (posting start, document frequency) for each gram hash; df 0 where absent."""
        h = _fold32(h)
        idx = np.searchsorted(self.hashes, h)
        idx_c = np.minimum(idx, max(self.hashes.size - 1, 0))
        present = (self.hashes.size > 0) & (self.hashes[idx_c] == h) if self.hashes.size else np.zeros(h.shape, bool)
        start = np.where(present, self.offsets[idx_c], 0)
        df = np.where(present, self.offsets[np.minimum(idx_c + 1, self.offsets.size - 1)] - self.offsets[idx_c], 0)
        return start, df


@dataclass
class NearestResult:
    """Valid neighbours within each query's resolving radius, best first.

    Arrays of equal length, grouped by ``query`` (ascending) and ordered within a query by
    (``distance``, seeded tie key): ``query`` (index into the query list), ``candidate`` (index into
    the pool), ``distance`` (Levenshtein, characters). A query with fewer rows than requested had no
    more valid candidates anywhere in the pool.
    """

    query: np.ndarray
    candidate: np.ndarray
    distance: np.ndarray
    pairs_verified: int


class LevenshteinIndex:
    """Exact nearest-neighbour search over a fixed pool of strings (see module docstring).

    Args:
        pool: the candidate strings (already normalised, e.g. lowercased; duplicates allowed but
            wasteful).
        workers: threads (``-1`` = all cores). Query-length groups are searched concurrently, each
            with single-threaded rapidfuzz calls (they release the GIL); results are assembled in
            length order, so they do not depend on the thread count.
    """

    def __init__(self, pool: Sequence[str], workers: int = 1) -> None:
        self.pool = list(pool)
        self._pool_array = np.empty(len(self.pool), dtype=object)
        self._pool_array[:] = self.pool
        self.workers = workers
        self._threads = max(1, os.cpu_count() or 1) if workers < 0 else max(1, workers)
        self._lock = threading.Lock()
        self._index_lock = threading.Lock()
        self.lengths = np.fromiter((len(s) for s in self.pool), dtype=np.int64, count=len(self.pool))
        self._codes, self._starts = _codepoints(self.pool)
        self._indexes: dict[int, _GramIndex] = {}
        order = np.argsort(self.lengths, kind="stable")
        self._by_length = order
        self._sorted_lengths = self.lengths[order]
        self._pool_by_length = self._pool_array[order]
        self._rank = np.empty(len(self.pool), dtype=np.int64)
        self._rank[order] = np.arange(len(self.pool))
        self.pairs_verified = 0

    def _count(self, pairs: int) -> None:
        with self._lock:
            self.pairs_verified += int(pairs)

    def _map(self, fn: Callable[[int], _T], keys: Iterable[int], cost: Callable[[int], float]) -> dict[int, _T]:
        """``{key: fn(key)}``, computed on ``self._threads`` threads, costliest keys first."""
        keys = list(keys)
        if self._threads == 1 or len(keys) < 2:
            return {key: fn(key) for key in keys}
        order = sorted(keys, key=lambda key: -cost(key))
        with ThreadPoolExecutor(max_workers=self._threads) as ex:
            return dict(zip(order, ex.map(fn, order)))

    @functools.cached_property
    def _positions(self) -> dict[str, list[int]]:
        """Pool string -> its indices in the pool (built once, on first use)."""
        where: dict[str, list[int]] = {}
        for c, text in enumerate(self.pool):
            where.setdefault(text, []).append(c)
        return where

    def _index(self, g: int) -> _GramIndex:
        with self._index_lock:
            if g not in self._indexes:
                self._indexes[g] = _GramIndex.build(self._codes, self._starts, g)
            return self._indexes[g]

    # -- candidate generation -------------------------------------------------------------------
    def _within_brute(
        self, queries: list[str], qlen: int, r: int, cutoff: bool = True
    ) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """(query, pool id, distance) for same-length queries against pool strings of length
        within ``r``, by blocked cdist; only distances <= r when ``cutoff``, else all of them."""
        lo = np.searchsorted(self._sorted_lengths, qlen - r, side="left")
        hi = np.searchsorted(self._sorted_lengths, qlen + r, side="right")
        ids = self._by_length[lo:hi]
        out_q, out_c, out_d = [], [], []
        if ids.size == 0:
            return (np.zeros(0, np.int64),) * 3  # type: ignore[return-value]
        choices = self._pool_by_length[lo:hi]
        block = max(1, 20_000_000 // max(1, len(choices)))
        for b in range(0, len(queries), block):
            m = process.cdist(
                queries[b : b + block], choices, scorer=Levenshtein.distance,
                score_cutoff=r if cutoff else None, dtype=np.int32, workers=1,
            )
            self._count(m.size)
            qi, ci = np.nonzero(m <= r) if cutoff else np.nonzero(m >= 0)
            out_q.append(qi + b)
            out_c.append(ids[ci])
            out_d.append(m[qi, ci])
        return np.concatenate(out_q), np.concatenate(out_c), np.concatenate(out_d)

    @staticmethod
    def matches_for(qlen: int, r: int) -> int:
        """Segments that must match exactly (``m``) when a query of length ``qlen`` is split into
        ``r + m`` segments: the largest ``m <= MAX_MATCHES`` keeping segments of at least
        ``STRONG_GRAM`` characters, else 1 (segments of at least ``MIN_GRAM``)."""
        for m in range(MAX_MATCHES, 1, -1):
            if qlen // (r + m) >= STRONG_GRAM:
                return m
        return 1

    def _filter_candidates(self, qcodes: np.ndarray, qlen: int, r: int) -> Iterator[tuple[np.ndarray, np.ndarray]]:
        """Candidate (query row, pool id) pairs for same-length queries by the pigeonhole filter,
        yielded for consecutive chunks of rows whose posting lists hold at most ``FILTER_POSTINGS``
        entries together (a common gram's list can hold most of the pool).

        Multi-match pigeonhole: ``r`` edits touch at most ``r`` of ``r + m`` disjoint segments of the
        query, so a string within distance ``r`` contains at least ``m`` segments unchanged, hence the
        chosen (rarest) q-gram of at least ``m`` distinct segments. Candidates are the pool strings in
        at least ``m`` of the chosen posting lists (a superset of the answer; ``m = 1`` is the classic
        filter).
        """
        m = self.matches_for(qlen, r)
        nseg = r + m
        seglen = qlen // nseg
        g = min(seglen, MAX_GRAM)
        index = self._index(g)
        nq = qcodes.shape[0]
        npos = qlen - g + 1
        h = np.zeros((nq, npos), dtype=np.uint64)
        with np.errstate(over="ignore"):
            for i in range(g):
                h = h * _HASH_BASE + qcodes[:, i : i + npos].astype(np.uint64)
        start, df = index.lookup(h)
        bounds = [(k * qlen) // nseg for k in range(nseg + 1)]
        sel_start = np.empty((nq, nseg), dtype=np.int64)
        sel_df = np.empty((nq, nseg), dtype=np.int64)
        rows = np.arange(nq)
        for k in range(nseg):
            a, b = bounds[k], bounds[k + 1] - g + 1  # gram positions fully inside segment k
            j = np.argmin(df[:, a:b], axis=1) + a
            sel_start[:, k] = start[rows, j]
            sel_df[:, k] = df[rows, j]
        row_total = sel_df.sum(axis=1)
        first = 0
        while first < nq:
            # The longest run of rows from ``first`` within the budget (at least one row).
            last = int(np.searchsorted(np.cumsum(row_total[first:]), FILTER_POSTINGS, side="right"))
            last = first + max(1, last)
            yield self._expand(index, sel_start[first:last], sel_df[first:last], qlen, r, m, first)
            first = last

    def _expand(
        self, index: _GramIndex, sel_start: np.ndarray, sel_df: np.ndarray, qlen: int, r: int, m: int, row0: int
    ) -> tuple[np.ndarray, np.ndarray]:
        """Expand the chosen posting lists (of ``index``) of a chunk of rows into (row0 + row, pool id)
        pairs in at least ``m`` lists and within ``r`` in length (see :meth:`_filter_candidates`)."""
        nq, nseg = sel_df.shape
        counts = sel_df.ravel()
        total = int(counts.sum())
        if total == 0:
            return np.zeros(0, np.int64), np.zeros(0, np.int64)
        qrow = np.repeat(np.repeat(np.arange(nq), nseg), counts)
        seg_first = np.repeat(np.cumsum(counts) - counts, counts)
        pos = np.repeat(sel_start.ravel(), counts) + (np.arange(total) - seg_first)
        cand = index.postings[pos].astype(np.int64)
        ok = np.abs(self.lengths[cand] - qlen) <= r
        qrow, cand = qrow[ok], cand[ok]
        npool = np.int64(len(self.pool))
        key = np.sort(qrow * npool + cand)
        if key.size:
            # Run-length over the sorted keys: distinct (query, candidate) pairs and their hits.
            start = np.flatnonzero(np.concatenate(([True], key[1:] != key[:-1])))
            hits = np.diff(np.append(start, key.size))
            key = key[start[hits >= m]]
        return key // npool + row0, key % npool

    def _verify(self, queries: list[str], qrow: np.ndarray, cand: np.ndarray, r: int) -> np.ndarray:
        """Levenshtein distance (capped at r + 1) for candidate pairs grouped by query row."""
        d = np.empty(qrow.size, dtype=np.int32)
        if qrow.size == 0:
            return d
        bounds = np.flatnonzero(np.diff(qrow)) + 1
        starts = np.concatenate(([0], bounds))
        ends = np.concatenate((bounds, [qrow.size]))
        pool = self._pool_array
        for s, e in zip(starts.tolist(), ends.tolist()):
            choices = pool[cand[s:e]]
            d[s:e] = process.cdist(
                [queries[int(qrow[s])]], choices, scorer=Levenshtein.distance,
                score_cutoff=r, dtype=np.int32, workers=1,
            )[0]
        self._count(qrow.size)
        return d

    def _per_length(
        self,
        qlens: np.ndarray,
        search: Callable[[np.ndarray, int], tuple[np.ndarray, np.ndarray, np.ndarray]],
        cost: Callable[[int, int], float],
    ) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """Run ``search(members, qlen)`` for each distinct query length, ``members`` being the
        positions in ``qlens`` of that length, concurrently (see ``workers``; ``cost(qlen, count)``
        orders the work, costliest first). Its (row in ``members``, pool id, distance) results are
        concatenated in length order, rows mapped back to positions in ``qlens``."""
        lengths, counts = np.unique(qlens, return_counts=True)
        members = {qlen: np.flatnonzero(qlens == qlen) for qlen in lengths.tolist()}
        size = dict(zip(lengths.tolist(), counts.tolist()))
        found = self._map(lambda qlen: search(members[qlen], qlen), members, lambda qlen: cost(qlen, size[qlen]))
        out_q, out_c, out_d = [], [], []
        for qlen in lengths.tolist():
            qrow, cand, d = found[qlen]
            out_q.append(members[qlen][qrow])
            out_c.append(cand)
            out_d.append(d.astype(np.int64))
        if not out_q:
            return (np.zeros(0, np.int64),) * 3  # type: ignore[return-value]
        return np.concatenate(out_q), np.concatenate(out_c), np.concatenate(out_d)

    def within(self, queries: list[str], r: int) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """Every (query index, pool index, distance) with distance <= r: exact, all of them."""

        def search(members: np.ndarray, qlen: int) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
            group = [queries[i] for i in members.tolist()]
            if qlen // (r + 1) < MIN_GRAM:
                return self._within_brute(group, qlen, r)
            codes = np.frombuffer("".join(group).encode("utf-32-le"), dtype=np.uint32).reshape(len(group), qlen)
            out_q, out_c, out_d = [], [], []
            for qrow, cand in self._filter_candidates(codes, qlen, r):
                d = self._verify(group, qrow, cand, r)
                keep = d <= r
                out_q.append(qrow[keep])
                out_c.append(cand[keep])
                out_d.append(d[keep])
            return np.concatenate(out_q), np.concatenate(out_c), np.concatenate(out_d)

        qlens = np.fromiter((len(q) for q in queries), dtype=np.int64, count=len(queries))
        return self._per_length(qlens, search, lambda qlen, count: count * qlen)

    # -- k nearest --------------------------------------------------------------------------------
    def nearest(
        self,
        queries: Sequence[str],
        need: np.ndarray,
        query_group: np.ndarray,
        pool_group: np.ndarray,
        rng: np.random.Generator,
    ) -> NearestResult:
        """For each query, its ``need`` nearest valid pool strings (exact), best first.

        A pool string is valid for a query when its group differs (``pool_group[c] !=
        query_group[q]``; e.g. similarity-component ids) and its distance is > 0.

        Two exact phases. (1) Queries with a close neighbour are resolved by the pigeonhole filter at
        the radii in ``FILTER_RADII`` (queries of up to ``SIMD_MAX_LEN`` characters) and
        ``LONG_FILTER_RADII`` (longer ones), few candidates verified per query. (2) The rest are scanned
        by length: queries of one length meet the pool strings of length ``len(q)``, ``len(q) - 1``,
        ``len(q) + 1``, ... in blocked SIMD ``cdist`` calls (many queries per call), each query
        keeping the ``need``-th smallest valid distance ``U`` seen so far; a query leaves the scan
        once the length difference exceeds its ``U`` (``lev >= | |q| - |s| |``), so near queries
        stop early and isolated ones see every length that could still hold a neighbour.

        Args:
            queries: n query strings.
            need: int array (n,), how many neighbours each query needs (>= 1).
            query_group: int array (n,); pool_group: int array (len(pool),).
            rng: seeded generator; one draw per query seeds that query's tie keys.

        Returns:
            :class:`NearestResult` with every valid candidate at distance <= the need-th
            neighbour's distance (ties included), so callers can skip excluded ones.
        """
        queries = list(queries)
        n = len(queries)
        qseed = rng.integers(0, np.iinfo(np.int64).max, size=n, dtype=np.int64).astype(np.uint64)
        need = np.asarray(need, dtype=np.int64)
        query_group = np.asarray(query_group)
        pool_group = np.asarray(pool_group)
        qlens = np.fromiter((len(x) for x in queries), dtype=np.int64, count=n)
        pending = np.ones(n, dtype=bool)
        res_q, res_c, res_d = [], [], []

        long_q = qlens > SIMD_MAX_LEN
        for r in sorted(set(FILTER_RADII) | set(LONG_FILTER_RADII)):
            applies = (long_q & (r in LONG_FILTER_RADII)) | (~long_q & (r in FILTER_RADII))
            todo = np.flatnonzero(pending & applies & (qlens // (r + 1) >= MIN_GRAM))
            if todo.size == 0:
                continue
            qi, ci, d = self.within([queries[i] for i in todo.tolist()], r)
            qi = todo[qi]
            valid = (pool_group[ci] != query_group[qi]) & (d > 0)
            qi, ci, d = qi[valid], ci[valid], d[valid]
            done = np.zeros(n, dtype=bool)
            done[todo] = np.bincount(qi, minlength=n)[todo] >= need[todo]
            keep = done[qi]
            res_q.append(qi[keep])
            res_c.append(ci[keep])
            res_d.append(d[keep])
            pending &= ~done
            log.debug("radius %d: %d of %d queries resolved, %d pending", r, int(done.sum()), todo.size, int(pending.sum()))

        rest = np.flatnonzero(pending)
        if rest.size:
            qi, ci, d = self._length_scan(queries, rest, need, query_group, pool_group)
            res_q.append(qi)
            res_c.append(ci)
            res_d.append(d)
        q = np.concatenate(res_q) if res_q else np.zeros(0, np.int64)
        c = np.concatenate(res_c) if res_c else np.zeros(0, np.int64)
        d = np.concatenate(res_d) if res_d else np.zeros(0, np.int64)
        tie = splitmix64(qseed[q] ^ c.astype(np.uint64))
        order = np.lexsort((tie, d, q))
        q, c, d = q[order], c[order], d[order]
        # Keep, per query, everything up to and including the need-th neighbour's distance.
        first = np.searchsorted(q, np.arange(n), side="left")
        last = np.searchsorted(q, np.arange(n), side="right") - 1
        cutoff_pos = np.minimum(first + need - 1, last)
        has = last >= first
        dmax = np.full(n, -1, dtype=np.int64)
        dmax[has] = d[cutoff_pos[has]]
        keep = d <= dmax[q]
        return NearestResult(q[keep], c[keep], d[keep], self.pairs_verified)

    def _length_rings(self, qlen: int) -> list[tuple[int, int, int]]:
        """Pool slices for a query length, nearest lengths first: ``(min |len difference|, lo, hi)``
        with ``lo:hi`` a range of the length-sorted pool. Lengths are merged outwards (each side
        separately) until a ring holds ``RING_MIN`` strings, so small pools need few ``cdist`` calls;
        a ring's strings all differ in length by at least its ``min |len difference|``."""
        pool_len = self._sorted_lengths
        if pool_len.size == 0:
            return []
        max_len = int(pool_len[-1])
        starts = np.searchsorted(pool_len, np.arange(max_len + 2), side="left")
        count = np.diff(starts)

        def side(lengths: range) -> list[tuple[int, int, int]]:
            rings, first, size = [], None, 0
            for length in lengths:
                if count[length] == 0:
                    continue
                if first is None:
                    first, size = length, 0
                size += int(count[length])
                if size >= RING_MIN:
                    lo, hi = sorted((first, length))
                    rings.append((abs(first - qlen), int(starts[lo]), int(starts[hi + 1])))
                    first = None
            if first is not None:
                lo, hi = sorted((first, length))
                rings.append((abs(first - qlen), int(starts[lo]), int(starts[hi + 1])))
            return rings

        center = [(0, int(starts[qlen]), int(starts[qlen + 1]))] if qlen <= max_len and count[qlen] else []
        left = side(range(min(qlen, max_len + 1) - 1, -1, -1))
        right = side(range(qlen + 1, max_len + 1))
        return sorted(center + left + right, key=lambda ring: ring[0])

    def _length_scan(
        self,
        queries: list[str],
        rows: np.ndarray,
        need: np.ndarray,
        query_group: np.ndarray,
        pool_group: np.ndarray,
    ) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """Phase 2 of :meth:`nearest` for the query indices ``rows``: (query, pool id, distance) of
        every valid candidate within each query's final ``need``-th distance (ties included)."""
        qlens = np.fromiter((len(queries[i]) for i in rows.tolist()), dtype=np.int64, count=rows.size)

        def scan(members: np.ndarray, qlen: int) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
            mine = rows[members]
            found = self._scan_group(
                [queries[i] for i in mine.tolist()], qlen, need[mine], query_group[mine], pool_group
            )
            log.debug("length %d: %d queries scanned, %d pairs verified so far", qlen, mine.size, self.pairs_verified)
            return found

        def cost(qlen: int, count: int) -> float:
            """Queries x pool strings of similar length (long queries are slower per pair)."""
            near = np.searchsorted(self._sorted_lengths, qlen + 8, side="right") - np.searchsorted(
                self._sorted_lengths, qlen - 8, side="left"
            )
            return float(count * int(near) * (4 if qlen > SIMD_MAX_LEN else 1))

        _ = self._positions  # built here, before the threads share it
        qi, ci, d = self._per_length(qlens, scan, cost)
        return rows[qi], ci, d

    def _scan_group(
        self,
        group: list[str],
        qlen: int,
        k: np.ndarray,
        groups: np.ndarray,
        pool_group: np.ndarray,
        ceiling: int | None = None,
    ) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """Length-ordered scan for queries of one length ``qlen`` (see :meth:`nearest`); returns
        (row in ``group``, pool id, distance) within each row's final bound, ties included.

        Queries longer than ``SIMD_MAX_LEN`` are compared one pair at a time by rapidfuzz, at a cost
        that grows with the ``score_cutoff`` (banded): they never run without one. Their distances
        are computed up to ``ceiling`` (``LONG_CEILING`` at first); rows with fewer than ``k`` valid
        strings within it are scanned again with the ceiling doubled. Each block of such queries
        shares one bound, so every block runs at the tightest exact cutoff."""
        big = np.int32(1 << 30)
        if ceiling is None and qlen > SIMD_MAX_LEN:
            ceiling = LONG_CEILING
        cap = np.int32(ceiling) if ceiling is not None else big
        texts = np.empty(len(group), dtype=object)
        texts[:] = group
        kmax = int(k.max())
        # The pool strings equal to each row's query (distance 0, never valid), as (row, pool id);
        # the rows' similarity groups are found per ring below.
        where = self._positions
        same_q = np.repeat(np.arange(len(group)), [len(where.get(t, ())) for t in group])
        same_c = np.array([c for t in group for c in where.get(t, ())], dtype=np.int64)
        # best[j]: the kmax smallest valid distances seen by query j (big = none yet).
        best = np.full((len(group), kmax), big, dtype=np.int32)
        bound = np.full(len(group), big, dtype=np.int32)
        found_q, found_c, found_d = [], [], []
        for min_delta, lo, hi in self._length_rings(qlen):
            active = np.flatnonzero(np.minimum(bound, cap) >= min_delta)
            if active.size == 0:
                break
            ids = self._by_length[lo:hi]
            choices = self._pool_by_length[lo:hi]
            # Columns of the ring by group id, to find each row's same-group cells without a full pass.
            cgroup = pool_group[ids]
            corder = np.argsort(cgroup, kind="stable")
            csorted = cgroup[corder]
            # Ring positions of the query strings themselves (distance 0).
            in_ring = (self._rank[same_c] >= lo) & (self._rank[same_c] < hi) if same_c.size else None
            block = max(1, SCAN_CELLS // (hi - lo))
            if ceiling is not None:  # blocks of equal bound, tightest first
                active = active[np.argsort(bound[active], kind="stable")]
                level = np.minimum(bound[active], cap)
                cuts = np.flatnonzero(np.diff(level)) + 1
                spans = [
                    (a + off, min(a + off + block, e))
                    for a, e in zip(np.r_[0, cuts].tolist(), np.r_[cuts, active.size].tolist())
                    for off in range(0, e - a, block)
                ]
            else:
                spans = [(b, min(b + block, active.size)) for b in range(0, active.size, block)]
            for b, e in spans:
                act = active[b:e]
                cutoff = int(np.minimum(bound[act], cap).max())
                m = process.cdist(
                    texts[act], choices, scorer=Levenshtein.distance,
                    score_cutoff=None if cutoff >= big else cutoff, dtype=np.int32, workers=1,
                )
                self._count(m.size)
                g = groups[act]
                first = np.searchsorted(csorted, g, side="left")
                count = np.searchsorted(csorted, g, side="right") - first
                if count.any():
                    r = np.repeat(np.arange(act.size), count)
                    offs = np.arange(int(count.sum())) - np.repeat(np.cumsum(count) - count, count)
                    m[r, corder[np.repeat(first, count) + offs]] = big
                if in_ring is not None:
                    pos = np.full(len(group), -1, dtype=np.int64)
                    pos[act] = np.arange(act.size)
                    sel = in_ring & (pos[same_q] >= 0)
                    m[pos[same_q[sel]], self._rank[same_c[sel]] - lo] = big
                # Merge this block's kmax smallest with each query's best so far.
                if kmax == 1:
                    merged = np.minimum(best[act, 0], m.min(axis=1))[:, None]
                else:
                    take = min(kmax, m.shape[1])
                    part = np.partition(m, take - 1, axis=1)[:, :take] if take < m.shape[1] else m
                    merged = np.sort(np.concatenate([best[act], part], axis=1), axis=1)[:, :kmax]
                best[act] = merged
                bound[act] = merged[np.arange(act.size), k[act] - 1]
                # Keep cells within the row's bound and the ceiling: beyond the cutoff, cdist
                # returns cutoff + 1 for every far string (not a distance, and a flood of cells).
                qi, ci = np.nonzero(m <= np.minimum(bound[act], min(cap, big - 1))[:, None])
                found_q.append(act[qi])
                found_c.append(ids[ci])
                found_d.append(m[qi, ci])
        fq = np.concatenate(found_q) if found_q else np.zeros(0, np.int64)
        fc = np.concatenate(found_c) if found_c else np.zeros(0, np.int64)
        fd = np.concatenate(found_d).astype(np.int64) if found_d else np.zeros(0, np.int64)
        keep = fd <= bound[fq]
        fq, fc, fd = fq[keep], fc[keep], fd[keep]
        if ceiling is not None:
            # Rows short of k valid strings within the ceiling: everything they saw is within it, so
            # scan them again with a doubled ceiling (a ceiling above the longest pool string is final).
            again = np.flatnonzero(bound > cap)
            if again.size and ceiling < qlen + int(self._sorted_lengths[-1]):
                mine = np.isin(fq, again, invert=True)
                rq, rc, rd = self._scan_group(
                    [group[i] for i in again.tolist()], qlen, k[again], groups[again], pool_group,
                    ceiling=2 * ceiling,
                )
                fq = np.concatenate([fq[mine], again[rq]])
                fc = np.concatenate([fc[mine], rc])
                fd = np.concatenate([fd[mine], rd])
        return fq, fc, fd


def brute_force_nearest(
    queries: Sequence[str], pool: Sequence[str], query_group: np.ndarray, pool_group: np.ndarray, workers: int = 1
) -> tuple[np.ndarray, np.ndarray]:
    """Reference: full ``cdist`` matrix; return each query's minimum valid distance and its count.

    Returns (min_distance, n_at_min) arrays of shape (n_queries,); -1 / 0 where none is valid.
    For tests and the benchmark's ground truth only (quadratic).
    """
    m = process.cdist(list(queries), list(pool), scorer=Levenshtein.distance, dtype=np.int32, workers=workers)
    invalid = (np.asarray(query_group)[:, None] == np.asarray(pool_group)[None, :]) | (m == 0)
    m = np.where(invalid, np.iinfo(np.int32).max, m)
    best = m.min(axis=1)
    n_at = (m == best[:, None]).sum(axis=1)
    none = best == np.iinfo(np.int32).max
    return np.where(none, -1, best), np.where(none, 0, n_at)
