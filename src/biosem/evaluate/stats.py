"""Statistics shared by the evaluation families.

* Spearman's rho with tied ranks averaged (scipy), and a vectorised form for the bootstrap;
* BCa bootstrap confidence intervals (``scipy.stats.bootstrap``, seeded generator passed in);
* ROC AUC (scikit-learn) and the accuracy-maximising decision threshold on similarity scores;
* McNemar's test between two classifiers on the same items (statsmodels).
"""

from __future__ import annotations

import warnings
from collections.abc import Callable
from dataclasses import dataclass

import numpy as np
from scipy import stats
from sklearn.metrics import roc_auc_score
from statsmodels.stats.contingency_tables import mcnemar

NAN = float("nan")


def spearman(gold: np.ndarray, predicted: np.ndarray) -> float:
    """Spearman's rho of two equal-length score vectors, tied values given their average rank.

    Returns NaN for fewer than two items or when either vector is constant (rho undefined).
    """
    gold = np.asarray(gold, dtype=np.float64)
    predicted = np.asarray(predicted, dtype=np.float64)
    if gold.shape != predicted.shape:
        raise ValueError(f"spearman: shapes differ {gold.shape} != {predicted.shape}")
    if len(gold) < 2 or np.ptp(gold) == 0 or np.ptp(predicted) == 0:
        return NAN
    return float(stats.spearmanr(gold, predicted).statistic)


def _pearson_last_axis(x: np.ndarray, y: np.ndarray) -> np.ndarray:
    x = x - x.mean(axis=-1, keepdims=True)
    y = y - y.mean(axis=-1, keepdims=True)
    den = np.sqrt((x * x).sum(axis=-1) * (y * y).sum(axis=-1))
    with np.errstate(invalid="ignore", divide="ignore"):
        return (x * y).sum(axis=-1) / den


def spearman_along_axis(x: np.ndarray, y: np.ndarray, axis: int = -1) -> np.ndarray:
    """Spearman's rho computed along ``axis`` (average ranks for ties); NaN where undefined."""
    rx = stats.rankdata(np.moveaxis(x, axis, -1), axis=-1)
    ry = stats.rankdata(np.moveaxis(y, axis, -1), axis=-1)
    return _pearson_last_axis(rx, ry)


