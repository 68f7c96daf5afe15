"""Exact k-nearest neighbours under Levenshtein distance, with validity constraints.

The term-pair "Levenshtein negatives" (Schulz & Juric, AAAI 2020; docs/design.md § termpairs) need, for
every first term of a positive pair, the k nearest terms of a pool that are *valid* partners (not in
the similarity component of the query). The reference code compares every query with every pool term
in Python; at SNOMED CT scale that is ~10^11 distance computations.

This module finds the same answer exactly with a **length-ordered scan** (``lev(q, s) >= | |q| - |s| |``):
queries of one length meet the pool strings of the same length, then one longer or shorter, and so
on; each query keeps its ``need``-th valid distance so far, ``U``, and leaves once the length
difference exceeds it, so near queries stop early and isolated ones see every length that could still
hold a neighbour. Distances come from a bit-parallel kernel (:mod:`biosem.levenshtein.kernels`) that compares
a block of queries with a block of pool strings across SIMD lanes, exactly and at a cost independent
of any cutoff (``bench/bench_kernel.py`` compares it with ``rapidfuzz.process.cdist``; see
docs/benchmarks.md).

Before the kernel, each pair is screened by its **bag distance** (the characters one string has in
excess of the other, over 32 histogram bins; a lower bound of the Levenshtein distance, Bartolini et
al. 2002): a query that already has a bound ``U`` computes only the pool strings whose bag distance
is within ``U`` (plus the resume slack), their match masks gathered into contiguous lanes, and gets
back only the pairs within that limit (:func:`biosem.levenshtein.kernels.screened_pairs`; compiled for
AVX-512 where the machine has it); the screen is much cheaper than a distance. Stronger filters
were tried and left out, because on SNOMED-like pools the nearest valid term is ~9 edits away, where
they keep much of the length window: a pigeonhole q-gram filter (it excludes pairs only for queries
with a neighbour within a few edits), a 256-bit bigram-set bound, a multiset bigram count bound (it
costs as much to evaluate as the distances it saves). See docs/benchmarks.md.

A query's bound is seeded before the scan (:meth:`LevenshteinIndex._hint`) from its neighbours in
sorted order of the pool strings and of their reversals, an upper bound of its final distance, so
the screen works from the first ring; it only saves work and never changes a result.

:meth:`LevenshteinIndex.scan` runs the search for several datasets at once: each pool string carries
the datasets it belongs to, each query its ``need`` per dataset, and a query shared by datasets is
compared with each pool string once while every dataset keeps its own bound (the term pairs' FSN-SYN
and SYN-SYN share nearly all first terms; :func:`biosem.termpairs.search.search_neighbours`).

A search can be resumed for more neighbours (``scan``'s ``slack``, ``known`` and ``covered``): the
first scan also returns the valid candidates a few edits beyond each bound among the lengths it
compared, and a later scan for a larger ``need`` starts from them and compares only the pool strings
of a larger length difference (the term pairs' first terms left short of partners;
:func:`biosem.termpairs.search.assign_nearest`).

Ties at equal distance are ordered by a per-query key drawn from the caller's
``numpy.random.Generator`` mixed with the candidate index (splitmix64), so the order does not depend
on batch, thread or core count. All distances are Levenshtein (unit costs) on the strings as given:
callers pass lowercased strings.
"""

from __future__ import annotations

import logging
import os
import threading
from collections.abc import Callable, Iterable, Sequence
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from typing import TypeVar

import numba
import numpy as np
from rapidfuzz import process
from rapidfuzz.distance import Levenshtein

from biosem.levenshtein.kernels import (
    Alphabet,
    codepoints,
    histograms,
    screened_pairs,
)
from biosem.logs import Progress

log = logging.getLogger(__name__)
_T = TypeVar("_T")

