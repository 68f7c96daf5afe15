"""Survey and study forms: the page they embed, and the round trip of their exports into the readers.

The exports here are written as the forms write them (biosem.agreement.forms documents the columns);
tests/workflow/test_forms_browser.py fills real forms in a browser.
"""

from __future__ import annotations

import json
import logging
import re
import runpy
from pathlib import Path
from types import SimpleNamespace

import numpy as np
import pandas as pd
import pytest
from conftest import config_with_defaults

from biosem.agreement.forms import (
    SURVEY_EXPORT_COLUMNS,
    TERMPAIR_EXPORT_COLUMNS,
    WIC_EXPORT_COLUMNS,
    export_coverage,
    read_survey_exports,
    study_form,
    survey_form,
    survey_id,
)
from biosem.agreement.ratings import RatingParams, aggregate_ratings, parse_long_ratings, read_long_ratings
from biosem.agreement.studies import SheetValidationError, read_filled_sheets, score_termpair_study
from biosem.errors import IncompleteExportsError, SourceFormatError
from biosem.io import write_table
from biosem.simlex.schemas import QUARTERS, SURVEY_ITEMS
from biosem.simlex.survey import SurveyParams, design_survey

REPO = Path(__file__).resolve().parents[3]


def design(words: tuple[str, ...] = ()) -> pd.DataFrame:
    """Two groups over 20 pairs: 4 consistency pairs, pages of at most 4 unique pairs, 1 duplicate."""
    n = 20
    word1 = [f"w{i}" for i in range(n)]
    word1[: len(words)] = words
    pairs = pd.DataFrame(
        {
            "pair_id": [f"P{i:02d}" for i in range(n)],
            "word1": word1,
            "word2": [f"v{i}" for i in range(n)],
            "quarter": [QUARTERS[i % 4] for i in range(n)],
        }
    )
    params = SurveyParams(groups=2, consistency_pairs=4, unique_per_page=4, duplicates_per_page=1)
    return design_survey(pairs, "nouns", params, np.random.default_rng(0))


def embedded(html: str) -> dict:
    return json.loads(re.search(r'id="form-data">(.*?)</script>', html, re.S).group(1))


def export(items: pd.DataFrame, group: int, rater: str, score) -> pd.DataFrame:
    """The export a form writes for ``rater`` (``score(pair_id)`` -> rating, or None = don't know)."""
    rows = items[items["group"] == group]
    values = [score(p) for p in rows["pair_id"]]
    return pd.DataFrame(
        {
            "rater": rater,
            "word1": rows["word1"],
            "word2": rows["word2"],
            "rating": ["" if v is None else str(v) for v in values],
            "group": rows["group"].astype(str),
            "role": rows["role"],
            "item_id": rows["item_id"],
            "pair_id": rows["pair_id"],
            "page": rows["page"].astype(str),
            "position": rows["position"].astype(str),
            "survey": rows["survey"],
            "survey_id": survey_id(items),
            "dont_know": ["1" if v is None else "0" for v in values],
            "time_ms": [str(1000 + 10 * i) for i in range(len(rows))],
        }
    )[list(SURVEY_EXPORT_COLUMNS)]


def write(frame: pd.DataFrame, path: Path) -> Path:
    path.write_text(frame.to_csv(index=False, lineterminator="\n"), encoding="utf-8")
    return path


def all_exports(items: pd.DataFrame, folder: Path) -> list[Path]:
    """Exports of raters r1 and r2 of each of the two groups (``g<group>r<k>.csv``)."""
    return [
        write(export(items, g, f"g{g}r{k}", score_of(f"r{k}")), folder / f"g{g}r{k}.csv")
        for g in (1, 2)
        for k in (1, 2)
    ]


def score_of(rater: str):
    return lambda pair: (int(pair[1:]) * (1 if rater.endswith("1") else 3)) % 7


# --------------------------------------------------------------------------------------------------
# Forms
# --------------------------------------------------------------------------------------------------
def test_survey_id_names_the_design() -> None:
    items = design()
    sid = survey_id(items)
    assert re.fullmatch(r"nouns-[0-9a-f]{12}", sid) and survey_id(items.copy()) == sid
    assert survey_id(design(("tumour",))) != sid  # one word changed: another design
    with pytest.raises(ValueError, match="exactly one survey"):
        survey_id(pd.concat([items, items.assign(survey="verbs")]))


