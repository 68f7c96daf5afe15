"""Term-pair similarity metrics and scores (biosem.evaluate.termpairs), worked by hand.

Two short phrases in 2-D: "heart attack" with heart = (2, 0), attack = (0, 1); "cardiac
infarction" with cardiac = (1, 1), infarction = (-1, 3).

* max Jaccard: max-pooled (2, 1) and (1, 3); sum(min) = 1 + 1 = 2, sum(max) = 2 + 3 = 5 -> 0.4.
* fuzzy (DynaMax) Jaccard: universe U = heart, attack, cardiac, infarction. Memberships: heart.U =
  (4, 0, 2, -2), attack.U = (0, 1, 1, 3) -> max (4, 1, 2, 3); cardiac.U = (2, 1, 2, 2), infarction.U
  = (-2, 3, 2, 10) -> max (2, 3, 2, 10). sum(min) = 2 + 1 + 2 + 3 = 8, sum(max) = 4 + 3 + 2 + 10 =
  19 -> 8 / 19.
* avg_cos: means (1, 0.5) and (0, 2) -> 1 / (sqrt(1.25) * 2).
* pair_cos: unit words (1, 0), (0, 1) and (1, 1)/sqrt(2), (-1, 3)/sqrt(10): mean of the four
  cosines (1/sqrt2 - 1/sqrt10 + 1/sqrt2 + 3/sqrt10) / 4.
"""

from __future__ import annotations

import math

import numpy as np
import pandas as pd
import pytest
from gensim.models import KeyedVectors
from scipy import stats

from biosem.evaluate.models import WordVectors
from biosem.evaluate.stats import mcnemar_test
from biosem.evaluate.termpairs import (
    TermPairEvalParams,
    category_members,
    category_overlap,
    evaluate_termpair_dataset,
    fuzzy_jaccard,
    fuzzy_jaccard_rows,
    max_jaccard,
    mcnemar_rows,
    rowwise_kendall,
    rowwise_pearson,
    rowwise_spearman,
    sample_members,
    term_similarities,
    tuning_half,
)
from biosem.seeds import generator


def model_2d() -> WordVectors:
    kv = KeyedVectors(2)
    kv.add_vectors(
        ["heart", "attack", "cardiac", "infarction"], np.array([[2, 0], [0, 1], [1, 1], [-1, 3]], dtype=np.float32)
    )
    return WordVectors("toy", kv, lowercase=True)


def test_phrase_metrics_by_hand() -> None:
    scores, covered = term_similarities(model_2d(), ["heart attack"], ["Cardiac infarction"])
    assert covered.tolist() == [True]
    assert scores["max_jaccard"][0] == pytest.approx(0.4)
    assert scores["fuzzy_jaccard"][0] == pytest.approx(8 / 19)
    assert scores["avg_cos"][0] == pytest.approx(1 / (math.sqrt(1.25) * 2))
    s2, s10 = math.sqrt(2), math.sqrt(10)
    assert scores["pair_cos"][0] == pytest.approx((1 / s2 - 1 / s10 + 1 / s2 + 3 / s10) / 4)


def test_padded_reference_functions_agree_with_the_hand_values() -> None:
    w1 = np.array([[[2, 0], [0, 1]]], dtype=float)
    w2 = np.array([[[1, 1], [-1, 3], [0, 0]]], dtype=float)
    m1 = np.array([[True, True]])
    m2 = np.array([[True, True, False]])  # a padded slot must not count
    assert max_jaccard(w1, m1, w2, m2)[0] == pytest.approx(0.4)
    assert fuzzy_jaccard(w1, m1, w2, m2)[0] == pytest.approx(8 / 19)


def test_compiled_dynamax_jaccard_equals_the_padded_reference() -> None:
    rng = np.random.default_rng(3)
    kv = KeyedVectors(5)
    words = [f"w{k}" for k in range(12)]
    kv.add_vectors(words, rng.normal(size=(12, 5)).astype(np.float32))
    model = WordVectors("toy", kv, lowercase=True)
    phrases = [" ".join(rng.choice(words + ["oov"], size=int(rng.integers(1, 6)))) for _ in range(40)] + ["oov"]
    pw = model.phrase_words(phrases)
    i1 = rng.integers(0, len(phrases), size=200)
    i2 = rng.integers(0, len(phrases), size=200)
    w1, m1 = pw.padded(i1)
    w2, m2 = pw.padded(i2)
    np.testing.assert_allclose(fuzzy_jaccard_rows(pw, i1, i2), fuzzy_jaccard(w1, m1, w2, m2), rtol=1e-12, atol=1e-15)