def bootstrap_ci(
    data: tuple[np.ndarray, ...],
    statistic: Callable[..., np.ndarray],
    rng: np.random.Generator,
    n_resamples: int = 2000,
    confidence_level: float = 0.95,
) -> tuple[float, float]:
    """BCa bootstrap interval of a vectorised ``statistic(*data, axis=-1)`` over paired items.

    Items (the last axis of every array in ``data``) are resampled together. Returns ``(NaN, NaN)``
    when there are fewer than three items, ``n_resamples`` is 0, or the interval is undefined
    (e.g. every resample degenerate). Source: Efron (1987); ``scipy.stats.bootstrap(method="BCa")``.
    """
    n = len(data[0])
    if n < 3 or n_resamples <= 0:
        return NAN, NAN
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        with np.errstate(invalid="ignore", divide="ignore"):
            res = stats.bootstrap(
                data,
                statistic,
                paired=True,
                vectorized=True,
                axis=-1,
                n_resamples=n_resamples,
                confidence_level=confidence_level,
                method="BCa",
                batch=max(1, min(n_resamples, 2_000_000 // max(n, 1))),
                random_state=rng,
            )
    low, high = float(res.confidence_interval.low), float(res.confidence_interval.high)
    if not (np.isfinite(low) and np.isfinite(high)):
        return NAN, NAN
    return low, high


def spearman_ci(
    gold: np.ndarray,
    predicted: np.ndarray,
    rng: np.random.Generator,
    n_resamples: int = 2000,
    confidence_level: float = 0.95,
) -> tuple[float, float]:
    """BCa bootstrap interval of Spearman's rho, resampling pairs (see :func:`bootstrap_ci`)."""
    return bootstrap_ci(
        (np.asarray(gold, dtype=np.float64), np.asarray(predicted, dtype=np.float64)),
        spearman_along_axis,
        rng,
        n_resamples,
        confidence_level,
    )


def mean_ci(
    values: np.ndarray,
    rng: np.random.Generator,
    n_resamples: int = 2000,
    confidence_level: float = 0.95,
) -> tuple[float, float]:
    """BCa bootstrap interval of a mean (e.g. accuracy over 0/1 outcomes), in O(n + B) memory.

    The same BCa interval as :func:`bootstrap_ci` (Efron 1987; scipy's formulas), computed for the
    mean in closed form where scipy's generic jackknife is O(n^2): bootstrap means are drawn by
    resampling items (for 0/1 outcomes, equivalently as Binomial(n, p) / n), the bias correction
    z0 comes from their distribution, and the acceleration from the jackknife means
    ``(n * mean - x_i) / (n - 1)``. Returns ``(NaN, NaN)`` for fewer than three items, all-equal
    values, or ``n_resamples`` 0.
    """
    x = np.asarray(values, dtype=np.float64)
    n = len(x)
    if n < 3 or n_resamples <= 0 or np.ptp(x) == 0:
        return NAN, NAN
    theta = x.mean()
    if np.isin(x, (0.0, 1.0)).all():
        boot = rng.binomial(n, theta, size=n_resamples) / n
    else:
        boot = np.empty(n_resamples)
        step = max(1, 5_000_000 // n)
        for start in range(0, n_resamples, step):
            k = min(step, n_resamples - start)
            boot[start : start + k] = x[rng.integers(0, n, size=(k, n))].mean(axis=1)
    z0 = stats.norm.ppf(np.mean(boot < theta))
    jack = (n * theta - x) / (n - 1)
    dev = jack.mean() - jack
    den = 6.0 * np.sum(dev**2) ** 1.5
    accel = np.sum(dev**3) / den if den > 0 else 0.0
    alpha = (1.0 - confidence_level) / 2.0
    z = stats.norm.ppf([alpha, 1.0 - alpha])
    with np.errstate(invalid="ignore", divide="ignore"):
        levels = stats.norm.cdf(z0 + (z0 + z) / (1.0 - accel * (z0 + z)))
    if not np.isfinite(levels).all():
        return NAN, NAN
    low, high = np.quantile(boot, levels)
    return float(low), float(high)


def auc(labels: np.ndarray, scores: np.ndarray) -> float:
    """ROC AUC of ``scores`` for binary ``labels`` (1 = similar); NaN when one class is absent.

    Ties between a positive and a negative count one half (Mann-Whitney), as in scikit-learn.
    """
    labels = np.asarray(labels)
    if len(labels) == 0 or labels.min() == labels.max():
        return NAN
    return float(roc_auc_score(labels, np.asarray(scores, dtype=np.float64)))


@dataclass(frozen=True)
class Threshold:
    """A decision rule ``score >= threshold`` -> similar, and its accuracy on the tuning items."""

    threshold: float
    accuracy: float
    n: int


def best_threshold(labels: np.ndarray, scores: np.ndarray) -> Threshold:
    """The accuracy-maximising threshold on ``scores`` for binary ``labels`` (exact, O(n log n)).

    Every cut between consecutive distinct scores is tried, plus "everything similar" and
    "everything dissimilar". Among equally accurate cuts the lowest is taken. The threshold
    reported is the midpoint between the highest score predicted dissimilar and the lowest score
    predicted similar (the score itself at the extremes), so that ``score >= threshold`` applies
    unchanged to new items.

    Raises:
        ValueError: no items, or labels and scores differ in length.
    """
    labels = np.asarray(labels).astype(np.int64)
    scores = np.asarray(scores, dtype=np.float64)
    if len(labels) != len(scores):
        raise ValueError(f"best_threshold: {len(labels)} labels but {len(scores)} scores")
    if len(labels) == 0:
        raise ValueError("best_threshold: no items to tune on")
    values, inverse = np.unique(scores, return_inverse=True)
    pos = np.bincount(inverse, weights=labels, minlength=len(values))
    tot = np.bincount(inverse, minlength=len(values)).astype(np.float64)
    neg = tot - pos
    # Cut k (0..m): values[k:] predicted similar. Correct = positives at or above + negatives below.
    pos_at_or_above = np.concatenate([np.cumsum(pos[::-1])[::-1], [0.0]])
    neg_below = np.concatenate([[0.0], np.cumsum(neg)])
    correct = pos_at_or_above + neg_below
    k = int(np.argmax(correct))
    if k == 0:
        threshold = float(values[0])
    elif k == len(values):
        threshold = float(np.nextafter(values[-1], np.inf))
    else:
        threshold = float((values[k - 1] + values[k]) / 2.0)
    return Threshold(threshold, float(correct[k] / len(labels)), len(labels))


def threshold_accuracy(labels: np.ndarray, scores: np.ndarray, threshold: float) -> np.ndarray:
    """Per-item correctness (bool array) of the rule ``score >= threshold`` -> label 1."""
    labels = np.asarray(labels).astype(np.int64)
    predicted = (np.asarray(scores, dtype=np.float64) >= threshold).astype(np.int64)
    return predicted == labels


@dataclass(frozen=True)
class McNemar:
    """McNemar's test on paired correctness: n01 = only B right, n10 = only A right."""

    statistic: float
    pvalue: float
    n01: int
    n10: int
    exact: bool


def mcnemar_test(correct_a: np.ndarray, correct_b: np.ndarray, exact_below: int = 25) -> McNemar:
    """McNemar's test of two classifiers on the same items (statsmodels).

    The exact binomial test is used when the discordant count n01 + n10 is below ``exact_below``,
    else the chi-square statistic with continuity correction. Source: McNemar (1947); Dietterich
    (1998) for comparing classifiers.
    """
    a = np.asarray(correct_a, dtype=bool)
    b = np.asarray(correct_b, dtype=bool)
    if a.shape != b.shape:
        raise ValueError(f"mcnemar_test: shapes differ {a.shape} != {b.shape}")
    n11 = int(np.sum(a & b))
    n10 = int(np.sum(a & ~b))
    n01 = int(np.sum(~a & b))
    n00 = int(np.sum(~a & ~b))
    if n01 + n10 == 0:
        return McNemar(0.0, 1.0, n01, n10, True)
    exact = (n01 + n10) < exact_below
    res = mcnemar([[n11, n10], [n01, n00]], exact=exact, correction=True)
    return McNemar(float(res.statistic), float(res.pvalue), n01, n10, exact)