def test_survey_form_embeds_the_group_in_designed_order() -> None:
    items = design(("</script><script>alert(1)</script>",))
    for group in (1, 2):
        html = survey_form(items, group, "# Title\n\nRate *similarity*.", (0, 6), False, 10)
        data = embedded(html)
        rows = items[items["group"] == group]
        assert [it["id"] for it in data["items"]] == rows["item_id"].tolist()
        assert [(it["page"], it["position"]) for it in data["items"]] == list(zip(rows["page"], rows["position"]))
        roles = pd.Series([it["fields"]["role"] for it in data["items"]])
        assert roles.value_counts().to_dict() == rows["role"].value_counts().to_dict()
        assert data["scale"] == [0, 6] and data["dontKnow"] is False and data["runWarning"] == 10
        assert data["storage"] == f"biosem:{survey_id(items)}:group{group}"
        assert {it["fields"]["survey_id"] for it in data["items"]} == {survey_id(items)}
        assert set(data["columns"]) == set(SURVEY_EXPORT_COLUMNS)
        assert "<em>similarity</em>" in html  # the instructions, rendered
        assert html.count("</script>") == 2  # a word cannot close the script
        assert not re.search(r"(src|href)=|https?://|@import", html)  # self-contained
    with pytest.raises(ValueError, match="no items in group 3"):
        survey_form(items, 3, "")


def test_survey_form_starts_with_an_empty_rater_id() -> None:
    """The rater id box is empty on every load (it was filled with the last rater's id, so the next rater
    on the same computer continued that draft); answers are still kept per rater id."""
    html = survey_form(design(), 1, "# Survey", (0, 6), False, 10)
    box = re.search(r"<input id=\"rater\"[^>]*>", html).group(0)
    assert "value=" not in box and 'autocomplete="off"' in box
    script = html[html.index('id="form-data"') :]
    # Nothing fills the box: no remembered id is read or written (the old key is removed), no value set but "".
    assert 'getItem(D.storage + ":last-rater")' not in script and 'setItem(D.storage + ":last-rater"' not in script
    assert 'localStorage.removeItem(D.storage + ":last-rater");' in script
    assert re.findall(r'\$\("rater"\)\.value\s*=\s*([^;]*);', script) == ['""']
    # Progress: saved under the storage key and the rater id, and read back for that id on Start.
    assert 'function key(r) { return D.storage + ":" + r; }' in script
    assert "localStorage.setItem(key(rater), JSON.stringify(state))" in script
    assert "const saved = localStorage.getItem(key(rater));" in script


def test_study_forms_embed_only_the_sheet() -> None:
    sheet = pd.DataFrame({"item": ["P001", "P002", "P003"], "term1": ["a", "b", "c"], "term2": ["x", "y", "z"]})
    data = embedded(study_form(sheet.assign(answer=""), "termpairs", "sheet", page_size=2))
    assert [it["page"] for it in data["items"]] == [1, 1, 2]
    assert data["columns"] == list(TERMPAIR_EXPORT_COLUMNS)
    assert [c[0] for c in data["choices"]] == ["same", "not same", "don't know"]
    assert {k for it in data["items"] for k in it["fields"]} == {"item", "term1", "term2"}
    wic = pd.DataFrame(
        {"item": ["W1"], "term1": ["MS"], "sentence1": ["[[MS]] is"], "term2": ["MS"], "sentence2": ["by [[MS]]"]}
    )
    data = embedded(study_form(wic, "wic", "sheet_a"))
    assert data["layout"] == "sentences" and data["items"][0]["show"] == ["[[MS]] is", "by [[MS]]"]
    assert data["columns"] == list(WIC_EXPORT_COLUMNS)
    with pytest.raises(ValueError, match="lacks columns"):
        study_form(sheet.drop(columns="term2"), "termpairs", "sheet")
    with pytest.raises(ValueError, match="study must be"):
        study_form(sheet, "simlex", "sheet")


