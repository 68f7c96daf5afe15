"""biosem.agreement.interchange: survey -> MTurk/Prolific batch -> results -> long ratings -> aggregate;
study sheets -> Label Studio config/tasks -> JSON export -> scoring; malformed files give named errors."""

from __future__ import annotations

import json
import re
import xml.etree.ElementTree as ET
from pathlib import Path
from types import SimpleNamespace

import numpy as np
import pandas as pd
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from scipy.stats import spearmanr

from biosem.agreement import interchange as X
from biosem.agreement import sheets as SH
from biosem.agreement import studies as S
from biosem.agreement.ratings import RatingParams, aggregate_ratings, long_to_matrix, parse_long_ratings
from biosem.errors import SourceFormatError
from biosem.layout import outputs

# --------------------------------------------------------------------------------------------------
# A hand-made survey: group 1 has two pages (3 and 2 items), group 2 one page (3 items); c1 is the
# consistency pair (on every group), the duplicate repeats a1 on page 2.
# --------------------------------------------------------------------------------------------------
ITEMS = pd.DataFrame(
    [
        ("nouns", 1, 1, 1, "nouns-g1-p01-001", "P1", "unique", "tumor", "neoplasm"),
        ("nouns", 1, 1, 2, "nouns-g1-p01-002", "C1", "consistency", "cup", "coffee"),
        ("nouns", 1, 1, 3, "nouns-g1-p01-003", "P2", "unique", "kidney", "liver"),
        ("nouns", 1, 2, 1, "nouns-g1-p02-001", "P3", "unique", "cell", "tissue"),
        ("nouns", 1, 2, 2, "nouns-g1-p02-002", "P1", "duplicate", "tumor", "neoplasm"),
        ("nouns", 2, 1, 1, "nouns-g2-p01-001", "P4", "unique", "aspirin", "drug"),
        ("nouns", 2, 1, 2, "nouns-g2-p01-002", "C1", "consistency", "cup", "coffee"),
        ("nouns", 2, 1, 3, "nouns-g2-p01-003", "P5", "unique", "vein", "artery"),
    ],
    columns=["survey", "group", "page", "position", "item_id", "pair_id", "role", "word1", "word2"],
)
# Ratings per worker, by item id (w3 leaves one pair at "don't know").
RATINGS = {
    "W1": {
        "nouns-g1-p01-001": 6,
        "nouns-g1-p01-002": 1,
        "nouns-g1-p01-003": 2,
        "nouns-g1-p02-001": 3,
        "nouns-g1-p02-002": 5,
    },
    "W2": {
        "nouns-g1-p01-001": 5,
        "nouns-g1-p01-002": 0,
        "nouns-g1-p01-003": 3,
        "nouns-g1-p02-001": 2,
        "nouns-g1-p02-002": 6,
    },
    "W3": {"nouns-g2-p01-001": 4, "nouns-g2-p01-002": 2, "nouns-g2-p01-003": "dont_know"},
    "W4": {"nouns-g2-p01-001": 3, "nouns-g2-p01-002": 1, "nouns-g2-p01-003": 5},
}
MTURK_FIXED = ["HITId", "HITTypeId", "Title", "AssignmentId", "WorkerId", "AssignmentStatus", "WorkTimeInSeconds"]


def mturk_results(hits: pd.DataFrame, ratings: dict, rejected: dict | None = None) -> pd.DataFrame:
    """MTurk batch results: one row per assignment, fixed columns, Input.<batch column>, Answer.<field>."""
    rows = []
    workers = {**ratings, **(rejected or {})}
    slots = [c for c in hits.columns if re.fullmatch(r"item_\d+_id", c)]
    for h, hit in enumerate(hits.to_dict("records")):
        for w, (worker, answers) in enumerate(workers.items()):
            if not any(hit[s] in answers for s in slots):
                continue
            row = {
                "HITId": f"3HIT{h}",
                "HITTypeId": "3TYPE",
                "Title": "Rate word pairs",
                "AssignmentId": f"3A{h}{w}",
                "WorkerId": worker,
                "AssignmentStatus": "Rejected" if rejected and worker in rejected else "Approved",
                "WorkTimeInSeconds": "300",
            }
            row.update({f"Input.{c}": v for c, v in hit.items()})
            for s in slots:
                k = s.split("_")[1]
                row[f"Answer.item_{k}_rating"] = str(answers[hit[s]]) if hit[s] else ""
            rows.append(row)
    return pd.DataFrame(rows)


