"""The Levenshtein neighbour search of the Levenshtein negatives, and its resumption.

A dataset's first search (:func:`search_neighbours`, made jointly for datasets sharing first terms and
pool terms) finds, for each distinct first term, its nearest valid pool terms; :func:`assign_nearest`
then commits partners first term by first term and resumes the search of a first term left short
(its nearest terms taken in reverse by earlier first terms) from the state the last search left.
"""

from __future__ import annotations

import logging
from collections.abc import Callable, Sequence

import numpy as np
import pandas as pd

from biosem.levenshtein.index import LevenshteinIndex, ScanResult, rank_neighbours, tie_seeds
from biosem.termpairs.pool import TermPool, term_lengths

log = logging.getLogger(__name__)

RESUME_SLACK = 0
"""Distances beyond a first term's bound kept by its Levenshtein search (:meth:`LevenshteinIndex.scan`
``slack``), so that a first term left short of partners resumes its search (see
:func:`assign_nearest`). Any value gives the same negatives; it only trades the first search's
cost (every pair within bound + slack is computed) against the searches that start again. 0, the
fastest at SNOMED CT scale (see docs/benchmarks.md): a search for more neighbours then resumes only
where ties at its bound suffice."""
RESUME_ROWS = 32
"""Most rows kept beyond a first term's ``need`` by those distances: whole distance levels are kept
while they fit (a few generic terms have thousands of terms one or two edits beyond their bound)."""
_FAR = np.int64(1) << 40  # no bound: every valid term was found


def search_neighbours(
    positives: pd.DataFrame,
    components: pd.DataFrame,
    kinds: Sequence[str],
    difficulty: str,
    workers: int = 1,
) -> tuple[pd.DataFrame, dict[str, int]]:
    """The first Levenshtein-negative search of several datasets of one difficulty, made at once.

    FSN-SYN positives are SYN-SYN positives too (the head term is one of the synonyms), so the two
    datasets share nearly all first terms and pool terms: at SNOMED CT scale every FSN-SYN hard first
    term is a SYN-SYN hard one and its pool lies inside SYN-SYN hard's. One
    :meth:`biosem.levenshtein.index.LevenshteinIndex.scan` over the union of the datasets' pools compares each
    distinct first term with each pool term once, every dataset keeping its own pool, ``need`` and
    bound; the rows of a dataset are exactly what its own search returns, so
    :func:`~biosem.termpairs.negatives.sample_levenshtein_negatives` given them builds the same negatives.

    Args:
        positives: all positives of the source.
        components: :func:`~biosem.termpairs.positives.similarity_components` of them.
        kinds: the datasets (:data:`~biosem.termpairs.positives.POSITIVE_KINDS`) searched together.
        difficulty: easy or hard.

    Returns:
        (rows, counts): rows of :data:`biosem.termpairs.schemas.TERMPAIR_NEIGHBOURS` (``kind, term1, need,
        term2, levenshtein, reach``; every valid pool term within each first term's ``need``-th
        distance ``B``, ties included, and within ``B`` characters in length every one up to
        ``reach`` (``B`` to ``B +`` :data:`RESUME_SLACK`, see :func:`_settle`), lowercased),
        counts of first terms per kind, distinct first terms, pool terms, pairs screened (within the
        length windows) and pairs verified (distances computed).
    """
    comp = components.set_index("term_lower")["component"]
    pools, firsts = [], []
    for kind in kinds:
        sel = positives[(positives["kind"] == kind) & (positives["difficulty"] == difficulty)]
        pools.append(TermPool.from_terms(pd.concat([sel["term1"], sel["term2"]]), comp).lower)
        firsts.append(np.unique(sel["term1"].str.lower().to_numpy(dtype=object), return_counts=True))
    union = np.unique(np.concatenate(pools)) if pools else np.zeros(0, dtype=object)
    queries = np.unique(np.concatenate([q for q, _ in firsts])) if firsts else np.zeros(0, dtype=object)
    member = np.zeros((union.size, len(kinds)), dtype=bool)
    need = np.zeros((queries.size, len(kinds)), dtype=np.int64)
    for b, (pool, (q, k)) in enumerate(zip(pools, firsts)):
        member[np.searchsorted(union, pool), b] = True
        need[np.searchsorted(queries, q), b] = k
    counts = {f"queries_{kind}": int(q.size) for kind, (q, _) in zip(kinds, firsts)}
    counts.update({"queries": int(queries.size), "pool": int(union.size), "pairs_verified": 0, "pairs_screened": 0})
    empty = pd.DataFrame({"kind": [], "term1": [], "need": [], "term2": [], "levenshtein": [], "reach": []})
    if queries.size == 0 or union.size == 0:
        return empty.astype({"need": "int64", "levenshtein": "int64", "reach": "int64"}), counts
    name = f"{difficulty} {'+'.join(kinds)} first search"
    log.info("%s: %d distinct first terms, %d pool terms", name, queries.size, union.size)
    index = LevenshteinIndex(list(union), workers=workers, name=name)
    found = index.scan(
        list(queries),
        need,
        comp.reindex(queries).to_numpy().astype(np.int64),
        comp.reindex(union).to_numpy().astype(np.int64),
        member,
        slack=RESUME_SLACK,
    )
    counts["pairs_verified"], counts["pairs_screened"] = found.pairs_verified, index.pairs_screened
    qlen = term_lengths(queries)
    parts = []
    for b, kind in enumerate(kinds):
        sel = found.dataset == b
        # Each dataset's rows as its own search keeps them (_settle), with the distance they reach.
        (q, c, d), _, reach = _settle(
            (found.query[sel], found.candidate[sel], found.distance[sel]),
            need[:, b],
            qlen,
            index.lengths,
            np.full(queries.size, _FAR, dtype=np.int64),
        )
        parts.append(
            pd.DataFrame(
                {
                    "kind": kind,
                    "term1": queries[q],
                    "need": need[q, b],
                    "term2": union[c],
                    "levenshtein": d.astype(np.int64),
                    "reach": reach[q],
                }
            )
        )
    return pd.concat(parts, ignore_index=True), counts