# --------------------------------------------------------------------------------------------------
# Long format: item ids and "don't know"
# --------------------------------------------------------------------------------------------------
def test_long_format_reads_item_ids_and_dont_know(tmp_path: Path) -> None:
    items = design()
    frame = export(items, 1, "r1", lambda p: None if p == "P01" else 4)
    out = parse_long_ratings(frame, "f.csv")
    assert len(out) == (frame["pair_id"] != "P01").sum() and (out["rating"] == 4).all()
    matrix = read_long_ratings(write(frame, tmp_path / "one.csv"))  # a single export is a long file
    assert matrix.values.shape[1] == 1 and int((~np.isnan(matrix.values)).sum()) == len(set(out["word1"]))


@pytest.mark.parametrize(
    ("edit", "line", "expected"),
    [
        (lambda f: f.assign(item_id=[f["item_id"].iat[0]] * len(f)), 3, "once per rater"),
        (lambda f: f.assign(dont_know=["1"] + ["0"] * (len(f) - 1)), 2, "empty rating beside dont_know"),
        (lambda f: f.assign(dont_know=["maybe"] + ["0"] * (len(f) - 1)), 2, "dont_know 0 or 1"),
        (lambda f: f.assign(rating=[""] + ["2"] * (len(f) - 1)), 2, "a rating in"),
    ],
)
def test_long_format_errors_name_the_row(edit, line: int, expected: str) -> None:
    frame = edit(export(design(), 1, "r1", lambda p: 2))
    with pytest.raises(SourceFormatError, match=expected) as err:
        parse_long_ratings(frame, "r1.csv")
    assert err.value.line == line and err.value.path.name == "r1.csv"


# --------------------------------------------------------------------------------------------------
# Survey exports against the design
# --------------------------------------------------------------------------------------------------
def test_survey_exports_round_trip(tmp_path: Path) -> None:
    items = design()
    files = all_exports(items, tmp_path)
    matrix = read_survey_exports(files, items)
    assert matrix.values.shape == (items["pair_id"].nunique(), 4)
    assert matrix.raters["group"].tolist() == ["1", "1", "2", "2"]
    assert matrix.items["consistency"].sum() == 4
    # Each rater rates the duplicates of the group twice: two repeat rows per duplicate and rater.
    assert len(matrix.repeats) == 2 * 2 * int((items["role"] == "duplicate").sum())
    result = aggregate_ratings(matrix, RatingParams(min_shared=2, min_items=1, bias_threshold=None, exclusion_sd=None))
    assert len(result.dataset) == items["pair_id"].nunique() - 4  # consistency items left out
    by_pair = result.dataset.merge(items[["word1", "word2", "pair_id"]].drop_duplicates(), on=["word1", "word2"])
    hand = [(score_of("r1")(p) + score_of("r2")(p)) / 2 for p in by_pair["pair_id"]]
    assert by_pair["mean_raw"].tolist() == pytest.approx(hand)


def _edit_cell(column: str, row: int, value: str):
    def edit(frame: pd.DataFrame) -> pd.DataFrame:
        frame = frame.copy()
        frame.iloc[row, frame.columns.get_loc(column)] = value
        return frame

    return edit


@pytest.mark.parametrize(
    ("edit", "line", "expected"),
    [
        (_edit_cell("survey_id", 3, "nouns-000000000000"), 5, "survey_id 'nouns-"),
        (_edit_cell("item_id", 2, "nouns-g1-p01-999"), 4, "an item_id of survey"),
        (_edit_cell("item_id", 2, "nouns-g2-p01-001"), 4, "for item nouns-g2-p01-001 (as designed)"),
        (_edit_cell("word1", 1, "edited"), 3, "word1"),
        (_edit_cell("rater", 4, "someone_else"), 6, "one rater per export"),
        (lambda f: pd.concat([f, f.iloc[[2]]], ignore_index=True), None, "each item_id once"),
        (lambda f: f.iloc[:-2], None, "2 missing"),
        (lambda f: f.drop(columns="survey_id"), 1, "the survey export columns"),
        (lambda f: f.iloc[:0], None, "one row per item"),
        (_edit_cell("rating", 3, "2.5"), 5, "an integer rating in [0, 6]; found '2.5'"),
        (_edit_cell("rating", 1, "7"), 3, "an integer rating in [0, 6]; found '7'"),
    ],
)
def test_malformed_or_foreign_export_names_file_and_row(tmp_path: Path, edit, line, expected: str) -> None:
    items = design()
    good = write(export(items, 1, "r1", score_of("r1")), tmp_path / "r1.csv")
    bad = write(edit(export(items, 1, "r2", score_of("r2"))), tmp_path / "r2.csv")
    with pytest.raises(SourceFormatError, match=re.escape(expected)) as err:
        read_survey_exports([good, bad], items)
    assert err.value.path == bad
    if expected == "each item_id once":
        line = len(items[items["group"] == 1]) + 2  # the appended copy
    assert err.value.line == line