def write_csv(frame: pd.DataFrame, path: Path) -> Path:
    frame.to_csv(path, index=False)
    return path


def test_survey_hits_one_row_per_page_with_padded_slots() -> None:
    hits = X.survey_hits(ITEMS)
    assert list(hits.columns) == X.hit_columns(3)
    assert list(hits.columns[:8]) == [
        "hit",
        "survey",
        "group",
        "page",
        "n_items",
        "item_1_id",
        "item_1_word1",
        "item_1_word2",
    ]
    assert hits["hit"].tolist() == ["nouns-g1-p01", "nouns-g1-p02", "nouns-g2-p01"]
    assert hits["n_items"].tolist() == ["3", "2", "3"]
    page2 = hits.iloc[1]
    assert (page2["item_1_id"], page2["item_2_word1"], page2["item_3_id"]) == ("nouns-g1-p02-001", "tumor", "")
    # No role leaks to the workers.
    assert not hits.isin(["unique", "consistency", "duplicate"]).any().any()


def test_task_template_has_a_placeholder_for_every_batch_column() -> None:
    html = X.survey_task_template("nouns", 3, "# Rate <similarity>", (0, 6), dont_know=True)
    placeholders = set(re.findall(r"\$\{(\w+)\}", html))
    assert placeholders == set(X.hit_columns(3)) - {"hit", "survey", "group"}
    assert html.count('type="range" min="0" max="6"') == 3
    assert [f'name="item_{k}_rating"' in html for k in (1, 2, 3)] == [True] * 3
    assert html.count("don't know</label>") == 3 and "&lt;similarity&gt;" in html
    assert "don't know</label>" not in X.survey_task_template("nouns", 3, "x", (0, 6), dont_know=False)


def test_mturk_round_trip_gives_the_known_ratings_and_agreement(tmp_path: Path) -> None:
    hits = X.survey_hits(ITEMS)
    wild = {"W9": {i: 0 for i in ITEMS.loc[ITEMS["group"] == 1, "item_id"]}}
    path = write_csv(mturk_results(hits, RATINGS, rejected=wild), tmp_path / "Batch_1_batch_results.csv")
    long, counts = X.read_platform_results(path, "mturk", ITEMS)
    assert counts == {"submissions": 8, "rejected": 2, "kept": 6, "ratings": 15, "dont_know": 1, "raters": 4}
    assert list(long.columns) == X.LONG_RATING_COLUMNS
    assert "W9" not in set(long["rater"])
    w3 = long[long["rater"] == "W3"]
    assert w3["item_id"].tolist() == ["nouns-g2-p01-001", "nouns-g2-p01-002"] and w3["group"].eq("2").all()
    assert long.loc[long["item_id"] == "nouns-g1-p02-002", "role"].tolist() == ["duplicate", "duplicate"]

    # The long table is what aggregate_ratings reads (through the long-format parser).
    matrix = long_to_matrix(parse_long_ratings(long.astype(str), path), str(path))
    assert matrix.items["consistency"].sum() == 1 and len(matrix.repeats) == 4  # W1, W2 rated tumor twice
    params = RatingParams(min_items=1, min_shared=2, bias_threshold=None, exclusion_sd=None)
    result = aggregate_ratings(matrix, params)
    data = result.dataset.set_index(["word1", "word2"])
    # tumor/neoplasm: W1 (6 + 5)/2, W2 (5 + 6)/2 -> 5.5; vein/artery: W4's 5 only (W3 did not know).
    assert data.loc[("tumor", "neoplasm"), "mean_raw"] == 5.5
    assert data.loc[("vein", "artery"), ["mean_raw", "n_ratings"]].tolist() == [5.0, 1]
    assert data.loc[("kidney", "liver"), "score"] == pytest.approx(2.5 / 6 * 10)
    assert ("cup", "coffee") not in data.index  # the consistency pair
    # Raw IAA-1 of group 1: the two raters' Spearman on their four shared items.
    w1 = [5.5, 1, 2, 3]  # tumor (mean of repeats), cup, kidney, cell
    w2 = [5.5, 0, 3, 2]
    iaa1 = result.agreement.query("stage == 'raw' and metric == 'IAA-1'").set_index("group")["value"]
    assert iaa1["1"] == pytest.approx(spearmanr(w1, w2).statistic) == pytest.approx(0.8)
    assert iaa1["2"] == 1.0  # W3 (4, 2) and W4 (3, 1) on aspirin and cup; vein left out for W3


