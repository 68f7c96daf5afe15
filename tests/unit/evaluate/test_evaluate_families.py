"""The results table split by family for the report's pages (biosem.evaluate.families): every row in
exactly one family's table, written as results.csv writes it."""

from __future__ import annotations

from pathlib import Path

import pandas as pd
import pytest

from biosem.evaluate.families import FAMILIES, dataset_family, split_by_family, write_family_tables
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


def test_family_tables_hold_every_row_once(tmp_path: Path) -> None:
    rows = [
        result_row("m2", "simlex999", "all", "cosine:spearman", 0.2, 900, 0.9, 0.05, 0.2),
        result_row("m1", "simlex/bio_simverb", "all", "cosine:spearman", 0.3, 800, 1.0),
        result_row("m1", "termpairs/hpo/x", "test_half", "avg_cos:mcnemar_p", 0.04, 50, None, model_b="m2"),
        result_row("m1", "termpairs/hpo/x", "all", "avg_cos:auc", 0.8, 50, 1.0),
        result_row("m1", "categories/hpo", "all", "avg_cos:overlap", 0.86, 575, 0.96),
        result_row("m1", "analogies/hpo/all_info", "is_a", "3CosAdd:MAP", 0.1, 5, 1.0),
        result_row("random", "wic/test", "all", "random:accuracy", 0.5, 400, None),
    ]
    frame = results_frame(rows)
    parts = split_by_family(frame)
    assert list(parts) == list(FAMILIES)
    assert {f: len(p) for f, p in parts.items()} == {"rated": 2, "termpairs": 3, "analogies": 1, "wic": 1}
    assert sum(len(p) for p in parts.values()) == len(frame)
    # the table's order: by model, model_b (nulls last), dataset, subset, metric
    assert list(parts["termpairs"]["dataset"]) == ["termpairs/hpo/x", "categories/hpo", "termpairs/hpo/x"]
    assert list(parts["rated"]["model"]) == ["m1", "m2"]
    paths = {f: tmp_path / f"results_{f}.csv" for f in FAMILIES}
    assert write_family_tables(frame, paths) == {"rated": 2, "termpairs": 3, "analogies": 1, "wic": 1}
    write_results(frame, tmp_path / "results.parquet", tmp_path / "results.csv")
    whole = (tmp_path / "results.csv").read_text().splitlines()
    lines = [paths[f].read_text().splitlines() for f in FAMILIES]
    assert all(part[0] == ",".join(COLUMNS) for part in lines)  # one header each, the table's columns
    assert sorted(line for part in lines for line in part[1:]) == sorted(whole[1:])  # the same rows, as written
    with pytest.raises(ValueError, match="no family"):
        split_by_family(results_frame([result_row("m", "other/x", "all", "a:b", 0.1, 1, 1.0)]))
    with pytest.raises(ValueError, match="paths for"):
        write_family_tables(frame, {"rated": tmp_path / "r.csv"})


def test_split_of_an_empty_table_gives_empty_families() -> None:
    parts = split_by_family(results_frame([]))
    assert list(parts) == list(FAMILIES) and all(p.empty and list(p.columns) == COLUMNS for p in parts.values())
    assert isinstance(parts["wic"], pd.DataFrame)
