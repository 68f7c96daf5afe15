"""Known-answer tests of the shared statistics (biosem.evaluate.stats): values worked by hand."""

from __future__ import annotations

import math

import numpy as np
import pytest
from scipy import stats as sstats

from biosem.evaluate.stats import (
    auc,
    best_threshold,
    bootstrap_ci,
    mcnemar_test,
    mean_ci,
    spearman,
    spearman_along_axis,
    spearman_ci,
    threshold_accuracy,
)
from biosem.seeds import generator


def test_spearman_with_ties_by_hand() -> None:
    # predicted has a tie (7, 7): ranks 1, 2, 3.5, 5, 3.5. Deviations from 3: gold -2 -1 0 1 2,
    # predicted -2 -1 0.5 2 0.5 -> sum xy = 8, sum x^2 = 10, sum y^2 = 9.5 -> rho = 8 / sqrt(95).
    gold = np.array([1, 2, 3, 4, 5])
    predicted = np.array([5, 6, 7, 8, 7])
    assert spearman(gold, predicted) == pytest.approx(8 / math.sqrt(95), abs=1e-12)
    assert spearman_along_axis(gold[None, :].astype(float), predicted[None, :].astype(float))[0] == pytest.approx(
        8 / math.sqrt(95)
    )


def test_spearman_perfect_and_reversed_and_undefined() -> None:
    assert spearman([1, 2, 3], [10, 20, 30]) == pytest.approx(1.0)
    assert spearman([1, 2, 3], [3, 2, 1]) == pytest.approx(-1.0)
    assert math.isnan(spearman([1, 2, 3], [5, 5, 5]))
    assert math.isnan(spearman([1], [2]))
    with pytest.raises(ValueError):
        spearman([1, 2], [1, 2, 3])


def test_spearman_ci_is_seeded_and_brackets_rho() -> None:
    rng = np.random.default_rng(0)
    gold = rng.normal(size=80)
    predicted = gold + rng.normal(scale=0.8, size=80)
    rho = spearman(gold, predicted)
    low1, high1 = spearman_ci(gold, predicted, generator(1, "x"), n_resamples=500)
    low2, high2 = spearman_ci(gold, predicted, generator(1, "x"), n_resamples=500)
    assert (low1, high1) == (low2, high2)
    assert low1 < rho < high1
    assert -1 <= low1 and high1 <= 1
    assert spearman_ci(gold[:2], predicted[:2], generator(1, "x")) != spearman_ci(gold, predicted, generator(1, "x"))
    assert all(math.isnan(v) for v in spearman_ci(gold[:2], predicted[:2], generator(1, "x")))


def test_mean_ci_and_degenerate() -> None:
    values = np.array([1, 0, 1, 1, 0, 1, 1, 1, 0, 1] * 5, dtype=float)
    low, high = mean_ci(values, generator(3, "m"), n_resamples=500)
    assert low < values.mean() < high
    assert all(math.isnan(v) for v in mean_ci(np.ones(10), generator(3, "m")))
    assert all(
        math.isnan(v)
        for v in bootstrap_ci((values,), lambda x, axis: x.mean(axis=axis), generator(3, "m"), n_resamples=0)
    )


def test_auc_and_threshold_on_a_separable_set() -> None:
    labels = np.array([1, 1, 1, 0, 0, 0])
    scores = np.array([0.9, 0.8, 0.7, 0.3, 0.2, 0.1])
    assert auc(labels, scores) == 1.0
    th = best_threshold(labels, scores)
    # The cut lies between the highest negative (0.3) and the lowest positive (0.7).
    assert th.threshold == pytest.approx(0.5)
    assert th.accuracy == 1.0 and th.n == 6
    assert threshold_accuracy(labels, scores, th.threshold).all()


def test_auc_and_threshold_on_a_non_separable_set() -> None:
    # Positives 0.9, 0.4; negatives 0.6, 0.1. AUC: of the 4 (pos, neg) pairs, 3 are ordered -> 0.75.
    labels = np.array([1, 0, 1, 0])
    scores = np.array([0.9, 0.6, 0.4, 0.1])
    assert auc(labels, scores) == pytest.approx(0.75)
    # Cuts: all similar 2/4; >= 0.4: 3/4; >= 0.6: 2/4; >= 0.9: 3/4; none 2/4. Lowest best: >= 0.4,
    # reported as the midpoint between 0.1 and 0.4.
    th = best_threshold(labels, scores)
    assert th.accuracy == pytest.approx(0.75)
    assert th.threshold == pytest.approx(0.25)
    assert threshold_accuracy(labels, scores, th.threshold).tolist() == [True, False, True, True]