def test_export_of_another_design_and_second_export_of_a_rater(tmp_path: Path) -> None:
    items, other = design(), design(("tumour",))
    foreign = write(export(other, 1, "r1", score_of("r1")), tmp_path / "foreign.csv")
    with pytest.raises(SourceFormatError, match="the design this workflow built") as err:
        read_survey_exports([foreign], items)
    assert (err.value.path, err.value.line) == (foreign, 2)
    first = write(export(items, 1, "r1", score_of("r1")), tmp_path / "a.csv")
    again = write(export(items, 1, "r1", score_of("r2")), tmp_path / "b.csv")
    with pytest.raises(SourceFormatError, match="one export per rater") as err:
        read_survey_exports([first, again], items)
    assert err.value.path == again and str(first) in str(err.value)


def group_exports(items: pd.DataFrame, folder: Path, raters: dict[int, int]) -> list[Path]:
    """``raters[g]`` exports of group ``g`` (raters ``g<g>r<k>``, files ``g<g>r<k>.csv``)."""
    return [
        write(export(items, g, f"g{g}r{k}", score_of(f"r{k}")), folder / f"g{g}r{k}.csv")
        for g, n in raters.items()
        for k in range(1, n + 1)
    ]


def test_export_coverage_counts_raters_per_design_group() -> None:
    items = design()
    exports = pd.DataFrame({"rater": ["c", "a", "b", "d"], "group": ["1", "1", " 1", "2"]})
    got = export_coverage(exports, items, 3)
    assert got.to_dict("list") == {
        "group": [1, 2],
        "expected": [3, 3],
        "exported": [3, 1],
        "raters": ["a, b, c", "d"],
        "complete": [True, False],
    }
    assert export_coverage(exports, items, 1)["complete"].all()  # more raters than asked for is complete
    none = export_coverage(pd.DataFrame({"rater": ["a"], "group": ["2"]}), items, 6)
    assert none[["exported", "raters"]].values.tolist() == [[0, ""], [1, "a"]]


def test_complete_export_set_passes(tmp_path: Path, caplog: pytest.LogCaptureFixture) -> None:
    items = design()
    files = group_exports(items, tmp_path, {1: 3, 2: 3})
    with caplog.at_level(logging.INFO, logger="biosem.agreement.forms"):
        matrix = read_survey_exports(files, items, raters_per_group=3)
    assert matrix.raters["group"].value_counts().to_dict() == {"1": 3, "2": 3}
    assert not [r for r in caplog.records if r.levelno >= logging.WARNING]
    assert (
        f"survey {survey_id(items)}, raters per group: group 1: 3 of 3 raters exported (rater ids g1r1, g1r2, "
        "g1r3); group 2: 3 of 3 raters exported (rater ids g2r1, g2r2, g2r3)"
    ) in caplog.text


