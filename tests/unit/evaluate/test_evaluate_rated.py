"""Rated pairs (biosem.evaluate.rated) and the benchmark readers (biosem.evaluate.benchmarks)."""

from __future__ import annotations

import math
from pathlib import Path

import numpy as np
import pandas as pd
import pytest
from conftest import SHARED_DATA
from gensim.models import KeyedVectors

from biosem.errors import SourceFormatError
from biosem.evaluate.benchmarks import read_rated_pairs
from biosem.evaluate.models import WordVectors
from biosem.evaluate.rated import (
    RatedParams,
    band_labels,
    evaluate_rated_dataset,
    item_frequency,
    pair_bands,
    score_pairs,
)
from biosem.seeds import generator


def model() -> WordVectors:
    kv = KeyedVectors(2)
    kv.add_vectors(["cat", "dog", "car", "truck"], np.array([[1, 0], [0.8, 0.6], [0, 1], [0.6, 0.8]], dtype=np.float32))
    return WordVectors("toy", kv, lowercase=True)


PAIRS = pd.DataFrame(
    {
        "word1": ["cat", "cat", "car", "dog", "Cat"],
        "word2": ["dog", "car", "truck", "unicorn", "truck"],
        "score": [9.0, 1.0, 8.0, 5.0, 2.0],
    }
)


def test_oov_policy_skip() -> None:
    scored = score_pairs(PAIRS, model(), "skip")
    assert scored["covered"].tolist() == [True, True, True, False, True]
    assert scored["cosine"].iloc[:3].tolist() == pytest.approx([0.8, 0.0, 0.8])
    assert math.isnan(scored["cosine"].iloc[3])
    assert scored["cosine"].iloc[4] == pytest.approx(0.6)  # lowercased query
    rows = evaluate_rated_dataset(
        model(),
        "toy",
        PAIRS,
        RatedParams(oov_policy="skip", n_resamples=0, frequency_bands=()),
        lambda s: generator(0, s),
    )
    (row,) = rows
    # Covered: gold 9, 1, 8, 2 vs cosine 0.8, 0.0, 0.8, 0.6 -> ranks 3.5, 1, 3.5, 2 vs 4, 1, 3, 2.
    assert row["n"] == 4 and row["coverage"] == pytest.approx(0.8)
    gold_r = np.array([4, 1, 3, 2.0])
    pred_r = np.array([3.5, 1, 3.5, 2])
    expected = np.corrcoef(gold_r, pred_r)[0, 1]
    assert row["value"] == pytest.approx(expected)
    assert row["metric"] == "cosine:spearman" and row["subset"] == "all"


def test_oov_policy_mean_vector() -> None:
    scored = score_pairs(PAIRS, model(), "mean")
    # unicorn -> mean of all vectors = (0.6, 0.6); cos(dog, (0.6, 0.6)) = (0.48 + 0.36) / (1 * 0.8485).
    assert scored["cosine"].iloc[3] == pytest.approx(0.84 / (0.6 * math.sqrt(2)))
    assert scored["covered"].tolist() == [True, True, True, False, True]
    rows = evaluate_rated_dataset(
        model(),
        "toy",
        PAIRS,
        RatedParams(oov_policy="mean", n_resamples=0, frequency_bands=()),
        lambda s: generator(0, s),
    )
    assert rows[0]["n"] == 5 and rows[0]["coverage"] == pytest.approx(0.8)
    with pytest.raises(ValueError, match="oov_policy"):
        score_pairs(PAIRS, model(), "zero")


def test_frequency_bands() -> None:
    counts = {"cat": 5, "dog": 50, "car": 7, "truck": 3000, "heart": 20, "attack": 200}
    assert band_labels([1, 10, 100]) == ["band:1-10", "band:10-100", "band:100+"]
    assert item_frequency(["cat", "heart attack", "unicorn"], counts).tolist() == [5, 20, 0]
    pairs = pd.DataFrame(
        {"word1": ["cat", "cat", "dog", "truck", "unicorn"], "word2": ["car", "dog", "heart attack", "car", "cat"]}
    )
    bands = pair_bands(pairs, counts, [1, 10, 100])
    assert bands.tolist() == ["band:1-10", None, "band:10-100", None, None]
    with pytest.raises(ValueError):
        pair_bands(pairs, counts, [10, 1])