def test_correlations_across_dimensions_by_hand_and_against_scipy() -> None:
    # Kendall: x = 1 2 3 4, y = 1 3 2 4 -> 5 concordant, 1 discordant -> 4/6.
    x = np.array([[1, 2, 3, 4], [1, 2, 2, 3]], dtype=float)
    y = np.array([[1, 3, 2, 4], [1, 2, 3, 4]], dtype=float)
    tau = rowwise_kendall(x, y)
    assert tau[0] == pytest.approx(4 / 6)
    # Tie in x (2, 2): 5 concordant, the tied pair counts in neither -> tau-b = 5 / sqrt(5 * 6).
    assert tau[1] == pytest.approx(5 / math.sqrt(30))
    rng = np.random.default_rng(1)
    a = np.round(rng.normal(size=(20, 9)), 1)
    b = np.round(rng.normal(size=(20, 9)), 1)
    for i in range(20):
        assert rowwise_kendall(a, b)[i] == pytest.approx(stats.kendalltau(a[i], b[i]).statistic)
        assert rowwise_spearman(a, b)[i] == pytest.approx(stats.spearmanr(a[i], b[i]).statistic)
        assert rowwise_pearson(a, b)[i] == pytest.approx(stats.pearsonr(a[i], b[i]).statistic)


def test_correlation_metrics_use_the_mean_vectors() -> None:
    kv = KeyedVectors(4)
    kv.add_vectors(["a", "b", "c"], np.array([[1, 2, 3, 4], [3, 2, 1, 0], [1, 3, 2, 4]], dtype=np.float32))
    m = WordVectors("toy", kv, lowercase=True)
    scores, covered = term_similarities(m, ["a b", "a"], ["c", "c"], ["pearson", "spearman", "kendall"])
    assert covered.all()
    # mean(a, b) = (2, 2, 2, 2) is constant: correlation undefined -> 0.
    assert scores["pearson"][0] == 0 and scores["kendall"][0] == 0
    assert scores["kendall"][1] == pytest.approx(4 / 6)
    assert scores["spearman"][1] == pytest.approx(0.8)


def test_coverage_ignores_unknown_words_unless_all_are_required() -> None:
    m = model_2d()
    scores, covered = term_similarities(m, ["heart failure", "failure"], ["cardiac", "cardiac"], ["avg_cos"])
    assert covered.tolist() == [True, False]
    assert scores["avg_cos"][0] == pytest.approx(1 / math.sqrt(2))  # heart alone vs cardiac
    assert math.isnan(scores["avg_cos"][1])
    _, covered = term_similarities(m, ["heart failure"], ["cardiac"], ["avg_cos"], require_all_words=True)
    assert covered.tolist() == [False]
    with pytest.raises(ValueError, match="unknown similarities"):
        term_similarities(m, ["heart"], ["cardiac"], ["cosine"])


def dataset(n_pos: int, separable: bool) -> pd.DataFrame:
    """Pairs whose avg_cos is controlled: similar pairs (heart, cardiac-ish) vs dissimilar."""
    rows = []
    for i in range(n_pos):
        rows.append(("heart", "cardiac", 1))
        rows.append(("heart", "infarction" if separable else ("cardiac" if i % 2 else "infarction"), 0))
    return pd.DataFrame(rows, columns=["term1", "term2", "label"])


def test_dataset_scores_auc_threshold_and_accuracy() -> None:
    m = model_2d()
    pairs = dataset(10, separable=True)
    tune = tuning_half(len(pairs), generator(1, "t"))
    assert tune.sum() == 10
    params = TermPairEvalParams(similarities=("avg_cos", "max_jaccard"), n_resamples=0)
    rows, pred = evaluate_termpair_dataset(m, "termpairs/x/d", pairs, tune, params, generator(1, "ci"))
    table = pd.DataFrame(rows).set_index(["subset", "metric"])
    assert table.loc[("all", "avg_cos:auc"), "value"] == 1.0
    assert table.loc[("test_half", "avg_cos:accuracy"), "value"] == 1.0
    assert table.loc[("test_half", "avg_cos:accuracy"), "n"] == 10
    th = table.loc[("tune_half", "avg_cos:threshold"), "value"]
    cos_pos, cos_neg = 1 / math.sqrt(2), -1 / math.sqrt(10)
    assert th == pytest.approx((cos_pos + cos_neg) / 2)
    assert set(pred["similarity"]) == {"avg_cos", "max_jaccard"} and pred["correct"].all()
    # Non-separable: half of the negatives look exactly like positives -> AUC 0.75.
    rows, _ = evaluate_termpair_dataset(m, "d", dataset(10, separable=False), tune, params, generator(1, "ci"))
    table = pd.DataFrame(rows).set_index(["subset", "metric"])
    assert table.loc[("all", "avg_cos:auc"), "value"] == pytest.approx(0.75)
    assert table.loc[("tune_half", "avg_cos:accuracy"), "value"] < 1.0


def test_mcnemar_rows_pair_models_on_shared_items() -> None:
    a = pd.DataFrame({"dataset": "d", "pair": np.arange(10), "similarity": "avg_cos", "correct": [True] * 10})
    b = pd.DataFrame(
        {"dataset": "d", "pair": np.arange(10), "similarity": "avg_cos", "correct": [True] * 4 + [False] * 6}
    )
    c = b.iloc[:8]
    rows = pd.DataFrame(mcnemar_rows({"m2": b, "m1": a, "m3": c}))
    assert rows["corpus"].isna().all() and rows["coverage"].isna().all()
    p = rows[rows["metric"] == "avg_cos:mcnemar_p"].set_index(["model", "model_b"])
    assert list(p.index) == [("m1", "m2"), ("m1", "m3"), ("m2", "m3")]  # one model per column, A < B
    assert p.loc[("m1", "m2"), "value"] == pytest.approx(2 * 0.5**6)
    assert p.loc[("m1", "m3"), "n"] == 8
    assert p.loc[("m2", "m3"), "value"] == 1.0