def test_export_of_one_group_of_two_is_refused_naming_the_groups(tmp_path: Path) -> None:
    """3 raters of group 1 where the design has 2 groups of 6: refused, both groups named with their raters."""
    items = design()
    files = group_exports(items, tmp_path, {1: 3})
    with pytest.raises(IncompleteExportsError) as err:
        read_survey_exports(files, items, raters_per_group=6)
    lines = str(err.value).splitlines()
    sid = survey_id(items)
    assert lines[0] == (
        f"survey {sid}: 3 export(s) ({', '.join(map(str, files))}) leave groups of the design short "
        "(2 group(s) of 6 raters):"
    )
    assert lines[1:3] == [
        "  group 1: 3 of 6 raters exported (rater ids g1r1, g1r2, g1r3)",
        "  group 2: 0 of 6 raters exported",
    ]
    assert lines[3] == (
        "Add the missing raters' exports to agreement.ratings.<name>.exports, or set "
        "agreement.ratings.<name>.allow_incomplete: true to aggregate an incomplete set."
    )
    assert len(lines) == 4
    assert err.value.survey == sid and err.value.paths == files
    assert [(g["group"], g["exported"]) for g in err.value.short] == [(1, 3), (2, 0)]
    # Only the short group is named when the other is complete.
    files += group_exports(items, tmp_path, {2: 6})
    with pytest.raises(IncompleteExportsError, match="group 1: 3 of 6") as err:
        read_survey_exports(files, items, raters_per_group=6)
    assert "group 2" not in str(err.value) and [g["group"] for g in err.value.short] == [1]
    # A malformed file is still named first (the set is judged once every file is read).
    bad = write(export(items, 2, "bad", lambda p: 9), tmp_path / "bad.csv")
    with pytest.raises(SourceFormatError, match="an integer rating in"):
        read_survey_exports([*files[:3], bad], items, raters_per_group=6)


def test_incomplete_export_set_allowed_with_a_warning(tmp_path: Path, caplog: pytest.LogCaptureFixture) -> None:
    items = design()
    files = group_exports(items, tmp_path, {1: 3})
    with caplog.at_level(logging.WARNING, logger="biosem.agreement.forms"):
        matrix = read_survey_exports(files, items, raters_per_group=6, allow_incomplete=True)
    assert matrix.raters["rater"].tolist() == ["g1r1", "g1r2", "g1r3"]
    group1 = set(items.loc[items["group"] == 1, "pair_id"])
    assert len(matrix.items) == len(group1)  # group 2's own pairs have no rating
    [warning] = [r for r in caplog.records if r.levelno == logging.WARNING]
    assert warning.getMessage() == (
        f"survey {survey_id(items)}: an incomplete export set is aggregated (allow_incomplete: true): "
        "group 1: 3 of 6 raters exported (rater ids g1r1, g1r2, g1r3); group 2: 0 of 6 raters exported; "
        "the items only group(s) 2 show are not rated"
    )


def _run_script(tmp_path: Path, files: list[Path], items: pd.DataFrame, **spec_keys) -> dict[str, Path]:
    """The rule's script on ``files`` as Snakemake calls it (design of 2 groups of 6 raters); the outputs."""
    tmp_path.mkdir(exist_ok=True)
    design_path = tmp_path / "items.parquet"
    write_table(items, design_path, SURVEY_ITEMS)
    ratings = {"format": "long", "survey": "nouns", "exports": [str(f) for f in files], **spec_keys}
    spec = config_with_defaults(agreement={"ratings": {"forms": ratings}})["agreement"]["ratings"]["forms"]
    out = {k: tmp_path / f"out.{k}" for k in ("txt", "parquet", "agreement", "raters", "log")}
    snakemake = SimpleNamespace(
        input=SimpleNamespace(ratings=[str(f) for f in files], checksums=[], design=[str(design_path)]),
        output=SimpleNamespace(**{k: str(v) for k, v in out.items() if k != "log"}),
        params=SimpleNamespace(spec={**spec, "min_items": 1, "min_shared": 2, "raters_per_group": 6}),
        wildcards=SimpleNamespace(ratings="forms"),
        log=[str(out["log"])],
    )
    script = str(REPO / "workflow/scripts/aggregate_ratings.py")
    runpy.run_path(script, init_globals={"snakemake": snakemake}, run_name="__main__")
    return out


