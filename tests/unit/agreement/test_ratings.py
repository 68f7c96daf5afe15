"""biosem.agreement.ratings: readers, bias correction, exclusion, rescaling, aggregation; the SimVerb-3500 check."""

from __future__ import annotations

import zipfile
from pathlib import Path

import numpy as np
import pandas as pd
import pytest
from conftest import SHARED_DATA, config_with_defaults

from biosem.agreement import ratings as R
from biosem.agreement.statistics import iaa_pairwise
from biosem.errors import EmptyDatasetError, SourceFormatError

nan = np.nan
SIMVERB_ZIP = SHARED_DATA / "simverb3500" / "simverb-3500-data.zip"
SIMVERB_MEMBER = "data/SimVerb-3520-annotator-ratings.csv"


# --------------------------------------------------------------------------------------------------
# Readers
# --------------------------------------------------------------------------------------------------
WIDE = "sit,stand,3,-1,4\nrun,walk,2,5,-1\nbuy,sell,0,1,1\n"


def test_parse_wide_matrix() -> None:
    m = R.parse_wide_matrix(WIDE, "m.csv")
    assert m.items[["word1", "word2"]].values.tolist() == [
        ["sit", "stand"],
        ["run", "walk"],
        ["buy", "sell"],
    ]
    assert np.array_equal(m.values, np.array([[3, nan, 4], [2, 5, nan], [0, 1, 1]]), equal_nan=True)
    assert m.items["consistency"].tolist() == [False, False, False]  # no roles in the matrix
    assert R.consistency_set(m, m.values, "rated_by_all").tolist() == [False, False, True]  # rated by every rater
    assert m.source == "m.csv"
    assert m.raters["rater"].tolist() == ["annotator_001", "annotator_002", "annotator_003"]
    assert m.repeats.empty


@pytest.mark.parametrize(
    ("text", "line", "expected"),
    [
        ("a,b,1,2\nc,d,1\n", 2, "4 comma-separated fields"),
        ("a,b,1,2\nc,d,1,x\n", 2, "ratings in [0, 6] or -1"),
        ("a,b,1,7\n", 1, "ratings in [0, 6] or -1"),
        ("a,b,1,-2\n", 1, "ratings in [0, 6] or -1"),
        ("a,b,1,\n", 1, "ratings in [0, 6] or -1"),
        ("a, ,1,2\n", 1, "two non-empty words"),
        ("a,b,1,2\nc,d,3,3\na,b,2,2\n", 3, "each pair on one row only (this pair is also on line 1)"),
        ("a,b\n", 1, "at least one rater column"),
    ],
)
def test_parse_wide_matrix_errors(text: str, line: int, expected: str) -> None:
    with pytest.raises(SourceFormatError) as err:
        R.parse_wide_matrix(text, "m.csv")
    assert err.value.line == line and expected in err.value.expected and str(err.value.path) == "m.csv"


def test_a_repeated_pair_names_both_copies(tmp_path: Path) -> None:
    path = tmp_path / "SimVerb-3520-annotator-ratings.csv"
    path.write_text("a,b,1,2\nc,d,3,3\ne,f,0,1\nc,d,2,2\na,b,4,4\n")
    with pytest.raises(SourceFormatError) as err:
        R.read_wide_matrix(path)
    assert (err.value.path, err.value.line, err.value.found) == (path, 4, "c,d,2,2")
    assert f"{path}:4" in str(err.value) and "also on line 2" in str(err.value)


def test_read_wide_matrix_from_zip(tmp_path: Path) -> None:
    archive = tmp_path / "r.zip"
    with zipfile.ZipFile(archive, "w") as z:
        z.writestr("data/m.csv", WIDE)
    assert R.read_wide_matrix(archive, "data/m.csv").values.shape == (3, 3)
    with pytest.raises(SourceFormatError, match="zip member 'data/other.csv'"):
        R.read_wide_matrix(archive, "data/other.csv")


