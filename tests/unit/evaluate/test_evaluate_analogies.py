"""Analogy completion (biosem.evaluate.analogies) on a hand-built 2-D embedding with known rankings.

Embedding: a = (1, 0), b = (0, 1), c = (0.6, 0.8) and candidates x1 = (-0.6, 0.8),
x2 = (-0.8, 0.6), x3 = (0, -1), x4 = (0.8, 0.6), all unit vectors. Worked by hand:

* 3CosAdd, x . (b - a + c) with b - a + c = (-0.4, 1.8): x1 1.68, x2 1.40, x4 0.76, x3 -1.80
  (b itself would score 1.80 and c 1.20: exclusion matters) -> x1 > x2 > x4 > x3.
* PairwiseDistance, cos(x - c, b - a): x1 0.7071, x2 0.6, x3 -0.4472, x4 -1 -> x1 > x2 > x3 > x4.
* 3CosMul with cos' = (cos + 1) / 2, eps = 0.001: x1 0.9 * 0.64 / 0.201 = 2.866,
  x2 0.8 * 0.5 / 0.101 = 3.960, x3 0, x4 0.8 * 0.98 / 0.901 = 0.870 -> x2 > x1 > x4 > x3.
"""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest
from gensim.models import KeyedVectors

from biosem.evaluate.analogies import (
    METHODS,
    IndexedAnalogies,
    analogy_measures,
    build_candidates,
    index_analogies,
    predictions_frame,
    rank_analogies,
    reference_scores,
    summary_rows,
    top_k_candidates,
)
from biosem.evaluate.models import WordVectors

NAMES = ["a", "b", "c", "x1", "x2", "x3", "x4"]
VECTORS = np.array([[1, 0], [0, 1], [0.6, 0.8], [-0.6, 0.8], [-0.8, 0.6], [0, -1], [0.8, 0.6]], dtype=np.float32)
A, B, C, X1, X2, X3, X4 = range(7)
EXPECTED_ORDER = {
    "3CosAdd": [X1, X2, X4, X3],
    "PairwiseDistance": [X1, X2, X3, X4],
    "3CosMul": [X2, X1, X4, X3],
}


def one(a: int, bs: list[int], c: int, ds: list[int], relation: str = "r") -> IndexedAnalogies:
    return IndexedAnalogies(
        np.array([relation], dtype=object),
        np.array([a]),
        np.array([c]),
        np.array([0, len(bs)]),
        np.array(bs),
        np.array([0, len(ds)]),
        np.array(ds),
    )


@pytest.mark.parametrize("method", METHODS)
def test_reference_formulas_by_hand(method: str) -> None:
    s = reference_scores(method, VECTORS, A, [B], C)
    assert np.isneginf(s[[A, B, C]]).all()
    expected = {
        "3CosAdd": [1.68, 1.40, -1.80, 0.76],
        "PairwiseDistance": [np.sqrt(0.5), 0.6, -1.2 / np.sqrt(3.6 * 2), -1.0],
        "3CosMul": [0.9 * 0.64 / 0.201, 0.8 * 0.5 / 0.101, 0.0, 0.8 * 0.98 / 0.901],
    }[method]
    got = s[[X1, X2, X3, X4]]
    if method == "3CosAdd":  # the reference returns the cosine; the hand values are x . q, |q| = sqrt(3.4)
        got = got * np.sqrt(0.4**2 + 1.8**2)
    assert got == pytest.approx(expected, abs=1e-6)


@pytest.mark.parametrize("method", METHODS)
def test_full_ranking_and_top_k(method: str) -> None:
    order = EXPECTED_ORDER[method]
    # Every candidate as the single answer: its rank is its place in the hand-worked order.
    for expected_rank, d in enumerate(order, start=1):
        got = rank_analogies(VECTORS, one(A, [B], C, [d]), [method], top_k=3)
        assert got.ranks[method].tolist() == [expected_rank]
        assert got.top[method][0].tolist() == order[:3]


