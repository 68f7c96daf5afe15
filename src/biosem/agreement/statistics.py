"""Agreement statistics: IAA-1 / IAA-2 (Spearman), Krippendorff's alpha, Cohen's and Fleiss' kappa.

Thin wrappers over pandas, scipy, ``krippendorff``, scikit-learn and statsmodels whose counting
conventions are explicit parameters rather than library defaults.

Ratings are an ``items x raters`` float matrix with ``NaN`` where a rater did not rate an item
(the orientation of the SimVerb-3500 annotator matrix; Krippendorff's reliability data is its
transpose).

* **IAA-1** (SimLex-999, Hill et al. 2015 § 3; SimVerb-3500; Bio-SimLex, Chiu et al. 2018): the
  mean, over unordered rater pairs, of the Spearman correlation of the two raters on the items both
  rated (pairwise-complete), with average ranks for ties and the ranks recomputed on the shared
  items. A pair counts when it shares at least ``min_shared`` items and its correlation is defined.
* **IAA-2**: the mean, over raters, of the Spearman correlation between a rater's ratings and the
  mean rating of all *other* raters on the same items (items nobody else rated are left out); a
  rater counts when at least ``min_shared`` such items remain and the correlation is defined.
* A correlation is **undefined** when one side is constant over the shared items (zero variance).
  ``undefined="skip"`` leaves it out of the mean (and counts it); ``undefined="zero"`` counts it as
  0. Pairs below ``min_shared`` are always left out (and counted).

The pairwise correlations of a discrete rating scale (Likert 0-6) come from an exact level-count
kernel (sparse matrix products, :func:`_pairwise_spearman_levels`); otherwise from
``pandas.DataFrame.corr(method="spearman", min_periods=k)``, whose Cython kernel does the same for
every column pair (it re-ranks the pairwise-complete values whenever the two columns' missing
patterns differ, and yields NaN for a zero variance or fewer than ``min_periods`` shared values).
Neither loops over rater pairs in Python.
"""

from __future__ import annotations

import warnings
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Literal

import krippendorff
import numpy as np
import pandas as pd
from scipy.sparse import csr_matrix
from sklearn.metrics import cohen_kappa_score
from statsmodels.stats.inter_rater import fleiss_kappa as _statsmodels_fleiss_kappa

UNDEFINED_POLICIES = ("skip", "zero")
ALPHA_LEVELS = ("nominal", "ordinal", "interval", "ratio")

Undefined = Literal["skip", "zero"]


@dataclass(frozen=True)
class SpearmanAgreement:
    """An IAA-1 or IAA-2 value with the counts behind it.

    Attributes:
        value: mean of the counted correlations (NaN when none counts).
        n_raters: raters in the matrix.
        n_counted: correlations averaged (rater pairs for IAA-1, raters for IAA-2).
        n_undefined: correlations with enough shared items but undefined (a constant side);
            counted as 0 when ``undefined == "zero"``, left out when ``"skip"``.
        n_below_min_shared: rater pairs (IAA-1) or raters (IAA-2) with fewer than ``min_shared``
            shared items (pairs sharing no item included), always left out.
        min_shared: the minimum number of shared items used.
        undefined: the policy for undefined correlations (``skip`` or ``zero``).
        per_rater: float array (n_raters,): IAA-1: each rater's mean correlation with the others
            (same conventions); IAA-2: each rater's correlation with the others' mean. NaN where
            nothing counts.
    """

    value: float
    n_raters: int
    n_counted: int
    n_undefined: int
    n_below_min_shared: int
    min_shared: int
    undefined: str
    per_rater: np.ndarray


def _check_matrix(ratings: np.ndarray) -> np.ndarray:
    x = np.asarray(ratings, dtype=np.float64)
    if x.ndim != 2:
        raise ValueError(f"ratings must be a 2-d items x raters matrix; got shape {x.shape}")
    if np.isinf(x).any():
        raise ValueError("ratings contain infinite values; use NaN for 'not rated'")
    return x