def test_mcnemar_rows_group_by_dataset_and_similarity_in_sorted_order() -> None:
    rng = np.random.default_rng(5)
    frames = {}
    for model in ("x", "y"):
        parts = [
            pd.DataFrame({"dataset": d, "similarity": sim, "pair": np.arange(n), "correct": rng.random(n) < 0.6})
            for d, n in (("termpairs/b/k", 40), ("termpairs/a/k", 30))
            for sim in ("pearson", "avg_cos")
        ]
        frame = pd.concat(parts, ignore_index=True)
        frame = frame[~((frame["dataset"] == "termpairs/a/k") & (frame["pair"] % (3 if model == "x" else 4) == 0))]
        frames[model] = frame.sample(frac=1.0, random_state=1)  # row order does not matter
    rows = pd.DataFrame(mcnemar_rows(frames))
    p = rows[rows["metric"].str.endswith(":mcnemar_p")]
    assert list(zip(p["dataset"], p["metric"], strict=True)) == [
        ("termpairs/a/k", "avg_cos:mcnemar_p"),
        ("termpairs/a/k", "pearson:mcnemar_p"),
        ("termpairs/b/k", "avg_cos:mcnemar_p"),
        ("termpairs/b/k", "pearson:mcnemar_p"),
    ]
    assert p["n"].tolist() == [15, 15, 40, 40]  # a/k: pairs dropped by neither model (not % 3, not % 4)
    for (dataset, metric), n in zip(zip(p["dataset"], p["metric"], strict=True), p["n"], strict=True):
        sim = metric.split(":")[0]
        x, y = (f[(f["dataset"] == dataset) & (f["similarity"] == sim)] for f in (frames["x"], frames["y"]))
        joined = x.merge(y, on="pair")
        expected = mcnemar_test(joined["correct_x"].to_numpy(), joined["correct_y"].to_numpy())
        value = p[(p["dataset"] == dataset) & (p["metric"] == metric)]["value"].item()
        assert len(joined) == n and value == pytest.approx(expected.pvalue, abs=1e-12)
    categorical = {m: f.astype({"dataset": "category", "similarity": "category"}) for m, f in frames.items()}
    assert mcnemar_rows(categorical) == mcnemar_rows(frames)


def test_category_members_and_sampling() -> None:
    relations = pd.DataFrame(
        {
            "rel": ["is_a"] * 7 + ["part_of"],
            "subject_id": ["A1", "A2", "A21", "B1", "B2", "X", "X", "B9"],
            "object_id": ["A", "A", "A2", "B", "B1", "A1", "B2", "B"],
        }
    )
    members = category_members(relations, {"alpha": "A", "beta": "B"}, ["is_a"])
    # X sits below both roots and is dropped; B9 is reached only by part_of.
    assert members.to_dict("records") == [
        {"concept_id": "A1", "category": "alpha"},
        {"concept_id": "A2", "category": "alpha"},
        {"concept_id": "A21", "category": "alpha"},
        {"concept_id": "B1", "category": "beta"},
        {"concept_id": "B2", "category": "beta"},
    ]
    sample = sample_members(members, 2, generator(1, "s"))
    assert sample.groupby("category").size().to_dict() == {"alpha": 2, "beta": 2}
    assert sample.equals(sample_members(members, 2, generator(1, "s")))
    with pytest.raises(ValueError, match="not found"):
        category_members(relations, {"alpha": "A", "gamma": "G"}, ["is_a"])


def test_category_overlap_separated_and_identical() -> None:
    kv = KeyedVectors(2)
    kv.add_vectors(["a1", "a2", "b1", "b2"], np.array([[1, 0], [1, 0.01], [0, 1], [0.01, 1]], dtype=np.float32))
    m = WordVectors("toy", kv, lowercase=True)
    terms = pd.DataFrame({"term": ["a1", "a2", "b1", "b2", "zzz"], "category": ["A", "A", "B", "B", "B"]})
    r = category_overlap(m, terms, bins=20)
    assert r["overlap"] == 0.0  # within ~1, between ~0: disjoint bins
    assert r["n_terms"] == 4 and r["coverage"] == pytest.approx(0.8)
    assert r["n_within"] == 2 and r["n_between"] == 4
    same = pd.DataFrame({"term": ["a1", "a2", "b1", "b2"], "category": ["A", "B", "A", "B"]})
    # Within pairs (a1, b1), (a2, b2) ~ 0 and between pairs include (a1, a2) ~ 1: partial overlap.
    r = category_overlap(m, same, bins=20)
    assert r["overlap"] == pytest.approx(0.5)
