"""Integration: the analogies stage of the embedded default, checked on its outputs' contents."""

from __future__ import annotations

from pathlib import Path

import pandas as pd
import pyarrow.parquet as pq
import pytest
import yaml
from conftest import REPO

from biosem.analogies.construct import DATASETS, SETTINGS, STATUS_KEPT
from biosem.analogies.formats import TEXT_COLUMNS, read_analogies
from biosem.analogies.frequency import normalise
from biosem.analogies.schemas import ANALOGIES, TERM_COUNTS

pytestmark = pytest.mark.workflow

CONFIG = yaml.safe_load((REPO / "config" / "config.yaml").read_text())["analogies"]
TERMINOLOGIES = CONFIG["terminologies"]


def setting(terminology: str, key: str) -> int:
    return CONFIG["overrides"].get(terminology, {}).get(key, CONFIG[key])


@pytest.mark.parametrize("terminology", TERMINOLOGIES)
def test_every_source_yields_a_relation_with_n_times_n_minus_one(
    workflow_runs: dict[int, Path], terminology: str
) -> None:
    root = workflow_runs[2] / "results" / "datasets" / "analogies" / terminology
    counts = pd.read_csv(root / "counts.tsv", sep="\t", keep_default_na=False)
    assert counts.iloc[-1]["relation"] == "(all)" and counts.iloc[-1]["status"] == "ok"
    kept = counts[counts["status"] == STATUS_KEPT]
    assert len(kept) >= 1
    n = setting(terminology, "pairs_per_relation")
    assert (kept["sampled_pairs"] == n).all()
    for name in SETTINGS:
        assert (kept[name] == n * (n - 1)).all()
    others = counts[(counts["status"] != STATUS_KEPT) & (counts["relation"] != "(all)")]
    assert (others[list(DATASETS)] == 0).all().all()
    assert (kept["one_to_one"] >= setting(terminology, "min_one_to_one")).all()
    assert (kept["subjects"] >= n).all()


@pytest.mark.parametrize("terminology", TERMINOLOGIES)
def test_text_and_parquet_agree(workflow_runs: dict[int, Path], terminology: str) -> None:
    root = workflow_runs[2] / "results" / "datasets" / "analogies" / terminology
    counts = pd.read_csv(root / "counts.tsv", sep="\t", keep_default_na=False).set_index("relation")
    for name in DATASETS:
        table = pq.read_table(root / f"{name}.parquet")
        assert table.schema.equals(ANALOGIES.schema)
        frame = table.to_pandas()
        text = read_analogies(root / f"{name}.txt")
        assert len(text) == len(frame) == counts.loc["(all)", name]
        for column in TEXT_COLUMNS:
            assert [list(v) if not isinstance(v, str) else v for v in frame[column]] == text[column].tolist(), column
        if name.startswith("unigram_") and len(frame):
            terms = [t for col in ("a_term", "c_term") for t in frame[col]]
            terms += [t for col in ("b_terms", "d_terms") for ts in frame[col] for t in ts]
            assert all(len(normalise(t).split()) == 1 for t in terms)


def test_hpo_reproduces_the_paper_combinatorics(workflow_runs: dict[int, Path]) -> None:
    root = workflow_runs[2] / "results" / "datasets" / "analogies" / "hpo"
    counts = pd.read_csv(root / "counts.tsv", sep="\t", keep_default_na=False).set_index("relation")
    assert counts.loc["is_a", "status"] == STATUS_KEPT
    assert counts.loc["is_a", "single_answer"] == 2450  # 50 x 49, as in BMASS
    multi = pq.read_table(root / "multi_answer.parquet").to_pandas()
    single = pq.read_table(root / "single_answer.parquet").to_pandas()
    info = pq.read_table(root / "all_info.parquet").to_pandas()
    assert (single["d_ids"].map(len) == 1).all() and (multi["b_ids"].map(len) == 1).all()
    assert [d[0] for d in multi["d_ids"]] == [d[0] for d in single["d_ids"]]  # primary answer first
    assert list(info["d_ids"].map(list)) == list(multi["d_ids"].map(list))
    assert multi["d_ids"].map(len).mean() == pytest.approx(counts.loc["is_a", "amb"], abs=1e-3)
    term_counts = pq.read_table(workflow_runs[2] / "results" / "intermediate" / "term_counts" / "hpo.parquet")
    assert term_counts.schema.equals(TERM_COUNTS.schema)
    best = term_counts.to_pandas().groupby("concept_id")["count"].max()
    used = set(single["a_id"]) | {i for ids in info["d_ids"] for i in ids}
    assert (best.reindex(sorted(used)) >= setting("hpo", "min_frequency")).all()