def test_read_long_ratings_with_groups_roles_and_repeats(tmp_path: Path) -> None:
    path = tmp_path / "ratings.csv"
    path.write_text(
        "rater,word1,word2,rating,group,role\n"
        "u2,cat,dog,3,g1,unique\n"
        "u1,cat,dog,4,g1,unique\n"
        "u1,ant,bee,2,g1,consistency\n"
        "u2,ant,bee,1,g1,consistency\n"
        "u1,cat,dog,6,g1,duplicate\n"
        "u3,ant,bee,5,g2,consistency\n"
        "u3,cow,pig,0,g2,unique\n"
    )
    m = R.read_long_ratings(path)
    assert m.items[["word1", "word2"]].values.tolist() == [
        ["ant", "bee"],
        ["cat", "dog"],
        ["cow", "pig"],
    ]
    assert m.items["consistency"].tolist() == [True, False, False]
    assert m.raters.values.tolist() == [["u1", "g1"], ["u2", "g1"], ["u3", "g2"]]
    # u1 rated cat-dog twice (4 then 6): the matrix holds the mean, repeats keep both in file order.
    assert np.array_equal(m.values, np.array([[2, 1, 5], [5, 3, nan], [nan, nan, 0]]), equal_nan=True)
    assert m.repeats[["rater", "occurrence", "rating"]].values.tolist() == [
        ["u1", 0, 4.0],
        ["u1", 1, 6.0],
    ]


def test_read_long_ratings_tsv_without_optional_columns(tmp_path: Path) -> None:
    path = tmp_path / "ratings.tsv"
    path.write_text("rater\tword1\tword2\trating\na\tx\ty\t1\nb\tx\ty\t2\na\tx\tz\t3\n")
    m = R.read_long_ratings(path)
    assert m.raters["group"].tolist() == ["all", "all"]
    assert m.items["consistency"].tolist() == [False, False]  # no role column: no consistency items
    assert R.consistency_set(m, m.values, "rated_by_all").tolist() == [True, False]  # x-y: the pair both rated
    assert m.source == str(path)


@pytest.mark.parametrize(
    ("body", "line", "expected"),
    [
        ("rater,word1,rating\na,x,1\n", 1, "columns rater, word1, word2, rating"),
        ("rater,word1,word2,rating\na,x,y,1\n,x,y,2\n", 3, "a non-empty rater"),
        ("rater,word1,word2,rating\na,x,,1\n", 2, "a non-empty word2"),
        ("rater,word1,word2,rating\na,x,y,seven\n", 2, "a rating in [0, 6]"),
        ("rater,word1,word2,rating\na,x,y,6.5\n", 2, "a rating in [0, 6]"),
        (
            "rater,word1,word2,rating,group\na,x,y,1,g1\nb,x,y,1,g1\na,x,z,1,g2\n",
            2,
            "rater 'a' in one group only",
        ),
    ],
)
def test_read_long_ratings_errors(tmp_path: Path, body: str, line: int, expected: str) -> None:
    path = tmp_path / "bad.csv"
    path.write_text(body)
    with pytest.raises(SourceFormatError) as err:
        R.read_long_ratings(path)
    assert err.value.line == line and expected in err.value.expected and err.value.path == path


# --------------------------------------------------------------------------------------------------
# Steps
# --------------------------------------------------------------------------------------------------
def test_bias_correction_known_answer() -> None:
    # Consistency means 1, 3, 3, 5 (centre 3): rater 0 is 2 below (+1), rater 3 is 2 above (-1).
    values = np.array(
        [
            [1, 3, 2, 5],  # consistency
            [1, 3, 4, 5],  # consistency
            [6, 2, nan, 0],
            [0, nan, 1, 6],
        ],
        dtype=float,
    )
    corrected, shifts, means = R.bias_correction(values, np.array([True, True, False, False]), 1.0, 1.0, (0, 6))
    assert means.tolist() == [1, 3, 3, 5]
    assert shifts.tolist() == [1, 0, 0, -1]
    expected = np.array([[2, 3, 2, 4], [2, 3, 4, 4], [6, 2, nan, 0], [1, nan, 1, 5]], dtype=float)
    assert np.array_equal(corrected, expected, equal_nan=True)  # 6 + 1 and 0 - 1 clipped to the scale


def test_bias_correction_threshold_is_strict_and_needs_consistency_items() -> None:
    values = np.array([[2, 3, 4], [5, 5, 5]], dtype=float)  # means 2, 3, 4: deviations exactly 1
    _, shifts, _ = R.bias_correction(values, np.array([True, False]), 1.0, 1.0, (0, 6))
    assert shifts.tolist() == [0, 0, 0]
    same, shifts, means = R.bias_correction(values, np.array([False, False]), 1.0, 1.0, (0, 6))
    assert np.array_equal(same, values) and shifts.tolist() == [0, 0, 0] and np.isnan(means).all()