# Distance-matrix cells per kernel call in the scan (int32: 4 bytes each).
SCAN_CELLS = 8_000_000
# Fewest pool strings per scan ring (lengths are merged until a ring holds this many).
RING_MIN = 2048
# No valid string seen yet (a distance no pair reaches).
_NONE = np.int32(1 << 30)
# Screen pairs by bag distance before computing their distances (biosem.levenshtein.kernels.screened_distances).
SCREEN = True
PROGRESS_QUIET_SECONDS = 1.0
"""A scan (or its pre-scan bounds) that takes less logs no progress line: the searches that resume for a
few first terms at a time (:func:`biosem.termpairs.search.assign_nearest`) stay quiet."""
# The limit of a query that has no bound yet (every pair is computed).
_UNLIMITED = np.int64(1 << 40)
# Pool strings on each side of a query in sorted order, and in sorted order of the reversed strings,
# whose distances bound the query's before the scan (:meth:`LevenshteinIndex._hint`).
HINT_WINDOW = 32
# Queries per batch of hint distances (each batch holds 4 x HINT_WINDOW candidates per query).
HINT_BATCH = 16_384


def splitmix64(x: np.ndarray) -> np.ndarray:
    """Vectorised splitmix64 finaliser on uint64 (wrapping arithmetic); a fast, well-mixed hash."""
    z = x.astype(np.uint64, copy=True)
    with np.errstate(over="ignore"):
        z += np.uint64(0x9E3779B97F4A7C15)
        z = (z ^ (z >> np.uint64(30))) * np.uint64(0xBF58476D1CE4E5B9)
        z = (z ^ (z >> np.uint64(27))) * np.uint64(0x94D049BB133111EB)
        z = z ^ (z >> np.uint64(31))
    return z


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


@dataclass
class ScanResult:
    """Valid candidates within each (query, dataset)'s final bound, from :meth:`LevenshteinIndex.scan`.

    Arrays of equal length: ``query`` (index into the query list), ``dataset`` (column of ``need``),
    ``candidate`` (index into the pool), ``distance`` (Levenshtein, characters).
    """

    query: np.ndarray
    dataset: np.ndarray
    candidate: np.ndarray
    distance: np.ndarray
    pairs_verified: int


def tie_seeds(rng: np.random.Generator, n: int) -> np.ndarray:
    """One ``rng.integers`` draw of ``n`` per-query tie seeds (uint64), for :func:`rank_neighbours`."""
    return rng.integers(0, np.iinfo(np.int64).max, size=n, dtype=np.int64).astype(np.uint64)


def rank_neighbours(
    query: np.ndarray,
    candidate: np.ndarray,
    distance: np.ndarray,
    need: np.ndarray,
    seeds: np.ndarray,
    pairs_verified: int = 0,
) -> NearestResult:
    """Order one dataset's scan rows into a :class:`NearestResult`: per query by (distance, tie key),
    the tie key splitmix64(query seed ^ candidate); rows beyond each query's ``need``-th neighbour's
    distance are dropped. A query ranked again with the same seed keeps its order.

    Args:
        query, candidate, distance: int arrays of equal length (rows in any order).
        need: int array (n_queries,), neighbours wanted per query (>= 1).
        seeds: uint64 array (n_queries,), the queries' tie seeds (:func:`tie_seeds`).
    """
    need = np.asarray(need, dtype=np.int64)
    n = int(need.size)
    qseed = np.asarray(seeds, dtype=np.uint64)
    q = np.asarray(query, dtype=np.int64)
    c = np.asarray(candidate, dtype=np.int64)
    d = np.asarray(distance, dtype=np.int64)
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
    return NearestResult(q[keep], c[keep], d[keep], pairs_verified)


