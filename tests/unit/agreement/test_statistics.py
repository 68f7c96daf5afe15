"""biosem.agreement.statistics: IAA-1/IAA-2 conventions, the level-count kernel, alpha, kappa (known answers)."""

from __future__ import annotations

import itertools

import numpy as np
import pandas as pd
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from hypothesis.extra.numpy import arrays
from nltk.metrics.agreement import AnnotationTask
from nltk.metrics.distance import binary_distance, interval_distance
from scipy.stats import spearmanr
from sklearn.metrics import cohen_kappa_score

from biosem.agreement import statistics as ag

nan = np.nan


def loop_iaa1(x: np.ndarray, min_shared: int, undefined: str) -> tuple[float, int, int, int]:
    """Reference: a plain loop over rater pairs with scipy (for small matrices only)."""
    values, n_undefined, n_below = [], 0, 0
    for a, b in itertools.combinations(range(x.shape[1]), 2):
        both = ~np.isnan(x[:, a]) & ~np.isnan(x[:, b])
        if both.sum() < min_shared:
            n_below += 1
            continue
        if np.ptp(x[both, a]) == 0 or np.ptp(x[both, b]) == 0:
            n_undefined += 1
            if undefined == "zero":
                values.append(0.0)
            continue
        values.append(spearmanr(x[both, a], x[both, b]).statistic)
    return (float(np.mean(values)) if values else nan), len(values), n_undefined, n_below


def test_iaa1_hand_computed() -> None:
    # r2 swaps the last two items (rho 0.8), r3 is r1 reversed (rho -1), r2 vs r3: -0.8.
    x = np.array([[1, 1, 4], [2, 2, 3], [3, 4, 2], [4, 3, 1]], dtype=float)
    res = ag.iaa_pairwise(x, min_shared=2)
    assert res.value == pytest.approx((0.8 - 1.0 - 0.8) / 3)
    assert res.n_counted == 3 and res.n_undefined == 0 and res.n_below_min_shared == 0
    assert res.per_rater == pytest.approx([(0.8 - 1) / 2, (0.8 - 0.8) / 2, (-1 - 0.8) / 2])


def test_iaa1_ranks_recomputed_on_shared_items() -> None:
    # On their 3 shared items r1 = (1, 2, 3) and r2 = (3, 2, 1): rho -1, whatever r1's other ratings.
    x = np.array([[5, nan], [1, 3], [2, 2], [3, 1], [0, nan]], dtype=float)
    assert ag.pairwise_spearman(x, 2)[0, 1] == pytest.approx(-1.0)


def test_undefined_and_min_shared_conventions() -> None:
    x = np.array(
        [
            [1, 2, 3, 3, nan],
            [2, 1, 3, 1, nan],
            [3, 3, 3, 2, 1],
            [4, 4, 3, 4, 2],
            [5, 5, 3, nan, nan],
        ],
        dtype=float,
    )  # rater 2 is constant (undefined with everyone); rater 4 shares only 2 items with others
    skip = ag.iaa_pairwise(x, min_shared=3, undefined="skip")
    zero = ag.iaa_pairwise(x, min_shared=3, undefined="zero")
    assert (skip.n_undefined, skip.n_below_min_shared) == (3, 4)
    assert skip.n_counted == 10 - 3 - 4 == 3
    assert zero.n_counted == 6
    assert zero.value == pytest.approx(skip.value * 3 / 6)
    for policy, res in (("skip", skip), ("zero", zero)):
        ref = loop_iaa1(x, 3, policy)
        assert res.value == pytest.approx(ref[0])
        assert (res.n_counted, res.n_undefined, res.n_below_min_shared) == ref[1:]
    assert np.isnan(skip.per_rater[2]) and zero.per_rater[2] == 0.0


def test_conventions_validated() -> None:
    x = np.ones((3, 2))
    with pytest.raises(ValueError, match="min_shared"):
        ag.iaa_pairwise(x, min_shared=1)
    with pytest.raises(ValueError, match="undefined"):
        ag.iaa_pairwise(x, undefined="nan")  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="2-d"):
        ag.iaa_pairwise(np.ones(3))