def test_exclusion_threshold() -> None:
    iaa = np.array([0.6, 0.7, 0.8, 0.1, nan])
    defined = np.array([0.6, 0.7, 0.8, 0.1])
    assert R.exclusion_threshold(iaa, 1.0) == pytest.approx(defined.mean() - defined.std(ddof=1))
    assert np.isnan(R.exclusion_threshold(np.array([0.5, nan]), 1.0))


def test_rescale() -> None:
    assert R.rescale(np.array([0, 3, 6, 4.5]), (0, 6), (0, 10)).tolist() == pytest.approx([0, 5, 10, 7.5])
    assert R.rescale([1, 7], (1, 7), (0, 10)).tolist() == [0, 10]
    with pytest.raises(ValueError):
        R.rescale([1], (6, 6), (0, 10))


def hand_table() -> R.RatingMatrix:
    """Five raters on six pairs plus two consistency pairs; rater e disagrees with everyone and
    rates high (consistency mean 6 vs centre 3.6); rater d rates low on the consistency set."""
    e = [6, 6, 6, 5, 4, 3, 2, 1]  # consistency items first, then reversed order
    values = np.array(
        [
            # a  b  c  d  e
            [4, 4, 3, 2, e[0]],  # consistency
            [3, 3, 3, 1, e[1]],  # consistency
            [0, 0, 1, 0, e[2]],
            [1, 2, 1, 0, e[3]],
            [2, 2, 3, 1, e[4]],
            [3, 4, 4, 3, e[5]],
            [5, 5, 5, 4, e[6]],
            [6, 6, 5, 6, e[7]],
        ],
        dtype=float,
    )
    items = pd.DataFrame(
        {
            "word1": [f"w{i}" for i in range(8)],
            "word2": [f"v{i}" for i in range(8)],
            "consistency": [True, True] + [False] * 6,
        }
    )
    raters = pd.DataFrame({"rater": list("abcde"), "group": "all"})
    return R.RatingMatrix(items=items, values=values, raters=raters)


def test_aggregate_hand_table() -> None:
    m = hand_table()
    res = R.aggregate_ratings(m, R.RatingParams(min_shared=3, min_items=3))
    raters = res.raters.set_index("rater")
    # Consistency means: a 3.5, b 3.5, c 3, d 1.5, e 6 -> centre 3.5; d is 2 below (+1), e 2.5 above (-1).
    assert raters["bias_shift"].tolist() == [0, 0, 0, 1, -1]
    assert raters["excluded"].tolist() == [False, False, False, False, True]
    assert raters.loc["e", "exclusion_reason"] == "iaa1_below_threshold"
    assert res.counts["raters_excluded_iaa1"] == 1 and res.counts["raters_kept"] == 4
    # Dataset: the six non-consistency pairs, mean of a, b, c and d + 1 (bias-corrected), rescaled.
    assert res.dataset["word1"].tolist() == ["w2", "w3", "w4", "w5", "w6", "w7"]
    kept = m.values[2:, :4] + np.array([0, 0, 0, 1])
    kept = np.clip(kept, 0, 6)
    assert res.dataset["mean_raw"].to_numpy() == pytest.approx(kept.mean(axis=1))
    assert res.dataset["score"].to_numpy() == pytest.approx(kept.mean(axis=1) * 10 / 6)
    assert res.dataset["sd_raw"].to_numpy() == pytest.approx(kept.std(axis=1, ddof=1))
    assert res.dataset["sd"].to_numpy() == pytest.approx(kept.std(axis=1, ddof=1) * 10 / 6)
    assert res.dataset["n_ratings"].tolist() == [4] * 6
    table = res.agreement.set_index(["stage", "metric"])
    assert table.loc[("raw", "IAA-1"), "n_raters"] == 5 and table.loc[("final", "IAA-1"), "n_raters"] == 4
    assert table.loc[("final", "IAA-1"), "n_counted"] == 6  # C(4, 2)
    assert table.loc[("final", "IAA-1"), "value"] > table.loc[("raw", "IAA-1"), "value"]
    assert {"alpha_interval", "alpha_ordinal"} <= set(res.agreement["metric"])
    assert (res.agreement.loc[res.agreement["metric"] == "IAA-1", "min_shared"] == 3).all()
    assert res.agreement["definition"].str.len().gt(0).all()