def test_aggregate_ratings_script_refuses_or_allows_an_incomplete_set(tmp_path: Path) -> None:
    items = design()
    files = group_exports(items, tmp_path, {1: 3})
    with pytest.raises(IncompleteExportsError, match="group 2: 0 of 6 raters exported") as err:
        _run_script(tmp_path / "refused", files, items)
    assert "agreement.ratings.forms.allow_incomplete: true" in str(err.value)  # the rating set by name
    assert sorted(p.name for p in (tmp_path / "refused").iterdir()) == ["items.parquet", "out.log"]  # no output

    out = _run_script(tmp_path, files, items, allow_incomplete=True)
    log = out["log"].read_text()
    assert "WARNING biosem.agreement.forms: survey " in log and "group 2: 0 of 6 raters exported" in log
    table = pd.read_csv(out["agreement"], sep="\t", dtype={"group": str})
    assert table.loc[table["stage"] == "raw"].groupby("group")["n_raters"].first().to_dict() == {"1": 3, "all": 3}
    raters = pd.read_csv(out["raters"], sep="\t", dtype={"group": str})
    assert raters["group"].tolist() == ["1", "1", "1"]
    assert len(pd.read_parquet(out["parquet"])) == items.loc[items["group"] == 1, "pair_id"].nunique() - 4


def test_aggregate_ratings_script_reads_exports_from_the_config(tmp_path: Path) -> None:
    """Config ``agreement.ratings.<name>: {format: long, survey: nouns, exports: [...]}`` through the
    rule's script, as Snakemake calls it."""
    items = design()
    design_path = tmp_path / "items.parquet"
    write_table(items, design_path, SURVEY_ITEMS)
    files = all_exports(items, tmp_path)
    spec = config_with_defaults(
        agreement={"ratings": {"forms": {"format": "long", "survey": "nouns", "exports": [str(f) for f in files]}}}
    )["agreement"]["ratings"]["forms"]
    assert spec["min_items"] == 10 and spec["bias_correction"] == {"threshold": 1.0, "shift": 1.0}  # defaults set
    with pytest.raises(Exception, match="valid"):  # exports need format long and a survey
        config_with_defaults(agreement={"ratings": {"forms": {"format": "wide", "exports": ["a.csv"]}}})
    out = {k: str(tmp_path / f"out.{k}") for k in ("txt", "parquet", "agreement", "raters")}
    snakemake = SimpleNamespace(
        input=SimpleNamespace(ratings=[str(f) for f in files], checksums=[], design=[str(design_path)]),
        output=SimpleNamespace(**out),
        params=SimpleNamespace(spec={**spec, "min_items": 1, "min_shared": 2, "raters_per_group": 2}),
        wildcards=SimpleNamespace(ratings="forms"),
        log=[],
    )
    script = str(REPO / "workflow/scripts/aggregate_ratings.py")
    runpy.run_path(script, init_globals={"snakemake": snakemake}, run_name="__main__")
    dataset = pd.read_parquet(out["parquet"])
    assert len(dataset) == items["pair_id"].nunique() - 4 and (dataset["n_ratings"] == 2).all()
    table = pd.read_csv(out["agreement"], sep="\t")
    assert set(table["group"]) == {"all", "1", "2"}


# --------------------------------------------------------------------------------------------------
# Study exports into the scoring
# --------------------------------------------------------------------------------------------------
def _termpair_key() -> pd.DataFrame:
    return pd.DataFrame(
        {
            "item": ["P001", "P002", "P003", "P004"],
            "dataset": ["fsn_syn_easy_random"] * 4,
            "label": [1, 0, 1, 0],
            "term1": ["heart attack", "cold", "tumour", "gene"],
            "term2": ["myocardial infarction", "chill", "neoplasm", "genome"],
        }
    )


def _termpair_export(rater: str, answers: list[str]) -> pd.DataFrame:
    key = _termpair_key()
    return pd.DataFrame(
        {"item": key["item"], "term1": key["term1"], "term2": key["term2"], "answer": answers, "rater": rater}
    ).assign(time_ms="1200")[list(TERMPAIR_EXPORT_COLUMNS)]