def first_search_rows(
    neighbours: pd.DataFrame, qkeys: np.ndarray, k: np.ndarray, pool: TermPool
) -> tuple[np.ndarray, ...]:
    """(query, pool id, distance, reach) arrays of a dataset's :func:`search_neighbours` rows, checked
    against its first terms ``qkeys`` (sorted), their positive counts ``k`` and its pool."""
    term1 = neighbours["term1"].to_numpy(dtype=object)
    term2 = neighbours["term2"].to_numpy(dtype=object)
    need = neighbours["need"].to_numpy(dtype=np.int64)
    distance = neighbours["levenshtein"].to_numpy(dtype=np.int64)
    reach = neighbours["reach"].to_numpy(dtype=np.int64)
    # Rows repeat their terms (tens of rows per first term): look up each distinct term once.
    codes1, terms1 = pd.factorize(term1)
    codes2, terms2 = pd.factorize(term2)
    q = np.searchsorted(qkeys, np.asarray(terms1, dtype=object))[codes1] if term1.size else codes1
    c = pool.find(np.asarray(terms2, dtype=object))[codes2] if term2.size else codes2
    ok = (q < qkeys.size) & (c < len(pool))
    qi, ci = np.where(ok, q, 0), np.where(ok, c, 0)
    if ok.any():
        ok &= (qkeys[qi] == term1) & (pool.lower[ci] == term2) & (k[qi] == need) & (distance <= reach)
    if not ok.all():
        row = int(np.flatnonzero(~ok)[0])
        raise ValueError(
            f"neighbours row {row} ({term1[row]!r} -> {term2[row]!r}, need {need[row]}) does not match the "
            "dataset's first terms, their positive counts or its pool; rebuild it from these positives"
        )
    return q.astype(np.int64), c.astype(np.int64), distance, reach


