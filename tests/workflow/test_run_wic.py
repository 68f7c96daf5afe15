"""Integration: the BioWiC splits built by the embedded default workflow, checked on their contents."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pandas as pd
import pyarrow.parquet as pq
import pytest

from biosem.wic import GROUPS, PAPER_QUOTAS
from biosem.wic.schemas import RELEASED_COLUMNS
from biosem.wic.validate import load_splits, validate_splits

pytestmark = pytest.mark.workflow

PUBTATOR = ("bc5cdr", "ncbi_disease", "biored", "medmentions_sample")
CORPORA = (*PUBTATOR, "craft")
OUP = {"15784609", "15917436", "16027110", "16221973", "16517939"}
"""CRAFT's five Oxford University Press articles: "All rights reserved"."""


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


def test_balanced_groups_and_left_out_groups_explained(workflow_runs: dict[int, Path]) -> None:
    """MeSH + BioRED with quota_policy balanced (issue 37): in every split each group kept has as many
    label-1 as label-0 items, at least min_stratum of each unless it fills its quota, so "always same
    concept" scores 0.5; a group left out has its reason in counts.tsv and quotas.json."""
    root = _wic(workflow_runs)
    counts = pd.read_csv(root / "counts.tsv", sep="\t", keep_default_na=False)
    quotas = json.loads((root / "quotas.json").read_text())
    assert quotas["quota_policy"] == "balanced" and quotas["min_stratum"] == 30
    for split in ("train", "dev", "test"):
        part = counts[counts["split"] == split]
        n = part.set_index(["cat", "label"])["n"]
        assert 0 < n[:, 1].sum() == n[:, 0].sum(), split
        for group in GROUPS:
            assert n[(group, 1)] == n[(group, 0)], (split, group)
            why = quotas["left_out"].get(split, {}).get(group)
            rows = part[part["cat"] == group]
            if why:
                assert n[(group, 1)] == 0 and (rows["left_out"] == why).all() and "min_stratum 30" in why
            else:
                assert (rows["left_out"] == "").all()
                assert n[(group, 1)] >= 30 or (split != "train" and n[(group, 1)] == quotas[split][group] // 2)
    test = counts[counts["split"] == "test"].set_index(["cat", "label"])
    assert test["n"].sum() >= 400  # abbreviations and label similarity at the paper's 100 / 100
    for row in counts[counts["split"] != "train"].itertuples(index=False):
        paper = PAPER_QUOTAS[row.split][row.cat] // 2
        assert int(row.paper_quota) == paper and row.n <= paper
        assert (row.bound != "") == (row.n < paper), row


def test_no_linked_negative(workflow_runs: dict[int, Path]) -> None:
    """The wrong negatives of issue 37's review are gone, and the link test is counted."""
    root = _wic(workflow_runs)
    wrong = {("renal injury", "renal injury"), ("salt", "salt"), ("cerebrovascular accident", "stroke")}
    wrong |= {("progestins", "progestogens")}
    for split in ("train", "dev", "test"):
        table = pq.read_table(root / f"{split}.parquet").to_pandas()
        negatives = table[table["label"] == 0]
        pairs = {tuple(sorted((a.lower(), b.lower()))) for a, b in zip(negatives["term1"], negatives["term2"])}
        assert not pairs & wrong, split
    cand = pd.read_csv(root / "candidate_counts.tsv", sep="\t").set_index(["group", "label"])
    assert cand.loc[(slice(None), 0), "pruned_ancestor"].sum() > 0
    assert cand.loc[(slice(None), 0), "pruned_synonym"].sum() > 0
    assert (cand.loc[(slice(None), 1), ["pruned_record", "pruned_ancestor", "pruned_synonym"]] == 0).all().all()


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
    selected = selected[selected["corpus"].isin(PUBTATOR)]
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
        # counted after the PMID deduplication: BioRED loses the abstracts kept in BC5CDR / NCBI Disease; and
        # after the notices: CRAFT loses the articles whose notice does not permit redistribution
        rows = {t: pq.read_metadata(inter / t / f"{corpus}.parquet").num_rows for t in ("sentences", "mentions")}
        deduplicated = corpus in ("biored", "craft")
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


def test_craft_joins_through_the_obo_terminologies(workflow_runs: dict[int, Path]) -> None:
    """CRAFT's GO, CL, UBERON, SO and MOP ids are concepts of those ontologies (old GO ids followed to
    current ones, obsolete ones dropped and counted); CHEBI, PR, NCBITaxon and MONDO keep their
    namespaces; discontinuous mentions are never targets; a CRAFT and a PubTator mention never pair."""
    root = _wic(workflow_runs)
    inter = workflow_runs[2] / "results" / "intermediate"
    sel = pd.read_csv(root / "selection_counts.tsv", sep="\t").set_index(["corpus", "step"])["n"]
    assert sel[("craft", "documents")] == 97 - 5 - 8  # the OUP articles and the 8 that grant nothing
    assert sel[("craft", "documents_excluded_notice_all_rights_reserved")] == 5
    assert sel[("craft", "documents_excluded_notice_no_permission_stated")] == 8
    assert sel[("craft", "mentions_dropped_discontinuous")] > 1500
    assert sel[("craft", "mentions_resolved_GO_alt_id")] > 0 and sel[("craft", "mentions_dropped_obsolete_id")] > 0
    for ns in ("CL", "SO", "UBERON", "MOP"):
        assert sel[("craft", f"mentions_resolved_{ns}_primary")] > 0
    for ns in ("CHEBI", "PR", "NCBITaxon", "MONDO"):
        assert sel[("craft", f"mentions_kept_unmapped_{ns}")] > 0
    selected = pq.read_table(inter / "wic" / "selected.parquet").to_pandas()
    craft = selected[selected["corpus"] == "craft"]
    assert not set(craft["document_id"]) & OUP
    spaces = set(craft["concept_id"].str.partition(":")[0])
    assert spaces <= {"GO", "CL", "UBERON", "SO", "MOP", "CHEBI", "PR", "NCBITaxon", "MONDO", "HP"}
    obsolete = {"GO:0000187", "GO:0016265"}  # obsolete in the mirror's GO, without replacement
    assert not set(craft["concept_id"]) & obsolete
    mentions = pq.read_table(inter / "mentions" / "craft.parquet").to_pandas()
    gapped = mentions[mentions["discontinuous"]]
    chosen = craft.merge(gapped, on=["document_id", "mention_id"])
    assert chosen.empty
    cand = pd.read_csv(root / "candidate_counts.tsv", sep="\t").set_index(["group", "label"])
    assert cand.loc[(slice(None), 0), "pruned_cross_namespace"].sum() > 0
    assert cand.loc[(slice(None), 0), ["pruned_relation_is_a", "pruned_ancestor"]].sum().sum() > 0
    for split in ("train", "dev", "test"):
        table = pq.read_table(root / f"{split}.parquet").to_pandas()
        mixed = (table["corpus1"] == "craft") != (table["corpus2"] == "craft")
        assert not mixed.any(), split
        assert not (set(table["document_id1"]) | set(table["document_id2"])) & OUP


def test_craft_in_every_split_and_group(workflow_runs: dict[int, Path]) -> None:
    """With CRAFT the test and dev groups stay balanced (majority class 0.5) and CRAFT fills every train
    group; the abbreviations it adds come from UBERON's synonym type and the articles' definitions."""
    root = _wic(workflow_runs)
    counts = pd.read_csv(root / "counts.tsv", sep="\t", keep_default_na=False)
    for split in ("dev", "test"):
        n = counts[counts["split"] == split].set_index(["cat", "label"])["n"]
        assert n[:, 1].sum() == n[:, 0].sum() > 0
    train = pq.read_table(root / "train.parquet").to_pandas()
    craft = train[train["corpus1"] == "craft"]
    quotas = json.loads((root / "quotas.json").read_text())
    kept = set(GROUPS) - set(quotas["left_out"].get("train", {}))
    assert {"term_identity", "abbreviations", "label_similarity"} <= kept
    assert set(craft["cat"]) == kept and craft.groupby("cat")["label"].nunique().eq(2).all()
    test = pq.read_table(root / "test.parquet").to_pandas()
    assert (test["corpus1"] == "craft").sum() > 50
    log = (workflow_runs[2] / "logs" / "build_wic_candidates" / "wic.log").read_text()
    stats = dict(re.findall(r"(abbreviation_term_pairs_\w+) = (\d+)", log))
    assert int(stats["abbreviation_term_pairs_definitions"]) > 0
    assert int(stats["abbreviation_term_pairs_term_types"]) > 0
    validity = pd.read_csv(root / "validity.tsv", sep="\t", keep_default_na=False)
    flagged = validity[validity["status"] == "flag"]
    # BioWiC draws dev from train's pool: shared sentences and term pairs are the only flags
    assert set(flagged["check"]) <= {"shared_sentences", "shared_term_pairs"} and set(flagged["dataset"]) == {
        "train/dev"
    }