def test_aggregate_options_off_and_listed_raters() -> None:
    m = hand_table()
    params = R.RatingParams(
        min_shared=3,
        min_items=3,
        bias_threshold=None,
        exclusion_sd=None,
        exclude_raters=("b",),
        include_consistency=True,
    )
    res = R.aggregate_ratings(m, params)
    assert set(res.agreement["stage"]) == {"raw", "final"}
    assert res.raters.set_index("rater")["exclusion_reason"].to_dict() == {
        "a": "",
        "b": "listed",
        "c": "",
        "d": "",
        "e": "",
    }
    assert len(res.dataset) == 8
    kept = m.values[:, [0, 2, 3, 4]]
    assert res.dataset["mean_raw"].to_numpy() == pytest.approx(kept.mean(axis=1))
    with pytest.raises(ValueError, match="not in the ratings"):
        R.aggregate_ratings(m, R.RatingParams(exclude_raters=("zz",)))


def crossed_csv(path: Path, raters: str = "abc", n_items: int = 12, role: str | None = None) -> Path:
    """Every rater in ``raters`` rates the same ``n_items`` pairs (a fully crossed design, as the per-rater
    files of WordSim-353, MEN or Card-660); ratings differ a little per rater."""
    header = "rater,word1,word2,rating" + (",role" if role else "")
    rows = [
        f"{r},w{i:02d},v{i:02d},{(i + j) % 7}" + (f",{role}" if role else "")
        for j, r in enumerate(raters)
        for i in range(n_items)
    ]
    path.write_text("\n".join([header, *rows]) + "\n")
    return path


def test_fully_crossed_design_has_no_consistency_set(tmp_path: Path) -> None:
    """Every rater rated every item: no item is a consistency item, so the dataset has all items."""
    m = R.read_long_ratings(crossed_csv(tmp_path / "crossed.csv"))
    res = R.aggregate_ratings(m, R.RatingParams(min_shared=3))
    assert res.counts["consistency_items"] == 0
    assert len(res.dataset) == 12 and res.counts["dataset_items"] == 12
    assert (res.dataset["n_ratings"] == 3).all() and (res.raters["bias_shift"] == 0).all()
    with pytest.raises(ValueError, match="fully crossed") as err:
        R.aggregate_ratings(m, R.RatingParams(min_shared=3, consistency="rated_by_all"))
    assert "crossed.csv" in str(err.value)


def test_rater_below_min_items_is_excluded_first(tmp_path: Path) -> None:
    """A one-item rater does not shrink the consistency set (rated by all) to its item, does not remove
    that item from the dataset, and is excluded although its IAA-1 is undefined."""
    lines = ["rater,word1,word2,rating"]
    for j, rater in enumerate("abc"):
        lines += [f"{rater},c{i},d{i},{(i + j) % 7}" for i in range(2)]  # consistency: rated by all
        # 10 of 15 unique items each: every pair of raters shares 5, no unique item is rated by all
        lines += [f"{rater},u{i:02d},x,{(i * (j + 1)) % 7}" for i in range(15) if i % 3 != j]
    lines.append("z,c0,d0,5")
    path = tmp_path / "r.csv"
    path.write_text("\n".join(lines) + "\n")
    m = R.read_long_ratings(path)
    res = R.aggregate_ratings(m, R.RatingParams(min_shared=3, exclusion_sd=None, consistency="rated_by_all"))
    assert res.counts["raters"] == 4 and res.counts["raters_excluded_min_items"] == 1
    assert res.counts["consistency_items"] == 2 and res.counts["dataset_items"] == 15
    raters = res.raters.set_index("rater")
    assert raters.index.tolist() == ["a", "b", "c", "z"]
    assert raters.loc["z", "excluded"] and raters.loc["z", "exclusion_reason"] == "below_min_items"
    assert raters.loc["z", "n_ratings"] == 1 and np.isnan(raters.loc["z", "iaa1"])
    assert not raters.loc[["a", "b", "c"], "excluded"].any()
    assert (res.agreement["n_raters"] <= 3).all()  # z is in no agreement row
    with pytest.raises(ValueError, match="no rater rated at least min_items = 13"):
        R.aggregate_ratings(m, R.RatingParams(min_items=13))