def test_prolific_results_drop_returned_submissions(tmp_path: Path) -> None:
    hits = X.survey_hits(ITEMS)
    results = mturk_results(hits, RATINGS, rejected={"W8": dict.fromkeys(ITEMS["item_id"], 6)})
    results = results.rename(columns=lambda c: c.removeprefix("Input.").removeprefix("Answer."))
    results = results.rename(columns={"WorkerId": "PROLIFIC_PID"})
    results["STATUS"] = np.where(results["PROLIFIC_PID"] == "W8", "RETURNED", "APPROVED")
    results = results.drop(columns=["AssignmentStatus", "HITId", "HITTypeId", "Title", "AssignmentId"])
    long, counts = X.read_platform_results(write_csv(results, tmp_path / "prolific.csv"), "prolific", ITEMS)
    assert (
        counts["rejected"] == 3
        and counts["ratings"] == 15
        and sorted(long["rater"].unique()) == ["W1", "W2", "W3", "W4"]
    )


@pytest.mark.parametrize(
    ("edit", "line", "message"),
    [
        (lambda f: f.drop(columns="WorkerId"), 1, "mturk results columns WorkerId"),
        (lambda f: f.drop(columns="Answer.item_2_rating"), 1, "missing Answer.item_2_rating"),
        (lambda f: f.assign(**{"Answer.item_1_rating": ["7", "5", "4", "3", "6", "3"]}), 2, "integer rating in [0, 6]"),
        (lambda f: f.assign(**{"Answer.item_3_rating": ["2", "", "", "", "dont_know", "5"]}), 3, "'empty'"),
        (
            lambda f: f.assign(**{"Answer.item_3_rating": ["2", "3", "4", "", "dont_know", "5"]}),
            4,
            "no answer in an empty slot",
        ),
        (lambda f: f.assign(**{"Answer.item_1_rating": ["6", "5", "4", "3", "six", "3"]}), 6, "'six'"),
        (lambda f: f.replace({"nouns-g2-p01-003": "nouns-g2-p01-009"}), 6, "an item id of the survey"),
        (lambda f: f.replace({"kidney": "kidneys"}), 2, "Input.item_3_word1 = 'kidney'"),
        (lambda f: f.replace({"W4": "W1"}), 7, "worker W1 in one survey group only"),
    ],
)
def test_malformed_mturk_results_name_file_and_line(tmp_path: Path, edit, line, message) -> None:
    frame = mturk_results(X.survey_hits(ITEMS), RATINGS)
    assert len(frame) == 6  # pages: g1p1 (W1, W2), g1p2 (W1, W2), g2p1 (W3, W4)
    path = write_csv(edit(frame), tmp_path / "results.csv")
    with pytest.raises(SourceFormatError, match=re.escape(message)) as err:
        X.read_platform_results(path, "mturk", ITEMS)
    assert err.value.path == path and err.value.line == line


def test_same_worker_twice_on_a_page_is_an_error(tmp_path: Path) -> None:
    frame = mturk_results(X.survey_hits(ITEMS), RATINGS)
    frame = pd.concat([frame, frame.iloc[[0]]], ignore_index=True)
    with pytest.raises(SourceFormatError, match="W1 rated nouns-g1-p01-001 again") as err:
        X.read_platform_results(write_csv(frame, tmp_path / "r.csv"), "mturk", ITEMS)
    assert err.value.line == 8


# --------------------------------------------------------------------------------------------------
# Label Studio
# --------------------------------------------------------------------------------------------------
KEY = pd.DataFrame(
    {
        "item": ["P1", "P2", "P3", "P4"],
        "dataset": ["fsn_syn_easy_random"] * 4,
        "label": [1, 1, 0, 0],
        "term1": ["tumour", "heart attack", "liver", "aspirin"],
        "term2": ["neoplasm", "myocardial infarction", "kidney", "ibuprofen"],
    }
)