@settings(max_examples=150, deadline=None)
@given(
    arrays(
        np.float64,
        st.tuples(st.integers(1, 25), st.integers(1, 9)),
        elements=st.sampled_from([0, 1, 2, 3, 6, nan]),
    ),
    st.integers(2, 6),
)
def test_level_kernel_equals_pandas_and_scipy(x: np.ndarray, min_shared: int) -> None:
    """The level-count kernel is exact: same NaN pattern and values as pandas' re-ranking corr."""
    levels = np.unique(x[~np.isnan(x)])
    fast = ag._pairwise_spearman_levels(x, levels, min_shared)
    ref = pd.DataFrame(x).corr(method="spearman", min_periods=min_shared).to_numpy(copy=True)
    np.fill_diagonal(ref, nan)
    assert np.array_equal(np.isnan(fast), np.isnan(ref))
    assert np.allclose(fast[~np.isnan(fast)], ref[~np.isnan(ref)], atol=1e-12)
    res = ag.iaa_pairwise(x, min_shared)
    value, n_counted, n_undefined, n_below = loop_iaa1(x, min_shared, "skip")
    assert (res.n_counted, res.n_undefined, res.n_below_min_shared) == (
        n_counted,
        n_undefined,
        n_below,
    )
    if n_counted:
        assert res.value == pytest.approx(value)


def test_level_kernel_blocks(monkeypatch: pytest.MonkeyPatch) -> None:
    """Rater blocks (here one rater per block) give the same matrix as one block."""
    rng = np.random.default_rng(5)
    x = rng.integers(0, 7, size=(60, 15)).astype(float)
    x[rng.random(x.shape) < 0.5] = nan
    levels = np.arange(7.0)
    whole = ag._pairwise_spearman_levels(x, levels, 2)
    monkeypatch.setattr(ag, "BLOCK_PRODUCTS", 1)
    assert len(ag._rater_blocks(ag.csr_matrix(~np.isnan(x), dtype=float), 1)) == 15
    blocked = ag._pairwise_spearman_levels(x, levels, 2)
    assert np.array_equal(np.isnan(whole), np.isnan(blocked))
    assert np.allclose(whole[~np.isnan(whole)], blocked[~np.isnan(blocked)], atol=1e-12)


def test_continuous_ratings_use_pandas_path() -> None:
    rng = np.random.default_rng(3)
    x = rng.normal(size=(40, 6))
    x[rng.random(x.shape) < 0.3] = nan
    assert len(np.unique(x[~np.isnan(x)])) > ag.MAX_LEVELS
    res = ag.iaa_pairwise(x, min_shared=5)
    assert res.value == pytest.approx(loop_iaa1(x, 5, "skip")[0])


def test_iaa2_against_loop() -> None:
    rng = np.random.default_rng(7)
    x = rng.integers(0, 7, size=(30, 8)).astype(float)
    x[rng.random(x.shape) < 0.4] = nan
    x[:, 5] = np.where(np.isnan(x[:, 5]), nan, 4.0)  # constant rater: undefined
    res = ag.iaa_leave_one_out(x, min_shared=3)
    expected = []
    for r in range(x.shape[1]):
        others = np.delete(x, r, axis=1)
        has_other = (~np.isnan(others)).any(axis=1)
        m = ~np.isnan(x[:, r]) & has_other
        mean_others = np.nanmean(others[m], axis=1)
        if m.sum() < 3 or np.ptp(x[m, r]) == 0 or np.ptp(mean_others) == 0:
            continue
        expected.append(spearmanr(x[m, r], mean_others).statistic)
    assert res.n_undefined == 1 and res.n_counted == len(expected) == 7
    assert res.value == pytest.approx(np.mean(expected))


def test_iaa2_hand_computed() -> None:
    # r1 vs mean(r2, r3) = (1, 2.5, 2.5, 4): rho = 0.9487 (ties averaged).
    x = np.array([[1, 1, 1], [2, 3, 2], [3, 2, 3], [4, 4, 4]], dtype=float)
    res = ag.iaa_leave_one_out(x, min_shared=2)
    assert res.per_rater[0] == pytest.approx(spearmanr([1, 2, 3, 4], [1, 2.5, 2.5, 4]).statistic)
    assert res.per_rater[0] == pytest.approx(0.9486833)