def _settle(
    rows: tuple[np.ndarray, ...], need: np.ndarray, qlen: np.ndarray, pool_len: np.ndarray, reach: np.ndarray
) -> tuple[tuple[np.ndarray, ...], np.ndarray, np.ndarray]:
    """The known state of queries after a search: their rows reduced to a set known complete.

    ``rows`` (query, pool id, distance) hold, for each query ``q`` (0..n-1), every valid pool term
    within its ``need[q]``-th distance ``B`` and, within ``B`` characters in length, every one up
    to ``min(reach[q], B + RESUME_SLACK)`` (and maybe more). Kept are the rows within ``B`` and,
    within ``B`` characters in length, whole distance levels above ``B`` up to that distance while
    the query's rows stay within ``need[q] + RESUME_ROWS``; the new ``reach`` is the last level
    kept (``B`` at least). Returns the rows sorted by (query, distance, pool id), ``covered`` =
    ``B`` (length differences searched) and ``reach``; both ``_FAR`` where fewer than ``need[q]``
    rows exist (no bound: every valid term was found)."""
    q, c, d = rows
    order = np.lexsort((c, d, q))
    q, c, d = q[order], c[order], d[order]
    n = need.size
    first = np.searchsorted(q, np.arange(n), side="left")
    has = (np.bincount(q, minlength=n) >= need) & (need > 0)
    bound = np.full(n, _FAR, dtype=np.int64)
    bound[has] = d[first[has] + need[has] - 1]
    top = np.minimum(reach, bound + RESUME_SLACK)
    inside = (d <= top[q]) & (np.abs(pool_len[c] - qlen[q]) <= bound[q])
    q, c, d = q[inside], c[inside], d[inside]
    # Rows up to and including each row's distance level, per query.
    key = q * (int(d.max(initial=0)) + 1) + d
    through = np.searchsorted(key, key, side="right") - np.searchsorted(q, q, side="left")
    over = (d > bound[q]) & (through > need[q] + RESUME_ROWS)
    first_over = np.full(n, _FAR, dtype=np.int64)
    np.minimum.at(first_over, q[over], d[over])
    reach = np.where(first_over < _FAR, first_over - 1, top)
    keep = d <= reach[q]
    return (q[keep], c[keep], d[keep]), bound, reach


def assign_nearest(
    make_index: Callable[[], LevenshteinIndex],
    qkeys: np.ndarray,
    q_in_pool: np.ndarray,
    k: np.ndarray,
    pool_comp: np.ndarray,
    q_comp: np.ndarray,
    pool_len: np.ndarray,
    rng: np.random.Generator,
    counts: dict[str, int],
    first: tuple[np.ndarray, ...] | None = None,
) -> tuple[list[list[int]], set[int]]:
    """Sequentially assign nearest partners, skipping pairs already used in reverse; requery if short.

    First terms are committed in sorted order, as if visited one by one, each taking its ``k``
    nearest valid terms (ties in the order of its seed, :func:`biosem.levenshtein.index.rank_neighbours`) whose
    unordered pair is not taken yet. A first term left short (its nearest terms taken in reverse by
    earlier first terms: mutual nearest terms) needs more neighbours: its search *resumes* from the
    state the last one left (:meth:`LevenshteinIndex.scan` ``known``/``covered``), comparing only
    the pool terms of a larger length difference, and is exact when its new bound lies within the
    distance its kept rows are complete to (its reach: up to bound + :data:`RESUME_SLACK`, see
    :func:`_settle`); otherwise it starts again. A later first term that would pick a term of a
    deferred one is deferred too (its rows kept, not searched again), so no commit depends on a
    deferred first term's future picks: the result equals the one-by-one visit.

    ``first``: the scan rows (query, pool id, distance, reach) of the first search, made elsewhere
    (:func:`search_neighbours`, kept as :func:`_settle` keeps them); the index is then built only
    if a first term is searched again. ``pool_len``: the pool terms' lengths. Returns the partners
    (pool ids) per query and the used unordered pairs (codes lo * npool + hi).
    """
    nq = qkeys.size
    npool = pool_comp.size
    seeds = tie_seeds(rng, nq)
    qlen = term_lengths(qkeys)
    need = k.astype(np.int64)  # a copy (astype copies): raised below for queries searched again
    index: LevenshteinIndex | None = None
    reach = np.full(nq, _FAR, dtype=np.int64)
    if first is None:
        index = make_index()
        found = index.scan(list(qkeys), need[:, None], q_comp, pool_comp, slack=RESUME_SLACK)
        counts["pairs_verified"], counts["pairs_screened"] = index.pairs_verified, index.pairs_screened
        first = (found.query, found.candidate, found.distance)
    else:
        reach[first[0]] = first[3]
    rows, covered, reach = _settle(first[:3], need, qlen, pool_len, reach)
    chosen: list[list[int]] = [[] for _ in range(nq)]
    used: set[int] = set()
    todo = np.arange(nq)
    exhausted = np.zeros(nq, dtype=bool)
    local = np.full(nq, -1, dtype=np.int64)
    while todo.size:
        local[:] = -1
        local[todo] = np.arange(todo.size)
        sel = local[rows[0]] >= 0
        res = rank_neighbours(local[rows[0][sel]], rows[1][sel], rows[2][sel], need[todo], seeds[todo])
        bounds = np.searchsorted(res.query, np.arange(todo.size + 1))
        deferred: set[int] = set()
        again, short = [], []
        for pos, q in enumerate(todo.tolist()):
            cands = res.candidate[bounds[pos] : bounds[pos + 1]].tolist()
            a = int(q_in_pool[q])
            picked = []
            for c in cands:
                code = min(a, c) * npool + max(a, c)
                if code in used:
                    continue
                picked.append(c)
                if len(picked) == k[q]:
                    break
            is_short = len(picked) < k[q] and len(cands) >= need[q] and not exhausted[q]
            if is_short or (deferred and any(c in deferred for c in picked)):
                if is_short:
                    need[q] = need[q] + (k[q] - len(picked))
                    exhausted[q] = need[q] > npool
                    short.append(q)
                if a >= 0:
                    deferred.add(a)
                again.append(q)
                continue
            for c in picked:
                used.add(min(a, c) * npool + max(a, c))
            chosen[q] = picked
        if short:
            index = index or make_index()
            rows = _resume(
                index,
                np.asarray(short, dtype=np.int64),
                rows,
                need,
                covered,
                reach,
                qkeys,
                qlen,
                q_comp,
                pool_comp,
                pool_len,
                counts,
            )
        counts["requeried"] += len(short)
        counts["deferred"] += len(again) - len(short)
        todo = np.asarray(again, dtype=np.int64)
    return chosen, used