def export(tasks: list[dict], annotations: dict[str, list[tuple]]) -> list[dict]:
    """A Label Studio JSON export: annotations[item] = [(completed_by, choice or None=cancelled), ...]."""
    out = []
    for i, task in enumerate(tasks, 1):
        anns = []
        for j, (user, choice) in enumerate(annotations.get(task["data"]["item"], []), 1):
            result = (
                []
                if choice is None
                else [
                    {
                        "id": f"r{i}{j}",
                        "from_name": "answer",
                        "to_name": "term1",
                        "type": "choices",
                        "origin": "manual",
                        "value": {"choices": [choice]},
                    }
                ]
            )
            anns.append(
                {
                    "id": 100 * i + j,
                    "completed_by": user,
                    "result": result,
                    "was_cancelled": choice is None,
                    "ground_truth": False,
                    "lead_time": 3.2,
                    "task": i,
                }
            )
        out.append({"id": i, "data": task["data"], "annotations": anns, "predictions": [], "project": 1})
    return out


def test_labelstudio_config_is_valid_xml_with_the_three_answers() -> None:
    view = ET.fromstring(X.labelstudio_config("termpairs"))
    assert [t.get("value") for t in view.iter("Text")] == ["$term1", "$term2"]
    choices = view.find("Choices")
    assert (choices.get("name"), choices.get("toName"), choices.get("choice")) == ("answer", "term1", "single")
    assert [c.get("alias") for c in choices] == list(SH.ANSWERS)
    wic = ET.fromstring(X.labelstudio_config("wic"))
    assert [t.get("value") for t in wic.iter("HyperText")] == ["$sentence1", "$sentence2"]
    assert [c.get("value") for c in wic.find("Choices")] == ["Same meaning", "Different meaning", "Don't know"]


def test_labelstudio_tasks_highlight_mentions_and_hide_labels() -> None:
    sheet = pd.DataFrame(
        {
            "item": ["W1"],
            "term1": ["cold"],
            "sentence1": ["A <common> [[cold]] & fever."],
            "term2": ["cold"],
            "sentence2": ["Keep it [[cold]]."],
            "answer": [""],
        }
    )
    (task,) = X.labelstudio_tasks(sheet, "wic")
    assert task["data"]["sentence1"] == "A &lt;common&gt; <mark>cold</mark> &amp; fever."
    assert set(task["data"]) == {"item", "term1", "term2", "sentence1", "sentence2"}
    assert json.loads(X.tasks_json([task])) == [task]


def test_labelstudio_round_trip_scores_the_known_majorities(tmp_path: Path) -> None:
    sheet = KEY[["item", "term1", "term2"]].assign(answer="")
    tasks = X.labelstudio_tasks(sheet, "termpairs")
    # Users 1 and 2 answer every item; user 3 (exported with details) answers P1 and P4 and skips P2.
    answers = {
        "P1": [(1, "same"), (2, "Same concept"), ({"id": 3, "email": "c@x.org"}, "not same")],
        "P2": [(1, "same"), (2, "not same"), ({"id": 3, "email": "c@x.org"}, None)],
        "P3": [(1, "not same"), (2, "not same")],
        "P4": [(1, "same"), (2, "don't know"), ({"id": 3, "email": "c@x.org"}, "Not the same")],
    }
    path = tmp_path / "project-1-at-2026.json"
    path.write_text(json.dumps(export(tasks, answers)), encoding="utf-8")
    sheet1 = X.read_labelstudio_export(path, 1)
    assert sheet1.to_dict("list") == {
        "item": ["P1", "P2", "P3", "P4"],
        "term1": KEY["term1"].tolist(),
        "term2": KEY["term2"].tolist(),
        "answer": ["same", "same", "not same", "same"],
    }
    formats = {"u1": {"format": "labelstudio", "annotator": 1}, "u2": {"format": "labelstudio", "annotator": "2"}}
    got, _ = S.read_filled_sheets(
        {"u1": path, "u2": path}, KEY, {"sheet": set(KEY["item"])}, ["term1", "term2"], formats
    )
    assert got.loc["P4"].tolist() == ["same", "don't know"]
    # User 3 skipped P2 and never saw P3: the validation names the missing items.
    with pytest.raises(S.SheetValidationError, match="2 missing: P2, P3"):
        S.read_filled_sheets(
            {"u3": path},
            KEY,
            {"sheet": set(KEY["item"])},
            [],
            {"u3": {"format": "labelstudio", "annotator": "c@x.org"}},
        )
    majority = S.majority_vote(got)
    np.testing.assert_array_equal(majority.to_numpy(), [1.0, np.nan, 0.0, np.nan])  # P2 tie; P4 same vs don't know
    scores = S.score_termpair_study(got, KEY).set_index("dataset")
    assert scores.loc["all", ["items", "raters", "majority_nan"]].tolist() == [4, 2, 2]
    assert scores.loc["all", "accuracy"] == 1.0  # P1 same (label 1), P3 not same (label 0)


