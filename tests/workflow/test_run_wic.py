"""Integration: the BioWiC splits built by the embedded default workflow, checked on their contents."""

from __future__ import annotations

import json
from pathlib import Path

import pandas as pd
import pyarrow.parquet as pq
import pytest

from biosem.wic import GROUPS, PAPER_QUOTAS
from biosem.wic.schemas import RELEASED_COLUMNS
from biosem.wic.validate import load_splits, validate_splits

pytestmark = pytest.mark.workflow


def _wic(runs: dict[int, Path]) -> Path:
    return runs[2] / "results" / "datasets" / "wic"


def test_validator_passes_on_the_workflow_output(workflow_runs: dict[int, Path]) -> None:
    root = _wic(workflow_runs)
    assert (root / "validation.txt").read_text().splitlines()[-1] == "OK: no violations"
    splits = load_splits(root)
    quotas = json.loads((root / "quotas.json").read_text())
    assert validate_splits(splits, {k: quotas[k] for k in ("test", "dev")}, quotas["train_sentence_cap"]) == []
    for records in splits.values():
        for rec in records:
            assert list(rec) == list(RELEASED_COLUMNS)
            assert rec["sentence1"][rec["start1"] : rec["end1"]] == rec["term1"]
            assert rec["sentence2"][rec["start2"] : rec["end2"]] == rec["term2"]


def test_all_four_groups_with_both_labels(workflow_runs: dict[int, Path]) -> None:
    counts = pd.read_csv(_wic(workflow_runs) / "counts.tsv", sep="\t")
    quotas = json.loads((_wic(workflow_runs) / "quotas.json").read_text())
    assert quotas["quota_policy"] == "scale"
    for split in ("train", "test"):
        part = counts[counts["split"] == split].set_index(["cat", "label"])["n"]
        for group in GROUPS:
            assert part[(group, 1)] == part[(group, 0)] > 0, (split, group)
    for split in ("test", "dev"):
        for group in GROUPS:
            assert 0 < quotas[split][group] <= PAPER_QUOTAS[split][group]


def test_json_and_parquet_agree(workflow_runs: dict[int, Path]) -> None:
    root = _wic(workflow_runs)
    counts = pd.read_csv(root / "counts.tsv", sep="\t")
    for split in ("train", "dev", "test"):
        records = json.loads((root / f"{split}.json").read_text())
        table = pq.read_table(root / f"{split}.parquet").to_pandas()
        assert table[list(RELEASED_COLUMNS)].to_dict("records") == records
        assert len(records) == counts[counts["split"] == split]["n"].sum()
        assert table["corpus1"].isin(["bc5cdr", "ncbi_disease", "medmentions_sample"]).all()
        same = table["concept_id1"] == table["concept_id2"]
        assert (same.astype(int) == table["label"]).all()


def test_selection_and_candidate_counts(workflow_runs: dict[int, Path]) -> None:
    root = _wic(workflow_runs)
    inter = workflow_runs[2] / "results" / "intermediate"
    sel = pd.read_csv(root / "selection_counts.tsv", sep="\t").set_index(["corpus", "step"])["n"]
    for corpus in ("bc5cdr", "ncbi_disease", "medmentions_sample"):
        assert sel[(corpus, "sentences")] == pq.read_metadata(inter / "sentences" / f"{corpus}.parquet").num_rows
        assert sel[(corpus, "mentions")] == pq.read_metadata(inter / "mentions" / f"{corpus}.parquet").num_rows
        assert 0 < sel[(corpus, "sentences_selected")] <= sel[(corpus, "sentences_with_eligible_mention")]
    assert sel[("bc5cdr", "mentions_dropped_no_concept")] > 0  # BC5CDR "-1"
    assert sel[("ncbi_disease", "mentions_dropped_composite")] > 0  # NCBI "|" / "+"
    selected = pq.read_table(inter / "wic" / "selected.parquet").to_pandas()
    assert selected["sentence"].is_unique
    assert len(selected) == sum(
        sel[(c, "sentences_selected")] for c in ("bc5cdr", "ncbi_disease", "medmentions_sample")
    )
    cand = pd.read_csv(root / "candidate_counts.tsv", sep="\t")
    assert (cand["materialised"] <= cand["kept"]).all() and (cand["kept"] <= cand["sentence_pairs"]).all()
    assert cand.groupby("group")["materialised"].min().gt(0).all()
    log = (workflow_runs[2] / "logs" / "build_wic_candidates" / "wic.log").read_text()
    for group in GROUPS:
        assert f"{group} label 1: unit_pairs" in log and f"{group} label 0: unit_pairs" in log
