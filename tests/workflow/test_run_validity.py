"""Integration: the validity tables the workflow writes beside each family's counts (issue 37), read
as a reviewer would: every check of the acceptance holds on the open data of the test overlay."""

from __future__ import annotations

from pathlib import Path

import pandas as pd
import pytest

from biosem.layout import outputs, paths
from biosem.termpairs import DATASETS as TERMPAIR_DATASETS
from biosem.validity import COLUMNS, FLAG, INFO, PASS, read_validity

pytestmark = pytest.mark.workflow

OPEN_TERMINOLOGIES = ("hpo", "cl")
"""Open terminologies whose term pairs the test overlay builds (config/test/config.yaml)."""


def _validity(root: Path, output: outputs.Output, **wildcards: str) -> pd.DataFrame:
    table = read_validity(root / output.path(**wildcards))
    assert tuple(table.columns) == COLUMNS
    assert set(table["status"]) <= {PASS, FLAG, INFO}
    assert len(table) > 0
    return table


def _value(table: pd.DataFrame, dataset: str, check: str, stratum: str = "") -> float:
    row = table[(table["dataset"] == dataset) & (table["check"] == check) & (table["stratum"] == stratum)]
    assert len(row) == 1, (dataset, check, stratum)
    return float(row["value"].iloc[0])


@pytest.mark.parametrize("terminology", OPEN_TERMINOLOGIES)
def test_termpairs_no_surface_variant_negative_and_balanced_labels(
    workflow_runs: dict[int, Path], terminology: str
) -> None:
    table = _validity(workflow_runs[2], outputs.termpair_validity, terminology=terminology)
    built = set(table["dataset"])
    assert built <= set(TERMPAIR_DATASETS) and "fsn_syn_hard_levenshtein" in built
    for dataset in built:
        rows = table[table["dataset"] == dataset].set_index("check")
        if "surface_variant_negatives" in rows.index:
            assert rows.loc["surface_variant_negatives", "value"] == 0, rows.loc["surface_variant_negatives", "detail"]
        if (
            "majority_class_accuracy" in rows.index
            and rows.loc["majority_class_accuracy", "value"] == rows.loc["majority_class_accuracy", "value"]
        ):
            assert rows.loc["majority_class_accuracy", "value"] == 0.5  # one negative per positive
    # the Levenshtein-nearest negatives look more alike than the positives: the string baseline falls
    # below chance, while the random easy negatives are solvable by string matching (flagged)
    assert _value(table, "fsn_syn_hard_levenshtein", "levenshtein_ratio_auc") < 0.5
    easy_random = table[(table["dataset"] == "fsn_syn_easy_random") & (table["check"] == "levenshtein_ratio_auc")]
    assert easy_random["status"].tolist() == [FLAG]


def test_wic_test_and_dev_balanced_in_every_group_kept(workflow_runs: dict[int, Path]) -> None:
    root = workflow_runs[2]
    table = _validity(root, outputs.wic_validity)
    for split in ("test", "dev"):
        frame = pd.read_parquet(root / outputs.wic_split.path(split=split))
        assert len(frame) > 0
        for group, items in frame.groupby("cat"):
            labels = items["label"].value_counts()
            assert labels.get(0, 0) == labels.get(1, 0), (split, group, labels.to_dict())
            assert _value(table, split, "majority_class_accuracy", group) <= 0.55
        assert _value(table, split, "majority_class_accuracy") <= 0.55
    # test shares no sentence or term pair with the other splits
    for pair in ("train/test", "dev/test"):
        assert _value(table, pair, "shared_sentences") == 0
        assert _value(table, pair, "shared_term_pairs") == 0
    flagged = table[(table["status"] == FLAG) & table["dataset"].isin(["test", "dev"])]
    assert flagged.empty, flagged.to_string()


@pytest.mark.parametrize("terminology", ["hpo", "doid", "go", "cl", "mesh", "uberon", "so"])
def test_analogies_no_lowercased_abbreviation_and_no_ambiguous_answer(
    workflow_runs: dict[int, Path], terminology: str
) -> None:
    table = _validity(workflow_runs[2], outputs.analogy_validity, terminology=terminology)
    for check in ("abbreviation_counted_share", "ambiguous_answers", "duplicate_analogies"):
        rows = table[table["check"] == check]
        assert len(rows) == 6 and (rows["value"] == 0).all(), rows.to_string()
    single = _value(table, "single_answer", "mean_answers")
    assert single in (0.0, 1.0)


@pytest.mark.parametrize("dataset", ["nouns", "verbs"])
def test_simlex_parts_of_speech_and_no_variant_pairs(workflow_runs: dict[int, Path], dataset: str) -> None:
    table = _validity(workflow_runs[2], outputs.simlex_validity, dataset=dataset)
    assert _value(table, dataset, "wrong_pos_pairs") <= 0.03
    for check in ("surface_variant_pairs", "derivational_variant_pairs", "duplicate_pairs"):
        assert _value(table, dataset, check) == 0
    published = table[table["check"].str.startswith("published_")]
    assert len(published) == 2 and set(published["status"]) == {INFO}  # Bio-SimLex / Bio-SimVerb, for comparison


def test_every_validity_table_has_a_report_page(workflow_runs: dict[int, Path]) -> None:
    root = workflow_runs[2]
    sources = [
        *(outputs.termpair_validity.path(terminology=t) for t in OPEN_TERMINOLOGIES),
        outputs.wic_validity.template,
        outputs.analogy_validity.path(terminology="hpo"),
        *(outputs.simlex_validity.path(dataset=d) for d in ("nouns", "verbs")),
    ]
    for source in sources:
        page = root / paths.report_page(source)
        assert page.is_file(), page
        assert "<th>check</th>" in page.read_text(encoding="utf-8")