# Krippendorff (2011), "Computing Krippendorff's alpha-reliability", the 4 observers x 12 units example.
KRIPPENDORFF_2011 = np.array(
    [
        [1, 2, 3, 3, 2, 1, 4, 1, 2, nan, nan, nan],
        [1, 2, 3, 3, 2, 2, 4, 1, 2, 5, nan, 3],
        [nan, 3, 3, 3, 2, 3, 4, 2, 2, 5, 1, nan],
        [1, 2, 3, 3, 2, 4, 4, 1, 2, 5, 1, nan],
    ]
).T  # items x raters


@pytest.mark.parametrize(
    ("level", "expected"),
    [("nominal", 0.743), ("ordinal", 0.815), ("interval", 0.849), ("ratio", 0.797)],
)
def test_alpha_krippendorff_2011_example(level: str, expected: float) -> None:
    assert ag.krippendorff_alpha(KRIPPENDORFF_2011, level) == pytest.approx(expected, abs=5e-4)


def test_alpha_matches_nltk_annotation_task() -> None:
    rng = np.random.default_rng(11)
    x = rng.integers(0, 3, size=(25, 3)).astype(float)  # complete data (NLTK's alpha assumes it)
    triples = [(f"r{r}", f"i{i}", int(x[i, r])) for i in range(x.shape[0]) for r in range(x.shape[1])]
    assert ag.krippendorff_alpha(x, "nominal") == pytest.approx(AnnotationTask(triples, binary_distance).alpha())
    assert ag.krippendorff_alpha(x, "interval") == pytest.approx(AnnotationTask(triples, interval_distance).alpha())


def test_alpha_undefined_cases() -> None:
    assert np.isnan(ag.krippendorff_alpha(np.ones((4, 3)), "nominal"))  # one value only
    assert np.isnan(ag.krippendorff_alpha(np.array([[1, nan], [nan, 2]]), "interval"))  # nothing pairable
    with pytest.raises(ValueError, match="level"):
        ag.krippendorff_alpha(np.ones((2, 2)), "cardinal")


def test_cohen_kappa_hand_and_sklearn() -> None:
    a = [1, 1, 0, 0, 1, 0, 1, 1, 0, 1]
    b = [1, 0, 0, 0, 1, 0, 1, 1, 1, 1]
    kappa, n = ag.cohen_kappa(a, b)
    assert n == 10
    assert kappa == pytest.approx((0.8 - 0.52) / 0.48)
    assert kappa == pytest.approx(cohen_kappa_score(a, b))
    # Missing answers on either side are left out.
    kappa2, n2 = ag.cohen_kappa([*a, None, 1], [*b, 0, None])
    assert (kappa2, n2) == (pytest.approx(kappa), 10)
    assert np.isnan(ag.cohen_kappa([None], [1])[0])
    with pytest.raises(ValueError, match="length"):
        ag.cohen_kappa([1, 2], [1])


def test_weighted_cohen_kappa() -> None:
    a, b = [0, 1, 2, 3, 2, 1], [0, 2, 2, 3, 1, 1]
    assert ag.cohen_kappa(a, b, weights="quadratic")[0] == pytest.approx(cohen_kappa_score(a, b, weights="quadratic"))


def test_fleiss_kappa_wikipedia_example() -> None:
    # Fleiss (1971) as on Wikipedia: 10 subjects, 14 raters, 5 categories; kappa = 0.210.
    counts = [
        [0, 0, 0, 0, 14],
        [0, 2, 6, 4, 2],
        [0, 0, 3, 5, 6],
        [0, 3, 9, 2, 0],
        [2, 2, 8, 1, 1],
        [7, 7, 0, 0, 0],
        [3, 2, 6, 3, 0],
        [2, 5, 3, 2, 2],
        [6, 5, 2, 1, 0],
        [0, 2, 2, 3, 7],
    ]
    x = np.array([np.repeat(np.arange(5), row) for row in counts], dtype=float)
    assert ag.fleiss_kappa(x) == pytest.approx(0.20993, abs=1e-5)
    x[0, 0] = nan
    with pytest.raises(ValueError, match="same number of ratings"):
        ag.fleiss_kappa(x)