def test_measures_with_two_answers_by_hand() -> None:
    # Answers {x1, x4}. Ranks: 3CosAdd (1, 3), PairwiseDistance (1, 4), 3CosMul (2, 3).
    got = rank_analogies(VECTORS, one(A, [B], C, [X1, X4]), METHODS, top_k=4)
    d_ptr = np.array([0, 2])
    expected = {
        "3CosAdd": ([1, 3], 0.5, (1 / 1 + 2 / 3) / 2, 1.0),
        "PairwiseDistance": ([1, 4], 0.5, (1 / 1 + 2 / 4) / 2, 1.0),
        "3CosMul": ([2, 3], 0.5, (1 / 2 + 2 / 3) / 2, 0.5),
    }
    for method, (ranks, acc_r, ap, rr) in expected.items():
        assert got.ranks[method].tolist() == ranks
        m = analogy_measures(got.ranks[method], d_ptr)
        assert m["AccR"][0] == pytest.approx(acc_r)
        assert m["MAP"][0] == pytest.approx(ap)
        assert m["MRR"][0] == pytest.approx(rr)


def test_measures_over_several_analogies() -> None:
    # Analogy 0: one answer at rank 1; analogy 1: answers at ranks 2 and 1 (unsorted input);
    # analogy 2: one answer at rank 5.
    ranks = np.array([1, 2, 1, 5])
    d_ptr = np.array([0, 1, 3, 4])
    m = analogy_measures(ranks, d_ptr)
    assert m["AccR"].tolist() == pytest.approx([1.0, 1.0, 0.0])
    assert m["MAP"].tolist() == pytest.approx([1.0, 1.0, 0.2])
    assert m["MRR"].tolist() == pytest.approx([1.0, 1.0, 0.2])


def test_all_info_uses_the_mean_of_the_b_vectors_and_excludes_every_b() -> None:
    # b-set {b, x2}: B = mean((0, 1), (-0.8, 0.6)) = (-0.4, 0.8); x2 is excluded as a b.
    got = rank_analogies(VECTORS, one(A, [B, X2], C, [X1]), METHODS, top_k=4)
    for method in METHODS:
        s = reference_scores(method, VECTORS, A, [B, X2], C)
        assert np.isneginf(s[X2])
        order = np.lexsort((np.arange(len(s)), -s))
        assert got.top[method][0].tolist() == order[:4].tolist()
        assert X2 not in got.top[method][0]
        assert got.ranks[method][0] == int(np.flatnonzero(order == X1)[0]) + 1


def test_ties_broken_by_candidate_order() -> None:
    # Two candidates with identical vectors: the one listed first ranks first.
    E = np.vstack([VECTORS, VECTORS[X1]])  # index 7 duplicates x1
    got = rank_analogies(E, one(A, [B], C, [7]), ["3CosAdd"], top_k=2)
    assert got.ranks["3CosAdd"].tolist() == [2]
    assert got.top["3CosAdd"][0].tolist() == [X1, 7]


def test_blocks_workers_and_chunks_do_not_change_results() -> None:
    rng = np.random.default_rng(7)
    n, dim = 500, 12
    E = rng.standard_normal((n, dim)).astype(np.float32)
    E /= np.linalg.norm(E, axis=1, keepdims=True)
    subjects = rng.choice(n, 8, replace=False)
    objects = {int(s): list(rng.choice(n, int(rng.integers(1, 3)), replace=False)) for s in subjects}
    rel, a, c, bs, ds = [], [], [], [], []
    for i, s in enumerate(subjects):
        for t in subjects:
            if s != t:
                rel.append(f"R{i % 2}")
                a.append(int(s))
                c.append(int(t))
                bs.append(objects[int(s)])
                ds.append([d for d in objects[int(t)] if d not in {s, t, *objects[int(s)]}] or [int((s + 1) % n)])
    analogies = IndexedAnalogies(
        np.array(rel, dtype=object),
        np.array(a),
        np.array(c),
        np.cumsum([0] + [len(x) for x in bs]),
        np.concatenate(bs),
        np.cumsum([0] + [len(x) for x in ds]),
        np.concatenate(ds),
    )
    base = rank_analogies(E, analogies, METHODS, top_k=5, block_mb=64, workers=1, chunk_rows=8)
    for kwargs in ({"block_mb": 0, "workers": 2, "chunk_rows": 3}, {"block_mb": 1, "workers": 1, "chunk_rows": 1}):
        other = rank_analogies(E, analogies, METHODS, top_k=5, **kwargs)
        for method in METHODS:
            assert np.array_equal(base.ranks[method], other.ranks[method])
            assert np.array_equal(base.top[method], other.top[method])
    # And agree with the float64 textbook formulas (these random scores have no near-ties).
    for method in METHODS:
        for i in range(len(analogies)):
            s = reference_scores(method, E, a[i], bs[i], c[i])
            order = np.lexsort((np.arange(n), -s))
            rank = np.empty(n, dtype=np.int64)
            rank[order] = np.arange(1, n + 1)
            d = analogies.d_idx[analogies.d_ptr[i] : analogies.d_ptr[i + 1]]
            assert base.ranks[method][analogies.d_ptr[i] : analogies.d_ptr[i + 1]].tolist() == rank[d].tolist()
            assert base.top[method][i].tolist() == order[:5].tolist()


