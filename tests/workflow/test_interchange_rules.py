"""The crowdsourcing interchange through the real rules, on hand-made upstream outputs: the survey's
batch CSV and task template, an MTurk results file listed in the config and aggregated by
aggregate_ratings, the Label Studio files of a study and its export scored by score_termpair_study."""

from __future__ import annotations

import json
from pathlib import Path

import pandas as pd
import pytest
import yaml
from conftest import copy_workflow, run_workflow

from biosem.agreement import interchange as X
from biosem.io import write_table
from biosem.layout import outputs, paths
from biosem.simlex.schemas import SURVEY_ITEMS
from biosem.termpairs import DATASETS

pytestmark = pytest.mark.workflow


def survey_items() -> pd.DataFrame:
    """Two groups of 12 items on one page; item 1 is the consistency pair of both groups."""
    rows = []
    for group in (1, 2):
        for position in range(1, 13):
            pair = 1 if position == 1 else 100 * group + position
            role = "consistency" if position == 1 else "unique"
            rows.append(
                (
                    "nouns",
                    group,
                    1,
                    position,
                    f"nouns-g{group}-p01-{position:03d}",
                    f"P{pair}",
                    role,
                    f"w{pair}",
                    f"v{pair}",
                )
            )
    return pd.DataFrame(
        rows, columns=["survey", "group", "page", "position", "item_id", "pair_id", "role", "word1", "word2"]
    )


def test_interchange_rules(tmp_path: Path) -> None:
    work = copy_workflow(tmp_path / "run")
    items = survey_items()
    write_table(items, work / outputs.simlex_survey_items.path(dataset="nouns"), SURVEY_ITEMS)
    (work / outputs.simlex_survey_instructions.path(dataset="nouns")).write_text("# Rate similarity\n")
    key = pd.DataFrame(
        {
            "item": ["P001", "P002", "P003"],
            "dataset": [DATASETS[0]] * 3,
            "kind": ["x"] * 3,
            "difficulty": ["easy"] * 3,
            "strategy": ["random"] * 3,
            "label": [1, 0, 1],
            "term1": ["a", "b", "c"],
            "term2": ["A", "B", "C"],
            "concept_id1": ["C1", "C2", "C3"],
            "concept_id2": ["C1", "C9", "C3"],
            "levenshtein": [1, 1, 1],
        }
    )
    sheet = key[["item", "term1", "term2"]].assign(answer="")
    (work / outputs.termpair_study_sheet.path(terminology="cl")).parent.mkdir(parents=True)
    sheet.to_csv(work / outputs.termpair_study_sheet.path(terminology="cl"), index=False)
    key.to_csv(work / outputs.termpair_study_key.path(terminology="cl"), index=False)

    first = run_workflow(
        work,
        1,
        outputs.simlex_crowdsourcing_batch.path(dataset="nouns"),
        outputs.termpair_study_labelstudio_tasks.path(terminology="cl"),
        "--allowed-rules",
        "write_crowdsourcing_survey",
        "write_labelstudio_termpairs",
    )
    assert first.returncode == 0, first.stderr[-3000:]
    batch = pd.read_csv(work / outputs.simlex_crowdsourcing_batch.path(dataset="nouns"), dtype=str)
    assert len(batch) == 2 and batch.columns.tolist() == X.hit_columns(12)
    html = (work / outputs.simlex_crowdsourcing_task.path(dataset="nouns")).read_text()
    assert "${item_12_word2}" in html and "don't know</label>" not in html  # dont_know: false by default
    tasks = json.loads((work / outputs.termpair_study_labelstudio_tasks.path(terminology="cl")).read_text())
    assert [t["data"]["item"] for t in tasks] == ["P001", "P002", "P003"]

    # Simulated platform results: workers 1-3 in group 1, 4-6 in group 2, ratings rising with the
    # position (worker 3 shifted by one); a rejected assignment in between.
    rows = []
    for h, hit in batch.iterrows():
        for w in range(1, 5):
            worker = f"A{3 * h + w}" if w < 4 else "AREJ"
            row = {"HITId": f"H{h}", "AssignmentId": f"A{h}{w}", "WorkerId": worker}
            row["AssignmentStatus"] = "Rejected" if w == 4 else "Approved"
            row.update({f"Input.{c}": v for c, v in hit.items()})
            for k in range(1, 13):
                row[f"Answer.item_{k}_rating"] = str(min(6, k // 2 + (w == 3))) if w < 4 else "0"
            rows.append(row)
    pd.DataFrame(rows).to_csv(work / "batch_results.csv", index=False)
    exported = [
        {
            "id": i,
            "data": t["data"],
            "annotations": [
                {
                    "completed_by": u,
                    "was_cancelled": False,
                    "result": [
                        {"from_name": "answer", "to_name": "term1", "type": "choices", "value": {"choices": [c]}}
                    ],
                }
                for u, c in ((1, "same" if i != 2 else "not same"), (2, "Same concept"))
            ],
        }
        for i, t in enumerate(tasks, 1)
    ]
    (work / "ls.json").write_text(json.dumps(exported))
    overlay = {
        "agreement": {
            "ratings": {
                "crowd": {
                    "path": "batch_results.csv",
                    "format": "mturk",
                    "survey": "nouns",
                    "min_shared": 2,
                    "exclusion": None,
                }
            },
            "filled_sheets": {
                "termpairs": {
                    "cl": {f"u{u}": {"path": "ls.json", "format": "labelstudio", "annotator": u} for u in (1, 2)}
                }
            },
        }
    }
    (work / "config" / "overlay.yaml").write_text(yaml.safe_dump(overlay))
    second = run_workflow(
        work,
        1,
        outputs.rated_dataset.path(ratings="crowd"),
        outputs.termpair_study_scores.path(terminology="cl"),
        "--allowed-rules",
        "aggregate_ratings",
        "score_termpair_study",
        "--configfile",
        "config/config.yaml",
        "config/test/config.yaml",
        "config/test-paths.yaml",
        "config/overlay.yaml",
    )
    assert second.returncode == 0, second.stderr[-3000:]
    log = (work / paths.log("aggregate_ratings", "crowd")).read_text()
    assert "8 submissions, 2 rejected and dropped, 6 kept; 72 ratings, 0 don't know, 6 raters" in log
    rated = pd.read_parquet(work / outputs.rated_dataset.path(ratings="crowd"))
    assert len(rated) == 22 and (rated["n_ratings"] == 3).all()  # 11 unique pairs per group
    by_pair = rated.set_index("word1")["mean_raw"]
    assert by_pair["w112"] == 6.0 and by_pair["w102"] == pytest.approx(4 / 3)  # (6, 6, min(6, 7)); (1, 1, 2)
    scores = pd.read_csv(work / outputs.termpair_study_scores.path(terminology="cl"), sep="\t").set_index("dataset")
    assert scores.loc["all", ["items", "raters", "majority_nan"]].tolist() == [3, 2, 1]
    assert scores.loc["all", "accuracy"] == 1.0
