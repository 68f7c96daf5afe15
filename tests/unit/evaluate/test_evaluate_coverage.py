"""Coverage per dataset (biosem.evaluate.results, biosem.evaluate.suite.log_coverage): what each model scored of
each dataset, summed per family, and the WARNING lines below biosem.evaluate.COVERAGE_WARNING."""

from __future__ import annotations

import logging

import pandas as pd
import pytest

from biosem.evaluate import COVERAGE_WARNING
from biosem.evaluate.results import (
    coverage_summary,
    coverage_warnings,
    dataset_coverage,
    dataset_family,
    result_row,
    results_frame,
)
from biosem.evaluate.suite import log_coverage


def rows() -> pd.DataFrame:
    """Hand-made rows of every family, as the scoring functions write them: a rated benchmark with a frequency
    band, a rated dataset of biosem's, two term-pair datasets (several rows of subset ``all``, a half whose n
    is smaller), a category separation, an analogy dataset (relations, macro, all), WiC dev (the threshold's n:
    covered instances; accuracy: every instance), the random baseline, and a McNemar comparison row."""
    r = [
        result_row("glove", "simlex999", "all", "cosine:spearman", 0.3, 950, 0.951),
        result_row("glove", "simlex999", "band:1-100", "cosine:spearman", 0.2, 40, 0.8, corpus="c"),
        result_row("glove", "simlex/mine", "all", "cosine:spearman", 0.5, 30, 1.0),
        result_row("glove", "termpairs/mesh/fsn_syn_easy_random", "all", "avg_cos:auc", 0.7, 65, 0.065),
        result_row("glove", "termpairs/mesh/fsn_syn_easy_random", "all", "pair_cos:auc", 0.6, 65, 0.065),
        result_row("glove", "termpairs/mesh/fsn_syn_easy_random", "test_half", "avg_cos:accuracy", 0.6, 30, 0.065),
        result_row("glove", "termpairs/mesh/syn_syn_hard_random", "all", "avg_cos:auc", 0.8, 118, 0.118),
        result_row("glove", "termpairs/hpo/fsn_syn_easy_random", "all", "avg_cos:auc", 0.9, 900, 0.9),
        result_row("glove", "categories/hpo", "all", "avg_cos:overlap", 0.8, 575, 0.958),
        result_row("glove", "categories/hpo", "within", "avg_cos:mean", 0.2, 9000, 0.958),
        result_row("glove", "analogies/hpo/all_info", "is_a", "3CosAdd:MAP", 0.3, 20, 0.4),
        result_row("glove", "analogies/hpo/all_info", "macro", "3CosAdd:MAP", 0.3, 48, 0.48),
        result_row("glove", "analogies/hpo/all_info", "all", "3CosAdd:MAP", 0.3, 48, 0.48),
        result_row("glove", "wic/dev", "all", "context_cosine:threshold", 0.5, 180, 0.9),
        result_row("glove", "wic/dev", "all", "context_cosine:accuracy", 0.6, 200, 0.9),
        result_row("glove", "wic/dev", "synonyms", "context_cosine:accuracy", 0.6, 100, 0.92),
        result_row("random", "wic/dev", "all", "random:accuracy", 0.5, 200, 1.0),
        result_row(
            "glove", "termpairs/mesh/fsn_syn_easy_random", "test_half", "avg_cos:mcnemar_p", 0.1, 30, None, model_b="x"
        ),
    ]
    return results_frame(r)


def test_dataset_family_names_the_family_of_every_dataset() -> None:
    assert dataset_family("simlex999") == "rated" and dataset_family("simlex/mine") == "rated"
    assert dataset_family("termpairs/mesh/fsn_syn_easy_random") == "termpairs"
    assert dataset_family("categories/hpo") == "termpairs"
    assert dataset_family("analogies/hpo/all_info") == "analogies" and dataset_family("wic/test") == "wic"


def test_dataset_coverage_one_row_per_model_and_dataset() -> None:
    got = dataset_coverage(rows())
    assert list(got.columns) == ["model", "family", "dataset", "n", "coverage"]
    assert list(zip(got["model"], got["dataset"], got["family"], got["n"], got["coverage"])) == [
        ("glove", "analogies/hpo/all_info", "analogies", 48, 0.48),
        ("glove", "categories/hpo", "termpairs", 575, 0.958),
        ("glove", "simlex/mine", "rated", 30, 1.0),
        ("glove", "simlex999", "rated", 950, 0.951),
        ("glove", "termpairs/hpo/fsn_syn_easy_random", "termpairs", 900, 0.9),
        ("glove", "termpairs/mesh/fsn_syn_easy_random", "termpairs", 65, 0.065),
        ("glove", "termpairs/mesh/syn_syn_hard_random", "termpairs", 118, 0.118),
        ("glove", "wic/dev", "wic", 200, 0.9),  # every instance is scored (uncovered: the fallback label)
        ("random", "wic/dev", "wic", 200, 1.0),
    ]
    assert dataset_coverage(rows().iloc[:0]).empty


def test_coverage_summary_per_model_and_family() -> None:
    summary = coverage_summary(dataset_coverage(rows()))
    assert summary.set_index(["model", "family"]).to_dict("index") == {
        ("glove", "analogies"): {"datasets": 1, "n": 48, "coverage_min": 0.48, "coverage_max": 0.48},
        ("glove", "rated"): {"datasets": 2, "n": 980, "coverage_min": 0.951, "coverage_max": 1.0},
        ("glove", "termpairs"): {"datasets": 4, "n": 1658, "coverage_min": 0.065, "coverage_max": 0.958},
        ("glove", "wic"): {"datasets": 1, "n": 200, "coverage_min": 0.9, "coverage_max": 0.9},
        ("random", "wic"): {"datasets": 1, "n": 200, "coverage_min": 1.0, "coverage_max": 1.0},
    }


def test_a_warning_for_each_dataset_covered_below_the_threshold(caplog: pytest.LogCaptureFixture) -> None:
    assert COVERAGE_WARNING == 0.5
    expected = [
        "WARNING: glove covers 0.480 of analogies/hpo/all_info",
        "WARNING: glove covers 0.065 of termpairs/mesh/fsn_syn_easy_random",
        "WARNING: glove covers 0.118 of termpairs/mesh/syn_syn_hard_random",
    ]
    assert coverage_warnings(rows(), COVERAGE_WARNING) == expected
    assert coverage_warnings(rows(), 0.06) == []
    # the evaluate rules' logs: a line per dataset, then the same warnings
    with caplog.at_level(logging.INFO, logger="biosem.evaluate.suite"):
        log_coverage(rows().to_dict("records"))
    messages = [r.getMessage() for r in caplog.records]
    assert "glove on termpairs/mesh/fsn_syn_easy_random (termpairs): 65 items scored, coverage 0.065" in messages
    assert "random on wic/dev (wic): 200 items scored, coverage 1.000" in messages
    assert [r.getMessage() for r in caplog.records if r.levelno == logging.WARNING] == expected
    assert len(messages) == 9 + 3