def test_band_subsets_need_enough_pairs() -> None:
    counts = {"cat": 5, "dog": 6, "car": 7, "truck": 8}
    rows = evaluate_rated_dataset(
        model(),
        "toy",
        PAIRS,
        RatedParams(n_resamples=0, frequency_bands=(1, 10), min_band_pairs=3),
        lambda s: generator(0, s),
        counts,
        band_corpus="pmc_sample",
    )
    assert [r["subset"] for r in rows] == ["all", "band:1-10"]
    assert rows[1]["n"] == 4
    # The band row states the corpus its counts come from; the whole-dataset row has none.
    assert [r["corpus"] for r in rows] == [None, "pmc_sample"]
    rows = evaluate_rated_dataset(
        model(),
        "toy",
        PAIRS,
        RatedParams(n_resamples=0, frequency_bands=(1, 10), min_band_pairs=10),
        lambda s: generator(0, s),
        counts,
        band_corpus="pmc_sample",
    )
    assert [r["subset"] for r in rows] == ["all"]
    with pytest.raises(ValueError, match="name of the corpus"):
        evaluate_rated_dataset(model(), "toy", PAIRS, RatedParams(n_resamples=0), lambda s: generator(0, s), counts)


@pytest.mark.parametrize(
    ("rel", "fmt", "member", "n", "first"),
    [
        ("simlex999/SimLex-999.txt", "simlex999", None, 999, ("old", "new", 1.58, "A")),
        (
            "simverb3500/simverb-3500-data.zip",
            "simverb3500",
            "data/SimVerb-3500.txt",
            3500,
            ("take", "remove", 6.81, "V"),
        ),
        ("bio-simlex-simverb/Bio-SimLex.txt", "three_column", None, 988, ("therapy", "treatment", 9.32, None)),
        ("bio-simlex-simverb/Bio-SimVerb.txt", "three_column", None, 1000, ("depolymerize", "reduce", 1.98, None)),
        (
            "umnsrs-mayosrs/biosimverb-wvlib_UMNSRS_UMNSRS-sim.txt",
            "three_column",
            None,
            566,
            ("glaucoma", "fibrillation", 279.0, None),
        ),
        (
            "umnsrs-mayosrs/biosimverb-wvlib_UMNSRS_UMNSRS-rel.txt",
            "three_column",
            None,
            587,
            ("carbatrol", "dilantin", 797.5, None),
        ),
        (
            "umnsrs-mayosrs/biosimverb-wvlib_MayoSRS_MayoSRS.txt",
            "three_column",
            None,
            101,
            ("difficulty walking", "antalgic gait", 6.69, None),
        ),
    ],
)
def test_read_the_published_benchmarks(rel: str, fmt: str, member: str | None, n: int, first: tuple) -> None:
    frame = read_rated_pairs(SHARED_DATA / rel, fmt, member)
    assert len(frame) == n
    assert tuple(frame.iloc[0]) == first
    assert frame["score"].notna().all()


def test_reader_errors_name_file_and_line(tmp_path: Path) -> None:
    bad = tmp_path / "bad.txt"
    bad.write_text("a\tb\t1.0\nc\td\n")
    with pytest.raises(SourceFormatError) as err:
        read_rated_pairs(bad, "three_column")
    assert err.value.line == 2 and "3 tab-separated fields" in str(err.value)
    bad.write_text("a\tb\tx\n")
    with pytest.raises(SourceFormatError, match="numeric similarity score"):
        read_rated_pairs(bad, "three_column")
    bad.write_text("w1\tw2\tPOS\tscore\nold\tnew\tA\t1.5\n")
    with pytest.raises(SourceFormatError, match="SimLex-999 header"):
        read_rated_pairs(bad, "simlex999")
    bad.write_text("\n\n")
    with pytest.raises(SourceFormatError, match="at least one rated pair"):
        read_rated_pairs(bad, "three_column")
    with pytest.raises(SourceFormatError, match="zip archive"):
        read_rated_pairs(bad, "simverb3500", member="data/SimVerb-3500.txt")


def test_parquet_rated_datasets(tmp_path: Path) -> None:
    path = tmp_path / "rated.parquet"
    pd.DataFrame({"word1": ["a"], "word2": ["b"], "score": [3], "pos": ["N"], "sd": [0.5]}).to_parquet(path)
    frame = read_rated_pairs(path, "parquet")
    assert frame.to_dict("records") == [{"word1": "a", "word2": "b", "score": 3.0, "pos": "N"}]
    pd.DataFrame({"w1": ["a"]}).to_parquet(path)
    with pytest.raises(SourceFormatError):
        read_rated_pairs(path, "parquet")