def test_labelstudio_wic_round_trip_gives_the_kappa(tmp_path: Path) -> None:
    key = pd.DataFrame(
        {
            "item": ["W1", "W2", "W3", "W4"],
            "label": [1, 0, 1, 0],
            "in_sheet_a": [True, True, True, True],
            "in_sheet_b": [True, True, True, True],
            "term1": ["cold"] * 4,
            "term2": ["cold"] * 4,
        }
    )
    sheet = key[["item", "term1", "term2"]].assign(sentence1="a [[cold]]", sentence2="the [[cold]]", answer="")
    tasks = X.labelstudio_tasks(sheet, "wic")
    answers = {
        "W1": [(5, "Same meaning"), (6, "same")],
        "W2": [(5, "Different meaning"), (6, "not same")],
        "W3": [(5, "Same meaning"), (6, "Different meaning")],
        "W4": [(5, "Different meaning"), (6, "Different meaning")],
    }
    path = tmp_path / "wic.json"
    path.write_text(json.dumps(export(tasks, answers)), encoding="utf-8")
    formats = {r: {"format": "labelstudio", "annotator": u} for r, u in (("a", 5), ("b", 6))}
    got, which = S.read_filled_sheets(
        {"a": path, "b": path}, key, {"a": set(key["item"])}, ["term1", "term2"], formats, "wic"
    )
    scores = S.score_wic_study(got, key).set_index(["measure", "rater1"])
    assert scores.loc[("accuracy", "a"), "value"] == 1.0 and scores.loc[("accuracy", "b"), "value"] == 0.75
    # 2x2 table a/b: (same,same)=1, (not,not)=2, (same,not)=1: po = 3/4, pe = (2/4*1/4 + 2/4*3/4) = 1/2.
    assert scores.loc[("cohen_kappa", "a"), "value"] == pytest.approx(0.5)


@pytest.mark.parametrize(
    ("content", "annotator", "message"),
    [
        ("{not json", 1, "a Label Studio JSON export"),
        ('{"id": 1}', 1, "a list of tasks"),
        ('[{"id": 4, "data": {"term1": "x"}, "annotations": []}]', 1, "task 1 (id 4): a data object with an item id"),
        ("CHOICE:maybe", 1, "task 1 (id 1): a choice among Same concept"),
        ("CHOICE:same", 9, "annotations completed by 9"),
        ("TWICE", 1, "task 1 (id 1): one annotation by 1"),
        ("NORESULT", 1, "task 1 (id 1): one 'answer' choice by 1"),
    ],
)
def test_malformed_labelstudio_exports(tmp_path: Path, content: str, annotator, message: str) -> None:
    tasks = [{"data": {"item": "P1", "term1": "a", "term2": "b"}}]
    if content.startswith("CHOICE:"):
        content = json.dumps(export(tasks, {"P1": [(1, content[7:])]}))
    elif content == "TWICE":
        content = json.dumps(export(tasks, {"P1": [(1, "same"), (1, "not same")]}))
    elif content == "NORESULT":
        data = export(tasks, {"P1": [(1, "same")]})
        data[0]["annotations"][0]["result"][0]["from_name"] = "other"
        content = json.dumps(data)
    path = tmp_path / "export.json"
    path.write_text(content, encoding="utf-8")
    with pytest.raises(SourceFormatError, match=re.escape(message)) as err:
        X.read_labelstudio_export(path, annotator)
    assert err.value.path == path


