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

CORPORA = ("bc5cdr", "ncbi_disease", "biored", "medmentions_sample")


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


def test_all_eight_strata_and_the_bounds_of_short_ones(workflow_runs: dict[int, Path]) -> None:
    """MeSH + BioRED with quota_policy fill: test >= 676 (twice the corpus-only build), every group x label
    stratum non-empty, the paper's quota wherever the candidates allow it, and each short stratum bounded
    by its candidate count."""
    counts = pd.read_csv(_wic(workflow_runs) / "counts.tsv", sep="\t", keep_default_na=False)
    quotas = json.loads((_wic(workflow_runs) / "quotas.json").read_text())
    assert quotas["quota_policy"] == "fill"
    test = counts[counts["split"] == "test"].set_index(["cat", "label"])
    assert test["n"].sum() >= 676 and (test["n"] > 0).all()
    train = counts[counts["split"] == "train"].set_index(["cat", "label"])["n"]
    for group in GROUPS:
        assert train[(group, 1)] == train[(group, 0)] > 0, group
    for split in ("test", "dev"):
        part = counts[counts["split"] == split]
        for row in part.itertuples(index=False):
            paper = PAPER_QUOTAS[split][row.cat] // 2
            assert int(row.paper_quota) == paper and row.n <= paper
            if row.n < paper:  # short of the paper's quota: named with the count that bounds it
                assert row.bound in ("term_pairs", "candidates_left"), row
                both = paper + PAPER_QUOTAS["dev" if split == "test" else "test"][row.cat] // 2
                assert int(row.candidate_term_pairs) < both or int(row.candidates_left) < paper, row
            else:
                assert row.bound == ""


def test_json_and_parquet_agree(workflow_runs: dict[int, Path]) -> None:
    root = _wic(workflow_runs)
    counts = pd.read_csv(root / "counts.tsv", sep="\t")
    for split in ("train", "dev", "test"):
        records = json.loads((root / f"{split}.json").read_text())
        table = pq.read_table(root / f"{split}.parquet").to_pandas()
        assert table[list(RELEASED_COLUMNS)].to_dict("records") == records
        assert len(records) == counts[counts["split"] == split]["n"].sum()
        assert table["corpus1"].isin(CORPORA).all()
        same = table["concept_id1"] == table["concept_id2"]
        assert (same.astype(int) == table["label"]).all()


def test_concept_ids_from_mesh(workflow_runs: dict[int, Path]) -> None:
    """Concepts are MeSH concepts (M...) where MeSH unifies the corpus id; the rest keep their namespace."""
    root = _wic(workflow_runs)
    inter = workflow_runs[2] / "results" / "intermediate"
    selected = pq.read_table(inter / "wic" / "selected.parquet").to_pandas()
    mesh = selected["concept_id"].str.fullmatch(r"M[0-9]+")
    assert mesh.mean() > 0.85
    assert selected.loc[~mesh, "concept_id"].str.partition(":")[0].isin(["MESH", "OMIM", "UMLS"]).all()
    concepts = set(pq.read_table(inter / "concepts" / "mesh.parquet", columns=["concept_id"])["concept_id"].to_pylist())
    assert set(selected.loc[mesh, "concept_id"]) <= concepts
    sel = pd.read_csv(root / "selection_counts.tsv", sep="\t").set_index(["corpus", "step"])["n"]
    # BioRED: genes, species, cell lines and variants left out; abstracts shared with BC5CDR / NCBI Disease kept there
    assert sel[("biored", "mentions_dropped_mention_type")] > 0
    assert sel[("biored", "documents_dropped_in_bc5cdr")] > 0
    assert sel[("ncbi_disease", "mentions_kept_unmapped_OMIM")] > 0
    documents = selected.drop_duplicates(["corpus", "document_id"])
    assert documents["document_id"].is_unique  # no PMID from two corpora


def test_selection_and_candidate_counts(workflow_runs: dict[int, Path]) -> None:
    root = _wic(workflow_runs)
    inter = workflow_runs[2] / "results" / "intermediate"
    sel = pd.read_csv(root / "selection_counts.tsv", sep="\t").set_index(["corpus", "step"])["n"]
    for corpus in CORPORA:
        # counted after the PMID deduplication: BioRED loses the abstracts kept in BC5CDR / NCBI Disease
        rows = {t: pq.read_metadata(inter / t / f"{corpus}.parquet").num_rows for t in ("sentences", "mentions")}
        deduplicated = corpus == "biored"
        assert (
            (sel[(corpus, "sentences")] < rows["sentences"])
            if deduplicated
            else (sel[(corpus, "sentences")] == rows["sentences"])
        )
        assert (
            (sel[(corpus, "mentions")] < rows["mentions"])
            if deduplicated
            else (sel[(corpus, "mentions")] == rows["mentions"])
        )
        assert 0 < sel[(corpus, "sentences_selected")] <= sel[(corpus, "sentences_with_eligible_mention")]
    assert sel[("bc5cdr", "mentions_dropped_no_concept")] > 0  # BC5CDR "-1"
    assert sel[("ncbi_disease", "mentions_dropped_composite")] > 0  # NCBI "|" / "+"
    selected = pq.read_table(inter / "wic" / "selected.parquet").to_pandas()
    assert selected["sentence"].is_unique
    assert len(selected) == sum(sel[(c, "sentences_selected")] for c in CORPORA)
    cand = pd.read_csv(root / "candidate_counts.tsv", sep="\t")
    assert (cand["materialised"] <= cand["kept"]).all() and (cand["kept"] <= cand["sentence_pairs"]).all()
    assert cand.groupby("group")["materialised"].min().gt(0).all()
    log = (workflow_runs[2] / "logs" / "build_wic_candidates" / "wic.log").read_text()
    for group in GROUPS:
        assert f"{group} label 1: unit_pairs" in log and f"{group} label 0: unit_pairs" in log
