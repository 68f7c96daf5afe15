"""The results table split for the report's pages (biosem.evaluate.families): by family and, for the term
pairs and analogies, terminology; every row in exactly one table, written as results.csv writes it."""

from __future__ import annotations

from pathlib import Path

import pytest

from biosem.evaluate.families import dataset_family, result_table, split_tables, table_names, write_tables
from biosem.evaluate.results import COLUMNS, result_row, results_frame, write_results


@pytest.mark.parametrize(
    ("dataset", "family"),
    [
        ("simlex999", "rated"),
        ("simlex/bio_simverb", "rated"),
        ("termpairs/hpo/fsn_syn_easy_random", "termpairs"),
        ("categories/hpo", "termpairs"),
        ("analogies/go/all_info", "analogies"),
        ("wic/test", "wic"),
    ],
)
def test_dataset_family(dataset: str, family: str) -> None:
    assert dataset_family(dataset) == family


@pytest.mark.parametrize(
    ("dataset", "table"),
    [
        ("simlex/bio_simverb", "rated"),
        ("termpairs/hpo/fsn_syn_easy_random", "termpairs/hpo"),
        ("categories/hpo", "termpairs/hpo"),
        ("analogies/go_slim/all_info", "analogies/go_slim"),
        ("wic/test", "wic"),
    ],
)
def test_result_table(dataset: str, table: str) -> None:
    assert result_table(dataset) == table


def test_table_names_in_the_reports_order() -> None:
    assert table_names(["mesh", "hpo"], ["go"]) == ["rated", "termpairs/hpo", "termpairs/mesh", "analogies/go", "wic"]
    assert table_names([], [], wic=False) == ["rated"]


def test_tables_hold_every_row_once(tmp_path: Path) -> None:
    rows = [
        result_row("m2", "simlex999", "all", "cosine:spearman", 0.2, 900, 0.9, 0.05, 0.2),
        result_row("m1", "simlex/bio_simverb", "all", "cosine:spearman", 0.3, 800, 1.0),
        result_row("m1", "termpairs/hpo/x", "test_half", "avg_cos:mcnemar_p", 0.04, 50, None, model_b="m2"),
        result_row("m1", "termpairs/hpo/x", "all", "avg_cos:auc", 0.8, 50, 1.0),
        result_row("m1", "termpairs/go/x", "all", "avg_cos:auc", 0.7, 50, 1.0),
        result_row("m1", "categories/hpo", "all", "avg_cos:overlap", 0.86, 575, 0.96),
        result_row("m1", "analogies/hpo/all_info", "is_a", "3CosAdd:MAP", 0.1, 5, 1.0),
        result_row("random", "wic/test", "all", "random:accuracy", 0.5, 400, None),
    ]
    frame = results_frame(rows)
    tables = table_names(["go", "hpo", "mesh"], ["hpo"])
    parts = split_tables(frame, tables)
    assert list(parts) == tables
    counts = {"rated": 2, "termpairs/go": 1, "termpairs/hpo": 3, "termpairs/mesh": 0, "analogies/hpo": 1, "wic": 1}
    assert {t: len(p) for t, p in parts.items()} == counts
    assert sum(len(p) for p in parts.values()) == len(frame)
    # the table's order: by model, model_b (nulls last), dataset, subset, metric
    assert list(parts["termpairs/hpo"]["dataset"]) == ["termpairs/hpo/x", "categories/hpo", "termpairs/hpo/x"]
    assert list(parts["rated"]["model"]) == ["m1", "m2"]
    assert parts["termpairs/mesh"].empty and list(parts["termpairs/mesh"].columns) == COLUMNS
    paths = {t: tmp_path / f"{t.replace('/', '_')}.csv" for t in tables}
    assert write_tables(frame, paths) == counts
    write_results(frame, tmp_path / "results.parquet", tmp_path / "results.csv")
    whole = (tmp_path / "results.csv").read_text().splitlines()
    lines = [paths[t].read_text().splitlines() for t in tables]
    assert all(part[0] == ",".join(COLUMNS) for part in lines)  # one header each, the table's columns
    assert sorted(line for part in lines for line in part[1:]) == sorted(whole[1:])  # the same rows, as written
    with pytest.raises(ValueError, match="no table"):
        split_tables(frame, ["rated", "termpairs/hpo", "analogies/hpo", "wic"])  # termpairs/go is not among them