def _check_conventions(min_shared: int, undefined: str) -> None:
    if min_shared < 2:
        raise ValueError(f"min_shared must be at least 2 (a correlation needs two items); got {min_shared}")
    if undefined not in UNDEFINED_POLICIES:
        raise ValueError(f"undefined must be one of {UNDEFINED_POLICIES}; got {undefined!r}")


def shared_counts(ratings: np.ndarray) -> np.ndarray:
    """Items rated by both raters, for every rater pair: int64 (n_raters, n_raters), diagonal = own count."""
    rated = (~np.isnan(_check_matrix(ratings))).astype(np.float64)
    return np.rint(rated.T @ rated).astype(np.int64)


MAX_LEVELS = 64
"""Rating scales with at most this many distinct values use the level-count kernel."""
MAX_LEVEL_CELLS = 50_000_000
"""... provided n_raters**2 * n_levels stays below this (the kernel's dense count array)."""


def pairwise_spearman(ratings: np.ndarray, min_shared: int = 2) -> np.ndarray:
    """Spearman correlation of every rater pair on their shared items.

    Args:
        ratings: float (n_items, n_raters), NaN = not rated.
        min_shared: pairs sharing fewer items get NaN.

    Returns:
        float64 (n_raters, n_raters), symmetric; NaN on the diagonal, below ``min_shared`` and
        where undefined (a constant side). Ties get average ranks, recomputed on the shared items.

    Discrete scales (at most :data:`MAX_LEVELS` distinct values, e.g. a 0-6 Likert scale) go
    through :func:`_pairwise_spearman_levels`; other data through pandas ``corr``. Both are exact
    and agree to rounding (tested).
    """
    x = _check_matrix(ratings)
    _check_conventions(min_shared, "skip")
    levels = np.unique(x[~np.isnan(x)])
    k = x.shape[1]
    if len(levels) <= MAX_LEVELS and k * k * max(len(levels), 1) <= MAX_LEVEL_CELLS:
        return _pairwise_spearman_levels(x, levels, min_shared)
    rho = pd.DataFrame(x).corr(method="spearman", min_periods=min_shared).to_numpy(copy=True)
    np.fill_diagonal(rho, np.nan)
    return rho


BLOCK_PRODUCTS = 20_000_000
"""Upper bound on joint level counts handled at once by the level kernel (bounds its memory)."""


def _rater_blocks(rated: csr_matrix, budget: int) -> list[tuple[int, int]]:
    """Consecutive rater ranges whose joint-count products stay within ``budget`` (at least one rater).

    Rater ``a`` produces at most ``sum over a's items of (raters of the item)`` joint counts.
    """
    per_item = np.asarray(rated.sum(axis=1)).ravel()
    work = np.asarray(rated.T @ per_item).ravel()
    blocks, start, acc = [], 0, 0.0
    for a, cost in enumerate(work):
        if a > start and acc + cost > budget:
            blocks.append((start, a))
            start, acc = a, 0.0
        acc += cost
    blocks.append((start, len(work)))
    return blocks