def test_empty_dataset_is_an_error_unless_allowed(tmp_path: Path) -> None:
    path = crossed_csv(tmp_path / "all_consistency.csv", role="consistency")
    m = R.read_long_ratings(path)
    with pytest.raises(EmptyDatasetError) as err:
        R.aggregate_ratings(m, R.RatingParams(min_shared=3))
    message = str(err.value)
    assert str(path) in message and "12 are consistency items (include_consistency: false)" in message
    assert "allow_empty: true" in message
    res = R.aggregate_ratings(m, R.RatingParams(min_shared=3, allow_empty=True))
    assert res.dataset.empty and list(res.dataset.columns) == [f.name for f in R.RATED_DATASET.schema]
    assert len(R.aggregate_ratings(m, R.RatingParams(min_shared=3, include_consistency=True)).dataset) == 12


def test_null_bias_correction_and_exclusion_switch_the_steps_off(tmp_path: Path) -> None:
    """``bias_correction: null`` and ``exclusion: null`` (validated config) run without both steps."""
    entry = {"path": "r.csv", "format": "long", "bias_correction": None, "exclusion": None, "min_shared": 3}
    cfg = config_with_defaults(agreement={"ratings": {"r": entry}})["agreement"]["ratings"]["r"]
    assert cfg["bias_correction"] is None and cfg["exclusion"] is None
    params = R.params_from_config({**cfg, "min_items": 3, "consistency": "role"})
    res = R.aggregate_ratings(hand_table(), params)
    assert set(res.agreement["stage"]) == {"raw", "final"}
    assert (res.raters["bias_shift"] == 0).all() and not res.raters["excluded"].any()
    assert len(res.dataset) == 6  # the two consistency items left out


def test_per_group_rows_and_repeat_consistency() -> None:
    long = pd.DataFrame(
        {
            "rater": ["a"] * 5 + ["b"] * 4 + ["c"] * 4 + ["d"] * 4,
            "word1": [
                "p",
                "q",
                "r",
                "s",
                "p",
                "p",
                "q",
                "r",
                "s",
                "p",
                "q",
                "r",
                "s",
                "p",
                "q",
                "r",
                "s",
            ],
            "word2": ["x"] * 17,
            "rating": [1, 2, 3, 4, 2, 1, 2, 4, 3, 4, 3, 2, 1, 1, 3, 2, 4],
            "group": ["g1"] * 9 + ["g2"] * 8,
            "role": "",
        }
    ).astype({"rating": float})
    m = R.long_to_matrix(long)
    res = R.aggregate_ratings(m, R.RatingParams(min_shared=3, min_items=3, bias_threshold=None, exclusion_sd=None))
    groups = res.agreement[res.agreement["metric"] == "IAA-1"].set_index(["stage", "group"])["value"]
    assert groups[("raw", "g1")] == pytest.approx(0.8)  # a = (1.5, 2, 3, 4) vs b = (1, 2, 4, 3)
    assert groups[("raw", "g2")] == pytest.approx(-0.8)  # c = (4, 3, 2, 1) vs d = (1, 3, 2, 4)
    rep = res.raters.set_index("rater")
    assert rep.loc["a", "n_repeats"] == 1 and rep.loc["b", "n_repeats"] == 0
    assert rep.loc["a", "repeat_mean_abs_diff"] == 1.0
    assert np.isnan(rep.loc["a", "repeat_spearman"])  # one repeated pair: undefined


def test_repeat_consistency_spearman() -> None:
    repeats = pd.DataFrame(
        {
            "rater": ["a"] * 6,
            "word1": ["p", "p", "q", "q", "r", "r"],
            "word2": "x",
            "occurrence": [0, 1, 0, 1, 0, 1],
            "rating": [1.0, 2.0, 3.0, 3.0, 5.0, 6.0],
        }
    )
    out = R.repeat_consistency(repeats, pd.Series(["a", "b"]))
    assert out["n_repeats"].tolist() == [3, 0]
    assert out["repeat_spearman"].iloc[0] == pytest.approx(1.0)
    assert out["repeat_mean_abs_diff"].iloc[0] == pytest.approx(2 / 3)


def test_published_txt() -> None:
    ds = pd.DataFrame({"word1": ["a", "b"], "word2": ["c", "d"], "score": [9.3333333, 0.0]})
    assert R.to_published_txt(ds) == "a\tc\t9.33\nb\td\t0.00\n"
    with pytest.raises(ValueError, match="tab"):
        R.to_published_txt(pd.DataFrame({"word1": ["a\tb"], "word2": ["c"], "score": [1.0]}))