def test_top_k_candidates_handles_padding_and_small_rows() -> None:
    # 3 real columns padded to 64: the padding (-inf) never appears; k larger than n is clipped.
    S = np.full((2, 64), -np.inf, dtype=np.float32)
    S[0, :3] = [0.1, 0.9, 0.5]
    S[1, :3] = [0.7, 0.7, -np.inf]
    assert top_k_candidates(S, 3, 5).tolist() == [[1, 2, 0], [0, 1, 2]]


def toy_model() -> WordVectors:
    kv = KeyedVectors(2)
    kv.add_vectors(
        ["aspirin", "pain", "insulin", "diabetes", "heart", "attack", "stroke"],
        np.array([[1, 0], [0, 1], [0.6, 0.8], [-0.6, 0.8], [-0.8, 0.6], [0, -1], [0.8, 0.6]], dtype=np.float32),
    )
    return WordVectors("toy", kv, lowercase=True)


def test_index_analogies_maps_terms_and_drops_unusable_answers() -> None:
    model = toy_model()
    keys, E = build_candidates(
        model, ["Aspirin", "pain", "insulin", "diabetes", "heart attack", "stroke", "unknown word"]
    )
    assert keys == ["aspirin", "diabetes", "heart attack", "insulin", "pain", "stroke"]
    assert np.allclose(np.linalg.norm(E, axis=1), 1.0)
    # "heart attack" = mean of heart and attack, normalised.
    mean = (np.array([-0.8, 0.6]) + np.array([0, -1])) / 2
    assert E[2] == pytest.approx(mean / np.linalg.norm(mean), abs=1e-6)
    frame = pd.DataFrame(
        {
            "relation": ["treats", "treats", "treats"],
            "a_term": ["aspirin", "aspirin", "nothing"],
            "b_terms": [["pain"], ["pain"], ["pain"]],
            "c_term": ["insulin", "insulin", "insulin"],
            "d_terms": [["Diabetes", "unknown word", "aspirin"], ["aspirin"], ["diabetes"]],
        }
    )
    index = {k: i for i, k in enumerate(keys)}
    analogies, counts = index_analogies(frame, model, index)
    assert counts == {"analogies": 3, "covered": 1, "answers_dropped_abc": 2, "answers_unknown": 1}
    assert analogies.a.tolist() == [index["aspirin"]]
    assert analogies.d_idx.tolist() == [index["diabetes"]]


def test_summary_rows_per_relation_macro_and_all() -> None:
    analogies = IndexedAnalogies(
        np.array(["r1", "r1", "r2"], dtype=object),
        np.array([0, 0, 1]),
        np.array([1, 2, 2]),
        np.array([0, 1, 2, 3]),
        np.array([3, 3, 4]),
        np.array([0, 1, 2, 3]),
        np.array([5, 6, 5]),
    )
    from biosem.evaluate.analogies import Rankings

    rankings = Rankings({"3CosAdd": np.array([1, 2, 4])}, {"3CosAdd": np.zeros((3, 0), dtype=np.int64)})
    rows = pd.DataFrame(summary_rows("m", "analogies/t/all_info", analogies, rankings, {"r1": 4, "r2": 1, "r3": 2}))
    mrr = rows[rows["metric"] == "3CosAdd:MRR"].set_index("subset")
    assert (
        mrr.loc["r1", "value"] == pytest.approx(0.75) and mrr.loc["r1", "n"] == 2 and mrr.loc["r1", "coverage"] == 0.5
    )
    assert mrr.loc["r2", "value"] == pytest.approx(0.25)
    assert pd.isna(mrr.loc["r3", "value"]) and mrr.loc["r3", "n"] == 0
    assert mrr.loc["macro", "value"] == pytest.approx((0.75 + 0.25) / 2)
    assert mrr.loc["all", "value"] == pytest.approx((1 + 0.5 + 0.25) / 3)
    assert mrr.loc["all", "coverage"] == pytest.approx(3 / 7)
    pred = predictions_frame("d", analogies, rankings, [f"t{i}" for i in range(7)])
    assert pred["first_answer_rank"].tolist() == [1, 2, 4]
