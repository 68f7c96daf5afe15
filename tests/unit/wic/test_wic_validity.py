"""The WiC validity checks (issue 37) on a tiny hand-made split set with known values: label balance and
the majority class, the trivial share, surface-variant negatives, duplicates, leakage between splits,
left-out groups, and the thin script that writes validity.tsv."""

from __future__ import annotations

import math
import runpy
from pathlib import Path
from types import SimpleNamespace

import pandas as pd
import pytest
from conftest import REPO

from biosem.validity import read_validity, validity_table
from biosem.wic.validity import PUBLISHED_TRIVIAL_SHARE, wic_validity


def _item(t1: str, t2: str, cat: str, label: int, s1: str, s2: str, c1: str, c2: str) -> dict:
    return {
        "term1": t1,
        "term2": t2,
        "sentence1": s1,
        "sentence2": s2,
        "cat": cat,
        "label": label,
        "concept_id1": c1,
        "concept_id2": c2,
    }


def _splits() -> dict[str, pd.DataFrame]:
    test = [
        _item("cold", "cold", "term_identity", 1, "t1", "t2", "C1", "C1"),
        _item("cold", "cold", "term_identity", 0, "t3", "t4", "C1", "C2"),
        _item("tumour", "tumor", "label_similarity", 0, "t5", "t6", "C3", "C4"),  # a surface variant
        _item("PD", "Parkinson disease", "abbreviations", 1, "t7", "t8", "C5", "C5"),
    ]
    dev = [
        _item("MS", "multiple sclerosis", "abbreviations", 1, "d1", "d2", "C6", "C6"),
        _item("MS", "mitral stenosis", "abbreviations", 0, "d3", "d4", "C6", "C7"),
        _item("MS", "mitral stenosis", "abbreviations", 0, "d4", "d3", "C6", "C7"),  # a duplicate, swapped
    ]
    train = [
        _item("Cold", "cold", "term_identity", 1, "r1", "t1", "C1", "C1"),  # a test sentence, a test concept pair
        _item("ms", "Mitral stenosis", "abbreviations", 0, "r2", "r3", "C7", "C6"),  # dev's term pair
        _item("fever", "pyrexia", "synonyms", 1, "r4", "r5", "C8", "C8"),
        _item("fever", "fevers", "synonyms", 0, "r6", "r7", "C8", "C9"),  # a surface variant (inflection)
    ]
    return {"train": pd.DataFrame(train), "dev": pd.DataFrame(dev), "test": pd.DataFrame(test)}


def _table(**kw) -> pd.DataFrame:
    return validity_table(wic_validity(_splits(), **kw)).set_index(["dataset", "stratum", "check"])


def test_labels_per_split_and_group() -> None:
    table = _table()
    assert table.loc[("test", "", "majority_class_accuracy"), "value"] == 0.5
    assert table.loc[("test", "", "majority_class_accuracy"), "status"] == "pass"
    assert table.loc[("test", "abbreviations", "majority_class_accuracy"), "value"] == 1.0  # one label
    assert table.loc[("test", "abbreviations", "label_balance"), "status"] == "flag"
    assert table.loc[("dev", "", "majority_class_accuracy"), "value"] == pytest.approx(2 / 3, abs=1e-6)
    assert table.loc[("test", "term_identity", "label_balance"), "value"] == 0.5
    assert ("test", "synonyms", "label_balance") not in table.index  # no item: no row


def test_trivial_share_and_the_published_share() -> None:
    table = _table()
    row = table.loc[("test", "", "trivial_share")]
    assert row["value"] == 0.5 and row["status"] == "info" and str(PUBLISHED_TRIVIAL_SHARE) in row["detail"]
    assert table.loc[("test", "term_identity", "trivial_share"), "value"] == 1.0
    assert table.loc[("test", "abbreviations", "trivial_share"), "value"] == 0.0
    train = table.loc[("train", "term_identity", "trivial_share")]
    assert train["value"] == 1.0 and "ignoring case: 1; exactly: 0" in train["detail"]  # "Cold" / "cold"


