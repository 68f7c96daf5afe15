"""Generic validity checks (biosem.validity): label balance, string baselines, variants, duplicates."""

import math

import numpy as np
import pytest
from sklearn.metrics import roc_auc_score

from biosem.validity import (
    COLUMNS,
    FLAG,
    INFO,
    PASS,
    best_threshold_accuracy,
    char_ngram_jaccard,
    check,
    duplicate_check,
    flagged,
    label_checks,
    levenshtein_ratio,
    overlap_check,
    read_validity,
    string_baseline_checks,
    surface_variant_check,
    write_validity,
)


def _by_check(checks):
    return {c.check: c for c in checks}


def test_label_checks_flag_a_one_label_stratum_and_pass_a_balanced_one():
    # WiC test "term identity" as the reviewer found it: 400 positives, 10 negatives
    skewed = _by_check(label_checks([1] * 400 + [0] * 10, "test", "term_identity"))
    assert skewed["majority_class_accuracy"].value == pytest.approx(400 / 410)
    assert skewed["majority_class_accuracy"].status == FLAG
    assert skewed["label_balance"].value == pytest.approx(10 / 410, abs=1e-6)
    assert skewed["label_balance"].status == FLAG
    assert skewed["label_balance"].stratum == "term_identity"
    balanced = _by_check(label_checks([1, 0] * 50, "test", "synonyms"))
    assert balanced["majority_class_accuracy"].value == 0.5
    assert {c.status for c in balanced.values()} == {PASS}
    empty = _by_check(label_checks([], "dev"))
    assert math.isnan(empty["majority_class_accuracy"].value) and empty["majority_class_accuracy"].status == FLAG


def test_best_threshold_accuracy_known_answers():
    y = np.array([1, 1, 0, 0])
    assert best_threshold_accuracy(np.array([0.9, 0.8, 0.2, 0.1]), y) == 1.0
    assert best_threshold_accuracy(np.array([0.1, 0.2, 0.8, 0.9]), y) == 0.5  # "always 0" or "always 1"
    # ties: a threshold cannot split equal scores
    assert best_threshold_accuracy(np.array([0.5, 0.5, 0.5, 0.5]), y) == 0.5
    assert best_threshold_accuracy(np.array([1.0, 0.5, 0.5, 0.0]), y) == 0.75


def test_string_similarities_known_values():
    assert levenshtein_ratio(["abcd", "Tumor"], ["abce", "tumor"]).tolist() == [0.75, 1.0]
    # 3-grams of " ab", "abc", "bc ": identical sets -> 1; disjoint -> 0
    assert char_ngram_jaccard(["abc", "abc"], ["ABC", "xyz"]).tolist() == [1.0, 0.0]
    assert len(levenshtein_ratio([], [])) == 0 and len(char_ngram_jaccard([], [])) == 0


def test_string_baselines_flag_a_dataset_solvable_by_string_matching():
    # positives are spelling variants, negatives unrelated strings: trivially separable
    a = ["tumour", "oedema", "CTLA-8", "anaemia", "stroke", "fever"]
    b = ["tumor", "edema", "CTLA8", "anemia", "neoplasm", "apnoea"]
    y = [1, 1, 1, 1, 0, 0]
    checks = _by_check(string_baseline_checks(a, b, y, "toy"))
    assert checks["exact_match_auc"].value == 1.0 and checks["exact_match_auc"].status == FLAG
    assert checks["exact_match_accuracy"].value == 1.0
    lev = levenshtein_ratio(a, b)
    assert checks["levenshtein_ratio_auc"].value == pytest.approx(roc_auc_score(y, lev))
    assert set(checks) == {
        f"{name}_{metric}"
        for name in ("exact_match", "levenshtein_ratio", "char3_jaccard")
        for metric in ("auc", "accuracy")
    }


def test_string_baselines_below_chance_on_levenshtein_negatives_pass():
    # Levenshtein-nearest negatives look more alike than the positives: AUC < 0.5, not flagged
    a = ["myocardial infarction", "heart attack", "renal failure", "kidney failure"]
    b = ["heart attack", "myocardial infarction", "renal failures", "kidney failures"]
    y = [1, 1, 0, 0]
    checks = _by_check(string_baseline_checks(a, b, y, "hard_levenshtein"))
    assert checks["levenshtein_ratio_auc"].value == 0.0
    assert checks["levenshtein_ratio_auc"].status == PASS


def test_surface_variant_check_counts_per_step_with_examples():
    a = ["Pancoast's tumour", "Quincke's edema", "CTLA8", "stroke"]
    b = ["Pancoast's tumor", "Quincke edema", "CTLA-8", "cerebrovascular accident"]
    result = surface_variant_check(a, b, "fsn_syn_hard_levenshtein")
    assert result.value == 3 and result.status == FLAG and result.threshold == "== 0"
    assert "hyphen_space: 1" in result.detail and "apostrophe_s: 1" in result.detail and "spelling: 1" in result.detail
    assert "'CTLA8' / 'CTLA-8'" in result.detail
    assert surface_variant_check(["stroke"], ["apoplexy"], "x").status == PASS


def test_duplicates_and_overlap():
    dup = duplicate_check(["a", "b", "c", "a"], ["b", "a", "d", "b"], "syn_syn")
    assert dup.value == 2 and dup.status == FLAG  # (b, a) and (a, b) repeat (a, b)
    assert duplicate_check(["a"], ["b"], "x").value == 0
    leak = overlap_check(["s1", "s2", "s3"], ["s3", "s4", "s1"], "test", "shared_sentences_train")
    assert leak.value == 2 and leak.detail == "s1; s3"


def test_threshold_and_info_rows_and_the_written_table(tmp_path):
    assert check("x", "association_synonym_share", 0.12).status == INFO
    with pytest.raises(ValueError, match="threshold"):
        check("x", "y", 1, "at most 3")
    rows = [
        check("fsn_syn_easy_random", "majority_class_accuracy", 0.5, "<= 0.55"),
        check("fsn_syn_easy_random", "exact_match_auc", 0.97, "< 0.95", detail="n=10"),
        check("replaced_by", "association_synonym_share", 0.04),
    ]
    path = tmp_path / "validity.tsv"
    write_validity(rows, path)
    table = read_validity(path)
    assert tuple(table.columns) == COLUMNS
    assert table["status"].tolist() == [PASS, FLAG, INFO]
    assert table["stratum"].tolist() == ["", "", ""]
    assert flagged(table)["check"].tolist() == ["exact_match_auc"]
    assert path.read_text().splitlines()[0] == "\t".join(COLUMNS)
