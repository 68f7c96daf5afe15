"""Integration: the embedded default workflow end to end, checked on its outputs' contents."""

from __future__ import annotations

import hashlib
from pathlib import Path

import pandas as pd
import pyarrow.parquet as pq
import pytest

from biosem.termpairs import DATASETS, POSITIVE_KINDS

pytestmark = pytest.mark.workflow


def _digest_tree(root: Path) -> dict[str, str]:
    return {
        str(p.relative_to(root)): hashlib.sha256(p.read_bytes()).hexdigest()
        for p in sorted(root.rglob("*"))
        if p.is_file()
    }


def test_outputs_byte_identical_across_runs_and_cores(workflow_runs: dict[int, Path]) -> None:
    a = _digest_tree(workflow_runs[2] / "results")
    b = _digest_tree(workflow_runs[1] / "results")
    assert len(a) > 100
    assert a == b


@pytest.mark.parametrize("terminology", ["snomed_sample", "hpo", "umls_sample", "cl"])
def test_twenty_balanced_datasets(workflow_runs: dict[int, Path], terminology: str) -> None:
    root = workflow_runs[2] / "results" / "datasets" / "termpairs" / terminology
    counts = pd.read_csv(root / "counts.tsv", sep="\t")
    for name in DATASETS:
        table = pq.read_table(root / f"{name}.parquet").to_pandas()
        tsv = (root / f"{name}.tsv").read_text(encoding="utf-8").splitlines()
        assert len(tsv) == len(table)
        assert [line.split("\t")[2] for line in tsv] == table["label"].astype(str).tolist()
        n_pos = int((table["label"] == 1).sum())
        assert n_pos == int((table["label"] == 0).sum()), name  # balanced
        kind, difficulty = name.rsplit("_", 2)[0], name.rsplit("_", 2)[1]
        row = counts[(counts["kind"] == kind) & (counts["difficulty"] == difficulty)].iloc[0]
        assert row["positives"] == n_pos
        assert row["status"] == ("empty" if n_pos == 0 else "ok")
        assert isinstance(row["note"], str) == (n_pos == 0)  # an empty dataset says why; the others say nothing
        if n_pos:
            pos = table[table["label"] == 1]
            bound = 5
            if difficulty == "easy":
                assert (pos["levenshtein"] <= bound).all()
            else:
                assert (pos["levenshtein"] > bound).all()


def test_hpo_yields_thousands_of_pairs(workflow_runs: dict[int, Path]) -> None:
    counts = pd.read_csv(workflow_runs[2] / "results/datasets/termpairs/hpo/counts.tsv", sep="\t")
    all_rows = counts[counts["difficulty"] == "all"].set_index("kind")
    # HPO 2025-01-16: 19,034 active terms with a name and 21,085 EXACT synonyms.
    assert all_rows.loc["fsn_syn", "positives"] == 20025
    assert all_rows.loc["syn_syn", "positives"] == 43864
    assert all_rows.loc["replaced_by", "positives"] > 100
    assert all_rows.loc["same_as", "status"] == "empty"  # OBO has no SAME AS role
    assert all_rows.loc["same_as", "note"] == "no same_as associations in the source"
    assert set(all_rows.index) == set(POSITIVE_KINDS)


def test_cell_ontology_full(workflow_runs: dict[int, Path]) -> None:
    """A full open ontology end to end (CL 2019-01-29: 2,319 terms, 28 obsolete terms with replaced_by/consider)."""
    counts = pd.read_csv(workflow_runs[2] / "results/datasets/termpairs/cl/counts.tsv", sep="\t")
    rows = counts.set_index(["kind", "difficulty"])
    assert rows.loc[("fsn_syn", "all"), "positives"] == 1744
    assert rows.loc[("syn_syn", "all"), "positives"] == 4543
    assert rows.loc[("possibly_equivalent_to", "all"), "positives"] == 23
    # One of the five replaced_by pairs survives: four are SYN-SYN pairs already (drop_associations_in_syn_syn).
    assert rows.loc[("replaced_by", "all"), "positives"] == 1
    assert rows.loc[("replaced_by", "easy"), "note"] == "no easy pairs (1 hard)"
    assert rows.loc[("same_as", "hard"), "note"] == "no same_as associations in the source"
    log = (workflow_runs[2] / "logs/summarise_termpairs/cl.log").read_text()
    assert "cl: 8 of 20 datasets empty" in log
    assert "cl: same_as_easy_{random,levenshtein} empty: no same_as associations in the source" in log
    log = (workflow_runs[2] / "logs/sample_termpair_negatives/cl/replaced_by_easy_random.log").read_text()
    assert "empty dataset written: no easy pairs (1 hard)" in log


@pytest.mark.parametrize("terminology", ["snomed_sample", "hpo", "cl"])
def test_negatives_outside_similarity_component(workflow_runs: dict[int, Path], terminology: str) -> None:
    root = workflow_runs[2] / "results" / "datasets" / "termpairs" / terminology
    comp = pd.read_parquet(root / "components.parquet").set_index("term_lower")["component"]
    for name in DATASETS:
        neg = pd.read_parquet(root / f"{name}.parquet").query("label == 0")
        if neg.empty:
            continue
        c1 = comp.reindex(neg["term1"].str.lower()).to_numpy()
        c2 = comp.reindex(neg["term2"].str.lower()).to_numpy()
        assert (c1 != c2).all(), name
        lo = (
            neg["term1"]
            .str.lower()
            .where(neg["term1"].str.lower() <= neg["term2"].str.lower(), neg["term2"].str.lower())
        )
        hi = (
            neg["term2"]
            .str.lower()
            .where(neg["term1"].str.lower() <= neg["term2"].str.lower(), neg["term1"].str.lower())
        )
        assert not pd.DataFrame({"lo": lo, "hi": hi}).duplicated().any(), name


def test_intermediates_have_rows(workflow_runs: dict[int, Path]) -> None:
    inter = workflow_runs[2] / "results" / "intermediate"
    assert pq.read_metadata(inter / "terms" / "hpo.parquet").num_rows == 19484 + 23519
    assert pq.read_metadata(inter / "concepts" / "go_slim.parquet").num_rows == 149
    assert pq.read_metadata(inter / "terms" / "umls_sample.parquet").num_rows == 543
    assert pq.read_metadata(inter / "associations" / "snomed_sample.parquet").num_rows == 4
    assert pq.read_metadata(inter / "concepts" / "cl.parquet").num_rows == 2319


def test_rule_logs_report_counts(workflow_runs: dict[int, Path]) -> None:
    log = (workflow_runs[2] / "logs" / "build_termpair_positives" / "hpo.log").read_text()
    assert "fsn_syn_positives = 20025" in log
    log = (workflow_runs[2] / "logs" / "fetch_source" / "hpo" / "hp.obo.gz.log").read_text()
    assert "sha256" in log and "verified" in log