def test_study_exports_are_filled_sheets(tmp_path: Path) -> None:
    key = _termpair_key()
    files = {
        "x": write(_termpair_export("x", ["same", "not same", "same", "don't know"]), tmp_path / "x.csv"),
        "y": write(_termpair_export("y", ["same", "not same", "not same", "not same"]), tmp_path / "y.csv"),
    }
    answers, which = read_filled_sheets(files, key, {"sheet": set(key["item"])}, ["term1", "term2"])
    assert which == {"x": "sheet", "y": "sheet"}
    scores = score_termpair_study(answers, key).set_index("dataset")
    assert scores.loc["all", "majority_nan"] == 2 and scores.loc["all", "accuracy"] == 1.0

    edited = _termpair_export("z", ["same"] * 4)
    edited.loc[1, "term2"] = "fever"
    duplicated = pd.concat([_termpair_export("w", ["same"] * 4), _termpair_export("w", ["same"] * 4).iloc[[0]]])
    bad = {"z": write(edited, tmp_path / "z.csv"), "w": write(duplicated, tmp_path / "w.csv")}
    with pytest.raises(SheetValidationError) as err:
        read_filled_sheets(bad, key, {"sheet": set(key["item"])}, ["term1", "term2"])
    found = {(p.path.name, p.line) for p in err.value.problems}
    assert ("z.csv", 3) in found and ("w.csv", 6) in found


def test_plan_wires_forms_and_exports() -> None:
    """rule all writes the survey and study forms; a rating set of exports reads them and the design."""
    from conftest import validated_config, workflow_config

    from biosem.layout import outputs
    from biosem.workflow.plan import Plan

    exports = {"format": "long", "survey": "verbs", "exports": ["r/a.csv", "r/b.csv"]}
    config = validated_config(workflow_config(), {"agreement": {"ratings": {"own": exports}}})
    plan = Plan(config)
    targets = set(plan.targets())
    for dataset in ("nouns", "verbs"):
        for group in (1, 2):
            assert outputs.simlex_survey_form.path(dataset=dataset, group=group) in targets
    assert outputs.termpair_study_form.path(terminology="hpo") in targets
    wildcards = SimpleNamespace(ratings="own")
    assert plan.agreement.ratings_input(wildcards) == ["r/a.csv", "r/b.csv"]
    assert plan.agreement.ratings_checksums(wildcards) == []
    assert plan.agreement.ratings_design(wildcards) == [outputs.simlex_survey_items.path(dataset="verbs")]
    assert plan.agreement.ratings_design(SimpleNamespace(ratings="simverb3500")) == []
    # The survey design's raters per group reach the exports' spec only; the other formats' spec is their config.
    spec = plan.agreement.ratings_spec(wildcards)
    assert spec["raters_per_group"] == config["simlex"]["survey"]["raters_per_group"] == 6
    assert spec["allow_incomplete"] is False
    simverb = config["agreement"]["ratings"]["simverb3500"]
    assert plan.agreement.ratings_spec(SimpleNamespace(ratings="simverb3500")) == {
        k: v for k, v in simverb.items() if k != "allow_incomplete"
    }
    assert "raters_per_group" not in plan.agreement.ratings_spec(SimpleNamespace(ratings="simverb3500"))


def test_write_survey_forms_script(tmp_path: Path) -> None:
    """The rule's script writes one form per group, each embedding that group's items."""
    items = design()
    write_table(items, tmp_path / "items.parquet", SURVEY_ITEMS)
    (tmp_path / "instructions.md").write_text("# Word similarity survey: nouns\n\nRate *similarity*.\n")
    forms = [str(tmp_path / f"group{g}.html") for g in (1, 2)]
    survey = config_with_defaults(simlex={"survey": {"dont_know": True, "identical_run_warning": 3}})["simlex"][
        "survey"
    ]
    snakemake = SimpleNamespace(
        input=SimpleNamespace(survey=str(tmp_path / "items.parquet"), instructions=str(tmp_path / "instructions.md")),
        output=SimpleNamespace(forms=forms),
        params=SimpleNamespace(survey=survey),
        wildcards=SimpleNamespace(dataset="nouns"),
        log=[],
    )
    runpy.run_path(
        str(REPO / "workflow/scripts/write_survey_forms.py"), init_globals={"snakemake": snakemake}, run_name="__main__"
    )
    for group, path in enumerate(forms, 1):
        data = embedded(Path(path).read_text())
        assert [it["id"] for it in data["items"]] == items.loc[items["group"] == group, "item_id"].tolist()
        assert data["dontKnow"] is True and data["runWarning"] == 3