def test_threshold_with_tied_scores_and_extremes() -> None:
    # A positive and a negative share 0.5: whatever the cut, one of them is wrong.
    labels = np.array([1, 0, 1, 0])
    scores = np.array([0.5, 0.5, 0.8, 0.2])
    th = best_threshold(labels, scores)
    assert th.accuracy == pytest.approx(0.75)
    assert th.threshold == pytest.approx(0.35)  # midpoint of 0.2 and 0.5: predict 0.5 similar
    # All positives: the cut at the lowest score keeps everything similar.
    th = best_threshold(np.array([1, 1]), np.array([0.3, 0.7]))
    assert th.accuracy == 1.0 and th.threshold == pytest.approx(0.3)
    # All negatives: nothing is similar; the threshold lies just above the highest score.
    th = best_threshold(np.array([0, 0]), np.array([0.3, 0.7]))
    assert th.accuracy == 1.0 and th.threshold > 0.7
    assert math.isnan(auc(np.array([0, 0]), np.array([0.3, 0.7])))
    with pytest.raises(ValueError):
        best_threshold(np.array([], dtype=int), np.array([]))


def test_best_threshold_matches_brute_force() -> None:
    rng = np.random.default_rng(5)
    for _ in range(30):
        n = int(rng.integers(1, 40))
        labels = rng.integers(0, 2, n)
        scores = np.round(rng.normal(size=n), 1)  # many ties
        th = best_threshold(labels, scores)
        cuts = np.concatenate([np.unique(scores), [np.inf]])
        brute = max(np.mean((scores >= c).astype(int) == labels) for c in cuts)
        assert th.accuracy == pytest.approx(brute)
        assert np.mean(threshold_accuracy(labels, scores, th.threshold)) == pytest.approx(brute)


def test_mcnemar_exact_and_chi_square() -> None:
    # A right and B wrong on 5 items, never the reverse: exact two-sided p = 2 * 0.5^5.
    a = np.array([1, 1, 1, 1, 1, 1, 0, 0], dtype=bool)
    b = np.array([0, 0, 0, 0, 0, 1, 0, 0], dtype=bool)
    res = mcnemar_test(a, b)
    assert (res.n10, res.n01, res.exact) == (5, 0, True)
    assert res.pvalue == pytest.approx(0.0625)
    # Large discordant counts: chi-square with continuity correction (|30 - 10| - 1)^2 / 40.
    a = np.array([1] * 30 + [0] * 10 + [1] * 50, dtype=bool)
    b = np.array([0] * 30 + [1] * 10 + [1] * 50, dtype=bool)
    res = mcnemar_test(a, b)
    assert not res.exact
    assert res.statistic == pytest.approx(19**2 / 40)
    assert res.pvalue == pytest.approx(sstats.chi2.sf(19**2 / 40, 1))
    assert mcnemar_test(a, a).pvalue == 1.0


def test_mean_ci_agrees_with_scipy_bca() -> None:
    from scipy import stats as st

    rng = np.random.default_rng(11)
    for values in (rng.integers(0, 2, 300).astype(float), rng.gamma(2.0, size=300)):
        low, high = mean_ci(values, generator(2, "agree"), n_resamples=20000)
        ref = st.bootstrap((values,), np.mean, method="BCa", n_resamples=20000, random_state=np.random.default_rng(3))
        assert low == pytest.approx(ref.confidence_interval.low, abs=0.01)
        assert high == pytest.approx(ref.confidence_interval.high, abs=0.01)
    # Large n stays cheap (scipy's generic BCa jackknife is quadratic in n).
    big = rng.integers(0, 2, 200_000).astype(float)
    low, high = mean_ci(big, generator(2, "big"), n_resamples=2000)
    assert low < big.mean() < high and high - low < 0.01