def test_params_from_config() -> None:
    entry = {
        "source": "s",
        "format": "wide",
        "bias_correction": None,
        "exclusion": {"sd": None, "raters": ["x"]},
        "min_shared": 20,
        "undefined": "zero",
    }
    # the entry as the workflow sees it: validated, the schema's defaults filled in
    cfg = config_with_defaults(agreement={"ratings": {"r": entry}})["agreement"]["ratings"]["r"]
    p = R.params_from_config(cfg)
    assert p.bias_threshold is None and p.exclusion_sd is None and p.exclude_raters == ("x",)
    assert (p.min_shared, p.undefined, p.scale) == (20, "zero", (0.0, 6.0))
    partial = config_with_defaults(
        agreement={"ratings": {"r": {"source": "s", "format": "wide", "exclusion": {"raters": ["y"]}}}}
    )
    q = R.params_from_config(partial["agreement"]["ratings"]["r"])
    assert (q.bias_threshold, q.bias_shift, q.exclusion_sd, q.exclude_raters) == (1.0, 1.0, 1.0, ("y",))


# --------------------------------------------------------------------------------------------------
# The real SimVerb-3500 annotator matrix
# --------------------------------------------------------------------------------------------------
@pytest.fixture(scope="module")
def simverb() -> R.RatingMatrix:
    return R.read_wide_matrix(SIMVERB_ZIP, SIMVERB_MEMBER)


def test_simverb_matrix_shape(simverb: R.RatingMatrix) -> None:
    assert simverb.values.shape == (3520, 702)
    # the consistency set: the only items all 702 annotators rated
    assert int(R.consistency_set(simverb, simverb.values, "rated_by_all").sum()) == 20
    assert ((~np.isnan(simverb.values)).sum(axis=0) == 70).all()  # 70 ratings per annotator


def test_simverb_iaa1_before_exclusion(simverb: R.RatingMatrix) -> None:
    """IAA-1 over all 702 raters, raw ratings: 0.61 (the paper's 0.84 does not follow from the data).

    Every annotator pair shares at least the 20 consistency items, so any min_shared <= 20 counts all
    246,051 pairs; no correlation is undefined."""
    res = iaa_pairwise(simverb.values, min_shared=10, undefined="skip")
    assert res.value == pytest.approx(0.61, abs=0.01)
    assert res.value == pytest.approx(0.6121, abs=1e-4)
    assert (res.n_counted, res.n_undefined, res.n_below_min_shared) == (702 * 701 // 2, 0, 0)
    assert iaa_pairwise(simverb.values, min_shared=20).value == res.value


def test_simverb_published_scores_reproduced(simverb: R.RatingMatrix) -> None:
    """SimVerb-3500.txt = round(1.66 x mean rating, 2), with 1.66 standing for 10/6, no bias correction
    and no exclusion, over the 10-11 ratings per pair of SimVerb-3500-ratings.txt. The annotator
    matrix holds one rating fewer for 102 pairs: every other pair is reproduced from the matrix."""
    params = R.RatingParams(bias_threshold=None, exclusion_sd=None, consistency="rated_by_all")
    res = R.aggregate_ratings(simverb, params)
    with zipfile.ZipFile(SIMVERB_ZIP) as z:
        published = R.read_published(z.read("data/SimVerb-3500.txt").decode())
        per_pair = pd.read_csv(
            z.open("data/SimVerb-3500-ratings.txt"),
            sep="\t",
            header=None,
            skiprows=1,
            names=["word1", "word2", *range(11)],
        )
    ratings = per_pair[list(range(11))]
    per_pair = per_pair.assign(n_published=ratings.notna().sum(axis=1), mean_published=ratings.mean(axis=1))
    both = res.dataset.merge(published, on=["word1", "word2"], suffixes=("", "_published"))
    both = both.merge(per_pair[["word1", "word2", "n_published", "mean_published"]], on=["word1", "word2"])
    assert len(both) == 3500
    assert np.allclose(np.round(both["mean_published"] * 1.66 + 1e-9, 2), both["score_published"])
    complete = both["n_published"] == both["n_ratings"]
    assert complete.sum() == 3398 and (both.loc[~complete, "n_published"] == both.loc[~complete, "n_ratings"] + 1).all()
    ours = np.round(both["mean_raw"] * 1.66 + 1e-9, 2)
    assert np.allclose(ours[complete], both.loc[complete, "score_published"])
    assert np.allclose(both["score"], both["mean_raw"] * 10 / 6)  # our own rescaling is exact