def test_surface_variant_negatives_and_the_identity_group() -> None:
    table = _table()
    assert table.loc[("test", "label_similarity", "surface_variant_negatives"), "value"] == 1
    assert table.loc[("test", "label_similarity", "surface_variant_negatives"), "status"] == "flag"
    assert "spelling: 1" in table.loc[("test", "label_similarity", "surface_variant_negatives"), "detail"]
    identity = table.loc[("test", "term_identity", "surface_variant_negatives")]
    assert identity["value"] == 1 and identity["status"] == "info"  # one string in two senses, by design
    assert table.loc[("train", "synonyms", "surface_variant_negatives"), "status"] == "flag"
    assert table.loc[("dev", "abbreviations", "surface_variant_negatives"), "status"] == "pass"


def test_duplicates_and_leakage_between_splits() -> None:
    table = _table()
    assert table.loc[("dev", "", "duplicate_pairs"), "value"] == 1
    assert table.loc[("test", "", "duplicate_pairs"), "value"] == 0
    assert table.loc[("train/test", "", "shared_sentences"), "value"] == 1
    assert table.loc[("train/test", "", "shared_sentences"), "detail"] == "t1"
    assert table.loc[("train/test", "", "shared_term_pairs"), "value"] == 1  # cold / cold, lowercased
    assert table.loc[("train/test", "", "shared_concept_pairs"), "value"] == 1  # C1 / C1
    assert table.loc[("train/dev", "", "shared_term_pairs"), "value"] == 1  # ms / mitral stenosis
    assert table.loc[("train/dev", "", "shared_concept_pairs"), "detail"] == "C6 / C7"  # unordered
    assert table.loc[("train/dev", "", "shared_sentences"), "value"] == 0
    assert table.loc[("dev/test", "", "shared_sentences"), "status"] == "pass"
    # the published JSON has no concept columns: that check is skipped
    plain = {k: v.drop(columns=["concept_id1", "concept_id2"]) for k, v in _splits().items()}
    checks = {c.check for c in wic_validity(plain)}
    assert "shared_concept_pairs" not in checks and "shared_term_pairs" in checks


def test_baselines_per_split_and_per_group_for_test() -> None:
    table = _table()
    assert ("test", "abbreviations", "exact_match_auc") in table.index
    assert ("train", "abbreviations", "exact_match_auc") not in table.index
    assert table.loc[("train", "", "exact_match_auc"), "value"] == 0.5  # one match per label
    assert math.isnan(table.loc[("test", "abbreviations", "exact_match_auc"), "value"])  # one label


def test_left_out_groups_are_reported_and_columns_checked() -> None:
    table = _table(left_out={"test": {"synonyms": "quota 2 per label < min_stratum 30"}})
    row = table.loc[("test", "synonyms", "group_left_out")]
    assert row["status"] == "info" and row["detail"] == "quota 2 per label < min_stratum 30"
    with pytest.raises(ValueError, match="lacks the columns"):
        wic_validity({"test": _splits()["test"].drop(columns=["cat"])})


def test_script_writes_validity_tsv(tmp_path: Path) -> None:
    inputs = {}
    for name, frame in _splits().items():
        inputs[name] = str(tmp_path / f"{name}.parquet")
        frame.to_parquet(inputs[name])
    quotas = tmp_path / "quotas.json"
    quotas.write_text('{"test": {}, "left_out": {"dev": {"term_identity": "quota 1 per label < min_stratum 30"}}}')
    out = tmp_path / "validity.tsv"
    snakemake = SimpleNamespace(
        input=SimpleNamespace(**inputs, quotas=str(quotas)),
        output=SimpleNamespace(validity=str(out)),
        params=SimpleNamespace(),
        log=[],
    )
    runpy.run_path(
        str(REPO / "workflow/scripts/check_wic_validity.py"), init_globals={"snakemake": snakemake}, run_name="__main__"
    )
    table = read_validity(out)
    assert len(table) == len(wic_validity(_splits())) + 1
    assert table.set_index(["dataset", "check"]).loc[("dev", "group_left_out"), "stratum"] == "term_identity"