def _pairwise_spearman_levels(x: np.ndarray, levels: np.ndarray, min_shared: int) -> np.ndarray:
    """Exact pairwise-complete Spearman for ratings taking few distinct values (level counts).

    With ``C[a, v, b]`` = number of items rater ``a`` rated at level ``v`` among the items ``b``
    also rated, the average rank of level ``v`` of ``a`` on the items shared with ``b`` is
    ``sum(C[a, :v, b]) + (C[a, v, b] + 1) / 2``; sums of squared ranks follow from ``C``, and the
    cross products from the joint level counts ``J = A.T @ A`` of the sparse one-hot matrix ``A``
    (items x (rater, level)), computed for blocks of raters so that memory stays bounded
    (:data:`BLOCK_PRODUCTS`). Pearson's formula on these sums is Spearman's rho with ties averaged.
    All sums are of quarter-integers below 2**50 for up to ~10**4 shared items: exact in float64.
    """
    n_items, k = x.shape
    m = len(levels)
    if m == 0:
        return np.full((k, k), np.nan)
    item, rater = np.nonzero(~np.isnan(x))
    code = np.searchsorted(levels, x[item, rater])
    ones = np.ones(len(item))
    onehot = csr_matrix((ones, (item, rater * m + code)), shape=(n_items, k * m))
    rated = csr_matrix((ones, (item, rater)), shape=(n_items, k))
    counts = (onehot.T @ rated).toarray().reshape(k, m, k)
    ranks = np.cumsum(counts, axis=1) - counts + (counts + 1) / 2
    n = counts.sum(axis=1)
    sum_sq = (counts * ranks * ranks).sum(axis=1)
    cross = np.zeros((k, k))
    onehot_t = onehot.T.tocsr()
    for start, stop in _rater_blocks(rated, BLOCK_PRODUCTS):
        joint = (onehot_t[start * m : stop * m] @ onehot).tocoo()
        a, v = np.divmod(joint.row, m)
        b, w = np.divmod(joint.col, m)
        weights = joint.data * ranks[a + start, v, b] * ranks[b, w, a + start]
        cross[start:stop] = np.bincount(a * k + b, weights=weights, minlength=(stop - start) * k).reshape(-1, k)
    total = n * (n + 1) / 2
    spread = n * sum_sq - total * total
    var = spread * spread.T
    ok = (var > 0) & (n >= min_shared)
    with np.errstate(invalid="ignore", divide="ignore"):
        rho = np.where(ok, (n * cross - total * total) / np.sqrt(np.where(ok, var, 1.0)), np.nan)
    np.fill_diagonal(rho, np.nan)
    return np.clip(rho, -1.0, 1.0)


def summarise_pairwise(
    rho: np.ndarray, shared: np.ndarray, min_shared: int = 2, undefined: Undefined = "skip"
) -> SpearmanAgreement:
    """IAA-1 from precomputed pairwise correlations and shared counts (see :func:`iaa_pairwise`).

    Subsetting ``rho``/``shared`` to some raters gives IAA-1 among those raters, since a pair's
    correlation does not depend on the other raters.
    """
    _check_conventions(min_shared, undefined)
    k = rho.shape[0]
    off = ~np.eye(k, dtype=bool)
    enough = (shared >= min_shared) & off
    defined = enough & ~np.isnan(rho)
    counted = enough if undefined == "zero" else defined
    values = np.where(defined, rho, 0.0)
    upper = np.triu(np.ones((k, k), dtype=bool), 1)
    n_counted = int((counted & upper).sum())
    total = float((values * (counted & upper)).sum())
    per_n = counted.sum(axis=1)
    with np.errstate(invalid="ignore", divide="ignore"):
        per_rater = np.where(per_n > 0, (values * counted).sum(axis=1) / np.maximum(per_n, 1), np.nan)
    return SpearmanAgreement(
        value=total / n_counted if n_counted else float("nan"),
        n_raters=k,
        n_counted=n_counted,
        n_undefined=int((enough & ~defined & upper).sum()),
        n_below_min_shared=int((~enough & off & upper).sum()),
        min_shared=min_shared,
        undefined=undefined,
        per_rater=per_rater,
    )


def iaa_pairwise(ratings: np.ndarray, min_shared: int = 2, undefined: Undefined = "skip") -> SpearmanAgreement:
    """IAA-1: mean pairwise Spearman correlation between raters (SimLex-999 § 3, SimVerb-3500).

    Args:
        ratings: float (n_items, n_raters), NaN = not rated; any scale.
        min_shared: minimum number of items a pair must share to count (>= 2).
        undefined: ``skip`` leaves undefined correlations out of the mean, ``zero`` counts them as 0.

    Raises:
        ValueError: not a 2-d matrix, infinite values, ``min_shared < 2`` or an unknown policy.
    """
    x = _check_matrix(ratings)
    _check_conventions(min_shared, undefined)
    return summarise_pairwise(pairwise_spearman(x, min_shared), shared_counts(x), min_shared, undefined)