def test_labelstudio_export_with_a_foreign_item_fails_validation(tmp_path: Path) -> None:
    tasks = [{"data": {"item": i, "term1": a, "term2": b}} for i, a, b in KEY[["item", "term1", "term2"]].to_numpy()]
    tasks[2]["data"]["item"] = "P9"
    tasks[3]["data"]["term2"] = "paracetamol"
    path = tmp_path / "export.json"
    path.write_text(json.dumps(export(tasks, {i: [(1, "same")] for i in ["P1", "P2", "P9", "P4"]})), encoding="utf-8")
    with pytest.raises(S.SheetValidationError) as err:
        S.read_filled_sheets(
            {"u1": path},
            KEY,
            {"sheet": set(KEY["item"])},
            ["term1", "term2"],
            {"u1": {"format": "labelstudio", "annotator": 1}},
        )
    found = [(p.expected, p.found) for p in err.value.problems]
    assert ("an item id of the study key", "P9") in found
    assert ("term2 'ibuprofen' for item P4", "paracetamol") in found


# --------------------------------------------------------------------------------------------------
# Config: platform formats need a survey; filled sheets may be Label Studio exports
# --------------------------------------------------------------------------------------------------
def test_config_accepts_platform_results_and_labelstudio_exports() -> None:
    from conftest import config_with_defaults
    from snakemake_interface_common.exceptions import WorkflowError

    from biosem.workflow.agreement import Agreement

    ls = {"path": "ls/project-1.json", "format": "labelstudio", "annotator": 3}
    cfg = config_with_defaults(
        agreement={
            "ratings": {"crowd": {"path": "Batch_1_batch_results.csv", "format": "mturk", "survey": "nouns"}},
            "filled_sheets": {"termpairs": {"cl": {"r1": "r1.csv", "r2": ls}}, "wic": {"a": ls}},
        }
    )
    assert cfg["agreement"]["ratings"]["crowd"]["min_items"] == 10  # defaults still filled
    assert cfg["agreement"]["filled_sheets"]["termpairs"]["cl"]["r2"] == ls
    stage = Agreement(cfg, wic_built=True)
    wildcards = SimpleNamespace(ratings="crowd", terminology="cl")
    assert stage.ratings_design(wildcards) == [outputs.simlex_survey_items.path(dataset="nouns")]
    assert stage.filled_termpair_sheets(wildcards) == ["r1.csv", "ls/project-1.json"]
    assert stage.termpair_sheet_formats(wildcards) == {"r2": {"format": "labelstudio", "annotator": 3}}
    assert stage.wic_sheet_formats() == {"a": {"format": "labelstudio", "annotator": 3}}
    assert outputs.wic_study_labelstudio_tasks.path(rater="b") in stage.targets()
    for wrong in (
        {"ratings": {"crowd": {"path": "b.csv", "format": "mturk"}}},  # no survey
        {"filled_sheets": {"wic": {"a": {"path": "x.json", "format": "labelstudio"}}}},  # no annotator
        {"filled_sheets": {"wic": {"a": {"path": "x.json", "format": "xlsx", "annotator": 1}}}},
    ):
        with pytest.raises(WorkflowError):
            config_with_defaults(agreement=wrong)


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(
    st.lists(
        st.lists(st.one_of(st.integers(0, 6), st.just("dont_know")), min_size=8, max_size=8), min_size=1, max_size=4
    )
)
def test_any_ratings_survive_the_round_trip(tmp_path: Path, answers: list[list]) -> None:
    """Whatever workers answer, the importer returns exactly their ratings (don't know left out)."""
    ids = ITEMS["item_id"].tolist()
    group_of = dict(zip(ids, ITEMS["group"]))
    ratings = {f"W{w}": {i: a for i, a in zip(ids, row) if group_of[i] == 1 + w % 2} for w, row in enumerate(answers)}
    path = write_csv(mturk_results(X.survey_hits(ITEMS), ratings), tmp_path / "prop.csv")
    long, counts = X.read_platform_results(path, "mturk", ITEMS)
    expected = {(w, i): float(a) for w, row in ratings.items() for i, a in row.items() if a != "dont_know"}
    assert dict(zip(zip(long["rater"], long["item_id"]), long["rating"])) == expected
    assert counts["dont_know"] == sum(a == "dont_know" for row in ratings.values() for a in row.values())


def test_empty_results_file_is_named(tmp_path: Path) -> None:
    path = tmp_path / "empty.csv"
    path.write_text("")
    with pytest.raises(SourceFormatError, match="a mturk results CSV") as err:
        X.read_platform_results(path, "mturk", ITEMS)
    assert err.value.path == path