class LevenshteinIndex:
    """Exact nearest-neighbour search over a fixed pool of strings (see module docstring).

    Args:
        pool: the candidate strings (already normalised, e.g. lowercased; duplicates allowed but
            wasteful).
        workers: threads (``-1`` = all cores). Query-length groups are searched concurrently, each
            with single-threaded kernel calls (they release the GIL); results are assembled in
            length order, so they do not depend on the thread count.
        name: what a scan is, in its progress messages (:class:`biosem.logs.Progress`: queries
            done per query-length group, rate, time left).
    """

    def __init__(self, pool: Sequence[str], workers: int = 1, name: str = "Levenshtein scan") -> None:
        self.pool = list(pool)
        self.workers = workers
        self.name = name
        self._threads = max(1, os.cpu_count() or 1) if workers < 0 else max(1, workers)
        self._lock = threading.Lock()
        self.lengths = np.fromiter((len(s) for s in self.pool), dtype=np.int64, count=len(self.pool))
        order = np.argsort(self.lengths, kind="stable")
        self._by_length = order
        self._sorted_lengths = self.lengths[order]
        # Symbol ids of the pool strings in length order, for the bit-parallel scan kernel.
        sorted_codes, self._sorted_starts = codepoints([self.pool[i] for i in order.tolist()])
        self._alphabet = Alphabet(sorted_codes)
        self._sorted_symbols = self._alphabet.ids(sorted_codes)
        # Character histograms of the pool strings in length order, for the bag-distance screen.
        self._sorted_hist = histograms(self._sorted_symbols, self._sorted_starts, self._alphabet)
        self.pairs_verified = 0
        self.pairs_screened = 0
        self._sorted_orders: tuple[np.ndarray, ...] | None = None

    def _count(self, verified: int, screened: int) -> None:
        with self._lock:
            self.pairs_verified += int(verified)
            self.pairs_screened += int(screened)

    def _map(self, fn: Callable[[int], _T], keys: Iterable[int], cost: Callable[[int], float]) -> dict[int, _T]:
        """``{key: fn(key)}``, computed on ``self._threads`` threads, costliest keys first."""
        keys = list(keys)
        if self._threads == 1 or len(keys) < 2:
            return {key: fn(key) for key in keys}
        order = sorted(keys, key=lambda key: -cost(key))
        with ThreadPoolExecutor(max_workers=self._threads) as ex:
            return dict(zip(order, ex.map(fn, order)))

    def _per_length(
        self,
        qlens: np.ndarray,
        search: Callable[[np.ndarray, int], tuple[np.ndarray, ...]],
        cost: Callable[[int, int], float],
    ) -> tuple[np.ndarray, ...]:
        """Run ``search(members, qlen)`` for each distinct query length, ``members`` being the
        positions in ``qlens`` of that length, concurrently (see ``workers``; ``cost(qlen, count)``
        orders the work, costliest first). Its (row in ``members``, dataset, pool id, distance)
        results are concatenated in length order, rows mapped back to positions in ``qlens``."""
        lengths, counts = np.unique(qlens, return_counts=True)
        members = {qlen: np.flatnonzero(qlens == qlen) for qlen in lengths.tolist()}
        size = dict(zip(lengths.tolist(), counts.tolist()))
        what = f"{self.name} ({qlens.size:,} queries, {len(self.pool):,} pool strings)"
        with Progress(log, what, int(qlens.size), unit="queries", finish_after=PROGRESS_QUIET_SECONDS) as progress:

            def run(qlen: int) -> tuple[np.ndarray, ...]:
                out = search(members[qlen], qlen)
                progress.advance(size[qlen])
                return out

            found = self._map(run, members, lambda qlen: cost(qlen, size[qlen]))
        parts: list[list[np.ndarray]] = [[], [], [], []]
        for qlen in lengths.tolist():
            qrow, *rest = found[qlen]
            parts[0].append(members[qlen][qrow])
            for part, values in zip(parts[1:], rest):
                part.append(values.astype(np.int64))
        if not parts[0]:
            return (np.zeros(0, np.int64),) * 4
        return tuple(np.concatenate(part) for part in parts)

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

        Queries are scanned by length (see the module docstring): queries of one length meet the pool
        strings of length ``len(q)``, ``len(q) - 1``, ``len(q) + 1``, ... in blocked bit-parallel
        kernel calls (many queries per call), each query keeping the ``need``-th smallest valid
        distance ``U`` seen so far; a query leaves the scan once the length difference exceeds ``U``.

        Args:
            queries: n query strings.
            need: int array (n,), how many neighbours each query needs (>= 1).
            query_group: int array (n,); pool_group: int array (len(pool),).
            rng: seeded generator; one draw per query seeds that query's tie keys
                (:func:`rank_neighbours`).

        Returns:
            :class:`NearestResult` with every valid candidate at distance <= the need-th
            neighbour's distance (ties included), so callers can skip excluded ones.
        """
        need = np.asarray(need, dtype=np.int64)
        scan = self.scan(queries, need[:, None], query_group, pool_group)
        return rank_neighbours(
            scan.query, scan.candidate, scan.distance, need, tie_seeds(rng, need.size), self.pairs_verified
        )

    def scan(
        self,
        queries: Sequence[str],
        need: np.ndarray,
        query_group: np.ndarray,
        pool_group: np.ndarray,
        pool_member: np.ndarray | None = None,
        slack: int = 0,
        known: ScanResult | None = None,
        covered: np.ndarray | None = None,
    ) -> ScanResult:
        """The search of :meth:`nearest` for several datasets at once, without the tie order.

        Dataset ``b`` is the pool strings ``c`` with ``pool_member[c, b]`` and its queries the ``q``
        with ``need[q, b] > 0``; a query of several datasets (a first term shared by FSN-SYN and
        SYN-SYN, say) is compared with each pool string once, and each of its datasets keeps its
        own ``need``-th valid distance. A query leaves the scan once the length difference exceeds
        all of them. The rows of dataset ``b`` are exactly those a search of ``b`` alone returns.

        A search can be resumed: ``covered[q]`` says that the pool strings within that many
        characters of query ``q``'s length were compared before (they are skipped), and ``known``
        holds the valid candidates found among them (rows of a larger length difference are
        ignored); they seed the bounds and are returned with the new rows. The result is exact for
        ``(q, b)`` when ``known`` holds every valid candidate of ``b`` within ``covered[q]`` length
        difference up to the final bound; the caller checks that (e.g. known complete up to a
        distance ``E`` and the final bound <= ``E``).

        Args:
            queries: n query strings.
            need: int array (n, n_datasets), neighbours wanted per dataset (0: not a query there).
            query_group: int array (n,); pool_group: int array (len(pool),).
            pool_member: bool array (len(pool), n_datasets); None: one dataset, the whole pool.
            slack: also return the valid candidates at distance up to ``B + slack`` (``B`` the final
                ``need``-th distance) whose length differs from the query's by at most ``B`` (or
                ``covered[q]``); the scan compares all of them anyway, and they let a later search
                for more neighbours resume instead of starting again.
            known: rows (query, dataset, candidate, distance) of valid candidates; None: none.
            covered: int array (n,) of length differences already compared; None: -1 (none).

        Returns:
            :class:`ScanResult`: every valid candidate within its query's final ``need``-th
            distance ``B`` in each dataset (ties included), and those up to ``B + slack`` within
            ``max(B, covered[q])`` length difference, sorted by (dataset, query, distance,
            candidate).

        Raises:
            ValueError: shapes disagree, or more than 32 datasets.
        """
        queries = list(queries)
        need = np.asarray(need, dtype=np.int64)
        if need.ndim != 2 or need.shape[0] != len(queries):
            raise ValueError(f"need has shape {need.shape}, expected ({len(queries)}, n_datasets)")
        n_sets = need.shape[1]
        if pool_member is None:
            member = np.full(len(self.pool), 1, dtype=np.int64)
        else:
            pool_member = np.asarray(pool_member, dtype=bool)
            if pool_member.shape != (len(self.pool), n_sets) or n_sets > 32:
                raise ValueError(
                    f"pool_member has shape {pool_member.shape}, expected ({len(self.pool)}, {n_sets}), "
                    "at most 32 datasets"
                )
            member = (pool_member.astype(np.int64) << np.arange(n_sets, dtype=np.int64)).sum(axis=1)
        skip = np.full(len(queries), -1, dtype=np.int64) if covered is None else np.asarray(covered, dtype=np.int64)
        if skip.shape != (len(queries),):
            raise ValueError(f"covered has shape {skip.shape}, expected ({len(queries)},)")
        empty = np.zeros(0, dtype=np.int64)
        rows = (
            (empty,) * 4
            if known is None
            else tuple(
                np.asarray(x, dtype=np.int64) for x in (known.query, known.dataset, known.candidate, known.distance)
            )
        )
        q, b, c, d = self._length_scan(
            queries, need, np.asarray(query_group), np.asarray(pool_group), member, int(slack), skip, rows
        )
        order = np.lexsort((c, d, q, b))
        return ScanResult(q[order], b[order], c[order], d[order], self.pairs_verified)

    def _hint(
        self,
        queries: list[str],
        need: np.ndarray,
        query_group: np.ndarray,
        pool_group: np.ndarray,
        pool_member: np.ndarray,
    ) -> np.ndarray:
        """Upper bounds of each (query, dataset)'s ``need``-th valid distance, before the scan.

        Near terms share a prefix or a suffix more often than not (a word added, removed or changed
        at one end): the ``HINT_WINDOW`` pool strings on each side of a query in sorted order, and
        in sorted order of the reversed strings, are compared with it (``rapidfuzz.process.cpdist``)
        and the ``need``-th smallest valid distance among them bounds the true one from above (how
        tight it is on SNOMED-scale terms: docs/benchmarks.md). The scan screens with it
        from its first ring (:meth:`_scan_group`), so the bound only saves work, never changes a
        result.

        Returns:
            int32 array (n_queries, n_datasets): the bound (characters); ``_NONE`` where fewer than
            ``need`` of the compared strings are valid, -1 where ``need`` is 0.
        """
        n, n_sets = need.shape
        hint = np.where(need > 0, _NONE, -1).astype(np.int32)
        size = len(self.pool)
        if n == 0 or size == 0:
            return hint
        if self._sorted_orders is None:
            strings = np.array(self.pool, dtype=object)
            reversed_strings = np.array([s[::-1] for s in self.pool], dtype=object)
            lex = np.argsort(strings, kind="stable")
            rev = np.argsort(reversed_strings, kind="stable")
            self._sorted_orders = (strings, lex, strings[lex], rev, reversed_strings[rev])
        strings, lex, lex_keys, rev, rev_keys = self._sorted_orders
        offsets = np.arange(-HINT_WINDOW, HINT_WINDOW)
        width = 4 * HINT_WINDOW
        strings_q = np.array(queries, dtype=object)
        progress = Progress(
            log, f"{self.name}: bounds from sorted neighbours", n, unit="queries", finish_after=PROGRESS_QUIET_SECONDS
        )
        for lo in range(0, n, HINT_BATCH):
            part = strings_q[lo : lo + HINT_BATCH]
            at = np.searchsorted(lex_keys, part)
            rev_at = np.searchsorted(rev_keys, np.array([s[::-1] for s in part], dtype=object))
            cand = np.concatenate(
                [
                    lex[np.clip(at[:, None] + offsets, 0, size - 1)],
                    rev[np.clip(rev_at[:, None] + offsets, 0, size - 1)],
                ],
                axis=1,
            )
            cand.sort(axis=1)
            d = process.cpdist(
                np.repeat(part, width),
                strings[cand.ravel()],
                scorer=Levenshtein.distance,
                dtype=np.int32,
                workers=self._threads,
            )
            d = d.reshape(cand.shape)
            valid = (pool_group[cand] != query_group[lo : lo + HINT_BATCH, None]) & (d > 0)
            valid[:, 1:] &= cand[:, 1:] != cand[:, :-1]
            rows = np.arange(part.size)
            for b in range(n_sets):
                k = need[lo : lo + HINT_BATCH, b]
                inside = valid & ((pool_member[cand] >> b) & 1).astype(bool)
                ranked = np.sort(np.where(inside, d, _NONE), axis=1)
                kth = ranked[rows, np.clip(k - 1, 0, width - 1)]
                hint[lo : lo + HINT_BATCH, b] = np.where(k > 0, np.where(k <= width, kth, _NONE), -1)
            progress.advance(part.size)
        progress.finish()
        return hint

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
        need: np.ndarray,
        query_group: np.ndarray,
        pool_group: np.ndarray,
        pool_member: np.ndarray,
        slack: int,
        skip: np.ndarray,
        known: tuple[np.ndarray, ...],
    ) -> tuple[np.ndarray, ...]:
        """The scan of :meth:`scan`: (query, dataset, pool id, distance) rows, grouped by query
        length. ``pool_member`` holds each pool string's datasets as bits; ``skip`` the covered
        length differences, ``known`` the known rows (those beyond them are dropped)."""
        qlens = np.fromiter((len(q) for q in queries), dtype=np.int64, count=len(queries))
        inside = np.abs(self.lengths[known[2]] - qlens[known[0]]) <= skip[known[0]]
        known = tuple(part[inside] for part in known)
        hint = self._hint(queries, need, query_group, pool_group, pool_member) if SCREEN else np.full(need.shape, _NONE)
        sorted_group = np.ascontiguousarray(pool_group[self._by_length], dtype=np.int64)
        sorted_member = np.ascontiguousarray(pool_member[self._by_length], dtype=np.int64)
        # Each query's position in its length group, and the known rows of each length group.
        by_len = np.argsort(qlens, kind="stable")
        local = np.empty(len(queries), dtype=np.int64)
        local[by_len] = np.arange(by_len.size) - np.searchsorted(qlens[by_len], qlens[by_len], side="left")
        known_len = qlens[known[0]]
        order = np.argsort(known_len, kind="stable")
        lens, starts = np.unique(known_len[order], return_index=True)
        bounds = dict(zip(lens.tolist(), zip(starts.tolist(), [*starts[1:].tolist(), order.size])))

        def scan(members: np.ndarray, qlen: int) -> tuple[np.ndarray, ...]:
            lo, hi = bounds.get(qlen, (0, 0))
            rows = order[lo:hi]
            group_known = (local[known[0][rows]], *(part[rows] for part in known[1:]))
            found = self._scan_group(
                [queries[i] for i in members.tolist()],
                qlen,
                need[members],
                query_group[members],
                sorted_group,
                sorted_member,
                slack,
                skip[members],
                group_known,
                hint[members],
            )
            log.debug(
                "length %d: %d queries scanned, %d pairs verified so far", qlen, members.size, self.pairs_verified
            )
            return found

        def cost(qlen: int, count: int) -> float:
            """Queries x pool strings of similar length x kernel steps per pair (query characters x
            64-bit words of a pool string of about the same length)."""
            near = np.searchsorted(self._sorted_lengths, qlen + 8, side="right") - np.searchsorted(
                self._sorted_lengths, qlen - 8, side="left"
            )
            return float(count * int(near) * qlen * (1 + qlen // 64))

        return self._per_length(qlens, scan, cost)

    def _scan_group(
        self,
        group: list[str],
        qlen: int,
        k: np.ndarray,
        groups: np.ndarray,
        sorted_group: np.ndarray,
        sorted_member: np.ndarray,
        slack: int,
        skip: np.ndarray,
        known: tuple[np.ndarray, ...],
        hint: np.ndarray,
    ) -> tuple[np.ndarray, ...]:
        """Length-ordered scan for queries of one length ``qlen`` (see :meth:`nearest`); returns
        (row in ``group``, dataset, pool id, distance) of :meth:`scan`. ``k`` is (rows, datasets);
        ``sorted_group`` / ``sorted_member`` hold the pool strings' groups and dataset bits in length
        order; ``skip`` (rows,) the covered length differences, ``known`` the (row, dataset, pool
        id, distance) rows found within them; ``hint`` (rows, datasets) upper bounds of the final
        bounds (:meth:`_hint`).

        Distances come from the bit-parallel kernel (:func:`biosem.levenshtein.kernels.screened_pairs`):
        exact, at a cost that does not depend on a cutoff, so a ring is compared with every query
        still active in it, except the pool strings whose bag distance exceeds the query's bound
        (plus ``slack``) at the start of the ring, or its hint where smaller; it returns the pairs
        within that limit, and :func:`_keep_nearest` updates each (row, dataset)'s k best from
        them in one pass (a pair beyond the limit could neither lower a bound nor be kept)."""
        qsym = self._alphabet.ids(np.frombuffer("".join(group).encode("utf-32-le"), dtype=np.uint32)).reshape(
            len(group), qlen
        )
        starts = np.arange(len(group) + 1, dtype=np.int64) * qlen
        qhist = np.ascontiguousarray(histograms(qsym.ravel(), starts, self._alphabet).T)
        kmax = max(1, int(k.max()))
        k = np.ascontiguousarray(k, dtype=np.int64)
        groups = np.ascontiguousarray(groups, dtype=np.int64)
        skip = np.ascontiguousarray(skip, dtype=np.int64)
        # best[j, b]: the k[j, b] smallest valid distances seen by query j in dataset b (_NONE = none
        # yet); bound[j, b] the largest of them, -1 where j is no query of b.
        best = np.full((len(group), k.shape[1], kmax), _NONE, dtype=np.int32)
        kj, kb, kc, kd = known
        if kj.size:
            by = np.lexsort((kd, kb, kj))
            kj, kb, kc, kd = kj[by], kb[by], kc[by], kd[by]
            cell = kj * k.shape[1] + kb
            rank = np.arange(cell.size) - np.searchsorted(cell, cell, side="left")
            seed = rank < k[kj, kb]
            best[kj[seed], kb[seed], rank[seed]] = kd[seed]
        rows_k = np.maximum(k - 1, 0)
        bound = np.where(k > 0, np.take_along_axis(best, rows_k[:, :, None], axis=2)[:, :, 0], -1).astype(np.int32)
        found: list[list[np.ndarray]] = [[kj], [kb], [kc], [kd]]
        for min_delta, lo, hi in self._length_rings(qlen):
            max_delta = max(abs(int(self._sorted_lengths[lo]) - qlen), abs(int(self._sorted_lengths[hi - 1]) - qlen))
            alive = bound.max(axis=1) >= min_delta
            if not alive.any():
                break
            active = np.flatnonzero(alive & (skip < max_delta))
            if active.size == 0:
                continue
            block = max(1, SCAN_CELLS // (hi - lo))
            col_gap = np.abs(self._sorted_lengths[lo:hi] - qlen)
            for b in range(0, active.size, block):
                act = active[b : b + block]
                worst = np.minimum(bound[act], hint[act]).max(axis=1).astype(np.int64)
                limit = np.where(SCREEN & (worst < _NONE), worst + slack, _UNLIMITED)
                crow, ccol, cd, verified = screened_pairs(
                    qsym[act],
                    self._sorted_symbols,
                    self._sorted_starts,
                    lo,
                    hi,
                    self._alphabet.size,
                    self._sorted_hist,
                    qhist[act],
                    limit,
                )
                self._count(verified, act.size * (hi - lo))
                row, dset, col, d = _keep_nearest(
                    crow,
                    ccol,
                    cd,
                    sorted_group[lo:hi],
                    sorted_member[lo:hi],
                    col_gap,
                    groups,
                    skip,
                    act,
                    k,
                    best,
                    bound,
                    slack,
                )
                found[0].append(act[row])
                found[1].append(dset)
                found[2].append(self._by_length[lo + col])
                found[3].append(d)
        fq, fb, fc, fd = (np.concatenate(part).astype(np.int64) for part in found)
        final = bound[fq, fb].astype(np.int64)
        keep = (fd <= final + slack) & (np.abs(self.lengths[fc] - qlen) <= np.maximum(final, skip[fq]))
        return fq[keep], fb[keep], fc[keep], fd[keep]


@numba.njit(nogil=True, cache=True, boundscheck=False)
def _keep_nearest(
    cell_row: np.ndarray,
    cell_col: np.ndarray,
    cell_d: np.ndarray,
    col_group: np.ndarray,
    col_member: np.ndarray,
    col_gap: np.ndarray,
    groups: np.ndarray,
    skip: np.ndarray,
    rows: np.ndarray,
    k: np.ndarray,
    best: np.ndarray,
    bound: np.ndarray,
    slack: int,
) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """One block of the scan: cell ``t`` is the distance ``cell_d[t]`` of query ``rows[cell_row[t]]`` to
    ring column ``cell_col[t]`` (the pairs :func:`biosem.levenshtein.kernels.screened_pairs` found within the
    queries' limits, in any order).

    A cell is valid in dataset ``b`` when its column is a member of ``b`` (bit ``b`` of
    ``col_member[c]``), its group differs from the row's (``col_group[c] != groups[rows[i]]``), its
    length difference ``col_gap[c]`` exceeds the row's covered one (``skip``) and its distance is > 0
    (an identical string). Each (row, dataset)'s ``best`` (its ``k`` smallest valid distances so far,
    ascending) and ``bound`` (``best[k - 1]``; -1 where ``k`` is 0, so no distance enters) are updated
    in place; returned are (i, dataset, c, distance) of the valid cells within the updated bounds
    plus ``slack``."""
    n_sets = k.shape[1]
    n = cell_row.size
    # The datasets each cell is valid in (bits; 0 where it is in none), then those it is kept in.
    kept = np.zeros(n, np.int64)
    for t in range(n):
        d = cell_d[t]
        r = rows[cell_row[t]]
        c = cell_col[t]
        if d > 0 and col_group[c] != groups[r] and col_gap[c] > skip[r]:
            bits = col_member[c]
            kept[t] = bits
            for s in range(n_sets):
                if (bits >> s) & 1 == 0 or d >= bound[r, s]:
                    continue
                b = best[r, s]
                j = k[r, s] - 1
                while j > 0 and b[j - 1] > d:
                    b[j] = b[j - 1]
                    j -= 1
                b[j] = d
                bound[r, s] = b[k[r, s] - 1]
    total = 0
    for t in range(n):
        d = cell_d[t]
        r = rows[cell_row[t]]
        bits = kept[t]
        kept[t] = 0
        for s in range(n_sets):
            if (bits >> s) & 1 and d <= bound[r, s] + slack:
                kept[t] |= np.int64(1) << s
                total += 1
    out_i = np.empty(total, np.int64)
    out_s = np.empty(total, np.int64)
    out_c = np.empty(total, np.int64)
    out_d = np.empty(total, np.int32)
    pos = 0
    for t in range(n):
        for s in range(n_sets):
            if (kept[t] >> s) & 1:
                out_i[pos] = cell_row[t]
                out_s[pos] = s
                out_c[pos] = cell_col[t]
                out_d[pos] = cell_d[t]
                pos += 1
    return out_i, out_s, out_c, out_d


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