def columnwise_spearman(a: np.ndarray, b: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Spearman correlation of column j of ``a`` with column j of ``b`` over rows where both are set.

    Args:
        a, b: float arrays of one shape (n_rows, n_columns), NaN = missing.

    Returns:
        (rho, n): float (n_columns,) with NaN where a side is constant or fewer than two rows are
        shared; int (n_columns,) shared rows. Average ranks, computed on the shared rows.
    """
    both = ~np.isnan(a) & ~np.isnan(b)
    a = np.where(both, a, np.nan)
    b = np.where(both, b, np.nan)
    n = both.sum(axis=0)
    ra = _rank_columns(a)
    rb = _rank_columns(b)
    mean_a = np.nansum(ra, axis=0) / np.maximum(n, 1)
    mean_b = np.nansum(rb, axis=0) / np.maximum(n, 1)
    da = np.where(both, ra - mean_a, 0.0)
    db = np.where(both, rb - mean_b, 0.0)
    cov = (da * db).sum(axis=0)
    var = (da * da).sum(axis=0) * (db * db).sum(axis=0)
    with np.errstate(invalid="ignore", divide="ignore"):
        rho = np.where((var > 0) & (n >= 2), cov / np.sqrt(var), np.nan)
    return np.clip(rho, -1.0, 1.0), n


def _rank_columns(x: np.ndarray) -> np.ndarray:
    """Average ranks within each column over its non-NaN values (NaN stays NaN)."""
    from scipy.stats import rankdata

    if x.size == 0:
        return x.copy()
    return rankdata(x, axis=0, method="average", nan_policy="omit")


def iaa_leave_one_out(ratings: np.ndarray, min_shared: int = 2, undefined: Undefined = "skip") -> SpearmanAgreement:
    """IAA-2: mean over raters of the Spearman correlation with the mean of the other raters.

    For rater r and each item r rated that at least one other rater rated, the others' mean is
    ``(sum of the item's ratings - r's rating) / (count - 1)``; vectorised over all raters.

    Args:
        ratings: float (n_items, n_raters), NaN = not rated.
        min_shared: minimum number of such items for a rater to count (>= 2).
        undefined: ``skip`` or ``zero`` for a rater whose correlation is undefined.

    Raises:
        ValueError: as :func:`iaa_pairwise`.
    """
    x = _check_matrix(ratings)
    _check_conventions(min_shared, undefined)
    rated = ~np.isnan(x)
    total = np.nansum(x, axis=1, keepdims=True)
    count = rated.sum(axis=1, keepdims=True)
    with np.errstate(invalid="ignore", divide="ignore"):
        others = np.where(rated & (count > 1), (total - np.where(rated, x, 0.0)) / (count - 1), np.nan)
    rho, n = columnwise_spearman(np.where(~np.isnan(others), x, np.nan), others)
    enough = n >= min_shared
    defined = enough & ~np.isnan(rho)
    counted = enough if undefined == "zero" else defined
    per_rater = np.where(defined, rho, np.where(counted, 0.0, np.nan))
    n_counted = int(counted.sum())
    return SpearmanAgreement(
        value=float(np.nanmean(per_rater[counted])) if n_counted else float("nan"),
        n_raters=x.shape[1],
        n_counted=n_counted,
        n_undefined=int((enough & ~defined).sum()),
        n_below_min_shared=int((~enough).sum()),
        min_shared=min_shared,
        undefined=undefined,
        per_rater=per_rater,
    )


def krippendorff_alpha(
    ratings: np.ndarray,
    level: str = "interval",
    value_domain: Sequence[float] | None = None,
) -> float:
    """Krippendorff's alpha (``krippendorff`` package) of an items x raters matrix.

    Args:
        ratings: float (n_items, n_raters), NaN = missing (pairable values only are used, as in
            Krippendorff 2011); categorical data must be coded as numbers first.
        level: ``nominal``, ``ordinal``, ``interval`` or ``ratio``.
        value_domain: the ordered values of the scale (needed for ``ordinal`` and ``nominal`` when
            some scale values never occur; default: the values that occur).

    Returns:
        alpha in (-inf, 1]; NaN when undefined: fewer than two distinct values, or no item rated
        twice (no pairable values), i.e. zero expected disagreement.

    Raises:
        ValueError: unknown level, or not a 2-d matrix.
    """
    if level not in ALPHA_LEVELS:
        raise ValueError(f"level must be one of {ALPHA_LEVELS}; got {level!r}")
    x = _check_matrix(ratings)
    pairable = (~np.isnan(x)).sum(axis=1) >= 2
    values = np.unique(x[pairable][~np.isnan(x[pairable])])
    if len(values) < 2:
        return float("nan")
    domain = None if value_domain is None else list(value_domain)
    # Two distinct pairable values make the expected disagreement positive: alpha is defined.
    return float(krippendorff.alpha(reliability_data=x[pairable].T, value_domain=domain, level_of_measurement=level))


def cohen_kappa(
    rater1: Sequence[object] | np.ndarray,
    rater2: Sequence[object] | np.ndarray,
    labels: Sequence[object] | None = None,
    weights: str | None = None,
) -> tuple[float, int]:
    """Cohen's kappa (scikit-learn) of two raters on the items both answered.

    Args:
        rater1, rater2: equal-length label sequences; ``None``/NaN = no answer. Items missing on
            either side are left out.
        labels: the label set (default: those occurring); ``weights``: None, ``linear`` or
            ``quadratic`` (weighted kappa for ordinal labels).

    Returns:
        (kappa, n_items used). kappa is NaN with no common item, or when chance agreement is 1
        (both raters used one and the same label throughout).

    Raises:
        ValueError: the sequences differ in length.
    """
    a = pd.Series(list(rater1), dtype=object)
    b = pd.Series(list(rater2), dtype=object)
    if len(a) != len(b):
        raise ValueError(f"rater sequences differ in length: {len(a)} vs {len(b)}")
    keep = a.notna() & b.notna()
    if not keep.any():
        return float("nan"), 0
    a, b = a[keep].tolist(), b[keep].tolist()
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", RuntimeWarning)
        kappa = cohen_kappa_score(a, b, labels=None if labels is None else list(labels), weights=weights)
    return float(kappa), len(a)


def category_counts(ratings: np.ndarray, categories: Sequence[float] | None = None) -> tuple[np.ndarray, np.ndarray]:
    """Items x categories count table of an items x raters matrix of coded categories (NaN = missing).

    Returns (table int64 (n_items, n_categories), categories).
    """
    x = _check_matrix(ratings)
    cats = np.unique(x[~np.isnan(x)]) if categories is None else np.asarray(categories, dtype=np.float64)
    table = np.stack([(x == c).sum(axis=1) for c in cats], axis=1) if len(cats) else np.zeros((len(x), 0))
    return table.astype(np.int64), cats


def fleiss_kappa(ratings: np.ndarray, method: str = "fleiss", categories: Sequence[float] | None = None) -> float:
    """Fleiss' kappa (statsmodels) of an items x raters matrix of coded categories.

    Fleiss' kappa assumes every item was rated the same number of times (not necessarily by the same
    raters); NaN cells are missing ratings. ``method``: ``fleiss`` (marginal chance agreement) or
    ``randolph`` (uniform, free-marginal).

    Raises:
        ValueError: items rated a different number of times, or fewer than two ratings per item.
    """
    table, _ = category_counts(ratings, categories)
    per_item = table.sum(axis=1)
    if len(per_item) == 0 or per_item.min() != per_item.max():
        raise ValueError(
            "Fleiss' kappa needs the same number of ratings per item; "
            f"got between {per_item.min() if len(per_item) else 0} and {per_item.max() if len(per_item) else 0}"
        )
    if per_item[0] < 2:
        raise ValueError("Fleiss' kappa needs at least two ratings per item")
    with np.errstate(invalid="ignore", divide="ignore"):
        return float(_statsmodels_fleiss_kappa(table, method=method))