def _resume(
    index: LevenshteinIndex,
    sub: np.ndarray,
    rows: tuple[np.ndarray, ...],
    need: np.ndarray,
    covered: np.ndarray,
    reach: np.ndarray,
    qkeys: np.ndarray,
    qlen: np.ndarray,
    q_comp: np.ndarray,
    pool_comp: np.ndarray,
    pool_len: np.ndarray,
    counts: dict[str, int],
) -> tuple[np.ndarray, ...]:
    """Search the first terms ``sub`` (sorted) again for ``need[sub]`` neighbours, resuming from their
    rows (see :func:`assign_nearest`); ``covered``/``reach`` are updated in place, the new rows
    returned (the others' unchanged)."""
    local = np.full(qkeys.size, -1, dtype=np.int64)
    local[sub] = np.arange(sub.size)
    mine = local[rows[0]] >= 0
    known = ScanResult(local[rows[0][mine]], np.zeros(int(mine.sum()), dtype=np.int64), rows[1][mine], rows[2][mine], 0)
    found = index.scan(
        list(qkeys[sub]),
        need[sub][:, None],
        q_comp[sub],
        pool_comp,
        slack=RESUME_SLACK,
        known=known,
        covered=covered[sub],
    )
    new, bound, new_reach = _settle(
        (found.query, found.candidate, found.distance), need[sub], qlen[sub], pool_len, reach[sub]
    )
    # Exact where the new bound lies within the distances the kept rows were complete to.
    redo = np.flatnonzero(bound > reach[sub])
    if redo.size:
        again = index.scan(
            list(qkeys[sub[redo]]), need[sub[redo]][:, None], q_comp[sub[redo]], pool_comp, slack=RESUME_SLACK
        )
        fresh, fresh_bound, fresh_reach = _settle(
            (again.query, again.candidate, again.distance),
            need[sub[redo]],
            qlen[sub[redo]],
            pool_len,
            np.full(redo.size, _FAR, dtype=np.int64),
        )
        drop = np.isin(new[0], redo)
        new = tuple(
            np.concatenate([part[~drop], fpart]) for part, fpart in zip(new, (redo[fresh[0]], fresh[1], fresh[2]))
        )
        bound[redo], new_reach[redo] = fresh_bound, fresh_reach
        counts["restarted"] += int(redo.size)
    covered[sub], reach[sub] = bound, new_reach
    counts["pairs_verified"], counts["pairs_screened"] = index.pairs_verified, index.pairs_screened
    return tuple(np.concatenate([part[~mine], npart]) for part, npart in zip(rows, (sub[new[0]], new[1], new[2])))
